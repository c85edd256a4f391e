/*
 * layout.c — arrows, dislodged units and seat markers off the names
 * (layout.h).
 *
 * Everything is measured in boxes: a name's text box, a unit's glyph at
 * its place (a fleet's where one may stand, it holds an army's), a
 * marker's square. An arrow is a quadratic Bézier curve sampled as
 * CURVE_STEPS chords; the straight line is the curve whose control point
 * is the midpoint, so an arrow that meets no name stays a line.
 */
#include "layout.h"

#include <math.h>
#include <string.h>

#include "../lib/str.h"
#include "render.h"

#define NAME_PX 9.0		/* the names' font size */
#define LETTER_EM 0.72		/* a letter's width, generous */
#define BASELINE_PX 3.2		/* the baseline below the label place */
#define ASCENT_EM 0.76
#define DESCENT_EM 0.24
#define FLEET_W 11.5		/* half a fleet's width, with its outline */
#define FLEET_UP 13.0		/* its mast above its place */
#define FLEET_DOWN 7.0		/* its hull below */
#define ARMY_W 9.0		/* half an army's block */
#define ARMY_H 6.5
#define CENTRE_R 4.7		/* a centre marker's ring */
#define SEAT_R 5.9		/* a capital's star, with its outline */
#define SEAT_AWAY 10.0		/* from its centre marker */
#define SEAT_TURN 0.35		/* each further turn round the centre marker */
#define CURVE_STEPS 32
#define BEND_PAD 1.0		/* a bent arrow keeps this far from every name */
#define BEND_STEP 2.0		/* the control point moves out this far a try */
#define BEND_MOST 60.0		/* and at most this far */

struct box {
	double x0, y0, x1, y1;
};

static bool
overlap(const struct box *r, const struct box *s)
{
	return r->x0 < s->x1 && s->x0 < r->x1 && r->y0 < s->y1 && s->y0 < r->y1;
}

static struct box
around(struct geo_point at, double r)
{
	return (struct box){ at.x - r, at.y - r, at.x + r, at.y + r };
}

/* The text box of province p's name, grown by pad. */
static struct box
name_box(const struct map *m, const struct geometry *g, int p, double pad)
{
	double half = LETTER_EM * NAME_PX * (double)strlen(m->provs[p].abbr) / 2;
	double base = g->label[p].y + BASELINE_PX;

	return (struct box){ g->label[p].x - half - pad, base - ASCENT_EM * NAME_PX - pad,
		g->label[p].x + half + pad, base + DESCENT_EM * NAME_PX + pad };
}

/* The box of a unit at location l's place moved by (dx, dy). */
static struct box
unit_box(const struct map *m, const struct geometry *g, loc_id l, double dx, double dy)
{
	const struct province *pv = &m->provs[m->locs[l].prov];
	double x = g->unit[l].x + dx, y = g->unit[l].y + dy;

	if (pv->terrain != TERRAIN_LAND && (m->locs[l].coast > 0 || pv->ncoasts == 0))
		return (struct box){ x - FLEET_W, y - FLEET_UP, x + FLEET_W, y + FLEET_DOWN };
	return (struct box){ x - ARMY_W, y - ARMY_H, x + ARMY_W, y + ARMY_H };
}

/* How many names box r covers. */
static int
names_under(const struct map *m, const struct geometry *g, const struct box *r)
{
	int p, n = 0;

	for (p = 0; p < m->nprovs; p++) {
		struct box nb = name_box(m, g, p, 0);
		n += overlap(r, &nb);
	}
	return n;
}

/* True when the segment a-b meets box r: their extents overlap and the
 * box's corners do not all lie on one side of the segment's line. */
