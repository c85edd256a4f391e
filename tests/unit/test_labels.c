/*
 * test_labels.c — no province name on the committed maps is crossed by a
 * move arrow or by a border, or covered by a unit or a supply centre marker.
 *
 * For each committed board (maps/standard, maps/muna) every move a unit
 * could make (each adjacency of the variant, armies and fleets, each
 * coast) is drawn by maps/render.c as an arrow between the two unit
 * places: a straight line, or, where that meets a name, the quadratic
 * Bézier curve maps/layout.c bends round it (layout_arrow_bend), measured
 * here as ARROW_CHORDS chords of the curve. None of them may cross the
 * text box of any province's name, and each name's box must lie inside
 * its own province, off its
 * border. No name may lie under a unit drawn at any unit place or under
 * a supply centre's marker (a covered name is worse than a crossed one).
 *
 * The text box is estimated the way render.c draws a name (add_names):
 * the abbreviation with a capital first letter, 9px DejaVu Sans, centred
 * on x, baseline 3.2 below the label place. Width: 0.72em a letter (the
 * widest abbreviations, "Mun" and "Nwy", take about 2.15em for three
 * letters in DejaVu Sans; most take less). Height: from the ascent (0.76em
 * above the baseline) to the descent (0.24em below it). The white halo
 * drawn round the letters is not counted. contrib/mapgen/mapgen.py places
 * the labels with the same estimate (label_extent()).
 *
 * The glyphs are measured from render.c (draw_unit, add_centres), each
 * with half its 1px outline: a fleet from 11.5 left to 11.5 right of its
 * place and from 13 above (the mast) to 7 below; an army 18 by 13 around
 * it; a centre marker a ring of radius 4.2. A place where either may
 * stand (the main place of a coastal province without named coasts)
 * takes the fleet's box, which holds the army's.
 *
 * A dislodged unit is drawn off its place, only in retreats, where
 * layout_dislodged_at puts it (up and right, or another corner when a
 * name lies there); names under one are listed too, and there may be no
 * more than aside_most gives. So are names under the capital and naval
 * base markers a Realpolitik game draws on the standard board, where
 * layout_seat_at puts them (beside the centre marker, turned off the
 * names; a star of radius 5.4, a diamond of 4.3): at every centre, for a
 * marker alone and for each of a capital and naval base together.
 */
#include "../support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/map.h"
#include "../../maps/geometry.h"
#include "../../maps/layout.h"
#include "../../maps/render.h"

#define FONT_PX 9.0
#define LETTER_EM 0.72
#define BASELINE_PX 3.2
#define ASCENT_EM 0.76
#define DESCENT_EM 0.24
#define FLEET_W 11.5		/* half a fleet's width */
#define FLEET_UP 13.0		/* a fleet's mast above its place */
#define FLEET_DOWN 7.0		/* its hull below */
#define ARMY_HALF_W 9.0		/* half an army's block */
#define ARMY_HALF_H 6.5
#define CENTRE_R 4.7		/* a centre marker's ring */
#define SEAT_R 5.9		/* a capital's star, with its outline */
#define ARROW_CHORDS 64	/* a curved arrow measured as this many chords */

struct box {
	double x0, y0, x1, y1;
};

/* An edge of a province's outline. */
struct edge {
	double ax, ay, bx, by;
};

struct outline {
	struct edge *e;
	int n, cap;
};

/* The text box of province p's name. */
static struct box
label_box(const struct map *m, const struct geometry *g, prov_id p)
{
	double half = LETTER_EM * FONT_PX * (double)strlen(m->provs[p].abbr) / 2;
	double base = g->label[p].y + BASELINE_PX;
	struct box b;

	b.x0 = g->label[p].x - half;
	b.x1 = g->label[p].x + half;
	b.y0 = base - ASCENT_EM * FONT_PX;
	b.y1 = base + DESCENT_EM * FONT_PX;
	return b;
}

