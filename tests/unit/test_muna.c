/*
 * test_muna.c — the MUNA rules (judge/engine/muna_rules.h) on the standard board with
 * the variant's options on: insurrection orders in the adjudicator, the
 * season's insurrections and revivals, victory points, conferences.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../judge/engine/adjudicate.h"
#include "../../judge/game.h"
#include "../../judge/systems/muna_state.h"
#include "../../judge/systems/systems.h"
#include "../../judge/engine/muna_rules.h"
#include "../../judge/engine/resolver.h"
#include "../../parser/orders.h"

static struct map *m;
static struct names *nm;
static struct rules rules;
static struct phase_result res;

static int
setup(void **state)
{
	(void)state;
	m = test_load_standard_map();
	map_set_option(m, "insurrection", "yes");
	map_set_option(m, "victory-points", "yes");
	map_set_option(m, "control-bonus", "18");
	nm = names_new(m);
	rules_init(&rules, EDITION_2023);
	rules.caps = map_caps(m);
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

static power_id
pw(const char *name)
{
	return map_find_power(m, name);
}

static prov_id
pr(const char *name)
{
	return map_find_province(m, name);
}

/* A board from its text form (judge/engine/board.h). */
static void
board_from(struct board *b, const char *text)
{
	struct buf err;

	buf_init(&err, 4096);
	if (board_read(b, m, text, strlen(text), &err) < 0)
		fail_msg("bad board: %s", buf_str(&err));
	buf_free(&err);
}

/* Parse "Power: order" for b; a revival's list goes to prefs. */
static struct order
order_for(const struct board *b, const char *line, struct order_prefs *prefs)
{
	struct parse_ctx c = { m, nm, b, POWER_NONE };
	struct parse_result r;

	order_parse(&c, line, strlen(line), &r);
	if (r.verdict == VERDICT_REFUSED)
		fail_msg("cannot read \"%s\": %s", line, r.note);
	if (prefs)
		*prefs = r.prefs;
	return r.order;
}

/*
 * Russia has lost everything: its centres are German and Austrian. England
 * has fleets at sea; Germany an army in Moscow and one in Warsaw.
 */
static const char russia_gone[] =
    "phase Spring 1902 Movement\n"
    "unit England F nth\nunit England F nwg\nunit England F bar\nunit England A yor\n"
    "unit Germany A mos\nunit Germany A war\nunit Germany A ber\n"
    "unit Austria A ukr\nunit Austria A gal\nunit Turkey A arm\n"
    "owner Germany mos\nowner Germany war\nowner Germany stp\nowner Austria sev\n"
    "owner Germany ber\n";

/* Resolve the movement orders lines on b, take the season, end it. */
static void
play_season(struct board *b, const char *const *lines, struct muna_season *s,
    struct muna_result *out)
{
	struct order o[32];
	struct order_prefs prefs, revival[MAP_MAX_POWERS];
	int n = 0;

	memset(revival, 0, sizeof revival);
	for (; *lines; lines++) {
		o[n] = order_for(b, *lines, &prefs);
		if (o[n].kind == ORDER_REVIVE)
			revival[o[n].power] = prefs;
		n++;
	}
	adj_resolve(m, &rules, b, o, n, &res, NULL);
	muna_season_take(m, b, o, n, &res, revival, s);
	*b = res.after;
	adj_disband_stranded(m, b);
	muna_resolve(m, b, s, out);
}

