/*
 * system.c — the judge's side of the rule-system seam (system.h).
 */
#include "judge_int.h"

#include "../lib/tz.h"

const struct system_command *
system_command(const struct rule_system *s, enum command cmd, unsigned who)
{
	int i;

	for (i = 0; s && i < s->ncommands; i++)
		if (s->commands[i].cmd == cmd && (s->commands[i].who & who))
			return &s->commands[i];
	return NULL;
}

void
judge_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *subject, const char *text)
{
	jx_send(j, g, to, nto, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
}

time_t
judge_now(const struct judge *j)
{
	return j->now;
}

void
judge_time_human(const struct judge *j, const char *zone, time_t t, char *out, size_t size)
{
	time_human(&j->io.zones, zone, t, out, size);
}