/* True when the segment a-b meets box r (Liang-Barsky clipping). */
static bool
segment_meets_box(struct geo_point a, struct geo_point b, const struct box *r)
{
	double dx = b.x - a.x, dy = b.y - a.y, t0 = 0, t1 = 1;
	double p[4] = { -dx, dx, -dy, dy };
	double q[4] = { a.x - r->x0, r->x1 - a.x, a.y - r->y0, r->y1 - a.y };
	int i;

	for (i = 0; i < 4; i++) {
		double t;
		if (p[i] == 0) {
			if (q[i] < 0)
				return false;
			continue;
		}
		t = q[i] / p[i];
		if (p[i] < 0 && t > t0)
			t0 = t;
		else if (p[i] > 0 && t < t1)
			t1 = t;
		if (t0 > t1)
			return false;
	}
	return true;
}

static void
outline_add(struct outline *o, double ax, double ay, double bx, double by)
{
	if (ax == bx && ay == by)
		return;
	if (o->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 256;
		o->e = realloc(o->e, (size_t)o->cap * sizeof *o->e);
		assert_non_null(o->e);
	}
	o->e[o->n++] = (struct edge){ ax, ay, bx, by };
}

/*
 * The edges of path data d: the commands M, m, L, l (with implicit
 * repeats) and z, which is all contrib/mapgen writes; anything else fails
 * the test with the province's name.
 */
static void
outline_parse(const char *abbr, const char *d, struct outline *o)
{
	double x = 0, y = 0, sx = 0, sy = 0;
	char cmd = 0;
	const char *s = d;

	o->n = 0;
	while (*s != '\0') {
		char *end;
		double nx, ny;
		if (strchr(" ,\t\n", *s) != NULL) {
			s++;
			continue;
		}
		if (strchr("MmLlZz", *s) != NULL) {
			cmd = *s++;
			if (cmd == 'z' || cmd == 'Z') {
				outline_add(o, x, y, sx, sy);
				x = sx, y = sy;
			}
			continue;
		}
		nx = strtod(s, &end);
		if (end == s || cmd == 0 || cmd == 'z' || cmd == 'Z')
			fail_msg("%s: path data the test cannot read at \"%.10s\"", abbr, s);
		s = end;
		while (*s == ' ' || *s == ',')
			s++;
		ny = strtod(s, &end);
		if (end == s)
			fail_msg("%s: path data the test cannot read at \"%.10s\"", abbr, s);
		s = end;
		if (cmd == 'm' || cmd == 'l')
			nx += x, ny += y;
		if (cmd == 'M' || cmd == 'm') {
			sx = nx, sy = ny;
			cmd = cmd == 'M' ? 'L' : 'l';
		} else {
			outline_add(o, x, y, nx, ny);
		}
		x = nx, y = ny;
	}
}

/* Even-odd rule: true when pt lies inside the outline. */
static bool
outline_contains(const struct outline *o, struct geo_point pt)
{
	bool in = false;
	int i;

	for (i = 0; i < o->n; i++) {
		const struct edge *e = &o->e[i];
		if ((e->ay > pt.y) != (e->by > pt.y) &&
		    pt.x < e->ax + (pt.y - e->ay) * (e->bx - e->ax) / (e->by - e->ay))
			in = !in;
	}
	return in;
}

/* True when the box lies inside the outline and no edge of it meets the box. */
static bool
outline_holds_box(const struct outline *o, const struct box *r)
{
	struct geo_point c = { (r->x0 + r->x1) / 2, (r->y0 + r->y1) / 2 };
	int i;

	if (!outline_contains(o, c))
		return false;
	for (i = 0; i < o->n; i++) {
		struct geo_point a = { o->e[i].ax, o->e[i].ay }, b = { o->e[i].bx, o->e[i].by };
		if (segment_meets_box(a, b, r))
			return false;
	}
	return true;
}

/*
 * What the drawing cannot avoid, each by name with its reason; the test
 * fails on anything else, and on an entry that no longer happens (so that
 * the list only shrinks). What is a move "a-b" with the two locations in
 * the map's order, "unit LOC" or "centre PROV" for a glyph covering the
 * name, or NULL for a name that is not inside its province; name is the
 * province whose name it is.
 */
struct known {
	const char *variant, *what, *name, *why;
};

/* The province is too narrow for its name anywhere: the name overflows
 * its border, off the units. */
