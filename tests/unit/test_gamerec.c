/*
 * test_gamerec.c — reading a game record (judge/casefiles/gamerec.h): a
 * record that replays, one whose position differs from the replay, and
 * records of a bad shape, where the fault of the shape is what is said
 * even when it comes after a phase that does not replay; a directory of
 * records, with a directory and links in it. The records are written here
 * by hand: the standard start, everybody holding.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../judge/casefiles/gamerec.h"

/* After the judge's headers: <unistd.h> defines R_OK. */
#include <unistd.h>

/* The standard starting position in the record's words. */
#define START \
	"Austria: army vie\nAustria: army bud\nAustria: fleet tri\n" \
	"England: fleet lon\nEngland: fleet edi\nEngland: army lvp\n" \
	"France: fleet bre\nFrance: army par\nFrance: army mar\n" \
	"Germany: fleet kie\nGermany: army ber\nGermany: army mun\n" \
	"Italy: fleet nap\nItaly: army rom\nItaly: army ven\n" \
	"Russia: army war\nRussia: army mos\nRussia: fleet sev\nRussia: fleet stp/sc\n" \
	"Turkey: fleet ank\nTurkey: army con\nTurkey: army smy\n" \
	"Austria: supply vie\nAustria: supply bud\nAustria: supply tri\n" \
	"England: supply lon\nEngland: supply edi\nEngland: supply lvp\n" \
	"France: supply bre\nFrance: supply par\nFrance: supply mar\n" \
	"Germany: supply kie\nGermany: supply ber\nGermany: supply mun\n" \
	"Italy: supply nap\nItaly: supply rom\nItaly: supply ven\n" \
	"Russia: supply war\nRussia: supply mos\nRussia: supply sev\nRussia: supply stp\n" \
	"Turkey: supply ank\nTurkey: supply con\nTurkey: supply smy\n"

/* Spring 1901 (lines 1-46), two of its units ordered to hold (lines 47-49),
 * then Fall 1901 (its header on line 50, its position on lines 52-95): the
 * lines said in the reports below. */
#define SPRING "PHASE 1901 Spring Movement\nPOSITIONS\n" START \
	"ORDERS\nlon hold\npar hold\n"
#define FALL "PHASE 1901 Fall Movement\nPOSITIONS\n"

/* Phases handed to count_phase. */
static int handed;

static int
count_phase(void *ctx, const struct gamerec_phase *ph)
{
	(void)ctx;
	(void)ph;
	handed++;
	return 0;
}

/* Replay text (with fn: count_phase); the report into report. Returns as
 * gamerec_replay_text, and the phases played in *phases. */
static int
replay(const char *text, bool fn, struct buf *report, long *phases)
{
	struct gamerec_stats st;
	struct rules r;
	int rc;

	memset(&st, 0, sizeof st);
	rules_init(&r, EDITION_2000);
	buf_reset(report);
	handed = 0;
	rc = gamerec_replay_text(test_standard_map(), test_standard_names(), &r, text,
	    strlen(text), "g", &st, report, fn ? count_phase : NULL, NULL);
	*phases = st.phases;
	return rc;
}

/* Everybody held: the Fall position is the start. */
static void
test_record_replays(void **state)
{
	struct buf report;
	long phases;

	(void)state;
	buf_init(&report, 1 << 16);
	assert_int_equal(replay(SPRING FALL START, true, &report, &phases), 0);
	assert_string_equal(buf_str(&report), "");
	assert_int_equal(phases, 1);
	assert_int_equal(handed, 1);
	/* Lines ending in CR LF read the same. */
	{
		const char *lf = SPRING FALL START;
		char *crlf = malloc(2 * strlen(lf) + 1);
		size_t i, k = 0;
		assert_non_null(crlf);
		for (i = 0; lf[i]; i++) {
			if (lf[i] == '\n')
				crlf[k++] = '\r';
			crlf[k++] = lf[i];
		}
		crlf[k] = '\0';
		assert_int_equal(replay(crlf, false, &report, &phases), 0);
		assert_string_equal(buf_str(&report), "");
		free(crlf);
	}
	buf_free(&report);
}

/* A record with the English fleet in the North Sea in Fall 1901 (it did
 * not move there), in 4096 bytes of the heap. */
static char *
moved_record(void)
{
	char *text = malloc(4096), *at;

	assert_non_null(text);
	snprintf(text, 4096, "%s", SPRING FALL START);
	at = strstr(text + strlen(SPRING), "fleet lon");
	assert_non_null(at);
	memcpy(at, "fleet nth", 9);
	return text;
}

