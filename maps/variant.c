/*
 * variant.c — the variant file reader.
 *
 * The reader works in passes over the parsed XML tree so that names may be
 * used before they are defined: (1) powers and options, (2) provinces with
 * their coasts and aliases, (3) neighbour lists resolved to edges, (4) the
 * symmetry check, (5) starting units, (6) variant-wide checks. Every
 * problem found is reported; the map is only returned when there are none.
 */
#define _DEFAULT_SOURCE
#include "variant.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../lib/diag.h"
#include "../lib/fsio.h"
#include "../lib/lazylib.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"

#ifndef POUCH_MAPS_DIR
#define POUCH_MAPS_DIR "maps"
#endif

#define VARIANT_MAX_BYTES (8u << 20)

struct pending_list {
	loc_id from;
	uint8_t type;
	int line;
	char *text;
};

struct loader {
	struct diag diag;	/* the file's name and where problems go */
	struct map *m;
	struct pending_list *lists;
	int nlists;
	int *edge_line[3];	/* [type][from * nlocs + to]: line that declared the edge */
};

__attribute__((format(printf, 3, 4))) static void
fail(struct loader *ld, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vreport(&ld->diag, line, fmt, ap);
	va_end(ap);
}

static int
line_of(xmlNode *n)
{
	return (int)xmlGetLineNo(n);
}

static bool
is_el(xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Attribute value (owned by the caller, free with xml_free) or NULL. */
static char *
attr(xmlNode *n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* Reject attributes other than the allowed ones (NULL-terminated list). */
static void
check_attrs(struct loader *ld, xmlNode *n, const char *const *allowed)
{
	xmlAttr *a;
	int i;

	for (a = n->properties; a; a = a->next) {
		for (i = 0; allowed[i]; i++)
			if (strcmp((const char *)a->name, allowed[i]) == 0)
				break;
		if (allowed[i] == NULL)
			fail(ld, line_of(n), "<%s>: unknown attribute \"%s\"", (const char *)n->name,
			    (const char *)a->name);
	}
}

/* Text content of n with surrounding blanks removed; caller frees. */
static char *
text_of(xmlNode *n)
{
	xmlChar *c = xmlNodeGetContent(n);
	char *s = xstrdup(c ? str_trim((char *)c) : "");

	xml_free(c);
	return s;
}

static bool
parse_bool(const char *s, bool *out)
{
	if (str_eq_nocase(s, "yes") || str_eq_nocase(s, "true") || strcmp(s, "1") == 0)
		*out = true;
	else if (str_eq_nocase(s, "no") || str_eq_nocase(s, "false") || strcmp(s, "0") == 0)
		*out = false;
	else
		return false;
	return true;
}

/* A name is usable in orders when it is non-empty and has no '/', '(' or ')'. */
static bool
valid_name(const char *s)
{
	return s[0] != '\0' && strpbrk(s, "/()") == NULL;
}

/* -------------------------------------------------------------- powers -- */

static void
load_power(struct loader *ld, xmlNode *n)
{
	static const char *const allowed[] = { "abbr", "name", "adjective", "letter", "colour",
		NULL };
	char *abbr = attr(n, "abbr"), *name = attr(n, "name"), *adj = attr(n, "adjective");
	char *letter = attr(n, "letter"), *colour = attr(n, "colour");
	struct map *m = ld->m;
	xmlNode *c;
	power_id p;
	int i;

	check_attrs(ld, n, allowed);
	if (!abbr || !name) {
		fail(ld, line_of(n), "<power> needs abbr and name");
		goto out;
	}
	if (m->npowers >= MAP_MAX_POWERS) {
		fail(ld, line_of(n), "too many powers (at most %d)", MAP_MAX_POWERS);
		goto out;
	}
	for (i = 0; i < m->npowers; i++)
		if (str_eq_nocase(m->powers[i].abbr, abbr) || str_eq_nocase(m->powers[i].name, name))
			fail(ld, line_of(n), "power %s defined twice", name);
	if (letter && strlen(letter) != 1)
		fail(ld, line_of(n), "power %s: letter must be one character", name);
	if (colour && (colour[0] != '#' || strlen(colour) != 7 ||
	    strspn(colour + 1, "0123456789abcdefABCDEF") != 6))
		fail(ld, line_of(n), "power %s: colour must look like #rrggbb", name);
	p = map_add_power(m, name, adj ? adj : name, abbr, letter ? letter[0] : '\0',
	    colour ? colour : "#808080");
	for (i = 0; m->powers[p].abbr[i]; i++)
		if (m->powers[p].abbr[i] >= 'a' && m->powers[p].abbr[i] <= 'z')
			m->powers[p].abbr[i] = (char)(m->powers[p].abbr[i] - 'a' + 'A');
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "alias")) {
			char *t = text_of(c);
			if (*t)
				map_add_power_alias(m, p, t);
			free(t);
		} else if (c->type == XML_ELEMENT_NODE)
			fail(ld, line_of(c), "<power>: unexpected <%s>", (const char *)c->name);
	}
