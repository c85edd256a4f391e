/*
 * system.c — the judge's side of the rule-system seam (system.h): what a
 * system serves, its operations called with their defaults, its commands
 * looked up. The services a system calls are defined with their concern:
 * judge_audit, judge_announce, judge_send, judge_now and judge_time_human
 * in outbound.c; judge_speech_open, judge_in_disorder and judge_standings
 * in status.c.
 */
#include "system.h"

#include <stdio.h>

#include "../lib/str.h"

#include "system_words.h"

/* The words of a Diplomacy game of the standard rules. */
static const struct system_words diplomacy_words = { 0 };

bool
system_serves(const struct rule_system *s, unsigned what)
{
	return s != NULL && (s->serves & what) == what;
}

const struct system_words *
system_words(const struct game *g)
{
	return g->sys != NULL && g->sys->words != NULL ? g->sys->words : &diplomacy_words;
}

bool
system_complete(const struct rule_system *s)
{
	const struct system_boardless *b = s->boardless;
	const struct system_politics *pol = s->politics;

	if (s->name == NULL || s->turn == NULL || s->ended == NULL)
		return false;
	if ((s->state_new == NULL) != (s->state_free == NULL) ||
	    (s->history_write == NULL) != (s->history_read == NULL))
		return false;
	if ((s->commands == NULL) != (s->ncommands == 0) ||
	    (s->settings == NULL) != (s->nsettings == 0))
		return false;
	if (system_serves(s, SYS_OWN_GAME) && (s->words == NULL || s->words->called == NULL))
		return false;
	if (system_serves(s, SYS_POLITICS) ? pol == NULL || !pol->conference || !pol->award_reason ||
	    !pol->standing_bonus || !pol->list_orders || !pol->comeback_help || !pol->speech_note ||
	    !pol->speech_until || !pol->speeches || !pol->silent || !pol->check_list ||
	    !pol->keep_list || !pol->format_list :
	    pol != NULL)
		return false;
	if (!system_serves(s, SYS_BOARDLESS))
		return b == NULL && !(s->serves & (SYS_OWN_CLOCK | SYS_OWN_STATUS | SYS_RECORD_PAGE));
	return b != NULL && b->line && b->alive && b->stage && s->help && s->words &&
	    s->words->kind && s->words->example_side &&
	    (b->tick != NULL) == system_serves(s, SYS_OWN_CLOCK) &&
	    (b->status != NULL) == system_serves(s, SYS_OWN_STATUS) &&
	    (b->public_text != NULL) == system_serves(s, SYS_RECORD_PAGE);
}

char *
system_stage(const struct game *g, char *out, size_t size)
{
	if (system_serves(g->sys, SYS_BOARDLESS)) {
		g->sys->boardless->stage(g, out, size);
		return out;
	}
	return phase_format(&g->board, out, size);
}

bool
system_alive(const struct game *g, power_id p)
{
	if (system_serves(g->sys, SYS_BOARDLESS))
		return g->sys->boardless->alive(g, p);
	return board_count_units(&g->board, p) > 0 ||
	    board_count_centres(&g->board, g->map, p) > 0;
}

enum cmd_result
system_line(struct judge *j, struct game *g, power_id p, const char *text, size_t len,
    struct buf *reply)
{
	return g->sys->boardless->line(j, g, p, text, len, reply);
}

bool
system_tick(struct judge *j, struct game *g, time_t now)
{
	return g->sys->boardless->tick(j, g, now);
}

void
system_status(struct judge *j, const struct game *g, power_id p, const char *zone,
    time_t now, struct buf *out)
{
	g->sys->boardless->status(j, g, p, zone, now, out);
}

void
system_public_text(const struct game *g, struct buf *out)
{
	g->sys->boardless->public_text(g, out);
}

void
system_history_write(const struct game *g, struct buf *out)
{
	if (g->sys->history_write != NULL)
		g->sys->history_write(g, out);
}

void
system_history_read(struct game *g, const char *text, size_t len)
{
	if (g->sys->history_read != NULL)
		g->sys->history_read(g, text, len);
}

bool
system_standing_bonus(const struct game *g, power_id p)
{
	return system_serves(g->sys, SYS_POLITICS) && g->sys->politics->standing_bonus(g, p);
}

void
system_phase_started(struct game *g, time_t now)
{
	if (g->sys->phase_started != NULL)
		g->sys->phase_started(g, now);
}

bool
system_waits(const struct game *g)
{
	return g->sys->waits != NULL && g->sys->waits(g);
}

void
system_list_orders(const struct game *g, power_id p, struct buf *out)
{
	if (system_serves(g->sys, SYS_POLITICS))
		g->sys->politics->list_orders(g, p, out);
}

bool
system_comeback_help(const struct game *g, power_id p, struct buf *out)
{
	return system_serves(g->sys, SYS_POLITICS) && g->sys->politics->comeback_help(g, p, out);
}

void
system_speech_note(const struct game *g, struct buf *out)
{
	if (system_serves(g->sys, SYS_POLITICS))
		g->sys->politics->speech_note(g, out);
}

time_t
system_speech_until(const struct game *g)
{
	return system_serves(g->sys, SYS_POLITICS) ? g->sys->politics->speech_until(g) : 0;
}

bool
system_speeches(const struct game *g)
{
	return system_serves(g->sys, SYS_POLITICS) && g->sys->politics->speeches(g);
}

bool
system_silent(const struct game *g)
{
	return system_serves(g->sys, SYS_POLITICS) && g->sys->politics->silent(g);
}

