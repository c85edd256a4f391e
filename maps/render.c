/*
 * render.c — the SVG map of a position (what is drawn: render.h).
 *
 * The document is built as a libxml2 tree, layer by layer, and serialised
 * straight into the caller's buffer. Shapes come from the geometry as path
 * data; everything else is placed at the geometry's points. Colours are
 * written as attributes so that the file stands alone (an <img> cannot
 * load anything else); the few shared styles are in one <style> element.
 */
#include "render.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#define SVG_NS "http://www.w3.org/2000/svg"

#define LAND_FILL "#ece6d2"
#define SEA_FILL "#aec4d6"
#define FAIL "#d0021b"
#define TINT 0.42		/* how much of the owner's colour a centre's province gets */
#define UNIT_R 7.0		/* army radius; fleets are about as wide */
#define RING_R 11.0		/* hold and support-to-hold rings */

static const char STYLE[] =
    ".water,.lake{fill:" SEA_FILL "}.lake{stroke:#5d7f99;stroke-width:.4}"
    ".impassable{fill:#d6d1c4;stroke:#8a857a;stroke-width:.4}"
    ".land{stroke:#6b6150;stroke-width:.6}.sea{stroke:#6f8ea8;stroke-width:.5}"
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}"
    ".n{font-size:9px;fill:#2b2b2b;text-anchor:middle}"
    ".ns{font-size:9px;font-style:italic;fill:#2f4f68;text-anchor:middle}"
    ".c{stroke:#222;stroke-width:1}"
    ".u{stroke:#111;stroke-width:1}.dl{stroke:" FAIL ";stroke-width:1.8}"
    ".o{fill:none;stroke:#111;stroke-width:2}"
    ".sp{stroke-width:1.5;stroke-dasharray:4 3}"
    ".cv{stroke:#1c5fa8;stroke-width:1.8;stroke-dasharray:1.5 3.5;stroke-linecap:round}"
    ".rt{stroke:#d96c00}"
    ".op{stroke:#d96c00;stroke-width:1;stroke-dasharray:3 2}"
    ".bd{stroke-width:1.5;stroke-dasharray:3 2}"
    ".f{stroke:" FAIL ";stroke-dasharray:6 3}"
    ".box{fill:#fff;fill-opacity:.88;stroke:#777;stroke-width:.8}"
    ".t{font-size:15px;font-weight:bold;fill:#111}"
    ".lg{font-size:10px;fill:#111}.lh{font-size:9px;fill:#555}.num{text-anchor:end}";

struct ctx {
	const struct map *m;
	const struct geometry *g;
	const struct render_input *in;
	const struct board *b;
	xmlDocPtr doc;
	xmlNodePtr root;
};

static xmlNodePtr
el(xmlNodePtr parent, const char *name)
{
	return xmlNewChild(parent, NULL, (const xmlChar *)name, NULL);
}

static void
set(xmlNodePtr n, const char *name, const char *value)
{
	xmlNewProp(n, (const xmlChar *)name, (const xmlChar *)value);
}

__attribute__((format(printf, 3, 4))) static void
setf(xmlNodePtr n, const char *name, const char *fmt, ...)
{
	char v[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof v, fmt, ap);
	va_end(ap);
	set(n, name, v);
}

static void
setnum(xmlNodePtr n, const char *name, double v)
{
	setf(n, name, "%.1f", v);
}