out:
	xml_free(abbr);
	xml_free(name);
	xml_free(adj);
	xml_free(letter);
	xml_free(colour);
}

/* ----------------------------------------------------------- provinces -- */

/* True when s already names a province (abbreviation, name or alias). */
static bool
name_taken(const struct map *m, const char *s)
{
	return map_find_province(m, s) != PROV_NONE;
}

static void
add_list(struct loader *ld, loc_id from, enum unit_type t, xmlNode *n)
{
	struct pending_list *pl;

	ld->lists = xreallocarray(ld->lists, (size_t)ld->nlists + 1, sizeof *ld->lists);
	pl = &ld->lists[ld->nlists++];
	pl->from = from;
	pl->type = (uint8_t)t;
	pl->line = line_of(n);
	pl->text = text_of(n);
}

static void
load_coast(struct loader *ld, prov_id p, xmlNode *n)
{
	static const char *const allowed[] = { "abbr", "name", NULL };
	char *abbr = attr(n, "abbr"), *name = attr(n, "name");
	struct map *m = ld->m;
	xmlNode *c;
	loc_id l;

	check_attrs(ld, n, allowed);
	if (!abbr || !valid_name(abbr)) {
		fail(ld, line_of(n), "%s: <coast> needs an abbr without '/', '(' or ')'",
		    m->provs[p].abbr);
		goto out;
	}
	if (map_find_coast(m, p, abbr) != LOC_NONE) {
		fail(ld, line_of(n), "%s: coast %s defined twice", m->provs[p].abbr, abbr);
		goto out;
	}
	if (m->provs[p].ncoasts >= MAP_MAX_COASTS) {
		fail(ld, line_of(n), "%s: too many coasts", m->provs[p].abbr);
		goto out;
	}
	if (m->provs[p].terrain != TERRAIN_COAST)
		fail(ld, line_of(n), "%s: only coastal provinces have coasts", m->provs[p].abbr);
	l = map_add_coast(m, p, abbr, name ? name : abbr);
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "fleet"))
			add_list(ld, l, UNIT_FLEET, c);
		else if (c->type == XML_ELEMENT_NODE)
			fail(ld, line_of(c), "<coast>: unexpected <%s> (a coast has only <fleet>)",
			    (const char *)c->name);
	}
out:
	xml_free(abbr);
	xml_free(name);
}

