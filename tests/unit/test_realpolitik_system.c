/*
 * test_realpolitik_system.c — Realpolitik as a rule system
 * (judge/systems/realpolitik.c): its state through the game file and the
 * history record and back, damaged lines refused; occupation on the even
 * move, a lost capital moved by default and back, a centre relinquished,
 * builds checked when given, several builds stacked in one capital by
 * mail, the sole remaining power, an adjourned game.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/game.h"
#include "../../judge/ordering.h"
#include "../../judge/status.h"
#include "../../judge/system.h"
#include "../../judge/systems/realpolitik.h"
#include "../../judge/systems/systems.h"
#include "../../parser/orders.h"

static struct map *m;
static struct names *nm;

static const struct map *
find(void *ctx, const char *variant, const struct names **names)
{
	(void)ctx;
	if (strcmp(variant, "realpolitik") != 0)
		return NULL;
	*names = nm;
	return m;
}

static const struct rule_system *
find_system(void *ctx, const struct map *map)
{
	(void)ctx;
	return systems_for_map(map);
}

static const struct game_lookup lookup = { NULL, find, find_system, NULL };

static int
setup(void **state)
{
	(void)state;
	m = test_load_map("maps/realpolitik/variant.xml");
	if (m == NULL)
		return 1;
	nm = names_new(m);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	names_free(nm);
	map_free(m);
	return 0;
}

/* A province and a power of the variant by name. */
#define pr(name) map_find_province(m, (name))
#define pw(name) map_find_power(m, (name))

/* A new game of the variant, with its system. */
static struct game *
new_game(void)
{
	struct game *g = calloc(1, sizeof *g);
	struct game_settings s;

	assert_non_null(g);
	game_settings_default(&s, "realpolitik");
	game_init(g, "rp", &s, m, nm, 1795000000);
	game_set_system(g, systems_for_map(m));
	assert_string_equal(g->sys->name, "realpolitik");
	return g;
}

/* The state as the system writes it with a history record. */
static void
state_text(const struct game *g, struct buf *out)
{
	buf_truncate(out, 0);
	g->sys->history_write(g, out);
}

static const char state_lines[] =
    "rp-capital Germany mun kie\n"
    "rp-capital Austria vie none\n"
    "rp-choice Russia war\n"
    "rp-relinquish France spa\n"
    "rp-held Germany den\n"
    "rp-held England bel\n";

/* The state read from history lines, written to the game file, read back
 * from it and written again: the same lines. */
static void
test_state_round_trip(void **unused)
{
	struct game *g = new_game(), *h = calloc(1, sizeof *h);
	struct buf file, err, a, b;

	(void)unused;
	buf_init(&file, 1 << 16);
	buf_init(&err, 1024);
	buf_init(&a, 1024);
	buf_init(&b, 1024);
	state_text(g, &a);
	assert_string_equal(buf_str(&a), "");	/* a new game: nothing moved */
	g->sys->history_read(g, state_lines, strlen(state_lines));
	assert_int_equal(rp_capital_now(g, pr("mun")), pr("kie"));
	assert_int_equal(rp_capital_now(g, pr("vie")), PROV_NONE);
	assert_int_equal(rp_capital_now(g, pr("ber")), pr("ber"));
	game_write(g, &file);
	assert_non_null(strstr(buf_str(&file), "rp-capital Germany mun kie\n"));
	assert_int_equal(game_read(h, buf_str(&file), file.len, &lookup, &err), 0);
	assert_string_equal(buf_str(&err), "");
	assert_int_equal(rp_capital_now(h, pr("mun")), pr("kie"));
	state_text(g, &a);
	state_text(h, &b);
	assert_string_equal(buf_str(&a), buf_str(&b));
	assert_int_equal(strlen(buf_str(&a)), strlen(state_lines));
	/* A rollback to a record without lines: the fresh state. */
	h->sys->history_read(h, "", 0);
	state_text(h, &b);
	assert_string_equal(buf_str(&b), "");
	buf_free(&file);
	buf_free(&err);
	buf_free(&a);
	buf_free(&b);
	game_free(g);
	game_free(h);
}

