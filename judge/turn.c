/*
 * turn.c — what time does to a game: deadlines, reminders, early
 * processing, adjudicating a phase and reporting it, the end of a game.
 *
 * A phase is processed when every power that must order has complete
 * orders and nobody asked to WAIT; or at the deadline when the orders are
 * complete; or, when orders are missing, after the grace period if the game
 * plays missing orders as civil disorder, and only by the GM's PROCESS if
 * it waits for the GM.
 */
#define _DEFAULT_SOURCE
#include "turn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/grow.h"
#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"
#include "engine/report.h"
#include "outbound.h"
#include "status.h"

#define TEXT_MAX (4u << 20)
/* What a rule system keeps with a phase, as the phase found it. */
#define PHASE_STATE_MAX (1u << 16)
/* The answer to a phase decided by the clock, which no one reads. */
#define CLOCK_REPLY_MAX (1u << 16)

/* Start an event of g's clock: its messages are named after what it is,
 * the phase count, the rewinds when there were any (the same phase count
 * comes round again after them) and tail. */
static void
clock_event(struct judge *j, const struct game *g, const char *what, const char *tail)
{
	if (g->rewinds == 0)
		judge_event(j, "%s.%s%d%s", g->name, what, g->nphases, tail);
	else
		judge_event(j, "%s.%s%d-%d%s", g->name, what, g->nphases, g->rewinds, tail);
}

time_t
judge_deadline_after(const struct judge *j, const struct game *g, time_t start)
{
	const struct game_settings *s = &g->set;
	time_t t = start + s->duration[g->board.phase % 3];
	struct tm tm;
	int k;

	/*
	 * The first negotiation may be longer (a committee's: 30 minutes, then
	 * 15): the game's first-movement, or what its rules make of it.
	 */
	if (g->board.phase == PHASE_MOVEMENT && g->board.season == SEASON_SPRING &&
	    g->board.year == g->map->start_year) {
		if (s->first_movement)
			t = start + s->first_movement;
		else if (system_phase_length(g) > 0)
			t = start + system_phase_length(g);
	}

	if (s->deadline_minute < 0 && s->days == 0)
		return t;
	/* The first allowed day, at the fixed time if there is one, not before t. */
	for (k = 0; k < 15; k++) {
		time_t day = t + (time_t)k * 86400, cand;
		if (tz_local(&j->io.zones, s->zone, day, &tm) < 0)
			return t;
		if (s->days && !(s->days & (1 << tm.tm_wday)))
			continue;
		if (s->deadline_minute >= 0) {
			tm.tm_hour = s->deadline_minute / 60;
			tm.tm_min = s->deadline_minute % 60;
			tm.tm_sec = 0;
		}
		if (tz_mktime(&j->io.zones, s->zone, &tm, &cand) < 0)
			return t;
		if (cand >= t)
			return cand;
	}
	return t;
}

void
turn_start_phase(struct judge *j, struct game *g, time_t now)
{
	int p;

	(void)j;
	g->phase_start = now;
	g->deadline = judge_deadline_after(j, g, now);
	g->gm_told = false;
	g->completed_at = 0;
	system_phase_started(g, now);
	for (p = 0; p < g->map->npowers; p++) {
		g->del[p].reminded = false;
		g->del[p].wait = false;
		g->del[p].norders = 0;
	}
}

void
turn_deadline_again(struct game *g)
{
	if (g->gm_told)
		g->rewinds++;	/* the same phase count comes round to the notice again */
	g->gm_told = false;
	g->completed_at = 0;
}

void
judge_game_over(struct judge *j, struct game *g, const char *result)
{
	g->status = GAME_ENDED;
	g->deadline = 0;
	str_copy(g->result, result, sizeof g->result);
	judge_touch(j, g);
	judge_audit(j, g, "game over: %s", result);
}

void
turn_end_game(struct judge *j, struct game *g, const char *result)
{
	struct buf text;
	char subject[128];

	judge_game_over(j, g, result);
	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "Game %s is over.\n\n%s.\n\n", g->name, result);
	status_position(g, &text);
	judge_standings(g, &g->board, "Final standings (victory points):", &text);
	snprintf(subject, sizeof subject, "[%s] game over", g->name);
	judge_announce(j, g, subject, buf_text(&text));
	buf_free(&text);
}

