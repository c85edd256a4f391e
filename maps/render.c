/*
 * render.c — the SVG map of a position (what is drawn: render.h).
 *
 * The document is built as a tree of its own (svgdoc.h), layer by layer,
 * and written straight into the caller's buffer; the parts that depend on
 * the geometry alone are kept, not copied. Shapes
 * come from the geometry as path data; everything else is placed at the geometry's points. Colours are
 * written as attributes so that the file stands alone (an <img> cannot
 * load anything else); the few shared styles are in one <style> element.
 */
#include "render.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libxml/tree.h>

#include "../judge/engine/resolver.h"
#include "../lib/str.h"
#include "layout.h"
#include "svgdoc.h"

#define SVG_NS "http://www.w3.org/2000/svg"

#define LAND_FILL "#ece6d2"
#define SEA_FILL "#aec4d6"
#define FAIL "#d0021b"
#define TINT 0.42		/* how much of the owner's colour a centre's province gets */
#define UNIT_R 7.0		/* how far orders keep off a unit's place */
#define ARMY_W 17.0		/* an army's block */
#define ARMY_H 12.0
#define RING_R 11.0		/* hold and support-to-hold rings */
#define EDGE "#111"		/* the dark edge under every order, readable on any fill */
#define PALE_BORDER "#5e5a50"	/* the border of provinces tinted too close to the land */
#define PALE_CONTRAST 1.5	/* below this (and without hue), a tint gets that border */
#define PALE_CHROMA 48		/* a colour whose channels differ less than this has no hue */
#define NEUTRAL_CENTRE "#ffffff"	/* the inside of a centre's marker */
#define OUTLINE "#222222"	/* round the centres and units of a power of light colour */
#define OUTLINE_CONTRAST 3.0	/* below this against land or marker, a power gets that outline */

static const char STYLE[] =
    ".water,.lake{fill:" SEA_FILL "}.lake{stroke:#5d7f99;stroke-width:.4}"
    ".impassable{fill:#d6d1c4;stroke:#8a857a;stroke-width:.4}"
    ".land{stroke:#6b6150;stroke-width:.6}.sea{stroke:#6f8ea8;stroke-width:.5}"
    ".sb{fill:none;stroke:#6f8ea8;stroke-width:.5}"
    ".pale{stroke:" PALE_BORDER ";stroke-width:1.6;stroke-linejoin:round}"
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}"
    ".n{font-size:9px;fill:#2b2b2b;text-anchor:middle}"
    ".ns{font-size:9px;font-style:italic;fill:#2f4f68;text-anchor:middle}"
    ".n,.ns{stroke:#fff;stroke-opacity:.8;stroke-width:2.6;stroke-linejoin:round;"
    "paint-order:stroke}"
    ".c{stroke:#222}.cd{stroke:" OUTLINE ";stroke-width:.9}"
    ".u{stroke:#111}.pl{stroke:" OUTLINE ";stroke-width:1.7}.dlp{fill:#ffffff;stroke:" FAIL ";stroke-width:1.8}"
    ".ab{stroke-width:.8}.seat{stroke:#111;stroke-width:.7}"
    ".sk{font-size:10px;font-weight:bold;fill:#111;stroke:#fff;stroke-width:2.4;"
    "paint-order:stroke}"
    ".o,.oo{fill:none;stroke-width:2.2}"
    ".sp{stroke-width:1.6;stroke-dasharray:4 3}"
    ".cv{stroke-width:1.8;stroke-dasharray:1.5 3.5;stroke-linecap:round}"
    ".op{stroke:#d96c00;stroke-width:1;stroke-dasharray:3 2}"
    ".bd{stroke-width:1.6;stroke-dasharray:3 2}"
    ".f{stroke-dasharray:6 3}"
    ".x{fill:none;stroke-width:2.4}"
    ".fx,.fxh{fill:none;stroke-linecap:round}.fx{stroke:#111;stroke-width:1.8}"
    ".fxh{stroke:#fff;stroke-width:4.2}"
    ".oo{stroke-width:4.4}.oo.sp,.oo.bd,.oo.cv{stroke-width:3.8}"
    ".box{fill:#fff;fill-opacity:.88;stroke:#777;stroke-width:.8}"
    ".t{font-size:15px;font-weight:bold;fill:#111}"
    ".lg{font-size:10px;fill:#111}.lh{font-size:9px;fill:#555}.num{text-anchor:end}";

struct ctx {
	const struct map *m;
	const struct geometry *g;
	const struct render_input *in;
	const struct board *b;
	struct svg_node *root;
	struct svg_node *defs;	/* markers, added as the orders use them */
	struct svg_node *over;	/* marks drawn over the units: removals, failures */
	bool marked[3][MAP_MAX_POWERS + 1];	/* enum mark by power; the last: no power */
	signed char outlined[MAP_MAX_POWERS];	/* render_outlined by power; -1: not yet asked */
};

/* The ends of orders: arrowheads and dots (a failed order's too: it keeps
 * its power's colour, and a mark at its end says it failed), and the
 * retreat options' arrowhead. */
enum mark { MK_ARROW, MK_DOT, MK_OPTION };

__attribute__((format(printf, 3, 4))) static void
setf(struct svg_node *n, const char *name, const char *fmt, ...)
{
	char v[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	svg_set(n, name, v);
}

/* v as "%.1f" writes it, into out (at least 32 bytes); without printf for
 * the usual sizes, whose digits are exact. */
static const char *
fmt1(double v, char *out)
{
	double t = v * 10, r = nearbyint(t);
	long long k;
	char *p = out, rev[24];
	int n = 0;

	/* Within a hair of a tie, or large: printf rounds the exact binary value. */
	if (!(fabs(t) < 1e12) || fabs(t - r) > 0.5 - 1e-6) {
		snprintf(out, 32, "%.1f", v);
		return out;
	}
	k = (long long)r;
	if (k < 0 || (k == 0 && signbit(v)))
		*p++ = '-';
	if (k < 0)
		k = -k;
	rev[n++] = (char)('0' + k % 10);
	rev[n++] = '.';
	k /= 10;
	do {
		rev[n++] = (char)('0' + k % 10);
		k /= 10;
	} while (k > 0);
	while (n > 0)
		*p++ = rev[--n];
	*p = '\0';
	return out;
}

static void
setnum(struct svg_node *n, const char *name, double v)
{
	char s[32];

	svg_set(n, name, fmt1(v, s));
}

static struct svg_node *
text(struct svg_node *parent, const char *cls, double x, double y, const char *s)
{
	struct svg_node *t = svg_el_text(parent, "text", s);

	svg_set(t, "class", cls);
	setnum(t, "x", x);
	setnum(t, "y", y);
	return t;
}

/* "#rrggbb" to components; grey when the colour is missing or malformed. */
static void
parse_colour(const char *s, int rgb[3])
{
	int i;

	rgb[0] = rgb[1] = rgb[2] = 0x80;
	if (s == NULL || s[0] != '#' || strlen(s) != 7)
		return;
	for (i = 0; i < 3; i++) {
		int v = 0, k;
		for (k = 1; k <= 2; k++) {
			char c = s[1 + 2 * i + k - 1];
			int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			    c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
			if (d < 0)
				return;
			v = v * 16 + d;
		}
		rgb[i] = v;
	}
}

/* rgb as "#rrggbb" (as "%02x" writes each) into out (size >= 8). */
static void
format_colour(const int rgb[3], char *out)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	out[0] = '#';
	for (i = 0; i < 3; i++) {
		out[1 + 2 * i] = hex[(rgb[i] >> 4) & 15];
		out[2 + 2 * i] = hex[rgb[i] & 15];
	}
	out[7] = '\0';
}

