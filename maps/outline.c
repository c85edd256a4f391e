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

/* Tenths to the nearest multiple of grid pixels, halves away from zero. */
static long
px(long t, int grid)
{
	long u = 10L * grid;

	return (t >= 0 ? (t + u / 2) / u : -((-t + u / 2) / u)) * grid;
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
put_run(const struct pt *pts, int n, bool closed, int grid, struct buf *out)
{
	long x = px(pts[0].x, grid), y = px(pts[0].y, grid), dx = 0, dy = 0;
	int i, steps = 0;

	buf_printf(out, "M%ld,%ld", x, y);
	for (i = 1; i < n; i++) {
		long nx = px(pts[i].x, grid) - x, ny = px(pts[i].y, grid) - y;
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
outline_round(const char *d, int grid, struct buf *out)
{
	struct pt *pts = NULL;
	int *start = NULL, npts, cap = 0, scap = 0, nr, r;
	size_t mark = out->len;

	nr = read_rings(d, &pts, &npts, &cap, &start, &scap);
	for (r = 0; r < nr; r++)
		put_run(pts + start[r], start[r + 1] - start[r], true, grid, out);
	free(pts);
	free(start);
	if (nr < 0) {
		buf_truncate(out, mark);
		return -1;
	}
	return 0;
}

/* The bounding box of the points pts[0..n) (n > 0), in pixels. */
static void
box_of(const struct pt *pts, int n, double box[4])
{
	long x0 = pts[0].x, y0 = pts[0].y, x1 = pts[0].x, y1 = pts[0].y;
	int i;

	for (i = 1; i < n; i++) {
		x0 = pts[i].x < x0 ? pts[i].x : x0;
		x1 = pts[i].x > x1 ? pts[i].x : x1;
		y0 = pts[i].y < y0 ? pts[i].y : y0;
		y1 = pts[i].y > y1 ? pts[i].y : y1;
	}
	box[0] = (double)x0 / 10;
	box[1] = (double)y0 / 10;
	box[2] = (double)x1 / 10;
	box[3] = (double)y1 / 10;
}

int
outline_box(const char *d, double box[4])
{
	struct pt *pts = NULL;
	int *start = NULL, npts, cap = 0, scap = 0, nr;

	nr = read_rings(d, &pts, &npts, &cap, &start, &scap);
	if (nr > 0)
		box_of(pts, npts, box);
	free(pts);
	free(start);
	return nr > 0 ? 0 : -1;
}

int
outline_ring_boxes(const char *d, double (*box)[4], int max)
{
	struct pt *pts = NULL;
	int *start = NULL, npts, cap = 0, scap = 0, nr, r;

	nr = read_rings(d, &pts, &npts, &cap, &start, &scap);
	for (r = 0; r < nr && r < max; r++)
		if (start[r + 1] > start[r])
			box_of(pts + start[r], start[r + 1] - start[r], box[r]);
		else
			box[r][0] = box[r][1] = box[r][2] = box[r][3] = 0;
	free(pts);
	free(start);
	return nr;
}

/* The rings of n shapes (read_rings), each shape's in pts[i], start[i]
 * and nr[i]; cap, a power of two at least twice their points, sizes a
 * table of them. */
struct shapes {
	struct pt **pts;
	int **start, *nr, n;
	size_t cap;
};

/* Read the n shapes (NULL: none) into sh. Returns 0, or -1 when one
 * cannot be read (it has no rings). */
static int
shapes_read(struct shapes *sh, char *const *shape, int n)
{
	size_t total = 0;
	int i, rc = 0;

	sh->n = n;
	sh->pts = xcalloc((size_t)n + 1, sizeof *sh->pts);
	sh->start = xcalloc((size_t)n + 1, sizeof *sh->start);
	sh->nr = xcalloc((size_t)n + 1, sizeof *sh->nr);
	for (i = 0; i < n; i++) {
		int np = 0, cap = 0, scap = 0;
		sh->nr[i] = shape[i] ? read_rings(shape[i], &sh->pts[i], &np, &cap, &sh->start[i],
		    &scap) : 0;
		if (sh->nr[i] < 0) {
			rc = -1;
			sh->nr[i] = 0;
		}
		total += (size_t)np;
	}
	for (sh->cap = 1024; sh->cap < 2 * total + 2; sh->cap *= 2)
		;
	return rc;
}

static void
shapes_free(struct shapes *sh)
{
	int i;

	for (i = 0; i < sh->n; i++) {
		free(sh->pts[i]);
		free(sh->start[i]);
	}
	free(sh->pts);
	free(sh->start);
	free(sh->nr);
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
outline_sea_borders(char *const *shape, const bool *sea, int n, int grid, struct buf *out)
{
	struct shapes sh;
	struct segs t;
	int rc = shapes_read(&sh, shape, n), i, r, k;
	struct pt **pts = sh.pts;
	int **start = sh.start, *nr = sh.nr;

	t.cap = sh.cap;
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
					put_run(p, k - run + 1, false, grid, out);
					free(p);
					run = -1;
				}
			}
		}
	}
	shapes_free(&sh);
	free(t.slot);
	return rc;
}

