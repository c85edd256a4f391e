/*
 * test_render.c — map geometry, the SVG renderer and the game pages.
 *
 * Rendered maps are parsed back with libxml2 and questioned with XPath:
 * every unit and order must have produced its element, with the right
 * shape and class, and the documents must be well-formed. The standard
 * geometry must cover every province and place of the variant.
 */
#include "../support/testutil.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/resolver.h"
#include "../../judge/engine/rules.h"
#include "../../lib/fsio.h"
#include "../../lib/lazylib.h"
#include "../../maps/geometry.h"
#include "../../maps/pages.h"
#include "../../maps/layout.h"
#include "../../maps/outline.h"
#include "../../maps/render.h"
#include "../../parser/orders.h"

/* A phase to draw: a board, orders read by the order parser, results. */
struct scene {
	struct board b;
	struct order o[64];
	int n;
	struct phase_result res;
};

static void
scene_order(struct scene *s, const char *text)
{
	static struct names *nm;
	struct parse_ctx c;
	struct parse_result r;

	if (nm == NULL)
		nm = names_new(test_standard_map());
	c.m = test_standard_map();
	c.names = nm;
	c.b = &s->b;
	c.power = POWER_NONE;
	order_parse(&c, text, strlen(text), &r);
	if (r.verdict == VERDICT_REFUSED || r.verdict == VERDICT_BLANK)
		fail_msg("order \"%s\" refused: %s", text, r.note);
	s->o[s->n++] = r.order;
}

static void
scene_resolve(struct scene *s)
{
	struct rules r;

	rules_init(&r, EDITION_2023);
	adj_resolve(test_standard_map(), &r, &s->b, s->o, s->n, &s->res, NULL);
}

/* Spring 1901: France's army in Paris, supported from Picardy, dislodges
 * Germany's in Burgundy (the orders given, not resolved). */
static void
scene_burgundy(struct scene *s)
{
	const struct map *m = test_standard_map();

	board_init_empty(&s->b, 1901, SEASON_SPRING, PHASE_MOVEMENT);
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "par"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "pic"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "Germany"), map_find_location(m, "bur"));
	scene_order(s, "France: A par - bur");
	scene_order(s, "France: A pic S A par - bur");
}

/* Spring 1901 from the start, an order for every unit, resolved. */
static void
scene_every_unit(struct scene *s)
{
	static const char *const orders[] = { "A vie - gal", "A bud - ser", "F tri - alb",
		"F lon - nth", "F edi - nwg", "A lvp - yor", "F bre - mao", "A par - bur",
		"A mar S A par - bur", "F kie - den", "A ber - kie", "A mun - bur", "A ven - tyr",
		"A rom - apu", "F nap - ion", "A war - gal", "A mos - ukr", "F sev - bla",
		"F stp/sc - bot", "F ank - bla", "A con - bul", "A smy - arm" };
	size_t i;

	board_init_start(&s->b, test_standard_map());
	for (i = 0; i < sizeof orders / sizeof orders[0]; i++)
		scene_order(s, orders[i]);
	scene_resolve(s);
}

static xmlDocPtr render_doc(const struct render_input *in);

/* The map of a scene: its board, orders and results. */
static xmlDocPtr
render_scene(const struct scene *s)
{
	struct render_input in;

	memset(&in, 0, sizeof in);
	in.board = &s->b;
	in.orders = s->o;
	in.norders = s->n;
	in.res = &s->res;
	return render_doc(&in);
}

/* The map of the position b on variant m (drawn by g), parsed. */
static xmlDocPtr
render_board(const struct map *m, const struct geometry *g, const struct board *b)
{
	struct render_input in;
	struct buf out;
	xmlDocPtr doc;

	memset(&in, 0, sizeof in);
	in.board = b;
	buf_init(&out, 16u << 20);
	assert_int_equal(render_svg(m, g, &in, &out), 0);
	doc = xmlReadMemory(buf_str(&out), (int)out.len, "map.svg", NULL, XML_PARSE_NONET);
	if (doc == NULL)
		fail_msg("the rendered map is not well-formed XML");
	buf_free(&out);
	return doc;
}

static xmlDocPtr
render_doc(const struct render_input *in)
{
	struct buf out;
	xmlDocPtr doc;

	buf_init(&out, 16u << 20);
	assert_int_equal(render_svg(test_standard_map(), test_standard_geometry(), in, &out), 0);
	doc = xmlReadMemory(buf_str(&out), (int)out.len, "map.svg", NULL, XML_PARSE_NONET);
	if (doc == NULL)
		fail_msg("the rendered map is not well-formed XML");
	buf_free(&out);
	return doc;
}

/* Nodes matching an XPath expression (prefix s: for SVG). */
static int
count(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	int n;

	xmlXPathRegisterNs(x, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression((const xmlChar *)expr, x);
	if (r == NULL)
		fail_msg("bad XPath %s", expr);
	n = r->nodesetval ? r->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
	return n;
}

/* The value of an attribute of the first node matching expr ("" if none); static buffer. */
static const char *
attr_of(xmlDocPtr doc, const char *expr, const char *name)
{
	static char val[256];
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;

	val[0] = '\0';
	xmlXPathRegisterNs(x, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression((const xmlChar *)expr, x);
	if (r && r->nodesetval && r->nodesetval->nodeNr > 0) {
		xmlChar *v = xmlGetProp(r->nodesetval->nodeTab[0], (const xmlChar *)name);
		if (v)
			snprintf(val, sizeof val, "%s", (const char *)v);
		xml_free(v);
	}
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
	return val;
}

/* Each coloured order in the orders layer comes right after its edge: an
 * element of the same name and geometry, with class "oo" and the same dashes. */
static void
edges_under_orders(xmlDocPtr doc)
{
	static const char *const geo[] = { "x1", "y1", "x2", "y2", "cx", "cy", "r", "d" };
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	int i, k, n = 0;

	xmlXPathRegisterNs(x, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression((const xmlChar *)"//s:g[@id='orders']/*[not(starts-with(@class,"
								"'oo')) and not(contains(@class,'op'))]", x);
	assert_non_null(r);
	for (i = 0; r->nodesetval && i < r->nodesetval->nodeNr; i++) {
		xmlNodePtr o = r->nodesetval->nodeTab[i], e;
		xmlChar *oc, *ec;
		char want[64];

		if (o == NULL) {
			fail_msg("an empty node in the set");
			break;
		}
		e = o->prev;
		oc = xmlGetProp(o, (const xmlChar *)"class");

		while (e && e->type != XML_ELEMENT_NODE)
			e = e->prev;
		if (e == NULL) {
			fail_msg("an order without its edge");
			break;
		}
		assert_string_equal((const char *)e->name, (const char *)o->name);
		ec = xmlGetProp(e, (const xmlChar *)"class");
		snprintf(want, sizeof want, "o%s", (const char *)oc);
		assert_string_equal((const char *)ec, want);
		for (k = 0; k < (int)(sizeof geo / sizeof geo[0]); k++) {
			xmlChar *a = xmlGetProp(o, (const xmlChar *)geo[k]);
			xmlChar *b = xmlGetProp(e, (const xmlChar *)geo[k]);
			assert_true((a == NULL) == (b == NULL));
			if (a)
				assert_string_equal((const char *)a, (const char *)b);
			xml_free(a);
			xml_free(b);
		}
		xml_free(oc);
		xml_free(ec);
		n++;
	}
	assert_true(n > 0);
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
}

static void
test_geometry_covers_variant(void **state)
{
	const struct map *m = test_standard_map();
	const struct geometry *g = test_standard_geometry();
	int i;

	(void)state;
	assert_int_equal(g->nprovs, m->nprovs);
	assert_true(g->background != NULL);
	for (i = 0; i < m->nprovs; i++) {
		assert_non_null(g->shape[i]);
		assert_true(g->label[i].x > 0 && g->label[i].x < g->width);
		assert_true(g->label[i].y > 0 && g->label[i].y < g->height);
		if (m->provs[i].supply)
			assert_true(g->centre[i].x > 0 && g->centre[i].y > 0);
	}
	for (i = 0; i < m->nlocs; i++) {
		if (!g->unit[i].x || !g->unit[i].y)
			fail_msg("no unit place for %s", m->locs[i].name);
		assert_true(g->unit[i].x < g->width && g->unit[i].y < g->height);
	}
	/* The two coasts of Spain are far apart, and neither is the army's place. */
	{
		loc_id nc = map_find_location(m, "spa/nc"), sc = map_find_location(m, "spa/sc");
		loc_id a = map_find_location(m, "spa");
		assert_true(g->unit[nc].y + 20 < g->unit[sc].y);
		assert_true(g->unit[a].x != g->unit[nc].x);
	}
}

static void
expect_geometry_error(const char *text, const char *want)
{
	struct buf err;
	struct geometry *g;

	buf_init(&err, 1 << 16);
	g = geometry_parse(test_standard_map(), text, strlen(text), "bad.svg", &err);
	assert_null(g);
	if (strstr(buf_str(&err), want) == NULL)
		fail_msg("expected \"%s\" in:\n%s", want, buf_str(&err));
	buf_free(&err);
}

static void
test_geometry_errors(void **state)
{
	(void)state;
	expect_geometry_error("<svg", "bad.svg:");
	expect_geometry_error("<html/>", "the root element must be <svg>");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg'/>", "needs a viewBox");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' xmlns:pouch='urn:pouch:geometry' "
			      "viewBox='0 0 10 10' pouch:variant='muna'/>",
	    "bad.svg:1: this is the drawing of variant \"muna\", not standard");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'/>",
	    "no shape (a <path id=\"ABBR\">) for 75 provinces: adr (Adriatic Sea), aeg");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' xmlns:pouch='urn:pouch:geometry' "
			      "viewBox='0 0 10 10'><path id='spa' d='M0,0h1v1z' pouch:unit='1 1' "
			      "pouch:unit-xc='2 2' pouch:label='x'/></svg>",
	    "spa has no coast \"xc\"");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' xmlns:pouch='urn:pouch:geometry' "
			      "viewBox='0 0 10 10'><path id='spa' d='M0,0h1v1z' pouch:label='x'/></svg>",
	    "pouch:label must be two numbers");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' xmlns:pouch='urn:pouch:geometry' "
			      "viewBox='0 0 10 10'><path id='spa' d='M0,0h1v1z' pouch:unit='1 1' "
			      "pouch:label='1 1' pouch:centre='1 1'/></svg>",
	    "spa: no pouch:unit-nc");
	expect_geometry_error("<svg xmlns='http://www.w3.org/2000/svg' xmlns:pouch='urn:pouch:geometry' "
			      "viewBox='0 0 10 10'><path id='nth' d='M0,0h1v1z' pouch:centre='1 1'/></svg>",
	    "nth: pouch:centre on a province that is not a supply centre");
}

