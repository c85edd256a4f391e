/*
 * test_game.c — the game file (judge/game.h): a game with every field set
 * away from its default written, read back and written again; every key of
 * the tables of fields seen in the text; damaged lines reported as
 * "LINE: message".
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/game.h"
#include "../../judge/system.h"
#include "../../judge/systems/muna_file.h"
#include "../../judge/systems/muna_state.h"
#include "../../judge/systems/systems.h"
#include "../../lib/str.h"
#include "../../parser/orders.h"

/* game_read's variant lookup: the standard map for "standard", else none. */
static const struct map *
find(void *ctx, const char *variant, const struct names **names)
{
	(void)ctx;
	if (strcmp(variant, "standard") != 0)
		return NULL;
	*names = test_standard_names();
	return test_standard_map();
}

/* game_read's system lookup: the system these tests play (MUNA's fields
 * are a superset of the standard game's). */
static const struct rule_system *test_system;

static const struct rule_system *
find_system(void *ctx, const struct map *m)
{
	(void)ctx, (void)m;
	return test_system != NULL ? test_system : systems_find("muna");
}

static const struct game_lookup lookup = { NULL, find, find_system, NULL };

static power_id
pw(const char *name)
{
	return map_find_power(test_standard_map(), name);
}

static prov_id
pr(const char *name)
{
	return map_find_province(test_standard_map(), name);
}

static void
setting(struct game_settings *s, const char *key, const char *value)
{
	struct buf why;

	buf_init(&why, 1024);
	if (game_settings_set(s, key, value, NULL, &why) < 0)
		fail_msg("setting %s %s: %s", key, value, buf_str(&why));
	buf_free(&why);
}

/* Give power p the order text (read against g's board). */
static void
order(struct game *g, power_id p, const char *text)
{
	struct parse_ctx c = { g->map, g->names, &g->board, p };
	struct parse_result r;

	order_parse(&c, text, strlen(text), &r);
	if (r.verdict != VERDICT_ACCEPTED)
		fail_msg("order \"%s\": %s", text, r.note);
	assert_int_equal(game_set_order(g, p, &r.order), 0);
}

static void
member(struct game *g, power_id p, const char *addr, const char *zone)
{
	struct delegation *d = game_del(g, p);

	game_member_room(d, d->nmembers + 1);
	str_copy(d->members[d->nmembers].addr, addr, ADDR_MAX);
	str_copy(d->members[d->nmembers].zone, zone, ZONE_MAX);
	d->nmembers++;
}

/* The settings, every one away from its default. */
static void
settings(struct game_settings *s)
{
	game_settings_default(s, "standard");
	s->edition = EDITION_1982;
	setting(s, "movement", "90m");
	setting(s, "retreat", "12h");
	setting(s, "adjustment", "36h");
	setting(s, "time", "18:30");
	setting(s, "days", "mon,wed fri");
	setting(s, "grace", "12h");
	setting(s, "remind", "6h");
	str_copy(s->zone, "Europe/Paris", sizeof s->zone);
	setting(s, "press", "grey");
	setting(s, "nmr", "wait");
	setting(s, "gmpress", "yes");
	setting(s, "first-movement", "72h");
	setting(s, "dated-orders", "on");
}

/* England and France: members, secrets, flags, votes, points, the control
 * bonus, goals and orders. */
