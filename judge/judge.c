/*
 * judge.c — handling the mail a judge receives.
 *
 * A message is read line by line (parser/commands.h). Its first GAME line
 * identifies the sender: game, power (or GM) and password. Every later
 * line is a command or an order, and every line gets its verdict in the
 * reply, so that a bad line never costs a good one. Press lines are
 * gathered into blocks and delivered when the block ends.
 *
 * The reply goes to the sender, copied to the other members of the
 * delegation. A message that cannot be authenticated gets a refusal that
 * says nothing about the game. Messages that must not be answered
 * (auto-replies, lists, bounces, our own mail) get no reply at all.
 */
#define _DEFAULT_SOURCE
#include "judge_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"
#include "../maps/pages.h"
#include "../parser/orders.h"
#include "engine/report.h"

#define REPLY_MAX (4u << 20)

void
judge_init(struct judge *j, const struct judge_conf *conf, const struct judge_io *io)
{
	memset(j, 0, sizeof *j);
	j->conf = conf;
	j->io = *io;
}

static void
free_notes(struct judge_note *n, int count)
{
	int i;

	for (i = 0; i < count; i++)
		free(n[i].text);
}

void
judge_effects_clear(struct judge *j)
{
	struct judge_effects *fx = &j->fx;
	int i;

	for (i = 0; i < fx->nout; i++)
		outmsg_free(&fx->out[i]);
	for (i = 0; i < fx->nphases; i++) {
		free(fx->phases[i].orders);
		free(fx->phases[i].res);
		free(fx->phases[i].text);
	}
	free_notes(fx->audit, fx->naudit);
	free_notes(fx->press, fx->npress);
	free_notes(fx->rollbacks, fx->nrollbacks);
	free_notes(fx->log, fx->nlog);
	fx->nout = fx->nphases = fx->naudit = fx->npress = fx->nrollbacks = fx->nlog = 0;
	free(fx->host_reply);
	fx->host_reply = NULL;
}

void
judge_free(struct judge *j)
{
	int i;

	judge_effects_clear(j);
	free(j->fx.out);
	free(j->fx.phases);
	free(j->fx.audit);
	free(j->fx.press);
	free(j->fx.rollbacks);
	free(j->fx.log);
	for (i = 0; i < j->ngames; i++)
		free(j->games[i]);
	free(j->games);
	free(j->dirty);
	free(j->rates);
	for (i = 0; i < j->nok; i++) {
		explicit_bzero(j->okcache[i], strlen(j->okcache[i]));
		free(j->okcache[i]);
	}
	free(j->okcache);
	memset(j, 0, sizeof *j);
}

int
judge_add_game(struct judge *j, struct game *g)
{
	if (j->ngames == j->capgames) {
		j->capgames = j->capgames ? j->capgames * 2 : 16;
		j->games = xreallocarray(j->games, (size_t)j->capgames, sizeof *j->games);
		j->dirty = xreallocarray(j->dirty, (size_t)j->capgames, sizeof *j->dirty);
	}
	g->sys = j->io.system(j->io.ctx, g->map);
	j->games[j->ngames] = g;
	j->dirty[j->ngames] = false;
	return j->ngames++;
}

struct game *
judge_find_game(struct judge *j, const char *name)
{
	int i;

	for (i = 0; i < j->ngames; i++)
		if (str_eq_nocase(j->games[i]->name, name))
			return j->games[i];
	return NULL;
}

int
judge_game_index(const struct judge *j, const struct game *g)
{
	int i;

	for (i = 0; i < j->ngames; i++)
		if (j->games[i] == g)
			return i;
	return -1;
}

void
judge_touch(struct judge *j, const struct game *g)
{
	int i = judge_game_index(j, g);

	if (i >= 0)
		j->dirty[i] = true;
}

/* ------------------------------------------------------------- effects -- */

#define GROW(arr, n, cap)                                                        \
	do {                                                                     \
		if ((n) == (cap)) {                                              \
			(cap) = (cap) ? (cap) * 2 : 16;                          \
			(arr) = xreallocarray((arr), (size_t)(cap), sizeof *(arr)); \
		}                                                                \
	} while (0)

static char **
copy_list(const char *const *v, int n)
{
	char **c = xcalloc((size_t)(n ? n : 1), sizeof *c);
	int i;

	for (i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

void
jx_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *const *cc, int ncc, const char *subject, const char *text,
    const char *in_reply_to, const char *references, enum outmsg_auto a)
{
	struct outmsg *o;
	const char *kto[GAME_MAX_MEMBERS + GAME_MAX_GMS + GAME_MAX_OBSERVERS + 8];
	const char *kcc[GAME_MAX_MEMBERS + GAME_MAX_GMS + GAME_MAX_OBSERVERS + 8];
	int i, n;
	char id[256];

	/* Addresses that keep bouncing are left out (the Message-ID is taken
	 * anyway, so the numbering does not depend on them). */
	for (i = n = 0; i < nto && n < (int)(sizeof kto / sizeof kto[0]); i++)
		if (!jx_suspended(g, to[i]))
			kto[n++] = to[i];
	nto = n;
	for (i = n = 0; i < ncc && n < (int)(sizeof kcc / sizeof kcc[0]); i++)
		if (!jx_suspended(g, cc[i]))
			kcc[n++] = cc[i];
	ncc = n;
	if (nto == 0 && ncc > 0) {
		kto[nto++] = kcc[--ncc];
	}
	if (nto == 0) {
		++j->nmsg;
		return;
	}
	GROW(j->fx.out, j->fx.nout, j->fx.capout);
	o = &j->fx.out[j->fx.nout++];
	memset(o, 0, sizeof *o);
	o->to = copy_list(kto, nto);
	o->nto = nto;
	o->cc = copy_list(kcc, ncc);
	o->ncc = ncc;
	o->subject = xstrdup(subject);
	o->text = xstrdup(text);
	o->in_reply_to = in_reply_to ? xstrdup(in_reply_to) : NULL;
	o->references = references ? xstrdup(references) : NULL;
	o->game = g ? xstrdup(g->name) : NULL;
	o->autosub = a;
	o->date = j->now;
	/* Deterministic: the same event gives the same Message-ID, so that a
	 * run repeated after a crash is recognised by the outbox. */
	snprintf(id, sizeof id, "pouch.%s.%d@%s", j->idbase[0] ? j->idbase : "judge", ++j->nmsg,
	    j->conf->domain);
	o->message_id = xstrdup(id);
}

void
jx_event(struct judge *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->idbase, sizeof j->idbase, fmt, ap);
	va_end(ap);
	j->nmsg = 0;
	j->nrand = 0;
}

static void
add_note(struct judge_note **arr, int *n, int *cap, const struct game *g, const char *fmt,
    va_list ap)
{
	struct buf b;
	struct judge_note *nt;

	GROW(*arr, *n, *cap);
	nt = &(*arr)[(*n)++];
	str_copy(nt->game, g ? g->name : "", sizeof nt->game);
	buf_init(&b, 1 << 16);
	buf_vprintf(&b, fmt, ap);
	nt->text = buf_take(&b);
}

void
judge_audit(struct judge *j, const struct game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(&j->fx.audit, &j->fx.naudit, &j->fx.capaudit, g, fmt, ap);
	va_end(ap);
}

void
jx_log(struct judge *j, const struct game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(&j->fx.log, &j->fx.nlog, &j->fx.caplog, g, fmt, ap);
	va_end(ap);
}

static void
press_copy(struct judge *j, const struct game *g, const char *text)
{
	struct judge_note *nt;

	GROW(j->fx.press, j->fx.npress, j->fx.cappress);
	nt = &j->fx.press[j->fx.npress++];
	str_copy(nt->game, g->name, sizeof nt->game);
	nt->text = xstrdup(text);
}

/* ------------------------------------------------------------ secrets -- */

/* Check a password, remembering successes for the rest of the run. */
static bool
check_secret(struct judge *j, const char *secret, const char *hash)
{
	char key[SECRET_HASH_MAX + 300];
	int i;

	if (hash[0] == '\0' || strlen(secret) > 256)
		return false;
	snprintf(key, sizeof key, "%s\t%s", hash, secret);
	for (i = 0; i < j->nok; i++)
		if (strcmp(j->okcache[i], key) == 0) {
			explicit_bzero(key, sizeof key);
			return true;
		}
	if (!secret_check(secret, hash)) {
		explicit_bzero(key, sizeof key);
		return false;
	}
	GROW(j->okcache, j->nok, j->capok);
	j->okcache[j->nok++] = xstrdup(key);
	explicit_bzero(key, sizeof key);
	return true;
}

/* --------------------------------------------------------------- rates -- */

/* May we send sender another reply this hour? Counts it when so. */
void
judge_set_rate(struct judge *j, const char *addr, time_t window, int count)
{
	struct sender_rate *r;

	GROW(j->rates, j->nrates, j->caprates);
	r = &j->rates[j->nrates++];
	str_copy(r->addr, addr, sizeof r->addr);
	r->window = window;
	r->count = count;
}

static bool
rate_ok(struct judge *j, const char *addr, time_t now)
{
	struct sender_rate *r = NULL;
	int i;

	if (j->conf->reply_limit <= 0)
		return true;
	for (i = 0; i < j->nrates; i++)
		if (str_eq_nocase(j->rates[i].addr, addr))
			r = &j->rates[i];
	if (r == NULL) {
		GROW(j->rates, j->nrates, j->caprates);
		r = &j->rates[j->nrates++];
		str_copy(r->addr, addr, sizeof r->addr);
		r->window = now;
		r->count = 0;
	}
	if (now - r->window >= 3600) {
		r->window = now;
		r->count = 0;
	}
	if (r->count >= j->conf->reply_limit)
		return false;
	r->count++;
	j->rates_dirty = true;
	return true;
}

/* ---------------------------------------------------------- reporting -- */

bool
judge_address_placeholder(const struct judge_conf *c)
{
	const char *at = strrchr(c->address, '@');

	return at == NULL || str_eq_nocase(at + 1, "localhost");
}

