/*
 * war.c — the World Game's war phase (war.h; the rules and every decision
 * with its reason: judge/systems/WORLDGAME.md).
 *
 * A battle has two sides, each with its last figure, its own points in the
 * battle and the loans made to it. Loans count first toward a figure and
 * the side's own total makes up the rest, so a borrower keeps back what it
 * can (every loan is at stake anyway: lost if it loses, repaid if it
 * wins). At a defeat the loser's whole holding (its own points in the
 * battle, its total and the loans to it) goes to the winner, whose lenders
 * are then repaid by their terms out of the winner's new total.
 */
#include "war.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/scan.h"
#include "../../lib/str.h"

/* ------------------------------------------------------------ helpers -- */

static void say(struct buf *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct buf *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void record(struct war *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
say(struct buf *msg, const char *fmt, ...)
{
	va_list ap;

	if (msg == NULL)
		return;
	va_start(ap, fmt);
	buf_vprintf(msg, fmt, ap);
	va_end(ap);
}

/* Append the reason and return -1. */
static int
refuse(struct buf *msg, const char *fmt, ...)
{
	va_list ap;

	if (msg != NULL) {
		va_start(ap, fmt);
		buf_vprintf(msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Record a public event (one line, cut to WAR_EVENT_SIZE - 1). */
static void
record(struct war *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->record[w->nevents % WAR_MAX_EVENTS], WAR_EVENT_SIZE, fmt, ap);
	va_end(ap);
	w->nevents++;
}

static const char *
name(const struct war *w, int c)
{
	return w->c[c].name;
}

/* Compare names ignoring case (strcmp's sign). */
static int
name_cmp(const char *a, const char *b)
{
	for (; *a && str_lc(*a) == str_lc(*b); a++, b++)
		;
	return (unsigned char)str_lc(*a) - (unsigned char)str_lc(*b);
}

/* The letters and digits of s[0..n), lower case, into out (size > 0). */
static void
squeeze(const char *s, size_t n, char *out, size_t size)
{
	size_t at = 0;

	for (; n > 0 && at + 1 < size; s++, n--)
		if ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
			out[at++] = str_lc(*s);
	out[at] = '\0';
}

static bool
valid(const struct war *w, int c)
{
	return c >= 0 && c < w->n;
}

static bool
has_terms(struct war_terms t)
{
	return t.per > 0;
}

static bool
same_terms(struct war_terms a, struct war_terms b)
{
	return a.repay == b.repay && a.per == b.per;
}

static long long
loans(const struct war_side *s)
{
	long long sum = 0;
	int i;

	for (i = 0; i < WAR_MAX_COUNTRIES; i++)
		sum += s->loan[i];
	return sum;
}

static int
alive_count(const struct war *w)
{
	int i, k = 0;

	for (i = 0; i < w->n; i++)
		k += w->c[i].alive;
	return k;
}

/* The side country c fights on, or -1. */
static int
side_of(const struct war *w, int c)
{
	if (!w->battle.on)
		return -1;
	if (w->battle.side[WAR_ATTACKER].country == c)
		return WAR_ATTACKER;
	if (w->battle.side[WAR_DEFENDER].country == c)
		return WAR_DEFENDER;
	return -1;
}

/* --------------------------------------------------------------- setup -- */

void
war_init(struct war *w)
{
	memset(w, 0, sizeof *w);
	w->stage = WAR_SETUP;
	w->call = -1;
	w->winner = -1;
}

int
war_find(const struct war *w, const char *s)
{
	int i;

	for (i = 0; i < w->n; i++)
		if (str_eq_nocase(w->c[i].name, s))
			return i;
	return -1;
}

static bool
name_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n >= WAR_NAME_SIZE)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '-' || s[i] == '_'))
			return false;
	return (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z');
}

int
war_add_country(struct war *w, const char *s, long long points, bool fort, struct buf *msg)
{
	char a[WAR_NAME_SIZE], b[WAR_NAME_SIZE];
	struct war_country *c;
	int i;

	if (w->stage != WAR_SETUP)
		return refuse(msg, "the war has started: no new country can join\n");
	if (w->n == WAR_MAX_COUNTRIES)
		return refuse(msg, "a war has at most %d countries\n", WAR_MAX_COUNTRIES);
	if (!name_ok(s))
		return refuse(msg, "a country's name is one word of 1 to %d letters, digits, "
		    "'-' or '_', beginning with a letter\n", WAR_NAME_SIZE - 1);
	if (points < 0 || points > WAR_MAX_POINTS)
		return refuse(msg, "a country starts with 0 to %lld points\n", WAR_MAX_POINTS);
	squeeze(s, strlen(s), a, sizeof a);
	for (i = 0; i < w->n; i++) {
		squeeze(name(w, i), strlen(name(w, i)), b, sizeof b);
		if (strcmp(a, b) == 0)
			return refuse(msg, "%s is too like %s: delegations could not tell them apart\n",
			    s, name(w, i));
	}
	c = &w->c[w->n];
	memset(c, 0, sizeof *c);
	str_copy(c->name, s, sizeof c->name);
	c->points = points;
	c->fort = fort;
	c->alive = true;
	c->conquered_by = -1;
	say(msg, "%s joins the war with %lld point%s%s.\n", s, points, points == 1 ? "" : "s",
	    fort ? " and a fort" : "");
	return w->n++;
}

int
war_ally(struct war *w, int a, int b, int repay, int per, struct buf *msg)
{
	struct war_terms t = { (short)repay, (short)per };

	if (!valid(w, a) || !valid(w, b))
		return refuse(msg, "no such country\n");
	if (w->stage != WAR_SETUP)
		return refuse(msg, "alliances are signed before the war; now you may talk, "
		    "but nothing you agree binds. During a battle you may OFFER points to a "
		    "side, without terms\n");
	if (a == b)
		return refuse(msg, "a country cannot ally with itself\n");
	if (repay < 1 || repay > WAR_MAX_TERMS || per < 1 || per > WAR_MAX_TERMS)
		return refuse(msg, "terms are 1 to %d points paid back FOR 1 to %d lent, "
		    "as in TERMS 2 FOR 1\n", WAR_MAX_TERMS, WAR_MAX_TERMS);
	if (same_terms(w->ally[a][b], t))
		return refuse(msg, "%s and %s are already allied on %d FOR %d\n",
		    name(w, a), name(w, b), repay, per);
	w->offer[a][b] = t;
	if (same_terms(w->offer[b][a], t)) {
		w->ally[a][b] = w->ally[b][a] = t;
		memset(&w->offer[a][b], 0, sizeof t);
		memset(&w->offer[b][a], 0, sizeof t);
		say(msg, "%s and %s are allied: %d paid back for each %d lent. It binds.\n",
		    name(w, a), name(w, b), repay, per);
		return 0;
	}
	say(msg, "You propose an alliance to %s: %d paid back for each %d lent.\n", name(w, b),
	    repay, per);
	if (has_terms(w->offer[b][a]))
		say(msg, "%s proposed %d FOR %d: different terms bind nothing until both "
		    "send the same.\n", name(w, b), w->offer[b][a].repay, w->offer[b][a].per);
	else
		say(msg, "It binds when %s sends ALLY %s TERMS %d FOR %d.\n", name(w, b),
		    name(w, a), repay, per);
	if (has_terms(w->ally[a][b]))
		say(msg, "Until then the alliance stays on %d FOR %d.\n", w->ally[a][b].repay,
		    w->ally[a][b].per);
	return 0;
}

/* ------------------------------------------------------------- the call -- */

/* Give the call to the next living country after c in alphabetical order
 * (the first one when c is -1); past the end of the alphabet a new round
 * begins. Returns true when it did. */
static bool
next_call(struct war *w, int c)
{
	int i, best = -1, first = -1;
	bool wrapped = false;

	for (i = 0; i < w->n; i++) {
		if (!w->c[i].alive)
			continue;
		if (first < 0 || name_cmp(name(w, i), name(w, first)) < 0)
			first = i;
		if (c >= 0 && name_cmp(name(w, i), name(w, c)) > 0 &&
		    (best < 0 || name_cmp(name(w, i), name(w, best)) < 0))
			best = i;
	}
	if (best < 0) {
		best = first;
		wrapped = c >= 0;
		if (wrapped)
			w->round++;
		for (i = 0; i < w->n; i++)
			w->c[i].called = false;
	}
	w->call = best;
	w->c[best].called = true;
	w->c[best].attacked = false;
	return wrapped;
}

/* Announce the call; new_round: next_call began a round with it (a
 * country first in the alphabet only because the one before it was
 * conquered begins none). */
static void
say_call(struct war *w, bool new_round)
{
	if (w->stage != WAR_ON || w->battle.on)
		return;
	if (new_round)
		record(w, "Round %d begins. %s's call: attack or pass.", w->round, name(w, w->call));
	else
		record(w, "%s's call: attack or pass.", name(w, w->call));
}

/* The war is over: c won (-1: a tie). */
static void
finish(struct war *w, int c)
{
	w->stage = WAR_OVER;
	w->winner = c;
	w->call = -1;
}

/* The largest total wins; a tie ends the war without a single victor. */
static void
end_by_totals(struct war *w)
{
	long long top = -1;
	int i, best = -1, tied = 0;

	for (i = 0; i < w->n; i++) {
		if (!w->c[i].alive)
			continue;
		if (w->c[i].points > top) {
			top = w->c[i].points;
			best = i;
			tied = 0;
		} else if (w->c[i].points == top)
			tied++;
	}
	if (tied) {
		finish(w, -1);
		record(w, "%d countries share the largest total, %lld: a tie for the game master.",
		    tied + 1, top);
		return;
	}
	finish(w, best);
	record(w, "%s has the largest total, %lld, and wins the war.", name(w, best), top);
}

/* A whole round of passes: the war is over. */
static void
end_by_passes(struct war *w)
{
	record(w, "A whole round of passes: the war is over.");
	end_by_totals(w);
}

int
war_end(struct war *w, struct buf *msg)
{
	if (w->stage != WAR_ON)
		return refuse(msg, "the war is not under way\n");
	if (w->battle.on)
		return refuse(msg, "a battle is under way: it is decided first (or PAUSE the game)\n");
	record(w, "The game master ends the war.");
	end_by_totals(w);
	return 0;
}

int
war_start(struct war *w, struct buf *msg)
{
	int i;

	if (w->stage != WAR_SETUP)
		return refuse(msg, "the war has already started\n");
	if (w->n < 2)
		return refuse(msg, "a war needs at least two countries\n");
	for (i = 0; i < w->n; i++)
		if (w->c[i].fort)
			w->c[i].points += WAR_FORT_POINTS;
	memset(w->offer, 0, sizeof w->offer);
	w->stage = WAR_ON;
	w->round = 1;
	w->passes = 0;
	next_call(w, -1);
	record(w, "The war begins.");
	say_call(w, false);
	say(msg, "The war has started: %s is called first.\n", name(w, w->call));
	return 0;
}

/* May who act as the called country now? */
static int
check_call(const struct war *w, int who, struct buf *msg)
{
	if (w->stage != WAR_ON)
		return refuse(msg, w->stage == WAR_SETUP ? "the war has not started\n" :
		    "the war is over\n");
	if (!valid(w, who) || !w->c[who].alive)
		return refuse(msg, "a conquered country no longer acts\n");
	if (w->battle.on)
		return refuse(msg, "a battle is under way: %s against %s\n",
		    name(w, w->battle.side[WAR_ATTACKER].country),
		    name(w, w->battle.side[WAR_DEFENDER].country));
	if (who != w->call) {
		if (w->c[who].attacked)
			return refuse(msg, "you have attacked this round: you may attack again "
			    "when every other country has had its call\n");
		return refuse(msg, "it is %s's call, not yours\n", name(w, w->call));
	}
	return 0;
}

int
war_pass(struct war *w, int who, struct buf *msg)
{
	if (check_call(w, who, msg) < 0)
		return -1;
	record(w, "%s passes.", name(w, who));
	say(msg, "You pass.\n");
	if (++w->passes >= alive_count(w)) {
		end_by_passes(w);
		return 0;
	}
	say_call(w, next_call(w, who));
	return 0;
}

int
war_attack(struct war *w, int who, int target, long long points, struct buf *msg)
{
	struct war_battle *b = &w->battle;

	if (check_call(w, who, msg) < 0)
		return -1;
	if (!valid(w, target) || target == who)
		return refuse(msg, "attack another country\n");
	if (!w->c[target].alive)
		return refuse(msg, "%s has been conquered\n", name(w, target));
	if (points < 1)
		return refuse(msg, "attack with at least 1 point\n");
	if (points > w->c[who].points)
		return refuse(msg, "you have only %lld point%s\n", w->c[who].points,
		    w->c[who].points == 1 ? "" : "s");
	w->c[who].points -= points;
	w->c[who].attacked = true;
	w->passes = 0;
	if (has_terms(w->ally[who][target])) {
		/* "The alliance does not apply if one country betrays the
		 * other" [3]: it ends both ways, and cannot be signed again. */
		memset(&w->ally[who][target], 0, sizeof w->ally[who][target]);
		memset(&w->ally[target][who], 0, sizeof w->ally[target][who]);
		w->betrayed[who][target] = true;
		say(msg, "You attack your ally %s: your alliance with it is ended for the rest "
		    "of the war.\n", name(w, target));
	}
	if (points <= w->c[target].points) {
		w->c[target].points += points;
		record(w, "%s attacks %s with %lld: not more than %s's total. "
		    "The attack is lost: its points go to %s.", name(w, who), name(w, target),
		    points, name(w, target), name(w, target));
		say(msg, "Your attack did not exceed %s's total: your %lld %s to it. "
		    "Your total is now %lld.\n", name(w, target), points,
		    points == 1 ? "point goes" : "points go", w->c[who].points);
		say_call(w, next_call(w, who));
		return 0;
	}
	memset(b, 0, sizeof *b);
	b->on = true;
	b->side[WAR_ATTACKER].country = who;
	b->side[WAR_ATTACKER].figure = points;
	b->side[WAR_ATTACKER].own = points;
	b->side[WAR_DEFENDER].country = target;
	b->answer = WAR_DEFENDER;
	record(w, "%s attacks %s with %lld. %s must answer with more than %lld.",
	    name(w, who), name(w, target), points, name(w, target), points);
	say(msg, "You attack %s with %lld. Your total is now %lld.\n", name(w, target), points,
	    w->c[who].points);
	return 0;
}

/* ------------------------------------------------------------ battles -- */

/* The side that must answer is who's, or the reason. */
static int
check_answer(const struct war *w, int who, struct buf *msg)
{
	int s;

	if (!w->battle.on)
		return refuse(msg, "no battle is under way\n");
	if ((s = side_of(w, who)) < 0)
		return refuse(msg, "you are not fighting in this battle\n");
	if (s != w->battle.answer)
		return refuse(msg, "%s must answer now, not you: your %lld stands\n",
		    name(w, w->battle.side[w->battle.answer].country), w->battle.side[s].figure);
	return 0;
}

/*
 * Side win_side wins the battle: the loser's holding goes to the winner,
 * loans to the loser are lost, the winner repays its lenders by their
 * terms (all of them in proportion when its total is short), the loser is
 * out, and the call goes on after the attacker.
 */
static void
conquer(struct war *w, int win_side, struct buf *msg)
{
	struct war_battle *b = &w->battle;
	struct war_side *ws = &b->side[win_side], *ls = &b->side[!win_side];
	int wc = ws->country, lc = ls->country, attacker = b->side[WAR_ATTACKER].country, i;
	long long owed[WAR_MAX_COUNTRIES], sum = 0, total, paid = 0;

	total = w->c[wc].points + ws->own + loans(ws) + w->c[lc].points + ls->own + loans(ls);
	for (i = 0; i < WAR_MAX_COUNTRIES; i++) {
		owed[i] = 0;
		if (ws->loan[i] > 0)
			owed[i] = war_owed(w, i, wc, ws->loan[i]);
		sum += owed[i];
	}
	for (i = 0; i < WAR_MAX_COUNTRIES && sum > 0; i++) {
		long long pay = sum <= total ? owed[i] : owed[i] * total / sum;
		w->c[i].points += pay;
		paid += pay;
	}
	w->c[wc].points = total - paid;
	w->c[lc].points = 0;
	w->c[lc].alive = false;
	w->c[lc].conquered_by = wc;
	memset(b, 0, sizeof *b);
	for (i = 0; i < w->n; i++) {
		memset(&w->ally[lc][i], 0, sizeof w->ally[lc][i]);
		memset(&w->ally[i][lc], 0, sizeof w->ally[i][lc]);
	}
	/* Everyone learns the winner's total as it stands, after repaying:
	 * what it borrowed and paid back stays between it and its lenders. */
	record(w, "%s takes %s: its total is now %lld.", name(w, wc), name(w, lc), total - paid);
	say(msg, "%s takes %s.\n", name(w, wc), name(w, lc));
	w->passes = 0;
	if (alive_count(w) == 1) {
		finish(w, wc);
		record(w, "%s is the last country standing and wins the war.", name(w, wc));
		return;
	}
	say_call(w, next_call(w, attacker));
}

int
war_counter(struct war *w, int who, long long figure, struct buf *msg)
{
	struct war_side *s, *o;
	long long have, need;

	if (check_answer(w, who, msg) < 0)
		return -1;
	s = &w->battle.side[w->battle.answer];
	o = &w->battle.side[!w->battle.answer];
	if (figure <= o->figure)
		return refuse(msg, "you must answer with more than %s's %lld\n",
		    name(w, o->country), o->figure);
	have = s->own + w->c[who].points + loans(s);
	if (figure > have)
		return refuse(msg, "you have only %lld in all (your points in the battle, your "
		    "total and the loans to you)\n", have);
	need = figure - loans(s);
	if (need > s->own) {
		w->c[who].points -= need - s->own;
		s->own = need;
	}
	s->figure = figure;
	w->battle.answer = !w->battle.answer;
	record(w, "%s answers with %lld. %s must answer with more than %lld.", name(w, who),
	    figure, name(w, o->country), figure);
	say(msg, "You answer with %lld. Your total outside the battle is now %lld.\n", figure,
	    w->c[who].points);
	return 0;
}

int
war_yield(struct war *w, int who, struct buf *msg)
{
	if (check_answer(w, who, msg) < 0)
		return -1;
	record(w, "%s gives up.", name(w, who));
	say(msg, "You give up.\n");
	conquer(w, !w->battle.answer, msg);
	return 0;
}

int
war_deadline(struct war *w, struct buf *msg)
{
	int c;

	if (w->stage != WAR_ON)
		return refuse(msg, "the war is not on\n");
	if (w->battle.on) {
		c = w->battle.side[w->battle.answer].country;
		record(w, "%s did not answer by the deadline.", name(w, c));
		conquer(w, !w->battle.answer, msg);
		return 0;
	}
	c = w->call;
	record(w, "%s did not answer by the deadline.", name(w, c));
	say(msg, "%s did not answer by the deadline: it passes.\n", name(w, c));
	return war_pass(w, c, NULL);
}

/* Why lender may not LEND to borrower on written terms (written: LEND),
 * or OFFER to it without them, as the reason; 0 when it may. */
static int
check_terms(const struct war *w, int lender, int borrower, bool written, struct buf *msg)
{
	bool allied = has_terms(w->ally[lender][borrower]);

	if (!written && allied)
		return refuse(msg, "you have a written alliance with %s: LEND on its terms\n",
		    name(w, borrower));
	if (written && !allied && (w->betrayed[lender][borrower] || w->betrayed[borrower][lender]))
		return refuse(msg, "your alliance with %s ended when %s attacked %s: it binds "
		    "neither of you for the rest of the war. You may still OFFER points, "
		    "without terms\n", name(w, borrower),
		    w->betrayed[lender][borrower] ? "you" : name(w, borrower),
		    w->betrayed[lender][borrower] ? "it" : "you");
	if (written && !allied)
		return refuse(msg, "you have no written alliance with %s: only allies who signed "
		    "before the war may lend on terms. You may OFFER points, without terms: "
		    "if %s wins, they come back point for point\n", name(w, borrower),
		    name(w, borrower));
	return 0;
}

/* LEND (written) or OFFER: lender puts points from its total behind
 * borrower, a side of the battle. */
static int
put_points(struct war *w, int lender, int borrower, long long points, bool written,
    struct buf *msg)
{
	struct war_battle *b = &w->battle;
	int s, other;

	if (!b->on)
		return refuse(msg, "loans are made during a battle, to one of its sides\n");
	if (!valid(w, lender) || !w->c[lender].alive)
		return refuse(msg, "a conquered country no longer acts\n");
	if (!valid(w, borrower) || (s = side_of(w, borrower)) < 0)
		return refuse(msg, "%s is not fighting: lend only to a side of the battle\n",
		    valid(w, borrower) ? name(w, borrower) : "that country");
	other = b->side[!s].country;
	if (lender == borrower)
		return refuse(msg, "you cannot lend to yourself: COUNTER uses your own points\n");
	if (lender == other)
		return refuse(msg, "you are fighting %s: you cannot lend to it\n", name(w, borrower));
	if (check_terms(w, lender, borrower, written, msg) < 0)
		return -1;
	if (b->side[!s].loan[lender] > 0)
		return refuse(msg, "you already lend to %s: you cannot lend to both sides\n",
		    name(w, other));
	if (points < 1)
		return refuse(msg, "lend at least 1 point\n");
	if (points > w->c[lender].points)
		return refuse(msg, "you have only %lld point%s\n", w->c[lender].points,
		    w->c[lender].points == 1 ? "" : "s");
	w->c[lender].points -= points;
	b->side[s].loan[lender] += points;
	say(msg, "You %s %lld to %s (%lld in all%s). If %s wins, you get %lld back; if it "
	    "loses, your %s is lost. Your total is now %lld.\n", written ? "lend" : "offer",
	    points, name(w, borrower), b->side[s].loan[lender],
	    written ? "" : ", without written terms", name(w, borrower),
	    war_owed(w, lender, borrower, b->side[s].loan[lender]),
	    written ? "loan" : "offer", w->c[lender].points);
	return 0;
}

int
war_lend(struct war *w, int lender, int borrower, long long points, struct buf *msg)
{
	return put_points(w, lender, borrower, points, true, msg);
}

int
war_offer(struct war *w, int lender, int borrower, long long points, struct buf *msg)
{
	return put_points(w, lender, borrower, points, false, msg);
}

int
war_withdraw(struct war *w, int lender, struct buf *msg)
{
	struct war_battle *b = &w->battle;
	struct war_side *sd;
	long long amount, have;
	int s;

	if (!b->on)
		return refuse(msg, "no battle is under way: there is no loan to take back\n");
	if (!valid(w, lender))
		return refuse(msg, "no such country\n");
	for (s = 0; s < 2 && b->side[s].loan[lender] == 0; s++)
		;
	if (s == 2)
		return refuse(msg, "you have no loan in this battle\n");
	sd = &b->side[s];
	amount = sd->loan[lender];
	sd->loan[lender] = 0;
	w->c[lender].points += amount;
	say(msg, "You take back your %s of %lld from %s. Your total is now %lld.\n",
	    has_terms(w->ally[lender][sd->country]) ? "loan" : "offer", amount,
	    name(w, sd->country), w->c[lender].points);
	have = sd->own + loans(sd);
	if (sd->figure <= have)
		return 0;
	sd->figure = have;
	record(w, "A loan was taken back: %s's figure falls to %lld.", name(w, sd->country), have);
	if (b->answer != s && sd->figure <= b->side[!s].figure) {
		b->answer = s;
		record(w, "%s must answer again with more than %lld.", name(w, sd->country),
		    b->side[!s].figure);
	}
	return 0;
}

int
war_waiting(const struct war *w)
{
	if (w->stage != WAR_ON)
		return -1;
	return w->battle.on ? w->battle.side[w->battle.answer].country : w->call;
}

/* ----------------------------------------------------------- commands -- */

static const struct {
	const char *word;
	enum war_verb verb;
} verbs[] = {
	{ "attack", WAR_ATTACK },
	{ "pass", WAR_PASS },
	{ "lend", WAR_LEND },
	{ "loan", WAR_LEND },
	{ "offer", WAR_OFFER },
	{ "withdraw", WAR_WITHDRAW },
	{ "counter", WAR_COUNTER },
	{ "counterattack", WAR_COUNTER },
	{ "counter-attack", WAR_COUNTER },
	{ "ally", WAR_ALLY },
	{ "alliance", WAR_ALLY },
	{ "yield", WAR_YIELD },
	{ "surrender", WAR_YIELD },
};

/* Words that only join the others ("WITH 2000", "TO Country-E"), and
 * courtesy at either end ("ok", "please"): passed over without a note. */
static const char *const fillers[] = {
	"with", "to", "points", "point", "pts", "terms", "for", "loan", "offer", "my",
	"ok", "okay", "please", "pls", "plz", "thanks", "thank", "you", "thx",
};

#define MAX_WORDS 16

struct word {
	const char *p;
	size_t n;
};

/* The verb word w names, exactly or misspelt by one letter (a note). */
static int
read_verb(struct word w, enum war_verb *verb, struct buf *msg)
{
	size_t i;
	int found = -1;

	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (str_eqn_nocase(w.p, w.n, verbs[i].word)) {
			*verb = verbs[i].verb;
			return 0;
		}
	/* A beginning of three letters or more: ATT, COUNT, WITHD. */
	for (i = 0; w.n >= 3 && i < sizeof verbs / sizeof verbs[0]; i++) {
		char head[32];

		if (w.n > strlen(verbs[i].word) || (found >= 0 && verbs[found].verb == verbs[i].verb))
			continue;
		snprintf(head, sizeof head, "%.*s", (int)w.n, verbs[i].word);
		if (!str_eqn_nocase(w.p, w.n, head))
			continue;
		if (found >= 0)
			return refuse(msg, "'%.*s' could be %s or %s: write more of the command\n",
			    (int)w.n, w.p, verbs[found].word, verbs[i].word);
		found = (int)i;
	}
	if (found >= 0) {
		*verb = verbs[found].verb;
		say(msg, "'%.*s' read as %s\n", (int)w.n, w.p, verbs[found].word);
		return 0;
	}
	for (i = 0; w.n >= 3 && i < sizeof verbs / sizeof verbs[0]; i++) {
		if (str_edit_distance(w.p, w.n, verbs[i].word, strlen(verbs[i].word), 1) > 1)
			continue;
		if (found >= 0 && verbs[found].verb != verbs[i].verb)
			return refuse(msg, "'%.*s' could be %s or %s: write the command in full\n",
			    (int)w.n, w.p, verbs[found].word, verbs[i].word);
		found = (int)i;
	}
	if (found < 0)
		return refuse(msg, "'%.*s' is not a command of the war: ATTACK, PASS, LEND, "
		    "OFFER, WITHDRAW, COUNTER, ALLY or YIELD\n", (int)w.n, w.p);
	*verb = verbs[found].verb;
	say(msg, "'%.*s' read as %s\n", (int)w.n, w.p, verbs[found].word);
	return 0;
}

/* Split line into words at blanks, dropping a trailing '.', '!', '?', ';' or ','. */
static int
split(const char *line, size_t len, struct word *w, struct buf *msg)
{
	size_t i = 0, start;
	int n = 0;

	while (i < len) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			i++;
		if (n == MAX_WORDS)
			return refuse(msg, "too many words: a command is a short line\n");
		w[n].p = line + start;
		w[n].n = i - start;
		while (w[n].n > 0 && strchr(".!?;,", w[n].p[w[n].n - 1]) != NULL)
			w[n].n--;
		if (w[n].n > 0)
			n++;
	}
	return n;
}