/* A line naming what cannot be is refused with its line number. */
static void
test_damaged_lines(void **unused)
{
	static const char *const bad[] = {
		"rp-capital Germany kie ber\n",		/* Kiel is no capital */
		"rp-capital Germany mun par\n",		/* Paris is not German */
		"rp-choice Germany par\n",
		"rp-relinquish France nth\n",		/* no centre */
		"rp-held Nobody bel\n",
	};
	struct game *g = new_game();
	struct buf file, err, text;
	size_t i;

	(void)unused;
	buf_init(&file, 1 << 16);
	game_write(g, &file);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct game *h = calloc(1, sizeof *h);
		buf_init(&err, 1024);
		buf_init(&text, 1 << 16);
		buf_puts(&text, buf_str(&file));
		buf_puts(&text, bad[i]);
		assert_int_equal(game_read(h, buf_str(&text), text.len, &lookup, &err), -1);
		assert_non_null(strstr(buf_str(&err), ": "));
		buf_free(&err);
		buf_free(&text);
		game_free(h);
	}
	buf_free(&file);
	game_free(g);
}

/* Play g's phase with the n orders through the system; the report into
 * report. */
static void
play_with(struct game *g, const struct order *orders, int n, struct buf *report)
{
	struct phase_result *res = malloc(sizeof *res);
	struct turn t;

	assert_non_null(res);
	memset(&t, 0, sizeof t);
	system_resolve(g, &g->board, orders, n, res, NULL);
	t.g = g;
	t.before = &g->board;
	t.orders = orders;
	t.norders = n;
	t.res = res;
	t.report = report;
	g->sys->turn(&t);
	g->board = t.next;
	free(res);
}

/* Play g's phase with no orders (every unit holds). */
static void
play(struct game *g, struct buf *report)
{
	play_with(g, NULL, 0, report);
}

/* Move the unit in province from to province to (setting up positions). */
static void
put(struct game *g, const char *from, const char *to)
{
	int u = board_unit_in(&g->board, m, pr(from));

	assert_true(u >= 0);
	g->board.units[u].loc = m->provs[pr(to)].loc;
}

/*
 * Munich: a French army that stood there as the Fall move began and holds
 * takes it; Germany's capital moves to Kiel by default (Berlin is one
 * already); a German fleet that stood in Holland takes it. A year later a German army held through the Fall takes Munich back, and
 * the capital with it. Spain, relinquished, belongs to nobody.
 */
static void
test_occupation_and_capital(void **unused)
{
	struct game *g = new_game();
	struct buf report;

	(void)unused;
	buf_init(&report, 1 << 16);
	g->board.season = SEASON_FALL;
	put(g, "mun", "ruh");		/* the German army of Munich went to Ruhr */
	put(g, "par", "mun");
	put(g, "kie", "hol");
	g->board.owner[pr("spa")] = pw("France");
	g->sys->history_read(g, "rp-relinquish France spa\n", strlen("rp-relinquish France spa\n"));
	play(g, &report);
	assert_int_equal(g->board.owner[pr("mun")], pw("France"));
	assert_int_equal(g->board.owner[pr("hol")], pw("Germany"));
	assert_int_equal(g->board.owner[pr("spa")], POWER_NONE);
	assert_int_equal(rp_capital_now(g, pr("mun")), pr("kie"));
	assert_non_null(strstr(buf_str(&report), "Germany has lost Munich: its capital moves to Kiel"));
	assert_non_null(strstr(buf_str(&report), "France relinquishes Spain"));
	/* France 4 centres and 3 units, Germany 3 and 3: a Winter for France. */
	assert_int_equal(g->board.season, SEASON_WINTER);
	assert_int_equal(g->board.year, 1901);

	/* The next Fall: a German army stood in Munich and held. */
	g->board.year = 1902;
	g->board.season = SEASON_FALL;
	g->board.phase = PHASE_MOVEMENT;
	put(g, "mun", "bur");
	put(g, "ruh", "mun");
	buf_truncate(&report, 0);
	play(g, &report);
	assert_int_equal(g->board.owner[pr("mun")], pw("Germany"));
	assert_int_equal(rp_capital_now(g, pr("mun")), pr("mun"));
	assert_non_null(strstr(buf_str(&report), "Germany has retaken Munich"));
	buf_free(&report);
	game_free(g);
}

/* Check the build order text of power p in g's Winter: what check_order
 * returns, the reply into reply. */
static enum order_check
check_build(struct game *g, power_id p, const char *text, struct buf *reply)
{
	struct parse_ctx c = { g->map, g->names, &g->board, p };
	struct parse_result r;

	order_parse(&c, text, strlen(text), &r);
	assert_true(r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED);
	buf_truncate(reply, 0);
	return g->sys->check_order(g, p, &r.order, reply);
}