static void
delegations(struct game *g)
{
	struct delegation *e = game_del(g, pw("England")), *f = game_del(g, pw("France"));
	struct muna_goals *eg = &muna_state(g)->goals[pw("England")];
	struct muna_goals *fg = &muna_state(g)->goals[pw("France")];

	member(g, pw("England"), "alice@a.example", "Europe/London");
	member(g, pw("England"), "bob@b.example", "");
	str_copy(e->secret, "hash-of-england", sizeof e->secret);
	e->wait = e->reminded = true;
	e->vote = VOTE_DRAW;
	str_copy(muna_state(g)->bonus[pw("England")], "F1905M", sizeof muna_state(g)->bonus[0]);
	str_copy(eg->goal[0], "Hold the Channel", AWARD_REASON_MAX);
	str_copy(eg->goal[1], "Keep Norway", AWARD_REASON_MAX);
	str_copy(eg->goal[2], "Open a conference", AWARD_REASON_MAX);
	eg->goal_points = 2;
	eg->goal_approved = true;
	order(g, pw("England"), "F lon - nth");
	order(g, pw("England"), "A lvp - yor");
	member(g, pw("France"), "carol@c.example", "");
	str_copy(f->secret, "hash-of-france", sizeof f->secret);
	f->resigned = true;
	f->vote = VOTE_CONCEDE;
	f->concede_to = pw("England");
	str_copy(fg->goal[2], "Take Belgium", AWARD_REASON_MAX);
	fg->goal_points = 1;
	order(g, pw("France"), "A par H");
}

/* The MUNA state: awards, a conference, an insurrection and a revival list. */
static void
muna(struct game *g)
{
	struct insurgent *u = &muna_state(g)->season.u[0];
	struct order_prefs *r = &muna_state(g)->season.revival[pw("Russia")];

	game_award(g, pw("England"), 2, false, "Convened the conference");
	game_award(g, pw("Russia"), -1, true, "An insurrection failed");
	game_del(g, pw("England"))->points = 3;
	game_del(g, pw("France"))->points = -2;
	muna_state(g)->conf.where = pr("mun");
	muna_state(g)->conf.year = 1902;
	muna_state(g)->conf.season = SEASON_FALL;
	muna_state(g)->conf.powers = 1u << pw("England") | 1u << pw("France") | 1u << pw("Germany");
	str_copy(muna_state(g)->conf.name, "The Congress of Munich", sizeof muna_state(g)->conf.name);
	str_copy(muna_state(g)->conf.goal, "Keep the peace", sizeof muna_state(g)->conf.goal);
	muna_state(g)->speakers[0] = pw("France");
	muna_state(g)->speakers[1] = pw("England");
	muna_state(g)->nspeakers = 2;
	u->unit.power = pw("England");
	u->unit.type = UNIT_FLEET;
	u->unit.loc = map_find_location(g->map, "edi");
	u->target = pw("Russia");
	u->dislodged = true;
	muna_state(g)->season.n = 1;
	r->prov[0] = pr("mos");
	r->prov[1] = pr("war");
	r->prov[2] = pr("sev");
	r->n = 3;
}

/* A game with every field of the file set away from its default. */
static void
full_game(struct game *g)
{
	struct game_settings s;
	struct dislodged *d;
	struct buf why;

	settings(&s);
	game_init(g, "roundtrip", &s, test_standard_map(), test_standard_names(), 1795000000);
	game_set_system(g, systems_find("muna"));
	buf_init(&why, 64);
	assert_int_equal(game_set(g, "speech", "2h", NULL, &why), 0);	/* the system's own */
	buf_free(&why);
	g->status = GAME_PAUSED;
	str_copy(g->result, "Drawn by England and France", sizeof g->result);
	g->phase_start = 1795003600;
	g->deadline = 1795090000;
	g->paused_left = 5400;
	g->gm_told = true;
	g->completed_at = 1795003600;
	muna_state(g)->speech_until = 1795007200;
	str_copy(g->gms[g->ngms++], "gm1@x.example", ADDR_MAX);
	str_copy(g->gms[g->ngms++], "gm2@x.example", ADDR_MAX);
	str_copy(g->gm_secret, "hash-of-gm", sizeof g->gm_secret);
	g->seq = 42;
	g->nphases = 7;
	g->rewinds = 2;
	GAME_ROOM(g, observers, GAME_MAX_OBSERVERS);
	GAME_ROOM(g, bouncing, GAME_MAX_BOUNCING);
	GAME_ROOM(g, years, GAME_MAX_YEARS);
	str_copy(g->observers[g->nobservers++], "obs1@o.example", ADDR_MAX);
	str_copy(g->observers[g->nobservers++], "obs2@o.example", ADDR_MAX);
	str_copy(g->bouncing[0].addr, "gone@g.example", ADDR_MAX);
	g->bouncing[0].count = 1;
	str_copy(g->bouncing[1].addr, "dead@d.example", ADDR_MAX);
	g->bouncing[1].count = 3;
	g->nbouncing = 2;
	g->years[0].year = 1901;
	g->years[0].centres[pw("Russia")] = 6;
	g->years[1].year = 1902;
	g->years[1].centres[pw("Turkey")] = 5;
	g->nyears = 2;
	d = &g->board.dislodged[g->board.ndislodged++];
	d->unit.power = pw("Turkey");
	d->unit.type = UNIT_ARMY;
	d->unit.loc = map_find_location(g->map, "arm");
	d->attacker = pr("sev");
	board_set_contested(&g->board, pr("gal"));
	g->board.owner[pr("bel")] = pw("France");
	delegations(g);
	muna(g);
}

