/*
 * test_systems.c — the rule-system seam (judge/system.h): which system a
 * variant plays, what each module offers, and a variant naming a system
 * pouch does not know refused when it is loaded.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/gm.h"
#include "../../judge/player.h"
#include "../../judge/shell/varcache.h"
#include "../../judge/systems/systems.h"

/* The standard map plays the standard game; the MUNA map names its system;
 * the MUNA test variant names none and plays MUNA by its options. */
static void
test_system_of_variant(void **state)
{
	struct map *muna = test_load_map("maps/muna/variant.xml");
	struct map *muna_test = test_load_map("tests/variants/muna-test.xml");
	struct map *opt = test_load_standard_map();

	(void)state;
	assert_string_equal(systems_for_map(test_standard_map())->name, "standard");
	assert_string_equal(muna->system, "muna");
	assert_string_equal(systems_for_map(muna)->name, "muna");
	assert_string_equal(muna_test->system, "");
	assert_string_equal(systems_for_map(muna_test)->name, "muna");
	/* A standard board that names no system but has no MUNA option. */
	assert_string_equal(systems_for_map(opt)->name, "standard");
	/* MUNA says it plays a board naming no system that sets one of its
	 * options, whatever the value. */
	map_set_option(opt, "build-anywhere", "yes");
	assert_string_equal(systems_for_map(opt)->name, "standard");
	map_set_option(opt, "control-bonus", "no");
	assert_ptr_equal(systems_for_map(opt), systems_find("muna"));
	/* Naming overrides the options. */
	strcpy(muna_test->system, "standard");
	assert_string_equal(systems_for_map(muna_test)->name, "standard");
	strcpy(muna_test->system, "nosuch");
	assert_null(systems_for_map(muna_test));
	assert_null(systems_find("nosuch"));
	assert_ptr_equal(systems_find("MUNA"), systems_find("muna"));
	map_free(muna);
	map_free(muna_test);
	map_free(opt);
}

/* A variant without a board: no powers, no provinces, its system named;
 * the war's game names its countries. */
static void
test_boardless_variant(void **state)
{
	struct map *war = test_load_map("maps/worldgame/variant.xml");

	(void)state;
	assert_int_equal(war->npowers, 0);
	assert_int_equal(war->nprovs, 0);
	assert_string_equal(systems_for_map(war)->name, "worldgame");
	assert_non_null(system_command(systems_for_map(war), CMD_START, SYSTEM_GM));
	assert_null(system_command(systems_for_map(war), CMD_START, SYSTEM_PLAYER));
	map_free(war);
}

/* The commands each system reads, and who may give them. */
static void
test_commands(void **state)
{
	const struct rule_system *std = systems_find("standard");
	const struct rule_system *muna = systems_find("muna");

	(void)state;
	assert_null(system_command(std, CMD_CONFERENCE, SYSTEM_GM));
	assert_null(system_command(std, CMD_GOAL, SYSTEM_PLAYER));
	assert_non_null(system_command(muna, CMD_CONFERENCE, SYSTEM_GM));
	assert_null(system_command(muna, CMD_CONFERENCE, SYSTEM_PLAYER));
	assert_non_null(system_command(muna, CMD_REQUEST, SYSTEM_PLAYER));
	assert_null(system_command(muna, CMD_REQUEST, SYSTEM_GM));
	/* GOAL is two commands: the officers' and a delegation's. */
	assert_ptr_not_equal(system_command(muna, CMD_GOAL, SYSTEM_GM),
	    system_command(muna, CMD_GOAL, SYSTEM_PLAYER));
	/* Both resolve turns and decide the end; only MUNA keeps state with
	 * each phase and opens speech windows. */
	assert_non_null(std->turn);
	assert_non_null(std->ended);
	assert_null(std->history_write);
	assert_null(std->phase_started);
	assert_non_null(muna->history_write);
	assert_non_null(muna->history_read);
	assert_non_null(muna->phase_started);
	assert_non_null(muna->waits);
}

/* What each system serves, and every system fills what it promises: the
 * core, and the part for games without a board when it serves one. HELP
 * is the judge's command for all of them (no system's own). */