static void
test_render_start(void **state)
{
	const struct map *m = test_standard_map();
	struct render_input in;
	struct board b;
	xmlDocPtr doc;
	char want[8], land[8];
	int i, nland;

	(void)state;
	board_init_start(&b, m);
	memset(&in, 0, sizeof in);
	in.board = &b;
	doc = render_doc(&in);
	/* A path per land province, rounded to whole pixels, and one for the
	 * borders between seas: a sea is the water under it. */
	for (i = 0, nland = 0; i < m->nprovs; i++)
		nland += m->provs[i].terrain != TERRAIN_SEA;
	assert_int_equal(count(doc, "/s:svg/s:g[@id='provinces']/s:path"), nland + 1);
	assert_int_equal(count(doc, "//s:g[@id='provinces']/s:path[@class='sea']"), 0);
	assert_int_equal(count(doc, "//s:g[@id='provinces']/s:path[last()][@id='sea-borders' and "
				    "@class='sb' and string-length(@d) > 100]"), 1);
	assert_int_equal(count(doc, "//s:g[@id='provinces']/s:path[contains(@d,'.')]"), 0);
	assert_int_equal(count(doc, "//s:g[@id='units']/s:g"), 22);
	/* Armies are rounded blocks, fleets ship-shaped paths: 13 and 9 at the start;
	 * nothing round among the units, to be taken for a centre's marker. */
	assert_int_equal(count(doc, "//s:g[@id='units']/s:g/s:rect[@rx>0 and @width>@height]"),
	    13);
	assert_int_equal(count(doc, "//s:g[@id='units']/s:g/s:path"), 9);
	assert_int_equal(count(doc, "//s:g[@id='units']//s:circle"), 0);
	/* Provinces filled by centre owner: Paris French, Burgundy neutral land, the North Sea sea. */
	render_province_fill(m, &b, map_find_province(m, "par"), want);
	assert_string_equal(attr_of(doc, "//s:path[@id='par']", "fill"), want);
	snprintf(land, sizeof land, "%s", attr_of(doc, "//s:path[@id='bur']", "fill"));
	assert_string_not_equal(want, land);
	assert_int_equal(count(doc, "//s:path[@id='nth']"), 0);
	/* One marker per centre (a ring, and a dot when owned: 22 of 34), a name per province. */
	assert_int_equal(count(doc, "//s:g[@id='centres']/s:circle"), m->nsupply + 22);
	assert_int_equal(count(doc, "//s:g[@id='names']/s:text"), m->nprovs);
	/* The title and a legend row per power, with its centres. */
	assert_int_equal(count(doc, "//s:g[@id='title']/s:text[.='Spring 1901 Movement']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='Russia']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='4']"), 2);	/* Russia: 4 and 4 */
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='12']"), 1);	/* neutral */
	/* The key on the drawing: a sample and a word for every kind of mark. */
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='move' or .='support' or "
				    ".='convoy' or .='hold' or .='failed' or .='dislodged' or .='built' "
				    "or .='removed' or .='may retreat']"), 9);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:line[@class='o f']"
				    "/following-sibling::s:path[@class='fx']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:rect[@class='u dl']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/*"), 0);
	assert_int_equal(count(doc, "//s:g[@id='background']/*"), 3);
	xmlFreeDoc(doc);
}

static void
test_render_unit_colours(void **state)
{
	const struct map *m = test_standard_map();
	const struct geometry *g = test_standard_geometry();
	struct render_input in;
	struct board b;
	char expr[160], colour[8];
	xmlDocPtr doc;
	int i;

	(void)state;
	board_init_start(&b, m);
	memset(&in, 0, sizeof in);
	in.board = &b;
	doc = render_doc(&in);
	for (i = 0; i < b.nunits; i++) {
		const struct unit *u = &b.units[i];
		snprintf(expr, sizeof expr, "//s:g[@id='units']/s:g[@transform='translate(%.1f %.1f)']/*",
		    g->unit[u->loc].x, g->unit[u->loc].y);
		render_power_colour(m, u->power, colour);
		assert_string_equal(attr_of(doc, expr, "fill"), colour);
	}
	xmlFreeDoc(doc);
}

static void
test_render_orders(void **state)
{
	const struct map *m = test_standard_map();
	struct render_input in;
	struct scene *s = calloc(1, sizeof *s);
	char expr[160], colour[8];
	xmlDocPtr doc;

	(void)state;
	board_init_start(&s->b, m);
	scene_order(s, "France: A par - bur");		/* supported: succeeds */
	scene_order(s, "France: A mar S A par - bur");
	scene_order(s, "Austria: A vie - gal");		/* bounces with Warsaw */
	scene_order(s, "Russia: A war - gal");
	scene_order(s, "Italy: A ven H");
	scene_order(s, "Italy: A rom S A ven");		/* support to hold */
	scene_order(s, "Turkey: A bul - con");		/* no unit in Bulgaria: not drawn */
	scene_resolve(s);
	doc = render_scene(s);
	/* Moves: one arrow that worked (France's), two that failed (dashed, in
	 * their power's colour, a mark at their end): Austria's and Russia's. */
	snprintf(expr, sizeof expr, "//s:g[@id='orders']/s:line[@class='o' and "
				    "@marker-end='url(#ah%d)']", map_find_power(m, "France"));
	assert_int_equal(count(doc, expr), 1);
	render_power_colour(m, map_find_power(m, "France"), colour);
	assert_string_equal(attr_of(doc, expr, "stroke"), colour);
	snprintf(expr, sizeof expr, "//s:g[@id='orders']/s:line[@class='o f' and "
				    "@marker-end='url(#ah%d)']", map_find_power(m, "Russia"));
	render_power_colour(m, map_find_power(m, "Russia"), colour);
	assert_string_equal(attr_of(doc, expr, "stroke"), colour);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='o f' and "
				    "starts-with(@marker-end,'url(#ah')]"), 2);
	snprintf(expr, sizeof expr, "//s:defs/s:marker[@id='ah%d']/s:path",
	    map_find_power(m, "Russia"));
	assert_string_equal(attr_of(doc, expr, "fill"), colour);
	assert_string_equal(attr_of(doc, expr, "stroke"), "#111");
	/* Nothing red: a failed order reads by its dashes and its mark, a dark
	 * cross on a light one over the units, one per failed order. */
	assert_int_equal(count(doc, "//*[@stroke='#d0021b']"), 0);
	assert_int_equal(count(doc, "/s:svg/s:g[@id='units']/following-sibling::s:g[@id='marks']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='fx']"), 2);
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='fxh']"), 2);
	assert_int_equal(count(doc, "//s:style[contains(.,'.fx{stroke:#111') and "
				    "contains(.,'.fxh{stroke:#fff')]"), 1);
	/* Every coloured stroke has a dark edge just under it: the same shape, wider. */
	assert_int_equal(count(doc, "//s:g[@id='orders']/*[starts-with(@class,'o ') or @class='o']"),
	    7);
	assert_int_equal(count(doc, "//s:g[@id='orders']/*[starts-with(@class,'oo')]"), 7);
	edges_under_orders(doc);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='oo' and @stroke='#111']"),
	    1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='oo f' and "
				    "@stroke='#111']"), 2);
	assert_int_equal(count(doc, "//s:style[contains(.,'.oo{stroke-width:4.4}')]"), 1);
	/* Supports: to a move (dashed line ending in a dot), to a hold (line and ring). */
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='o sp' and "
				    "starts-with(@marker-end,'url(#dot')]"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='o sp' and not(@marker-end)]"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:circle[@class='o sp']"), 1);
	/* The hold: a ring. */
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:circle[@class='o']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/*"), 14);
	/* Names come after the orders (drawn over them) with a light halo, under the units. */
	assert_int_equal(count(doc, "/s:svg/s:g[@id='orders']/following-sibling::s:g[@id='names']"
				    "/following-sibling::s:g[@id='units']"), 1);
	assert_int_equal(count(doc, "//s:style[contains(.,'.n,.ns{stroke:#fff;') and "
				    "contains(.,'paint-order:stroke')]"), 1);
	/* Without results the same orders are drawn as given. */
	xmlFreeDoc(doc);
	memset(&in, 0, sizeof in);
	in.board = &s->b;
	in.orders = s->o;
	in.norders = s->n;
	doc = render_doc(&in);
	assert_int_equal(count(doc, "//s:g[@id='orders']/*[contains(@class,' f')]"), 0);
	assert_int_equal(count(doc, "//s:g[@id='marks']/*"), 0);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line"), 12);	/* Bulgaria's too */
	xmlFreeDoc(doc);
	free(s);
}

/* Line number i (from 1) of the lines matching what (an XPath), into l:
 * x1, y1, x2, y2. */
static void
line_at(xmlDocPtr doc, const char *what, int i, double l[4])
{
	static const char *const xy[] = { "x1", "y1", "x2", "y2" };
	char expr[200];
	int k;

	snprintf(expr, sizeof expr, "(%s)[%d]", what, i);
	for (k = 0; k < 4; k++)
		l[k] = atof(attr_of(doc, expr, xy[k]));
}

/* Mark number i (from 1) of the failed-order marks: its centre into p. */
static void
mark_at(xmlDocPtr doc, int i, double p[2])
{
	char expr[200];

	snprintf(expr, sizeof expr, "(//s:g[@id='marks']/s:path[@class='fx'])[%d]", i);
	assert_int_equal(sscanf(attr_of(doc, expr, "d"), "M%lf,%lf", &p[0], &p[1]), 2);
}

/* How far point p is from segment l; into *t where along it (0..1) the
 * nearest point is, before clamping. */
static double
off_segment(const double p[2], const double l[4], double *t)
{
	double dx = l[2] - l[0], dy = l[3] - l[1], u;

	*t = ((p[0] - l[0]) * dx + (p[1] - l[1]) * dy) / (dx * dx + dy * dy);
	u = *t < 0 ? 0 : *t > 1 ? 1 : *t;
	return hypot(p[0] - (l[0] + u * dx), p[1] - (l[1] + u * dy));
}

/* The mark of a failed move sits on its own arrow, back from where it
 * ends: two moves into Venice, Austria's that dislodges and Italy's that
 * fails, and no mark may read as Austria's (the dislodged Venice's is on
 * its ring away from it); a cut support's mark not on the move it
 * supported, which worked. */