/* Read text into g; fails the test on an error. */
static void
read_ok(struct game *g, const struct buf *text)
{
	struct buf err;

	buf_init(&err, 1 << 16);
	if (game_read(g, buf_str(text), text->len, &lookup, &err) < 0)
		fail_msg("game_read: %s", buf_str(&err));
	assert_string_equal(buf_str(&err), "");
	buf_free(&err);
}

/* True when some line of text starts with "key ". */
static bool
has_key(const char *text, const char *key, size_t n)
{
	const char *p;

	for (p = text; (p = strstr(p, "\n")) != NULL; p++)
		if (strncmp(p + 1, key, n) == 0 && p[1 + n] == ' ')
			return true;
	return false;
}

/* Every key of the table t begins a line of text. */
static void
check_keys(const struct game_field_table *t, const char *text)
{
	size_t i;

	assert_true(t->n > 0);
	for (i = 0; i < t->n; i++) {
		const char *k = t->fields[i].keys;
		while (*k) {
			size_t n = strcspn(k, " ");
			if (!has_key(text, k, n))
				fail_msg("key \"%.*s\" is never written", (int)n, k);
			k += n + strspn(k + n, " ");
		}
	}
}

static void
check_read_back(const struct game *g)
{
	const struct delegation *e = &g->del[pw("England")], *f = &g->del[pw("France")];

	assert_int_equal(g->status, GAME_PAUSED);
	assert_string_equal(g->result, "Drawn by England and France");
	assert_int_equal(g->set.edition, EDITION_1982);
	assert_int_equal(g->set.duration[PHASE_MOVEMENT], 90 * 60);
	assert_int_equal(g->set.duration[PHASE_ADJUSTMENT], 36 * 3600);
	assert_int_equal(g->set.deadline_minute, 18 * 60 + 30);
	assert_int_equal(g->set.days, 1 << 1 | 1 << 3 | 1 << 5);
	assert_int_equal(g->set.remind, 6 * 3600);
	assert_string_equal(g->set.zone, "Europe/Paris");
	assert_int_equal(g->set.press, PRESS_GREY);
	assert_int_equal(g->set.nmr, NMR_WAIT);
	assert_true(g->set.gm_reads_press);
	assert_int_equal(g->set.first_movement, 72 * 3600);
	assert_true(g->set.dated_orders);
	assert_int_equal(g->created, 1795000000);
	assert_int_equal(muna_state(g)->speech_until, 1795007200);
	assert_int_equal(muna_state(g)->speech, 2 * 3600);
	assert_int_equal(g->paused_left, 5400);
	assert_true(g->gm_told);
	assert_int_equal(g->completed_at, 1795003600);
	assert_int_equal(g->ngms, 2);
	assert_string_equal(g->gms[1], "gm2@x.example");
	assert_int_equal(g->seq, 42);
	assert_int_equal(g->nphases, 7);
	assert_int_equal(g->rewinds, 2);
	assert_string_equal(g->observers[1], "obs2@o.example");
	assert_int_equal(g->nbouncing, 2);
	assert_int_equal(g->bouncing[1].count, 3);
	assert_string_equal(g->bouncing[1].addr, "dead@d.example");
	assert_int_equal(e->nmembers, 2);
	assert_string_equal(e->members[0].zone, "Europe/London");
	assert_string_equal(e->members[1].addr, "bob@b.example");
	assert_true(e->wait && e->reminded && !e->resigned && f->resigned);
	assert_int_equal(e->vote, VOTE_DRAW);
	assert_int_equal(f->vote, VOTE_CONCEDE);
	assert_int_equal(f->concede_to, pw("England"));
	assert_int_equal(e->points, 3);
	assert_int_equal(f->points, -2);
	assert_string_equal(muna_state(g)->bonus[pw("England")], "F1905M");
	assert_string_equal(muna_state(g)->goals[pw("England")].goal[1], "Keep Norway");
	assert_int_equal(muna_state(g)->goals[pw("England")].goal_points, 2);
	assert_true(muna_state(g)->goals[pw("England")].goal_approved);
	assert_false(muna_state(g)->goals[pw("France")].goal_approved);
	assert_string_equal(muna_state(g)->conf.goal, "Keep the peace");
	assert_int_equal(muna_state(g)->nspeakers, 2);
	assert_int_equal(muna_state(g)->speakers[0], pw("France"));
	assert_int_equal(e->norders, 2);
	assert_int_equal(e->orders[0].kind, ORDER_MOVE);
	assert_int_equal(g->board.ndislodged, 1);
	assert_int_equal(g->board.dislodged[0].attacker, pr("sev"));
	assert_true(board_contested(&g->board, pr("gal")));
	assert_int_equal(g->board.owner[pr("bel")], pw("France"));
	assert_int_equal(g->nyears, 2);
	assert_int_equal(g->years[1].centres[pw("Turkey")], 5);
	assert_int_equal(g->nawards, 2);
	assert_true(g->awards[1].rules);
	assert_int_equal(g->awards[1].points, -1);
	assert_string_equal(g->awards[0].reason, "Convened the conference");
	assert_int_equal(muna_state(g)->conf.where, pr("mun"));
	assert_int_equal(muna_state(g)->conf.powers, 1u << pw("England") | 1u << pw("France") |
	    1u << pw("Germany"));
	assert_string_equal(muna_state(g)->conf.name, "The Congress of Munich");
	assert_int_equal(muna_state(g)->season.n, 1);
	assert_true(muna_state(g)->season.u[0].dislodged);
	assert_int_equal(muna_state(g)->season.revival[pw("Russia")].n, 3);
	assert_int_equal(muna_state(g)->season.revival[pw("Russia")].prov[2], pr("sev"));
}

