/*
 * cli_render.c — the map commands: render, render-game, and the pages of
 * `pouch play --pages`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fsio.h"
#include "../../lib/grow.h"
#include "../../lib/xalloc.h"
#include "../../maps/geometry.h"
#include "../../maps/pages.h"
#include "../../maps/render.h"
#include "../../maps/variant.h"
#include "../../parser/names.h"
#include "cli.h"
#include "cli_pages.h"
#include "../casefiles/gamerec.h"
#include "../casefiles/play.h"
#include "../engine/resolver.h"
#include "../engine/rules.h"

#define SVG_MAX (16u << 20)

struct map_set {
	struct map *m;
	struct geometry *g;
};

static int
open_map_set(const struct cli_opts *o, const char *variant, struct map_set *ms)
{
	struct buf err;

	buf_init(&err, BUF_ERRORS_MAX);
	ms->g = NULL;
	ms->m = variant_open(variant, o->maps_dir, &err);
	if (ms->m)
		ms->g = geometry_open(ms->m, o->maps_dir, &err);
	if (ms->g == NULL) {
		fputs(buf_str(&err), stderr);
		map_free(ms->m);
		ms->m = NULL;
	}
	buf_free(&err);
	return ms->g ? 0 : -1;
}

static void
close_map_set(struct map_set *ms)
{
	geometry_free(ms->g);
	map_free(ms->m);
}

/* Write data to path (atomically), or to stdout when path is NULL or "-". */
static int
put_output(const char *cmd, const char *path, const struct buf *data)
{
	if (path == NULL || strcmp(path, "-") == 0) {
		fwrite(data->data ? data->data : "", 1, data->len, stdout);
		return 0;
	}
	if (fs_write_atomic(path, buf_str(data), data->len) < 0) {
		fprintf(stderr, "pouch %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	return 0;
}

int
cli_render(const struct cli_opts *o, int argc, char **argv)
{
	const char *variant = "standard", *board_file = NULL, *out = NULL, *title = NULL;
	struct render_input in;
	struct map_set ms;
	struct board b;
	struct buf svg;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc)
			variant = argv[++i];
		else if (strcmp(argv[i], "--board") == 0 && i + 1 < argc)
			board_file = argv[++i];
		else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--title") == 0 && i + 1 < argc)
			title = argv[++i];
		else {
			return cli_usage("render", stderr);
		}
	}
	if (open_map_set(o, variant, &ms) < 0)
		return 1;
	if (board_file == NULL) {
		board_init_start(&b, ms.m);
	} else {
		struct buf text, err;
		buf_init(&text, 1u << 20);
		buf_init(&err, BUF_ERRORS_MAX);
		if (fs_read_file(board_file, &text) < 0) {
			fprintf(stderr, "pouch render: %s: %s\n", board_file, strerror(errno));
			rc = 1;
		} else if (board_read(&b, ms.m, buf_str(&text), text.len, &err) < 0) {
			fprintf(stderr, "%s", buf_str(&err));
			rc = 1;
		}
		buf_free(&text);
		buf_free(&err);
	}
	if (rc == 0) {
		memset(&in, 0, sizeof in);
		in.board = &b;
		in.title = title;
		in.retreat_options = true;
		buf_init(&svg, SVG_MAX);
		if (render_svg(ms.m, ms.g, &in, &svg) < 0) {
			fprintf(stderr, "pouch render: the map is too large\n");
			rc = 1;
		} else if (put_output("render", out, &svg) < 0) {
			rc = 1;
		}
		buf_free(&svg);
	}
	close_map_set(&ms);
	return rc;
}

/* --- games: every phase kept for the pages --------------------------------------- */

struct game_log {
	int n, cap;
	struct board *before, *after;
	struct phase_result *res;
	struct order **orders;
	int *norders;
};

static void
log_add(struct game_log *gl, const struct board *before, const struct order *orders, int norders,
    const struct phase_result *res, const struct board *after)
{
	int i = gl->n;

	if (gl->n == gl->cap) {	/* the other arrays beside before[], as long */
		GROW(gl->before, gl->n, gl->cap);
		gl->after = xreallocarray(gl->after, (size_t)gl->cap, sizeof *gl->after);
		gl->res = xreallocarray(gl->res, (size_t)gl->cap, sizeof *gl->res);
		gl->orders = xreallocarray(gl->orders, (size_t)gl->cap, sizeof *gl->orders);
		gl->norders = xreallocarray(gl->norders, (size_t)gl->cap, sizeof *gl->norders);
	}
	gl->before[i] = *before;
	gl->after[i] = *after;
	gl->res[i] = *res;
	gl->norders[i] = norders;
	gl->orders[i] = xcalloc(norders > 0 ? (size_t)norders : 1, sizeof **gl->orders);
	if (norders > 0)
		memcpy(gl->orders[i], orders, (size_t)norders * sizeof *orders);
	gl->n++;
}

