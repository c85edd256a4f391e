#define _DEFAULT_SOURCE
#include "webpages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fsio.h"
#include "../../lib/log.h"
#include "../../lib/str.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "../../maps/pages.h"
#include "../../maps/variant.h"
#include "../../parser/orders.h"
#include "../engine/adjudicate.h"
#include "../judge.h"
#include "../record.h"
#include "../system.h"
#include "../system_words.h"

#define RECORD_MAX (4u << 20)

void
webpages_init(struct webpages *w, const char *dir, const char *base_url, const char *maps_dir)
{
	memset(w, 0, sizeof *w);
	w->dir = dir;
	w->base_url = base_url;
	w->maps_dir = maps_dir;
}

void
webpages_free(struct webpages *w)
{
	int i;

	for (i = 0; i < w->n; i++) {
		free(w->geo[i].variant);
		geometry_free(w->geo[i].g);
	}
	w->n = 0;
}

void
webpages_threads(void)
{
	geometry_threads();
}

/* The drawing of g's variant, loaded once; NULL when it has none. */
static const struct geometry *
drawing(struct webpages *w, const struct game *g)
{
	char path[4096];
	struct buf err;
	int i;

	for (i = 0; i < w->n; i++)
		if (strcmp(w->geo[i].variant, g->set.variant) == 0)
			return w->geo[i].g;
	if (w->n == WEBPAGES_MAX_VARIANTS)
		return NULL;
	snprintf(path, sizeof path, "%s/%s/map.svg", w->maps_dir ? w->maps_dir : variant_default_dir(),
	    g->set.variant);
	w->geo[w->n].variant = xstrdup(g->set.variant);
	w->geo[w->n].g = NULL;
	if (fs_exists(path)) {
		buf_init(&err, BUF_ERRORS_MAX);
		w->geo[w->n].g = geometry_load(g->map, path, &err);
		if (w->geo[w->n].g == NULL)
			log_warn("%s: %s", path, buf_str(&err));
		buf_free(&err);
	}
	return w->geo[w->n++].g;
}

/* One played phase, as read back from its history record. */
struct played {
	struct played_phase ph;
	struct board after;		/* what followed: the next record's position (the
					   last phase's is the game's now, g->board) */
	int raisable[MAP_MAX_POWERS];	/* an adjustment phase: the units each power
					   could raise (its results' builds not used) */
};

/* What every page of g starts from: its name, address and the line on
 * its deadline (into deadline, of size n): the grace period's end once the
 * judge told the late delegations the deadline passed, or that the game
 * waits for its game master (as game list gives them; from the game alone,
 * not the clock). */
static void
page_head(const struct webpages *w, struct store *st, const struct game *g, char *deadline,
    size_t n, struct page_game *pg)
{
	struct tz_lookup lk = zones_lookup(st->zones);
	time_t grace = g->gm_told ? judge_grace_end(g, g->deadline) : 0;
	const char *wait = judge_master_wait(g, 0);
	char when[96];

	deadline[0] = '\0';
	if (wait != NULL)
		snprintf(deadline, n, "%s", wait);
	else if (g->status == GAME_ACTIVE && g->deadline && grace)
		snprintf(deadline, n, "Deadline passed; grace until %s",
		    time_human(&lk, g->set.zone, grace, when, sizeof when));
	else if (g->status == GAME_ACTIVE && g->deadline)
		snprintf(deadline, n, "Next deadline: %s",
		    time_human(&lk, g->set.zone, g->deadline, when, sizeof when));
	else if (g->status == GAME_ENDED)
		snprintf(deadline, n, "Game over: %s.", g->result);
	memset(pg, 0, sizeof *pg);
	pg->name = g->name;
	pg->base_url = w->base_url;
	pg->deadline = deadline;
}

/* The page of a game without a board: its public record. */
static int
record_page(struct webpages *w, struct store *st, const struct game *g, struct buf *err)
{
	char deadline[320];
	struct page_game pg;
	struct buf text;
	int rc;

	if (w->dir == NULL || !pages_name_ok(g->name))
		return 0;
	page_head(w, st, g, deadline, sizeof deadline, &pg);
	buf_init(&text, 1 << 20);
	system_public_text(g, &text);
	rc = pages_write_record(w->dir, &pg, system_words(g)->kind,
	    buf_str(&text), err);
	w->records += rc == 0;
	w->games += rc == 0;
	buf_free(&text);
	return rc;
}

int
webpages_game(struct webpages *w, struct store *st, const struct game *g, int first,
    struct buf *err)
{
	const struct geometry *geo;
	struct played *pl;
	struct page_phase *pp;
	struct page_game pg;
	struct buf rec;
	power_id now[MAP_MAX_PROVS];
	char deadline[320];
	int i, n = g->nphases, rc = 0;
	/* Capitals that move: drawn where they stood in each phase. */
	bool moved = g->sys != NULL && g->sys->capitals != NULL;

	if (system_serves(g->sys, SYS_RECORD_PAGE))
		return record_page(w, st, g, err);
	geo = drawing(w, g);
	if (geo == NULL || w->dir == NULL || !pages_name_ok(g->name))
		return 0;
	if (first < 2)
		first = 2;
	pl = xcalloc((size_t)n + 1, sizeof *pl);
	pp = xcalloc((size_t)n + 1, sizeof *pp);
	buf_init(&rec, RECORD_MAX);
	for (i = 0; i < n; i++) {
		buf_reset(&rec);
		/* Full data for the pages written now; the position alone for
		 * the links and the list of phases. */
		if (store_history(st, g->name, i + 1, &rec) < 0 ||
		    record_play(g, buf_str(&rec), i + 1 >= first - 1, &pl[i].ph) < 0) {
			buf_printf(err, "game %s: history record %d cannot be read for the map pages\n",
			    g->name, i + 1);
			rc = -1;
			goto out;
		}
		if (i > 0) {
			pl[i - 1].after = pl[i].ph.before;
			pp[i - 1].capital_after = moved ? pl[i].ph.capital : NULL;
		}
		pp[i].before = &pl[i].ph.before;
		pp[i].orders = pl[i].ph.orders;
		pp[i].norders = pl[i].ph.norders;
		pp[i].res = &pl[i].ph.res;
		pp[i].why = &pl[i].ph.why;
		pp[i].after = &pl[i].after;
		pp[i].capital_before = moved ? pl[i].ph.capital : NULL;
		if (pl[i].ph.before.phase == PHASE_ADJUSTMENT) {
			int p;
			for (p = 0; p < g->map->npowers; p++)
				pl[i].raisable[p] = system_raisable(g, &pl[i].ph.before, (power_id)p);
			pp[i].raisable = pl[i].raisable;
		}
	}
	system_capitals(g, now);
	if (n > 0) {	/* what followed the last phase is the position now */
		pp[n - 1].after = &g->board;
		pp[n - 1].capital_after = moved ? now : NULL;
	}
	page_head(w, st, g, deadline, sizeof deadline, &pg);
	pg.current = &g->board;
	pg.capital = moved ? now : NULL;
	pg.phases = pp;
	pg.nphases = n;
	/* The start page with the first phase's (the index draws it while no
	 * phase is played): a replay that draws every page at its end draws
	 * it too, as the live run did at START. */
	rc = pages_write_played(w->dir, g->map, geo, &pg, first - 2, first == 2 && n > 0, err);
	if (rc == 0 && n > first - 2)
		w->phases += n - (first - 2);
	w->games += rc == 0;
out:
	for (i = 0; i < n; i++)
		record_played_free(&pl[i].ph);
	free(pl);
	free(pp);
	buf_free(&rec);
	return rc;
}
