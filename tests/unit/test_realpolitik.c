/*
 * test_realpolitik.c — the Realpolitik variant file (a variant naming the
 * standard geography, capitals and naval bases), the board's army on
 * board, and the adjudicator's switch (judge/engine/realpolitik_rules.h). The
 * rules themselves are tested by tests/data/datc/realpolitik.txt.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/realpolitik_rules.h"
#include "../../judge/engine/resolver.h"
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
	assert_ptr_equal(resolver_for(m), &realpolitik_resolver);
	assert_int_equal(map_caps(m), RULES_STACKS | RULES_BOARDING);
	assert_null(resolver_for(std));
	assert_int_equal(map_caps(std), 0);
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

/* A variant file of the older form, naming the system and the option
 * "realpolitik" both, reads as one naming the system. */
static void
test_variant_old_form(void **state)
{
	const char text[] = "<variant name=\"x\" geography=\"standard\" system=\"realpolitik\">"
			    "<option name=\"realpolitik\"/>"
			    "<capital power=\"AUS\" at=\"vie\"/></variant>";
	struct buf err;
	struct map *old;

	(void)state;
	buf_init(&err, 1 << 16);
	old = variant_parse(text, strlen(text), "maps/x/variant.xml", &err);
	assert_non_null(old);
	assert_ptr_equal(resolver_for(old), &realpolitik_resolver);
	assert_int_equal(map_caps(old), RULES_STACKS | RULES_BOARDING);
	map_free(old);
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
	r.resolver = &realpolitik_resolver;
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

/* ------------------------------------------------ against the standard -- */

static unsigned long rng = 12345;

static int
rnd(int n)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return (int)((rng >> 33) % (unsigned long)n);
}

/* A random position on board std: about one province in two holds a
 * unit, never two in one province. */
static void
random_board(const struct map *std, struct board *b)
{
	int q;

	board_init_empty(b, 1901, SEASON_SPRING, PHASE_MOVEMENT);
	for (q = 0; q < std->nprovs; q++) {
		const struct province *p = &std->provs[q];
		enum unit_type t;
		loc_id l = p->loc;

		if (rnd(2) != 0)
			continue;
		t = p->terrain == TERRAIN_LAND ? UNIT_ARMY : p->terrain == TERRAIN_SEA ? UNIT_FLEET :
		    rnd(2) ? UNIT_ARMY : UNIT_FLEET;
		if (t == UNIT_FLEET && p->ncoasts > 0)
			l = p->coast[rnd(p->ncoasts)];
		board_add_unit(b, t, (power_id)rnd(std->npowers), l);
	}
}

/* Support for unit j that unit u could give: to hold, or its move; false
 * when u could reach neither. */
static bool
support_for(const struct map *std, const struct board *b, const struct order *o, int u, int j,
    struct order *x)
{
	const struct unit *un = &b->units[u];
	prov_id here = std->locs[un->loc].prov, there = std->locs[b->units[j].loc].prov;
	enum unit_type t = (enum unit_type)un->type;

	x->kind = ORDER_SUPPORT;
	x->target = b->units[j].loc;
	x->target_type = b->units[j].type;
	x->dest = LOC_NONE;
	if (o[j].kind == ORDER_MOVE && rnd(6) != 0) {	/* else a void support to hold */
		prov_id d = std->locs[o[j].dest].prov;
		if (d == here || !map_reaches(std, t, un->loc, d))
			return false;
		x->dest = std->provs[d].loc;
		return true;
	}
	return there != here && map_reaches(std, t, un->loc, there);
}

/* A random order without a convoy for each unit: hold, move to a
 * neighbour, or support a unit it can reach (to hold, or its move, now
 * and then a support to hold of a unit that moves). */
static int
random_orders(const struct map *std, const struct board *b, struct order *o)
{
	int i, j, n = b->nunits;

	for (i = 0; i < n; i++) {
		const struct unit *u = &b->units[i];
		const struct location *l = &std->locs[u->loc];
		struct order *x = &o[i];

		memset(x, 0, sizeof *x);
		x->power = u->power;
		x->type = u->type;
		x->loc = u->loc;
		x->target = x->dest = LOC_NONE;
		x->target_power = POWER_NONE;
		x->kind = ORDER_HOLD;
		if (rnd(2) && l->nadj[u->type] > 0) {
			x->kind = ORDER_MOVE;
			x->dest = l->adj[u->type][rnd(l->nadj[u->type])];
		}
	}
	for (i = 0; i < n; i++) {
		int tries;

		if (o[i].kind == ORDER_MOVE || rnd(3) == 0)
			continue;
		for (tries = 0; tries < 12; tries++) {
			j = rnd(n);
			if (j != i && support_for(std, b, o, i, j, &o[i]))
				break;
			o[i].kind = ORDER_HOLD;
			o[i].target = o[i].dest = LOC_NONE;
		}
	}
	return n;
}

/* Where no province is a capital or a naval base and no move needs a
 * convoy, the Realpolitik rules are the standard ones: both adjudicators
 * agree on every order and on the position after. */