static void
test_render_fail_mark_on_own_arrow(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	static const char pos[] = "phase Spring 1901 Movement\nunit Austria A tyr\nunit Austria F tri\n"
				  "unit Italy A ven\nunit Italy A apu\nunit Austria F adr\n"
				  "unit Germany A ber\nunit Germany A mun\nunit France A bur\n";
	static const char failed[] = "//s:g[@id='orders']/s:line[@class='o f']",
			  worked[] = "//s:g[@id='orders']/s:line[@class='o']";
	double l[4], p[2], t;
	struct buf err;
	xmlDocPtr doc;
	int j, k;

	(void)state;
	buf_init(&err, 4096);
	if (board_read(&s->b, m, pos, strlen(pos), &err) < 0)
		fail_msg("board_read: %s", buf_str(&err));
	buf_free(&err);
	scene_order(s, "Austria: A tyr - ven");
	scene_order(s, "Austria: F tri S A tyr - ven");
	scene_order(s, "Italy: A ven H");
	scene_order(s, "Italy: A apu - ven");
	scene_order(s, "Austria: F adr - apu");		/* bounces: Apulia stays where it is */
	scene_order(s, "Germany: A ber - sil");		/* works */
	scene_order(s, "Germany: A mun S A ber - sil");	/* cut by Burgundy */
	scene_order(s, "France: A bur - mun");
	scene_resolve(s);
	doc = render_scene(s);
	/* Marks: the three failed moves (Italy's, Austria's fleet's, France's),
	 * the dislodged Venice's hold and Munich's cut support. */
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='fx']"), 5);
	assert_int_equal(count(doc, failed), 3);
	for (k = 1; k <= 3; k++) {
		bool on = false;
		line_at(doc, failed, k, l);
		/* A mark on this line, at least 6 px back from its end (behind its head). */
		for (j = 1; j <= 5; j++) {
			mark_at(doc, j, p);
			if (off_segment(p, l, &t) < 0.5 && t >= 0 && t <= 1 &&
			    hypot(p[0] - l[2], p[1] - l[3]) >= 6)
				on = true;
		}
		if (!on)
			fail_msg("failed move %d (%.1f,%.1f to %.1f,%.1f) has no mark on its own arrow "
				 "back from its end", k, l[0], l[1], l[2], l[3]);
	}
	/* No mark on a move that worked (Tyrolia's, which dislodges Venice;
	 * Berlin's, which Munich's cut support supported). */
	assert_int_equal(count(doc, worked), 2);
	for (j = 1; j <= 2; j++) {
		line_at(doc, worked, j, l);
		for (k = 1; k <= 5; k++) {
			mark_at(doc, k, p);
			if (off_segment(p, l, &t) < 9)
				fail_msg("failed-order mark %d at %.1f,%.1f lies on a move that worked",
				    k, p[0], p[1]);
		}
	}
	xmlFreeDoc(doc);
	free(s);
}

static void
test_render_convoy(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	xmlDocPtr doc;

	(void)state;
	board_init_empty(&s->b, 1901, SEASON_FALL, PHASE_MOVEMENT);
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "England"), map_find_location(m, "yor"));
	board_add_unit(&s->b, UNIT_FLEET, map_find_power(m, "England"), map_find_location(m, "nth"));
	scene_order(s, "England: A yor - nwy via convoy");
	scene_order(s, "England: F nth C A yor - nwy");
	scene_resolve(s);
	assert_int_equal(s->res.reason[0], R_OK);
	doc = render_scene(s);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='o cv' and "
				    "starts-with(@marker-end,'url(#dot')]"), 1);
	/* The straight line from York to Norway would cross the North Sea's
	 * name: the arrow bends round it, a quadratic curve. */
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:path[@class='o' and contains(@d,'Q') "
				    "and starts-with(@marker-end,'url(#ah')]"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:line[@class='o']"), 0);
	xmlFreeDoc(doc);
	free(s);
}

static void
test_render_dislodged_and_retreats(void **state)
{
	const struct map *m = test_standard_map();
	const struct geometry *g = test_standard_geometry();
	struct render_input in;
	struct scene *s = calloc(1, sizeof *s);
	struct board next;
	struct rules r;
	loc_id opt[16];
	char expr[160];
	xmlDocPtr doc;
	int n;

	(void)state;
	scene_burgundy(s);
	scene_resolve(s);
	/* The map of the orders marks the unit that was dislodged. */
	doc = render_scene(s);
	assert_int_equal(count(doc, "//s:g[@id='units']/s:g[@class='u dl']"), 1);
	xmlFreeDoc(doc);
	/* The position after: the German army set off, with its ways out. */
	next = s->res.after;
	rules_init(&r, EDITION_2023);
	phase_next(m, &r, &next);
	assert_int_equal(next.phase, PHASE_RETREAT);
	assert_int_equal(next.ndislodged, 1);
	memset(&in, 0, sizeof in);
	in.board = &next;
	in.retreat_options = true;
	doc = render_doc(&in);
	snprintf(expr, sizeof expr, "//s:g[@id='units']/s:g[@class='u dl' and "
				    "@transform='translate(%.1f %.1f)']",
	    layout_dislodged_at(m, g, next.dislodged[0].unit.loc).x,
	    layout_dislodged_at(m, g, next.dislodged[0].unit.loc).y);
	assert_int_equal(count(doc, expr), 1);
	n = adj_retreat_options(m, &next, &next.dislodged[0], opt);
	assert_true(n > 0);
	/* An arrow to each, straight or bent round a name. */
	assert_int_equal(count(doc, "//s:g[@id='orders']/*[@class='o op' and @marker-end and "
				    "(self::s:line or self::s:path)]"), n);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:circle[@class='o op']"), n);
	assert_int_equal(count(doc, "//s:g[@id='title']/s:text[.='Spring 1901 Retreat']"), 1);
	xmlFreeDoc(doc);
	free(s);
}

/* A retreat's results: every dislodged unit destroyed (two retreating to the
 * same place, one with no order) is crossed out as the key's "removed" unit
 * is, where it is drawn; one that retreated is not. */
static void
test_render_retreat_destroyed(void **state)
{
	const struct map *m = test_standard_map();
	const struct geometry *g = test_standard_geometry();
	struct scene *s = calloc(1, sizeof *s);
	power_id ger = map_find_power(m, "Germany");
	static const char *const gone[] = { "hol", "mun", "ber" };
	char expr[200];
	xmlDocPtr doc;
	int i;

	(void)state;
	board_init_empty(&s->b, 1902, SEASON_FALL, PHASE_RETREAT);
	board_add_unit(&s->b, UNIT_FLEET, map_find_power(m, "England"), map_find_location(m, "hol"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "mun"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "Russia"), map_find_location(m, "ber"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "Italy"), map_find_location(m, "tri"));
	s->b.ndislodged = 4;
	for (i = 0; i < 3; i++)
		s->b.dislodged[i] = (struct dislodged){ { UNIT_ARMY, ger,
		    map_find_location(m, gone[i]) }, PROV_NONE };
	s->b.dislodged[3] = (struct dislodged){ { UNIT_ARMY, map_find_power(m, "Austria"),
	    map_find_location(m, "tri") }, PROV_NONE };
	scene_order(s, "Germany: A hol - ruh");
	scene_order(s, "Germany: A mun - ruh");
	scene_order(s, "Austria: A tri - vie");
	scene_resolve(s);
	assert_int_equal(s->res.reason[0], R_RETREAT_BOUNCED);
	assert_int_equal(s->res.reason[2], R_OK);
	doc = render_scene(s);
	for (i = 0; i < 4; i++) {
		struct geo_point at = layout_dislodged_at(m, g, s->b.dislodged[i].unit.loc);
		snprintf(expr, sizeof expr, "//s:g[@id='marks']/s:path[@class='x' and "
					    "starts-with(@d,'M%.1f,%.1f')]", at.x - 7, at.y - 7);
		assert_int_equal(count(doc, expr), i < 3 ? 1 : 0);
	}
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='x']"), 3);
	xmlFreeDoc(doc);
	free(s);
}

static void
test_render_adjustments(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	xmlDocPtr doc;

	(void)state;
	board_init_start(&s->b, m);
	s->b.season = SEASON_WINTER;
	s->b.phase = PHASE_ADJUSTMENT;
	s->b.year = 1901;
	board_remove_unit(&s->b, board_unit_in(&s->b, m, map_find_province(m, "par")));
	s->b.owner[map_find_province(m, "bel")] = map_find_power(m, "France");
	scene_order(s, "France: build A par");
	scene_order(s, "France: build F mar");	/* occupied: refused, dashed and marked */
	scene_resolve(s);
	doc = render_scene(s);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:circle[@class='o bd']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:circle[@class='o bd f']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='fx']"), 1);
	/* Each build shows the unit built: an army's block, a fleet's ship. */
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:g[contains(@class,'u bu')]/s:rect"), 1);
	assert_int_equal(count(doc, "//s:g[@id='orders']/s:g[contains(@class,'u bu')]/s:path"), 1);
	xmlFreeDoc(doc);
	free(s);
}

/* A unit removed is crossed out over it, dark on a light edge, which
 * stands out on every power's colour (not the power's own colour, which
 * vanishes on its unit); so are the judge's removals in civil disorder. */
static void
test_render_removal(void **state)
{
	const struct map *m = test_standard_map();
	const struct geometry *g = test_standard_geometry();
	struct scene *s = calloc(1, sizeof *s);
	power_id fra = map_find_power(m, "France");
	char expr[200], colour[8];
	xmlDocPtr doc;
	int p;

	(void)state;
	board_init_start(&s->b, m);
	s->b.season = SEASON_WINTER;
	s->b.phase = PHASE_ADJUSTMENT;
	s->b.owner[map_find_province(m, "mar")] = map_find_power(m, "Italy");
	s->b.owner[map_find_province(m, "lon")] = POWER_NONE;
	s->b.owner[map_find_province(m, "edi")] = POWER_NONE;
	scene_order(s, "France: remove A mar");
	scene_resolve(s);
	assert_int_equal(s->res.reason[0], R_OK);
	assert_true(s->res.nremoved > 0);	/* England's, in disorder */
	doc = render_scene(s);
	assert_int_equal(count(doc, "//s:g[@id='orders']/*"), 0);
	assert_int_equal(count(doc, "/s:svg/s:g[@id='units']/following-sibling::s:g[@id='marks']"), 1);
	snprintf(expr, sizeof expr, "//s:g[@id='marks']/s:path[@class='x' and "
				    "starts-with(@d,'M%.1f,%.1f')]",
	    g->unit[map_find_location(m, "mar")].x - 7, g->unit[map_find_location(m, "mar")].y - 7);
	assert_int_equal(count(doc, expr), 1);
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='x']"), 1 + s->res.nremoved);
	assert_int_equal(count(doc, "//s:g[@id='marks']/s:path[@class='oo']"), 1 + s->res.nremoved);
	render_power_colour(m, fra, colour);
	assert_string_not_equal(attr_of(doc, expr, "stroke"), colour);
	for (p = 0; p < m->npowers; p++) {
		render_power_colour(m, (power_id)p, colour);
		assert_true(render_contrast(attr_of(doc, expr, "stroke"), colour) >= 3.0 ||
		    render_contrast(attr_of(doc, "//s:g[@id='marks']/s:path[@class='oo']", "stroke"),
			colour) >= 3.0);
	}
	xmlFreeDoc(doc);
	free(s);
}