/* A number of points: digits, or digits in groups of three with commas
 * ("2,000"). Returns 1 and *out, 0 when w is no number, -1 (with the
 * reason) when it begins with a digit but cannot be read. */
static int
read_number(struct word w, long long *out, struct buf *msg)
{
	long long v = 0;
	size_t i, group = 0;
	bool commas = false;

	if (w.n == 0 || w.p[0] < '0' || w.p[0] > '9')
		return 0;
	for (i = 0; i < w.n; i++) {
		if (w.p[i] == ',') {
			if ((commas && group != 3) || (!commas && (group < 1 || group > 3)))
				break;
			commas = true;
			group = 0;
			continue;
		}
		if (w.p[i] < '0' || w.p[i] > '9' || v > WAR_MAX_POINTS)
			break;
		v = v * 10 + (w.p[i] - '0');
		group++;
	}
	if (i < w.n || (commas && group != 3) || v > WAR_MAX_POINTS)
		return refuse(msg, "cannot read '%.*s' as points: write a whole number up to "
		    "%lld, as 2000 or 2,000\n", (int)w.n, w.p, WAR_MAX_POINTS);
	*out = v;
	return 1;
}

/* The words before the verb that only say who speaks ("we attack ...",
 * "I pass"): how many of the n words at w are such. */
