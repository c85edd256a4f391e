/*
 * standard.c — the standard game: a phase's orders resolved by the
 * adjudicator (judge/engine/adjudicate.h) become the next position, the
 * report says what happened, and a power with the variant's victory
 * centres after a year's adjustments wins.
 */
#include "standard.h"

#include <stdio.h>

#include "../engine/report.h"

void
standard_report_unused(const struct turn *t)
{
	int raisable[MAP_MAX_POWERS], p;

	for (p = 0; p < t->g->map->npowers; p++)
		raisable[p] = system_raisable(t->g, t->before, (power_id)p);
	report_unused(t->g->map, t->orders, t->res, raisable, t->report);
}

void
standard_report_results(const struct turn *t)
{
	report_results(t->g->map, t->before, t->orders, t->res, t->why, t->report);
	if (t->before->phase == PHASE_ADJUSTMENT)
		standard_report_unused(t);
}

void
standard_report_position(const struct turn *t)
{
	const struct map *m = t->g->map;

	report_units(m, &t->next, t->report);
	if (t->before->season == SEASON_FALL && t->next.season != SEASON_FALL)
		report_centres(m, &t->next, t->before, t->report);
	report_next(m, &t->g->rules, &t->next, t->report);
}

void
standard_report_eliminated(const struct turn *t, const char *also)
{
	const struct map *m = t->g->map;
	int p;

	for (p = 0; p < m->npowers; p++) {
		int had = board_count_units(t->before, (power_id)p) +
		    board_count_centres(t->before, m, (power_id)p);
		int has = board_count_units(&t->next, (power_id)p) +
		    board_count_centres(&t->next, m, (power_id)p);
		if (had > 0 && has == 0)
			buf_printf(t->report, "\n%s has been eliminated.%s\n", m->powers[p].name, also);
	}
}

bool
standard_ended(const struct game *g, char *result, size_t size)
{
	const struct map *m = g->map;
	power_id w = board_winner(m, &g->board);

	if (w == POWER_NONE || g->board.season != SEASON_WINTER)
		return false;
	snprintf(result, size, "%s wins with %d supply centres", m->powers[w].name,
	    board_count_centres(&g->board, m, w));
	return true;
}

static void
standard_turn(struct turn *t)
{
	t->next = t->res->after;
	phase_next(t->g->map, &t->g->rules, &t->next);
	standard_report_results(t);
	standard_report_position(t);
	standard_report_eliminated(t, "");
	judge_standings(t->g, &t->next, "Victory points:", t->report);
}

const struct rule_system standard_system = {
	.name = "standard",
	.turn = standard_turn,
	.ended = standard_ended,
};