#define NARROW "no place inside the province holds the name; it overflows the border, off the units"
/* Every place inside that holds the name lies under a unit place's glyph
 * or a centre marker (worse than overflowing the border). */
#define UNDER "every place inside the province that holds the name lies under a unit or a marker"

static const struct known unavoidable[] = {
	{ "standard", NULL, "cly", NARROW },
	{ "muna", NULL, "dal", NARROW },
	{ "muna", NULL, "lan", NARROW },
	{ "muna", NULL, "mon", UNDER },
	{ NULL, NULL, NULL, NULL },
};

/* The entry for this finding (what NULL: this name not inside), or NULL. */
static const struct known *
known_find(const char *variant, const char *what, const char *name)
{
	const struct known *k;

	for (k = unavoidable; k->variant != NULL; k++)
		if (strcmp(k->variant, variant) == 0 && strcmp(k->name, name) == 0 &&
		    ((what == NULL && k->what == NULL) ||
		    (what != NULL && k->what != NULL && strcmp(k->what, what) == 0)))
			return k;
	return NULL;
}

/* Count a finding: printed; 1 when the list of the unavoidable lacks it. */
static int
finding(const char *variant, const char *what, const char *name, int *seen)
{
	const struct known *k = known_find(variant, what, name);

	if (what == NULL)
		printf("  %s: the name %s is not inside its province", variant, name);
	else if (strchr(what, ' ') != NULL)
		printf("  %s: the %s covers the name %s", variant, what, name);
	else
		printf("  %s: the move %s crosses the name %s", variant, what, name);
	if (k == NULL) {
		printf("\n");
		return 1;
	}
	printf(" (unavoidable: %s)\n", k->why);
	seen[k - unavoidable] = 1;
	return 0;
}

/* A move's arrow from location a to b exists on the board (either way). */
static bool
is_move(const struct map *m, loc_id a, loc_id b)
{
	return map_adjacent(m, UNIT_ARMY, a, b) || map_adjacent(m, UNIT_FLEET, a, b) ||
	    map_adjacent(m, UNIT_ARMY, b, a) || map_adjacent(m, UNIT_FLEET, b, a);
}

/* True when the quadratic Bézier curve a, c, b (an arrow as maps/layout.c
 * bends it) meets box r, the curve sampled as ARROW_CHORDS chords. */
static bool
curve_meets_box(struct geo_point a, struct geo_point c, struct geo_point b, const struct box *r)
{
	struct geo_point prev = a;
	int k;

	for (k = 1; k <= ARROW_CHORDS; k++) {
		struct geo_point q = layout_bezier(a, c, b, (double)k / ARROW_CHORDS);
		if (segment_meets_box(prev, q, r))
			return true;
		prev = q;
	}
	return false;
}

/* Every move arrow crossing a name: printed; returns how many are not
 * known to be unavoidable (and the number of moves, of those bent round
 * a name, and of crossings). */
static int
count_crossings(const struct map *m, const struct geometry *g, int *nmoves, int *nbent, int *all,
    int *seen)
{
	struct geo_point ends[2], c;
	int a, b, p, n = 0;
	char move[64];

	*nmoves = *nbent = *all = 0;
	for (a = 0; a < m->nlocs; a++)
		for (b = a + 1; b < m->nlocs; b++) {
			if (m->locs[a].prov == m->locs[b].prov || !is_move(m, (loc_id)a, (loc_id)b))
				continue;
			(*nmoves)++;
			ends[0] = g->unit[a];
			ends[1] = g->unit[b];
			/* Not bent: the control point is the midpoint, the curve a line. */
			*nbent += layout_arrow_bend(m, g, ends[0], ends[1], &c);
			for (p = 0; p < m->nprovs; p++) {
				struct box r = label_box(m, g, (prov_id)p);
				if (!curve_meets_box(ends[0], c, ends[1], &r))
					continue;
				snprintf(move, sizeof move, "%s-%s", m->locs[a].name, m->locs[b].name);
				n += finding(m->name, move, m->provs[p].abbr, seen);
				(*all)++;
			}
		}
	return n;
}

