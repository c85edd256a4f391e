/*
 * status.c — what the judge tells about a game as it stands (status.h):
 * the position, a power's orders and what it must do, deadlines, HELP.
 */
#define _DEFAULT_SOURCE
#include "status.h"

#include <stdio.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "engine/muna_rules.h"
#include "engine/report.h"
#include "engine/resolver.h"
#include "system_words.h"

void
status_deadline_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
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
	if (now >= g->deadline && !system_serves(g->sys, SYS_OWN_CLOCK) && status_orders_complete(g)) {
		/* Orders that came after the deadline (in the grace period, or
		 * while the game waits for its master) complete the phase: the
		 * tick after this message decides it. */
		buf_printf(out, "Deadline: %s (passed).\nAll orders are in: the phase is decided now, "
		    "and the results follow.\n", local);
		return;
	}
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
	/* Not "now": the phase is decided once the judge has read all the
	 * mail of this run (a partner's WAIT in it holds the phase), and
	 * dated at the deadline when the run comes after it. */
	if (now < g->deadline && status_decided_early(g))
		buf_puts(out, "All orders are in: the phase will be decided as soon as the judge has "
		    "read the other mail that came with yours, unless one of them holds it (WAIT).\n");
}

time_t
judge_grace_end(const struct game *g, time_t now)
{
	if (g->status != GAME_ACTIVE || g->deadline == 0 || (now < g->deadline && !g->gm_told) ||
	    g->set.nmr != NMR_CD || g->set.grace <= 0 || system_serves(g->sys, SYS_OWN_CLOCK))
		return 0;
	return status_orders_complete(g) ? 0 : g->deadline + g->set.grace;
}

const char *
judge_master_wait(const struct game *g, time_t now)
{
	if (g->status == GAME_PAUSED)
		return "Paused; waiting for the game master";
	if (g->status != GAME_ACTIVE || g->deadline == 0 || (now < g->deadline && !g->gm_told) ||
	    g->set.nmr != NMR_WAIT || system_serves(g->sys, SYS_OWN_CLOCK) ||
	    status_orders_complete(g))
		return NULL;
	return "Deadline passed; waiting for the game master";
}

bool
status_orders_complete(const struct game *g)
{
	int p;

	for (p = 0; p < g->map->npowers; p++)
		if (status_orders_late(g, (power_id)p))
			return false;
	return true;
}

bool
status_decided_early(const struct game *g)
{
	bool someone = false;
	int p;

	if (system_waits(g) || system_serves(g->sys, SYS_OWN_CLOCK))
		return false;
	for (p = 0; p < g->map->npowers; p++) {
		if (!game_must_order(g, (power_id)p) || judge_in_disorder(g, (power_id)p))
			continue;
		if (!game_orders_complete(g, (power_id)p) || g->del[p].wait)
			return false;
		someone = true;
	}
	return someone;
}

bool
status_orders_late(const struct game *g, power_id p)
{
	return game_must_order(g, p) && !judge_in_disorder(g, p) && !game_orders_complete(g, p);
}

int
status_history_position(const struct game *g, const char *rec, struct board *b)
{
	static const char mark[] = "\nposition before\n";
	const char *pos = strstr(rec, mark);
	struct buf err;
	int rc;

	if (pos == NULL)
		return -1;
	pos += strlen(mark);
	buf_init(&err, 4096);
	rc = board_read(b, g->map, pos, strlen(pos), &err);
	buf_free(&err);
	return rc < 0 ? -1 : 0;
}

bool
judge_in_disorder(const struct game *g, power_id p)
{
	const struct delegation *d = &g->del[p];

	return d->resigned || d->nmembers == 0 || d->secret[0] == '\0';
}

bool
judge_speech_open(const struct game *g, time_t now)
{
	return system_speech_until(g) > now;
}

void
status_speech_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out)
{
	char local[96], span[48];

	if (!judge_speech_open(g, now) || g->status != GAME_ACTIVE)
		return;
	time_human(&j->io.zones, zone && *zone ? zone : g->set.zone, system_speech_until(g), local,
	    sizeof local);
	buf_printf(out, "Speech phase until %s (%s from now): every delegation may BROADCAST.\n",
	    local, time_span((long)(system_speech_until(g) - now), span, sizeof span));
	system_speech_note(g, out);
}

void
status_position(const struct game *g, struct buf *out)
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
status_held(const struct game *g, power_id p, struct buf *out)
{
	int q, n = 0;

	for (q = 0; q < g->map->npowers; q++)
		n += game_held_together(g, p, (power_id)q);
	if (n == 1) {
		status_orders(g, p, out);
		return;
	}
	for (q = 0; q < g->map->npowers; q++) {
		if (!game_held_together(g, p, (power_id)q))
			continue;
		buf_printf(out, "%s. ", g->map->powers[q].name);
		status_orders(g, (power_id)q, out);
	}
}