void
judge_address_warning(const struct judge_conf *c, const char *indent, struct buf *out)
{
	if (judge_address_placeholder(c))
		buf_printf(out, "%swarning: the judge's address is %s, a placeholder nobody can write to:\n"
		    "%sset judge.address in pouch.conf (see pouch.conf(5)).\n", indent, c->address,
		    indent);
}

void
judge_map_url(const struct judge *j, const struct game *g, const struct board *before,
    struct buf *out)
{
	if (j->conf->base_url[0] == '\0')
		return;
	pages_phase_url(j->conf->base_url, g->name, before, out);
}

void
jx_deadline_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out)
{
	char local[96], utc[96], span[48];

	if (g->status == GAME_PAUSED) {
		buf_puts(out, "The game is paused; the GM will set a new deadline.\n");
		return;
	}
	if (g->status != GAME_ACTIVE || g->deadline == 0)
		return;
	if (zone == NULL || *zone == '\0')
		zone = g->set.zone;
	if (judge_grace_end(g, now) > now) {
		time_t end = judge_grace_end(g, now);
		time_human(&j->io.zones, zone, g->deadline, local, sizeof local);
		time_human(&j->io.zones, zone, end, utc, sizeof utc);
		buf_printf(out, "Deadline: %s (passed, orders missing).\nGrace period until %s, "
		    "in %s.\n", local, utc, time_span((long)(end - now), span, sizeof span));
		return;
	}
	time_human(&j->io.zones, zone, g->deadline, local, sizeof local);
	time_human(&j->io.zones, "UTC", g->deadline, utc, sizeof utc);
	buf_printf(out, "Deadline: %s", local);
	{
		struct tm tm;
		/* The UTC time too, unless the zone is at UTC then. */
		if (tz_local(&j->io.zones, zone, g->deadline, &tm) == 0 && tm.tm_gmtoff != 0) {
			const char *comma = strrchr(utc, ',');
			size_t day = comma ? (size_t)(comma - utc) : 0;
			if (day && strncmp(local, utc, day) == 0)
				buf_printf(out, " (%s)", comma + 2);
			else
				buf_printf(out, " (%s)", utc);
		}
	}
	buf_printf(out, ", %s%s.\n", g->deadline > now ? "in " : "",
	    time_span((long)(g->deadline - now), span, sizeof span));
}

bool
judge_speech_open(const struct game *g, time_t now)
{
	return g->speech_until > now;
}

void
jx_speech_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out)
{
	char local[96], span[48];

	if (!judge_speech_open(g, now) || g->status != GAME_ACTIVE)
		return;
	time_human(&j->io.zones, zone && *zone ? zone : g->set.zone, g->speech_until, local, sizeof local);
	buf_printf(out, "Speech phase until %s (%s from now): every delegation may BROADCAST.\n",
	    local, time_span((long)(g->speech_until - now), span, sizeof span));
}

void
jx_position(const struct game *g, struct buf *out)
{
	const struct map *m = g->map;
	struct board s = g->board;
	int p;

	board_sort(&s);
	for (p = 0; p < m->npowers; p++) {
		int c = board_count_centres(&g->board, m, (power_id)p);
		if (!game_alive(g, (power_id)p))
			continue;
		buf_printf(out, "%s (%d centre%s): ", m->powers[p].name, c, c == 1 ? "" : "s");
		if (report_power_units(m, &s, (power_id)p, out) == 0)
			buf_puts(out, "no units");
		buf_putc(out, '\n');
	}
}

void
jx_held_status(const struct game *g, power_id p, struct buf *out)
{
	int q, n = 0;

	for (q = 0; q < g->map->npowers; q++)
		n += game_held_together(g, p, (power_id)q);
	if (n == 1) {
		jx_orders_status(g, p, out);
		return;
	}
	for (q = 0; q < g->map->npowers; q++) {
		if (!game_held_together(g, p, (power_id)q))
			continue;
		buf_printf(out, "%s. ", g->map->powers[q].name);
		jx_orders_status(g, (power_id)q, out);
	}
}

void
jx_orders_status(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct delegation *d = &g->del[p];
	const struct board *b = &g->board;
	char ph[48];
	int i, k;

	buf_printf(out, "Your orders for %s:\n", phase_format(b, ph, sizeof ph));
	if (b->phase == PHASE_ADJUSTMENT) {
		for (k = 0; k < d->norders; k++) {
			buf_puts(out, "  ");
			order_format(m, &d->orders[k], ORDER_SHORT, out);
			buf_putc(out, '\n');
		}
		if (d->norders == 0)
			buf_puts(out, "  (none yet)\n");
		jx_what_to_do(g, p, out);
		return;
	}
	if (game_revival(g, p)) {
		buf_puts(out, "  ");
		order_format_prefs(m, &d->revival, ORDER_SHORT, out);
		buf_putc(out, '\n');
	} else if (g->rules.insurrection && b->phase == PHASE_MOVEMENT && board_eliminated(b, m, p)) {
		buf_puts(out, "  (no revival order: \"Revive: <home centres, most wanted first>\")\n");
	}
	for (i = 0; i < (b->phase == PHASE_MOVEMENT ? b->nunits : b->ndislodged); i++) {
		const struct unit *u = b->phase == PHASE_MOVEMENT ? &b->units[i] : &b->dislodged[i].unit;
		if (u->power != p)
			continue;
		for (k = 0; k < d->norders; k++)
			if (m->locs[d->orders[k].loc].prov == m->locs[u->loc].prov)
				break;
		buf_puts(out, "  ");
		if (k < d->norders) {
			order_format(m, &d->orders[k], ORDER_SHORT, out);
		} else {
			unit_format(m, u, out);
			buf_puts(out, b->phase == PHASE_MOVEMENT ? ": no order yet (it holds if none comes)" :
								   ": no order yet (it is disbanded if none comes)");
		}
		buf_putc(out, '\n');
	}
}

/* What an eliminated power can do (MUNA, judge/systems/MUNA.md). */
static void
revival_help(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	int i, k = 0;

	const struct unit *u = g->board.nunits ? &g->board.units[0] : NULL;

	buf_printf(out, "%s has lost its country, but may win it back.\n"
	    "When other powers order units to an insurrection in %s (an order such as\n"
	    "\"%c %s-%s\"), three such units win back three of your home centres and\n"
	    "four win back all of them, at the end of the season; an occupied centre\n"
	    "needs one unit more.\n",
	    m->powers[p].name, m->powers[p].name, u ? unit_letter((enum unit_type)u->type) : 'A',
	    u ? m->provs[m->locs[u->loc].prov].abbr : "par", m->powers[p].name);
	if (g->board.phase != PHASE_MOVEMENT) {
		buf_puts(out, "Revival orders are given in movement phases.\n");
		return;
	}
	buf_puts(out, "Send your revival order, naming at least three home centres, most wanted\n"
	    "first: \"Revive:");
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply && m->provs[i].home == p)
			buf_printf(out, "%s %s", k++ ? "," : "", m->provs[i].name);
	buf_puts(out, "\".\n");
}

/* Has power p an adjustment order in province pr? */
static bool
ordered_in(const struct game *g, power_id p, prov_id pr)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->norders; k++)
		if (d->orders[k].loc != LOC_NONE && g->map->locs[d->orders[k].loc].prov == pr)
			return true;
	return false;
}

/* How many of the due adjustments p has ordered: builds and waives when
 * due > 0, removals when due < 0. */
static int
adj_orders_given(const struct game *g, power_id p, int due)
{
	const struct delegation *d = &g->del[p];
	int k, n = 0;

	for (k = 0; k < d->norders; k++) {
		enum order_kind kind = (enum order_kind)d->orders[k].kind;
		if (due > 0 ? kind == ORDER_BUILD || kind == ORDER_WAIVE : kind == ORDER_REMOVE)
			n++;
	}
	return n;
}

void
jx_what_to_do(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	int due, sites, given, i;

	if (g->rules.insurrection && board_eliminated(b, m, p)) {
		revival_help(g, p, out);
		return;
	}
	if (!game_must_order(g, p)) {
		buf_puts(out, "You have nothing to order this phase.\n");
		return;
	}
	switch (b->phase) {
	case PHASE_MOVEMENT:
		buf_printf(out, "Order your %d unit%s.\n", board_count_units(b, p),
		    board_count_units(b, p) == 1 ? "" : "s");
		break;
	case PHASE_RETREAT:
		for (i = 0; i < b->ndislodged; i++) {
			const struct dislodged *d = &b->dislodged[i];
			loc_id opt[16];
			int n, k;
			if (d->unit.power != p)
				continue;
			n = adj_retreat_options(m, b, d, opt);
			buf_puts(out, "Retreat or disband ");
			unit_format(m, &d->unit, out);
			buf_puts(out, ": it may go to ");
			for (k = 0; k < n; k++)
				buf_printf(out, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ",
				    m->provs[m->locs[opt[k]].prov].name);
			buf_puts(out, ".\n");
		}
		break;
	default:
		due = adj_builds_due(m, b, p);
		sites = adj_build_sites(m, &g->rules, b, p);
		given = adj_orders_given(g, p, due);
		if (game_orders_complete(g, p)) {
			buf_puts(out, "Your adjustment orders are complete.\n");
		} else if (due < 0) {
			int left = -due - given;
			/* An example with one of the power's own units not yet removed. */
			for (i = 0; i < b->nunits && (b->units[i].power != p ||
			    ordered_in(g, p, m->locs[b->units[i].loc].prov)); i++)
				;
			if (given)
				buf_printf(out, "%d more removal%s", left, left == 1 ? "" : "s");
			else
				buf_printf(out, "Remove %d unit%s", left, left == 1 ? "" : "s");
			buf_printf(out, " (\"Remove %c %s\").\n",
			    i < b->nunits ? unit_letter((enum unit_type)b->units[i].type) : 'A',
			    i < b->nunits ? m->locs[b->units[i].loc].name : "par");
		} else if (due > 0) {
			const char *site = "par";
			int left = (due < sites ? due : sites) - given;
			for (i = 0; i < m->nprovs; i++)
				if (m->provs[i].home == p && m->provs[i].supply && b->owner[i] == p &&
				    board_unit_in(b, m, (prov_id)i) < 0 && !ordered_in(g, p, (prov_id)i)) {
					site = m->provs[i].abbr;
					break;
				}
			if (given)
				buf_printf(out, "%d more build%s", left, left == 1 ? "" : "s");
			else
				buf_printf(out, "Build %d unit%s", left, left == 1 ? "" : "s");
			buf_printf(out, " (\"Build A %s\", or \"Waive\").\n", site);
		}
		break;
	}
}

