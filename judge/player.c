/*
 * player.c — the commands players give by mail (player.h), one handler
 * each, found through the table at the end.
 */
#define _DEFAULT_SOURCE
#include "player.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"
#include "engine/report.h"
#include "outbound.h"
#include "record.h"
#include "status.h"
#include "turn.h"

/* Does power p vote: still in the game, and played by someone? */
static bool
voter(const struct game *g, power_id p)
{
	const struct delegation *d = &g->del[p];

	return game_alive(g, p) && d->nmembers > 0 && !d->resigned && d->secret[0];
}

/* Has every voting power outside q's delegation conceded to one of the
 * powers it holds (a concession to a power is one to its delegation)? */
static bool
conceded_to(const struct game *g, power_id q)
{
	int r, others = 0, agree = 0;

	for (r = 0; r < g->map->npowers; r++) {
		if (!voter(g, (power_id)r) || game_held_together(g, q, (power_id)r))
			continue;
		others++;
		agree += g->del[r].vote == VOTE_CONCEDE && g->del[r].concede_to != POWER_NONE &&
		    game_held_together(g, q, g->del[r].concede_to);
	}
	return others > 0 && agree == others;
}

/* End the game won by q's delegation, the others having conceded. */
static void
conceded(struct judge *j, struct game *g, power_id q)
{
	const struct map *m = g->map;
	struct buf res;
	int r, n = 0, k = 0;

	for (r = 0; r < m->npowers; r++)
		n += game_held_together(g, q, (power_id)r);
	buf_init(&res, 400);
	for (r = 0; r < m->npowers; r++)
		if (game_held_together(g, q, (power_id)r)) {
			buf_printf(&res, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ",
			    m->powers[r].name);
			k++;
		}
	buf_puts(&res, n == 1 ? " wins: the other powers conceded" :
	    " win: the other delegations conceded");
	turn_end_game(j, g, buf_str(&res));
	buf_free(&res);
}

/* VOTE DRAW | VOTE CONCEDE <power> | VOTE NONE by power p, and by every
 * other power its delegation holds; unanimity ends the game. */
static void
vote(struct judge *j, struct game *g, power_id p, const char *args, struct buf *reply)
{
	const struct map *m = g->map;
	enum vote v;
	power_id to = POWER_NONE;
	int q, alive = 0, draw = 0;

	if (str_prefix_nocase(args, "draw")) {
		v = VOTE_DRAW;
		buf_puts(reply, "  you vote for a draw (no one else is told how you voted)\n");
	} else if (str_prefix_nocase(args, "concede")) {
		const char *who = str_trim((char *)(uintptr_t)args + 7);
		to = map_find_power(m, who);
		if (to == POWER_NONE || to == p) {
			buf_puts(reply, "  REFUSED: concede to whom? VOTE CONCEDE France\n");
			return;
		}
		if (game_held_together(g, p, to)) {
			buf_printf(reply, "  REFUSED: your delegation plays %s; concede to another "
			    "delegation\n", m->powers[to].name);
			return;
		}
		v = VOTE_CONCEDE;
		buf_printf(reply, "  you concede the game to %s (private)\n", m->powers[to].name);
	} else if (str_prefix_nocase(args, "none") || str_prefix_nocase(args, "no")) {
		v = VOTE_NONE;
		buf_puts(reply, g->del[p].vote == VOTE_NONE ? "  you had no vote to withdraw\n" :
		    "  your vote is withdrawn\n");
	} else {
		buf_puts(reply, "  REFUSED: VOTE DRAW, VOTE CONCEDE <power> or VOTE NONE\n");
		return;
	}
	for (q = 0; q < m->npowers; q++)
		if (game_held_together(g, p, (power_id)q)) {
			g->del[q].vote = (uint8_t)v;
			if (v == VOTE_CONCEDE)
				g->del[q].concede_to = to;
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
		turn_end_game(j, g, buf_str(&res));
		buf_free(&res);
		return;
	}
	for (q = 0; q < m->npowers; q++)
		if (voter(g, (power_id)q) && conceded_to(g, (power_id)q)) {
			conceded(j, g, (power_id)q);
			return;
		}
}

/* The history record rec into reply, its time of processing as the
 * judge's other dates say it ("decided on Sunday 22 November 2026, 09:00
 * UTC", in the game's zone); the results only, not the orders and
 * position the record keeps to be played again (turn.c). */
static void
history_put(const struct judge *j, const struct game *g, const struct buf *rec,
    struct buf *reply)
{
	const char *t = buf_str(rec), *line = strchr(t, '\n'), *kept = strstr(t, "\norders\n");
	char stamp[40], when[96];
	size_t n;
	time_t at;

