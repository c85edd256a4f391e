/*
 * geometry.c — the map geometry reader (format in maps/FORMAT.md).
 *
 * One pass over the SVG tree collects every element whose id names a
 * province and every attribute in the pouch namespace; a second pass checks
 * that the map is covered. Problems are reported with the file's line
 * numbers, as the variant reader does.
 */
#define _DEFAULT_SOURCE
#include "geometry.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "../lib/diag.h"
#include "../lib/fsio.h"
#include "../lib/lazylib.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "outline.h"
#include "variant.h"

#define GEOMETRY_MAX_BYTES (16u << 20)
#define GEOMETRY_NS "urn:pouch:geometry"

struct reader {
	const struct map *m;
	struct geometry *g;
	struct diag diag;	/* the file's name and where problems go */
	unsigned char *seen_label;	/* [prov] */
	unsigned char *seen_centre;	/* [prov] */
	unsigned char *seen_unit;	/* [loc] */
};

/* Parse "x y" (or "x,y"). Returns 0 or -1. */
static int
parse_point(const char *s, struct geo_point *p)
{
	char *end;

	errno = 0;
	p->x = strtod(s, &end);
	if (end == s || errno)
		return -1;
	s = end;
	while (*s == ' ' || *s == ',' || *s == '\t')
		s++;
	p->y = strtod(s, &end);
	if (end == s || errno || !isfinite(p->x) || !isfinite(p->y))
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	return *end == '\0' ? 0 : -1;
}

static bool
in_pouch_ns(const xmlAttr *a)
{
	return a->ns && a->ns->href && strcmp((const char *)a->ns->href, GEOMETRY_NS) == 0;
}

/* A place attribute of province p: "unit", "unit-COAST", "label", "centre". */
static void
read_place(struct reader *rd, xmlNode *n, prov_id p, const char *name, const char *value)
{
	const struct province *pv = &rd->m->provs[p];
	int line = (int)xmlGetLineNo(n);
	struct geo_point pt;
	loc_id l = LOC_NONE;

	if (parse_point(value, &pt) < 0) {
		diag_report(&rd->diag, line, "%s: pouch:%s must be two numbers \"x y\", not \"%s\"",
		    pv->abbr, name, value);
		return;
	}
	if (strcmp(name, "label") == 0) {
		rd->g->label[p] = pt;
		rd->seen_label[p] = 1;
	} else if (strcmp(name, "centre") == 0) {
		if (!pv->supply) {
			diag_report(&rd->diag, line, "%s: pouch:centre on a province that is not a supply centre",
			    pv->abbr);
			return;
		}
		rd->g->centre[p] = pt;
		rd->seen_centre[p] = 1;
	} else if (strcmp(name, "unit") == 0) {
		l = pv->loc;
	} else if (strncmp(name, "unit-", 5) == 0) {
		l = map_find_coast(rd->m, p, name + 5);
		if (l == LOC_NONE) {
			diag_report(&rd->diag, line, "%s has no coast \"%s\"", pv->abbr, name + 5);
			return;
		}
	} else {
		diag_report(&rd->diag, line, "%s: unknown attribute pouch:%s", pv->abbr, name);
		return;
	}
	if (l != LOC_NONE) {
		rd->g->unit[l] = pt;
		rd->seen_unit[l] = 1;
	}
}

static void
read_province(struct reader *rd, xmlNode *n, prov_id p)
{
	struct geometry *g = rd->g;
	int line = (int)xmlGetLineNo(n);
	xmlAttr *a;
	xmlChar *d;

	if (g->shape[p] != NULL) {
		diag_report(&rd->diag, line, "a second shape for %s", rd->m->provs[p].abbr);
		return;
	}
	if (strcmp((const char *)n->name, "path") != 0) {
		diag_report(&rd->diag, line, "%s must be a <path>, not <%s>", rd->m->provs[p].abbr,
		    (const char *)n->name);
		return;
	}
	d = xmlGetNoNsProp(n, (const xmlChar *)"d");
	if (d == NULL || *str_trim((char *)d) == '\0') {
		diag_report(&rd->diag, line, "%s: the path has no d attribute", rd->m->provs[p].abbr);
		xml_free(d);
		return;
	}
	g->shape[p] = xstrdup((const char *)d);
	xml_free(d);
	for (a = n->properties; a; a = a->next) {
		xmlChar *v;
		if (!in_pouch_ns(a))
			continue;
		v = xmlNodeListGetString(n->doc, a->children, 1);
		read_place(rd, n, p, (const char *)a->name, v ? (const char *)v : "");
		xml_free(v);
	}
}

