/*
 * test_map.c — the variant loader and the standard map.
 *
 * The standard map is compared fact by fact with the independent
 * ../shared/testdata/maps/standard.json: every army and fleet edge (in both
 * directions, and no extra edges), terrain, home and neutral centres and
 * starting units.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/map.h"
#include "../../maps/variant.h"
#include "../support/json.h"

static const struct json *
load_facts(struct json **root)
{
	const char *path = test_shared_path("testdata/maps/standard.json");
	const char *err = NULL;
	struct buf b;

	if (path == NULL)
		return NULL;
	test_read_file(path, &b);
	*root = json_parse(buf_str(&b), b.len, &err);
	buf_free(&b);
	if (*root == NULL)
		fail_msg("standard.json: %s", err);
	return *root;
}

static loc_id
loc_of(const struct map *m, const char *name)
{
	loc_id l = map_find_location(m, name);

	if (l == LOC_NONE)
		fail_msg("standard.json names %s, which the map does not have", name);
	return l;
}

/* Count undirected edges of type t. */
static int
count_edges(const struct map *m, enum unit_type t)
{
	int a, b, n = 0;

	for (a = 0; a < m->nlocs; a++)
		for (b = a + 1; b < m->nlocs; b++)
			n += map_adjacent(m, t, (loc_id)a, (loc_id)b);
	return n;
}

static void
check_edges(const struct map *m, const struct json *list, enum unit_type t)
{
	size_t i;

	assert_non_null(list);
	for (i = 0; i < list->nitems; i++) {
		char a[32], *b;
		loc_id la, lb;

		snprintf(a, sizeof a, "%s", list->items[i]->string);
		b = strchr(a, '-');
		assert_non_null(b);
		*b++ = '\0';
		la = loc_of(m, a);
		lb = loc_of(m, b);
		if (!map_adjacent(m, t, la, lb) || !map_adjacent(m, t, lb, la))
			fail_msg("%s edge %s missing", unit_word(t), list->items[i]->string);
	}
	assert_int_equal(count_edges(m, t), (int)list->nitems);
}

static void
test_standard_counts(void **state)
{
	const struct map *m = test_standard_map();
	int p, sc = 0;

	(void)state;
	assert_int_equal(m->npowers, 7);
	assert_int_equal(m->nprovs, 75);
	for (p = 0; p < m->nprovs; p++)
		sc += m->provs[p].supply;
	assert_int_equal(sc, 34);
	assert_int_equal(m->nsupply, 34);
	assert_int_equal(m->nstart, 22);
	assert_int_equal(m->start_year, 1901);
	assert_int_equal(m->victory_centres, 18);
}

static void
test_standard_against_facts(void **state)
{
	const struct map *m = test_standard_map();
	struct json *root = NULL;
	const struct json *facts = load_facts(&root), *terr, *homes, *neutral, *start;
	size_t i, j;
	int nhome = 0;

	(void)state;
	if (facts == NULL)
		skip();
	check_edges(m, json_get(facts, "army_adjacency"), UNIT_ARMY);
	check_edges(m, json_get(facts, "fleet_adjacency"), UNIT_FLEET);

	terr = json_get(facts, "terrain");
	assert_non_null(terr);
	for (i = 0; i < terr->nitems; i++) {
		const char *name = terr->items[i]->key, *t = terr->items[i]->string;
		loc_id l = loc_of(m, name);
		const struct province *p = &m->provs[m->locs[l].prov];

		if (strchr(name, '/')) {
			assert_true(m->locs[l].coast > 0);
			assert_int_equal(p->terrain, TERRAIN_COAST);
			continue;
		}
		assert_int_equal(p->terrain, strcmp(t, "water") == 0 ? TERRAIN_SEA :
		    strcmp(t, "land") == 0 ? TERRAIN_LAND : TERRAIN_COAST);
	}
	/* Every location of the map is in the facts. */
	assert_int_equal((int)terr->nitems, m->nlocs);

	homes = json_get(facts, "home_centres");
	assert_non_null(homes);
	for (i = 0; i < homes->nitems; i++) {
		power_id pw = map_find_power(m, homes->items[i]->key);
		assert_int_not_equal(pw, POWER_NONE);
		for (j = 0; j < homes->items[i]->nitems; j++) {
			prov_id p = map_find_province(m, homes->items[i]->items[j]->string);
			assert_int_not_equal(p, PROV_NONE);
			assert_true(m->provs[p].supply);
			assert_int_equal(m->provs[p].home, pw);
			nhome++;
		}
	}
	neutral = json_get(facts, "neutral_centres");
	assert_non_null(neutral);
	for (i = 0; i < neutral->nitems; i++) {
		prov_id p = map_find_province(m, neutral->items[i]->string);
		assert_int_not_equal(p, PROV_NONE);
		assert_true(m->provs[p].supply);
		assert_int_equal(m->provs[p].home, POWER_NONE);
	}
	assert_int_equal(nhome + (int)neutral->nitems, m->nsupply);

	start = json_get(facts, "starting_units");
	assert_non_null(start);
	{
		int total = 0;
		for (i = 0; i < start->nitems; i++) {
			power_id pw = map_find_power(m, start->items[i]->key);
			for (j = 0; j < start->items[i]->nitems; j++) {
				const char *s = start->items[i]->items[j]->string;
				loc_id l = loc_of(m, s + 2);
				int k, found = 0;
				for (k = 0; k < m->nstart; k++)
					if (m->start[k].loc == l && m->start[k].power == pw &&
					    m->start[k].type == (s[0] == 'A' ? UNIT_ARMY : UNIT_FLEET))
						found = 1;
				if (!found)
					fail_msg("starting unit %s %s missing", start->items[i]->key, s);
				total++;
			}
		}
		assert_int_equal(total, m->nstart);
	}
	json_free(root);
}

