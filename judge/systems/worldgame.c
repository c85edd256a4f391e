/*
 * worldgame.c — the World Game's war phase as a rule system (judge/system.h;
 * the rules and every decision: judge/systems/WORLDGAME.md).
 *
 * A game of this system is no board: the war itself is war.c (pure). This
 * module keeps a war in a game: its state (the war and a power per
 * country, so that delegations, passwords and press work as in any game),
 * its lines in the game file, the game master's COUNTRY lines and START,
 * the delegations' commands, the deadline of every step with its reminder,
 * and the reports after every step.
 */
#include "worldgame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/buf.h"
#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../parser/names.h"
#include "../engine/war.h"
#include "../system_words.h"

#define TEXT_MAX (1u << 20)
/* The war's lines of a game file, kept until the whole file is read. */
#define WAR_LINES_MAX (1u << 16)

/* A game's state: the war, and the game's own map with a power per
 * country (country k is power k). */
struct wg {
	struct war w;
	struct map *map;
	struct names *names;
	struct names *old[WAR_MAX_COUNTRIES + 1];	/* earlier indexes: a caller may
							   still hold one this run */
	int nold;
	struct buf lines;	/* the war's lines while the game file is read */
	char why[160];		/* what loaded() found wrong */
};

/* What a step may settle: the battle's loans and every total before it. */
struct before {
	bool on;
	int side[2];
	long long loan[2][WAR_MAX_COUNTRIES];
	long long points[WAR_MAX_COUNTRIES];
	bool betrayed[WAR_MAX_COUNTRIES][WAR_MAX_COUNTRIES];
	struct war_terms offer[WAR_MAX_COUNTRIES][WAR_MAX_COUNTRIES];	/* unmatched proposals */
};

static struct wg *
state(const struct game *g)
{
	return g->state;
}

/* ------------------------------------------------------- the countries -- */