static bool
segment_meets(struct geo_point a, struct geo_point b, const struct box *r)
{
	double nx = b.y - a.y, ny = a.x - b.x, lo = 0, hi = 0;
	int k;

	if (fmax(a.x, b.x) < r->x0 || fmin(a.x, b.x) > r->x1 || fmax(a.y, b.y) < r->y0 ||
	    fmin(a.y, b.y) > r->y1)
		return false;
	for (k = 0; k < 4; k++) {
		double v = nx * ((k & 1 ? r->x1 : r->x0) - a.x) + ny * ((k & 2 ? r->y1 : r->y0) - a.y);
		lo = k == 0 || v < lo ? v : lo;
		hi = k == 0 || v > hi ? v : hi;
	}
	return lo <= 0 && hi >= 0;
}

struct geo_point
layout_bezier(struct geo_point a, struct geo_point c, struct geo_point b, double t)
{
	double u = 1 - t;

	return (struct geo_point){ u * u * a.x + 2 * u * t * c.x + t * t * b.x,
		u * u * a.y + 2 * u * t * c.y + t * t * b.y };
}

/* True when the curve a, c, b meets a name's box grown by pad. */
static bool
curve_meets_names(const struct map *m, const struct geometry *g, struct geo_point a,
    struct geo_point c, struct geo_point b, double pad)
{
	/* The curve lies inside the triangle of its three points. */
	struct box hull = { fmin(a.x, fmin(b.x, c.x)), fmin(a.y, fmin(b.y, c.y)),
		fmax(a.x, fmax(b.x, c.x)), fmax(a.y, fmax(b.y, c.y)) };
	/* A control point at the midpoint is the straight line: one chord. */
	int p, k, steps = c.x == (a.x + b.x) / 2 && c.y == (a.y + b.y) / 2 ? 1 : CURVE_STEPS;

	for (p = 0; p < m->nprovs; p++) {
		double base = g->label[p].y + BASELINE_PX;
		struct geo_point prev = a;
		struct box r;
		/* A name's height needs no measuring: most are off the hull. */
		if (base - ASCENT_EM * NAME_PX - pad > hull.y1 || base + DESCENT_EM * NAME_PX + pad < hull.y0)
			continue;
		r = name_box(m, g, p, pad);
		if (!(hull.x0 <= r.x1 && r.x0 <= hull.x1 && hull.y0 <= r.y1 && r.y0 <= hull.y1))
			continue;
		for (k = 1; k <= steps; k++) {
			struct geo_point q = layout_bezier(a, c, b, (double)k / steps);
			if (segment_meets(prev, q, &r))
				return true;
			prev = q;
		}
	}
	return false;
}

/* The search of layout_arrow_bend, without its cache. */
static bool
find_bend(const struct map *m, const struct geometry *g, struct geo_point a,
    struct geo_point b, struct geo_point *c)
{
	static const double along[] = { 0.5, 0.4, 0.6, 0.3, 0.7 };
	/* How far the ends may turn: tan 40, 60 and 70 degrees; the gentlest
	 * curve that keeps off the names is taken. */
	static const double slope[] = { 0.84, 1.73, 2.75 };
	struct geo_point mid = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
	double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy), s;
	int i, k, side;

	*c = mid;
	if (len < 1 || !curve_meets_names(m, g, a, mid, b, 0))
		return false;
	for (i = 0; i < (int)(sizeof slope / sizeof slope[0]); i++)
		for (s = BEND_STEP; s <= BEND_MOST; s += BEND_STEP)
			for (k = 0; k < (int)(sizeof along / sizeof along[0]); k++) {
				double most = len * fmin(along[k], 1 - along[k]);
				/* Each pass tries only what the one before could not. */
				if (s > slope[i] * most || (i > 0 && s <= slope[i - 1] * most))
					continue;
				for (side = 1; side >= -1; side -= 2) {
					struct geo_point k1 = { a.x + dx * along[k] - dy / len * s * side,
						a.y + dy * along[k] + dx / len * s * side };
					if (curve_meets_names(m, g, a, k1, b, BEND_PAD))
						continue;
					*c = k1;
					return true;
				}
			}
	return false;
}

