/*
 * fuzz_parser.c — libFuzzer target for the order parser.
 *
 * The first byte of an input chooses the context, the rest is the line:
 *
 *	bits 0-1  the board: 0 the starting position (movement), 1 a retreat
 *	          phase with dislodged units, 2 an adjustment phase with empty
 *	          home centres, 3 no board
 *	bits 2-4  the sender: power 0-6, 7 unknown
 *	bit 5     the variant orders on ("insurrection", and the Realpolitik system)
 *	bit 6     the sender holds every power, as a delegation (order_parse_held)
 *
 * Every result is checked for sanity (a known verdict, a terminated note,
 * ids in range, an order for every accepted line) and formatted, so the
 * formatting code is fuzzed too. `make fuzz` builds it into build/fuzz/
 * with clang -fsanitize=fuzzer,address,undefined; tests/check.sh runs it
 * on the seeds in tests/fuzz/seeds/parser/ (made from the golden file by
 * contrib/tools/golden_seeds.py).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/board.h"
#include "../../judge/engine/map.h"
#include "../../lib/str.h"
#include "../../maps/variant.h"
#include "../../parser/names.h"
#include "../../parser/orders.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fuzz_state {
	struct map *m[2];		/* standard; standard with the variant orders on */
	struct names *names[2];
	struct board board[3];
} st;

static struct map *
load(void)
{
	struct buf err;
	struct map *m;

	buf_init(&err, 1 << 16);
	m = variant_open("standard", NULL, &err);
	if (m == NULL) {
		fprintf(stderr, "fuzz_parser: %s", buf_str(&err));
		exit(1);
	}
	buf_free(&err);
	return m;
}

static void
add(struct board *b, const struct map *m, enum unit_type t, const char *power, const char *loc)
{
	board_add_unit(b, t, map_find_power(m, power), map_find_location(m, loc));
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct board *b;
	struct dislodged *d;
	const struct map *m;
	int i;

	(void)argc;
	(void)argv;
	for (i = 0; i < 2; i++) {
		st.m[i] = load();
		st.names[i] = names_new(st.m[i]);
	}
	map_set_option(st.m[1], "insurrection", "yes");
	str_copy(st.m[1]->system, "realpolitik", sizeof st.m[1]->system);
	m = st.m[0];
	board_init_start(&st.board[0], m);

	b = &st.board[1];
	board_init_empty(b, 1901, SEASON_FALL, PHASE_RETREAT);
	add(b, m, UNIT_ARMY, "France", "bur");
	add(b, m, UNIT_ARMY, "Germany", "boh");
	add(b, m, UNIT_FLEET, "England", "nth");
	d = &b->dislodged[b->ndislodged++];
	d->unit.type = UNIT_ARMY;
	d->unit.power = map_find_power(m, "Germany");
	d->unit.loc = map_find_location(m, "mun");
	d->attacker = map_find_province(m, "bur");
	d = &b->dislodged[b->ndislodged++];
	d->unit.type = UNIT_FLEET;
	d->unit.power = map_find_power(m, "Russia");
	d->unit.loc = map_find_location(m, "stp/nc");
	d->attacker = map_find_province(m, "bar");

	b = &st.board[2];
	board_init_start(b, m);
	b->season = SEASON_WINTER;
	b->phase = PHASE_ADJUSTMENT;
	for (i = b->nunits - 1; i >= 0; i--)
		if (i % 3 == 0)
			board_remove_unit(b, i);
	return 0;
}

/* A loc_id is LOC_NONE or a location of m. */
static int
loc_ok(const struct map *m, loc_id l)
{
	return l == LOC_NONE || l < m->nlocs;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parse_ctx c;
	struct parse_result r;
	const struct order *o = &r.order;
	const struct map *m;
	unsigned ctl;
	struct buf out;
	int i;

	if (size == 0)
		return 0;
	ctl = data[0];
	m = st.m[(ctl >> 5) & 1];
	c.m = m;
	c.names = st.names[(ctl >> 5) & 1];
	c.b = (ctl & 3) == 3 ? NULL : &st.board[ctl & 3];
	c.power = ((ctl >> 2) & 7) == 7 ? POWER_NONE : (power_id)((ctl >> 2) & 7);
	/* Bit 6: the sender holds every power (a delegation). */
	order_parse_held(&c, !(ctl & 0x40) ? 0 : m->npowers >= 32 ? ~0u : (1u << m->npowers) - 1,
	    (const char *)data + 1, size - 1, &r);

	if (r.verdict > VERDICT_BLANK || memchr(r.note, '\0', sizeof r.note) == NULL)
		abort();
	if (r.heading != POWER_NONE && (r.verdict != VERDICT_BLANK || r.heading >= m->npowers))
		abort();	/* a heading is blank, and names a power */
	if (r.nparts > PARSE_MAX_PARTS || (r.nparts > 0 && r.verdict != VERDICT_REFUSED))
		abort();
	for (i = 0; i < r.nparts; i++)
		if (r.part[i].len == 0 || (size_t)r.part[i].off + r.part[i].len > size - 1 ||
		    (i > 0 && r.part[i].off < r.part[i - 1].off + r.part[i - 1].len))
			abort();	/* the parts are in the line, in order, apart */
	if (r.verdict == VERDICT_REFUSED && r.note[0] == '\0')
		abort();	/* a refusal always says why */
	if (r.verdict == VERDICT_CORRECTED && r.note[0] == '\0')
		abort();	/* a correction always says what */
	if (r.verdict != VERDICT_ACCEPTED && r.verdict != VERDICT_CORRECTED)
		return 0;
	if (o->kind == ORDER_NONE || !loc_ok(m, o->loc) || !loc_ok(m, o->target) ||
	    !loc_ok(m, o->dest) || o->type > UNIT_FLEET || o->target_type > UNIT_FLEET ||
	    (o->power != POWER_NONE && o->power >= m->npowers) ||
	    (o->target_power != POWER_NONE && o->target_power >= m->npowers) ||
	    r.prefs.n > ORDER_MAX_PREFS)
		abort();
	for (i = 0; i < r.prefs.n; i++)
		if (r.prefs.prov[i] >= m->nprovs)
			abort();
	buf_init(&out, 4096);
	order_format_result(m, &r, &out);
	order_format(m, o, ORDER_LONG, &out);
	buf_free(&out);
	return 0;
}