/* Every variant (the shipped boards and the test ones): a power whose
 * colour has less than 3:1 against neutral land or a neutral centre's
 * marker gets an outline that has it against both; drawn, its centres'
 * dots and its units carry that outline, and a neutral centre has no dot. */
/* Call fn with the variant file of each variant in maps/ and its drawing
 * (NULL when it has none). Returns how many. */
static int
each_variant(void (*fn)(const char *path, const char *drawing))
{
	DIR *d = opendir("maps");
	struct dirent *e;
	char path[512], drawing[512];
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "maps/%s/variant.xml", e->d_name);
		snprintf(drawing, sizeof drawing, "maps/%s/map.svg", e->d_name);
		if (!fs_exists(path))
			continue;
		fn(path, fs_exists(drawing) ? drawing : NULL);
		n++;
	}
	closedir(d);
	return n;
}

static void
check_variant_colours(const char *path, const char *drawing)
{
	struct map *m = test_load_map(path);
	struct geometry *g;
	struct board b;
	char c[8], expr[200];
	xmlDocPtr doc;
	int p, q, owned = 0;

	for (p = 0; p < m->npowers; p++) {
		render_power_colour(m, (power_id)p, c);
		if (render_contrast(c, render_neutral_colour(false)) >= 3.0 &&
		    render_contrast(c, render_neutral_colour(true)) >= 3.0) {
			assert_false(render_outlined(m, (power_id)p));
			continue;
		}
		if (!render_outlined(m, (power_id)p))
			fail_msg("%s: %s (%s) passes for neutral", path, m->powers[p].name, c);
	}
	assert_true(render_contrast(render_outline_colour(), render_neutral_colour(false)) >= 3.0);
	assert_true(render_contrast(render_outline_colour(), render_neutral_colour(true)) >= 3.0);
	if (drawing == NULL) {
		map_free(m);
		return;
	}
	g = test_load_geometry(m, drawing);
	board_init_start(&b, m);
	doc = render_board(m, g, &b);
	for (q = 0; q < m->nprovs; q++) {
		power_id o = b.owner[q];
		if (!m->provs[q].supply)
			continue;
		snprintf(expr, sizeof expr, "//s:g[@id='centres']/s:circle[@cx='%.1f' and @cy='%.1f']",
		    g->centre[q].x, g->centre[q].y);
		if (o == POWER_NONE) {
			assert_int_equal(count(doc, expr), 1);
			continue;
		}
		owned++;
		assert_int_equal(count(doc, expr), 2);
		snprintf(expr + strlen(expr), sizeof expr - strlen(expr), "[2]");
		assert_string_equal(attr_of(doc, expr, "class"), render_outlined(m, o) ? "cd" : "");
	}
	assert_true(owned > 0);
	for (p = 0; p < b.nunits; p++) {
		snprintf(expr, sizeof expr, "//s:g[@id='units']/s:g[@transform='translate(%.1f %.1f)']",
		    g->unit[b.units[p].loc].x, g->unit[b.units[p].loc].y);
		assert_string_equal(attr_of(doc, expr, "class"),
		    render_outlined(m, b.units[p].power) ? "u pl" : "u");
	}
	snprintf(expr, sizeof expr, "//s:style[contains(.,'.cd{stroke:%s') and "
				    "contains(.,'.pl{stroke:%s')]", render_outline_colour(),
	    render_outline_colour());
	assert_int_equal(count(doc, expr), 1);
	xmlFreeDoc(doc);
	geometry_free(g);
	map_free(m);
}

/* The colour of property ("stroke:") that the map's style sheet gives in
 * rule (".dl{"), "#rrggbb" (static buffer); the test fails when there is none. */
static const char *
style_colour(xmlDocPtr doc, const char *property, const char *rule)
{
	static char out[8];
	xmlXPathContextPtr x = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	const char *p;

	xmlXPathRegisterNs(x, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression((const xmlChar *)"string(//s:style)", x);
	assert_non_null(r);
	p = strstr((const char *)r->stringval, rule);
	if (p != NULL)
		p = strstr(p, property);
	if (p == NULL || strchr(strstr((const char *)r->stringval, rule), '}') < p)
		fail_msg("no %s in %s in the style sheet", property, rule);
	snprintf(out, sizeof out, "%s", p + strlen(property));
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
	return out;
}

/* Every variant: each power's dislodged unit keeps its mark visible, the
 * red of the mark 3:1 or more against what lies inside it (the power's
 * own colour, unless the mark is set on a plate of its own). */
static void
check_variant_dislodged(const char *path, const char *drawing)
{
	struct map *m = test_load_map(path);
	struct geometry *g;
	struct board b;
	char expr[240], plate[280], colour[8], mark[8];
	const char *st;
	xmlDocPtr doc;
	int i;

	if (drawing == NULL) {
		map_free(m);
		return;
	}
	g = test_load_geometry(m, drawing);
	board_init_start(&b, m);
	b.phase = PHASE_RETREAT;
	for (i = 0; i < b.nunits; i++)
		b.dislodged[i] = (struct dislodged){ b.units[i], PROV_NONE };
	b.ndislodged = (uint16_t)b.nunits;
	b.nunits = 0;
	doc = render_board(m, g, &b);
	for (i = 0; i < b.ndislodged; i++) {
		struct geo_point at = layout_dislodged_at(m, g, b.dislodged[i].unit.loc);
		snprintf(expr, sizeof expr, "(//s:g[@id='units']/s:g[@class='u dl' and "
					    "@transform='translate(%.1f %.1f)'])[1]", at.x, at.y);
		assert_int_equal(count(doc, expr), 1);
		snprintf(plate, sizeof plate, "%s/*[@class='dlp']", expr);
		if (count(doc, plate) == 1) {
			snprintf(mark, sizeof mark, "%s", style_colour(doc, "stroke:", ".dlp{"));
			snprintf(colour, sizeof colour, "%s", style_colour(doc, "fill:", ".dlp{"));
		} else {
			/* The mark is the unit's own edge, in the style sheet. */
			render_power_colour(m, b.dislodged[i].unit.power, colour);
			st = style_colour(doc, "stroke:", ".dl{");
			snprintf(mark, sizeof mark, "%s", st);
		}
		if (render_contrast(mark, colour) < 3.0)
			fail_msg("%s: %s's dislodged unit: mark %s on %s", path,
			    m->powers[b.dislodged[i].unit.power].name, mark, colour);
	}
	xmlFreeDoc(doc);
	geometry_free(g);
	map_free(m);
}

static void
test_render_dislodged_contrast(void **state)
{
	(void)state;
	assert_true(each_variant(check_variant_dislodged) >= 3);
}

static void
test_render_light_colours(void **state)
{
	struct map *m = test_load_map("maps/muna/variant.xml");
	DIR *d;
	struct dirent *e;
	char path[512];
	int n;

	(void)state;
	/* Poland, white by the rulebook, is one. */
	assert_true(render_outlined(m, map_find_power(m, "Poland")));
	map_free(m);
	n = each_variant(check_variant_colours);
	d = opendir("tests/variants");
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
			continue;
		snprintf(path, sizeof path, "tests/variants/%s", e->d_name);
		check_variant_colours(path, NULL);
		n++;
	}
	closedir(d);
	assert_true(n >= 6);
}

/* The box of path data d ("M x,y l dx,dy ... z", rings of absolute starts
 * and relative steps) into box (x0, y0, x1, y1), read here on its own. */
static void
path_box(const char *d, double box[4])
{
	double x = 0, y = 0;
	char cmd = 0;
	bool first = true;

	while (*d) {
		char *end;
		double a, b;
		if (*d == 'M' || *d == 'l' || *d == 'z') {
			cmd = *d++;
			continue;
		}
		if (*d == ' ' || *d == ',' || *d == '\n') {
			d++;
			continue;
		}
		a = strtod(d, &end);
		assert_true(end != d);
		d = end;
		while (*d == ' ' || *d == ',')
			d++;
		b = strtod(d, &end);
		assert_true(end != d);
		d = end;
		x = cmd == 'M' ? a : x + a;
		y = cmd == 'M' ? b : y + b;
		cmd = cmd == 'M' ? 'l' : cmd;
		if (first || x < box[0])
			box[0] = x;
		if (first || y < box[1])
			box[1] = y;
		if (first || x > box[2])
			box[2] = x;
		if (first || y > box[3])
			box[3] = y;
		first = false;
	}
}

/* The map of variant path (drawing its map.svg, if it has one) with its
 * key where it covers no land province: the key's box overlaps no land
 * province's outline box, and lies on the drawing. */
static void
check_key_off_land(const char *path, const char *drawing)
{
	struct map *m;
	struct geometry *g;
	struct board b;
	xmlDocPtr doc;
	double x, y, w, h, box[4];
	int q;

	if (drawing == NULL)	/* a variant with no board (the World Game) */
		return;
	m = test_load_map(path);
	g = test_load_geometry(m, drawing);
	board_init_start(&b, m);
	doc = render_board(m, g, &b);
	x = strtod(attr_of(doc, "//s:g[@id='legend']/s:rect[@class='box']", "x"), NULL);
	y = strtod(attr_of(doc, "//s:g[@id='legend']/s:rect[@class='box']", "y"), NULL);
	w = strtod(attr_of(doc, "//s:g[@id='legend']/s:rect[@class='box']", "width"), NULL);
	h = strtod(attr_of(doc, "//s:g[@id='legend']/s:rect[@class='box']", "height"), NULL);
	assert_true(w > 100 && h > 100);
	assert_true(x >= g->min_x && y >= g->min_y && x + w <= g->min_x + g->width &&
	    y + h <= g->min_y + g->height);
	for (q = 0; q < m->nprovs; q++) {
		if (m->provs[q].terrain == TERRAIN_SEA)
			continue;
		path_box(g->shape[q], box);
		if (x < box[2] && x + w > box[0] && y < box[3] && y + h > box[1])
			fail_msg("%s: the key (%g,%g %gx%g) covers %s (%g,%g to %g,%g)", path, x, y, w,
			    h, m->provs[q].name, box[0], box[1], box[2], box[3]);
	}
	xmlFreeDoc(doc);
	geometry_free(g);
	map_free(m);
}

/* On every variant's map the key lies on open water, off the land. */
static void
test_render_key_off_land(void **state)
{
	(void)state;
	assert_true(each_variant(check_key_off_land) >= 3);
}

static void
test_render_full_buffer(void **state)
{
	struct render_input in;
	struct board b;
	struct buf out;

	(void)state;
	board_init_start(&b, test_standard_map());
	memset(&in, 0, sizeof in);
	in.board = &b;
	buf_init(&out, 1000);
	assert_int_equal(render_svg(test_standard_map(), test_standard_geometry(), &in, &out), -1);
	buf_free(&out);
}