/* Armies in the capitals (onto a stack too), fleets in the naval bases. */
static void
test_builds_checked(void **unused)
{
	struct game *g = new_game();
	struct buf reply;
	power_id fra = pw("France"), ger = pw("Germany");

	(void)unused;
	buf_init(&reply, 1024);
	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.owner[pr("spa")] = fra;
	g->board.owner[pr("hol")] = ger;
	put(g, "par", "bur");
	assert_int_equal(check_build(g, fra, "Build F Marseilles", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: Marseilles is not a naval base of France: "
	    "fleets are raised in Brest\n");
	assert_int_equal(check_build(g, fra, "Build A Marseilles", &reply), ORDER_CHECK_REFUSED);
	assert_non_null(strstr(buf_str(&reply), "armies are raised in Paris"));
	assert_int_equal(check_build(g, fra, "Build A Paris", &reply), ORDER_CHECK_TAKEN);
	/* Berlin holds a German army: another is raised onto it. */
	assert_int_equal(check_build(g, ger, "Build A Berlin", &reply), ORDER_CHECK_TAKEN);
	assert_int_equal(check_build(g, ger, "Build F Berlin", &reply), ORDER_CHECK_REFUSED);
	assert_non_null(strstr(buf_str(&reply), "fleets are raised in Kiel"));
	buf_free(&reply);
	game_free(g);
}

/* A build with none due says so plainly, and what else is wrong with it:
 * Rome is Italy's capital, Paris France's (not its naval base). */
static void
test_builds_not_due(void **unused)
{
	struct game *g = new_game();
	struct buf reply;

	(void)unused;
	buf_init(&reply, 1024);
	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.owner[pr("mar")] = POWER_NONE;
	assert_int_equal(check_build(g, pw("Italy"), "Build A Rome", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: Italy has no build due this Winter\n");
	assert_int_equal(check_build(g, pw("Italy"), "Waive", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: Italy has no build due this Winter; "
	    "nothing to waive\n");
	assert_int_equal(check_build(g, pw("France"), "Build F Paris", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: France has no build due this Winter: it "
	    "removes 1 unit; besides, Paris is not a naval base of France: fleets are raised "
	    "in Brest\n");
	assert_int_equal(check_build(g, pw("France"), "Build A Paris", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: France has no build due this Winter: it "
	    "removes 1 unit\n");
	g->board.owner[pr("bre")] = POWER_NONE;
	assert_int_equal(check_build(g, pw("France"), "Build A Paris", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: France has no build due this Winter: it "
	    "removes 2 units\n");
	buf_free(&reply);
	game_free(g);
}

/* Berlin lost, Germany's capital moved to Kiel: an army in Berlin is
 * refused as a lost capital, not as "no capital"; a fleet in Kiel, its naval
 * base held, is raised; Munich, foreign-held, raises nothing. */
static void
test_builds_moved_capital(void **unused)
{
	struct game *g = new_game();
	struct buf reply;
	power_id ger = pw("Germany");
	const char lines[] = "rp-capital Germany ber kie\n";

	(void)unused;
	buf_init(&reply, 1024);
	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->sys->history_read(g, lines, strlen(lines));
	g->board.owner[pr("ber")] = pw("Russia");
	g->board.owner[pr("hol")] = ger;
	g->board.owner[pr("den")] = ger;
	g->board.owner[pr("swe")] = ger;
	assert_int_equal(check_build(g, ger, "Build A Berlin", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: Germany lost its capital Berlin: armies "
	    "are raised in Kiel and Munich\n");
	assert_int_equal(check_build(g, ger, "Build A Kiel", &reply), ORDER_CHECK_TAKEN);
	g->board.owner[pr("kie")] = pw("Russia");
	assert_int_equal(check_build(g, ger, "Build F Kiel", &reply), ORDER_CHECK_REFUSED);
	assert_string_equal(buf_str(&reply), "  REFUSED: Germany does not hold Kiel: nothing is "
	    "raised there until it is retaken\n");
	buf_free(&reply);
	game_free(g);
}

/* Give power p's line to g as a mail does; what the reply says after the
 * line's verdict: what is left to order, into todo. */
static enum taken
give(struct game *g, power_id p, const char *line, struct buf *todo)
{
	struct buf reply;
	enum taken t;

	buf_init(&reply, 1024);
	t = ordering_take(g, p, line, strlen(line), &reply);
	buf_free(&reply);
	buf_truncate(todo, 0);
	status_what_to_do(g, p, todo);
	return t;
}

/* Give power p's line to g as a mail does; the reply into reply. */
static enum taken
take(struct game *g, power_id p, const char *line, struct buf *reply)
{
	buf_truncate(reply, 0);
	return ordering_take(g, p, line, strlen(line), reply);
}

/* The units of power p in province name on b. */
static int
units_in(const struct board *b, power_id p, const char *name)
{
	int i, n = 0;

	for (i = 0; i < b->nunits; i++)
		n += b->units[i].power == p && m->locs[b->units[i].loc].prov == pr(name);
	return n;
}

/* Play g's phase with the orders its delegations hold, as the judge
 * does. */
static void
play_orders(struct game *g, struct buf *report)
{
	struct order orders[GAME_MAX_ORDERS];
	int n = 0, p, k;

	for (p = 0; p < m->npowers; p++)
		for (k = 0; k < g->del[p].norders; k++) {
			assert_true(n < GAME_MAX_ORDERS);
			orders[n] = g->del[p].orders[k];
			orders[n++].power = (power_id)p;
		}
	play_with(g, orders, n, report);
}

/* Germany, four builds due, raises three armies in Berlin and a fleet in
 * Kiel by mail: each "Build A Berlin" is another unit of the stack while
 * builds are left, the reply counting down; a fifth replaces the last,
 * and the reply says so. */
static void
test_builds_stacked(void **unused)
{
	struct game *g = new_game();
	struct buf todo, report;
	power_id ger = pw("Germany");

	(void)unused;
	buf_init(&todo, 1024);
	buf_init(&report, 1 << 16);
	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.owner[pr("hol")] = ger;
	g->board.owner[pr("den")] = ger;
	g->board.owner[pr("swe")] = ger;
	g->board.owner[pr("bel")] = ger;
	g->board.owner[pr("swe")] = ger;
	/* Three places, but all four: a capital takes a stack. */
	assert_int_equal(game_build_sites(g, ger), 4);
	assert_int_equal(give(g, ger, "Build A Berlin", &todo), TAKE_DONE);
	assert_non_null(strstr(buf_str(&todo), "3 more builds"));
	assert_int_equal(give(g, ger, "Build A Berlin", &todo), TAKE_DONE);
	assert_int_equal(give(g, ger, "Build A Berlin", &todo), TAKE_DONE);
	assert_non_null(strstr(buf_str(&todo), "1 more build (\"Build A mun\""));
	assert_int_equal(g->del[ger].norders, 3);
	assert_false(game_orders_complete(g, ger));
	assert_int_equal(give(g, ger, "Build F Kiel", &todo), TAKE_DONE);
	assert_true(game_orders_complete(g, ger));
	assert_int_equal(take(g, ger, "Build A Berlin", &todo), TAKE_DONE);
	assert_string_equal(buf_str(&todo), "  accepted: Build A ber\n"
	    "  Every build due has an order: this one replaces Build A ber, the last in Berlin.\n");
	assert_int_equal(g->del[ger].norders, 4);
	/* All four ordered: a build elsewhere, or a waiver, is one too many. */
	assert_int_equal(give(g, ger, "Build A Munich", &todo), TAKE_REFUSED);
	assert_int_equal(give(g, ger, "Waive", &todo), TAKE_REFUSED);
	assert_int_equal(g->del[ger].norders, 4);
	play_orders(g, &report);
	assert_int_equal(units_in(&g->board, ger, "ber"), 4);
	assert_int_equal(units_in(&g->board, ger, "kie"), 2);
	assert_int_equal(board_count_units(&g->board, ger), 7);
	assert_null(strstr(buf_str(&report), "not used"));
	buf_free(&todo);
	buf_free(&report);
	game_free(g);
}

/* Russia stacks two armies in Moscow: two orders go to them in turn; a
 * third replaces the oldest, and the reply says so, naming the order it
 * replaces (a single unit's new order replaces its old one without a word,
 * as in the standard game); two more, as in a later mail ordering the
 * stack again, are the stack's orders. */
static void
test_stack_order_replaced(void **unused)
{
	struct game *g = new_game();
	struct buf reply;
	power_id rus = pw("Russia");

	(void)unused;
	buf_init(&reply, 1024);
	assert_true(board_add_unit(&g->board, UNIT_ARMY, rus, m->provs[pr("mos")].loc) >= 0);
	assert_int_equal(take(g, rus, "A mos - war", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A mos - war\n");
	assert_int_equal(take(g, rus, "A mos - stp", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A mos - stp\n");
	assert_int_equal(take(g, rus, "A mos H", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A mos H\n"
	    "  Moscow has 2 armies and both have orders: this one replaces A mos - war.\n");
	assert_int_equal(g->del[rus].norders, 2);
	assert_int_equal(g->del[rus].orders[0].kind, ORDER_MOVE);
	assert_int_equal(g->del[rus].orders[0].dest, m->provs[pr("stp")].loc);
	assert_int_equal(g->del[rus].orders[1].kind, ORDER_HOLD);
	/* A later mail: A mos - ukr, A mos - sev: both stand. */
	assert_int_equal(take(g, rus, "A mos - ukr", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A mos - ukr\n"
	    "  Moscow has 2 armies and both have orders: this one replaces A mos - stp.\n");
	assert_int_equal(take(g, rus, "A mos - sev", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A mos - sev\n"
	    "  Moscow has 2 armies and both have orders: this one replaces A mos H.\n");
	assert_int_equal(g->del[rus].norders, 2);
	assert_int_equal(g->del[rus].orders[0].dest, m->provs[pr("ukr")].loc);
	assert_int_equal(g->del[rus].orders[1].dest, m->provs[pr("sev")].loc);
	assert_int_equal(take(g, rus, "A war H", &reply), TAKE_DONE);
	assert_int_equal(take(g, rus, "A war - ukr", &reply), TAKE_DONE);
	assert_string_equal(buf_str(&reply), "  accepted: A war - ukr\n");
	buf_free(&reply);
	game_free(g);
}

/* Berlin lost, Germany's capital moved to Kiel: the movement knows it. An
 * army joins the army in Kiel (a stack in the capital it has now); an army
 * moving into Berlin, where a German army stands, fails (Berlin is no
 * capital of Germany's any more). */
static void
test_moved_capital_stacks(void **unused)
{
	const char lines[] = "rp-capital Germany ber kie\n";
	struct game *g = new_game(), *h = new_game();
	struct buf reply, report;
	power_id ger = pw("Germany");

	(void)unused;
	buf_init(&reply, 1024);
	buf_init(&report, 1 << 16);
	g->sys->history_read(g, lines, strlen(lines));
	g->board.owner[pr("ber")] = pw("Russia");
	put(g, "kie", "bal");
	put(g, "mun", "kie");
	assert_int_equal(take(g, ger, "A ber - kie", &reply), TAKE_DONE);
	play_orders(g, &report);
	assert_int_equal(units_in(&g->board, ger, "kie"), 2);
	assert_int_equal(units_in(&g->board, ger, "ber"), 0);

	h->sys->history_read(h, lines, strlen(lines));
	h->board.owner[pr("ber")] = pw("Russia");
	put(h, "kie", "bal");
	put(h, "mun", "sil");
	assert_int_equal(take(h, ger, "A sil - ber", &reply), TAKE_DONE);
	buf_truncate(&report, 0);
	play_orders(h, &report);
	assert_int_equal(units_in(&h->board, ger, "ber"), 1);
	assert_int_equal(units_in(&h->board, ger, "sil"), 1);
	buf_free(&reply);
	buf_free(&report);
	game_free(g);
	game_free(h);
}

/* The line of text starting with head, into out (empty when none). */
static void
line_of(const char *text, const char *head, char *out, size_t size)
{
	const char *p = strstr(text, head);

	snprintf(out, size, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
}

/* A stack is listed as one ("2 armies in Moscow") in the results' units,
 * the game's position and the Realpolitik report; an army on board that
 * was given no order stays on board without "(*no order*)", as the reply
 * said it would. */
static void
test_stacks_listed(void **unused)
{
	struct game *g = new_game();
	struct buf report, pos;
	power_id rus = pw("Russia"), eng = pw("England");
	struct order o[2];
	char line[256];
	int f;

	(void)unused;
	buf_init(&report, 1 << 16);
	buf_init(&pos, 1 << 16);
	assert_true(board_add_unit(&g->board, UNIT_ARMY, rus, m->provs[pr("mos")].loc) >= 0);
	/* England's army of Yorkshire on board its fleet in the North Sea. */
	put(g, "lon", "nth");
	f = board_unit_in(&g->board, m, pr("lvp"));
	g->board.units[f].type = UNIT_ARMY | UNIT_ABOARD;
	g->board.units[f].loc = m->provs[pr("nth")].loc;
	status_position(g, &pos);
	line_of(buf_str(&pos), "Russia (", line, sizeof line);
	assert_non_null(strstr(line, "2 armies in Moscow"));
	assert_null(strstr(line, "army in Moscow, army in Moscow"));
	memset(o, 0, sizeof o);
	o[0].kind = ORDER_HOLD;
	o[0].power = eng;
	o[0].type = UNIT_FLEET;
	o[0].loc = m->provs[pr("nth")].loc;
	o[1] = o[0];
	o[1].power = rus;
	o[1].type = UNIT_ARMY;
	o[1].loc = m->provs[pr("war")].loc;
	play_with(g, o, 2, &report);
	line_of(buf_str(&report), "England: Army North Sea", line, sizeof line);
	assert_string_equal(line, "England: Army North Sea STAYS ON BOARD.");
	line_of(strstr(buf_str(&report), "Units now:"), "Russia: ", line, sizeof line);
	assert_non_null(strstr(line, "2 armies in Moscow"));
	assert_null(strstr(line, "army in Moscow, army in Moscow"));
	buf_free(&report);
	buf_free(&pos);
	game_free(g);
}

/* The game is won by the sole remaining power, not by a count of centres. */
static void
test_sole_power(void **unused)
{
	struct game *g = new_game();
	char result[200];
	int q, i;

	(void)unused;
	assert_false(g->sys->ended(g, result, sizeof result));
	for (i = g->board.nunits - 1; i >= 0; i--)
		if (g->board.units[i].power != pw("Turkey"))
			board_remove_unit(&g->board, i);
	for (q = 0; q < m->nprovs; q++)
		if (m->provs[q].supply)
			g->board.owner[q] = pw("Turkey");
	assert_true(g->sys->ended(g, result, sizeof result));
	assert_string_equal(result, "Turkey wins: the sole remaining power");
	g->board.owner[pr("lon")] = pw("England");
	assert_false(g->sys->ended(g, result, sizeof result));
	game_free(g);
}

/* Give power p n more armies (in empty provinces: only the count matters). */
static void
add_armies(struct board *b, power_id p, int n)
{
	int q;

	for (q = 0; q < m->nprovs && n > 0; q++)
		if (m->provs[q].terrain != TERRAIN_SEA && board_unit_in(b, m, (prov_id)q) < 0) {
			board_add_unit(b, UNIT_ARMY, p, m->provs[q].loc);
			n--;
		}
	assert_int_equal(n, 0);
}

/* END: 13 units and more than any other win; fewer, or a tie, share. */
static void
test_adjourned(void **unused)
{
	struct game *g = new_game();
	char result[200];

	(void)unused;
	rp_adjourned(m, &g->board, result, sizeof result);
	assert_string_equal(result, "Shared by Austria, England, France, Germany, Italy, Russia, "
	    "Turkey (adjourned: no power has 13 of the 34 possible units)");
	add_armies(&g->board, pw("France"), 9);		/* 12 */
	rp_adjourned(m, &g->board, result, sizeof result);
	assert_non_null(strstr(result, "Shared by"));
	add_armies(&g->board, pw("France"), 1);		/* 13 */
	rp_adjourned(m, &g->board, result, sizeof result);
	assert_string_equal(result, "France wins the adjourned game with 13 of the 34 possible units");
	add_armies(&g->board, pw("Turkey"), 10);	/* 13 too */
	rp_adjourned(m, &g->board, result, sizeof result);
	assert_string_equal(result, "Shared by France, Turkey (adjourned: each has 13 of the 34 "
	    "possible units)");
	game_free(g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_damaged_lines),
		cmocka_unit_test(test_occupation_and_capital),
		cmocka_unit_test(test_builds_checked),
		cmocka_unit_test(test_builds_not_due),
		cmocka_unit_test(test_builds_moved_capital),
		cmocka_unit_test(test_builds_stacked),
		cmocka_unit_test(test_stack_order_replaced),
		cmocka_unit_test(test_moved_capital_stacks),
		cmocka_unit_test(test_stacks_listed),
		cmocka_unit_test(test_sole_power),
		cmocka_unit_test(test_adjourned),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
