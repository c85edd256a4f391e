/*
 * test_reasons.c — the reason of each failed order and dislodged unit
 * (adj_resolve_why, judge/engine/adjudicate.h) in the words of report_why
 * (judge/engine/report.h). Each case is a small position whose outcome the
 * rules settle by hand; the expected line is written here from the rules
 * (the strengths counted by hand), not taken from the program.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/report.h"
#include "../../judge/engine/resolver.h"
#include "../../parser/names.h"
#include "../../parser/orders.h"

static struct phase_result res;
static struct phase_why why;
static bool successes;	/* the full account's lines of the moves that won too */

/*
 * Resolve orders (NULL-terminated) on the position text of map m (rules of
 * 2023, and the map's own resolver) and return every reason line as
 * "prov: reason\n", units in board order (of a retreat phase, its dislodged
 * units); each unit's reason must fit its result (adj_why_check). The text
 * is static.
 */
static const char *
reasons_on(const struct map *m, const char *position, const char *const *lines)
{
	static char text[4096];
	struct order o[32];
	struct names *nm = names_new(m);
	struct rules r;
	struct board b, plain;
	struct buf err, out;
	int n = 0, u;

	rules_init(&r, EDITION_2023);
	r.resolver = resolver_for(m);
	buf_init(&err, 4096);
	if (board_read(&b, m, position, strlen(position), &err) < 0)
		fail_msg("board_read: %s", buf_str(&err));
	buf_free(&err);
	plain = b;
	board_plain(&plain);	/* as the parser reads a board with armies on board */
	for (; *lines; lines++) {
		struct parse_ctx c = { m, nm, &plain, POWER_NONE };
		struct parse_result pr;
		order_parse(&c, *lines, strlen(*lines), &pr);
		if (pr.verdict != VERDICT_ACCEPTED)
			fail_msg("cannot read \"%s\": %s", *lines, pr.note);
		o[n++] = pr.order;
	}
	adj_resolve_why(m, &r, &b, NULL, o, n, &res, &why);
	assert_int_equal(adj_why_check(&res, &why), -1);
	why.successes = successes;
	buf_init(&out, sizeof text);
	for (u = 0; u < res.nunits; u++) {
		size_t mark = out.len;
		buf_printf(&out, "%s: ", m->locs[b.phase == PHASE_RETREAT ? b.dislodged[u].unit.loc :
									    b.units[u].loc].name);
		if (report_why(m, &b, o, &res, &why, u, &out))
			buf_putc(&out, '\n');
		else
			buf_truncate(&out, mark);
	}
	snprintf(text, sizeof text, "%s", buf_str(&out));
	buf_free(&out);
	names_free(nm);
	return text;
}

static const char *
reasons(const char *position, const char *const *lines)
{
	return reasons_on(test_standard_map(), position, lines);
}

#define SPRING "phase Spring 1901 Movement\n"

/* Two moves into an empty province: each is stood off by the other, 1
 * against 1. */
static void
test_standoff(void **state)
{
	static const char *const o[] = { "A vie - gal", "A war - gal", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Austria A vie\nunit Russia A war\n", o),
	    "vie: bounced: the Russian army in Warsaw also moved to Galicia: "
	    "equal strength, 1 against 1\n"
	    "war: bounced: the Austrian army in Vienna also moved to Galicia: "
	    "equal strength, 1 against 1\n");
}

/* Kiel attacks Ruhr: Ruhr's support is cut, so Burgundy (1) bounces off
 * Munich (1) and Kiel off Ruhr (1); Venice with Tyrolia's support (2)
 * dislodges Trieste (1). */
static void
test_cut_bounce_dislodged(void **state)
{
	static const char *const o[] = { "A kie - ruh", "A ruh S A bur - mun", "A bur - mun",
		"A mun H", "A ven - tri", "A tyr S A ven - tri", "F tri H", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Austria F tri\nunit France A bur\n"
					   "unit France A ruh\nunit Germany A mun\nunit Germany A kie\n"
					   "unit Italy A ven\nunit Italy A tyr\n", o),
	    "bur: bounced: the German army in Munich stayed there: equal strength, 1 against 1\n"
	    "kie: bounced: the French army in Ruhr stayed there: equal strength, 1 against 1\n"
	    "ruh: support cut: attacked by the German army in Kiel\n"
	    "tri: dislodged by the Italian army in Venice, supported by the Italian army in "
	    "Tyrolia, 2 against 1\n");
}

/* Berlin and Munich swap without a convoy: head to head, 1 against 1. */
static void
test_head_to_head(void **state)
{
	static const char *const o[] = { "A ber - mun", "A mun - ber", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Germany A ber\nunit France A mun\n", o),
	    "ber: bounced: the French army in Munich moved the other way, head to head: "
	    "equal strength, 1 against 1\n"
	    "mun: bounced: the German army in Berlin moved the other way, head to head: "
	    "equal strength, 1 against 1\n");
}