static void
log_free(struct game_log *gl)
{
	int i;

	for (i = 0; i < gl->n; i++)
		free(gl->orders[i]);
	free(gl->orders);
	free(gl->norders);
	free(gl->before);
	free(gl->after);
	free(gl->res);
}

/* Why the orders of movement or retreat phase i of gl failed, resolved
 * again by the rules r into why: false (nothing to show) when the phase
 * was not decided the same way under r (the script changed its edition). */
static bool
log_why(const struct game_log *gl, int i, const struct map *m, const struct rules *r,
    struct phase_result *scratch, struct phase_why *why)
{
	int u;

	if (gl->before[i].phase == PHASE_ADJUSTMENT)
		return false;
	adj_resolve_why(m, r, &gl->before[i], NULL, gl->orders[i], gl->norders[i], scratch, why);
	for (u = 0; u < scratch->nunits; u++)
		if (scratch->unit_reason[u] != gl->res[i].unit_reason[u] ||
		    scratch->unit_dislodged[u] != gl->res[i].unit_dislodged[u])
			return false;
	return scratch->nunits == gl->res[i].nunits;
}

/* Write every page of the game, each movement and retreat phase with the
 * reasons of its failed orders (the edition ed's rules); current is the position now. */
static int
log_write(const struct game_log *gl, const struct map *m, enum edition ed,
    const struct geometry *g, const struct page_opts *po, const char *name,
    const struct board *current, struct buf *err)
{
	struct page_phase *ph = xcalloc(gl->n > 0 ? (size_t)gl->n : 1, sizeof *ph);
	struct phase_why *why = xcalloc(gl->n > 0 ? (size_t)gl->n : 1, sizeof *why);
	struct phase_result *scratch = xmalloc(sizeof *scratch);
	struct page_game pg;
	struct rules r;
	int i, rc;

	rules_for_map(&r, m, ed);	/* as check-game resolves */
	for (i = 0; i < gl->n; i++) {
		ph[i].before = &gl->before[i];
		ph[i].orders = gl->orders[i];
		ph[i].norders = gl->norders[i];
		ph[i].res = &gl->res[i];
		ph[i].why = log_why(gl, i, m, &r, scratch, &why[i]) ? &why[i] : NULL;
		ph[i].after = &gl->after[i];
	}
	memset(&pg, 0, sizeof pg);
	pg.name = name;
	pg.base_url = po->base_url;
	pg.current = current;
	pg.phases = ph;
	pg.nphases = gl->n;
	rc = pages_write_game(po->dir, m, g, &pg, err);
	free(scratch);
	free(why);
	free(ph);
	return rc;
}

/* A game's name from a file name: its base name without the extension. */
static void
name_from_file(const char *path, char *out, size_t size)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	pages_name_from(base, strcspn(base, "."), out, size);
}

int
cli_page_opts(int argc, char **argv, struct page_opts *po)
{
	int i, k = 1;

	memset(po, 0, sizeof *po);
	for (i = 1; i < argc; i++) {
		const char **slot = strcmp(argv[i], "--pages") == 0 ? &po->dir :
		    strcmp(argv[i], "--base-url") == 0 ? &po->base_url :
		    strcmp(argv[i], "--name") == 0 ? &po->name : NULL;
		if (slot == NULL) {
			argv[k++] = argv[i];
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "pouch %s: %s needs a value\n", argv[0], argv[i]);
			return -1;
		}
		*slot = argv[++i];
	}
	if (po->name && !pages_name_ok(po->name)) {
		fprintf(stderr, "pouch %s: \"%s\" cannot name a game's pages "
		    "(letters, digits, '-', '_', '.')\n", argv[0], po->name);
		return -1;
	}
	argv[k] = NULL;
	return k;
}

struct play_pages {
	struct game_log log;
	const struct page_opts *po;
	const char *name;
};

static void
play_phase(void *ctx, const struct board *before, const struct order *orders, int norders,
    const struct phase_result *res, const struct board *after, struct buf *out)
{
	struct play_pages *pp = ctx;

	log_add(&pp->log, before, orders, norders, res, after);
	buf_puts(out, "\nMap: ");
	pages_phase_url(pp->po->base_url, pp->name, before, out);
	buf_putc(out, '\n');
}

