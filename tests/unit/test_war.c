/*
 * test_war.c — the World Game's war phase (judge/engine/war.h): the
 * seed's worked example to the point, both endings, forfeits, loans taken
 * back, an ally attacking its ally, forts, the ends of a war, refusals,
 * the text form, the secrecy of the views and the commands as pupils write
 * them.
 */
#include "../support/testutil.h"

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/war.h"

static struct war w;
static struct buf msg;
static int A, B, C, D, E;

/* The call must succeed; its message is shown when it does not. */
#define OK(call) do {							\
	buf_reset(&msg);						\
	if ((call) != 0)						\
		fail_msg("%s: %s", #call, buf_str(&msg));		\
} while (0)

/* The call must be refused with a reason holding words. */
#define NO(call, words) do {						\
	buf_reset(&msg);						\
	assert_int_equal((call), -1);					\
	if (strstr(buf_str(&msg), (words)) == NULL)			\
		fail_msg("%s: '%s' lacks '%s'", #call, buf_str(&msg), (words)); \
} while (0)

static int
setup(void **state)
{
	(void)state;
	buf_init(&msg, 1 << 16);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	buf_free(&msg);
	return 0;
}

static int
add(const char *name, long long points, bool fort)
{
	int c;

	buf_reset(&msg);
	c = war_add_country(&w, name, points, fort, &msg);
	if (c < 0)
		fail_msg("add %s: %s", name, buf_str(&msg));
	return c;
}

/* a and b sign an alliance on repay FOR per: both send it. */
static void
sign(int a, int b, int repay, int per)
{
	OK(war_ally(&w, a, b, repay, per, &msg));
	OK(war_ally(&w, b, a, repay, per, &msg));
}

/* Every point in the war: totals, points in the battle and loans. */
static long long
all_points(const struct war *x)
{
	long long sum = 0;
	int i, s;

	for (i = 0; i < x->n; i++)
		sum += x->c[i].points;
	for (s = 0; x->battle.on && s < 2; s++) {
		sum += x->battle.side[s].own;
		for (i = 0; i < WAR_MAX_COUNTRIES; i++)
			sum += x->battle.side[s].loan[i];
	}
	return sum;
}

static bool
has(const struct buf *b, const char *s)
{
	return strstr(buf_str(b), s) != NULL;
}

/* The seed's five countries, B and E allied on repay FOR 1. */
static void
five(int repay)
{
	war_init(&w);
	A = add("Country-A", 3000, false);
	B = add("Country-B", 2500, false);
	C = add("Country-C", 2000, false);
	D = add("Country-D", 1900, false);
	E = add("Country-E", 1800, false);
	OK(war_ally(&w, B, E, repay, 1, &msg));
	assert_false(w.ally[B][E].per);		/* one side only: not binding */
	OK(war_ally(&w, E, B, repay, 1, &msg));
	assert_int_equal(w.ally[B][E].repay, repay);
	assert_int_equal(w.ally[E][B].repay, repay);
}

/* The seed's round of war up to A's 3000 (steps 1 to 5). */
static void
seed_to_3000(int repay)
{
	five(repay);
	OK(war_start(&w, &msg));
	assert_int_equal(w.call, A);
	OK(war_attack(&w, A, E, 2000, &msg));
	assert_int_equal(w.c[A].points, 1000);
	assert_int_equal(w.battle.answer, WAR_DEFENDER);
	OK(war_lend(&w, B, E, 500, &msg));
	assert_int_equal(w.c[B].points, 2000);
	OK(war_counter(&w, E, 2300, &msg));
	assert_int_equal(w.battle.side[WAR_DEFENDER].own, 1800);
	assert_int_equal(w.c[E].points, 0);
	OK(war_counter(&w, A, 3000, &msg));
	assert_int_equal(w.c[A].points, 0);
	assert_int_equal(w.battle.side[WAR_ATTACKER].own, 3000);
	assert_int_equal(w.battle.answer, WAR_DEFENDER);
	assert_int_equal(all_points(&w), 11200);
}

/* Ending 1: E cannot raise 701 more; A takes E with 5300, B's 500 lost. */
static void
test_seed_ending_one(void **state)
{
	struct buf pub;
	int by_deadline;

	(void)state;
	buf_init(&pub, 1 << 16);
	for (by_deadline = 0; by_deadline < 2; by_deadline++) {
		seed_to_3000(1);
		NO(war_counter(&w, E, 3001, &msg), "2300 in all");
		if (by_deadline)
			OK(war_deadline(&w, &msg));
		else
			OK(war_yield(&w, E, &msg));
		assert_int_equal(w.c[A].points, 5300);
		assert_int_equal(w.c[B].points, 2000);
		assert_int_equal(w.c[E].points, 0);
		assert_false(w.c[E].alive);
		assert_int_equal(w.c[E].conquered_by, A);
		assert_false(w.battle.on);
		assert_int_equal(w.ally[B][E].per, 0);	/* the alliance died with E */
		assert_int_equal(all_points(&w), 11200);
		/* Everyone now knows A's total; play goes on after A. */
		buf_reset(&pub);
		war_public(&w, &pub);
		assert_true(has(&pub, "Country-A takes Country-E: its total is now 5300."));
		assert_true(has(&pub, "Country-B's call"));
		assert_int_equal(w.call, B);
		assert_int_equal(w.stage, WAR_ON);
	}
	buf_free(&pub);
}

/* Ending 2: B lends 701 more on 2 FOR 1, E answers 3001, A cannot answer:
 * E takes A, 6001, and repays 1201 x 2 = 2402 to B: 3599. */
static void
test_seed_ending_two(void **state)
{
	struct buf pub;

	(void)state;
	buf_init(&pub, 1 << 16);
	seed_to_3000(2);
	OK(war_lend(&w, B, E, 701, &msg));
	assert_true(has(&msg, "1201 in all"));
	assert_int_equal(w.c[B].points, 1299);
	OK(war_counter(&w, E, 3001, &msg));
	assert_int_equal(w.battle.side[WAR_DEFENDER].own, 1800);	/* loans first */
	NO(war_counter(&w, A, 3002, &msg), "3000 in all");
	OK(war_deadline(&w, &msg));
	assert_int_equal(w.c[E].points, 3599);
	assert_int_equal(w.c[B].points, 1299 + 2402);
	assert_false(w.c[A].alive);
	assert_int_equal(w.c[A].conquered_by, E);
	assert_int_equal(all_points(&w), 11200);
	war_public(&w, &pub);
	assert_true(has(&pub, "Country-E answers with 3001."));
	assert_true(has(&pub, "Country-A did not answer by the deadline."));
	/* Everyone learns E's total, not what it borrowed or paid back. */
	assert_true(has(&pub, "Country-E takes Country-A: its total is now 3599."));
	assert_false(has(&pub, "6001"));
	assert_false(has(&pub, "2402"));
	assert_false(has(&pub, "1201"));
	/* Play continues after the attacker, A: B is called. */
	assert_int_equal(w.call, B);
	buf_free(&pub);
}