static void
test_pages_names_and_urls(void **state)
{
	struct board b;
	struct buf u;
	char code[16];

	(void)state;
	assert_true(pages_name_ok("spring-league_2025.1"));
	assert_false(pages_name_ok(""));
	assert_false(pages_name_ok(".hidden"));
	assert_false(pages_name_ok("../etc"));
	assert_false(pages_name_ok("a/b"));
	assert_false(pages_name_ok("a b"));
	pages_name_from("game_10070.txt", 10, code, sizeof code);
	assert_string_equal(code, "game_10070");
	pages_name_from("my game!", 8, code, sizeof code);
	assert_string_equal(code, "my-game-");
	pages_name_from(".x", 2, code, sizeof code);
	assert_string_equal(code, "game");
	board_init_empty(&b, 1901, SEASON_SPRING, PHASE_MOVEMENT);
	assert_string_equal(pages_phase_code(&b, code, sizeof code), "S1901M");
	board_init_empty(&b, 1907, SEASON_FALL, PHASE_RETREAT);
	assert_string_equal(pages_phase_code(&b, code, sizeof code), "F1907R");
	board_init_empty(&b, 1907, SEASON_WINTER, PHASE_ADJUSTMENT);
	assert_string_equal(pages_phase_code(&b, code, sizeof code), "W1907A");
	buf_init(&u, 1024);
	pages_phase_url("https://example.org/games", "demo", &b, &u);
	assert_string_equal(buf_str(&u), "https://example.org/games/demo/W1907A.html");
	buf_reset(&u);
	pages_phase_url("https://example.org/games/", "demo", &b, &u);
	assert_string_equal(buf_str(&u), "https://example.org/games/demo/W1907A.html");
	buf_reset(&u);
	pages_phase_url(NULL, "demo", &b, &u);
	assert_string_equal(buf_str(&u), "demo/W1907A.html");
	buf_free(&u);
}

/* Nodes of an HTML page matching an XPath expression. */
static int
count_html(const char *html, size_t len, const char *expr)
{
	htmlDocPtr doc = htmlReadMemory(html, (int)len, "page.html", "UTF-8",
	    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	xmlXPathContextPtr x;
	xmlXPathObjectPtr r;
	int n;

	assert_non_null(doc);
	x = xmlXPathNewContext(doc);
	r = xmlXPathEvalExpression((const xmlChar *)expr, x);
	if (r == NULL)
		fail_msg("bad XPath %s", expr);
	n = r && r->nodesetval ? r->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
	xmlFreeDoc(doc);
	return n;
}

/* An HTML page must parse without errors and give every image an alt text. */
static void
check_html(const char *html, size_t len)
{
	htmlDocPtr doc = htmlReadMemory(html, (int)len, "page.html", "UTF-8",
	    HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
	xmlXPathContextPtr x;
	xmlXPathObjectPtr r;
	int i;

	assert_non_null(doc);
	x = xmlXPathNewContext(doc);
	r = xmlXPathEvalExpression((const xmlChar *)"//img", x);
	assert_true(r->nodesetval && r->nodesetval->nodeNr > 0);
	for (i = 0; i < r->nodesetval->nodeNr; i++) {
		xmlChar *alt = xmlGetProp(r->nodesetval->nodeTab[i], (const xmlChar *)"alt");
		assert_non_null(alt);
		assert_true(strlen((const char *)alt) > 20);
		xml_free(alt);
	}
	xmlXPathFreeObject(r);
	r = xmlXPathEvalExpression((const xmlChar *)"//script", x);
	assert_true(r->nodesetval == NULL || r->nodesetval->nodeNr == 0);
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(x);
	xmlFreeDoc(doc);
}

/* The page of a resolved scene s: ph its phase, the position after it (on
 * to the next phase) in next, pg a one-phase game "demo" standing there. */
static void
scene_page(struct scene *s, struct board *next, struct page_phase *ph, struct page_game *pg)
{
	struct rules r;

	*next = s->res.after;
	rules_init(&r, EDITION_2023);
	phase_next(test_standard_map(), &r, next);
	memset(ph, 0, sizeof *ph);
	ph->before = &s->b;
	ph->orders = s->o;
	ph->norders = s->n;
	ph->res = &s->res;
	ph->after = next;
	memset(pg, 0, sizeof *pg);
	pg->name = "demo";
	pg->current = next;
	pg->phases = ph;
	pg->nphases = 1;
}

static void
test_pages(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	struct page_phase ph;
	struct page_game pg;
	struct board next;
	struct rules r;
	struct buf html, err, css;
	char dir[] = "/tmp/pouch-pages-XXXXXX", path[4200];
	const char *want[] = { "F1901M.html", "S1901M-after.svg", "S1901M.html", "S1901M.svg",
		"current.svg", "index.html", "style.css", "start.html", "start.svg" };
	DIR *d;
	struct dirent *e;
	int nfiles = 0;

	(void)state;
	board_init_start(&s->b, m);
	scene_order(s, "France: A par - bur");
	scene_order(s, "Austria: A vie - gal");
	scene_order(s, "Russia: A war - gal");
	scene_resolve(s);
	scene_page(s, &next, &ph, &pg);
	rules_init(&r, EDITION_2023);
	pg.title = "Demo <game> & co";
	pg.base_url = "https://example.org/games";
	pg.deadline = "Orders for Fall 1901 are due on Friday.";

	buf_init(&html, 1u << 20);
	assert_int_equal(pages_phase_html(m, &pg, 0, &html), 0);
	check_html(buf_str(&html), html.len);
	assert_non_null(strstr(buf_str(&html), "Army Paris -&gt; Burgundy."));
	assert_non_null(strstr(buf_str(&html), "<td class=\"fail\">bounce</td>"));
	/* England gave no orders: said in the results mail's words, in a
	 * neutral style across both columns, not "succeeded". */
	assert_non_null(strstr(buf_str(&html), "England</td><td colspan=\"2\" class=\"none\">"
	    "no orders; all units hold.</td>"));
	assert_null(strstr(buf_str(&html), "no orders; all units hold.</td><td class=\"ok\">"));
	assert_non_null(strstr(buf_str(&html), "Demo &lt;game&gt; &amp; co"));
	assert_non_null(strstr(buf_str(&html), "src=\"S1901M.svg\""));
	/* The first phase's page leads back to the starting position. */
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//nav/a[@href='start.html' and @rel='prev']"), 1);
	assert_non_null(strstr(buf_str(&html), "src=\"S1901M-after.svg\""));
	/* The standard board's key: convoys, no boarding, stacks or seats. */
	assert_non_null(strstr(buf_str(&html), "<li><b>Convoy</b>"));
	assert_null(strstr(buf_str(&html), "<li><b>On board</b>"));
	assert_null(strstr(buf_str(&html), "Capitals and naval bases"));
	assert_null(strstr(buf_str(&html), "one power in the province"));
	/* One map at a time: two radio buttons labelled as tabs, the orders
	 * checked, each before the views it shows (style.css: input:checked ~ view). */
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//div[@class='views']/input[@type='radio' and @name='view']"), 2);
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//div[@class='views']/input[@checked]"), 1);
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//input[@id='v-orders' and @checked]/following-sibling::label[1][@for='v-orders' and "
	    ".='Orders']/following-sibling::input[@id='v-after']/following-sibling::label[1]"
	    "[@for='v-after' and .='Afterwards']"), 1);
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//input[@id='v-after']/following-sibling::div[@class='view vo']//img[@src='S1901M.svg']"),
	    1);
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//input[@id='v-after']/following-sibling::div[@class='view va']"
	    "//img[@src='S1901M-after.svg']"), 1);
	assert_int_equal(count_html(buf_str(&html), html.len, "//img"), 2);
	/* Under the maps, a key to their marks, in words. */
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//div[@class='views']/following-sibling::details[@class='key']/ul/li/b"), 10);
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//details[@class='key']//li[b='Failed' and contains(.,'dark cross')]"), 1);
	/* With the reasons (adj_resolve_why): under each order that failed, a
	 * row of its own saying why. */
	{
		struct phase_why *why = calloc(1, sizeof *why);
		struct phase_result *res = calloc(1, sizeof *res);
		assert_non_null(why);
		assert_non_null(res);
		adj_resolve_why(m, &r, &s->b, NULL, s->o, s->n, res, why);
		ph.res = res;
		ph.why = why;
		buf_reset(&html);
		assert_int_equal(pages_phase_html(m, &pg, 0, &html), 0);
		check_html(buf_str(&html), html.len);
		assert_non_null(strstr(buf_str(&html), "Army Vienna -&gt; Galicia.</td>"
		    "<td class=\"fail\">bounce</td></tr>\n<tr class=\"why\"><td></td>"
		    "<td colspan=\"2\">bounced: the Russian army in Warsaw also moved to Galicia: "
		    "equal strength, 1 against 1.</td></tr>"));
		assert_int_equal(count_html(buf_str(&html), html.len, "//tr[@class='why']"), 2);
		ph.res = &s->res;
		ph.why = NULL;
		free(res);
		free(why);
	}
	buf_reset(&html);
	assert_int_equal(pages_index_html(m, &pg, &html), 0);
	check_html(buf_str(&html), html.len);
	assert_non_null(strstr(buf_str(&html), "Orders for Fall 1901 are due on Friday."));
	assert_non_null(strstr(buf_str(&html), "<a href=\"S1901M.html\">Spring 1901 Movement</a>"));
	buf_free(&html);
	buf_init(&html, 2000);	/* too small for a page */
	assert_int_equal(pages_phase_html(m, &pg, 0, &html), -1);
	buf_free(&html);

	/* The files: named by nothing but the game and the phase. */
	buf_init(&css, 1 << 16);
	assert_non_null(mkdtemp(dir));
	buf_init(&err, 1 << 16);
	assert_int_equal(pages_write_game(dir, m, test_standard_geometry(), &pg, &err), 0);
	/* A second phase written later, as the judge does. */
	{
		struct page_phase two[2];
		two[0] = ph;
		two[1] = ph;
		two[1].before = &next;
		pg.phases = two;
		pg.nphases = 2;
		assert_int_equal(pages_write_phase(dir, m, test_standard_geometry(), &pg, 1, &err), 0);
		pg.phases = &ph;
		pg.nphases = 1;
	}
	snprintf(path, sizeof path, "%s/demo", dir);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t k;
		int known = 0;
		if (e->d_name[0] == '.')
			continue;
		for (k = 0; k < sizeof want / sizeof want[0]; k++)
			known |= strcmp(e->d_name, want[k]) == 0;
		known |= strcmp(e->d_name, "F1901M.svg") == 0 || strcmp(e->d_name, "F1901M-after.svg") == 0;
		if (!known)
			fail_msg("unexpected file %s", e->d_name);
		snprintf(path, sizeof path, "%s/demo/%s", dir, e->d_name);
		if (strcmp(e->d_name, "style.css") == 0)
			assert_int_equal(fs_read_file(path, &css), 0);
		remove(path);
		nfiles++;
	}
	closedir(d);
	assert_int_equal(nfiles, 11);
	assert_non_null(strstr(buf_str(&css), "#v-orders:checked~.vo,#v-after:checked~.va{display:block}"));
	assert_non_null(strstr(buf_str(&css), ".views>.view{display:none}"));
	/* Printed: one A4 page, the map of the orders alone, its colours kept
	 * for a colour printer, and the key's line for a grey print shown. */
	assert_non_null(strstr(buf_str(&css), "@page{size:A4;"));
	assert_non_null(strstr(buf_str(&css), "@media print{"));
	assert_non_null(strstr(buf_str(&css), "print-color-adjust:exact"));
	assert_null(strstr(buf_str(&css), "grayscale"));
	assert_non_null(strstr(buf_str(&css), ".key .pr{display:list-item}}"));
	assert_non_null(strstr(buf_str(&css), ".views>.va,"));
	buf_free(&css);
	snprintf(path, sizeof path, "%s/demo", dir);
	remove(path);
	remove(dir);
	/* A name that could leave the directory is refused. */
	pg.name = "../x";
	assert_int_equal(pages_write_index(dir, m, test_standard_geometry(), &pg, &err), -1);
	assert_non_null(strstr(buf_str(&err), "cannot name a game's pages"));
	buf_free(&err);
	free(s);
}

