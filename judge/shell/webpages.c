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
	struct board before;
	struct board after;		/* what followed: the next record's position, or the
					   game's now */
	struct order *orders;
	int norders;
	struct phase_result res;
	struct phase_why why;		/* why each unit failed (full records) */
};

/*
 * The phase of record text played again into p->res by g's rules as the
 * phase found them: with what the system kept with the record (Realpolitik:
 * the capitals where they stood then), as the judge decided it.
 */
static void
resolve_played(const struct game *g, const char *text, struct played *p)
{
	const char *ord = strstr(text, "\norders\n"), *pos = strstr(text, "\nposition before\n");
	bool kept = ord != NULL && pos != NULL && ord < pos;
	struct game *then;

	if (g->sys == NULL || g->sys->resolve == NULL || g->sys->history_read == NULL ||
	    g->sys->state_new == NULL) {
		system_resolve(g, &p->before, p->orders, p->norders, &p->res, &p->why);
		return;
	}
	/* A copy sharing g's map, rules and delegations, with a state of its
	 * own read from the record. */
	then = xmalloc(sizeof *then);
	*then = *g;
	then->state = g->sys->state_new(then);
	system_history_read(then, kept ? ord : NULL, kept ? (size_t)(pos - ord) : 0);
	system_resolve(then, &p->before, p->orders, p->norders, &p->res, &p->why);
	g->sys->state_free(then->state);
	free(then);
}

/*
 * Read record text into p: the position before and, when full, the orders
 * played again. Returns 0, or -1 when the record cannot be read.
 */
static int
read_played(const struct game *g, const char *text, int full, struct played *p)
{
	const struct map *m = g->map;
	const char *pos = strstr(text, "\nposition before\n"), *ord, *line, *end;
	struct board plain;
	struct buf err;
	size_t n;
	int rc = 0;

	if (pos == NULL)
		return -1;
	buf_init(&err, BUF_ERRORS_MAX);
	pos += strlen("\nposition before\n");
	if (board_read(&p->before, m, pos, strlen(pos), &err) < 0)
		rc = -1;
	buf_free(&err);
	p->norders = 0;
	if (rc < 0 || !full)
		return rc;
	p->orders = xcalloc(ADJ_MAX_ORDERS, sizeof *p->orders);
	plain = p->before;
	board_plain(&plain);	/* the parser knows units by their type */
	ord = strstr(text, "\norders\n");
	end = pos - strlen("\nposition before\n");
	if (ord != NULL && ord < end) {
		ord += strlen("\norders\n");
		while (p->norders < ADJ_MAX_ORDERS && (line = str_next_line(&ord, end + 1, &n)) != NULL) {
			struct parse_result r;
			struct parse_ctx c;
			const char *sp;
			power_id pw;
			char name[64];
			if (n < 7 || memcmp(line, "order ", 6) != 0)
				continue;
			sp = memchr(line + 6, ' ', n - 6);
			if (sp == NULL || (size_t)(sp - line - 6) >= sizeof name)
				continue;
			memcpy(name, line + 6, (size_t)(sp - line - 6));
			name[sp - line - 6] = '\0';
			pw = map_find_power(m, name);
			c = (struct parse_ctx){ m, g->names, &plain, pw };
			order_parse(&c, sp + 1, n - (size_t)(sp + 1 - line), &r);
			if (r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED) {
				r.order.power = pw;
				p->orders[p->norders++] = r.order;
			}
		}
	}
	/* The results, for drawing the orders; what followed is the next
	 * record's position (webpages_game), as the game's rules made it. */
	resolve_played(g, text, p);
	return 0;
}

/* What every page of g starts from: its name, address and the line on
 * its deadline (into deadline, of size n). */
static void
page_head(const struct webpages *w, struct store *st, const struct game *g, char *deadline,
    size_t n, struct page_game *pg)
{
	struct tz_lookup lk = zones_lookup(st->zones);
	char when[96];

	deadline[0] = '\0';
	if (g->status == GAME_ACTIVE && g->deadline)
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
	w->written += rc == 0;
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
	char deadline[320];
	int i, n = g->nphases, rc = 0;

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
		    read_played(g, buf_str(&rec), i + 1 >= first - 1, &pl[i]) < 0) {
			buf_printf(err, "game %s: history record %d cannot be read for the map pages\n",
			    g->name, i + 1);
			rc = -1;
			goto out;
		}
		if (i > 0)
			pl[i - 1].after = pl[i].before;
		pp[i].before = &pl[i].before;
		pp[i].orders = pl[i].orders;
		pp[i].norders = pl[i].norders;
		pp[i].res = &pl[i].res;
		pp[i].why = &pl[i].why;
		pp[i].after = &pl[i].after;
	}
	if (n > 0)
		pl[n - 1].after = g->board;
	page_head(w, st, g, deadline, sizeof deadline, &pg);
	pg.current = &g->board;
	pg.phases = pp;
	pg.nphases = n;
	for (i = first - 2; i < n && rc == 0; i++) {
		rc = pages_write_phase(w->dir, g->map, geo, &pg, i, err);
		w->written += rc == 0;
	}
	if (rc == 0)
		rc = pages_write_index(w->dir, g->map, geo, &pg, err);
out:
	for (i = 0; i < n; i++)
		free(pl[i].orders);
	free(pl);
	free(pp);
	buf_free(&rec);
	return rc;
}
