/*
 * war.h — the World Game's war phase (judge/systems/WORLDGAME.md): countries,
 * points, written alliances, attacks called in alphabetical order,
 * counter-attacks with loans, conquest and repayment.
 *
 * API: a struct war is plain data in fixed arrays (no allocation, safe to
 * copy: a caller may try an operation on a copy). Countries are numbered
 * in the order they were added; every operation names them by that number
 * (war_find, war_match_country). Each operation returns 0 and appends its
 * reply for the sender (which may hold private figures) to msg, or returns
 * -1, changes nothing and appends the reason in plain words to msg; msg
 * may be NULL. What the war makes public goes into the record (w->nevents
 * counts every event ever recorded; war_news() prints those after a given
 * count, for the caller to announce). Nothing here does I/O or reads a
 * clock: a missed deadline is the caller's war_deadline().
 *
 *	struct war w;
 *	war_init(&w);
 *	war_add_country(&w, "Country-A", 3000, false, msg);  ...
 *	war_start(&w, msg);
 *	long long seen = w.nevents;
 *	if (war_read_command(&w, line, len, &cmd, msg) == 0)
 *		war_do(&w, who, &cmd, msg);
 *	war_news(&w, seen, announcement);
 */
#ifndef POUCH_WAR_H
#define POUCH_WAR_H

#include <stdbool.h>
#include <stddef.h>

#include "../../lib/buf.h"

#define WAR_MAX_COUNTRIES 32		/* countries in one war */
#define WAR_NAME_SIZE 24		/* a name: 1 to 23 letters, digits, '-', '_' */
#define WAR_MAX_POINTS 10000000LL	/* a starting total, an attack, a figure, a loan */
/* Points are only moved, never made (but by forts): no total exceeds this. */
#define WAR_MAX_TOTAL (WAR_MAX_COUNTRIES * (WAR_MAX_POINTS + WAR_FORT_POINTS))
#define WAR_MAX_TERMS 10		/* alliance terms: 1 to 10 repaid for 1 to 10 lent */
#define WAR_FORT_POINTS 100		/* what a fort adds when the war starts */
#define WAR_MAX_EVENTS 320		/* public events held (the oldest go first) */
#define WAR_EVENT_SIZE 192		/* one public event, with its NUL */

enum war_stage { WAR_SETUP, WAR_ON, WAR_OVER };
enum war_side_id { WAR_ATTACKER, WAR_DEFENDER };

struct war_country {
	char name[WAR_NAME_SIZE];
	long long points;	/* its total: own points neither in a battle nor lent */
	bool fort;
	bool alive;		/* false once conquered */
	int conquered_by;	/* the conqueror, or -1 */
	bool called;		/* has had its call this round */
	bool attacked;		/* has attacked since its last call */
};

/* Alliance terms: repay points paid back for each per points lent; 0/0 none. */
struct war_terms {
	short repay, per;
};

struct war_side {
	int country;
	long long figure;	/* the last figure it named (0: none yet) */
	long long own;		/* its own points in the battle */
	long long loan[WAR_MAX_COUNTRIES];	/* points lent to it, by lender */
};

struct war_battle {
	bool on;
	int answer;		/* enum war_side_id: the side that must answer */
	struct war_side side[2];	/* WAR_ATTACKER, WAR_DEFENDER */
};

struct war {
	enum war_stage stage;
	int n;					/* countries */
	struct war_country c[WAR_MAX_COUNTRIES];
	struct war_terms ally[WAR_MAX_COUNTRIES][WAR_MAX_COUNTRIES];	/* binding, both ways */
	struct war_terms offer[WAR_MAX_COUNTRIES][WAR_MAX_COUNTRIES];	/* [a][b]: a proposed to b */
	bool betrayed[WAR_MAX_COUNTRIES][WAR_MAX_COUNTRIES];	/* [a][b]: a attacked its ally b,
								   which ended their alliance */
	int call;		/* the country whose call it is, or -1 */
	int round;		/* 1 for the first round of calls */
	int passes;		/* passes in a row since the last attack */
	struct war_battle battle;
	int winner;		/* once over: the victor, or -1 for a tie */
	long long nevents;	/* public events recorded so far */
	char record[WAR_MAX_EVENTS][WAR_EVENT_SIZE];	/* event k at [k % WAR_MAX_EVENTS] */
};

/* What a delegation's command asks (war_read_command). */
enum war_verb {
	WAR_ATTACK, WAR_PASS, WAR_LEND, WAR_WITHDRAW, WAR_COUNTER, WAR_ALLY, WAR_YIELD, WAR_OFFER
};

struct war_cmd {
	enum war_verb verb;
	int country;		/* ATTACK's target, LEND's and OFFER's borrower, ALLY's partner; else -1 */
	long long points;	/* ATTACK, LEND, OFFER, COUNTER */
	int repay, per;		/* ALLY's terms (1 FOR 1 when none are given) */
};

/* An empty war in its setup stage. */
void war_init(struct war *w);
/* The country named name exactly (case ignored), or -1. */
int war_find(const struct war *w, const char *name);

