/*
 * test_muna_map.c — the MUN Alfrink 1935 Historical Committee board
 * (maps/muna/variant.xml and its drawing, maps/muna/map.svg).
 *
 * Each test is a fact the committee's rules state about their map (see
 * ../shared/notes/muna.md and maps/muna/NOTES.md): nine powers, 60 supply
 * centres of which 45 are homes with a unit each, Iran the one province
 * with two coasts (a British home, so that a fleet built there names one), the three waterway provinces with a single coast, the
 * canal from the Eastern Black Sea to the Caspian through two provinces,
 * the Baltic around Denmark and Sweden, France's five homes.
 */
#include "../support/testutil.h"

#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/map.h"
#include "../../maps/geometry.h"
#include "../../parser/names.h"
#include "../../parser/orders.h"

#define MUNA "maps/muna/variant.xml"

static const struct map *
muna(void)
{
	static struct map *m;

	if (m == NULL)
		m = test_load_map(MUNA);
	return m;
}

static loc_id
loc(const char *name)
{
	loc_id l = map_find_location(muna(), name);

	if (l == LOC_NONE)
		fail_msg("the MUNA map has no location %s", name);
	return l;
}

static prov_id
prov(const char *name)
{
	prov_id p = map_find_province(muna(), name);

	if (p == PROV_NONE)
		fail_msg("the MUNA map has no province %s", name);
	return p;
}

/* A unit of type t can move from a to b and back. */
static bool
adjacent(enum unit_type t, const char *a, const char *b)
{
	bool ab = map_adjacent(muna(), t, loc(a), loc(b)), ba = map_adjacent(muna(), t, loc(b), loc(a));

	assert_int_equal(ab, ba);
	return ab;
}

/* The number of fleet moves from location a to location b (-1: none). */
static int
fleet_moves(loc_id a, loc_id b)
{
	const struct map *m = muna();
	int *dist = malloc(sizeof *dist * (size_t)m->nlocs);
	loc_id *queue = malloc(sizeof *queue * (size_t)m->nlocs);
	int head = 0, tail = 0, i, d;

	assert_non_null(dist);
	assert_non_null(queue);
	for (i = 0; i < m->nlocs; i++)
		dist[i] = -1;
	dist[a] = 0;
	queue[tail++] = a;
	while (head < tail) {
		loc_id l = queue[head++];
		for (i = 0; i < m->locs[l].nadj[UNIT_FLEET]; i++) {
			loc_id n = m->locs[l].adj[UNIT_FLEET][i];
			if (dist[n] < 0) {
				dist[n] = dist[l] + 1;
				queue[tail++] = n;
			}
		}
	}
	d = dist[b];
	free(dist);
	free(queue);
	return d;
}

static void
test_counts(void **state)
{
	const struct map *m = muna();
	int p, sea = 0;

	(void)state;
	assert_string_equal(m->name, "muna");
	assert_string_equal(m->title, "MUN Alfrink 1935 Historical Committee");
	assert_int_equal(m->start_year, 1935);
	/* The officers end the game; 25 centres give points, not victory. */
	assert_int_equal(m->victory_centres, 0);
	assert_int_equal(m->npowers, 9);
	assert_int_equal(m->nsupply, 60);
	assert_int_equal(m->nstart, 45);
	for (p = 0; p < m->nprovs; p++)
		sea += m->provs[p].terrain == TERRAIN_SEA;
	/* Playable, not a GIS exercise. */
	assert_in_range(m->nprovs, 100, 140);
	assert_in_range(sea, 15, 40);
	assert_true(map_option_on(m, "insurrection"));
	assert_true(map_option_on(m, "victory-points"));
	assert_non_null(map_option(m, "control-bonus"));
	assert_string_equal(map_option(m, "control-bonus"), "25");
}

static void
test_powers(void **state)
{
	static const char *const names[9] = { "United Kingdom", "France", "Italy", "Germany", "USSR",
		"Turkey", "Yugoslavia", "Spain", "Poland" };
	const struct map *m = muna();
	int i;

	(void)state;
	for (i = 0; i < 9; i++) {
		power_id p = map_find_power(m, names[i]);
		assert_int_not_equal(p, POWER_NONE);
		assert_non_null(m->powers[p].colour);
		assert_int_equal(strlen(m->powers[p].colour), 7);
	}
	assert_int_equal(map_find_power(m, "Britain"), map_find_power(m, "United Kingdom"));
	assert_int_equal(map_find_power(m, "England"), map_find_power(m, "UK"));
	assert_int_equal(map_find_power(m, "Soviet Union"), map_find_power(m, "USSR"));
	assert_int_equal(map_find_power(m, "Russia"), map_find_power(m, "USSR"));
}