void
render_power_colour(const struct map *m, power_id p, char *out)
{
	int rgb[3];

	parse_colour(p < m->npowers ? m->powers[p].colour : NULL, rgb);
	format_colour(rgb, out);
}

void
render_province_fill(const struct map *m, const struct board *b, prov_id p, char *out)
{
	const struct province *pv = &m->provs[p];
	int rgb[3], i;

	if (pv->terrain == TERRAIN_SEA) {
		memcpy(out, SEA_FILL, sizeof SEA_FILL);
		return;
	}
	if (!pv->supply || b->owner[p] == POWER_NONE || b->owner[p] >= m->npowers) {
		memcpy(out, LAND_FILL, sizeof LAND_FILL);
		return;
	}
	parse_colour(m->powers[b->owner[p]].colour, rgb);
	for (i = 0; i < 3; i++)
		rgb[i] = (int)lround(255.0 - (255.0 - rgb[i]) * TINT);
	format_colour(rgb, out);
}

/* render_outlined(c->m, p), worked out once a drawing. */
static bool
is_outlined(struct ctx *c, power_id p)
{
	if (p >= c->m->npowers)
		return false;
	if (c->outlined[p] < 0)
		c->outlined[p] = render_outlined(c->m, p);
	return c->outlined[p];
}

static struct geo_point
dislodged_at(const struct ctx *c, loc_id l)
{
	return layout_dislodged_at(c->m, c->g, l);
}

/* --- layers ------------------------------------------------------------------ */

static void
marker(struct svg_node *defs, const char *id, bool dot, const char *fill, const char *edge, double size)
{
	struct svg_node *mk = svg_el(defs, "marker"), *p;

	svg_set(mk, "id", id);
	/* Room around the shape for its edge, which would be clipped otherwise. */
	svg_set_kept(mk, "viewBox", "-2 -2 14 14");
	svg_set_kept(mk, "refX", dot ? "5" : "6");
	svg_set_kept(mk, "refY", "5");
	setnum(mk, "markerWidth", size);
	setnum(mk, "markerHeight", size);
	svg_set_kept(mk, "orient", "auto");
	if (dot) {
		p = svg_el(mk, "circle");
		svg_set_kept(p, "cx", "5");
		svg_set_kept(p, "cy", "5");
		svg_set_kept(p, "r", "3.6");
	} else {
		p = svg_el(mk, "path");
		svg_set_kept(p, "d", "M0,0L10,5L0,10z");
		svg_set_kept(p, "stroke-linejoin", "round");
	}
	svg_set(p, "fill", fill);
	if (edge) {
		svg_set(p, "stroke", edge);
		svg_set_kept(p, "stroke-width", "1.6");
	}
}

/* The id of a marker into id, the marker made the first time it is asked
 * for: power p's arrowhead or dot with a dark edge; for orders of no
 * power, "ah" and "dot" in the edge colour. */
static void
use_marker(struct ctx *c, enum mark k, power_id p, char id[16])
{
	static const char *const name[] = { "ah", "dot", "aho" };
	bool dot = k == MK_DOT;
	char fill[8];

	if (k == MK_OPTION || p >= c->m->npowers) {
		k = k == MK_OPTION ? k : dot ? MK_DOT : MK_ARROW;
		snprintf(id, 16, "%s", name[k]);
		if (!c->marked[k][MAP_MAX_POWERS])
			marker(c->defs, id, dot, k == MK_OPTION ? "#d96c00" : EDGE, NULL,
			    k == MK_OPTION ? 8.4 : 4.4);
		c->marked[k][MAP_MAX_POWERS] = true;
		return;
	}
	snprintf(id, 16, "%s%d", name[k], (int)p);
	if (c->marked[k][p])
		return;
	c->marked[k][p] = true;
	render_power_colour(c->m, p, fill);
	marker(c->defs, id, dot, fill, EDGE, 4.4);
}

