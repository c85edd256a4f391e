/*
 * crash.c — aimed kills (crash.h).
 */
#include "crash.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

static const char *const steps[] = { "fetch", "apply", "commit", "pages", "send" };
#define NSTEPS (sizeof steps / sizeof steps[0])

static int armed = -1;		/* -1 not read yet, 0 off, 1 on */
static char target[16];		/* the step to kill in */
static long target_n;
static int cur = -1;		/* index of the current step */
static long counts[NSTEPS];

static void
report(void)
{
	size_t i;

	fprintf(stderr, "pouch: crash points:");
	for (i = 0; i < NSTEPS; i++)
		fprintf(stderr, " %s %ld", steps[i], counts[i]);
	fprintf(stderr, "\n");
}

static void
arm(void)
{
	const char *s = getenv("POUCH_CRASH_AT"), *colon;
	size_t len;

	armed = 0;
	if (s == NULL || *s == '\0')
		return;
	colon = strchr(s, ':');
	len = colon ? (size_t)(colon - s) : strlen(s);
	target_n = 1;
	if (len >= sizeof target || (colon && str_to_long(colon + 1, 1, 1L << 40, &target_n) < 0)) {
		fprintf(stderr, "pouch: POUCH_CRASH_AT=%s: want STEP[:N]\n", s);
		return;
	}
	memcpy(target, s, len);
	target[len] = '\0';
	armed = 1;
	atexit(report);
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
	for (i = 0; i < NSTEPS; i++)
		if (strcmp(steps[i], step) == 0)
			cur = (int)i;
}

void
crash_point(void)
{
	if (armed <= 0 || cur < 0)
		return;
	counts[cur]++;
	if (strcmp(steps[cur], target) == 0 && counts[cur] == target_n)
		raise(SIGKILL);
}