/* A Fall movement page whose phase dislodged a unit: the position after it
 * is the Fall's retreat, before the centres change hands and without the
 * dislodged unit, so its table is not called the centres afterwards. */
static void
test_pages_standings_before_retreats(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	struct page_phase ph;
	struct page_game pg;
	struct board next;
	struct buf html;

	(void)state;
	board_init_empty(&s->b, 1901, SEASON_FALL, PHASE_MOVEMENT);
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "bur"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "pic"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "Germany"), map_find_location(m, "bel"));
	scene_order(s, "France: A bur - bel");
	scene_order(s, "France: A pic S A bur - bel");
	scene_resolve(s);
	scene_page(s, &next, &ph, &pg);
	assert_int_equal(next.phase, PHASE_RETREAT);
	pg.title = "Demo";
	buf_init(&html, 1u << 20);
	assert_int_equal(pages_phase_html(m, &pg, 0, &html), 0);
	assert_null(strstr(buf_str(&html), "Supply centres afterwards"));
	assert_int_equal(count_html(buf_str(&html), html.len,
	    "//h2[.='Supply centres before the retreats']/following-sibling::p[1]"
	    "[contains(.,'change hands once the retreats are done') and "
	    "contains(.,'dislodged')]"), 1);
	buf_free(&html);
	free(s);
}

/* Poland's white on the MUNA board: its tint is too close to the neutral land
 * (a contrast below 1.5), so its centres get a dark border, drawn after every
 * other province so that none covers it; coloured powers' centres do not. */
static void
test_render_pale_poland(void **state)
{
	struct map *m = test_load_map("maps/muna/variant.xml");
	struct geometry *g = test_load_geometry(m, "maps/muna/map.svg");
	prov_id war = map_find_province(m, "war"), par = map_find_province(m, "par");
	prov_id bur = PROV_NONE;
	struct board b;
	char tint[8], land[8];
	xmlDocPtr doc;
	int pale = 0, p;

	(void)state;
	for (p = 0; p < m->nprovs && bur == PROV_NONE; p++)
		if (m->provs[p].terrain != TERRAIN_SEA && !m->provs[p].supply)
			bur = (prov_id)p;	/* some neutral land */
	assert_true(war != PROV_NONE && par != PROV_NONE && bur != PROV_NONE);
	board_init_start(&b, m);
	render_province_fill(m, &b, war, tint);
	render_province_fill(m, &b, bur, land);
	assert_true(render_contrast(tint, land) < 1.5);
	assert_true(render_contrast("#000000", "#ffffff") > 20.9);
	assert_true(render_pale(m, &b, war));
	assert_false(render_pale(m, &b, par));
	assert_false(render_pale(m, &b, bur));
	doc = render_board(m, g, &b);
	for (p = 0; p < m->nprovs; p++)
		pale += render_pale(m, &b, (prov_id)p);
	assert_int_equal(pale, board_count_centres(&b, m, map_find_power(m, "Poland")));
	assert_int_equal(count(doc, "//s:g[@id='provinces']/s:path[@class='land pale']"), pale);
	assert_int_equal(count(doc, "//s:g[@id='provinces']/s:path[@class='land pale'][1]"
				    "/following-sibling::s:path[not(@class='land pale' or @class='sb')]"), 0);
	assert_string_equal(attr_of(doc, "//s:path[@id='war']", "class"), "land pale");
	assert_string_equal(attr_of(doc, "//s:path[@id='war']", "fill"), tint);
	assert_string_equal(attr_of(doc, "//s:path[@id='par']", "class"), "land");
	/* The border itself: dark against both the tint and the land. */
	assert_int_equal(count(doc, "//s:style[contains(.,'.pale{stroke:#5e5a50;stroke-width:1.6')]"),
	    1);
	assert_true(render_contrast("#5e5a50", tint) >= 4.5);
	assert_true(render_contrast("#5e5a50", land) >= 3.0);
	/* The committee's rules have convoys and no boarding: so has the key. */
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='convoy']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='on board']"), 0);
	xmlFreeDoc(doc);
	geometry_free(g);
	map_free(m);
}

/* Realpolitik: a stack drawn once with its count, an army on board drawn
 * small on its fleet, every capital and naval base marked (and named in
 * the legend); a board without them has no such marks. The drawing is
 * the standard board's (the variant names it as its geography). */
static void
test_render_realpolitik(void **state)
{
	struct map *m = test_load_map("maps/realpolitik/variant.xml");
	struct geometry *g = test_load_geometry(m, "maps/realpolitik/map.svg");
	struct board b;
	xmlDocPtr doc;
	int i, seats = 0;
	power_id ger = map_find_power(m, "Germany"), eng = map_find_power(m, "England");
	loc_id ber = map_find_location(m, "ber"), nth = map_find_location(m, "nth");

	(void)state;
	assert_string_equal(m->drawing, "standard");
	for (i = 0; i < m->nprovs; i++)
		seats += (m->provs[i].capital != POWER_NONE) + (m->provs[i].naval_base != POWER_NONE);
	assert_true(seats > 14);
	board_init_empty(&b, 1901, SEASON_SPRING, PHASE_MOVEMENT);
	for (i = 0; i < 3; i++)
		board_add_unit(&b, UNIT_ARMY, ger, ber);
	board_add_unit(&b, UNIT_FLEET, eng, nth);
	board_add_unit(&b, UNIT_ARMY, eng, nth);
	b.units[b.nunits - 1].type |= UNIT_ABOARD;
	doc = render_board(m, g, &b);
	/* One army glyph for the three in Berlin, with "×3"; the fleet and
	 * the small army on it. */
	assert_int_equal(count(doc, "//s:g[@id='units']/s:g[@class='u']"), 2);
	assert_int_equal(count(doc, "//s:g[@id='units']/s:text[@class='sk'][.='\u00d73']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='units']/s:rect[@class='u ab']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='seats']/s:path[@class='seat']"), seats);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:path[@class='seat']"), 2);
	/* The key on the drawing: the rulebook's orders. Armies go on board
	 * fleets (a sample arrow onto a small army on a fleet); there are no
	 * convoys. */
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='on board']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='convoy']"), 0);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:rect[@class='u ab']"), 1);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:line[@class='o cv']"), 0);
	assert_int_equal(count(doc, "//s:g[@id='legend']/s:text[.='move' or .='support' or "
				    ".='hold' or .='failed' or .='dislodged' or .='built' "
				    "or .='removed' or .='may retreat']"), 8);
	xmlFreeDoc(doc);
	/* A capital moved (France lost Paris, its capital now Marseilles): the
	 * star drawn there, none in Paris; the page says so in words. */
	{
		power_id cap[MAP_MAX_PROVS], fra = map_find_power(m, "France");
		prov_id par = map_find_province(m, "par"), mar = map_find_province(m, "mar");
		struct geo_point at;
		struct render_input in;
		struct page_phase ph;
		struct page_game pg;
		struct phase_result *res = calloc(1, sizeof *res);
		struct order none[1];
		struct rules rr;
		struct buf out, html;
		char expr[200];

		for (i = 0; i < MAP_MAX_PROVS; i++)
			cap[i] = i < m->nprovs ? m->provs[i].capital : POWER_NONE;
		assert_int_equal(cap[par], fra);
		cap[par] = POWER_NONE;
		cap[mar] = fra;
		memset(&in, 0, sizeof in);
		in.board = &b;
		in.capital = cap;
		buf_init(&out, 16u << 20);
		assert_int_equal(render_svg(m, g, &in, &out), 0);
		doc = xmlReadMemory(buf_str(&out), (int)out.len, "map.svg", NULL, XML_PARSE_NONET);
		assert_non_null(doc);
		at = layout_seat_at(m, g, mar, m->provs[mar].naval_base != POWER_NONE ?
		    LAYOUT_SEAT_CAPITAL : LAYOUT_SEAT_ALONE);
		snprintf(expr, sizeof expr, "//s:g[@id='seats']/s:path[starts-with(@d,'M%.1f,%.1fL')]",
		    at.x, at.y - 5.4);
		assert_int_equal(count(doc, expr), 1);
		at = layout_seat_at(m, g, par, LAYOUT_SEAT_ALONE);
		snprintf(expr, sizeof expr, "//s:g[@id='seats']/s:path[starts-with(@d,'M%.1f,%.1fL')]",
		    at.x, at.y - 5.4);
		assert_int_equal(count(doc, expr), 0);
		assert_int_equal(count(doc, "//s:g[@id='seats']/s:path[@class='seat']"), seats);
		xmlFreeDoc(doc);
		buf_free(&out);
		memset(&ph, 0, sizeof ph);
		memset(&pg, 0, sizeof pg);
		board_init_start(&b, m);
		ph.before = ph.after = &b;
		rules_init(&rr, EDITION_2023);
		rr.resolver = resolver_for(m);
		rr.caps = map_caps(m);
		adj_resolve(m, &rr, &b, none, 0, res, NULL);
		ph.orders = none;
		ph.res = res;
		ph.capital_after = cap;
		pg.name = "rp";
		pg.phases = &ph;
		pg.nphases = 1;
		pg.current = &b;
		buf_init(&html, 1u << 20);
		assert_int_equal(pages_phase_html(m, &pg, 0, &html), 0);
		assert_non_null(strstr(buf_str(&html),
		    "<p class=\"capitals\">France&rsquo;s capitals now: Marseilles (before: Paris).</p>"));
		assert_int_equal(count_html(buf_str(&html), html.len, "//p[@class='capitals']"), 1);
		/* The page's key: boarding, stacks, capitals and naval bases; no convoy. */
		assert_non_null(strstr(buf_str(&html), "<li><b>On board</b>"));
		assert_non_null(strstr(buf_str(&html), "<li><b>Capitals and naval bases</b>"));
		assert_non_null(strstr(buf_str(&html), "one power in the province.</li>"));
		assert_null(strstr(buf_str(&html), "<li><b>Convoy</b>"));
		buf_free(&html);
		free(res);
	}
	/* The standard board: no seats, no legend rows for them. */
	board_init_start(&b, test_standard_map());
	doc = render_board(test_standard_map(), test_standard_geometry(), &b);
	assert_int_equal(count(doc, "//s:path[@class='seat']"), 0);
	xmlFreeDoc(doc);
	geometry_free(g);
	map_free(m);
}