/* The i-th unit of b's phase: on the board, or dislodged in a retreat. */
static const struct unit *
listed_unit(const struct board *b, int i)
{
	return b->phase == PHASE_MOVEMENT ? &b->units[i] : &b->dislodged[i].unit;
}

/* The order of d that the i-th unit of g's phase carries out: the first
 * for its province; in a stack (RULES_STACKS), the n-th for a unit of its
 * type there, n the units of that type listed before it. d->norders when
 * none. */
static int
unit_order(const struct game *g, const struct delegation *d, int i)
{
	const struct map *m = g->map;
	const struct unit *u = listed_unit(&g->board, i);
	prov_id pr = m->locs[u->loc].prov;
	unsigned type = u->type & ~UNIT_ABOARD;
	bool stacks = map_caps(m) & RULES_STACKS;
	int nth = 0, j, k;

	for (j = 0; stacks && j < i; j++) {
		const struct unit *v = listed_unit(&g->board, j);
		nth += v->power == u->power && m->locs[v->loc].prov == pr &&
		    (v->type & ~UNIT_ABOARD) == type;
	}
	for (k = 0; k < d->norders; k++)
		if (m->locs[d->orders[k].loc].prov == pr &&
		    (!stacks || (d->orders[k].type == type && nth-- == 0)))
			break;
	return k;
}

void
status_orders(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct delegation *d = &g->del[p];
	const struct board *b = &g->board;
	char ph[48];
	int i, k, n;

	buf_printf(out, "Your orders for %s:\n", phase_format(b, ph, sizeof ph));
	if (b->phase == PHASE_ADJUSTMENT) {
		for (k = 0; k < d->norders; k++) {
			buf_puts(out, "  ");
			order_format(m, &d->orders[k], ORDER_SHORT, out);
			buf_putc(out, '\n');
		}
		if (d->norders == 0)
			buf_puts(out, "  (none yet)\n");
		status_what_to_do(g, p, out);
		return;
	}
	system_list_orders(g, p, out);
	for (i = 0, n = 0; i < (b->phase == PHASE_MOVEMENT ? b->nunits : b->ndislodged); i++) {
		const struct unit *u = listed_unit(b, i);
		if (u->power != p)
			continue;
		n++;
		k = unit_order(g, d, i);
		buf_puts(out, "  ");
		if (k < d->norders) {
			struct order o = d->orders[k];
			if (o.power == POWER_NONE)
				o.power = p;
			o = report_named(m, b, &o);
			order_format(m, &o, ORDER_SHORT, out);
		} else {
			unit_format(m, u, out);
			buf_puts(out, b->phase != PHASE_MOVEMENT ?
			    ": no order yet (it is disbanded if none comes)" : u->type & UNIT_ABOARD ?
			    ": no order yet (it stays on board if none comes)" :
			    ": no order yet (it holds if none comes)");
		}
		buf_putc(out, '\n');
	}
	if (n == 0 && b->phase == PHASE_RETREAT)
		buf_printf(out, "  %s has no units to retreat.\n", m->powers[p].name);
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

/* Where each dislodged unit of p may retreat. */
static void
retreats_to_do(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	int i;

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
}

/* The left removals of p, given of them already, with an example: one of
 * its own units not yet removed. */
static void
removals_to_do(const struct game *g, power_id p, int left, int given, struct buf *out)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	int i;

	for (i = 0; i < b->nunits && (b->units[i].power != p ||
	    game_ordered_in(g, p, m->locs[b->units[i].loc].prov)); i++)
		;
	if (given)
		buf_printf(out, "%d more removal%s", left, left == 1 ? "" : "s");
	else
		buf_printf(out, "Remove %d unit%s", left, left == 1 ? "" : "s");
	buf_printf(out, " (\"Remove %c %s\").\n",
	    i < b->nunits ? unit_letter((enum unit_type)b->units[i].type) : 'A',
	    i < b->nunits ? m->locs[b->units[i].loc].name : "par");
}

/* "Build 1 unit (\"Build A edi\", \"Build F edi\", or \"Waive\")." with
 * left builds to give, given of them already, and an example order of
 * each kind p may give: an army, a fleet ("" when none may be raised). */
