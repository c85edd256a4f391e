/*
 * crash.c — aimed kills and pauses (crash.h).
 */
#include "crash.h"

#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

static const char *const *steps;	/* the program's, crash_steps() */
static size_t nsteps;

/* One aim: a variable naming STEP[:N], and the signal sent there. */
struct aim {
	const char *var;
	int sig;
	int step;		/* index into steps, -1 when unset */
	long n;
};

static struct aim aims[] = {
	{ "POUCH_CRASH_AT", SIGKILL, -1, 0 },
	{ "POUCH_PAUSE_AT", SIGSTOP, -1, 0 },
};
#define NAIMS (sizeof aims / sizeof aims[0])

static int armed = -1;		/* -1 not read yet, 0 off, 1 on */
static _Thread_local int cur = -1;	/* index of the current step, per thread (the map
					   pages are drawn on one of their own) */
static long counts[CRASH_STEPS_MAX];

static void
report(void)
{
	size_t i;

	fprintf(stderr, "pouch: crash points:");
	for (i = 0; i < nsteps; i++)
		fprintf(stderr, " %s %ld", steps[i], counts[i]);
	fprintf(stderr, "\n");
}

/* Read a's variable; 1 when it names a step (the count is then counted). */
static int
aim_read(struct aim *a)
{
	const char *s = getenv(a->var), *colon;
	size_t len, i;

	if (s == NULL || *s == '\0')
		return 0;
	colon = strchr(s, ':');
	len = colon ? (size_t)(colon - s) : strlen(s);
	a->n = 1;
	if (colon == NULL || str_to_long(colon + 1, 1, 1L << 40, &a->n) == 0)
		for (i = 0; i < nsteps; i++)
			if (strlen(steps[i]) == len && strncmp(steps[i], s, len) == 0)
				a->step = (int)i;
	if (a->step < 0) {
		fprintf(stderr, "pouch: %s=%s: want STEP[:N] (", a->var, s);
		for (i = 0; i < nsteps; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", steps[i]);
		fprintf(stderr, ")\n");
	}
	return 1;
}

static void
arm(void)
{
	size_t i;
	int any = 0;

	for (i = 0; i < NAIMS; i++)
		any |= aim_read(&aims[i]);
	armed = any;
	if (any)
		atexit(report);
}

void
crash_steps(const char *const *names, int n)
{
	assert(n >= 0 && n <= CRASH_STEPS_MAX);
	steps = names;
	nsteps = (size_t)n;
}

void
crash_step(const char *step)
{
	size_t i;

	if (armed < 0)
		arm();
	if (armed == 0)
		return;
	cur = -1;
	for (i = 0; i < nsteps; i++)
		if (strcmp(steps[i], step) == 0)
			cur = (int)i;
}

void
crash_point(void)
{
	size_t i;

	if (armed <= 0 || cur < 0)
		return;
	counts[cur]++;
	for (i = 0; i < NAIMS; i++)
		if (aims[i].step == cur && counts[cur] == aims[i].n)
			raise(aims[i].sig);
}