static void
test_lookups(void **state)
{
	const struct map *m = test_standard_map();
	loc_id l;

	(void)state;
	assert_int_equal(map_find_province(m, "Norway"), map_find_province(m, "NWY"));
	assert_int_equal(map_find_province(m, "nat"), map_find_province(m, "nao"));
	l = map_find_location(m, "stp(nc)");
	assert_int_not_equal(l, LOC_NONE);
	assert_string_equal(m->locs[l].name, "stp/nc");
	assert_int_equal(map_find_location(m, "St Petersburg/sc"), map_find_location(m, "stp sc"));
	assert_int_equal(map_find_location(m, "stp/xx"), LOC_NONE);
	assert_int_equal(map_find_power(m, "E"), map_find_power(m, "England"));
	assert_int_equal(map_find_power(m, "English"), map_find_power(m, "ENG"));
	/* A fleet may not stand on the main location of a two-coast province. */
	assert_false(map_loc_allows(m, UNIT_FLEET, map_find_location(m, "spa")));
	assert_int_equal(map_default_loc(m, map_find_province(m, "spa"), UNIT_FLEET), LOC_NONE);
	assert_int_equal(map_default_loc(m, map_find_province(m, "lon"), UNIT_FLEET),
	    map_find_location(m, "lon"));
	/* Support reach ignores coasts: Marseilles reaches Spain (DATC 6.B.4). */
	assert_true(map_reaches(m, UNIT_FLEET, map_find_location(m, "mar"),
	    map_find_province(m, "spa")));
	assert_true(map_convoy_reach(m, map_find_province(m, "lon"), map_find_province(m, "tun")));
	assert_false(map_convoy_reach(m, map_find_province(m, "lon"), map_find_province(m, "mun")));
}

/* A small valid variant; the error tests each break one thing in it. */
static const char good[] =
    "<?xml version=\"1.0\"?>\n"
    "<variant name=\"tiny\" title=\"Tiny\" start-year=\"1900\">\n"
    "  <power abbr=\"N\" name=\"North\" adjective=\"Northern\"/>\n"
    "  <power abbr=\"S\" name=\"South\" adjective=\"Southern\"/>\n"
    "  <province abbr=\"aaa\" name=\"Alpha\" terrain=\"coast\" home=\"N\">\n"
    "    <army>bbb</army>\n"
    "    <fleet>sea</fleet>\n"
    "  </province>\n"
    "  <province abbr=\"bbb\" name=\"Beta\" terrain=\"land\" home=\"S\">\n"
    "    <army>aaa ccc</army>\n"
    "  </province>\n"
    "  <province abbr=\"ccc\" name=\"Gamma\" terrain=\"coast\" centre=\"yes\">\n"
    "    <army>bbb</army>\n"
    "    <coast abbr=\"nc\" name=\"North Coast\"><fleet>sea</fleet></coast>\n"
    "  </province>\n"
    "  <province abbr=\"sea\" name=\"The Sea\" terrain=\"sea\">\n"
    "    <fleet>aaa ccc/nc</fleet>\n"
    "  </province>\n"
    "  <unit power=\"N\" type=\"fleet\" at=\"aaa\"/>\n"
    "  <unit power=\"S\" type=\"army\" at=\"bbb\"/>\n"
    "</variant>\n";

static char *
replace(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	struct buf b;

	assert_non_null(p);
	buf_init(&b, 1 << 20);
	buf_append(&b, text, (size_t)(p - text));
	buf_puts(&b, to);
	buf_puts(&b, p + strlen(from));
	return buf_take(&b);
}

/* Load text; expect failure with every needle in the error text. */
static void
expect_error(const char *text, const char *needle1, const char *needle2)
{
	struct buf err;
	struct map *m;

	buf_init(&err, 1 << 16);
	m = variant_parse(text, strlen(text), "tiny.xml", &err);
	if (m != NULL) {
		map_free(m);
		fail_msg("expected an error containing \"%s\"", needle1);
	}
	if (strstr(buf_str(&err), needle1) == NULL ||
	    (needle2 && strstr(buf_str(&err), needle2) == NULL))
		fail_msg("error \"%s\" lacks \"%s\" / \"%s\"", buf_str(&err), needle1,
		    needle2 ? needle2 : "");
	buf_free(&err);
}