static int
speaker(const struct word *w, int n)
{
	static const char *const who[] = { "we", "i" };
	int k = 0;
	size_t i;

	for (; k < n; k++) {
		for (i = 0; i < sizeof who / sizeof who[0]; i++)
			if (str_eqn_nocase(w[k].p, w[k].n, who[i]))
				break;
		if (i == sizeof who / sizeof who[0])
			break;
	}
	return k;
}

static bool
filler(struct word w)
{
	char key[8];
	size_t i;

	squeeze(w.p, w.n, key, sizeof key);
	if (key[0] == '\0')
		return true;	/* "-", "?": no letter or digit */
	for (i = 0; i < sizeof fillers / sizeof fillers[0]; i++)
		if (str_eqn_nocase(w.p, w.n, fillers[i]))
			return true;
	return false;
}

/* The countries' names: "A, B or C". */
static void
list_names(const struct war *w, const int *which, int k, struct buf *msg)
{
	int i;

	for (i = 0; i < k; i++)
		say(msg, "%s%s", i == 0 ? "" : i == k - 1 ? " or " : ", ", name(w, which[i]));
}

/* The countries nearest to key within limit edits, into hits; how many. */
static int
nearest(const struct war *w, const char *key, int limit, int *hits)
{
	char cand[WAR_NAME_SIZE];
	int i, d, best = limit + 1, n = 0;

	for (i = 0; i < w->n; i++) {
		squeeze(name(w, i), strlen(name(w, i)), cand, sizeof cand);
		d = str_edit_distance(key, strlen(key), cand, strlen(cand), limit);
		if (d < best) {
			best = d;
			n = 0;
		}
		if (d == best && d <= limit)
			hits[n++] = i;
	}
	return n;
}