static void
load_province(struct loader *ld, xmlNode *n)
{
	static const char *const allowed[] = { "abbr", "name", "terrain", "centre", "home",
		"coast-named", NULL };
	char *abbr = attr(n, "abbr"), *name = attr(n, "name"), *terr = attr(n, "terrain");
	char *centre = attr(n, "centre"), *home = attr(n, "home"), *named = NULL;
	struct map *m = ld->m;
	enum terrain t;
	bool is_centre = false;
	xmlNode *c;
	prov_id p;

	check_attrs(ld, n, allowed);
	if (!abbr || !name || !terr) {
		fail(ld, line_of(n), "<province> needs abbr, name and terrain");
		goto out;
	}
	if (!valid_name(abbr) || !valid_name(name)) {
		fail(ld, line_of(n), "province %s: names may not contain '/', '(' or ')'", abbr);
		goto out;
	}
	if (str_eq_nocase(terr, "land"))
		t = TERRAIN_LAND;
	else if (str_eq_nocase(terr, "sea"))
		t = TERRAIN_SEA;
	else if (str_eq_nocase(terr, "coast"))
		t = TERRAIN_COAST;
	else {
		fail(ld, line_of(n), "province %s: terrain must be land, sea or coast, not \"%s\"",
		    abbr, terr);
		goto out;
	}
	if (name_taken(m, abbr) || name_taken(m, name)) {
		fail(ld, line_of(n), "province %s (%s): name already used by another province", abbr,
		    name);
		goto out;
	}
	if (m->nprovs >= MAP_MAX_PROVS || m->nlocs >= MAP_MAX_LOCS - MAP_MAX_COASTS) {
		fail(ld, line_of(n), "too many provinces");
		goto out;
	}
	if (centre && !parse_bool(centre, &is_centre))
		fail(ld, line_of(n), "province %s: centre must be yes or no", abbr);
	p = map_add_province(m, abbr, name, t);
	m->provs[p].line = line_of(n);
	if (home) {
		power_id hp = map_find_power(m, home);
		if (hp == POWER_NONE)
			fail(ld, line_of(n), "province %s: unknown home power \"%s\"", abbr, home);
		else if (centre && !is_centre)
			fail(ld, line_of(n), "province %s: a home centre must be a centre", abbr);
		m->provs[p].home = hp;
		is_centre = true;
	}
	if (is_centre && t == TERRAIN_SEA)
		fail(ld, line_of(n), "province %s: a sea cannot be a supply centre", abbr);
	m->provs[p].supply = is_centre;

	for (c = n->children; c; c = c->next) {
		if (is_el(c, "alias")) {
			char *a = text_of(c);
			if (!valid_name(a))
				fail(ld, line_of(c), "province %s: bad alias \"%s\"", abbr, a);
			else if (name_taken(m, a))
				fail(ld, line_of(c), "province %s: alias \"%s\" already names a province",
				    abbr, a);
			else
				map_add_province_alias(m, p, a);
			free(a);
		} else if (is_el(c, "coast")) {
			load_coast(ld, p, c);
		}
	}
	/* Read only where it can mean something: a province with coasts. */
	if (m->provs[p].ncoasts > 0 && (named = attr(n, "coast-named")) != NULL &&
	    !parse_bool(named, &m->provs[p].coast_named))
		fail(ld, line_of(n), "province %s: coast-named must be yes or no", abbr);
	for (c = n->children; c; c = c->next) {
		if (is_el(c, "army")) {
			if (t == TERRAIN_SEA)
				fail(ld, line_of(c), "province %s: a sea has no army neighbours", abbr);
			add_list(ld, m->provs[p].loc, UNIT_ARMY, c);
		} else if (is_el(c, "fleet")) {
			if (t == TERRAIN_LAND)
				fail(ld, line_of(c), "province %s: an inland province has no fleet neighbours",
				    abbr);
			else if (m->provs[p].ncoasts > 0)
				fail(ld, line_of(c),
				    "province %s has named coasts: put fleet neighbours inside each <coast>",
				    abbr);
			add_list(ld, m->provs[p].loc, UNIT_FLEET, c);
		} else if (c->type == XML_ELEMENT_NODE && !is_el(c, "alias") && !is_el(c, "coast")) {
			fail(ld, line_of(c), "<province>: unexpected <%s>", (const char *)c->name);
		}
	}
out:
	xml_free(abbr);
	xml_free(name);
	xml_free(terr);
	xml_free(centre);
	xml_free(home);
	xml_free(named);
}

