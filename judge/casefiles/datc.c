/*
 * datc.c — the DATC case-file runner (format in datc.h).
 *
 * Each case is read into a struct dcase (lines borrowed from a private
 * copy of the file), then played: the starting position is built from the
 * PRESTATE sections, each ORDERS block is parsed with the order parser
 * against that position (so case files may use any order form players
 * use), adjudicated, checked against RESULTS/REMOVED, and the last
 * position is compared with POSTSTATE and POSTSTATE_DISLODGED.
 */
#define _DEFAULT_SOURCE
#include "datc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/orders.h"
#include "../engine/adjudicate.h"
#include "../engine/resolver.h"
#include "../engine/report.h"

#define MAX_LINES 96
#define MAX_PHASES 4

struct lines {
	int n;
	const char *l[MAX_LINES];
	int lineno[MAX_LINES];
};

struct dphase {
	struct lines orders;
	struct lines results;
	struct lines removed;
};

struct dcase {
	char name[160];
	int line;
	int has_edition;
	enum edition edition;
	char setphase[64];
	struct lines pre, pre_dislodged, pre_results, owners;
	int has_owners;
	int nphases;
	struct dphase ph[MAX_PHASES];
	struct lines post, post_dislodged;
	int has_post, post_same, has_post_dislodged;
};

enum section {
	S_NONE, S_PRE, S_PRE_DISLODGED, S_PRE_RESULTS, S_OWNERS, S_ORDERS, S_RESULTS, S_REMOVED,
	S_POST, S_POST_DISLODGED
};

struct runner {
	const struct map *m;
	struct names *names;
	enum edition dflt;
	const char *fname;
	int verbose;
	struct buf *report;
	struct datc_totals *t;
	bool reasons;		/* each phase's results, with the reason lines, to report */
};

static void
add_line(struct lines *ls, const char *s, int lineno)
{
	if (ls->n < MAX_LINES) {
		ls->l[ls->n] = s;
		ls->lineno[ls->n] = lineno;
		ls->n++;
	}
}

/* Does unit line s end with the word "aboard"? Sets *len to its length
 * without it. */
static int
ends_aboard(const char *s, size_t *len)
{
	size_t n = strlen(s);

	*len = n;
	if (n < 7 || !str_eq_nocase(s + n - 6, "aboard") || (s[n - 7] != ' ' && s[n - 7] != '\t'))
		return 0;
	*len = n - 7;
	return 1;
}

/* Parse "Power: A loc" (or "Power: A loc aboard", an army on board the
 * fleet there) into a unit. Returns 0 or -1 with a reason. */
static int
parse_unit_line(struct runner *rn, const char *s, struct unit *u, const char **why)
{
	struct parse_ctx c = { rn->m, rn->names, NULL, POWER_NONE };
	struct parse_result r;
	size_t len;
	int on_board = ends_aboard(s, &len);

	order_parse(&c, s, len, &r);
	if (r.verdict == VERDICT_REFUSED) {
		*why = "cannot read unit";
		return -1;
	}
	if (r.order.kind != ORDER_HOLD || r.order.power == POWER_NONE || r.order.type == UNIT_NONE) {
		*why = "expected \"Power: A place\"";
		return -1;
	}
	u->power = r.order.power;
	u->type = r.order.type;
	u->loc = r.order.loc;
	if (on_board) {
		const char *p = s;
		if (u->type != UNIT_ARMY) {
			*why = "only an army goes on board";
			return -1;
		}
		return board_aboard(rn->m, &p, s, u, why);
	}
	if (u->type == UNIT_FLEET && !rn->m->locs[u->loc].fleet_ok)
		u->loc = map_default_loc(rn->m, rn->m->locs[u->loc].prov, UNIT_FLEET);
	if (u->loc == LOC_NONE || !map_loc_allows(rn->m, (enum unit_type)u->type, u->loc)) {
		*why = "that unit cannot stand there";
		return -1;
	}
	return 0;
}

static void
put_units(const struct map *m, const struct unit *u, int n, struct buf *out)
{
	int i;

	for (i = 0; i < n; i++) {
		buf_printf(out, "\t\t%s: ", m->powers[u[i].power].name);
		unit_format(m, &u[i], out);
		buf_putc(out, '\n');
	}
	if (n == 0)
		buf_puts(out, "\t\t(none)\n");
}

static int
same_units(struct unit *a, int na, struct unit *b, int nb)
{
	qsort(a, (size_t)na, sizeof *a, unit_cmp);
	qsort(b, (size_t)nb, sizeof *b, unit_cmp);
	return na == nb && (na == 0 || memcmp(a, b, (size_t)na * sizeof *a) == 0);
}

