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

/* Path data d (M x,y l dx,dy ... z) with every point rounded to a whole
 * pixel, repeated points and straight runs merged, appended to out.
 * Returns 0, or -1 (out unchanged) when d holds anything else. */
int outline_round(const char *d, struct buf *out);

/* Path data of the lines that two of the n shapes where sea[i] is true
 * share and no other shape has (the borders between two seas), rounded as
 * outline_round does, appended to out. Returns 0, or -1 when a shape
 * cannot be read. */
int outline_sea_borders(char *const *shape, const bool *sea, int n, struct buf *out);

#endif
