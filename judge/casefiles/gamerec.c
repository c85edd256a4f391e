/*
 * gamerec.c — recorded-game replay (format in gamerec.h).
 *
 * Speed matters here (the whole archive is replayed in the test suite and
 * the benchmark), so the record is read with a small dedicated scanner
 * rather than the free-text order parser: the format is a fixed keyword
 * notation, not player prose.
 */
#define _DEFAULT_SOURCE
#include "gamerec.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../engine/adjudicate.h"
#include "../engine/report.h"

#define MAX_PHASES 1024
#define MAX_ORDERS_PER_PHASE 256

struct rphase {
	int year;
	enum season season;
	enum phase_type type;
	const char *pos, *pos_end;	/* POSITIONS lines */
	const char *ord, *ord_end;	/* ORDERS lines */
	int lineno;
};

/* A word of the record: the bytes where they lie in the file, never copied. */
struct word {
	const char *s;
	size_t n;
};

/* Does word w read lit (a string literal)? The first byte tells most apart
 * without a call. */
#define WORD_IS(w, lit) ((w).n == sizeof(lit) - 1 && (w).s[0] == (lit)[0] && \
	memcmp((w).s, lit, sizeof(lit) - 1) == 0)

/* Next whitespace-separated word of [*p, end), at most max - 1 bytes of it
 * (the rest is passed over, as a longer word matches nothing); n = 0 at the
 * line's end. */
static struct word
word(const char **p, const char *end, size_t max)
{
	const char *s = *p;
	struct word w;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	w.s = s;
	while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	w.n = (size_t)(s - w.s) < max ? (size_t)(s - w.s) : max - 1;
	*p = s;
	return w;
}

/* What the reader of one record keeps: the map, its names, and the place
 * of every three-letter word met so far. */
struct reader {
	const struct map *m;
	const struct names *nm;
	uint16_t *abbr;		/* ABBR_SLOTS, by the three letters a-z: 0 not
				   looked up yet, else 1 + the loc_id or ABBR_NONE */
};

#define ABBR_SLOTS (26 * 26 * 26)
#define ABBR_NONE 0xffff

/* The location a word names, looked up in the names: a province's
 * abbreviation, "stp/sc" for a coast. */
static loc_id
lookup_loc(const struct reader *rd, struct word w)
{
	const char *slash = memchr(w.s, '/', w.n);
	struct name_cand c;
	char coast[16];
	size_t k;

	if (names_province_exactn(rd->nm, w.s, slash ? (size_t)(slash - w.s) : w.n, &c) == 0)
		return LOC_NONE;
	if (slash == NULL)
		return rd->m->provs[c.id].loc;
	k = w.n - (size_t)(slash + 1 - w.s);	/* less than a word's 16 */
	memcpy(coast, slash + 1, k);
	coast[k] = '\0';
	return map_find_coast(rd->m, (prov_id)c.id, coast);
}

/* The location a word names. Nearly every one is a province's three
 * letters, met hundreds of times in a record: looked up in the names once. */
static loc_id
find_loc(const struct reader *rd, struct word w)
{
	unsigned a, b, c;
	uint16_t *slot;
	loc_id l;

	if (w.n != 3 || (a = (unsigned char)w.s[0] - 'a') >= 26 ||
	    (b = (unsigned char)w.s[1] - 'a') >= 26 || (c = (unsigned char)w.s[2] - 'a') >= 26)
		return lookup_loc(rd, w);
	slot = &rd->abbr[(a * 26 + b) * 26 + c];
	if (*slot == 0) {
		l = lookup_loc(rd, w);
		*slot = l == LOC_NONE ? ABBR_NONE : (uint16_t)(l + 1);
	}
	return *slot == ABBR_NONE ? LOC_NONE : (loc_id)(*slot - 1);
}

/* The power whose name is the n bytes at s; len holds the powers' name lengths. */
static power_id
find_power(const struct map *m, const size_t *len, const char *s, size_t n)
{
	int p;

	for (p = 0; p < m->npowers; p++)
		if (len[p] == n && m->powers[p].name[0] == s[0] && memcmp(m->powers[p].name, s, n) == 0)
			return (power_id)p;
	return POWER_NONE;
}

/* Does the word contain the n bytes at sub? */
static bool
word_has(struct word w, const char *sub, size_t n)
{
	size_t i;

	for (i = 0; i + n <= w.n; i++)
		if (memcmp(w.s + i, sub, n) == 0)
			return true;
	return false;
}

