/*
 * test_judge.c — the mail judge through its public API (judge.h, game.h):
 * who may write for a game, what is refused and how, where press goes,
 * who may give the game master's commands, and a Spring 1901 played to
 * its results. The judge is given a fake shell (struct judge_io): the
 * standard map, history kept in memory, randomness made from the label.
 *
 * Every expected reply is the wording the transcripts' golden files
 * (tests/data/transcripts/NAME.out) show players; nothing here depends on how
 * the judge is built inside.
 */
#define _GNU_SOURCE
#include "../support/testutil.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/judge.h"
#include "../../judge/secret.h"
#include "../../judge/system_words.h"
#include "../../judge/systems/muna_state.h"
#include "../../judge/systems/standard.h"
#include "../../judge/systems/systems.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/names.h"

#define T0 1795165200 /* Friday 2026-11-20 09:00 UTC: the game starts */
#define HOUR 3600
#define DEADLINE1 (T0 + 48 * HOUR) /* Sunday 22 November 2026, 09:00 UTC */
#define GM_ADDR "gm@school.example"
#define GM_PW "gm-secret-1"
#define HISTORY_MAX 32
#define IDS_MAX 1024
/* The end of a reply an hour after the start (commands.out, MAIL 2). */
#define DEADLINE_AT_10 "Deadline: Sunday 22 November 2026, 09:00 UTC, in 1 day 23 hours.\n"
/* ... for England with one order given, F Lon - Nth. */
#define ENGLAND_LON_NTH                                                                  \
	"Your orders for Spring 1901 Movement:\n"                                         \
	"  F edi: no order yet (it holds if none comes)\n"                                \
	"  F lon - nth\n"                                                                  \
	"  A lvp: no order yet (it holds if none comes)\n"                                \
	"\n" DEADLINE_AT_10

static struct names *standard_names;
static struct map *rp_map;		/* the variant realpolitik */
static struct names *rp_names;
/* The other systems' variants, loaded once. */
static struct {
	const char *name;
	struct map *map;
	struct names *names;
} other[] = { { "worldgame", NULL, NULL }, { "muna", NULL, NULL } };

/* The seven delegations: England has two members, the others one. */
static const struct {
	const char *power, *members, *password;
} seven[] = {
	{ "Austria", "anna@austria.example", "austria-pw" },
	{ "England", "alice@england.example,bob@england.example", "england-pw" },
	{ "France", "carol@france.example", "france-pw" },
	{ "Germany", "dave@germany.example", "germany-pw" },
	{ "Italy", "ivo@italy.example", "italy-pw" },
	{ "Russia", "rita@russia.example", "russia-pw" },
	{ "Turkey", "tarik@turkey.example", "turkey-pw" },
};

/* The fake shell, and the judge it serves. */
struct tj {
	struct judge_conf conf;
	struct judge j;
	struct game *g;			/* game g1 */
	long seq;			/* inbound messages so far */
	int nhist;
	struct {
		char game[GAME_NAME_MAX];
		int index;
		char *text;
	} hist[HISTORY_MAX];
	char *ids[IDS_MAX];		/* the Message-IDs of every step so far */
	int nids;
};

/* ---------------------------------------------------------- fake shell -- */

static const struct map *
fake_variant(void *ctx, const char *name, const struct names **nm)
{
	(void)ctx;
	size_t i;

	if (strcmp(name, "realpolitik") == 0) {
		*nm = rp_names;
		return rp_map;
	}
	for (i = 0; i < sizeof other / sizeof other[0]; i++)
		if (strcmp(name, other[i].name) == 0) {
			*nm = other[i].names;
			return other[i].map;
		}
	if (strcmp(name, "standard") != 0)
		return NULL;
	*nm = standard_names;
	return test_standard_map();
}

static int
fake_history(void *ctx, const char *game, int index, struct buf *out)
{
	struct tj *t = ctx;
	int i;

	for (i = 0; i < t->nhist; i++)
		if (t->hist[i].index == index && strcmp(t->hist[i].game, game) == 0) {
			buf_puts(out, t->hist[i].text);
			return 0;
		}
	return -1;
}

/* The same label gives the same bytes (FNV-1a, then xorshift). */
static int
fake_random(void *ctx, const char *label, unsigned char out[16])
{
	uint64_t h = 14695981039346656037u;
	int i;

	(void)ctx;
	for (; *label; label++)
		h = (h ^ (unsigned char)*label) * 1099511628211u;
	for (i = 0; i < 16; i++) {
		h ^= h << 13;
		h ^= h >> 7;
		h ^= h << 17;
		out[i] = (unsigned char)h;
	}
	return 0;
}

/* Do what the shell does with the effects of the last step: keep the
 * phases as history records, then forget everything. */
static void
fx_begin(struct tj *t)
{
	int i, k;

	/* A rollback retires the records from its phase on. */
	for (i = 0; i < t->j.fx.nrollbacks; i++)
		for (k = 0; k < t->nhist; k++)
			if (strcmp(t->hist[k].game, t->j.fx.rollbacks[i].game) == 0 &&
			    t->hist[k].index >= strtol(t->j.fx.rollbacks[i].text, NULL, 10)) {
				free(t->hist[k].text);
				t->hist[k--] = t->hist[--t->nhist];
			}
	for (i = 0; i < t->j.fx.nout; i++) {
		assert_true(t->nids < IDS_MAX);
		t->ids[t->nids++] = xstrdup(t->j.fx.out[i].message_id);
	}
	for (i = 0; i < t->j.fx.nphases; i++) {
		const struct judge_phase *ph = &t->j.fx.phases[i];
		assert_true(t->nhist < HISTORY_MAX);
		str_copy(t->hist[t->nhist].game, ph->game, GAME_NAME_MAX);
		t->hist[t->nhist].index = ph->index;
		t->hist[t->nhist].text = xstrdup(ph->text);
		t->nhist++;
	}
	judge_effects_clear(&t->j);
}

static void
fill_msg(struct tj *t, struct inmsg *m, const char *from, const char *subject, const char *body,
    time_t now)
{
	char id[64];

	memset(m, 0, sizeof *m);
	snprintf(id, sizeof id, "m%ld@players.example", t->seq + 1);
	m->message_id = xstrdup(id);
	m->from_addr = xstrdup(from);
	m->subject = xstrdup(subject);
	m->text = xstrdup(body);
	m->arrival = now;
}

/* A message from a player or GM; j.fx then holds what it caused. */
static void
mail_dated(struct tj *t, const char *from, const char *subject, const char *body, time_t now,
    time_t date)
{
	struct inmsg m;

	fx_begin(t);
	fill_msg(t, &m, from, subject, body, now);
	m.date = date;
	judge_mail(&t->j, &m, ++t->seq, now);
	inmsg_free(&m);
}

static void
mail(struct tj *t, const char *from, const char *subject, const char *body, time_t now)
{
	mail_dated(t, from, subject, body, now, 0);
}

/* A message from the host (`pouch game ...`). */
static void
host(struct tj *t, const char *body, time_t now)
{
	struct inmsg m;

	fx_begin(t);
	fill_msg(t, &m, "host@localhost", "", body, now);
	judge_host_mail(&t->j, &m, ++t->seq, now);
	inmsg_free(&m);
}

static void
tick(struct tj *t, time_t now)
{
	fx_begin(t);
	judge_tick(&t->j, now);
}

static void
tick_due(struct tj *t, time_t now)
{
	fx_begin(t);
	judge_tick_due(&t->j, now);
}

static power_id
power(const char *name)
{
	power_id p = map_find_power(test_standard_map(), name);

	assert_true(p != POWER_NONE);
	return p;
}

/* --------------------------------------------------------- the effects -- */