static void
test_capabilities(void **state)
{
	static const char *const names[] = { "standard", "muna", "realpolitik", "worldgame" };
	const struct rule_system *war = systems_find("worldgame");
	struct rule_system odd;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct rule_system *s = systems_find(names[i]);
		assert_non_null(s);
		assert_true(system_complete(s));
		assert_null(system_command(s, CMD_HELP, SYSTEM_PLAYER | SYSTEM_GM));
	}
	assert_false(system_serves(systems_find("standard"), SYS_BOARDLESS));
	assert_false(system_serves(systems_find("muna"), SYS_OWN_GAME));
	assert_true(system_serves(systems_find("muna"), SYS_POLITICS));
	assert_false(system_serves(systems_find("standard"), SYS_POLITICS));
	assert_true(system_serves(systems_find("realpolitik"), SYS_OWN_GAME));
	assert_false(system_serves(systems_find("realpolitik"), SYS_BOARDLESS));
	assert_true(system_serves(war, SYS_BOARDLESS | SYS_OWN_CLOCK | SYS_OWN_STATUS |
	    SYS_RECORD_PAGE));
	assert_false(system_serves(NULL, SYS_BOARDLESS));
	/* A clock of its own without the part that keeps it; a board game
	 * with that part; a boardless game without its clock. */
	odd = *systems_find("standard");
	odd.serves = SYS_OWN_CLOCK;
	assert_false(system_complete(&odd));
	odd = *systems_find("standard");
	odd.boardless = war->boardless;
	assert_false(system_complete(&odd));
	odd = *war;
	odd.serves &= ~SYS_OWN_CLOCK;
	assert_false(system_complete(&odd));
	odd = *systems_find("realpolitik");
	odd.words = NULL;
	assert_false(system_complete(&odd));
	odd = *systems_find("muna");
	odd.serves = 0;
	assert_false(system_complete(&odd));
}

/* Has the judge's table t (n lines) a handler of cmd for who? */
static bool
in_table(const struct command_handler *t, int n, enum command cmd, unsigned who)
{
	int i;

	for (i = 0; i < n; i++)
		if (t[i].cmd == cmd && (t[i].who & who))
			return true;
	return false;
}

/* Is cmd carried out for who: by the judge's tables, by a rule system of
 * those named in names ("standard, muna, ..."), or by the mail itself
 * (a press block)? */
static bool
bound(enum command cmd, unsigned who, const char *names)
{
	char name[64];
	size_t n;

	if (cmd == CMD_PRESS || cmd == CMD_BROADCAST || cmd == CMD_ENDPRESS)
		return true;
	if (in_table(player_commands, player_ncommands, cmd, who) ||
	    in_table(gm_commands, gm_ncommands, cmd, who))
		return true;
	for (; *names; names += n + strspn(names + n, ", ")) {
		n = strcspn(names, ", ");
		assert_true(n < sizeof name);
		memcpy(name, names, n);
		name[n] = '\0';
		if (system_command(systems_find(name), cmd, who))
			return true;
	}
	return false;
}

/* Every command parser/commands.def declares has a handler for whoever
 * it says may give it. */
static void
test_commands_bound(void **state)
{
	struct buf names;
	int c;

	(void)state;
	buf_init(&names, 256);
	systems_names(&names);
	for (c = CMD_NONE + 1; c < CMD_MAX; c++) {
		unsigned who = command_who((enum command)c);
		assert_true(who != 0);
		if ((who & SYSTEM_PLAYER) && !bound((enum command)c, SYSTEM_PLAYER, buf_str(&names)))
			fail_msg("%s has no handler for players", command_name((enum command)c));
		if ((who & SYSTEM_GM) && !bound((enum command)c, SYSTEM_GM, buf_str(&names)))
			fail_msg("%s has no handler for the game master", command_name((enum command)c));
	}
	buf_free(&names);
}

/* A variant file naming an unknown system does not load: a game of it
 * could not be played. */
static void
test_unknown_system_refused(void **state)
{
	char dir[64], path[128];
	struct varcache vc;
	const struct names *nm;
	struct buf text;
	FILE *f;
	char *at;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "systems"), 0);
	test_read_file("tests/variants/muna-test.xml", &text);
	at = strstr(text.data, "<variant name=\"muna-test\"");
	assert_non_null(at);
	snprintf(path, sizeof path, "%s/odd.xml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(text.data, 1, (size_t)(at - text.data), f);
	fputs("<variant system=\"chess\"", f);
	fputs(at + strlen("<variant"), f);
	fclose(f);
	varcache_init(&vc, NULL);
	assert_null(varcache_get(&vc, path, &nm));
	assert_non_null(varcache_get(&vc, "tests/variants/muna-test.xml", &nm));
	varcache_free(&vc);
	buf_free(&text);
	test_rm_rf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_of_variant),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_commands_bound),
		cmocka_unit_test(test_boardless_variant),
		cmocka_unit_test(test_capabilities),
		cmocka_unit_test(test_unknown_system_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