/* Read a POSITIONS section into b (phase fields set by the caller). */
static int
read_positions(const struct reader *rd, const struct rphase *ph, struct board *b, struct buf *why)
{
	const struct map *m = rd->m;
	const char *p = ph->pos, *line;
	size_t len, plen[MAP_MAX_POWERS];
	int i;

	for (i = 0; i < m->npowers; i++)
		plen[i] = strlen(m->powers[i].name);
	board_init_empty(b, ph->year, ph->season, ph->type);
	while ((line = str_next_line(&p, ph->pos_end, &len)) != NULL) {
		const char *colon = memchr(line, ':', len), *q, *end = line + len;
		struct word kind, place;
		power_id pw;
		loc_id l;

		if (len == 0)
			continue;
		if (colon == NULL) {
			buf_printf(why, "bad position line: %.*s", (int)len, line);
			return -1;
		}
		pw = find_power(m, plen, line, (size_t)(colon - line));
		q = colon + 1;
		kind = word(&q, end, 32);
		place = word(&q, end, 16);
		l = find_loc(rd, place);
		if (pw == POWER_NONE || l == LOC_NONE) {
			buf_printf(why, "bad position line: %.*s", (int)len, line);
			return -1;
		}
		if (WORD_IS(kind, "supply")) {
			b->owner[m->locs[l].prov] = pw;
		} else {
			bool dislodged = word_has(kind, "/dislodged", 10);
			enum unit_type t = kind.n >= 4 && memcmp(kind.s, "army", 4) == 0 ? UNIT_ARMY :
			    kind.n >= 5 && memcmp(kind.s, "fleet", 5) == 0 ? UNIT_FLEET : UNIT_NONE;
			if (t == UNIT_NONE) {
				buf_printf(why, "bad unit kind: %.*s", (int)len, line);
				return -1;
			}
			if (dislodged) {
				struct dislodged *d = &b->dislodged[b->ndislodged++];
				d->unit.type = (uint8_t)t;
				d->unit.power = pw;
				d->unit.loc = l;
				d->attacker = PROV_NONE;
			} else {
				board_add_unit(b, t, pw, l);
			}
		}
	}
	return 0;
}

/* Read the ORDERS of a phase. Returns the number read. */
static int
read_orders(const struct reader *rd, const struct rphase *ph, struct order *o, int max,
    struct gamerec_stats *st)
{
	const struct map *m = rd->m;
	const char *p = ph->ord, *line;
	size_t len;
	int n = 0;

	while ((line = str_next_line(&p, ph->ord_end, &len)) != NULL && n < max) {
		const char *q = line, *end = line + len;
		struct word w1, w2, w3, w4, w5;
		struct order *x = &o[n];

		if ((w1 = word(&q, end, 16)).n == 0)
			continue;
		st->orders++;
		memset(x, 0, sizeof *x);
		x->power = POWER_NONE;
		x->target_power = POWER_NONE;
		x->loc = x->target = x->dest = LOC_NONE;
		w2 = word(&q, end, 16);
		if (WORD_IS(w1, "build")) {
			w3 = word(&q, end, 16);
			x->kind = ORDER_BUILD;
			x->type = WORD_IS(w2, "Army") ? UNIT_ARMY : UNIT_FLEET;
			x->loc = find_loc(rd, w3);
			if (x->loc == LOC_NONE) {
				st->unreadable++;
				continue;
			}
			x->power = m->provs[m->locs[x->loc].prov].home;
			n++;
			continue;
		}
		if (WORD_IS(w1, "remove")) {
			x->kind = ORDER_REMOVE;
			x->loc = find_loc(rd, w2);
			if (x->loc == LOC_NONE) {
				st->unreadable++;
				continue;
			}
			n++;
			continue;
		}
		x->loc = find_loc(rd, w1);
		if (x->loc == LOC_NONE) {
			st->unreadable++;
			continue;
		}
		if (WORD_IS(w2, "hold")) {
			x->kind = ORDER_HOLD;
		} else if (WORD_IS(w2, "disband")) {
			x->kind = ORDER_DISBAND;
		} else if (WORD_IS(w2, "move")) {
			w3 = word(&q, end, 16);
			w4 = word(&q, end, 16);
			x->kind = ph->type == PHASE_RETREAT ? ORDER_RETREAT : ORDER_MOVE;
			x->dest = find_loc(rd, w3);
			x->via_convoy = WORD_IS(w4, "via");
		} else if (WORD_IS(w2, "support") || WORD_IS(w2, "convoy")) {
			w3 = word(&q, end, 16);
			w4 = word(&q, end, 16);
			w5 = word(&q, end, 16);
			x->kind = w2.s[0] == 's' ? ORDER_SUPPORT : ORDER_CONVOY;
			x->target = find_loc(rd, w3);
			if (WORD_IS(w4, "move"))
				x->dest = find_loc(rd, w5);
			if (x->target == LOC_NONE || (w4.n > 0 && x->dest == LOC_NONE)) {
				st->unreadable++;
				continue;
			}
		} else {
			st->unreadable++;
			continue;
		}
		if ((x->kind == ORDER_MOVE || x->kind == ORDER_RETREAT) && x->dest == LOC_NONE) {
			st->unreadable++;
			continue;
		}
		n++;
	}
	return n;
}

