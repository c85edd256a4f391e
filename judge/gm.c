/*
 * gm.c — the commands a game master gives by mail (gm.h), one handler
 * each, found through the table at the end. Every action is written to
 * the game's audit log, without secrets.
 */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "gm.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "outbound.h"
#include "setup.h"
#include "status.h"
#include "system_words.h"
#include "turn.h"

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
		if (strptime(v, "%Y-%m-%d %H:%M", &tm) == NULL || tz_mktime(&j->io.zones, g->set.zone, &tm, &t) < 0) {
			buf_puts(reply, "  REFUSED: SET DEADLINE +24h, or SET DEADLINE 2026-11-25 18:00 "
			    "(in the game's time zone)\n");
			return -1;
		}
	}
	if (t <= j->now) {
		buf_puts(reply, "  REFUSED: that is in the past\n");
		return -1;
	}
	if (g->status == GAME_PAUSED) {
		g->paused_left = (long)(t - j->now);	/* RESUME tells everyone */
	} else {
		g->deadline = t;
		outbound_deadline_moved(j, g);
	}
	turn_deadline_again(g);
	if (g->status == GAME_PAUSED) {
		/* The date given holds only if RESUME comes now: say what holds. */
		char s[48];
		time_span(g->paused_left, s, sizeof s);
		buf_printf(reply, "  deadline set: %s after RESUME (the game is paused)\n", s);
		judge_audit(j, g, "deadline set to %s after RESUME", s);
	} else {
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
	if (game_set(g, args, v, &j->io.zones, &why) < 0) {
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
	buf_printf(reply, "  REFUSED: %s leads the standings, %d point%s to %s's %d. To declare %s "
	    "the winner all the same, write\n    END WINNER %s BECAUSE <the reason>\n",
	    g->map->powers[st[0].power].name, st[0].total, st[0].total == 1 ? "" : "s",
	    g->map->powers[p].name, st[i].total, g->map->powers[p].name, g->map->powers[p].name);
	return -1;
}

/* A NEWGAME line read. */
struct newgame {
	const char *name, *variant;
	const char *gm;		/* the game master's address */
	const char *key;	/* the creation key (by mail) */
	const char *pw;		/* the GM's password; NULL: one is made up */
};

/*
 * NEWGAME name variant KEY key PASSWORD gm-password       by mail: the sender is the GM
 * NEWGAME name variant GM address [PASSWORD gm-password]  from the host
 * read from c into ng. Returns 0, or -1 with how to write it in the reply.
 */
static int
newgame_read(struct command_call *c, struct newgame *ng)
{
	bool host = c->j->host;
	char *save, *kw, *v;
	int bad;

	ng->name = strtok_r(c->args, " \t", &save);
	ng->variant = strtok_r(NULL, " \t", &save);
	ng->gm = c->sender;
	ng->key = ng->pw = NULL;
	bad = !ng->name || !ng->variant;
	while (!bad && (kw = strtok_r(NULL, " \t", &save)) != NULL) {
		v = strtok_r(NULL, " \t", &save);
		if (v == NULL)
			bad = 1;
		else if (str_eq_nocase(kw, "key"))
			ng->key = v;
		else if (str_eq_nocase(kw, "password"))
			ng->pw = v;
		else if (str_eq_nocase(kw, "gm") && host)
			ng->gm = str_lower(v);
		else
			bad = 1;
	}
	if (host && (bad || ng->gm == c->sender)) {
		buf_puts(c->reply, "  REFUSED: the game was not created: write NEWGAME <name> "
		    "<variant> GM <address> [PASSWORD <password>]\n");
		return -1;
	}
	if (!host && (bad || ng->key == NULL || ng->pw == NULL)) {
		buf_puts(c->reply, "  REFUSED: the game was not created: write NEWGAME <name> "
		    "<variant> KEY <creation key> PASSWORD <your GM password>\n");
		return -1;
	}
	return 0;
}

enum cmd_result
gm_newgame(struct command_call *c)
{
	struct judge *j = c->j;
	struct game_settings s;
	struct newgame ng;
	struct buf why;
	struct game *g;
	const char *hint;

	if (newgame_read(c, &ng) < 0)
		return CMD_REFUSED;
	if (!j->host && (j->conf->create_key[0] == '\0' || !secret_check(ng.key, j->conf->create_key))) {
		buf_puts(c->reply, "  REFUSED: the game was not created: wrong creation key (ask the "
		    "judge's host)\n");
		outbound_log(j, NULL, "NEWGAME refused for %s: wrong creation key", c->sender);
		return CMD_REFUSED;
	}
	if (strchr(ng.gm, '@') == NULL || strlen(ng.gm) >= ADDR_MAX) {
		buf_printf(c->reply, "  REFUSED: the game was not created: \"%s\" is not a mail "
		    "address\n", ng.gm);
		return CMD_REFUSED;
	}
	game_settings_default(&s, ng.variant);
	buf_init(&why, 1024);
	g = judge_new_game(j, ng.name, &s, ng.gm, ng.pw, j->now, &why);
	if (g == NULL) {
		buf_printf(c->reply, "  REFUSED: the game was not created: %s\n", buf_str(&why));
		buf_free(&why);
		return CMD_REFUSED;
	}
	buf_free(&why);
	hint = system_words(g)->setup_hint;
	if (j->host)
		buf_printf(c->reply, "  game %s created (%s); its game master is %s (password %s).\n"
		    "  %s\n", g->name, g->map->title, ng.gm, ng.pw ? "as given" : "mailed to them",
		    hint ? hint : "Add delegations with DELEGATION <power> <addresses>, then START.");
	else if (hint)
		buf_printf(c->reply, "  game %s created (%s). You are its game master.\n  %s\n",
		    g->name, g->map->title, hint);
	else
		buf_printf(c->reply, "  game %s created (%s). You are its game master; add delegations "
		    "with\n  DELEGATION <power> <addresses>, then START.\n", g->name, g->map->title);
	return CMD_DONE;
}

/* HELP: the game master's commands, with those of the game's rules. */
static enum cmd_result
gm_help(struct command_call *c)
{
	struct buf *reply = c->reply;
	size_t mark;

	if (system_serves(c->g->sys, SYS_BOARDLESS)) {
		buf_putc(reply, '\n');
		system_help(c->g, POWER_NONE, reply);
		return CMD_DONE;
	}
	buf_puts(reply, "\nGame master commands: PROCESS, PREVIEW, ROLLBACK <phase>, PAUSE, RESUME,\n"
	    "SET DEADLINE +24h | SET <setting> <value>, DELEGATION <power> <addresses>,\n"
	    "REPLACE <power> MEMBERS <addresses> | REPLACE <power> PASSWORD [<new>],\n"
	    "EJECT <power>, ADD OBSERVER <address>, REMOVE OBSERVER <address>,\n"
	    "AWARD <power> <points> <reason>, REVOKE <power> <points> <reason>,\n"
	    "START, END WINNER <power> | END DRAW, PRESS TO ..., BROADCAST, LIST, HISTORY, EXPLAIN, SUMMARY");
	mark = reply->len;
	buf_puts(reply, ",\n");
	if (!system_help(c->g, POWER_NONE, reply)) {
		buf_truncate(reply, mark);
		buf_puts(reply, ".\n");
	}
	buf_puts(reply, "A delegation holding several powers: DELEGATION England,Germany <addresses>.\n");
	return CMD_DONE;
}

/* LIST: the position, and whose orders are complete. */
static enum cmd_result
gm_list(struct command_call *c)
{
	const struct game *g = c->g;
	int p;

	buf_putc(c->reply, '\n');
	status_position(g, c->reply);
	for (p = 0; p < g->map->npowers; p++) {
		if (!game_must_order(g, (power_id)p))
			continue;
		buf_printf(c->reply, "%s: %s%s\n", g->map->powers[p].name,
		    game_orders_complete(g, (power_id)p) ? "orders complete" : "orders missing",
		    g->del[p].wait ? ", WAIT" : "");
	}
	return CMD_DONE;
}

/* PROCESS: adjudicate the phase now. */
static enum cmd_result
gm_process(struct command_call *c)
{
	struct buf why;
	enum cmd_result rc = CMD_DONE;

	buf_init(&why, 4096);
	if (judge_process(c->j, c->g, c->j->now, false, &why) < 0) {
		buf_printf(c->reply, "  REFUSED: %s", buf_str(&why));
		rc = CMD_REFUSED;
	} else {
		buf_puts(c->reply, "  processed; the results are on their way\n");
		judge_audit(c->j, c->g, "PROCESS");
	}
	buf_free(&why);
	return rc;
}

/* PREVIEW: what PROCESS would do, changing nothing. */
static enum cmd_result
gm_preview(struct command_call *c)
{
	if (judge_process(c->j, c->g, c->j->now, true, c->reply) < 0)
		return CMD_REFUSED;
	return CMD_DONE;
}

/* ROLLBACK <phase>: back to its start; everyone is told. */
static enum cmd_result
gm_rollback(struct command_call *c)
{
	struct game *g = c->g;
	char subject[128], text[300], ph[48];
	struct buf why;

	buf_init(&why, 4096);
	if (judge_rollback(c->j, g, c->args, c->j->now, &why) < 0) {
		buf_printf(c->reply, "  REFUSED: %s\n", buf_str(&why));
		buf_free(&why);
		return CMD_REFUSED;
	}
	buf_free(&why);
	buf_printf(c->reply, "  rolled back to %s\n", c->args);
	judge_audit(c->j, g, "ROLLBACK %s", c->args);
	snprintf(subject, sizeof subject, "[%s] rolled back", g->name);
	snprintf(text, sizeof text, "The game master has rolled game %s back to %s. Orders given "
	    "since are forgotten: send your orders again.\n", g->name,
	    phase_format(&g->board, ph, sizeof ph));
	outbound_news(c->j, g, subject, text, false);
	return CMD_DONE;
}

/* PAUSE: no deadline passes until RESUME. */
static enum cmd_result
gm_pause(struct command_call *c)
{
	struct game *g = c->g;
	char subject[128];

	if (g->status != GAME_ACTIVE) {
		buf_printf(c->reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	g->status = GAME_PAUSED;
	g->paused_left = g->deadline > c->j->now ? (long)(g->deadline - c->j->now) : 3600;
	judge_audit(c->j, g, "PAUSE");
	snprintf(subject, sizeof subject, "[%s] game paused", g->name);
	judge_announce(c->j, g, subject, "The game master has paused the game: no deadline passes "
	    "until it is resumed.\n");
	buf_puts(c->reply, "  paused\n");
	return CMD_DONE;
}

/* RESUME: the deadline is as far off as it was at PAUSE. */
static enum cmd_result
gm_resume(struct command_call *c)
{
	struct game *g = c->g;
	char subject[128];

	if (g->status != GAME_PAUSED) {
		buf_printf(c->reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	g->status = GAME_ACTIVE;
	g->deadline = c->j->now + g->paused_left;
	g->paused_left = 0;
	turn_deadline_again(g);
	judge_audit(c->j, g, "RESUME");
	snprintf(subject, sizeof subject, "[%s] game resumed", g->name);
	outbound_news(c->j, g, subject, "The game master has resumed the game.\n", true);
	buf_puts(c->reply, "  resumed\n");
	return CMD_DONE;
}

/* SET DEADLINE ... | SET <setting> <value>. */
static enum cmd_result
gm_set(struct command_call *c)
{
	return set_option(c->j, c->g, c->args, c->reply) < 0 ? CMD_REFUSED : CMD_DONE;
}

/* START: the first deadline is set. */
static enum cmd_result
gm_start(struct command_call *c)
{
	struct buf why;
	enum cmd_result rc = CMD_DONE;

	buf_init(&why, 4096);
	if (judge_start(c->j, c->g, c->j->now, &why) < 0) {
		buf_printf(c->reply, "  REFUSED: %s\n", buf_str(&why));
		rc = CMD_REFUSED;
	} else {
		buf_puts(c->reply, "  the game has started\n");
		judge_address_warning(c->j->conf, "  ", c->reply);
	}
	buf_free(&why);
	return rc;
}

/* Tell the GM that the nheld powers held, given a delegation of their own,
 * are now apart from the napart powers apart they were held with. */
static void
reply_apart(struct command_call *c, const power_id *held, int nheld, const power_id *apart,
    int napart)
{
	if (napart == 0)
		return;
	buf_puts(c->reply, "  ");
	setup_powers_named(c->g, held, nheld, c->reply);
	buf_printf(c->reply, " %s now a delegation apart; ", nheld > 1 ? "are" : "is");
	setup_powers_named(c->g, apart, napart, c->reply);
	buf_printf(c->reply, " keep%s the old password\n", napart > 1 ? "" : "s");
}

/* REPLACE <power> PASSWORD [<new>]: a new password for the same members;
 * rest is what follows the power. */
static enum cmd_result
replace_password(struct command_call *c, power_id p, char *rest)
{
	struct game *g = c->g;
	char members[GAME_MAX_MEMBERS * ADDR_MAX] = "", *password;
	power_id apart[MAP_MAX_POWERS];
	struct buf why;
	enum cmd_result rc = CMD_DONE;
	int i, napart = setup_partners(g, &p, 1, apart);

	for (i = 0; i < g->del[p].nmembers; i++) {
		strncat(members, g->del[p].members[i].addr, sizeof members - strlen(members) - 2);
		strncat(members, ",", sizeof members - strlen(members) - 1);
	}
	rest += strcspn(rest, " \t");
	password = str_trim(rest);
	buf_init(&why, 4096);
	if (judge_add_delegation(c->j, g, p, members, password, c->j->now, &why) < 0) {
		buf_printf(c->reply, "  REFUSED: %s\n", buf_str(&why));
		rc = CMD_REFUSED;
	} else {
		buf_printf(c->reply, "  new password for %s%s\n", g->map->powers[p].name,
		    *password ? "" : " (mailed to its members)");
		reply_apart(c, &p, 1, apart, napart);
	}
	buf_free(&why);
	return rc;
}

/* The members in rest ("a@x, b@y [PASSWORD pw]") given the nheld powers
 * held, as one delegation. */
static enum cmd_result
delegation_set(struct command_call *c, const power_id *held, int nheld, char *rest)
{
	struct game *g = c->g;
	char *kw, *password = NULL;
	power_id apart[MAP_MAX_POWERS];
	struct buf why;
	enum cmd_result rc = CMD_DONE;
	int napart = setup_partners(g, held, nheld, apart);

	kw = strstr(rest, " PASSWORD ");
	if (kw == NULL)
		kw = strstr(rest, " password ");
	if (kw) {
		*kw = '\0';
		password = str_trim(kw + 10);
	}
	buf_init(&why, 4096);
	if (judge_add_delegations(c->j, g, held, nheld, rest, password, c->j->now, &why) < 0) {
		buf_printf(c->reply, "  REFUSED: %s\n", buf_str(&why));
		rc = CMD_REFUSED;
	} else if (nheld > 1) {
		buf_puts(c->reply, "  ");
		setup_powers_named(g, held, nheld, c->reply);
		buf_printf(c->reply, ": one delegation (%s)\n",
		    password ? "password set by you" : "password mailed to its members");
	} else {
		buf_printf(c->reply, "  %s: delegation set (%s)\n", g->map->powers[held[0]].name,
		    password ? "password set by you" : "password mailed to its members");
	}
	if (rc == CMD_DONE)
		reply_apart(c, held, nheld, apart, napart);
	buf_free(&why);
	return rc;
}

/* DELEGATION <power>[,<power>...] <addresses> [PASSWORD <password>] and
 * REPLACE <power> [MEMBERS] <addresses> | REPLACE <power> PASSWORD [<new>]. */
static enum cmd_result
gm_delegation(struct command_call *c)
{
	bool replace = c->cmd == CMD_REPLACE;
	char *rest = c->args;
	power_id p, held[MAP_MAX_POWERS];
	int nheld = 0;

	if (!replace)
		nheld = take_power_list(c->g->map, &rest, held);
	p = nheld > 0 ? held[0] : nheld < 0 ? POWER_NONE : map_take_power(c->g->map, &rest);
	if (p == POWER_NONE || rest == NULL || *rest == '\0') {
		buf_printf(c->reply, "  REFUSED: %s <power> <addresses> [PASSWORD <password>]\n",
		    replace ? "REPLACE" : "DELEGATION");
		return CMD_REFUSED;
	}
	if (replace && str_prefix_nocase(rest, "members"))
		rest = str_trim(rest + 7);
	if (replace && (str_prefix_nocase(rest, "password") || str_prefix_nocase(rest, "secret")))
		return replace_password(c, p, rest);
	if (nheld == 0)
		held[nheld++] = p;
	return delegation_set(c, held, nheld, rest);
}

/* EJECT <power>: its units hold until it is replaced. */
static enum cmd_result
gm_eject(struct command_call *c)
{
	struct game *g = c->g;
	power_id p = map_find_power(g->map, c->args);

	if (p == POWER_NONE) {
		buf_puts(c->reply, "  REFUSED: EJECT <power>\n");
		return CMD_REFUSED;
	}
	g->del[p].resigned = true;
	g->del[p].norders = 0;
	g->del[p].secret[0] = '\0';
	judge_audit(c->j, g, "EJECT %s", g->map->powers[p].name);
	buf_printf(c->reply, "  %s ejected: its units hold until you REPLACE it\n",
	    g->map->powers[p].name);
	return CMD_DONE;
}

/* ADD OBSERVER <address>: the reports go to it too. */
static enum cmd_result
gm_add_observer(struct command_call *c)
{
	struct game *g = c->g;

	if (strchr(c->args, '@') == NULL || strlen(c->args) >= ADDR_MAX ||
	    g->nobservers >= GAME_MAX_OBSERVERS) {
		buf_puts(c->reply, "  REFUSED: ADD OBSERVER <address>\n");
		return CMD_REFUSED;
	}
	GAME_ROOM(g, observers, GAME_MAX_OBSERVERS);
	str_copy(g->observers[g->nobservers++], str_lower(c->args), ADDR_MAX);
	judge_audit(c->j, g, "ADD OBSERVER %s", c->args);
	setup_tell_observer(c->j, g, g->observers[g->nobservers - 1]);
	buf_printf(c->reply, "  %s now receives the reports (and is told so)\n", c->args);
	return CMD_DONE;
}

/* REMOVE OBSERVER <address>. */
static enum cmd_result
gm_remove_observer(struct command_call *c)
{
	struct game *g = c->g;
	int i, k = 0;

	for (i = 0; i < g->nobservers; i++)
		if (!str_eq_nocase(g->observers[i], c->args))
			memmove(g->observers[k++], g->observers[i], ADDR_MAX);
	if (k == g->nobservers) {
		buf_printf(c->reply, "  REFUSED: %s is not an observer\n", c->args);
		return CMD_REFUSED;
	}
	g->nobservers = k;
	judge_audit(c->j, g, "REMOVE OBSERVER %s", c->args);
	buf_printf(c->reply, "  %s no longer receives the reports\n", c->args);
	return CMD_DONE;
}

/* END WINNER <power> [BECAUSE <reason>]; rest is what follows WINNER. */
static enum cmd_result
end_winner(struct command_call *c, char *rest)
{
	struct game *g = c->g;
	power_id p = map_take_power(g->map, &rest);
	char res[sizeof g->result], *because;

	if (p == POWER_NONE) {
		buf_puts(c->reply, "  REFUSED: END WINNER <power> [BECAUSE <reason>]\n");
		return CMD_REFUSED;
	}
	because = str_trim(rest);
	if (str_prefix_nocase(because, "because "))
		because = str_trim(because + 8);
	if (*because == '\0' && winner_not_first(g, p, c->reply) < 0)
		return CMD_REFUSED;
	if (snprintf(res, sizeof res, "%s wins (declared by the game master%s%.120s)",
	    g->map->powers[p].name, *because ? ": " : "", because) >= (int)sizeof res)
		res[sizeof res - 1] = '\0';
	turn_end_game(c->j, g, res);
	return CMD_DONE;
}

/* END WINNER <power> | END DRAW [powers]. */
static enum cmd_result
gm_end(struct command_call *c)
{
	char res[sizeof c->g->result];

	if (str_prefix_nocase(c->args, "winner ")) {
		if (end_winner(c, c->args + 7) == CMD_REFUSED)
			return CMD_REFUSED;
	} else if (str_prefix_nocase(c->args, "draw")) {
		snprintf(res, sizeof res, "Draw%s%.120s (declared by the game master)",
		    c->args[4] ? " between" : "", c->args + 4);
		turn_end_game(c->j, c->g, res);
	} else {
		buf_puts(c->reply, "  REFUSED: END WINNER <power> or END DRAW [powers]\n");
		return CMD_REFUSED;
	}
	buf_puts(c->reply, "  the game is over\n");
	return CMD_DONE;
}

/* Tell everyone that the officers gave (AWARD) or took (REVOKE) pts
 * political points from p for reason. */
static void
points_announce(struct command_call *c, power_id p, long pts, const char *reason)
{
	struct game *g = c->g;
	bool award = c->cmd == CMD_AWARD;
	char subject[128];
	struct buf text;

	buf_init(&text, OUTBOUND_NOTICE_MAX);
	snprintf(subject, sizeof subject, "[%s] political points", g->name);
	buf_printf(&text, "The officers %s %ld political point%s %s %s: %s\n%s now has %d political "
	    "point%s.\n", award ? "award" : "revoke", pts, pts == 1 ? "" : "s", award ? "to" : "from",
	    g->map->powers[p].name, reason, g->map->powers[p].name, g->del[p].points,
	    g->del[p].points == 1 ? "" : "s");
	judge_standings(g, &g->board, "Victory points now:", &text);
	judge_announce(c->j, g, subject, buf_text(&text));
	buf_free(&text);
}

/* REVOKE pts from p: a power's points never go below zero, so *pts is cut
 * to what p has (the reply says so). Returns -1 when p has none (refused,
 * reply says why). */
static int
revoke_cut(const struct game *g, power_id p, long *pts, struct buf *reply)
{
	const char *name = g->map->powers[p].name;
	int has = g->del[p].points;

	if (has <= 0) {
		buf_printf(reply, "  REFUSED: %s has no political points to revoke\n", name);
		return -1;
	}
	if (*pts > has) {
		*pts = has;
		buf_printf(reply, "  %s had %d political point%s: %d revoked\n", name, has,
		    has == 1 ? "" : "s", has);
	}
	return 0;
}

/* AWARD | REVOKE <power> <points> <reason | GOAL n>. */
static enum cmd_result
gm_points(struct command_call *c)
{
	struct game *g = c->g;
	char *rest = c->args, *save, *num, *reason, goal[AWARD_REASON_MAX + 32] = "";
	power_id p = map_take_power(g->map, &rest);
	long pts;

	num = strtok_r(rest, " \t", &save);
	reason = num && save ? str_trim(save) : NULL;
	if (p == POWER_NONE || num == NULL || str_to_long(num, 1, 100, &pts) < 0 ||
	    reason == NULL || *reason == '\0') {
		buf_printf(c->reply, "  REFUSED: %s <power> <points> <reason> (1 to 100 points; the "
		    "reason is shown to everyone)\n", command_name(c->cmd));
		return CMD_REFUSED;
	}
	if (strlen(reason) >= AWARD_REASON_MAX) {
		buf_printf(c->reply, "  REFUSED: say the reason in fewer than %d characters\n",
		    AWARD_REASON_MAX);
		return CMD_REFUSED;
	}
	if (c->cmd == CMD_AWARD &&
	    system_award_reason(g, p, &pts, reason, goal, sizeof goal, c->reply) < 0)
		return CMD_REFUSED;
	if (goal[0])
		reason = goal;
	if (c->cmd == CMD_REVOKE && revoke_cut(g, p, &pts, c->reply) < 0)
		return CMD_REFUSED;
	game_award(g, p, c->cmd == CMD_AWARD ? (int)pts : -(int)pts, false, reason);
	judge_audit(c->j, g, "%s %s %ld: %s", command_name(c->cmd), g->map->powers[p].name, pts,
	    reason);
	points_announce(c, p, pts, reason);
	buf_printf(c->reply, "  %s now has %d political point%s\n", g->map->powers[p].name,
	    g->del[p].points, g->del[p].points == 1 ? "" : "s");
	return CMD_DONE;
}

/* A command players give, sent by the GM. */
static enum cmd_result
gm_for_players(struct command_call *c)
{
	buf_printf(c->reply, "  REFUSED: %s is a command for players\n", command_name(c->cmd));
	return CMD_REFUSED;
}

const struct command_handler gm_commands[] = {
	{ CMD_NEWGAME, SYSTEM_GM, gm_newgame },
	{ CMD_HELP, SYSTEM_GM, gm_help },
	{ CMD_LIST, SYSTEM_GM, gm_list },
	{ CMD_PROCESS, SYSTEM_GM, gm_process },
	{ CMD_PREVIEW, SYSTEM_GM, gm_preview },
	{ CMD_ROLLBACK, SYSTEM_GM, gm_rollback },
	{ CMD_PAUSE, SYSTEM_GM, gm_pause },
	{ CMD_RESUME, SYSTEM_GM, gm_resume },
	{ CMD_SET, SYSTEM_GM, gm_set },
	{ CMD_START, SYSTEM_GM, gm_start },
	{ CMD_DELEGATION, SYSTEM_GM, gm_delegation },
	{ CMD_REPLACE, SYSTEM_GM, gm_delegation },
	{ CMD_EJECT, SYSTEM_GM, gm_eject },
	{ CMD_ADD_OBSERVER, SYSTEM_GM, gm_add_observer },
	{ CMD_REMOVE_OBSERVER, SYSTEM_GM, gm_remove_observer },
	{ CMD_END, SYSTEM_GM, gm_end },
	{ CMD_AWARD, SYSTEM_GM, gm_points },
	{ CMD_REVOKE, SYSTEM_GM, gm_points },
	/* The players' own commands, refused to the GM. */
	{ CMD_WAIT, SYSTEM_GM, gm_for_players },
	{ CMD_NOWAIT, SYSTEM_GM, gm_for_players },
	{ CMD_VOTE, SYSTEM_GM, gm_for_players },
	{ CMD_RESIGN, SYSTEM_GM, gm_for_players },
	{ CMD_ORDERS, SYSTEM_GM, gm_for_players },
	{ CMD_REQUEST, SYSTEM_GM, gm_for_players },
};
const int gm_ncommands = sizeof gm_commands / sizeof gm_commands[0];