static void
read_root_places(struct reader *rd, xmlNode *root)
{
	xmlAttr *a;

	for (a = root->properties; a; a = a->next) {
		struct geo_point pt;
		xmlChar *v;
		if (!in_pouch_ns(a))
			continue;
		v = xmlNodeListGetString(root->doc, a->children, 1);
		if (strcmp((const char *)a->name, "variant") == 0) {
			if (v == NULL || strcmp((const char *)v, rd->m->drawing ? rd->m->drawing :
			    rd->m->name) != 0)
				diag_report(&rd->diag, (int)xmlGetLineNo(root),
				    "this is the drawing of variant \"%s\", not %s",
				    v ? (const char *)v : "", rd->m->name);
		} else if (strcmp((const char *)a->name, "title") != 0 &&
		    strcmp((const char *)a->name, "legend") != 0) {
			diag_report(&rd->diag, (int)xmlGetLineNo(root), "unknown attribute pouch:%s on <svg>",
			    (const char *)a->name);
		} else if (v == NULL || parse_point((const char *)v, &pt) < 0) {
			diag_report(&rd->diag, (int)xmlGetLineNo(root), "pouch:%s must be two numbers \"x y\"",
			    (const char *)a->name);
		} else if (a->name[0] == 't') {
			rd->g->title_at = pt;
		} else {
			rd->g->legend_at = pt;
		}
		xml_free(v);
	}
}

static void
walk(struct reader *rd, xmlNode *n)
{
	for (; n; n = n->next) {
		xmlChar *id;
		if (n->type != XML_ELEMENT_NODE)
			continue;
		id = xmlGetNoNsProp(n, (const xmlChar *)"id");
		if (id != NULL) {
			prov_id p = PROV_NONE;
			int k;
			for (k = 0; k < rd->m->nprovs; k++)
				if (strcmp(rd->m->provs[k].abbr, (const char *)id) == 0)
					p = (prov_id)k;
			if (p != PROV_NONE)
				read_province(rd, n, p);
			else if (strcmp((const char *)id, "background") == 0 && rd->g->background == NULL)
				rd->g->background = n;
			xml_free(id);
			if (p != PROV_NONE)
				continue;
		}
		{
			xmlAttr *a;
			for (a = n->properties; a; a = a->next)
				if (in_pouch_ns(a) && n->parent && n->parent->type != XML_DOCUMENT_NODE)
					diag_report(&rd->diag, (int)xmlGetLineNo(n),
					    "pouch:%s on an element that is not a province of %s",
					    (const char *)a->name, rd->m->name);
		}
		walk(rd, n->children);
	}
}

/* The viewBox (or width and height) of the root. */
static void
read_size(struct reader *rd, xmlNode *root)
{
	struct geometry *g = rd->g;
	xmlChar *vb = xmlGetNoNsProp(root, (const xmlChar *)"viewBox");
	int line = (int)xmlGetLineNo(root);

	if (vb != NULL) {
		char *s = (char *)vb, *end;
		double v[4];
		int i;
		for (i = 0; i < 4; i++) {
			while (*s == ' ' || *s == ',')
				s++;
			errno = 0;
			v[i] = strtod(s, &end);
			if (end == s || errno)
				break;
			s = end;
		}
		if (i < 4 || v[2] <= 0 || v[3] <= 0)
			diag_report(&rd->diag, line, "viewBox must be four numbers \"x y width height\"");
		else {
			g->min_x = v[0];
			g->min_y = v[1];
			g->width = v[2];
			g->height = v[3];
		}
		xml_free(vb);
		return;
	}
	diag_report(&rd->diag, line, "the <svg> element needs a viewBox");
}

/* Keep the box of each land province's outline (before any background
 * shape's) in g->land. */
static void
land_province_boxes(const struct map *m, struct geometry *g)
{
	int i;

	g->land = xcalloc((size_t)m->nprovs + 1, sizeof *g->land);
	g->nland = 0;
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].terrain != TERRAIN_SEA && outline_box(g->shape[i], g->land[g->nland]) == 0)
			g->nland++;
}

/* Add the box of each ring of background shape n (path data d) to
 * g->land when it is impassable land. */
static void
land_boxes(struct geometry *g, xmlNode *n, const xmlChar *d)
{
	xmlChar *cls = xmlGetNoNsProp(n, (const xmlChar *)"class");
	int k;

	if (d != NULL && cls != NULL && strcmp((const char *)cls, "impassable") == 0 &&
	    (k = outline_ring_boxes((const char *)d, NULL, 0)) > 0) {
		g->land = xrealloc(g->land, ((size_t)g->nland + (size_t)k) * sizeof *g->land);
		g->nland += outline_ring_boxes((const char *)d, g->land + g->nland, k);
	}
	xml_free(cls);
}