/* ---------------------------------------------------------------- edges -- */

static void
resolve_lists(struct loader *ld)
{
	struct map *m = ld->m;
	size_t nl = (size_t)m->nlocs;
	int i, t;

	for (t = 1; t <= 2; t++)
		ld->edge_line[t] = xcalloc(nl * nl, sizeof(int));
	for (i = 0; i < ld->nlists; i++) {
		struct pending_list *pl = &ld->lists[i];
		const char *kind = pl->type == UNIT_ARMY ? "army" : "fleet";
		char *save = pl->text, *tok;

		while ((tok = strsep(&save, " \t\r\n,")) != NULL) {
			loc_id to;

			if (*tok == '\0')
				continue;
			to = map_find_location(m, tok);
			if (to == LOC_NONE) {
				fail(ld, pl->line, "%s: unknown %s neighbour \"%s\"", m->locs[pl->from].name,
				    kind, tok);
				continue;
			}
			if (!map_loc_allows(m, pl->type, to)) {
				const struct province *tp = &m->provs[m->locs[to].prov];
				fail(ld, pl->line, "%s: %s neighbour %s cannot hold %s%s",
				    m->locs[pl->from].name, kind, m->locs[to].name,
				    pl->type == UNIT_ARMY ? "an army (it is a sea)"
							  : "a fleet",
				    pl->type == UNIT_FLEET && tp->ncoasts ? " (name one of its coasts)" :
				    pl->type == UNIT_FLEET ? " (it is inland)" : "");
				continue;
			}
			if (m->locs[to].prov == m->locs[pl->from].prov) {
				fail(ld, pl->line, "%s: lists its own province as a neighbour",
				    m->locs[pl->from].name);
				continue;
			}
			if (!map_add_edge(m, (enum unit_type)pl->type, pl->from, to))
				fail(ld, pl->line, "%s: %s neighbour %s listed twice", m->locs[pl->from].name,
				    kind, m->locs[to].name);
			else
				ld->edge_line[pl->type][(size_t)pl->from * nl + to] = pl->line;
		}
	}
}

static void
check_symmetry(struct loader *ld)
{
	struct map *m = ld->m;
	size_t nl = (size_t)m->nlocs;
	int t, a, i;

	for (t = 1; t <= 2; t++) {
		for (a = 0; a < m->nlocs; a++) {
			const struct location *la = &m->locs[a];
			for (i = 0; i < la->nadj[t]; i++) {
				loc_id b = la->adj[t][i];
				if (ld->edge_line[t][(size_t)b * nl + (size_t)a] == 0) {
					const struct province *pb = &m->provs[m->locs[b].prov];
					fail(ld, ld->edge_line[t][(size_t)a * nl + b],
					    "asymmetric edge: %s lists %s as %s neighbour, but %s (line %d) does not list %s",
					    la->name, m->locs[b].name, t == UNIT_ARMY ? "an army" : "a fleet",
					    m->locs[b].name, pb->line, la->name);
				}
			}
		}
	}
}

/* ---------------------------------------------------------------- units -- */

static enum unit_type
parse_unit_type(const char *s)
{
	if (str_eq_nocase(s, "army") || str_eq_nocase(s, "a"))
		return UNIT_ARMY;
	if (str_eq_nocase(s, "fleet") || str_eq_nocase(s, "f"))
		return UNIT_FLEET;
	return UNIT_NONE;
}