/* Recipients of power p: its members' addresses. */
static int
members_of(const struct game *g, power_id p, const char **out, int max)
{
	const struct delegation *d = &g->del[p];
	int i, n = 0;

	for (i = 0; i < d->nmembers && n < max; i++)
		out[n++] = d->members[i].addr;
	return n;
}

void
judge_announce(struct judge *j, struct game *g, const char *subject, const char *text)
{
	const char *to[1];
	struct buf body;
	int p, i;

	buf_init(&body, REPLY_MAX);
	for (p = 0; p < g->map->npowers; p++) {
		if (!game_first_held(g, (power_id)p))
			continue;	/* one copy for a delegation of several powers */
		for (i = 0; i < g->del[p].nmembers; i++) {
			buf_reset(&body);
			buf_puts(&body, text);
			if (g->status == GAME_ACTIVE) {
				buf_putc(&body, '\n');
				jx_deadline_line(j, g, g->del[p].members[i].zone, j->now, &body);
			}
			to[0] = g->del[p].members[i].addr;
			jx_send(j, g, to, 1, NULL, 0, subject, buf_str(&body), NULL, NULL,
			    OUT_GENERATED);
		}
	}
	for (i = 0; i < g->nobservers; i++) {
		to[0] = g->observers[i];
		jx_send(j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
	}
	for (i = 0; i < g->ngms; i++) {
		to[0] = g->gms[i];
		jx_send(j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
	}
	buf_free(&body);
}

/* --------------------------------------------------------------- press -- */

struct press {
	bool open;
	bool broadcast;
	bool anon;
	bool to_gm;
	bool conference;	/* to the participants of the conference (MUNA) */
	bool refused;		/* the block was refused: its ENDPRESS says so */
	uint64_t to;		/* powers, bit per power */
	int line;
	struct buf text;
};

/* Read "TO France, Germany [ANON]" / "TO ALL" / "TO GM". Returns 0 or -1/why. */
static int
press_header(const struct game *g, struct press *pr, const char *args, size_t n,
    struct buf *why)
{
	char buf[400], *s, tok[64];
	int any = 0;

	if (n >= sizeof buf) {
		buf_puts(why, "press header too long");
		return -1;
	}
	memcpy(buf, args, n);
	buf[n] = '\0';
	for (s = buf; *s; s++)
		if (*s == ',' || *s == ';' || *s == '\t')
			*s = ' ';
	for (s = buf;;) {
		size_t k;
		power_id p;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		k = strcspn(s, " ");
		snprintf(tok, sizeof tok, "%.*s", (int)(k < sizeof tok ? k : sizeof tok - 1), s);
		if (str_eq_nocase(tok, "to") || str_eq_nocase(tok, "and")) {
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "anon") || str_eq_nocase(tok, "anonymous") ||
		    str_eq_nocase(tok, "grey") || str_eq_nocase(tok, "gray")) {
			pr->anon = true;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "all") || str_eq_nocase(tok, "everyone")) {
			pr->broadcast = true;
			any = 1;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "gm") || str_eq_nocase(tok, "master")) {
			pr->to_gm = true;
			any = 1;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "conference")) {
			if (g->conf.where == PROV_NONE) {
				buf_puts(why, "no conference is open");
				return -1;
			}
			pr->conference = true;
			any = 1;
			s += k;
			continue;
		}
		/* A power, in one word or several ("United Kingdom"). */
		p = map_take_power(g->map, &s);
		if (p == POWER_NONE) {
			buf_printf(why, "no power called \"%s\"", tok);
			return -1;
		}
		pr->to |= (uint64_t)1 << p;
		any = 1;
	}
	if (!any && !pr->broadcast) {
		buf_puts(why, "say whom the press is for: PRESS TO France, Germany (or ALL, or GM, or "
		    "CONFERENCE)");
		return -1;
	}
	return 0;
}

/* Deliver a press block from power `from` (POWER_NONE: the GM). */
static void
press_deliver(struct judge *j, struct game *g, power_id from, struct press *pr, struct buf *reply)
{
	const struct map *m = g->map;
	const char *to[64];
	struct buf body, subj, copy;
	int p, n = 0, i;
	char who[96];

	if (from == POWER_NONE)
		snprintf(who, sizeof who, "the GM");
	else if (pr->anon)
		snprintf(who, sizeof who, "someone");
	else
		snprintf(who, sizeof who, "%s", m->powers[from].name);
	buf_init(&body, REPLY_MAX);
	buf_init(&subj, 400);
	buf_init(&copy, REPLY_MAX);
	buf_printf(&body, "Press in %s from %s", g->name, who);
	if (pr->broadcast) {
		buf_puts(&body, " to everyone");
		if (judge_speech_open(g, j->now))
			buf_puts(&body, " (speech phase)");
	} else {
		int k = 0;
		buf_puts(&body, " to ");
		if (pr->conference) {
			muna_conference_name(m, &g->conf, &body);
			buf_puts(&body, " (");
			muna_conference_powers(m, &g->conf, &body);
			buf_putc(&body, ')');
			k++;
		}
		for (p = 0; p < m->npowers; p++)
			if (pr->to & ((uint64_t)1 << p))
				buf_printf(&body, "%s%s", k++ ? ", " : "", m->powers[p].name);
		if (pr->to_gm)
			buf_printf(&body, "%sthe GM", k ? " and " : "");
	}
	buf_puts(&body, ":\n\n");
	buf_append(&body, buf_str(&pr->text), pr->text.len);
	if (pr->text.len == 0 || buf_str(&pr->text)[pr->text.len - 1] != '\n')
		buf_putc(&body, '\n');
	buf_printf(&subj, "[%s] press from %s", g->name, who);

	for (p = 0; p < m->npowers; p++) {
		int k, had = n;
		/* Not to the sender's own powers; once to a delegation of several. */
		if (p == from || (from != POWER_NONE && game_held_together(g, from, (power_id)p)))
			continue;
		if (pr->broadcast || (pr->to & ((uint64_t)1 << p)) ||
		    (pr->conference && ((g->conf.powers >> p) & 1u)))
			n += members_of(g, (power_id)p, to + n, 64 - n);
		for (i = had; i < n; i++) {
			for (k = 0; k < had && strcmp(to[k], to[i]) != 0; k++)
				;
			if (k < had)
				to[i--] = to[--n];
		}
	}
	if (pr->broadcast)
		for (i = 0; i < g->nobservers && n < 64; i++)
			to[n++] = g->observers[i];
	/* The GM sees press addressed to the GM, broadcasts, and private press
	 * when the game says so (the players are told in HELP and LIST); the
	 * officers preside over conferences. */
	if (pr->to_gm || pr->broadcast || pr->conference || g->set.gm_reads_press)
		for (i = 0; i < g->ngms && n < 64; i++)
			to[n++] = g->gms[i];
	for (i = 0; i < n; i++) {
		const char *one[1] = { to[i] };
		jx_send(j, g, one, 1, NULL, 0, buf_str(&subj), buf_str(&body), NULL, NULL, OUT_GENERATED);
	}
	/* The archive names the real sender, for the GM's eyes only. */
	buf_printf(&copy, "press %s from %s%s (line %d)\n%s", pr->broadcast ? "broadcast" :
	    pr->conference ? "conference" : "private",
	    from == POWER_NONE ? "GM" : m->powers[from].name, pr->anon ? " (anonymous)" : "", pr->line,
	    buf_str(&pr->text));
	press_copy(j, g, buf_str(&copy));
	buf_printf(reply, "  press delivered to %d recipient%s\n", n, n == 1 ? "" : "s");
	buf_free(&body);
	buf_free(&subj);
	buf_free(&copy);
}

/* -------------------------------------------------------------- orders -- */

/* The parsed order as the reply shows it (a revival order with its list). */
static void
put_order(const struct map *m, const struct parse_result *r, struct buf *out)
{
	if (r->order.kind == ORDER_REVIVE)
		order_format_prefs(m, &r->prefs, ORDER_SHORT, out);
	else
		order_format(m, &r->order, ORDER_SHORT, out);
}

/* The first word of line, trimmed, into word (cut at a blank or a
 * punctuation mark); returns its length. */
static size_t
first_word(const char *line, size_t len, char *word, size_t size)
{
	size_t wn;

	str_ncopy_trim(word, size, line, len);
	wn = strcspn(word, " \t:,.!?;");
	word[wn] = '\0';
	return wn;
}

/* The first word of line is a command tried: a misspelt one ("HLEP"), or
 * one in capitals ("SUBMIT") as commands are written. */
static bool
command_tried(const char *line, size_t len)
{
	char word[64];
	size_t wn = first_word(line, len, word, sizeof word), k;

	for (k = 0; k < wn && word[k] >= 'A' && word[k] <= 'Z'; k++)
		;
	return (k == wn && wn >= 3) || command_suggest(word, wn) != NULL;
}

/* True when line is plainly not an order on g's board (a greeting, a name,
 * thanks) and no command tried either. */
static bool
chat_line(const struct game *g, const char *line, size_t len)
{
	struct parse_ctx c = { g->map, g->names, &g->board, POWER_NONE };
	struct parse_result r;

	order_parse(&c, line, len, &r);
	return r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len);
}

/* A date line above orders ("Spring 1935", "Fall 1935:"; the MUNA rules
 * want every set of orders dated): 1 when line is one, *same saying whether
 * it names the game's phase (Winter adjustments may be dated Fall). */