/* The one country with a part of its name (between '-' and '_') that is
 * key ("e" for Country-E), or -1 when none or several have one. */
static int
by_part(const struct war *w, const char *key)
{
	char part[WAR_NAME_SIZE];
	int i, found = -1;

	for (i = 0; i < w->n; i++) {
		const char *s = name(w, i);
		size_t n;

		for (; *s; s += n + (s[n] != '\0')) {
			n = strcspn(s, "-_");
			squeeze(s, n, part, sizeof part);
			if (part[0] == '\0' || strcmp(part, key) != 0 || found == i)
				continue;
			if (found >= 0)
				return -1;
			found = i;
		}
	}
	return found;
}

/* s[0..n) in lower case, each run of blanks, '-' and '_' one '-'. */
static void
words_of(const char *s, size_t n, char *out, size_t size)
{
	size_t at = 0;

	for (; n > 0 && at + 1 < size; s++, n--) {
		bool sep = *s == ' ' || *s == '\t' || *s == '-' || *s == '_';
		if (!sep)
			out[at++] = str_lc(*s);
		else if (at == 0 || out[at - 1] != '-')
			out[at++] = '-';
	}
	out[at] = '\0';
}

/* Country c found for text: a note when text is not its name's words
 * (case and the signs between them aside: "country b" is Country-B):
 * "'countryc' read as Country-C". Returns c. */
