/*
 * gm.c — the game master: creating games, delegations, and the commands
 * a GM gives by mail (PROCESS, PREVIEW, ROLLBACK, PAUSE, RESUME, SET,
 * REPLACE, EJECT, ADD/REMOVE OBSERVER, END, AWARD/REVOKE). Every action is
 * written to the game's audit log, without secrets.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "judge_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"

#define TEXT_MAX (1u << 20)

/* ------------------------------------------------------------ creation -- */

/* 16 bytes from the shell, labelled with the event so that a replay can
 * reproduce them. */
static int
random_bytes(struct judge *j, unsigned char r[16])
{
	char label[96];

	if (j->io.random == NULL)
		return -1;
	snprintf(label, sizeof label, "%s/%d", j->idbase[0] ? j->idbase : "judge", ++j->nrand);
	return j->io.random(j->io.ctx, label, r);
}

static int
hash_password(struct judge *j, const char *pw, char *out)
{
	unsigned char r[16];

	if (random_bytes(j, r) < 0)
		return -1;
	return secret_hash(pw, r, out, SECRET_HASH_MAX);
}

/* A new readable password from the shell's randomness. */
static int
new_password(struct judge *j, char *out, size_t size)
{
	unsigned char r[16];

	if (random_bytes(j, r) < 0)
		return -1;
	secret_words(r, out, size);
	return 0;
}

struct game *
judge_new_game(struct judge *j, const char *name, const struct game_settings *s,
    const char *gm, const char *gm_password, time_t now, struct buf *why)
{
	const struct names *nm;
	const struct map *m;
	struct game *g;
	char pw[64];

	if (!game_name_valid(name)) {
		buf_puts(why, "a game name has 1 to 23 letters, digits, '-' or '_'");
		return NULL;
	}
	if (judge_find_game(j, name)) {
		buf_printf(why, "there is already a game called %s", name);
		return NULL;
	}
	if (!tz_valid(&j->io.zones, s->zone)) {
		buf_printf(why, "unknown time zone \"%s\"", s->zone);
		return NULL;
	}
	m = j->io.variant(j->io.ctx, s->variant, &nm);
	if (m == NULL) {
		buf_printf(why, "no variant called \"%s\"", s->variant);
		return NULL;
	}
	j->now = now;
	if (gm_password != NULL && strlen(gm_password) < 6) {
		buf_puts(why, "the GM password needs at least 6 characters");
		return NULL;
	}
	if (j->seq == 0)
		jx_event(j, "%s.new", name);
	if (gm_password == NULL) {
		if (new_password(j, pw, sizeof pw) < 0) {
			buf_puts(why, "no randomness for a password");
			return NULL;
		}
	} else {
		str_copy(pw, gm_password, sizeof pw);
	}
	g = xcalloc(1, sizeof *g);
	game_init(g, name, s, m, nm, now);
	/* The variant's own default: MUNA's speech phase each Spring (§6). */
	if (map_option(m, "speech") && time_parse_span(map_option(m, "speech"), &g->set.speech) < 0)
		g->set.speech = 0;
	str_copy(g->gms[0], gm, ADDR_MAX);
	g->ngms = 1;
	if (hash_password(j, pw, g->gm_secret) < 0) {
		buf_puts(why, "could not hash the password");
		free(g);
		explicit_bzero(pw, sizeof pw);
		return NULL;
	}
	judge_add_game(j, g);
	judge_touch(j, g);
	judge_audit(j, g, "game created by %s: variant %s, edition %s", gm, s->variant,
	    edition_name(s->edition));
	if (gm_password == NULL) {
		/* Made up here: the GM learns it by mail, and only the GM. */
		struct buf text;
		char subject[128];
		const char *to[1] = { g->gms[0] };
		buf_init(&text, 1 << 16);
		buf_printf(&text, "You are the game master of the Diplomacy game %s (%s), run by mail\n"
		    "by the judge %s.\n\nYour password is: %s\nKeep it secret.\n\n"
		    "Send your commands to %s, starting with the line\n  GAME %s GM <password>\n"
		    "then for example DELEGATION England alice@example.org, and START.\n"
		    "Send HELP for all commands.\n", g->name, m->title, j->conf->address, pw,
		    j->conf->address, g->name);
		if (judge_address_placeholder(j->conf)) {
			buf_putc(&text, '\n');
			judge_address_warning(j->conf, "", &text);
		}
		snprintf(subject, sizeof subject, "[%s] you are its game master", g->name);
		jx_send(j, g, to, 1, NULL, 0, subject, buf_str(&text), NULL, NULL, OUT_GENERATED);
		buf_free(&text);
	}
	explicit_bzero(pw, sizeof pw);
	return g;
}

