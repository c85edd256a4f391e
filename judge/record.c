/*
 * record.c — a phase's history record played again (record.h).
 */
#include "record.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../parser/orders.h"
#include "system.h"

/* The orders section of record text into p->orders, read against the
 * position before (end: where that section ends). */
static void
read_orders(const struct game *g, const char *ord, const char *end, struct played_phase *p)
{
	const struct map *m = g->map;
	struct board plain = p->before;
	const char *line;
	size_t n;

	board_plain(&plain);	/* the parser knows units by their type */
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

/* The orders of p played again into p->res and p->why by g's rules as the
 * phase found them: with what the system kept with the record text. */
static void
resolve_played(const struct game *g, const char *text, struct played_phase *p)
{
	const char *ord = strstr(text, "\norders\n"), *pos = strstr(text, "\nposition before\n");
	bool kept = ord != NULL && pos != NULL && ord < pos;
	struct game *then;

	if (g->sys == NULL || g->sys->resolve == NULL || g->sys->history_read == NULL ||
	    g->sys->state_new == NULL) {
		system_resolve(g, &p->before, p->orders, p->norders, &p->res, &p->why);
		system_capitals(g, p->capital);
		return;
	}
	/* A copy sharing g's map, rules and delegations, with a state of its
	 * own read from the record. */
	then = xmalloc(sizeof *then);
	*then = *g;
	then->state = g->sys->state_new(then);
	system_history_read(then, kept ? ord : NULL, kept ? (size_t)(pos - ord) : 0);
	system_resolve(then, &p->before, p->orders, p->norders, &p->res, &p->why);
	system_capitals(then, p->capital);
	g->sys->state_free(then->state);
	free(then);
}

int
record_play(const struct game *g, const char *text, bool full, struct played_phase *p)
{
	const char *pos = strstr(text, "\nposition before\n"), *ord, *end;
	struct buf err;
	int rc = 0;

	p->orders = NULL;
	p->norders = 0;
	p->why.nunits = 0;
	for (size_t k = 0; k < MAP_MAX_PROVS; k++)	/* until the record's state says otherwise */
		p->capital[k] = k < (size_t)g->map->nprovs ? g->map->provs[k].capital : POWER_NONE;
	if (pos == NULL)
		return -1;
	buf_init(&err, BUF_ERRORS_MAX);
	end = pos;
	pos += strlen("\nposition before\n");
	if (board_read(&p->before, g->map, pos, strlen(pos), &err) < 0)
		rc = -1;
	buf_free(&err);
	if (rc < 0 || !full)
		return rc;
	p->orders = xcalloc(ADJ_MAX_ORDERS, sizeof *p->orders);
	ord = strstr(text, "\norders\n");
	if (ord != NULL && ord < end)
		read_orders(g, ord + strlen("\norders\n"), end, p);
	resolve_played(g, text, p);
	return 0;
}

void
record_played_free(struct played_phase *p)
{
	free(p->orders);
	p->orders = NULL;
}

bool
record_matches(const char *text, const char *what)
{
	const char *nl = strchr(text, '\n');
	size_t n = nl ? (size_t)(nl - text) : strlen(text);
	char hdr[64], code[16], ph[48];
	struct board tmp;
	enum season se;
	enum phase_type pt;
	int y;

	if (n >= sizeof hdr)
		n = sizeof hdr - 1;
	memcpy(hdr, text, n);
	hdr[n] = '\0';
	if (strstr(hdr, what) != NULL)
		return true;
	/* "S1901M" style: compare with the record's phase. */
	if (phase_parse(hdr + (strncmp(hdr, "phase ", 6) == 0 ? 6 : 0), &y, &se, &pt) < 0)
		return false;
	memset(&tmp, 0, sizeof tmp);
	tmp.year = y;
	tmp.season = (uint8_t)se;
	tmp.phase = (uint8_t)pt;
	phase_code(&tmp, code, sizeof code);
	return str_eq_nocase(code, what) || str_eq_nocase(phase_format(&tmp, ph, sizeof ph), what);
}