/* A winner whose total cannot repay in full pays its lenders what it has,
 * in proportion to what each is owed. */
static void
test_repayment_short(void **state)
{
	(void)state;
	war_init(&w);
	A = add("Atlantis", 1000, false);
	B = add("Borduria", 10000, false);
	C = add("Carpania", 10000, false);
	D = add("Dorne", 50, false);
	sign(D, B, 10, 1);
	sign(D, C, 5, 1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, D, 100, &msg));
	OK(war_lend(&w, B, D, 1000, &msg));
	OK(war_lend(&w, C, D, 1000, &msg));
	OK(war_counter(&w, D, 2000, &msg));
	assert_int_equal(w.c[D].points, 50);		/* its own kept back */
	OK(war_yield(&w, A, &msg));
	/* D holds 50 + 2000 + 1000 (A's 100 and 900) = 3050; owed 10000 and
	 * 5000: paid 3050 * 10000 / 15000 = 2033 and 3050 * 5000 / 15000 = 1016. */
	assert_int_equal(w.c[B].points, 9000 + 2033);
	assert_int_equal(w.c[C].points, 9000 + 1016);
	assert_int_equal(w.c[D].points, 1);
	assert_int_equal(all_points(&w), 21050);
}

/* Different terms bind nothing until both send the same; a signed
 * alliance stands until both send new terms; 5 lent on 3 FOR 2 is repaid
 * with 7. */
static void
test_alliance_terms(void **state)
{
	(void)state;
	war_init(&w);
	A = add("Atlantis", 100, false);
	B = add("Borduria", 100, false);
	C = add("Carpania", 200, false);
	OK(war_ally(&w, A, B, 2, 1, &msg));
	OK(war_ally(&w, B, A, 1, 1, &msg));
	assert_true(has(&msg, "Atlantis proposed 2 FOR 1: different terms bind nothing"));
	assert_int_equal(w.ally[A][B].per, 0);
	OK(war_ally(&w, A, B, 1, 1, &msg));
	assert_true(has(&msg, "It binds."));
	assert_int_equal(w.ally[B][A].repay, 1);
	OK(war_ally(&w, B, A, 3, 2, &msg));
	assert_true(has(&msg, "Until then the alliance stays on 1 FOR 1."));
	assert_int_equal(w.ally[A][B].repay, 1);
	OK(war_ally(&w, A, B, 3, 2, &msg));
	assert_int_equal(w.ally[A][B].repay, 3);
	assert_int_equal(w.ally[A][B].per, 2);
	OK(war_ally(&w, C, A, 1, 1, &msg));		/* lapses at the start */
	OK(war_start(&w, &msg));
	assert_int_equal(w.offer[C][A].per, 0);
	assert_int_equal(war_waiting(&w), A);
	OK(war_pass(&w, A, &msg));
	OK(war_pass(&w, B, &msg));
	OK(war_attack(&w, C, A, 101, &msg));
	assert_int_equal(war_waiting(&w), A);
	OK(war_lend(&w, B, A, 5, &msg));
	OK(war_counter(&w, A, 105, &msg));
	assert_int_equal(war_waiting(&w), C);
	OK(war_yield(&w, C, &msg));
	/* A holds 100 + 5 + 101 + 99 = 305 and repays 5 x 3 / 2 = 7. */
	assert_int_equal(w.c[A].points, 298);
	assert_int_equal(w.c[B].points, 102);
	assert_int_equal(war_waiting(&w), A);
	OK(war_pass(&w, A, &msg));
	OK(war_pass(&w, B, &msg));
	assert_int_equal(w.winner, A);
	assert_int_equal(war_waiting(&w), -1);
}

/* A first attack that does not exceed the defender's total is lost at
 * once: its points go to the defender and no battle begins. */
static void
test_forfeit(void **state)
{
	struct buf pub;

	(void)state;
	buf_init(&pub, 1 << 16);
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, B, 2500, &msg));		/* equal is not more */
	assert_false(w.battle.on);
	assert_int_equal(w.c[A].points, 500);
	assert_int_equal(w.c[B].points, 5000);
	assert_int_equal(w.call, B);
	war_public(&w, &pub);
	assert_true(has(&pub, "Country-A attacks Country-B with 2500: not more than "
	    "Country-B's total. The attack is lost: its points go to Country-B."));
	assert_false(has(&pub, "5000"));
	buf_free(&pub);
}

/* B takes its loan back before the defeat: E's 2300 falls to 1800, no
 * longer more than A's 2000, so E must answer again; B loses nothing. */
static void
test_withdraw(void **state)
{
	struct buf pub;

	(void)state;
	buf_init(&pub, 1 << 16);
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	OK(war_lend(&w, B, E, 500, &msg));
	OK(war_counter(&w, E, 2300, &msg));
	assert_int_equal(w.battle.answer, WAR_ATTACKER);
	NO(war_withdraw(&w, C, &msg), "no loan");
	OK(war_withdraw(&w, B, &msg));
	assert_int_equal(w.c[B].points, 2500);
	assert_int_equal(w.battle.side[WAR_DEFENDER].figure, 1800);
	assert_int_equal(w.battle.answer, WAR_DEFENDER);
	war_public(&w, &pub);
	assert_true(has(&pub, "A loan was taken back: Country-E's figure falls to 1800."));
	assert_true(has(&pub, "Country-E must answer again with more than 2000."));
	assert_false(has(&pub, "Country-B takes"));	/* the lender stays secret */
	OK(war_yield(&w, E, &msg));
	assert_int_equal(w.c[A].points, 1000 + 2000 + 1800);
	assert_int_equal(w.c[B].points, 2500);
	/* Taken back while E must answer: the figure falls, E still answers. */
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	OK(war_lend(&w, B, E, 500, &msg));
	OK(war_counter(&w, E, 2300, &msg));
	OK(war_counter(&w, A, 3000, &msg));
	OK(war_withdraw(&w, B, &msg));
	assert_int_equal(w.battle.side[WAR_DEFENDER].figure, 1800);
	assert_int_equal(w.battle.answer, WAR_DEFENDER);
	buf_free(&pub);
}