/* Units of a board by location: 0 empty, else 1 + power * 4 + type. */
static void
by_location(const struct map *m, const struct unit *u, int n, uint16_t *occ)
{
	int i;

	memset(occ, 0, (size_t)m->nlocs * sizeof *occ);
	for (i = 0; i < n; i++)
		occ[u[i].loc] = (uint16_t)(1 + u[i].power * 4 + u[i].type);
}

static void
put_diff(const struct map *m, const uint16_t *got, const uint16_t *want, const char *what,
    struct buf *why)
{
	int l;

	for (l = 0; l < m->nlocs; l++) {
		int k;
		if (got[l] == want[l])
			continue;
		for (k = 0; k < 2; k++) {
			uint16_t v = k == 0 ? got[l] : want[l];
			if (v == 0)
				continue;
			buf_printf(why, "%s %s%s %c %s; ", k == 0 ? "extra" : "missing", what,
			    m->powers[(v - 1) / 4].name, unit_letter((enum unit_type)((v - 1) % 4)),
			    m->locs[l].name);
		}
	}
}

/* Describe how got differs from want (which is authoritative); empty when equal. */
static void
compare(const struct map *m, const struct board *got, const struct board *want, struct buf *why)
{
	uint16_t a[MAP_MAX_LOCS], b[MAP_MAX_LOCS];
	struct unit da[BOARD_MAX_UNITS], db[BOARD_MAX_UNITS];
	char p1[48], p2[48];
	int i;

	if (got->year != want->year || got->season != want->season || got->phase != want->phase) {
		buf_printf(why, "next phase is %s here, %s in the record; ",
		    phase_format(got, p1, sizeof p1), phase_format(want, p2, sizeof p2));
		return;
	}
	by_location(m, got->units, got->nunits, a);
	by_location(m, want->units, want->nunits, b);
	if (got->nunits != want->nunits || memcmp(a, b, (size_t)m->nlocs * sizeof a[0]) != 0)
		put_diff(m, a, b, "", why);
	if (got->ndislodged || want->ndislodged) {
		for (i = 0; i < got->ndislodged; i++)
			da[i] = got->dislodged[i].unit;
		for (i = 0; i < want->ndislodged; i++)
			db[i] = want->dislodged[i].unit;
		by_location(m, da, got->ndislodged, a);
		by_location(m, db, want->ndislodged, b);
		put_diff(m, a, b, "dislodged ", why);
	}
	if (memcmp(got->owner, want->owner, (size_t)m->nprovs) == 0)
		return;
	for (i = 0; i < m->nprovs; i++) {
		if (!m->provs[i].supply || got->owner[i] == want->owner[i])
			continue;
		buf_printf(why, "%s owned by %s here, by %s in the record; ", m->provs[i].abbr,
		    got->owner[i] == POWER_NONE ? "nobody" : m->powers[got->owner[i]].name,
		    want->owner[i] == POWER_NONE ? "nobody" : m->powers[want->owner[i]].name);
	}
}

int
gamerec_check_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report)
{
	return gamerec_replay_text(m, nm, r, text, len, name, st, report, NULL, NULL);
}

/* Hand one phase to the caller's function. */
static int
emit(gamerec_phase_fn fn, void *ctx, const struct board *before, const struct order *orders,
    int norders, const struct phase_result *res, const struct board *after)
{
	struct gamerec_phase ph = { before, orders, norders, res, after };

	return fn ? fn(ctx, &ph) : 0;
}

