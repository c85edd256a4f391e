/*
 * test_adjudicate.c — the engine beyond single DATC cases: phase sequence,
 * skipped phases, centre ownership, victory, traces, replaced orders, the
 * board's text form.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../parser/orders.h"

static struct names *nm;

static int
setup(void **state)
{
	(void)state;
	nm = names_new(test_standard_map());
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	names_free(nm);
	return 0;
}

/* Parse orders (NULL-terminated) for board b into out; returns the count. */
static int
parse_all(const struct board *b, const char *const *lines, struct order *out)
{
	const struct map *m = test_standard_map();
	int n = 0;

	for (; *lines; lines++) {
		struct parse_ctx c = { m, nm, b, POWER_NONE };
		struct parse_result r;
		order_parse(&c, *lines, strlen(*lines), &r);
		if (r.verdict == VERDICT_REFUSED)
			fail_msg("cannot read \"%s\": %s", *lines, r.note);
		out[n++] = r.order;
	}
	return n;
}

static struct phase_result res;

static void
play(struct board *b, const struct rules *r, const char *const *lines)
{
	struct order o[64];
	int n = parse_all(b, lines, o);

	adj_resolve(test_standard_map(), r, b, o, n, &res, NULL);
	*b = res.after;
	phase_next(test_standard_map(), r, b);
}

/* Adjudicate lines on the starting position (2023 rules) into res. */
static void
resolve_start(const char *const *lines, struct buf *trace)
{
	struct order o[64];
	struct rules r;
	struct board b;
	int n;

	rules_init(&r, EDITION_2023);
	board_init_start(&b, test_standard_map());
	n = parse_all(&b, lines, o);
	adj_resolve(test_standard_map(), &r, &b, o, n, &res, trace);
}

static int
unit_at(const struct board *b, const char *where)
{
	const struct map *m = test_standard_map();
	return board_unit_in(b, m, map_find_province(m, where));
}

static void
test_year_sequence(void **state)
{
	const struct map *m = test_standard_map();
	static const char *const spring[] = { "Russia: A war - gal", "Austria: A vie - gal",
		"Turkey: A con - bul", NULL };
	static const char *const fall[] = { "Turkey: A bul - gre", "Austria: F tri - alb", NULL };
	static const char *const none[] = { NULL };
	struct rules r;
	struct board b;

	(void)state;
	rules_init(&r, EDITION_2023);
	board_init_start(&b, m);
	play(&b, &r, spring);
	/* No one dislodged: straight to Fall. Galicia stood off. */
	assert_int_equal(b.season, SEASON_FALL);
	assert_int_equal(b.phase, PHASE_MOVEMENT);
	assert_true(unit_at(&b, "bul") >= 0);
	assert_true(unit_at(&b, "gal") < 0);
	play(&b, &r, fall);
	/* Greece changes hands only now, at the end of Fall. */
	assert_int_equal(b.season, SEASON_WINTER);
	assert_int_equal(b.phase, PHASE_ADJUSTMENT);
	assert_int_equal(b.owner[map_find_province(m, "gre")], map_find_power(m, "Turkey"));
	assert_int_equal(adj_builds_due(m, &b, map_find_power(m, "Turkey")), 1);
	assert_int_equal(adj_build_sites(m, &r, &b, map_find_power(m, "Turkey")), 1); /* Constantinople */
	play(&b, &r, none);
	assert_int_equal(b.year, 1902);
	assert_int_equal(b.season, SEASON_SPRING);
	assert_int_equal(board_winner(m, &b), POWER_NONE);
}

static void
test_nothing_to_adjust_is_skipped(void **state)
{
	const struct map *m = test_standard_map();
	static const char *const none[] = { NULL };
	struct rules r;
	struct board b;
	int skipped;

	(void)state;
	rules_init(&r, EDITION_2023);
	board_init_start(&b, m);
	play(&b, &r, none);	/* Spring: all hold */
	assert_int_equal(b.season, SEASON_FALL);
	{
		struct order o[1];
		adj_resolve(m, &r, &b, o, 0, &res, NULL);
		b = res.after;
		skipped = phase_next(m, &r, &b);
	}
	/* No retreat, no adjustment: two phases skipped, on to Spring 1902. */
	assert_int_equal(skipped, 2);
	assert_int_equal(b.year, 1902);
	assert_int_equal(b.season, SEASON_SPRING);
}