/* B attacks its ally E: E gets no loan from B, but from another ally. */
static void
test_ally_attacks_ally(void **state)
{
	(void)state;
	five(1);
	sign(D, E, 1, 1);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	OK(war_attack(&w, B, E, 1900, &msg));		/* rule 8: allowed */
	NO(war_lend(&w, B, E, 100, &msg), "you are fighting Country-E");
	OK(war_lend(&w, D, E, 200, &msg));
	OK(war_counter(&w, E, 2000, &msg));
	assert_int_equal(w.c[E].points, 0);
}

/* B attacks its ally E and loses at once: the alliance does not apply
 * after a betrayal [3], both ways, for the rest of the war. Neither may
 * lend to the other on its terms; an offer without terms stays open. */
static void
test_betrayal(void **state)
{
	struct war before;
	struct buf view;

	(void)state;
	buf_init(&view, 1 << 16);
	five(2);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	buf_reset(&msg);
	OK(war_attack(&w, B, E, 100, &msg));		/* not more than 1800: lost */
	assert_true(has(&msg, "your alliance with it is ended for the rest of the war"));
	assert_int_equal(w.c[E].points, 1900);
	assert_false(w.ally[B][E].per);
	assert_false(w.ally[E][B].per);
	war_private(&w, E, &view);
	assert_true(has(&view, "Your alliance with Country-B ended when it attacked you."));
	buf_reset(&view);
	war_public(&w, &view);
	assert_false(has(&view, "ally"));		/* the alliance stays secret */
	OK(war_pass(&w, C, &msg));
	OK(war_pass(&w, D, &msg));
	OK(war_pass(&w, E, &msg));
	/* A attacks B: the betrayed E may not lend to B on the signed terms. */
	OK(war_attack(&w, A, B, 2401, &msg));
	before = w;
	NO(war_lend(&w, E, B, 100, &msg), "your alliance with Country-B ended when "
	    "Country-B attacked you");
	assert_memory_equal(&before, &w, sizeof w);
	OK(war_offer(&w, E, B, 100, &msg));		/* without terms: 1 FOR 1 */
	assert_int_equal(war_owed(&w, E, B, 100), 100);
	OK(war_yield(&w, B, &msg));
	/* The betrayer lending to the betrayed is refused the same way. */
	five(1);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	OK(war_attack(&w, B, E, 100, &msg));
	OK(war_attack(&w, C, E, 1901, &msg));
	NO(war_lend(&w, B, E, 100, &msg), "ended when you attacked it");
	/* The state says so after being written and read back. */
	buf_reset(&view);
	war_write(&w, &view);
	assert_true(has(&view, "war-betrayal Country-B Country-E\n"));
	OK(war_read(&before, buf_str(&view), strlen(buf_str(&view)), &msg));
	assert_true(before.betrayed[B][E]);
	assert_false(before.betrayed[E][B]);
	NO(war_lend(&before, B, E, 100, &msg), "ended when you attacked it");
	buf_free(&view);
}

/* A country with no written alliance offers points during the war [3, 4]:
 * not binding, withdrawn at any time before the defeat, lost with the
 * side it backed, paid back point for point when that side wins. */
static void
test_offer(void **state)
{
	(void)state;
	five(2);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	NO(war_lend(&w, C, E, 701, &msg), "You may OFFER points");
	NO(war_offer(&w, B, E, 100, &msg), "LEND on its terms");
	NO(war_offer(&w, A, E, 100, &msg), "you are fighting");
	NO(war_offer(&w, C, E, 2001, &msg), "you have only 2000 points");
	OK(war_offer(&w, C, E, 701, &msg));
	assert_true(has(&msg, "without written terms"));
	assert_int_equal(w.c[C].points, 1299);
	NO(war_offer(&w, C, A, 1, &msg), "you cannot lend to both sides");
	OK(war_counter(&w, E, 2501, &msg));
	OK(war_counter(&w, A, 3000, &msg));
	/* Withdrawn without penalty: E's figure falls to its own 1800. */
	OK(war_withdraw(&w, C, &msg));
	assert_int_equal(w.c[C].points, 2000);
	assert_int_equal(w.battle.side[WAR_DEFENDER].figure, 1800);
	OK(war_offer(&w, C, E, 1201, &msg));
	OK(war_offer(&w, D, E, 1, &msg));
	OK(war_counter(&w, E, 3002, &msg));
	OK(war_yield(&w, A, &msg));
	/* E: 1800 + 1202 offered + A's 3000 = 6002, less 1201 and 1 paid back. */
	assert_int_equal(w.c[E].points, 4800);
	assert_int_equal(w.c[C].points, 2000);
	assert_int_equal(w.c[D].points, 1900);
	assert_int_equal(all_points(&w), 11200);
	/* An offer to the side that loses is lost. */
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	OK(war_offer(&w, C, E, 300, &msg));
	OK(war_counter(&w, E, 2100, &msg));
	OK(war_counter(&w, A, 3000, &msg));
	OK(war_yield(&w, E, &msg));
	assert_int_equal(w.c[C].points, 1700);
	assert_int_equal(w.c[A].points, 3000 + 1800 + 300);
	/* The command as pupils write it. */
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	{
		struct war_cmd cmd;
		const char *line = "we offer 2,00 pts to country-e";

		NO(war_read_command(&w, line, strlen(line), &cmd, &msg), "cannot read '2,00'");
		line = "Offer 200 points to Country-E";
		OK(war_read_command(&w, line, strlen(line), &cmd, &msg));
		assert_int_equal(cmd.verb, WAR_OFFER);
		assert_int_equal(cmd.country, E);
		assert_int_equal(cmd.points, 200);
		OK(war_do(&w, C, &cmd, &msg));
		assert_int_equal(w.battle.side[WAR_DEFENDER].loan[C], 200);
	}
}

/* A fort adds 100 when the war starts: 2050 no longer beats C's 2000. */
static void
test_fort(void **state)
{
	struct buf view;

	(void)state;
	buf_init(&view, 1 << 16);
	war_init(&w);
	A = add("Country-A", 3000, false);
	C = add("Country-C", 2000, true);
	war_private(&w, C, &view);
	assert_true(has(&view, "your total is 2000 (your fort adds 100 when the war starts)"));
	OK(war_start(&w, &msg));
	assert_int_equal(w.c[C].points, 2100);
	assert_int_equal(w.c[A].points, 3000);
	OK(war_attack(&w, A, C, 2050, &msg));
	assert_false(w.battle.on);
	assert_int_equal(w.c[C].points, 4150);
	buf_free(&view);
}