int
gamerec_replay_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report,
    gamerec_phase_fn fn, void *ctx)
{
	struct rphase *ph = xmalloc(MAX_PHASES * sizeof *ph);
	struct order *orders = xmalloc(MAX_ORDERS_PER_PHASE * sizeof *orders);
	struct phase_result *res = xmalloc(sizeof *res);
	struct phase_result *scratch = xmalloc(sizeof *scratch);	/* phases the record omits */
	struct board *before = fn ? xmalloc(sizeof *before) : NULL;
	struct reader rd = { m, nm, xcalloc(ABBR_SLOTS, sizeof *rd.abbr) };
	struct board b, want;
	struct buf why;
	const char *p = text, *end = text + len, *line;
	size_t n;
	int nph = 0, lineno = 0, i, rc = 0;
	enum { NONE, POS, ORD } sec = NONE;

	buf_init(&why, BUF_ERRORS_MAX);
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		lineno++;
		if (n >= 6 && memcmp(line, "PHASE ", 6) == 0) {
			char hdr[64];
			if (nph > 0) {
				if (sec == ORD)
					ph[nph - 1].ord_end = line;
				else
					ph[nph - 1].pos_end = line;
			}
			if (nph >= MAX_PHASES || n - 6 >= sizeof hdr) {
				buf_printf(report, "%s:%d: too many phases or bad header\n", name, lineno);
				rc = -1;
				goto out;
			}
			memcpy(hdr, line + 6, n - 6);
			hdr[n - 6] = '\0';
			memset(&ph[nph], 0, sizeof ph[nph]);
			ph[nph].lineno = lineno;
			if (phase_parse(hdr, &ph[nph].year, &ph[nph].season, &ph[nph].type) < 0) {
				buf_printf(report, "%s:%d: bad phase \"%s\"\n", name, lineno, hdr);
				rc = -1;
				goto out;
			}
			nph++;
			sec = NONE;
		} else if (n == 9 && memcmp(line, "POSITIONS", 9) == 0 && nph > 0) {
			ph[nph - 1].pos = p;
			ph[nph - 1].pos_end = p;
			sec = POS;
		} else if (n == 6 && memcmp(line, "ORDERS", 6) == 0 && nph > 0) {
			ph[nph - 1].pos_end = line;
			ph[nph - 1].ord = p;
			ph[nph - 1].ord_end = p;
			sec = ORD;
		}
	}
	if (nph == 0) {
		buf_printf(report, "%s: no PHASE in the record\n", name);
		rc = -1;
		goto out;
	}
	if (sec == ORD)
		ph[nph - 1].ord_end = end;
	else if (sec == POS)
		ph[nph - 1].pos_end = end;
	for (i = 0; i < nph; i++) {
		if (ph[i].pos == NULL) {
			buf_printf(report, "%s:%d: phase without POSITIONS\n", name, ph[i].lineno);
			rc = -1;
			goto out;
		}
	}

	if (read_positions(&rd, &ph[0], &b, &why) < 0) {
		buf_printf(report, "%s:%d: %s\n", name, ph[0].lineno, buf_str(&why));
		rc = -1;
		goto out;
	}
	for (i = 0; i + 1 < nph; i++) {
		int no = ph[i].ord ? read_orders(&rd, &ph[i], orders, MAX_ORDERS_PER_PHASE, st) : 0;
		int cd;

		if (before)
			*before = b;
		adj_resolve(m, r, &b, orders, no, res, NULL);
		st->phases++;
		/* Removals the orders left open were made by the server's own
		 * civil-disorder rule. */
		cd = b.phase == PHASE_ADJUSTMENT && res->nremoved > 0;
		b = res->after;
		phase_next(m, r, &b);
		if (read_positions(&rd, &ph[i + 1], &want, &why) < 0) {
			buf_printf(report, "%s:%d: %s\n", name, ph[i + 1].lineno, buf_str(&why));
			rc = -1;
			goto out;
		}
		/* The record keeps some phases in which nothing could be decided
		 * (an adjustment where no power can build or must remove); we skip
		 * them. Accept one when the position is the same. */
		if (phase_cmp(want.year, (enum season)want.season, (enum phase_type)want.phase, b.year,
			(enum season)b.season, (enum phase_type)b.phase) < 0) {
			struct board relabelled = b;
			relabelled.year = want.year;
			relabelled.season = want.season;
			relabelled.phase = want.phase;
			buf_reset(&why);
			compare(m, &relabelled, &want, &why);
			if (why.len == 0) {
				st->kept_phases++;
				b = relabelled;
			}
		}
		/* Rarely the record omits a phase (nobody gave orders in it): play
		 * it without orders and see whether the record's position follows. */
		if (phase_cmp(want.year, (enum season)want.season, (enum phase_type)want.phase, b.year,
			(enum season)b.season, (enum phase_type)b.phase) > 0) {
			struct board trial = b;
			int k;
			for (k = 0; k < 4 && phase_cmp(want.year, (enum season)want.season,
			    (enum phase_type)want.phase, trial.year, (enum season)trial.season,
			    (enum phase_type)trial.phase) > 0; k++) {
				adj_resolve(m, r, &trial, orders, 0, scratch, NULL);
				trial = scratch->after;
				phase_next(m, r, &trial);
			}
			buf_reset(&why);
			compare(m, &trial, &want, &why);
			if (why.len == 0) {
				st->omitted_phases += k;
				b = trial;
			}
		}
		buf_reset(&why);
		compare(m, &b, &want, &why);
		if (cd) {
			st->cd_phases++;
			if (why.len == 0)
				st->cd_matched++;
			b = want;	/* the server's own civil-disorder choice */
			buf_reset(&why);
			if (emit(fn, ctx, before, orders, no, res, &b) != 0) {
				rc = -1;
				goto out;
			}
			continue;
		}
		if (why.len > 0) {
			char p1[48];
			struct board shown = want;
			buf_printf(report, "%s:%d: after %s: %s\n", name, ph[i + 1].lineno,
			    phase_format(&(struct board){ .year = ph[i].year, .season = (uint8_t)ph[i].season,
				.phase = (uint8_t)ph[i].type }, p1, sizeof p1),
			    buf_str(&why));
			(void)shown;
			rc = 1;
			goto out;
		}
		if (emit(fn, ctx, before, orders, no, res, &b) != 0) {
			rc = -1;
			goto out;
		}
	}