/* The record has the English fleet in the North Sea: it did not move. */
static void
test_record_differs(void **state)
{
	struct buf report;
	long phases;
	char *text = moved_record();

	(void)state;
	buf_init(&report, 1 << 16);
	assert_int_equal(replay(text, false, &report, &phases), 1);
	assert_string_equal(buf_str(&report),
	    "g:50: after Spring 1901 Movement: extra England F lon; missing England F nth; \n");
	assert_int_equal(phases, 1);

	/* A bad header later in the record is said instead, and nothing is
	 * counted as played. */
	text = realloc(text, 8192);
	assert_non_null(text);
	strcat(text, "PHASE 1901 Blah Movement\nPOSITIONS\n");
	assert_int_equal(replay(text, true, &report, &phases), -1);
	assert_string_equal(buf_str(&report), "g:96: bad phase \"1901 Blah Movement\"\n");
	assert_int_equal(phases, 0);
	assert_int_equal(handed, 0);

	/* So is a later phase without POSITIONS. */
	*strstr(text, "PHASE 1901 Blah") = '\0';
	strcat(text, "PHASE 1901 Fall Retreat\nORDERS\n");
	assert_int_equal(replay(text, false, &report, &phases), -1);
	assert_string_equal(buf_str(&report), "g:96: phase without POSITIONS\n");
	assert_int_equal(phases, 0);
	free(text);
	buf_free(&report);
}

/* A position line that names nobody or nothing. */
static void
test_record_bad_lines(void **state)
{
	struct buf report;
	long phases;

	(void)state;
	buf_init(&report, 1 << 16);
	assert_int_equal(replay(SPRING FALL START "Prussia: army ber\n", false, &report, &phases),
	    -1);
	assert_string_equal(buf_str(&report), "g:50: bad position line: Prussia: army ber\n");
	assert_int_equal(phases, 1);
	assert_int_equal(replay(SPRING FALL START "Turkey: tank con\n", false, &report, &phases),
	    -1);
	assert_string_equal(buf_str(&report), "g:50: bad unit kind: Turkey: tank con\n");
	/* A second ORDERS ends the POSITIONS there: the first ORDERS is
	 * read as a position line. */
	assert_int_equal(replay(SPRING "ORDERS\n" FALL START, false, &report, &phases), -1);
	assert_string_equal(buf_str(&report), "g:1: bad position line: ORDERS\n");
	assert_int_equal(phases, 0);
	/* A POSITIONS again starts the position afresh (and drops the
	 * orders before it). */
	assert_int_equal(replay("PHASE 1901 Spring Movement\nPOSITIONS\nPrussia: army ber\n"
	    "POSITIONS\n" START "ORDERS\nlon move nth\nPOSITIONS\n" START FALL START, false,
	    &report, &phases), 0);
	assert_string_equal(buf_str(&report), "");
	assert_int_equal(replay("no phase here\n", false, &report, &phases), -1);
	assert_string_equal(buf_str(&report), "g: no PHASE in the record\n");
	buf_free(&report);
}

/* Write text into the file dir/name. */
static void
put_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* A directory of records: its files ending in .txt are replayed in the
 * order of their names, those in a directory in it and those a link
 * names too; a file of another name, a hidden one and a link to nothing
 * are passed over. */
static void
test_record_paths(void **state)
{
	char dir[64], path[128], sub[128], want[1024];
	const char *paths[1];
	struct buf out;
	char *bad = moved_record();
	FILE *f;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "gamerec"), 0);
	put_file(dir, "a.txt", SPRING FALL START);
	put_file(dir, "c.txt", bad);
	put_file(dir, "notes.md", "no record\n");
	put_file(dir, ".hidden.txt", "no record\n");
	snprintf(sub, sizeof sub, "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	put_file(sub, "b.txt", SPRING FALL START);
	snprintf(path, sizeof path, "%s/link.txt", dir);
	assert_int_equal(symlink("a.txt", path), 0);
	snprintf(path, sizeof path, "%s/linked", dir);
	assert_int_equal(symlink("sub", path), 0);
	snprintf(path, sizeof path, "%s/nothing.txt", dir);
	assert_int_equal(symlink("not-there", path), 0);
	snprintf(path, sizeof path, "%s/out", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	paths[0] = dir;
	assert_int_equal(gamerec_check_paths(test_standard_map(), EDITION_2000, paths, 1, 0,
	    false, f), 1);
	assert_int_equal(fclose(f), 0);
	test_read_file(path, &out);
	snprintf(want, sizeof want,
	    "%s/c.txt:50: after Spring 1901 Movement: extra England F lon; missing England F nth; \n"
	    "5 phases, 10 orders (0 unreadable) replayed\n"
	    "0 civil-disorder adjustment phases (recorded removals used; ours agreed in 0)\n"
	    "0 phases kept by the record in which nothing could be decided\n"
	    "0 phases missing from the record, played without orders\n"
	    "4 passed, 1 failed\n", dir);
	assert_string_equal(buf_str(&out), want);
	buf_free(&out);
	free(bad);
	assert_int_equal(test_rm_rf(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_replays),
		cmocka_unit_test(test_record_differs),
		cmocka_unit_test(test_record_bad_lines),
		cmocka_unit_test(test_record_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
