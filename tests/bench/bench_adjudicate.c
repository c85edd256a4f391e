/*
 * bench_adjudicate.c — how fast the rules engine is.
 *
 *  1. The standard Spring 1901 opening (22 orders, already parsed),
 *     adjudicated 100,000 times: microseconds per adjudication.
 *  2. Every recorded game under DIR (default build/games) replayed and
 *     compared phase by phase, as `pouch check-game` does: total seconds
 *     (wall and CPU, one core).
 *
 * Prints its figures; asserts nothing about time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/casefiles/gamerec.h"
#include "../../maps/variant.h"
#include "../../parser/orders.h"

static const char *const opening[] = {
	"England: F lon - nth", "England: F edi - nwg", "England: A lvp - yor",
	"France: F bre - mao", "France: A par - bur", "France: A mar S A par - bur",
	"Germany: F kie - den", "Germany: A ber - kie", "Germany: A mun - ruh",
	"Italy: A ven - tyr", "Italy: A rom - ven", "Italy: F nap - ion",
	"Austria: A vie - gal", "Austria: A bud - ser", "Austria: F tri - alb",
	"Russia: A war - gal", "Russia: A mos - ukr", "Russia: F sev - bla",
	"Russia: F stp/sc - bot", "Turkey: F ank - bla", "Turkey: A con - bul",
	"Turkey: A smy - con",
};

static double
now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	const char *games = argc > 1 ? argv[1] : "build/games";
	struct order orders[32];
	struct phase_result *res = malloc(sizeof *res);
	struct rules r;
	struct board b;
	struct names *nm;
	struct map *m;
	struct buf err;
	const int iterations = 100000;
	int i, n = 0, moved = 0;
	double t0, t1;

	buf_init(&err, 1 << 16);
	m = variant_load("maps/standard/variant.xml", &err);
	if (m == NULL || res == NULL) {
		fprintf(stderr, "%s", buf_str(&err));
		return 1;
	}
	nm = names_new(m);
	board_init_start(&b, m);
	rules_init(&r, EDITION_2023);
	for (i = 0; i < (int)(sizeof opening / sizeof opening[0]); i++) {
		struct parse_ctx c = { m, nm, &b, POWER_NONE };
		struct parse_result pr;
		order_parse(&c, opening[i], strlen(opening[i]), &pr);
		if (pr.verdict == VERDICT_REFUSED) {
			fprintf(stderr, "cannot read %s: %s\n", opening[i], pr.note);
			return 1;
		}
		orders[n++] = pr.order;
	}

	t0 = now(CLOCK_MONOTONIC);
	for (i = 0; i < iterations; i++) {
		adj_resolve(m, &r, &b, orders, n, res, NULL);
		moved += res->after.nunits;
	}
	t1 = now(CLOCK_MONOTONIC);
	printf("opening adjudication: %.3f us per adjudication (%d orders, %d iterations, %.3f s)\n",
	    (t1 - t0) * 1e6 / iterations, n, iterations, t1 - t0);
	if (moved != iterations * b.nunits)
		printf("(unexpected unit count)\n");

	{
		const char *paths[1] = { games };
		FILE *devnull = fopen("/dev/null", "w");
		double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID), w1, c1;
		int rc = gamerec_check_paths(m, EDITION_2000, paths, 1, 0, false, devnull ? devnull : stdout);

		w1 = now(CLOCK_MONOTONIC);
		c1 = now(CLOCK_PROCESS_CPUTIME_ID);
		if (devnull)
			fclose(devnull);
		printf("recorded games replay (%s): %.2f s wall, %.2f s CPU, %s\n", games, w1 - w0, c1 - c0,
		    rc == 0 ? "all passed" : "SOME FAILED (run pouch check-game)");
	}
	names_free(nm);
	map_free(m);
	buf_free(&err);
	free(res);
	return 0;
}