/* A whole round of passes ends the war: the largest total wins; a tie
 * leaves no single victor. A round cut by an attack starts again. */
static void
test_round_of_passes(void **state)
{
	struct buf pub;
	int i;

	(void)state;
	buf_init(&pub, 1 << 16);
	five(1);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	OK(war_pass(&w, B, &msg));
	OK(war_attack(&w, C, D, 1000, &msg));		/* lost: D now 2900 */
	for (i = 0; i < 4; i++)
		OK(war_pass(&w, w.call, &msg));
	assert_int_equal(w.stage, WAR_ON);
	assert_int_equal(w.round, 2);
	assert_int_equal(w.call, C);
	OK(war_deadline(&w, &msg));			/* C passes by its silence */
	assert_int_equal(w.stage, WAR_OVER);
	assert_int_equal(w.winner, A);
	war_public(&w, &pub);
	assert_true(has(&pub, "Country-C did not answer by the deadline."));
	assert_true(has(&pub, "Country-A has the largest total, 3000, and wins the war."));
	NO(war_pass(&w, A, &msg), "over");
	/* A tie. */
	war_init(&w);
	A = add("Atlantis", 100, false);
	B = add("Borduria", 100, false);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	OK(war_pass(&w, B, &msg));
	assert_int_equal(w.stage, WAR_OVER);
	assert_int_equal(w.winner, -1);
	buf_free(&pub);
}

/* Six countries fight to one victor, by commands as delegations write them. */
static void
test_six_to_one(void **state)
{
	static const struct {
		const char *who, *line;
	} script[] = {
		{ "Country-A", "ATTACK Country-F WITH 1500" },
		{ "Country-F", "SURRENDER" },
		{ "Country-B", "attack country e 2,000" },
		{ "Country-E", "counter 1900" },		/* refused: not enough */
		{ "Country-E", "yield" },
		{ "Country-C", "Attack Country-D with 1950" },
		{ "Country-D", "YIELD" },
		{ "Country-A", "ATTACK Country-C WITH 3950" },	/* round 2 */
		{ "Country-C", "YIELD" },
		{ "Country-B", "PASS" },
		{ "Country-A", "ATTACK Country-B WITH 4301" },	/* round 3 */
		{ "Country-B", "YIELD" },
	};
	struct war_cmd cmd;
	size_t i;
	int who, r;

	(void)state;
	war_init(&w);
	A = add("Country-A", 3000, false);
	add("Country-B", 2500, false);
	add("Country-C", 2000, false);
	add("Country-D", 1900, false);
	add("Country-E", 1800, false);
	add("Country-F", 1000, false);
	OK(war_start(&w, &msg));
	for (i = 0; i < sizeof script / sizeof script[0]; i++) {
		who = war_find(&w, script[i].who);
		buf_reset(&msg);
		r = war_read_command(&w, script[i].line, strlen(script[i].line), &cmd, &msg);
		assert_int_equal(r, 0);
		r = war_do(&w, who, &cmd, &msg);
		assert_int_equal(r, i == 3 ? -1 : 0);
		assert_int_equal(all_points(&w), 12200);
	}
	assert_int_equal(w.stage, WAR_OVER);
	assert_int_equal(w.winner, A);
	assert_int_equal(w.c[A].points, 12200);
	assert_int_equal(w.round, 3);
	buf_reset(&msg);
	war_news(&w, 0, &msg);
	assert_true(has(&msg, "Round 2 begins. Country-A's call"));
	assert_true(has(&msg, "Round 3 begins. Country-A's call"));
	assert_false(has(&msg, "Round 4"));
}

