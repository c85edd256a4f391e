/*
 * muna.c — the MUN Alfrink 1935 Historical Committee (judge/systems/MUNA.md)
 * as a rule system: a layer over the standard game. Its turn carries out
 * the insurrections (judge/engine/muna_rules.h) around the standard
 * resolution, awards the control bonus, ends conferences and reports
 * political points; its commands are the officers' CONFERENCE, SPEECH and
 * GOAL and the delegations' REQUEST SPEECH and GOAL. Every rule is gated by
 * the variant's options (maps/FORMAT.md), as the rulebook's are.
 */
#define _DEFAULT_SOURCE
#include "muna.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "../engine/muna_rules.h"
#include "../engine/resolver.h"
#include "../system_words.h"
#include "muna_file.h"
#include "muna_state.h"
#include "standard.h"

/* What the MUNA rules made of a processed phase. */
struct news {
	bool pending;			/* insurrections wait for the retreats */
	bool ended;			/* a season with insurrections ended: */
	struct muna_season season;	/* what was ordered, */
	struct muna_result result;	/* and what came of it */
	uint64_t bonus;			/* powers that earned the control bonus now */
	uint8_t conf_end;		/* enum conference_end */
	struct conference conf;		/* the conference that ended */
};

/* Are insurrections and revival orders carried out in g? */
static bool
revivals_on(const struct game *g)
{
	return (g->rules.caps & RULES_REVIVAL) != 0;
}

/*
 * Match the longest run of up to four words at w[*i] (n words) that find
 * knows: words are joined with blanks ("St Petersburg", "United Kingdom").
 * Returns the id, or -1; *i moves past the words used.
 */
static int
match_words(const struct map *m, const struct scan_word *w, int n, int *i,
    int (*find)(const struct map *, const char *))
{
	char name[200];
	int len, k, id;

	for (len = n - *i < 4 ? n - *i : 4; len > 0; len--) {
		size_t at = 0;
		for (k = 0; k < len && at + w[*i + k].len + 2 < sizeof name; k++) {
			if (k)
				name[at++] = ' ';
			memcpy(name + at, w[*i + k].ptr, w[*i + k].len);
			at += w[*i + k].len;
		}
		name[at] = '\0';
		if ((id = find(m, name)) >= 0) {
			*i += len;
			return id;
		}
	}
	return -1;
}

static int
find_prov(const struct map *m, const char *s)
{
	prov_id p = map_find_province(m, s);
	return p == PROV_NONE ? -1 : p;
}

static int
find_power(const struct map *m, const char *s)
{
	power_id p = map_find_power(m, s);
	return p == POWER_NONE ? -1 : p;
}

/* Tell everyone about the conference c: opened or closed by the officers. */
static void
announce_conference(struct judge *j, struct game *g, const struct conference *c, bool open)
{
	const struct map *m = g->map;
	struct buf text;
	char subject[128];

	buf_init(&text, 4096);
	buf_puts(&text, open ? "The officers open " : "The officers close ");
	muna_conference_name(m, c, &text);
	buf_printf(&text, " in %s, for ", m->provs[c->where].name);
	muna_conference_powers(m, c, &text);
	buf_puts(&text, ".\n");
	if (open && c->goal[0])
		buf_printf(&text, "Its preliminary goal: %s\n", c->goal);
	if (open)
		buf_printf(&text, "\nIts participants write to each other and to the officers with\n"
		    "  PRESS TO CONFERENCE\nwhatever the game's press rules. It ends when %s %d begins, "
		    "and at once\nif %s is conquered: a unit of another power enters it, or it passes "
		    "to\nanother power.\n", season_name((enum season)c->season), c->year + 1,
		    m->provs[c->where].name);
	snprintf(subject, sizeof subject, "[%s] conference %s", g->name, open ? "opened" : "closed");
	judge_announce(j, g, subject, buf_text(&text));
	buf_free(&text);
}

/* "  goal: ...", the conference's goal, when it has one. */
static void
put_conference_goal(const struct conference *c, struct buf *out)
{
	if (c->goal[0])
		buf_printf(out, "  its goal: %s\n", c->goal);
}

/*
 * Take out of args the clause that begins with the word key (" name ",
 * any case): its text, up to the next clause (" name " or " goal ") or the
 * end, trimmed into out. Returns 1 when taken, 0 when there is none, -1
 * when its text does not fit.
 */
static int
clause(char *args, const char *key, char *out, size_t size)
{
	static const char *const keys[] = { " name ", " goal " };
	size_t n = strlen(key), k, len;
	char *at, *end, *s;

	for (at = args; *at && !str_prefix_nocase(at, key); at++)
		;
	if (*at == '\0')
		return 0;
	s = at + n;
	for (end = s; *end; end++) {
		for (k = 0; k < sizeof keys / sizeof keys[0] && !str_prefix_nocase(end, keys[k]); k++)
			;
		if (k < sizeof keys / sizeof keys[0])
			break;
	}
	while (*s == ' ')
		s++;
	for (len = (size_t)(end - s); len > 0 && s[len - 1] == ' '; len--)
		;
	if (len >= size)
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	memmove(at, end, strlen(end) + 1);
	return 1;
}

/* CONFERENCE GOAL <goal>: the goal of the conference under way, as its
 * participants settled it (§9: the preliminary goal, then the definite). */
static enum cmd_result
conference_goal(struct command_call *call)
{
	struct conference *c = &muna_state(call->g)->conf;
	const char *goal = str_trim(call->args + 4);
	char subject[128], text[400];

	if (c->where == PROV_NONE) {
		buf_puts(call->reply, "  REFUSED: no conference is open\n");
		return CMD_REFUSED;
	}
	if (*goal == '\0' || strlen(goal) >= sizeof c->goal) {
		buf_printf(call->reply, "  REFUSED: CONFERENCE GOAL <goal>, in fewer than %zu "
		    "characters\n", sizeof c->goal);
		return CMD_REFUSED;
	}
	str_copy(c->goal, goal, sizeof c->goal);
	judge_audit(call->j, call->g, "CONFERENCE GOAL %s", c->goal);
	snprintf(text, sizeof text, "The goal of the conference is now:\n  %s\n", c->goal);
	snprintf(subject, sizeof subject, "[%s] conference goal", call->g->name);
	judge_announce(call->j, call->g, subject, text);
	buf_puts(call->reply, "  the conference's goal is set\n");
	return CMD_DONE;
}

