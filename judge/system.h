/*
 * system.h — the seam between the mail judge and a rule system.
 *
 * A rule system is everything a game's rules decide that the mail judge
 * does not: how an adjudicated phase becomes the next position and its
 * report, when the game is over, what state it keeps with each phase, the
 * commands of its own and its part of HELP. Each system is one module in
 * judge/systems/ exporting one `struct rule_system` (ARCHITECTURE.md, "How
 * to add a rule system"); the standard game and MUNA (a layer over the
 * standard one) are the first two.
 *
 * The judge finds a game's system through its I/O interface
 * (judge_io.system, by the name the variant file gives), so the judge
 * includes no module and the modules include only this seam, the game and
 * the engine. A module calls back into the judge only through the
 * services declared below.
 */
#ifndef POUCH_SYSTEM_H
#define POUCH_SYSTEM_H

#include <stdbool.h>
#include <time.h>

#include "../lib/buf.h"
#include "../parser/commands.h"
#include "engine/adjudicate.h"
#include "game.h"

struct judge;

/* An adjudicated phase, handed to the system's turn operation. */
struct turn {
	struct judge *j;
	struct game *g;
	const struct board *before;	/* the position the orders were given in */
	const struct order *orders;
	int norders;
	/* The engine's result; a system that settles a phase by rules of its
	 * own (Realpolitik's adjustments) writes its result over it. */
	struct phase_result *res;
	struct board next;		/* out: the next phase's position */
	struct buf *report;		/* out: the report everyone gets */
};

/* Who may give a system's command. */
enum system_who { SYSTEM_PLAYER = 1, SYSTEM_GM = 2 };

/* A command a system reads beyond the judge's own. */
struct system_command {
	enum command cmd;
	unsigned who;			/* enum system_who bits */
	/* Carry out the command of power p (POWER_NONE for the GM) with the
	 * rest of its line in args; what it did, or "  REFUSED: ..." with
	 * the reason, into reply. Returns 0, or -1 when refused. */
	int (*run)(struct judge *j, struct game *g, power_id p, char *args, struct buf *reply);
};

struct rule_system {
	const char *name;		/* as a variant file names it: "standard", "muna" */
	/* A game that is no Diplomacy game: what its mails call it ("World
	 * Game war"; they then speak of commands, not orders, and name no
	 * edition) and a side to name in examples ("Country-A"). NULL: a
	 * Diplomacy game. */
	const char *kind;
	const char *example_side;
	/* A game of orders on a board that is no Diplomacy game: what its
	 * welcome mails call it ("Realpolitik game"; they name neither the
	 * variant's title, which is its name, nor the edition, whose rules
	 * are not its). NULL: "Diplomacy game", or kind. */
	const char *called;
	/* What its mails call the rules it plays where a Diplomacy game names
	 * the standard rules' edition ("2023 rules"): "Calhamer's rules". NULL:
	 * the edition's. */
	const char *rules;
	/* What the game master does after NEWGAME, one line; NULL: add the
	 * delegations, then START. */
	const char *setup_hint;
	/* Work out t->next from the adjudicated phase and append the report
	 * everyone gets to t->report. */
	void (*turn)(struct turn *t);
	/* Is the game over on g->board? The result ("England wins with 18
	 * supply centres") into result. */
	bool (*ended)(const struct game *g, char *result, size_t size);

	/* The rest may be NULL: nothing to do. */

	/* The game file's lines of its own (judge/game.h), after the common
	 * ones in each part. */
	const struct game_field_table *fields;
	/* Its own state: made when a game gets the system (a new game, or
	 * one being read, before any line), kept in g->state and freed with
	 * the game. */
	void *(*state_new)(struct game *g);
	void (*state_free)(void *state);
	/* Every line of the game file is read: finish (check what the lines
	 * say together). Returns NULL, or what is wrong. */
	const char *(*loaded)(struct game *g);

