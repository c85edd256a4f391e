/*
 * render.h — draw a position, and optionally a phase's orders and their
 * results, as an SVG document.
 *
 * API
 *
 *	struct render_input in = { .board = &b, .orders = o, .norders = n, .res = &res };
 *	render_svg(map, geometry, &in, &out);	// appends the document to out
 *
 * What is drawn, bottom to top: the geometry's background (water,
 * impassable land), the provinces (supply centres filled with a light tint
 * of their owner's colour, other land neutral, seas blue), supply centre
 * markers (a dot in the owner's colour, outlined for a light colour;
 * none when neutral), the orders, province
 * names (with a light halo, so that no order hides one), the units
 * (armies rounded blocks, fleets ship-shaped, in their power's colour;
 * dislodged units set off on a white plate outlined in red, which shows on
 * every colour, up and right unless a name
 * lies there: layout.h), removals and the marks of failed orders, the
 * phase title and a legend with every power's centres and units and a
 * key to the marks.
 *
 * Orders, in their power's colour over a wider dark edge: moves and
 * retreats are arrows (bent round the names a straight one would cross:
 * layout.h), supports dashed lines to the middle of the
 * supported move or to a ring round the supported unit, convoys dotted
 * lines to the middle of the convoyed move, holds a ring, disbands and
 * removals a cross over the unit (dark on a white edge; so is a dislodged
 * unit destroyed in a retreat), builds the unit's own shape in a dashed
 * ring with a plus, an army embarking an arrow onto its fleet and one
 * landing an arrow ashore. With results, orders that failed keep their
 * power's colour, dashed, with a dark cross where they end; orders refused
 * because the unit does not exist (or belongs to someone else) are not
 * drawn. Where dislodged units may retreat is drawn, when asked for, as a
 * thin orange ring at each place and an arrow to it; a dislodged unit with
 * nowhere to go gets a cross.
 *
 * Pure: no I/O. The output is deterministic.
 */
#ifndef POUCH_RENDER_H
#define POUCH_RENDER_H

#include <stdbool.h>

#include "../judge/engine/adjudicate.h"
#include "../judge/engine/board.h"
#include "../judge/engine/map.h"
#include "../judge/engine/order.h"
#include "../lib/buf.h"
#include "geometry.h"

/* How far a dislodged unit is drawn from its place (user units), up and
 * right unless a name lies there (layout_dislodged_at). */
#define RENDER_DISLODGED_DX 11.0
#define RENDER_DISLODGED_DY (-11.0)

struct render_input {
	const struct board *board;	/* the position drawn */
	const struct order *orders;	/* orders given in that position, or NULL */
	int norders;
	const struct phase_result *res;	/* their results (same board), or NULL: drawn as given */
	const char *title;		/* NULL: the phase, "Spring 1901 Movement" */
	bool retreat_options;		/* draw where dislodged units may retreat */
	const power_id *capital;	/* by province, the power whose capital it is now
					   (a Realpolitik capital moves when lost), or NULL:
					   the variant's */
};

/*
 * Append the SVG document for in to out. Returns 0, or -1 when out's
 * maximum size is reached (out then holds a truncated document).
 */
int render_svg(const struct map *m, const struct geometry *g, const struct render_input *in,
    struct buf *out);

/* One line about b for people who cannot see the map: "Austria 3 centres,
 * 3 units; England ...". Appended to out. */
void render_summary(const struct map *m, const struct board *b, struct buf *out);

/* The colour of power p, "#rrggbb" into out (size >= 8); grey when unset. */
void render_power_colour(const struct map *m, power_id p, char *out);

/* The fill colour of province p on board b, "#rrggbb" into out (size >= 8). */
void render_province_fill(const struct map *m, const struct board *b, prov_id p, char *out);

/* The WCAG contrast ratio of two "#rrggbb" colours (1 to 21). */
double render_contrast(const char *a, const char *b);

/* Whether power p's colour is too light (contrast below 3 against the neutral
 * land or a neutral centre's marker): its centre dots and units get a dark outline. */
bool render_outlined(const struct map *m, power_id p);

/* The colour of that outline, "#rrggbb". */
const char *render_outline_colour(void);

/* The colour of neutral land, or (centre) the inside of a neutral centre's marker. */
const char *render_neutral_colour(bool centre);

/* Whether province p is a centre tinted so close to the neutral land (a colour
 * without hue, contrast below 1.5) that it is drawn with a dark border. */
bool render_pale(const struct map *m, const struct board *b, prov_id p);
/* True when map m names capitals or naval bases (drawn as stars and
 * diamonds; Realpolitik's). */
bool render_has_seats(const struct map *m);

#endif
