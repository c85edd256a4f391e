/*
 * outline.c — province outlines rounded to whole pixels, and the borders
 * between seas (outline.h).
 */
#include "outline.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

/* A point in tenths of a pixel, as the drawing writes them. */
struct pt {
	long x, y;
};

/* The rings of path data d, their points in rings[] (grown), the index of
 * each ring's first point in start[] (one more at the end). Returns the
 * number of rings, or -1 when d is not M x,y l dx,dy ... z throughout. */
static int
read_rings(const char *d, struct pt **pts, int *npts, int *cap, int **start, int *scap)
{
	const char *p = d;
	struct pt at = { 0, 0 };
	int nr = 0;
	char cmd = 0;

	*npts = 0;
	for (;;) {
		char *end;
		double a, b;
		while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0')
			break;
		if (*p == 'M' || *p == 'l' || *p == 'z') {
			cmd = *p++;
			if (cmd == 'z')
				cmd = 0;
			continue;
		}
		if (cmd == 0)
			return -1;
		a = strtod(p, &end);
		if (end == p)
			return -1;
		p = end;
		while (*p == ' ' || *p == ',')
			p++;
		b = strtod(p, &end);
		if (end == p)
			return -1;
		p = end;
		if (cmd == 'M') {
			at.x = lround(a * 10);
			at.y = lround(b * 10);
			if (nr + 2 > *scap) {
				*scap = *scap ? *scap * 2 : 64;
				*start = xrealloc(*start, (size_t)*scap * sizeof **start);
			}
			(*start)[nr++] = *npts;
			cmd = 'l';
		} else {
			at.x += lround(a * 10);
			at.y += lround(b * 10);
		}
		if (*npts == *cap) {
			*cap = *cap ? *cap * 2 : 1024;
			*pts = xrealloc(*pts, (size_t)*cap * sizeof **pts);
		}
		(*pts)[(*npts)++] = at;
	}
	if (nr == 0)
		return -1;
	(*start)[nr] = *npts;
	return nr;
}

/* Tenths to the nearest whole pixel, halves away from zero. */
static long
px(long t)
{
	return t >= 0 ? (t + 5) / 10 : -((-t + 5) / 10);
}

/* Step (dx, dy) of a path, the steps' letter first: in SVG's shortest
 * form, with no separator before a minus sign ("l3-2-1,4"). */
static void
put_step(struct buf *out, long dx, long dy, int *steps)
{
	if ((*steps)++ == 0)
		buf_putc(out, 'l');
	else if (dx >= 0)
		buf_putc(out, ' ');
	buf_printf(out, dy < 0 ? "%ld%ld" : "%ld,%ld", dx, dy);
}

/* The points pts[0..n) rounded, as path data: "Mx,yl..." (and "z" when
 * closed), repeated points dropped and steps in one direction merged. */
static void
put_run(const struct pt *pts, int n, bool closed, struct buf *out)
{
	long x = px(pts[0].x), y = px(pts[0].y), dx = 0, dy = 0;
	int i, steps = 0;

	buf_printf(out, "M%ld,%ld", x, y);
	for (i = 1; i < n; i++) {
		long nx = px(pts[i].x) - x, ny = px(pts[i].y) - y;
		if (nx == 0 && ny == 0)
			continue;
		/* The same direction as the step pending: one longer step. */
		if ((dx || dy) && dx * ny == dy * nx && dx * nx + dy * ny > 0) {
			dx += nx;
			dy += ny;
		} else {
			if (dx || dy)
				put_step(out, dx, dy, &steps);
			dx = nx;
			dy = ny;
		}
		x += nx;
		y += ny;
	}
	if (dx || dy)
		put_step(out, dx, dy, &steps);
	if (closed)
		buf_putc(out, 'z');
}

int
outline_round(const char *d, struct buf *out)
{
	struct pt *pts = NULL;
	int *start = NULL, npts, cap = 0, scap = 0, nr, r;
	size_t mark = out->len;

	nr = read_rings(d, &pts, &npts, &cap, &start, &scap);
	for (r = 0; r < nr; r++)
		put_run(pts + start[r], start[r + 1] - start[r], true, out);
	free(pts);
	free(start);
	if (nr < 0) {
		buf_truncate(out, mark);
		return -1;
	}
	return 0;
}

