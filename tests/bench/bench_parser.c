/*
 * bench_parser.c — orders parsed per second on one core.
 *
 * Simple orders of the kind players write ("A Par-Bur", "F Lon - Nth",
 * "A Mun S A Bur - Ruh", ...) against the standard starting position, the
 * sender's power known, as a game's order mail is read. Prints the figure;
 * asserts nothing about speed (machines differ), only that every order was
 * read.
 *
 *	build/tests/bench/bench_parser [SECONDS]      default 2 seconds
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../judge/engine/board.h"
#include "../../judge/engine/map.h"
#include "../../maps/variant.h"
#include "../../parser/names.h"
#include "../../parser/orders.h"

static const struct {
	const char *power;
	const char *text;
} orders[] = {
	{ "France", "A Par-Bur" },
	{ "England", "F Lon - Nth" },
	{ "Germany", "A Mun S A Ber - Sil" },
	{ "France", "F Bre - Mao" },
	{ "England", "F Edi - Nwg" },
	{ "England", "A Lvp - Yor" },
	{ "Germany", "F Kie - Den" },
	{ "Germany", "A Ber - Kie" },
	{ "Russia", "F StP/sc - Bot" },
	{ "Russia", "A War - Gal" },
	{ "Russia", "A Mos S A War - Ukr" },
	{ "Russia", "F Sev - Bla" },
	{ "Turkey", "F Ank - Bla" },
	{ "Turkey", "A Con - Bul" },
	{ "Turkey", "A Smy H" },
	{ "Austria", "A Vie - Gal" },
	{ "Austria", "A Bud - Ser" },
	{ "Austria", "F Tri - Alb" },
	{ "Italy", "A Ven H" },
	{ "Italy", "A Rom - Apu" },
	{ "Italy", "F Nap - Ion" },
	{ "France", "A Mar S A Par - Bur" },
};

#define NORDERS (sizeof orders / sizeof orders[0])

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	double seconds = argc > 1 ? strtod(argv[1], NULL) : 2.0, t0, t;
	struct parse_ctx c[NORDERS];
	size_t len[NORDERS];
	struct parse_result r;
	struct board b;
	struct names *n;
	struct map *m;
	struct buf err;
	long count = 0, bad = 0;
	size_t i;

	buf_init(&err, 1 << 16);
	m = variant_load("maps/standard/variant.xml", &err);
	if (m == NULL) {
		fprintf(stderr, "bench_parser: %s", buf_str(&err));
		return 1;
	}
	buf_free(&err);
	n = names_new(m);
	board_init_start(&b, m);
	for (i = 0; i < NORDERS; i++) {
		c[i].m = m;
		c[i].names = n;
		c[i].b = &b;
		c[i].power = map_find_power(m, orders[i].power);
		len[i] = strlen(orders[i].text);
	}
	if (seconds <= 0)
		seconds = 2.0;
	t0 = now();
	do {
		int k;
		for (k = 0; k < 1000; k++) {
			for (i = 0; i < NORDERS; i++) {
				order_parse(&c[i], orders[i].text, len[i], &r);
				bad += r.verdict == VERDICT_REFUSED;
			}
		}
		count += 1000 * (long)NORDERS;
		t = now() - t0;
	} while (t < seconds);
	printf("parser: %.0f simple orders/s on one core (%ld orders in %.2f s, standard start)\n",
	    (double)count / t, count, t);
	names_free(n);
	map_free(m);
	if (bad) {
		fprintf(stderr, "bench_parser: %ld orders refused\n", bad);
		return 1;
	}
	return 0;
}
