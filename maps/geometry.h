/*
 * geometry.h — the drawing of a board: province shapes and where units,
 * labels and supply centre markers go (maps/NAME/map.svg; the format is in
 * maps/FORMAT.md, "Map geometry").
 *
 * API
 *
 *	struct geometry *g = geometry_open(map, NULL, &err);	// next to the variant
 *	render_svg(map, g, &input, &out);			// as often as needed
 *	geometry_free(g);
 *
 * A geometry is loaded once for a map and checked against it: every
 * province has a shape and a label place, every location (each coast too)
 * a unit place, every supply centre a marker place. It is read-only
 * afterwards (but for its caches of arrow paths, the legend's place and the
 * background's markup) and owns all its strings. Places are in the drawing's user
 * units (the SVG viewBox).
 */
#ifndef POUCH_GEOMETRY_H
#define POUCH_GEOMETRY_H

#include <stddef.h>

#include "../judge/engine/map.h"
#include "../lib/buf.h"

struct _xmlDoc;
struct _xmlNode;

struct geo_point {
	double x, y;
};

/* One arrow's path as layout_arrow_bend chose it (maps/layout.h): the
 * quadratic Bézier curve a, c, b, bent or not. */
struct geo_bend {
	struct geo_point a, b, c;
	unsigned char used, bent;
};

#define GEO_BENDS 4096			/* arrows kept (a power of two) */

struct geometry {
	double width, height;		/* size of the drawing (viewBox width and height) */
	double min_x, min_y;		/* viewBox origin */
	int nprovs;			/* m->nprovs of the map it was checked against */
	int nlocs;			/* m->nlocs */
	char **shape;			/* [prov] SVG path data */
	char **drawn;			/* [prov] the same as maps draw it (outline.h) */
	int grid;			/* the grid of the outlines drawn, in pixels */
	char *sea_borders;		/* the borders between two seas, as maps draw them */
	struct geo_point *label;	/* [prov] centre of the province's name */
	struct geo_point *centre;	/* [prov] supply centre marker (supply centres only) */
	struct geo_point *unit;		/* [loc] where a unit stands */
	struct geo_point title_at;	/* top left corner of the phase title */
	struct geo_point legend_at;	/* bottom left corner of the legend (preferred:
					   layout_legend_at moves it off the land) */
	double (*land)[4];		/* [nland] boxes (x0, y0, x1, y1) of the land: each
					   land province's outline, each ring of the
					   background's impassable shapes */
	int nland;
	struct _xmlDoc *doc;		/* the parsed file */
	struct _xmlNode *background;	/* <g id="background">, copied into every map; may be NULL */
	/* [GEO_BENDS] the arrows laid out so far, by their ends: the only
	 * part that changes after loading, filled as maps are drawn, so that
	 * an arrow's path is looked for once per geometry. */
	struct geo_bend *bends;
	/* [1] where the legend goes (layout_legend_at), found once for its
	 * size: w 0 until then. */
	struct geo_legend {
		double w, h;
		struct geo_point at;
	} *legend;
	/* [1] the background as every map writes it (render.c), made when
	 * the first map is drawn: text NULL until then. */
	struct geo_markup {
		char *text;
		size_t len;
	} *background_markup;
};

/*
 * Parse geometry from memory and check it against m; fname is used in
 * messages ("FILE:LINE: message", one per line, appended to err). Returns
 * the geometry (free with geometry_free) or NULL.
 */
struct geometry *geometry_parse(const struct map *m, const char *data, size_t len,
    const char *fname, struct buf *err);
/* Load a geometry file for m. Returns it or NULL with the reasons in err. */
struct geometry *geometry_load(const struct map *m, const char *path, struct buf *err);
/*
 * The geometry of map m: map.svg in the directory of the variant file it
 * was loaded from, else maps_dir/NAME/map.svg (maps_dir NULL: the default
 * maps directory). Returns it or NULL with the reasons in err.
 */
struct geometry *geometry_open(const struct map *m, const char *maps_dir, struct buf *err);
/* Release g. geometry_free(NULL) is a no-op. */
void geometry_free(struct geometry *g);
/* Make the XML library ready for geometries read and drawn on another
 * thread; called once, on the main thread, before any such thread starts. */
void geometry_threads(void);

#endif