bool
layout_arrow_bend(const struct map *m, const struct geometry *g, struct geo_point a,
    struct geo_point b, struct geo_point *c)
{
	double key[4] = { a.x, a.y, b.x, b.y };
	size_t h = (size_t)str_hash_bytes(key, sizeof key), i;
	struct geo_bend *e;
	bool bent;

	/* The arrows of a game recur: each is looked for once (a few probes;
	 * a full cache only means searching again). */
	for (i = 0; i < 8; i++) {
		e = &g->bends[(h + i) & (GEO_BENDS - 1)];
		if (!e->used)
			break;
		if (e->a.x == a.x && e->a.y == a.y && e->b.x == b.x && e->b.y == b.y) {
			*c = e->c;
			return e->bent;
		}
	}
	bent = find_bend(m, g, a, b, c);
	if (i < 8)
		*e = (struct geo_bend){ a, b, *c, 1, bent };
	return bent;
}

/* How many unit places of provinces other than l's box r covers. */
static int
units_under(const struct map *m, const struct geometry *g, loc_id l, const struct box *r)
{
	int k, n = 0;

	for (k = 0; k < m->nlocs; k++) {
		struct box u = unit_box(m, g, (loc_id)k, 0, 0);
		if (m->locs[k].prov != m->locs[l].prov)
			n += overlap(r, &u);
	}
	return n;
}

struct geo_point
layout_dislodged_at(const struct map *m, const struct geometry *g, loc_id l)
{
	static const double side[][2] = { { 1, 1 }, { -1, 1 }, { 1, -1 }, { -1, -1 } };
	double dx = RENDER_DISLODGED_DX, dy = RENDER_DISLODGED_DY;
	int k, best = -1, least = 0;

	for (k = 0; k < (int)(sizeof side / sizeof side[0]); k++) {
		double sx = dx * side[k][0], sy = dy * side[k][1];
		struct box r = unit_box(m, g, l, sx, sy);
		/* A name covered weighs more than any number of units. */
		int cost = names_under(m, g, &r) * 100 + units_under(m, g, l, &r);
		if (best < 0 || cost < least) {
			best = k;
			least = cost;
		}
		if (cost == 0)
			break;
	}
	return (struct geo_point){ g->unit[l].x + dx * side[best][0],
		g->unit[l].y + dy * side[best][1] };
}

/* What a seat marker's square r covers: names (the most), unit places,
 * centre markers other than p's. */
static int
seat_cost(const struct map *m, const struct geometry *g, prov_id p, const struct box *r)
{
	int q, n = names_under(m, g, r) * 100;

	for (q = 0; q < m->nlocs; q++) {
		struct box u = unit_box(m, g, (loc_id)q, 0, 0);
		n += 10 * overlap(r, &u);
	}
	for (q = 0; q < m->nprovs; q++) {
		struct box c = around(g->centre[q], CENTRE_R);
		n += m->provs[q].supply && q != p && overlap(r, &c);
	}
	return n;
}

/* The centre of a seat marker of p turned by angle from the line away
 * from its unit. */
static struct geo_point
seat_turned(const struct geometry *g, struct geo_point away, prov_id p, double angle)
{
	struct geo_point ce = g->centre[p];

	return (struct geo_point){ ce.x + SEAT_AWAY * (away.x * cos(angle) - away.y * sin(angle)),
		ce.y + SEAT_AWAY * (away.x * sin(angle) + away.y * cos(angle)) };
}