/* --- simplified outlines ----------------------------------------------------- */

/* A point of the shapes with the points next to it on every ring it is on
 * (up to two; more, or a point twice on one ring, makes it a junction). */
struct vtx {
	struct pt p, nb[2];
	int nnb;
	bool junction;
	bool taken;
};

struct vtxs {
	struct vtx *slot;
	size_t cap;		/* a power of two */
};

static struct vtx *
vtx_find(struct vtxs *t, struct pt p)
{
	uint64_t h = (uint64_t)p.x * 0x9e3779b97f4a7c15u ^ (uint64_t)p.y * 0xc2b2ae3d27d4eb4fu;
	size_t i;

	for (i = (size_t)(h ^ h >> 29) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct vtx *v = &t->slot[i];
		if (!v->taken) {
			v->taken = true;
			v->p = p;
			return v;
		}
		if (v->p.x == p.x && v->p.y == p.y)
			return v;
	}
}

static bool
pt_eq(struct pt a, struct pt b)
{
	return a.x == b.x && a.y == b.y;
}

static bool
pt_less(struct pt a, struct pt b)
{
	return a.x < b.x || (a.x == b.x && a.y < b.y);
}

/* Note q as a neighbour of v: a third one makes v a junction. */
static void
vtx_note(struct vtx *v, struct pt q)
{
	int k;

	for (k = 0; k < v->nnb; k++)
		if (pt_eq(v->nb[k], q))
			return;
	if (v->nnb == 2)
		v->junction = true;
	else
		v->nb[v->nnb++] = q;
}

/* Squared distance, in tenths, of p from the line through a and b. */
static double
off_line(struct pt p, struct pt a, struct pt b)
{
	double dx = (double)(b.x - a.x), dy = (double)(b.y - a.y), l = dx * dx + dy * dy;
	double px_ = (double)(p.x - a.x), py_ = (double)(p.y - a.y), c;

	if (l == 0)
		return px_ * px_ + py_ * py_;
	c = px_ * dy - py_ * dx;
	return c * c / l;
}

/* Douglas-Peucker over c[from..to] (the ends kept): keep[] marks the
 * points within tol2 (squared tenths) of the line they are dropped from. */
static void
dp(const struct pt *c, int from, int to, double tol2, bool *keep)
{
	int i, at = -1;
	double worst = tol2;

	if (to - from < 2)
		return;
	for (i = from + 1; i < to; i++) {
		double d = off_line(c[i], c[from], c[to]);
		if (d > worst) {
			worst = d;
			at = i;
		}
	}
	if (at < 0)
		return;
	keep[at] = true;
	dp(c, from, at, tol2, keep);
	dp(c, at, to, tol2, keep);
}

/* The chain c[0..n) (its ends junctions) simplified into keep[], the
 * same whichever way round it is walked: from its lesser end. */