/* A unit whose own move failed defends with 1: Berlin and Warsaw stand
 * each other off in Prussia, so Silesia's move into Berlin alone (1) does
 * not beat it. But when another move into the province would have stood
 * the move off anyway, that one is named (DATC 6.C.7): Burgundy, kept out
 * of Belgium by its own army there, which could not leave, would have
 * bounced off London's army coming by sea. */
static void
test_could_not_leave(void **state)
{
	static const char *const o[] = { "A ber - pru", "A war - pru", "A sil - ber", NULL };
	static const char *const swap[] = { "F nth C A lon - bel", "A lon - bel",
		"F eng C A bel - lon", "A bel - lon", "A bur - bel", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Germany A ber\nunit Russia A war\n"
					   "unit Russia A sil\n", o),
	    "ber: bounced: the Russian army in Warsaw also moved to Prussia: "
	    "equal strength, 1 against 1\n"
	    "sil: bounced: the German army in Berlin could not leave: equal strength, 1 against 1\n"
	    "war: bounced: the German army in Berlin also moved to Prussia: "
	    "equal strength, 1 against 1\n");
	assert_string_equal(reasons(SPRING "unit England F nth\nunit England A lon\n"
					   "unit France F eng\nunit France A bel\nunit France A bur\n",
			swap),
	    "bel: bounced: the English army in London could not leave: "
	    "equal strength, 1 against 1\n"
	    "bur: bounced: the English army in London also moved to Belgium: "
	    "equal strength, 1 against 1\n"
	    "lon: bounced: the French army in Burgundy also moved to Belgium: "
	    "equal strength, 1 against 1\n");
}

/* Another power's support does not help dislodge its own unit (DATC
 * 6.D.12): the line says so. */
static void
test_support_not_counted(void **state)
{
	static const char *const o[] = { "F tri H", "A vie S A ven - tri", "A ven - tri", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Austria F tri\nunit Austria A vie\n"
					   "unit Italy A ven\n", o),
	    "ven: bounced: the Austrian fleet in Trieste stayed there: "
	    "equal strength, 1 against 1; the support "
	    "of the Austrian army in Vienna does not count against a unit of its own power\n");
}

/* A power does not dislodge its own unit, whatever the support. */
static void
test_own_unit(void **state)
{
	static const char *const o[] = { "A vie - bud", "A gal S A vie - bud", "A bud H", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Austria A vie\nunit Austria A gal\n"
					   "unit Austria A bud\n", o),
	    "vie: failed: the Austrian army in Budapest stayed there, and a power does not "
	    "dislodge its own unit\n");
}

/* A move into a province its own unit holds, stood off by a stronger
 * move of another power that dislodges that unit: the line names the
 * stronger move, not the unit that was dislodged as if it stayed. */
static void
test_own_unit_outbid(void **state)
{
	static const char *const o[] = { "A tyr - ven", "F tri S A tyr - ven", "A ven H",
		"A apu - ven", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Austria A tyr\nunit Austria F tri\n"
					   "unit Italy A ven\nunit Italy A apu\n", o),
	    "apu: bounced: the Austrian army in Tyrolia also moved to Venice and was stronger, "
	    "2 against 1\n"
	    "ven: dislodged by the Austrian army in Tyrolia, supported by the Austrian fleet in "
	    "Trieste, 2 against 1\n");
}

/* A support that matches no order counts for nothing: Gascony supports
 * Burgundy to Marseilles while Burgundy holds (Paris's support of it
 * holding is given); Brest supports Picardy holding while Picardy moves. */
static void
test_void(void **state)
{
	static const char *const o[] = { "A gas S A bur - mar", "A bur H", "F bre S A pic",
		"A pic - bel", "A par S A bur", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit France A par\nunit France A bur\n"
					   "unit France F bre\nunit France A pic\nunit France A gas\n", o),
	    "bre: support void: the French army in Picardy was ordered to move to Belgium, "
	    "not to hold\n"
	    "gas: support void: the French army in Burgundy was not ordered to move to "
	    "Marseilles\n");
}

/* Attacked from where it supports a move into, a support is cut only
 * when the attack dislodges it: Berlin (2, with Silesia) dislodges Munich
 * (1), whose support of Kiel to Berlin is cut by it. */
static void
test_cut_by_dislodgement(void **state)
{
	static const char *const o[] = { "A mun S F kie - ber", "F kie - ber", "A ber - mun",
		"A sil S A ber - mun", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit Germany A mun\nunit Germany F kie\n"
					   "unit Russia A ber\nunit Russia A sil\n", o),
	    "mun: support cut: dislodged by the Russian army in Berlin, supported by the "
	    "Russian army in Silesia, 2 against 1\n");
}

