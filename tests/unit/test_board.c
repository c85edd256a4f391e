/*
 * test_board.c — the board's text form (judge/engine/board.h) and the
 * result text (judge/engine/report.h), line by line: the expected lines are
 * written here by hand, from the rules, for a small position with a
 * bounce, a support cut, a dislodgement and its retreat.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/report.h"
#include "../../parser/orders.h"

/* A board from its text form; fails the test when it does not read. */
static void
board_from(struct board *b, const char *text)
{
	struct buf err;

	buf_init(&err, 4096);
	if (board_read(b, test_standard_map(), text, strlen(text), &err) < 0)
		fail_msg("board_read: %s", buf_str(&err));
	buf_free(&err);
}

/* b in text form must be exactly want. */
static void
assert_board_text(const struct board *b, const char *want)
{
	struct buf out;

	buf_init(&out, 1 << 16);
	board_write(b, test_standard_map(), &out);
	assert_string_equal(buf_str(&out), want);
	buf_free(&out);
}

/* Written in the canonical order (units by location, then the dislodged,
 * the contested provinces and the owners by province): read and written
 * again, the same text. */
static const char retreat_board[] =
    "phase Fall 1902 Retreat\n"
    "unit France A bur\n"
    "unit Germany A kie\n"
    "unit England F nth\n"
    "unit Italy A tri\n"
    "dislodged Austria F tri from ven\n"
    "contested gal\n"
    "owner Germany kie\n"
    "owner Austria tri\n"
    "owner Italy ven\n";

static void
test_board_round_trip(void **state)
{
	const struct map *m = test_standard_map();
	struct board b;

	(void)state;
	board_from(&b, retreat_board);
	assert_int_equal(b.year, 1902);
	assert_int_equal(b.season, SEASON_FALL);
	assert_int_equal(b.phase, PHASE_RETREAT);
	assert_int_equal(b.nunits, 4);
	assert_int_equal(b.ndislodged, 1);
	assert_int_equal(b.dislodged[0].attacker, map_find_province(m, "ven"));
	assert_true(board_contested(&b, map_find_province(m, "gal")));
	assert_int_equal(b.owner[map_find_province(m, "tri")], map_find_power(m, "Austria"));
	assert_board_text(&b, retreat_board);

	/* The compact phase, other spellings and any order of lines read the same. */
	board_from(&b, "owner Italy ven\nowner Austria tri\nowner Germany kie\ncontested gal\n"
		       "dislodged Austria fleet tri from ven\nunit Italy army tri\n"
		       "unit England fleet nth\nunit Germany a kie\nunit France A bur\n"
		       "phase F1902R\n");
	assert_board_text(&b, retreat_board);
}

/* Every bad line named by its number, then the missing phase. */
static void
test_board_errors(void **state)
{
	static const char bad[] = "unit England X lon\n"
				  "unit Englund F lon\n"
				  "unit England F mun\n"
				  "dislodged England F lon to wal\n"
				  "dislodged England F lon from xyz\n"
				  "owner England yor\n"
				  "owner England\n"
				  "contested xyz\n"
				  "frob\n";
	struct board b;
	struct buf err;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(board_read(&b, test_standard_map(), bad, strlen(bad), &err), -1);
	assert_string_equal(buf_str(&err), "1: unit type must be A or F\n"
					   "2: unknown power\n"
					   "3: that unit cannot stand there\n"
					   "4: expected: from PROVINCE\n"
					   "5: unknown province after from\n"
					   "6: not a supply centre\n"
					   "7: expected: owner POWER PROVINCE\n"
					   "8: unknown province\n"
					   "9: unknown keyword\n"
					   "no phase line\n");
	buf_free(&err);
}

static struct phase_result res;

/* Adjudicate the orders (NULL-terminated) on b into res; o gets them. */
static int
resolve(const struct rules *r, const struct board *b, const char *const *lines, struct order *o)
{
	const struct map *m = test_standard_map();
	int n = 0;

	for (; *lines; lines++) {
		struct parse_ctx c = { m, test_standard_names(), b, POWER_NONE };
		struct parse_result pr;
		order_parse(&c, *lines, strlen(*lines), &pr);
		if (pr.verdict != VERDICT_ACCEPTED)
			fail_msg("cannot read \"%s\": %s", *lines, pr.note);
		o[n++] = pr.order;
	}
	adj_resolve(m, r, b, o, n, &res, NULL);
	return n;
}

/* The results of b with orders o, exactly want. */
static void
assert_results(const struct board *b, const struct order *o, const char *want)
{
	struct buf out;

	buf_init(&out, 1 << 16);
	report_results(test_standard_map(), b, o, &res, NULL, &out);
	assert_string_equal(buf_str(&out), want);
	buf_free(&out);
}