static void
load_unit(struct loader *ld, xmlNode *n)
{
	static const char *const allowed[] = { "power", "type", "at", NULL };
	char *pw = attr(n, "power"), *type = attr(n, "type"), *at = attr(n, "at");
	struct map *m = ld->m;
	enum unit_type t;
	power_id p;
	loc_id l;
	int i;

	check_attrs(ld, n, allowed);
	if (!pw || !type || !at) {
		fail(ld, line_of(n), "<unit> needs power, type and at");
		goto out;
	}
	p = map_find_power(m, pw);
	t = parse_unit_type(type);
	l = map_find_location(m, at);
	if (p == POWER_NONE)
		fail(ld, line_of(n), "starting unit: unknown power \"%s\"", pw);
	if (t == UNIT_NONE)
		fail(ld, line_of(n), "starting unit: type must be army or fleet, not \"%s\"", type);
	if (l == LOC_NONE)
		fail(ld, line_of(n), "starting unit: unknown location \"%s\"", at);
	if (p == POWER_NONE || t == UNIT_NONE || l == LOC_NONE)
		goto out;
	if (t == UNIT_FLEET && m->provs[m->locs[l].prov].ncoasts > 0 && m->locs[l].coast == 0) {
		fail(ld, line_of(n), "starting fleet in %s must name a coast", at);
		goto out;
	}
	if (!map_loc_allows(m, t, l)) {
		fail(ld, line_of(n), "starting %s on %s: %s", unit_word(t), m->locs[l].name,
		    t == UNIT_FLEET ? "a fleet cannot start on an inland province" :
				      "an army cannot start at sea");
		goto out;
	}
	for (i = 0; i < m->nstart; i++)
		if (m->locs[m->start[i].loc].prov == m->locs[l].prov)
			fail(ld, line_of(n), "two starting units in %s",
			    m->provs[m->locs[l].prov].abbr);
	m->start = xreallocarray(m->start, (size_t)m->nstart + 1, sizeof *m->start);
	m->start[m->nstart].power = p;
	m->start[m->nstart].type = (uint8_t)t;
	m->start[m->nstart].loc = l;
	m->nstart++;
out:
	xml_free(pw);
	xml_free(type);
	xml_free(at);
}

/* ------------------------------------------------ capitals and bases -- */

/*
 * <capital power="AUS" at="vie bud"/>, <naval-base power="ENG" at="lon edi"/>
 * (Realpolitik): each place a home centre of that power; a naval base on
 * the coast. A province is the capital of one power at most, and the base
 * of one at most; it may be both.
 */
static void
load_seat(struct loader *ld, xmlNode *n, bool base)
{
	static const char *const allowed[] = { "power", "at", NULL };
	char *pw = attr(n, "power"), *at = attr(n, "at"), *s, *w;
	struct map *m = ld->m;
	const char *what = base ? "naval base" : "capital";
	power_id p;

	check_attrs(ld, n, allowed);
	if (!pw || !at) {
		fail(ld, line_of(n), "<%s> needs power and at", (const char *)n->name);
		goto out;
	}
	p = map_find_power(m, pw);
	if (p == POWER_NONE) {
		fail(ld, line_of(n), "%s: unknown power \"%s\"", what, pw);
		goto out;
	}
	for (s = at; (w = strsep(&s, " \t\r\n")) != NULL;) {
		prov_id q;
		power_id *slot;

		if (*w == '\0')
			continue;
		q = map_find_province(m, w);
		if (q == PROV_NONE) {
			fail(ld, line_of(n), "%s: unknown province \"%s\"", what, w);
			continue;
		}
		slot = base ? &m->provs[q].naval_base : &m->provs[q].capital;
		if (m->provs[q].home != p)
			fail(ld, line_of(n), "%s %s: not a home centre of %s", what, w,
			    m->powers[p].name);
		else if (base && m->provs[q].terrain != TERRAIN_COAST)
			fail(ld, line_of(n), "naval base %s: not on the coast", w);
		else if (*slot != POWER_NONE)
			fail(ld, line_of(n), "%s %s: named twice", what, w);
		else
			*slot = p;
	}
out:
	xml_free(pw);
	xml_free(at);
}

static void
load_seats(struct loader *ld, xmlNode *root)
{
	xmlNode *c;

	for (c = root->children; c; c = c->next) {
		if (is_el(c, "capital"))
			load_seat(ld, c, false);
		else if (is_el(c, "naval-base"))
			load_seat(ld, c, true);
	}
}

