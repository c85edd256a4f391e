/*
 * test_realpolitik.c — the Realpolitik variant file (a variant naming the
 * standard geography, capitals and naval bases), the board's army on
 * board, and the adjudicator's switch (judge/engine/realpolitik.h). The
 * rules themselves are tested by tests/data/datc/realpolitik.txt.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/realpolitik.h"
#include "../../maps/variant.h"
#include "../../parser/orders.h"

static struct map *m;

static int
setup(void **state)
{
	(void)state;
	m = test_load_map("maps/realpolitik/variant.xml");
	return m == NULL;
}

static int
teardown(void **state)
{
	(void)state;
	map_free(m);
	return 0;
}

static prov_id
pr(const char *name)
{
	return map_find_province(m, name);
}

static power_id
pw(const char *name)
{
	return map_find_power(m, name);
}

/* The variant takes the standard board and adds its own. */
static void
test_variant(void **state)
{
	struct map *std = test_load_standard_map();

	(void)state;
	assert_string_equal(m->name, "realpolitik");
	assert_true(map_option_on(m, "realpolitik"));
	assert_int_equal(m->nprovs, std->nprovs);
	assert_int_equal(m->nsupply, 34);
	assert_int_equal(m->nstart, std->nstart);
	assert_int_equal(m->victory_centres, 0);
	assert_string_equal(m->system, "realpolitik");
	assert_int_equal(m->provs[pr("vie")].capital, pw("Austria"));
	assert_int_equal(m->provs[pr("bud")].capital, pw("Austria"));
	assert_int_equal(m->provs[pr("tri")].capital, POWER_NONE);
	assert_int_equal(m->provs[pr("tri")].naval_base, pw("Austria"));
	assert_int_equal(m->provs[pr("lon")].capital, pw("England"));
	assert_int_equal(m->provs[pr("lon")].naval_base, pw("England"));
	assert_int_equal(m->provs[pr("stp")].naval_base, pw("Russia"));
	assert_int_equal(m->provs[pr("mos")].capital, pw("Russia"));
	assert_int_equal(m->provs[pr("lvp")].naval_base, POWER_NONE);
	/* The standard board itself has none. */
	assert_int_equal(std->provs[pr("lon")].capital, POWER_NONE);
	map_free(std);
}

static void
expect_refused(const char *text, const char *phrase)
{
	struct buf err;
	struct map *bad;

	buf_init(&err, 1 << 16);
	bad = variant_parse(text, strlen(text), "maps/x/variant.xml", &err);
	assert_null(bad);
	if (strstr(buf_str(&err), phrase) == NULL)
		fail_msg("expected \"%s\" in: %s", phrase, buf_str(&err));
	buf_free(&err);
}

/* What a variant naming a geography may not hold or name. */
static void
test_variant_refused(void **state)
{
	(void)state;
	expect_refused("<variant name=\"x\" geography=\"standard\">"
		       "<province abbr=\"zzz\" name=\"Z\" terrain=\"land\"/></variant>",
	    "not allowed beside geography");
	expect_refused("<variant name=\"x\" geography=\"standard\">"
		       "<capital power=\"AUS\" at=\"tri ber\"/></variant>",
	    "capital ber: not a home centre of Austria");
	expect_refused("<variant name=\"x\" geography=\"standard\">"
		       "<naval-base power=\"AUS\" at=\"vie\"/></variant>",
	    "naval base vie: not on the coast");
	expect_refused("<variant name=\"x\" geography=\"standard\">"
		       "<capital power=\"AUS\" at=\"vie vie\"/></variant>",
	    "capital vie: named twice");
	expect_refused("<variant name=\"x\" geography=\"nowhere\"/>", "cannot read the geography");
	expect_refused("<variant name=\"x\" geography=\"../standard\"/>", "must name a variant");
}

