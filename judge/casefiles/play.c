#include "play.h"

#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/orders.h"
#include "../engine/adjudicate.h"
#include "../engine/report.h"
#include "../judge.h"
#include "../status.h"
#include "../system.h"
#include "../systems/systems.h"

#define PLAY_MAX_ORDERS 256

/* A game played from a file: it is the judge's game of the variant, played
 * by the variant's rule system (its resolve and its turn, judge/system.h),
 * as a game by mail is; only the orders come from the file. */
struct player {
	const struct map *m;
	struct game *g;
	struct judge *j;		/* what the system's turn tells the judge (its
					   audit notes) is kept here and dropped */
	struct judge_conf conf;
	struct names *names;
	struct order orders[PLAY_MAX_ORDERS];
	int norders;
	struct phase_result *res;
	struct buf *out;
	const char *fname;
	const struct play_hook *hook;
};

/* Adjudicate the collected orders by the game's rule system and move on to
 * the next phase as its turn says. Returns true when the game is over. */
static bool
resolve_phase(struct player *p)
{
	struct game *g = p->g;
	struct board before = g->board;
	struct phase_why *why = xmalloc(sizeof *why);
	struct turn t;
	char ph[48], result[sizeof g->result];

	system_resolve(g, &before, p->orders, p->norders, p->res, why);
	memset(&t, 0, sizeof t);
	t.j = p->j;
	t.g = g;
	t.before = &before;
	t.orders = p->orders;
	t.norders = p->norders;
	t.res = p->res;
	t.why = why;
	t.report = p->out;
	buf_puts(p->out, "\n");
	g->sys->turn(&t);
	free(why);
	g->board = t.next;
	board_sort(&g->board);
	if (p->hook && p->hook->phase)
		p->hook->phase(p->hook->ctx, &before, p->orders, p->norders, p->res, &g->board, p->out);
	p->norders = 0;
	if (g->sys->ended(g, result, sizeof result)) {
		g->status = GAME_ENDED;
		buf_printf(p->out, "\n%s.\n", result);
		return true;
	}
	buf_printf(p->out, "\nNext phase: %s.\n", phase_format(&g->board, ph, sizeof ph));
	return false;
}

static int
cmp_phase(const struct board *b, int y, enum season s, enum phase_type t)
{
	return phase_cmp(b->year, (enum season)b->season, (enum phase_type)b->phase, y, s, t);
}

int
play_text(const struct map *m, enum edition ed, const char *text, size_t len, const char *fname,
    struct buf *out)
{
	return play_text_hooked(m, ed, text, len, fname, NULL, out);
}

/* Make p's game: the variant m under edition ed, played by its rule
 * system. Returns 0, or -1 with the reason in out (a system unknown, or
 * one without a board: nothing to order on a map). */
static int
player_init(struct player *p, const struct map *m, enum edition ed, struct buf *out)
{
	const struct rule_system *sys = systems_for_map(m);
	struct game_settings set;
	struct judge_io io;

	if (sys == NULL) {
		buf_printf(out, "%s names a rule system pouch does not know\n", m->name);
		return -1;
	}
	if (system_serves(sys, SYS_BOARDLESS)) {
		buf_printf(out, "%s has no board: pouch play plays orders on a map; play its game "
		    "by mail (pouch transcript rehearses one)\n", m->title);
		return -1;
	}
	game_settings_default(&set, m->name);
	set.edition = ed;
	p->names = names_new(m);
	p->g = xcalloc(1, sizeof *p->g);
	game_init(p->g, "play", &set, m, p->names, 0);
	game_set_system(p->g, sys);
	p->g->status = GAME_ACTIVE;
	memset(&io, 0, sizeof io);
	p->j = xmalloc(sizeof *p->j);
	judge_init(p->j, &p->conf, &io);
	return 0;
}