/* Can dislodged unit d retreat anywhere? */
static int
can_retreat(const struct map *m, const struct board *b, const struct dislodged *d)
{
	const struct location *l = &m->locs[d->unit.loc];
	int i;

	for (i = 0; i < l->nadj[d->unit.type]; i++) {
		prov_id p = m->locs[l->adj[d->unit.type][i]].prov;
		if (board_unit_in(b, m, p) < 0 && p != d->attacker && !board_contested(b, p))
			return 1;
	}
	return 0;
}

/* Did order i succeed, in the sense of the RESULTS section? */
static int
order_succeeded(const struct phase_result *res, int i, const struct order *o)
{
	enum reason r = (enum reason)res->reason[i];
	int u = res->order_unit[i];

	if (reason_is_illegal(r))
		return 0;
	switch (o->kind) {
	case ORDER_HOLD:
	case ORDER_CONVOY:
		return u >= 0 && !res->unit_dislodged[u];
	case ORDER_SUPPORT:
		return r == R_OK || r == R_VOID;
	default:
		return r == R_OK;
	}
}

/* Compare order texts ignoring case and blanks. */
static int
same_text(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ' || *a == '\t')
			a++;
		while (*b == ' ' || *b == '\t')
			b++;
		if (*a == '\0' || *b == '\0' || *a == '#' || *b == '#')
			return (*a == '\0' || *a == '#') && (*b == '\0' || *b == '#');
		if (str_lc(*a) != str_lc(*b))
			return 0;
		a++;
		b++;
	}
}

__attribute__((format(printf, 3, 4))) static void
problem(struct buf *out, int *first, const char *fmt, ...)
{
	va_list ap;

	(void)first;
	buf_puts(out, "\t");
	va_start(ap, fmt);
	buf_vprintf(out, fmt, ap);
	va_end(ap);
	buf_putc(out, '\n');
}