static void
test_no_retreat_means_disbanded(void **state)
{
	const struct map *m = test_standard_map();
	struct rules r;
	struct board b;
	struct buf err;
	static const char pos[] =
	    "phase Spring 1901 Movement\n"
	    "unit Germany A mun\nunit Germany A ber\nunit Germany A sil\n"
	    "unit Russia A war\nunit Austria A boh\nunit Austria A tyr\n"
	    "unit Russia A pru\nunit Italy A kie\n";
	/* Munich is dislodged by Bohemia with Tyrolia's support; it cannot go
	 * to Bohemia (attacker), Tyrolia, Berlin, Kiel, Silesia (occupied),
	 * Burgundy or Ruhr... which are empty, so it may retreat. */
	static const char *const orders[] = { "Austria: A boh - mun", "Austria: A tyr S A boh - mun",
		NULL };

	(void)state;
	rules_init(&r, EDITION_2023);
	buf_init(&err, 1024);
	assert_int_equal(board_read(&b, m, pos, sizeof pos - 1, &err), 0);
	play(&b, &r, orders);
	assert_int_equal(b.phase, PHASE_RETREAT);
	assert_int_equal(b.ndislodged, 1);
	assert_int_equal(b.dislodged[0].attacker, map_find_province(m, "boh"));
	{
		loc_id opt[16];
		int n = adj_retreat_options(m, &b, &b.dislodged[0], opt), i;
		for (i = 0; i < n; i++) {
			assert_int_not_equal(m->locs[opt[i]].prov, map_find_province(m, "boh"));
			assert_int_not_equal(m->locs[opt[i]].prov, map_find_province(m, "ber"));
		}
		assert_int_equal(n, 2);	/* Burgundy and Ruhr */
	}
	buf_free(&err);
}

static void
test_trace_explains(void **state)
{
	static const char *const orders[] = { "France: A par - bur", "France: A mar S A par - bur",
		"Germany: A mun - bur", NULL };
	struct buf tr;

	(void)state;
	buf_init(&tr, 1 << 16);
	resolve_start(orders, &tr);
	assert_non_null(strstr(buf_str(&tr), "France A par - bur: attack 2 vs hold 0, prevent 1 of A mun; succeeds"));
	assert_non_null(strstr(buf_str(&tr), "Germany A mun - bur: attack 1 vs hold 0, prevent 2 of A par; fails"));
	assert_non_null(strstr(buf_str(&tr), "France A mar supports: given"));
	assert_int_equal(res.reason[0], R_OK);
	assert_int_equal(res.reason[2], R_BOUNCED);
	buf_free(&tr);
}

static void
test_later_order_replaces(void **state)
{
	const struct map *m = test_standard_map();
	static const char *const orders[] = { "France: A par - bur", "France: A par - pic",
		"France: A par - mun", NULL };

	(void)state;
	resolve_start(orders, NULL);
	assert_int_equal(res.reason[0], R_REPLACED);
	assert_int_equal(res.reason[1], R_OK);	/* the last legal order counts */
	assert_int_equal(res.reason[2], R_NOT_ADJACENT);	/* an illegal one does not replace */
	assert_true(board_unit_in(&res.after, m, map_find_province(m, "pic")) >= 0);
}

static void
test_foreign_and_missing_units(void **state)
{
	static const char *const orders[] = { "Germany: A par - bur", "France: A bur - par",
		NULL };

	(void)state;
	resolve_start(orders, NULL);
	assert_int_equal(res.reason[0], R_FOREIGN_UNIT);
	assert_int_equal(res.reason[1], R_NO_UNIT);
}

static void
test_board_text_round_trip(void **state)
{
	const struct map *m = test_standard_map();
	struct board b, c;
	struct buf t1, t2, err;

	(void)state;
	board_init_start(&b, m);
	b.dislodged[0].unit = b.units[0];
	b.dislodged[0].attacker = map_find_province(m, "bur");
	b.ndislodged = 1;
	board_set_contested(&b, map_find_province(m, "gal"));
	buf_init(&t1, 1 << 16);
	buf_init(&t2, 1 << 16);
	buf_init(&err, 1 << 10);
	board_write(&b, m, &t1);
	assert_int_equal(board_read(&c, m, buf_str(&t1), t1.len, &err), 0);
	board_write(&c, m, &t2);
	assert_string_equal(buf_str(&t1), buf_str(&t2));
	assert_non_null(strstr(buf_str(&t1), "phase Spring 1901 Movement\n"));
	assert_non_null(strstr(buf_str(&t1), "unit Russia F stp/sc\n"));
	assert_non_null(strstr(buf_str(&t1), "contested gal\n"));
	/* Bad lines are reported with their numbers. */
	assert_int_equal(board_read(&c, m, "phase Spring 1901 Movement\nunit Narnia A par\n", 44, &err),
	    -1);
	assert_non_null(strstr(buf_str(&err), "2: unknown power"));
	buf_free(&t1);
	buf_free(&t2);
	buf_free(&err);
}

static void
test_victory(void **state)
{
	const struct map *m = test_standard_map();
	struct board b;
	int p, k = 0;
	power_id fr = map_find_power(m, "France");

	(void)state;
	board_init_start(&b, m);
	for (p = 0; p < m->nprovs && k < 18; p++)
		if (m->provs[p].supply) {
			b.owner[p] = fr;
			k++;
		}
	assert_int_equal(board_winner(m, &b), fr);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_year_sequence),
		cmocka_unit_test(test_nothing_to_adjust_is_skipped),
		cmocka_unit_test(test_no_retreat_means_disbanded),
		cmocka_unit_test(test_trace_explains),
		cmocka_unit_test(test_later_order_replaces),
		cmocka_unit_test(test_foreign_and_missing_units),
		cmocka_unit_test(test_board_text_round_trip),
		cmocka_unit_test(test_victory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