	if (line && strncmp(line + 1, "processed ", 10) == 0) {
		n = strcspn(line + 11, "\n");
		snprintf(stamp, sizeof stamp, "%.*s", (int)n, line + 11);
		if (n < sizeof stamp && time_parse_utc(stamp, &at) == 0) {
			time_human(&j->io.zones, g->set.zone, at, when, sizeof when);
			buf_append(reply, t, (size_t)(line + 1 - t));
			buf_printf(reply, "decided on %s", when);
			t = line + 11 + n;
		}
	}
	if (kept == NULL || kept < t)
		kept = t + strlen(t);
	buf_append(reply, t, (size_t)(kept + 1 - t) - (*kept == '\0'));
}

/* The history records HISTORY [phase | year | ALL] asks for, into reply. */
static void
history(struct judge *j, struct game *g, const char *args, struct buf *reply)
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
		if (*args && !str_eq_nocase(args, "all") && !record_matches(buf_str(&rec), args))
			continue;
		buf_putc(reply, '\n');
		history_put(j, g, &rec, reply);
		shown++;
	}
	if (shown == 0)
		buf_printf(reply, "  no phase matches \"%s\" (try HISTORY ALL)\n", args);
	buf_free(&rec);
}

/* EXPLAIN [phase]: the account of a decided phase, the last one when none
 * is named (the first that matches: "Spring 1901" is its movement): the
 * position it began from, every order with its result and, under each that
 * failed and each unit dislodged, why, as the adjudicator decided it; the
 * map page. Played again from the phase's history record. */
static void
explain(struct judge *j, struct game *g, const char *args, struct buf *reply)
{
	const struct map *m = g->map;
	struct played_phase *p;
	struct buf rec, url;
	char ph[48];
	int i, q, found = 0;

	if (system_serves(g->sys, SYS_BOARDLESS)) {
		buf_puts(reply, "  REFUSED: EXPLAIN tells how a phase on the board was decided; "
				"this game has no board\n");
		return;
	}
	if (j->io.history == NULL || g->nphases == 0) {
		buf_puts(reply, "  no phases have been played yet\n");
		return;
	}
	buf_init(&rec, 1 << 22);
	for (i = *args ? 1 : g->nphases; i <= g->nphases && !found; i++) {
		buf_reset(&rec);
		found = j->io.history(j->io.ctx, g->name, i, &rec) == 0 &&
		    (*args == '\0' || record_matches(buf_str(&rec), args));
	}
	if (!found) {
		buf_printf(reply, "  REFUSED: no phase decided matches \"%s\" (HISTORY ALL lists them)\n",
		    args);
		buf_free(&rec);
		return;
	}
	p = xmalloc(sizeof *p);
	if (record_play(g, buf_str(&rec), true, p) < 0) {
		buf_puts(reply, "  the record of that phase cannot be read\n");
	} else {
		buf_printf(reply, "\nHow %s was decided.\n\nThe units when it began:\n",
		    phase_format(&p->before, ph, sizeof ph));
		for (q = 0; q < m->npowers; q++) {
			size_t mark = reply->len;
			buf_printf(reply, "%s: ", m->powers[q].name);
			if (report_power_units(m, &p->before, (power_id)q, reply) == 0)
				buf_truncate(reply, mark);
			else
				buf_puts(reply, ".\n");
		}
		buf_putc(reply, '\n');
		p->why.successes = true;	/* the full account: the moves that won too */
		report_results(m, &p->before, p->orders, &p->res, &p->why, reply);
		buf_init(&url, 1024);
		judge_map_url(j, g, &p->before, &url);
		if (url.len)
			buf_printf(reply, "\nMap: %s\n", buf_str(&url));
		buf_free(&url);
	}
	record_played_free(p);
	free(p);
	buf_free(&rec);
}

/* The points given and taken, the standings and the centres year by year. */
static void
summary(const struct game *g, struct buf *reply)
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

/* HELP: how to write to the judge, and this game's rules. */
static enum cmd_result
player_help(struct command_call *c)
{
	buf_putc(c->reply, '\n');
	if (system_serves(c->g->sys, SYS_BOARDLESS))
		system_help(c->g, c->power, c->reply);
	else
		status_help(c->j, c->g, c->power, c->reply);
	return CMD_DONE;
}

/* ORDERS REPLACE | ORDERS CLEAR: forget the earlier orders of every power
 * the delegation holds (ORDERS alone just starts the orders). */
static enum cmd_result
player_orders(struct command_call *c)
{
	int q;

	if (str_eq_nocase(c->args, "replace") || str_eq_nocase(c->args, "clear")) {
		for (q = 0; q < c->g->map->npowers; q++)
			if (game_held_together(c->g, c->power, (power_id)q))
				game_clear_orders(c->g, (power_id)q);
		buf_printf(c->reply, "  your earlier orders are forgotten\n");
	} else if (*c->args) {
		buf_printf(c->reply, "  REFUSED: ORDERS, ORDERS REPLACE or ORDERS CLEAR\n");
		return CMD_REFUSED;
	}
	return CMD_DONE;
}

/* LIST: the position; the reply ends with the orders and the deadline. */
static enum cmd_result
player_list(struct command_call *c)
{
	buf_putc(c->reply, '\n');
	status_position(c->g, c->reply);
	return CMD_DONE;
}