static void
test_orders_in_the_adjudicator(void **state)
{
	struct board b;
	struct order o[4];

	(void)state;
	board_from(&b, russia_gone);
	/* An insurrection order holds: it can be supported, and dislodged. */
	o[0] = order_for(&b, "England: F nwg - Russia", NULL);
	o[1] = order_for(&b, "England: F bar S F nwg", NULL);
	o[2] = order_for(&b, "Germany: A war - Russia", NULL);
	o[3] = order_for(&b, "Turkey: A arm - Russia", NULL);
	assert_int_equal(o[0].kind, ORDER_INSURRECTION);
	assert_int_equal(adj_check(m, &rules, &b, &o[0]), R_OK);
	adj_resolve(m, &rules, &b, o, 4, &res, NULL);
	assert_int_equal(res.reason[0], R_OK);
	assert_int_equal(res.reason[1], R_OK);	/* support to hold matches */
	assert_int_equal(res.reason[2], R_OK);
	assert_int_equal(res.reason[3], R_OK);
	assert_int_equal(res.after.nunits, b.nunits);	/* nobody leaves yet */

	/* Only for a power with nothing left. */
	o[0] = order_for(&b, "England: F nwg - Turkey", NULL);
	assert_int_equal(adj_check(m, &rules, &b, &o[0]), R_NOT_ELIMINATED);
	adj_resolve(m, &rules, &b, o, 1, &res, NULL);
	assert_int_equal(res.reason[0], R_NOT_ELIMINATED);
	assert_true(reason_is_illegal(R_NOT_ELIMINATED));

	/* Without the rule option the standard rules refuse it. */
	{
		struct rules plain;
		rules_init(&plain, EDITION_2023);
		o[0] = order_for(&b, "England: F nwg - Russia", NULL);
		assert_int_equal(adj_check(m, &plain, &b, &o[0]), R_WRONG_PHASE);
	}
}

static void
test_revival_order_checks(void **state)
{
	struct board b;
	struct order_prefs p;
	struct order o;

	(void)state;
	board_from(&b, russia_gone);
	o = order_for(&b, "Russia: Revive: Moscow, Warsaw, St Petersburg", &p);
	assert_int_equal(o.kind, ORDER_REVIVE);
	assert_int_equal(muna_check_revival(m, &b, pw("Russia"), &p), R_OK);
	assert_int_equal(adj_check(m, &rules, &b, &o), R_OK);
	/* Without an order of preference among three: not valid. */
	order_for(&b, "Russia: Revive: Moscow, Warsaw", &p);
	assert_int_equal(muna_check_revival(m, &b, pw("Russia"), &p), R_FEW_CENTRES);
	order_for(&b, "Russia: Revive: Moscow, Warsaw, Berlin", &p);
	assert_int_equal(muna_check_revival(m, &b, pw("Russia"), &p), R_NOT_HOME);
	/* A power still in the game has nothing to revive. */
	order_for(&b, "Russia: Revive: Moscow, Warsaw, St Petersburg", &p);
	assert_int_equal(muna_check_revival(m, &b, pw("Germany"), &p), R_NOT_ELIMINATED);
	b.phase = PHASE_RETREAT;
	b.season = SEASON_SPRING;
	assert_int_equal(muna_check_revival(m, &b, pw("Russia"), &p), R_WRONG_PHASE);
}

/* Three units: three centres, by preference; a unit sent from a centre
 * frees it; two units earn their power a point. */