/* Split "a@x, b@y c@z" into addresses; returns the count. */
static int
split_addrs(const char *list, char out[][ADDR_MAX], int max)
{
	char buf[1024], *save, *tok;
	int n = 0;

	str_copy(buf, list, sizeof buf);
	for (tok = strtok_r(buf, " ,;\t", &save); tok && n < max; tok = strtok_r(NULL, " ,;\t", &save)) {
		if (strchr(tok, '@') == NULL || strlen(tok) >= ADDR_MAX)
			return -1;
		str_copy(out[n++], str_lower(tok), ADDR_MAX);
	}
	return n;
}

int
judge_add_delegation(struct judge *j, struct game *g, power_id p, const char *members,
    const char *password, time_t now, struct buf *why)
{
	return judge_add_delegations(j, g, &p, 1, members, password, now, why);
}

/* "England", "England and Germany", "England, Germany and Turkey". */
static void
powers_named(const struct game *g, const power_id *ps, int np, struct buf *out)
{
	int k;

	for (k = 0; k < np; k++)
		buf_printf(out, "%s%s", k == 0 ? "" : k == np - 1 ? " and " : ", ",
		    g->map->powers[ps[k]].name);
}

int
judge_add_delegations(struct judge *j, struct game *g, const power_id *ps, int np,
    const char *members, const char *password, time_t now, struct buf *why)
{
	struct delegation *d;
	char addrs[GAME_MAX_MEMBERS][ADDR_MAX], pw[64];
	struct buf text, names;
	char subject[128];
	int n, i, k, generated = 0;
	power_id p;

	if (np < 1 || np > MAP_MAX_POWERS) {
		buf_puts(why, "name the powers the delegation holds");
		return -1;
	}
	p = ps[0];
	d = &g->del[p];
	j->now = now;
	if (j->seq == 0) {
		/* A host's command: named after the game, power and time. */
		jx_event(j, "%s.d%s.%lld", g->name, g->map->powers[p].abbr, (long long)now);
	}
	n = split_addrs(members, addrs, GAME_MAX_MEMBERS);
	if (n <= 0) {
		buf_puts(why, "give the members' mail addresses, separated by commas");
		return -1;
	}
	if (password && *password) {
		if (strlen(password) < 6) {
			buf_puts(why, "a password needs at least 6 characters");
			return -1;
		}
		str_copy(pw, password, sizeof pw);
	} else {
		if (new_password(j, pw, sizeof pw) < 0) {
			buf_puts(why, "no randomness for a password");
			return -1;
		}
		generated = 1;
	}
	if (hash_password(j, pw, d->secret) < 0) {
		buf_puts(why, "could not hash the password");
		return -1;
	}
	/* A delegation holding several powers: each power gets the same members
	 * and the same hash, which is what makes them held together. */
	for (k = 0; k < np; k++) {
		struct delegation *dk = &g->del[ps[k]];
		if (k > 0)
			str_copy(dk->secret, d->secret, sizeof dk->secret);
		dk->nmembers = n;
		for (i = 0; i < n; i++) {
			str_copy(dk->members[i].addr, addrs[i], ADDR_MAX);
			dk->members[i].zone[0] = '\0';
		}
		dk->resigned = false;
	}
	judge_touch(j, g);
	buf_init(&names, 256);
	powers_named(g, ps, np, &names);
	judge_audit(j, g, "delegation %s: %d member%s, password %s", buf_str(&names), n,
	    n == 1 ? "" : "s", generated ? "generated and mailed to them" : "set by the GM");

	/* Tell the delegation. The password is sent once, to its members only,
	 * and only when the judge made it up. */
	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "You play %s in the Diplomacy game %s (%s, %s rules), run by mail\n"
	    "by the judge %s. Your delegation:",
	    buf_str(&names), g->name, g->map->title, edition_name(g->set.edition),
	    j->conf->address);
	for (i = 0; i < n; i++)
		buf_printf(&text, " %s", addrs[i]);
	buf_puts(&text, ".\n\n");
	if (generated)
		buf_printf(&text, "Your password is: %s\nKeep it secret: anyone who knows it can give your "
		    "orders.\n\n", pw);
	else
		buf_puts(&text, "Your game master will give you your password.\n\n");
	buf_printf(&text, "Send your orders to %s, starting with the line\n  GAME %s %s <password>\n"
	    "Send HELP for instructions.\n", j->conf->address, g->name, g->map->powers[p].name);
	if (np > 1)
		buf_puts(&text, "One password and one mail serve all your powers: the GAME line may name\n"
		    "any of them, and each order goes to the power whose unit (or home centre)\n"
		    "it names.\n");
	snprintf(subject, sizeof subject, "[%s] you play %s", g->name, buf_str(&names));
	{
		const char *to[GAME_MAX_MEMBERS];
		for (i = 0; i < n; i++)
			to[i] = d->members[i].addr;
		jx_send(j, g, to, n, NULL, 0, subject, buf_str(&text), NULL, NULL, OUT_GENERATED);
	}
	explicit_bzero(pw, sizeof pw);
	buf_free(&text);
	buf_free(&names);
	return 0;
}