/* The report of the phase just played for a member (in zone) of the
 * delegation of p: common, with what each of its powers must do next and
 * the deadline. */
static void
member_report(struct judge *j, const struct game *g, power_id p, const char *zone,
    const char *common, const struct buf *url, struct buf *body)
{
	const struct map *m = g->map;
	char ph[48];
	int q, held = 0;

	buf_reset(body);
	buf_printf(body, "Game %s, ", g->name);
	for (q = p; q < m->npowers; q++) {
		if (game_held_together(g, p, (power_id)q))
			buf_printf(body, "%s%s", held++ ? " and " : "", m->powers[q].name);
	}
	buf_puts(body, ".\n\n");
	buf_puts(body, common);
	if (url->len)
		buf_printf(body, "\nMap: %s\n", buf_str(url));
	if (g->status != GAME_ACTIVE)
		return;
	buf_printf(body, "\nNext: %s. ", phase_format(&g->board, ph, sizeof ph));
	if (held > 1)
		buf_putc(body, '\n');
	for (q = p; q < m->npowers; q++) {
		if (!game_held_together(g, p, (power_id)q))
			continue;
		if (held > 1)
			buf_printf(body, "%s: ", m->powers[q].name);
		status_what_to_do(g, (power_id)q, body);
	}
	status_deadline_line(j, g, zone, j->now, body);
	status_speech_line(j, g, zone, j->now, body);
}

/* The same report for observers and GMs: common, and the deadline. */
static void
public_report(struct judge *j, const struct game *g, const char *common, const struct buf *url,
    struct buf *body)
{
	char ph[48];

	buf_reset(body);
	buf_printf(body, "Game %s.\n\n", g->name);
	buf_puts(body, common);
	if (url->len)
		buf_printf(body, "\nMap: %s\n", buf_str(url));
	if (g->status == GAME_ACTIVE) {
		buf_printf(body, "\nNext: %s. ", phase_format(&g->board, ph, sizeof ph));
		status_deadline_line(j, g, "", j->now, body);
		status_speech_line(j, g, "", j->now, body);
	}
}

/* Send the turn report: to each member with what that power must do and the
 * deadline in the member's zone, to observers and GMs without. */
static void
send_reports(struct judge *j, struct game *g, const char *common)
{
	const struct board *before = &j->fx.phases[j->fx.nphases - 1].before;
	struct buf body, url;
	char subject[160], ph[48];
	int p, i;

	buf_init(&body, TEXT_MAX);
	buf_init(&url, 1024);
	judge_map_url(j, g, before, &url);
	snprintf(subject, sizeof subject, "[%s] %s results", g->name,
	    phase_format(before, ph, sizeof ph));
	for (p = 0; p < g->map->npowers; p++) {
		/* One report for a delegation holding several powers. */
		if (!game_first_held(g, (power_id)p))
			continue;
		for (i = 0; i < g->del[p].nmembers; i++) {
			const char *to[1] = { g->del[p].members[i].addr };
			member_report(j, g, (power_id)p, g->del[p].members[i].zone, common, &url, &body);
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL,
			    OUT_GENERATED);
		}
	}
	public_report(j, g, common, &url, &body);
	for (i = 0; i < g->nobservers; i++) {
		const char *to[1] = { g->observers[i] };
		outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL, OUT_GENERATED);
	}
	for (i = 0; i < g->ngms; i++) {
		const char *to[1] = { g->gms[i] };
		outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL, OUT_GENERATED);
	}
	buf_free(&body);
	buf_free(&url);
}

/* The orders of every power of g, each marked with its power, into a new
 * array (the caller frees it); their count into *n. */
static struct order *
collect_orders(const struct game *g, int *n)
{
	const struct map *m = g->map;
	struct order *orders;
	int p, k;

	orders = xcalloc((size_t)m->npowers * GAME_MAX_ORDERS + 1, sizeof *orders);
	*n = 0;
	for (p = 0; p < m->npowers; p++)
		for (k = 0; k < g->del[p].norders; k++) {
			orders[*n] = g->del[p].orders[k];
			orders[*n].power = (power_id)p;
			(*n)++;
		}
	return orders;
}