static void
test_three_units_three_centres(void **state)
{
	static const char *const orders[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"Germany: A mos - Russia", "Russia: Revive: Warsaw, Moscow, St Petersburg, Sevastopol",
		NULL };
	struct board b;
	struct muna_season s;
	struct muna_result r;
	struct buf text;

	(void)state;
	board_from(&b, russia_gone);
	play_season(&b, orders, &s, &r);
	assert_int_equal(s.n, 3);
	assert_int_equal(r.ndisbanded, 3);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.r[0].target, pw("Russia"));
	assert_int_equal(r.r[0].outcome, MUNA_REVIVED);
	assert_int_equal(r.r[0].nunits, 3);
	/* Warsaw is occupied (German army): three units cannot take it. */
	assert_int_equal(r.r[0].nregained, 3);
	assert_int_equal(r.r[0].regained[0], pr("mos"));
	assert_int_equal(r.r[0].regained[1], pr("stp"));
	assert_int_equal(r.r[0].regained[2], pr("sev"));
	assert_int_equal(r.r[0].nskipped, 1);
	assert_int_equal(r.r[0].skipped[0], pr("war"));
	assert_int_equal(r.r[0].ndestroyed, 0);
	assert_int_equal(b.owner[pr("mos")], pw("Russia"));
	assert_int_equal(b.owner[pr("sev")], pw("Russia"));
	assert_int_equal(b.owner[pr("war")], pw("Germany"));
	/* "... and build a unit there": one, in the centre most wanted. */
	assert_int_equal(board_count_units(&b, pw("Russia")), 1);
	assert_int_equal(b.units[board_unit_in(&b, m, pr("mos"))].type, UNIT_ARMY);
	assert_int_equal(board_unit_in(&b, m, pr("stp")), -1);
	assert_int_equal(board_count_units(&b, pw("England")), 2);	/* bar, yor */
	assert_int_equal(r.r[0].points[pw("England")], 1);
	assert_int_equal(r.r[0].points[pw("Germany")], 0);
	buf_init(&text, 1 << 16);
	muna_report(m, &s, &r, &text);
	assert_non_null(strstr(buf_str(&text), "Russia rises again: it takes back Moscow, St Petersburg "
	    "and Sevastopol, with a new unit in Moscow."));
	assert_non_null(strstr(buf_str(&text), "Warsaw is occupied"));
	assert_non_null(strstr(buf_str(&text), "England earns 1 victory point"));
	buf_free(&text);
}

/* Four units: all the home centres; an occupied one costs one unit more,
 * and its occupier is swept away. */
static void
test_four_and_five_units(void **state)
{
	static const char *const four[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"England: F bar - Russia", "Turkey: A arm - Russia",
		"Russia: Revive: Moscow, Sevastopol, St Petersburg, Warsaw", NULL };
	static const char *const occupied[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"England: F bar - Russia", "Turkey: A arm - Russia",
		"Russia: Revive: Warsaw, Moscow, Sevastopol, St Petersburg", NULL };
	static const char *const five[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"England: F bar - Russia", "Turkey: A arm - Russia", "England: A yor - Russia",
		"Russia: Revive: Warsaw, Moscow, Sevastopol, St Petersburg", NULL };
	struct board b;
	struct muna_season s;
	struct muna_result r;

	(void)state;
	/* Moscow and Warsaw occupied; four units take the two free ones only
	 * if the list puts them... here it names Moscow first: Moscow (4 units:
	 * three plus one for the occupier), Sevastopol, St Petersburg; Warsaw
	 * would need a fifth. */
	board_from(&b, russia_gone);
	play_season(&b, four, &s, &r);
	assert_int_equal(r.r[0].outcome, MUNA_REVIVED);
	assert_int_equal(r.r[0].nregained, 3);
	assert_int_equal(r.r[0].regained[0], pr("mos"));
	assert_int_equal(r.r[0].ndestroyed, 1);
	assert_int_equal(r.r[0].destroyed[0].power, pw("Germany"));
	assert_int_equal(r.r[0].nskipped, 1);
	assert_int_equal(r.r[0].skipped[0], pr("war"));
	assert_int_equal(b.units[board_unit_in(&b, m, pr("mos"))].power, pw("Russia"));
	assert_int_equal(r.r[0].points[pw("England")], 1);
	assert_int_equal(r.r[0].points[pw("Turkey")], 0);

	/* Warsaw first: taken (four units), then Moscow would need a fifth. */
	board_from(&b, russia_gone);
	play_season(&b, occupied, &s, &r);
	assert_int_equal(r.r[0].nregained, 3);
	assert_int_equal(r.r[0].regained[0], pr("war"));
	assert_int_equal(r.r[0].regained[1], pr("sev"));
	assert_int_equal(r.r[0].regained[2], pr("stp"));

	/* Five units, Warsaw and Moscow occupied: both taken (three units, one
	 * more for each), then Sevastopol; St Petersburg would make a fourth
	 * centre, which costs a fourth unit on top: six. */
	board_from(&b, russia_gone);
	play_season(&b, five, &s, &r);
	assert_int_equal(r.r[0].nregained, 3);
	assert_int_equal(r.r[0].ndestroyed, 2);
	board_from(&b, russia_gone);
	{
		/* Moscow freed by its own army: five units take all four. */
		static const char *const freed[] = { "England: F nth - Russia", "England: F nwg - Russia",
			"England: F bar - Russia", "Turkey: A arm - Russia", "Germany: A mos - Russia",
			"Russia: Revive: Warsaw, Moscow, Sevastopol, St Petersburg", NULL };
		play_season(&b, freed, &s, &r);
		assert_int_equal(r.r[0].nregained, 4);
		assert_int_equal(r.r[0].ndestroyed, 1);	/* the German army in Warsaw */
		assert_int_equal(board_count_centres(&b, m, pw("Russia")), 4);
		assert_int_equal(board_count_units(&b, pw("Germany")), 1);	/* Berlin */
	}
}