/* True when boxes r and s overlap (touching edges do not). */
static bool
boxes_overlap(const struct box *r, const struct box *s)
{
	return r->x0 < s->x1 && s->x0 < r->x1 && r->y0 < s->y1 && s->y0 < r->y1;
}

/* The box of a unit drawn at location l: a fleet's where one may stand
 * (it holds an army's too), else an army's. */
static struct box
unit_box(const struct map *m, const struct geometry *g, loc_id l)
{
	const struct province *pv = &m->provs[m->locs[l].prov];
	struct geo_point at = g->unit[l];

	if (pv->terrain != TERRAIN_LAND && (m->locs[l].coast > 0 || pv->ncoasts == 0))
		return (struct box){ at.x - FLEET_W, at.y - FLEET_UP, at.x + FLEET_W,
		    at.y + FLEET_DOWN };
	return (struct box){ at.x - ARMY_HALF_W, at.y - ARMY_HALF_H, at.x + ARMY_HALF_W,
	    at.y + ARMY_HALF_H };
}

/* True when a unit of location l drawn at point at covers the name of
 * province p. */
static bool
unit_covers(const struct map *m, const struct geometry *g, loc_id l, struct geo_point at,
    prov_id p)
{
	struct box r = label_box(m, g, p), u = unit_box(m, g, l);
	double dx = at.x - g->unit[l].x, dy = at.y - g->unit[l].y;

	u.x0 += dx, u.x1 += dx;
	u.y0 += dy, u.y1 += dy;
	return boxes_overlap(&r, &u);
}

/* Every name under a unit drawn dislodged: printed; returns how many. */
static int
count_under_dislodged(const struct map *m, const struct geometry *g)
{
	int l, p, n = 0;

	for (p = 0; p < m->nprovs; p++)
		for (l = 0; l < m->nlocs; l++) {
			if (!unit_covers(m, g, (loc_id)l, layout_dislodged_at(m, g, (loc_id)l),
			    (prov_id)p))
				continue;
			printf("  %s: a dislodged unit at %s covers the name %s\n", m->name,
			    m->locs[l].name, m->provs[p].abbr);
			n++;
		}
	return n;
}

/* True when seat marker which of province q, where maps/layout.c puts
 * it, covers the name of province p. */
static bool
seat_covers(const struct map *m, const struct geometry *g, prov_id q, enum layout_seat which,
    prov_id p)
{
	struct geo_point at = layout_seat_at(m, g, q, which);
	struct box r = label_box(m, g, p), s = { at.x - SEAT_R, at.y - SEAT_R, at.x + SEAT_R,
		at.y + SEAT_R };

	return boxes_overlap(&r, &s);
}

/* Every name under a place of a Realpolitik seat marker: printed; returns
 * how many. */
static int
count_under_seats(const struct map *m, const struct geometry *g)
{
	static const enum layout_seat which[] = { LAYOUT_SEAT_ALONE, LAYOUT_SEAT_CAPITAL,
		LAYOUT_SEAT_BASE };
	int p, q, k, n = 0;

	for (p = 0; p < m->nprovs; p++)
		for (q = 0; q < m->nprovs; q++)
			for (k = 0; k < 3; k++) {
				if (!m->provs[q].supply || !seat_covers(m, g, (prov_id)q, which[k],
				    (prov_id)p))
					continue;
				printf("  %s: a capital or naval base of %s covers the name %s\n",
				    m->name, m->provs[q].abbr, m->provs[p].abbr);
				n++;
				break;
			}
	return n;
}

/* Every name under a unit place's glyph or a centre marker: printed;
 * returns how many are not known to be unavoidable (and, in *all, how
 * many there are). */
