/*
 * cli_tools.c — the checking commands: datc, check-game, map.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../maps/variant.h"
#include "cli.h"
#include "cli_pages.h"
#include "../casefiles/datc.h"
#include "../casefiles/gamerec.h"
#include "../casefiles/play.h"
#include "../casefiles/transcript.h"
#include "../engine/rules.h"

static struct map *
open_variant(const struct cli_opts *o, const char *name)
{
	struct buf err;
	struct map *m;

	buf_init(&err, BUF_ERRORS_MAX);
	m = variant_open(name, o->maps_dir, &err);
	if (m == NULL)
		fprintf(stderr, "%s", buf_str(&err));
	buf_free(&err);
	return m;
}

/* Parse "--edition E"; returns the index of the first non-option argument. */
static int
edition_opts(int argc, char **argv, enum edition *ed, int *verbose, const char **variant)
{
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (strcmp(argv[i], "--edition") == 0 && i + 1 < argc) {
			if (edition_parse(argv[i + 1], ed) < 0) {
				fprintf(stderr, "pouch: unknown edition \"%s\" (2023, 2000, 1982, 1971, dptg, webdiplomacy)\n",
				    argv[i + 1]);
				return -1;
			}
			i += 2;
		} else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
			*variant = argv[i + 1];
			i += 2;
		} else if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) {
			(*verbose)++;
			i++;
		} else {
			fprintf(stderr, "pouch %s: unknown option %s\n", argv[0], argv[i]);
			return -1;
		}
	}
	return i;
}

/* Is flag among the options before the first operand? It is taken out of
 * argv (*argc one less). */
static bool
take_flag(int *argc, char **argv, const char *flag)
{
	int i;

	for (i = 1; i < *argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], flag) == 0) {
			memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof argv[0]);
			(*argc)--;
			return true;
		}
	}
	return false;
}

/* Without --variant, a case file runs on the variant its VARIANT_ALL
 * names (standard when it names none or "standard"): m itself, or a map
 * opened for it (NULL when it cannot be opened). */
static struct map *
datc_file_variant(const struct cli_opts *o, struct map *m, const struct buf *text)
{
	char name[64];

	if (datc_variant(buf_str(text), text->len, name, sizeof name) < 0 ||
	    str_eq_nocase(name, "standard") || str_eq_nocase(name, m->name))
		return m;
	return open_variant(o, name);
}

/* Print out to standard output; a text cut short by its cap is followed by
 * a line saying so on standard error. Returns 0, or -1 when it was cut. */
static int
put_output(const char *cmd, const struct buf *out)
{
	fputs(buf_str(out), stdout);
	if (!buf_failed(out))
		return 0;
	fprintf(stderr, "pouch %s: the output stops here: it passed %zu MB\n", cmd, out->max >> 20);
	return -1;
}

int
cli_datc(const struct cli_opts *o, int argc, char **argv)
{
	enum edition ed = EDITION_2023;
	const char *variant = NULL;
	struct datc_totals t = { 0, 0 };
	int verbose = o->verbose, i, first, bad = 0;
	bool reasons;
	struct map *m, *own;

	reasons = take_flag(&argc, argv, "--reasons");	/* the results with their reasons */
	first = edition_opts(argc, argv, &ed, &verbose, &variant);
	if (reasons)
		verbose = DATC_REASONS;
	if (first < 0)
		return 2;
	if (first >= argc) {
		return cli_usage("datc", stderr);
	}
	m = open_variant(o, variant ? variant : "standard");
	if (m == NULL)
		return 1;
	for (i = first; i < argc; i++) {
		struct buf text, report;

		buf_init(&text, 64u << 20);
		buf_init(&report, 64u << 20);
		if (fs_read_file(argv[i], &text) < 0) {
			fprintf(stderr, "pouch datc: %s: %s\n", argv[i], strerror(errno));
			bad = 1;
		} else {
			own = variant ? NULL : datc_file_variant(o, m, &text);
			if (!variant && own == NULL)
				bad = 1;
			else if (datc_run(own ? own : m, ed, buf_str(&text), text.len, argv[i], verbose,
			    &report, &t) < 0)
				bad = 1;
			if (own != m)
				map_free(own);
		}
		bad |= put_output("datc", &report) < 0;
		buf_free(&text);
		buf_free(&report);
	}
	printf("%d passed, %d failed\n", t.passed, t.failed);
	map_free(m);
	return bad || t.failed ? 1 : 0;
}