/* Written, read back, written again: the same text, every key in it. */
static void
test_round_trip(void **state)
{
	struct game *g = calloc(2, sizeof *g);
	struct buf a, b;

	(void)state;
	assert_non_null(g);
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	full_game(&g[0]);
	game_write(&g[0], &a);
	read_ok(&g[1], &a);
	game_write(&g[1], &b);
	assert_string_equal(buf_str(&b), buf_str(&a));
	check_read_back(&g[1]);
	check_keys(&game_common_fields, buf_str(&a));
	check_keys(&muna_file_fields, buf_str(&a));
	/* The system's setting is written among the judge's, where it always was. */
	assert_non_null(strstr(buf_str(&a), "\ngm-reads-press yes\nspeech 2h\nfirst-movement 72h\n"));
	buf_free(&a);
	buf_free(&b);
	game_release(&g[0]);
	game_release(&g[1]);
	free(g);
}

/* Lines in the form a host would write them, with their line numbers. */
static const char damaged[] =
    "game dmg\n"
    "variant standard\n"
    "status forming\n"
    "seq forty\n"
    "frobnicate 1\n"
    "frobnicate England 2\n"
    "vote Englund draw\n"
    "phase Spring 1901 Movement\n"
    "unit England F lon\n"
    "owner England xyz\n"
    "goal England 3 9 approved Worth too much\n"
    "order England F lon - nth\n"
    "order England xyzzy plugh\n";