/* The history record of a phase played from before at now: its report,
 * the orders as adjudicated (in the game file's form: with the position
 * they can be played again, as the map pages do), what the rules keep
 * with it, and the position. Returns the text, owned by the caller. */
static char *
history_record(const struct game *g, const struct board *before, const struct order *orders,
    int n, time_t now, const char *report, const char *kept, bool *cut)
{
	const struct map *m = g->map;
	struct buf text;
	char when[32], name[48];
	int k;

	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "phase %s\nprocessed %s\n\n%s\norders\n",
	    phase_format(before, name, sizeof name), time_rfc3339(now, when, sizeof when), report);
	for (k = 0; k < n; k++) {
		buf_printf(&text, "order %s ", m->powers[orders[k].power].token);
		game_format_order(g, orders[k].power, &orders[k], &text);
		buf_putc(&text, '\n');
	}
	buf_puts(&text, kept);
	buf_puts(&text, "position before\n");
	board_write(before, m, &text);
	*cut = buf_failed(&text);
	return buf_take(&text);
}

/* Leave the phase t adjudicated among the effects, with its history record
 * number index and text: orders, res (t's, allocated) and text become
 * theirs. */
static void
record_phase(struct judge *j, const struct turn *t, struct order *orders,
    struct phase_result *res, int index, char *text, bool cut)
{
	struct judge_phase *ph;

	GROW(j->fx.phases, j->fx.nphases, j->fx.capphases);
	ph = &j->fx.phases[j->fx.nphases++];
	memset(ph, 0, sizeof *ph);
	str_copy(ph->game, t->g->name, sizeof ph->game);
	ph->index = index;
	ph->before = *t->before;
	ph->after = t->res->after;
	ph->next = t->next;
	ph->norders = t->norders;
	ph->orders = orders;
	ph->res = res;
	ph->text = text;
	ph->cut = cut;
}

/* The year is over when a Fall phase leads out of Fall: the centres each
 * power holds on next are kept for SUMMARY. */
static void
count_year(struct game *g, const struct board *before, const struct board *next)
{
	int p;

	if (before->season != SEASON_FALL || next->season == SEASON_FALL || g->nyears >= GAME_MAX_YEARS)
		return;
	GAME_ROOM(g, years, GAME_MAX_YEARS);
	g->years[g->nyears].year = before->year;
	for (p = 0; p < g->map->npowers; p++)
		g->years[g->nyears].centres[p] = (uint8_t)board_count_centres(next, g->map, (power_id)p);
	g->nyears++;
}

/* Has the game ended on its new position? Then it is over, and the
 * report says why. */
static void
check_ended(struct judge *j, struct game *g, struct buf *report)
{
	char result[128];

	if (!g->sys->ended(g, result, sizeof result))
		return;
	g->status = GAME_ENDED;
	str_copy(g->result, result, sizeof g->result);
	g->deadline = 0;
	buf_printf(report, "\n%s.\n", result);
	judge_audit(j, g, "game over: %s", result);
}

int
judge_process(struct judge *j, struct game *g, time_t now, bool preview, struct buf *out)
{
	struct order *orders;
	struct phase_result *res;
	struct phase_why *why;
	struct board before = g->board;
	struct turn t;
	struct buf common, kept;
	char *text;
	int n, index;
	bool cut;

	j->now = now;
	if (g->status != GAME_ACTIVE && !(preview && g->status == GAME_PAUSED)) {
		buf_printf(out, "the game is %s\n", game_status_name(g->status));
		return -1;
	}
	orders = collect_orders(g, &n);
	res = xmalloc(sizeof *res);
	why = xmalloc(sizeof *why);
	system_resolve(g, &before, orders, n, res, why);
	if (preview) {
		/* What would happen; the next phase is not worked out. */
		buf_puts(out, "\nPREVIEW (nothing is changed):\n\n");
		report_results(g->map, &before, orders, res, why, out);
		free(orders);
		free(res);
		free(why);
		return 0;
	}
	/* What the rules keep with the phase, as the phase found it: a
	 * rollback to it brings it back. */
	buf_init(&kept, PHASE_STATE_MAX);
	system_history_write(g, &kept);
	buf_init(&common, TEXT_MAX);
	memset(&t, 0, sizeof t);
	t.j = j;
	t.g = g;
	t.before = &before;
	t.orders = orders;
	t.norders = n;
	t.res = res;
	t.why = why;
	t.report = &common;
	g->sys->turn(&t);
	free(why);
	t.why = NULL;

	index = ++g->nphases;
	if (j->seq == 0) {
		/* From the clock: name the messages after the phase. */
		clock_event(j, g, "p", "");
	}
	text = history_record(g, &before, orders, n, now, buf_str(&common), buf_str(&kept), &cut);
	cut |= buf_failed(&common) || buf_failed(&kept);
	buf_free(&kept);
	record_phase(j, &t, orders, res, index, text, cut);
	count_year(g, &before, &t.next);
	g->board = t.next;
	board_sort(&g->board);	/* as a saved game reads back: nothing may depend on a reload */
	judge_touch(j, g);
	turn_start_phase(j, g, now);
	check_ended(j, g, &common);
	send_reports(j, g, buf_str(&common));
	buf_free(&common);
	return 0;
}