/* -------------------------------------------------------------- variant -- */

static void
load_option(struct loader *ld, xmlNode *n)
{
	static const char *const allowed[] = { "name", "value", NULL };
	char *name = attr(n, "name"), *value = attr(n, "value");

	check_attrs(ld, n, allowed);
	if (!name || !*name)
		fail(ld, line_of(n), "<option> needs a name");
	else
		map_set_option(ld->m, name, value ? value : "yes");
	xml_free(name);
	xml_free(value);
}

static int
int_attr(struct loader *ld, xmlNode *n, const char *name, long min, long max, long dflt)
{
	char *v = attr(n, name);
	long r = dflt;

	if (v && str_to_long(v, min, max, &r) < 0) {
		fail(ld, line_of(n), "%s must be a number from %ld to %ld", name, min, max);
		r = dflt;
	}
	xml_free(v);
	return (int)r;
}

/* system="muna": the rule system the variant plays (a word of letters). */
static void
system_attr(struct loader *ld, xmlNode *root)
{
	char *v = attr(root, "system");
	size_t i, n;

	if (v == NULL)
		return;
	n = strlen(v);
	for (i = 0; i < n && isalpha((unsigned char)v[i]); i++)
		;
	if (n == 0 || i < n || n >= sizeof ld->m->system)
		fail(ld, line_of(root), "system must be the name of a rule system (letters only, "
		    "e.g. standard)");
	else
		memcpy(ld->m->system, v, n + 1);
	xml_free(v);
}

/* board="none": a game of this variant is no board of units (the World
 * Game's war): its rule system names the sides. Anything else but "none"
 * is an error. */
static bool
no_board(struct loader *ld, xmlNode *root)
{
	char *v = attr(root, "board");
	bool none = v != NULL && strcmp(v, "none") == 0;

	if (v != NULL && !none)
		fail(ld, line_of(root), "board may only be \"none\" (no map: the rule system names "
		    "the sides)");
	xml_free(v);
	return none;
}

/* A variant without a board: a description and options, nothing else;
 * its rule system must be named. */
static void
load_boardless(struct loader *ld, xmlNode *root)
{
	xmlNode *c;

	if (ld->m->system[0] == '\0')
		fail(ld, line_of(root), "a variant without a board must name its rule system "
		    "(system=...)");
	for (c = root->children; c; c = c->next) {
		if (is_el(c, "option"))
			load_option(ld, c);
		else if (c->type == XML_ELEMENT_NODE && !is_el(c, "description") &&
		    !is_el(c, "source"))
			fail(ld, line_of(c), "a variant without a board has no <%s>",
			    (const char *)c->name);
	}
	map_finish(ld->m);
	ld->m->victory_centres = 0;
}

/* The elements a variant naming another's geography may hold too. */
static bool
is_seat_or_text(xmlNode *c)
{
	return is_el(c, "capital") || is_el(c, "naval-base") || is_el(c, "description") ||
	    is_el(c, "source");
}