/* Each damaged line named by its number: the lines, then the board's
 * (with the file's numbers), then the orders. */
static void
test_damaged(void **state)
{
	struct game *g = calloc(1, sizeof *g);
	struct buf err;

	(void)state;
	assert_non_null(g);
	buf_init(&err, 1 << 16);
	assert_int_equal(game_read(g, damaged, strlen(damaged), &lookup, &err), -1);
	assert_string_equal(buf_str(&err),
	    "4: bad number: seq\n"
	    "5: unknown key, or unknown power: frobnicate\n"
	    "6: unknown key: frobnicate\n"
	    "7: unknown key, or unknown power: vote\n"
	    "11: expected: goal POWER 3 POINTS approved|proposed TEXT: goal\n"
	    "10: expected: owner POWER PROVINCE\n"
	    "13: cannot read order \"xyzzy plugh\"\n");
	/* What could be read, was. */
	assert_int_equal(g->del[pw("England")].norders, 1);
	buf_reset(&err);
	assert_int_equal(game_read(g, "variant nowhere\n", 16, &lookup, &err), -1);
	assert_string_equal(buf_str(&err), "unknown variant \"nowhere\"\n");
	buf_free(&err);
	game_free(g);
}

/* A file from before the later keys (no settings, no MUNA lines) reads
 * with the defaults. */
static void
test_old_file(void **state)
{
	static const char old[] = "game old\nvariant standard\nstatus active\nseq 3\nphases 1\n"
				  "phase Spring 1901 Movement\nunit England F lon\n";
	struct game *g = calloc(1, sizeof *g);
	struct buf err;

	(void)state;
	assert_non_null(g);
	buf_init(&err, 1 << 16);
	assert_int_equal(game_read(g, old, strlen(old), &lookup, &err), 0);
	assert_int_equal(g->status, GAME_ACTIVE);
	assert_int_equal(g->set.press, PRESS_WHITE);
	assert_int_equal(g->set.nmr, NMR_CD);
	assert_int_equal(g->set.grace, 24 * 3600);
	assert_int_equal(g->set.deadline_minute, -1);
	assert_int_equal(muna_state(g)->conf.where, PROV_NONE);
	assert_int_equal(g->del[pw("France")].concede_to, POWER_NONE);
	assert_int_equal(g->board.nunits, 1);
	buf_free(&err);
	game_free(g);
}

/* Is key a setting of a rule system's own: game_read's setting lookup. */
static bool
find_setting(void *ctx, const char *key)
{
	(void)ctx;
	return systems_setting(key);
}

/* A standard game's file with the line of a setting that is MUNA's own
 * (from when every game took it) reads, the line read as nothing and not
 * written again; without the lookup, or for a key no system has, it is
 * an unknown key. */
static void
test_other_system_setting(void **state)
{
	static const char text[] = "game old\nvariant standard\nstatus active\nspeech 2h\nseq 3\n"
				   "phases 1\nphase Spring 1901 Movement\nunit England F lon\n";
	static const char *const bad = "game old\nvariant standard\nstatus active\nspeeches 2h\n"
				       "seq 3\nphases 1\nphase Spring 1901 Movement\nunit England F lon\n";
	const struct game_lookup with = { NULL, find, find_system, find_setting };
	struct game *g = calloc(1, sizeof *g);
	struct buf err, out;

	(void)state;
	assert_non_null(g);
	buf_init(&err, 1 << 16);
	buf_init(&out, 1 << 20);
	test_system = systems_find("standard");
	assert_int_equal(game_read(g, text, strlen(text), &with, &err), 0);
	game_write(g, &out);
	assert_null(strstr(buf_str(&out), "speech"));
	assert_int_equal(game_read(g, text, strlen(text), &lookup, &err), -1);
	assert_string_equal(buf_str(&err), "4: unknown key, or unknown power: speech\n");
	buf_reset(&err);
	assert_int_equal(game_read(g, bad, strlen(bad), &with, &err), -1);
	assert_string_equal(buf_str(&err), "4: unknown key, or unknown power: speeches\n");
	test_system = NULL;
	buf_free(&out);
	buf_free(&err);
	game_free(g);
}