/* How often text holds needle. */
static int
count(const struct buf *b, const char *needle)
{
	const char *p = buf_str(b);
	int n = 0;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* A round is announced once, when it begins: not again when the country
 * first in the alphabet is conquered and the call passes to the next one,
 * now the first. */
static void
test_round_announced_once(void **state)
{
	struct buf pub;

	(void)state;
	buf_init(&pub, 1 << 16);
	war_init(&w);
	A = add("Alba", 1000, false);
	B = add("Bria", 3000, false);
	C = add("Cora", 500, false);
	sign(B, C, 1, 1);
	OK(war_start(&w, &msg));
	OK(war_pass(&w, A, &msg));
	OK(war_pass(&w, B, &msg));
	OK(war_attack(&w, C, A, 100, &msg));		/* lost: Alba 1100 */
	assert_int_equal(w.round, 2);
	assert_int_equal(w.call, A);
	OK(war_attack(&w, A, C, 500, &msg));		/* Cora has 400 */
	OK(war_lend(&w, B, C, 1000, &msg));
	OK(war_counter(&w, C, 1400, &msg));
	OK(war_yield(&w, A, &msg));			/* Cora takes Alba */
	assert_int_equal(w.call, B);
	assert_int_equal(w.round, 2);
	war_news(&w, 0, &pub);
	assert_int_equal(count(&pub, "Round 2 begins."), 1);
	/* Cora: its 400 and Bria's 1000 in the battle, Alba's 500 and 600,
	 * less 1000 repaid: 1500. */
	assert_true(has(&pub, "Cora takes Alba: its total is now 1500.\nBria's call: attack or "
	    "pass.\n"));
	/* Bria and Cora pass: a new round begins with Bria, announced once. */
	OK(war_pass(&w, B, &msg));
	OK(war_attack(&w, C, B, 1, &msg));		/* lost */
	buf_reset(&pub);
	war_news(&w, 0, &pub);
	assert_int_equal(count(&pub, "Round 3 begins. Bria's call"), 1);
	buf_free(&pub);
}

/* What is refused, and why. */
static void
test_refusals(void **state)
{
	(void)state;
	five(1);
	NO(war_attack(&w, A, E, 2000, &msg), "not started");
	NO(war_ally(&w, A, A, 1, 1, &msg), "itself");
	NO(war_ally(&w, A, C, 11, 1, &msg), "terms are");
	NO(war_ally(&w, B, E, 1, 1, &msg), "already allied");
	NO(war_add_country(&w, "country_a", 10, false, &msg), "too like Country-A");
	NO(war_add_country(&w, "9lives", 10, false, &msg), "beginning with a letter");
	NO(war_add_country(&w, "Zed", -1, false, &msg), "0 to");
	OK(war_start(&w, &msg));
	NO(war_start(&w, &msg), "already started");
	NO(war_ally(&w, A, C, 1, 1, &msg), "nothing you agree binds");
	NO(war_add_country(&w, "Late", 10, false, &msg), "has started");
	NO(war_attack(&w, B, E, 2000, &msg), "Country-A's call");
	NO(war_attack(&w, A, A, 2000, &msg), "another country");
	NO(war_attack(&w, A, E, 3001, &msg), "only 3000");
	NO(war_lend(&w, B, E, 500, &msg), "during a battle");
	NO(war_counter(&w, E, 500, &msg), "no battle");
	OK(war_attack(&w, A, E, 2000, &msg));
	NO(war_pass(&w, B, &msg), "battle is under way");
	NO(war_lend(&w, C, E, 500, &msg), "no written alliance");
	NO(war_lend(&w, B, C, 500, &msg), "not fighting");
	NO(war_lend(&w, B, E, 2501, &msg), "only 2500");
	NO(war_counter(&w, E, 2000, &msg), "more than Country-A's 2000");
	NO(war_counter(&w, A, 2500, &msg), "Country-E must answer now");
	NO(war_counter(&w, C, 2500, &msg), "not fighting");
	NO(war_yield(&w, A, &msg), "Country-E must answer now");
	OK(war_yield(&w, E, &msg));
	/* A attacked this round: not again before the others' calls. */
	NO(war_attack(&w, A, B, 100, &msg), "attacked this round");
	NO(war_attack(&w, B, E, 100, &msg), "conquered");
	NO(war_pass(&w, E, &msg), "conquered");
	NO(war_withdraw(&w, B, &msg), "no battle");
}

/* The text form: write(read(write(x))) == write(x) in the middle of a
 * battle with loans, proposals and a conquest, and every field read back. */
static void
test_text_round_trip(void **state)
{
	static struct war r;
	struct buf one, two, err;
	int i;

	(void)state;
	buf_init(&one, 1 << 20);
	buf_init(&two, 1 << 20);
	buf_init(&err, 4096);
	five(2);
	OK(war_ally(&w, A, C, 3, 2, &msg));
	war_write(&w, &one);
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	assert_int_equal(r.offer[A][C].repay, 3);
	assert_int_equal(r.offer[A][C].per, 2);
	buf_reset(&one);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, D, 1950, &msg));
	OK(war_yield(&w, D, &msg));
	OK(war_pass(&w, B, &msg));
	OK(war_attack(&w, C, E, 1801, &msg));
	OK(war_lend(&w, B, E, 500, &msg));
	OK(war_counter(&w, E, 2000, &msg));
	war_write(&w, &one);
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	war_write(&r, &two);
	assert_string_equal(buf_str(&one), buf_str(&two));
	assert_int_equal(r.battle.answer, WAR_ATTACKER);
	assert_int_equal(r.battle.side[WAR_DEFENDER].own, 1500);
	assert_int_equal(r.battle.side[WAR_DEFENDER].loan[B], 500);
	assert_int_equal(r.c[D].conquered_by, A);
	assert_int_equal(r.call, C);
	assert_int_equal(r.nevents, w.nevents);
	assert_true(r.c[A].attacked);
	/* Seed mid-battle with a loan. */
	seed_to_3000(2);
	buf_reset(&one);
	buf_reset(&two);
	war_write(&w, &one);
	assert_true(has(&one, "war-loan Country-B Country-E 500\n"));
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	war_write(&r, &two);
	assert_string_equal(buf_str(&one), buf_str(&two));
	assert_int_equal(r.battle.side[WAR_DEFENDER].loan[B], 500);
	assert_int_equal(r.ally[E][B].repay, 2);
	assert_int_equal(memcmp(&r, &w, sizeof r), 0);
	/* A long war keeps the latest events and says how many are not shown. */
	war_init(&w);
	A = add("Atlantis", 1000, false);
	B = add("Borduria", 1000, false);
	OK(war_start(&w, &msg));
	for (i = 0; i < 200; i++)
		OK(war_attack(&w, w.call, w.call == A ? B : A, 1, &msg));
	assert_int_equal(w.nevents, 402);
	buf_reset(&one);
	buf_reset(&two);
	war_write(&w, &one);
	assert_true(has(&one, "war-events 402\n"));
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	war_write(&r, &two);
	assert_string_equal(buf_str(&one), buf_str(&two));
	buf_reset(&two);
	war_public(&r, &two);
	assert_true(has(&two, "(the first 82 events are not shown)\n"
	    "Atlantis attacks Borduria with 1: not more than Borduria's total."));
	/* Every cut of the file reads or is refused, and never half a battle. */
	seed_to_3000(2);
	buf_reset(&one);
	war_write(&w, &one);
	for (i = 0; i <= (int)one.len; i++)
		if (war_read(&r, one.data, (size_t)i, NULL) == 0 && r.battle.on)
			assert_true(r.battle.side[WAR_DEFENDER].figure == 2300);
	/* A record longer than a record holds is cut; a cut that ends in a
	 * blank reads back as the same text. */
	buf_reset(&one);
	buf_reset(&two);
	buf_puts(&one, "war-record ");
	for (i = 0; i < WAR_EVENT_SIZE - 2; i++)
		buf_putc(&one, 'x');
	buf_puts(&one, "\tand more\n");
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	assert_int_equal(strlen(r.record[0]), WAR_EVENT_SIZE - 2);
	buf_reset(&one);
	war_write(&r, &one);
	assert_int_equal(war_read(&r, one.data, one.len, &err), 0);
	war_write(&r, &two);
	assert_string_equal(buf_str(&one), buf_str(&two));
	/* Damage is refused with the line. */
	assert_int_equal(war_read(&r, "war-country X 12 castle - -\n", 28, &err), -1);
	assert_true(has(&err, "war line 1"));
	assert_int_equal(war_read(&r, "war-colour blue\n", 16, &err), -1);
	/* More points than a war can hold: refused, repayments stay in range. */
	buf_reset(&one);
	buf_printf(&one, "war-country A %lld nofort - -\nwar-country B %lld nofort - -\n",
	    WAR_MAX_TOTAL, WAR_MAX_TOTAL);
	assert_int_equal(war_read(&r, one.data, one.len, &err), -1);
	assert_true(has(&err, "not a possible war"));
	buf_free(&one);
	buf_free(&two);
	buf_free(&err);
}

/* A delegation sees its own total and loans, no other total; the public
 * view shows only announced figures; the game master sees everything. */