int
judge_start(struct judge *j, struct game *g, time_t now, struct buf *why)
{
	struct buf text;
	char subject[128];
	int p, n = 0;

	if (g->status != GAME_FORMING) {
		buf_printf(why, "the game is %s", status_name(g->status));
		return -1;
	}
	for (p = 0; p < g->map->npowers; p++)
		n += g->del[p].nmembers > 0;
	if (n == 0) {
		buf_puts(why, "no delegation yet: DELEGATION England alice@example.org, ...");
		return -1;
	}
	g->status = GAME_ACTIVE;
	j->now = now;
	if (j->seq == 0)
		jx_event(j, "%s.start", g->name);
	jx_start_phase(j, g, now);
	judge_touch(j, g);
	judge_audit(j, g, "game started");
	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "Game %s has started: %s, %s rules.\n\n", g->name, g->map->title,
	    edition_name(g->set.edition));
	/* The powers nobody plays, in a paragraph of their own (none when all
	 * are played: no empty paragraph). */
	for (p = 0; p < g->map->npowers; p++) {
		if (g->del[p].nmembers == 0)
			buf_printf(&text, "%s has no players: its units hold (civil disorder).\n",
			    g->map->powers[p].name);
	}
	if (n < g->map->npowers)
		buf_puts(&text, "\n");
	jx_position(g, &text);
	if (judge_speech_open(g, now)) {
		buf_putc(&text, '\n');
		jx_speech_line(j, g, "", now, &text);
	}
	snprintf(subject, sizeof subject, "[%s] the game has started", g->name);
	judge_announce(j, g, subject, buf_str(&text));
	if (judge_address_placeholder(j->conf)) {
		/* The players were told to write to it: the GMs must know. */
		buf_reset(&text);
		buf_printf(&text, "Game %s has started, but the players were told to write to %s.\n\n",
		    g->name, j->conf->address);
		judge_address_warning(j->conf, "", &text);
		snprintf(subject, sizeof subject, "[%s] players cannot write to the judge's address",
		    g->name);
		for (p = 0; p < g->ngms; p++) {
			const char *to[1] = { g->gms[p] };
			jx_send(j, g, to, 1, NULL, 0, subject, buf_str(&text), NULL, NULL, OUT_GENERATED);
		}
	}
	buf_free(&text);
	return 0;
}

/* ------------------------------------------------------------ commands -- */

/* "England,Germany" or "England+Germany" at *s: the powers into out, *s
 * moved past them. Returns their count; 0 when *s starts with no such list
 * (one power, or none); -1 when a name in the list is not a power. */
static int
take_power_list(const struct map *m, char **s, power_id *out)
{
	char word[200], *save, *tok;
	size_t wn;
	int n = 0, k;

	*s = str_trim(*s);
	wn = strcspn(*s, " \t");
	if (wn >= sizeof word || memchr(*s, ',', wn) == NULL) {
		if (wn >= sizeof word || memchr(*s, '+', wn) == NULL)
			return 0;
	}
	memcpy(word, *s, wn);
	word[wn] = '\0';
	for (tok = strtok_r(word, ",+", &save); tok; tok = strtok_r(NULL, ",+", &save)) {
		power_id p = map_find_power(m, tok);
		if (p == POWER_NONE || n >= MAP_MAX_POWERS)
			return -1;
		for (k = 0; k < n; k++)
			if (out[k] == p)
				return -1;
		out[n++] = p;
	}
	*s += wn;
	return n;
}