static int
run_case(struct runner *rn, struct dcase *dc)
{
	const struct map *m = rn->m;
	enum edition ed = dc->has_edition ? dc->edition : rn->dflt;
	struct rules rules;
	struct board b, plain;
	struct phase_result *res = xmalloc(sizeof *res);
	struct buf why;
	int year, ph, i, k, ok = 1, first = 1;
	enum season se;
	enum phase_type pt;
	const char *err;

	rules_for_map(&rules, m, ed);
	buf_init(&why, 1 << 20);
	if (dc->setphase[0] == '\0')
		str_copy(dc->setphase, "Spring 1901, Movement", sizeof dc->setphase);
	if (phase_parse(dc->setphase, &year, &se, &pt) < 0) {
		problem(&why, &first, "bad PRESTATE_SETPHASE \"%s\"", dc->setphase);
		ok = 0;
		goto report;
	}
	board_init_empty(&b, year, se, pt);
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply)
			b.owner[i] = m->provs[i].home;
	for (i = 0; i < dc->pre.n; i++) {
		struct unit u;
		if (parse_unit_line(rn, dc->pre.l[i], &u, &err) < 0) {
			problem(&why, &first, "line %d: %s: %s", dc->pre.lineno[i], err, dc->pre.l[i]);
			ok = 0;
			continue;
		}
		board_add_unit(&b, (enum unit_type)u.type, u.power, u.loc);
	}
	for (i = 0; i < dc->pre_dislodged.n; i++) {
		struct unit u;
		if (parse_unit_line(rn, dc->pre_dislodged.l[i], &u, &err) < 0) {
			problem(&why, &first, "line %d: %s: %s", dc->pre_dislodged.lineno[i], err,
			    dc->pre_dislodged.l[i]);
			ok = 0;
			continue;
		}
		b.dislodged[b.ndislodged].unit = u;
		b.dislodged[b.ndislodged].attacker = PROV_NONE;
		b.ndislodged++;
	}
	if (dc->has_owners) {
		memset(b.owner, POWER_NONE, sizeof b.owner);
		for (i = 0; i < dc->owners.n; i++) {
			struct unit u;
			prov_id p;
			if (parse_unit_line(rn, dc->owners.l[i], &u, &err) < 0) {
				problem(&why, &first, "line %d: %s: %s", dc->owners.lineno[i], err,
				    dc->owners.l[i]);
				ok = 0;
				continue;
			}
			p = m->locs[u.loc].prov;
			if (m->provs[p].supply)
				b.owner[p] = u.power;
		}
	}
	/* The movement before a retreat phase: where attackers came from and
	 * which provinces were left empty by standoffs. */
	for (i = 0; i < dc->pre_results.n; i++) {
		const char *s = dc->pre_results.l[i];
		struct parse_ctx c = { m, rn->names, NULL, POWER_NONE };
		struct parse_result r;
		int success;

		if (str_prefix_nocase(s, "SUCCESS:"))
			success = 1;
		else if (str_prefix_nocase(s, "FAILURE:"))
			success = 0;
		else {
			problem(&why, &first, "line %d: expected SUCCESS: or FAILURE:", dc->pre_results.lineno[i]);
			ok = 0;
			continue;
		}
		s += 8;
		order_parse(&c, s, strlen(s), &r);
		if (r.verdict == VERDICT_REFUSED || r.order.kind != ORDER_MOVE)
			continue;
		{
			prov_id from = m->locs[r.order.loc].prov, to = m->locs[r.order.dest].prov;
			int convoyed = r.order.via_convoy ||
			    !map_reaches(m, (enum unit_type)(r.order.type ? r.order.type : UNIT_ARMY),
				m->provs[from].loc, to);
			for (k = 0; k < b.ndislodged; k++) {
				if (m->locs[b.dislodged[k].unit.loc].prov != to || !success)
					continue;
				b.dislodged[k].attacker =
				    rules.retreat_to_convoy_origin && convoyed ? PROV_NONE : from;
			}
			if (!success && board_unit_in(&b, m, to) < 0) {
				int mover_dislodged = 0;
				for (k = 0; k < b.ndislodged; k++)
					if (m->locs[b.dislodged[k].unit.loc].prov == from)
						mover_dislodged = 1;
				if (!mover_dislodged)
					board_set_contested(&b, to);
			}
		}
	}
	if (!ok)
		goto report;

	for (ph = 0; ph < dc->nphases; ph++) {
		struct dphase *dp = &dc->ph[ph];
		struct order orders[MAX_LINES];
		int line_of[MAX_LINES], n = 0;

		if (ph > 0)
			phase_next(m, &rules, &b);
		plain = b;
		board_plain(&plain);
		for (i = 0; i < dp->orders.n; i++) {
			struct parse_ctx c = { m, rn->names, &plain, POWER_NONE };
			struct parse_result r;
			order_parse(&c, dp->orders.l[i], strlen(dp->orders.l[i]), &r);
			if (r.verdict == VERDICT_BLANK)
				continue;
			if (r.verdict == VERDICT_REFUSED) {
				if (rn->verbose)
					buf_printf(&why, "\tnote: order refused by the parser (%s): %s\n", r.note,
					    dp->orders.l[i]);
				line_of[i] = -1;
				continue;
			}
			line_of[i] = n;
			orders[n++] = r.order;
		}
		if (rn->verbose > 1)
			buf_printf(&why, "\ttrace of phase %d:\n", ph + 1);
		if (rn->reasons) {
			struct phase_why *y = xmalloc(sizeof *y);
			adj_resolve_why(m, &rules, &b, NULL, orders, n, res, y);
			buf_printf(rn->report, "%sCASE %s\n", ph == 0 ? "\n" : "", dc->name);
			report_results(m, &b, orders, res, y, rn->report);
			if (b.phase != PHASE_ADJUSTMENT && (k = adj_why_check(res, y)) >= 0) {
				problem(&why, &first, "the reason of unit %d does not fit its result", k);
				ok = 0;
			}
			free(y);
		} else {
			adj_resolve(m, &rules, &b, orders, n, res, rn->verbose > 1 ? &why : NULL);
		}
		for (i = 0; i < dp->results.n; i++) {
			const char *s = dp->results.l[i];
			int want, got = 0, found = 0;

			want = str_prefix_nocase(s, "SUCCESS:");
			if (!want && !str_prefix_nocase(s, "FAILURE:")) {
				problem(&why, &first, "line %d: expected SUCCESS: or FAILURE:",
				    dp->results.lineno[i]);
				ok = 0;
				continue;
			}
			s += 8;
			for (k = 0; k < dp->orders.n && !found; k++) {
				if (!same_text(dp->orders.l[k], s))
					continue;
				found = 1;
				got = line_of[k] >= 0 && order_succeeded(res, line_of[k], &orders[line_of[k]]);
			}
			if (!found) {
				problem(&why, &first, "line %d: result for an order not in ORDERS: %s",
				    dp->results.lineno[i], s);
				ok = 0;
			} else if (got != want) {
				problem(&why, &first, "expected %s, got %s: %s", want ? "SUCCESS" : "FAILURE",
				    got ? "SUCCESS" : "FAILURE", str_trim((char *)(uintptr_t)s));
				ok = 0;
			}
		}
		for (i = 0; i < dp->removed.n; i++) {
			struct unit u;
			int found = 0;
			if (parse_unit_line(rn, dp->removed.l[i], &u, &err) < 0) {
				problem(&why, &first, "line %d: %s", dp->removed.lineno[i], err);
				ok = 0;
				continue;
			}
			for (k = 0; k < res->nremoved; k++)
				found |= res->removed[k].loc == u.loc && res->removed[k].power == u.power;
			if (!found) {
				problem(&why, &first, "civil disorder should have removed %s", dp->removed.l[i]);
				ok = 0;
			}
		}
		b = res->after;
	}

	if (dc->has_post || dc->post_same) {
		struct unit want[BOARD_MAX_UNITS], got[BOARD_MAX_UNITS];
		int nw = 0, ng = b.nunits;

		if (dc->post_same) {
			struct board start;
			/* Units as in PRESTATE. */
			nw = 0;
			for (i = 0; i < dc->pre.n; i++)
				if (parse_unit_line(rn, dc->pre.l[i], &want[nw], &err) == 0)
					nw++;
			(void)start;
		} else {
			for (i = 0; i < dc->post.n; i++) {
				if (parse_unit_line(rn, dc->post.l[i], &want[nw], &err) < 0) {
					problem(&why, &first, "line %d: %s: %s", dc->post.lineno[i], err,
					    dc->post.l[i]);
					ok = 0;
					continue;
				}
				nw++;
			}
		}
		memcpy(got, b.units, (size_t)ng * sizeof got[0]);
		if (!same_units(want, nw, got, ng)) {
			problem(&why, &first, "positions differ");
			buf_puts(&why, "\texpected:\n");
			put_units(m, want, nw, &why);
			buf_puts(&why, "\tactual:\n");
			put_units(m, got, ng, &why);
			ok = 0;
		}
	}
	if (dc->has_post_dislodged || (dc->has_post && b.phase == PHASE_MOVEMENT)) {
		struct unit want[BOARD_MAX_UNITS], got[BOARD_MAX_UNITS];
		int nw = 0, ng = 0;

		for (i = 0; i < dc->post_dislodged.n; i++) {
			if (parse_unit_line(rn, dc->post_dislodged.l[i], &want[nw], &err) < 0) {
				problem(&why, &first, "line %d: %s", dc->post_dislodged.lineno[i], err);
				ok = 0;
				continue;
			}
			nw++;
		}
		for (i = 0; i < b.ndislodged; i++)
			if (can_retreat(m, &b, &b.dislodged[i]))
				got[ng++] = b.dislodged[i].unit;
		if (!same_units(want, nw, got, ng)) {
			problem(&why, &first, "dislodged units differ");
			buf_puts(&why, "\texpected:\n");
			put_units(m, want, nw, &why);
			buf_puts(&why, "\tactual:\n");
			put_units(m, got, ng, &why);
			ok = 0;
		}
	}

