/*
 * fuzz_war.c — libFuzzer target: any bytes as what the World Game's war
 * reads from outside: a game file's war lines (war_read) and delegations'
 * command lines (war_read_command, carried out by war_do).
 *
 * Built and run by the fuzz stage of tests/check.sh from the seeds in
 * tests/fuzz/seeds/war/. Besides "no crash, no leak", it checks the
 * promises of war.h: a war that reads back is written and read again to
 * the same text; points are only moved, never made (forts aside, and
 * those only at the start): the sum of every country's total and every
 * point in the battle never changes while commands are carried out; an
 * operation refused changes nothing.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/war.h"
#include "../../lib/buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every point in the war: the totals and what stands in the battle. */
static long long
points(const struct war *w)
{
	long long n = 0;
	int i, s;

	for (i = 0; i < w->n; i++)
		n += w->c[i].points;
	for (s = 0; w->battle.on && s < 2; s++) {
		n += w->battle.side[s].own;
		for (i = 0; i < WAR_MAX_COUNTRIES; i++)
			n += w->battle.side[s].loan[i];
	}
	return n;
}

/* The war's text form read back must write the same text. */
static void
round_trip(const struct war *w)
{
	static struct war again;
	struct buf a, b, err;

	buf_init(&a, 1 << 16);
	buf_init(&b, 1 << 16);
	buf_init(&err, 1024);
	war_write(w, &a);
	if (war_read(&again, a.data, a.len, &err) < 0)
		abort();
	war_write(&again, &b);
	if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
		abort();
	buf_free(&a);
	buf_free(&b);
	buf_free(&err);
}

/* The input: war lines, then "--\n", then command lines, each
 * "COUNTRY-NUMBER command words" (its first byte picks the country) or
 * "!" (the step's deadline passes). Without "--", or when the war lines do
 * not read as a war under way, a small war is played with them instead. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct war w, before;
	const char *text = (const char *)data, *end = text + size, *cut, *p, *e;
	struct war_cmd cmd;
	struct buf msg;
	bool ok;

	cut = memmem(text, size, "--\n", 3);
	buf_init(&msg, 4096);
	ok = war_read(&w, text, (size_t)((cut ? cut : end) - text), &msg) == 0;
	if (ok)
		round_trip(&w);
	if (cut == NULL || !ok || w.stage != WAR_ON) {	/* w is unspecified after a failure */
		war_init(&w);
		war_add_country(&w, "Alpha", 3000, true, NULL);
		war_add_country(&w, "Brava", 2500, false, NULL);
		war_add_country(&w, "Charlie", 1800, false, NULL);
		war_ally(&w, 1, 2, 2, 1, NULL);
		war_ally(&w, 2, 1, 2, 1, NULL);
		war_start(&w, NULL);
	}
	for (p = cut ? cut + 3 : text; p < end; p = e + 1) {
		long long sum = points(&w);
		int who = (unsigned char)*p % (w.n > 0 ? w.n : 1);
		e = memchr(p, '\n', (size_t)(end - p));
		if (e == NULL)
			e = end;
		buf_reset(&msg);
		before = w;
		if (e > p && *p == '!')
			war_deadline(&w, &msg);	/* a step's deadline passes */
		else if (e > p && war_read_command(&w, p + 1, (size_t)(e - p - 1), &cmd, &msg) == 0 &&
		    war_do(&w, who, &cmd, &msg) < 0 && memcmp(&before, &w, sizeof w) != 0)
			abort();
		if (points(&w) != sum)
			abort();
		if (e == end)
			break;
	}
	round_trip(&w);
	buf_free(&msg);
	return 0;
}