static void
test_secrecy(void **state)
{
	static const char *const totals[] = { "3000", "2500", "2000", "1900", "1800" };
	struct buf v;
	int c, i;

	(void)state;
	buf_init(&v, 1 << 16);
	five(1);
	OK(war_start(&w, &msg));
	for (c = 0; c < 5; c++) {
		buf_reset(&v);
		war_private(&w, c, &v);
		for (i = 0; i < 5; i++)
			assert_true(has(&v, totals[i]) == (i == c));
	}
	buf_reset(&v);
	war_public(&w, &v);
	for (i = 0; i < 5; i++)
		assert_false(has(&v, totals[i]));
	OK(war_attack(&w, A, E, 2000, &msg));
	OK(war_lend(&w, B, E, 500, &msg));
	buf_reset(&v);
	war_public(&w, &v);
	assert_true(has(&v, "Country-A attacks Country-E with 2000."));
	assert_false(has(&v, "1000"));		/* what A has left */
	assert_false(has(&v, "1800"));
	assert_false(has(&v, "500"));		/* loans are private */
	buf_reset(&v);
	war_private(&w, B, &v);
	assert_true(has(&v, "your total is 2000"));
	assert_true(has(&v, "You lend 500 to Country-E."));
	assert_false(has(&v, "1000"));
	buf_reset(&v);
	war_private(&w, E, &v);
	assert_true(has(&v, "Country-B lends you 500 in all."));
	assert_true(has(&v, "your total outside the battle is 1800"));
	buf_reset(&v);
	war_private(&w, C, &v);
	assert_false(has(&v, "500"));
	assert_false(has(&v, "Country-E"));
	buf_reset(&v);
	war_full(&w, &v);
	assert_true(has(&v, "Country-A: total 1000"));
	assert_true(has(&v, "  Country-B lends it 500."));
	buf_free(&v);
}

/* A side's line on the battle adds up: its figure, and, when loans came
 * after it, what it has in the battle as the sum of its parts. */
static void
test_battle_line(void **state)
{
	struct buf v;

	(void)state;
	buf_init(&v, 4096);
	five(1);
	OK(war_start(&w, &msg));
	OK(war_attack(&w, A, E, 2000, &msg));
	war_private(&w, A, &v);
	assert_true(has(&v, "In the battle: your figure is 2000, all of it your own points.\n"));
	OK(war_offer(&w, D, A, 300, &msg));
	buf_reset(&v);
	war_private(&w, A, &v);
	assert_true(has(&v, "In the battle: your figure is 2000. You have 2300 in the battle now: "
	    "2000 of your own points and 300 lent to you.\n"));
	OK(war_lend(&w, B, E, 500, &msg));
	OK(war_counter(&w, E, 2300, &msg));
	buf_reset(&v);
	war_private(&w, E, &v);
	assert_true(has(&v, "In the battle: your figure is 2300: 1800 of your own points and 500 "
	    "lent to you.\n"));
	buf_free(&v);
}

/* Words of a private view (a delegation's own lines, the game master's
 * copy) before figures that view alone may know: totals, loans, what is
 * owed and paid back. */
static const char *const private_words[] = {
	"your total", "You lend", "lends you", "you get", "pays you back", "You pay back",
	"loan of", "lent to you", "of your own points", "owed", ": total ", "lends it",
	"You offer", "offers you", "offer of", "offers it",
};

/* Words of the public record before a figure it announces: a figure named
 * in an attack or an answer, a figure fallen after a loan went back, a
 * round, the winner's total after a conquest or at the end. */
static const char *const public_words[] = {
	" with ", "more than ", "falls to ", "Round ", "its total is now ", "largest total, ",
};

/* Is the figure at p (in line) said after one of the public words, or a
 * count of countries opening the line? */
static bool
announced(const char *line, const char *p)
{
	size_t i, n;

	if (p == line && strstr(p, " countries share ") != NULL)
		return true;
	for (i = 0; i < sizeof public_words / sizeof public_words[0]; i++) {
		n = strlen(public_words[i]);
		if ((size_t)(p - line) >= n && strncmp(p - n, public_words[i], n) == 0)
			return true;
	}
	return false;
}

/* Where word is in the n characters at line, or NULL. */
static const char *
find(const char *line, size_t n, const char *word)
{
	size_t k = strlen(word), i;

	for (i = 0; i + k <= n; i++)
		if (strncmp(line + i, word, k) == 0)
			return line + i;
	return NULL;
}

/* Is figure (digits) among the whole figures of text? */
static bool
has_figure(const char *text, const char *figure, size_t n)
{
	const char *p;

	for (p = text; (p = strstr(p, figure)) != NULL; p++)
		if ((p == text || !isdigit((unsigned char)p[-1])) && !isdigit((unsigned char)p[n]))
			return true;
	return false;
}

/* Is the line at p (n characters) one of a private view (a line of
 * the judge's audit is not)? */
static bool
private_line(const char *p, size_t n)
{
	size_t i;

	if (strncmp(p, "AUDIT ", 6) == 0)
		return false;
	for (i = 0; i < sizeof private_words / sizeof private_words[0]; i++)
		if (find(p, n, private_words[i]))
			return true;
	return false;
}

/* Is the line at p (n characters) public: an event as the judge audits
 * it ("AUDIT war1: war: ..."), a line of the news every delegation reads
 * ("Game war1, the war:" and its indented lines), or of the public view
 * (from "Countries:" to the end of the mail) but its deadline? The event
 * into out. */
static bool
public_line(const char *p, size_t n, int *block, char *out, size_t size)
{
	const char *q;

	if (strncmp(p, "----------", 10) == 0 || n == 0) {
		if (n > 0 || *block == 1)
			*block = 0;
		return false;
	}
	if (strncmp(p, "Countries:", 10) == 0)
		*block = 2;
	else if (strncmp(p, "Game ", 5) == 0 && find(p, n, ", the war:") != NULL) {
		*block = 1;
		return false;
	}
	if (strncmp(p, "AUDIT ", 6) == 0 && (q = find(p, n, ": war: ")) != NULL) {
		snprintf(out, size, "%.*s", (int)(n - (size_t)(q + 7 - p)), q + 7);
		return true;
	}
	if (*block == 0 || strncmp(p, "Deadline for ", 13) == 0 || strncmp(p, "If ", 3) == 0 ||
	    strncmp(p, "(the first ", 11) == 0)
		return false;
	while (n > 0 && *p == ' ')
		p++, n--;
	snprintf(out, size, "%.*s", (int)n, p);
	return true;
}