static void
simplify_chain(struct pt *c, int n, double tol2, bool *keep)
{
	int i;
	bool flip = pt_less(c[n - 1], c[0]) ||
	    (pt_eq(c[n - 1], c[0]) && n > 2 && pt_less(c[n - 2], c[1]));

	for (i = 0; i < n; i++)
		keep[i] = i == 0 || i == n - 1;
	if (flip)
		for (i = 0; i < n / 2; i++) {
			struct pt s = c[i];
			c[i] = c[n - 1 - i];
			c[n - 1 - i] = s;
		}
	dp(c, 0, n - 1, tol2, keep);
	if (flip)
		for (i = 0; i < n / 2; i++) {
			struct pt s = c[i];
			bool k = keep[i];
			c[i] = c[n - 1 - i];
			c[n - 1 - i] = s;
			keep[i] = keep[n - 1 - i];
			keep[n - 1 - i] = k;
		}
}

/* Tenths t as pixels with one decimal ("-12.3"). */
static void
put_tenths(struct buf *out, long t)
{
	long a = t < 0 ? -t : t;

	buf_printf(out, "%s%ld.%ld", t < 0 ? "-" : "", a / 10, a % 10);
}

/* Ring r[0..n) (closed, in tenths) simplified: the points it keeps
 * appended to out as path data in pixels. */
static void
simplify_ring(struct vtxs *t, const struct pt *r, int n, double tol2, struct buf *out)
{
	struct pt *c = xmalloc(((size_t)n + 1) * sizeof *c);
	bool *keep = xmalloc(((size_t)n + 1) * sizeof *keep);
	int i, s = -1, k, m = 0, first = 1;
	struct pt at = { 0, 0 };

	/* Start at a junction; a ring with none at its least point. */
	for (i = 0; i < n && s < 0; i++)
		if (vtx_find(t, r[i])->junction)
			s = i;
	if (s < 0)
		for (s = 0, i = 1; i < n; i++)
			if (pt_less(r[i], r[s]))
				s = i;
	for (i = 0; i <= n; i++) {
		c[m++] = r[(s + i) % n];
		if (m > 1 && (i == n || vtx_find(t, c[m - 1])->junction)) {
			simplify_chain(c, m, tol2, keep);
			for (k = 0; k < m - 1; k++) {
				if (!keep[k])
					continue;
				buf_puts(out, first ? "M" : " ");
				put_tenths(out, first ? c[k].x : c[k].x - at.x);
				buf_putc(out, ',');
				put_tenths(out, first ? c[k].y : c[k].y - at.y);
				if (first)
					buf_putc(out, 'l');
				at = c[k];
				first = 0;
			}
			c[0] = c[m - 1];
			m = 1;
		}
	}
	buf_putc(out, 'z');
	free(c);
	free(keep);
}

int
outline_simplify(char *const *shape, int n, double tol, char **out)
{
	struct shapes sh;
	struct vtxs t;
	struct buf b;
	int rc = shapes_read(&sh, shape, n), i, r, k;
	struct pt **pts = sh.pts;
	int **start = sh.start, *nr = sh.nr;

	t.cap = sh.cap;
	t.slot = xcalloc(t.cap, sizeof *t.slot);
	for (i = 0; i < n; i++)
		for (r = 0; r < nr[i]; r++) {
			int from = start[i][r], to = start[i][r + 1], len = to - from;
			for (k = from; k < to; k++) {
				struct vtx *v = vtx_find(&t, pts[i][k]);
				struct pt prev = pts[i][k > from ? k - 1 : to - 1];
				struct pt next = pts[i][k + 1 < to ? k + 1 : from];
				/* A ring of fewer than four points is drawn as it is. */
				if (len < 4 || pt_eq(prev, next))
					v->junction = true;
				vtx_note(v, prev);
				vtx_note(v, next);
			}
		}
	buf_init(&b, 1 << 24);
	for (i = 0; i < n; i++) {
		out[i] = NULL;
		if (shape[i] == NULL || nr[i] == 0)
			continue;
		buf_reset(&b);
		for (r = 0; r < nr[i]; r++)
			simplify_ring(&t, pts[i] + start[i][r], start[i][r + 1] - start[i][r],
			    tol * tol * 100, &b);
		out[i] = xstrdup(buf_str(&b));
	}
	buf_free(&b);
	free(t.slot);
	shapes_free(&sh);
	return rc;
}