int
cli_play_pages(const struct cli_opts *o, const struct map *m, enum edition ed, const char *text,
    size_t len, const char *fname, const struct page_opts *po, struct buf *out)
{
	struct play_hook hook;
	struct play_pages pp;
	struct geometry *g;
	struct buf err;
	char name[72];
	int rc;

	buf_init(&err, BUF_ERRORS_MAX);
	g = geometry_open(m, o->maps_dir, &err);
	if (g == NULL) {
		buf_puts(out, buf_str(&err));
		buf_free(&err);
		return -1;
	}
	if (po->name)
		snprintf(name, sizeof name, "%s", po->name);
	else
		name_from_file(fname, name, sizeof name);
	memset(&pp, 0, sizeof pp);
	pp.po = po;
	pp.name = name;
	hook.phase = play_phase;
	hook.ctx = &pp;
	rc = play_text_hooked(m, ed, text, len, fname, &hook, out);
	if (rc == 0) {
		struct board start;
		const struct board *now = pp.log.n ? &pp.log.after[pp.log.n - 1] : &start;
		board_init_start(&start, m);
		if (log_write(&pp.log, m, ed, g, po, name, now, &err) < 0) {
			buf_puts(out, buf_str(&err));
			rc = -1;
		} else {
			buf_printf(out, "\nPages: %s/%s/index.html (%d phases)\n", po->dir, name, pp.log.n);
		}
	}
	log_free(&pp.log);
	geometry_free(g);
	buf_free(&err);
	return rc;
}

struct replay {
	struct game_log log;
	const struct map *m;
};

/* Recorded orders name places, not powers: the power is the unit's owner
 * (the reports list orders by power). */
static int
replay_phase(void *ctx, const struct gamerec_phase *ph)
{
	struct replay *rp = ctx;
	const struct board *b = ph->before;
	struct order *o;
	int i;

	log_add(&rp->log, b, ph->orders, ph->norders, ph->res, ph->after);
	o = rp->log.orders[rp->log.n - 1];
	for (i = 0; i < ph->norders && i < ph->res->norders; i++) {
		int u = ph->res->order_unit[i];
		if (o[i].power != POWER_NONE || o[i].loc == LOC_NONE)
			continue;
		if (b->phase == PHASE_RETREAT && u >= 0 && u < b->ndislodged)
			o[i].power = b->dislodged[u].unit.power;
		else if (b->phase == PHASE_MOVEMENT && u >= 0 && u < b->nunits)
			o[i].power = b->units[u].power;
		else if (b->phase == PHASE_ADJUSTMENT &&
		    (u = board_unit_in(b, rp->m, map_loc_prov(rp->m, o[i].loc))) >= 0)
			o[i].power = b->units[u].power;
	}
	return 0;
}

int
cli_render_game(const struct cli_opts *o, int argc, char **argv)
{
	enum edition ed = EDITION_2000;
	const char *variant = "standard";
	struct gamerec_stats st;
	struct page_opts po;
	struct replay rp;
	struct map_set ms;
	struct names *nm;
	struct rules r;
	struct buf text, report, err;
	char name[72];
	int i, rc;

	argc = cli_page_opts(argc, argv, &po);
	if (argc < 0)
		return 2;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--edition") == 0 && i + 1 < argc) {
			if (edition_parse(argv[++i], &ed) < 0) {
				fprintf(stderr, "pouch render-game: unknown edition \"%s\"\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc) {
			variant = argv[++i];
		} else {
			break;
		}
	}
	if (i + 2 != argc || po.dir) {
		return cli_usage("render-game", stderr);
	}
	po.dir = argv[i + 1];
	if (open_map_set(o, variant, &ms) < 0)
		return 1;
	if (po.name)
		snprintf(name, sizeof name, "%s", po.name);
	else
		name_from_file(argv[i], name, sizeof name);
	buf_init(&text, 64u << 20);
	buf_init(&report, 1u << 20);
	buf_init(&err, BUF_ERRORS_MAX);
	memset(&st, 0, sizeof st);
	memset(&rp, 0, sizeof rp);
	rp.m = ms.m;
	rules_for_map(&r, ms.m, ed);
	nm = names_new(ms.m);
	if (fs_read_file(argv[i], &text) < 0) {
		fprintf(stderr, "pouch render-game: %s: %s\n", argv[i], strerror(errno));
		rc = 1;
	} else {
		rc = gamerec_replay_text(ms.m, nm, &r, buf_str(&text), text.len, argv[i], &st, &report,
		    replay_phase, &rp);
		fputs(buf_str(&report), stderr);
		if (rc != 0) {
			fprintf(stderr, "pouch render-game: %s does not replay; pages for the %d phases "
			    "before that are written\n", argv[i], rp.log.n);
		}
		if (rp.log.n > 0 || rc == 0) {
			struct board start;
			const struct board *now = rp.log.n ? &rp.log.after[rp.log.n - 1] : &start;
			board_init_start(&start, ms.m);
			if (log_write(&rp.log, ms.m, ed, ms.g, &po, name, now, &err) < 0) {
				fputs(buf_str(&err), stderr);
				rc = 1;
			} else {
				printf("%s/%s/index.html: %d phases, %d maps\n", po.dir, name, rp.log.n,
				    2 * rp.log.n + 1);
			}
		}
		rc = rc != 0 ? 1 : rc;
	}
	names_free(nm);
	log_free(&rp.log);
	buf_free(&text);
	buf_free(&report);
	buf_free(&err);
	close_map_set(&ms);
	return rc;
}
