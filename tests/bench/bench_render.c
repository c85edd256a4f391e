/*
 * bench_render.c — how long drawing a phase's map takes.
 *
 * Replays a recorded game (build/games/game_10070.txt when the recorded
 * games are unpacked, else the demo game of contrib/demo) and renders the
 * map of every phase with its orders and results, many times over. Prints
 * milliseconds per map (the target is at most 10 ms) and the map's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/casefiles/gamerec.h"
#include "../../judge/casefiles/play.h"
#include "../../lib/fsio.h"
#include "../../lib/monotime.h"
#include "../../lib/xalloc.h"
#include "../../maps/geometry.h"
#include "../../maps/render.h"
#include "../../maps/variant.h"
#include "../../parser/names.h"

#define MAX_PHASES 512

struct phases {
	int n;
	struct board *before;
	struct order (*orders)[256];
	int *norders;
	struct phase_result *res;
};

static void
keep(struct phases *ps, const struct board *before, const struct order *o, int n,
    const struct phase_result *res)
{
	int i = ps->n;

	if (i >= MAX_PHASES)
		return;
	ps->before[i] = *before;
	ps->norders[i] = n < 256 ? n : 256;
	memcpy(ps->orders[i], o, (size_t)ps->norders[i] * sizeof *o);
	ps->res[i] = *res;
	ps->n++;
}

static int
from_record(void *ctx, const struct gamerec_phase *ph)
{
	keep(ctx, ph->before, ph->orders, ph->norders, ph->res);
	return 0;
}

static void
from_play(void *ctx, const struct board *before, const struct order *o, int n,
    const struct phase_result *res, const struct board *after, struct buf *out)
{
	(void)after;
	(void)out;
	keep(ctx, before, o, n, res);
}

int
main(int argc, char **argv)
{
	const char *record = argc > 1 ? argv[1] : "build/games/game_10070.txt";
	struct phases ps;
	struct buf err, text, out;
	struct map *m;
	struct geometry *g;
	double t0, t1, bytes = 0;
	int i, rounds, maps = 0;

	buf_init(&err, 1 << 16);
	m = variant_load("maps/standard/variant.xml", &err);
	t0 = monotime_ms();
	g = m ? geometry_load(m, "maps/standard/map.svg", &err) : NULL;
	t1 = monotime_ms();
	if (g == NULL) {
		fprintf(stderr, "%s", buf_str(&err));
		return 1;
	}
	printf("render: geometry loaded in %.1f ms\n", t1 - t0);

	memset(&ps, 0, sizeof ps);
	ps.before = xcalloc(MAX_PHASES, sizeof *ps.before);
	ps.orders = xcalloc(MAX_PHASES, sizeof *ps.orders);
	ps.norders = xcalloc(MAX_PHASES, sizeof *ps.norders);
	ps.res = xcalloc(MAX_PHASES, sizeof *ps.res);
	buf_init(&text, 64u << 20);
	if (fs_read_file(record, &text) == 0) {
		struct gamerec_stats st;
		struct names *nm = names_new(m);
		struct rules r;
		memset(&st, 0, sizeof st);
		rules_init(&r, EDITION_2000);
		gamerec_replay_text(m, nm, &r, buf_str(&text), text.len, record, &st, &err,
		    from_record, &ps);
		names_free(nm);
	} else {
		struct play_hook hook = { from_play, &ps };
		buf_init(&out, 64u << 20);
		record = "contrib/demo/game.txt";
		buf_reset(&text);
		if (fs_read_file(record, &text) < 0) {
			fprintf(stderr, "bench_render: cannot read %s\n", record);
			return 1;
		}
		play_text_hooked(m, EDITION_2023, buf_str(&text), text.len, record, &hook, &out);
		buf_free(&out);
	}
	if (ps.n == 0) {
		fprintf(stderr, "bench_render: no phases in %s\n", record);
		return 1;
	}

	buf_init(&out, 16u << 20);
	rounds = 2000 / ps.n + 1;
	t0 = monotime_ms();
	for (int k = 0; k < rounds; k++) {
		for (i = 0; i < ps.n; i++) {
			struct render_input in;
			memset(&in, 0, sizeof in);
			in.board = &ps.before[i];
			in.orders = ps.orders[i];
			in.norders = ps.norders[i];
			in.res = &ps.res[i];
			buf_reset(&out);
			if (render_svg(m, g, &in, &out) < 0)
				return 1;
			bytes += (double)out.len;
			maps++;
		}
	}
	t1 = monotime_ms();
	printf("render: %d phases of %s, %d maps: %.2f ms per phase map (SVG, %.0f KB each)\n", ps.n,
	    record, maps, (t1 - t0) / maps, bytes / maps / 1024);
	buf_free(&out);
	buf_free(&text);
	buf_free(&err);
	free(ps.before);
	free(ps.orders);
	free(ps.norders);
	free(ps.res);
	geometry_free(g);
	map_free(m);
	return 0;
}