/* Send reminders to delegations whose orders are missing. */
static void
remind(struct judge *j, struct game *g, time_t now)
{
	const struct map *m = g->map;
	struct buf body, names;
	char subject[128], ph[48];
	int p, q, i;

	buf_init(&body, TEXT_MAX);
	buf_init(&names, 256);
	for (p = 0; p < m->npowers; p++) {
		struct delegation *d = &g->del[p];
		if (d->reminded || !status_orders_late(g, (power_id)p))
			continue;
		/* One reminder for a delegation of several powers, naming them all. */
		buf_reset(&names);
		for (q = p; q < m->npowers; q++) {
			if (!game_held_together(g, (power_id)p, (power_id)q))
				continue;
			buf_printf(&names, "%s%s", q == p ? "" : " and ", m->powers[q].name);
			g->del[q].reminded = true;
		}
		judge_touch(j, g);
		snprintf(subject, sizeof subject, ".%s", m->powers[p].abbr);
		clock_event(j, g, "r", subject);
		snprintf(subject, sizeof subject, "[%s] reminder: orders for %s", g->name,
		    phase_format(&g->board, ph, sizeof ph));
		for (i = 0; i < d->nmembers; i++) {
			const char *to[1] = { d->members[i].addr };
			buf_reset(&body);
			buf_printf(&body, "Game %s, %s: orders are still missing.\n\n", g->name,
			    buf_str(&names));
			status_held(g, (power_id)p, &body);
			buf_putc(&body, '\n');
			status_deadline_line(j, g, d->members[i].zone, now, &body);
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL, OUT_GENERATED);
		}
	}
	buf_free(&body);
	buf_free(&names);
}

/* What becomes of missing orders when the phase is decided without them. */
static const char *
missing_orders_fate(const struct game *g)
{
	switch (g->board.phase) {
	case PHASE_MOVEMENT:
		return "units without orders hold";
	case PHASE_RETREAT:
		return "dislodged units without orders are disbanded";
	default:
		return "builds not ordered are lost, removals not ordered are chosen by\n"
		    "the rules";
	}
}

/* Is p the first late power of its delegation? */
static bool
first_late_held(const struct game *g, power_id p)
{
	int q;

	for (q = 0; q < p; q++)
		if (game_held_together(g, p, (power_id)q) && status_orders_late(g, (power_id)q))
			return false;
	return true;
}

/* The deadline passed with orders missing: tell each late delegation, once,
 * how long it has left, and the GMs who is late. */