	/* A system whose game is not a board of units (the World Game's war)
	 * reads every line that is no judge command itself and runs its own
	 * steps and deadlines: */
	/* Read a line of power p (POWER_NONE: the game master) that is no
	 * command of the judge; what it understood, or "  REFUSED: ...", into
	 * reply. Returns 0, -1 when refused, 1 when it is plainly not meant
	 * for the judge (a greeting: passed over quietly). */
	int (*line)(struct judge *j, struct game *g, power_id p, const char *text, size_t len,
	    struct buf *reply);
	/* What time requires of the active game g at now (reminders, a
	 * deadline passed), instead of the judge's orders and phases.
	 * Returns true when a step was decided (the next may be due too). */
	bool (*tick)(struct judge *j, struct game *g, time_t now);
	/* Is power p still in the game? (Default: it has units or centres.) */
	bool (*alive)(const struct game *g, power_id p);
	/* Where the game is, in a few words ("round 2: Beta's call") into out.
	 * (Default: the phase, "Spring 1901 Movement".) */
	void (*stage)(const struct game *g, char *out, size_t size);
	/* What anyone may see of the game, for its public page (judge-less
	 * text: paragraphs separated by blank lines; a paragraph whose first
	 * line ends in ':' heads a list of its other lines). */
	void (*public_text)(const struct game *g, struct buf *out);
	/* Where the game stands for power p (POWER_NONE: the game master),
	 * with times in zone, at the end of every reply to a sender of an
	 * active game. (Default: the orders held and the deadline.) */
	void (*status)(struct judge *j, const struct game *g, power_id p, const char *zone,
	    time_t now, struct buf *out);

	/* The state to keep with a phase's history record, written before the
	 * phase is resolved, and restored from it by a rollback. */
	void (*history_write)(const struct game *g, struct buf *out);
	void (*history_read)(struct game *g, const char *text, size_t len);
	/* A phase starts at now (after a turn, a START, a rollback). */
	void (*phase_started)(struct game *g, time_t now);
	/* Must the phase wait for its deadline though every order is in? */
	bool (*waits)(const struct game *g);
	/* Check order o of power p before the engine does: 0 when the system
	 * takes it as good, -1 when it refuses it ("  REFUSED: ..." with the
	 * reason into reply), 1 to leave it to the engine (adj_check). */
	int (*check_order)(const struct game *g, power_id p, const struct order *o,
	    struct buf *reply);
	/* How many units power p may raise in g's Winter (armies and fleets;
	 * where units stack, all its builds due), and a build order it may
	 * give ("A ber", a place without an order of p yet when there is one)
	 * into example, when not NULL (size >= 16). (Default: its free home
	 * centres, each once.) */
	int (*build_sites)(const struct game *g, power_id p, char *example, size_t size);
	/* Its part of HELP, for players and for the game master. */
	void (*help)(const struct game *g, struct buf *out);
	void (*gm_help)(const struct game *g, struct buf *out);
	/* Its own commands, ncommands of them. */
	const struct system_command *commands;
	int ncommands;
};

/* The command cmd of system s that who may give, or NULL. */
const struct system_command *system_command(const struct rule_system *s, enum command cmd,
    unsigned who);

/* ------------------------------------------- the judge's services to a system -- */

/* Record a game master's or the rules' action in the audit log (no secrets). */
void judge_audit(struct judge *j, const struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Send text to every member of every delegation, every observer and the GMs (text NULL: none, logged). */
void judge_announce(struct judge *j, struct game *g, const char *subject, const char *text);
/* Send text to the nto addresses to, as a message of game g (text NULL: none, logged). */
void judge_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *subject, const char *text);
/* Is the speech window open (broadcasts allowed whatever the press rules)? */
bool judge_speech_open(const struct game *g, time_t now);
/* The time now, as the judge is handling it. */
time_t judge_now(const struct judge *j);
/* "Sunday 22 November 2026, 19:00 CET": t in zone (size >= 64). */
void judge_time_human(const struct judge *j, const char *zone, time_t t, char *out, size_t size);
/* Is power p in civil disorder (nobody to give its orders)? */
bool judge_in_disorder(const struct game *g, power_id p);
/* Start an event: what follows is named after it (Message-IDs
 * "pouch.<name>.<n>@domain", random labels "<name>/<n>"); the same event
 * must name the same messages when a run is repeated, and no other event
 * may take its name (the shell sends a Message-ID once). */
void judge_event(struct judge *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Mark g changed: it is written back at the end of the run. */
void judge_touch(struct judge *j, const struct game *g);
/* The deadline of a step or phase of g starting at start: its movement
 * length, on an allowed day and at the fixed time when the game has them. */
time_t judge_deadline_after(const struct judge *j, const struct game *g, time_t start);
/* End g with result (status, audit log, no deadline; no mail: the system
 * tells the players). */
void judge_game_over(struct judge *j, struct game *g, const char *result);

/* The victory point standings on board b under title, when the variant
 * counts victory points or some power has political points. */
void judge_standings(const struct game *g, const struct board *b, const char *title,
    struct buf *out);

#endif