/* CONFERENCE <place> <power> <power> <power> [...] [NAME <name>], or
 * CONFERENCE END, or CONFERENCE (what is open). */
static enum cmd_result
cmd_conference(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	char *args = call->args;
	struct buf *reply = call->reply;
	const struct map *m = g->map;
	struct conference c;
	struct scan_word w[64];
	const char *cur;
	int n = 0, i = 0, id;
	const struct unit *u;

	if (*args == '\0' || str_eq_nocase(args, "end")) {
		if (muna_state(g)->conf.where == PROV_NONE) {
			buf_puts(reply, "  no conference is open\n");
			return *args ? CMD_REFUSED : CMD_DONE;
		}
		if (*args == '\0') {
			buf_puts(reply, "  open: ");
			muna_conference_name(m, &muna_state(g)->conf, reply);
			buf_puts(reply, " (");
			muna_conference_powers(m, &muna_state(g)->conf, reply);
			buf_puts(reply, ")\n");
			put_conference_goal(&muna_state(g)->conf, reply);
			return CMD_DONE;
		}
		c = muna_state(g)->conf;
		muna_state(g)->conf.where = PROV_NONE;
		judge_audit(j, g, "CONFERENCE END");
		announce_conference(j, g, &c, false);
		buf_puts(reply, "  the conference is closed\n");
		return CMD_DONE;
	}
	if (str_prefix_nocase(args, "goal ") || str_eq_nocase(args, "goal"))
		return conference_goal(call);
	memset(&c, 0, sizeof c);
	if (clause(args, " goal ", c.goal, sizeof c.goal) < 0 ||
	    clause(args, " name ", c.name, sizeof c.name) < 0) {
		buf_printf(reply, "  REFUSED: say the name in fewer than %zu characters and the goal "
		    "in fewer than %zu\n", sizeof c.name - 1, sizeof c.goal - 1);
		return CMD_REFUSED;
	}
	for (cur = args; n < 64 && scan_token(&cur, " ,;\t", &w[n]) == 0; n++)
		;
	if (g->status != GAME_ACTIVE && g->status != GAME_PAUSED) {
		buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	if (muna_state(g)->conf.where != PROV_NONE) {
		buf_puts(reply, "  REFUSED: only one conference at a time: CONFERENCE END closes ");
		muna_conference_name(m, &muna_state(g)->conf, reply);
		buf_putc(reply, '\n');
		return CMD_REFUSED;
	}
	if ((id = match_words(m, w, n, &i, find_prov)) < 0 || m->provs[id].terrain == TERRAIN_SEA) {
		buf_puts(reply, "  REFUSED: CONFERENCE <place on land> <power> <power> <power> ... "
		    "[NAME <name>]\n");
		return CMD_REFUSED;
	}
	c.where = (prov_id)id;
	while (i < n) {
		if ((id = match_words(m, w, n, &i, find_power)) < 0) {
			buf_printf(reply, "  REFUSED: no power called \"%.*s\"\n", (int)w[i].len,
			    w[i].ptr);
			return CMD_REFUSED;
		}
		c.powers |= (uint64_t)1 << id;
	}
	for (id = 0, i = 0; id < m->npowers; id++)
		i += (c.powers >> id) & 1u;
	if (i < 3) {
		buf_puts(reply, "  REFUSED: a conference needs at least three delegations\n");
		return CMD_REFUSED;
	}
	if ((u = muna_conference_hostile(m, &g->board, &c)) != NULL) {
		buf_printf(reply, "  REFUSED: %s is not free of hostile units: the %s %s there does not "
		    "take part\n", m->provs[c.where].name, m->powers[u->power].adjective,
		    unit_word((enum unit_type)u->type));
		return CMD_REFUSED;
	}
	c.year = g->board.year;
	c.season = g->board.season;
	muna_state(g)->conf = c;
	judge_audit(j, g, "CONFERENCE %s", m->provs[c.where].name);
	announce_conference(j, g, &c, true);
	buf_puts(reply, "  the conference is open\n");
	return CMD_DONE;
}

/* "Order of speeches: France, Italy, Germany.": the order the officers
 * set, when they did, into out. */
static void
put_speakers(const struct game *g, struct buf *out)
{
	const struct muna_state *st = muna_state(g);
	int k;

	if (st->nspeakers == 0)
		return;
	buf_puts(out, "Order of speeches: ");
	for (k = 0; k < st->nspeakers; k++)
		buf_printf(out, "%s%s", k ? ", " : "", g->map->powers[st->speakers[k]].name);
	buf_puts(out, ".\n");
}

/* Append the order of speeches to the notice text (size bytes), when the
 * officers set one. */
static void
speakers_note(const struct game *g, char *text, size_t size)
{
	struct buf b;

	buf_init(&b, 256);
	put_speakers(g, &b);
	if (b.len)
		str_copy(text + strlen(text), buf_str(&b), size - strlen(text));
	buf_free(&b);
}

/* SPEECH ORDER <power> <power> ...: the order of speeches (§6.2.1: "decided
 * by the student officers"); SPEECH ORDER alone shows it. */
static enum cmd_result
speech_order(struct command_call *call, const char *args)
{
	struct game *g = call->g;
	const struct map *m = g->map;
	struct muna_state *st = muna_state(g);
	power_id order[MAP_MAX_POWERS];
	struct scan_word w[64];
	uint64_t seen = 0;
	struct buf text;
	char subject[128];
	int n = 0, i = 0, k = 0, id;

	for (; n < 64 && scan_token(&args, " ,;\t", &w[n]) == 0; n++)
		;
	if (n == 0) {
		buf_puts(call->reply, "  ");
		if (st->nspeakers == 0)
			buf_puts(call->reply, "no order of speeches is set\n");
		put_speakers(g, call->reply);
		return CMD_DONE;
	}
	while (i < n) {
		if ((id = match_words(m, w, n, &i, find_power)) < 0 || ((seen >> id) & 1u)) {
			buf_puts(call->reply, "  REFUSED: SPEECH ORDER <power> <power> ...: each power "
			    "once, the first speaker first\n");
			return CMD_REFUSED;
		}
		seen |= (uint64_t)1 << id;
		order[k++] = (power_id)id;
	}
	memcpy(st->speakers, order, sizeof order[0] * (size_t)k);
	st->nspeakers = k;
	buf_init(&text, 512);
	buf_printf(&text, "The officers set the order of speeches in game %s:\n", g->name);
	put_speakers(g, &text);
	judge_audit(call->j, g, "SPEECH ORDER (%d powers)", k);
	snprintf(subject, sizeof subject, "[%s] order of speeches", g->name);
	judge_announce(call->j, g, subject, buf_text(&text));
	buf_free(&text);
	buf_puts(call->reply, "  the order of speeches is set; every delegation is told\n");
	return CMD_DONE;
}

/* SPEECH [span] opens a speech window now; SPEECH END closes it. */
static enum cmd_result
cmd_speech(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	char *args = call->args;
	struct buf *reply = call->reply;
	char subject[128], text[800], when[96];
	long span = muna_state(g)->speech;

	if (str_prefix_nocase(args, "order ") || str_eq_nocase(args, "order"))
		return speech_order(call, args + 5);
	if (g->status != GAME_ACTIVE) {
		buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	if (str_eq_nocase(args, "end") || str_eq_nocase(args, "off")) {
		if (!judge_speech_open(g, judge_now(j))) {
			buf_puts(reply, "  REFUSED: no speech phase is open\n");
			return CMD_REFUSED;
		}
		muna_state(g)->speech_until = judge_now(j);
		judge_audit(j, g, "SPEECH END");
		snprintf(text, sizeof text, "The officers have closed the speech phase of game %s.\n",
		    g->name);
		buf_puts(reply, "  the speech phase is closed\n");
	} else {
		if (g->board.phase != PHASE_MOVEMENT) {
			buf_puts(reply, "  REFUSED: a speech phase belongs to a movement phase; "
			    "retreats and adjustments are written without diplomacy\n");
			return CMD_REFUSED;
		}
		if ((*args && (time_parse_span(args, &span) < 0 || span <= 0)) || span <= 0) {
			buf_puts(reply, "  REFUSED: SPEECH <duration>, e.g. SPEECH 12h (or SET SPEECH 12h "
			    "first)\n");
			return CMD_REFUSED;
		}
		muna_state(g)->speech_until = judge_now(j) + span;
		judge_time_human(j, g->set.zone, muna_state(g)->speech_until, when, sizeof when);
		judge_audit(j, g, "SPEECH until %s", when);
		snprintf(text, sizeof text, "The officers open a speech phase in game %s until %s:\n"
		    "every delegation may BROADCAST a speech to all.\n", g->name, when);
		speakers_note(g, text, sizeof text);
		buf_printf(reply, "  speech phase open until %s\n", when);
	}
	snprintf(subject, sizeof subject, "[%s] speech phase", g->name);
	judge_announce(j, g, subject, text);
	return CMD_DONE;
}

/* Mail text to every game master of g. */
static void
tell_gms(struct judge *j, struct game *g, const char *subject, const char *text)
{
	int i;

	for (i = 0; i < g->ngms; i++) {
		const char *to[1] = { g->gms[i] };
		judge_send(j, g, to, 1, subject, text);
	}
}

/* Mail text to the members of power p's delegation only. */
static void
tell_power(struct judge *j, struct game *g, power_id p, const char *subject, const char *text)
{
	const struct delegation *d = &g->del[p];
	const char *to[GAME_MAX_MEMBERS];
	int i;

	for (i = 0; i < d->nmembers; i++)
		to[i] = d->members[i].addr;
	if (d->nmembers > 0)
		judge_send(j, g, to, d->nmembers, subject, text);
}

/* Power p's political goals, one a line, each with its number. */
static void
put_goals(const struct game *g, power_id p, struct buf *out)
{
	const struct muna_goals *d = &muna_state(g)->goals[p];
	int k, n = 0;

	for (k = 0; k < GAME_GOALS; k++) {
		if (!d->goal[k][0])
			continue;
		n++;
		buf_printf(out, "  goal %d: %s", k + 1, d->goal[k]);
		if (k == GAME_GOALS - 1)
			buf_printf(out, " (proposed by %s, %d point%s, %s)", g->map->powers[p].name,
			    d->goal_points, d->goal_points == 1 ? "" : "s",
			    d->goal_approved ? "approved" : "not yet approved");
		buf_putc(out, '\n');
	}
	if (n == 0)
		buf_puts(out, "  no goals yet\n");
}

/* Move *s past its next word when it is one of words (case ignored, a
 * colon after it too). */
static void
skip_word(const char **s, const char *const *words)
{
	const char *q = *s;
	struct scan_word w;
	char word[16];

	if (scan_word(&q, &w) < 0 || scan_word_copy(&w, word, sizeof word) < 0)
		return;
	if (word[0] && word[strlen(word) - 1] == ':')
		word[strlen(word) - 1] = '\0';
	for (; *words; words++)
		if (str_eq_nocase(word, *words)) {
			*s = q;
			return;
		}
}

/* "[before] <n> [after] <text>": a number n in [min, max] into *n, and the
 * text after it (not empty) into *text. A word of the list before may come
 * before the number ("NUMBER 2"), a word of the list after just after it
 * ("2 POINTS"). Returns 0 or -1. */
static int
number_and_text(const char *s, const char *const *before, const char *const *after, long min,
    long max, long *n, const char **text)
{
	skip_word(&s, before);
	if (scan_long(&s, min, max, n) < 0)
		return -1;
	skip_word(&s, after);
	*text = scan_rest(&s);
	return **text ? 0 : -1;
}

static const char *const no_words[] = { NULL };
/* "GOAL Poland NUMBER 2 ..." (the officers') and "GOAL 2 POINTS ..." (a
 * delegation's). */
static const char *const number_words[] = { "number", "no", "no.", "nr", "#", NULL };
static const char *const points_words[] = { "points", "point", "pts", "pt", NULL };

/* GOAL DENY <power>: the officers deny the goal p proposed; it may propose
 * another while there is time. */
static enum cmd_result
deny_goal(struct command_call *call, power_id p)
{
	struct game *g = call->g;
	const char *name = g->map->powers[p].name;
	struct muna_goals *d = &muna_state(g)->goals[p];
	char subject[128], text[600];

	if (!d->goal[GAME_GOALS - 1][0]) {
		buf_printf(call->reply, "  REFUSED: %s has proposed no goal\n", name);
		return CMD_REFUSED;
	}
	if (d->goal_approved) {
		buf_printf(call->reply, "  REFUSED: the goal %s proposed is approved already\n", name);
		return CMD_REFUSED;
	}
	judge_audit(call->j, g, "GOAL DENY %s", name);
	snprintf(text, sizeof text, "The officers deny the goal %s proposed:\n  %s\n"
	    "You may propose another with GOAL <points> POINTS <goal>.\n", name,
	    d->goal[GAME_GOALS - 1]);
	memset(d->goal[GAME_GOALS - 1], 0, sizeof d->goal[GAME_GOALS - 1]);
	d->goal_points = 0;
	snprintf(subject, sizeof subject, "[%s] your political goal", g->name);
	tell_power(call->j, g, p, subject, text);
	buf_printf(call->reply, "  the goal %s proposed is denied; %s is told\n", name, name);
	return CMD_DONE;
}

/*
 * GOAL (every power's goals), GOAL <power> 1|2 <text> (an officers' goal,
 * told to that power alone), GOAL APPROVE <power> and GOAL DENY <power>
 * (its proposed goal 3).
 */
static enum cmd_result
cmd_goal(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	char *args = call->args;
	struct buf *reply = call->reply;
	const struct map *m = g->map;
	char subject[128], text[600], *rest = args;
	const char *goal = NULL;
	bool approve = false, deny = false;
	power_id p;
	long k;
	int q;

	if (*args == '\0') {
		for (q = 0; q < m->npowers; q++) {
			buf_printf(reply, "%s:\n", m->powers[q].name);
			put_goals(g, (power_id)q, reply);
		}
		return CMD_DONE;
	}
	if (str_prefix_nocase(args, "approve ")) {
		approve = true;
		rest = args + 8;
	} else if (str_prefix_nocase(args, "deny ")) {
		deny = true;
		rest = args + 5;
	}
	p = map_take_power(m, &rest);
	if (deny && p != POWER_NONE)
		return deny_goal(call, p);
	if (approve && p != POWER_NONE) {
		struct muna_goals *d = &muna_state(g)->goals[p];
		if (!d->goal[GAME_GOALS - 1][0]) {
			buf_printf(reply, "  REFUSED: %s has proposed no goal\n", m->powers[p].name);
			return CMD_REFUSED;
		}
		d->goal_approved = true;
		judge_audit(j, g, "GOAL APPROVE %s", m->powers[p].name);
		snprintf(text, sizeof text, "The officers approve the goal %s proposed:\n  %s\n"
		    "It is worth up to %d political point%s.\n", m->powers[p].name,
		    d->goal[GAME_GOALS - 1], d->goal_points, d->goal_points == 1 ? "" : "s");
		snprintf(subject, sizeof subject, "[%s] your political goal", g->name);
		tell_power(j, g, p, subject, text);
		buf_printf(reply, "  goal 3 of %s approved; %s is told\n", m->powers[p].name,
		    m->powers[p].name);
		return CMD_DONE;
	}
	if (approve || deny || p == POWER_NONE ||
	    number_and_text(rest, number_words, no_words, 1, GAME_GOALS - 1, &k, &goal) < 0) {
		buf_printf(reply, "  REFUSED: GOAL <power> NUMBER 1 <goal> or GOAL <power> NUMBER 2 "
		    "<goal> (goal number 1 or 2: the officers' two goals for a power), GOAL APPROVE "
		    "<power> or GOAL DENY <power> (the goal it proposed, goal 3), or GOAL (all "
		    "goals)\n");
		return CMD_REFUSED;
	}
	if (strlen(goal) >= AWARD_REASON_MAX) {
		buf_printf(reply, "  REFUSED: say the goal in fewer than %d characters\n", AWARD_REASON_MAX);
		return CMD_REFUSED;
	}
	str_copy(muna_state(g)->goals[p].goal[k - 1], goal, AWARD_REASON_MAX);
	judge_audit(j, g, "GOAL %s %ld: %s", m->powers[p].name, k, muna_state(g)->goals[p].goal[k - 1]);
	snprintf(text, sizeof text, "The officers give %s this political goal (goal number %ld), "
	    "told to you alone:\n  %s\n", m->powers[p].name, k, muna_state(g)->goals[p].goal[k - 1]);
	snprintf(subject, sizeof subject, "[%s] your political goal", g->name);
	tell_power(j, g, p, subject, text);
	buf_printf(reply, "  %s's goal number %ld is set (award points for it with AWARD %s <points> "
	    "GOAL %ld); %s alone is told\n", m->powers[p].name, k, m->powers[p].name, k,
	    m->powers[p].name);
	return CMD_DONE;
}

/* REQUEST SPEECH: the officers are asked for a speech phase. */
static enum cmd_result
request_speech(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	power_id p = call->power;
	char *args = call->args;
	struct buf *reply = call->reply;
	const char *name = g->map->powers[p].name;
	char subject[128], text[600];

	if (!str_eq_nocase(args, "speech")) {
		buf_puts(reply, "  REFUSED: REQUEST SPEECH asks the officers for a speech phase\n");
		return CMD_REFUSED;
	}
	if (g->status != GAME_ACTIVE) {
		buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	if (judge_speech_open(g, judge_now(j))) {
		buf_puts(reply, "  REFUSED: a speech phase is open now: BROADCAST your speech\n");
		return CMD_REFUSED;
	}
	snprintf(text, sizeof text, "%s requests a speech phase in game %s.\n"
	    "Grant it with SPEECH <duration> (e.g. SPEECH 6h), or let it be.\n", name, g->name);
	snprintf(subject, sizeof subject, "[%s] %s requests a speech phase", g->name, name);
	tell_gms(j, g, subject, text);
	judge_audit(j, g, "%s requests a speech phase", name);
	buf_puts(reply, "  the officers are asked for a speech phase; they open it with SPEECH\n");
	return CMD_DONE;
}

/*
 * Is a goal of one's own proposed now late? The rules ask for it
 * GOAL_NOTICE before the first turn's deadline (§8: "at least two days
 * before MUNA"): any time while the game forms, and in its first phase
 * until then. A late one still goes to the officers, who may deny it
 * (MUNA.md, "Two days' notice"); when it is late, late[] says when it was
 * due ("due by ..., two days before the first turn's deadline").
 */
static bool
goal_late(struct judge *j, const struct game *g, char *late, size_t size)
{
	time_t now = judge_now(j), deadline;
	char when[96];

	if (g->status == GAME_FORMING)
		return false;
	deadline = g->deadline ? g->deadline : now + g->paused_left;
	if (g->nphases == 0 && deadline - now >= GOAL_NOTICE)
		return false;
	if (g->nphases > 0) {
		snprintf(late, size, "due two days before the first turn's deadline;\nthe first "
		    "turn is over");
		return true;
	}
	judge_time_human(j, g->set.zone, deadline - GOAL_NOTICE, when, sizeof when);
	snprintf(late, size, "due by %s,\ntwo days before the first turn's deadline", when);
	return true;
}

/* GOAL: the power's goals; GOAL <points> <goal>: it proposes goal 3. */
static enum cmd_result
player_goal(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	power_id p = call->power;
	char *args = call->args;
	struct buf *reply = call->reply;
	const char *name = g->map->powers[p].name;
	struct muna_goals *d = &muna_state(g)->goals[p];
	char subject[128], text[800], late[200];
	const char *goal;
	bool is_late;
	long pts;

	if (*args == '\0') {
		buf_puts(reply, "\nYour political goals:\n");
		put_goals(g, p, reply);
		return CMD_DONE;
	}
	if (number_and_text(args, no_words, points_words, 1, 100, &pts, &goal) < 0) {
		buf_printf(reply, "  REFUSED: GOAL <points> POINTS <goal> proposes a goal of your own, "
		    "e.g. GOAL 2 POINTS Keep Danzig free (1 to %d points)\n", GOAL_MAX_POINTS);
		return CMD_REFUSED;
	}
	if (pts > GOAL_MAX_POINTS) {
		buf_printf(reply, "  REFUSED: a goal you propose is worth at most %d points\n",
		    GOAL_MAX_POINTS);
		return CMD_REFUSED;
	}
	if (d->goal_approved) {
		buf_puts(reply, "  REFUSED: the officers have approved your goal; it stays as it is\n");
		return CMD_REFUSED;
	}
	if (strlen(goal) >= AWARD_REASON_MAX) {
		buf_printf(reply, "  REFUSED: say the goal in fewer than %d characters\n", AWARD_REASON_MAX);
		return CMD_REFUSED;
	}
	is_late = goal_late(j, g, late, sizeof late);
	str_copy(d->goal[GAME_GOALS - 1], goal, AWARD_REASON_MAX);
	d->goal_points = (uint8_t)pts;
	judge_audit(j, g, "%s proposes goal 3 (%ld)%s: %s", name, pts, is_late ? ", late" : "",
	    d->goal[GAME_GOALS - 1]);
	if (is_late)
		snprintf(text, sizeof text, "%s proposes a political goal worth %ld point%s:\n  %s\n"
		    "It is late: %s.\nApprove it with GOAL APPROVE %s, or deny it with GOAL DENY %s.\n",
		    name, pts, pts == 1 ? "" : "s", d->goal[GAME_GOALS - 1], late, name, name);
	else
		snprintf(text, sizeof text, "%s proposes a political goal worth %ld point%s:\n  %s\n"
		    "Approve it with GOAL APPROVE %s.\n", name, pts, pts == 1 ? "" : "s",
		    d->goal[GAME_GOALS - 1], name);
	snprintf(subject, sizeof subject, "[%s] %s proposes a goal", g->name, name);
	tell_gms(j, g, subject, text);
	buf_printf(reply, "  proposed to the officers as your own goal (goal %d), worth %ld point%s: "
	    "the officers have not approved it yet; you are told when they do\n", GAME_GOALS, pts,
	    pts == 1 ? "" : "s");
	if (is_late) {
		char *nl = strchr(late, '\n');
		if (nl)
			*nl = ' ';	/* one line in the reply */
		buf_printf(reply, "  it is late (%s): the officers may deny it for that\n", late);
	}
	return CMD_DONE;
}

/* The MUNA rules of game g, when it has them (judge/systems/MUNA.md). */
static void
help_muna(const struct game *g, struct buf *out)
{
	const struct map *m = g->map;
	char span[48];

	if (game_victory_points(g)) {
		buf_puts(out, "Victory points: supply centres + political points");
		if (muna_control_centres(m) > 0)
			buf_printf(out, " + %d, once, for the first\ntime a power holds %d centres",
			    MUNA_BONUS_POINTS, muna_control_centres(m));
		buf_puts(out, ". The game master ends the game.\n"
		    "Political goals: GOAL lists yours; GOAL 2 POINTS <goal> proposes a goal of\n"
		    "your own worth 2 points (1 to 3) to the officers, who approve or deny it\n"
		    "(you are told); it is due two days before the first turn's deadline, and\n"
		    "one sent later reaches them marked late.\n"
		    "Goals 1 and 2 are the officers' for you.\n");
	}
	if (revivals_on(g))
		buf_puts(out, "Insurrections: in a movement phase \"F Lon-Russia\" sends a unit (it is\n"
		    "disbanded at the end of the season) to revive Russia, which must have lost\n"
		    "every centre; Russia orders \"Revive: Moscow, Warsaw, St Petersburg\" (its home\n"
		    "centres, most wanted first). Three units win back three centres, four all.\n");
	if (muna_state(g)->speech)
		buf_printf(out, "Speech phase: the first %s of every Spring; BROADCAST is open to all.\n",
		    time_span(muna_state(g)->speech, span, sizeof span));
	if (muna_state(g)->speech || game_victory_points(g))
		buf_puts(out, "REQUEST SPEECH asks the game master for a speech phase.\n");
	if (map_option_on(m, "silent-phases"))
		buf_puts(out, "Retreats and adjustments are written without press between powers.\n");
	if (muna_state(g)->conf.where != PROV_NONE) {
		buf_puts(out, "Conference: ");
		muna_conference_name(m, &muna_state(g)->conf, out);
		buf_puts(out, " (");
		muna_conference_powers(m, &muna_state(g)->conf, out);
		buf_puts(out, "); participants write PRESS TO CONFERENCE.\n");
		put_conference_goal(&muna_state(g)->conf, out);
	}
}

/* Power p's revival order among its orders, or NULL. */
static const struct order *
game_revival(const struct game *g, power_id p)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->norders; k++)
		if (d->orders[k].kind == ORDER_REVIVE)
			return &d->orders[k];
	return NULL;
}

/* May p order a revival of the centres prefs? (§7: its own home centres,
 * at least three, when it has lost everything, in a movement phase.) */
static enum reason
muna_check_list(const struct game *g, power_id p, const struct order_prefs *prefs)
{
	return muna_check_revival(g->map, &g->board, p, prefs);
}

/* Keep p's revival order o with its list, replacing an earlier one. */
static int
muna_keep_list(struct game *g, power_id p, const struct order *o, const struct order_prefs *prefs)
{
	if (game_set_order(g, p, o) < 0)
		return -1;
	muna_state(g)->revival[p] = *prefs;
	return 0;
}

/* p's revival order with its whole list ("Revive: mos, war, sev"). */
static void
muna_format_list(const struct game *g, power_id p, const struct order *o, struct buf *out)
{
	(void)o;
	order_format_prefs(g->map, &muna_state(g)->revival[p], ORDER_SHORT, out);
}

/*
 * Does an insurrection ordered this phase wait for the revival order of the
 * power it is for? Then the phase is not processed before the deadline
 * (that power has no units: nothing else makes the judge wait for it).
 */
static bool
revival_awaited(const struct game *g)
{
	int p, k;

	if (!revivals_on(g) || g->board.phase != PHASE_MOVEMENT)
		return false;
	for (p = 0; p < g->map->npowers; p++)
		for (k = 0; k < g->del[p].norders; k++) {
			const struct order *o = &g->del[p].orders[k];
			power_id t = o->target_power;
			if (o->kind == ORDER_INSURRECTION && t < g->map->npowers && !judge_in_disorder(g, t) &&
			    game_revival(g, t) == NULL && board_eliminated(&g->board, g->map, t))
				return true;
		}
	return false;
}

/* Insurrections: note what a movement phase ordered, and carry it out
 * on next when the season ends (after its moves and retreats, before the
 * Fall centres change hands). */
static void
season_insurrections(struct game *g, const struct board *before, const struct order *orders,
    int n, const struct phase_result *res, struct board *next, struct news *nw)
{
	const struct map *m = g->map;
	struct order_prefs revival[MAP_MAX_POWERS];
	enum muna_step step;
	int i, p;

	if (!revivals_on(g))
		return;
	for (p = 0; p < m->npowers; p++) {
		revival[p].n = 0;
		if (game_revival(g, (power_id)p))
			revival[p] = muna_state(g)->revival[p];
	}
	step = muna_season_step(m, before, orders, n, res, revival, &muna_state(g)->season, next, &nw->result);
	if (step == MUNA_QUIET)
		return;
	nw->season = muna_state(g)->season;
	nw->pending = step == MUNA_WAITING;
	nw->ended = step == MUNA_DECIDED;
	if (step == MUNA_WAITING)
		return;
	muna_season_clear(&muna_state(g)->season);
	for (i = 0; i < nw->result.n; i++) {
		const struct muna_rising *r = &nw->result.r[i];
		for (p = 0; p < m->npowers; p++) {
			char why[AWARD_REASON_MAX];
			if (!r->points[p])
				continue;
			snprintf(why, sizeof why, "sent two units or more to the insurrection in %s",
			    m->powers[r->target].name);
			game_award(g, (power_id)p, r->points[p], true, why);
		}
	}
}

/* The control bonus and the conference, once the phase is over. */
static void
season_after(struct judge *j, struct game *g, const struct board *before,
    const struct board *next, struct news *nw)
{
	const struct map *m = g->map;
	int need = muna_control_centres(m), p;

	if (game_victory_points(g) && need > 0) {
		for (p = 0; p < m->npowers; p++) {
			char *bonus = muna_state(g)->bonus[p];
			if (bonus[0] || board_count_centres(next, m, (power_id)p) < need)
				continue;
			phase_code(before, bonus, sizeof muna_state(g)->bonus[p]);
			nw->bonus |= (uint64_t)1 << p;
			judge_audit(j, g, "control bonus: %s holds %d centres", m->powers[p].name, need);
		}
	}
	if (muna_state(g)->conf.where != PROV_NONE) {
		nw->conf_end = (uint8_t)muna_conference_check(m, &muna_state(g)->conf, before, next);
		if (nw->conf_end != CONF_GOES_ON) {
			nw->conf = muna_state(g)->conf;
			muna_state(g)->conf.where = PROV_NONE;
			judge_audit(j, g, "conference in %s ended", m->provs[nw->conf.where].name);
		}
	}
}

/* The MUNA parts of a turn report. */
static void
report_news(const struct game *g, const struct board *before, const struct board *next,
    const struct news *nw, struct buf *out)
{
	const struct map *m = g->map;
	int p;

	for (p = 0; p < m->npowers; p++)
		if ((nw->bonus >> p) & 1u)
			buf_printf(out, "\n%s holds %d supply centres: control of Europe, worth %d victory "
			    "points.\nThey are kept even if it loses centres later. The game goes on.\n",
			    m->powers[p].name, board_count_centres(next, m, (power_id)p), MUNA_BONUS_POINTS);
	if (nw->conf_end != CONF_GOES_ON) {
		struct buf name;
		const struct unit *u = muna_conference_hostile(m, next, &nw->conf);
		buf_init(&name, 256);
		muna_conference_name(m, &nw->conf, &name);
		buf_printf(out, "\nConference closed: %s (", buf_str(&name));
		muna_conference_powers(m, &nw->conf, out);
		if (nw->conf_end == CONF_EXPIRED)
			buf_puts(out, ").\nIt has lasted a year.\n");
		else if (nw->conf_end == CONF_TAKEN)
			buf_printf(out, ").\nIt ends at once: %s has passed to %s.\n",
			    m->provs[nw->conf.where].name,
			    next->owner[nw->conf.where] == POWER_NONE ? "nobody" :
			    m->powers[next->owner[nw->conf.where]].name);
		else if (u)
			buf_printf(out, ").\nIt ends at once: the %s %s has conquered %s.\n",
			    m->powers[u->power].adjective, unit_word((enum unit_type)u->type),
			    m->provs[nw->conf.where].name);
		else
			buf_printf(out, ").\nIt ends at once: %s is conquered.\n",
			    m->provs[nw->conf.where].name);
		buf_free(&name);
	} else if (muna_state(g)->conf.where != PROV_NONE) {
		buf_puts(out, "\nConference: ");
		muna_conference_name(m, &muna_state(g)->conf, out);
		buf_puts(out, " (");
		muna_conference_powers(m, &muna_state(g)->conf, out);
		buf_printf(out, "), until %s %d at the latest.\n", season_name((enum season)muna_state(g)->conf.season),
		    muna_state(g)->conf.year + 1);
		put_conference_goal(&muna_state(g)->conf, out);
	}
	{
		char ph[8];
		int i, k = 0;
		phase_code(before, ph, sizeof ph);
		for (i = 0; i < g->nawards; i++) {
			const struct award *a = &g->awards[i];
			if (strcmp(a->phase, ph) != 0)
				continue;
			if (k++ == 0)
				buf_puts(out, "\nPolitical points:\n");
			buf_printf(out, "  %s %+d: %s%s\n", m->powers[a->power].name, a->points, a->reason,
			    a->rules ? "" : " (the officers)");
		}
	}
}

static void
muna_turn(struct turn *t)
{
	const struct map *m = t->g->map;
	struct news *nw = xcalloc(1, sizeof *nw);

	t->next = t->res->after;
	season_insurrections(t->g, t->before, t->orders, t->norders, t->res, &t->next, nw);
	phase_next(m, &t->g->rules, &t->next);
	season_after(t->j, t->g, t->before, &t->next, nw);
	standard_report_results(t);
	if (nw->pending)
		muna_report_pending(m, &nw->season, t->report);
	if (nw->ended)
		muna_report(m, &nw->season, &nw->result, t->report);
	standard_report_position(t);
	standard_report_eliminated(t, revivals_on(t->g) ?
	    " Its delegation stays: it keeps its political points,\n"
	    "and insurrections of other powers' units can revive it." : "");
	report_news(t->g, t->before, &t->next, nw, t->report);
	judge_standings(t->g, &t->next, "Victory points:", t->report);
	free(nw);
}

/* Insurrections waiting for the phase to end, and the conference as the
 * phase found it: kept with its history record. */
static void
muna_history_write(const struct game *g, struct buf *out)
{
	muna_file_write_season(g, &muna_state(g)->season, out);
	muna_file_write_conference(g, &muna_state(g)->conf, out);
}

/* A rollback to g->board: the insurrections and the conference as the
 * phase's record kept them, and no control bonus earned since. */
static void
muna_history_read(struct game *g, const char *text, size_t len)
{
	struct muna_state *st = muna_state(g);
	int p;

	muna_season_clear(&st->season);
	if (text) {
		muna_file_read_season(g, text, len, &st->season);
		muna_file_read_conference(g, text, len);
	}
	for (p = 0; p < g->map->npowers; p++)
		if (st->bonus[p][0] && game_phase_since(st->bonus[p], &g->board))
			st->bonus[p][0] = '\0';
}

/* The conference under way (MUNA.md), or the last one: its powers, and
 * its name with them. */
static bool
muna_conference(const struct game *g, uint64_t *powers, struct buf *name)
{
	const struct conference *c = &muna_state(g)->conf;

	if (powers != NULL)
		*powers = c->powers;
	if (name != NULL) {
		muna_conference_name(g->map, c, name);
		buf_puts(name, " (");
		muna_conference_powers(g->map, c, name);
		buf_putc(name, ')');
	}
	return c->where != PROV_NONE;
}

/* The control bonus: earned by p (MUNA.md). */
static bool
muna_standing_bonus(const struct game *g, power_id p)
{
	return muna_state(g)->bonus[p][0] != '\0';
}

struct muna_state *
muna_state(const struct game *g)
{
	return g->state;
}

static void *
muna_state_new(struct game *g)
{
	struct muna_state *st = xcalloc(1, sizeof *st);

	(void)g;
	st->conf.where = PROV_NONE;
	return st;
}

static void
muna_state_free(void *st)
{
	free(st);
}

/*
 * A speech phase belongs to its movement phase (MUNA.md): whatever window
 * was open ends when its phase is decided, and each Spring opens one.
 */
static void
muna_phase_started(struct game *g, time_t now)
{
	muna_state(g)->speech_until = 0;
	if (muna_state(g)->speech > 0 && g->board.season == SEASON_SPRING && g->board.phase == PHASE_MOVEMENT)
		muna_state(g)->speech_until = now + muna_state(g)->speech;
}

/* When the speech window of g closes (0: none was opened). */
static time_t
muna_speech_until(const struct game *g)
{
	return muna_state(g)->speech_until;
}

/* Speech phases: each Spring by the setting, or one opened. */
static bool
muna_speeches(const struct game *g)
{
	return muna_state(g)->speech || muna_state(g)->speech_until;
}

/* No press between powers in retreats and adjustments (option
 * silent-phases: "No diplomacy or discussion takes place"). */
static bool
muna_silent(const struct game *g)
{
	return g->board.phase != PHASE_MOVEMENT && map_option_on(g->map, "silent-phases");
}

/* The first Spring movement phase lasts the variant's first-movement
 * option times the others (the rules' 30 minutes, then 15); 0 otherwise. */
static long
muna_phase_length(const struct game *g)
{
	const char *opt = map_option(g->map, "first-movement");
	long times;

	if (g->board.phase != PHASE_MOVEMENT || g->board.season != SEASON_SPRING ||
	    g->board.year != g->map->start_year || opt == NULL ||
	    str_to_long(opt, 2, 100, &times) < 0)
		return 0;
	return times * g->set.duration[PHASE_MOVEMENT];
}

/* A new game: the variant's speech option is its speech setting. */
static void
muna_new_game(struct game *g)
{
	const char *opt = map_option(g->map, "speech");

	if (opt && time_parse_span(opt, &muna_state(g)->speech) < 0)
		muna_state(g)->speech = 0;
}

/* SET speech 12h, or none, off or 0: the speech window of each Spring. */
static int
set_speech(struct game *g, const char *v)
{
	long n;

	if (str_eq_nocase(v, "none") || str_eq_nocase(v, "off") || strcmp(v, "0") == 0) {
		muna_state(g)->speech = 0;
		return 0;
	}
	if (time_parse_span(v, &n) < 0 || n <= 0)
		return -1;
	muna_state(g)->speech = n;
	return 0;
}

static const struct system_setting muna_settings[] = {
	{ "speech", set_speech },
};

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
 * than it is worth: *pts is cut to what is left of its worth. Returns -1
 * when refused (reason in reply).
 */
static int
muna_award_reason(const struct game *g, power_id p, long *pts, const char *reason, char *out,
    size_t n, struct buf *reply)
{
	const struct muna_goals *d = &muna_state(g)->goals[p];
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
	if (k == GAME_GOALS && goal3_awarded(g, p) >= d->goal_points) {
		buf_printf(reply, "  REFUSED: %s's goal 3 is worth %d point%s, all awarded already\n",
		    name, d->goal_points, d->goal_points == 1 ? "" : "s");
		return -1;
	}
	if (k == GAME_GOALS && goal3_awarded(g, p) + *pts > d->goal_points) {
		int before = goal3_awarded(g, p);

		*pts = d->goal_points - before;
		buf_printf(reply, "  %s's goal 3 is worth %d point%s", name, d->goal_points,
		    d->goal_points == 1 ? "" : "s");
		if (before > 0)
			buf_printf(reply, " and %d %s awarded before", before, before == 1 ? "was" : "were");
		buf_printf(reply, ": %ld awarded\n", *pts);
	}
	snprintf(out, n, "political goal %ld: %s", k, d->goal[k - 1]);
	out[AWARD_REASON_MAX - 1] = '\0';
	return 0;
}

/* What power p, out of the game on the board, can do: win its country
 * back (MUNA.md), under the insurrection rules. */
static bool
muna_comeback_help(const struct game *g, power_id p, struct buf *out)
{
	const struct map *m = g->map;
	int i, k = 0;
	const struct unit *u;

	if (!revivals_on(g))
		return false;
	u = g->board.nunits ? &g->board.units[0] : NULL;

	buf_printf(out, "%s has lost its country, but may win it back.\n"
	    "When other powers order units to an insurrection in %s (an order such as\n"
	    "\"%c %s-%s\"), three such units win back three of your home centres and\n"
	    "four win back all of them, at the end of the season; an occupied centre\n"
	    "needs one unit more.\n",
	    m->powers[p].name, m->powers[p].name, u ? unit_letter((enum unit_type)u->type) : 'A',
	    u ? m->provs[m->locs[u->loc].prov].abbr : "par", m->powers[p].name);
	if (g->board.phase != PHASE_MOVEMENT) {
		buf_puts(out, "Revival orders are given in movement phases.\n");
		return true;
	}
	buf_puts(out, "Send your revival order, naming at least three home centres, most wanted\n"
	    "first: \"Revive:");
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply && m->provs[i].home == p)
			buf_printf(out, "%s %s", k++ ? "," : "", m->provs[i].name);
	buf_puts(out, "\".\n");
	return true;
}