/*
 * Spring 1901. Vienna and Warsaw both move to Galicia: a bounce, Galicia
 * stays empty (a standoff). Kiel attacks Ruhr, which cuts Ruhr's support
 * of Burgundy to Munich (the attack does not come from Munich), so
 * Burgundy (1) bounces off Munich holding (1), and Kiel (1) off Ruhr (1).
 * Venice, supported from Tyrolia (2), dislodges the fleet in Trieste (1);
 * the fleet may retreat to the Adriatic Sea or Albania, not to Venice,
 * whence the attack came, nor inland.
 */
static const char *const spring[] = { "A vie - gal", "A war - gal", "A kie - ruh",
	"A ruh S A bur - mun", "A bur - mun", "A mun H", "A ven - tri", "A tyr S A ven - tri",
	"F tri H", NULL };

/* Where the units stand after it (Trieste now Italian, Galicia empty), and
 * the owners, unchanged until the end of the Fall. */
#define AFTER_SPRING "unit France A bur\nunit Germany A kie\nunit Germany A mun\n" \
	"unit France A ruh\nunit Italy A tri\nunit Italy A tyr\nunit Austria A vie\n" \
	"unit Russia A war\n"
#define OWNERS "owner Austria tri\nowner Italy ven\nowner Austria vie\n"

static void
test_report_lines(void **state)
{
	struct order o[16];
	struct rules r;
	struct board b;

	(void)state;
	rules_init(&r, EDITION_2023);
	board_from(&b, "phase Spring 1901 Movement\n"
		       "unit Austria A vie\nunit Austria F tri\nunit Russia A war\n"
		       "unit France A bur\nunit France A ruh\nunit Germany A mun\n"
		       "unit Germany A kie\nunit Italy A ven\nunit Italy A tyr\n"
		       "owner Austria tri\nowner Austria vie\nowner Italy ven\n");
	resolve(&r, &b, spring, o);
	assert_results(&b, o,
	    "Movement results for Spring of 1901.\n"
	    "\n"
	    "Austria: Fleet Trieste HOLD.  (*dislodged*)\n"
	    "Austria: Army Vienna -> Galicia.  (*bounce*)\n"
	    "France: Army Burgundy -> Munich.  (*bounce*)\n"
	    "France: Army Ruhr SUPPORT Army Burgundy -> Munich.  (*cut*)\n"
	    "Germany: Army Kiel -> Ruhr.  (*bounce*)\n"
	    "Germany: Army Munich HOLD.\n"
	    "Italy: Army Tyrolia SUPPORT Army Venice -> Trieste.\n"
	    "Italy: Army Venice -> Trieste.\n"
	    "Russia: Army Warsaw -> Galicia.  (*bounce*)\n"
	    "\n"
	    "The following units were dislodged:\n"
	    "The Austrian Fleet in Trieste can retreat to Adriatic Sea or Albania.\n");
	b = res.after;
	phase_next(test_standard_map(), &r, &b);
	/* Nothing changes hands in Spring; Galicia is closed to retreats. */
	assert_board_text(&b, "phase Spring 1901 Retreat\n"
			      AFTER_SPRING
			      "dislodged Austria F tri from ven\n"
			      "contested gal\n"
			      OWNERS);

	resolve(&r, &b, (const char *const[]){ "F tri - alb", NULL }, o);
	assert_results(&b, o, "Retreat results for Spring of 1901.\n"
			      "\n"
			      "Austria: Fleet Trieste -> Albania.\n");
	b = res.after;
	phase_next(test_standard_map(), &r, &b);
	assert_board_text(&b, "phase Fall 1901 Movement\n"
			      "unit Austria F alb\n"
			      AFTER_SPRING
			      OWNERS);
}

/* A support or convoy of another power's unit names that unit's nation,
 * as the rulebook writes "A Sil S RUSSIAN A War-Pru"; of one's own unit,
 * none (Burgundy supports Munich, both French). */
static void
test_report_nations(void **state)
{
	static const char *const orders[] = { "A mun S A ber - sil", "A ber - sil",
		"A bur S A mun", "F nth C A bel - nwy", "A bel - nwy", NULL };
	struct order o[8];
	struct rules r;
	struct board b;
	struct buf out;

	(void)state;
	rules_init(&r, EDITION_2023);
	board_from(&b, "phase Spring 1901 Movement\n"
		       "unit France A mun\nunit France A bur\nunit Germany A ber\n"
		       "unit England F nth\nunit France A bel\n");
	resolve(&r, &b, orders, o);
	buf_init(&out, 1 << 16);
	report_results(test_standard_map(), &b, o, &res, NULL, &out);
	assert_non_null(strstr(buf_str(&out),
	    "France: Army Munich SUPPORT German Army Berlin -> Silesia.\n"));
	assert_non_null(strstr(buf_str(&out),
	    "England: Fleet North Sea CONVOY French Army Belgium -> Norway.\n"));
	assert_non_null(strstr(buf_str(&out), "France: Army Burgundy SUPPORT Army Munich.\n"));
	buf_free(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_round_trip),
		cmocka_unit_test(test_board_errors),
		cmocka_unit_test(test_report_lines),
		cmocka_unit_test(test_report_nations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