/* A rule system with state of its own: a tally kept in g->state, its
 * own "tally" line, and a check once the whole file is read. */
static void *
tally_new(struct game *g)
{
	(void)g;
	return calloc(1, sizeof(long));
}

static void
tally_free(void *state)
{
	free(state);
}

static void
write_tally(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	game_field_key(f, g, p, out);
	buf_printf(out, " %ld\n", *(const long *)g->state);
}

static const char *
read_tally(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return str_to_long(v, 0, 1000, in->g->state) < 0 ? "bad number" : NULL;
}

static const char *
tally_loaded(struct game *g)
{
	return *(long *)g->state > 10 ? "a tally over 10" : NULL;
}

static const struct game_field tally_fields[] = {
	{ "tally", GAME_PART_STATE, write_tally, read_tally, 0, 0, 0, 0 },
};
static const struct game_field_table tally_table = { tally_fields, 1 };
static const struct rule_system tally_system = {
	.name = "tally",
	.fields = &tally_table,
	.state_new = tally_new,
	.state_free = tally_free,
	.loaded = tally_loaded,
};

/* A system's own lines are written from its state and read back into a
 * fresh one; another system's lines are unknown keys; the system's check
 * of the whole file is reported at the file's last line. */
static void
test_system_state(void **state)
{
	struct game *g = calloc(1, sizeof *g), *h = calloc(1, sizeof *h);
	struct game_settings s;
	struct buf a, err;

	(void)state;
	assert_non_null(g);
	assert_non_null(h);
	buf_init(&a, 1 << 20);
	buf_init(&err, 1 << 16);
	settings(&s);
	game_init(g, "tally", &s, test_standard_map(), test_standard_names(), 1795000000);
	game_set_system(g, &tally_system);
	assert_non_null(g->state);
	*(long *)g->state = 7;
	game_write(g, &a);
	assert_non_null(strstr(buf_str(&a), "\ntally 7\n"));
	test_system = &tally_system;
	assert_int_equal(game_read(h, buf_str(&a), a.len, &lookup, &err), 0);
	assert_int_equal(*(long *)h->state, 7);
	assert_ptr_not_equal(h->state, g->state);

	/* The tally system knows no MUNA line; MUNA knows no tally line. */
	buf_puts(&a, "goal England 1 Take Belgium\n");
	assert_int_equal(game_read(h, buf_str(&a), a.len, &lookup, &err), -1);
	assert_non_null(strstr(buf_str(&err), "unknown key: goal\n"));
	buf_reset(&err);
	test_system = systems_find("muna");
	assert_int_equal(game_read(h, buf_str(&a), a.len, &lookup, &err), -1);
	assert_non_null(strstr(buf_str(&err), "unknown key, or unknown power: tally\n"));

	/* The whole-file check. */
	buf_reset(&a);
	buf_reset(&err);
	*(long *)g->state = 11;
	game_write(g, &a);
	test_system = &tally_system;
	assert_int_equal(game_read(h, buf_str(&a), a.len, &lookup, &err), -1);
	assert_non_null(strstr(buf_str(&err), ": a tally over 10\n"));
	test_system = NULL;
	buf_free(&a);
	buf_free(&err);
	game_free(g);
	game_free(h);
}