/* Is line (without its newline) a whole line of text? */
static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *s;

	for (s = text; (s = strstr(s, line)) != NULL; s++)
		if ((s == text || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\0'))
			return true;
	return false;
}

#define assert_line(text, line)                                                          \
	do {                                                                             \
		if (!has_line((text), (line)))                                           \
			fail_msg("no line \"%s\" in:\n%s", (line), (text));              \
	} while (0)
#define assert_no_line(text, line)                                                       \
	do {                                                                             \
		if (has_line((text), (line)))                                            \
			fail_msg("unexpected line \"%s\" in:\n%s", (line), (text));      \
	} while (0)
#define assert_lacks(text, part)                                                         \
	do {                                                                             \
		if (strstr((text), (part)) != NULL)                                      \
			fail_msg("unexpected \"%s\" in:\n%s", (part), (text));           \
	} while (0)

#define assert_prefix(text, head)                                                        \
	do {                                                                             \
		if (strncmp((text), (head), strlen(head)) != 0)                          \
			fail_msg("\"%s\" does not start with \"%s\"", (text), (head));      \
	} while (0)

/* How many messages go to addr (To or Cc). */
static int
count_to(const struct tj *t, const char *addr)
{
	int i, k, n = 0;

	for (i = 0; i < t->j.fx.nout; i++) {
		const struct outmsg *o = &t->j.fx.out[i];
		for (k = 0; k < o->nto; k++)
			n += strcmp(o->to[k], addr) == 0;
		for (k = 0; k < o->ncc; k++)
			n += strcmp(o->cc[k], addr) == 0;
	}
	return n;
}

/* The one message first addressed to addr (To) with subject; fails when
 * there is none or more than one. */
static const struct outmsg *
sent(const struct tj *t, const char *addr, const char *subject)
{
	const struct outmsg *found = NULL;
	int i, n = 0;

	for (i = 0; i < t->j.fx.nout; i++) {
		const struct outmsg *o = &t->j.fx.out[i];
		if (o->nto >= 1 && strcmp(o->to[0], addr) == 0 && strcmp(o->subject, subject) == 0) {
			found = o;
			n++;
		}
	}
	if (n != 1)
		fail_msg("%d messages to %s with subject \"%s\" (%d in all)", n, addr, subject,
		    t->j.fx.nout);
	return found;
}

/* Did an earlier step make a message with Message-ID id? */
static bool
id_used(const struct tj *t, const char *id)
{
	int i;

	for (i = 0; i < t->nids; i++)
		if (strcmp(t->ids[i], id) == 0)
			return true;
	return false;
}

/* How many messages of the last step with subject go to addr (To) that
 * the shell sends: those whose Message-ID no earlier message had (it
 * takes a Message-ID it saw before for a repeat, and drops it). */
static int
count_delivered(const struct tj *t, const char *addr, const char *subject)
{
	int i, k, n = 0;

	for (i = 0; i < t->j.fx.nout; i++) {
		const struct outmsg *o = &t->j.fx.out[i];
		bool again = id_used(t, o->message_id);
		for (k = 0; k < i && !again; k++)
			again = strcmp(t->j.fx.out[k].message_id, o->message_id) == 0;
		if (!again && o->nto >= 1 && strcmp(o->to[0], addr) == 0 &&
		    strcmp(o->subject, subject) == 0)
			n++;
	}
	return n;
}

/* Every member of the seven delegations and the GM get exactly one
 * message with subject from the last step, as the shell sends it. */
static void
assert_everyone_once(const struct tj *t, const char *subject)
{
	char addr[ADDR_MAX];
	size_t i, n;
	const char *m;

	for (i = 0; i < sizeof seven / sizeof seven[0]; i++)
		for (m = seven[i].members; *m; m += n + (m[n] == ',')) {
			n = strcspn(m, ",");
			snprintf(addr, sizeof addr, "%.*s", (int)n, m);
			if (count_delivered(t, addr, subject) != 1)
				fail_msg("%d messages \"%s\" delivered to %s", count_delivered(t, addr,
				    subject), subject, addr);
		}
	if (count_delivered(t, GM_ADDR, subject) != 1)
		fail_msg("%d messages \"%s\" delivered to %s", count_delivered(t, GM_ADDR, subject),
		    subject, GM_ADDR);
}

/* The reply to the last message: to addr, Cc the ncc addresses of cc. */
static const char *
reply(const struct tj *t, const char *addr, const char *subject, const char *const *cc, int ncc)
{
	const struct outmsg *o = sent(t, addr, subject);
	char id[64];
	int i;

	snprintf(id, sizeof id, "m%ld@players.example", t->seq);
	assert_int_equal(o->nto, 1);
	assert_int_equal(o->ncc, ncc);
	for (i = 0; i < ncc; i++)
		assert_string_equal(o->cc[i], cc[i]);
	assert_int_equal(o->autosub, OUT_REPLY);
	assert_non_null(o->in_reply_to);
	assert_string_equal(o->in_reply_to, id);
	return o->text;
}

/* Audit note i is text, a note of game g1. */
static void
assert_audit(const struct tj *t, int i, const char *text)
{
	assert_true(i < t->j.fx.naudit);
	assert_string_equal(t->j.fx.audit[i].game, "g1");
	assert_string_equal(t->j.fx.audit[i].text, text);
}

/* The game file of g, for what was saved. Caller frees. */
static char *
game_file(const struct game *g)
{
	struct buf b;

	buf_init(&b, 1 << 20);
	game_write(g, &b);
	return buf_take(&b);
}

static void
assert_state_line(const struct game *g, const char *line)
{
	char *s = game_file(g);

	assert_line(s, line);
	free(s);
}

static void
assert_no_state_line(const struct game *g, const char *line)
{
	char *s = game_file(g);

	assert_no_line(s, line);
	free(s);
}

/* The rule system of a variant: the real modules, as the shell's. */
static const struct rule_system *
fake_system(void *ctx, const struct map *m)
{
	(void)ctx;
	return systems_for_map(m);
}

/* ------------------------------------------------------------- fixture -- */

static int
group_setup(void **state)
{
	char path[64];
	size_t i;

	(void)state;
	standard_names = names_new(test_standard_map());
	rp_map = test_load_map("maps/realpolitik/variant.xml");
	rp_names = rp_map ? names_new(rp_map) : NULL;
	for (i = 0; i < sizeof other / sizeof other[0]; i++) {
		snprintf(path, sizeof path, "maps/%s/variant.xml", other[i].name);
		other[i].map = test_load_map(path);
		other[i].names = names_new(other[i].map);
	}
	return standard_names && rp_names ? 0 : -1;
}

static int
group_teardown(void **state)
{
	size_t i;

	(void)state;
	names_free(standard_names);
	names_free(rp_names);
	map_free(rp_map);
	for (i = 0; i < sizeof other / sizeof other[0]; i++) {
		names_free(other[i].names);
		map_free(other[i].map);
	}
	return 0;
}

/* A judge with no game. */
static struct tj *
new_judge(void)
{
	struct tj *t = xcalloc(1, sizeof *t);
	/* Zones: none but UTC, as a lookup without a reader knows. */
	struct judge_io io = { t, fake_variant, fake_history, fake_random, fake_system,
		{ NULL, NULL }, NULL, NULL };

	str_copy(t->conf.address, "judge@example.test", sizeof t->conf.address);
	str_copy(t->conf.domain, "example.test", sizeof t->conf.domain);
	str_copy(t->conf.name, "pouch", sizeof t->conf.name);
	t->conf.reply_limit = 30;
	judge_init(&t->j, &t->conf, &io);
	return t;
}

/* Game g1 with settings s (NULL: the defaults), its seven delegations,
 * started at T0; the effects of setting it up are forgotten. */
static void
start_named(struct tj *t, const char *name, const struct game_settings *s)
{
	struct game_settings def;
	struct buf why;
	size_t i;

	if (s == NULL) {
		game_settings_default(&def, "standard");
		s = &def;
	}
	buf_init(&why, 1024);
	t->g = judge_new_game(&t->j, name, s, GM_ADDR, GM_PW, T0, &why);
	assert_non_null(t->g);
	for (i = 0; i < sizeof seven / sizeof seven[0]; i++)
		assert_int_equal(judge_add_delegation(&t->j, t->g, power(seven[i].power),
		    seven[i].members, seven[i].password, T0, &why), 0);
	assert_int_equal(judge_start(&t->j, t->g, T0, &why), 0);
	buf_free(&why);
	fx_begin(t);
}

static void
start_game(struct tj *t, const struct game_settings *s)
{
	start_named(t, "g1", s);
}

static int
setup(void **state)
{
	struct tj *t = new_judge();

	start_game(t, NULL);
	*state = t;
	return 0;
}

static int
setup_empty(void **state)
{
	*state = new_judge();
	return 0;
}

static int
teardown(void **state)
{
	struct tj *t = *state;
	int i;

	judge_free(&t->j);
	for (i = 0; i < t->nhist; i++)
		free(t->hist[i].text);
	for (i = 0; i < t->nids; i++)
		free(t->ids[i]);
	free(t);
	return 0;
}

/* -------------------------------------------------------- the game made -- */

/* judge_new_game, judge_add_delegation and judge_start: the audit, the
 * delegation's mail (no password when the GM set it), the announcement to
 * every member and the GM with the first deadline, 48 hours on. */
static void
test_game_made_and_started(void **state)
{
	struct tj *t = *state;
	struct game_settings s;
	struct buf why;
	const struct outmsg *o;
	struct game *g;
	size_t i;

	game_settings_default(&s, "standard");
	buf_init(&why, 1024);
	g = judge_new_game(&t->j, "g1", &s, GM_ADDR, GM_PW, T0, &why);
	assert_non_null(g);
	t->g = g;
	assert_int_equal(t->j.fx.nout, 0);	/* the GM chose the password */
	assert_audit(t, 0, "game created by gm@school.example: variant standard, edition 2023");
	assert_int_equal(g->status, GAME_FORMING);
	assert_ptr_equal(judge_find_game(&t->j, "G1"), g);

	/* The same name again, and an unknown variant: refused. */
	assert_null(judge_new_game(&t->j, "g1", &s, GM_ADDR, GM_PW, T0, &why));
	assert_string_equal(buf_str(&why), "there is already a game called g1");
	buf_reset(&why);
	str_copy(s.variant, "nowhere", sizeof s.variant);
	assert_null(judge_new_game(&t->j, "g2", &s, GM_ADDR, GM_PW, T0, &why));
	assert_string_equal(buf_str(&why), "no variant called \"nowhere\"");
	buf_reset(&why);

	/* Nothing to start without delegations. */
	assert_int_equal(judge_start(&t->j, g, T0, &why), -1);
	assert_string_equal(buf_str(&why), "no delegation yet: DELEGATION England alice@example.org, ...");
	buf_reset(&why);

	fx_begin(t);
	assert_int_equal(judge_add_delegation(&t->j, g, power("England"),
	    "alice@england.example, bob@england.example", "england-pw", T0, &why), 0);
	assert_int_equal(t->j.fx.nout, 1);
	o = sent(t, "alice@england.example", "[g1] you play England");
	assert_int_equal(o->nto, 2);
	assert_string_equal(o->to[1], "bob@england.example");
	assert_line(o->text, "by the judge judge@example.test. Your delegation: alice@england.example "
	    "bob@england.example.");
	assert_line(o->text, "Your game master will give you your password.");
	assert_line(o->text, "  GAME g1 England <password>");
	assert_lacks(o->text, "england-pw");
	assert_audit(t, 0, "delegation England: 2 members, password set by the GM");
	assert_state_line(g, "member England alice@england.example");
	assert_state_line(g, "member England bob@england.example");

	for (i = 0; i < sizeof seven / sizeof seven[0]; i++)
		if (strcmp(seven[i].power, "England") != 0)
			assert_int_equal(judge_add_delegation(&t->j, g, power(seven[i].power),
			    seven[i].members, seven[i].password, T0, &why), 0);
	fx_begin(t);
	assert_int_equal(judge_start(&t->j, g, T0, &why), 0);
	assert_int_equal(g->status, GAME_ACTIVE);
	assert_int_equal((long long)g->deadline, (long long)DEADLINE1);
	assert_audit(t, 0, "game started");
	/* Eight members and the GM. */
	assert_int_equal(t->j.fx.nout, 9);
	o = sent(t, "bob@england.example", "[g1] the game has started");
	assert_line(o->text, "Game g1 has started: Standard, 2023 rules.");
	assert_line(o->text, "Russia (4 centres): army in Moscow, fleet in Sevastopol, fleet in St "
	    "Petersburg (South Coast), army in Warsaw");
	assert_line(o->text, "Deadline: Sunday 22 November 2026, 09:00 UTC, in 2 days 0 hours.");
	assert_lacks(o->text, "has no players");	/* all seven are played */
	o = sent(t, GM_ADDR, "[g1] the game has started");
	assert_line(o->text, "Deadline: Sunday 22 November 2026, 09:00 UTC, in 2 days 0 hours.");
	assert_state_line(g, "status active");
	assert_state_line(g, "deadline 2026-11-22T09:00:00Z");
	assert_state_line(g, "phase Spring 1901 Movement");

	/* Started once. */
	buf_reset(&why);
	assert_int_equal(judge_start(&t->j, g, T0, &why), -1);
	assert_string_equal(buf_str(&why), "the game is active");
	buf_free(&why);
}

/* A password the judge makes up is mailed to the delegation, and only
 * there; it opens the game. */
static void
test_generated_password(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	struct buf why;
	char pw[64], body[128];
	const char *p;
	size_t n;

	buf_init(&why, 1024);
	assert_int_equal(judge_add_delegation(&t->j, t->g, power("Italy"), "ugo@italy.example", "",
	    T0 + HOUR, &why), 0);
	buf_free(&why);
	/* The new member, and the one taken off. */
	assert_int_equal(t->j.fx.nout, 2);
	o = sent(t, "ivo@italy.example", "[g1] you no longer play Italy");
	assert_string_equal(o->text, "The game master of g1 gave Italy to other players:\nyou no "
	    "longer play it, and its old password no longer works.\n");
	o = sent(t, "ugo@italy.example", "[g1] you play Italy");
	assert_int_equal(o->nto, 1);
	assert_line(o->text, "Keep it secret: anyone who knows it can give your orders.");
	assert_line(o->text, "The earlier password of Italy no longer works.");
	assert_audit(t, 0, "delegation Italy: 1 member, password generated and mailed to them");
	p = strstr(o->text, "Your password is: ");
	assert_non_null(p);
	p += strlen("Your password is: ");
	n = strcspn(p, "\n");
	assert_true(n >= 6 && n < sizeof pw);
	memcpy(pw, p, n);
	pw[n] = '\0';
	/* The old members are out; the new password opens the game. */
	assert_no_state_line(t->g, "member Italy ivo@italy.example");
	snprintf(body, sizeof body, "GAME g1 Italy %s\nA Ven H\n", pw);
	mail(t, "ugo@italy.example", "orders", body, T0 + HOUR);
	assert_line(reply(t, "ugo@italy.example", "Re: orders", NULL, 0), "  accepted: A ven H");
	snprintf(body, sizeof body, "GAME g1 Italy %s\nA Ven H\n", "italy-pw");
	mail(t, "ivo@italy.example", "orders", body, T0 + HOUR);
	assert_line(reply(t, "ivo@italy.example", "Re: orders", NULL, 0),
	    "  REFUSED: this GAME line does not match a game, power and password of this judge.");
}

/* A list of more members than a delegation may have is refused whole: the
 * ninth address is not dropped without a word. */
static void
test_too_many_members(void **state)
{
	struct tj *t = *state;
	struct buf why;
	char list[1024] = "";
	int i;

	for (i = 1; i <= 9; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%sp%d@italy.example",
		    i > 1 ? ", " : "", i);
	buf_init(&why, 1024);
	assert_int_equal(judge_add_delegation(&t->j, t->g, power("Italy"), list, "pw-italy",
	    T0 + HOUR, &why), -1);
	assert_non_null(strstr(buf_str(&why), "at most 8 members"));
	assert_int_equal(t->j.fx.nout, 0);
	assert_state_line(t->g, "member Italy ivo@italy.example");
	buf_free(&why);
}

/* Orders written in the Subject alone: the reply says the judge reads only
 * the message; a Subject that is no order gets no such line. */
static void
test_orders_in_subject(void **state)
{
	static const char *const cc[] = { "bob@england.example" };
	struct tj *t = *state;
	const char *line = "Your Subject reads like orders, but the judge reads only the message: "
	    "write them there, one a line.";

	mail(t, "alice@england.example", "Re: a lon - nth, f edi h", "GAME g1 England england-pw\n",
	    T0 + HOUR);
	assert_line(reply(t, "alice@england.example", "Re: a lon - nth, f edi h", cc, 1), line);
	mail(t, "alice@england.example", "my orders", "GAME g1 England england-pw\n", T0 + HOUR);
	assert_no_line(reply(t, "alice@england.example", "Re: my orders", cc, 1), line);
	mail(t, "alice@england.example", "a lon - nth", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_no_line(reply(t, "alice@england.example", "Re: a lon - nth", cc, 1), line);
}

/* ----------------------------------------------------- identification -- */

static const char *const bob[] = { "bob@england.example" };

static void
test_right_password(void **state)
{
	struct tj *t = *state;

	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 1);
	/* The reply goes to the sender, the rest of the delegation in Cc. */
	assert_string_equal(reply(t, "alice@england.example", "Re: orders", bob, 1),
	    "> GAME g1 England (password not shown)\n"
	    "  game g1, England\n"
	    "> F Lon - Nth\n"
	    "  accepted: F lon - nth\n"
	    "\n"
	    ENGLAND_LON_NTH);
	assert_string_equal(t->j.fx.out[0].game, "g1");
	assert_int_equal((long long)t->j.fx.out[0].date, (long long)(T0 + HOUR));
	assert_int_equal(t->j.fx.nlog, 0);
	assert_int_equal(t->j.fx.naudit, 0);
	assert_int_equal(t->g->del[power("England")].norders, 1);
	assert_state_line(t->g, "order England F lon - nth");
	assert_state_line(t->g, "seq 1");
}

/* In a Winter, what is still to order names an example build of each
 * kind the power may raise, and the waiver: England an army and a fleet
 * in Edinburgh, its one free home centre, on the coast; Austria, whose
 * one coastal home centre Trieste Italy holds, an army only. */
static void
test_build_examples(void **state)
{
	struct tj *t = *state;
	struct game *g = t->g;
	const char *r;
	int i;

	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.owner[map_find_province(g->map, "nwy")] = power("England");
	g->board.owner[map_find_province(g->map, "ser")] = power("Austria");
	g->board.owner[map_find_province(g->map, "tri")] = power("Italy");
	for (i = 0; i < g->board.nunits; i++) {
		const char *at = g->map->locs[g->board.units[i].loc].name;
		if (strcmp(at, "edi") == 0 || strcmp(at, "vie") == 0)
			board_remove_unit(&g->board, i--);
	}
	mail(t, "alice@england.example", "winter", "GAME g1 England england-pw\nLIST\n",
	    T0 + HOUR);
	r = reply(t, "alice@england.example", "Re: winter", bob, 1);
	assert_non_null(strstr(r, "Build 1 unit (\"Build A edi\", \"Build F edi\", or \"Waive\")."));
	mail(t, "anna@austria.example", "winter", "GAME g1 Austria austria-pw\nLIST\n", T0 + HOUR);
	r = reply(t, "anna@austria.example", "Re: winter", NULL, 0);
	assert_non_null(strstr(r, "Build 1 unit (\"Build A vie\", or \"Waive\")."));
}

static const char refused_ident[] =
    "  REFUSED: this GAME line does not match a game, power and password of this judge.\n"
    "  Check the game's name, your power's name in full (as your game master wrote it)\n"
    "  and your password; your game master can send a new one. Nothing in your message was recorded.\n";

/* A refused GAME line: the plain reply, nothing about the game, no copy
 * to the delegation, the reason in the judge's log, the game untouched. */
static void
assert_refused_ident(struct tj *t, const char *from, const char *game_line, const char *why)
{
	char want[1024], note[512];

	snprintf(want, sizeof want, "> %s (password not shown)\n%s", game_line, refused_ident);
	assert_int_equal(t->j.fx.nout, 1);
	assert_string_equal(reply(t, from, "Re: orders", NULL, 0), want);
	assert_null(t->j.fx.out[0].game);
	assert_int_equal(t->j.fx.naudit, 0);
	assert_int_equal(t->j.fx.nlog, 1);
	assert_string_equal(t->j.fx.log[0].game, "");
	snprintf(note, sizeof note, "not recorded: a message from %s: %s", from, why);
	assert_string_equal(t->j.fx.log[0].text, note);
}

static void
test_wrong_password(void **state)
{
	struct tj *t = *state;
	char *before = game_file(t->g), *after;

	mail(t, "alice@england.example", "orders", "GAME g1 England england-pass\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_refused_ident(t, "alice@england.example", "GAME g1 England",
	    "that is not England's password in game g1 (your game master can send a new one)");
	after = game_file(t->g);
	assert_string_equal(after, before);	/* no order, not even the seq */
	free(before);
	free(after);
}

/* A password checked once is remembered for the run, by a digest of it and
 * the stored hash: the next mail with it is accepted, one with another is
 * still refused, and the judge's memory of what it verified holds no copy
 * of the password. */
static void
test_password_remembered_not_kept(void **state)
{
	struct tj *t = *state;
	const char *pw = "england-pw";

	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_string_equal(t->j.fx.out[0].game, "g1");
	assert_int_equal(t->j.nok, 1);
	assert_null(memmem(t->j.okcache, t->j.capok * SHA256_SIZE, pw, strlen(pw)));
	/* a password the hash does not take, after one it did */
	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw2\nF Lon - Nth\n",
	    T0 + HOUR + 1);
	assert_refused_ident(t, "alice@england.example", "GAME g1 England",
	    "that is not England's password in game g1 (your game master can send a new one)");
	/* the same password for another power is checked against its own hash */
	mail(t, "anna@austria.example", "orders", "GAME g1 Austria england-pw\nA Vie H\n",
	    T0 + HOUR + 2);
	assert_refused_ident(t, "anna@austria.example", "GAME g1 Austria",
	    "that is not Austria's password in game g1 (your game master can send a new one)");
	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR + 3);
	assert_string_equal(t->j.fx.out[0].game, "g1");
	assert_int_equal(t->j.nok, 1);
}

/* What judge_mail_secret found: the password and the hash it must match. */
struct ahead {
	int n;
	char secret[64];
	const char *hash;
};

static void
note_secret(void *arg, const char *secret, const char *hash)
{
	struct ahead *a = arg;

	a->n++;
	str_copy(a->secret, secret, sizeof a->secret);
	a->hash = hash;
}

static void
read_secret(struct tj *t, const char *body, struct ahead *a)
{
	struct inmsg m;

	memset(a, 0, sizeof *a);
	fill_msg(t, &m, "alice@england.example", "orders", body, T0 + HOUR);
	judge_mail_secret(&t->j, &m, note_secret, a);
	inmsg_free(&m);
}

/* A shell's verdict, counted: what secret_check says, or the opposite. */
static int shell_checks;
static bool shell_lies;

static bool
shell_check(void *arg, const char *secret, const char *hash)
{
	(void)arg;
	shell_checks++;
	return secret_check(secret, hash) != shell_lies;
}

/* A shell may check passwords ahead of the judge: judge_mail_secret gives
 * the password of a message's GAME line and the hash it must match (a
 * power's, the GM's; nothing for a line that names no game or power), and
 * the judge then takes the shell's verdict (struct judge_io's
 * secret_check), once a run for a success. */
static void
test_password_checked_ahead(void **state)
{
	struct tj *t = *state;
	struct ahead a;

	read_secret(t, "Hello\nGAME g1 England england-pw\nF Lon - Nth\n", &a);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.secret, "england-pw");
	assert_ptr_equal(a.hash, t->g->del[power("England")].secret);
	read_secret(t, "GAME g1 GM " GM_PW "\nPROCESS\n", &a);
	assert_int_equal(a.n, 1);
	assert_string_equal(a.secret, GM_PW);
	assert_ptr_equal(a.hash, t->g->gm_secret);
	read_secret(t, "GAME g1, England, england-pw\n", &a);	/* as judge_mail reads it */
	assert_int_equal(a.n, 1);
	assert_string_equal(a.secret, "england-pw");
	read_secret(t, "GAME g9 England england-pw\n", &a);
	assert_int_equal(a.n, 0);
	read_secret(t, "GAME g1 Narnia england-pw\n", &a);
	assert_int_equal(a.n, 0);
	read_secret(t, "F Lon - Nth\n", &a);
	assert_int_equal(a.n, 0);

	t->j.io.secret_check = shell_check;
	shell_checks = 0;
	shell_lies = false;
	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_string_equal(t->j.fx.out[0].game, "g1");
	assert_int_equal(shell_checks, 1);
	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR + 1);
	assert_int_equal(shell_checks, 1);	/* remembered by the judge */
	/* the shell's verdict is the one taken */
	shell_lies = true;
	mail(t, "anna@austria.example", "orders", "GAME g1 Austria austria-pw\nA Vie H\n",
	    T0 + HOUR + 2);
	assert_int_equal(shell_checks, 2);
	assert_refused_ident(t, "anna@austria.example", "GAME g1 Austria",
	    "that is not Austria's password in game g1 (your game master can send a new one)");
	t->j.io.secret_check = NULL;
}

static void
test_unknown_game(void **state)
{
	struct tj *t = *state;

	mail(t, "alice@england.example", "orders", "GAME g9 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_refused_ident(t, "alice@england.example", "GAME g9 England",
	    "there is no game called \"g9\" on this judge");
	assert_int_equal(t->g->del[power("England")].norders, 0);
}