static int
count_covered(const struct map *m, const struct geometry *g, int *all, int *seen)
{
	char what[64];
	int l, p, q, n = 0;

	*all = 0;
	for (p = 0; p < m->nprovs; p++) {
		struct box r = label_box(m, g, (prov_id)p);
		for (l = 0; l < m->nlocs; l++) {
			if (!unit_covers(m, g, (loc_id)l, g->unit[l], (prov_id)p))
				continue;
			snprintf(what, sizeof what, "unit %s", m->locs[l].name);
			n += finding(m->name, what, m->provs[p].abbr, seen);
			(*all)++;
		}
		for (q = 0; q < m->nprovs; q++) {
			struct geo_point c = g->centre[q];
			struct box u = { c.x - CENTRE_R, c.y - CENTRE_R, c.x + CENTRE_R, c.y + CENTRE_R };
			if (!m->provs[q].supply || !boxes_overlap(&r, &u))
				continue;
			snprintf(what, sizeof what, "centre %s", m->provs[q].abbr);
			n += finding(m->name, what, m->provs[p].abbr, seen);
			(*all)++;
		}
	}
	return n;
}

/* Every name whose box is not inside its province: printed; returns how
 * many are not known to be unavoidable (and, in *all, how many there are). */
static int
count_outside(const struct map *m, const struct geometry *g, int *all, int *seen)
{
	struct outline o = { 0 };
	int p, n = 0;

	*all = 0;
	for (p = 0; p < m->nprovs; p++) {
		struct box r = label_box(m, g, (prov_id)p);
		outline_parse(m->provs[p].abbr, g->shape[p], &o);
		if (outline_holds_box(&o, &r))
			continue;
		n += finding(m->name, NULL, m->provs[p].abbr, seen);
		(*all)++;
	}
	free(o.e);
	return n;
}

/* How many names a dislodged unit, and a Realpolitik seat marker, may
 * cover on each board; the test fails when there are more. */
static const struct {
	const char *variant;
	int dislodged, seats;
} aside_most[] = {
	{ "standard", 0, 0 },
	{ "muna", 0, 0 },
};

static void
check_board(const char *variant, const char *drawing)
{
	struct map *m = test_load_map(variant);
	struct geometry *g = test_load_geometry(m, drawing);
	int seen[sizeof unavoidable / sizeof unavoidable[0]] = { 0 };
	int moves, bent, ncross, nout, ncover;
	int crossings = count_crossings(m, g, &moves, &bent, &ncross, seen);
	int outside = count_outside(m, g, &nout, seen), covered = count_covered(m, g, &ncover, seen);
	int under = count_under_dislodged(m, g), most = -1;
	int seats = count_under_seats(m, g), seats_most = -1;
	int i, known = 0, stale = 0;

	for (i = 0; unavoidable[i].variant != NULL; i++) {
		if (strcmp(unavoidable[i].variant, m->name) != 0)
			continue;
		known += seen[i];
		if (!seen[i]) {
			printf("  %s: listed as unavoidable but not found: %s %s\n", m->name,
			    unavoidable[i].what ? unavoidable[i].what : "(inside)", unavoidable[i].name);
			stale++;
		}
	}
	printf("  %s: %d move arrows (%d bent round a name), %d names: %d crossings, %d names not inside, %d covered "
	    "by a unit or a centre marker; %d, %d and %d beyond the %d listed as unavoidable\n",
	    m->name, moves, bent, m->nprovs, ncross, nout, ncover, crossings, outside, covered, known);
	fflush(stdout);
	for (i = 0; i < (int)(sizeof aside_most / sizeof aside_most[0]); i++)
		if (strcmp(aside_most[i].variant, m->name) == 0) {
			most = aside_most[i].dislodged;
			seats_most = aside_most[i].seats;
		}
	printf("  %s: %d names under a unit drawn dislodged (at most %d), %d under a "
	    "Realpolitik seat marker's place (at most %d)\n", m->name, under, most, seats,
	    seats_most);
	assert_true(moves > m->nprovs);
	assert_true(most >= 0 && seats_most >= 0);
	assert_true(under <= most);
	assert_true(seats <= seats_most);
	assert_int_equal(crossings, 0);
	assert_int_equal(outside, 0);
	assert_int_equal(covered, 0);
	assert_int_equal(stale, 0);
	geometry_free(g);
	map_free(m);
}

static void
test_standard(void **state)
{
	(void)state;
	check_board("maps/standard/variant.xml", "maps/standard/map.svg");
}

static void
test_muna(void **state)
{
	(void)state;
	check_board("maps/muna/variant.xml", "maps/muna/map.svg");
}