static void
tell_deadline_passed(struct judge *j, struct game *g)
{
	const struct map *m = g->map;
	struct buf body, late, names;
	char subject[128], ph[48], when[96], until[96];
	time_t end = g->deadline + g->set.grace;
	bool wait = g->set.nmr == NMR_WAIT;
	int p, q, i, k = 0;

	buf_init(&body, TEXT_MAX);
	buf_init(&late, 1024);
	buf_init(&names, 256);
	clock_event(j, g, "w", "");
	phase_format(&g->board, ph, sizeof ph);
	snprintf(subject, sizeof subject, "[%s] deadline passed: orders missing for %s", g->name, ph);
	for (p = 0; p < m->npowers; p++) {
		struct delegation *d = &g->del[p];
		if (!status_orders_late(g, (power_id)p))
			continue;
		buf_printf(&late, "%s%s", k++ ? ", " : "", m->powers[p].name);
		/* One notice for a delegation of several powers, naming the
		 * late ones. */
		if (!first_late_held(g, (power_id)p))
			continue;
		buf_reset(&names);
		for (q = p; q < m->npowers; q++)
			if (game_held_together(g, (power_id)p, (power_id)q) &&
			    status_orders_late(g, (power_id)q))
				buf_printf(&names, "%s%s", q == p ? "" : " and ", m->powers[q].name);
		for (i = 0; i < d->nmembers; i++) {
			const char *to[1] = { d->members[i].addr };
			const char *zone = d->members[i].zone[0] ? d->members[i].zone : g->set.zone;
			buf_reset(&body);
			time_human(&j->io.zones, zone, g->deadline, when, sizeof when);
			time_human(&j->io.zones, zone, end, until, sizeof until);
			buf_printf(&body, "Game %s, %s: the deadline has passed and your orders\n"
			    "for %s are not complete.\nThe deadline was %s.\n\n", g->name,
			    buf_str(&names), ph, when);
			if (wait)
				buf_puts(&body, "The game waits for the game master, who may decide the phase "
				    "at any time:\nsend your orders now.\n\n");
			else
				buf_printf(&body, "You have until %s\n(the grace period) to send "
				    "them. Then the phase is decided without them:\n%s.\n\n", until,
				    missing_orders_fate(g));
			status_held(g, (power_id)p, &body);
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL, OUT_GENERATED);
		}
	}
	buf_reset(&body);
	buf_printf(&body, "The deadline of game %s, %s, has passed.\nOrders are missing from: "
	    "%s.\n", g->name, ph, buf_str(&late));
	if (wait) {
		if (g->board.phase == PHASE_MOVEMENT)
			buf_puts(&body, "The game waits for you: send PROCESS to adjudicate now "
			    "(missing orders\nhold), or SET DEADLINE +24h to give them more time.\n");
		else
			buf_printf(&body, "The game waits for you: send PROCESS to adjudicate now\n"
			    "(%s),\nor SET DEADLINE +24h to give them more time.\n",
			    missing_orders_fate(g));
		snprintf(subject, sizeof subject, "[%s] waiting for orders for %s", g->name, ph);
	} else {
		time_human(&j->io.zones, g->set.zone, end, until, sizeof until);
		buf_printf(&body, "They have until %s\n(the grace period); the phase is "
		    "decided then, or as soon as their orders\nare complete. ", until);
		if (g->board.phase == PHASE_MOVEMENT)
			buf_puts(&body, "PROCESS decides it now (missing orders hold); SET DEADLINE\n"
			    "+24h gives them more time.\n");
		else
			buf_printf(&body, "PROCESS decides it now:\n%s.\nSET DEADLINE +24h gives "
			    "them more time.\n", missing_orders_fate(g));
		snprintf(subject, sizeof subject, "[%s] deadline passed: orders missing for %s", g->name,
		    ph);
	}
	for (i = 0; i < g->ngms; i++) {
		const char *to[1] = { g->gms[i] };
		outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL, OUT_GENERATED);
	}
	buf_free(&body);
	buf_free(&late);
	buf_free(&names);
}

/* Where the orders of a game's current phase stand. */
struct orders_in {
	bool complete;		/* every power that must order (and is played) has */
	bool someone;		/* some power has */
	bool waiting;		/* the phase waits for its deadline (WAIT, the rules) */
};

/* Where the orders of g stand, the rules' wishes aside. */
static void
orders_in(const struct game *g, struct orders_in *o)
{
	int p;

	o->complete = true;
	o->someone = o->waiting = false;
	for (p = 0; p < g->map->npowers; p++) {
		if (!game_must_order(g, (power_id)p) || judge_in_disorder(g, (power_id)p))
			continue;
		if (!game_orders_complete(g, (power_id)p))
			o->complete = false;
		else
			o->someone = true;
		if (g->del[p].wait)
			o->waiting = true;
	}
}

/* Remind the late delegations of g when it is time. Not before half the
 * phase is over: the results just told everyone what to do. Sent by the
 * first run after it fell due, with the time left then; not after the
 * deadline (the notice then says what is left). A replay runs at the live
 * runs' times (spool_run_at). */