static int
date_line(const struct game *g, const char *line, size_t len, bool *same)
{
	static const char *const words[] = { "spring", "fall", "autumn", "winter" };
	static const enum season seasons[] = { SEASON_SPRING, SEASON_FALL, SEASON_FALL,
		SEASON_WINTER };
	char buf[48], *year;
	long y;
	size_t i, k;

	while (len > 0 && (line[len - 1] == ':' || line[len - 1] == '.'))
		len--;
	if (len == 0 || len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	k = strcspn(buf, " \t");
	if (buf[k] == '\0')
		return 0;
	buf[k] = '\0';
	year = str_trim(buf + k + 1);
	for (i = 0; i < sizeof words / sizeof words[0] && !str_eq_nocase(buf, words[i]); i++)
		;
	if (i == sizeof words / sizeof words[0] || str_to_long(year, 1, 99999, &y) < 0)
		return 0;
	*same = y == g->board.year && (seasons[i] == g->board.season ||
	    (seasons[i] == SEASON_FALL && g->board.season == SEASON_WINTER));
	return 1;
}

/* The power whose unit an order names (a build: whose home centre it is
 * in), or POWER_NONE. */
static power_id
order_owner(const struct game *g, const struct order *o)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	prov_id pr;
	int i;

	if (o->loc == LOC_NONE || o->kind == ORDER_REVIVE || o->kind == ORDER_WAIVE)
		return POWER_NONE;
	pr = m->locs[o->loc].prov;
	if (o->kind == ORDER_BUILD)
		return m->provs[pr].home;
	if (b->phase == PHASE_RETREAT) {
		for (i = 0; i < b->ndislodged; i++)
			if (m->locs[b->dislodged[i].unit.loc].prov == pr)
				return b->dislodged[i].unit.power;
		return POWER_NONE;
	}
	i = board_unit_in(b, m, pr);
	return i < 0 ? POWER_NONE : b->units[i].power;
}

/* What take_order made of a line. */
enum taken {
	TAKE_REFUSED,		/* refused, the reason appended to the reply */
	TAKE_DONE,		/* taken (or blank), the verdict appended */
	TAKE_CHAT,		/* plainly not an order (a greeting, a name, thanks):
				 * nothing appended, the caller lists it as ignored */
};

/* Take one order line from power p. Appends the verdict to reply; returns
 * what the line was (enum taken). */
static enum taken
take_order(struct judge *j, struct game *g, power_id p, const char *line, size_t len,
    struct buf *reply)
{
	struct parse_ctx c = { g->map, g->names, &g->board, p };
	struct parse_result r;
	enum reason why;
	bool revival;

	(void)j;
	order_parse(&c, line, len, &r);
	if (r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED) {
		/* A delegation holding several powers: the unit (or, for a build,
		 * the home centre) decides whose order it is. */
		power_id owner = order_owner(g, &r.order);
		if (owner != POWER_NONE && owner != p && game_held_together(g, p, owner)) {
			p = c.power = owner;
			order_parse(&c, line, len, &r);
		}
	}
	if (r.verdict == VERDICT_BLANK)
		return TAKE_DONE;
	if (r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len))
		return TAKE_CHAT;
	if (r.verdict == VERDICT_REFUSED && r.not_order) {
		/* Not an order at all: a misspelt command, or chat. */
		char word[64];
		const char *cmd, *like = strstr(r.note, "did you mean ");
		size_t wn = first_word(line, len, word, sizeof word);
		cmd = command_suggest(word, wn);
		if (cmd)
			buf_printf(reply, "  REFUSED: not an order or a command; did you mean %s?\n", cmd);
		else if (like)
			buf_printf(reply, "  REFUSED: \"%s\" is not a place or a command (places like it: "
			    "%.*s). Send HELP for the commands.\n", word, (int)strcspn(like + 13, "?"),
			    like + 13);
		else
			buf_printf(reply, "  REFUSED: \"%s\" is not a place or a command. Send HELP for "
			    "the commands.\n", word);
		return TAKE_REFUSED;
	}
	if (r.verdict == VERDICT_REFUSED) {
		buf_printf(reply, "  REFUSED: %s\n", r.note);
		return TAKE_REFUSED;
	}
	if (r.order.power != p) {
		buf_printf(reply, "  REFUSED: that is an order for %s; you play %s\n",
		    r.order.power == POWER_NONE ? "nobody" : g->map->powers[r.order.power].name,
		    g->map->powers[p].name);
		return TAKE_REFUSED;
	}
	revival = r.order.kind == ORDER_REVIVE;
	why = revival ? muna_check_revival(g->map, &g->board, p, &r.prefs) :
			adj_check(g->map, &g->rules, &g->board, &r.order);
	if (why != R_OK) {
		buf_puts(reply, "  REFUSED: ");
		if (revival) {
			put_order(g->map, &r, reply);
			buf_printf(reply, ": %s\n", reason_text(why));
			return TAKE_REFUSED;
		}
		report_refusal(g->map, &g->board, &r.order, why, reply);
		buf_putc(reply, '\n');
		return TAKE_REFUSED;
	}
	if ((revival ? game_set_revival(g, p, &r.order, &r.prefs) : game_set_order(g, p, &r.order)) < 0) {
		buf_puts(reply, "  REFUSED: too many orders\n");
		return TAKE_REFUSED;
	}
	buf_printf(reply, "  %s: ", r.verdict == VERDICT_CORRECTED ? "corrected" : "accepted");
	put_order(g->map, &r, reply);
	if (r.verdict == VERDICT_CORRECTED)
		buf_printf(reply, "  (%s)", r.note);
	buf_putc(reply, '\n');
	return TAKE_DONE;
}

/* The game named by the message's GAME line, wherever it is (NULL: none),
 * to read the lines before it by. */
static struct game *
game_ahead(struct judge *j, const struct body_line *lines, int n)
{
	char a[400], *w;
	int i;

	for (i = 0; i < n; i++) {
		if (lines[i].kind != LINE_IDENT)
			continue;
		str_ncopy_trim(a, sizeof a, lines[i].args, lines[i].args_len);
		w = a + strspn(a, " \t");
		w[strcspn(w, " \t")] = '\0';
		return *w ? judge_find_game(j, w) : NULL;
	}
	return NULL;
}

/* Lines that are plainly not orders: counted, the first few quoted
 * (cut at a word or after 20 bytes, never inside a UTF-8 letter). */
struct ignored {
	int n;
	struct buf quotes;
};

#define IGNORED_QUOTED 3
#define IGNORED_QUOTE_LEN 20

static void
ignored_add(struct ignored *ig, const char *line, size_t len)
{
	size_t k;

	while (len > 0 && (line[0] == ' ' || line[0] == '\t'))
		line++, len--;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	if (ig->n++ >= IGNORED_QUOTED)
		return;
	k = len;
	if (k > IGNORED_QUOTE_LEN) {
		k = IGNORED_QUOTE_LEN;
		while (k > 0 && ((unsigned char)line[k] & 0xC0) == 0x80)
			k--;
	}
	buf_printf(&ig->quotes, "%s\"%.*s%s\"", ig->n > 1 ? ", " : "", (int)k, line,
	    k < len ? "\xE2\x80\xA6" : "");
}

/* "Ignored 2 lines that are not orders: "hi mr judge…", "Alice"." */
static void
ignored_put(const struct ignored *ig, struct buf *out)
{
	if (ig->n == 0)
		return;
	buf_printf(out, "\nIgnored %d line%s: %s", ig->n, ig->n == 1 ? " that is not an order" :
	    "s that are not orders", buf_str(&ig->quotes));
	if (ig->n > IGNORED_QUOTED)
		buf_printf(out, " and %d more", ig->n - IGNORED_QUOTED);
	buf_puts(out, ".\n");
}

/* ---------------------------------------------------------------- help -- */

static void
help_text(const struct judge *j, const struct game *g, struct buf *out)
{
	buf_printf(out,
	    "How to write to this judge (%s)\n"
	    "\n"
	    "Start every message with your game, power and password:\n"
	    "  GAME school1 England your-password\n"
	    "then one order or command per line. Orders are written as on paper:\n"
	    "  A Par - Bur     F Lon - Nth     A Mun S A Bur - Ruh     F Nth C A Lon - Nwy\n"
	    "  A Lon - Nwy via convoy      F stp/sc - bot      Build A Par      Remove F Tri\n"
	    "Names may be abbreviated or misspelled when only one place fits; every\n"
	    "correction is reported, and an order that could mean two things is refused.\n"
	    "A new order for a unit replaces its earlier one.\n"
	    "\n"
	    "Commands:\n"
	    "  ORDERS REPLACE      forget your earlier orders and take the ones that follow\n"
	    "  ORDERS CLEAR        forget your orders\n"
	    "  LIST                the position, your orders and the deadline\n"
	    "  HISTORY [phase]     earlier results (HISTORY S1901M, HISTORY 1902, HISTORY ALL)\n"
	    "  SUMMARY             supply centres year by year\n"
	    "  PRESS TO France, Germany   a message to other powers, until ENDPRESS\n"
	    "  PRESS TO GM         a message to the game master\n"
	    "  BROADCAST           a message to everyone, until ENDPRESS\n"
	    "  VOTE DRAW | VOTE CONCEDE France | VOTE NONE   private; all survivors must agree\n"
	    "  WAIT | NOWAIT       hold back (or allow) early processing this phase\n"
	    "  SET ZONE Europe/Amsterdam   show times in your time zone\n"
	    "  RESIGN              leave the game (your units hold until replaced)\n"
	    "  HELP                this text\n"
	    "Lines starting with '>' and everything after a line \"-- \" are ignored.\n",
	    j->conf->name);
	if (g) {
		buf_printf(out, "\nThis game: %s, %s rules, press: %s%s.\n", g->map->title,
		    edition_name(g->set.edition), press_name(g->set.press),
		    g->set.gm_reads_press ? " (the GM reads private press)" : "");
		buf_printf(out, "When orders are missing at the deadline: %s.\n",
		    g->set.nmr == NMR_CD ? "the units hold (civil disorder) after the grace period" :
					   "the game waits for the GM");
		if (g->sys->help)
			g->sys->help(g, out);
	}
}