/* Set key to value on the defaults: game_settings_set's return, and the
 * reason into why. */
static int
set(struct game_settings *s, const char *key, const char *value, struct buf *why)
{
	game_settings_default(s, "standard");
	buf_truncate(why, 0);
	return game_settings_set(s, key, value, NULL, why);
}

/* Every setting by name: the words and spans each takes, in any case,
 * what it keeps, and the reason for a value or a key it does not know. */
static void
test_settings(void **state)
{
	struct game_settings s;
	struct buf why;

	(void)state;
	buf_init(&why, 256);
	assert_int_equal(set(&s, "press", "none", &why), 0);
	assert_int_equal(s.press, PRESS_NONE);
	assert_int_equal(set(&s, "PRESS", "Gray", &why), 0);
	assert_int_equal(s.press, PRESS_GREY);
	assert_int_equal(set(&s, "press", "black", &why), -1);
	assert_string_equal(buf_str(&why), "bad value \"black\" for press");
	assert_int_equal(s.press, PRESS_WHITE);
	assert_int_equal(set(&s, "nmr", "wait", &why), 0);
	assert_int_equal(s.nmr, NMR_WAIT);
	assert_int_equal(set(&s, "nmr", "Civil-Disorder", &why), 0);
	assert_int_equal(s.nmr, NMR_CD);
	assert_int_equal(set(&s, "edition", "2000", &why), 0);
	assert_int_equal(s.edition, EDITION_2000);
	assert_int_equal(set(&s, "edition", "1066", &why), -1);
	assert_int_equal(set(&s, "edition", "webDiplomacy", &why), 0);
	assert_int_equal(s.edition, EDITION_WEBDIP);
	assert_string_equal(edition_name(s.edition), "webdiplomacy");
	assert_int_equal(set(&s, "edition", "2000", &why), 0);
	assert_int_equal(set(&s, "zone", "UTC", &why), 0);
	assert_int_equal(set(&s, "zone", "Mars/Olympus", &why), -1);
	assert_string_equal(s.zone, "UTC");
	assert_int_equal(set(&s, "Retreat", "36h", &why), 0);
	assert_int_equal(s.duration[PHASE_RETREAT], 36 * 3600);
	assert_int_equal(set(&s, "adjustment", "0", &why), -1);
	assert_int_equal(set(&s, "movement", "soon", &why), -1);
	assert_int_equal(s.duration[PHASE_MOVEMENT], 48 * 3600);
	assert_int_equal(set(&s, "grace", "0", &why), 0);
	assert_int_equal(s.grace, 0);
	assert_int_equal(set(&s, "remind", "6h", &why), 0);
	assert_int_equal(s.remind, 6 * 3600);
	assert_int_equal(set(&s, "time", "18:30", &why), 0);
	assert_int_equal(s.deadline_minute, 18 * 60 + 30);
	assert_int_equal(set(&s, "time", "24:00", &why), -1);
	assert_int_equal(set(&s, "time", "NONE", &why), 0);
	assert_int_equal(s.deadline_minute, -1);
	assert_int_equal(set(&s, "days", "mon,Wednesday fri", &why), 0);
	assert_int_equal(s.days, (1 << 1) | (1 << 3) | (1 << 5));
	assert_int_equal(set(&s, "days", "any", &why), 0);
	assert_int_equal(s.days, 0);
	assert_int_equal(set(&s, "days", "someday", &why), -1);
	assert_int_equal(set(&s, "first-movement", "36h", &why), 0);
	assert_int_equal(s.first_movement, 36 * 3600);
	assert_int_equal(set(&s, "first-movement", "none", &why), 0);
	assert_int_equal(s.first_movement, 0);
	assert_int_equal(set(&s, "first-movement", "off", &why), -1);
	assert_int_equal(set(&s, "gmpress", "On", &why), 0);
	assert_true(s.gm_reads_press);
	assert_int_equal(set(&s, "gm-reads-press", "yes", &why), 0);
	assert_true(s.gm_reads_press);
	assert_int_equal(set(&s, "gmpress", "maybe", &why), -1);
	assert_string_equal(buf_str(&why), "bad value \"maybe\" for gmpress");
	assert_int_equal(set(&s, "colour", "red", &why), -1);
	assert_string_equal(buf_str(&why), "unknown setting \"colour\" (press, nmr, edition, zone, "
	    "movement, retreat, adjustment, first-movement, grace, remind, time, days, gmpress, "
	    "dated-orders)");
	assert_int_equal(set(&s, "speech", "12h", &why), -1);
	assert_string_equal(buf_str(&why), "unknown setting \"speech\" (press, nmr, edition, zone, "
	    "movement, retreat, adjustment, first-movement, grace, remind, time, days, gmpress, "
	    "dated-orders)");
	buf_free(&why);
}