static void
remind_due(struct judge *j, struct game *g, time_t now, const struct orders_in *o)
{
	time_t at;

	if (g->set.remind <= 0)
		return;
	at = g->deadline - g->set.remind;
	if (at < g->phase_start + (g->deadline - g->phase_start) / 2)
		at = g->phase_start + (g->deadline - g->phase_start) / 2;
	if (now >= at && now < g->deadline && !(o->complete && o->someone && !o->waiting))
		remind(j, g, now);
}

/* What time requires of game g at now, once. Returns true when a phase
 * was decided (the next one may be due already). */
static bool
tick_game(struct judge *j, struct game *g, time_t now, bool early)
{
	struct orders_in o;
	struct buf dummy;
	bool ready;
	time_t at;

	j->now = now;
	if (system_serves(g->sys, SYS_OWN_CLOCK))
		return system_tick(j, g, now);
	if (g->deadline == 0) {
		turn_start_phase(j, g, now);
		judge_touch(j, g);
		outbound_pages(j, g);	/* the index gives the deadline */
	}
	orders_in(g, &o);
	/* Reminders go from a run's own tick, after it read all its mail: not
	 * from the tick at a message's arrival, which would date them then
	 * and remind a delegation whose orders that very message brings. */
	if (early)
		remind_due(j, g, now, &o);
	if (!o.complete || !g->gm_told)
		g->completed_at = 0;
	else if (g->completed_at == 0)
		g->completed_at = now;	/* the shell ticks at each message's arrival */
	/* The same condition the replies' "All orders are in" line reads. */
	ready = early && status_decided_early(g);
	at = g->deadline + (o.complete ? 0 : g->set.grace);
	if (g->completed_at != 0) {
		/* Orders the deadline found missing, completed since (in the
		 * grace period, or while the game waits for its master): the
		 * end of the run decides the phase, so that all its mail
		 * counts, a partner's change after the last orders too; a
		 * message of the run that came after the grace period ended
		 * does not. Dated when the orders were complete. */
		if (!early && (g->set.nmr != NMR_CD || now < g->deadline + g->set.grace))
			return false;
		ready = true;
		at = g->completed_at;
	}
	if (ready || (now >= at && (o.complete || g->set.nmr == NMR_CD))) {
		/* Dated when it was really decided, not when this tick came
		 * round: a run five minutes after a deadline gives the same
		 * results, dates and next deadline as one on the dot. All
		 * orders in: now (the end of the run that found them), or at
		 * the deadline when this tick comes after it; completed after
		 * the deadline found them missing: at the message that
		 * completed them (above). Missing orders: the end of the grace
		 * period. */
		if (ready && now < g->deadline)
			at = now;
		buf_init(&dummy, CLOCK_REPLY_MAX);
		judge_process(j, g, at < now ? at : now, false, &dummy);
		buf_free(&dummy);
		return true;
	}
	if (now >= g->deadline && !o.complete && !g->gm_told) {
		g->gm_told = true;
		tell_deadline_passed(j, g);
		judge_touch(j, g);
		outbound_pages(j, g);	/* the index gives the grace period's end */
	}
	return false;
}

/* True when the tick at a message's arrival (judge_tick_due) would do
 * nothing to g at now: a game not under way, or a phase before its
 * deadline that no earlier tick found late. Whatever its orders, no
 * reminder goes (that tick is not early), completed_at stays 0 (no
 * deadline has found orders missing) and nothing falls due. A few fields,
 * so that the tick at each message costs next to nothing for the games
 * the message does not concern. */
static bool
quiet_until_deadline(const struct game *g, time_t now)
{
	if (g->status != GAME_ACTIVE)
		return true;
	return g->deadline != 0 && now < g->deadline && !g->gm_told && g->completed_at == 0 &&
	    !system_serves(g->sys, SYS_OWN_CLOCK);
}

/* When the tick at a message's arrival has to look at g (the opposite of
 * quiet_until_deadline: from then on it is not quiet); DUE_NONE: never,
 * while it is not under way. */