/* The board's text form keeps an army on board. */
static void
test_board_aboard(void **state)
{
	const char *text = "phase Spring 1901 Movement\n"
			   "unit England F nth\n"
			   "unit England A nth aboard\n"
			   "unit Germany A ber\n"
			   "unit Germany A ber\n";
	struct board b;
	struct buf err, out;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&out, 4096);
	assert_int_equal(board_read(&b, m, text, strlen(text), &err), 0);
	assert_int_equal(b.nunits, 4);
	board_write(&b, m, &out);
	assert_non_null(strstr(buf_str(&out), "unit England A nth aboard\n"));
	assert_non_null(strstr(buf_str(&out), "unit England F nth\n"));
	buf_reset(&out);
	assert_int_equal(board_read(&b, m, "unit England A mun aboard\n", 26, &err), -1);
	buf_free(&err);
	buf_free(&out);
	/* The flag lives in the type byte: a unit stays four bytes. */
	assert_int_equal(sizeof(struct unit), 4);
	assert_true((UNIT_ABOARD & (UNIT_ARMY | UNIT_FLEET)) == 0);
}

/* One order, read for board b. */
static struct order
order_for(const struct names *nm, const struct board *b, const char *line)
{
	struct parse_ctx c = { m, nm, b, POWER_NONE };
	struct parse_result r;

	order_parse(&c, line, strlen(line), &r);
	if (r.verdict == VERDICT_REFUSED)
		fail_msg("cannot read \"%s\": %s", line, r.note);
	return r.order;
}

/* The option switches the adjudicator: without it a stack's second
 * order replaces the first and embarking is not an order. */
static void
test_switch(void **state)
{
	const char *text = "phase Spring 1901 Movement\nunit Germany A ber\nunit Germany A ber\n"
			   "unit England F bel\nunit England A hol\n";
	struct names *nm = names_new(m);
	struct phase_result *res = malloc(sizeof *res);
	struct order o[3];
	struct rules r;
	struct board b;
	struct buf err;

	(void)state;
	assert_non_null(res);
	buf_init(&err, 4096);
	assert_int_equal(board_read(&b, m, text, strlen(text), &err), 0);
	o[0] = order_for(nm, &b, "Germany: A ber - kie");
	o[1] = order_for(nm, &b, "Germany: A ber - mun");
	o[2] = order_for(nm, &b, "England: A hol - bel on board F bel");
	rules_init(&r, EDITION_2023);
	adj_resolve(m, &r, &b, o, 3, res, NULL);
	assert_int_equal(res->reason[0], R_REPLACED);
	assert_int_equal(res->reason[2], R_WRONG_PHASE);
	r.realpolitik = true;
	adj_resolve(m, &r, &b, o, 3, res, NULL);
	assert_int_equal(res->reason[0], R_OK);
	assert_int_equal(res->reason[1], R_OK);
	assert_int_equal(res->reason[2], R_OK);
	assert_int_equal(res->after.nunits, 4);
	buf_free(&err);
	free(res);
	names_free(nm);
}

/* A board from its text form, with the home centres owned by their powers. */
static void
board_from(struct board *b, const char *text)
{
	struct buf err;
	int q;

	buf_init(&err, 4096);
	if (board_read(b, m, text, strlen(text), &err) < 0)
		fail_msg("bad board: %s", buf_str(&err));
	for (q = 0; q < m->nprovs; q++)
		b->owner[q] = m->provs[q].home;
	buf_free(&err);
}

/* Armies only in capitals, fleets only in naval bases; own units there
 * do not stop a build, foreign ones and lost ownership do. */