/* Realpolitik: an army that embarks is drawn with an arrow onto its
 * fleet, in its power's colour, and one that lands with an arrow ashore. */
static void
test_render_embark(void **state)
{
	struct map *m = test_load_map("maps/realpolitik/variant.xml");
	struct geometry *g = test_load_geometry(m, "maps/realpolitik/map.svg");
	struct names *nm = names_new(m);
	struct phase_result *res = calloc(1, sizeof *res);
	power_id ger = map_find_power(m, "Germany");
	struct render_input in;
	struct parse_result pr;
	struct parse_ctx pc;
	struct order o[2];
	struct board b;
	struct rules r;
	struct buf out;
	char expr[200];
	xmlDocPtr doc;
	const char *line[2] = { "Germany: A hol - bel on board F bel", "Germany: A den LAND" };
	int i;

	(void)state;
	board_init_empty(&b, 1901, SEASON_SPRING, PHASE_MOVEMENT);
	board_add_unit(&b, UNIT_ARMY, ger, map_find_location(m, "hol"));
	board_add_unit(&b, UNIT_FLEET, ger, map_find_location(m, "bel"));
	board_add_unit(&b, UNIT_FLEET, ger, map_find_location(m, "den"));
	board_add_unit(&b, UNIT_ARMY, ger, map_find_location(m, "den"));
	b.units[b.nunits - 1].type |= UNIT_ABOARD;
	pc = (struct parse_ctx){ m, nm, &b, ger };
	for (i = 0; i < 2; i++) {
		order_parse(&pc, line[i], strlen(line[i]), &pr);
		if (pr.verdict == VERDICT_REFUSED || pr.verdict == VERDICT_BLANK)
			fail_msg("order \"%s\" refused: %s", line[i], pr.note);
		o[i] = pr.order;
	}
	assert_int_equal(o[0].kind, ORDER_EMBARK);
	assert_int_equal(o[1].kind, ORDER_LAND);
	rules_init(&r, EDITION_2023);
	r.resolver = resolver_for(m);
	r.caps = map_caps(m);
	adj_resolve(m, &r, &b, o, 2, res, NULL);
	assert_int_equal(res->reason[0], R_OK);
	memset(&in, 0, sizeof in);
	in.board = &b;
	in.orders = o;
	in.norders = 2;
	in.res = res;
	buf_init(&out, 16u << 20);
	assert_int_equal(render_svg(m, g, &in, &out), 0);
	doc = xmlReadMemory(buf_str(&out), (int)out.len, "map.svg", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	snprintf(expr, sizeof expr, "//s:g[@id='orders']/*[@class='o' and @marker-end='url(#ah%d)']",
	    (int)ger);
	assert_int_equal(count(doc, expr), 1);
	snprintf(expr, sizeof expr, "//s:g[@id='orders']/*[starts-with(@class,'o') and "
				    "@marker-end='url(#ah%d)']", (int)ger);
	assert_int_equal(count(doc, expr), 2);
	xmlFreeDoc(doc);
	buf_free(&out);
	free(res);
	names_free(nm);
	geometry_free(g);
	map_free(m);
}

/* The starting position's page: its map, every power's home centres in
 * words (capitals and naval bases on a board that has them), the
 * standings; written with the index until the first phase is played, and
 * linked from it. */
static void
test_pages_start(void **state)
{
	const struct map *m = test_standard_map();
	struct map *rp = test_load_map("maps/realpolitik/variant.xml");
	char dir[] = "/tmp/pouch-start-XXXXXX", path[4200];
	struct page_game pg;
	struct board b;
	struct buf out, err;

	(void)state;
	buf_init(&out, 1u << 20);
	pages_home_centres(m, map_find_power(m, "Austria"), &out);
	assert_string_equal(buf_str(&out), "Budapest, Trieste and Vienna");
	buf_reset(&out);
	pages_home_centres(rp, map_find_power(rp, "Germany"), &out);
	assert_string_equal(buf_str(&out), "capitals Berlin and Munich; naval base Kiel");
	buf_reset(&out);
	pages_start_url("https://example.org/games/", "g1", &out);
	assert_string_equal(buf_str(&out), "https://example.org/games/g1/start.html");
	buf_reset(&out);
	board_init_start(&b, m);
	memset(&pg, 0, sizeof pg);
	pg.name = "g1";
	pg.current = &b;
	assert_int_equal(pages_start_html(m, &pg, &out), 0);
	check_html(buf_str(&out), out.len);
	assert_int_equal(count_html(buf_str(&out), out.len, "//img[@src='start.svg']"), 1);
	/* No phase played yet: nothing to lead on to. */
	assert_int_equal(count_html(buf_str(&out), out.len, "//nav/a[@rel='next']"), 0);
	assert_int_equal(count_html(buf_str(&out), out.len, "//ul[@class='homes']/li"), 7);
	assert_int_equal(count_html(buf_str(&out), out.len,
	    "//ul[@class='homes']/li[strong='Russia' and "
	    "contains(.,'Moscow, Sevastopol, St Petersburg and Warsaw')]"), 1);
	buf_reset(&out);
	assert_int_equal(pages_index_html(m, &pg, &out), 0);
	assert_int_equal(count_html(buf_str(&out), out.len, "//a[@href='start.html']"), 1);
	/* Written with the index before the first phase. */
	assert_non_null(mkdtemp(dir));
	buf_init(&err, 1 << 16);
	assert_int_equal(pages_write_index(dir, m, test_standard_geometry(), &pg, &err), 0);
	{
		const char *files[] = { "start.html", "start.svg", "index.html", "current.svg",
			"style.css" };
		size_t k;
		for (k = 0; k < sizeof files / sizeof files[0]; k++) {
			snprintf(path, sizeof path, "%s/g1/%s", dir, files[k]);
			assert_true(fs_exists(path));
			assert_int_equal(remove(path), 0);
		}
	}
	snprintf(path, sizeof path, "%s/g1", dir);
	assert_int_equal(remove(path), 0);
	assert_int_equal(remove(dir), 0);
	buf_free(&err);
	buf_free(&out);
	map_free(rp);
}

/* The outlines as maps draw them: whole pixels, repeated points and
 * straight runs merged, no separator before a minus; the border two seas
 * share drawn once, the coast they share with land not at all. */
static void
test_outline(void **state)
{
	/* Two seas side by side (x 0-10 and 10-20) over a land (y 10-20). */
	char a[] = "M0,0l10,0 0,10 -10,0z", b[] = "M10,0l10,0 0,10 -10,0z",
	     c[] = "M0,10l20,0 0,10 -20,0z";
	char *shape[3] = { a, b, c };
	const bool sea[3] = { true, true, false };
	struct buf out;

	(void)state;
	buf_init(&out, 1 << 16);
	assert_int_equal(outline_round("M10.4,20.6l.3,0 .3,0 .3,-.2 -1.1,-.3 0,-1.6z", 1, &out), 0);
	/* 10.4,20.6 to 10,21; 11,21 twice; 11.3,20.4 to 11,20; 10.2,20.1 to 10,20; 10.2,18.5 to 10,19. */
	assert_string_equal(buf_str(&out), "M10,21l1,0 0-1-1,0 0-1z");
	buf_reset(&out);
	assert_int_equal(outline_round("M0,0l1,0 1,0 1,0 0,1z", 1, &out), 0);
	assert_string_equal(buf_str(&out), "M0,0l3,0 0,1z");
	buf_reset(&out);
	assert_int_equal(outline_round("M1,1C2,2 3,3 4,4z", 1, &out), -1);
	assert_int_equal(out.len, 0);
	assert_int_equal(outline_sea_borders(shape, sea, 3, 1, &out), 0);
	assert_string_equal(buf_str(&out), "M10,0l0,10");
	buf_free(&out);
}

/* The busiest phase of variant path (drawn by drawing): every unit of the
 * start ordered to move, each to another of its neighbours (so that many
 * bounce and are marked failed); its map must stay within 80 KB. */
static void
check_busiest_size(const char *path, const char *drawing)
{
	struct map *m;
	struct geometry *g;
	struct board *b;
	struct order *o;
	struct phase_result *res;
	struct render_input in;
	struct rules r;
	struct buf out;
	int u, n = 0, failed = 0;

	if (drawing == NULL)
		return;
	m = test_load_map(path);
	g = test_load_geometry(m, drawing);
	b = calloc(1, sizeof *b);
	o = calloc(BOARD_MAX_UNITS, sizeof *o);
	res = calloc(1, sizeof *res);
	assert_true(b != NULL && o != NULL && res != NULL);
	board_init_start(b, m);
	for (u = 0; u < b->nunits; u++) {
		const struct location *l = &m->locs[b->units[u].loc];
		int t = b->units[u].type;
		if (l->nadj[t] == 0)
			continue;
		memset(&o[n], 0, sizeof o[n]);
		o[n].kind = ORDER_MOVE;
		o[n].power = b->units[u].power;
		o[n].type = (uint8_t)t;
		o[n].loc = b->units[u].loc;
		o[n].target = LOC_NONE;
		o[n].dest = l->adj[t][u % l->nadj[t]];
		n++;
	}
	rules_init(&r, EDITION_2023);
	r.resolver = resolver_for(m);
	adj_resolve(m, &r, b, o, n, res, NULL);
	for (u = 0; u < n; u++)
		failed += res->reason[u] != R_OK;
	assert_true(n >= 20 && failed > 0);
	memset(&in, 0, sizeof in);
	in.board = b;
	in.orders = o;
	in.norders = n;
	in.res = res;
	buf_init(&out, 16u << 20);
	assert_int_equal(render_svg(m, g, &in, &out), 0);
	if (out.len > 80 * 1024)
		fail_msg("%s: the map of a phase of %d orders is %zu bytes, more than 80 KB", path, n,
		    out.len);
	buf_free(&out);
	free(res);
	free(o);
	free(b);
	geometry_free(g);
	map_free(m);
}

/* A phase map for a poor connection: the standard board with an order for
 * every unit and their results in at most 80 KB (it was some 180 KB, most
 * of it the provinces' outlines); so too every variant's busiest phase. */
static void
test_render_size(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	struct render_input in;
	struct buf out;

	(void)state;
	scene_every_unit(s);
	memset(&in, 0, sizeof in);
	in.board = &s->b;
	in.orders = s->o;
	in.norders = s->n;
	in.res = &s->res;
	buf_init(&out, 16u << 20);
	assert_int_equal(render_svg(m, test_standard_geometry(), &in, &out), 0);
	if (out.len > 80 * 1024)
		fail_msg("the map of a phase is %zu bytes, more than 80 KB", out.len);
	buf_free(&out);
	free(s);
	/* And every variant's busiest phase. */
	assert_true(each_variant(check_busiest_size) >= 3);
}

/* The file dir/demo/name into out (emptied first). */
static void
read_page(const char *dir, const char *name, struct buf *out)
{
	char path[4200];

	snprintf(path, sizeof path, "%s/demo/%s", dir, name);
	buf_reset(out);
	if (fs_read_file(path, out) < 0)
		fail_msg("%s: cannot read it", path);
}

/* current.svg is the map of the position now: the same bytes as the last
 * phase's map afterwards when that is the position now (the same board in
 * another copy, the same capitals in another array), and its own drawing
 * when the game stands elsewhere. */
static void
test_pages_current_is_last_after(void **state)
{
	const struct map *m = test_standard_map();
	struct scene *s = calloc(1, sizeof *s);
	struct board next, *now = malloc(sizeof *now), *other = malloc(sizeof *other);
	power_id cap_after[MAP_MAX_PROVS], cap_now[MAP_MAX_PROVS];
	struct page_phase ph;
	struct page_game pg;
	struct render_input in;
	struct buf after, current, drawn, err;
	char dir[] = "/tmp/pouch-current-XXXXXX", path[4200];
	struct stat st, st2;
	struct dirent *e;
	DIR *d;
	int i;

	(void)state;
	scene_burgundy(s);
	scene_resolve(s);
	scene_page(s, &next, &ph, &pg);
	assert_int_equal(next.ndislodged, 1);
	/* The position now in a copy of its own, garbage past its units. */
	memset(now, 0x5a, sizeof *now);
	board_copy(now, &next);
	for (i = 0; i < m->nprovs; i++)
		cap_after[i] = cap_now[i] = m->provs[i].capital;
	ph.capital_after = cap_after;
	pg.current = now;
	pg.capital = cap_now;
	assert_non_null(mkdtemp(dir));
	buf_init(&err, 1 << 16);
	buf_init(&after, 16u << 20);
	buf_init(&current, 16u << 20);
	buf_init(&drawn, 16u << 20);
	assert_int_equal(pages_write_game(dir, m, test_standard_geometry(), &pg, &err), 0);
	read_page(dir, "S1901M-after.svg", &after);
	read_page(dir, "current.svg", &current);
	assert_true(after.len > 0);
	assert_int_equal(current.len, after.len);
	assert_memory_equal(current.data, after.data, after.len);

	/* The game stands elsewhere: current.svg is that position's map. The
	 * style sheet, there already, is left alone; one changed by hand is
	 * written again. */
	board_init_start(other, m);
	pg.current = other;
	snprintf(path, sizeof path, "%s/demo/style.css", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(pages_write_game(dir, m, test_standard_geometry(), &pg, &err), 0);
	assert_int_equal(stat(path, &st2), 0);
	assert_true(st.st_ino == st2.st_ino);
	read_page(dir, "style.css", &drawn);
	assert_int_equal(fs_replace(path, "body{}", 6), 0);
	assert_int_equal(pages_write_played(dir, m, test_standard_geometry(), &pg, 1, false, &err), 0);
	read_page(dir, "style.css", &current);
	assert_int_equal(current.len, drawn.len);
	assert_memory_equal(current.data, drawn.data, drawn.len);
	buf_reset(&drawn);
	read_page(dir, "current.svg", &current);
	memset(&in, 0, sizeof in);
	in.board = other;
	in.retreat_options = true;
	in.capital = cap_now;
	assert_int_equal(render_svg(m, test_standard_geometry(), &in, &drawn), 0);
	assert_int_equal(current.len, drawn.len);
	assert_memory_equal(current.data, drawn.data, drawn.len);
	assert_true(current.len != after.len || memcmp(current.data, after.data, after.len) != 0);
	/* And capitals that moved: drawn where they stand now. */
	pg.current = now;
	cap_now[map_find_province(m, "par")] = map_find_power(m, "Germany");
	assert_int_equal(pages_write_game(dir, m, test_standard_geometry(), &pg, &err), 0);
	read_page(dir, "current.svg", &current);
	in.board = now;
	buf_reset(&drawn);
	assert_int_equal(render_svg(m, test_standard_geometry(), &in, &drawn), 0);
	assert_int_equal(current.len, drawn.len);
	assert_memory_equal(current.data, drawn.data, drawn.len);

	assert_true(current.len != after.len || memcmp(current.data, after.data, after.len) != 0);

	snprintf(path, sizeof path, "%s/demo", dir);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "%s/demo/%s", dir, e->d_name);
		if (e->d_name[0] != '.')
			remove(path);
	}
	closedir(d);
	snprintf(path, sizeof path, "%s/demo", dir);
	remove(path);	/* an empty directory too */
	remove(dir);
	buf_free(&after);
	buf_free(&current);
	buf_free(&drawn);
	buf_free(&err);
	free(now);
	free(other);
	free(s);
}