static void
test_good_variant(void **state)
{
	struct buf err;
	struct map *m;

	(void)state;
	buf_init(&err, 1 << 16);
	m = variant_parse(good, strlen(good), "tiny.xml", &err);
	if (m == NULL)
		fail_msg("%s", buf_str(&err));
	assert_int_equal(m->nprovs, 4);
	assert_int_equal(m->nsupply, 3);
	assert_int_equal(m->start_year, 1900);
	assert_true(map_adjacent(m, UNIT_FLEET, map_find_location(m, "sea"),
	    map_find_location(m, "ccc/nc")));
	map_free(m);
	buf_free(&err);
}

static void
test_variant_errors(void **state)
{
	char *t;

	(void)state;
	/* Asymmetric edge: Beta no longer lists Gamma. */
	t = replace(good, "<army>aaa ccc</army>", "<army>aaa</army>");
	expect_error(t, "tiny.xml:13: asymmetric edge: ccc lists bbb", "(line 9) does not list ccc");
	free(t);
	/* Unknown neighbour name. */
	t = replace(good, "<army>aaa ccc</army>", "<army>aaa ccc zzz</army>");
	expect_error(t, "tiny.xml:10: bbb: unknown army neighbour \"zzz\"", NULL);
	free(t);
	/* A fleet starting inland. */
	t = replace(good, "type=\"army\" at=\"bbb\"", "type=\"fleet\" at=\"bbb\"");
	expect_error(t, "tiny.xml:20: starting fleet on bbb: a fleet cannot start on an inland province",
	    NULL);
	free(t);
	/* A fleet edge to a two-coast... here one-coast province without the coast. */
	t = replace(good, "<fleet>aaa ccc/nc</fleet>", "<fleet>aaa ccc</fleet>");
	expect_error(t, "tiny.xml:17: sea: fleet neighbour ccc cannot hold a fleet", NULL);
	free(t);
	/* Unknown home power. */
	t = replace(good, "home=\"S\"", "home=\"West\"");
	expect_error(t, "tiny.xml:9: province bbb: unknown home power \"West\"", NULL);
	free(t);
	/* Bad terrain word. */
	t = replace(good, "terrain=\"land\"", "terrain=\"hills\"");
	expect_error(t, "tiny.xml:9: province bbb: terrain must be land, sea or coast", NULL);
	free(t);
	/* Malformed XML. */
	t = replace(good, "</province>\n  <province abbr=\"bbb\"", "<province abbr=\"bbb\"");
	expect_error(t, "tiny.xml:", NULL);
	free(t);
	/* Duplicate names. */
	t = replace(good, "name=\"Gamma\"", "name=\"Alpha\"");
	expect_error(t, "tiny.xml:12: province ccc (Alpha): name already used", NULL);
	free(t);
	/* Unknown element. */
	t = replace(good, "<army>bbb</army>\n    <coast", "<amry>bbb</amry>\n    <coast");
	expect_error(t, "tiny.xml:13: <province>: unexpected <amry>", NULL);
	free(t);
}

/* board="none": a variant whose rule system names the sides; nothing of a
 * board may be in it, and its system must be named. */
static void
test_boardless_variant_errors(void **state)
{
	static const char head[] = "<?xml version=\"1.0\"?>\n<variant name=\"w\" ";
	struct buf err;
	struct map *m;
	char text[512];

	(void)state;
	snprintf(text, sizeof text, "%ssystem=\"worldgame\" board=\"none\">\n"
	    "<option name=\"x\"/>\n</variant>\n", head);
	buf_init(&err, 1 << 16);
	m = variant_parse(text, strlen(text), "tiny.xml", &err);
	assert_non_null(m);
	assert_int_equal(m->npowers + m->nprovs, 0);
	assert_non_null(map_option(m, "x"));
	map_free(m);
	buf_free(&err);
	snprintf(text, sizeof text, "%sboard=\"none\">\n</variant>\n", head);
	expect_error(text, "tiny.xml:2: a variant without a board must name its rule system", NULL);
	snprintf(text, sizeof text, "%ssystem=\"worldgame\" board=\"none\">\n"
	    "<power abbr=\"A\" name=\"A\" adjective=\"A\"/>\n</variant>\n", head);
	expect_error(text, "tiny.xml:3: a variant without a board has no <power>", NULL);
	snprintf(text, sizeof text, "%sboard=\"some\">\n</variant>\n", head);
	expect_error(text, "tiny.xml:2: board may only be \"none\"", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_standard_counts),
		cmocka_unit_test(test_standard_against_facts),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_good_variant),
		cmocka_unit_test(test_variant_errors),
		cmocka_unit_test(test_boardless_variant_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