/* "SET DEADLINE +24h" or "SET DEADLINE 2026-11-25 18:00" (the game's zone). */
static int
set_deadline(struct judge *j, struct game *g, const char *v, struct buf *reply)
{
	long span;
	time_t t;

	if (*v == '+' && time_parse_span(v + 1, &span) == 0) {
		t = j->now + span;
	} else {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		if (strptime(v, "%Y-%m-%d %H:%M", &tm) == NULL ||
		    tz_mktime(&j->io.zones, g->set.zone, &tm, &t) < 0) {
			buf_puts(reply, "  REFUSED: SET DEADLINE +24h, or SET DEADLINE 2026-11-25 18:00 "
			    "(in the game's time zone)\n");
			return -1;
		}
	}
	if (t <= j->now) {
		buf_puts(reply, "  REFUSED: that is in the past\n");
		return -1;
	}
	if (g->status == GAME_PAUSED)
		g->paused_left = (long)(t - j->now);
	else
		g->deadline = t;
	g->gm_told = false;
	{
		char s[96];
		time_human(&j->io.zones, g->set.zone, t, s, sizeof s);
		buf_printf(reply, "  deadline set: %s\n", s);
		judge_audit(j, g, "deadline set to %s", s);
	}
	return 0;
}

static int
set_option(struct judge *j, struct game *g, char *args, struct buf *reply)
{
	struct game_settings *s = &g->set;
	bool gmpress = s->gm_reads_press;
	char *v = args + strcspn(args, " \t");
	struct buf why;

	if (*v)
		*v++ = '\0';
	v = str_trim(v);
	if (str_eq_nocase(args, "deadline"))
		return set_deadline(j, g, v, reply);
	if (str_eq_nocase(args, "edition") && g->status != GAME_FORMING) {
		buf_puts(reply, "  REFUSED: the edition is fixed once the game has started\n");
		return -1;
	}
	buf_init(&why, 1024);
	if (game_settings_set(s, args, v, &j->io.zones, &why) < 0) {
		buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
		buf_free(&why);
		return -1;
	}
	buf_free(&why);
	if (str_eq_nocase(args, "edition")) {
		game_set_rules(g);
	}
	if (s->gm_reads_press != gmpress) {
		/* The players are told, as HELP promises. */
		char subject[128], text[256];
		snprintf(subject, sizeof subject, "[%s] press rules", g->name);
		snprintf(text, sizeof text, "From now on the game master %s copies of private press "
		    "in game %s.\n", s->gm_reads_press ? "receives" : "no longer receives", g->name);
		judge_announce(j, g, subject, text);
	}
	buf_printf(reply, "  %s set to %s\n", args, v);
	judge_audit(j, g, "setting %s = %s", args, v);
	return 0;
}

/* The points the officers gave p for its goal 3 so far. */
static int
goal3_awarded(const struct game *g, power_id p)
{
	char tag[32];
	int i, n = 0;

	snprintf(tag, sizeof tag, "political goal %d:", GAME_GOALS);
	for (i = 0; i < g->nawards; i++)
		if (g->awards[i].power == p && !g->awards[i].rules &&
		    strncmp(g->awards[i].reason, tag, strlen(tag)) == 0)
			n += g->awards[i].points;
	return n;
}

/*
 * AWARD <power> <points> GOAL <n>: the reason is goal n of the power,
 * written into out ("political goal 2: ..."); out is "" for any other
 * reason. Goal 3 must be approved, and the officers give no more for it
 * than it is worth. Returns -1 when refused (reason in reply).
 */
static int
goal_reason(const struct game *g, power_id p, long pts, const char *reason, char *out, size_t n,
    struct buf *reply)
{
	const struct delegation *d = &g->del[p];
	const char *name = g->map->powers[p].name;
	long k;

	out[0] = '\0';
	if (!str_prefix_nocase(reason, "goal ") || str_to_long(reason + 5, 1, GAME_GOALS, &k) < 0)
		return 0;
	if (!d->goal[k - 1][0]) {
		buf_printf(reply, "  REFUSED: %s has no goal %ld (GOAL lists the goals)\n", name, k);
		return -1;
	}
	if (k == GAME_GOALS && !d->goal_approved) {
		buf_printf(reply, "  REFUSED: the officers have not approved the goal %s proposed "
		    "(GOAL APPROVE %s)\n", name, name);
		return -1;
	}
	if (k == GAME_GOALS && goal3_awarded(g, p) + pts > d->goal_points) {
		buf_printf(reply, "  REFUSED: the goal %s proposed is worth %d point%s, and %d %s "
		    "given for it\n", name, d->goal_points, d->goal_points == 1 ? "" : "s",
		    goal3_awarded(g, p), goal3_awarded(g, p) == 1 ? "was" : "were");
		return -1;
	}
	snprintf(out, n, "political goal %ld: %s", k, d->goal[k - 1]);
	out[AWARD_REASON_MAX - 1] = '\0';
	return 0;
}