/* 45 home centres, five per power, each with its power's unit; 15 neutral
 * centres, empty at the start. */
static void
test_centres_and_units(void **state)
{
	const struct map *m = muna();
	int homes[MAP_MAX_POWERS] = { 0 }, nhome = 0, neutral = 0, p, k;

	(void)state;
	for (p = 0; p < m->nprovs; p++) {
		const struct province *pv = &m->provs[p];
		int units = 0;

		for (k = 0; k < m->nstart; k++)
			if (map_loc_prov(m, m->start[k].loc) == p) {
				units++;
				assert_int_equal(m->start[k].power, pv->home);
				/* Inland provinces start with armies. */
				if (pv->terrain == TERRAIN_LAND)
					assert_int_equal(m->start[k].type, UNIT_ARMY);
			}
		if (!pv->supply) {
			assert_int_equal(units, 0);
			continue;
		}
		if (pv->home == POWER_NONE) {
			neutral++;
			assert_int_equal(units, 0);
		} else {
			homes[pv->home]++;
			nhome++;
			assert_int_equal(units, 1);
		}
	}
	assert_int_equal(nhome, 45);
	assert_int_equal(neutral, 15);
	for (p = 0; p < m->npowers; p++)
		assert_int_equal(homes[p], 5);
	assert_true(m->nstart <= m->nsupply);
}

static void
test_france_homes(void **state)
{
	static const char *const homes[] = { "Paris", "Brittany", "Lyon", "Syria", "French North Africa" };
	const struct map *m = muna();
	power_id fr = map_find_power(m, "France");
	size_t i;

	(void)state;
	for (i = 0; i < sizeof homes / sizeof homes[0]; i++)
		assert_int_equal(m->provs[prov(homes[i])].home, fr);
}

/* Iran is the only province with two coasts: North on the Caspian, South
 * on the Persian Gulf ("F Cas-Irn NC", "F Per-Irn SC"). */
static void
test_iran(void **state)
{
	const struct map *m = muna();
	prov_id irn = prov("Iran");
	int p;

	(void)state;
	for (p = 0; p < m->nprovs; p++)
		assert_int_equal(m->provs[p].ncoasts, p == irn ? 2 : 0);
	assert_true(adjacent(UNIT_FLEET, "cas", "irn/nc"));
	assert_true(adjacent(UNIT_FLEET, "per", "irn/sc"));
	assert_false(adjacent(UNIT_FLEET, "cas", "irn/sc"));
	assert_false(adjacent(UNIT_FLEET, "per", "irn/nc"));
	/* A fleet built or ordered there must name its coast. */
	assert_int_equal(map_default_loc(m, irn, UNIT_FLEET), LOC_NONE);
	assert_false(map_loc_allows(m, UNIT_FLEET, m->provs[irn].loc));
}

/* "If a Fleet is ordered to this province, the order must specify which
 * coast, or the Fleet doesn't move": from the Caspian only the north coast
 * can be reached, yet "F Cas - Irn" is refused when given (it is not taken
 * to mean the north coast, as a standard board would), and the adjudicator
 * leaves the fleet where it is; "F Cas - Irn/nc" moves. */
static void
test_iran_fleet_names_its_coast(void **state)
{
	const struct map *m = muna();
	struct names *nm = names_new(m);
	struct parse_ctx c = { m, nm, NULL, POWER_NONE };
	struct parse_result r;
	struct phase_result res;
	struct rules rules;
	struct order o;
	struct board b;
	struct buf err;
	static const char text[] = "phase Spring 1935 Movement\nunit USSR F cas\n";
	static const char *const lines[] = { "USSR: F Cas - Irn", "USSR: F Caspian Sea to Iran" };
	size_t i;

	(void)state;
	buf_init(&err, 1024);
	assert_int_equal(board_read(&b, m, text, sizeof text - 1, &err), 0);
	c.b = &b;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		order_parse(&c, lines[i], strlen(lines[i]), &r);
		assert_int_equal(r.verdict, VERDICT_REFUSED);
		assert_non_null(strstr(r.note, "must name the coast"));
	}
	rules_init(&rules, EDITION_2023);
	memset(&o, 0, sizeof o);
	o.kind = ORDER_MOVE;
	o.power = map_find_power(m, "USSR");
	o.type = UNIT_FLEET;
	o.loc = loc("cas");
	o.dest = m->provs[prov("irn")].loc;
	assert_int_equal(adj_check(m, &rules, &b, &o), R_NAME_COAST);
	adj_resolve(m, &rules, &b, &o, 1, &res, NULL);
	assert_int_equal(res.reason[0], R_NAME_COAST);
	assert_int_equal(res.after.units[0].loc, loc("cas"));
	order_parse(&c, "USSR: F Cas - Irn/nc", 20, &r);
	assert_int_not_equal(r.verdict, VERDICT_REFUSED);
	adj_resolve(m, &rules, &b, &r.order, 1, &res, NULL);
	assert_int_equal(res.reason[0], R_OK);
	assert_int_equal(res.after.units[0].loc, loc("irn/nc"));
	buf_free(&err);
	names_free(nm);
}