/* The fleet carrying London to Picardy is dislodged (2 against 1): the
 * army has no convoy. */
static void
test_convoy_broken(void **state)
{
	static const char *const o[] = { "F eng C A lon - pic", "A lon - pic", "F mao - eng",
		"F bre S F mao - eng", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit England F eng\nunit England A lon\n"
					   "unit France F mao\nunit France F bre\n", o),
	    "eng: dislodged by the French fleet in the Mid-Atlantic Ocean, supported by the "
	    "French fleet in Brest, 2 against 1\n"
	    "lon: no convoy: the English fleet in the English Channel was dislodged by the "
	    "French fleet in the Mid-Atlantic Ocean\n");
}

/* A move by sea that no fleet was ordered to carry. */
static void
test_no_route(void **state)
{
	static const char *const o[] = { "A lon - bel", "F nth H", NULL };

	(void)state;
	assert_string_equal(reasons(SPRING "unit England A lon\nunit England F nth\n", o),
	    "lon: no convoy: no fleets were ordered to carry it all the way\n");
}

/* The full account (EXPLAIN) tells of the moves that won against
 * anything in their way too: Paris with Marseilles' support (2) past
 * Munich's move (1), Kiel (1) into Holland left empty; the results alone
 * do not. */
static void
test_moved(void **state)
{
	static const char *const o[] = { "A par - bur", "A mar S A par - bur", "A mun - bur",
		"A kie - hol", "F bel - hol", "A hol - ruh", NULL };
	static const char *const pos = SPRING "unit France A par\nunit France A mar\n"
					      "unit Germany A mun\nunit Germany A kie\n"
					      "unit England F bel\nunit England A hol\n";

	(void)state;
	assert_string_equal(reasons(pos, o),
	    "bel: bounced: the German army in Kiel also moved to Holland: "
	    "equal strength, 1 against 1\n"
	    "kie: bounced: the English fleet in Belgium also moved to Holland: "
	    "equal strength, 1 against 1\n"
	    "mun: bounced: the French army in Paris also moved to Burgundy and was stronger, "
	    "2 against 1\n");
	successes = true;
	assert_string_equal(reasons(pos, o),
	    "bel: bounced: the German army in Kiel also moved to Holland: "
	    "equal strength, 1 against 1\n"
	    "kie: bounced: the English fleet in Belgium also moved to Holland: "
	    "equal strength, 1 against 1\n"
	    "mun: bounced: the French army in Paris also moved to Burgundy and was stronger, "
	    "2 against 1\n"
	    "par: moved: 2 against 1, the German army in Munich also moving there\n");
	successes = false;
}

#define RETREAT "phase Spring 1901 Retreat\n"

/* Retreats: Sevastopol and Ankara both retreat to Armenia and are both
 * destroyed; Rumania had no retreat ordered, Greece one it could not carry
 * out (Bulgaria is occupied): both are destroyed too; Smyrna retreats. */
static void
test_retreat(void **state)
{
	static const char *const o[] = { "F sev - arm", "F ank - arm", "A gre - bul",
		"A smy - syr", NULL };

	(void)state;
	assert_string_equal(reasons(RETREAT "unit Turkey A bul\n"
					    "dislodged Russia F sev from rum\n"
					    "dislodged Turkey F ank from bla\n"
					    "dislodged Austria A rum from ser\n"
					    "dislodged Italy A gre from ion\n"
					    "dislodged Turkey A smy from aeg\n", o),
	    "ank: destroyed: the Russian fleet in Sevastopol also retreated to Armenia\n"
	    "gre: destroyed: the retreat ordered for it could not be carried out\n"
	    "rum: destroyed: no retreat was ordered for it\n"
	    "sev: destroyed: the Turkish fleet in Ankara also retreated to Armenia\n");
	assert_int_equal(res.nunits, 5);	/* and Smyrna's retreat, the last, carried out */
	assert_int_equal(res.unit_reason[4], R_OK);
}

/*
 * The refusal of order line, sent by Germany on the position text (the
 * parser's note when it refuses, else the judge's check, adj_check, in the
 * words of report_refusal; "" when the order is legal). The text is static.
 */