static double
luminance(const int rgb[3])
{
	double l[3];
	int i;

	for (i = 0; i < 3; i++) {
		double v = rgb[i] / 255.0;
		l[i] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

double
render_contrast(const char *a, const char *b)
{
	int ca[3], cb[3];
	double la, lb;

	parse_colour(a, ca);
	parse_colour(b, cb);
	la = luminance(ca);
	lb = luminance(cb);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* Whether power p's tint lacks hue and is too close to the neutral land. */
static bool
pale_power(const struct map *m, power_id p)
{
	char fill[8];
	int rgb[3], lo, hi, i;

	parse_colour(m->powers[p].colour, rgb);
	lo = hi = rgb[0];
	for (i = 1; i < 3; i++) {
		lo = rgb[i] < lo ? rgb[i] : lo;
		hi = rgb[i] > hi ? rgb[i] : hi;
	}
	for (i = 0; i < 3; i++)
		rgb[i] = (int)lround(255.0 - (255.0 - rgb[i]) * TINT);
	format_colour(rgb, fill);
	return hi - lo < PALE_CHROMA && render_contrast(fill, LAND_FILL) < PALE_CONTRAST;
}

bool
render_outlined(const struct map *m, power_id p)
{
	char c[8];

	if (p >= m->npowers)
		return false;
	render_power_colour(m, p, c);
	return render_contrast(c, LAND_FILL) < OUTLINE_CONTRAST ||
	    render_contrast(c, NEUTRAL_CENTRE) < OUTLINE_CONTRAST;
}

const char *
render_outline_colour(void)
{
	return OUTLINE;
}

const char *
render_neutral_colour(bool centre)
{
	return centre ? NEUTRAL_CENTRE : LAND_FILL;
}

bool
render_pale(const struct map *m, const struct board *b, prov_id p)
{
	return m->provs[p].terrain != TERRAIN_SEA && m->provs[p].supply &&
	    b->owner[p] != POWER_NONE && b->owner[p] < m->npowers && pale_power(m, b->owner[p]);
}

static void
add_provinces(struct ctx *c)
{
	struct svg_node *layer = svg_el(c->root, "g"), *p;
	bool pale[MAP_MAX_POWERS];
	char fill[8];
	int pass, i, any = 0;

	svg_set_kept(layer, "id", "provinces");
	for (i = 0; i < c->m->npowers; i++)
		any += pale[i] = pale_power(c->m, (power_id)i);
	/* Pale provinces last, so that no neighbour covers half their border. */
	for (pass = 0; pass < 1 + (any > 0); pass++)
		for (i = 0; i < c->m->nprovs; i++) {
			const struct province *pv = &c->m->provs[i];
			power_id o = c->b->owner[i];
			bool pl = pv->terrain != TERRAIN_SEA && pv->supply && o < c->m->npowers &&
			    pale[o];
			if (pl != (pass == 1))
				continue;
			/* A sea is the water under it: only its borders with other
			 * seas are drawn, below. */
			if (pv->terrain == TERRAIN_SEA && c->g->sea_borders)
				continue;
			p = svg_el(layer, "path");
			svg_set_kept(p, "id", pv->abbr);
			svg_set_kept(p, "class",
			    pv->terrain == TERRAIN_SEA ? "sea" : pl ? "land pale" : "land");
			render_province_fill(c->m, c->b, (prov_id)i, fill);
			svg_set(p, "fill", fill);
			svg_set_kept(p, "d", c->g->drawn ? c->g->drawn[i] : c->g->shape[i]);
		}
	if (c->g->sea_borders) {
		p = svg_el(layer, "path");
		svg_set_kept(p, "id", "sea-borders");
		svg_set_kept(p, "class", "sb");
		svg_set_kept(p, "d", c->g->sea_borders);
	}
}

static void
add_names(struct ctx *c)
{
	struct svg_node *layer = svg_el(c->root, "g");
	int i;

	svg_set_kept(layer, "id", "names");
	for (i = 0; i < c->m->nprovs; i++) {
		const struct province *pv = &c->m->provs[i];
		char name[16];
		str_copy(name, pv->abbr, sizeof name);
		if (name[0] >= 'a' && name[0] <= 'z')
			name[0] = (char)(name[0] - 'a' + 'A');
		text(layer, pv->terrain == TERRAIN_SEA ? "ns" : "n", c->g->label[i].x,
		    c->g->label[i].y + 3.2, name);
	}
}

static void
add_centres(struct ctx *c)
{
	struct svg_node *layer = svg_el(c->root, "g"), *n;
	char fill[8];
	int i;

	svg_set_kept(layer, "id", "centres");
	for (i = 0; i < c->m->nprovs; i++) {
		power_id o = c->b->owner[i];
		if (!c->m->provs[i].supply)
			continue;
		/* A ring with a dot in the owner's colour: not to be taken for an
		 * army. A neutral centre's ring is empty; the dot of a power of
		 * light colour has a dark outline, so that it never passes for
		 * an empty ring. */
		n = svg_el(layer, "circle");
		svg_set_kept(n, "class", "c");
		setnum(n, "cx", c->g->centre[i].x);
		setnum(n, "cy", c->g->centre[i].y);
		svg_set_kept(n, "r", "4.2");
		svg_set_kept(n, "fill", NEUTRAL_CENTRE);
		if (o == POWER_NONE || o >= c->m->npowers)
			continue;
		n = svg_el(layer, "circle");
		if (is_outlined(c, o))
			svg_set_kept(n, "class", "cd");
		setnum(n, "cx", c->g->centre[i].x);
		setnum(n, "cy", c->g->centre[i].y);
		svg_set_kept(n, "r", "2.4");
		render_power_colour(c->m, o, fill);
		svg_set(n, "fill", fill);
	}
}

/* Realpolitik: a star (capital) or a diamond (naval base) centred on at,
 * in the colour of the power whose seat it is. */
static void
seat(struct svg_node *layer, const struct map *m, power_id p, struct geo_point at, bool star)
{
	struct svg_node *n = svg_el(layer, "path");
	char fill[8], d[320], pt[40];
	int k;

	d[0] = '\0';
	if (star) {
		for (k = 0; k < 10; k++) {
			double r = k % 2 ? 2.3 : 5.4, a = 3.14159265358979 * (k / 5.0 - 0.5);
			snprintf(pt, sizeof pt, "%c%.1f,%.1f", k ? 'L' : 'M', at.x + r * cos(a),
			    at.y + r * sin(a));
			strncat(d, pt, sizeof d - strlen(d) - 1);
		}
		strncat(d, "z", sizeof d - strlen(d) - 1);
	} else {
		snprintf(d, sizeof d, "M%.1f,%.1fl4.3,4.3 -4.3,4.3 -4.3,-4.3z", at.x, at.y - 4.3);
	}
	svg_set(n, "d", d);
	svg_set_kept(n, "class", "seat");
	render_power_colour(m, p, fill);
	svg_set(n, "fill", fill);
}

bool
render_has_seats(const struct map *m)
{
	int i;

	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].capital != POWER_NONE || m->provs[i].naval_base != POWER_NONE)
			return true;
	return false;
}

static void
add_seats(struct ctx *c)
{
	struct svg_node *layer = NULL;
	int i;

	for (i = 0; i < c->m->nprovs; i++) {
		const struct province *pv = &c->m->provs[i];
		power_id cap = c->in->capital ? c->in->capital[i] : pv->capital;
		bool both = cap != POWER_NONE && pv->naval_base != POWER_NONE;
		if (cap == POWER_NONE && pv->naval_base == POWER_NONE)
			continue;
		if (layer == NULL) {
			layer = svg_el(c->root, "g");
			svg_set_kept(layer, "id", "seats");
		}
		if (cap != POWER_NONE)
			seat(layer, c->m, cap, layout_seat_at(c->m, c->g, (prov_id)i,
			    both ? LAYOUT_SEAT_CAPITAL : LAYOUT_SEAT_ALONE), true);
		if (pv->naval_base != POWER_NONE)
			seat(layer, c->m, pv->naval_base, layout_seat_at(c->m, c->g, (prov_id)i,
			    both ? LAYOUT_SEAT_BASE : LAYOUT_SEAT_ALONE), false);
	}
}

static void unit_shape(struct svg_node *gr, int type, const char *fill);

static void
draw_unit(struct ctx *c, struct svg_node *layer, const struct unit *u, struct geo_point at,
    bool marked)
{
	struct svg_node *gr = svg_el(layer, "g");
	char fill[8], tx[32], ty[32];

	setf(gr, "transform", "translate(%s %s)", fmt1(at.x, tx), fmt1(at.y, ty));
	svg_set_kept(gr, "class", marked ? "u dl" : is_outlined(c, u->power) ? "u pl" : "u");
	render_power_colour(c->m, u->power, fill);
	if (marked)	/* on a white plate of its shape outlined in red, which shows
			   on every power's colour (red on a red unit would not) */
		unit_shape(gr, u->type, NULL);
	unit_shape(gr, u->type, fill);
}

/* A unit's own shape, around (0, 0) of gr: fleets ship-shaped, armies
 * blocks, filled with fill; fill NULL: the dislodged unit's plate, half as
 * large again (class dlp). */
static void
unit_shape(struct svg_node *gr, int type, const char *fill)
{
	double k = fill ? 1 : 1.5;
	struct svg_node *s;

	if (type == UNIT_FLEET) {
		s = svg_el(gr, "path");
		svg_set_kept(s, "d", fill ? "M-11,0h22l-4.5,6.5h-13zM-2,-1.5v-11l9,11z" :
		    "M-16.5,0h33l-6.8,9.8h-19.5zM-3,-2.3v-16.5l13.5,16.5z");
	} else {
		/* A rounded block, unlike the round centre markers. */
		s = svg_el(gr, "rect");
		setnum(s, "x", -ARMY_W / 2 * k);
		setnum(s, "y", -ARMY_H / 2 * k);
		setnum(s, "width", ARMY_W * k);
		setnum(s, "height", ARMY_H * k);
		svg_set_kept(s, "rx", fill ? "3" : "4.5");
	}
	svg_set(s, fill ? "fill" : "class", fill ? fill : "dlp");
}

/* Realpolitik: an army on board, drawn small on its fleet's stern. */
static void
draw_aboard(struct ctx *c, struct svg_node *layer, const struct unit *u, struct geo_point at)
{
	struct svg_node *s = svg_el(layer, "rect");
	char fill[8];

	svg_set_kept(s, "class", "u ab");
	setnum(s, "x", at.x + 4);
	setnum(s, "y", at.y - 13);
	svg_set_kept(s, "width", "9");
	svg_set_kept(s, "height", "6.5");
	svg_set_kept(s, "rx", "2");
	render_power_colour(c->m, u->power, fill);
	svg_set(s, "fill", fill);
}

/* How many units of unit i's kind stand where it does (a Realpolitik
 * stack), and whether i is the first of them (the one drawn). */
static int
stack_of(const struct board *b, int i, bool *first)
{
	const struct unit *u = &b->units[i];
	int k, n = 0;

	*first = true;
	for (k = 0; k < b->nunits; k++) {
		const struct unit *v = &b->units[k];
		if (v->loc != u->loc || v->type != u->type || v->power != u->power)
			continue;
		n++;
		if (k < i)
			*first = false;
	}
	return n;
}

/* "×3" beside a stack of three. */
static void
stack_count(struct svg_node *layer, struct geo_point at, int n)
{
	char s[16];

	snprintf(s, sizeof s, "\u00d7%d", n);
	text(layer, "sk", at.x + 10, at.y - 7, s);
}

static void
add_units(struct ctx *c)
{
	struct svg_node *layer = svg_el(c->root, "g");
	const struct phase_result *res = c->in->res;
	int i, n;
	bool first;

	svg_set_kept(layer, "id", "units");
	for (i = 0; i < c->b->nunits; i++) {
		const struct unit *u = &c->b->units[i];
		bool hit = res && c->b->phase == PHASE_MOVEMENT && i < res->nunits &&
		    res->unit_dislodged[i];
		if (u->type & UNIT_ABOARD)
			continue;	/* drawn on its fleet, below */
		n = stack_of(c->b, i, &first);
		if (!first)
			continue;
		draw_unit(c, layer, u, c->g->unit[u->loc], hit);
		if (n > 1)
			stack_count(layer, c->g->unit[u->loc], n);
	}
	for (i = 0; i < c->b->nunits; i++)
		if (c->b->units[i].type & UNIT_ABOARD)
			draw_aboard(c, layer, &c->b->units[i], c->g->unit[c->b->units[i].loc]);
	for (i = 0; i < c->b->ndislodged; i++)
		draw_unit(c, layer, &c->b->dislodged[i].unit,
		    dislodged_at(c, c->b->dislodged[i].unit.loc), true);
}

/* How an order is drawn: its power's colour over a wider edge; a NULL pen
 * leaves the colour to the class. */
struct pen {
	char colour[8];
	const char *edge;
};

/* An order's shape: with a pen, first its edge (class "oo" and the same
 * dashes), then the coloured stroke over it; both get the same geometry. */
struct shape {
	struct svg_node *n[2];
	int count;
};

static struct shape
stroke(struct svg_node *layer, const char *name, const char *cls, const struct pen *pen)
{
	struct shape sh;
	char oo[48];

	sh.count = 0;
	if (pen) {
		sh.n[sh.count] = svg_el(layer, name);
		oo[0] = oo[1] = 'o';
		str_copy(oo + 2, strchr(cls, ' ') ? strchr(cls, ' ') : "", sizeof oo - 2);
		svg_set(sh.n[sh.count], "class", oo);
		svg_set(sh.n[sh.count++], "stroke", pen->edge);
	}
	sh.n[sh.count] = svg_el(layer, name);
	svg_set(sh.n[sh.count], "class", cls);
	if (pen)
		svg_set(sh.n[sh.count], "stroke", pen->colour);
	sh.count++;
	return sh;
}

static void
shape_num(const struct shape *sh, const char *name, double v)
{
	char s[32];
	int i;

	fmt1(v, s);
	for (i = 0; i < sh->count; i++)
		svg_set(sh->n[i], name, s);
}

static void
shape_set(const struct shape *sh, const char *name, const char *v)
{
	int i;

	for (i = 0; i < sh->count; i++)
		svg_set(sh->n[i], name, v);
}

/* How far before its end a failed order's mark sits on it: behind its
 * arrowhead or dot, which stay in sight. */
#define MARK_BACK 7.0

/* A line from a to b with cut_a and cut_b left off its ends (where a mark
 * at its end goes into *end, when not NULL); false when nothing is left. */
static bool
line(struct svg_node *layer, struct geo_point a, struct geo_point b, double cut_a, double cut_b,
    const char *cls, const char *marker, const struct pen *pen, struct geo_point *end)
{
	double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
	struct shape sh;

	if (end)
		*end = b;
	if (len <= cut_a + cut_b + 1.0)
		return false;
	dx /= len;
	dy /= len;
	if (end) {
		double back = len - cut_a - cut_b > 2 * MARK_BACK ? MARK_BACK : 0;
		end->x = b.x - dx * (cut_b + back);
		end->y = b.y - dy * (cut_b + back);
	}
	sh = stroke(layer, "line", cls, pen);
	shape_num(&sh, "x1", a.x + dx * cut_a);
	shape_num(&sh, "y1", a.y + dy * cut_a);
	shape_num(&sh, "x2", b.x - dx * cut_b);
	shape_num(&sh, "y2", b.y - dy * cut_b);
	if (marker)
		setf(sh.n[sh.count - 1], "marker-end", "url(#%s)", marker);
	return true;
}

static struct geo_point
midpoint(struct geo_point a, struct geo_point b)
{
	struct geo_point p = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
	return p;
}

/* The parameter of the curve a, c, b where it is cut away from its end
 * (at t = 0, or at t = 1 when from_b) from that end. */
static double
curve_cut(struct geo_point a, struct geo_point c, struct geo_point b, double cut, bool from_b)
{
	struct geo_point end = from_b ? b : a;
	double lo = 0, hi = 0.5;
	int i;

	/* Gentle curves go away from either end steadily: halve the interval. */
	for (i = 0; i < 30; i++) {
		double t = (lo + hi) / 2;
		struct geo_point q = layout_bezier(a, c, b, from_b ? 1 - t : t);
		if (hypot(q.x - end.x, q.y - end.y) < cut)
			lo = t;
		else
			hi = t;
	}
	return from_b ? 1 - (lo + hi) / 2 : (lo + hi) / 2;
}

/* An arrow from a to b with cut_a and cut_b left off its ends, bent
 * round the names in its way (layout_arrow_bend): a line when it needs
 * no bend, else a quadratic Bézier path (where a mark at its end goes into
 * *end, when not NULL); false when nothing is left. */
static bool
arrow(struct ctx *c, struct svg_node *layer, struct geo_point a, struct geo_point b, double cut_a,
    double cut_b, const char *cls, const char *marker, const struct pen *pen,
    struct geo_point *end)
{
	struct geo_point k, p, q;
	double t0, t1, len = hypot(b.x - a.x, b.y - a.y);
	char d[200], s[6][32];
	struct shape sh;

	if (!layout_arrow_bend(c->m, c->g, a, b, &k) || len <= cut_a + cut_b + 1.0)
		return line(layer, a, b, cut_a, cut_b, cls, marker, pen, end);
	t0 = curve_cut(a, k, b, cut_a, false);
	t1 = curve_cut(a, k, b, cut_b, true);
	p = layout_bezier(a, k, b, t0);
	q = layout_bezier(a, k, b, t1);
	if (end)
		*end = layout_bezier(a, k, b, curve_cut(a, k, b, cut_b + MARK_BACK, true));
	/* The control point of the part of the curve from t0 to t1. */
	k.x = a.x * (1 - t0) * (1 - t1) + k.x * ((1 - t0) * t1 + t0 * (1 - t1)) + b.x * t0 * t1;
	k.y = a.y * (1 - t0) * (1 - t1) + k.y * ((1 - t0) * t1 + t0 * (1 - t1)) + b.y * t0 * t1;
	snprintf(d, sizeof d, "M%s,%sQ%s,%s %s,%s", fmt1(p.x, s[0]), fmt1(p.y, s[1]),
	    fmt1(k.x, s[2]), fmt1(k.y, s[3]), fmt1(q.x, s[4]), fmt1(q.y, s[5]));
	sh = stroke(layer, "path", cls, pen);
	shape_set(&sh, "d", d);
	if (marker)
		setf(sh.n[sh.count - 1], "marker-end", "url(#%s)", marker);
	return true;
}

/* The middle of the arrow from a to b as arrow() draws it. */
static struct geo_point
arrow_middle(const struct ctx *c, struct geo_point a, struct geo_point b)
{
	struct geo_point k;

	if (!layout_arrow_bend(c->m, c->g, a, b, &k))
		return midpoint(a, b);
	return layout_bezier(a, k, b, 0.5);
}

static void
ring(struct svg_node *layer, struct geo_point at, double r, const char *cls, const struct pen *pen)
{
	struct shape sh = stroke(layer, "circle", cls, pen);

	shape_num(&sh, "cx", at.x);
	shape_num(&sh, "cy", at.y);
	shape_num(&sh, "r", r);
}

static void
cross_path(struct svg_node *layer, const char *d, const char *cls, const struct pen *pen)
{
	struct shape sh = stroke(layer, "path", cls, pen);

	shape_set(&sh, "d", d);
}

static void
cross(struct svg_node *layer, struct geo_point at, const char *cls, const struct pen *pen)
{
	char d[64];

	snprintf(d, sizeof d, "M%.1f,%.1fl14,14m0,-14l-14,14", at.x - 7, at.y - 7);
	cross_path(layer, d, cls, pen);
}

/* Reasons that mean there was no unit to draw the order from. */
static bool
not_drawn(enum reason r)
{
	return r == R_NO_UNIT || r == R_FOREIGN_UNIT || r == R_REPLACED || r == R_WRONG_PHASE;
}

/* The power whose order o is: as written, else the owner of the unit it
 * orders (the dislodged one in a retreat); POWER_NONE when there is none. */
static power_id
order_power(const struct ctx *c, const struct order *o)
{
	prov_id pv = map_loc_prov(c->m, o->loc);
	int i;

	if (o->power != POWER_NONE && o->power < c->m->npowers)
		return o->power;
	if (c->b->phase == PHASE_RETREAT) {
		for (i = 0; i < c->b->ndislodged; i++)
			if (map_loc_prov(c->m, c->b->dislodged[i].unit.loc) == pv)
				return c->b->dislodged[i].unit.power;
		return POWER_NONE;
	}
	i = board_unit_in(c->b, c->m, pv);
	return i >= 0 ? c->b->units[i].power : POWER_NONE;
}

/* The pen of power p's orders: its colour over a dark edge (a failed
 * order's too: its dashes and the mark at its end say that it failed). */
static void
order_pen(power_id p, const struct map *m, struct pen *pen)
{
	pen->edge = EDGE;
	if (p == POWER_NONE || p >= m->npowers)
		snprintf(pen->colour, sizeof pen->colour, "%s", "#ffffff");
	else
		render_power_colour(m, p, pen->colour);
}

/* The mark of a failed order at the point where it ends: a dark bar
 * across a light one, read without its colour. */
static void
fail_mark(struct svg_node *layer, struct geo_point at)
{
	char d[64], x[32], y[32];
	struct svg_node *n;

	snprintf(d, sizeof d, "M%s,%sm-4.5,-4.5l9,9m0,-9l-9,9", fmt1(at.x, x), fmt1(at.y, y));
	n = svg_el(layer, "path");
	svg_set_kept(n, "class", "fxh");
	svg_set(n, "d", d);
	n = svg_el(layer, "path");
	svg_set_kept(n, "class", "fx");
	svg_set(n, "d", d);
}

/* A unit removed or disbanded: crossed out over it, dark on a light edge,
 * whatever its power's colour. */
static void
removal(struct ctx *c, struct geo_point at, bool failed)
{
	static const struct pen pen = { "#111111", "#ffffff" };

	cross(c->over, at, failed ? "x f" : "x", &pen);
	if (failed)
		fail_mark(c->over, at);
}

/* Where the army on board a fleet at l is drawn (draw_aboard). */
static struct geo_point
aboard_at(const struct geometry *g, loc_id l)
{
	struct geo_point p = { g->unit[l].x + 8.5, g->unit[l].y - 9.75 };
	return p;
}

/* Where the mark of a failed hold at unit place at goes, on its ring: on
 * the side away from a move into province pv that worked (the one that
 * dislodged it), so the mark is not read as that move's; else up right. */
static struct geo_point
hold_mark_at(const struct ctx *c, struct geo_point at, prov_id pv)
{
	const struct render_input *in = c->in;
	struct geo_point p = { at.x + RING_R * 0.7, at.y - RING_R * 0.7 };
	int i;

	for (i = 0; in->orders && in->res && i < in->norders && i < in->res->norders; i++) {
		const struct order *o = &in->orders[i];
		struct geo_point from;
		double dx, dy, len;
		if (o->kind != ORDER_MOVE || in->res->reason[i] != R_OK || o->dest == LOC_NONE ||
		    o->loc >= c->g->nlocs || map_loc_prov(c->m, o->dest) != pv)
			continue;
		from = c->g->unit[o->loc];
		dx = at.x - from.x;
		dy = at.y - from.y;
		len = hypot(dx, dy);
		if (len < 1)
			break;
		p.x = at.x + dx / len * RING_R;
		p.y = at.y + dy / len * RING_R;
		break;
	}
	return p;
}

/* The type of unit build order o makes: as written, else the unit the
 * results put there; UNIT_NONE when neither says. */
static int
built_type(const struct ctx *c, const struct order *o)
{
	const struct board *a;
	int i;

	if (o->type == UNIT_ARMY || o->type == UNIT_FLEET)
		return o->type;
	if (c->in->res == NULL)
		return UNIT_NONE;
	a = &c->in->res->after;
	i = board_unit_in(a, c->m, map_loc_prov(c->m, o->loc));
	return i >= 0 ? a->units[i].type : UNIT_NONE;
}

/* A build: the unit's own shape in its power's colour inside a dashed
 * ring, with a plus on the ring (up left). */
static void
built_mark(struct ctx *c, struct svg_node *layer, const struct order *o, power_id pw, bool failed,
    const struct pen *pen)
{
	struct geo_point at = c->g->unit[o->loc];
	int type = built_type(c, o);
	char d[64], tx[32], ty[32];
	struct svg_node *gr;

	ring(layer, at, RING_R, failed ? "o bd f" : "o bd", pen);
	if (type == UNIT_ARMY || type == UNIT_FLEET) {
		gr = svg_el(layer, "g");
		setf(gr, "transform", "translate(%s %s) scale(.8)", fmt1(at.x, tx), fmt1(at.y, ty));
		svg_set_kept(gr, "class", is_outlined(c, pw) ? "u bu pl" : "u bu");
		unit_shape(gr, type, pen->colour);
		at.x -= RING_R * 0.75;
		at.y -= RING_R * 0.75;
	}
	snprintf(d, sizeof d, "M%.1f,%.1fh8m-4,-4v8", at.x - 4, at.y);
	cross_path(layer, d, failed ? "o f" : "o", pen);
}

static void
draw_order(struct ctx *c, struct svg_node *layer, const struct order *o, bool failed)
{
	const struct geometry *g = c->g;
	bool retreat = c->b->phase == PHASE_RETREAT, drawn = true;
	struct geo_point from, end;
	struct pen pen;
	power_id pw;
	loc_id to;
	char cls[48], id[16];

	if (o->loc == LOC_NONE || o->loc >= g->nlocs)
		return;
	pw = order_power(c, o);
	order_pen(pw, c->m, &pen);
	from = retreat ? dislodged_at(c, o->loc) : g->unit[o->loc];
	end = from;
	switch (o->kind) {
	case ORDER_HOLD:
		ring(layer, from, RING_R, failed ? "o f" : "o", &pen);
		end = hold_mark_at(c, from, map_loc_prov(c->m, o->loc));
		break;
	case ORDER_MOVE:
	case ORDER_RETREAT:
		if (o->dest == LOC_NONE || o->dest >= g->nlocs)
			return;
		snprintf(cls, sizeof cls, "o%s%s", retreat ? " rt" : "", failed ? " f" : "");
		use_marker(c, MK_ARROW, pw, id);
		drawn = arrow(c, layer, from, g->unit[o->dest], UNIT_R + 1, UNIT_R + 2.5, cls, id,
		    &pen, &end);
		break;
	case ORDER_EMBARK:
	case ORDER_LAND:
		/* Onto the fleet (from where the army stands, or from the province
		 * it moves from), or ashore from the fleet's stern. */
		to = o->kind == ORDER_EMBARK ? (o->target != LOC_NONE ? o->target : o->dest) :
		    o->dest != LOC_NONE ? o->dest : o->loc;
		if (to == LOC_NONE || to >= g->nlocs)
			to = o->loc;
		snprintf(cls, sizeof cls, "o%s", failed ? " f" : "");
		use_marker(c, MK_ARROW, pw, id);
		if (o->kind == ORDER_LAND)
			from = aboard_at(g, o->loc);
		drawn = arrow(c, layer, from, o->kind == ORDER_EMBARK ? aboard_at(g, to) : g->unit[to],
		    o->kind == ORDER_LAND ? 4 : UNIT_R + 1, o->kind == ORDER_EMBARK ? 5 : UNIT_R,
		    cls, id, &pen, &end);
		break;
	case ORDER_SUPPORT:
		if (o->target == LOC_NONE || o->target >= g->nlocs)
			return;
		snprintf(cls, sizeof cls, "o sp%s", failed ? " f" : "");
		if (o->dest == LOC_NONE || o->dest >= g->nlocs) {
			line(layer, from, g->unit[o->target], UNIT_R + 1, RING_R, cls, NULL, &pen, &end);
			ring(layer, g->unit[o->target], RING_R, cls, &pen);
		} else {
			use_marker(c, MK_DOT, pw, id);
			line(layer, from, arrow_middle(c, g->unit[o->target], g->unit[o->dest]),
			    UNIT_R + 1, 2, cls, id, &pen, &end);
		}
		break;
	case ORDER_CONVOY:
		if (o->target == LOC_NONE || o->dest == LOC_NONE || o->target >= g->nlocs ||
		    o->dest >= g->nlocs)
			return;
		snprintf(cls, sizeof cls, "o cv%s", failed ? " f" : "");
		use_marker(c, MK_DOT, pw, id);
		line(layer, from, arrow_middle(c, g->unit[o->target], g->unit[o->dest]), UNIT_R + 1,
		    2, cls, id, &pen, &end);
		break;
	case ORDER_DISBAND:
	case ORDER_REMOVE:
		removal(c, from, failed);
		return;
	case ORDER_BUILD:
		built_mark(c, layer, o, pw, failed, &pen);
		end.x += RING_R * 0.7;
		end.y -= RING_R * 0.7;
		break;
	default:
		return;
	}
	if ((o->kind == ORDER_SUPPORT || o->kind == ORDER_CONVOY) && drawn) {
		/* Halfway along its own line: its end touches the order it
		 * supports or carries, which may have worked. */
		end.x = (from.x + end.x) / 2;
		end.y = (from.y + end.y) / 2;
	}
	if (failed && drawn)
		fail_mark(c->over, end);
}

static void
add_orders(struct ctx *c)
{
	const struct render_input *in = c->in;
	struct svg_node *layer = svg_el(c->root, "g");
	struct pen pen;
	char id[16];
	int i;

	svg_set_kept(layer, "id", "orders");
	for (i = 0; in->orders && i < in->norders; i++) {
		bool failed = false;
		if (in->res && i < in->res->norders) {
			enum reason r = (enum reason)in->res->reason[i];
			if (r == R_NONE || not_drawn(r))
				continue;
			failed = r != R_OK;
		}
		draw_order(c, layer, &in->orders[i], failed);
	}
	/* Civil-disorder removals are decided by the judge, not ordered. */
	for (i = 0; in->res && c->b->phase == PHASE_ADJUSTMENT && i < in->res->nremoved; i++)
		removal(c, c->g->unit[in->res->removed[i].loc], false);
	/* A dislodged unit that did not retreat is destroyed (one disbanded
	 * by its order is crossed out with that order). */
	for (i = 0; in->res && c->b->phase == PHASE_RETREAT && i < in->res->nunits &&
	    i < c->b->ndislodged; i++) {
		int k = in->res->unit_order[i];
		if (in->res->unit_reason[i] == R_OK || (in->orders && k >= 0 && k < in->norders &&
		    in->orders[k].kind == ORDER_DISBAND))
			continue;
		removal(c, dislodged_at(c, c->b->dislodged[i].unit.loc), false);
	}
	if (!in->retreat_options)
		return;
	for (i = 0; i < c->b->ndislodged; i++) {
		const struct dislodged *d = &c->b->dislodged[i];
		struct geo_point from = dislodged_at(c, d->unit.loc);
		loc_id opt[16];
		int k, n = adj_retreat_options(c->m, c->b, d, opt);

		if (n == 0) {
			order_pen(d->unit.power, c->m, &pen);
			cross(layer, from, "o f", &pen);
		}
		/* A ring where it may go, and an arrow when there is room for one. */
		for (k = 0; k < n; k++) {
			use_marker(c, MK_OPTION, POWER_NONE, id);
			arrow(c, layer, from, c->g->unit[opt[k]], UNIT_R + 1, RING_R - 3, "o op", id,
			    NULL, NULL);
			ring(layer, c->g->unit[opt[k]], RING_R - 3, "o op", NULL);
		}
	}
}

static void
add_title(struct ctx *c, const char *title)
{
	struct svg_node *layer = svg_el(c->root, "g"), *r;
	struct geo_point at = c->g->title_at;

	svg_set_kept(layer, "id", "title");
	r = svg_el(layer, "rect");
	svg_set_kept(r, "class", "box");
	setnum(r, "x", at.x);
	setnum(r, "y", at.y);
	setnum(r, "width", 16 + 9.0 * (double)strlen(title));
	svg_set_kept(r, "height", "28");
	svg_set_kept(r, "rx", "4");
	text(layer, "t", at.x + 8, at.y + 19, title);
}

/* The key's entries, two to a row under the powers, in this order. A
 * board whose armies go on board fleets has no convoys: its third entry is
 * an army boarding (KEY_CONVOY's place, key_word_boarding). */
enum key { KEY_MOVE, KEY_SUPPORT, KEY_CONVOY, KEY_HOLD, KEY_FAILED, KEY_DISLODGED, KEY_BUILT,
	KEY_REMOVED, KEY_RETREAT, KEY_COUNT };

static const char *const key_word[KEY_COUNT] = { "move", "support", "convoy", "hold", "failed",
	"dislodged", "built", "removed", "may retreat" };
static const char key_word_boarding[] = "on board";

/* A block of the key round at, half w wide and half h high, its corners
 * rounded by rx (0: square); filled with fill unless NULL. */
static void
key_block(struct svg_node *layer, const char *cls, struct geo_point at, double w, double h,
    double rx, const char *fill)
{
	struct svg_node *n = svg_el(layer, "rect");

	svg_set(n, "class", cls);
	setnum(n, "x", at.x - w);
	setnum(n, "y", at.y - h);
	setnum(n, "width", 2 * w);
	setnum(n, "height", 2 * h);
	if (rx > 0)
		setnum(n, "rx", rx);
	if (fill)
		svg_set(n, "fill", fill);
}

/* Entry k of the key: its sample drawn in grey at (x, y), the middle of
 * its row's left part, and its word; KEY_CONVOY an army going on board a
 * fleet when boarding. */
static void
key_entry(struct ctx *c, struct svg_node *layer, enum key k, double x, double y, bool boarding)
{
	static const struct pen grey = { "#8a8a8a", EDGE };
	struct geo_point a = { x - 12, y }, b = { x + 10, y }, at = { x, y };
	char id[16], d[64];

	switch (k) {
	case KEY_MOVE:
	case KEY_FAILED:
		use_marker(c, MK_ARROW, POWER_NONE, id);
		line(layer, a, b, 0, 3, k == KEY_FAILED ? "o f" : "o", id, &grey, NULL);
		if (k == KEY_FAILED)
			fail_mark(layer, (struct geo_point){ x, y });
		break;
	case KEY_CONVOY:
		if (boarding) {
			/* An arrow onto the small army on a fleet's stern, as an
			 * order to embark is drawn (draw_aboard). */
			use_marker(c, MK_ARROW, POWER_NONE, id);
			line(layer, a, (struct geo_point){ x + 1, y }, 0, 1, "o", id, &grey, NULL);
			key_block(layer, "u ab", (struct geo_point){ x + 6, y }, 4.5, 3.25, 2,
			    grey.colour);
			break;
		}
		/* FALLTHROUGH */
	case KEY_SUPPORT:
		use_marker(c, MK_DOT, POWER_NONE, id);
		line(layer, a, b, 0, 2, k == KEY_SUPPORT ? "o sp" : "o cv", id, &grey, NULL);
		break;
	case KEY_HOLD:
		ring(layer, at, 5.5, "o", &grey);
		break;
	case KEY_BUILT:
		ring(layer, at, 7, "o bd", &grey);
		key_block(layer, "u", at, 4, 3, 0, grey.colour);
		snprintf(d, sizeof d, "M%.1f,%.1fh5m-2.5,-2.5v5", at.x - 8.5, at.y - 5);
		cross_path(layer, d, "o", &grey);
		break;
	case KEY_DISLODGED:
	case KEY_REMOVED:
		if (k == KEY_DISLODGED)
			key_block(layer, "dlp", at, 10, 7.5, 3.5, NULL);
		key_block(layer, k == KEY_DISLODGED ? "u dl" : "u", at, 7, 5, 2.5, grey.colour);
		if (k == KEY_REMOVED) {
			snprintf(d, sizeof d, "M%.1f,%.1fl10,10m0,-10l-10,10", at.x - 5, at.y - 5);
			cross_path(layer, d, "x", &(const struct pen){ "#111111", "#ffffff" });
		}
		break;
	case KEY_RETREAT:
		use_marker(c, MK_OPTION, POWER_NONE, id);
		line(layer, a, b, 0, 4, "o op", id, NULL, NULL);
		ring(layer, b, 3.5, "o op", NULL);
		break;
	default:
		break;
	}
	text(layer, "lg", x + 20, y + 3.5, k == KEY_CONVOY && boarding ? key_word_boarding :
	    key_word[k]);
}

static void
add_legend(struct ctx *c)
{
	const struct map *m = c->m;
	int seats = render_has_seats(m) ? 2 : 0, keys = (KEY_COUNT + 1) / 2;
	bool boarding = (map_caps(m) & RULES_BOARDING) != 0;
	struct svg_node *layer = svg_el(c->root, "g"), *r;
	double row = 14, w = 182, h = row * (m->npowers + 2 + seats + keys) + 16;
	struct geo_point at = layout_legend_at(c->g, w, h);
	double x = at.x, y = at.y - h;
	int p, i, neutral = 0;
	char fill[8], n[16];

	svg_set_kept(layer, "id", "legend");
	r = svg_el(layer, "rect");
	svg_set_kept(r, "class", "box");
	setnum(r, "x", x);
	setnum(r, "y", y);
	setnum(r, "width", w);
	setnum(r, "height", h);
	svg_set_kept(r, "rx", "4");
	text(layer, "lh", x + 8, y + 14, "Power");
	text(layer, "lh num", x + w - 52, y + 14, "Centres");
	text(layer, "lh num", x + w - 8, y + 14, "Units");
	for (p = 0; p < m->npowers; p++) {
		double ry = y + 14 + row * (p + 1);
		r = svg_el(layer, "rect");
		setnum(r, "x", x + 8);
		setnum(r, "y", ry - 9);
		svg_set_kept(r, "width", "10");
		svg_set_kept(r, "height", "10");
		render_power_colour(m, (power_id)p, fill);
		svg_set(r, "fill", fill);
		svg_set_kept(r, "stroke", "#111");
		svg_set_kept(r, "stroke-width", ".6");
		text(layer, "lg", x + 24, ry, m->powers[p].name);
		snprintf(n, sizeof n, "%d", board_count_centres(c->b, m, (power_id)p));
		text(layer, "lg num", x + w - 52, ry, n);
		snprintf(n, sizeof n, "%d", board_count_units(c->b, (power_id)p));
		text(layer, "lg num", x + w - 8, ry, n);
	}
	for (i = 0; i < m->nprovs; i++)
		neutral += m->provs[i].supply &&
		    (c->b->owner[i] == POWER_NONE || c->b->owner[i] >= m->npowers);
	snprintf(n, sizeof n, "%d", neutral);
	text(layer, "lg", x + 24, y + 14 + row * (m->npowers + 1), "Neutral");
	text(layer, "lg num", x + w - 52, y + 14 + row * (m->npowers + 1), n);
	if (seats) {
		double ry = y + 14 + row * (m->npowers + 2);
		seat(layer, m, POWER_NONE, (struct geo_point){ x + 13, ry - 4 }, true);
		text(layer, "lg", x + 24, ry, "capital (armies)");
		seat(layer, m, POWER_NONE, (struct geo_point){ x + 13, ry - 4 + row }, false);
		text(layer, "lg", x + 24, ry + row, "naval base (fleets)");
	}
	/* The key: what each mark of the orders means. */
	for (i = 0; i < KEY_COUNT; i++)
		key_entry(c, layer, (enum key)i, x + 20 + (i % 2) * (w / 2),
		    y + 20 + row * (m->npowers + 2 + seats + i / 2) - 4, boarding);
}

void
render_summary(const struct map *m, const struct board *b, struct buf *out)
{
	int p, first = 1;

	for (p = 0; p < m->npowers; p++) {
		int cn = board_count_centres(b, m, (power_id)p), un = board_count_units(b, (power_id)p);
		if (cn == 0 && un == 0)
			continue;
		buf_printf(out, "%s%s %d centre%s, %d unit%s", first ? "" : "; ", m->powers[p].name,
		    cn, cn == 1 ? "" : "s", un, un == 1 ? "" : "s");
		first = 0;
	}
	if (first)
		buf_puts(out, "no units");
	buf_putc(out, '.');
}

/* --- output ------------------------------------------------------------------ */

/* The background is the geometry's own <g id="background">, as libxml2
 * copies it into the map's document (with the SVG namespace declared on
 * it, its id last). Its markup is the same in every map: it is made once
 * per geometry and put in place as it is. */

static void
put_name(struct buf *out, const xmlNs *ns, const xmlChar *name)
{
	if (ns && ns->prefix)
		buf_printf(out, "%s:", (const char *)ns->prefix);
	buf_puts(out, (const char *)name);
}

static void
put_node(struct buf *out, xmlNodePtr n)
{
	const xmlNs *ns;
	const xmlAttr *a;
	const xmlNode *t;
	xmlNodePtr k;

	switch (n->type) {
	case XML_TEXT_NODE:
		if (n->content)
			svg_escape((const char *)n->content, false, out);
		return;
	case XML_COMMENT_NODE:
		buf_printf(out, "<!--%s-->", n->content ? (const char *)n->content : "");
		return;
	case XML_CDATA_SECTION_NODE:
		buf_printf(out, "<![CDATA[%s]]>", n->content ? (const char *)n->content : "");
		return;
	case XML_ENTITY_REF_NODE:
		buf_printf(out, "&%s;", (const char *)n->name);
		return;
	case XML_ELEMENT_NODE:
		break;
	default:	/* nothing else is drawn */
		return;
	}
	buf_putc(out, '<');
	put_name(out, n->ns, n->name);
	for (ns = n->nsDef; ns; ns = ns->next) {
		buf_puts(out, ns->prefix ? " xmlns:" : " xmlns");
		if (ns->prefix)
			buf_puts(out, (const char *)ns->prefix);
		buf_puts(out, "=\"");
		if (ns->href)
			svg_escape((const char *)ns->href, true, out);
		buf_putc(out, '"');
	}
	for (a = n->properties; a; a = a->next) {
		buf_putc(out, ' ');
		put_name(out, a->ns, a->name);
		buf_puts(out, "=\"");
		for (t = a->children; t; t = t->next)
			if (t->type == XML_TEXT_NODE && t->content)
				svg_escape((const char *)t->content, true, out);
		buf_putc(out, '"');
	}
	if (n->children == NULL) {
		buf_puts(out, "/>");
		return;
	}
	buf_putc(out, '>');
	for (k = n->children; k; k = k->next)
		put_node(out, k);
	buf_puts(out, "</");
	put_name(out, n->ns, n->name);
	buf_putc(out, '>');
}

/* The markup of g's background, made the first time it is asked for;
 * NULL when g has none. */
static const struct geo_markup *
background(const struct geometry *g)
{
	struct geo_markup *bg = g->background_markup;
	xmlDocPtr doc;
	xmlNodePtr root, n;
	struct buf out;

	if (g->background == NULL)
		return NULL;
	if (bg->text)
		return bg;
	doc = xmlNewDoc((const xmlChar *)"1.0");
	root = xmlNewNode(NULL, (const xmlChar *)"svg");
	xmlDocSetRootElement(doc, root);
	xmlSetNs(root, xmlNewNs(root, (const xmlChar *)SVG_NS, NULL));
	buf_init(&out, SIZE_MAX / 2);
	n = xmlDocCopyNode(g->background, doc, 1);
	if (n) {
		xmlUnsetProp(n, (const xmlChar *)"id");
		xmlNewProp(n, (const xmlChar *)"id", (const xmlChar *)"background");
		xmlAddChild(root, n);
		xmlReconciliateNs(doc, n);
		put_node(&out, n);
	}
	xmlFreeDoc(doc);
	bg->len = out.len;
	bg->text = buf_take(&out);
	return bg;
}

int
render_svg(const struct map *m, const struct geometry *g, const struct render_input *in,
    struct buf *out)
{
	const struct geo_markup *bg = background(g);
	struct svg_doc *doc;
	struct ctx c;
	char title[160], ph[48];
	struct buf desc;
	int rc;

	memset(&c, 0, sizeof c);
	memset(c.outlined, -1, sizeof c.outlined);
	c.m = m;
	c.g = g;
	c.in = in;
	c.b = in->board;
	if (in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else
		snprintf(title, sizeof title, "%s", phase_format(in->board, ph, sizeof ph));

	doc = svg_doc_new("svg");
	c.root = svg_doc_root(doc);
	svg_set_kept(c.root, "xmlns", SVG_NS);
	svg_set_kept(c.root, "version", "1.1");
	setf(c.root, "width", "%g", g->width);
	setf(c.root, "height", "%g", g->height);
	setf(c.root, "viewBox", "%g %g %g %g", g->min_x, g->min_y, g->width, g->height);
	svg_el_text(c.root, "title", title);
	buf_init(&desc, 4096);
	render_summary(m, in->board, &desc);
	svg_el_text(c.root, "desc", buf_str(&desc));
	buf_free(&desc);
	svg_el_text(c.root, "style", STYLE);
	c.defs = svg_el(c.root, "defs");
	if (bg)
		svg_raw(c.root, bg->text, bg->len);
	c.over = svg_new(doc, "g");
	svg_set_kept(c.over, "id", "marks");
	add_provinces(&c);
	add_centres(&c);
	add_seats(&c);
	add_orders(&c);
	/* Names over the orders, with a light halo: no arrow hides one. */
	add_names(&c);
	add_units(&c);
	/* Removals and the marks of failed orders: over the units. */
	svg_append(c.root, c.over);
	add_title(&c, title);
	add_legend(&c);

	buf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	rc = svg_write(c.root, out);
	if (buf_putc(out, '\n') < 0)
		rc = -1;
	svg_doc_free(doc);
	return rc;
}