/* The password is what counts, not the address ("anyone who knows it can
 * give your orders", as the delegation's mail says): a stranger with it
 * is taken for England, and the whole delegation gets the reply in Cc, so
 * the members see what was ordered in their name. */
static void
test_non_member_with_password(void **state)
{
	static const char *const members[] = { "alice@england.example", "bob@england.example" };
	struct tj *t = *state;
	const char *text;

	mail(t, "mallory@elsewhere.example", "orders", "GAME g1 England england-pw\nF Lon - Nth\n",
	    T0 + HOUR);
	text = reply(t, "mallory@elsewhere.example", "Re: orders", members, 2);
	assert_line(text, "  game g1, England");
	assert_line(text, "  accepted: F lon - nth");
	assert_state_line(t->g, "order England F lon - nth");
	/* Not made a member. */
	assert_no_state_line(t->g, "member England mallory@elsewhere.example");
}

static const char *const gm_cc[] = { GM_ADDR };

/* The GM's password is not a power's, nor a power's the GM's. */
static void
test_gm_and_player_passwords(void **state)
{
	struct tj *t = *state;

	mail(t, "alice@england.example", "orders", "GAME g1 England " GM_PW "\nF Lon - Nth\n",
	    T0 + HOUR);
	assert_refused_ident(t, "alice@england.example", "GAME g1 England",
	    "that is not England's password in game g1 (your game master can send a new one)");
	mail(t, GM_ADDR, "orders", "GAME g1 GM england-pw\nPAUSE\n", T0 + HOUR);
	assert_refused_ident(t, GM_ADDR, "GAME g1 GM",
	    "that is not the game master's password for g1");
	assert_int_equal(t->g->status, GAME_ACTIVE);
	mail(t, GM_ADDR, "orders", "GAME g1 GM " GM_PW "\n", T0 + HOUR);
	assert_string_equal(reply(t, GM_ADDR, "Re: orders", NULL, 0),
	    "> GAME g1 GM (password not shown)\n"
	    "  game g1, game master\n"
	    "\n" DEADLINE_AT_10);
	assert_int_equal(t->j.fx.nlog, 0);

	/* As for a power, the password is the key, not the address: the GM
	 * sees, in Cc, what was done in the GM's name. */
	mail(t, "deputy@school.example", "orders", "GAME g1 GM " GM_PW "\nSET grace 12h\n", T0 + HOUR);
	assert_line(reply(t, "deputy@school.example", "Re: orders", gm_cc, 1), "  grace set to 12h");
	assert_audit(t, 0, "setting grace = 12h");
}

/* A new standard game g2 with one delegation for the powers eg[0] and
 * eg[1] (eg@two.example, password eg-secret), the effects from then on. */
static struct game *
new_game_two_powers(struct tj *t, const power_id eg[2], struct buf *why)
{
	struct game_settings s;
	struct game *g;

	game_settings_default(&s, "standard");
	g = judge_new_game(&t->j, "g2", &s, GM_ADDR, GM_PW, T0, why);
	assert_non_null(g);
	fx_begin(t);
	assert_int_equal(judge_add_delegations(&t->j, g, eg, 2, "eg@two.example", "eg-secret", T0,
	    why), 0);
	return g;
}

/* fewer-three.txt: one delegation for England and Germany; a GAME line
 * naming either, one mail for all its units, each order to the power
 * whose unit it names; press to either reaches it once. */
