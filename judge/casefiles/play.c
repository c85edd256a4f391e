#include "play.h"

#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/orders.h"
#include "../engine/adjudicate.h"
#include "../engine/report.h"

#define PLAY_MAX_ORDERS 256

struct player {
	const struct map *m;
	struct rules r;
	struct names *names;
	struct board b;
	struct order orders[PLAY_MAX_ORDERS];
	int norders;
	struct phase_result *res;
	struct buf *out;
	const char *fname;
	const struct play_hook *hook;
};

/* Adjudicate the collected orders and move on to the next phase. */
static void
resolve_phase(struct player *p)
{
	struct board before = p->b;
	struct phase_why *why = xmalloc(sizeof *why);
	char ph[48];

	adj_resolve_why(p->m, &p->r, &p->b, NULL, p->orders, p->norders, p->res, why);
	buf_puts(p->out, "\n");
	report_results(p->m, &before, p->orders, p->res, why, p->out);
	free(why);
	p->b = p->res->after;
	phase_next(p->m, &p->r, &p->b);
	if (before.season == SEASON_FALL && p->b.season != SEASON_FALL)
		report_centres(p->m, &p->b, &before, p->out);	/* the year is over */
	report_next(p->m, &p->r, &p->b, p->out);
	if (p->hook && p->hook->phase)
		p->hook->phase(p->hook->ctx, &before, p->orders, p->norders, p->res, &p->b, p->out);
	buf_printf(p->out, "\nNext phase: %s.\n", phase_format(&p->b, ph, sizeof ph));
	p->norders = 0;
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

int
play_text_hooked(const struct map *m, enum edition ed, const char *text, size_t len,
    const char *fname, const struct play_hook *hook, struct buf *out)
{
	struct player p;
	const char *s = text, *end = text + len, *line;
	size_t n;
	int lineno = 0, rc = 0, in_block = 0;

	memset(&p, 0, sizeof p);
	p.m = m;
	rules_init(&p.r, ed);
	p.names = names_new(m);
	p.res = xmalloc(sizeof *p.res);
	p.out = out;
	p.fname = fname;
	p.hook = hook;
	board_init_start(&p.b, m);
	buf_printf(out, "%s, %s rules, starting %s %d.\n", m->title, edition_name(ed),
	    season_name(SEASON_SPRING), m->start_year);

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
			rules_init(&p.r, e);
			continue;
		}
		if (str_prefix_nocase(t, "ORDERS ")) {
			int y;
			enum season se;
			enum phase_type pt;

			if (phase_parse(str_trim(t + 7), &y, &se, &pt) < 0) {
				buf_printf(out, "%s:%d: cannot read the phase \"%s\"\n", fname, lineno, t + 7);
				rc = -1;
				break;
			}
			if (in_block)
				resolve_phase(&p);
			while (cmp_phase(&p.b, y, se, pt) < 0)
				resolve_phase(&p);
			if (cmp_phase(&p.b, y, se, pt) != 0) {
				char ph[48];
				buf_printf(out, "%s:%d: there is no %s phase here (the game is at %s)\n", fname,
				    lineno, str_trim(t + 7), phase_format(&p.b, ph, sizeof ph));
				rc = -1;
				break;
			}
			in_block = 1;
			{
				char ph[48];
				buf_printf(out, "\n=== %s ===\n", phase_format(&p.b, ph, sizeof ph));
			}
			continue;
		}
		if (!in_block) {
			buf_printf(out, "%s:%d: orders before the first ORDERS line\n", fname, lineno);
			rc = -1;
			break;
		}
		{
			struct parse_ctx c = { m, p.names, &p.b, POWER_NONE };
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
		resolve_phase(&p);
	if (rc == 0) {
		buf_puts(out, "\nPosition:\n");
		board_write(&p.b, m, out);
	}
	free(p.res);
	names_free(p.names);
	return rc;
}