/* ------------------------------------------------------------- commands -- */

/* Does power p vote: still in the game, and played by someone? */
static bool
voter(const struct game *g, power_id p)
{
	const struct delegation *d = &g->del[p];

	return game_alive(g, p) && d->nmembers > 0 && !d->resigned && d->secret[0];
}

static void
cmd_vote(struct judge *j, struct game *g, power_id p, const char *args, struct buf *reply)
{
	struct delegation *d = &g->del[p];
	const struct map *m = g->map;
	int q, alive = 0, draw = 0;

	if (str_prefix_nocase(args, "draw")) {
		d->vote = VOTE_DRAW;
		buf_puts(reply, "  you vote for a draw (no one else is told how you voted)\n");
	} else if (str_prefix_nocase(args, "concede")) {
		const char *who = str_trim((char *)(uintptr_t)args + 7);
		power_id to = map_find_power(m, who);
		if (to == POWER_NONE || to == p) {
			buf_puts(reply, "  REFUSED: concede to whom? VOTE CONCEDE France\n");
			return;
		}
		d->vote = VOTE_CONCEDE;
		d->concede_to = to;
		buf_printf(reply, "  you concede the game to %s (private)\n", m->powers[to].name);
	} else if (str_prefix_nocase(args, "none") || str_prefix_nocase(args, "no")) {
		d->vote = VOTE_NONE;
		buf_puts(reply, "  your vote is withdrawn\n");
	} else {
		buf_puts(reply, "  REFUSED: VOTE DRAW, VOTE CONCEDE <power> or VOTE NONE\n");
		return;
	}
	/* Unanimity among the survivors ends the game. Powers nobody plays
	 * (civil disorder) have no vote. */
	for (q = 0; q < m->npowers; q++) {
		if (!voter(g, (power_id)q))
			continue;
		alive++;
		draw += g->del[q].vote == VOTE_DRAW;
	}
	if (alive > 0 && draw == alive) {
		struct buf res;
		int k = 0;
		buf_init(&res, 400);
		buf_puts(&res, "Draw agreed by ");
		for (q = 0; q < m->npowers; q++)
			if (voter(g, (power_id)q))
				buf_printf(&res, "%s%s", k++ ? ", " : "", m->powers[q].name);
		jx_end_game(j, g, buf_str(&res));
		buf_free(&res);
		return;
	}
	for (q = 0; q < m->npowers; q++) {
		int r, agree = 0;
		if (!voter(g, (power_id)q))
			continue;
		for (r = 0; r < m->npowers; r++)
			if (r != q && voter(g, (power_id)r) && g->del[r].vote == VOTE_CONCEDE &&
			    g->del[r].concede_to == q)
				agree++;
		if (agree > 0 && agree == alive - 1) {
			char res[128];
			snprintf(res, sizeof res, "%s wins: the other powers conceded", m->powers[q].name);
			jx_end_game(j, g, res);
			return;
		}
	}
}

static void
cmd_history(struct judge *j, struct game *g, const char *args, struct buf *reply)
{
	struct buf rec;
	int i, from = g->nphases, to = g->nphases, shown = 0;

	if (j->io.history == NULL || g->nphases == 0) {
		buf_puts(reply, "  no phases have been played yet\n");
		return;
	}
	buf_init(&rec, 1 << 22);
	if (str_eq_nocase(args, "all")) {
		from = 1;
	} else if (*args) {
		/* A phase code or a year: select the matching records. */
		from = 1;
		to = g->nphases;
	}
	for (i = from; i <= to && shown < 40; i++) {
		buf_reset(&rec);
		if (j->io.history(j->io.ctx, g->name, i, &rec) < 0)
			continue;
		if (*args && !str_eq_nocase(args, "all")) {
			char hdr[64];
			const char *nl = strchr(buf_str(&rec), '\n');
			size_t n = nl ? (size_t)(nl - buf_str(&rec)) : rec.len;
			if (n >= sizeof hdr)
				n = sizeof hdr - 1;
			memcpy(hdr, buf_str(&rec), n);
			hdr[n] = '\0';
			if (strstr(hdr, args) == NULL) {
				int y;
				enum season se;
				enum phase_type pt;
				char code[16], ph[48];
				struct board tmp;
				/* "S1901M" style: compare with the record's phase. */
				if (phase_parse(hdr + (strncmp(hdr, "phase ", 6) == 0 ? 6 : 0), &y, &se, &pt) < 0)
					continue;
				memset(&tmp, 0, sizeof tmp);
				tmp.year = y;
				tmp.season = (uint8_t)se;
				tmp.phase = (uint8_t)pt;
				phase_code(&tmp, code, sizeof code);
				if (!str_eq_nocase(code, args) &&
				    !str_eq_nocase(phase_format(&tmp, ph, sizeof ph), args))
					continue;
			}
		}
		buf_putc(reply, '\n');
		buf_append(reply, buf_str(&rec), rec.len);
		shown++;
	}
	if (shown == 0)
		buf_printf(reply, "  no phase matches \"%s\" (try HISTORY ALL)\n", args);
	buf_free(&rec);
}

static void
cmd_summary(const struct game *g, struct buf *reply)
{
	const struct map *m = g->map;
	int i, p;

	if (g->nawards > 0) {
		buf_puts(reply, "\nPolitical points given and taken:\n");
		for (i = 0; i < g->nawards; i++) {
			const struct award *a = &g->awards[i];
			buf_printf(reply, "  %s %s %+d: %s%s\n", a->phase, m->powers[a->power].name,
			    a->points, a->reason, a->rules ? "" : " (the officers)");
		}
	}
	judge_standings(g, &g->board, "Victory points:", reply);
	if (g->nyears == 0) {
		buf_puts(reply, "  no year has ended yet\n");
		return;
	}
	buf_puts(reply, "\nSupply centres at the end of each year:\n      ");
	for (p = 0; p < m->npowers; p++)
		buf_printf(reply, " %4.4s", m->powers[p].abbr);
	buf_putc(reply, '\n');
	for (i = 0; i < g->nyears; i++) {
		buf_printf(reply, "  %4d", g->years[i].year);
		for (p = 0; p < m->npowers; p++)
			buf_printf(reply, " %4d", g->years[i].centres[p]);
		buf_putc(reply, '\n');
	}
}