static xmlNodePtr
text(xmlNodePtr parent, const char *cls, double x, double y, const char *s)
{
	xmlNodePtr t = xmlNewTextChild(parent, NULL, (const xmlChar *)"text", (const xmlChar *)s);

	set(t, "class", cls);
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

void
render_power_colour(const struct map *m, power_id p, char *out)
{
	int rgb[3];

	parse_colour(p < m->npowers ? m->powers[p].colour : NULL, rgb);
	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

void
render_province_fill(const struct map *m, const struct board *b, prov_id p, char *out)
{
	const struct province *pv = &m->provs[p];
	int rgb[3], i;

	if (pv->terrain == TERRAIN_SEA) {
		snprintf(out, 8, "%s", SEA_FILL);
		return;
	}
	if (!pv->supply || b->owner[p] == POWER_NONE || b->owner[p] >= m->npowers) {
		snprintf(out, 8, "%s", LAND_FILL);
		return;
	}
	parse_colour(m->powers[b->owner[p]].colour, rgb);
	for (i = 0; i < 3; i++)
		rgb[i] = (int)lround(255.0 - (255.0 - rgb[i]) * TINT);
	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static struct geo_point
offset(struct geo_point p, double dx, double dy)
{
	p.x += dx;
	p.y += dy;
	return p;
}

static struct geo_point
dislodged_at(const struct ctx *c, loc_id l)
{
	return offset(c->g->unit[l], RENDER_DISLODGED_DX, RENDER_DISLODGED_DY);
}

/* --- layers ------------------------------------------------------------------ */

static void
add_defs(struct ctx *c)
{
	static const struct {
		const char *id, *colour;
		int dot;
	} marks[] = {
		{ "ah", "#111", 0 }, { "ahf", FAIL, 0 }, { "ahr", "#d96c00", 0 }, { "aho", "#d96c00", 0 },
		{ "dot", "#111", 1 }, { "dotf", FAIL, 1 }, { "dotc", "#1c5fa8", 1 },
	};
	xmlNodePtr defs = el(c->root, "defs"), mk, p;
	size_t i;

	for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		mk = el(defs, "marker");
		set(mk, "id", marks[i].id);
		set(mk, "viewBox", "0 0 10 10");
		set(mk, "refX", marks[i].dot ? "5" : "7");
		set(mk, "refY", "5");
		set(mk, "markerWidth", strcmp(marks[i].id, "aho") == 0 ? "7" : "4");
		set(mk, "markerHeight", strcmp(marks[i].id, "aho") == 0 ? "7" : "4");
		set(mk, "orient", "auto");
		if (marks[i].dot) {
			p = el(mk, "circle");
			set(p, "cx", "5");
			set(p, "cy", "5");
			set(p, "r", "4");
		} else {
			p = el(mk, "path");
			set(p, "d", "M0,0L10,5L0,10z");
		}
		set(p, "fill", marks[i].colour);
	}
}

static void
add_provinces(struct ctx *c)
{
	xmlNodePtr layer = el(c->root, "g"), p;
	char fill[8];
	int i;

	set(layer, "id", "provinces");
	for (i = 0; i < c->m->nprovs; i++) {
		p = el(layer, "path");
		set(p, "id", c->m->provs[i].abbr);
		set(p, "class", c->m->provs[i].terrain == TERRAIN_SEA ? "sea" : "land");
		render_province_fill(c->m, c->b, (prov_id)i, fill);
		set(p, "fill", fill);
		set(p, "d", c->g->shape[i]);
	}
}

static void
add_names(struct ctx *c)
{
	xmlNodePtr layer = el(c->root, "g");
	int i;

	set(layer, "id", "names");
	for (i = 0; i < c->m->nprovs; i++) {
		const struct province *pv = &c->m->provs[i];
		char name[16];
		snprintf(name, sizeof name, "%s", pv->abbr);
		if (name[0] >= 'a' && name[0] <= 'z')
			name[0] = (char)(name[0] - 'a' + 'A');
		text(layer, pv->terrain == TERRAIN_SEA ? "ns" : "n", c->g->label[i].x,
		    c->g->label[i].y + 3.2, name);
	}
}

static void
add_centres(struct ctx *c)
{
	xmlNodePtr layer = el(c->root, "g"), n;
	char fill[8];
	int i;

	set(layer, "id", "centres");
	for (i = 0; i < c->m->nprovs; i++) {
		if (!c->m->provs[i].supply)
			continue;
		/* A ring with a dot in the owner's colour: not to be taken for an army. */
		n = el(layer, "circle");
		set(n, "class", "c");
		setnum(n, "cx", c->g->centre[i].x);
		setnum(n, "cy", c->g->centre[i].y);
		set(n, "r", "4.2");
		set(n, "fill", "#fff");
		n = el(layer, "circle");
		setnum(n, "cx", c->g->centre[i].x);
		setnum(n, "cy", c->g->centre[i].y);
		set(n, "r", "2.4");
		if (c->b->owner[i] != POWER_NONE && c->b->owner[i] < c->m->npowers)
			render_power_colour(c->m, c->b->owner[i], fill);
		else
			snprintf(fill, sizeof fill, "#ffffff");
		set(n, "fill", fill);
	}
}

static void
draw_unit(struct ctx *c, xmlNodePtr layer, const struct unit *u, struct geo_point at,
    bool marked)
{
	xmlNodePtr gr = el(layer, "g"), s;
	char fill[8];

	setf(gr, "transform", "translate(%.1f %.1f)", at.x, at.y);
	set(gr, "class", marked ? "u dl" : "u");
	render_power_colour(c->m, u->power, fill);
	if (u->type == UNIT_FLEET) {
		s = el(gr, "path");
		set(s, "d", "M-11,0h22l-4.5,6.5h-13zM-2,-1.5v-11l9,11z");
	} else {
		s = el(gr, "circle");
		setf(s, "r", "%.1f", UNIT_R);
	}
	set(s, "fill", fill);
}

static void
add_units(struct ctx *c)
{
	xmlNodePtr layer = el(c->root, "g");
	const struct phase_result *res = c->in->res;
	int i;

	set(layer, "id", "units");
	for (i = 0; i < c->b->nunits; i++) {
		bool hit = res && c->b->phase == PHASE_MOVEMENT && i < res->nunits &&
		    res->unit_dislodged[i];
		draw_unit(c, layer, &c->b->units[i], c->g->unit[c->b->units[i].loc], hit);
	}
	for (i = 0; i < c->b->ndislodged; i++)
		draw_unit(c, layer, &c->b->dislodged[i].unit,
		    dislodged_at(c, c->b->dislodged[i].unit.loc), true);
}

/* A line from a to b with cut_a and cut_b left off its ends; false when
 * nothing is left of it. */
static bool
line(xmlNodePtr layer, struct geo_point a, struct geo_point b, double cut_a, double cut_b,
    const char *cls, const char *marker)
{
	double dx = b.x - a.x, dy = b.y - a.y, len = sqrt(dx * dx + dy * dy);
	xmlNodePtr n;

	if (len <= cut_a + cut_b + 1.0)
		return false;
	dx /= len;
	dy /= len;
	n = el(layer, "line");
	set(n, "class", cls);
	setnum(n, "x1", a.x + dx * cut_a);
	setnum(n, "y1", a.y + dy * cut_a);
	setnum(n, "x2", b.x - dx * cut_b);
	setnum(n, "y2", b.y - dy * cut_b);
	if (marker)
		setf(n, "marker-end", "url(#%s)", marker);
	return true;
}

static void
ring(xmlNodePtr layer, struct geo_point at, double r, const char *cls)
{
	xmlNodePtr n = el(layer, "circle");

	set(n, "class", cls);
	setnum(n, "cx", at.x);
	setnum(n, "cy", at.y);
	setnum(n, "r", r);
}

static void
cross(xmlNodePtr layer, struct geo_point at, const char *cls)
{
	xmlNodePtr n = el(layer, "path");

	set(n, "class", cls);
	setf(n, "d", "M%.1f,%.1fl14,14m0,-14l-14,14", at.x - 7, at.y - 7);
}

static struct geo_point
midpoint(struct geo_point a, struct geo_point b)
{
	struct geo_point p = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
	return p;
}

/* Reasons that mean there was no unit to draw the order from. */
static bool
not_drawn(enum reason r)
{
	return r == R_NO_UNIT || r == R_FOREIGN_UNIT || r == R_REPLACED || r == R_WRONG_PHASE;
}

static void
draw_order(struct ctx *c, xmlNodePtr layer, const struct order *o, bool failed)
{
	const struct geometry *g = c->g;
	bool retreat = c->b->phase == PHASE_RETREAT;
	struct geo_point from;
	char cls[48];

	if (o->loc == LOC_NONE || o->loc >= g->nlocs)
		return;
	from = retreat ? dislodged_at(c, o->loc) : g->unit[o->loc];
	switch (o->kind) {
	case ORDER_HOLD:
		ring(layer, from, RING_R, failed ? "o f" : "o");
		break;
	case ORDER_MOVE:
	case ORDER_RETREAT:
		if (o->dest == LOC_NONE)
			break;
		snprintf(cls, sizeof cls, "o%s%s", retreat ? " rt" : "", failed ? " f" : "");
		line(layer, from, g->unit[o->dest], UNIT_R + 1, UNIT_R + 2.5, cls,
		    failed ? "ahf" : retreat ? "ahr" : "ah");
		break;
	case ORDER_SUPPORT:
		if (o->target == LOC_NONE)
			break;
		snprintf(cls, sizeof cls, "o sp%s", failed ? " f" : "");
		if (o->dest == LOC_NONE) {
			line(layer, from, g->unit[o->target], UNIT_R + 1, RING_R, cls, NULL);
			ring(layer, g->unit[o->target], RING_R, cls);
		} else {
			line(layer, from, midpoint(g->unit[o->target], g->unit[o->dest]), UNIT_R + 1, 2,
			    cls, failed ? "dotf" : "dot");
		}
		break;
	case ORDER_CONVOY:
		if (o->target == LOC_NONE || o->dest == LOC_NONE)
			break;
		snprintf(cls, sizeof cls, "o cv%s", failed ? " f" : "");
		line(layer, from, midpoint(g->unit[o->target], g->unit[o->dest]), UNIT_R + 1, 2, cls,
		    failed ? "dotf" : "dotc");
		break;
	case ORDER_DISBAND:
	case ORDER_REMOVE:
		cross(layer, from, failed ? "o f" : "o");
		break;
	case ORDER_BUILD: {
		xmlNodePtr n;
		ring(layer, g->unit[o->loc], RING_R, failed ? "o bd f" : "o bd");
		n = el(layer, "path");
		set(n, "class", failed ? "o f" : "o");
		setf(n, "d", "M%.1f,%.1fh10m-5,-5v10", g->unit[o->loc].x - 5, g->unit[o->loc].y);
		break;
	}
	default:
		break;
	}
}

static void
add_orders(struct ctx *c)
{
	const struct render_input *in = c->in;
	xmlNodePtr layer = el(c->root, "g");
	int i;

	set(layer, "id", "orders");
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
		cross(layer, c->g->unit[in->res->removed[i].loc], "o");
	if (!in->retreat_options)
		return;
	for (i = 0; i < c->b->ndislodged; i++) {
		const struct dislodged *d = &c->b->dislodged[i];
		struct geo_point from = dislodged_at(c, d->unit.loc);
		loc_id opt[16];
		int k, n = adj_retreat_options(c->m, c->b, d, opt);

		if (n == 0)
			cross(layer, from, "o f");
		/* A ring where it may go, and an arrow when there is room for one. */
		for (k = 0; k < n; k++) {
			line(layer, from, c->g->unit[opt[k]], UNIT_R + 1, RING_R - 3, "o op", "aho");
			ring(layer, c->g->unit[opt[k]], RING_R - 3, "o op");
		}
	}
}

static void
add_title(struct ctx *c, const char *title)
{
	xmlNodePtr layer = el(c->root, "g"), r;
	struct geo_point at = c->g->title_at;

	set(layer, "id", "title");
	r = el(layer, "rect");
	set(r, "class", "box");
	setnum(r, "x", at.x);
	setnum(r, "y", at.y);
	setnum(r, "width", 16 + 9.0 * (double)strlen(title));
	set(r, "height", "28");
	set(r, "rx", "4");
	text(layer, "t", at.x + 8, at.y + 19, title);
}

static void
add_legend(struct ctx *c)
{
	const struct map *m = c->m;
	xmlNodePtr layer = el(c->root, "g"), r;
	double row = 14, w = 182, h = row * (m->npowers + 2) + 10;
	double x = c->g->legend_at.x, y = c->g->legend_at.y - h;
	int p, i, neutral = 0;
	char fill[8], n[16];

	set(layer, "id", "legend");
	r = el(layer, "rect");
	set(r, "class", "box");
	setnum(r, "x", x);
	setnum(r, "y", y);
	setnum(r, "width", w);
	setnum(r, "height", h);
	set(r, "rx", "4");
	text(layer, "lh", x + 8, y + 14, "Power");
	text(layer, "lh num", x + w - 52, y + 14, "Centres");
	text(layer, "lh num", x + w - 8, y + 14, "Units");
	for (p = 0; p < m->npowers; p++) {
		double ry = y + 14 + row * (p + 1);
		r = el(layer, "rect");
		setnum(r, "x", x + 8);
		setnum(r, "y", ry - 9);
		set(r, "width", "10");
		set(r, "height", "10");
		render_power_colour(m, (power_id)p, fill);
		set(r, "fill", fill);
		set(r, "stroke", "#111");
		set(r, "stroke-width", ".6");
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

struct sink {
	struct buf *out;
	bool full;
};

/* Never reports a failure to libxml2 (which would print it): a full buffer
 * is remembered and returned by render_svg. */
static int
write_buf(void *ctx, const char *data, int len)
{
	struct sink *s = ctx;

	if (!s->full && buf_append(s->out, data, (size_t)len) < 0)
		s->full = true;
	return len;
}

static int
close_buf(void *ctx)
{
	(void)ctx;
	return 0;
}

int
render_svg(const struct map *m, const struct geometry *g, const struct render_input *in,
    struct buf *out)
{
	struct ctx c;
	xmlNodePtr n;
	xmlNsPtr ns;
	xmlSaveCtxtPtr save;
	char title[160], ph[48];
	struct sink sink;
	struct buf desc;
	int rc = 0;

	memset(&c, 0, sizeof c);
	c.m = m;
	c.g = g;
	c.in = in;
	c.b = in->board;
	if (in->title)
		snprintf(title, sizeof title, "%s", in->title);
	else
		snprintf(title, sizeof title, "%s", phase_format(in->board, ph, sizeof ph));

	c.doc = xmlNewDoc((const xmlChar *)"1.0");
	c.root = xmlNewNode(NULL, (const xmlChar *)"svg");
	xmlDocSetRootElement(c.doc, c.root);
	ns = xmlNewNs(c.root, (const xmlChar *)SVG_NS, NULL);
	xmlSetNs(c.root, ns);
	set(c.root, "version", "1.1");
	setf(c.root, "width", "%g", g->width);
	setf(c.root, "height", "%g", g->height);
	setf(c.root, "viewBox", "%g %g %g %g", g->min_x, g->min_y, g->width, g->height);
	xmlNewTextChild(c.root, NULL, (const xmlChar *)"title", (const xmlChar *)title);
	buf_init(&desc, 4096);
	render_summary(m, in->board, &desc);
	xmlNewTextChild(c.root, NULL, (const xmlChar *)"desc", (const xmlChar *)buf_str(&desc));
	buf_free(&desc);
	n = xmlNewTextChild(c.root, NULL, (const xmlChar *)"style", (const xmlChar *)STYLE);
	(void)n;
	add_defs(&c);
	if (g->background) {
		n = xmlDocCopyNode(g->background, c.doc, 1);
		if (n) {
			xmlUnsetProp(n, (const xmlChar *)"id");
			set(n, "id", "background");
			xmlAddChild(c.root, n);
			xmlReconciliateNs(c.doc, n);
		}
	}
	add_provinces(&c);
	add_names(&c);
	add_centres(&c);
	add_orders(&c);
	add_units(&c);
	add_title(&c, title);
	add_legend(&c);

	sink.out = out;
	sink.full = false;
	save = xmlSaveToIO(write_buf, close_buf, &sink, "UTF-8", XML_SAVE_AS_XML);
	if (save == NULL || xmlSaveDoc(save, c.doc) < 0)
		rc = -1;
	if (save && xmlSaveClose(save) < 0)
		rc = -1;
	if (sink.full)
		rc = -1;
	xmlFreeDoc(c.doc);
	return rc;
}