static void
test_same_as_standard(void **state)
{
	struct map *std = test_load_standard_map();
	struct phase_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct order o[BOARD_MAX_UNITS];
	struct rules rs, rr;
	struct board pos;
	int t, i, n;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	rules_init(&rs, EDITION_2023);
	rr = rs;
	rr.resolver = &realpolitik_resolver;
	for (t = 0; t < 10000; t++) {
		random_board(std, &pos);
		n = random_orders(std, &pos, o);
		adj_resolve(std, &rs, &pos, o, n, a, NULL);
		adj_resolve(std, &rr, &pos, o, n, b, NULL);
		for (i = 0; i < n; i++)
			if (a->reason[i] != b->reason[i])
				fail_msg("position %d, order %d: standard %s, Realpolitik %s", t, i,
				    reason_name((enum reason)a->reason[i]),
				    reason_name((enum reason)b->reason[i]));
		board_sort(&a->after);
		board_sort(&b->after);
		assert_int_equal(a->after.nunits, b->after.nunits);
		assert_int_equal(a->after.ndislodged, b->after.ndislodged);
		assert_memory_equal(a->after.units, b->after.units,
		    a->after.nunits * sizeof a->after.units[0]);
		assert_memory_equal(a->after.dislodged, b->after.dislodged,
		    a->after.ndislodged * sizeof a->after.dislodged[0]);
		assert_memory_equal(a->after.contested, b->after.contested,
		    sizeof a->after.contested);
	}
	free(a);
	free(b);
	map_free(std);
}

/* Units of a power at location l on board b (dislodged ones when dis). */
static int
count_at(const struct board *b, loc_id l, bool dis)
{
	int i, n = 0;

	if (dis) {
		for (i = 0; i < b->ndislodged; i++)
			n += b->dislodged[i].unit.loc == l;
		return n;
	}
	for (i = 0; i < b->nunits; i++)
		n += b->units[i].loc == l;
	return n;
}

/* Add to position pos (orders o[0..n)) a unit of type t beside unit u,
 * holding; returns its order's index. */
static int
add_beside(struct board *pos, struct order *o, int n, int u, uint8_t t)
{
	const struct unit *un = &pos->units[u];
	loc_id l = t & UNIT_ABOARD ? m->provs[m->locs[un->loc].prov].loc : un->loc;

	pos->units[pos->nunits].type = t;
	pos->units[pos->nunits].power = un->power;
	pos->units[pos->nunits].loc = l;
	pos->nunits++;
	memset(&o[n], 0, sizeof o[n]);
	o[n].kind = ORDER_HOLD;
	o[n].power = un->power;
	o[n].type = t & ~UNIT_ABOARD;
	o[n].loc = l;
	o[n].target = o[n].dest = LOC_NONE;
	o[n].target_power = POWER_NONE;
	return n + 1;
}

/* A second unit in a stack, or an army on board, changes nothing for the
 * other orders: a stack defends as one, an army on board has no fighting
 * power. The extra unit shares the fate of the one beside it. */
static void
test_stack_and_cargo_powerless(void **state)
{
	struct phase_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct order o[BOARD_MAX_UNITS];
	struct board pos, more;
	struct rules rr;
	int t, i, n, u, stacks = 0, cargo = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	rules_init(&rr, EDITION_2023);
	rr.resolver = &realpolitik_resolver;
	for (t = 0; t < 6000; t++) {
		const struct unit *un;
		const struct province *p;
		bool stack, dis, moved;

		random_board(m, &pos);
		n = random_orders(m, &pos, o);
		if (n == 0)
			continue;
		u = rnd(n);
		un = &pos.units[u];
		p = &m->provs[m->locs[un->loc].prov];
		/* Most of the time, a seat's unit is its power's own. */
		if (rnd(4) != 0 && un->type == UNIT_ARMY && p->capital != POWER_NONE)
			pos.units[u].power = o[u].power = p->capital;
		else if (rnd(4) != 0 && un->type == UNIT_FLEET && p->naval_base != POWER_NONE)
			pos.units[u].power = o[u].power = p->naval_base;
		stack = o[u].kind != ORDER_MOVE && (un->type == UNIT_ARMY ? p->capital :
		    p->naval_base) == un->power;
		if (!stack && un->type != UNIT_FLEET)
			continue;
		adj_resolve(m, &rr, &pos, o, n, a, NULL);
		more = pos;
		adj_resolve(m, &rr, &more, o,
		    add_beside(&more, o, n, u, stack ? un->type : UNIT_ARMY | UNIT_ABOARD), b, NULL);
		for (i = 0; i < n; i++)
			assert_int_equal(a->reason[i], b->reason[i]);
		dis = a->unit_dislodged[u];
		moved = o[u].kind == ORDER_MOVE && a->reason[u] == R_OK;
		if (stack) {
			stacks++;
			assert_int_equal(count_at(&b->after, un->loc, dis),
			    count_at(&a->after, un->loc, dis) + 1);
			continue;
		}
		cargo++;
		assert_int_equal(b->after.ndislodged, a->after.ndislodged);
		assert_int_equal(b->after.nunits, a->after.nunits + !dis);
		if (!dis) {
			loc_id to = moved ? o[u].dest : un->loc;
			prov_id q = m->locs[to].prov;
			for (i = 0; i < b->after.nunits; i++)
				if (b->after.units[i].type == (UNIT_ARMY | UNIT_ABOARD))
					break;
			assert_true(i < b->after.nunits);
			assert_int_equal(m->locs[b->after.units[i].loc].prov, q);
		}
	}
	assert_true(stacks > 100 && cargo > 100);
	free(a);
	free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variant),
		cmocka_unit_test(test_variant_refused),
		cmocka_unit_test(test_variant_old_form),
		cmocka_unit_test(test_board_aboard),
		cmocka_unit_test(test_switch),
		cmocka_unit_test(test_builds),
		cmocka_unit_test(test_occupy),
		cmocka_unit_test(test_capital_default),
		cmocka_unit_test(test_same_as_standard),
		cmocka_unit_test(test_stack_and_cargo_powerless),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