/* HISTORY [phase | year | ALL], for players and the GM. */
static enum cmd_result
command_history(struct command_call *c)
{
	history(c->j, c->g, c->args, c->reply);
	return CMD_DONE;
}

/* EXPLAIN [phase], for players and the GM. */
static enum cmd_result
command_explain(struct command_call *c)
{
	explain(c->j, c->g, c->args, c->reply);
	return CMD_DONE;
}

/* SUMMARY, for players and the GM. */
static enum cmd_result
command_summary(struct command_call *c)
{
	summary(c->g, c->reply);
	return CMD_DONE;
}

/* VOTE, while the game runs. */
static enum cmd_result
player_vote(struct command_call *c)
{
	if (c->g->status != GAME_ACTIVE && c->g->status != GAME_PAUSED) {
		buf_puts(c->reply, "  REFUSED: the game is not running\n");
		return CMD_REFUSED;
	}
	vote(c->j, c->g, c->power, c->args, c->reply);
	return CMD_DONE;
}

/* WAIT or NOWAIT (wait) for every power the sender's delegation holds. */
static void
set_wait(struct command_call *c, bool wait)
{
	int q;

	for (q = 0; q < c->g->map->npowers; q++)
		if (game_held_together(c->g, c->power, (power_id)q))
			c->g->del[q].wait = wait;
}

/* WAIT: not processed before the deadline. */
static enum cmd_result
player_wait(struct command_call *c)
{
	set_wait(c, true);
	buf_puts(c->reply, "  this phase will not be processed before the deadline\n");
	return CMD_DONE;
}

/* NOWAIT: processed as soon as all orders are in. */
static enum cmd_result
player_nowait(struct command_call *c)
{
	set_wait(c, false);
	buf_puts(c->reply, "  this phase may be processed as soon as all orders are in\n");
	return CMD_DONE;
}

/* SET ZONE <zone>: the times the sender is shown. */
static enum cmd_result
player_set(struct command_call *c)
{
	struct delegation *d = &c->g->del[c->power];
	const char *zone;
	int i;

	if (!str_prefix_nocase(c->args, "zone ")) {
		buf_puts(c->reply, "  REFUSED: players may only SET ZONE <zone>\n");
		return CMD_REFUSED;
	}
	zone = str_trim(c->args + 5);
	if (!tz_valid(&c->j->io.zones, zone)) {
		buf_printf(c->reply, "  REFUSED: unknown time zone \"%s\" (e.g. Europe/Amsterdam)\n",
		    zone);
		return CMD_REFUSED;
	}
	for (i = 0; i < d->nmembers; i++)
		if (str_eq_nocase(d->members[i].addr, c->sender))
			str_copy(d->members[i].zone, zone, ZONE_MAX);
	buf_printf(c->reply, "  times are now shown to you in %s\n", zone);
	return CMD_DONE;
}

/* RESIGN: the power's units hold; its GMs are told. */
static enum cmd_result
player_resign(struct command_call *c)
{
	struct game *g = c->g;
	const char *name = g->map->powers[c->power].name;
	char subject[128], text[256];
	int i;

	g->del[c->power].resigned = true;
	g->del[c->power].norders = 0;
	buf_puts(c->reply, "  you have resigned; your units hold until the GM finds a replacement\n");
	snprintf(subject, sizeof subject, "[%s] %s resigned", g->name, name);
	snprintf(text, sizeof text, "%s has resigned from %s. Use REPLACE %s MEMBERS ... to give the "
	    "power to new players.\n", name, g->name, name);
	for (i = 0; i < g->ngms; i++) {
		const char *to[1] = { g->gms[i] };
		outbound_send(c->j, g, to, 1, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
	}
	return CMD_DONE;
}

/* SIGNOFF: the rest of the message is not read. */
static enum cmd_result
command_signoff(struct command_call *c)
{
	(void)c;
	return CMD_STOP;
}

const struct command_handler player_commands[] = {
	{ CMD_HELP, SYSTEM_PLAYER, player_help },
	{ CMD_ORDERS, SYSTEM_PLAYER, player_orders },
	{ CMD_LIST, SYSTEM_PLAYER, player_list },
	{ CMD_HISTORY, SYSTEM_PLAYER | SYSTEM_GM, command_history },
	{ CMD_SUMMARY, SYSTEM_PLAYER | SYSTEM_GM, command_summary },
	{ CMD_EXPLAIN, SYSTEM_PLAYER | SYSTEM_GM, command_explain },
	{ CMD_VOTE, SYSTEM_PLAYER, player_vote },
	{ CMD_WAIT, SYSTEM_PLAYER, player_wait },
	{ CMD_NOWAIT, SYSTEM_PLAYER, player_nowait },
	{ CMD_SET, SYSTEM_PLAYER, player_set },
	{ CMD_RESIGN, SYSTEM_PLAYER, player_resign },
	{ CMD_SIGNOFF, SYSTEM_PLAYER | SYSTEM_GM, command_signoff },
};
const int player_ncommands = sizeof player_commands / sizeof player_commands[0];