static int
found(const struct war *w, int c, const char *text, size_t len, struct buf *msg)
{
	char a[64], b[WAR_NAME_SIZE];

	words_of(text, len, a, sizeof a);
	words_of(name(w, c), strlen(name(w, c)), b, sizeof b);
	if (strcmp(a, b) != 0)
		say(msg, "'%.*s' read as %s\n", (int)len, text, name(w, c));
	return c;
}

int
war_match_country(const struct war *w, const char *text, size_t len, struct buf *msg)
{
	char key[64], cand[WAR_NAME_SIZE];
	int hits[WAR_MAX_COUNTRIES], nhits = 0, i;
	size_t klen;

	squeeze(text, len, key, sizeof key);
	if ((klen = strlen(key)) == 0)
		return refuse(msg, "no country named\n");
	for (i = 0; i < w->n; i++) {
		squeeze(name(w, i), strlen(name(w, i)), cand, sizeof cand);
		if (strcmp(cand, key) == 0)
			return found(w, i, text, len, msg);
		if (strncmp(cand, key, klen) == 0)
			hits[nhits++] = i;
	}
	if ((i = by_part(w, key)) >= 0)
		return found(w, i, text, len, msg);
	if (nhits == 0)
		nhits = nearest(w, key, klen <= 4 ? 1 : 2, hits);
	if (nhits == 1) {
		say(msg, "'%.*s' read as %s\n", (int)len, text, name(w, hits[0]));
		return hits[0];
	}
	if (nhits > 1) {
		say(msg, "'%.*s' could be ", (int)len, text);
		list_names(w, hits, nhits, msg);
		return refuse(msg, ": write more of the name\n");
	}
	say(msg, "no country is called '%.*s'", (int)len, text);
	if ((nhits = nearest(w, key, 5, hits)) > 0) {
		say(msg, ": did you mean ");
		list_names(w, hits, nhits, msg);
		return refuse(msg, "?\n");
	}
	for (i = 0; i < w->n; i++)
		hits[i] = i;
	say(msg, ": the countries are ");
	list_names(w, hits, w->n, msg);
	return refuse(msg, "\n");
}

/* The country whose name text is, letters and digits alone, or -1. */
static int
exact(const struct war *w, const char *text, size_t len)
{
	char key[64], cand[WAR_NAME_SIZE];
	int i;

	squeeze(text, len, key, sizeof key);
	for (i = 0; key[0] != '\0' && i < w->n; i++) {
		squeeze(name(w, i), strlen(name(w, i)), cand, sizeof cand);
		if (strcmp(cand, key) == 0)
			return i;
	}
	return -1;
}

/* How each verb is written, for the reasons. */
static const char *
usage(enum war_verb v)
{
	switch (v) {
	case WAR_ATTACK:	return "ATTACK Country-E WITH 2000";
	case WAR_LEND:		return "LEND 500 TO Country-E";
	case WAR_OFFER:		return "OFFER 500 TO Country-E";
	case WAR_COUNTER:	return "COUNTER 2300";
	case WAR_ALLY:		return "ALLY Country-B TERMS 2 FOR 1";
	case WAR_PASS:		return "PASS";
	case WAR_WITHDRAW:	return "WITHDRAW LOAN";
	case WAR_YIELD:		return "YIELD";
	}
	return "";
}

/* The verb word w is, exactly ("surrender", not "surender"), or -1. */
static int
verb_word(struct word w)
{
	size_t i;

	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (str_eqn_nocase(w.p, w.n, verbs[i].word))
			return (int)verbs[i].verb;
	return -1;
}

/* A command after chatter ("traitors!!! ok we surrender"): when the word
 * at k (past "we") is no command but a later one is one, exactly, the
 * words before it are passed over (with a note, unless only courtesy) and
 * its place is returned; 0 when the command comes first or there is none;
 * -1, with the reason, when the line has two meanings: a "not", "if" or
 * "should" before the command ("we will not surrender", "maybe we should
 * attack ..."), or another command after it. */
static int
later_verb(const struct word *w, int n, int k, struct buf *msg)
{
	static const char *const nots[] = { "not", "no", "never", "dont", "don't", "won't", "wont",
		"cannot", "can't", "cant", "if", "unless", "or", "should", "could", "would",
		"might", "maybe", "perhaps" };
	enum war_verb verb;
	int v, i, other;
	size_t j;
	bool chat = false;

	if (read_verb(w[k], &verb, NULL) == 0)
		return 0;
	for (v = k + 1; v < n && verb_word(w[v]) < 0; v++)
		;
	if (v == n)
		return 0;
	for (i = 0; i < v; i++) {
		for (j = 0; j < sizeof nots / sizeof nots[0]; j++)
			if (str_eqn_nocase(w[i].p, w[i].n, nots[j]))
				return refuse(msg, "'%.*s' has a '%.*s' before the command: two "
				    "meanings. Send the command alone, as %s\n",
				    (int)(w[n - 1].p + w[n - 1].n - w[0].p), w[0].p, (int)w[i].n,
				    w[i].p, usage((enum war_verb)verb_word(w[v])));
		chat |= !filler(w[i]) && speaker(w + i, v - i) == 0;
	}
	for (i = v + 2; i < n; i++)
		if ((other = verb_word(w[i])) >= 0 && other != verb_word(w[v]) && !filler(w[i]))
			return refuse(msg, "'%.*s' names two commands: send one a line, as %s\n",
			    (int)(w[n - 1].p + w[n - 1].n - w[0].p), w[0].p,
			    usage((enum war_verb)verb_word(w[v])));
	if (chat)
		say(msg, "'%.*s' ignored\n", (int)(w[v - 1].p + w[v - 1].n - w[0].p), w[0].p);
	return v;
}

int
war_read_command(const struct war *w, const char *line, size_t len, struct war_cmd *out,
    struct buf *msg)
{
	struct word words[MAX_WORDS];
	long long num[MAX_WORDS];
	const char *np = NULL, *ne = NULL, *cp = NULL, *ce = NULL;
	int n, i, k, nnum = 0, wants_name, wants_num, rest[MAX_WORDS], nrest = 0, m;