static void
test_two_powers_one_delegation(void **state)
{
	struct tj *t = *state;
	power_id eg[2] = { power("England"), power("Germany") };
	struct buf why;
	const struct outmsg *o;
	struct game *g;

	buf_init(&why, 1024);
	g = new_game_two_powers(t, eg, &why);
	assert_int_equal(t->j.fx.nout, 1);
	o = sent(t, "eg@two.example", "[g2] you play England and Germany");
	assert_line(o->text, "  GAME g2 England <password>");
	assert_line(o->text, "One password and one mail serve all your powers: the GAME line may name");
	assert_string_equal(t->j.fx.audit[0].text,
	    "delegation England and Germany: 1 member, password set by the GM");
	assert_true(game_held_together(g, eg[0], eg[1]));
	assert_int_equal(judge_add_delegation(&t->j, g, power("France"), "fr@two.example",
	    "france-pw", T0, &why), 0);
	assert_int_equal(judge_start(&t->j, g, T0, &why), 0);
	buf_free(&why);

	mail(t, "eg@two.example", "spring", "GAME g2 Germany eg-secret\nF Lon - Nth\nA Ber - Kie\n"
	    "A Par - Bur\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 1);
	assert_string_equal(reply(t, "eg@two.example", "Re: spring", NULL, 0),
	    "> GAME g2 Germany (password not shown)\n"
	    "  game g2, Germany\n"
	    "> F Lon - Nth\n"
	    "  accepted: F lon - nth\n"
	    "> A Ber - Kie\n"
	    "  accepted: A ber - kie\n"
	    "> A Par - Bur\n"
	    "  REFUSED: the army in Paris is French, not yours\n"
	    "\n"
	    "England. Your orders for Spring 1901 Movement:\n"
	    "  F edi: no order yet (it holds if none comes)\n"
	    "  F lon - nth\n"
	    "  A lvp: no order yet (it holds if none comes)\n"
	    "Germany. Your orders for Spring 1901 Movement:\n"
	    "  A ber - kie\n"
	    "  F kie: no order yet (it holds if none comes)\n"
	    "  A mun: no order yet (it holds if none comes)\n"
	    "\n" DEADLINE_AT_10);
	assert_state_line(g, "order England F lon - nth");
	assert_state_line(g, "order Germany A ber - kie");

	/* The GAME line may name the other power: the same password. */
	mail(t, "eg@two.example", "more", "GAME g2 England eg-secret\nA Mun - Ruh\n", T0 + HOUR);
	assert_line(reply(t, "eg@two.example", "Re: more", NULL, 0), "  accepted: A mun - ruh");
	assert_state_line(g, "order Germany A mun - ruh");

	/* ORDERS CLEAR forgets the orders of both powers, whichever the
	 * GAME line names. */
	mail(t, "eg@two.example", "clear", "GAME g2 England eg-secret\nORDERS CLEAR\n", T0 + HOUR);
	assert_line(reply(t, "eg@two.example", "Re: clear", NULL, 0),
	    "  your earlier orders are forgotten");
	assert_int_equal(g->del[eg[0]].norders, 0);
	assert_int_equal(g->del[eg[1]].norders, 0);
	mail(t, "eg@two.example", "again", "GAME g2 Germany eg-secret\nF Lon - Nth\nA Ber - Kie\n"
	    "A Mun - Ruh\n", T0 + HOUR);
	assert_state_line(g, "order England F lon - nth");

	/* Press to both powers: one copy for the delegation. */
	mail(t, "fr@two.example", "press", "GAME g2 France france-pw\nPRESS TO England, Germany\n"
	    "Hello to you both.\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(count_to(t, "eg@two.example"), 1);
	o = sent(t, "eg@two.example", "[g2] press from France");
	assert_string_equal(o->text, "Press in g2 from France to England, Germany:\n\nHello to you both.\n");
	assert_line(reply(t, "fr@two.example", "Re: press", NULL, 0), "  press delivered to 1 recipient");

	/* WAIT and VOTE speak for the delegation: every power it holds. */
	mail(t, "eg@two.example", "wait", "GAME g2 Germany eg-secret\nWAIT\nVOTE DRAW\n"
	    "VOTE CONCEDE England\n", T0 + HOUR);
	assert_true(g->del[eg[0]].wait && g->del[eg[1]].wait);
	assert_int_equal(g->del[eg[0]].vote, VOTE_DRAW);
	assert_int_equal(g->del[eg[1]].vote, VOTE_DRAW);
	assert_line(reply(t, "eg@two.example", "Re: wait", NULL, 0), "  REFUSED: your delegation "
	    "plays England; concede to another delegation");
	mail(t, "eg@two.example", "nowait", "GAME g2 England eg-secret\nNOWAIT\nVOTE NONE\n",
	    T0 + HOUR);
	assert_true(!g->del[eg[0]].wait && !g->del[eg[1]].wait);
	assert_int_equal(g->del[eg[1]].vote, VOTE_NONE);

	/* The deadline passes with both powers' orders incomplete: one
	 * notice for the delegation, naming both, with both powers' orders;
	 * the game master's list names every late power. */
	tick(t, g->deadline + 60);
	assert_int_equal(count_to(t, "eg@two.example"), 1);
	o = sent(t, "eg@two.example", "[g2] deadline passed: orders missing for Spring 1901 Movement");
	assert_true(strncmp(o->text, "Game g2, England and Germany: the deadline has passed and your "
	    "orders\nfor Spring 1901 Movement are not complete.\n", 96) == 0);
	assert_line(o->text, "England. Your orders for Spring 1901 Movement:");
	assert_line(o->text, "Germany. Your orders for Spring 1901 Movement:");
	assert_int_equal(count_to(t, "fr@two.example"), 1);
	o = sent(t, "fr@two.example", "[g2] deadline passed: orders missing for Spring 1901 Movement");
	assert_true(strncmp(o->text, "Game g2, France: the deadline has passed", 40) == 0);
	assert_int_equal(count_to(t, GM_ADDR), 1);
	assert_non_null(strstr(t->j.fx.out[t->j.fx.nout - 1].text,
	    "Orders are missing from: England, France, Germany."));
	/* The master's notice names the phase, in its subject and its text. */
	assert_string_equal(t->j.fx.out[t->j.fx.nout - 1].subject,
	    "[g2] deadline passed: orders missing for Spring 1901 Movement");
	assert_non_null(strstr(t->j.fx.out[t->j.fx.nout - 1].text,
	    "The deadline of game g2, Spring 1901 Movement, has passed."));
}

/* A delegation of three powers and one of two: a misspelt place is read by
 * the units of every power the delegation holds, whichever the GAME line
 * names; a power's name alone on its line is a heading, taken quietly,
 * saying whose orders follow (a Waive is that power's); a power the
 * delegation does not hold is refused; two orders on one line give both. */
static void
test_delegation_misspelt_places(void **state)
{
	struct tj *t = *state;
	power_id ega[3] = { power("England"), power("Germany"), power("Austria") };
	power_id ft[2] = { power("France"), power("Turkey") };
	struct game_settings s;
	struct buf why;
	const char *r;
	struct game *g;
	int i;

	game_settings_default(&s, "standard");
	buf_init(&why, 1024);
	g = judge_new_game(&t->j, "g3", &s, GM_ADDR, GM_PW, T0, &why);
	assert_non_null(g);
	assert_int_equal(judge_add_delegations(&t->j, g, ega, 3, "ega@three.example", "ega-secret", T0,
	    &why), 0);
	assert_int_equal(judge_add_delegations(&t->j, g, ft, 2, "ft@three.example", "ft-secret", T0,
	    &why), 0);
	assert_int_equal(judge_start(&t->j, g, T0, &why), 0);
	buf_free(&why);

	/* The GAME line names England: a German, an Austrian and an English
	 * unit, each with a misspelt place; headings of its powers. */
	mail(t, "ega@three.example", "spring", "GAME g3 England ega-secret\n"
	    "Austria:\nA Vienna - Galicja\nA Bdapest - Serbia\n"
	    "Germany:\nA Kiel - Holand\nA Munch - Burgandy\n"
	    "England:\nF Londn - North Sea\n"
	    "Italy:\n", T0 + HOUR);
	r = reply(t, "ega@three.example", "Re: spring", NULL, 0);
	assert_line(r, "  corrected: A vie - gal  (\"galicja\" read as Galicia)");
	assert_line(r, "  corrected: A bud - ser  (\"bdapest\" read as Budapest)");
	assert_line(r, "  corrected: F kie - hol  (\"holand\" read as Holland; the unit in Kiel is a "
	    "fleet, not an army)");
	assert_line(r, "  corrected: A mun - bur  (\"munch\" read as Munich; \"burgandy\" read as "
	    "Burgundy)");
	assert_line(r, "  corrected: F lon - nth  (\"londn\" read as London)");
	assert_line(r, "  REFUSED: you do not play Italy");
	assert_lacks(r, "no order after the power name");
	assert_prefix(strstr(r, "> Austria:\n"), "> Austria:\n> A Vienna - Galicja\n");
	assert_state_line(g, "order Austria A vie - gal");
	assert_state_line(g, "order Austria A bud - ser");
	assert_state_line(g, "order Germany F kie - hol");
	assert_state_line(g, "order Germany A mun - bur");
	assert_state_line(g, "order England F lon - nth");

	/* The other delegation, its GAME line naming France: Turkey's units. */
	mail(t, "ft@three.example", "spring", "GAME g3 France ft-secret\nA Smirna - Armenia\n"
	    "F Ankara - Armenai\nA Constantinopel - Bulgaria, A Marsailles - Spain\n", T0 + HOUR);
	r = reply(t, "ft@three.example", "Re: spring", NULL, 0);
	assert_line(r, "  corrected: A smy - arm  (\"smirna\" read as Smyrna)");
	assert_line(r, "  corrected: F ank - arm  (\"armenai\" read as Armenia)");
	assert_line(r, "  corrected: A con - bul  (\"constantinopel\" read as Constantinople)");
	assert_line(r, "  corrected: A mar - spa  (\"marsailles\" read as Marseilles)");
	assert_state_line(g, "order Turkey A smy - arm");
	assert_state_line(g, "order Turkey F ank - arm");
	assert_state_line(g, "order Turkey A con - bul");
	assert_state_line(g, "order France A mar - spa");

	/* A Winter with a build due to Germany only: Waive under no heading
	 * is England's, under "Germany:" Germany's. */
	g->board.season = SEASON_WINTER;
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.owner[map_find_province(g->map, "hol")] = power("Germany");
	for (i = 0; i < g->board.nunits; i++)	/* Berlin left free to build in */
		if (g->board.units[i].power == power("Germany") &&
		    g->map->provs[g->map->locs[g->board.units[i].loc].prov].abbr[0] == 'b')
			board_remove_unit(&g->board, i--);
	mail(t, "ega@three.example", "winter", "GAME g3 England ega-secret\nWaive\nGermany's orders:\n"
	    "Waive\n", T0 + 2 * HOUR);
	r = reply(t, "ega@three.example", "Re: winter", NULL, 0);
	assert_prefix(strstr(r, "> Waive\n"), "> Waive\n  REFUSED: ");
	assert_prefix(strstr(r, "> Germany's orders:\n"), "> Germany's orders:\n> Waive\n"
	    "  accepted: Waive\n");
	assert_state_line(g, "order Germany Waive");

	/* A heading above the GAME line is listed with the lines that are not
	 * orders, as a greeting there is. */
	mail(t, "ega@three.example", "above", "Orders for Germany:\nGAME g3 England ega-secret\n"
	    "Orders for Austria:\nA Mun H\n", T0 + 2 * HOUR);
	r = reply(t, "ega@three.example", "Re: above", NULL, 0);
	assert_lacks(r, "start with a line GAME");
	assert_line(r, "Ignored 1 line that is not an order: \"Orders for Germany:\".");
	/* Below it, "Orders for Austria:" is a heading, not the ORDERS command. */
	assert_prefix(strstr(r, "> Orders for Austria:\n"), "> Orders for Austria:\n> A Mun H\n");
}

/* A delegation of England and Germany writing from England's GAME line:
 * "Germany: Waive" is Germany's waive (a waive names no unit or centre, so
 * only its power says whose it is); "France: Waive" stays refused. */
static void
test_two_powers_waive(void **state)
{
	struct tj *t = *state;
	power_id eg[2] = { power("England"), power("Germany") };
	struct buf why;
	struct game *g;
	int i;

	buf_init(&why, 1024);
	g = new_game_two_powers(t, eg, &why);
	assert_int_equal(judge_add_delegation(&t->j, g, power("France"), "fr@two.example",
	    "france-pw", T0, &why), 0);
	assert_int_equal(judge_start(&t->j, g, T0, &why), 0);
	buf_free(&why);
	/* Winter: Germany's army in Munich is gone, a build due in Munich. */
	g->board.phase = PHASE_ADJUSTMENT;
	g->board.season = SEASON_WINTER;
	for (i = 0; i < g->board.nunits; i++)
		if (g->board.units[i].power == eg[1] && g->board.units[i].type == UNIT_ARMY &&
		    g->map->provs[g->map->locs[g->board.units[i].loc].prov].abbr[0] == 'm')
			board_remove_unit(&g->board, i--);
	fx_begin(t);
	mail(t, "eg@two.example", "winter", "GAME g2 England eg-secret\nGermany: Waive\n"
	    "France: Waive\n", T0 + HOUR);
	assert_line(reply(t, "eg@two.example", "Re: winter", NULL, 0), "  accepted: Waive");
	assert_line(reply(t, "eg@two.example", "Re: winter", NULL, 0),
	    "  REFUSED: that is an order for France; you play England");
	assert_state_line(g, "order Germany Waive");
}

/* ----------------------------------------------------------- refusals -- */

/* A player giving the game master's commands: each refused in plain
 * words, the game unchanged, nobody else told. */
static void
test_gm_command_from_player(void **state)
{
	struct tj *t = *state;
	const char *text;

	mail(t, "alice@england.example", "orders", "GAME g1 England england-pw\nPAUSE\n"
	    "SET press none\nPROCESS\nF Lon - Nth\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 1);
	text = reply(t, "alice@england.example", "Re: orders", bob, 1);
	assert_string_equal(text,
	    "> GAME g1 England (password not shown)\n"
	    "  game g1, England\n"
	    "> PAUSE\n"
	    "  REFUSED: PAUSE is a command for the game master\n"
	    "> SET press none\n"
	    "  REFUSED: players may only SET ZONE <zone>\n"
	    "> PROCESS\n"
	    "  REFUSED: PROCESS is a command for the game master\n"
	    "> F Lon - Nth\n"
	    "  accepted: F lon - nth\n"
	    "\n"
	    ENGLAND_LON_NTH);
	assert_int_equal(t->j.fx.naudit, 0);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_int_equal(t->g->status, GAME_ACTIVE);
	assert_int_equal(t->g->set.press, PRESS_WHITE);
	assert_int_equal(t->g->nphases, 0);
}

/* commands.txt: lines that cannot be read get their plain reply, and a bad
 * line never costs a good one; chat is listed as ignored. */
static void
test_unreadable_lines(void **state)
{
	struct tj *t = *state;

	mail(t, "carol@france.example", "hi", "GAME g1 France france-pw\n"
	    "Hello team, here are my orders\nA Par - Bur\nXyz - Bur\nHLEP\nA Mar - Mos\nThanks!\n",
	    T0 + HOUR);
	assert_string_equal(reply(t, "carol@france.example", "Re: hi", NULL, 0),
	    "> GAME g1 France (password not shown)\n"
	    "  game g1, France\n"
	    "> A Par - Bur\n"
	    "  accepted: A par - bur\n"
	    "> Xyz - Bur\n"
	    "  REFUSED: \"Xyz\" is not a place or a command (places like it: Gulf of Lyon, Syria or "
	    "Tyrolia). Send HELP for the commands.\n"
	    "> HLEP\n"
	    "  REFUSED: not an order or a command; did you mean HELP?\n"
	    "> A Mar - Mos\n"
	    "  REFUSED: the army in Marseilles cannot reach Moscow\n"
	    "\n"
	    "Ignored 2 lines that are not orders: \"Hello team, here are…\", \"Thanks!\".\n"
	    "\n"
	    "Your orders for Spring 1901 Movement:\n"
	    "  F bre: no order yet (it holds if none comes)\n"
	    "  A mar: no order yet (it holds if none comes)\n"
	    "  A par - bur\n"
	    "\n" DEADLINE_AT_10);
	assert_state_line(t->g, "order France A par - bur");
	assert_int_equal(t->g->del[power("France")].norders, 1);

	/* Mail without a GAME line: nothing is taken. */
	mail(t, "carol@france.example", "no game line", "A Mar - Spa\n", T0 + HOUR);
	assert_string_equal(reply(t, "carol@france.example", "Re: no game line", NULL, 0),
	    "> A Mar - Spa\n"
	    "  ignored: start with a line GAME <game> <power> <password> (send HELP for "
	    "instructions)\n");
	assert_int_equal(t->g->del[power("France")].norders, 1);
}

/* judge_conf.reply_limit: past it a sender gets no reply that hour (the
 * judge's log says so); the message is still read. */
static void
test_reply_limit(void **state)
{
	struct tj *t = *state;
	int i;

	t->conf.reply_limit = 3;
	for (i = 0; i < 3; i++) {
		mail(t, "carol@france.example", "orders", "GAME g1 France france-pw\nA Par - Bur\n",
		    T0 + HOUR + i * 60);
		assert_int_equal(t->j.fx.nout, 1);
		assert_int_equal(t->j.fx.nlog, 0);
	}
	mail(t, "carol@france.example", "orders", "GAME g1 France france-pw\nA Mar - Spa\n",
	    T0 + HOUR + 600);
	assert_int_equal(t->j.fx.nout, 0);
	assert_int_equal(t->j.fx.nlog, 1);
	assert_string_equal(t->j.fx.log[0].game, "g1");
	/* the line names the message, for a host looking for it */
	assert_string_equal(t->j.fx.log[0].text,
	    "no reply to carol@france.example: more than 3 replies this hour (judge.reply_limit); "
	    "its message <m4@players.example>");
	assert_state_line(t->g, "order France A mar - spa");
	/* Refusals count as replies too. */
	mail(t, "carol@france.example", "orders", "GAME g1 France wrong-pw\n", T0 + HOUR + 700);
	assert_int_equal(t->j.fx.nout, 0);
	assert_int_equal(t->j.fx.nlog, 2);
	assert_string_equal(t->j.fx.log[1].text,
	    "no reply to carol@france.example: more than 3 replies this hour (judge.reply_limit); "
	    "its message <m5@players.example>");
	/* Another sender is not held back; the next hour carol is answered. */
	mail(t, "dave@germany.example", "orders", "GAME g1 Germany germany-pw\n", T0 + HOUR + 800);
	assert_int_equal(t->j.fx.nout, 1);
	mail(t, "carol@france.example", "orders", "GAME g1 France france-pw\n", T0 + 2 * HOUR + 60);
	assert_int_equal(t->j.fx.nout, 1);
	assert_int_equal(t->j.fx.nlog, 0);
}

/* The replies of the hour the shell kept (judge_set_rate) count, among
 * many senders, whatever the case of the address. */
static void
test_reply_limit_kept(void **state)
{
	struct tj *t = *state;
	char addr[64];
	int i;

	t->conf.reply_limit = 3;
	for (i = 0; i < 200; i++) {
		snprintf(addr, sizeof addr, "player%d@example.org", i);
		judge_set_rate(&t->j, addr, T0 + HOUR, 1);
	}
	judge_set_rate(&t->j, "Carol@France.example", T0 + HOUR, 3);
	mail(t, "carol@france.example", "orders", "GAME g1 France france-pw\nA Par - Bur\n",
	    T0 + HOUR + 60);
	assert_int_equal(t->j.fx.nout, 0);
	assert_string_equal(t->j.fx.log[0].text,
	    "no reply to carol@france.example: more than 3 replies this hour (judge.reply_limit); "
	    "its message <m1@players.example>");
	mail(t, "DAVE@germany.example", "orders", "GAME g1 Germany germany-pw\n", T0 + HOUR + 120);
	assert_int_equal(t->j.fx.nout, 1);
	assert_int_equal(t->j.nrates, 202);
}

/* ---------------------------------------------------------------- press -- */

static void
test_press_to_power(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	const char *text;

	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France\n"
	    "Shall we keep the Channel empty?\nENDPRESS\n", T0 + HOUR);
	/* France's member alone: not Germany, not the GM, not England. */
	assert_int_equal(t->j.fx.nout, 2);
	o = sent(t, "carol@france.example", "[g1] press from England");
	assert_int_equal(o->nto, 1);
	assert_int_equal(o->ncc, 0);
	assert_int_equal(o->autosub, OUT_GENERATED);
	assert_string_equal(o->text, "Press in g1 from England to France:\n\n"
	    "Shall we keep the Channel empty?\n");
	assert_int_equal(count_to(t, GM_ADDR), 0);
	text = reply(t, "alice@england.example", "Re: talk", bob, 1);
	assert_line(text, "> PRESS TO France");
	assert_line(text, "> ENDPRESS");
	assert_line(text, "  press delivered to 1 recipient");
	assert_lacks(text, "Channel");
	/* The archive names the sender and the line. */
	assert_int_equal(t->j.fx.npress, 1);
	assert_string_equal(t->j.fx.press[0].game, "g1");
	assert_string_equal(t->j.fx.press[0].text, "press private from England (line 2)\n"
	    "Shall we keep the Channel empty?\n");

	/* To a delegation of two: both members, nobody else. */
	mail(t, "carol@france.example", "talk", "GAME g1 France france-pw\nPRESS TO England\n"
	    "Yes, let us.\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 3);
	o = sent(t, "alice@england.example", "[g1] press from France");
	assert_string_equal(o->text, "Press in g1 from France to England:\n\nYes, let us.\n");
	o = sent(t, "bob@england.example", "[g1] press from France");
	assert_string_equal(o->text, "Press in g1 from France to England:\n\nYes, let us.\n");
	assert_line(reply(t, "carol@france.example", "Re: talk", NULL, 0),
	    "  press delivered to 2 recipients");

	/* PRESS TO GM: the GM alone. */
	mail(t, "alice@england.example", "to gm", "GAME g1 England england-pw\nPRESS TO GM\n"
	    "Is Belgium neutral?\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 2);
	o = sent(t, GM_ADDR, "[g1] press from England");
	assert_string_equal(o->text, "Press in g1 from England to the GM:\n\nIs Belgium neutral?\n");

	/* A power that does not exist. */
	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO Spain\n"
	    "Hola\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 1);
	text = reply(t, "alice@england.example", "Re: talk", bob, 1);
	assert_line(text, "  REFUSED: no power called \"Spain\"");
	assert_line(text, "  the press above was refused: nothing was sent");
}

/* No password comes back in a reply: not from the Subject (orders there,
 * with an empty body, are answered plainly), nor from a quoted line. */
static void
test_no_password_echo(void **state)
{
	struct tj *t = *state;
	const char *text;

	mail(t, "alice@england.example", "GAME g1 England england-pw A Lvp - Yor", "", T0 + HOUR);
	text = reply(t, "alice@england.example", "Re: your message to the judge", NULL, 0);
	assert_string_equal(text, "Your message was empty: the judge reads the message, never "
	    "its Subject.\nWrite the GAME line and your orders there. Send HELP for "
	    "instructions.\n");
	mail(t, "alice@england.example", "Re: game g1 england england-pw",
	    "Password: england-pw\nGAME g1 England england-pw\nA Lvp - Yor\n", T0 + HOUR);
	text = reply(t, "alice@england.example", "[g1] your orders", bob, 1);
	assert_line(text, "> Password: (not shown)");
	assert_lacks(text, "england-pw");
	mail(t, GM_ADDR, "new password", "GAME g1 GM " GM_PW "\nREPLACE France PASSWORD new-pw\n",
	    T0 + HOUR);
	text = reply(t, GM_ADDR, "Re: new password", NULL, 0);
	assert_line(text, "> REPLACE France PASSWORD (not shown)");
	assert_lacks(text, "new-pw");
	assert_lacks(text, GM_PW);
}

/* A message from France's member that the mail layer cut at its limit. */
static void
mail_cut(struct tj *t, const char *subject, const char *body)
{
	struct inmsg m;

	fx_begin(t);
	fill_msg(t, &m, "carol@france.example", subject, body, T0 + HOUR);
	m.truncated = true;
	judge_mail(&t->j, &m, ++t->seq, T0 + HOUR);
	inmsg_free(&m);
}

/* A message cut at the judge's limit inside a press block: the press goes
 * out marked as cut, and its sender is told what was delivered and that
 * the rest (orders after it too) was not read. */
static void
test_press_cut(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	const char *text;

	mail_cut(t, "long letter", "GAME g1 France france-pw\nPRESS TO England\n"
	    "Line 1 of my letter.\nLine 2 of my letter.\n");
	o = sent(t, "alice@england.example", "[g1] press from France");
	assert_string_equal(o->text, "Press in g1 from France to England:\n\n"
	    "Line 1 of my letter.\nLine 2 of my letter.\n\n[Cut here: the message was longer "
	    "than the judge reads. The rest was not\ndelivered; its sender has been told.]\n");
	text = reply(t, "carol@france.example", "Re: long letter", NULL, 0);
	assert_prefix(text, "Your message was too long; only its beginning was read (4 lines).\n"
	    "Nothing after it was read (orders and commands neither): send them again.\n");
	assert_line(text, "  press delivered to 2 recipients");
	assert_line(text, "  but cut short: your message was longer than the judge reads, so only");
	assert_line(text, "  the first 2 lines of this press were delivered (marked as cut). The");
	assert_line(text, "  rest, and anything after it (orders too), was not read: send it again.");

	/* Cut after its ENDPRESS: the press went out whole. */
	mail_cut(t, "letter", "GAME g1 France france-pw\nPRESS TO England\nAll of it.\n"
	    "ENDPRESS\nA Par - Bur\n");
	o = sent(t, "alice@england.example", "[g1] press from France");
	assert_string_equal(o->text, "Press in g1 from France to England:\n\nAll of it.\n");
	text = reply(t, "carol@france.example", "Re: letter", NULL, 0);
	assert_lacks(text, "cut short");
}

/* gmpress yes: the GM gets a copy of private press. */
static void
test_press_gm_reads(void **state)
{
	struct tj *t = *state;
	struct game_settings s;
	const struct outmsg *o;

	game_settings_default(&s, "standard");
	s.gm_reads_press = true;
	start_game(t, &s);
	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France\n"
	    "Shall we keep the Channel empty?\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 3);
	sent(t, "carol@france.example", "[g1] press from England");
	o = sent(t, GM_ADDR, "[g1] press from England");
	assert_string_equal(o->text, "Press in g1 from England to France:\n\n"
	    "Shall we keep the Channel empty?\n");
	assert_line(reply(t, "alice@england.example", "Re: talk", bob, 1),
	    "  press delivered to 2 recipients");
}

/* full-game.txt: a broadcast reaches every other delegation, the
 * observers and the GM, not the sender's own delegation. */
static void
test_broadcast(void **state)
{
	static const char *const everyone[] = { "anna@austria.example", "carol@france.example",
		"dave@germany.example", "ivo@italy.example", "rita@russia.example",
		"tarik@turkey.example", "head@school.example", GM_ADDR };
	struct tj *t = *state;
	const struct outmsg *o;
	size_t i;

	mail(t, GM_ADDR, "observer", "GAME g1 GM " GM_PW "\nADD OBSERVER head@school.example\n",
	    T0 + HOUR);
	assert_line(reply(t, GM_ADDR, "Re: observer", NULL, 0),
	    "  head@school.example now receives the reports (and is told so)");
	assert_line(sent(t, "head@school.example", "[g1] you observe the game")->text,
	    "You receive its results, its announcements and the press sent to everyone;");
	mail(t, "alice@england.example", "peace", "GAME g1 England england-pw\nBROADCAST\n"
	    "England wishes everyone a peaceful spring.\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 9);
	for (i = 0; i < sizeof everyone / sizeof everyone[0]; i++) {
		o = sent(t, everyone[i], "[g1] press from England");
		assert_string_equal(o->text, "Press in g1 from England to everyone:\n\n"
		    "England wishes everyone a peaceful spring.\n");
	}
	assert_int_equal(count_to(t, "alice@england.example"), 1);	/* the reply */
	assert_int_equal(count_to(t, "bob@england.example"), 1);	/* its Cc */
	assert_line(reply(t, "alice@england.example", "Re: peace", bob, 1),
	    "  press delivered to 8 recipients");
	assert_string_equal(t->j.fx.press[0].text, "press broadcast from England (line 2)\n"
	    "England wishes everyone a peaceful spring.\n");
}

/* SET press none: no press between powers; the GM may still be written to. */
static void
test_press_none(void **state)
{
	struct tj *t = *state;
	const char *text;

	mail(t, GM_ADDR, "no press", "GAME g1 GM " GM_PW "\nSET press none\n", T0 + HOUR);
	assert_line(reply(t, GM_ADDR, "Re: no press", NULL, 0), "  press set to none");
	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France\n"
	    "Shall we keep the Channel empty?\nENDPRESS\nBROADCAST\nHello all\nENDPRESS\n"
	    "PRESS TO GM\nMay we talk?\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 2);	/* the GM's copy and the reply */
	assert_int_equal(count_to(t, "carol@france.example"), 0);
	sent(t, GM_ADDR, "[g1] press from England");
	text = reply(t, "alice@england.example", "Re: talk", bob, 1);
	assert_string_equal(text,
	    "> GAME g1 England (password not shown)\n"
	    "  game g1, England\n"
	    "> PRESS TO France\n"
	    "  REFUSED: this game has no press between powers (PRESS TO GM is allowed)\n"
	    "> ENDPRESS\n"
	    "  the press above was refused: nothing was sent\n"
	    "> BROADCAST\n"
	    "  REFUSED: this game has no press between powers (PRESS TO GM is allowed)\n"
	    "> ENDPRESS\n"
	    "  the press above was refused: nothing was sent\n"
	    "> PRESS TO GM\n"
	    "> ENDPRESS\n"
	    "  press delivered to 1 recipient\n"
	    "\n"
	    "Your orders for Spring 1901 Movement:\n"
	    "  F edi: no order yet (it holds if none comes)\n"
	    "  F lon: no order yet (it holds if none comes)\n"
	    "  A lvp: no order yet (it holds if none comes)\n"
	    "\n" DEADLINE_AT_10);
	assert_int_equal(t->j.fx.npress, 1);
}

/* SET press grey: anonymous press, the sender hidden from the recipients
 * (the archive keeps it, for the GM); not allowed in a white game. */
static void
test_grey_press(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;

	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France ANON\n"
	    "Guess who.\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 1);
	assert_line(reply(t, "alice@england.example", "Re: talk", bob, 1),
	    "  REFUSED: anonymous press is not allowed in this game");

	mail(t, GM_ADDR, "grey", "GAME g1 GM " GM_PW "\nSET press grey\n", T0 + HOUR);
	assert_line(reply(t, GM_ADDR, "Re: grey", NULL, 0), "  press set to grey");
	assert_audit(t, 0, "setting press = grey");
	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France ANON\n"
	    "Guess who.\nENDPRESS\n", T0 + HOUR);
	assert_int_equal(t->j.fx.nout, 2);
	o = sent(t, "carol@france.example", "[g1] press from someone");
	assert_string_equal(o->text, "Press in g1 from someone to France:\n\nGuess who.\n");
	assert_lacks(o->subject, "England");
	assert_string_equal(t->j.fx.press[0].text,
	    "press private from England (anonymous) (line 2)\nGuess who.\n");
	assert_line(reply(t, "alice@england.example", "Re: talk", bob, 1),
	    "  press delivered to 1 recipient");

	/* Signed press in a grey game names the sender. */
	mail(t, "alice@england.example", "talk", "GAME g1 England england-pw\nPRESS TO France\n"
	    "It was me.\nENDPRESS\n", T0 + HOUR);
	o = sent(t, "carol@france.example", "[g1] press from England");
	assert_string_equal(o->text, "Press in g1 from England to France:\n\nIt was me.\n");
}

/* ---------------------------------------------------------- the GM's --- */

/* gm-by-mail.txt: SET, PAUSE, RESUME from the GM's address with the GM's
 * password; the same with a wrong password refused. */
static void
test_gm_commands(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	size_t i;

	mail(t, GM_ADDR, "orders", "GAME g1 GM wrong-password\nSET press none\nPAUSE\n", T0 + HOUR);
	assert_refused_ident(t, GM_ADDR, "GAME g1 GM", "that is not the game master's password for g1");
	assert_int_equal(t->g->status, GAME_ACTIVE);
	assert_int_equal(t->g->set.press, PRESS_WHITE);

	/* No password at all: the line is not written as it should be. */
	mail(t, GM_ADDR, "orders", "GAME g1 GM\nPAUSE\n", T0 + HOUR);
	assert_string_equal(reply(t, GM_ADDR, "Re: orders", NULL, 0),
	    "> GAME g1 GM (password not shown)\n"
	    "  REFUSED: write the first line as GAME <game> <power> <password> (or GAME <game> GM "
	    "<password>).\n"
	    "  Nothing in your message was recorded.\n");
	assert_int_equal(t->g->status, GAME_ACTIVE);

	mail(t, GM_ADDR, "pause", "GAME g1 GM " GM_PW "\nSET press none\nPAUSE\n", T0 + HOUR);
	assert_string_equal(reply(t, GM_ADDR, "Re: pause", NULL, 0),
	    "> GAME g1 GM (password not shown)\n"
	    "  game g1, game master\n"
	    "> SET press none\n"
	    "  press set to none\n"
	    "> PAUSE\n"
	    "  paused\n");
	assert_int_equal(t->j.fx.naudit, 2);
	assert_audit(t, 0, "setting press = none");
	assert_audit(t, 1, "PAUSE");
	assert_int_equal(t->g->set.press, PRESS_NONE);
	assert_int_equal(t->g->status, GAME_PAUSED);
	assert_state_line(t->g, "status paused");
	/* Everyone is told: eight members and the GM, and the reply. */
	assert_int_equal(t->j.fx.nout, 10);
	for (i = 0; i < sizeof seven / sizeof seven[0]; i++) {
		char first[ADDR_MAX];
		str_copy(first, seven[i].members, sizeof first);
		first[strcspn(first, ",")] = '\0';
		o = sent(t, first, "[g1] game paused");
		assert_string_equal(o->text, "The game master has paused the game: no deadline passes "
		    "until it is resumed.\n");
	}
	sent(t, GM_ADDR, "[g1] game paused");

	/* Paused, no deadline passes. */
	tick(t, DEADLINE1 + 3 * 24 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_int_equal(t->j.fx.nout, 0);

	/* Resumed two hours later: the 47 hours that were left. */
	mail(t, GM_ADDR, "resume", "GAME g1 GM " GM_PW "\nRESUME\n", T0 + 3 * HOUR);
	assert_line(reply(t, GM_ADDR, "Re: resume", NULL, 0), "  resumed");
	assert_audit(t, 0, "RESUME");
	assert_int_equal(t->g->status, GAME_ACTIVE);
	assert_int_equal((long long)t->g->deadline, (long long)(DEADLINE1 + 2 * HOUR));
	o = sent(t, "carol@france.example", "[g1] game resumed");
	assert_string_equal(o->text, "The game master has resumed the game.\n\n"
	    "Deadline: Sunday 22 November 2026, 11:00 UTC, in 1 day 23 hours.\n");
}

/* PROCESS by the GM: the phase decided now, whatever is missing. */
static void
test_gm_process(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;

	mail(t, "carol@france.example", "orders", "GAME g1 France france-pw\nA Par - Bur\n",
	    T0 + HOUR);
	mail(t, GM_ADDR, "process now", "GAME g1 GM " GM_PW "\nPROCESS\n", T0 + 2 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_audit(t, 0, "PROCESS");
	assert_line(reply(t, GM_ADDR, "Re: process now", NULL, 0),
	    "  processed; the results are on their way");
	o = sent(t, "carol@france.example", "[g1] Spring 1901 Movement results");
	assert_line(o->text, "France: Army Paris -> Burgundy.");
	assert_line(o->text, "England: no orders; all units hold.");
	assert_state_line(t->g, "unit France A bur");
	assert_state_line(t->g, "phase Fall 1901 Movement");
	assert_state_line(t->g, "phases 1");
	/* Decided at PROCESS: the next deadline is 48 hours from then. */
	assert_int_equal((long long)t->g->deadline, (long long)(T0 + 50 * HOUR));
}

/* The host (`pouch game`) is every game's master without a password; the
 * same message by mail is refused: only the shell says what is the host's. */
static void
test_host_mail(void **state)
{
	struct tj *t = *state;

	mail(t, "host@localhost", "orders", "GAME g1 GM\nPAUSE\n", T0 + HOUR);
	assert_line(reply(t, "host@localhost", "Re: orders", NULL, 0),
	    "  REFUSED: write the first line as GAME <game> <power> <password> (or GAME <game> GM "
	    "<password>).");
	assert_int_equal(t->g->status, GAME_ACTIVE);

	host(t, "GAME g1 GM\nPAUSE\n", T0 + HOUR);
	assert_non_null(t->j.fx.host_reply);
	assert_string_equal(t->j.fx.host_reply,
	    "> GAME g1 GM (password not shown)\n"
	    "  game g1, game master\n"
	    "> PAUSE\n"
	    "  paused\n");
	assert_int_equal(t->g->status, GAME_PAUSED);
	assert_audit(t, 0, "PAUSE");
	/* The announcement, but no reply by mail. */
	assert_int_equal(t->j.fx.nout, 9);
	assert_int_equal(count_to(t, "host@localhost"), 0);
	sent(t, GM_ADDR, "[g1] game paused");
}

/* commands.txt: a game made by the host, the GM's password made up and
 * mailed to the GM; by mail NEWGAME needs the creation key. */
static void
test_host_newgame(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;

	host(t, "NEWGAME g3 standard GM teacher@school.example\n"
	    "DELEGATION France f@school.example PASSWORD france-pw\nSTART\n", T0);
	assert_string_equal(t->j.fx.host_reply,
	    "> NEWGAME g3 standard GM teacher@school.example\n"
	    "  game g3 created (Standard); its game master is teacher@school.example (password "
	    "mailed to them).\n"
	    "  Add delegations with DELEGATION <power> <addresses>, then START.\n"
	    "> DELEGATION France f@school.example PASSWORD (not shown)\n"
	    "  France: delegation set (password set by you)\n"
	    "> START\n"
	    "  the game has started\n"
	    "\n"
	    "Deadline: Sunday 22 November 2026, 09:00 UTC, in 2 days 0 hours.\n");
	assert_int_equal(t->j.fx.naudit, 3);
	assert_string_equal(t->j.fx.audit[0].text,
	    "game created by teacher@school.example: variant standard, edition 2023");
	o = sent(t, "teacher@school.example", "[g3] you are its game master");
	assert_line(o->text, "Keep it secret.");
	assert_line(o->text, "  GAME g3 GM <password>");
	assert_non_null(strstr(o->text, "Your password is: "));
	sent(t, "f@school.example", "[g3] you play France");
	sent(t, "f@school.example", "[g3] the game has started");
	assert_non_null(judge_find_game(&t->j, "g3"));

	/* By mail, without the creation key (none is set): refused, logged. */
	mail(t, "teacher@school.example", "new game", "NEWGAME g4 standard KEY some-key PASSWORD "
	    "gm-secret-4\n", T0 + 60);
	assert_string_equal(reply(t, "teacher@school.example", "Re: new game", NULL, 0),
	    "> NEWGAME g4 standard KEY (not shown) PASSWORD (not shown)\n"
	    "  REFUSED: the game was not created: wrong creation key (ask the judge's host)\n");
	assert_string_equal(t->j.fx.log[0].text,
	    "NEWGAME refused for teacher@school.example: wrong creation key");
	assert_null(judge_find_game(&t->j, "g4"));
}

/* A Realpolitik game's welcome mails call it one, without the variant's
 * title or the standard rules' edition; its start and HELP name
 * Calhamer's rules, not the edition. */
static void
test_realpolitik_welcome(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	const char *pw;
	char body[128];

	host(t, "NEWGAME rp9 realpolitik GM teacher@school.example\n"
	    "DELEGATION France f@school.example PASSWORD france-pw\n", T0);
	o = sent(t, "teacher@school.example", "[rp9] you are its game master");
	assert_line(o->text, "You are the game master of the Realpolitik game rp9, run by mail");
	pw = strstr(o->text, "Your password is: ");
	assert_non_null(pw);
	snprintf(body, sizeof body, "GAME rp9 GM %.*s\nSTART\n", (int)strcspn(pw + 18, "\n"),
	    pw + 18);
	o = sent(t, "f@school.example", "[rp9] you play France");
	assert_line(o->text, "You play France in the Realpolitik game rp9, run by mail");
	mail(t, "teacher@school.example", "start", body, T0);
	o = sent(t, "f@school.example", "[rp9] the game has started");
	assert_line(o->text, "Game rp9 has started: Realpolitik (1958), Calhamer's rules.");
	mail(t, "f@school.example", "help", "GAME rp9 France france-pw\nHELP\n", T0 + 60);
	o = sent(t, "f@school.example", "Re: help");
	assert_line(o->text, "This game: Realpolitik (1958), Calhamer's rules, press: private.");
	assert_lacks(o->text, "2023");
}

/* The welcome and start of a MUNA game name its own rules, not the
 * standard rules' edition; a war of the World Game is named before
 * its kind, with no word twice ("war, a World Game war", not "the World
 * Game war war (The World Game: war)"). */
static void
test_system_welcomes(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;

	host(t, "NEWGAME mu9 muna GM officers@school.example\n"
	    "DELEGATION Italy it@school.example PASSWORD italy-pw\nSTART\n", T0);
	o = sent(t, "it@school.example", "[mu9] you play Italy");
	assert_line(o->text, "You play Italy in the Diplomacy game mu9 (MUN Alfrink 1935 Historical "
	    "Committee, MUNA rules), run by mail");
	o = sent(t, "it@school.example", "[mu9] the game has started");
	assert_line(o->text, "Game mu9 has started: MUN Alfrink 1935 Historical Committee, MUNA "
	    "rules.");

	host(t, "NEWGAME war worldgame GM teacher@school.example\nCOUNTRY Alba 100\n"
	    "DELEGATION Alba a@school.example PASSWORD alba-pass\n", T0);
	o = sent(t, "teacher@school.example", "[war] you are its game master");
	assert_line(o->text, "You are the game master of war, a World Game war, run by mail");
	o = sent(t, "a@school.example", "[war] you play Alba");
	assert_line(o->text, "You play Alba in war, a World Game war, run by mail");
}

/* MUNA's political goals by mail say what each number is and what comes
 * next: a delegation's GOAL 2 POINTS <goal> (or the older GOAL 2 <goal>)
 * proposes its own goal worth 2 points, not yet approved; the officers'
 * GOAL Poland NUMBER 2 <goal> (or GOAL Poland 2 <goal>) sets goal number
 * 2. */
static void
test_muna_goals(void **state)
{
	static const struct {
		const char *line, *goal;
		int points;
		const char *reply;
	} own[] = {
		{ "GOAL 2 POINTS Keep Danzig free", "Keep Danzig free", 2, "  proposed to the "
		  "officers as your own goal (goal 3), worth 2 points: the officers have not "
		  "approved it yet; you are told when they do" },
		{ "GOAL 1 Hold Warsaw", "Hold Warsaw", 1, "  proposed to the officers as your own "
		  "goal (goal 3), worth 1 point: the officers have not approved it yet; you are "
		  "told when they do" },
	};
	struct tj *t = *state;
	const struct outmsg *o;
	struct game *g;
	power_id pol;
	char body[128];
	size_t i;

	host(t, "NEWGAME mu8 muna GM officers@school.example PASSWORD officers-pw\n"
	    "DELEGATION Poland pl@school.example PASSWORD poland-pw\nSTART\n", T0);
	g = judge_find_game(&t->j, "mu8");
	assert_non_null(g);
	pol = map_find_power(g->map, "Poland");
	for (i = 0; i < sizeof own / sizeof own[0]; i++) {
		snprintf(body, sizeof body, "GAME mu8 Poland poland-pw\n%s\n", own[i].line);
		mail(t, "pl@school.example", "goal", body, T0 + 60);
		assert_string_equal(muna_state(g)->goals[pol].goal[GAME_GOALS - 1], own[i].goal);
		assert_int_equal(muna_state(g)->goals[pol].goal_points, own[i].points);
		assert_line(reply(t, "pl@school.example", "Re: goal", NULL, 0), own[i].reply);
	}
	mail(t, "pl@school.example", "help", "GAME mu8 Poland poland-pw\nHELP\n", T0 + 180);
	o = sent(t, "pl@school.example", "Re: help");
	assert_line(o->text, "Political goals: GOAL lists yours; GOAL 2 POINTS <goal> proposes a goal of");
	mail(t, "officers@school.example", "goals", "GAME mu8 GM officers-pw\n"
	    "GOAL Poland NUMBER 2 Be recognised by the League\nGOAL Poland 1 Keep the corridor\n",
	    T0 + 240);
	assert_string_equal(muna_state(g)->goals[pol].goal[1], "Be recognised by the League");
	assert_string_equal(muna_state(g)->goals[pol].goal[0], "Keep the corridor");
	o = sent(t, "officers@school.example", "Re: goals");
	assert_line(o->text, "  Poland's goal number 2 is set (award points for it with AWARD Poland "
	    "<points> GOAL 2); Poland alone is told");
	assert_line(o->text, "  Poland's goal number 1 is set (award points for it with AWARD Poland "
	    "<points> GOAL 1); Poland alone is told");
	/* AWARD ... GOAL n names the goal; goal 3, not yet approved, is refused. */
	mail(t, "officers@school.example", "award", "GAME mu8 GM officers-pw\n"
	    "AWARD Poland 2 GOAL 1\nAWARD Poland 1 GOAL 3\n", T0 + 300);
	assert_string_equal(g->awards[g->nawards - 1].reason, "political goal 1: Keep the corridor");
	assert_int_equal(g->del[pol].points, 2);
	assert_line(sent(t, "officers@school.example", "Re: award")->text, "  REFUSED: the "
	    "officers have not approved the goal Poland proposed (GOAL APPROVE Poland)");
}

/* A game without political goals refuses an AWARD naming one, as a game
 * with them refuses a goal not set. */
static void
test_award_goal_without_goals(void **state)
{
	struct tj *t = *state;

	mail(t, GM_ADDR, "award", "GAME g1 GM " GM_PW "\nAWARD England 2 GOAL 1\n", T0 + HOUR);
	assert_line(reply(t, GM_ADDR, "Re: award", NULL, 0),
	    "  REFUSED: England has no goal 1 (GOAL lists the goals)");
	assert_int_equal(t->g->del[power("England")].points, 0);
	assert_int_equal(t->g->nawards, 0);
}

/* A winner of the war that cannot repay its lenders in full: each lender
 * is told what it gets, what it was owed and why it is less; the winner
 * what it paid; the public record neither. */
static void
test_war_repayment_short(void **state)
{
	static const char *const who[][2] = {
		{ "Atlantis", "a@school.example" }, { "Borduria", "b@school.example" },
		{ "Carpania", "c@school.example" }, { "Dorne", "d@school.example" },
	};
	static const char *const steps[][2] = {
		{ "Dorne", "ALLY Borduria TERMS 10 FOR 1\nALLY Carpania TERMS 5 FOR 1" },
		{ "Borduria", "ALLY Dorne TERMS 10 FOR 1" },
		{ "Carpania", "ALLY Dorne TERMS 5 FOR 1" },
		{ NULL, "START" },
		{ "Atlantis", "ATTACK Dorne WITH 100" },
		{ "Borduria", "LEND 1000 TO Dorne" },
		{ "Carpania", "LEND 1000 TO Dorne" },
		{ "Dorne", "COUNTER 2000" },
		{ "Atlantis", "YIELD" },
	};
	struct tj *t = *state;
	const struct outmsg *o;
	char body[256];
	size_t i, k;

	host(t, "NEWGAME w1 worldgame GM teacher@school.example PASSWORD teach-pw\n"
	    "COUNTRY Atlantis 1000\nCOUNTRY Borduria 10000\nCOUNTRY Carpania 10000\n"
	    "COUNTRY Dorne 50\n"
	    "DELEGATION Atlantis a@school.example PASSWORD a-pass\n"
	    "DELEGATION Borduria b@school.example PASSWORD b-pass\n"
	    "DELEGATION Carpania c@school.example PASSWORD c-pass\n"
	    "DELEGATION Dorne d@school.example PASSWORD d-pass\n", T0);
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		const char *from = "teacher@school.example";
		if (steps[i][0] == NULL)
			snprintf(body, sizeof body, "GAME w1 GM teach-pw\n%s\n", steps[i][1]);
		else
			snprintf(body, sizeof body, "GAME w1 %s %c-pass\n%s\n", steps[i][0],
			    steps[i][0][0] + 'a' - 'A', steps[i][1]);
		for (k = 0; steps[i][0] != NULL && k < 4; k++)
			if (strcmp(who[k][0], steps[i][0]) == 0)
				from = who[k][1];
		mail(t, from, "war", body, T0 + 60);
		assert_lacks(reply(t, from, "Re: war", NULL, 0), "REFUSED");
	}
	/* Dorne holds its 50, the 2000 lent and Atlantis's 100 and 900: 3050;
	 * it owes 10000 and 5000: Borduria gets 3050 * 10000 / 15000 = 2033,
	 * Carpania 3050 * 5000 / 15000 = 1016, and Dorne keeps the odd 1. */
	o = sent(t, "b@school.example", "[w1] the war: news");
	assert_line(o->text, "Dorne won, but it had fewer points than it owed its lenders: they "
	    "share what it had, each in proportion to what it was owed. It pays you back 2033, "
	    "not the 10000 it owed you for your loan of 1000.");
	o = sent(t, "c@school.example", "[w1] the war: news");
	assert_line(o->text, "Dorne won, but it had fewer points than it owed its lenders: they "
	    "share what it had, each in proportion to what it was owed. It pays you back 1016, "
	    "not the 5000 it owed you for your loan of 1000.");
	o = sent(t, "d@school.example", "[w1] the war: news");
	assert_line(o->text, "You pay back 2033 to Borduria for its loan of 1000 (you owed it "
	    "10000, but had fewer points than you owed your lenders: they share what you had, "
	    "in proportion).");
	assert_line(o->text, "  Dorne takes Atlantis: its total is now 1.");
	o = sent(t, "a@school.example", "[w1] the war: news");
	assert_lacks(o->text, "2033");
	assert_lacks(o->text, "3050");
}

/* A NEWGAME refused by mail gives no authority: the lines after it are not
 * read, the reply saying so once (gm-by-mail.out, MAIL 1), even from the
 * address of the GM of a game made in the same second. */
static void
test_refused_newgame_gives_no_authority(void **state)
{
	struct tj *t = *state;
	struct game *g3;

	host(t, "NEWGAME g3 standard GM teacher@school.example PASSWORD teach-pw\n"
	    "DELEGATION France f@school.example PASSWORD france-pw\nSTART\n", T0);
	g3 = judge_find_game(&t->j, "g3");
	assert_non_null(g3);
	assert_int_equal(g3->status, GAME_ACTIVE);
	mail(t, "teacher@school.example", "new game", "NEWGAME g4 standard KEY some-key PASSWORD "
	    "gm-secret-4\nPAUSE\n", T0);
	assert_string_equal(reply(t, "teacher@school.example", "Re: new game", NULL, 0),
	    "> NEWGAME g4 standard KEY (not shown) PASSWORD (not shown)\n"
	    "  REFUSED: the game was not created: wrong creation key (ask the judge's host)\n"
	    "  The line after it was not read.\n");
	assert_int_equal(g3->status, GAME_ACTIVE);
	assert_int_equal(t->j.fx.naudit, 0);
}

/* -------------------------------------------------------------- orders -- */

static const char *const spring1901[][2] = {
	{ "anna@austria.example", "GAME g1 Austria austria-pw\nA Vie - Gal\nA Bud - Ser\nF Tri - Alb\n" },
	{ "alice@england.example", "GAME g1 England england-pw\nF Lon - Nth\nF Edi - Nwg\nA Lvp - Yor\n" },
	{ "carol@france.example", "GAME g1 France france-pw\nF Bre - Mao\nA Par - Bur\nA Mar - Spa\n" },
	{ "dave@germany.example", "GAME g1 Germany germany-pw\nF Kie - Den\nA Ber - Kie\nA Mun - Ruh\n" },
	{ "ivo@italy.example", "GAME g1 Italy italy-pw\nF Nap - Ion\nA Rom - Apu\nA Ven H\n" },
	{ "rita@russia.example", "GAME g1 Russia russia-pw\nA Mos - Ukr\nA War - Gal\nF Sev - Bla\n"
	    "F Stp/sc - Bot\n" },
	{ "tarik@turkey.example", "GAME g1 Turkey turkey-pw\nF Ank - Bla\nA Con - Bul\nA Smy - Arm\n" },
};

/* Seven delegations order Spring 1901; the shell ticks as it does around
 * each message (nothing is decided before a judge_tick), then once past
 * the deadline: one phase, Galicia and the Black Sea bounced, everyone
 * told, the board moved on to Fall 1901. */
static void
test_spring_1901(void **state)
{
	/* "Units now" after the phase, a line per power (full-game.out's form). */
	static const char *const units_now[] = {
		"Austria: fleet in Albania, army in Serbia, army in Vienna.",
		"England: fleet in the North Sea, fleet in the Norwegian Sea, army in Yorkshire.",
		"France: army in Burgundy, fleet in the Mid-Atlantic Ocean, army in Spain.",
		"Germany: fleet in Denmark, army in Kiel, army in Ruhr.",
		"Italy: army in Apulia, fleet in the Ionian Sea, army in Venice.",
		"Russia: fleet in the Gulf of Bothnia, fleet in Sevastopol, army in Ukraine, army in Warsaw.",
		"Turkey: fleet in Ankara, army in Armenia, army in Bulgaria.",
	};
	static const char *const results[] = {
		"Austria: Army Budapest -> Serbia.",
		"Austria: Fleet Trieste -> Albania.",
		"Austria: Army Vienna -> Galicia.  (*bounce*)",
		"England: Fleet London -> North Sea.",
		"Italy: Army Venice HOLD.",
		"Russia: Fleet Sevastopol -> Black Sea.  (*bounce*)",
		"Russia: Fleet St Petersburg (South Coast) -> Gulf of Bothnia.",
		"Russia: Army Warsaw -> Galicia.  (*bounce*)",
		"Turkey: Fleet Ankara -> Black Sea.  (*bounce*)",
	};
	struct tj *t = *state;
	const struct judge_phase *ph;
	const struct outmsg *o;
	char name[48];
	size_t i, k;

	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++) {
		time_t at = T0 + HOUR + (time_t)i * 300;
		tick_due(t, at);
		mail(t, spring1901[i][0], "spring", spring1901[i][1], at);
		assert_int_equal(t->j.fx.nout, 1);
		assert_lacks(t->j.fx.out[0].text, "REFUSED");
		assert_lacks(t->j.fx.out[0].text, "no order yet");
		/* The last orders are told the phase is decided once the run's mail is read. */
		if (i + 1 < sizeof spring1901 / sizeof spring1901[0])
			assert_lacks(t->j.fx.out[0].text, "All orders are in");
		else
			assert_line(t->j.fx.out[0].text, "All orders are in: the phase will be decided "
			    "as soon as the judge has read the other mail that came with yours, unless "
			    "one of them holds it (WAIT).");
		tick_due(t, at);
		assert_int_equal(t->j.fx.nphases, 0);
	}
	for (i = 0; i < sizeof seven / sizeof seven[0]; i++)
		assert_true(game_orders_complete(t->g, power(seven[i].power)));

	tick(t, DEADLINE1 + 300);
	assert_int_equal(t->j.fx.nphases, 1);
	ph = &t->j.fx.phases[0];
	assert_string_equal(ph->game, "g1");
	assert_int_equal(ph->index, 1);
	assert_int_equal(ph->norders, 22);
	assert_string_equal(phase_format(&ph->before, name, sizeof name), "Spring 1901 Movement");
	assert_string_equal(phase_format(&ph->next, name, sizeof name), "Fall 1901 Movement");
	assert_prefix(ph->text, "phase Spring 1901 Movement\n");

	/* A report to each of the eight members and to the GM, nothing else. */
	assert_int_equal(t->j.fx.nout, 9);
	for (i = 0; i < sizeof seven / sizeof seven[0]; i++) {
		char first[ADDR_MAX], head[64];
		str_copy(first, seven[i].members, sizeof first);
		first[strcspn(first, ",")] = '\0';
		o = sent(t, first, "[g1] Spring 1901 Movement results");
		assert_int_equal(o->nto, 1);
		assert_int_equal(o->autosub, OUT_GENERATED);
		snprintf(head, sizeof head, "Game g1, %s.\n\nMovement results for Spring of 1901.\n",
		    seven[i].power);
		assert_prefix(o->text, head);
		for (k = 0; k < sizeof results / sizeof results[0]; k++)
			assert_line(o->text, results[k]);
		assert_line(o->text, "Units now:");
		for (k = 0; k < sizeof units_now / sizeof units_now[0]; k++)
			assert_line(o->text, units_now[k]);
		assert_line(o->text, strcmp(seven[i].power, "Russia") == 0 ?
		    "Next: Fall 1901 Movement. Order your 4 units." :
		    "Next: Fall 1901 Movement. Order your 3 units.");
		assert_lacks(o->text, "Map:");		/* no base URL */
	}
	o = sent(t, "bob@england.example", "[g1] Spring 1901 Movement results");
	assert_prefix(o->text, "Game g1, England.\n");
	o = sent(t, GM_ADDR, "[g1] Spring 1901 Movement results");
	assert_prefix(o->text, "Game g1.\n\nMovement results for Spring of 1901.\n");
	assert_line(o->text, units_now[5]);

	/* The board moved; the bounced units stayed. */
	assert_state_line(t->g, "phase Fall 1901 Movement");
	assert_state_line(t->g, "phases 1");
	assert_state_line(t->g, "unit Austria F alb");
	assert_state_line(t->g, "unit Austria A vie");
	assert_state_line(t->g, "unit Russia A war");
	assert_state_line(t->g, "unit Russia F sev");
	assert_state_line(t->g, "unit Turkey F ank");
	assert_state_line(t->g, "unit Russia F bot");
	assert_no_state_line(t->g, "unit Austria A gal");
	assert_no_state_line(t->g, "unit Russia A gal");
	assert_no_state_line(t->g, "unit England F lon");
	assert_int_equal(t->g->del[power("England")].norders, 0);	/* a new phase */
}

/* The phase is dated at its deadline when the tick comes later (judge.h:
 * "a phase decided late is dated at its deadline"), so the next deadline
 * is 48 hours after the last, however late the run. */
static void
test_spring_1901_dated_at_deadline(void **state)
{
	struct tj *t = *state;
	size_t i;


	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++) {
		tick_due(t, T0 + HOUR);
		mail(t, spring1901[i][0], "spring", spring1901[i][1], T0 + HOUR);
		tick_due(t, T0 + HOUR);
	}
	tick(t, DEADLINE1 + 300);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_line(t->j.fx.phases[0].text, "processed 2026-11-22T09:00:00Z");
	assert_int_equal((long long)t->g->deadline, (long long)(DEADLINE1 + 48 * HOUR));
}

/* The orders all in, the end of the run (judge_tick) decides the phase at
 * once; a delegation's WAIT holds it back until it sends NOWAIT. */
static void
test_spring_1901_early(void **state)
{
	struct tj *t = *state;
	const struct outmsg *o;
	size_t i;

	mail(t, "ivo@italy.example", "wait", "GAME g1 Italy italy-pw\nWAIT\n", T0 + HOUR);
	assert_line(reply(t, "ivo@italy.example", "Re: wait", NULL, 0),
	    "  this phase will not be processed before the deadline");
	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++)
		mail(t, spring1901[i][0], "spring", spring1901[i][1], T0 + HOUR);
	tick(t, T0 + HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_state_line(t->g, "flags Italy wait");

	mail(t, "ivo@italy.example", "nowait", "GAME g1 Italy italy-pw\nNOWAIT\n", T0 + 2 * HOUR);
	assert_line(reply(t, "ivo@italy.example", "Re: nowait", NULL, 0),
	    "  this phase may be processed as soon as all orders are in");
	assert_int_equal(t->j.fx.nphases, 0);
	tick(t, T0 + 2 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_line(t->j.fx.phases[0].text, "processed 2026-11-20T11:00:00Z");
	o = sent(t, "ivo@italy.example", "[g1] Spring 1901 Movement results");
	assert_line(o->text, "Deadline: Sunday 22 November 2026, 11:00 UTC, in 2 days 0 hours.");
	assert_int_equal((long long)t->g->deadline, (long long)(T0 + 50 * HOUR));
}

/* HISTORY reads the records through the shell (judge_io.history); orders
 * written before the phase was decided and read after are told so. */
static void
test_history_and_late_orders(void **state)
{
	struct tj *t = *state;
	const char *text;
	size_t i;

	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++)
		mail(t, spring1901[i][0], "spring", spring1901[i][1], T0 + HOUR);
	tick(t, T0 + HOUR);
	assert_int_equal(t->j.fx.nphases, 1);

	mail(t, "ivo@italy.example", "history", "GAME g1 Italy italy-pw\nHISTORY S1901M\n",
	    T0 + 2 * HOUR);
	text = reply(t, "ivo@italy.example", "Re: history", NULL, 0);
	assert_line(text, "> HISTORY S1901M");
	assert_line(text, "phase Spring 1901 Movement");
	assert_line(text, "decided on Friday 20 November 2026, 10:00 UTC");
	assert_line(text, "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)");

	/* Dated 09:50, read at 10:10, after the phase was decided at 10:00. */
	mail_dated(t, "dave@germany.example", "fall", "GAME g1 Germany germany-pw\nA Kie - Hol\n",
	    T0 + HOUR + 600, T0 + HOUR - 600);
	text = reply(t, "dave@germany.example", "Re: fall", NULL, 0);
	assert_line(text, "  Spring 1901 Movement was decided on Friday 20 November 2026, 10:00 UTC, "
	    "before your mail arrived;");
	assert_line(text, "  these orders were read for Fall 1901 Movement.");
	assert_line(text, "  accepted: A kie - hol");

	/* Undated, within the hour: an order for a fleet that has moved since
	 * was meant for Spring (the note), ... */
	mail(t, "alice@england.example", "late", "GAME g1 England england-pw\nF Lon - Eng\n",
	    T0 + HOUR + 900);
	text = reply(t, "alice@england.example", "Re: late", bob, 1);
	assert_line(text, "  these orders were read for Fall 1901 Movement.");
	/* ... but an order that could not be given in Spring either is only
	 * refused, with no word of a late mail. */
	mail(t, "ivo@italy.example", "wrong", "GAME g1 Italy italy-pw\nA Ven - Mos\n",
	    T0 + HOUR + 900);
	text = reply(t, "ivo@italy.example", "Re: wrong", NULL, 0);
	assert_non_null(strstr(text, "REFUSED"));
	assert_null(strstr(text, "before your mail arrived"));
}

/* The seven send their Spring 1901 orders at at, the shell ticking around
 * each message, and the run ends (judge_tick): the phase is decided. */
static void
order_spring(struct tj *t, time_t at)
{
	size_t i;

	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++) {
		tick_due(t, at);
		mail(t, spring1901[i][0], "spring", spring1901[i][1], at);
		tick_due(t, at);
	}
	tick(t, at);
}

#define S1901_RESULTS "[g1] Spring 1901 Movement results"

/* A phase decided again after a rollback (by mail or from the host) is
 * mailed to everyone again, however it is decided: its orders all in, the
 * game master's PROCESS by mail or from the host, the end of the grace
 * period. Its messages are named apart from the first decision's, which
 * the shell sent already. */
static void
test_results_after_rollback(void **state)
{
	struct tj *t = *state;

	order_spring(t, T0 + HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);

	mail(t, GM_ADDR, "back", "GAME g1 GM " GM_PW "\nROLLBACK S1901M\n", T0 + 2 * HOUR);
	assert_everyone_once(t, "[g1] rolled back");
	order_spring(t, T0 + 3 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);

	host(t, "GAME g1 GM\nROLLBACK S1901M\n", T0 + 4 * HOUR);
	assert_everyone_once(t, "[g1] rolled back");
	order_spring(t, T0 + 5 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);

	/* The game master decides it, by mail, then from the host. */
	host(t, "GAME g1 GM\nROLLBACK S1901M\n", T0 + 6 * HOUR);
	mail(t, GM_ADDR, "process", "GAME g1 GM " GM_PW "\nPROCESS\n", T0 + 7 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);
	mail(t, GM_ADDR, "back", "GAME g1 GM " GM_PW "\nROLLBACK S1901M\n", T0 + 8 * HOUR);
	host(t, "GAME g1 GM\nPROCESS\n", T0 + 9 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);

	/* Nobody orders: decided at the end of the grace period. */
	host(t, "GAME g1 GM\nROLLBACK S1901M\n", T0 + 10 * HOUR);
	tick(t, T0 + 10 * HOUR + 72 * HOUR);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_everyone_once(t, S1901_RESULTS);
}

#define S1901_REMINDER "[g1] reminder: orders for Spring 1901 Movement"
#define S1901_PASSED "[g1] deadline passed: orders missing for Spring 1901 Movement"

/* England orders alone from at; the reminder and the notice that the
 * deadline passed reach Austria (a late delegation) and the GM once. */
static void
england_alone(struct tj *t, time_t at)
{
	tick_due(t, at);
	mail(t, spring1901[1][0], "spring", spring1901[1][1], at);
	tick_due(t, at);
	tick(t, at);
	tick(t, at + 30 * HOUR);
	assert_int_equal(count_delivered(t, "anna@austria.example", S1901_REMINDER), 1);
	assert_int_equal(count_delivered(t, "alice@england.example", S1901_REMINDER), 0);
	tick(t, at + 48 * HOUR + 300);
	assert_int_equal(count_delivered(t, "anna@austria.example", S1901_PASSED), 1);
	assert_int_equal(count_delivered(t, GM_ADDR, S1901_PASSED), 1);
}

/* The reminder and the notice that the deadline passed go out again when
 * a rollback, or a new deadline after the notice, makes them due again. */
static void
test_notices_due_again(void **state)
{
	struct tj *t = *state;

	england_alone(t, T0);
	/* A day more; it passes with the orders still missing. */
	mail(t, GM_ADDR, "later", "GAME g1 GM " GM_PW "\nSET DEADLINE +24h\n", DEADLINE1 + HOUR);
	tick(t, DEADLINE1 + 25 * HOUR + 300);
	assert_int_equal(count_delivered(t, "anna@austria.example", S1901_PASSED), 1);
	assert_int_equal(count_delivered(t, GM_ADDR, S1901_PASSED), 1);
	tick(t, DEADLINE1 + 49 * HOUR + 300);
	assert_int_equal(t->j.fx.nphases, 1);

	host(t, "GAME g1 GM\nROLLBACK S1901M\n", DEADLINE1 + 50 * HOUR);
	england_alone(t, DEADLINE1 + 50 * HOUR);
}

/* The delegations of spring1901 order at at, but those in the set late
 * (bit 1 << index), each mail with the shell's ticks around it. */
static void
order_spring_but(struct tj *t, time_t at, unsigned late)
{
	size_t i;

	for (i = 0; i < sizeof spring1901 / sizeof spring1901[0]; i++) {
		if (late & (1u << i))
			continue;
		tick_due(t, at);
		mail(t, spring1901[i][0], "spring", spring1901[i][1], at);
		tick_due(t, at);
	}
}

/* The last step decided Spring 1901, dated 15:00 on the day of its
 * deadline: the next deadline 48 hours on, everyone told once. Returns
 * Italy's copy of the results. */
static const char *
assert_decided_at_15(const struct tj *t)
{
	assert_int_equal(t->j.fx.nphases, 1);
	assert_line(t->j.fx.phases[0].text, "processed 2026-11-22T15:00:00Z");
	assert_int_equal((long long)t->g->deadline, (long long)(DEADLINE1 + 54 * HOUR));
	assert_everyone_once(t, S1901_RESULTS);
	return sent(t, "ivo@italy.example", S1901_RESULTS)->text;
}

/* Orders completed in the grace period date the phase then (the end of
 * the run decides it): the results' date, the next deadline (48 hours on)
 * and the note to a mail that comes soon after follow that moment, not
 * the deadline. The reply that completes them says the phase is decided
 * now. */
static void
test_grace_completion_dated(void **state)
{
	struct tj *t = *state;
	const char *text;

	order_spring_but(t, T0 + HOUR, 1u << 2 | 1u << 6);	/* France and Turkey are late */
	tick(t, DEADLINE1 + 300);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_int_equal(count_delivered(t, "carol@france.example", S1901_PASSED), 1);

	/* 15:00: France, then Turkey, whose orders complete the phase. */
	tick_due(t, DEADLINE1 + 6 * HOUR);
	mail(t, spring1901[2][0], "spring", spring1901[2][1], DEADLINE1 + 6 * HOUR);
	text = reply(t, "carol@france.example", "Re: spring", NULL, 0);
	assert_line(text, "Deadline: Sunday 22 November 2026, 09:00 UTC (passed, orders missing).");
	tick_due(t, DEADLINE1 + 6 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	mail(t, spring1901[6][0], "spring", spring1901[6][1], DEADLINE1 + 6 * HOUR);
	text = reply(t, "tarik@turkey.example", "Re: spring", NULL, 0);
	assert_line(text, "Deadline: Sunday 22 November 2026, 09:00 UTC (passed).");
	assert_line(text, "All orders are in: the phase is decided now, and the results follow.");
	tick_due(t, DEADLINE1 + 6 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	/* The end of the run decides it, dated when Turkey's orders came. */
	tick(t, DEADLINE1 + 6 * HOUR + 300);
	text = assert_decided_at_15(t);
	assert_line(text, "Deadline: Tuesday 24 November 2026, 15:00 UTC, in 2 days 0 hours.");
	assert_int_equal((long long)sent(t, GM_ADDR, S1901_RESULTS)->date,
	    (long long)(DEADLINE1 + 6 * HOUR));

	/* Written at 15:20, read at 15:40: Turkey's army left Constantinople
	 * in Spring. */
	mail_dated(t, "tarik@turkey.example", "late", spring1901[6][1],
	    DEADLINE1 + 6 * HOUR + 2400, DEADLINE1 + 6 * HOUR + 1200);
	text = reply(t, "tarik@turkey.example", "Re: late", NULL, 0);
	assert_line(text, "  Spring 1901 Movement was decided on Sunday 22 November 2026, 15:00 UTC, "
	    "before your mail arrived;");
	assert_line(text, "  these orders were read for Fall 1901 Movement.");
}

/* In a game that waits for its game master, the late orders that complete
 * the phase date it when they come (the end of the run decides it), as in
 * a grace period. */
static void
test_wait_game_completed_late(void **state)
{
	struct tj *t = *state;
	struct game_settings s;
	size_t i;

	game_settings_default(&s, "standard");
	s.nmr = NMR_WAIT;
	start_game(t, &s);
	for (i = 0; i < 6; i++) {
		tick_due(t, T0 + HOUR);
		mail(t, spring1901[i][0], "spring", spring1901[i][1], T0 + HOUR);
		tick_due(t, T0 + HOUR);
	}
	tick(t, DEADLINE1 + 72 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	tick_due(t, DEADLINE1 + 75 * HOUR);
	mail(t, spring1901[6][0], "spring", spring1901[6][1], DEADLINE1 + 75 * HOUR);
	assert_line(reply(t, "tarik@turkey.example", "Re: spring", NULL, 0),
	    "All orders are in: the phase is decided now, and the results follow.");
	tick_due(t, DEADLINE1 + 75 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	tick(t, DEADLINE1 + 75 * HOUR + 300);
	assert_int_equal(t->j.fx.nphases, 1);
	assert_line(t->j.fx.phases[0].text, "processed 2026-11-25T12:00:00Z");
	assert_int_equal((long long)t->g->deadline, (long long)(DEADLINE1 + 123 * HOUR));
	assert_everyone_once(t, S1901_RESULTS);
}

/* In the grace period, one run finds England's orders (15:00) and then
 * the change Bob, England's other member, sent a minute later: both count
 * for Spring 1901, decided at the end of the run and dated when the
 * orders that completed it arrived. */
static void
test_grace_partner_change(void **state)
{
	struct tj *t = *state;
	const char *text;

	order_spring_but(t, T0 + HOUR, 1u << 1);	/* England is late */
	tick(t, DEADLINE1 + 300);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_int_equal(count_delivered(t, "alice@england.example", S1901_PASSED), 1);

	tick_due(t, DEADLINE1 + 6 * HOUR);
	mail(t, spring1901[1][0], "orders", spring1901[1][1], DEADLINE1 + 6 * HOUR);
	tick_due(t, DEADLINE1 + 6 * HOUR);
	assert_int_equal(t->j.fx.nphases, 0);
	tick_due(t, DEADLINE1 + 6 * HOUR + 60);
	mail(t, "bob@england.example", "change", "GAME g1 England england-pw\nA Lvp - Edi\n",
	    DEADLINE1 + 6 * HOUR + 60);
	text = sent(t, "bob@england.example", "Re: change")->text;
	assert_lacks(text, "REFUSED");
	assert_lacks(text, "before your mail arrived");
	tick_due(t, DEADLINE1 + 6 * HOUR + 60);
	assert_int_equal(t->j.fx.nphases, 0);
	tick(t, DEADLINE1 + 6 * HOUR + 300);
	text = assert_decided_at_15(t);
	assert_line(text, "England: Army Liverpool -> Edinburgh.");
	assert_no_line(text, "England: Army Liverpool -> Yorkshire.");
}

/* A game paused after its deadline notice and resumed has a new deadline,
 * and the notice is due again: it goes out once more when the new
 * deadline passes with orders missing (a message of its own). Resumed
 * again, a WAIT holds the complete orders until the new deadline, and the
 * phase is dated at that deadline, not at the run that came after it. */
static void
test_resume_after_notice(void **state)
{
	struct tj *t = *state;

	england_alone(t, T0);	/* the notice: at DEADLINE1 + 300 */
	mail(t, GM_ADDR, "pause", "GAME g1 GM " GM_PW "\nPAUSE\n", DEADLINE1 + HOUR);
	mail(t, GM_ADDR, "resume", "GAME g1 GM " GM_PW "\nRESUME\n", DEADLINE1 + 2 * HOUR);
	assert_true(t->g->deadline > DEADLINE1 + 2 * HOUR);
	tick(t, t->g->deadline + 300);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_int_equal(count_delivered(t, "anna@austria.example", S1901_PASSED), 1);
	assert_int_equal(count_delivered(t, GM_ADDR, S1901_PASSED), 1);

	mail(t, GM_ADDR, "pause", "GAME g1 GM " GM_PW "\nPAUSE\n", DEADLINE1 + 4 * HOUR);
	mail(t, GM_ADDR, "resume", "GAME g1 GM " GM_PW "\nRESUME\n", DEADLINE1 + 5 * HOUR);
	assert_int_equal((long long)t->g->deadline, (long long)(DEADLINE1 + 6 * HOUR));
	order_spring_but(t, DEADLINE1 + 5 * HOUR, 1u << 1);	/* England's are in */
	mail(t, spring1901[0][0], "wait", "GAME g1 Austria austria-pw\nWAIT\n", DEADLINE1 + 5 * HOUR);
	tick(t, DEADLINE1 + 5 * HOUR + 300);
	assert_int_equal(t->j.fx.nphases, 0);
	tick(t, DEADLINE1 + 8 * HOUR);
	assert_decided_at_15(t);
}

/* ---------------------------------------- a system that reads its lines -- */

/* A rule system of the kind the World Game's war is: it reads every line
 * that is no command of the judge, runs its own clock and says where the
 * game stands; the judge's orders and phases are not used. */
static int hook_ticks;

static enum cmd_result
hook_line(struct judge *j, struct game *g, power_id p, const char *text, size_t len,
    struct buf *reply)
{
	(void)j, (void)g, (void)p;
	if (str_eqn_nocase(text, len, "hello"))
		return CMD_IGNORED;
	if (str_eqn_nocase(text, len, "attack"))
		return buf_puts(reply, "  understood: attack\n"), CMD_DONE;
	buf_puts(reply, "  REFUSED: not a word of this game\n");
	return CMD_REFUSED;
}

static bool
hook_tick(struct judge *j, struct game *g, time_t now)
{
	(void)j, (void)g, (void)now;
	hook_ticks++;
	return false;
}

static bool
hook_alive(const struct game *g, power_id p)
{
	(void)g;
	return p != power("Austria");
}

static void
hook_status(struct judge *j, const struct game *g, power_id p, const char *zone, time_t now,
    struct buf *out)
{
	(void)j, (void)now, (void)zone;
	buf_printf(out, "Where %s stands.\n", p == POWER_NONE ? "the GM" : g->map->powers[p].name);
}

static void
hook_stage(const struct game *g, char *out, size_t size)
{
	phase_format(&g->board, out, size);
}

static void
test_system_reads_lines(void **state)
{
	static const struct system_words words = { .kind = "hooks game", .example_side = "England" };
	static const struct system_boardless boardless = {
		.line = hook_line,
		.alive = hook_alive,
		.stage = hook_stage,
		.tick = hook_tick,
		.status = hook_status,
	};
	static struct rule_system hooks;
	struct tj *t = *state;
	const struct board before = t->g->board;

	hooks = standard_system;
	hooks.name = "hooks";
	hooks.serves = SYS_BOARDLESS | SYS_OWN_CLOCK | SYS_OWN_STATUS;
	hooks.words = &words;
	hooks.help = NULL;
	hooks.boardless = &boardless;
	game_set_system(t->g, &hooks);
	mail(t, "alice@england.example", "war", "GAME g1 England england-pw\nhello\nattack\n"
	    "F Lon - Nth\n", T0 + HOUR);
	assert_string_equal(reply(t, "alice@england.example", "Re: war", bob, 1),
	    "> GAME g1 England (password not shown)\n"
	    "  game g1, England\n"
	    "> attack\n"
	    "  understood: attack\n"
	    "> F Lon - Nth\n"
	    "  REFUSED: not a word of this game\n"
	    "\n"
	    "Ignored 1 line that is not a command: \"hello\".\n"
	    "\n"
	    "Where England stands.\n");
	assert_int_equal(t->g->del[power("England")].norders, 0);
	/* The system's clock, not the judge's phases: long past the deadline
	 * and its grace, nothing is adjudicated. */
	hook_ticks = 0;
	tick(t, DEADLINE1 + 48 * HOUR);
	assert_int_equal(hook_ticks, 1);
	assert_int_equal(t->g->board.year, before.year);
	assert_int_equal(t->g->board.season, before.season);
	assert_int_equal(t->j.fx.nphases, 0);
	assert_false(game_alive(t->g, power("Austria")));
	assert_true(game_alive(t->g, power("France")));
}

/* ---------------------------------------------------- how mail ends -- */

/* England's mail body through the judge; its reply. */
static const char *
england_mail(struct tj *t, const char *body)
{
	mail(t, "alice@england.example", "orders", body, T0 + HOUR);
	return reply(t, "alice@england.example", "Re: orders",
	    (const char *[]){ "bob@england.example" }, 1);
}

/* The end of a mail: a name there is ignored, but a place, a power's
 * heading or a one-word order there stays an order; a name between the
 * orders is refused as before. */
static void
test_endings_hard_cases(void **state)
{
	struct tj *t = *state;
	const char *r;

	/* The issue's mail: a name and a class after the orders, a quote header
	 * and the old orders under it. */
	r = england_mail(t, "Hoi,\nGAME g1 England england-pw\n"
	    "F Lon - Nth\nThanks!\nAnn (class 3B)\n\nOn Sat, 28 Nov 2026 at 11:00, pouch judge "
	    "<judge@example.test> wrote:\n\nF Edi - Nwg\nA Lvp - Yor\n");
	assert_prefix(r, "> GAME g1 England (password not shown)\n"
	    "  game g1, England\n"
	    "> F Lon - Nth\n"
	    "  accepted: F lon - nth\n"
	    "\n"
	    "Ignored 3 lines that are not orders: \"Hoi,\", \"Thanks!\", \"Ann (class 3B)\".\n"
	    "Ignored the end of your message from \"On Sat, 28 Nov 2026…\" on (3 lines): a "
	    "signature or a quoted mail is not read.\n");
	assert_int_equal(t->g->del[power("England")].norders, 1);

	/* A place alone at the end is an order (refused: no unit there). */
	r = england_mail(t, "GAME g1 England england-pw\nF Lon - Nth\n"
	    "Munich\n");
	assert_line(r, "> Munich");
	assert_lacks(r, "Ignored");
	/* A unit's place alone is its order; a misspelt order too. */
	r = england_mail(t, "GAME g1 England england-pw\nF Lon - Nth\n"
	    "Liverpol Yorksire\nEdinburgh\n");
	assert_lacks(r, "Ignored");
	assert_state_line(t->g, "order England A lvp - yor");
	/* A power's heading with an order under it, and a heading at the end:
	 * neither taken for a signature. */
	r = england_mail(t, "GAME g1 England england-pw\nEngland:\n"
	    "F Edi - Nwg\nEngland:\n");
	assert_lacks(r, "Ignored");
	assert_non_null(strstr(r, "> F Edi - Nwg\n  accepted: F edi - nwg\n> England:\n"));
	assert_state_line(t->g, "order England F edi - nwg");
	/* An order under a closing is an order still, not a name signed. */
	r = england_mail(t, "GAME g1 England england-pw\nF Lon - Nth\nThanks,\nA Lvp H\n");
	assert_lacks(r, "Ignored 2");
	assert_state_line(t->g, "order England A lvp H");
	/* A greeting that names a place is read as an order. */
	r = england_mail(t, "GAME g1 England england-pw\nHere are my orders: F Lon H\n");
	assert_line(r, "> Here are my orders: F Lon H");
	assert_lacks(r, "Ignored");
	/* A name between orders is refused, as a misspelt order would be. */
	r = england_mail(t, "GAME g1 England england-pw\nF Lon - Nth\n"
	    "Eva\nA Lvp - Yor\n");
	assert_line(r, "> Eva");
	assert_non_null(strstr(r, "> Eva\n  REFUSED: "));
	assert_lacks(r, "Ignored");
	/* A greeting above the GAME line gets no "start with a GAME line";
	 * with no GAME line at all the sender is still told. */
	mail(t, "alice@england.example", "orders", "Hoi,\n", T0 + HOUR);
	r = reply(t, "alice@england.example", "Re: orders", NULL, 0);
	assert_line(r, "  ignored: start with a line GAME <game> <power> <password> (send HELP for "
	    "instructions)");
	/* Nothing but a quote and a phone's footer: told too. */
	mail(t, "alice@england.example", "orders", "> A Par - Bur\nSent from my iPhone\n",
	    T0 + HOUR);
	assert_string_equal(reply(t, "alice@england.example", "Re: orders", NULL, 0),
	    "Start with a line GAME <game> <power> <password> (send HELP for instructions).\n"
	    "\n"
	    "Ignored 1 line that is not an order: \"> A Par - Bur\".\n"
	    "Ignored the end of your message from \"Sent from my iPhone\" on (1 line): a signature "
	    "or a quoted mail is not read.\n");
}

/* tests/data/endings: every case of the corpus (its README gives the
 * format) in a mail of England's, through judge_mail. */
#define ENDINGS_DIR "tests/data/endings"
#define ENDINGS_ORDERS "F Lon - Nth\nA Lvp - Yor\n"
#define ENDINGS_GAME "GAME g1 England england-pw\n"
#define ENDINGS_TRAP "F Edi - Nwg\n"

enum ending_kind { ENDING_CUT, ENDING_CLOSING, ENDING_GREETING, ENDING_INLINE, ENDING_UNDER };

/* The lines of text[0..len) that are not blank. */
static int
nonblank_lines(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	int n = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		bool blank = true;
		if (e == NULL)
			e = end;
		for (; p < e; p++)
			if (*p != ' ' && *p != '\t')
				blank = false;
		n += !blank;
		p = e + 1;
	}
	return n;
}

/* The lines the reply says it ignored: "Ignored N lines that are not
 * orders" and "Ignored the end of your message ... (N lines)"; *tail
 * says whether the second is there. */
static int
ignored_count(const char *text, bool *tail)
{
	const char *s;
	int n = 0;

	*tail = false;
	for (s = text; (s = strstr(s, "\nIgnored ")) != NULL; s++) {
		const char *k = s + 9;
		if (strncmp(k, "the end of your message", 23) == 0) {
			const char *c = strstr(k, " line");
			*tail = true;
			while (c && c > k && c[-1] >= '0' && c[-1] <= '9')
				c--;
			n += c ? (int)strtol(c, NULL, 10) : 0;
		} else {
			n += (int)strtol(k, NULL, 10);
		}
	}
	return n;
}

/* The lines of the quoted mail the reply says were passed over ("Read
 * what you wrote under the mail you quoted; ... (3 lines), ..."), or -1. */
static int
above_count(const char *text)
{
	const char *s = strstr(text, "\nRead what you wrote under the mail you quoted;");
	const char *c = s ? strstr(s, " line") : NULL;

	if (c == NULL)
		return -1;
	while (c > s && c[-1] >= '0' && c[-1] <= '9')
		c--;
	return (int)strtol(c, NULL, 10);
}

/* One case through a fresh judge; NULL when it passed, else what went
 * wrong (a static string). */
static const char *
ending_case(enum ending_kind kind, const char *text, size_t len, char *why, size_t size)
{
	struct tj *t = new_judge();
	struct buf body;
	const char *r, *fail = NULL;
	int want = nonblank_lines(text, len), got;
	bool tail;
	char *state;

	start_game(t, NULL);
	buf_init(&body, 1 << 16);
	if (kind == ENDING_GREETING)
		buf_append(&body, text, len);
	buf_puts(&body, ENDINGS_GAME);
	if (kind == ENDING_GREETING)
		buf_append(&body, text, len);
	buf_puts(&body, kind == ENDING_INLINE ? "F Lon - Nth\n" : ENDINGS_ORDERS);
	if (kind != ENDING_GREETING)
		buf_append(&body, text, len);
	if (kind == ENDING_INLINE)
		buf_puts(&body, "A Lvp - Yor\n");
	if (kind == ENDING_CUT || kind == ENDING_UNDER)
		buf_puts(&body, ENDINGS_TRAP);
	mail(t, "alice@england.example", "orders", buf_str(&body), T0 + HOUR);
	r = t->j.fx.nout == 1 ? t->j.fx.out[0].text : "";
	state = game_file(t->g);
	want *= kind == ENDING_GREETING ? 2 : 1;
	want += kind == ENDING_CUT;
	got = ignored_count(r, &tail);
	if (kind == ENDING_UNDER)	/* the quoted mail's lines and the closing's above it */
		got = above_count(r) < 0 ? -1 : got + above_count(r);
	if (kind == ENDING_UNDER && t->j.fx.nout == 1 &&
	    (!has_line(r, "  accepted: F edi - nwg") || t->g->del[power("England")].norders != 3))
		fail = "the order written under the quoted mail was not read";
	else if (t->j.fx.nout != 1)
		fail = "no reply";
	else if (!has_line(r, "  accepted: F lon - nth") || !has_line(r, "  accepted: A lvp - yor"))
		fail = "the orders above it were not both accepted";
	else if (strstr(r, "\n  REFUSED") != NULL)
		fail = "a line was refused";
	else if (strstr(r, "\n  ignored") != NULL)
		fail = "a line was answered as ignored on its own";
	else if (t->g->del[power("England")].norders != 2 + (kind == ENDING_UNDER) ||
	    !has_line(state, "order England F lon - nth") ||
	    !has_line(state, "order England A lvp - yor"))
		fail = "England's orders are not the two above it";
	else if (kind == ENDING_CUT && !tail)
		fail = "the end of the message is not said to be ignored";
	else if (got != want)
		fail = "the reply does not count every line as ignored";
	if (fail) {
		snprintf(why, size, "%s (ignored %d of %d lines):\n%s\n--- reply:\n%s", fail, got,
		    want, buf_str(&body), r);
		fail = why;
	}
	free(state);
	buf_free(&body);
	teardown((void **)&t);
	return fail;
}

/* The cases of one corpus file; adds to *cases and *failed. */
static void
ending_file(const char *name, int *cases, int *failed)
{
	char path[512], why[1 << 15];
	enum ending_kind kind = ENDING_CLOSING;
	const char *p, *end, *start = NULL, *title = NULL;
	struct buf file;
	int n = 0, bad = 0;
	bool kinded = false;

	snprintf(path, sizeof path, "%s/%s", ENDINGS_DIR, name);
	buf_init(&file, 1 << 20);
	test_read_file(path, &file);
	p = file.data;
	end = file.data + file.len;
	for (;;) {
		const char *e = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
		bool last = p >= end, head = !last && p[0] == '=' && p + 1 < end && p[1] == '=';
		if (e == NULL)
			e = end;
		if ((last || head) && start) {
			const char *f = ending_case(kind, start, (size_t)(p - start), why, sizeof why);
			/* A quoted mail with nothing under it ends the mail. */
			if (f == NULL && kind == ENDING_UNDER)
				f = ending_case(ENDING_CLOSING, start, (size_t)(p - start), why,
				    sizeof why);
			n++;
			if (f) {
				if (bad++ < 50)
					print_message("endings: %s: case \"%.*s\": %s\n", name,
					    (int)strcspn(title, "\n"), title, f);
			}
			start = NULL;
		}
		if (last)
			break;
		if (head) {
			title = p + 2 + strspn(p + 2, " ");
			start = e < end ? e + 1 : end;
		} else if (start == NULL && strncmp(p, "@kind ", 6) == 0) {
			const char *k = p + 6;
			kinded = true;
			kind = strncmp(k, "cut", 3) == 0 ? ENDING_CUT :
			    strncmp(k, "greeting", 8) == 0 ? ENDING_GREETING :
			    strncmp(k, "inline", 6) == 0 ? ENDING_INLINE :
			    strncmp(k, "under", 5) == 0 ? ENDING_UNDER : ENDING_CLOSING;
		} else if (start && p[0] == '#') {
			fail_msg("%s: a comment inside a case", name);
		}
		p = e < end ? e + 1 : end;
	}
	assert_true(kinded);
	print_message("endings: %-20s %3d cases, %3d passed\n", name, n, n - bad);
	*cases += n;
	*failed += bad;
	buf_free(&file);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
test_endings_corpus(void **state)
{
	char *names[64];
	int nnames = 0, cases = 0, failed = 0, i;
	struct dirent *de;
	DIR *d = opendir(ENDINGS_DIR);

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		size_t k = strlen(de->d_name);
		if (k > 4 && strcmp(de->d_name + k - 4, ".txt") == 0 && nnames < 64)
			names[nnames++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, (size_t)nnames, sizeof names[0], name_cmp);
	for (i = 0; i < nnames; i++) {
		ending_file(names[i], &cases, &failed);
		free(names[i]);
	}
	print_message("endings: %d cases in %d files, %d passed, %d failed\n", cases, nnames,
	    cases - failed, failed);
	assert_true(cases >= 300);
	assert_int_equal(failed, 0);
}

/* ------------------------------------------------ the tick's due index -- */

struct drained {
	int calls;
	int phased;		/* calls whose effects held phases */
	int mixed;		/* calls whose effects held more than one game's phases */
	struct tj *t;
};

static void
count_drain(void *arg)
{
	struct drained *d = arg;
	const struct judge_effects *fx = &d->t->j.fx;

	d->calls++;
	d->phased += fx->nphases > 0;
	for (int i = 1; i < fx->nphases; i++)
		if (strcmp(fx->phases[i].game, fx->phases[0].game) != 0) {
			d->mixed++;
			break;
		}
	fx_begin(d->t);
}

/* judge_tick_due looks at a game when its deadline comes (found by its
 * index, not a pass over every game), at one whose deadline a message
 * moved, and at none before; the ticks hand over each game's effects as
 * they go (drain), not all games' at once. */
static void
test_tick_due_index(void **state)
{
	struct tj *t = *state;
	struct drained d = { 0, 0, 0, t };
	struct game *g[3];
	char name[8];
	int k;

	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof name, "g%d", k + 1);
		start_named(t, name, NULL);
		g[k] = t->g;
	}
	t->j.drain = count_drain;
	t->j.drain_arg = &d;
	tick_due(t, T0 + HOUR);
	assert_int_equal(d.calls, 0);	/* all quiet till their deadlines */
	/* g2's deadline moved earlier by hand, as a GM's command would, and
	 * touched: the index sees it. */
	g[1]->deadline = T0 + 2 * HOUR;
	judge_touch(&t->j, g[1]);
	tick_due(t, T0 + 2 * HOUR);
	assert_int_equal(d.calls, 1);
	assert_true(g[1]->gm_told);
	assert_false(g[0]->gm_told);
	assert_false(g[2]->gm_told);
	d.calls = 0;
	tick_due(t, DEADLINE1 - 1);
	assert_false(g[0]->gm_told);
	assert_false(g[2]->gm_told);
	tick_due(t, DEADLINE1);
	assert_true(g[0]->gm_told);
	assert_true(g[2]->gm_told);
	assert_true(d.calls >= 2);
	/* past the grace period every game is decided, each handed over alone */
	d.calls = d.phased = 0;
	tick(t, DEADLINE1 + 30 * 24 * HOUR);
	assert_int_equal(d.calls, 3);
	assert_int_equal(d.phased, 3);
	assert_int_equal(d.mixed, 0);
	for (k = 0; k < 3; k++)
		assert_true(g[k]->nphases >= 1);
	t->j.drain = NULL;
}


int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_game_made_and_started, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_generated_password, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_many_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orders_in_subject, setup, teardown),
		cmocka_unit_test_setup_teardown(test_right_password, setup, teardown),
		cmocka_unit_test_setup_teardown(test_build_examples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_password, setup, teardown),
		cmocka_unit_test_setup_teardown(test_password_remembered_not_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_password_checked_ahead, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_non_member_with_password, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gm_and_player_passwords, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_powers_one_delegation, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_delegation_misspelt_places, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_two_powers_waive, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_gm_command_from_player, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reply_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reply_limit_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_press_to_power, setup, teardown),
		cmocka_unit_test_setup_teardown(test_press_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_password_echo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_press_gm_reads, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_broadcast, setup, teardown),
		cmocka_unit_test_setup_teardown(test_press_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grey_press, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gm_commands, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gm_process, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_mail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_system_reads_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_newgame, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_realpolitik_welcome, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_war_repayment_short, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_system_welcomes, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_muna_goals, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_award_goal_without_goals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_newgame_gives_no_authority, setup_empty,
		    teardown),
		cmocka_unit_test_setup_teardown(test_spring_1901, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spring_1901_dated_at_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spring_1901_early, setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_and_late_orders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_results_after_rollback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notices_due_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grace_completion_dated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_game_completed_late, setup_empty, teardown),
		cmocka_unit_test_setup_teardown(test_endings_hard_cases, setup, teardown),
		cmocka_unit_test(test_endings_corpus),
		cmocka_unit_test_setup_teardown(test_grace_partner_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_after_notice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_due_index, setup_empty, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