/* The outlines as maps draw them (outline.h): each province's rounded, the
 * seas' borders on their own, the background's shapes rounded in place. */
static void
outlines(const struct map *m, struct geometry *g)
{
	bool *sea = xcalloc((size_t)m->nprovs + 1, sizeof *sea);
	char **simple;
	struct buf b;
	xmlNode *n;
	int i;

	buf_init(&b, GEOMETRY_MAX_BYTES);
	land_province_boxes(m, g);
	/* A page shows a map at most some OUTLINE_SHOWN pixels wide: a larger
	 * drawing's outlines need no finer grid than it shows. */
	g->grid = g->width > OUTLINE_SHOWN * 1.25 ? (int)(g->width / OUTLINE_SHOWN + 0.5) : 1;
	simple = xcalloc((size_t)m->nprovs + 1, sizeof *simple);
	outline_simplify(g->shape, m->nprovs, OUTLINE_TOLERANCE * g->grid, simple);
	g->drawn = xcalloc((size_t)m->nprovs + 1, sizeof *g->drawn);
	for (i = 0; i < m->nprovs; i++) {
		sea[i] = m->provs[i].terrain == TERRAIN_SEA;
		buf_reset(&b);
		g->drawn[i] = xstrdup(simple[i] && outline_round(simple[i], g->grid, &b) == 0 ?
			buf_str(&b) : g->shape[i]);
	}
	buf_reset(&b);
	if (outline_sea_borders(simple, sea, m->nprovs, g->grid, &b) == 0)
		g->sea_borders = xstrdup(buf_str(&b));
	for (n = g->background ? g->background->children : NULL; n; n = n->next) {
		xmlChar *d;
		if (n->type != XML_ELEMENT_NODE || strcmp((const char *)n->name, "path") != 0)
			continue;
		d = xmlGetNoNsProp(n, (const xmlChar *)"d");
		land_boxes(g, n, d);
		buf_reset(&b);
		if (d && outline_round((const char *)d, g->grid, &b) == 0) {
			xmlUnsetProp(n, (const xmlChar *)"d");
			xmlNewProp(n, (const xmlChar *)"d", (const xmlChar *)buf_str(&b));
		}
		xml_free(d);
	}
	buf_free(&b);
	for (i = 0; i < m->nprovs; i++)
		free(simple[i]);
	free(simple);
	free(sea);
}

struct geometry *
geometry_parse(const struct map *m, const char *data, size_t len, const char *fname,
    struct buf *err)
{
	struct reader rd;
	struct geometry *g;
	xmlParserCtxtPtr ctxt;
	xmlNode *root;
	int i;

	memset(&rd, 0, sizeof rd);
	rd.m = m;
	rd.diag.fname = fname;
	rd.diag.out = err;
	if (len > INT32_MAX) {
		diag_report(&rd.diag, 0, "file too large");
		return NULL;
	}
	g = xcalloc(1, sizeof *g);
	rd.g = g;
	g->nprovs = m->nprovs;
	g->nlocs = m->nlocs;
	g->shape = xcalloc((size_t)m->nprovs, sizeof *g->shape);
	g->label = xcalloc((size_t)m->nprovs, sizeof *g->label);
	g->centre = xcalloc((size_t)m->nprovs, sizeof *g->centre);
	g->unit = xcalloc((size_t)m->nlocs, sizeof *g->unit);
	g->bends = xcalloc(GEO_BENDS, sizeof *g->bends);
	g->legend = xcalloc(1, sizeof *g->legend);
	g->background_markup = xcalloc(1, sizeof *g->background_markup);
	rd.seen_label = xcalloc((size_t)m->nprovs, 1);
	rd.seen_centre = xcalloc((size_t)m->nprovs, 1);
	rd.seen_unit = xcalloc((size_t)m->nlocs, 1);