struct geo_point
layout_seat_at(const struct map *m, const struct geometry *g, prov_id p, enum layout_seat which)
{
	struct geo_point ce = g->centre[p], u = g->unit[m->provs[p].loc], away, best;
	double dx = ce.x - u.x, dy = ce.y - u.y, len = sqrt(dx * dx + dy * dy), first;
	int k, least = -1;

	away = len < 1 ? (struct geo_point){ 1, 0 } : (struct geo_point){ dx / len, dy / len };
	/* A capital turns one way, a naval base the other, so that the two
	 * never meet; a marker alone turns either way, one way first. */
	first = which == LAYOUT_SEAT_CAPITAL ? 0.7 : which == LAYOUT_SEAT_BASE ? -0.7 : 0;
	best = seat_turned(g, away, p, first);
	for (k = 0; k < (which == LAYOUT_SEAT_ALONE ? 17 : 7); k++) {
		double turn = which == LAYOUT_SEAT_CAPITAL ? k : which == LAYOUT_SEAT_BASE ? -k :
		    (k + 1) / 2 * (k % 2 ? 1 : -1);
		struct geo_point at = seat_turned(g, away, p, first + SEAT_TURN * turn);
		struct box r = around(at, SEAT_R);
		int cost = seat_cost(m, g, p, &r);
		if (least < 0 || cost < least) {
			least = cost;
			best = at;
		}
		if (cost == 0)
			break;
	}
	return best;
}

/* --- the legend -------------------------------------------------------------- */

/* The room kept for the phase title at its corner (a long title). */
#define TITLE_W 300
#define TITLE_H 36
/* How far apart the places tried are, and the margin kept to the edges. */
#define LEGEND_STEP 4
#define LEGEND_MARGIN 8

/* Does a box w by h with its bottom left corner at (x, y) cover land, or
 * the title's corner of g? */
static bool
legend_covers(const struct geometry *g, double x, double y, double w, double h)
{
	double y0 = y - h;
	int i;

	if (x < g->title_at.x + TITLE_W && x + w > g->title_at.x && y0 < g->title_at.y + TITLE_H &&
	    y > g->title_at.y)
		return true;
	for (i = 0; i < g->nland; i++)
		if (x < g->land[i][2] && x + w > g->land[i][0] && y0 < g->land[i][3] &&
		    y > g->land[i][1])
			return true;
	return false;
}

/* Try (x, y) for the legend: kept in *best when it is free and nearer to
 * the preferred place than *best (*d its squared distance). */
static void
legend_try(const struct geometry *g, double x, double y, double w, double h, double *d,
    struct geo_point *best)
{
	double dx = x - g->legend_at.x, dy = y - g->legend_at.y, dd = dx * dx + dy * dy;

	if (dd < *d && !legend_covers(g, x, y, w, h)) {
		*d = dd;
		best->x = x;
		best->y = y;
	}
}

struct geo_point
layout_legend_at(const struct geometry *g, double w, double h)
{
	struct geo_legend *k = g->legend;
	double x0 = g->min_x + LEGEND_MARGIN, x1 = g->min_x + g->width - LEGEND_MARGIN - w;
	double y0 = g->min_y + LEGEND_MARGIN + h, y1 = g->min_y + g->height - LEGEND_MARGIN;
	double x, y, d = (double)INFINITY;
	struct geo_point best = g->legend_at;

	if (k->w == w && k->h == h)
		return k->at;
	if (legend_covers(g, g->legend_at.x, g->legend_at.y, w, h)) {
		/* Along the edges first: the legend in a corner or at a side. */
		for (y = y0; y <= y1; y += LEGEND_STEP) {
			legend_try(g, x0, y, w, h, &d, &best);
			legend_try(g, x1, y, w, h, &d, &best);
		}
		for (x = x0; x <= x1; x += LEGEND_STEP) {
			legend_try(g, x, y0, w, h, &d, &best);
			legend_try(g, x, y1, w, h, &d, &best);
		}
		for (y = y0; isinf(d) && y <= y1; y += LEGEND_STEP)
			for (x = x0; x <= x1; x += LEGEND_STEP)
				legend_try(g, x, y, w, h, &d, &best);
	}
	k->w = w;
	k->h = h;
	k->at = best;
	return best;
}