static const char *
german_refusal(const char *position, const char *line)
{
	static char text[512];
	const struct map *m = test_standard_map();
	struct names *nm = names_new(m);
	struct rules r;
	struct board b;
	struct buf err, out;
	struct parse_result pr;
	enum reason rc;

	rules_init(&r, EDITION_2023);
	buf_init(&err, 4096);
	if (board_read(&b, m, position, strlen(position), &err) < 0)
		fail_msg("board_read: %s", buf_str(&err));
	buf_free(&err);
	{
		struct parse_ctx c = { m, nm, &b, map_find_power(m, "Germany") };
		order_parse(&c, line, strlen(line), &pr);
	}
	names_free(nm);
	if (pr.verdict == VERDICT_REFUSED) {
		snprintf(text, sizeof text, "parser: %s", pr.note);
		return text;
	}
	rc = adj_check(m, &r, &b, &pr.order);
	buf_init(&out, sizeof text);
	if (rc != R_OK)
		report_refusal(m, &b, &pr.order, rc, &out);
	snprintf(text, sizeof text, "%s", buf_str(&out));
	buf_free(&out);
	return text;
}

/* In a retreat phase only dislodged units are ordered: an order to one of
 * Germany's units that stands undislodged names that unit, also where
 * another power's unit was dislodged from the same province (France's army
 * from Munich, England's fleet from the North Sea), and says when Germany
 * has no unit to retreat at all. */
static void
test_not_dislodged(void **state)
{
	static const char *const lines[] = { "A Mun H", "A Mun R Tyr", "A Mun - Boh", "F Nth H",
		"F Nth R Ska", "F Nth - Edi", "A Ber H", "A Ber - Pru" };
	static const char *const said[] = { "your army in Munich", "your army in Munich",
		"your army in Munich", "your fleet in the North Sea", "your fleet in the North Sea",
		"your fleet in the North Sea", "your army in Berlin", "your army in Berlin" };
	static const char pos[] = RETREAT "unit Germany A mun\ndislodged France A mun from bur\n"
				       "unit Germany F nth\ndislodged England F nth from hel\n"
				       "unit Germany A ber\n";
	char want[256], more[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		snprintf(want, sizeof want, "%s is not dislodged: only dislodged units retreat or "
		    "disband now, and you have no units to retreat", said[i]);
		assert_string_equal(german_refusal(pos, lines[i]), want);
	}
	/* Germany has a unit to retreat (from Silesia): that one it orders. */
	snprintf(more, sizeof more, "%sdislodged Germany A sil from boh\n", pos);
	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		snprintf(want, sizeof want, "%s is not dislodged: only dislodged units retreat or "
		    "disband now", said[i]);
		assert_string_equal(german_refusal(more, lines[i]), want);
	}
	assert_string_equal(german_refusal(more, "A Sil R Pru"), "");
	assert_string_equal(german_refusal(more, "A Sil H"),
	    "parser: a dislodged unit must retreat or disband: \"A sil - ...\" or \"A sil D\"");
}

/* Realpolitik: an army does not join an army of its power outside its
 * capitals, nor a fleet anywhere; a landing fails when the fleet does not
 * get away. */
static void
test_realpolitik(void **state)
{
	static const char *const stack[] = { "A gas - mar", "A mar H", "A pic - bre", "F bre H",
		NULL };
	static const char *const land[] = { "F bel - nth", "F edi - nth", "A bel lands", NULL };
	struct map *m = test_load_map("maps/realpolitik/variant.xml");

	(void)state;
	assert_non_null(m);
	assert_string_equal(reasons_on(m, SPRING "unit France A gas\nunit France A mar\n"
					      "unit France A pic\nunit France F bre\n", stack),
	    "gas: failed: the French army in Marseilles stays there, and armies share a "
	    "province only in their own capital\n"
	    "pic: failed: the French fleet in Brest stays there, and an army and a fleet do "
	    "not share a province\n");
	assert_string_equal(reasons_on(m, SPRING "unit England F bel\nunit England A bel aboard\n"
					      "unit England F edi\n", land),
	    "bel: bounced: the English fleet in Edinburgh also moved to the North Sea: "
	    "equal strength, 1 against 1\n"
	    "bel: did not land: the English fleet in Belgium did not get away, so the army "
	    "stays on board\n"
	    "edi: bounced: the English fleet in Belgium also moved to the North Sea: "
	    "equal strength, 1 against 1\n");
	map_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_standoff),
		cmocka_unit_test(test_cut_bounce_dislodged),
		cmocka_unit_test(test_head_to_head),
		cmocka_unit_test(test_could_not_leave),
		cmocka_unit_test(test_support_not_counted),
		cmocka_unit_test(test_own_unit),
		cmocka_unit_test(test_own_unit_outbid),
		cmocka_unit_test(test_void),
		cmocka_unit_test(test_cut_by_dislodgement),
		cmocka_unit_test(test_convoy_broken),
		cmocka_unit_test(test_no_route),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_retreat),
		cmocka_unit_test(test_not_dislodged),
		cmocka_unit_test(test_realpolitik),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
