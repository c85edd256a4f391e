/*
 * system.c — the judge's side of the rule-system seam (system.h): a phase
 * resolved by a game's system, a system's commands looked up. The services
 * a system calls are defined with their concern: judge_audit,
 * judge_announce, judge_send, judge_now and judge_time_human in outbound.c;
 * judge_speech_open, judge_in_disorder and judge_standings in status.c.
 */
#include "system.h"

void
system_resolve(const struct game *g, const struct board *b, const struct order *orders,
    int norders, struct phase_result *res)
{
	if (g->sys != NULL && g->sys->resolve != NULL)
		g->sys->resolve(g, b, orders, norders, res);
	else
		adj_resolve(g->map, &g->rules, b, orders, norders, res, NULL);
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