/* Every setting's key is documented in pouch(1) as an option of pouch
 * game new ("\-press"), which makes each a SET line: the keys are the
 * ones an unknown key is told. */
/* A judge holds every game at once, each with a delegation for each
 * power: a delegation is small, its members and orders kept in arrays as
 * long as they are (it took 2.5 KB, room for the most of each), and they
 * still take their most: GAME_MAX_ORDERS orders, GAME_MAX_MEMBERS members. */
static void
test_delegation_room(void **state)
{
	struct game *g = calloc(1, sizeof *g);
	struct game_settings s;
	struct order w = { .kind = ORDER_WAIVE, .power = 0, .loc = LOC_NONE, .dest = LOC_NONE,
			   .target = LOC_NONE, .target_power = POWER_NONE };
	struct delegation *d;
	char addr[ADDR_MAX];
	int k;

	(void)state;
	assert_true(sizeof(struct delegation) <= 256);
	assert_non_null(g);
	settings(&s);
	game_init(g, "room", &s, test_standard_map(), test_standard_names(), 1795000000);
	d = game_del(g, 0);
	assert_null(d->members);
	assert_null(d->orders);
	for (k = 0; k < GAME_MAX_ORDERS; k++)
		assert_int_equal(game_set_order(g, 0, &w), 0);
	assert_int_equal(game_set_order(g, 0, &w), -1);
	assert_int_equal(d->norders, GAME_MAX_ORDERS);
	for (k = 0; k < GAME_MAX_ORDERS; k++)
		assert_int_equal(d->orders[k].kind, ORDER_WAIVE);
	for (k = 0; k < GAME_MAX_MEMBERS; k++) {
		snprintf(addr, sizeof addr, "m%d@example.org", k);
		member(g, 0, addr, "");
	}
	assert_int_equal(d->nmembers, GAME_MAX_MEMBERS);
	assert_string_equal(d->members[0].addr, "m0@example.org");
	assert_string_equal(d->members[GAME_MAX_MEMBERS - 1].zone, "");
	game_free(g);
}

static void
test_settings_documented(void **state)
{
	struct game_settings s;
	struct buf why, man;
	const char *p;
	char key[64];
	size_t n;

	(void)state;
	buf_init(&why, 256);
	test_read_file("judge/cli/pouch.1", &man);
	assert_int_equal(set(&s, "?", "", &why), -1);
	p = strchr(buf_str(&why), '(');
	assert_non_null(p);
	for (p++; *p && *p != ')'; p += n + strspn(p + n, ", ")) {
		n = strcspn(p, ", )");
		assert_true(n > 0 && n + 3 < sizeof key);
		snprintf(key, sizeof key, "\\-%.*s ", (int)n, p);
		if (strstr(buf_str(&man), key) == NULL)
			fail_msg("the setting %.*s is not in pouch.1", (int)n, p);
	}
	buf_free(&man);
	buf_free(&why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_old_file),
		cmocka_unit_test(test_other_system_setting),
		cmocka_unit_test(test_system_state),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_settings_documented),
		cmocka_unit_test(test_delegation_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
