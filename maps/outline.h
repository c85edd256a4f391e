/*
 * outline.h — the province outlines as the maps draw them: the drawing's
 * path data (tenths of a pixel) rounded to whole pixels, and the borders
 * between two seas as lines of their own, so that a map need not carry
 * the seas' shapes (the water under them is the same colour).
 *
 * Rounding keeps neighbours exact: a point shared by two provinces is the
 * same point in both, rounded the same way, so no gap opens between them.
 * It halves the outlines; the provinces' outlines were most of every map.
 *
 * Pure: no I/O.
 */
#ifndef POUCH_OUTLINE_H
#define POUCH_OUTLINE_H

#include <stdbool.h>

#include "../lib/buf.h"

/* The most pixels a page shows of a map's width. */
#define OUTLINE_SHOWN 1000
/* How far, in pixels of its grid, an outline drawn may stray from the
 * drawing's (outline_simplify). */
#define OUTLINE_TOLERANCE 0.7

/* Path data d (M x,y l dx,dy ... z) with every point rounded to a whole
 * multiple of grid pixels (1: a whole pixel), repeated points and straight
 * runs merged, appended to out. Returns 0, or -1 (out unchanged) when d
 * holds anything else. */
int outline_round(const char *d, int grid, struct buf *out);

/* The bounding box of path data d (M x,y l dx,dy ... z): its least and
 * greatest x and y into box[0..4) (x0, y0, x1, y1). Returns 0, or -1
 * (box unchanged) when d holds anything else. */
int outline_box(const char *d, double box[4]);

/* The bounding box of each ring of path data d, as outline_box gives one,
 * into box[0..max). Returns the number of rings (boxes beyond max are not
 * kept), or -1 when d holds anything else. */
int outline_ring_boxes(const char *d, double (*box)[4], int max);

/*
 * The n shapes (path data, NULL for none) simplified into out[0..n)
 * (allocated; NULL where shape[i] is): each border between two junctions
 * (a point where three shapes meet, or where a shape's outline meets
 * itself) walked the same way whichever shape it belongs to and cut down
 * to the points that keep it within tol pixels (Douglas-Peucker), so that
 * neighbours still share every point of their border. Returns 0, or -1
 * when a shape cannot be read (its out[i] is NULL).
 */
int outline_simplify(char *const *shape, int n, double tol, char **out);

/* Path data of the lines that two of the n shapes where sea[i] is true
 * share and no other shape has (the borders between two seas), rounded as
 * outline_round does to grid, appended to out. Returns 0, or -1 when a shape
 * cannot be read. */
int outline_sea_borders(char *const *shape, const bool *sea, int n, int grid, struct buf *out);

#endif
