/*
 * layout.h — where the renderer draws what the drawing does not place:
 * the path of a move's arrow, a dislodged unit, a Realpolitik capital's or
 * naval base's marker; each off the province names where it can be.
 *
 * API
 *
 *	struct geo_point c;
 *	layout_arrow_bend(m, g, from, to, &c);	// true when bent
 *	// the arrow is the quadratic Bézier curve from, c, to
 *	struct geo_point d = layout_dislodged_at(m, g, loc);
 *	struct geo_point s = layout_seat_at(m, g, prov, LAYOUT_SEAT_ALONE);
 *
 * A name's box is estimated as render.c draws it (9px DejaVu Sans, about
 * 0.72em a letter, from 0.76em above the baseline to 0.24em below);
 * tests/unit/test_labels.c measures what these functions choose against
 * its own estimate. Pure and deterministic: the same map and geometry
 * always give the same places.
 */
#ifndef POUCH_LAYOUT_H
#define POUCH_LAYOUT_H

#include <stdbool.h>

#include "../judge/engine/map.h"
#include "geometry.h"

/* Which of a province's seat markers: the only one, or the capital and
 * the naval base of a province that is both. */
enum layout_seat { LAYOUT_SEAT_ALONE, LAYOUT_SEAT_CAPITAL, LAYOUT_SEAT_BASE };

/*
 * The control point, into *c, of the arrow from a to b: their midpoint (a
 * straight line) when the line meets no name, else the nearest point off
 * the line whose curve, the gentlest that can (its ends turned at most
 * 40, else 60, else 70 degrees from the line), keeps a pixel from every
 * name. Returns true when the arrow is bent (false: *c is the midpoint,
 * also when no curve keeps off the names).
 */
bool layout_arrow_bend(const struct map *m, const struct geometry *g, struct geo_point a,
    struct geo_point b, struct geo_point *c);

/* The point at t (0 to 1) of the quadratic Bézier curve a, c, b. */
struct geo_point layout_bezier(struct geo_point a, struct geo_point c, struct geo_point b,
    double t);

/*
 * Where a unit dislodged from location l is drawn: set off up and right
 * (RENDER_DISLODGED_DX, _DY), or, when a name lies there, up and left,
 * down and right or down and left, the first that covers no name (and
 * no other province's unit place, where one of them can).
 */
struct geo_point layout_dislodged_at(const struct map *m, const struct geometry *g, loc_id l);

/*
 * The centre of seat marker which of province p (a supply centre): 10
 * from its centre marker, on the side away from its unit (a capital
 * turned 0.7 radians one way, a naval base the other, when the province
 * is both), turned further round the centre marker to the first place
 * that covers no name, unit place or other centre marker.
 */
struct geo_point layout_seat_at(const struct map *m, const struct geometry *g, prov_id p,
    enum layout_seat which);

/*
 * The bottom left corner of the legend, a box w by h: the drawing's own
 * place for it (legend_at) when the box covers no land there (no box of
 * g->land, nor the title's corner), else the nearest place along the
 * drawing's edges, then anywhere on it, where it covers none; legend_at
 * when there is none. Found once for a size, then kept in g.
 */
struct geo_point layout_legend_at(const struct geometry *g, double w, double h);

#endif
