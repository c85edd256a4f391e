/*
 * test_duel_system.c — a fifth rule system added as ARCHITECTURE.md's "How
 * to add a rule system" says, and nothing more: its module (the struct
 * rule_system below, with the core filled), its variant as data
 * (tests/variants/duel.xml, system="duel") and its line in the table of
 * systems (here the shell's lookup of this test, which knows it before the
 * real table). The judge then plays it by mail: the welcome, HELP with the
 * system's part, orders, a phase decided, and the end by the system's own
 * rule, which the standard rules would not have decided.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/judge.h"
#include "../../judge/systems/standard.h"
#include "../../judge/systems/systems.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/names.h"

#define T0 1798700400	/* 2027-01-01 09:00 UTC */
#define GM "gm@duel.example"

/* ------------------------------------------------ the module: judge/systems/duel.c -- */

/* The standard report and next position: duel adds nothing to a turn. */
static void
duel_turn(struct turn *t)
{
	standard_system.turn(t);
}

/* Who holds the Crossing when a Fall is over wins. */
static bool
duel_ended(const struct game *g, char *result, size_t size)
{
	const struct map *m = g->map;
	prov_id crs = map_find_province(m, "crs");
	power_id p = g->board.owner[crs];

	if (g->board.season != SEASON_WINTER || p == POWER_NONE)
		return false;
	snprintf(result, size, "%s wins: it holds the Crossing", m->powers[p].name);
	return true;
}

static void
duel_help(const struct game *g, power_id p, struct buf *out)
{
	(void)g;
	if (p != POWER_NONE)
		buf_puts(out, "Duel: who holds the Crossing when a Fall is over wins.\n");
}

static const struct rule_system duel_system = {
	.name = "duel",
	.turn = duel_turn,
	.ended = duel_ended,
	.help = duel_help,
};

/* ------------------------------------------------------------- the shell -- */

static struct map *duel_map;
static struct names *duel_names;
static long seq;

static const struct map *
variant(void *ctx, const char *name, const struct names **nm)
{
	(void)ctx;
	if (strcmp(name, "duel") != 0)
		return NULL;
	*nm = duel_names;
	return duel_map;
}

static int
history(void *ctx, const char *game, int index, struct buf *out)
{
	(void)ctx, (void)game, (void)index, (void)out;
	return -1;
}

static int
random_bytes(void *ctx, const char *label, unsigned char out[16])
{
	size_t i, n = strlen(label);

	(void)ctx;
	for (i = 0; i < 16; i++)
		out[i] = (unsigned char)(label[i % n] + i);
	return 0;
}

/* The table of systems with the new one's line. */
static const struct rule_system *
system_of(void *ctx, const struct map *m)
{
	(void)ctx;
	return strcmp(m->system, duel_system.name) == 0 ? &duel_system : systems_for_map(m);
}

/* Mail body from from; the reply to it. */
static const char *
mail(struct judge *j, const char *from, const char *body, time_t now)
{
	struct inmsg m;
	char id[64];
	int i;

	judge_effects_clear(j);
	memset(&m, 0, sizeof m);
	snprintf(id, sizeof id, "m%ld@duel.example", ++seq);
	m.message_id = xstrdup(id);
	m.from_addr = xstrdup(from);
	m.subject = xstrdup("duel");
	m.text = xstrdup(body);
	m.arrival = now;
	judge_mail(j, &m, seq, now);
	inmsg_free(&m);
	for (i = 0; i < j->fx.nout; i++)
		if (j->fx.out[i].nto >= 1 && strcmp(j->fx.out[i].to[0], from) == 0)
			return j->fx.out[i].text;
	fail_msg("no reply to %s", from);
	return NULL;
}

/* ---------------------------------------------------------------- tests -- */

static void
test_duel_played(void **state)
{
	struct judge_conf conf = { 0 };
	struct judge_io io = { NULL, variant, history, random_bytes, system_of, { NULL, NULL }, NULL, NULL };
	struct game_settings s;
	struct judge j;
	struct game *g;
	struct buf why, out;
	char result[200];

	(void)state;
	assert_string_equal(duel_map->system, "duel");
	assert_true(system_complete(&duel_system));
	str_copy(conf.address, "judge@example.test", sizeof conf.address);
	str_copy(conf.domain, "example.test", sizeof conf.domain);
	str_copy(conf.name, "pouch", sizeof conf.name);
	conf.reply_limit = 30;
	judge_init(&j, &conf, &io);
	buf_init(&why, 1024);
	buf_init(&out, 1 << 16);
	game_settings_default(&s, "duel");
	g = judge_new_game(&j, "d1", &s, GM, "duel-gm-pw", T0, &why);
	if (g == NULL)
		fail_msg("no game: %s", buf_str(&why));
	assert_ptr_equal(g->sys, &duel_system);
	assert_int_equal(judge_add_delegation(&j, g, map_find_power(duel_map, "North"),
	    "n@duel.example", "north-pw", T0, &why), 0);
	assert_int_equal(judge_add_delegation(&j, g, map_find_power(duel_map, "South"),
	    "s@duel.example", "south-pw", T0, &why), 0);
	assert_int_equal(judge_start(&j, g, T0, &why), 0);

	/* HELP: the judge's, then the system's part. */
	assert_non_null(strstr(mail(&j, "n@duel.example", "GAME d1 North north-pw\nHELP\n", T0 + 60),
	    "Duel: who holds the Crossing when a Fall is over wins.\n"));
	/* Spring: North takes the Crossing; Fall: everyone holds. */
	assert_non_null(strstr(mail(&j, "n@duel.example", "GAME d1 North north-pw\nA nfd - crs\n"
	    "A nhq H\n", T0 + 120), "accepted: A nfd - crs"));
	mail(&j, "s@duel.example", "GAME d1 South south-pw\nA sfd H\nA shq H\n", T0 + 180);
	assert_int_equal(judge_process(&j, g, T0 + 240, false, &out), 0);
	assert_int_equal(g->board.season, SEASON_FALL);
	assert_int_equal(g->status, GAME_ACTIVE);
	assert_int_equal(judge_process(&j, g, T0 + 300, false, &out), 0);
	/* Over by the duel's rule; the standard rules (5 centres) go on. */
	assert_int_equal(g->status, GAME_ENDED);
	assert_string_equal(g->result, "North wins: it holds the Crossing");
	assert_false(standard_system.ended(g, result, sizeof result));

	buf_free(&why);
	buf_free(&out);
	judge_free(&j);
}

static int
setup(void **state)
{
	(void)state;
	duel_map = test_load_map("tests/variants/duel.xml");
	duel_names = names_new(duel_map);
	return duel_names ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	names_free(duel_names);
	map_free(duel_map);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duel_played),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