/* "If a Great Power builds a Fleet in Iran, the player must also specify
 * 'North Coast' or 'South Coast'": builds are made in home centres, so Iran
 * is a home, the United Kingdom's (the table's "I-r-a-?"), with its army;
 * Iraq is a neutral centre. */
static void
test_iran_is_british(void **state)
{
	const struct map *m = muna();
	power_id uk = map_find_power(m, "United Kingdom");
	prov_id irn = prov("Iran"), irq = prov("Iraq");
	int k, in_iran = 0, in_iraq = 0;

	(void)state;
	assert_true(m->provs[irn].supply);
	assert_int_equal(m->provs[irn].home, uk);
	assert_true(m->provs[irq].supply);
	assert_int_equal(m->provs[irq].home, POWER_NONE);
	for (k = 0; k < m->nstart; k++) {
		prov_id p = map_loc_prov(m, m->start[k].loc);
		if (p == irn && m->start[k].power == uk && m->start[k].type == UNIT_ARMY)
			in_iran++;
		in_iraq += p == irq;
	}
	assert_int_equal(in_iran, 1);
	assert_int_equal(in_iraq, 0);
}

/* "When building a unit on a coastal province supply centre, a Fleet or
 * Army must be specified in the written build order": a build in Iran
 * naming a coast but no unit type is refused (the standard rules assume a
 * fleet, DATC 4.C.3), written with its type it is taken; inland an army
 * needs no word. */
static void
test_build_names_its_type(void **state)
{
	const struct map *m = muna();
	struct names *nm = names_new(m);
	struct parse_ctx c = { m, nm, NULL, POWER_NONE };
	struct parse_result r;
	struct board b;
	struct buf err;
	static const char text[] = "phase Winter 1935 Adjustment\nowner United_Kingdom irn\n"
	    "owner Germany mun\n";
	static const char *const refused[] = { "United Kingdom: Build Iran North Coast",
		"United Kingdom: Build Irn/nc", "United Kingdom: Build Iran" };
	size_t i;

	(void)state;
	buf_init(&err, 1024);
	assert_int_equal(board_read(&b, m, text, sizeof text - 1, &err), 0);
	c.b = &b;
	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		order_parse(&c, refused[i], strlen(refused[i]), &r);
		assert_int_equal(r.verdict, VERDICT_REFUSED);
		assert_non_null(strstr(r.note, "must say Army or Fleet"));
	}
	order_parse(&c, "United Kingdom: Build F Iran North Coast", 40, &r);
	assert_int_not_equal(r.verdict, VERDICT_REFUSED);
	assert_int_equal(r.order.type, UNIT_FLEET);
	assert_int_equal(r.order.loc, loc("irn/nc"));
	order_parse(&c, "Germany: Build Munich", 21, &r);
	assert_int_not_equal(r.verdict, VERDICT_REFUSED);
	assert_int_equal(r.order.type, UNIT_ARMY);
	buf_free(&err);
	names_free(nm);
}

/* Egypt, Hamburg and Istanbul: waterways, one coast, a fleet passes. */
static void
test_waterways(void **state)
{
	(void)state;
	assert_int_equal(muna()->provs[prov("Egypt")].ncoasts, 0);
	assert_true(adjacent(UNIT_FLEET, "eme", "egy"));
	assert_true(adjacent(UNIT_FLEET, "egy", "red"));
	assert_int_equal(fleet_moves(loc("eme"), loc("red")), 2);

	/* The Kiel Canal: Holland - Hamburg - Berlin, not round Denmark. */
	assert_true(adjacent(UNIT_FLEET, "hol", "ham"));
	assert_true(adjacent(UNIT_FLEET, "ham", "ber"));
	assert_true(adjacent(UNIT_ARMY, "hol", "ham"));
	assert_true(adjacent(UNIT_ARMY, "ham", "ber"));

	/* The Straits: Black Sea side - Istanbul - Aegean side. */
	assert_true(adjacent(UNIT_FLEET, "wbs", "ist"));
	assert_true(adjacent(UNIT_FLEET, "ist", "aeg"));
	assert_int_equal(fleet_moves(loc("wbs"), loc("aeg")), 2);
}

/* The waterway from the Eastern Black Sea to the Caspian runs through two
 * provinces: it takes two turns to pass. */