static time_t
wake_time(const struct game *g)
{
	if (g->status != GAME_ACTIVE)
		return DUE_NONE;
	if (g->deadline != 0 && !g->gm_told && g->completed_at == 0 &&
	    !system_serves(g->sys, SYS_OWN_CLOCK))
		return g->deadline;
	return (time_t)INT64_MIN;
}

static bool
due_less(const struct due_entry *a, const struct due_entry *b)
{
	return a->at < b->at || (a->at == b->at && a->game < b->game);
}

/* Put game gi in the index at its wake time, once: an entry already
 * there for that time stands; one for another time is stale from now. */
static void
due_put(struct judge *j, int gi)
{
	time_t at = wake_time(j->games[gi]);
	int k;

	if (at == j->due_at[gi])
		return;
	j->due_at[gi] = at;
	if (at == DUE_NONE)
		return;
	GROW(j->due, j->ndue, j->capdue);
	for (k = j->ndue++; k > 0; k = (k - 1) / 2) {
		struct due_entry e = { at, gi };
		if (!due_less(&e, &j->due[(k - 1) / 2]))
			break;
		j->due[k] = j->due[(k - 1) / 2];
	}
	j->due[k] = (struct due_entry){ at, gi };
}

static void
due_pop(struct judge *j)
{
	struct due_entry last = j->due[--j->ndue];
	int k = 0, c;

	while ((c = 2 * k + 1) < j->ndue) {
		if (c + 1 < j->ndue && due_less(&j->due[c + 1], &j->due[c]))
			c++;
		if (!due_less(&j->due[c], &last))
			break;
		j->due[k] = j->due[c];
		k = c;
	}
	if (j->ndue > 0)
		j->due[k] = last;
}

static void
add_cand(struct judge *j, int gi)
{
	if (!j->is_cand[gi]) {
		j->is_cand[gi] = true;
		j->cand[j->ncand++] = gi;
	}
}

/* The games the tick at now must look at, into j->cand in game order:
 * those whose wake time came, and those changed since the index saw them
 * (a game's wake time changes only when it is touched or ticked). */
static void
due_collect(struct judge *j, time_t now)
{
	int k;

	if (!j->due_built) {
		j->ndue = 0;
		for (k = 0; k < j->ngames; k++) {
			j->due_at[k] = DUE_NONE;
			j->is_retick[k] = false;
			due_put(j, k);
		}
		j->nretick = 0;
		j->due_built = true;
	}
	for (k = 0; k < j->nretick; k++) {
		j->is_retick[j->retick[k]] = false;
		add_cand(j, j->retick[k]);
	}
	j->nretick = 0;
	while (j->ndue > 0 && j->due[0].at <= now) {
		struct due_entry e = j->due[0];
		due_pop(j);
		if (j->due_at[e.game] != e.at)
			continue;	/* stale */
		j->due_at[e.game] = DUE_NONE;
		add_cand(j, e.game);
	}
	if (j->ncand > 1)	/* cand is NULL until a game first became one */
		qsort(j->cand, (size_t)j->ncand, sizeof *j->cand, judge_cmp_index);
}

/* What time requires of game g at now, a few rounds (one phase decided
 * may make the next due at once). */
static void
tick_rounds(struct judge *j, struct game *g, time_t now, bool early)
{
	clock_event(j, g, "t", "");
	for (int rounds = 0; rounds < 8 && g->status == GAME_ACTIVE; rounds++)
		if (!tick_game(j, g, now, early))
			break;
	if (j->drain) {
		j->now = now;	/* as the shell finds it after the tick */
		j->drain(j->drain_arg);
	}
}

/* judge_tick: every game. */
static void
tick_all(struct judge *j, time_t now)
{
	j->seq = 0;
	for (int gi = 0; gi < j->ngames; gi++)
		tick_rounds(j, j->games[gi], now, true);
	j->due_built = false;	/* the index is made again at the next tick_due */
	j->now = now;
}

/* judge_tick_due: the games that are not quiet, in game order, found by
 * the index (due_collect) instead of a pass over every game. A game that
 * one of them touches and that comes later in that order is looked at in
 * this tick too, as a pass would. */