	memset(out, 0, sizeof *out);
	out->country = -1;
	if ((n = split(line, len, words, msg)) < 0)
		return -1;
	k = speaker(words, n);
	if (n == k)
		return refuse(msg, "an empty command\n");
	if ((i = later_verb(words, n, k, msg)) < 0)
		return -1;
	if (i > 0)
		k = i;
	if (read_verb(words[k], &out->verb, msg) < 0)
		return -1;
	for (i = k + 1; i < n; i++) {
		if ((k = read_number(words[i], &num[nnum], msg)) < 0)
			return -1;
		if (k)
			nnum++;
		else if (!filler(words[i]))
			rest[nrest++] = i;
	}
	wants_name = out->verb == WAR_ATTACK || out->verb == WAR_LEND || out->verb == WAR_OFFER ||
	    out->verb == WAR_ALLY;
	if (nrest > 0) {
		np = words[rest[0]].p;
		ne = words[rest[nrest - 1]].p + words[rest[nrest - 1]].n;
	}
	if (wants_name && nrest > 1) {
		/* The name is its first word, or the first few next to each
		 * other when together they are a country's ("country e"); the
		 * words after it are chatter ("pls win this"). */
		for (m = 1; m < nrest && m < 3 && rest[m] == rest[0] + m; m++)
			;
		for (; m > 1 && exact(w, np, (size_t)(words[rest[m - 1]].p + words[rest[m - 1]].n -
		    np)) < 0; m--)
			;
		ne = words[rest[m - 1]].p + words[rest[m - 1]].n;
		if (m < nrest) {
			cp = words[rest[m]].p;
			ce = words[rest[nrest - 1]].p + words[rest[nrest - 1]].n;
		}
		for (i = m; i < nrest; i++)
			if (exact(w, words[rest[i]].p, words[rest[i]].n) >= 0)
				return refuse(msg, "'%.*s' names two countries: write one, as %s\n",
				    (int)(ce - np), np, usage(out->verb));
	}
	wants_num = out->verb == WAR_ATTACK || out->verb == WAR_LEND || out->verb == WAR_OFFER ||
	    out->verb == WAR_COUNTER;
	if (wants_name && np == NULL)
		return refuse(msg, "which country? Write %s\n", usage(out->verb));
	if ((wants_num && nnum != 1) || (out->verb == WAR_ALLY && nnum != 0 && nnum != 2))
		return refuse(msg, "%s points? Write %s\n", nnum ? "which" : "how many",
		    usage(out->verb));
	if (!wants_name && np != NULL)
		say(msg, "'%.*s' ignored: %s\n", (int)(ne - np), np, usage(out->verb));
	if (!wants_num && out->verb != WAR_ALLY && nnum)
		say(msg, "the number ignored: %s\n", usage(out->verb));
	if (wants_name && (out->country = war_match_country(w, np, (size_t)(ne - np), msg)) < 0)
		return -1;
	if (cp != NULL)
		say(msg, "'%.*s' ignored\n", (int)(ce - cp), cp);
	out->points = wants_num ? num[0] : 0;
	if (out->verb == WAR_ALLY) {
		out->repay = nnum ? (int)(num[0] < 1000 ? num[0] : 1000) : 1;
		out->per = nnum ? (int)(num[1] < 1000 ? num[1] : 1000) : 1;
	}
	return 0;
}

int
war_do(struct war *w, int who, const struct war_cmd *cmd, struct buf *msg)
{
	switch (cmd->verb) {
	case WAR_ATTACK:	return war_attack(w, who, cmd->country, cmd->points, msg);
	case WAR_PASS:		return war_pass(w, who, msg);
	case WAR_LEND:		return war_lend(w, who, cmd->country, cmd->points, msg);
	case WAR_WITHDRAW:	return war_withdraw(w, who, msg);
	case WAR_COUNTER:	return war_counter(w, who, cmd->points, msg);
	case WAR_ALLY:		return war_ally(w, who, cmd->country, cmd->repay, cmd->per, msg);
	case WAR_YIELD:		return war_yield(w, who, msg);
	case WAR_OFFER:		return war_offer(w, who, cmd->country, cmd->points, msg);
	}
	return refuse(msg, "unknown command\n");
}

/* -------------------------------------------------------------- views -- */

void
war_news(const struct war *w, long long since, struct buf *out)
{
	long long k = since;

	if (k < w->nevents - WAR_MAX_EVENTS)
		k = w->nevents - WAR_MAX_EVENTS;
	if (k < 0)
		k = 0;
	for (; k < w->nevents; k++)
		buf_printf(out, "%s\n", w->record[k % WAR_MAX_EVENTS]);
}

/* Whose turn it is, in words. */
static void
turn_line(const struct war *w, struct buf *out)
{
	const struct war_battle *b = &w->battle;

	if (w->stage == WAR_SETUP) {
		buf_puts(out, "The war has not started: alliances may be signed (ALLY).\n");
		return;
	}
	if (w->stage == WAR_OVER) {
		if (w->winner >= 0)
			buf_printf(out, "The war is over: %s has won.\n", name(w, w->winner));
		else
			buf_puts(out, "The war is over without a single victor.\n");
		return;
	}
	if (!b->on) {
		buf_printf(out, "Round %d. %s's call: ATTACK or PASS.\n", w->round,
		    name(w, w->call));
		return;
	}
	buf_printf(out, "Round %d. Battle: %s attacks %s.\n", w->round,
	    name(w, b->side[WAR_ATTACKER].country), name(w, b->side[WAR_DEFENDER].country));
	buf_printf(out, "%s must answer with more than %lld (COUNTER), or YIELD.\n",
	    name(w, b->side[b->answer].country), b->side[!b->answer].figure);
}

/* The countries, which are out and who took them. */
static void
countries_line(const struct war *w, struct buf *out)
{
	int i;

	buf_puts(out, "Countries:");
	for (i = 0; i < w->n; i++) {
		buf_printf(out, "%s %s", i ? "," : "", name(w, i));
		if (!w->c[i].alive)
			buf_printf(out, " (taken by %s)", name(w, w->c[i].conquered_by));
	}
	buf_puts(out, "\n");
}

void
war_public(const struct war *w, struct buf *out)
{
	countries_line(w, out);
	if (w->nevents > 0) {
		buf_puts(out, "\nThe war so far:\n");
		if (w->nevents > WAR_MAX_EVENTS)
			buf_printf(out, "(the first %lld events are not shown)\n",
			    w->nevents - WAR_MAX_EVENTS);
		war_news(w, 0, out);
	}
	buf_puts(out, "\n");
	turn_line(w, out);
}

long long
war_owed(const struct war *w, int lender, int borrower, long long points)
{
	struct war_terms t = w->ally[lender][borrower];

	return has_terms(t) ? points * t.repay / t.per : points;
}

/* c's alliances, and its proposals made and received before the start. */
static void
private_alliances(const struct war *w, int c, struct buf *out)
{
	int i;

	for (i = 0; i < w->n; i++) {
		if (has_terms(w->ally[c][i]))
			buf_printf(out, "Allied with %s: %d paid back for each %d lent.\n", name(w, i),
			    w->ally[c][i].repay, w->ally[c][i].per);
		if (has_terms(w->offer[c][i]))
			buf_printf(out, "You proposed an alliance to %s: %d paid back for each %d lent.\n",
			    name(w, i), w->offer[c][i].repay, w->offer[c][i].per);
		if (has_terms(w->offer[i][c]))
			buf_printf(out, "%s proposed an alliance to you: %d paid back for each %d lent.\n",
			    name(w, i), w->offer[i][c].repay, w->offer[i][c].per);
		if (w->betrayed[c][i] && w->c[i].alive)
			buf_printf(out, "Your alliance with %s ended when you attacked it.\n",
			    name(w, i));
		if (w->betrayed[i][c] && w->c[i].alive)
			buf_printf(out, "Your alliance with %s ended when it attacked you.\n",
			    name(w, i));
	}
}

/* A side's own line on the battle: its figure, and what it has in the
 * battle (its own points, the loans), said so that the parts add up to
 * the whole they are given as. */