/* Compare the map in out with the file tests/data/maps/name, byte for
 * byte; REGEN=1 in the environment writes the file instead. */
static void
assert_map_bytes(const struct buf *out, const char *name)
{
	char path[256];
	struct buf want;
	size_t i;

	snprintf(path, sizeof path, "tests/data/maps/%s", name);
	if (getenv("REGEN") && *getenv("REGEN") == '1') {
		assert_int_equal(fs_replace(path, out->data, out->len), 0);
		return;
	}
	buf_init(&want, 16u << 20);
	if (fs_read_file(path, &want) < 0)
		fail_msg("%s: cannot read it (REGEN=1 writes it)", path);
	for (i = 0; i < out->len && i < want.len && out->data[i] == want.data[i]; i++)
		;
	if (i < out->len || i < want.len)
		fail_msg("%s: the map drawn differs from byte %zu on: \"%.60s\" where the file has "
			 "\"%.60s\"", path, i, out->data + i, want.data + (i < want.len ? i : want.len));
	buf_free(&want);
}

/* The bytes of three maps pinned: a busy movement phase with its results
 * (moves, a support, a convoy, failed moves, a dislodged unit), the retreat
 * that follows with where the dislodged units may go, and a Realpolitik
 * start (capitals and naval bases). A change to how maps are written shows
 * here first: the files are what the pages served so far. */
static void
test_render_pinned(void **state)
{
	const struct map *m = test_standard_map();
	struct map *rp = test_load_map("maps/realpolitik/variant.xml");
	struct geometry *rg = test_load_geometry(rp, "maps/realpolitik/map.svg");
	struct scene *s = calloc(1, sizeof *s);
	struct render_input in;
	struct board next;
	struct rules r;
	struct buf out;

	(void)state;
	buf_init(&out, 16u << 20);
	scene_every_unit(s);
	/* Fall: France dislodges the German army in Munich; Russia and
	 * Austria bounce in Rumania; England convoys to Belgium. */
	next = s->res.after;
	rules_init(&r, EDITION_2023);
	phase_next(m, &r, &next);
	s->b = next;
	s->n = 0;
	scene_order(s, "France: A bur - mun");
	scene_order(s, "Italy: A tyr S A bur - mun");
	scene_order(s, "Germany: A mun H");
	scene_order(s, "England: F nth C A yor - bel");
	scene_order(s, "England: A yor - bel");
	scene_order(s, "Russia: A ukr - rum");
	scene_order(s, "Austria: A ser - rum");
	scene_order(s, "France: A mar - gas");
	scene_order(s, "Germany: A kie - hol");
	scene_resolve(s);
	memset(&in, 0, sizeof in);
	in.board = &s->b;
	in.orders = s->o;
	in.norders = s->n;
	in.res = &s->res;
	assert_int_equal(render_svg(m, test_standard_geometry(), &in, &out), 0);
	assert_map_bytes(&out, "standard-orders.svg");

	s->n = 0;
	scene_burgundy(s);
	board_add_unit(&s->b, UNIT_FLEET, map_find_power(m, "Italy"), map_find_location(m, "gol"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "Italy"), map_find_location(m, "pie"));
	board_add_unit(&s->b, UNIT_ARMY, map_find_power(m, "France"), map_find_location(m, "mar"));
	scene_order(s, "Italy: A pie - mar");
	scene_order(s, "Italy: F gol S A pie - mar");
	scene_order(s, "France: A mar H");
	scene_resolve(s);
	next = s->res.after;
	phase_next(m, &r, &next);
	assert_int_equal(next.ndislodged, 2);
	memset(&in, 0, sizeof in);
	in.board = &next;
	in.retreat_options = true;
	buf_reset(&out);
	assert_int_equal(render_svg(m, test_standard_geometry(), &in, &out), 0);
	assert_map_bytes(&out, "standard-retreat.svg");

	board_init_start(&s->b, rp);
	memset(&in, 0, sizeof in);
	in.board = &s->b;
	in.title = "The start";
	buf_reset(&out);
	assert_int_equal(render_svg(rp, rg, &in, &out), 0);
	assert_map_bytes(&out, "realpolitik-start.svg");
	buf_free(&out);
	geometry_free(rg);
	map_free(rp);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_geometry_covers_variant),
		cmocka_unit_test(test_geometry_errors),
		cmocka_unit_test(test_render_start),
		cmocka_unit_test(test_render_unit_colours),
		cmocka_unit_test(test_render_pale_poland),
		cmocka_unit_test(test_render_realpolitik),
		cmocka_unit_test(test_render_orders),
		cmocka_unit_test(test_render_fail_mark_on_own_arrow),
		cmocka_unit_test(test_render_convoy),
		cmocka_unit_test(test_render_dislodged_and_retreats),
		cmocka_unit_test(test_render_retreat_destroyed),
		cmocka_unit_test(test_render_adjustments),
		cmocka_unit_test(test_render_removal),
		cmocka_unit_test(test_render_light_colours),
		cmocka_unit_test(test_render_dislodged_contrast),
		cmocka_unit_test(test_render_embark),
		cmocka_unit_test(test_render_key_off_land),
		cmocka_unit_test(test_render_full_buffer),
		cmocka_unit_test(test_outline),
		cmocka_unit_test(test_render_size),
		cmocka_unit_test(test_render_pinned),
		cmocka_unit_test(test_pages_current_is_last_after),
		cmocka_unit_test(test_pages_names_and_urls),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_pages_standings_before_retreats),
		cmocka_unit_test(test_pages_start),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