/* Every public line of the war transcripts (the events as the judge
 * audits them, the news and the public view in every mail) holds no
 * figure but those the war announces; none of them is a figure a private
 * view showed (a total, a loan, a sum owed or paid back) without being
 * announced. */
static void
test_transcripts_public(void **state)
{
	glob_t gl;
	struct buf file, priv;
	size_t f, checked = 0;

	(void)state;
	assert_int_equal(glob("tests/data/transcripts/worldgame-*.out", 0, NULL, &gl), 0);
	assert_true(gl.gl_pathc >= 6);
	buf_init(&priv, 1 << 20);
	for (f = 0; f < gl.gl_pathc; f++) {
		char *line, *next, *p;
		size_t n;
		int block = 0, pass;

		buf_reset(&priv);
		test_read_file(gl.gl_pathv[f], &file);
		/* The private lines first: their figures, one line each. */
		for (line = file.data; line != NULL && *line; line = next) {
			next = strchr(line, '\n');
			n = next ? (size_t)(next - line) : strlen(line);
			if (private_line(line, n))
				buf_printf(&priv, "%.*s\n", (int)n, line);
			next = next ? next + 1 : NULL;
		}
		for (line = file.data; line != NULL && *line; line = next) {
			char event[WAR_EVENT_SIZE + 64];
			next = strchr(line, '\n');
			n = next ? (size_t)(next - line) : strlen(line);
			next = next ? next + 1 : NULL;
			if (!public_line(line, n, &block, event, sizeof event) ||
			    private_line(line, n))
				continue;
			checked++;
			/* First a figure a private view showed, then any other. */
			for (pass = 0; pass < 2; pass++)
				for (p = event; *p; p++) {
					char figure[32];
					size_t k;

					if (!isdigit((unsigned char)*p) ||
					    (p > event && isdigit((unsigned char)p[-1])) || announced(event, p))
						continue;
					for (k = 0; isdigit((unsigned char)p[k]) && k < sizeof figure - 1; k++)
						figure[k] = p[k];
					figure[k] = '\0';
					if (pass == 0 && has_figure(priv.data, figure, k))
						fail_msg("%s: the public line \"%s\" shows %s, a figure of "
						    "a private view", gl.gl_pathv[f], event, figure);
					if (pass == 1)
						fail_msg("%s: the public line \"%s\" shows %s, which the "
						    "war does not announce", gl.gl_pathv[f], event, figure);
				}
		}
		buf_free(&file);
	}
	assert_true(checked > 1000);
	buf_free(&priv);
	globfree(&gl);
}

/* A count of one is said in the singular: "1 point", never "1 points";
 * 0 and 2 in the plural. */
static void
test_one_point(void **state)
{
	(void)state;
	war_init(&w);
	A = add("Country-A", 1, false);
	assert_string_equal(buf_str(&msg), "Country-A joins the war with 1 point.\n");
	B = add("Country-B", 3, false);
	assert_string_equal(buf_str(&msg), "Country-B joins the war with 3 points.\n");
	C = add("Country-C", 3, false);
	D = add("Country-D", 2, false);
	sign(B, D, 1, 1);
	OK(war_start(&w, &msg));
	NO(war_attack(&w, A, B, 2, &msg), "you have only 1 point\n");
	OK(war_attack(&w, A, B, 1, &msg));
	assert_true(has(&msg, "your 1 point goes to it. Your total is now 0."));
	assert_int_equal(w.call, B);
	OK(war_attack(&w, B, C, 4, &msg));
	NO(war_lend(&w, D, B, 3, &msg), "you have only 2 points\n");
	OK(war_lend(&w, D, B, 1, &msg));
	NO(war_lend(&w, D, B, 2, &msg), "you have only 1 point\n");
	OK(war_lend(&w, D, B, 1, &msg));
	NO(war_lend(&w, D, B, 1, &msg), "you have only 0 points\n");
}