/* Power p's revival order, or what it may send, at the head of its orders. */
static void
muna_list_orders(const struct game *g, power_id p, struct buf *out)
{
	const struct board *b = &g->board;

	if (game_revival(g, p)) {
		buf_puts(out, "  ");
		order_format_prefs(g->map, &muna_state(g)->revival[p], ORDER_SHORT, out);
		buf_putc(out, '\n');
	} else if (revivals_on(g) && b->phase == PHASE_MOVEMENT &&
	    board_eliminated(b, g->map, p)) {
		buf_puts(out, "  (no revival order: \"Revive: <home centres, most wanted first>\")\n");
	}
}

/* HELP: the MUNA rules for a delegation, the MUNA commands for the game
 * master (p POWER_NONE). */
static void
muna_help(const struct game *g, power_id p, struct buf *out)
{
	if (p != POWER_NONE) {
		help_muna(g, out);
		return;
	}
	buf_puts(out, "CONFERENCE <place> <power> <power> <power> ... [NAME <name>] [GOAL <goal>],\n"
	    "CONFERENCE GOAL <goal>, CONFERENCE END,\n"
	    "SPEECH [<duration>], SPEECH END, SPEECH ORDER <power> <power> ...,\n"
	    "SET SPEECH <duration>|none,\n"
	    "GOAL <power> NUMBER 1|2 <goal> (its goal number 1 or 2), GOAL APPROVE <power>,\n"
	    "GOAL DENY <power> (the goal it proposed, number 3), GOAL,\n"
	    "AWARD <power> <points> GOAL <number>,\n"
	    "END WINNER <power> BECAUSE <reason> (judge/systems/MUNA.md).\n");
}