int
cli_map(const struct cli_opts *o, int argc, char **argv)
{
	int i, bad = 0;

	if (argc >= 3 && strcmp(argv[1], "check") == 0) {
		for (i = 2; i < argc; i++) {
			struct buf err;
			struct map *m;

			buf_init(&err, 1 << 20);
			m = variant_load(argv[i], &err);
			if (m == NULL) {
				fputs(buf_str(&err), stderr);
				bad = 1;
			} else {
				printf("%s: %s (%s): %d powers, %d provinces, %d supply centres, %d units, "
				    "first year %d\n",
				    argv[i], m->name, m->title, m->npowers, m->nprovs, m->nsupply, m->nstart,
				    m->start_year);
			}
			map_free(m);
			buf_free(&err);
		}
		return bad;
	}
	if (argc == 3 && strcmp(argv[1], "show") == 0) {
		struct map *m = open_variant(o, argv[2]);
		int p;

		if (m == NULL)
			return 1;
		printf("%s (%s), from %s\n", m->title, m->name, m->file ? m->file : "?");
		if (m->victory_centres > 0)
			printf("first turn Spring %d; victory with %d of %d supply centres\n",
			    m->start_year, m->victory_centres, m->nsupply);
		else
			printf("first turn Spring %d; %d supply centres, no outright victory (the game "
			    "master ends the game)\n", m->start_year, m->nsupply);
		for (p = 0; p < m->npowers; p++) {
			int k, homes = 0;
			printf("%-14s %-4s", m->powers[p].name, m->powers[p].abbr);
			for (k = 0; k < m->nprovs; k++)
				if (m->provs[k].home == p) {
					printf("%s %s", homes ? "," : " home:", m->provs[k].abbr);
					homes++;
				}
			printf("\n");
		}
		map_free(m);
		return 0;
	}
	return cli_usage("map", stderr);
}

int
cli_check_game(const struct cli_opts *o, int argc, char **argv)
{
	enum edition ed = EDITION_2000;
	const char *variant = "standard";
	int verbose = o->verbose, first, r;
	bool reasons = false;
	struct map *m;

	reasons = take_flag(&argc, argv, "--reasons");	/* each movement phase's reasons checked too */
	first = edition_opts(argc, argv, &ed, &verbose, &variant);
	if (first < 0)
		return 2;
	if (first >= argc) {
		return cli_usage("check-game", stderr);
	}
	m = open_variant(o, variant);
	if (m == NULL)
		return 1;
	r = gamerec_check_paths(m, ed, (const char *const *)argv + first, argc - first, verbose,
	    reasons, stdout);
	map_free(m);
	return r;
}

int
cli_play(const struct cli_opts *o, int argc, char **argv)
{
	enum edition ed = EDITION_2023;
	const char *variant = "standard";
	int verbose = o->verbose, first, rc;
	struct page_opts po;
	struct buf text, out;
	struct map *m;

	argc = cli_page_opts(argc, argv, &po);
	if (argc < 0)
		return 2;
	first = edition_opts(argc, argv, &ed, &verbose, &variant);
	if (first < 0)
		return 2;
	if (first + 1 != argc) {
		return cli_usage("play", stderr);
	}
	m = open_variant(o, variant);
	if (m == NULL)
		return 1;
	buf_init(&text, 16u << 20);
	buf_init(&out, 64u << 20);
	if (fs_read_file(argv[first], &text) < 0) {
		fprintf(stderr, "pouch play: %s: %s\n", argv[first], strerror(errno));
		rc = 1;
	} else {
		rc = po.dir ? cli_play_pages(o, m, ed, buf_str(&text), text.len, argv[first], &po, &out) :
		    play_text(m, ed, buf_str(&text), text.len, argv[first], &out);
		rc = put_output("play", &out) < 0 || rc < 0 ? 1 : 0;
	}
	buf_free(&text);
	buf_free(&out);
	map_free(m);
	return rc;
}

int
cli_transcript(const struct cli_opts *o, int argc, char **argv)
{
	struct buf text, out;
	int rc;

	if (argc != 2) {
		return cli_usage("transcript", stderr);
	}
	buf_init(&text, 16u << 20);
	buf_init(&out, 256u << 20);
	if (fs_read_file(argv[1], &text) < 0) {
		fprintf(stderr, "pouch transcript: %s: %s\n", argv[1], strerror(errno));
		buf_free(&text);
		return 1;
	}
	rc = transcript_run(buf_str(&text), text.len, argv[1], o->maps_dir, &out) < 0 ? 1 : 0;
	if (put_output("transcript", &out) < 0)
		rc = 1;
	buf_free(&text);
	buf_free(&out);
	return rc;
}