static void
put_builds_to_do(int left, int given, const char *army, const char *fleet, struct buf *out)
{
	if (given)
		buf_printf(out, "%d more build%s", left, left == 1 ? "" : "s");
	else
		buf_printf(out, "Build %d unit%s", left, left == 1 ? "" : "s");
	buf_puts(out, " (");
	if (*army)
		buf_printf(out, "\"Build %s\", ", army);
	if (*fleet)
		buf_printf(out, "\"Build %s\", ", fleet);
	buf_puts(out, *army || *fleet ? "or \"Waive\").\n" : "\"Waive\").\n");
}

/* The left builds of p, given of them already, with an example of each
 * kind: a free home centre not yet built in where an army, and one where
 * a fleet, may be raised. */
static void
builds_to_do(const struct game *g, power_id p, int left, int given, struct buf *out)
{
	char army[32], fleet[32];

	system_build_sites(g, p, UNIT_ARMY, army, sizeof army);
	system_build_sites(g, p, UNIT_FLEET, fleet, sizeof fleet);
	put_builds_to_do(left, given, army, fleet, out);
}

/* What p must still build or remove in an adjustment phase. */
static void
adjustments_to_do(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	int due = adj_builds_due(m, b, p), sites = game_build_sites(g, p);
	int given = adj_orders_given(g, p, due);

	if (game_orders_complete(g, p))
		buf_puts(out, "Your adjustment orders are complete.\n");
	else if (due < 0)
		removals_to_do(g, p, -due - given, given, out);
	else if (due > 0)
		builds_to_do(g, p, (due < sites ? due : sites) - given, given, out);
}

void
status_adjustment_extra(const struct game *g, power_id p, const struct order *o,
    struct buf *out)
{
	const struct delegation *d = &g->del[p];
	bool removal = o->kind == ORDER_REMOVE;
	int k, n = game_adjustments_allowed(g, p), shown = 0;

	buf_puts(out, "  REFUSED: ");
	order_format(g->map, o, ORDER_SHORT, out);
	if (n == 0) {
		buf_printf(out, ": %s has no %s to order\n", g->map->powers[p].name,
		    removal ? "removals" : "builds");
		return;
	}
	buf_printf(out, ": one %s too many.\n  %s %s %d unit%s and has ordered ",
	    removal ? "removal" : "build", g->map->powers[p].name,
	    removal ? "must remove" : "may build", n, n == 1 ? "" : "s");
	for (k = 0; k < d->norders; k++) {
		enum order_kind kind = (enum order_kind)d->orders[k].kind;
		if (removal ? kind != ORDER_REMOVE : kind != ORDER_BUILD && kind != ORDER_WAIVE)
			continue;
		buf_puts(out, shown++ ? ", " : "");
		order_format(g->map, &d->orders[k], ORDER_SHORT, out);
	}
	buf_printf(out, ".\n  To change them, send ORDERS CLEAR, then the %s you want.\n",
	    removal ? "removals" : "builds");
}

void
status_what_to_do(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;

	if (board_eliminated(b, m, p) && system_comeback_help(g, p, out))
		return;
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
		retreats_to_do(g, p, out);
		break;
	default:
		adjustments_to_do(g, p, out);
		break;
	}
}

void
judge_standings(const struct game *g, const struct board *b, const char *title, struct buf *out)
{
	struct standing st[MAP_MAX_POWERS];
	int p;

	for (p = 0; p < g->map->npowers && g->del[p].points == 0; p++)
		;
	if (p < g->map->npowers || game_victory_points(g))
		muna_standings_table(g->map, st, game_standings(g, b, st), title, out);
}

void
status_put_title_rules(const struct game *g, struct buf *out)
{
	const char *rules = system_words(g)->rules;

	buf_puts(out, g->map->title);
	if (rules == NULL)
		buf_printf(out, ", %s rules", edition_name(g->set.edition));
	else if (strstr(g->map->title, rules) == NULL)
		buf_printf(out, ", %s", rules);
}

void
status_help(const struct judge *j, const struct game *g, power_id p, struct buf *out)
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
	    "  EXPLAIN [phase]     how a phase was decided, why each order failed (EXPLAIN Spring 1901)\n"
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
		buf_puts(out, "\nThis game: ");
		status_put_title_rules(g, out);
		buf_printf(out, ", press: %s%s.\n", game_press_name(g->set.press),
		    g->set.gm_reads_press ? " (the GM reads private press)" : "");
		buf_printf(out, "When orders are missing at the deadline: %s.\n",
		    g->set.nmr == NMR_CD ? "the units hold (civil disorder) after the grace period" :
					   "the game waits for the GM");
		if (g->set.dated_orders)
			buf_puts(out, "Orders are dated: write the phase (\"Spring 1935\") on a line above "
			    "them.\n");
		system_help(g, p, out);
	}
}