/* Add a country before the war starts: a new name (not one that differs
 * from another only in case, '-' or '_'), 0..WAR_MAX_POINTS points, a fort
 * or not. Returns its number, or -1 with the reason. */
int war_add_country(struct war *w, const char *name, long long points, bool fort,
    struct buf *msg);
/* Country a proposes a written alliance to b on terms repay FOR per (1..10
 * each), before the start. It binds when b has proposed the same terms; a
 * different proposal replaces a's own earlier one and binds nothing until
 * both match (a binding alliance stands until then). Returns 0 or -1. */
int war_ally(struct war *w, int a, int b, int repay, int per, struct buf *msg);
/* Start the war: forts add WAR_FORT_POINTS, unmatched proposals lapse, the
 * alphabetically first country is called. Needs two countries. 0 or -1. */
int war_start(struct war *w, struct buf *msg);
/* The called country who attacks target with points from its total (taken
 * at once). Not more than the target's total: lost, the points go to the
 * target. Else a battle begins and the target must answer. An attack on an
 * ally ends their alliance, both ways, for the rest of the war. 0 or -1. */
int war_attack(struct war *w, int who, int target, long long points, struct buf *msg);
/* The called country passes; a whole round of passes ends the war. 0 or -1. */
int war_pass(struct war *w, int who, struct buf *msg);
/* During a battle, lender (a binding ally of borrower, not fighting it)
 * lends points from its total to borrower, a side of the battle. 0 or -1. */
int war_lend(struct war *w, int lender, int borrower, long long points, struct buf *msg);
/* During a battle, lender (no written ally of borrower, not fighting it)
 * offers points from its total to borrower, a side of the battle: an
 * unwritten loan, paid back point for point if borrower wins. 0 or -1. */
int war_offer(struct war *w, int lender, int borrower, long long points, struct buf *msg);
/* Lender takes its whole loan (or offer) back before the defeat. A figure no longer
 * covered falls to what the side still has in the battle; a side whose
 * figure no longer exceeds the other's must answer again. 0 or -1. */
int war_withdraw(struct war *w, int lender, struct buf *msg);
/* The side that must answer names figure, more than the other's last one
 * and covered by its loans, its own points in the battle and its total
 * (loans count first, its own total makes up the rest). 0 or -1. */
int war_counter(struct war *w, int who, long long figure, struct buf *msg);
/* The side that must answer gives up: it is conquered. 0 or -1. */
int war_yield(struct war *w, int who, struct buf *msg);
/* The step's deadline passed: the side that must answer is conquered, or
 * the called country passes. Returns 0, or -1 when the war is not on. */
int war_deadline(struct war *w, struct buf *msg);

/* The game master ends the war between battles: the largest total wins
 * (a tie: no single victor), as after a round of passes. 0 or -1. */
int war_end(struct war *w, struct buf *msg);
/* The country the war waits for (the called country, or the side that
 * must answer), or -1 when the war is not on: whose deadline runs. */
int war_waiting(const struct war *w);

/* Read a delegation's command line (ATTACK Country-E WITH 2000, PASS, LEND
 * 500 TO Country-E, OFFER 500 TO Country-E, WITHDRAW LOAN, COUNTER 2,300,
 * ALLY Country-B TERMS 2 FOR 1, YIELD) tolerantly into out. Returns 0 with notes on what was read
 * differently in msg (nothing when read as written), or -1 with the reason
 * (several countries meant, none known: with the choices or a suggestion). */
int war_read_command(const struct war *w, const char *line, size_t len, struct war_cmd *out,
    struct buf *msg);
/* True when the first word of line names a command of the war (as
 * war_read_command reads it): a line without one is no command at all. */
bool war_names_verb(const char *line, size_t len);
/* Carry out cmd for country who (the war_* operation it names). 0 or -1. */
int war_do(struct war *w, int who, const struct war_cmd *cmd, struct buf *msg);
/* The country a delegation's words name (case, '-', '_' and blanks
 * ignored; a unique beginning or a unique near spelling with a note in msg).
 * Returns its number, or -1 with the choices or a suggestion in msg. */
int war_match_country(const struct war *w, const char *text, size_t len, struct buf *msg);

/* What borrower owes lender for a loan of points by their alliance's
 * terms (rounded down; 1 FOR 1 without one, as for an offer): what a win
 * repays in full. */
long long war_owed(const struct war *w, int lender, int borrower, long long points);

/* The public events recorded after the first `since` (one a line). */
void war_news(const struct war *w, long long since, struct buf *out);
/* What every delegation may see: the countries, the public record and
 * whose turn it is. No total but those the war announced. */
void war_public(const struct war *w, struct buf *out);
/* What country c alone sees: its total, its alliances and proposals, its
 * loans given and received, its part in the battle. */
void war_private(const struct war *w, int c, struct buf *out);
/* The game master's view: every total, alliance, loan and the record. */
void war_full(const struct war *w, struct buf *out);

/* The state as "war-..." lines for the game file. */
void war_write(const struct war *w, struct buf *out);
/* Read war_write's lines (others are an error) into w. Returns 0, or -1
 * with the line and what is wrong in err (w is then unspecified). */
int war_read(struct war *w, const char *text, size_t len, struct buf *err);

#endif