/* A player's command. Returns 1 when the rest of the message must be ignored. */
static int
player_command(struct judge *j, struct game *g, power_id p, const char *sender,
    const struct body_line *bl, struct buf *reply)
{
	char args[400];
	struct delegation *d = &g->del[p];
	const struct system_command *sc;

	str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
	/* The commands of the game's rules come first (judge/system.h). */
	if ((sc = system_command(g->sys, bl->cmd, SYSTEM_PLAYER)) != NULL) {
		sc->run(j, g, p, args, reply);
		return 0;
	}
	switch (bl->cmd) {
	case CMD_HELP:
		buf_putc(reply, '\n');
		help_text(j, g, reply);
		break;
	case CMD_ORDERS:
		if (str_eq_nocase(args, "replace") || str_eq_nocase(args, "clear")) {
			game_clear_orders(g, p);
			buf_printf(reply, "  your earlier orders are forgotten\n");
		} else if (*args) {
			buf_printf(reply, "  REFUSED: ORDERS, ORDERS REPLACE or ORDERS CLEAR\n");
		}
		break;
	case CMD_LIST:
		/* The position; the reply ends with the orders and the deadline. */
		buf_putc(reply, '\n');
		jx_position(g, reply);
		break;
	case CMD_HISTORY:
		cmd_history(j, g, args, reply);
		break;
	case CMD_SUMMARY:
		cmd_summary(g, reply);
		break;
	case CMD_VOTE:
		if (g->status != GAME_ACTIVE && g->status != GAME_PAUSED) {
			buf_puts(reply, "  REFUSED: the game is not running\n");
			break;
		}
		cmd_vote(j, g, p, args, reply);
		break;
	case CMD_WAIT:
		d->wait = true;
		buf_puts(reply, "  this phase will not be processed before the deadline\n");
		break;
	case CMD_NOWAIT:
		d->wait = false;
		buf_puts(reply, "  this phase may be processed as soon as all orders are in\n");
		break;
	case CMD_SET:
		if (str_prefix_nocase(args, "zone ")) {
			const char *zone = str_trim(args + 5);
			int i;
			if (!tz_valid(&j->io.zones, zone)) {
				buf_printf(reply, "  REFUSED: unknown time zone \"%s\" (e.g. Europe/Amsterdam)\n",
				    zone);
				break;
			}
			for (i = 0; i < d->nmembers; i++)
				if (str_eq_nocase(d->members[i].addr, sender))
					str_copy(d->members[i].zone, zone, ZONE_MAX);
			buf_printf(reply, "  times are now shown to you in %s\n", zone);
		} else {
			buf_puts(reply, "  REFUSED: players may only SET ZONE <zone>\n");
		}
		break;
	case CMD_RESIGN:
		d->resigned = true;
		d->norders = 0;
		buf_puts(reply, "  you have resigned; your units hold until the GM finds a replacement\n");
		{
			char subject[128], text[256];
			snprintf(subject, sizeof subject, "[%s] %s resigned", g->name, g->map->powers[p].name);
			snprintf(text, sizeof text, "%s has resigned from %s. Use REPLACE %s MEMBERS ... to "
			    "give the power to new players.\n", g->map->powers[p].name, g->name,
			    g->map->powers[p].name);
			{
				int i;
				for (i = 0; i < g->ngms; i++) {
					const char *to[1] = { g->gms[i] };
					jx_send(j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
				}
			}
		}
		break;
	case CMD_SIGNOFF:
		return 1;
	default:
		if (command_is_gm(bl->cmd) || system_command(g->sys, bl->cmd, SYSTEM_GM))
			buf_printf(reply, "  REFUSED: %s is a command for the game master\n",
			    command_name(bl->cmd));
		else
			buf_printf(reply, "  REFUSED: %s is not a command of this game's rules (%s)\n",
			    command_name(bl->cmd), g->sys->name);
		break;
	}
	return 0;
}

/* ---------------------------------------------------------- the message -- */

struct ident {
	struct game *g;
	power_id power;
	bool gm;
};

/* Read "GAME name role password". Returns 0 when it matches; -2 when the
 * line is not written as it should be; -1 when it names no game, power and
 * password of this judge. why says which, for the judge's log: the sender
 * is told only that it does not match, which reveals nothing about any
 * game. */
static int
identify(struct judge *j, const struct body_line *bl, struct ident *id, struct buf *why)
{
	char args[400], *save, *name, *role, *pw, *after;
	struct game *g;
	int p;

	str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
	name = strtok_r(args, " \t", &save);
	after = name && save ? save : NULL;	/* the role and the password */
	role = name ? strtok_r(NULL, " \t", &save) : NULL;
	pw = role && save ? str_trim(save) : NULL;
	if (!name || !role || ((!pw || !*pw) && !j->host)) {
		buf_puts(why, "write the first line as GAME <game> <power> <password> "
		    "(or GAME <game> GM <password>)");
		return -2;
	}
	g = judge_find_game(j, name);
	if (g == NULL) {
		buf_printf(why, "there is no game called \"%s\" on this judge", name);
		return -1;
	}
	if (str_eq_nocase(role, "gm") || str_eq_nocase(role, "master")) {
		/* The host is every game's master. */
		if (!j->host && !check_secret(j, pw, g->gm_secret)) {
			buf_printf(why, "that is not the game master's password for %s", g->name);
			return -1;
		}
		id->g = g;
		id->gm = true;
		id->power = POWER_NONE;
		return 0;
	}
	/* A power named in several words ("United Kingdom") takes them all. */
	if (after) {
		char *rest = after;
		str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
		rest = args + (after - args);
		id->power = map_take_power(g->map, &rest);
		pw = str_trim(rest);
		if (id->power != POWER_NONE && *pw == '\0' && !j->host) {
			buf_puts(why, "write the first line as GAME <game> <power> <password>");
			return -2;
		}
	} else {
		id->power = POWER_NONE;
	}
	if (id->power == POWER_NONE) {
		buf_printf(why, "game %s has no power \"%s\" (its powers:", g->name, role);
		for (p = 0; p < g->map->npowers; p++)
			buf_printf(why, "%s %s", p ? "," : "", g->map->powers[p].name);
		buf_puts(why, "; or GM)");
		return -1;
	}
	if (g->del[id->power].resigned) {
		buf_printf(why, "%s has left game %s", g->map->powers[id->power].name, g->name);
		return -1;
	}
	if (!check_secret(j, pw, g->del[id->power].secret)) {
		buf_printf(why, "that is not %s's password in game %s (your game master can "
		    "send a new one)", g->map->powers[id->power].name, g->name);
		return -1;
	}
	id->g = g;
	id->gm = false;
	return 0;
}

/* The address a reply goes to. */
static const char *
reply_addr(const struct inmsg *m)
{
	return m->reply_to && *m->reply_to ? m->reply_to : m->from_addr;
}

static void
send_reply(struct judge *j, const struct inmsg *m, const struct ident *id, const char *text)
{
	const char *to[1] = { reply_addr(m) }, *cc[GAME_MAX_MEMBERS + GAME_MAX_GMS];
	struct buf subj;
	int ncc = 0, i;

	if (!rate_ok(j, to[0], j->now)) {
		jx_log(j, id->g, "no reply to %s: more than %d replies this hour", to[0],
		    j->conf->reply_limit);
		return;
	}
	/* Copies to the rest of the delegation (or the other GMs). */
	if (id->g && id->power != POWER_NONE) {
		const struct delegation *d = &id->g->del[id->power];
		for (i = 0; i < d->nmembers; i++)
			if (!str_eq_nocase(d->members[i].addr, to[0]))
				cc[ncc++] = d->members[i].addr;
	} else if (id->g && id->gm) {
		for (i = 0; i < id->g->ngms; i++)
			if (!str_eq_nocase(id->g->gms[i], to[0]))
				cc[ncc++] = id->g->gms[i];
	}
	buf_init(&subj, 1024);
	if (m->subject && *m->subject) {
		if (!str_prefix_nocase(m->subject, "re:"))
			buf_puts(&subj, "Re: ");
		buf_puts(&subj, m->subject);
	} else {
		if (id->g)
			buf_printf(&subj, "[%s] your orders", id->g->name);
		else
			buf_puts(&subj, "Re: your message to the judge");
	}
	{
		struct buf refs;
		buf_init(&refs, 8192);
		if (m->references && *m->references)
			buf_printf(&refs, "%s ", m->references);
		if (m->message_id)
			buf_printf(&refs, "<%s>", m->message_id);
		jx_send(j, id->g, to, 1, cc, ncc, buf_str(&subj), text, m->message_id,
		    refs.len ? buf_str(&refs) : NULL, OUT_REPLY);
		buf_free(&refs);
	}
	buf_free(&subj);
}

/* How often mail to addr in game g came back (0: never). */
static int
bounce_count(const struct game *g, const char *addr)
{
	int i;

	for (i = 0; i < g->nbouncing; i++)
		if (str_eq_nocase(g->bouncing[i].addr, addr))
			return g->bouncing[i].count;
	return 0;
}

bool
jx_suspended(const struct game *g, const char *addr)
{
	return g != NULL && bounce_count(g, addr) >= BOUNCE_LIMIT;
}

/* A bounce from a delivery status notification: counted per game, and
 * after BOUNCE_LIMIT the address is no longer written to (its game's GMs
 * are told) until mail comes from it again. */
static void
handle_bounce(struct judge *j, const struct inmsg *m)
{
	int i, k, p, b;

	for (i = 0; i < m->nbounced; i++) {
		jx_log(j, NULL, "delivery to %s failed (bounce)", m->bounced[i]);
		for (k = 0; k < j->ngames; k++) {
			struct game *g = j->games[k];
			char subject[160], text[600];
			if (g->status == GAME_ENDED)
				continue;
			p = game_power_of(g, m->bounced[i]);
			if (p == POWER_NONE && !game_is_gm(g, m->bounced[i]))
				continue;
			for (b = 0; b < g->nbouncing; b++)
				if (str_eq_nocase(g->bouncing[b].addr, m->bounced[i]))
					break;
			if (b == g->nbouncing) {
				if (b == GAME_MAX_BOUNCING)
					continue;
				str_copy(g->bouncing[b].addr, m->bounced[i], ADDR_MAX);
				g->bouncing[b].count = 0;
				g->nbouncing++;
			}
			g->bouncing[b].count++;
			judge_touch(j, g);
			judge_audit(j, g, "mail to %s bounced (%d)", m->bounced[i], g->bouncing[b].count);
			if (g->bouncing[b].count > BOUNCE_LIMIT)
				continue;	/* suspended already; the GMs know */
			if (g->bouncing[b].count == BOUNCE_LIMIT) {
				snprintf(subject, sizeof subject, "[%s] mail to %s suspended", g->name,
				    m->bounced[i]);
				snprintf(text, sizeof text, "Mail from the judge to %s, a member of game %s, "
				    "came back %d times.\nThe judge no longer writes to that address until "
				    "mail comes from it again.\nYou may want to REPLACE the delegation's "
				    "members.\n", m->bounced[i], g->name, BOUNCE_LIMIT);
			} else {
				snprintf(subject, sizeof subject, "[%s] mail to %s bounced", g->name,
				    m->bounced[i]);
				snprintf(text, sizeof text, "Mail from the judge to %s, a member of game %s, "
				    "could not be delivered.\nYou may want to REPLACE the delegation's "
				    "members.\n", m->bounced[i], g->name);
			}
			for (p = 0; p < g->ngms; p++) {
				const char *to[1] = { g->gms[p] };
				if (!str_eq_nocase(g->gms[p], m->bounced[i]))
					jx_send(j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
			}
		}
	}
	if (m->nbounced == 0)
		jx_log(j, NULL, "a bounce without a recognisable recipient");
}

/* Mail came from addr: it works again wherever it bounced. */
static void
bounce_clear(struct judge *j, const char *addr)
{
	int k, b;

	for (k = 0; k < j->ngames; k++) {
		struct game *g = j->games[k];
		for (b = 0; b < g->nbouncing; b++)
			if (str_eq_nocase(g->bouncing[b].addr, addr)) {
				g->bouncing[b] = g->bouncing[--g->nbouncing];
				judge_touch(j, g);
				judge_audit(j, g, "mail came from %s: written to again", addr);
				break;
			}
	}
}

/*
 * Replies stay short whatever comes in: each line is quoted to at most
 * QUOTE_MAX characters, a refusal the same as the one before is counted,
 * not repeated, refused lines are no longer shown once the reply is past
 * ECHO_SOFT bytes nor any line past ECHO_HARD, and the whole reply is
 * cut at REPLY_CAP.
 */
#define QUOTE_MAX 100
#define ECHO_SOFT (6u << 10)
#define ECHO_HARD (10u << 10)
#define REPLY_CAP (16u << 10)

/* Append "> text" to out, cut to QUOTE_MAX characters with "…". */
static void
quote_line(struct buf *out, const char *text, size_t len)
{
	size_t i, chars = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80 && chars++ == QUOTE_MAX)
			break;
	buf_printf(out, "> %.*s%s\n", (int)i, text, i < len ? "\u2026" : "");
}

/* What a reply has left out so far (see QUOTE_MAX). */
struct echo {
	size_t mark;		/* where the current line's part of the reply starts */
	char last[256];		/* the last refusal shown ("" when none) */
	int same;		/* lines since with the same refusal, not shown */
	int hidden;		/* lines not shown for the reply's size */
};

/* Flush the count of repeated refusals into out. */
static void
echo_flush(struct echo *e, struct buf *out)
{
	if (e->same > 0)
		buf_printf(out, "  (the same refusal for %d more line%s)\n", e->same,
		    e->same == 1 ? "" : "s");
	e->same = 0;
}

/* The part of the reply from e->mark on is one line's echo and verdict:
 * keep it, count it as a repeat, or leave it out for the reply's size. */
static void
echo_settle(struct echo *e, struct buf *reply)
{
	const char *seg = reply->data + e->mark, *verdict;
	size_t n = reply->len - e->mark;
	bool refusal;

	if (n == 0)
		return;
	verdict = memchr(seg, '\n', n);
	verdict = verdict ? verdict + 1 : seg + n;
	refusal = strncmp(verdict, "  REFUSED", 9) == 0 || strncmp(verdict, "  ignored", 9) == 0;
	if (refusal && e->last[0] && strlen(e->last) == (size_t)(seg + n - verdict) &&
	    memcmp(e->last, verdict, strlen(e->last)) == 0) {
		buf_truncate(reply, e->mark);
		e->same++;
		return;
	}
	if ((refusal && e->mark > ECHO_SOFT) || e->mark > ECHO_HARD) {
		buf_truncate(reply, e->mark);
		e->hidden++;
		return;
	}
	if (e->same > 0) {
		struct buf keep;
		buf_init(&keep, REPLY_MAX);
		buf_append(&keep, seg, n);
		buf_truncate(reply, e->mark);
		echo_flush(e, reply);
		buf_append(reply, keep.data, keep.len);
		buf_free(&keep);
		verdict = NULL;
	}
	e->last[0] = '\0';
	if (refusal) {
		seg = reply->data + reply->len - n;
		verdict = memchr(seg, '\n', n);
		verdict = verdict ? verdict + 1 : seg + n;
		if ((size_t)(seg + n - verdict) < sizeof e->last)
			snprintf(e->last, sizeof e->last, "%.*s", (int)(seg + n - verdict), verdict);
	}
}

/* After the last line: the counts of what was left out. */
static void
echo_end(struct echo *e, struct buf *reply)
{
	echo_settle(e, reply);
	e->mark = reply->len;
	echo_flush(e, reply);
	if (e->hidden > 0)
		buf_printf(reply, "  (%d more line%s read but not repeated here: a reply is kept under "
		    "%u KB)\n", e->hidden, e->hidden == 1 ? "" : "s", REPLY_CAP >> 10);
}

/* Orders that come this soon after a phase was decided may have been
 * meant for it. */
#define LATE_WINDOW 3600

/*
 * Tell the sender of orders that the phase they may have meant was decided
 * before their mail came: when it was written before the decision (its
 * Date), or came within LATE_WINDOW of it with an order refused.
 */
static void
late_note(struct judge *j, const struct game *g, const struct inmsg *m, bool refusals,
    const char *zone, time_t now, struct buf *out)
{
	struct buf rec;
	char when[96], ph[48];
	const char *t;
	size_t n;

	if (g->nphases == 0 || j->io.history == NULL || g->phase_start > now ||
	    !((m->date > 0 && m->date < g->phase_start) ||
	    (refusals && now - g->phase_start < LATE_WINDOW)))
		return;
	buf_init(&rec, 1 << 22);
	if (j->io.history(j->io.ctx, g->name, g->nphases, &rec) == 0 &&
	    str_prefix_nocase(buf_str(&rec), "phase ")) {
		t = buf_str(&rec) + strlen("phase ");
		n = strcspn(t, "\n");
		time_human(&j->io.zones, zone && *zone ? zone : g->set.zone, g->phase_start, when, sizeof when);
		buf_printf(out, "  %.*s was decided on %s, before your mail arrived;\n"
		    "  these orders were read for %s.\n", (int)n, t, when,
		    phase_format(&g->board, ph, sizeof ph));
	}
	buf_free(&rec);
}

/* The zone member addr of p's delegation sees times in ("" = the game's). */
static const char *
member_zone(const struct game *g, power_id p, const char *addr)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->nmembers; k++)
		if (str_eq_nocase(d->members[k].addr, addr))
			return d->members[k].zone;
	return "";
}