/* A power for a new country, and the name index made again. */
static void
add_power(struct game *g, const char *name)
{
	struct wg *s = state(g);
	char abbr[WAR_NAME_SIZE];
	size_t i;

	for (i = 0; name[i] && i < sizeof abbr - 1; i++)
		abbr[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	abbr[i] = '\0';
	map_add_power(s->map, name, name, abbr, '\0', "#808080");
	if (s->nold < (int)(sizeof s->old / sizeof s->old[0]))
		s->old[s->nold++] = s->names;
	else
		names_free(s->names);
	s->names = names_new(s->map);
	g->names = s->names;
	game_fit_delegations(g);
}

static void *
wg_new(struct game *g)
{
	struct wg *s = xcalloc(1, sizeof *s);

	war_init(&s->w);
	s->map = map_new(g->map->name, g->map->title);
	str_copy(s->map->system, g->map->system, sizeof s->map->system);
	s->map->start_year = g->map->start_year;
	map_finish(s->map);
	s->names = names_new(s->map);
	buf_init(&s->lines, WAR_LINES_MAX);
	g->map = s->map;
	g->names = s->names;
	return s;
}

static void
wg_free(void *p)
{
	struct wg *s = p;
	int i;

	for (i = 0; i < s->nold; i++)
		names_free(s->old[i]);
	names_free(s->names);
	map_free(s->map);
	buf_free(&s->lines);
	free(s);
}

/* ---------------------------------------------------- the game file -- */

static void
write_war(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	war_write(&state(g)->w, out);
}

/* Keep the line for loaded(); a country's line gives it its power at
 * once (the delegations' lines, read next, name it). */
static const char *
read_war(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct wg *s = state(in->g);
	char name[WAR_NAME_SIZE];
	const char *q = v;

	(void)f, (void)p;
	buf_printf(&s->lines, "%s %s\n", in->key, v);
	if (strcmp(in->key, "war-country") != 0)
		return NULL;
	if (scan_name(&q, name, sizeof name) < 0 || s->map->npowers >= WAR_MAX_COUNTRIES)
		return "expected: war-country NAME POINTS fort|nofort";
	add_power(in->g, name);
	return NULL;
}

static const struct game_field wg_fields[] = {
	{ "war-country war-taken war-ally war-offer war-betrayal war-stage war-battle war-side war-loan "
	  "war-events war-record", GAME_PART_HEAD, write_war, read_war, 0, 0, 0, 0 },
};

static const struct game_field_table wg_table = { wg_fields, 1 };

static const char *
wg_loaded(struct game *g)
{
	struct wg *s = state(g);
	struct buf err;
	int i, rc;

	buf_init(&err, 1024);
	rc = war_read(&s->w, buf_str(&s->lines), s->lines.len, &err);
	buf_free(&s->lines);
	buf_init(&s->lines, WAR_LINES_MAX);
	if (rc < 0) {
		snprintf(s->why, sizeof s->why, "the war's lines: %s", str_trim(err.data));
		buf_free(&err);
		return s->why;
	}
	buf_free(&err);
	for (i = 0; i < s->w.n; i++)
		if (!str_eq_nocase(s->w.c[i].name, s->map->powers[i].name))
			return "the war's countries are not those of its lines";
	return s->w.n == s->map->npowers ? NULL : "the war's countries are not those of its lines";
}

/* ----------------------------------------------------------- reports -- */

/* "Deadline: Sunday 22 November 2026, 19:00 CET." in zone. */
static void
deadline_line(struct judge *j, const struct game *g, const char *zone, struct buf *out)
{
	char when[64];
	const struct war *w = &state(g)->w;
	const char *who;

	if (g->status != GAME_ACTIVE || g->deadline == 0 || war_waiting(w) < 0)
		return;
	who = w->c[war_waiting(w)].name;
	judge_time_human(j, zone, g->deadline, when, sizeof when);
	buf_printf(out, "Deadline for %s: %s.\nIf %s sends nothing by then, %s.\n", who, when, who,
	    w->battle.on ? "it is conquered" : "it passes");
}

/* Indent every line of text by two blanks into out. */
static void
indent(const char *text, struct buf *out)
{
	const char *p = text, *e;

	while (*p) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		buf_printf(out, "  %.*s\n", (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
}

/* "It is your turn: ..." when the war waits for c. */
static void
your_turn(const struct war *w, int c, struct buf *out)
{
	const struct war_battle *b = &w->battle;

	if (war_waiting(w) != c)
		return;
	if (b->on)
		buf_printf(out, "It is your turn: COUNTER with more than %lld, or YIELD.\n\n",
		    b->side[!b->answer].figure);
	else
		buf_puts(out, "It is your turn: ATTACK a country WITH some of your points, "
		    "or PASS.\n\n");
}

/* Send text to every member of power p's delegation: head, note (what
 * concerns p alone, or NULL), its turn, its figures and the public record. */
static void
send_power(struct judge *j, const struct game *g, power_id p, const char *subject,
    const char *head, const char *note, struct buf *body)
{
	const struct delegation *d = &g->del[p];
	const struct war *w = &state(g)->w;
	int i;

	for (i = 0; i < d->nmembers; i++) {
		const char *to[1] = { d->members[i].addr };
		buf_reset(body);
		buf_puts(body, head);
		buf_putc(body, '\n');
		if (note != NULL && *note) {
			buf_puts(body, note);
			buf_putc(body, '\n');
		}
		your_turn(w, p, body);
		war_private(w, p, body);
		buf_putc(body, '\n');
		war_public(w, body);
		deadline_line(j, g, d->members[i].zone, body);
		judge_send(j, g, to, 1, subject, buf_text(body));
	}
}

/* The war as it stands before a step, for settle(). */
static void
snap(const struct war *w, struct before *b)
{
	int s, i;

	memset(b, 0, sizeof *b);
	b->on = w->battle.on;
	for (s = 0; s < 2; s++) {
		b->side[s] = w->battle.side[s].country;
		for (i = 0; i < WAR_MAX_COUNTRIES; i++)
			b->loan[s][i] = w->battle.side[s].loan[i];
	}
	for (i = 0; i < w->n; i++)
		b->points[i] = w->c[i].points;
	memcpy(b->betrayed, w->betrayed, sizeof b->betrayed);
	memcpy(b->offer, w->offer, sizeof b->offer);
}

/* The proposals of p that the start of the war let lapse, never matched,
 * in one line: "Your proposal of an alliance to Country-D (1 FOR 1)
 * lapsed when the war started: Country-D never sent the same terms." */
static void
lapsed_note(const struct war *w, const struct before *b, int p, struct buf *out)
{
	int i, n = 0, k = 0, last = -1;

	if (b == NULL || w->stage == WAR_SETUP)
		return;
	for (i = 0; i < w->n; i++)
		n += b->offer[p][i].per > 0 && w->offer[p][i].per == 0;
	for (i = 0; i < w->n; i++) {
		if (b->offer[p][i].per == 0 || w->offer[p][i].per > 0)
			continue;
		buf_printf(out, "%s%s (%d FOR %d)", k == 0 ? (n == 1 ? "Your proposal of an "
		    "alliance to " : "Your proposals of alliances to ") : k == n - 1 ? " and " :
		    ", ", w->c[i].name, b->offer[p][i].repay, b->offer[p][i].per);
		k++;
		last = i;
	}
	if (n == 1)
		buf_printf(out, " lapsed when the war started: %s never sent the same terms.\n",
		    w->c[last].name);
	else if (n > 1)
		buf_puts(out, " lapsed when the war started: none of them sent the same terms.\n");
}

/* An alliance the step ended by an attack on an ally, told to p, the
 * attacker or the attacked (no one else knows of the alliance). */
static void
betrayal_note(const struct war *w, const struct before *b, int p, struct buf *out)
{
	int i;

	for (i = 0; b != NULL && i < w->n; i++) {
		if (w->betrayed[p][i] && !b->betrayed[p][i])
			buf_printf(out, "You attacked your ally %s: your alliance is ended for the "
			    "rest of the war. Neither of you may LEND to the other on its terms; "
			    "an OFFER, without terms, binds nobody.\n", w->c[i].name);
		if (w->betrayed[i][p] && !b->betrayed[i][p])
			buf_printf(out, "%s, your ally, attacked you: your alliance is ended for the "
			    "rest of the war. Neither of you may LEND to the other on its terms; "
			    "an OFFER, without terms, binds nobody.\n", w->c[i].name);
	}
}

/* What the end of a battle did to p's loans, given or taken, into out:
 * a loan to the conquered is lost, a loan to the winner paid back (and
 * why it is less than the terms promised, when the winner was short). */
static void
settle(const struct war *w, const struct before *b, int p, struct buf *out)
{
	int s, i;

	if (b == NULL || !b->on || w->battle.on)
		return;
	for (s = 0; s < 2; s++) {
		int to = b->side[s];
		long long paid, owed;

		if (b->loan[s][p] > 0 && w->c[to].alive) {
			paid = w->c[p].points - b->points[p];
			owed = war_owed(w, p, to, b->loan[s][p]);
			if (paid < owed)
				buf_printf(out, "%s won, but it had fewer points than it owed its "
				    "lenders: they share what it had, each in proportion to what it "
				    "was owed. It pays you back %lld, not the %lld it owed you for "
				    "your loan of %lld.\n", w->c[to].name, paid, owed, b->loan[s][p]);
			else
				buf_printf(out, "%s won: it pays you back %lld for your loan of "
				    "%lld.\n", w->c[to].name, paid, b->loan[s][p]);
		} else if (b->loan[s][p] > 0) {
			buf_printf(out, "%s was conquered: your loan of %lld to it is lost.\n",
			    w->c[to].name, b->loan[s][p]);
		}
		for (i = 0; to == p && w->c[p].alive && i < w->n; i++) {
			if (b->loan[s][i] == 0)
				continue;
			paid = w->c[i].points - b->points[i];
			owed = war_owed(w, i, p, b->loan[s][i]);
			buf_printf(out, "You pay back %lld to %s for its loan of %lld", paid,
			    w->c[i].name, b->loan[s][i]);
			if (paid < owed)
				buf_printf(out, " (you owed it %lld, but had fewer points than you "
				    "owed your lenders: they share what you had, in proportion)", owed);
			buf_puts(out, ".\n");
		}
	}
}

/* What happened since event seen, to everyone: each delegation with its
 * own figures (and what the step settled of its loans, from b), the
 * observers with the public record, the game masters with everything. */
static void
report(struct judge *j, struct game *g, long long seen, const struct before *b)
{
	const struct war *w = &state(g)->w;
	struct buf news, head, body, note;
	char subject[128];
	int p;

	buf_init(&news, 8192);
	buf_init(&note, 1024);
	buf_init(&head, 8192);
	buf_init(&body, TEXT_MAX);
	war_news(w, seen, &news);
	buf_printf(&head, "Game %s, the war:\n", g->name);
	indent(buf_str(&news), &head);
	snprintf(subject, sizeof subject, "[%s] the war: %s", g->name,
	    w->stage == WAR_OVER ? "over" : "news");
	for (p = 0; p < g->map->npowers; p++) {
		buf_reset(&note);
		betrayal_note(w, b, p, &note);
		lapsed_note(w, b, p, &note);
		settle(w, b, p, &note);
		send_power(j, g, (power_id)p, subject, buf_str(&head), buf_str(&note), &body);
	}
	buf_reset(&body);
	buf_printf(&body, "%s\n", buf_str(&head));
	war_public(w, &body);
	for (p = 0; p < g->nobservers; p++) {
		const char *to[1] = { g->observers[p] };
		judge_send(j, g, to, 1, subject, buf_text(&body));
	}
	buf_reset(&body);
	buf_printf(&body, "%s\n", buf_str(&head));
	war_full(w, &body);
	deadline_line(j, g, g->set.zone, &body);
	for (p = 0; p < g->ngms; p++) {
		const char *to[1] = { g->gms[p] };
		judge_send(j, g, to, 1, subject, buf_text(&body));
	}
	buf_free(&news);
	buf_free(&note);
	buf_free(&head);
	buf_free(&body);
}

/* The events after seen into the audit log, one entry each. */
static void
audit_news(struct judge *j, const struct game *g, long long seen)
{
	const struct war *w = &state(g)->w;
	struct buf news;
	const char *p, *e;

	buf_init(&news, 8192);
	war_news(w, seen, &news);
	for (p = buf_str(&news); (e = strchr(p, '\n')) != NULL; p = e + 1)
		judge_audit(j, g, "war: %.*s", (int)(e - p), p);
	buf_free(&news);
}

/* The war moved on from event seen: a new step, its deadline, the
 * reports; the game over when the war is. */
static void
step_done(struct judge *j, struct game *g, long long seen, const struct before *b,
    time_t now)
{
	struct wg *s = state(g);
	char result[200];
	int p;

	judge_event(j, "%s.w%lld", g->name, s->w.nevents);
	audit_news(j, g, seen);
	if (s->w.stage == WAR_OVER) {
		if (s->w.winner >= 0)
			snprintf(result, sizeof result, "%s has won the war",
			    s->w.c[s->w.winner].name);
		else
			str_copy(result, "The war ended without a single victor", sizeof result);
		judge_game_over(j, g, result);
	} else {
		g->phase_start = now;
		g->deadline = judge_deadline_after(j, g, now);
		for (p = 0; p < g->map->npowers; p++)
			g->del[p].reminded = false;
	}
	judge_touch(j, g);
	report(j, g, seen, b);
}

/* ------------------------------------------------------ what is read -- */

/* Append msg's lines indented, the last beginning with prefix (the
 * reason of a refusal comes after the notes on how words were read). */
static void
put_msg(const char *prefix, const struct buf *msg, struct buf *reply)
{
	const char *p = buf_str(msg), *e;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		buf_printf(reply, "  %s%.*s\n", *e == '\0' || e[1] == '\0' ? prefix : "",
		    (int)(e - p), p);
	}
}

/* COUNTRY Name Points [FORT], from the game master before the start. */
static enum cmd_result
gm_country(struct judge *j, struct game *g, const char *text, size_t len, struct buf *reply)
{
	struct wg *s = state(g);
	char line[256], name[WAR_NAME_SIZE];
	const char *q = line;
	struct scan_word w;
	struct buf msg;
	long points;
	bool fort = false;
	int rc;

	str_ncopy_trim(line, sizeof line, text, len);
	scan_word(&q, &w);
	if (scan_name(&q, name, sizeof name) < 0 || scan_long(&q, 0, WAR_MAX_POINTS, &points) < 0) {
		buf_puts(reply, "  REFUSED: write COUNTRY, its name in one word and its points, and "
		    "FORT when it has one: COUNTRY Country-A 3000 FORT\n");
		return CMD_REFUSED;
	}
	if (scan_word(&q, &w) == 0) {
		if (!scan_word_is_nocase(&w, "fort") || scan_word(&q, &w) == 0) {
			buf_puts(reply, "  REFUSED: after the points only FORT may follow\n");
			return CMD_REFUSED;
		}
		fort = true;
	}
	if (g->status != GAME_FORMING) {
		buf_puts(reply, "  REFUSED: countries are named before the war starts\n");
		return CMD_REFUSED;
	}
	buf_init(&msg, 1024);
	rc = war_add_country(&s->w, name, points, fort, &msg);
	if (rc < 0) {
		put_msg("REFUSED: ", &msg, reply);
	} else {
		add_power(g, s->w.c[rc].name);
		buf_printf(reply, "  %s joins the war with %ld point%s%s\n", s->w.c[rc].name, points,
		    points == 1 ? "" : "s", fort ? " and a fort" : "");
		judge_audit(j, g, "country %s: %ld points%s", s->w.c[rc].name, points,
		    fort ? ", a fort" : "");
		judge_touch(j, g);
	}
	buf_free(&msg);
	return rc < 0 ? CMD_REFUSED : CMD_DONE;
}

/* A line of the game master: COUNTRY, or chat. */
static enum cmd_result
gm_line(struct judge *j, struct game *g, const char *text, size_t len, struct buf *reply)
{
	struct scan_word w;
	char line[64];
	const char *q = str_ncopy_trim(line, sizeof line, text, len);

	if (scan_word(&q, &w) == 0 && scan_word_is_nocase(&w, "country"))
		return gm_country(j, g, text, len, reply);
	if (war_names_verb(text, len)) {
		buf_puts(reply, "  REFUSED: the game master does not fight; the delegations give "
		    "the war's commands\n");
		return CMD_REFUSED;
	}
	return CMD_IGNORED;
}

/* Refuse what the war cannot take now. Returns true when refused. */
static bool
refused_now(const struct game *g, const struct war_cmd *cmd, struct buf *reply)
{
	const char *why = NULL;

	if (g->status == GAME_ENDED)
		why = "the war is over";
	else if (g->status == GAME_PAUSED)
		why = "the game is paused: the game master will resume it";
	else if (g->status == GAME_FORMING && cmd->verb != WAR_ALLY)
		why = "the war has not started: until it does, only alliances are signed (ALLY)";
	if (why != NULL)
		buf_printf(reply, "  REFUSED: %s\n", why);
	return why != NULL;
}

/* The other country a command of who concerns privately: the borrower
 * of a loan made or taken back, the partner of an alliance; or -1. */
static int
other_party(const struct war *w, int who, const struct war_cmd *cmd)
{
	int k;

	if (cmd->verb == WAR_LEND || cmd->verb == WAR_OFFER || cmd->verb == WAR_ALLY)
		return cmd->country;
	for (k = 0; cmd->verb == WAR_WITHDRAW && w->battle.on && k < 2; k++)
		if (w->battle.side[k].loan[who] > 0)
			return w->battle.side[k].country;
	return -1;
}

/* Do a and b have a written alliance (a loan between them is on terms)? */
static bool
has_alliance(const struct war *w, int a, int b)
{
	return w->ally[a][b].per > 0;
}

/* The game masters' copy of what passed privately between who and other
 * (a loan made or taken back, an alliance), with every figure. */
static void
tell_gms(struct judge *j, const struct game *g, const char *subject, int who, int other,
    const struct war_cmd *cmd, long long taken_back)
{
	const struct war *w = &state(g)->w;
	struct buf body;
	int i;

	buf_init(&body, TEXT_MAX);
	buf_printf(&body, "Game %s: ", g->name);
	if (cmd->verb == WAR_LEND || cmd->verb == WAR_OFFER)
		buf_printf(&body, "%s %s %lld to %s%s.\n", w->c[who].name,
		    cmd->verb == WAR_LEND ? "lends" : "offers", cmd->points, w->c[other].name,
		    cmd->verb == WAR_LEND ? "" : ", without written terms");
	else if (cmd->verb == WAR_WITHDRAW)
		buf_printf(&body, "%s takes back its %s of %lld to %s.\n", w->c[who].name,
		    has_alliance(w, who, other) ? "loan" : "offer", taken_back, w->c[other].name);
	else
		buf_printf(&body, "%s %s %s: %d paid back for each %d lent.\n", w->c[who].name,
		    w->ally[who][other].repay == cmd->repay && w->ally[who][other].per == cmd->per ?
		    "signs the alliance with" : "proposes an alliance to", w->c[other].name,
		    cmd->repay, cmd->per);
	buf_putc(&body, '\n');
	war_full(w, &body);
	for (i = 0; i < g->ngms; i++) {
		const char *to[1] = { g->gms[i] };
		judge_send(j, g, to, 1, subject, buf_text(&body));
	}
	buf_free(&body);
}

/* Loans and alliances are private between the two countries: the other
 * one's delegation is told, with its own figures (not who's total). b is
 * the war before the command. */
static void
tell_other(struct judge *j, const struct game *g, int who, int other,
    const struct war_cmd *cmd, const struct before *b)
{
	const struct war *w = &state(g)->w;
	const char *name = w->c[who].name;
	struct buf head, body;
	char subject[128];
	const char *pre, *post;		/* the Subject's words before and after who */
	int s;

	buf_init(&head, 1024);
	buf_init(&body, TEXT_MAX);
	buf_printf(&head, "Game %s: ", g->name);
	s = 2;
	if (cmd->verb == WAR_LEND) {
		pre = "a loan from ", post = "";
		buf_printf(&head, "%s lends you %lld.\n", name, cmd->points);
	} else if (cmd->verb == WAR_OFFER) {
		pre = "points offered by ", post = "";
		buf_printf(&head, "%s offers you %lld, without written terms: if you win, you pay "
		    "them back point for point.\n", name, cmd->points);
	} else if (cmd->verb == WAR_WITHDRAW) {
		pre = "", post = has_alliance(w, who, other) ? " takes back its loan" :
		    " takes back its offer";
		for (s = 0; s < 2 && b->loan[s][who] == 0; s++)
			;
		buf_printf(&head, "%s takes back its %s of %lld.\n", name,
		    has_alliance(w, who, other) ? "loan" : "offer", s < 2 ? b->loan[s][who] : 0);
	} else if (w->ally[who][other].repay == cmd->repay && w->ally[who][other].per == cmd->per) {
		pre = "", post = " signs the alliance";
		buf_printf(&head, "%s signs the alliance with you: %d paid back for each %d "
		    "lent. It binds.\n", name, cmd->repay, cmd->per);
	} else {
		pre = "an alliance proposed by ", post = "";
		buf_printf(&head, "%s proposes an alliance to you: %d paid back for each %d "
		    "lent.\nTo sign it, send: ALLY %s TERMS %d FOR %d\n", name, cmd->repay,
		    cmd->per, name, cmd->repay, cmd->per);
	}
	snprintf(subject, sizeof subject, "[%s] the war: %s%s%s", g->name, pre, name, post);
	send_power(j, g, (power_id)other, subject, buf_str(&head), NULL, &body);
	tell_gms(j, g, subject, who, other, cmd, s < 2 ? b->loan[s][who] : 0);
	buf_free(&head);
	buf_free(&body);
}

static enum cmd_result
wg_line(struct judge *j, struct game *g, power_id p, const char *text, size_t len,
    struct buf *reply)
{
	struct wg *s = state(g);
	struct war_cmd cmd;
	struct before b;
	struct buf msg;
	long long seen = s->w.nevents;
	int rc, other;

	if (p == POWER_NONE)
		return gm_line(j, g, text, len, reply);
	if (!war_names_verb(text, len))
		return CMD_IGNORED;
	buf_init(&msg, 1024);
	rc = war_read_command(&s->w, text, len, &cmd, &msg);
	if (rc == 0 && refused_now(g, &cmd, reply)) {
		buf_free(&msg);
		return CMD_REFUSED;
	}
	other = rc == 0 ? other_party(&s->w, p, &cmd) : -1;
	snap(&s->w, &b);
	if (rc == 0)
		rc = war_do(&s->w, p, &cmd, &msg);
	put_msg(rc < 0 ? "REFUSED: " : "", &msg, reply);
	buf_free(&msg);
	if (rc == 0) {
		judge_touch(j, g);
		if (other >= 0)
			tell_other(j, g, p, other, &cmd, &b);
		if (s->w.nevents > seen)
			step_done(j, g, seen, &b, judge_now(j));
		else if (cmd.verb == WAR_ALLY)
			judge_audit(j, g, "%s proposes an alliance to %s, %d for %d",
			    g->map->powers[p].name, s->w.c[cmd.country].name, cmd.repay, cmd.per);
	}
	return rc < 0 ? CMD_REFUSED : CMD_DONE;
}

/* ------------------------------------------------------ the commands -- */

/* START: the war begins (the game master). */
static enum cmd_result
wg_start(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	struct buf *reply = call->reply;
	struct wg *s = state(g);
	long long seen = s->w.nevents;
	struct before b;
	struct buf msg;
	int q, n = 0;

	if (g->status != GAME_FORMING) {
		buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	for (q = 0; q < g->map->npowers; q++)
		n += g->del[q].nmembers > 0;
	if (n == 0) {
		buf_puts(reply, "  REFUSED: no delegation yet: DELEGATION Country-A "
		    "alice@example.org, ...\n");
		return CMD_REFUSED;
	}
	buf_init(&msg, 1024);
	snap(&s->w, &b);
	if (war_start(&s->w, &msg) < 0) {
		put_msg("REFUSED: ", &msg, reply);
		buf_free(&msg);
		return CMD_REFUSED;
	}
	buf_free(&msg);
	g->status = GAME_ACTIVE;
	judge_audit(j, g, "game started");
	buf_puts(reply, "  the war has started\n");
	step_done(j, g, seen, &b, judge_now(j));
	return CMD_DONE;
}

/* END: the game master ends the war between battles; the largest total wins. */
static enum cmd_result
wg_end(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	struct buf *reply = call->reply;
	struct wg *s = state(g);
	long long seen = s->w.nevents;
	struct buf msg;
	int rc;

	if (g->status != GAME_ACTIVE && g->status != GAME_PAUSED) {
		buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return CMD_REFUSED;
	}
	buf_init(&msg, 1024);
	rc = war_end(&s->w, &msg);
	if (rc < 0)
		put_msg("REFUSED: ", &msg, reply);
	else
		buf_puts(reply, "  the war is over\n");
	buf_free(&msg);
	if (rc == 0)
		step_done(j, g, seen, NULL, judge_now(j));
	return rc < 0 ? CMD_REFUSED : CMD_DONE;
}

/* LIST: what the sender may see of the war. */
static enum cmd_result
wg_list(struct command_call *call)
{
	struct game *g = call->g;
	power_id p = call->power;
	struct buf *reply = call->reply;
	buf_putc(reply, '\n');
	if (p == POWER_NONE) {
		war_full(&state(g)->w, reply);
		return CMD_DONE;
	}
	war_private(&state(g)->w, p, reply);
	buf_putc(reply, '\n');
	war_public(&state(g)->w, reply);
	return CMD_DONE;
}

static const char help_text[] =
    "The World Game's war (judge/systems/WORLDGAME.md has the whole rules):\n"
    "Countries are called in alphabetical order. When it is your call:\n"
    "  ATTACK Country-E WITH 2000   your first attack must be more than its total\n"
    "  PASS\n"
    "When you are attacked, or your attack is answered:\n"
    "  COUNTER 2300                 more than the other side's last figure\n"
    "  YIELD                        give up: you are conquered\n"
    "Allies (alliances are signed before the war, by both countries):\n"
    "  ALLY Country-B TERMS 2 FOR 1 before the war: 2 paid back for each 1 lent\n"
    "  LEND 500 TO Country-E        during a battle, to your ally, on its terms\n"
    "Any country, during a battle, without a written alliance (it binds nobody):\n"
    "  OFFER 500 TO Country-E       paid back point for point if Country-E wins\n"
    "  WITHDRAW LOAN                take your loan or offer back before the defeat\n"
    "An attack on your ally ends your alliance for the rest of the war.\n"
    "LIST shows your total, your loans and the war so far.\n"
    "Every step has a deadline: a called country that sends nothing passes; a side\n"
    "that must answer and sends nothing is conquered.\n"
    "Abbreviations and small misspellings are read when they have one meaning.\n";

/* HELP, all of it: the war's commands (and the game master's, for p
 * POWER_NONE). */
static void
wg_help(const struct game *g, power_id p, struct buf *reply)
{
	(void)g;
	buf_puts(reply, help_text);
	if (p == POWER_NONE)
		buf_puts(reply, "The game master: COUNTRY Country-A 3000 [FORT] for each country "
		    "before START;\nEND ends the war between battles (the largest total wins).\n");
	buf_puts(reply, "Press (PRESS TO Country-B ... ENDPRESS) binds nobody.\n");
}

/* The judge's commands for a board of units: not in this game. */
static enum cmd_result
wg_no_board(struct command_call *call)
{
	struct buf *reply = call->reply;
	buf_puts(reply, "  REFUSED: the World Game's war has no board and no orders; HELP lists "
	    "its commands\n");
	return CMD_REFUSED;
}

#define BOTH (SYSTEM_PLAYER | SYSTEM_GM)

static const struct command_handler wg_commands[] = {
	{ CMD_START, SYSTEM_GM, wg_start },
	{ CMD_END, SYSTEM_GM, wg_end },
	{ CMD_LIST, BOTH, wg_list },
	{ CMD_ORDERS, BOTH, wg_no_board },
	{ CMD_HISTORY, BOTH, wg_no_board },
	{ CMD_SUMMARY, BOTH, wg_no_board },
	{ CMD_WAIT, BOTH, wg_no_board },
	{ CMD_NOWAIT, BOTH, wg_no_board },
	{ CMD_VOTE, BOTH, wg_no_board },
	{ CMD_PROCESS, SYSTEM_GM, wg_no_board },
	{ CMD_PREVIEW, SYSTEM_GM, wg_no_board },
	{ CMD_ROLLBACK, SYSTEM_GM, wg_no_board },
};

/* ----------------------------------------------------------- the clock -- */

/* Remind the awaited delegation once, when half the step or all but the
 * game's reminder time is over. */
static void
remind(struct judge *j, struct game *g, time_t now)
{
	int c = war_waiting(&state(g)->w);
	struct delegation *d;
	struct buf body;
	char subject[128];
	time_t at;
	int i;

	if (c < 0 || g->set.remind <= 0 || (d = &g->del[c])->reminded || d->nmembers == 0)
		return;
	at = g->deadline - g->set.remind;
	if (at < g->phase_start + (g->deadline - g->phase_start) / 2)
		at = g->phase_start + (g->deadline - g->phase_start) / 2;
	if (now < at || now >= g->deadline)
		return;
	d->reminded = true;
	judge_touch(j, g);
	judge_event(j, "%s.r%lld", g->name, state(g)->w.nevents);
	snprintf(subject, sizeof subject, "[%s] reminder: the war waits for %s", g->name,
	    g->map->powers[c].name);
	buf_init(&body, 8192);
	for (i = 0; i < d->nmembers; i++) {
		const char *to[1] = { d->members[i].addr };
		buf_reset(&body);
		buf_printf(&body, "Game %s: a reminder, the war waits for %s.\n\n", g->name,
		    g->map->powers[c].name);
		your_turn(&state(g)->w, c, &body);
		war_private(&state(g)->w, c, &body);
		buf_putc(&body, '\n');
		war_public(&state(g)->w, &body);
		deadline_line(j, g, d->members[i].zone, &body);
		judge_send(j, g, to, 1, subject, buf_text(&body));
	}
	buf_free(&body);
}

static bool
wg_tick(struct judge *j, struct game *g, time_t now)
{
	struct wg *s = state(g);
	long long seen = s->w.nevents;
	struct before b;

	if (s->w.stage != WAR_ON || g->deadline == 0)
		return false;
	remind(j, g, now);
	if (now < g->deadline)
		return false;
	snap(&s->w, &b);
	if (war_deadline(&s->w, NULL) < 0)
		return false;
	/* The next step has its whole time from now: a judge that ran late
	 * must not make the next countries miss theirs one after another. */
	step_done(j, g, seen, &b, now);
	return true;
}

/* ---------------------------------------------- what a sender is told -- */

static void
wg_status(struct judge *j, const struct game *g, power_id p, const char *zone, time_t now,
    struct buf *out)
{
	const struct war *w = &state(g)->w;

	(void)now;
	if (p != POWER_NONE)
		war_private(w, p, out);
	deadline_line(j, g, zone, out);
}

static void
wg_stage(const struct game *g, char *out, size_t size)
{
	const struct war *w = &state(g)->w;
	int c = war_waiting(w);

	if (w->stage == WAR_SETUP)
		snprintf(out, size, "before the war");
	else if (c < 0)
		snprintf(out, size, "the war is over");
	else
		snprintf(out, size, "round %d: %s %s", w->round, w->c[c].name,
		    w->battle.on ? "must answer" : "is called");
}

static void
wg_public_text(const struct game *g, struct buf *out)
{
	war_public(&state(g)->w, out);
}

static bool
wg_alive(const struct game *g, power_id p)
{
	const struct war *w = &state(g)->w;

	return p < w->n && w->c[p].alive;
}

static bool
wg_ended(const struct game *g, char *result, size_t size)
{
	(void)g, (void)result, (void)size;
	return false;
}

static void
wg_turn(struct turn *t)
{
	(void)t;	/* never adjudicated: the war has its own steps (tick, line) */
}

static const struct system_words wg_words = {
	.kind = "World Game war",
	.example_side = "Country-A",
	.setup_hint = "Name each country with COUNTRY <name> <points> [FORT], add delegations with\n"
	    "  DELEGATION <country> <addresses>, then START (alliances are signed before).",
};

static const struct system_boardless wg_boardless = {
	.line = wg_line,
	.alive = wg_alive,
	.stage = wg_stage,
	.tick = wg_tick,
	.status = wg_status,
	.public_text = wg_public_text,
};

const struct rule_system worldgame_system = {
	.name = "worldgame",
	.serves = SYS_BOARDLESS | SYS_OWN_CLOCK | SYS_OWN_STATUS | SYS_RECORD_PAGE,
	.words = &wg_words,
	.turn = wg_turn,
	.ended = wg_ended,
	.commands = wg_commands,
	.ncommands = (int)(sizeof wg_commands / sizeof wg_commands[0]),
	.fields = &wg_table,
	.state_new = wg_new,
	.state_free = wg_free,
	.loaded = wg_loaded,
	.help = wg_help,
	.boardless = &wg_boardless,
};