out:
	if (rc == 0)
		st->games_passed++;
	else
		st->games_failed++;
	buf_free(&why);
	free(rd.abbr);
	free(before);
	free(scratch);
	free(res);
	free(orders);
	free(ph);
	return rc;
}

struct walker {
	const struct map *m;
	const struct names *nm;
	struct rules r;
	int verbose;
	FILE *out;
	struct gamerec_stats st;
	struct buf text;
	bool reasons;			/* check every movement and retreat phase's reasons */
	long failures, explained;	/* failed orders and dislodged units; with a reason */
	long lost, lost_explained;	/* retreats: units destroyed; with a reason */
	const char *path;
	struct phase_result *res;
	struct phase_why *why;
	struct buf words;
};

/* Is unit result r of a unit of a movement or retreat phase a failure
 * that wants a reason? */
static bool
wants_reason(enum reason r, bool dislodged, bool retreat)
{
	if (retreat)	/* destroyed: by a clash, or with no retreat carried out */
		return r == R_RETREAT_BOUNCED || r == R_DISBANDED;
	return dislodged || r == R_BOUNCED || r == R_CUT || r == R_VOID || r == R_NO_CONVOY ||
	    r == R_PARADOX || r == R_DISLODGED;
}

/* A replayed movement or retreat phase resolved again with its reasons:
 * each failed order, dislodged unit and unit destroyed in a retreat has
 * one, and it fits (gamerec_phase_fn). */