static void
handle_mail(struct judge *j, const struct inmsg *m, long seq, time_t now, bool host)
{
	struct body_line *lines;
	struct ident id = { NULL, POWER_NONE, false };
	struct ignored ign;
	struct game *ahead;
	struct press pr;
	struct buf reply;
	int n, i, told_ident = 0, refused = 0, stop = 0, ordered = 0;
	size_t note_at = 0;
	struct echo echo = { 0 };
	bool same_date, misdated = false;

	j->now = now;
	j->seq = seq;
	j->host = host;
	jx_event(j, "m%ld", seq);
	switch (host ? INMSG_NORMAL : m->kind) {
	case INMSG_BOUNCE:
		handle_bounce(j, m);
		return;
	case INMSG_AUTO:
		jx_log(j, NULL, "ignored an automatic reply from %s", m->from_addr ? m->from_addr : "?");
		return;
	case INMSG_BULK:
		jx_log(j, NULL, "ignored list or bulk mail from %s", m->from_addr ? m->from_addr : "?");
		return;
	case INMSG_OWN:
		jx_log(j, NULL, "ignored mail sent by this judge");
		return;
	default:
		break;
	}
	if (!host && (m->from_addr == NULL || *m->from_addr == '\0')) {
		jx_log(j, NULL, "ignored a message without a usable sender");
		return;
	}
	if (!host)
		bounce_clear(j, m->from_addr);
	if (!host && str_eq_nocase(m->from_addr, j->conf->address)) {
		jx_log(j, NULL, "ignored a message from the judge's own address");
		return;
	}

	buf_init(&reply, REPLY_MAX);
	ign.n = 0;
	buf_init(&ign.quotes, 1024);
	memset(&pr, 0, sizeof pr);
	buf_init(&pr.text, 256u << 10);
	lines = xcalloc(BODY_MAX_LINES, sizeof *lines);
	n = body_split(m->text, strlen(m->text), lines, BODY_MAX_LINES);
	if (n > BODY_MAX_LINES) {
		buf_printf(&reply, "Your message has more than %d lines; only the first %d were read.\n\n",
		    BODY_MAX_LINES, BODY_MAX_LINES);
		n = BODY_MAX_LINES;
	}
	ahead = game_ahead(j, lines, n);
	if (m->truncated)
		buf_puts(&reply, "Your message was too long; only its beginning was read.\n\n");
	if (m->had_attachments)
		buf_puts(&reply, "Attachments are not read: write your orders in the message itself.\n\n");
	if (m->html_only)
		buf_puts(&reply, "Your message had no plain-text part; its HTML was read as text.\n\n");
	if (m->bad_charset)
		buf_puts(&reply, "Your message's character set was not recognised: letters outside "
		    "plain ASCII\nmay have been misread. Please send plain text in UTF-8.\n\n");

	echo.mark = reply.len;
	for (i = 0; i < n && !stop && !refused; i++) {
		const struct body_line *bl = &lines[i];

		echo_settle(&echo, &reply);
		echo.mark = reply.len;
		switch (bl->kind) {
		case LINE_BLANK:
		case LINE_QUOTED:
		case LINE_SIGNATURE:
			continue;
		case LINE_PRESS:
			if (pr.open) {
				buf_append(&pr.text, bl->text, bl->len);
				buf_putc(&pr.text, '\n');
			}
			continue;
		default:
			break;
		}
		if (bl->kind == LINE_IDENT) {
			/* Echo the GAME line without its password. */
			char a[400], *save, *w1, *w2, *rest;
			const struct game *eg;
			power_id ep;
			str_ncopy_trim(a, sizeof a, bl->args, bl->args_len);
			w1 = strtok_r(a, " \t", &save);
			rest = w1 && save ? save : NULL;
			/* A power of several words is shown whole. */
			eg = w1 ? judge_find_game(j, w1) : NULL;
			ep = eg && rest ? map_take_power(eg->map, &rest) : POWER_NONE;
			w2 = ep != POWER_NONE ? eg->map->powers[ep].name :
			    w1 ? strtok_r(NULL, " \t", &save) : NULL;
			buf_printf(&reply, "> GAME %s %s (password not shown)\n", w1 ? w1 : "",
			    w2 ? w2 : "");
		} else {
			quote_line(&reply, bl->text, bl->len);
		}
		if (bl->kind == LINE_IDENT) {
			if (id.g) {
				buf_puts(&reply, "  ignored: one GAME line per message\n");
				continue;
			}
			{
				struct buf why;
				buf_init(&why, 1024);
				int r = identify(j, bl, &id, &why);
				if (r == -2) {
					buf_printf(&reply, "  REFUSED: %s.\n  Nothing in your message was "
					    "recorded.\n", buf_str(&why));
					refused = 1;
				} else if (r < 0) {
					buf_puts(&reply, "  REFUSED: this GAME line does not match a game, power "
					    "and password of this judge.\n  Check the game's name, your "
					    "power's name (in full, e.g. England) and your password;\n  your "
					    "game master can send a new one. Nothing in your message was "
					    "recorded.\n");
					jx_log(j, NULL, "not recorded: a message from %s: %s", m->from_addr,
					    buf_str(&why));
					refused = 1;
				}
				buf_free(&why);
				if (refused)
					break;
			}
			if (id.gm)
				buf_printf(&reply, "  game %s, game master\n", id.g->name);
			else
				buf_printf(&reply, "  game %s, %s\n", id.g->name,
				    id.g->map->powers[id.power].name);
			note_at = reply.len;
			if (id.g->seq >= seq && seq > 0) {
				/* Already applied (a re-run after a crash): reply again, change nothing. */
				buf_puts(&reply, "  (this message was already applied)\n");
				stop = 1;
			}
			continue;
		}
		if (bl->kind == LINE_COMMAND && (bl->cmd == CMD_HELP || bl->cmd == CMD_NEWGAME) && !id.g) {
			if (bl->cmd == CMD_HELP) {
				buf_putc(&reply, '\n');
				help_text(j, NULL, &reply);
			} else {
				int made = j->ngames;
				jx_gm_command(j, NULL, bl->cmd, bl->args, bl->args_len, m->from_addr, &reply);
				/* The game this line made is now the message's game: its
				 * GM may go on. A refused NEWGAME made none, and gives
				 * no authority over any other game. */
				if (j->ngames > made &&
				    (host || game_is_gm(j->games[j->ngames - 1], m->from_addr))) {
					id.g = j->games[j->ngames - 1];
					id.gm = true;
				}
			}
			continue;
		}
		if (id.g == NULL && ahead && bl->kind != LINE_COMMAND &&
		    chat_line(ahead, bl->text, bl->len)) {
			/* "Hi mr judge," above the GAME line */
			buf_truncate(&reply, echo.mark);
			ignored_add(&ign, bl->text, bl->len);
			continue;
		}
		if (id.g == NULL) {
			if (!told_ident) {
				buf_puts(&reply, "  ignored: start with a line GAME <game> <power> <password>"
				    " (send HELP for instructions)\n");
				told_ident = 1;
			} else {
				buf_puts(&reply, "  ignored (no GAME line)\n");
			}
			continue;
		}
		if (bl->kind == LINE_COMMAND) {
			if (bl->cmd == CMD_PRESS || bl->cmd == CMD_BROADCAST) {
				struct buf why;
				if (pr.open)
					press_deliver(j, id.g, id.gm ? POWER_NONE : id.power, &pr, &reply);
				buf_free(&pr.text);
				memset(&pr, 0, sizeof pr);
				buf_init(&pr.text, 256u << 10);
				buf_init(&why, 400);
				pr.line = bl->lineno;
				if (bl->cmd == CMD_BROADCAST) {
					pr.broadcast = true;
					press_header(id.g, &pr, bl->args, bl->args_len, &why);
					buf_reset(&why);
				} else if (press_header(id.g, &pr, bl->args, bl->args_len, &why) < 0) {
					buf_printf(&reply, "  REFUSED: %s\n", buf_str(&why));
					buf_free(&why);
					pr.refused = true;
					continue;
				}
				buf_free(&why);
				if (pr.conference && !id.gm && !((id.g->conf.powers >> id.power) & 1u)) {
					buf_puts(&reply, "  REFUSED: only the participants of the conference may "
					    "write to it\n");
					pr.refused = true;
					continue;
				}
				if (!id.gm && (pr.broadcast || pr.to || pr.conference) &&
				    id.g->board.phase != PHASE_MOVEMENT &&
				    map_option_on(id.g->map, "silent-phases")) {
					/* MUNA §6.2.5-6: orders written on one's own. */
					buf_printf(&reply, "  REFUSED: no press between powers while %s are "
					    "written: write them on your own (PRESS TO GM is allowed)\n",
					    id.g->board.phase == PHASE_RETREAT ? "retreats" : "adjustments");
					pr.refused = true;
					continue;
				}
				if (!id.gm && id.g->set.press == PRESS_NONE && (pr.broadcast || pr.to) &&
				    !(pr.broadcast && !pr.to && judge_speech_open(id.g, now))) {
					buf_printf(&reply, "  REFUSED: this game has no press between powers "
					    "(PRESS TO GM is allowed%s)\n", id.g->set.speech || id.g->speech_until ?
					    "; BROADCAST is open in the speech phase" : "");
					pr.refused = true;
					continue;
				}
				if (pr.anon && id.g->set.press != PRESS_GREY) {
					buf_puts(&reply, "  REFUSED: anonymous press is not allowed in this game\n");
					pr.refused = true;
					continue;
				}
				pr.open = true;
				continue;
			}
			if (bl->cmd == CMD_ENDPRESS) {
				if (pr.open)
					press_deliver(j, id.g, id.gm ? POWER_NONE : id.power, &pr, &reply);
				else if (pr.refused)
					buf_puts(&reply, "  the press above was refused: nothing was sent\n");
				else
					buf_puts(&reply, "  ignored: no press block to end\n");
				pr.open = false;
				pr.refused = false;
				continue;
			}
			if (id.gm && (bl->cmd == CMD_HISTORY || bl->cmd == CMD_SUMMARY)) {
				char a[400];
				str_ncopy_trim(a, sizeof a, bl->args, bl->args_len);
				if (bl->cmd == CMD_HISTORY)
					cmd_history(j, id.g, a, &reply);
				else
					cmd_summary(id.g, &reply);
			} else if (id.gm) {
				jx_gm_command(j, id.g, bl->cmd, bl->args, bl->args_len, m->from_addr, &reply);
				if (bl->cmd == CMD_SIGNOFF)
					stop = 1;
			} else {
				stop = player_command(j, id.g, id.power, m->from_addr, bl, &reply);
			}
			judge_touch(j, id.g);
			continue;
		}
		/* An order. */
		if (id.gm && chat_line(id.g, bl->text, bl->len)) {
			buf_truncate(&reply, echo.mark);
			ignored_add(&ign, bl->text, bl->len);
			continue;
		}
		if (id.gm) {
			buf_puts(&reply, "  REFUSED: the game master gives no orders (this is not a command)\n");
			continue;
		}
		if (id.g->status != GAME_ACTIVE && id.g->status != GAME_PAUSED) {
			buf_printf(&reply, "  REFUSED: the game is %s\n", status_name(id.g->status));
			continue;
		}
		if (date_line(id.g, bl->text, bl->len, &same_date)) {
			misdated = !same_date;
			if (misdated)
				buf_printf(&reply, "  REFUSED: the game is in %s %d, not %.*s: the orders "
				    "under this date are refused\n", season_name((enum season)id.g->board.season),
				    id.g->board.year, (int)bl->len, bl->text);
			else
				buf_puts(&reply, "  dated: the current phase\n");
			if (misdated)
				ordered = 2;
			continue;
		}
		if (misdated) {
			buf_puts(&reply, "  REFUSED: dated for another phase (see the date above)\n");
			ordered = 2;
			continue;
		}
		switch (take_order(j, id.g, id.power, bl->text, bl->len, &reply)) {
		case TAKE_CHAT:
			buf_truncate(&reply, echo.mark);
			ignored_add(&ign, bl->text, bl->len);
			break;
		case TAKE_REFUSED:
			ordered = 2;
			break;
		case TAKE_DONE:
			if (!ordered)
				ordered = 1;
			break;
		}
		judge_touch(j, id.g);
	}
	echo_end(&echo, &reply);
	if (pr.open && !refused)
		press_deliver(j, id.g, id.gm ? POWER_NONE : id.power, &pr, &reply);
	buf_free(&pr.text);
	if (!refused)
		ignored_put(&ign, &reply);
	buf_free(&ign.quotes);

	if (!refused && id.g && !id.gm && id.g->status == GAME_ACTIVE) {
		const char *zone = member_zone(id.g, id.power, m->from_addr);
		if (ordered) {
			/* Said after the GAME line, before the orders it explains. */
			struct buf note;
			buf_init(&note, 1024);
			late_note(j, id.g, m, ordered == 2, zone, now, &note);
			if (note.len) {
				struct buf rest;
				buf_init(&rest, REPLY_MAX);
				buf_append(&rest, reply.data + note_at, reply.len - note_at);
				buf_truncate(&reply, note_at);
				buf_append(&reply, note.data, note.len);
				buf_append(&reply, rest.data, rest.len);
				buf_free(&rest);
			}
			buf_free(&note);
		}
		buf_putc(&reply, '\n');
		jx_held_status(id.g, id.power, &reply);
		buf_putc(&reply, '\n');
		jx_deadline_line(j, id.g, zone, now, &reply);
	} else if (!refused && id.g && id.gm && id.g->status == GAME_ACTIVE) {
		buf_putc(&reply, '\n');
		jx_deadline_line(j, id.g, "", now, &reply);
	}
	if (id.g && !refused && id.g->seq < seq) {
		id.g->seq = seq;
		judge_touch(j, id.g);
	}
	if (reply.len == 0)
		buf_puts(&reply, "Your message was empty. Send HELP for instructions.\n");
	if (reply.len > REPLY_CAP) {
		/* A last resort (answers to commands are not counted above). */
		size_t cut = REPLY_CAP - 200;
		while (cut > 0 && reply.data[cut - 1] != '\n')
			cut--;
		buf_truncate(&reply, cut);
		buf_printf(&reply, "\n(The rest of this reply is left out: a reply is at most %u KB.)\n",
		    REPLY_CAP >> 10);
	}
	if (host)
		j->fx.host_reply = buf_take(&reply);
	else
		send_reply(j, m, &id, buf_str(&reply));
	buf_free(&reply);
	free(lines);
	j->host = false;
}