static void
battle_line(const struct war_side *sd, struct buf *out)
{
	long long own = sd->own, lent = loans(sd);
	const char *pl = own == 1 ? "" : "s";

	if (sd->figure == 0)
		buf_puts(out, "In the battle: you have not answered yet.\n");
	else if (lent == 0 && own == sd->figure)
		buf_printf(out, "In the battle: your figure is %lld, all of it your own points.\n",
		    sd->figure);
	else if (own + lent == sd->figure)
		buf_printf(out, "In the battle: your figure is %lld: %lld of your own point%s and "
		    "%lld lent to you.\n", sd->figure, own, pl, lent);
	else if (lent == 0)
		buf_printf(out, "In the battle: your figure is %lld. You have %lld of your own "
		    "point%s in the battle.\n", sd->figure, own, pl);
	else
		buf_printf(out, "In the battle: your figure is %lld. You have %lld in the battle "
		    "now: %lld of your own point%s and %lld lent to you.\n", sd->figure,
		    own + lent, own, pl, lent);
}

void
war_private(const struct war *w, int c, struct buf *out)
{
	const struct war_battle *b = &w->battle;
	int s, i;

	if (!valid(w, c))
		return;
	if (!w->c[c].alive) {
		buf_printf(out, "%s was taken by %s: you follow the war as observers.\n",
		    name(w, c), name(w, w->c[c].conquered_by));
		return;
	}
	buf_printf(out, "%s: your total %sis %lld%s.\n", name(w, c),
	    side_of(w, c) >= 0 ? "outside the battle " : "", w->c[c].points,
	    w->c[c].fort && w->stage == WAR_SETUP ? " (your fort adds 100 when the war starts)" : "");
	private_alliances(w, c, out);
	for (s = 0; b->on && s < 2; s++) {
		if (b->side[s].loan[c] > 0)
			buf_printf(out, "You %s %lld to %s. If it wins, you get %lld back; if it "
			    "loses, the %s is lost.\n", has_terms(w->ally[c][b->side[s].country]) ?
			    "lend" : "offer", b->side[s].loan[c],
			    name(w, b->side[s].country), war_owed(w, c, b->side[s].country,
			    b->side[s].loan[c]), has_terms(w->ally[c][b->side[s].country]) ?
			    "loan" : "offer");
		if (b->side[s].country != c)
			continue;
		battle_line(&b->side[s], out);
		for (i = 0; i < WAR_MAX_COUNTRIES; i++)
			if (b->side[s].loan[i] > 0)
				buf_printf(out, "%s %s you %lld in all. If you win, you pay back "
				    "%lld.\n", name(w, i), has_terms(w->ally[i][c]) ? "lends" : "offers",
				    b->side[s].loan[i],
				    war_owed(w, i, c, b->side[s].loan[i]));
	}
}

void
war_full(const struct war *w, struct buf *out)
{
	const struct war_battle *b = &w->battle;
	int i, j, s;

	buf_puts(out, "Game master's copy.\n");
	for (i = 0; i < w->n; i++) {
		buf_printf(out, "%s: total %lld%s", name(w, i), w->c[i].points,
		    w->c[i].fort ? ", fort" : "");
		if (!w->c[i].alive)
			buf_printf(out, ", taken by %s", name(w, w->c[i].conquered_by));
		buf_puts(out, "\n");
	}
	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->n; j++) {
			if (i < j && has_terms(w->ally[i][j]))
				buf_printf(out, "Alliance %s and %s: %d FOR %d.\n", name(w, i),
				    name(w, j), w->ally[i][j].repay, w->ally[i][j].per);
			if (has_terms(w->offer[i][j]))
				buf_printf(out, "Proposal %s to %s: %d FOR %d.\n", name(w, i),
				    name(w, j), w->offer[i][j].repay, w->offer[i][j].per);
			if (w->betrayed[i][j])
				buf_printf(out, "%s attacked its ally %s: their alliance is ended.\n",
				    name(w, i), name(w, j));
		}
	for (s = 0; b->on && s < 2; s++) {
		if (b->side[s].figure == 0)
			buf_printf(out, "%s: has not answered yet.\n", name(w, b->side[s].country));
		else
			buf_printf(out, "%s: stands at %lld, %lld of its own point%s in the "
			    "battle.\n", name(w, b->side[s].country), b->side[s].figure,
			    b->side[s].own, b->side[s].own == 1 ? "" : "s");
		for (i = 0; i < WAR_MAX_COUNTRIES; i++)
			if (b->side[s].loan[i] > 0)
				buf_printf(out, "  %s %s it %lld.\n", name(w, i),
				    has_terms(w->ally[i][b->side[s].country]) ? "lends" : "offers",
				    b->side[s].loan[i]);
	}
	buf_puts(out, "\n");
	war_public(w, out);
}

/* ---------------------------------------------------------- text form -- */

static const char *const stages[] = { "setup", "on", "over" };

void
war_write(const struct war *w, struct buf *out)
{
	const struct war_battle *b = &w->battle;
	long long k;
	int i, j, s;

	for (i = 0; i < w->n; i++)
		buf_printf(out, "war-country %s %lld %s %s %s\n", name(w, i), w->c[i].points,
		    w->c[i].fort ? "fort" : "nofort", w->c[i].called ? "called" : "-",
		    w->c[i].attacked ? "attacked" : "-");
	for (i = 0; i < w->n; i++)
		if (!w->c[i].alive)
			buf_printf(out, "war-taken %s by %s\n", name(w, i),
			    name(w, w->c[i].conquered_by));
	for (i = 0; i < w->n; i++)
		for (j = 0; j < w->n; j++) {
			if (i < j && has_terms(w->ally[i][j]))
				buf_printf(out, "war-ally %s %s %d %d\n", name(w, i), name(w, j),
				    w->ally[i][j].repay, w->ally[i][j].per);
			if (has_terms(w->offer[i][j]))
				buf_printf(out, "war-offer %s %s %d %d\n", name(w, i), name(w, j),
				    w->offer[i][j].repay, w->offer[i][j].per);
			if (w->betrayed[i][j])
				buf_printf(out, "war-betrayal %s %s\n", name(w, i), name(w, j));
		}
	buf_printf(out, "war-stage %s round %d passes %d call %s winner %s\n", stages[w->stage],
	    w->round, w->passes, w->call >= 0 ? name(w, w->call) : "-",
	    w->winner >= 0 ? name(w, w->winner) : "-");
	if (b->on) {
		buf_printf(out, "war-battle %s answers\n", name(w, b->side[b->answer].country));
		for (s = 0; s < 2; s++) {
			buf_printf(out, "war-side %s %lld %lld\n", name(w, b->side[s].country),
			    b->side[s].figure, b->side[s].own);
			for (i = 0; i < WAR_MAX_COUNTRIES; i++)
				if (b->side[s].loan[i] > 0)
					buf_printf(out, "war-loan %s %s %lld\n", name(w, i),
					    name(w, b->side[s].country), b->side[s].loan[i]);
		}
	}
	buf_printf(out, "war-events %lld\n", w->nevents);
	k = w->nevents > WAR_MAX_EVENTS ? w->nevents - WAR_MAX_EVENTS : 0;
	for (; k < w->nevents; k++)
		buf_printf(out, "war-record %s\n", w->record[k % WAR_MAX_EVENTS]);
}

/* Take a country's name at *p: its number, or -1. */
static int
scan_country(const struct war *w, const char **p)
{
	char s[WAR_NAME_SIZE];

	if (scan_name(p, s, sizeof s) < 0)
		return -1;
	return war_find(w, s);
}