static int
check_reasons(void *ctx, const struct gamerec_phase *ph)
{
	struct walker *w = ctx;
	bool retreat = ph->before->phase == PHASE_RETREAT;
	int u, bad;

	if (ph->before->phase == PHASE_ADJUSTMENT)
		return 0;
	adj_resolve_why(w->m, &w->r, ph->before, NULL, ph->orders, ph->norders, w->res, w->why);
	bad = adj_why_check(w->res, w->why);
	for (u = 0; u < w->res->nunits; u++) {
		if (w->res->unit_reason[u] != ph->res->unit_reason[u] ||
		    w->res->unit_dislodged[u] != ph->res->unit_dislodged[u])
			bad = u;
		/* A disbanding ordered is no failure. */
		if (!wants_reason((enum reason)w->res->unit_reason[u], w->res->unit_dislodged[u],
			retreat) || (retreat && w->res->unit_reason[u] == R_DISBANDED &&
			w->res->unit_order[u] >= 0))
			continue;
		w->failures++;
		w->lost += retreat;
		buf_reset(&w->words);
		if (report_why(w->m, ph->before, ph->orders, w->res, w->why, u, &w->words)) {
			w->explained++;
			w->lost_explained += retreat;
		} else {
			bad = u;
		}
	}
	if (bad >= 0) {
		char p1[48];
		fprintf(w->out, "%s: %s: the reason of the unit in %s does not fit its result\n",
		    w->path, phase_format(ph->before, p1, sizeof p1),
		    w->m->locs[retreat ? ph->before->dislodged[bad].unit.loc :
					  ph->before->units[bad].loc].name);
		return 1;
	}
	return 0;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
check_path(struct walker *w, const char *path, int top)
{
	struct stat sb;

	if (stat(path, &sb) < 0) {
		fprintf(w->out, "%s: %s\n", path, strerror(errno));
		w->st.games_failed++;
		return;
	}
	if (S_ISDIR(sb.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *e;
		char **names = NULL;
		size_t n = 0, i;

		if (d == NULL) {
			fprintf(w->out, "%s: %s\n", path, strerror(errno));
			w->st.games_failed++;
			return;
		}
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
		closedir(d);
		qsort(names, n, sizeof *names, cmp_names);
		for (i = 0; i < n; i++) {
			char sub[4096];
			struct stat ss;
			snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
			if (stat(sub, &ss) == 0 && (S_ISDIR(ss.st_mode) || has_suffix(names[i], ".txt")))
				check_path(w, sub, 0);
			free(names[i]);
		}
		free(names);
		return;
	}
	(void)top;
	buf_reset(&w->text);
	if (fs_read_file(path, &w->text) < 0) {
		fprintf(w->out, "%s: %s\n", path, strerror(errno));
		w->st.games_failed++;
		return;
	}
	{
		struct buf report;
		buf_init(&report, 1 << 20);
		w->path = path;
		if (w->reasons)	/* a game whose reasons do not fit fails (said by check_reasons) */
			gamerec_replay_text(w->m, w->nm, &w->r, buf_str(&w->text), w->text.len, path,
			    &w->st, &report, check_reasons, w);
		else
			gamerec_check_text(w->m, w->nm, &w->r, buf_str(&w->text), w->text.len, path,
			    &w->st, &report);
		fputs(buf_str(&report), w->out);
		buf_free(&report);
	}
}

int
gamerec_check_paths(const struct map *m, enum edition ed, const char *const *paths, int n,
    int verbose, bool reasons, FILE *out)
{
	struct walker w;
	int i;

	memset(&w, 0, sizeof w);
	w.reasons = reasons;
	if (reasons) {
		w.res = xmalloc(sizeof *w.res);
		w.why = xmalloc(sizeof *w.why);
		buf_init(&w.words, 4096);
	}
	w.m = m;
	w.nm = names_new(m);
	rules_init(&w.r, ed);
	w.verbose = verbose;
	w.out = out;
	buf_init(&w.text, 64u << 20);
	for (i = 0; i < n; i++)
		check_path(&w, paths[i], 1);
	fprintf(out, "%ld phases, %ld orders (%ld unreadable) replayed\n", w.st.phases, w.st.orders,
	    w.st.unreadable);
	fprintf(out, "%d civil-disorder adjustment phases (recorded removals used; ours agreed in %d)\n",
	    w.st.cd_phases, w.st.cd_matched);
	fprintf(out, "%d phases kept by the record in which nothing could be decided\n",
	    w.st.kept_phases);
	fprintf(out, "%d phases missing from the record, played without orders\n",
	    w.st.omitted_phases);
	if (reasons) {
		fprintf(out, "%ld failed orders and dislodged units, %ld with a reason that fits\n",
		    w.failures, w.explained);
		fprintf(out, "of them %ld units destroyed in a retreat, %ld with a reason that fits\n",
		    w.lost, w.lost_explained);
		free(w.res);
		free(w.why);
		buf_free(&w.words);
	}
	fprintf(out, "%d passed, %d failed\n", w.st.games_passed, w.st.games_failed);
	buf_free(&w.text);
	names_free((struct names *)(uintptr_t)w.nm);
	return w.st.games_failed ? 1 : 0;
}