/*
 * END WINNER p without a reason, in a game of victory points: -1 (refused,
 * reply says why) when another power leads the standings; the officers
 * choose the winner, but say why when it is not the leader.
 */
static int
winner_not_first(const struct game *g, power_id p, struct buf *reply)
{
	struct standing st[MAP_MAX_POWERS];
	int n, i;

	if (!game_victory_points(g))
		return 0;
	n = game_standings(g, &g->board, st);
	for (i = 0; i < n && st[i].power != p; i++)
		;
	if (i == n || st[i].total >= st[0].total)
		return 0;
	buf_printf(reply, "  REFUSED: %s leads the standings, %d points to %s's %d. To declare %s "
	    "the winner all the same, write\n    END WINNER %s BECAUSE <the reason>\n",
	    g->map->powers[st[0].power].name, st[0].total, g->map->powers[p].name, st[i].total,
	    g->map->powers[p].name, g->map->powers[p].name);
	return -1;
}

/*
 * NEWGAME name variant KEY key PASSWORD gm-password       by mail: the sender is the GM
 * NEWGAME name variant GM address [PASSWORD gm-password]  from the host
 */
static int
cmd_newgame(struct judge *j, char *args, const char *sender, struct buf *reply)
{
	char *save, *name = strtok_r(args, " \t", &save), *variant = strtok_r(NULL, " \t", &save);
	const char *gm = sender, *key = NULL, *pw = NULL;
	char *kw, *v;
	struct game_settings s;
	struct buf why;
	struct game *g;
	int bad = !name || !variant;

	while (!bad && (kw = strtok_r(NULL, " \t", &save)) != NULL) {
		v = strtok_r(NULL, " \t", &save);
		if (v == NULL)
			bad = 1;
		else if (str_eq_nocase(kw, "key"))
			key = v;
		else if (str_eq_nocase(kw, "password"))
			pw = v;
		else if (str_eq_nocase(kw, "gm") && j->host)
			gm = str_lower(v);
		else
			bad = 1;
	}
	if (j->host && (bad || gm == sender)) {
		buf_puts(reply, "  REFUSED: NEWGAME <name> <variant> GM <address> [PASSWORD <password>]\n");
		return -1;
	}
	if (!j->host && (bad || key == NULL || pw == NULL)) {
		buf_puts(reply, "  REFUSED: NEWGAME <name> <variant> KEY <creation key> PASSWORD "
		    "<your GM password>\n");
		return -1;
	}
	if (!j->host && (j->conf->create_key[0] == '\0' || !secret_check(key, j->conf->create_key))) {
		buf_puts(reply, "  REFUSED: wrong creation key (ask the judge's host)\n");
		jx_log(j, NULL, "NEWGAME refused for %s: wrong creation key", sender);
		return -1;
	}
	if (strchr(gm, '@') == NULL || strlen(gm) >= ADDR_MAX) {
		buf_printf(reply, "  REFUSED: \"%s\" is not a mail address\n", gm);
		return -1;
	}
	game_settings_default(&s, variant);
	buf_init(&why, 1024);
	g = judge_new_game(j, name, &s, gm, pw, j->now, &why);
	if (g == NULL) {
		buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
		buf_free(&why);
		return -1;
	}
	buf_free(&why);
	if (j->host)
		buf_printf(reply, "  game %s created (%s); its game master is %s (password %s).\n"
		    "  Add delegations with DELEGATION <power> <addresses>, then START.\n", g->name,
		    g->map->title, gm, pw ? "as given" : "mailed to them");
	else
		buf_printf(reply, "  game %s created (%s). You are its game master; add delegations "
		    "with\n  DELEGATION <power> <addresses>, then START.\n", g->name, g->map->title);
	return 0;
}