static const struct command_handler muna_commands[] = {
	{ CMD_CONFERENCE, SYSTEM_GM, cmd_conference },
	{ CMD_SPEECH, SYSTEM_GM, cmd_speech },
	{ CMD_GOAL, SYSTEM_GM, cmd_goal },
	{ CMD_GOAL, SYSTEM_PLAYER, player_goal },
	{ CMD_REQUEST, SYSTEM_PLAYER, request_speech },
};

static const struct system_words muna_words = {
	.rules = "MUNA rules",
};

static const struct system_politics muna_politics = {
	.conference = muna_conference,
	.award_reason = muna_award_reason,
	.standing_bonus = muna_standing_bonus,
	.list_orders = muna_list_orders,
	.comeback_help = muna_comeback_help,
	.speech_note = put_speakers,
	.speech_until = muna_speech_until,
	.speeches = muna_speeches,
	.silent = muna_silent,
	.check_list = muna_check_list,
	.keep_list = muna_keep_list,
	.format_list = muna_format_list,
};

/* A variant file naming no system is MUNA's when it sets one of MUNA's
 * options (to anything). */
static bool
muna_serves_variant(const struct map *m)
{
	static const char *const options[] = { "insurrection", "victory-points",
		"control-bonus", "speech" };
	size_t i;

	for (i = 0; i < sizeof options / sizeof options[0]; i++)
		if (map_option(m, options[i]))
			return true;
	return false;
}

const struct rule_system muna_system = {
	.name = "muna",
	.serves_variant = muna_serves_variant,
	.serves = SYS_POLITICS,
	.words = &muna_words,
	.turn = muna_turn,
	.ended = standard_ended,
	.history_write = muna_history_write,
	.history_read = muna_history_read,
	.phase_started = muna_phase_started,
	.phase_length = muna_phase_length,
	.new_game = muna_new_game,
	.waits = revival_awaited,
	.help = muna_help,
	.commands = muna_commands,
	.ncommands = (int)(sizeof muna_commands / sizeof muna_commands[0]),
	.fields = &muna_file_fields,
	.settings = muna_settings,
	.nsettings = (int)(sizeof muna_settings / sizeof muna_settings[0]),
	.state_new = muna_state_new,
	.state_free = muna_state_free,
	.politics = &muna_politics,
	.delegates = 2,
};