static void
tick_due(struct judge *j, time_t now)
{
	int k, m;

	j->seq = 0;
	due_collect(j, now);
	for (k = 0; k < j->ncand; k++) {
		int gi = j->cand[k];
		struct game *g = j->games[gi];

		if (!quiet_until_deadline(g, now))
			tick_rounds(j, g, now, false);
		if (j->nretick == 0)
			continue;
		for (m = 0; m < j->nretick; m++)
			if (j->retick[m] > gi && !j->is_cand[j->retick[m]]) {
				j->is_retick[j->retick[m]] = false;
				add_cand(j, j->retick[m]);
				j->retick[m--] = j->retick[--j->nretick];
			}
		qsort(j->cand + k + 1, (size_t)(j->ncand - k - 1), sizeof *j->cand, judge_cmp_index);
	}
	for (k = 0; k < j->ncand; k++) {
		j->is_cand[j->cand[k]] = false;
		due_put(j, j->cand[k]);
	}
	j->ncand = 0;
	j->now = now;
}

void
judge_tick(struct judge *j, time_t now)
{
	tick_all(j, now);
}

void
judge_tick_due(struct judge *j, time_t now)
{
	tick_due(j, now);
}

/* The latest history record of g whose phase is year y, season se and
 * type pt: its number (0: none), its text into rec and its position into b. */
static int
find_phase(struct judge *j, const struct game *g, int y, enum season se, enum phase_type pt,
    struct buf *rec, struct board *b)
{
	int i, found = 0;

	for (i = g->nphases; i >= 1 && !found; i--) {
		buf_reset(rec);
		if (j->io.history(j->io.ctx, g->name, i, rec) < 0 ||
		    status_history_position(g, buf_str(rec), b) < 0)
			continue;
		if (b->year == y && b->season == se && b->phase == pt)
			found = i;
	}
	return found;
}

/* Back to the phase of history record rec, whose position is b: what the
 * rules kept with it (insurrections waiting for it to end, the
 * conference as it found it), and no year or award after it. */
static void
restore_phase(struct game *g, const char *rec, const struct board *b)
{
	const char *ord = strstr(rec, "\norders\n");
	const char *pos = strstr(rec, "\nposition before\n");

	g->board = *b;
	system_history_read(g, ord && pos && ord < pos ? ord : NULL,
	    ord && pos && ord < pos ? (size_t)(pos - ord) : 0);
	game_forget_since(g, b);
	while (g->nyears > 0 && (g->years[g->nyears - 1].year > b->year ||
	    (g->years[g->nyears - 1].year == b->year && b->season != SEASON_WINTER)))
		g->nyears--;
	if (g->status == GAME_ENDED) {
		g->status = GAME_ACTIVE;
		g->result[0] = '\0';
	}
}

/* Tell the shell that the history of g after record found is retired. */
static void
note_rollback(struct judge *j, const struct game *g, int found)
{
	struct judge_note *nt;
	char idx[24];

	GROW(j->fx.rollbacks, j->fx.nrollbacks, j->fx.caprollbacks);
	nt = &j->fx.rollbacks[j->fx.nrollbacks++];
	str_copy(nt->game, g->name, sizeof nt->game);
	snprintf(idx, sizeof idx, "%d", found);
	nt->text = xstrdup(idx);
}

int
judge_rollback(struct judge *j, struct game *g, const char *phase, time_t now, struct buf *why)
{
	struct buf rec;
	struct board b;
	int y, found;
	enum season se;
	enum phase_type pt;

	j->now = now;
	if (phase_parse(phase, &y, &se, &pt) < 0) {
		buf_printf(why, "cannot read the phase \"%s\" (say e.g. ROLLBACK Spring 1902 Movement or "
		    "ROLLBACK S1902M)", phase);
		return -1;
	}
	if (j->io.history == NULL) {
		buf_puts(why, "no history available");
		return -1;
	}
	buf_init(&rec, 1 << 22);
	found = find_phase(j, g, y, se, pt, &rec, &b);
	if (!found) {
		buf_printf(why, "no played phase %s in this game", phase);
		buf_free(&rec);
		return -1;
	}
	g->nphases = found - 1;
	g->rewinds++;	/* the phase counts from found on come round again */
	restore_phase(g, buf_str(&rec), &b);
	note_rollback(j, g, found);
	turn_start_phase(j, g, now);
	judge_touch(j, g);
	buf_free(&rec);
	return 0;
}