int
play_text_hooked(const struct map *m, enum edition ed, const char *text, size_t len,
    const char *fname, const struct play_hook *hook, struct buf *out)
{
	struct player p;
	const char *s = text, *end = text + len, *line;
	size_t n;
	int lineno = 0, rc = 0, in_block = 0;
	bool over = false;

	memset(&p, 0, sizeof p);
	p.m = m;
	p.out = out;
	p.fname = fname;
	p.hook = hook;
	if (player_init(&p, m, ed, out) < 0) {
		names_free(p.names);
		return -1;
	}
	p.res = xmalloc(sizeof *p.res);
	status_put_title_rules(p.g, out);
	buf_printf(out, ", starting %s %d.\n", season_name(SEASON_SPRING), m->start_year);

	while ((line = str_next_line(&s, end, &n)) != NULL) {
		char buf[PARSE_MAX_LINE + 1], *t;

		lineno++;
		if (n > PARSE_MAX_LINE)
			n = PARSE_MAX_LINE;
		memcpy(buf, line, n);
		buf[n] = '\0';
		t = str_trim(buf);
		if (*t == '\0' || *t == '#')
			continue;
		if (str_prefix_nocase(t, "EDITION ")) {
			enum edition e;
			if (edition_parse(str_trim(t + 8), &e) < 0) {
				buf_printf(out, "%s:%d: unknown edition\n", fname, lineno);
				rc = -1;
				break;
			}
			p.g->set.edition = e;
			game_set_rules(p.g);
			continue;
		}
		if (str_prefix_nocase(t, "ORDERS ")) {
			struct board *b = &p.g->board;
			int y;
			enum season se;
			enum phase_type pt;

			if (phase_parse(str_trim(t + 7), &y, &se, &pt) < 0) {
				buf_printf(out, "%s:%d: cannot read the phase \"%s\"\n", fname, lineno, t + 7);
				rc = -1;
				break;
			}
			if (in_block)
				over = resolve_phase(&p);
			while (!over && cmp_phase(b, y, se, pt) < 0)
				over = resolve_phase(&p);
			in_block = 0;
			if (over) {
				buf_printf(out, "%s:%d: the game is over before %s\n", fname, lineno,
				    str_trim(t + 7));
				rc = -1;
				break;
			}
			if (cmp_phase(b, y, se, pt) != 0) {
				char ph[48];
				buf_printf(out, "%s:%d: there is no %s phase here (the game is at %s)\n", fname,
				    lineno, str_trim(t + 7), phase_format(b, ph, sizeof ph));
				rc = -1;
				break;
			}
			in_block = 1;
			{
				char ph[48];
				buf_printf(out, "\n=== %s ===\n", phase_format(b, ph, sizeof ph));
			}
			continue;
		}
		if (!in_block) {
			buf_printf(out, "%s:%d: orders before the first ORDERS line\n", fname, lineno);
			rc = -1;
			break;
		}
		{
			struct board plain;
			struct parse_ctx c = { m, p.names, game_parse_board(p.g, &plain), POWER_NONE };
			struct parse_result r;
			struct buf canon;

			order_parse(&c, t, strlen(t), &r);
			if (r.verdict == VERDICT_BLANK)
				continue;
			if (r.verdict == VERDICT_REFUSED) {
				buf_printf(out, "  refused:   %s  (%s)\n", t, r.note);
				continue;
			}
			if (r.order.power == POWER_NONE) {
				buf_printf(out, "  refused:   %s  (whose order is it? start with the power)\n", t);
				continue;
			}
			if (p.norders >= PLAY_MAX_ORDERS) {
				buf_printf(out, "  refused:   %s  (too many orders)\n", t);
				continue;
			}
			p.orders[p.norders++] = r.order;
			if (r.verdict == VERDICT_CORRECTED) {
				buf_init(&canon, 1024);
				order_format(m, &r.order, ORDER_SHORT, &canon);
				buf_printf(out, "  corrected: %s  ->  %s: %s  (%s)\n", t,
				    m->powers[r.order.power].name, buf_str(&canon), r.note);
				buf_free(&canon);
			}
		}
	}
	if (rc == 0 && in_block)
		over = resolve_phase(&p);
	if (rc == 0) {
		buf_puts(out, "\nPosition:\n");
		board_write(&p.g->board, m, out);
	}
	free(p.res);
	judge_free(p.j);
	free(p.j);
	game_free(p.g);
	names_free(p.names);
	return rc;
}