enum reason
system_check_list(const struct game *g, power_id p, const struct order_prefs *prefs)
{
	return system_serves(g->sys, SYS_POLITICS) ? g->sys->politics->check_list(g, p, prefs) :
	    R_VOID;
}

int
system_keep_list(struct game *g, power_id p, const struct order *o,
    const struct order_prefs *prefs)
{
	return system_serves(g->sys, SYS_POLITICS) ? g->sys->politics->keep_list(g, p, o, prefs) :
	    -1;
}

void
system_format_list(const struct game *g, power_id p, const struct order *o, struct buf *out)
{
	if (system_serves(g->sys, SYS_POLITICS))
		g->sys->politics->format_list(g, p, o, out);
	else
		order_format(g->map, o, ORDER_SHORT, out);
}

long
system_phase_length(const struct game *g)
{
	return g->sys != NULL && g->sys->phase_length != NULL ? g->sys->phase_length(g) : 0;
}

void
system_new_game(struct game *g)
{
	if (g->sys != NULL && g->sys->new_game != NULL)
		g->sys->new_game(g);
}

int
system_delegates(const struct game *g)
{
	return g->sys != NULL && g->sys->delegates > 0 && g->sys->delegates < GAME_MAX_MEMBERS ?
	    g->sys->delegates : GAME_MAX_MEMBERS;
}

enum order_check
system_check_order(const struct game *g, power_id p, const struct order *o, struct buf *reply)
{
	return g->sys->check_order == NULL ? ORDER_CHECK_ENGINE : g->sys->check_order(g, p, o, reply);
}

int
system_raisable(const struct game *g, const struct board *b, power_id p)
{
	int due, sites;

	if (g->sys != NULL && g->sys->raisable != NULL)
		return g->sys->raisable(g, b, p);
	due = adj_builds_due(g->map, b, p);
	if (due <= 0)
		return 0;
	sites = adj_build_sites(g->map, &g->rules, b, p);
	return sites < due ? sites : due;
}

int
system_build_sites(const struct game *g, power_id p, enum unit_type t, char *example,
    size_t size)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	const char *site = NULL;
	int i;

	if (g->sys != NULL && g->sys->build_sites != NULL)
		return g->sys->build_sites(g, p, t, example, size);
	if (example != NULL) {
		for (i = 0; i < m->nprovs && site == NULL; i++) {
			loc_id l = t == UNIT_ARMY ? m->provs[i].loc :
			    map_default_loc(m, (prov_id)i, UNIT_FLEET);
			if (l == LOC_NONE && t == UNIT_FLEET && m->provs[i].ncoasts > 0)
				l = m->provs[i].coast[0];
			if (l == LOC_NONE || m->provs[i].home != p || !m->provs[i].supply ||
			    b->owner[i] != p || board_unit_in(b, m, (prov_id)i) >= 0 ||
			    game_ordered_in(g, p, (prov_id)i))
				continue;
			site = m->locs[l].name;
		}
		if (site == NULL && t == UNIT_ARMY)
			site = "par";
		if (site != NULL)
			snprintf(example, size, "%c %s", unit_letter(t), site);
		else
			example[0] = '\0';
	}
	return adj_build_sites(m, &g->rules, b, p);
}

bool
system_conference(const struct game *g, uint64_t *powers, struct buf *name)
{
	return system_serves(g->sys, SYS_POLITICS) && g->sys->politics->conference(g, powers, name);
}

int
system_award_reason(const struct game *g, power_id p, long *points, const char *reason,
    char *out, size_t n, struct buf *reply)
{
	long k;

	if (system_serves(g->sys, SYS_POLITICS))
		return g->sys->politics->award_reason(g, p, points, reason, out, n, reply);
	out[0] = '\0';
	if (!str_prefix_nocase(reason, "goal ") || str_to_long(reason + 5, 1, GAME_GOALS, &k) < 0)
		return 0;
	buf_printf(reply, "  REFUSED: %s has no goal %ld (GOAL lists the goals)\n",
	    g->map->powers[p].name, k);
	return -1;
}

bool
system_help(const struct game *g, power_id p, struct buf *out)
{
	size_t before = out->len;

	if (g->sys != NULL && g->sys->help != NULL)
		g->sys->help(g, p, out);
	return out->len > before;
}

void
system_resolve(const struct game *g, const struct board *b, const struct order *orders,
    int norders, struct phase_result *res, struct phase_why *why)
{
	if (g->sys != NULL && g->sys->resolve != NULL)
		g->sys->resolve(g, b, orders, norders, res, why);
	else if (why != NULL)
		adj_resolve_why(g->map, &g->rules, b, NULL, orders, norders, res, why);
	else
		adj_resolve(g->map, &g->rules, b, orders, norders, res, NULL);
}

void
system_capitals(const struct game *g, power_id *capital)
{
	int q;

	for (q = 0; q < MAP_MAX_PROVS; q++)
		capital[q] = q < g->map->nprovs ? g->map->provs[q].capital : POWER_NONE;
	if (g->sys != NULL && g->sys->capitals != NULL)
		g->sys->capitals(g, capital);
}

const struct command_handler *
system_command(const struct rule_system *s, enum command cmd, unsigned who)
{
	int i;

	for (i = 0; s && i < s->ncommands; i++)
		if (s->commands[i].cmd == cmd && (s->commands[i].who & who))
			return &s->commands[i];
	return NULL;
}