/* --- the borders between seas ------------------------------------------------ */

/* A segment of a ring, its ends in a fixed order, and who has it. */
struct seg {
	struct pt a, b;
	int seas, lands;	/* how many sea and other shapes have it */
	bool used;		/* already drawn */
	bool taken;		/* the slot holds a segment */
};

struct segs {
	struct seg *slot;
	size_t cap;		/* a power of two */
};

static struct seg *
seg_find(struct segs *t, struct pt a, struct pt b)
{
	uint64_t h;
	size_t i;

	if (b.x < a.x || (b.x == a.x && b.y < a.y)) {
		struct pt s = a;
		a = b;
		b = s;
	}
	h = (uint64_t)a.x * 0x9e3779b97f4a7c15u ^ (uint64_t)a.y * 0xc2b2ae3d27d4eb4fu ^
	    (uint64_t)b.x * 0x165667b19e3779f9u ^ (uint64_t)b.y * 0x27d4eb2f165667c5u;
	for (i = (size_t)(h ^ h >> 29) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct seg *s = &t->slot[i];
		if (!s->taken) {
			s->taken = true;
			s->a = a;
			s->b = b;
			return s;
		}
		if (s->a.x == a.x && s->a.y == a.y && s->b.x == b.x && s->b.y == b.y)
			return s;
	}
}

/* The segment from point i of a ring to the next, round to its start. */
static struct seg *
ring_seg(struct segs *t, const struct pt *pts, int from, int to, int i)
{
	return seg_find(t, pts[i], pts[i + 1 < to ? i + 1 : from]);
}

int
outline_sea_borders(char *const *shape, const bool *sea, int n, struct buf *out)
{
	struct pt **pts = xcalloc((size_t)n + 1, sizeof *pts);
	int **start = xcalloc((size_t)n + 1, sizeof *start), *nr = xcalloc((size_t)n + 1, sizeof *nr);
	size_t total = 0;
	struct segs t;
	int i, r, k, rc = 0;

	for (i = 0; i < n; i++) {
		int np = 0, cap = 0, scap = 0;
		nr[i] = shape[i] ? read_rings(shape[i], &pts[i], &np, &cap, &start[i], &scap) : 0;
		if (nr[i] < 0) {
			rc = -1;
			nr[i] = 0;
		}
		total += (size_t)np;
	}
	for (t.cap = 1024; t.cap < 2 * total + 2; t.cap *= 2)
		;
	t.slot = xcalloc(t.cap, sizeof *t.slot);
	for (i = 0; i < n; i++)
		for (r = 0; r < nr[i]; r++)
			for (k = start[i][r]; k < start[i][r + 1]; k++) {
				struct seg *s = ring_seg(&t, pts[i], start[i][r], start[i][r + 1], k);
				if (sea[i])
					s->seas++;
				else
					s->lands++;
			}
	/* Runs of segments two seas share, each drawn once, from the first
	 * sea that has it. */
	for (i = 0; i < n; i++) {
		if (!sea[i])
			continue;
		for (r = 0; r < nr[i]; r++) {
			int from = start[i][r], to = start[i][r + 1], run = -1;
			for (k = from; k <= to; k++) {
				struct seg *s = k < to ? ring_seg(&t, pts[i], from, to, k) : NULL;
				bool keep = s && s->seas >= 2 && s->lands == 0 && !s->used;
				if (keep) {
					s->used = true;
					if (run < 0)
						run = k;
					continue;
				}
				if (run >= 0) {
					/* Points run..k, the last the start again when the
					 * ring closes there. */
					struct pt *p = xmalloc((size_t)(k - run + 1) * sizeof *p);
					int j;
					for (j = run; j <= k; j++)
						p[j - run] = pts[i][j < to ? j : from];
					put_run(p, k - run + 1, false, out);
					free(p);
					run = -1;
				}
			}
		}
	}
	for (i = 0; i < n; i++) {
		free(pts[i]);
		free(start[i]);
	}
	free(pts);
	free(start);
	free(nr);
	free(t.slot);
	return rc;
}