report:
	if (!ok || rn->verbose)
		buf_printf(rn->report, "%s:%d: CASE %s: %s (edition %s)\n%s", rn->fname, dc->line,
		    dc->name, ok ? "passed" : "FAILED", edition_name(ed), buf_str(&why));
	if (ok)
		rn->t->passed++;
	else
		rn->t->failed++;
	buf_free(&why);
	free(res);
	return ok;
}

static const char *
after_word(char *s)
{
	s += strcspn(s, " \t");
	return str_trim(s);
}

int
datc_variant(const char *text, size_t len, char *out, size_t size)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[128];

		if (n < sizeof line) {
			char *s, *w;
			memcpy(line, p, n);
			line[n] = '\0';
			s = str_trim(line);
			if (str_prefix_nocase(s, "VARIANT_ALL")) {
				w = (char *)(uintptr_t)after_word(s);
				w[strcspn(w, " \t#")] = '\0';
				str_copy(out, w, size);
				return *out ? 0 : -1;
			}
		}
		p += n + 1;
	}
	return -1;
}

int
datc_run(const struct map *m, enum edition dflt, const char *text, size_t len, const char *fname,
    int verbose, struct buf *report, struct datc_totals *t)
{
	struct runner rn = { m, names_new(m), dflt, fname, verbose, report, t, false };

	if (verbose < 0) {
		rn.reasons = true;
		rn.verbose = 0;
	}
	char *copy = xstrndup(text, len), *p = copy, *line;
	struct dcase *dc = xcalloc(1, sizeof *dc);
	enum section sec = S_NONE;
	int lineno = 0, in_case = 0, bad = 0;

	while ((line = strsep(&p, "\n")) != NULL) {
		char *s, *hash;

		lineno++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		s = str_trim(line);
		if (*s == '\0')
			continue;
		if (str_prefix_nocase(s, "VARIANT_ALL")) {
			const char *v = after_word(s);
			if (!str_eq_nocase(v, "standard") && !str_eq_nocase(v, m->name) &&
			    !str_eq_nocase(v, m->title)) {
				buf_printf(report, "%s:%d: variant %s is not %s\n", fname, lineno, v, m->name);
				bad = 1;
				break;
			}
			continue;
		}
		if (str_prefix_nocase(s, "CASE") && (s[4] == ' ' || s[4] == '\t' || s[4] == '\0')) {
			if (in_case) {
				buf_printf(report, "%s:%d: CASE inside a case (missing END)\n", fname, lineno);
				bad = 1;
				break;
			}
			memset(dc, 0, sizeof *dc);
			str_copy(dc->name, after_word(s), sizeof dc->name);
			dc->line = lineno;
			in_case = 1;
			sec = S_NONE;
			continue;
		}
		if (!in_case) {
			buf_printf(report, "%s:%d: text outside a case: %s\n", fname, lineno, s);
			bad = 1;
			break;
		}
		if (str_eq_nocase(s, "END")) {
			run_case(&rn, dc);
			in_case = 0;
			continue;
		}
		if (str_prefix_nocase(s, "PRESTATE_SETPHASE")) {
			str_copy(dc->setphase, after_word(s), sizeof dc->setphase);
			continue;
		}
		if (str_prefix_nocase(s, "EDITION")) {
			if (edition_parse(after_word(s), &dc->edition) < 0) {
				buf_printf(report, "%s:%d: unknown edition %s\n", fname, lineno, after_word(s));
				bad = 1;
				break;
			}
			dc->has_edition = 1;
			continue;
		}
		if (str_eq_nocase(s, "PRESTATE")) {
			sec = S_PRE;
		} else if (str_eq_nocase(s, "PRESTATE_DISLODGED")) {
			sec = S_PRE_DISLODGED;
		} else if (str_eq_nocase(s, "PRESTATE_RESULTS")) {
			sec = S_PRE_RESULTS;
		} else if (str_eq_nocase(s, "PRESTATE_SUPPLYCENTER_OWNERS")) {
			sec = S_OWNERS;
			dc->has_owners = 1;
		} else if (str_eq_nocase(s, "ORDERS")) {
			if (dc->nphases >= MAX_PHASES) {
				buf_printf(report, "%s:%d: too many ORDERS blocks\n", fname, lineno);
				bad = 1;
				break;
			}
			dc->nphases++;
			sec = S_ORDERS;
		} else if (str_eq_nocase(s, "RESULTS") || str_eq_nocase(s, "REMOVED")) {
			if (dc->nphases == 0) {
				buf_printf(report, "%s:%d: %s before ORDERS\n", fname, lineno, s);
				bad = 1;
				break;
			}
			sec = str_eq_nocase(s, "RESULTS") ? S_RESULTS : S_REMOVED;
		} else if (str_eq_nocase(s, "POSTSTATE")) {
			sec = S_POST;
			dc->has_post = 1;
		} else if (str_eq_nocase(s, "POSTSTATE_SAME")) {
			sec = S_NONE;
			dc->post_same = 1;
		} else if (str_eq_nocase(s, "POSTSTATE_DISLODGED")) {
			sec = S_POST_DISLODGED;
			dc->has_post_dislodged = 1;
		} else {
			struct dphase *dp = dc->nphases ? &dc->ph[dc->nphases - 1] : NULL;
			switch (sec) {
			case S_PRE: add_line(&dc->pre, s, lineno); break;
			case S_PRE_DISLODGED: add_line(&dc->pre_dislodged, s, lineno); break;
			case S_PRE_RESULTS: add_line(&dc->pre_results, s, lineno); break;
			case S_OWNERS: add_line(&dc->owners, s, lineno); break;
			case S_ORDERS: add_line(&dp->orders, s, lineno); break;
			case S_RESULTS: add_line(&dp->results, s, lineno); break;
			case S_REMOVED: add_line(&dp->removed, s, lineno); break;
			case S_POST: add_line(&dc->post, s, lineno); break;
			case S_POST_DISLODGED: add_line(&dc->post_dislodged, s, lineno); break;
			default:
				buf_printf(report, "%s:%d: unexpected line: %s\n", fname, lineno, s);
				bad = 1;
				break;
			}
			if (bad)
				break;
		}
	}
	if (!bad && in_case) {
		buf_printf(report, "%s: the last case has no END\n", fname);
		bad = 1;
	}
	names_free(rn.names);
	free(dc);
	free(copy);
	return bad ? -1 : 0;
}