	ctxt = xmlNewParserCtxt();
	if (ctxt == NULL) {
		diag_report(&rd.diag, 0, "cannot create an XML parser");
		goto done;
	}
	g->doc = xmlCtxtReadMemory(ctxt, data, (int)len, fname, NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_HUGE);
	if (g->doc == NULL) {
		const xmlError *e = xmlCtxtGetLastError(ctxt);
		char *msg = xstrdup(e && e->message ? e->message : "not well-formed XML");
		diag_report(&rd.diag, e ? e->line : 0, "%s", str_trim(msg));
		free(msg);
		xmlFreeParserCtxt(ctxt);
		goto done;
	}
	xmlFreeParserCtxt(ctxt);
	root = xmlDocGetRootElement(g->doc);
	if (root == NULL || strcmp((const char *)root->name, "svg") != 0) {
		diag_report(&rd.diag, root ? (int)xmlGetLineNo(root) : 0, "the root element must be <svg>");
		goto done;
	}
	read_size(&rd, root);
	g->title_at.x = g->min_x + 8;
	g->title_at.y = g->min_y + 8;
	g->legend_at.x = g->min_x + 8;
	g->legend_at.y = g->min_y + g->height - 8;
	read_root_places(&rd, root);
	walk(&rd, root->children);
	{
		struct buf missing;
		int n = 0;
		buf_init(&missing, 1 << 12);
		for (i = 0; i < m->nprovs; i++)
			if (g->shape[i] == NULL && n++ < 12)
				buf_printf(&missing, "%s%s (%s)", n > 1 ? ", " : "", m->provs[i].abbr,
				    m->provs[i].name);
		if (n > 0)
			diag_report(&rd.diag, 0, "no shape (a <path id=\"ABBR\">) for %d province%s: %s%s", n,
			    n == 1 ? "" : "s", buf_str(&missing), n > 12 ? ", ..." : "");
		buf_free(&missing);
	}
	for (i = 0; i < m->nprovs; i++) {
		const struct province *pv = &m->provs[i];
		int k;
		if (g->shape[i] == NULL)
			continue;
		if (!rd.seen_label[i])
			diag_report(&rd.diag, 0, "%s: no pouch:label", pv->abbr);
		if (pv->supply && !rd.seen_centre[i])
			diag_report(&rd.diag, 0, "%s: no pouch:centre (it is a supply centre)", pv->abbr);
		if (!rd.seen_unit[pv->loc])
			diag_report(&rd.diag, 0, "%s: no pouch:unit", pv->abbr);
		for (k = 0; k < pv->ncoasts; k++)
			if (!rd.seen_unit[pv->coast[k]])
				diag_report(&rd.diag, 0, "%s: no pouch:unit-%s", pv->abbr,
				    m->locs[pv->coast[k]].coast_abbr);
	}
	if (rd.diag.count == 0)
		outlines(m, g);
done:
	free(rd.seen_label);
	free(rd.seen_centre);
	free(rd.seen_unit);
	if (rd.diag.count > 0) {
		geometry_free(g);
		return NULL;
	}
	return g;
}

struct geometry *
geometry_load(const struct map *m, const char *path, struct buf *err)
{
	struct buf data;
	struct geometry *g;

	buf_init(&data, GEOMETRY_MAX_BYTES);
	if (fs_read_file(path, &data) < 0) {
		buf_printf(err, "%s: %s\n", path,
		    errno == EFBIG ? "file too large for a map geometry" : strerror(errno));
		buf_free(&data);
		return NULL;
	}
	g = geometry_parse(m, buf_str(&data), data.len, path, err);
	buf_free(&data);
	return g;
}

struct geometry *
geometry_open(const struct map *m, const char *maps_dir, struct buf *err)
{
	char path[4096];
	int n;

	if (m->file != NULL && strrchr(m->file, '/') != NULL) {
		const char *slash = strrchr(m->file, '/');
		n = snprintf(path, sizeof path, "%.*s/map.svg", (int)(slash - m->file), m->file);
	} else if (m->file != NULL) {
		n = snprintf(path, sizeof path, "map.svg");
	} else {
		n = snprintf(path, sizeof path, "%s/%s/map.svg",
		    maps_dir ? maps_dir : variant_default_dir(), m->name);
	}
	if (n < 0 || (size_t)n >= sizeof path) {
		buf_printf(err, "map geometry path too long\n");
		return NULL;
	}
	if (!fs_exists(path)) {
		buf_printf(err, "no map geometry for %s (looked for %s)\n", m->name, path);
		return NULL;
	}
	return geometry_load(m, path, err);
}

void
geometry_threads(void)
{
	xmlInitParser();
}

void
geometry_free(struct geometry *g)
{
	int i;

	if (g == NULL)
		return;
	if (g->shape)
		for (i = 0; i < g->nprovs; i++)
			free(g->shape[i]);
	free(g->shape);
	if (g->drawn)
		for (i = 0; i < g->nprovs; i++)
			free(g->drawn[i]);
	free(g->drawn);
	free(g->sea_borders);
	free(g->label);
	free(g->centre);
	free(g->unit);
	free(g->bends);
	free(g->legend);
	if (g->background_markup)
		free(g->background_markup->text);
	free(g->background_markup);
	free(g->land);
	if (g->doc)
		xmlFreeDoc(g->doc);
	free(g);
}