/* The ways an insurrection fails. England's two units or more took part
 * each time: it earns its point all the same (§7 "investing at least two
 * units in an insurrection"); Germany's one unit earns none. */
static void
test_failures(void **state)
{
	static const char *const dislodged[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"Germany: A war - Russia", "Austria: A ukr - war", "Austria: A gal S A ukr - war",
		"Russia: Revive: Warsaw, Moscow, St Petersburg", NULL };
	static const char *const no_revival[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"England: F bar - Russia", NULL };
	static const char *const too_few[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"Russia: Revive: Warsaw, Moscow, St Petersburg", NULL };
	static const char *const all_taken[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"England: F bar - Russia", "Russia: Revive: Warsaw, Moscow, St Petersburg", NULL };
	struct board b;
	struct muna_season s;
	struct muna_result r;
	struct buf text;

	(void)state;
	buf_init(&text, 1 << 16);
	/* A promised unit is dislodged: it fails, the others are still gone. */
	board_from(&b, russia_gone);
	play_season(&b, dislodged, &s, &r);
	assert_int_equal(s.n, 3);
	assert_true(s.u[0].dislodged + s.u[1].dislodged + s.u[2].dislodged == 1);
	assert_int_equal(r.r[0].outcome, MUNA_UNIT_MISSING);
	assert_int_equal(r.r[0].missing.power, pw("Germany"));
	assert_int_equal(r.r[0].points[pw("England")], 1);
	assert_int_equal(r.r[0].points[pw("Germany")], 0);
	assert_int_equal(r.ndisbanded, 2);
	assert_int_equal(board_count_units(&b, pw("Russia")), 0);
	muna_report(m, &s, &r, &text);
	assert_non_null(strstr(buf_str(&text), "It fails: the German army in Warsaw was dislodged"));
	assert_non_null(strstr(buf_str(&text), "England earns 1 victory point for sending two units or more."));

	board_from(&b, russia_gone);
	play_season(&b, no_revival, &s, &r);
	assert_int_equal(r.r[0].outcome, MUNA_NO_REVIVAL);
	assert_int_equal(r.ndisbanded, 3);
	assert_int_equal(r.r[0].points[pw("England")], 1);

	board_from(&b, russia_gone);
	play_season(&b, too_few, &s, &r);
	assert_int_equal(r.r[0].outcome, MUNA_TOO_FEW);
	assert_int_equal(r.r[0].nunits, 2);
	assert_int_equal(r.r[0].points[pw("England")], 1);

	/* Every centre named is occupied and three units take none. */
	board_from(&b, russia_gone);
	b.units[board_unit_in(&b, m, pr("yor"))].loc = m->provs[pr("stp")].loc;
	play_season(&b, all_taken, &s, &r);
	assert_int_equal(r.r[0].outcome, MUNA_NO_CENTRE);
	assert_int_equal(r.r[0].points[pw("England")], 1);
	assert_int_equal(board_count_centres(&b, m, pw("Russia")), 0);
	buf_free(&text);
}

/* The season outlives a retreat phase: taken from the movement phase,
 * carried out on the position after the retreats. */