/* A word at *p that is one of the n words of set: its index, or -1. */
static int
scan_choice(const char **p, const char *const *set, int n)
{
	struct scan_word wd;
	const char *q = *p;
	int i;

	if (scan_word(&q, &wd) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (scan_word_is(&wd, set[i])) {
			*p = q;
			return i;
		}
	return -1;
}

static int
read_country(struct war *w, const char *p)
{
	static const char *const fort[] = { "nofort", "fort" };
	static const char *const called[] = { "-", "called" };
	static const char *const attacked[] = { "-", "attacked" };
	char s[WAR_NAME_SIZE];
	long pts;
	int f, c, a;

	if (scan_name(&p, s, sizeof s) < 0 || scan_long(&p, 0, WAR_MAX_TOTAL, &pts) < 0 ||
	    (f = scan_choice(&p, fort, 2)) < 0 || (c = scan_choice(&p, called, 2)) < 0 ||
	    (a = scan_choice(&p, attacked, 2)) < 0 || !scan_at_end(&p))
		return -1;
	if (war_add_country(w, s, 0, f, NULL) < 0)
		return -1;
	w->c[w->n - 1].points = pts;
	w->c[w->n - 1].called = c;
	w->c[w->n - 1].attacked = a;
	return 0;
}

static int
read_terms(struct war *w, const char *p, bool binding)
{
	long r, per;
	int a, b;

	if ((a = scan_country(w, &p)) < 0 || (b = scan_country(w, &p)) < 0 || a == b ||
	    scan_long(&p, 1, WAR_MAX_TERMS, &r) < 0 || scan_long(&p, 1, WAR_MAX_TERMS, &per) < 0 ||
	    !scan_at_end(&p))
		return -1;
	w->offer[a][b].repay = (short)r;
	w->offer[a][b].per = (short)per;
	if (binding) {
		w->ally[a][b] = w->ally[b][a] = w->offer[a][b];
		memset(&w->offer[a][b], 0, sizeof w->offer[a][b]);
	}
	return 0;
}

static int
read_stage(struct war *w, const char *p)
{
	long round, passes;
	int s;

	if ((s = scan_choice(&p, stages, 3)) < 0 || scan_literal(&p, "round") < 0 ||
	    scan_long(&p, 0, 1000000000, &round) < 0 || scan_literal(&p, "passes") < 0 ||
	    scan_long(&p, 0, WAR_MAX_COUNTRIES, &passes) < 0 || scan_literal(&p, "call") < 0)
		return -1;
	w->stage = (enum war_stage)s;
	w->round = (int)round;
	w->passes = (int)passes;
	if (scan_literal(&p, "-") < 0 && (w->call = scan_country(w, &p)) < 0)
		return -1;
	if (scan_literal(&p, "winner") < 0)
		return -1;
	if (scan_literal(&p, "-") < 0 && (w->winner = scan_country(w, &p)) < 0)
		return -1;
	return scan_at_end(&p) ? 0 : -1;
}

/* war-side lines come attacker first; *sides counts them. */
static int
read_side(struct war *w, const char *p, int *sides)
{
	struct war_side *sd;
	long fig, own;
	int c;

	if (!w->battle.on || *sides >= 2 || (c = scan_country(w, &p)) < 0 ||
	    scan_long(&p, 0, WAR_MAX_TOTAL, &fig) < 0 ||
	    scan_long(&p, 0, WAR_MAX_TOTAL, &own) < 0 || !scan_at_end(&p))
		return -1;
	sd = &w->battle.side[(*sides)++];
	sd->country = c;
	sd->figure = fig;
	sd->own = own;
	return 0;
}

static int
read_loan(struct war *w, const char *p, int sides)
{
	long pts;
	int lender, to;

	if ((lender = scan_country(w, &p)) < 0 || (to = scan_country(w, &p)) < 0 ||
	    scan_long(&p, 1, WAR_MAX_TOTAL, &pts) < 0 || !scan_at_end(&p) || sides < 1 ||
	    w->battle.side[sides - 1].country != to)
		return -1;
	w->battle.side[sides - 1].loan[lender] = pts;
	return 0;
}

/* One "war-..." line (key, the rest at p). Returns 0 or -1. */
static int
read_line(struct war *w, const char *key, const char *p, int *sides, int *answers)
{
	long long k;
	long n;
	int a, b;

	if (strcmp(key, "war-country") == 0)
		return read_country(w, p);
	if (strcmp(key, "war-taken") == 0) {
		if ((a = scan_country(w, &p)) < 0 || scan_literal(&p, "by") < 0 ||
		    (b = scan_country(w, &p)) < 0 || !scan_at_end(&p))
			return -1;
		w->c[a].alive = false;
		w->c[a].conquered_by = b;
		return 0;
	}
	if (strcmp(key, "war-ally") == 0 || strcmp(key, "war-offer") == 0)
		return read_terms(w, p, strcmp(key, "war-ally") == 0);
	if (strcmp(key, "war-betrayal") == 0) {
		if ((a = scan_country(w, &p)) < 0 || (b = scan_country(w, &p)) < 0 || a == b ||
		    !scan_at_end(&p))
			return -1;
		w->betrayed[a][b] = true;
		return 0;
	}
	if (strcmp(key, "war-stage") == 0)
		return read_stage(w, p);
	if (strcmp(key, "war-battle") == 0) {
		if ((*answers = scan_country(w, &p)) < 0 || scan_literal(&p, "answers") < 0 ||
		    !scan_at_end(&p))
			return -1;
		w->battle.on = true;
		return 0;
	}
	if (strcmp(key, "war-side") == 0)
		return read_side(w, p, sides);
	if (strcmp(key, "war-loan") == 0)
		return read_loan(w, p, *sides);
	if (strcmp(key, "war-events") == 0) {
		if (scan_long(&p, 0, 2000000000, &n) < 0 || !scan_at_end(&p))
			return -1;
		w->nevents = n > WAR_MAX_EVENTS ? n - WAR_MAX_EVENTS : 0;
		return 0;
	}
	if (strcmp(key, "war-record") == 0) {
		k = w->nevents++;
		/* A record cut to size may end in a blank, which reading the
		 * written line back would drop: drop it now. */
		str_copy(w->record[k % WAR_MAX_EVENTS], p, WAR_EVENT_SIZE);
		(void)str_trim(w->record[k % WAR_MAX_EVENTS]);
		return 0;
	}
	return -1;
}

/* Could w have come from the operations: a battle of two living
 * countries and an answer, a living country called, no more points than a
 * war can hold (so that repayments cannot overflow)? */
static bool
possible(const struct war *w, int sides)
{
	const struct war_battle *b = &w->battle;
	long long sum = 0;
	int i, s;

	for (i = 0; i < w->n; i++)
		sum += w->c[i].points;
	for (s = 0; b->on && s < 2; s++) {
		if (sides != 2 || b->answer < 0 || !w->c[b->side[s].country].alive)
			return false;
		sum += b->side[s].own + loans(&b->side[s]);
	}
	if (b->on && b->side[0].country == b->side[1].country)
		return false;
	if (w->stage == WAR_ON && (!valid(w, w->call) || !w->c[w->call].alive))
		return false;
	return sum <= WAR_MAX_TOTAL;
}

int
war_read(struct war *w, const char *text, size_t len, struct buf *err)
{
	const char *p = text, *end = text + len, *s;
	char line[WAR_EVENT_SIZE + 64], *key, *val;
	size_t n;
	int lineno = 0, sides = 0, answers = -1, r;

	war_init(w);
	while ((s = str_next_line(&p, end, &n)) != NULL) {
		lineno++;
		if ((r = str_split_kv(s, n, line, sizeof line, &key, &val)) == 0)
			continue;
		if (r < 0 || read_line(w, key, val, &sides, &answers) < 0) {
			if (err != NULL)
				buf_printf(err, "war line %d: cannot read '%.*s'\n", lineno,
				    (int)(n < 80 ? n : 80), s);
			return -1;
		}
	}
	if (w->battle.on && sides == 2)
		w->battle.answer = side_of(w, answers);
	if (!possible(w, sides)) {
		if (err != NULL)
			buf_puts(err, "war: the state read is not a possible war\n");
		return -1;
	}
	return 0;
}

bool
war_names_verb(const char *line, size_t len)
{
	struct word words[MAX_WORDS];
	enum war_verb verb;

	int n = split(line, len, words, NULL), k = n > 0 ? speaker(words, n) : 0, i;

	if (n > k && read_verb(words[k], &verb, NULL) == 0)
		return true;
	for (i = k + 1; i < n; i++)
		if (verb_word(words[i]) >= 0)
			return true;
	return false;
}