static void
load_root(struct loader *ld, xmlNode *root)
{
	static const char *const allowed[] = { "name", "title", "start-year", "victory-centres",
		"system", "board", NULL };
	struct map *m = ld->m;
	xmlNode *c;
	int i, p;

	check_attrs(ld, root, allowed);
	m->start_year = int_attr(ld, root, "start-year", 1, 9999, 1901);
	system_attr(ld, root);
	if (no_board(ld, root)) {
		load_boardless(ld, root);
		return;
	}
	for (c = root->children; c; c = c->next) {
		if (is_el(c, "power"))
			load_power(ld, c);
		else if (is_el(c, "option"))
			load_option(ld, c);
		else if (c->type == XML_ELEMENT_NODE && !is_el(c, "province") && !is_el(c, "unit") &&
		    !is_seat_or_text(c))
			fail(ld, line_of(c), "unexpected <%s>", (const char *)c->name);
	}
	if (m->npowers == 0)
		fail(ld, line_of(root), "a variant needs at least one <power>");
	for (c = root->children; c; c = c->next)
		if (is_el(c, "province"))
			load_province(ld, c);
	if (m->nprovs == 0)
		fail(ld, line_of(root), "a variant needs provinces");
	resolve_lists(ld);
	check_symmetry(ld);
	for (c = root->children; c; c = c->next)
		if (is_el(c, "unit"))
			load_unit(ld, c);
	load_seats(ld, root);
	map_finish(m);
	m->victory_centres = int_attr(ld, root, "victory-centres", 0, m->nsupply,
	    m->nsupply / 2 + 1);
	for (p = 0; p < m->npowers; p++) {
		int homes = 0;
		for (i = 0; i < m->nprovs; i++)
			homes += m->provs[i].home == p;
		if (homes == 0)
			fail(ld, line_of(root), "power %s has no home centre", m->powers[p].name);
	}
}


/*
 * geography="standard": the powers, provinces and starting units are
 * those of the variant file GEO/variant.xml beside this variant's own
 * directory (or in the maps directory when fname names no directory);
 * this file adds its options, capitals and naval bases and may set
 * start-year, victory-centres and system.
 */
static int geo_depth;	/* geographies being read, one inside another */

static struct map *
load_geography(struct loader *ld, xmlNode *root, const char *geo)
{
	static const char *const allowed[] = { "name", "title", "start-year", "victory-centres",
		"system", "geography", NULL };
	const char *f = ld->diag.fname, *slash = strrchr(f, '/'), *up = NULL;
	char path[4096];
	struct map *m;
	xmlNode *c;
	int n;

	check_attrs(ld, root, allowed);
	if (!valid_name(geo) || strstr(geo, "..") || strchr(geo, '/')) {
		fail(ld, line_of(root), "geography must name a variant, not \"%s\"", geo);
		return NULL;
	}
	/* The directory holding the variant's own: maps/realpolitik/variant.xml
	 * gives maps/standard/variant.xml. */
	for (up = slash; up != NULL && up > f && up[-1] != '/';)
		up--;
	if (slash == NULL)
		n = snprintf(path, sizeof path, "%s/%s/variant.xml", variant_default_dir(), geo);
	else if (up == f)
		n = snprintf(path, sizeof path, "%s/variant.xml", geo);
	else
		n = snprintf(path, sizeof path, "%.*s%s/variant.xml", (int)(up - f), f, geo);
	if (n < 0 || (size_t)n >= sizeof path) {
		fail(ld, line_of(root), "geography path too long");
		return NULL;
	}
	if (geo_depth >= 4) {
		fail(ld, line_of(root), "geography \"%s\": too many geographies in a chain", geo);
		return NULL;
	}
	geo_depth++;
	m = variant_load(path, ld->diag.out);
	geo_depth--;
	if (m == NULL) {
		fail(ld, line_of(root), "cannot read the geography \"%s\" (%s)", geo, path);
		return NULL;
	}
	ld->m = m;
	m->system[0] = '\0';
	m->start_year = int_attr(ld, root, "start-year", 1, 9999, m->start_year);
	system_attr(ld, root);
	for (c = root->children; c; c = c->next) {
		if (is_el(c, "option"))
			load_option(ld, c);
		else if (c->type == XML_ELEMENT_NODE && !is_seat_or_text(c))
			fail(ld, line_of(c), "<%s> is not allowed beside geography=\"%s\"",
			    (const char *)c->name, geo);
	}
	load_seats(ld, root);
	m->victory_centres = int_attr(ld, root, "victory-centres", 0, m->nsupply,
	    m->victory_centres);
	return m;
}