void
judge_mail(struct judge *j, const struct inmsg *m, long seq, time_t now)
{
	handle_mail(j, m, seq, now, false);
}

void
judge_host_mail(struct judge *j, const struct inmsg *m, long seq, time_t now)
{
	handle_mail(j, m, seq, now, true);
}

void
judge_mail_game(const struct inmsg *m, char *out, size_t size)
{
	struct body_line *lines;
	int n, i;

	*out = '\0';
	if (m->text == NULL)
		return;
	lines = xcalloc(BODY_MAX_LINES, sizeof *lines);
	n = body_split(m->text, strlen(m->text), lines, BODY_MAX_LINES);
	if (n > BODY_MAX_LINES)
		n = BODY_MAX_LINES;
	for (i = 0; i < n; i++) {
		const struct body_line *bl = &lines[i];
		if (bl->kind == LINE_IDENT ||
		    (bl->kind == LINE_COMMAND && bl->cmd == CMD_NEWGAME)) {
			const char *a = bl->args, *end = bl->args + bl->args_len;
			size_t k;
			while (a < end && (*a == ' ' || *a == '\t'))
				a++;
			for (k = 0; a + k < end && a[k] != ' ' && a[k] != '\t'; k++)
				;
			if (k < size) {
				memcpy(out, a, k);
				out[k] = '\0';
			}
			break;
		}
	}
	free(lines);
}