static void
test_season_after_retreats(void **state)
{
	static const char *const orders[] = { "England: F nth - Russia", "England: F nwg - Russia",
		"Germany: A mos - Russia", "Austria: A ukr - war", "Austria: A gal S A ukr - war",
		"Russia: Revive: Moscow, Sevastopol, St Petersburg", NULL };
	struct order o[8];
	struct order_prefs prefs, revival[MAP_MAX_POWERS];
	struct muna_season s;
	struct muna_result r;
	struct board b;
	int n;

	(void)state;
	memset(revival, 0, sizeof revival);
	board_from(&b, russia_gone);
	for (n = 0; orders[n]; n++) {
		o[n] = order_for(&b, orders[n], &prefs);
		if (o[n].kind == ORDER_REVIVE)
			revival[o[n].power] = prefs;
	}
	adj_resolve(m, &rules, &b, o, n, &res, NULL);
	{
		struct board before = b;
		b = res.after;
		/* The German army in Warsaw retreats: the season goes on. */
		assert_int_equal(muna_season_step(m, &before, o, n, &res, revival, &s, &b, &r),
		    MUNA_WAITING);
	}
	assert_true(muna_season_pending(&s));
	assert_int_equal(s.n, 3);
	phase_next(m, &rules, &b);
	assert_int_equal(b.phase, PHASE_RETREAT);
	{
		struct order ret = order_for(&b, "Germany: A war - sil", NULL);
		struct board before = b;
		adj_resolve(m, &rules, &b, &ret, 1, &res, NULL);
		b = res.after;
		assert_int_equal(muna_season_step(m, &before, &ret, 1, &res, revival, &s, &b, &r),
		    MUNA_DECIDED);
	}
	assert_int_equal(r.r[0].outcome, MUNA_REVIVED);
	assert_int_equal(board_count_units(&b, pw("Russia")), 1);
	/* On to Fall: the revived power keeps its centres and units. */
	phase_next(m, &rules, &b);
	assert_int_equal(b.season, SEASON_FALL);
	assert_int_equal(board_count_centres(&b, m, pw("Russia")), 3);
	muna_season_clear(&s);
	assert_false(muna_season_pending(&s));
}

/* What MUNA's options switch on is asked as capabilities: insurrection
 * gives RULES_REVIVAL, victory-points RULES_POINTS, on any board; an
 * option set to "no" gives nothing, and other options give nothing. */
static void
test_caps_from_options(void **state)
{
	struct map *x = test_load_standard_map();
	struct map *muna = test_load_map("maps/muna/variant.xml");
	struct map *rp = test_load_map("maps/realpolitik/variant.xml");

	(void)state;
	assert_int_equal(map_caps(x), 0);
	map_set_option(x, "control-bonus", "18");
	map_set_option(x, "insurrection", "no");
	assert_int_equal(map_caps(x), 0);
	map_set_option(x, "insurrection", "yes");
	assert_int_equal(map_caps(x), RULES_REVIVAL);
	map_set_option(x, "victory-points", "on");
	assert_int_equal(map_caps(x), RULES_REVIVAL | RULES_POINTS);
	map_set_option(x, "insurrection", "off");
	assert_int_equal(map_caps(x), RULES_POINTS);
	assert_int_equal(map_caps(muna), RULES_REVIVAL | RULES_POINTS | RULES_BUILD_TYPE);
	assert_int_equal(map_caps(m), RULES_REVIVAL | RULES_POINTS);
	/* A system's own capabilities and the options' add up. */
	map_set_option(rp, "insurrection", "yes");
	assert_int_equal(map_caps(rp), RULES_STACKS | RULES_BOARDING | RULES_REVIVAL);
	map_free(x);
	map_free(muna);
	map_free(rp);
}

/* Victory points: centres + political points + 5 for the control bonus,
 * sorted best first. */