int
jx_gm_command(struct judge *j, struct game *g, enum command cmd, const char *a, size_t n,
    const char *sender, struct buf *reply)
{
	char args[600];
	const struct system_command *sc;
	struct buf why;
	int rc = 0;

	str_ncopy_trim(args, sizeof args, a, n);
	if (cmd == CMD_NEWGAME)
		return cmd_newgame(j, args, sender, reply);
	if (g == NULL)
		return -1;
	/* The commands of the game's rules come first (judge/system.h). */
	if ((sc = system_command(g->sys, cmd, SYSTEM_GM)) != NULL) {
		rc = sc->run(j, g, POWER_NONE, args, reply);
		judge_touch(j, g);
		return rc;
	}
	buf_init(&why, 4096);
	switch (cmd) {
	case CMD_HELP:
		buf_puts(reply, "\nGame master commands: PROCESS, PREVIEW, ROLLBACK <phase>, PAUSE, RESUME,\n"
		    "SET DEADLINE +24h | SET <setting> <value>, DELEGATION <power> <addresses>,\n"
		    "REPLACE <power> MEMBERS <addresses> | REPLACE <power> PASSWORD [<new>],\n"
		    "EJECT <power>, ADD OBSERVER <address>, REMOVE OBSERVER <address>,\n"
		    "AWARD <power> <points> <reason>, REVOKE <power> <points> <reason>,\n"
		    "START, END WINNER <power> | END DRAW, PRESS TO ..., BROADCAST, LIST, HISTORY, SUMMARY");
		if (g->sys->gm_help) {
			buf_puts(reply, ",\n");
			g->sys->gm_help(g, reply);
		} else {
			buf_puts(reply, ".\n");
		}
		buf_puts(reply, "A delegation holding several powers: DELEGATION England,Germany <addresses>.\n");
		break;
	case CMD_LIST:
		buf_putc(reply, '\n');
		jx_position(g, reply);
		{
			int p;
			for (p = 0; p < g->map->npowers; p++) {
				if (!game_must_order(g, (power_id)p))
					continue;
				buf_printf(reply, "%s: %s%s\n", g->map->powers[p].name,
				    game_orders_complete(g, (power_id)p) ? "orders complete" : "orders missing",
				    g->del[p].wait ? ", WAIT" : "");
			}
		}
		break;
	case CMD_PROCESS:
		if (judge_process(j, g, j->now, false, &why) < 0) {
			buf_printf(reply, "  REFUSED: %s", buf_str(&why));
			rc = -1;
		} else {
			buf_puts(reply, "  processed; the results are on their way\n");
			judge_audit(j, g, "PROCESS");
		}
		break;
	case CMD_PREVIEW:
		if (judge_process(j, g, j->now, true, reply) < 0)
			rc = -1;
		break;
	case CMD_ROLLBACK:
		if (judge_rollback(j, g, args, j->now, &why) < 0) {
			buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
			rc = -1;
		} else {
			char subject[128], text[300], ph[48];
			buf_printf(reply, "  rolled back to %s\n", args);
			judge_audit(j, g, "ROLLBACK %s", args);
			snprintf(subject, sizeof subject, "[%s] rolled back", g->name);
			snprintf(text, sizeof text, "The game master has rolled game %s back to %s. Orders "
			    "given since are forgotten: send your orders again.\n", g->name,
			    phase_format(&g->board, ph, sizeof ph));
			judge_announce(j, g, subject, text);
		}
		break;
	case CMD_PAUSE:
		if (g->status != GAME_ACTIVE) {
			buf_printf(reply, "  REFUSED: the game is %s\n", status_name(g->status));
			rc = -1;
			break;
		}
		g->status = GAME_PAUSED;
		g->paused_left = g->deadline > j->now ? (long)(g->deadline - j->now) : 3600;
		judge_audit(j, g, "PAUSE");
		{
			char subject[128];
			snprintf(subject, sizeof subject, "[%s] game paused", g->name);
			judge_announce(j, g, subject, "The game master has paused the game: no deadline "
			    "passes until it is resumed.\n");
		}
		buf_puts(reply, "  paused\n");
		break;
	case CMD_RESUME:
		if (g->status != GAME_PAUSED) {
			buf_printf(reply, "  REFUSED: the game is %s\n", status_name(g->status));
			rc = -1;
			break;
		}
		g->status = GAME_ACTIVE;
		g->deadline = j->now + g->paused_left;
		g->paused_left = 0;
		judge_audit(j, g, "RESUME");
		{
			char subject[128];
			snprintf(subject, sizeof subject, "[%s] game resumed", g->name);
			judge_announce(j, g, subject, "The game master has resumed the game.\n");
		}
		buf_puts(reply, "  resumed\n");
		break;
	case CMD_SET:
		rc = set_option(j, g, args, reply);
		break;
	case CMD_START:
		if (judge_start(j, g, j->now, &why) < 0) {
			buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
			rc = -1;
		} else {
			buf_puts(reply, "  the game has started\n");
			judge_address_warning(j->conf, "  ", reply);
		}
		break;
	case CMD_DELEGATION:
	case CMD_REPLACE: {
		char *rest = args;
		power_id p, held[MAP_MAX_POWERS];
		int nheld = 0;
		char *password = NULL;

		if (cmd == CMD_DELEGATION)
			nheld = take_power_list(g->map, &rest, held);
		p = nheld > 0 ? held[0] : nheld < 0 ? POWER_NONE : map_take_power(g->map, &rest);

		if (p == POWER_NONE || rest == NULL || *rest == '\0') {
			buf_printf(reply, "  REFUSED: %s <power> <addresses> [PASSWORD <password>]\n",
			    cmd == CMD_DELEGATION ? "DELEGATION" : "REPLACE");
			rc = -1;
			break;
		}
		if (cmd == CMD_REPLACE && str_prefix_nocase(rest, "members"))
			rest = str_trim(rest + 7);
		if (cmd == CMD_REPLACE && (str_prefix_nocase(rest, "password") ||
		    str_prefix_nocase(rest, "secret"))) {
			/* New password for the same members. */
			char members[GAME_MAX_MEMBERS * ADDR_MAX] = "";
			int i;
			for (i = 0; i < g->del[p].nmembers; i++) {
				strncat(members, g->del[p].members[i].addr, sizeof members - strlen(members) - 2);
				strncat(members, ",", sizeof members - strlen(members) - 1);
			}
			rest += strcspn(rest, " \t");
			password = str_trim(rest);
			if (judge_add_delegation(j, g, p, members, password, j->now, &why) < 0) {
				buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
				rc = -1;
			} else {
				buf_printf(reply, "  new password for %s%s\n", g->map->powers[p].name,
				    *password ? "" : " (mailed to its members)");
			}
			break;
		}
		{
			char *kw = strstr(rest, " PASSWORD ");
			if (kw == NULL)
				kw = strstr(rest, " password ");
			if (kw) {
				*kw = '\0';
				password = str_trim(kw + 10);
			}
		}
		if (nheld == 0)
			held[nheld++] = p;
		if (judge_add_delegations(j, g, held, nheld, rest, password, j->now, &why) < 0) {
			buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
			rc = -1;
		} else if (nheld > 1) {
			buf_puts(reply, "  ");
			powers_named(g, held, nheld, reply);
			buf_printf(reply, ": one delegation (%s)\n",
			    password ? "password set by you" : "password mailed to its members");
		} else {
			buf_printf(reply, "  %s: delegation set (%s)\n", g->map->powers[p].name,
			    password ? "password set by you" : "password mailed to its members");
		}
		break;
	}
	case CMD_EJECT: {
		power_id p = map_find_power(g->map, args);
		if (p == POWER_NONE) {
			buf_puts(reply, "  REFUSED: EJECT <power>\n");
			rc = -1;
			break;
		}
		g->del[p].resigned = true;
		g->del[p].norders = 0;
		g->del[p].secret[0] = '\0';
		judge_audit(j, g, "EJECT %s", g->map->powers[p].name);
		buf_printf(reply, "  %s ejected: its units hold until you REPLACE it\n",
		    g->map->powers[p].name);
		break;
	}
	case CMD_ADD_OBSERVER:
		if (strchr(args, '@') == NULL || strlen(args) >= ADDR_MAX ||
		    g->nobservers >= GAME_MAX_OBSERVERS) {
			buf_puts(reply, "  REFUSED: ADD OBSERVER <address>\n");
			rc = -1;
			break;
		}
		str_copy(g->observers[g->nobservers++], str_lower(args), ADDR_MAX);
		judge_audit(j, g, "ADD OBSERVER %s", args);
		buf_printf(reply, "  %s now receives the reports\n", args);
		break;
	case CMD_REMOVE_OBSERVER: {
		int i, k = 0;
		for (i = 0; i < g->nobservers; i++)
			if (!str_eq_nocase(g->observers[i], args))
				memmove(g->observers[k++], g->observers[i], ADDR_MAX);
		if (k == g->nobservers) {
			buf_printf(reply, "  REFUSED: %s is not an observer\n", args);
			rc = -1;
			break;
		}
		g->nobservers = k;
		judge_audit(j, g, "REMOVE OBSERVER %s", args);
		buf_printf(reply, "  %s no longer receives the reports\n", args);
		break;
	}
	case CMD_END:
		if (str_prefix_nocase(args, "winner ")) {
			char *rest = args + 7, *because;
			power_id p = map_take_power(g->map, &rest);
			char res[sizeof g->result];
			if (p == POWER_NONE) {
				buf_puts(reply, "  REFUSED: END WINNER <power> [BECAUSE <reason>]\n");
				rc = -1;
				break;
			}
			because = str_trim(rest);
			if (str_prefix_nocase(because, "because "))
				because = str_trim(because + 8);
			if (*because == '\0' && winner_not_first(g, p, reply) < 0) {
				rc = -1;
				break;
			}
			if (snprintf(res, sizeof res, "%s wins (declared by the game master%s%.120s)",
			    g->map->powers[p].name, *because ? ": " : "", because) >= (int)sizeof res)
				res[sizeof res - 1] = '\0';
			jx_end_game(j, g, res);
		} else if (str_prefix_nocase(args, "draw")) {
			char res[sizeof g->result];
			snprintf(res, sizeof res, "Draw%s%.120s (declared by the game master)",
			    args[4] ? " between" : "", args + 4);
			jx_end_game(j, g, res);
		} else {
			buf_puts(reply, "  REFUSED: END WINNER <power> or END DRAW [powers]\n");
			rc = -1;
			break;
		}
		buf_puts(reply, "  the game is over\n");
		break;
	case CMD_AWARD:
	case CMD_REVOKE: {
		char *rest = args, *save, *num, *reason, goal[AWARD_REASON_MAX + 32] = "";
		power_id p = map_take_power(g->map, &rest);
		long pts;

		num = strtok_r(rest, " \t", &save);
		reason = num && save ? str_trim(save) : NULL;
		if (p == POWER_NONE || num == NULL || str_to_long(num, 1, 100, &pts) < 0 ||
		    reason == NULL || *reason == '\0') {
			buf_printf(reply, "  REFUSED: %s <power> <points> <reason> (1 to 100 points; the "
			    "reason is shown to everyone)\n", command_name(cmd));
			rc = -1;
			break;
		}
		if (strlen(reason) >= AWARD_REASON_MAX) {
			buf_printf(reply, "  REFUSED: say the reason in fewer than %d characters\n",
			    AWARD_REASON_MAX);
			rc = -1;
			break;
		}
		if (cmd == CMD_AWARD && goal_reason(g, p, pts, reason, goal, sizeof goal, reply) < 0) {
			rc = -1;
			break;
		}
		if (goal[0])
			reason = goal;
		if (cmd == CMD_REVOKE && pts > g->del[p].points) {
			buf_printf(reply, "  REFUSED: %s has %d political point%s\n", g->map->powers[p].name,
			    g->del[p].points, g->del[p].points == 1 ? "" : "s");
			rc = -1;
			break;
		}
		game_award(g, p, cmd == CMD_AWARD ? (int)pts : -(int)pts, false, reason);
		judge_audit(j, g, "%s %s %ld: %s", command_name(cmd), g->map->powers[p].name, pts, reason);
		{
			char subject[128];
			struct buf text;
			buf_init(&text, 1 << 16);
			snprintf(subject, sizeof subject, "[%s] political points", g->name);
			buf_printf(&text, "The officers %s %ld political point%s %s %s: %s\n%s now has "
			    "%d political point%s.\n", cmd == CMD_AWARD ? "award" : "revoke", pts,
			    pts == 1 ? "" : "s", cmd == CMD_AWARD ? "to" : "from", g->map->powers[p].name,
			    reason, g->map->powers[p].name, g->del[p].points,
			    g->del[p].points == 1 ? "" : "s");
			judge_standings(g, &g->board, "Victory points now:", &text);
			judge_announce(j, g, subject, buf_str(&text));
			buf_free(&text);
		}
		buf_printf(reply, "  %s now has %d political points\n", g->map->powers[p].name,
		    g->del[p].points);
		break;
	}
	case CMD_HISTORY:
	case CMD_SUMMARY:
	case CMD_WAIT:
	case CMD_NOWAIT:
	case CMD_VOTE:
	case CMD_RESIGN:
	case CMD_ORDERS:
	case CMD_REQUEST:
		buf_printf(reply, "  REFUSED: %s is a command for players\n", command_name(cmd));
		rc = -1;
		break;
	case CMD_SIGNOFF:
		break;
	default:
		buf_printf(reply, "  REFUSED: %s is not a command of this game's rules (%s)\n",
		    command_name(cmd), g->sys->name);
		rc = -1;
		break;
	}
	buf_free(&why);
	judge_touch(j, g);
	return rc;
}