static void
test_builds(void **state)
{
	power_id ger = pw("Germany"), eng = pw("England");
	power_id seat[MAP_MAX_PROVS];
	struct board b;
	int q;

	(void)state;
	board_from(&b, "phase Winter 1901 Adjustment\nunit Germany A ber\nunit Germany A ber\n"
		       "unit Germany A kie\nunit England A lon\nunit Russia A mun\n");
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_ARMY, pr("ber")), R_OK);
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_ARMY, pr("kie")), R_NOT_HOME);
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_FLEET, pr("ber")), R_NOT_HOME);
	/* A fleet raised in its base beside an army of its own. */
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_FLEET, pr("kie")), R_OK);
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_ARMY, pr("mun")), R_OCCUPIED);
	assert_int_equal(rp_can_build(m, &b, NULL, eng, UNIT_FLEET, pr("lon")), R_OK);
	assert_int_equal(rp_can_build(m, &b, NULL, eng, UNIT_ARMY, pr("lon")), R_OK);
	assert_int_equal(rp_can_build(m, &b, NULL, eng, UNIT_ARMY, pr("lvp")), R_NOT_HOME);
	assert_int_equal(rp_build_sites(m, &b, NULL, ger, UNIT_ARMY), 1);
	assert_int_equal(rp_build_sites(m, &b, NULL, pw("Austria"), UNIT_ARMY), 2);
	assert_int_equal(rp_build_sites(m, &b, NULL, pw("Russia"), UNIT_FLEET), 2);
	/* A lost capital raises nothing; its base lost, no fleets. */
	b.owner[pr("ber")] = pw("Russia");
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_ARMY, pr("ber")), R_NOT_OWNED);
	b.owner[pr("kie")] = pw("Russia");
	assert_int_equal(rp_build_sites(m, &b, NULL, ger, UNIT_FLEET), 0);
	/* Every home city lost: nothing at all, even in a moved capital. */
	b.owner[pr("mun")] = pw("Russia");
	for (q = 0; q < m->nprovs; q++)
		seat[q] = m->provs[q].capital;
	seat[pr("hol")] = ger;
	b.owner[pr("hol")] = ger;
	assert_int_equal(rp_can_build(m, &b, seat, ger, UNIT_ARMY, pr("hol")), R_NOT_OWNED);
	b.owner[pr("kie")] = ger;
	assert_int_equal(rp_can_build(m, &b, seat, ger, UNIT_ARMY, pr("hol")), R_OK);
	assert_int_equal(rp_can_build(m, &b, NULL, ger, UNIT_FLEET, pr("hol")), R_NOT_HOME);
}

/* A lost capital goes to another home centre the power holds, not to one
 * of its capitals already. */
static void
test_capital_default(void **state)
{
	struct board b;

	(void)state;
	board_from(&b, "phase Winter 1901 Adjustment\n");
	b.owner[pr("vie")] = pw("Russia");
	assert_int_equal(rp_capital_default(m, &b, NULL, pw("Austria"), pr("vie")), pr("tri"));
	b.owner[pr("tri")] = pw("Italy");
	assert_int_equal(rp_capital_default(m, &b, NULL, pw("Austria"), pr("vie")), PROV_NONE);
	b.owner[pr("ber")] = pw("Russia");
	assert_int_equal(rp_capital_default(m, &b, NULL, pw("Germany"), pr("ber")), pr("kie"));
}

/* Occupation on an even move: held through the Fall move, not merely
 * entered during it. */
static void
test_occupy(void **state)
{
	struct board start, end;

	(void)state;
	board_from(&start, "phase Fall 1901 Movement\nunit Germany A hol\nunit France A pic\n"
			   "unit England F nth\nunit England A nth aboard\nunit Russia A swe\n");
	board_from(&end, "phase Fall 1901 Movement\nunit Germany A hol\nunit France A bel\n"
			 "unit England F nwy\nunit England A nwy aboard\nunit Russia A swe\n");
	start.owner[pr("swe")] = pw("Russia");
	end.owner[pr("swe")] = pw("Russia");
	assert_int_equal(rp_occupy(m, &start, &end), 1);
	assert_int_equal(end.owner[pr("hol")], pw("Germany"));	/* held through the move */
	assert_int_equal(end.owner[pr("bel")], POWER_NONE);	/* only entered */
	assert_int_equal(end.owner[pr("nwy")], POWER_NONE);
	assert_int_equal(end.owner[pr("swe")], pw("Russia"));
	/* Once established it stays when the unit leaves. */
	start = end;
	board_from(&end, "phase Fall 1902 Movement\nunit Germany A kie\n");
	end.owner[pr("hol")] = pw("Germany");
	assert_int_equal(rp_occupy(m, &start, &end), 0);
	assert_int_equal(end.owner[pr("hol")], pw("Germany"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variant),
		cmocka_unit_test(test_variant_refused),
		cmocka_unit_test(test_board_aboard),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_builds),
		cmocka_unit_test(test_occupy),
		cmocka_unit_test(test_capital_default),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