static void
test_canal(void **state)
{
	const struct map *m = muna();
	loc_id ebs = loc("Eastern Black Sea"), cas = loc("Caspian Sea");
	int l, both = 0;

	(void)state;
	assert_int_equal(fleet_moves(ebs, cas), 3);
	for (l = 0; l < m->nlocs; l++)
		both += map_adjacent(m, UNIT_FLEET, (loc_id)l, ebs) && map_adjacent(m, UNIT_FLEET, (loc_id)l, cas);
	assert_int_equal(both, 0);
	assert_true(adjacent(UNIT_FLEET, "ebs", "ros"));
	assert_true(adjacent(UNIT_FLEET, "ros", "ast"));
	assert_true(adjacent(UNIT_FLEET, "ast", "cas"));
}

static void
test_baltic(void **state)
{
	(void)state;
	/* Sweden and Denmark are neighbours, for armies and fleets. */
	assert_true(adjacent(UNIT_ARMY, "swe", "den"));
	assert_true(adjacent(UNIT_FLEET, "swe", "den"));
	/* Bornholm Sea and Skagerrak are not: a fleet goes by Sweden or Denmark. */
	assert_false(adjacent(UNIT_FLEET, "Bornholm Sea", "Skagerrak"));
	assert_int_equal(fleet_moves(loc("bor"), loc("ska")), 2);
	assert_true(adjacent(UNIT_FLEET, "bor", "swe"));
	assert_true(adjacent(UNIT_FLEET, "bor", "den"));
	assert_true(adjacent(UNIT_FLEET, "ska", "swe"));
	assert_true(adjacent(UNIT_FLEET, "ska", "den"));
	/* Sweden has one coast; Denmark does not border Berlin. */
	assert_int_equal(muna()->provs[prov("Sweden")].ncoasts, 0);
	assert_false(adjacent(UNIT_ARMY, "den", "ber"));
	assert_false(adjacent(UNIT_FLEET, "den", "ber"));
}

/* Provinces the rules name, and the moves of their examples. */
static void
test_named_provinces(void **state)
{
	static const char *const named[] = { "Czechia", "Krakow", "Saxony", "Silesia", "Prussia", "Warsaw",
		"Yorkshire", "Brittany", "Norway", "Iran", "Egypt", "Hamburg", "Istanbul", "Bornholm Sea",
		"Eastern Black Sea", "Caspian Sea", "Persian Gulf", "Red Sea", "Eastern Mediterranean" };
	const struct map *m = muna();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof named / sizeof named[0]; i++)
		(void)prov(named[i]);
	assert_int_equal(m->provs[prov("Brittany")].terrain, TERRAIN_COAST);
	assert_int_equal(m->provs[prov("Norway")].terrain, TERRAIN_COAST);
	assert_int_equal(m->provs[prov("Yorkshire")].terrain, TERRAIN_COAST);
	/* The abbreviations of the rules' orders: F Cas-Irn NC, F Eme-Egy. */
	assert_int_equal(prov("Cas"), prov("Caspian Sea"));
	assert_int_equal(prov("Eme"), prov("Eastern Mediterranean"));
	assert_int_equal(prov("Per"), prov("Persian Gulf"));
	assert_int_equal(prov("Irn"), prov("Iran"));
	/* A Sil S A Cze-Kra; A Cze-Sax. */
	assert_true(adjacent(UNIT_ARMY, "sil", "kra"));
	assert_true(adjacent(UNIT_ARMY, "cze", "kra"));
	assert_true(adjacent(UNIT_ARMY, "cze", "sax"));
	/* An army from Paris to Brittany (A Par-Bri). */
	assert_true(adjacent(UNIT_ARMY, "par", "bre"));
}

/* The drawing covers every province and place of the variant. */
static void
test_geometry(void **state)
{
	const struct map *m = muna();
	struct geometry *g = test_load_geometry(m, "maps/muna/map.svg");
	int p;

	(void)state;
	assert_int_equal(g->nprovs, m->nprovs);
	assert_int_equal(g->nlocs, m->nlocs);
	for (p = 0; p < m->nprovs; p++)
		assert_non_null(g->shape[p]);
	geometry_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_powers),
		cmocka_unit_test(test_centres_and_units),
		cmocka_unit_test(test_france_homes),
		cmocka_unit_test(test_iran),
		cmocka_unit_test(test_iran_is_british),
		cmocka_unit_test(test_iran_fleet_names_its_coast),
		cmocka_unit_test(test_waterways),
		cmocka_unit_test(test_canal),
		cmocka_unit_test(test_baltic),
		cmocka_unit_test(test_build_names_its_type),
		cmocka_unit_test(test_named_provinces),
		cmocka_unit_test(test_geometry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