/* Commands as pupils write them, read or refused. */
static void
test_commands(void **state)
{
	static const struct {
		const char *line;
		int r;
		enum war_verb verb;
		const char *country;
		long long points;
		int repay, per;
		const char *words;	/* in the note or the reason; NULL: no note */
	} cases[] = {
		{ "ATTACK Country-E WITH 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0, NULL },
		{ "attack country e 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0, NULL },
		{ "Attack COUNTRYE with 2,000 points.", 0, WAR_ATTACK, "Country-E", 2000, 0, 0,
		    "'COUNTRYE' read as Country-E" },
		{ "Attack country e with 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0, NULL },
		{ "we attack e with 3600", 0, WAR_ATTACK, "Country-E", 3600, 0, 0,
		    "'e' read as Country-E" },
		{ "attack c with 100", 0, WAR_ATTACK, "Country-C", 100, 0, 0,
		    "'c' read as Country-C" },
		{ "ally cntry-b terms 2 for 1 ok?", 0, WAR_ALLY, "Country-B", 0, 2, 1,
		    "'cntry-b' read as Country-B" },
		{ "lend 1101 to country-e pls win this!!", 0, WAR_LEND, "Country-E", 1101, 0, 0,
		    "'win this' ignored" },
		{ "offer 300 to country-a please", 0, WAR_OFFER, "Country-A", 300, 0, 0, NULL },
		{ "lend 500 to country-e and country-b", -1, 0, NULL, 0, 0, 0,
		    "names two countries" },
		{ "traitors!!! ok we surrender", 0, WAR_YIELD, NULL, 0, 0, 0,
		    "'traitors!!! ok we' ignored" },
		{ "ok we pass", 0, WAR_PASS, NULL, 0, 0, 0, NULL },
		{ "we will not surrender", -1, 0, NULL, 0, 0, 0, "two meanings" },
		{ "maybe we should attack e with 2000", -1, 0, NULL, 0, 0, 0,
		    "has a 'maybe' before the command: two meanings" },
		{ "so now we attack e with 2000 or pass", -1, 0, NULL, 0, 0, 0,
		    "names two commands" },
		{ "thanks for the offer", -1, 0, NULL, 0, 0, 0, "which country" },
		{ "ATACK Country-E WITH 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0,
		    "'ATACK' read as attack" },
		{ "att country-e 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0,
		    "'att' read as attack" },
		{ "Count 2300", 0, WAR_COUNTER, NULL, 2300, 0, 0, "'Count' read as counter" },
		{ "withd loan", 0, WAR_WITHDRAW, NULL, 0, 0, 0, "'withd' read as withdraw" },
		{ "attack contry-e with 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0,
		    "read as Country-E" },
		{ "attack country with 2000", -1, 0, NULL, 0, 0, 0,
		    "could be Country-A, Country-B" },
		{ "attack Atlantis with 2000", -1, 0, NULL, 0, 0, 0, "the countries are" },
		{ "attack Country-Z with 2000", -1, 0, NULL, 0, 0, 0, "could be Country-A" },
		{ "attack Country-E with 2,00", -1, 0, NULL, 0, 0, 0, "cannot read '2,00'" },
		{ "attack Country-E with 20000000", -1, 0, NULL, 0, 0, 0, "cannot read" },
		{ "ATTACK 2000", -1, 0, NULL, 0, 0, 0, "which country" },
		{ "ATTACK Country-E", -1, 0, NULL, 0, 0, 0, "how many points" },
		{ "PASS", 0, WAR_PASS, NULL, 0, 0, 0, NULL },
		{ "pass.", 0, WAR_PASS, NULL, 0, 0, 0, NULL },
		{ "PAS", 0, WAR_PASS, NULL, 0, 0, 0, "read as pass" },
		{ "pass this round", 0, WAR_PASS, NULL, 0, 0, 0, "'this round' ignored" },
		{ "LEND 500 TO Country-E", 0, WAR_LEND, "Country-E", 500, 0, 0, NULL },
		{ "lend 1,201 points to country-e", 0, WAR_LEND, "Country-E", 1201, 0, 0, NULL },
		{ "LOAN Country-E 500", 0, WAR_LEND, "Country-E", 500, 0, 0, NULL },
		{ "LEND 500 TO", -1, 0, NULL, 0, 0, 0, "which country" },
		{ "WITHDRAW LOAN", 0, WAR_WITHDRAW, NULL, 0, 0, 0, NULL },
		{ "withdraw", 0, WAR_WITHDRAW, NULL, 0, 0, 0, NULL },
		{ "COUNTER 2300", 0, WAR_COUNTER, NULL, 2300, 0, 0, NULL },
		{ "counter-attack with 2,300", 0, WAR_COUNTER, NULL, 2300, 0, 0, NULL },
		{ "countr 3001", 0, WAR_COUNTER, NULL, 3001, 0, 0, "read as counter" },
		{ "COUNTER", -1, 0, NULL, 0, 0, 0, "how many points" },
		{ "ALLY Country-B TERMS 2 FOR 1", 0, WAR_ALLY, "Country-B", 0, 2, 1, NULL },
		{ "ALLY Country-B", 0, WAR_ALLY, "Country-B", 0, 1, 1, NULL },
		{ "alliance with country b 3 for 2", 0, WAR_ALLY, "Country-B", 0, 3, 2, NULL },
		{ "ALLY Country-B TERMS 2", -1, 0, NULL, 0, 0, 0, "which points" },
		{ "YIELD", 0, WAR_YIELD, NULL, 0, 0, 0, NULL },
		{ "Surrender!", 0, WAR_YIELD, NULL, 0, 0, 0, NULL },
		{ "we attack Country-E with 2000", 0, WAR_ATTACK, "Country-E", 2000, 0, 0, NULL },
		{ "We pass", 0, WAR_PASS, NULL, 0, 0, 0, NULL },
		{ "I yield", 0, WAR_YIELD, NULL, 0, 0, 0, NULL },
		{ "we", -1, 0, NULL, 0, 0, 0, "empty" },
		{ "XYZZY", -1, 0, NULL, 0, 0, 0, "not a command of the war" },
		{ "", -1, 0, NULL, 0, 0, 0, "empty" },
	};
	struct war_cmd cmd;
	size_t i;
	int r;

	(void)state;
	five(1);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&msg);
		r = war_read_command(&w, cases[i].line, strlen(cases[i].line), &cmd, &msg);
		if (r != cases[i].r)
			fail_msg("'%s': %d (%s)", cases[i].line, r, buf_str(&msg));
		if (cases[i].words == NULL && msg.len > 0)
			fail_msg("'%s': a note '%s'", cases[i].line, buf_str(&msg));
		else if (cases[i].words != NULL && !has(&msg, cases[i].words))
			fail_msg("'%s': '%s' lacks '%s'", cases[i].line, buf_str(&msg),
			    cases[i].words);
		/* A command read is also a line the war takes for one. */
		if (r == 0 && !war_names_verb(cases[i].line, strlen(cases[i].line)))
			fail_msg("'%s' is read, but not taken for a command", cases[i].line);
		if (r < 0)
			continue;
		assert_int_equal(cmd.verb, cases[i].verb);
		assert_int_equal(cmd.country, cases[i].country ? war_find(&w, cases[i].country) : -1);
		assert_int_equal(cmd.points, cases[i].points);
		if (cmd.verb == WAR_ALLY) {
			assert_int_equal(cmd.repay, cases[i].repay);
			assert_int_equal(cmd.per, cases[i].per);
		}
	}
}

/* Names matched by a unique beginning or a near spelling. */
static void
test_names(void **state)
{
	(void)state;
	war_init(&w);
	A = add("Atlantis", 100, false);
	B = add("Borduria", 100, false);
	C = add("Syldavia", 100, false);
	D = add("Sylvania", 100, false);
	E = add("United-States", 100, false);
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "bord", 4, &msg), B);
	assert_true(has(&msg, "'bord' read as Borduria"));
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "united states", 13, &msg), E);
	assert_int_equal(msg.len, 0);
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "sildavia", 8, &msg), C);
	assert_true(has(&msg, "read as Syldavia"));
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "syl", 3, &msg), -1);
	assert_true(has(&msg, "'syl' could be Syldavia or Sylvania: write more of the name"));
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "Atlantic", 8, &msg), A);
	buf_reset(&msg);
	assert_int_equal(war_match_country(&w, "Atlantean", 9, &msg), -1);
	assert_true(has(&msg, "did you mean Atlantis?"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_ending_one),
		cmocka_unit_test(test_seed_ending_two),
		cmocka_unit_test(test_repayment_short),
		cmocka_unit_test(test_alliance_terms),
		cmocka_unit_test(test_forfeit),
		cmocka_unit_test(test_withdraw),
		cmocka_unit_test(test_ally_attacks_ally),
		cmocka_unit_test(test_betrayal),
		cmocka_unit_test(test_offer),
		cmocka_unit_test(test_battle_line),
		cmocka_unit_test(test_fort),
		cmocka_unit_test(test_round_of_passes),
		cmocka_unit_test(test_six_to_one),
		cmocka_unit_test(test_round_announced_once),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_secrecy),
		cmocka_unit_test(test_transcripts_public),
		cmocka_unit_test(test_one_point),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