struct map *
variant_parse(const char *data, size_t len, const char *fname, struct buf *err)
{
	struct loader ld;
	xmlParserCtxtPtr ctxt;
	xmlDocPtr doc;
	xmlNode *root;
	struct map *m = NULL;
	char *name = NULL, *title = NULL, *geo = NULL;
	int i;

	memset(&ld, 0, sizeof ld);
	ld.diag.fname = fname;
	ld.diag.out = err;
	if (len > INT32_MAX) {
		fail(&ld, 0, "file too large");
		return NULL;
	}
	ctxt = xmlNewParserCtxt();
	if (ctxt == NULL) {
		fail(&ld, 0, "cannot create an XML parser");
		return NULL;
	}
	doc = xmlCtxtReadMemory(ctxt, data, (int)len, fname, NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (doc == NULL) {
		const xmlError *e = xmlCtxtGetLastError(ctxt);
		char *msg = xstrdup(e && e->message ? e->message : "not well-formed XML");
		fail(&ld, e ? e->line : 0, "%s", str_trim(msg));
		free(msg);
		xmlFreeParserCtxt(ctxt);
		return NULL;
	}
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !is_el(root, "variant")) {
		fail(&ld, root ? line_of(root) : 0, "the root element must be <variant>");
		goto done;
	}
	name = attr(root, "name");
	title = attr(root, "title");
	if (!name || !*name) {
		fail(&ld, line_of(root), "<variant> needs a name");
		goto done;
	}
	geo = attr(root, "geography");
	if (geo) {
		m = load_geography(&ld, root, geo);
		if (m) {
			if (m->drawing == NULL)
				m->drawing = m->name;
			else
				free(m->name);
			free(m->title);
			free(m->file);
			m->name = xstrdup(name);
			m->title = xstrdup(title ? title : name);
			m->file = NULL;
		}
		goto done;
	}
	m = map_new(name, title ? title : name);
	ld.m = m;
	load_root(&ld, root);
done:
	xml_free(geo);
	for (i = 0; i < ld.nlists; i++)
		free(ld.lists[i].text);
	free(ld.lists);
	free(ld.edge_line[1]);
	free(ld.edge_line[2]);
	xml_free(name);
	xml_free(title);
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	if (ld.diag.count > 0) {
		map_free(m);
		return NULL;
	}
	return m;
}

struct map *
variant_load(const char *path, struct buf *err)
{
	struct buf data;
	struct map *m;

	buf_init(&data, VARIANT_MAX_BYTES);
	if (fs_read_file(path, &data) < 0) {
		buf_printf(err, "%s: %s\n", path,
		    errno == EFBIG ? "file too large for a variant" : strerror(errno));
		buf_free(&data);
		return NULL;
	}
	m = variant_parse(buf_str(&data), data.len, path, err);
	if (m)
		m->file = xstrdup(path);
	buf_free(&data);
	return m;
}

const char *
variant_default_dir(void)
{
	const char *env = getenv("POUCH_MAPS");

	return env && *env ? env : POUCH_MAPS_DIR;
}

struct map *
variant_open(const char *name_or_path, const char *maps_dir, struct buf *err)
{
	char path[4096];
	size_t n = strlen(name_or_path);

	if (strchr(name_or_path, '/') || (n > 4 && strcmp(name_or_path + n - 4, ".xml") == 0))
		return variant_load(name_or_path, err);
	if (!valid_name(name_or_path) || strstr(name_or_path, "..")) {
		buf_printf(err, "bad variant name \"%s\"\n", name_or_path);
		return NULL;
	}
	if (maps_dir == NULL)
		maps_dir = variant_default_dir();
	if ((size_t)snprintf(path, sizeof path, "%s/%s/variant.xml", maps_dir, name_or_path) >=
	    sizeof path) {
		buf_printf(err, "variant path too long\n");
		return NULL;
	}
	if (!fs_exists(path)) {
		buf_printf(err, "no variant \"%s\" (looked for %s)\n", name_or_path, path);
		return NULL;
	}
	return variant_load(path, err);
}