static void
test_victory_points(void **state)
{
	struct board b;
	struct standing st[MAP_MAX_POWERS];
	int points[MAP_MAX_POWERS] = { 0 };
	bool bonus[MAP_MAX_POWERS] = { false };
	struct buf text;
	int n;

	(void)state;
	assert_int_equal(muna_control_centres(m), 18);
	board_init_start(&b, m);
	points[pw("Italy")] = 3;
	points[pw("Turkey")] = 1;
	bonus[pw("Austria")] = true;
	n = muna_standings(m, &b, points, bonus, st);
	assert_int_equal(n, 7);
	/* Austria 3 + 5 = 8, Italy 3 + 3 = 6, Russia 4, Turkey 3 + 1 = 4 ... */
	assert_int_equal(st[0].power, pw("Austria"));
	assert_int_equal(st[0].total, 8);
	assert_int_equal(st[0].bonus, MUNA_BONUS_POINTS);
	assert_int_equal(st[1].power, pw("Italy"));
	assert_int_equal(st[1].total, 6);
	assert_int_equal(st[2].power, pw("Russia"));	/* 4 with 4 centres beats Turkey's 4 with 3 */
	assert_int_equal(st[3].power, pw("Turkey"));
	assert_int_equal(st[3].political, 1);
	assert_int_equal(st[4].power, pw("England"));	/* then the map's order */
	assert_int_equal(st[6].power, pw("Germany"));
	/* An eliminated power keeps its political points and can lead. */
	memset(b.owner, 0xff, sizeof b.owner);
	points[pw("Russia")] = 10;
	n = muna_standings(m, &b, points, bonus, st);
	assert_int_equal(st[0].power, pw("Russia"));
	assert_int_equal(st[0].centres, 0);
	assert_int_equal(st[0].total, 10);
	buf_init(&text, 4096);
	muna_standings_table(m, st, n, "Victory points:", &text);
	assert_non_null(strstr(buf_str(&text), "  Russia                 0        10     0    10\n"));
	buf_free(&text);
}

static void
test_conference_ends(void **state)
{
	struct conference c;
	struct board before, next;
	struct buf name;

	(void)state;
	memset(&c, 0, sizeof c);
	c.where = pr("mun");
	c.year = 1901;
	c.season = SEASON_SPRING;
	c.powers = (1u << pw("Germany")) | (1u << pw("France")) | (1u << pw("Italy"));
	board_init_start(&before, m);
	/* The German army in Munich is a participant's: not hostile. */
	assert_null(muna_conference_hostile(m, &before, &c));
	c.powers = (1u << pw("England")) | (1u << pw("France")) | (1u << pw("Italy"));
	assert_non_null(muna_conference_hostile(m, &before, &c));
	c.powers |= 1u << pw("Germany");

	next = before;
	next.season = SEASON_FALL;
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_GOES_ON);
	next.season = SEASON_WINTER;
	next.phase = PHASE_ADJUSTMENT;
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_GOES_ON);
	next.year = 1902;
	next.season = SEASON_SPRING;
	next.phase = PHASE_MOVEMENT;
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_EXPIRED);

	/* Conquered: a unit of another power in Munich, or Munich taken. */
	next = before;
	next.units[board_unit_in(&next, m, pr("mun"))].power = pw("Austria");
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_OCCUPIED);
	next = before;
	next.owner[pr("mun")] = pw("Austria");
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_TAKEN);
	next.owner[pr("mun")] = pw("France");	/* to a participant: goes on */
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_GOES_ON);

	/* Germany out of it: its army raised in Munich, its own home centre,
	 * enters nothing; nor does it when it stays there; one that moves in
	 * conquers. */
	c.powers &= ~(1u << pw("Germany"));
	c.season = SEASON_FALL;	/* opened in Fall 1901: until Fall 1902 */
	next = before;
	next.year = 1902;
	board_remove_unit(&before, board_unit_in(&before, m, pr("mun")));
	before.season = SEASON_WINTER;
	before.phase = PHASE_ADJUSTMENT;
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_GOES_ON);
	before = next;
	next.phase = PHASE_RETREAT;
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_GOES_ON);
	board_remove_unit(&before, board_unit_in(&before, m, pr("mun")));
	assert_int_equal(muna_conference_check(m, &c, &before, &next), CONF_OCCUPIED);
	c.powers |= 1u << pw("Germany");
	c.season = SEASON_SPRING;

	buf_init(&name, 256);
	muna_conference_name(m, &c, &name);
	buf_puts(&name, ": ");
	muna_conference_powers(m, &c, &name);
	assert_string_equal(buf_str(&name),
	    "the conference in Munich: England, France, Germany and Italy");
	buf_free(&name);
}