/* The measuring tools themselves, on cases whose answer is plain. */
static void
test_geometry_helpers(void **state)
{
	struct box r = { 0, 0, 10, 10 };
	struct outline o = { 0 };
	struct box in = { 2, 2, 4, 4 }, across = { 8, 2, 12, 4 }, out = { 20, 20, 22, 22 };

	(void)state;
	assert_true(segment_meets_box((struct geo_point){ -5, 5 }, (struct geo_point){ 15, 5 }, &r));
	assert_true(segment_meets_box((struct geo_point){ 5, 5 }, (struct geo_point){ 6, 6 }, &r));
	assert_false(segment_meets_box((struct geo_point){ -5, -1 }, (struct geo_point){ 15, -1 }, &r));
	assert_false(segment_meets_box((struct geo_point){ -5, 0 }, (struct geo_point){ 0, -5 }, &r));
	assert_true(segment_meets_box((struct geo_point){ -5, 6 }, (struct geo_point){ 6, -5 }, &r));
	/* A curve whose control point is the midpoint is the line; one bent
	 * 20 up passes 10 above the middle. */
	assert_true(curve_meets_box((struct geo_point){ 0, 0 }, (struct geo_point){ 10, 0 },
	    (struct geo_point){ 20, 0 }, &(struct box){ 8, -1, 12, 1 }));
	assert_false(curve_meets_box((struct geo_point){ 0, 0 }, (struct geo_point){ 10, -20 },
	    (struct geo_point){ 20, 0 }, &(struct box){ 8, -1, 12, 1 }));
	assert_true(curve_meets_box((struct geo_point){ 0, 0 }, (struct geo_point){ 10, -20 },
	    (struct geo_point){ 20, 0 }, &(struct box){ 8, -11, 12, -9 }));
	outline_parse("sq", "M0,0l10,0 0,10 -10,0zM30,30L40,30 40,40z", &o);
	assert_int_equal(o.n, 7);
	assert_true(outline_holds_box(&o, &in));
	assert_false(outline_holds_box(&o, &across));
	assert_false(outline_holds_box(&o, &out));
	free(o.e);
}

/* layout_arrow_bend for every pair of unit places that can be a move,
 * into c[] (bent[]: its answer); returns how many were bent. */
static int
all_bends(const struct map *m, const struct geometry *g, struct geo_point *c, bool *bent)
{
	int a, b, k = 0, n = 0;

	for (a = 0; a < m->nlocs; a++)
		for (b = 0; b < m->nlocs; b++) {
			if (a == b || !is_move(m, (loc_id)a, (loc_id)b))
				continue;
			bent[k] = layout_arrow_bend(m, g, g->unit[a], g->unit[b], &c[k]);
			n += bent[k++];
		}
	return n;
}

/* The geometry's cache of arrow paths gives what a search gives: filled
 * as it is asked (the second round comes from it), and full of other
 * arrows (every answer searched again). */
static void
test_bend_cache(void **state)
{
	struct map *m = test_load_map("maps/standard/variant.xml");
	struct geometry *g = test_load_geometry(m, "maps/standard/map.svg");
	static struct geo_point c[3][MAP_MAX_LOCS * 16];
	static bool bent[3][MAP_MAX_LOCS * 16];
	int i, n;

	(void)state;
	n = all_bends(m, g, c[0], bent[0]);
	assert_true(n > 0);
	assert_int_equal(all_bends(m, g, c[1], bent[1]), n);
	for (i = 0; i < GEO_BENDS; i++)
		g->bends[i] = (struct geo_bend){ { -1, -(double)i }, { -2, -2 }, { 0, 0 }, 1, 0 };
	assert_int_equal(all_bends(m, g, c[2], bent[2]), n);
	assert_memory_equal(c[0], c[1], sizeof c[0]);
	assert_memory_equal(c[0], c[2], sizeof c[0]);
	assert_memory_equal(bent[0], bent[2], sizeof bent[0]);
	geometry_free(g);
	map_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry_helpers),
		cmocka_unit_test(test_standard),
		cmocka_unit_test(test_muna),
		cmocka_unit_test(test_bend_cache),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