static const struct map *
find_map(void *ctx, const char *variant, const struct names **n)
{
	(void)ctx;
	(void)variant;
	*n = nm;
	return m;
}

static const struct rule_system *
find_system(void *ctx, const struct map *mp)
{
	(void)ctx;
	return systems_for_map(mp);
}

/* Everything MUNA adds to a game is written to its file and read back:
 * the season under way, a revival order with its list, awards with their
 * reasons, the control bonus, the conference, the speech window, the
 * political goals, the first movement phase's length. */
static void
test_game_file(void **state)
{
	struct game *g = calloc(1, sizeof *g), *h = calloc(1, sizeof *h);
	struct game_lookup lk = { NULL, find_map, find_system, NULL };
	struct game_settings set;
	struct order_prefs prefs;
	struct order o;
	struct buf a, b, err;

	(void)state;
	assert_non_null(g);
	assert_non_null(h);
	game_settings_default(&set, "muna-test");
	buf_init(&err, 4096);
	game_init(g, "t1", &set, m, nm, 1700000000);
	game_set_system(g, systems_for_map(m));
	/* Its own setting, among the judge's: set, refused, and listed where
	 * it always was for a key no one knows. */
	assert_int_equal(game_set(g, "speech", "off", NULL, &err), 0);
	assert_int_equal(muna_state(g)->speech, 0);
	assert_int_equal(game_set(g, "Speech", "12h", NULL, &err), 0);
	assert_int_equal(muna_state(g)->speech, 12 * 3600);
	assert_int_equal(game_set(g, "speech", "0h", NULL, &err), -1);
	assert_string_equal(buf_str(&err), "bad value \"0h\" for speech");
	buf_truncate(&err, 0);
	assert_int_equal(game_set(g, "colour", "red", NULL, &err), -1);
	assert_string_equal(buf_str(&err), "unknown setting \"colour\" (press, nmr, edition, zone, "
	    "movement, retreat, adjustment, first-movement, grace, remind, time, days, gmpress, "
	    "speech, dated-orders)");
	buf_truncate(&err, 0);
	assert_int_equal(game_set(g, "grace", "6h", NULL, &err), 0);
	assert_int_equal(g->set.grace, 6 * 3600);
	assert_int_equal(g->rules.caps, RULES_REVIVAL | RULES_POINTS);
	assert_true(game_victory_points(g));
	assert_int_equal(muna_state(g)->conf.where, PROV_NONE);
	board_from(&g->board, russia_gone);
	o = order_for(&g->board, "Russia: Revive: Sevastopol, Moscow, Warsaw", &prefs);
	assert_int_equal(system_keep_list(g, pw("Russia"), &o, &prefs), 0);
	/* A second revival order replaces the first, whatever it names first. */
	o = order_for(&g->board, "Russia: Revive: Moscow, Sevastopol, Warsaw", &prefs);
	assert_int_equal(system_keep_list(g, pw("Russia"), &o, &prefs), 0);
	assert_int_equal(g->del[pw("Russia")].norders, 1);
	game_award(g, pw("Italy"), 3, false, "Took Abyssinia (political goal 1)");
	game_award(g, pw("England"), 1, true, "sent two units or more to the insurrection in Russia");
	assert_int_equal(g->del[pw("Italy")].points, 3);
	str_copy(muna_state(g)->bonus[pw("Germany")], "F1901M", sizeof muna_state(g)->bonus[0]);
	muna_state(g)->season.n = 1;
	muna_state(g)->season.u[0].unit = g->board.units[board_unit_in(&g->board, m, pr("bar"))];
	muna_state(g)->season.u[0].target = pw("Russia");
	muna_state(g)->season.u[0].dislodged = true;
	muna_state(g)->season.revival[pw("Russia")] = prefs;
	muna_state(g)->conf.where = pr("tyr");
	muna_state(g)->conf.year = 1902;
	muna_state(g)->conf.season = SEASON_SPRING;
	muna_state(g)->conf.powers = (1u << pw("Italy")) | (1u << pw("Austria")) | (1u << pw("England"));
	str_copy(muna_state(g)->conf.name, "the Alpine conference", sizeof muna_state(g)->conf.name);
	muna_state(g)->speech_until = 1700043200;
	assert_int_equal(game_settings_set(&g->set, "first-movement", "36h", NULL, &err), 0);
	str_copy(muna_state(g)->goals[pw("Italy")].goal[0], "Take Abyssinia", AWARD_REASON_MAX);
	str_copy(muna_state(g)->goals[pw("Italy")].goal[2], "Keep the Brenner closed", AWARD_REASON_MAX);
	muna_state(g)->goals[pw("Italy")].goal_points = 2;
	muna_state(g)->goals[pw("Italy")].goal_approved = true;

	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	game_write(g, &a);
	assert_non_null(strstr(buf_str(&a), "order Russia Revive mos, sev, war\n"));
	assert_non_null(strstr(buf_str(&a), "award S1902M Italy +3 officers Took Abyssinia"));
	assert_non_null(strstr(buf_str(&a), "insurgent England F bar Russia dislodged\n"));
	assert_non_null(strstr(buf_str(&a), "conference tyr 1902 Spring Austria England Italy\n"));
	if (game_read(h, buf_str(&a), a.len, &lk, &err) < 0)
		fail_msg("does not read back: %s", buf_str(&err));
	game_write(h, &b);
	assert_string_equal(buf_str(&a), buf_str(&b));
	assert_int_equal(muna_state(h)->revival[pw("Russia")].n, 3);
	assert_int_equal(muna_state(h)->season.revival[pw("Russia")].prov[0], pr("mos"));
	assert_non_null(strstr(buf_str(&a), "goal Italy 1 Take Abyssinia\n"));
	assert_non_null(strstr(buf_str(&a), "goal Italy 3 2 approved Keep the Brenner closed\n"));
	assert_string_equal(muna_state(h)->goals[pw("Italy")].goal[2], "Keep the Brenner closed");
	assert_int_equal(muna_state(h)->goals[pw("Italy")].goal_points, 2);
	assert_true(muna_state(h)->goals[pw("Italy")].goal_approved);
	assert_int_equal(h->set.first_movement, 36 * 3600);
	assert_int_equal(muna_state(h)->speech, 12 * 3600);
	assert_non_null(strstr(buf_str(&a), "\nspeech 12h\nfirst-movement 36h\n"));

	/* A rollback to Spring 1902 takes back what the rules gave since,
	 * not what the officers gave. */
	h->board.year = 1902;
	h->board.season = SEASON_SPRING;
	system_history_read(h, NULL, 0);
	game_forget_since(h, &h->board);
	assert_int_equal(h->del[pw("England")].points, 0);
	assert_int_equal(h->del[pw("Italy")].points, 3);
	assert_int_equal(h->nawards, 1);
	assert_string_equal(muna_state(h)->bonus[pw("Germany")], "F1901M");
	h->board.year = 1901;
	h->board.season = SEASON_FALL;
	system_history_read(h, NULL, 0);
	game_forget_since(h, &h->board);
	assert_string_equal(muna_state(h)->bonus[pw("Germany")], "");
	buf_free(&a);
	buf_free(&b);
	buf_free(&err);
	game_free(g);
	game_free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orders_in_the_adjudicator),
		cmocka_unit_test(test_revival_order_checks),
		cmocka_unit_test(test_three_units_three_centres),
		cmocka_unit_test(test_four_and_five_units),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_season_after_retreats),
		cmocka_unit_test(test_caps_from_options),
		cmocka_unit_test(test_victory_points),
		cmocka_unit_test(test_conference_ends),
		cmocka_unit_test(test_game_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
