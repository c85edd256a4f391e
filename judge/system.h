/*
 * system.h — the seam between the mail judge and a rule system.
 *
 * A rule system is everything a game's rules decide that the mail judge
 * does not: how an adjudicated phase becomes the next position and its
 * report, when the game is over, what state it keeps with each phase, the
 * commands of its own and its part of HELP. Each system is one module in
 * judge/systems/ exporting one `struct rule_system` (ARCHITECTURE.md, "How
 * to add a rule system", with the table of what each system fills): a
 * core every system fills, and a part for games without a board; what it
 * serves beyond the core is a set of capabilities callers ask.
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
#include "command.h"
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
	struct phase_result *res;	/* the phase resolved (system_resolve) */
	const struct phase_why *why;	/* why each unit failed, for the report */
	struct board next;		/* out: the next phase's position */
	struct buf *report;		/* out: the report everyone gets */
};

/* Who may give a system's command. */
enum system_who { SYSTEM_PLAYER = COMMAND_PLAYER, SYSTEM_GM = COMMAND_GM };

/* What a system's check of an order given came to (check_order). */
enum order_check {
	ORDER_CHECK_TAKEN,	/* good by the system's rules */
	ORDER_CHECK_REFUSED,	/* refused: the reason is in the reply */
	ORDER_CHECK_ENGINE,	/* not the system's to judge: the engine checks it */
};

/*
 * What a system serves beyond the core (its serves bits). Callers ask
 * system_serves(), never whether an operation is there nor what a
 * system's words say. SYS_BOARDLESS, SYS_OWN_CLOCK, SYS_OWN_STATUS and
 * SYS_RECORD_PAGE need the part for games without a board (boardless)
 * with the operations each names; SYS_POLITICS the part for politics
 * (politics), all of it.
 */
enum system_serves {
	/* No board of units: every line that is no command of the judge goes to
	 * its reader (boardless->line), its mails speak of commands, not
	 * orders, name the game before its kind (words->kind) and give its
	 * sides as examples; its HELP is all its own; who is in the game and
	 * where it is are its own (boardless->alive, stage). */
	SYS_BOARDLESS = 1u << 0,
	/* Its own steps and deadlines (boardless->tick): no phase deadline,
	 * grace period or early processing of the judge's. */
	SYS_OWN_CLOCK = 1u << 1,
	/* Its own account of where the game stands at the end of every reply
	 * (boardless->status). */
	SYS_OWN_STATUS = 1u << 2,
	/* A public record page of its own text, following each change
	 * (boardless->public_text), not the map of each phase. */
	SYS_RECORD_PAGE = 1u << 3,
	/* A game of its own that is no Diplomacy game: its welcome mails call
	 * it by words->called and name neither the variant's title nor the
	 * standard rules' edition. */
	SYS_OWN_GAME = 1u << 4,
	/* Politics beside the board (politics): a conference press may be
	 * addressed to, goals an AWARD may name, a bonus the standings count,
	 * an eliminated power's way back. */
	SYS_POLITICS = 1u << 5,
};

/* The part of a system for a game without a board (SYS_BOARDLESS and the
 * bits after it): the World Game's war. */
struct system_boardless {
	/* Read a line of power p (POWER_NONE: the game master) that is no
	 * command of the judge; what it understood, or "  REFUSED: ...", into
	 * reply: CMD_DONE, CMD_REFUSED, or CMD_IGNORED when it is plainly not
	 * meant for the judge (a greeting: passed over quietly). */
	enum cmd_result (*line)(struct judge *j, struct game *g, power_id p, const char *text,
	    size_t len, struct buf *reply);
	/* Is power p still in the game? */
	bool (*alive)(const struct game *g, power_id p);
	/* Where the game is, in a few words ("round 2: Beta's call") into out. */
	void (*stage)(const struct game *g, char *out, size_t size);
	/* SYS_OWN_CLOCK: what time requires of the active game g at now
	 * (reminders, a deadline passed), instead of the judge's orders and
	 * phases. Returns true when a step was decided (the next may be due
	 * too). */
	bool (*tick)(struct judge *j, struct game *g, time_t now);
	/* SYS_OWN_STATUS: where the game stands for power p (POWER_NONE: the
	 * game master), with times in zone, at the end of every reply to a
	 * sender of an active game. */
	void (*status)(struct judge *j, const struct game *g, power_id p, const char *zone,
	    time_t now, struct buf *out);
	/* SYS_RECORD_PAGE: what anyone may see of the game, for its public
	 * page (judge-less text: paragraphs separated by blank lines; a
	 * paragraph whose first line ends in ':' heads a list of its other
	 * lines). */
	void (*public_text)(const struct game *g, struct buf *out);
};

/* The part of a system for a game of politics beside the board
 * (SYS_POLITICS): conferences, political goals rewarded, a bonus in the
 * standings, powers that win their country back, as a committee of the
 * Model United Nations plays them. */
struct system_politics {
	/* Is a conference under way? Press TO CONFERENCE is addressed while
	 * one is, and goes to its powers when the mail is done, though it
	 * closed meanwhile: the powers of the one open or closed last (bits)
	 * into *powers, its name and powers ("the Congress of Munich
	 * (England, France, Germany)") into name, each when not NULL. */
	bool (*conference)(const struct game *g, uint64_t *powers, struct buf *name);
	/* AWARD <power> <points> <reason>: a reason naming something of its
	 * own ("GOAL 2": power p's political goal 2) written out in full into
	 * out (size n >= AWARD_REASON_MAX), *points cut to what is left of its
	 * worth; out "" for any other reason. Returns 0, or -1 when refused
	 * ("  REFUSED: ..." into reply). */
	int (*award_reason)(const struct game *g, power_id p, long *points, const char *reason,
	    char *out, size_t n, struct buf *reply);
	/* Has power p earned a bonus its standings count (judge_standings)? */
	bool (*standing_bonus)(const struct game *g, power_id p);
	/* Its own orders of power p this phase, one a line ("  Revive: Moscow,
	 * ..."), at the head of the list of p's orders. */
	void (*list_orders)(const struct game *g, power_id p, struct buf *out);
	/* Power p has no units nor centres on the board: what it may still do
	 * to come back into out. False: nothing (it has nothing to order). */
	bool (*comeback_help)(const struct game *g, power_id p, struct buf *out);
	/* What the notice of an open speech phase adds (the order of
	 * speeches), one line or more into out; nothing when there is none. */
	void (*speech_note)(const struct game *g, struct buf *out);
	/* Until when every delegation may BROADCAST, whatever the press
	 * setting (a speech phase); 0: no window was opened. */
	time_t (*speech_until)(const struct game *g);
	/* Does g have speech phases (each Spring, or one opened)? */
	bool (*speeches)(const struct game *g);
	/* Is press between powers closed in g's current phase (orders
	 * written on one's own)? */
	bool (*silent)(const struct game *g);
	/* Orders with a list of places (ORDER_REVIVE: the home centres an
	 * eliminated power wants back, most wanted first): check_list says
	 * whether power p may give one with the list prefs (R_OK, or why
	 * not); keep_list keeps order o with its list, replacing an earlier
	 * one (0, or -1 when p's orders are full); format_list appends the
	 * one p has (o) with its whole list. */
	enum reason (*check_list)(const struct game *g, power_id p, const struct order_prefs *prefs);
	int (*keep_list)(struct game *g, power_id p, const struct order *o,
	    const struct order_prefs *prefs);
	void (*format_list)(const struct game *g, power_id p, const struct order *o, struct buf *out);
};

/* A setting of a rule system's own, kept in its state: SET KEY VALUE
 * (and pouch game new's --KEY VALUE), listed among the judge's settings
 * where game.c's table marks; its line of the game file is a field of
 * the system's table of part GAME_PART_SETTING. */
struct system_setting {
	const char *key;
	/* Set it in g to value as a game master writes it: 0, or -1 when
	 * value is none of its values. */
	int (*set)(struct game *g, const char *value);
};

/*
 * A rule system: the core below, which every system fills (name, turn,
 * ended; an operation left out has the default its wrapper in system.c
 * names), and the optional parts, for games without a board and for
 * politics, each named by a capability.
 */
struct rule_system {
	const char *name;		/* as a variant file names it: system="standard" */
	/* Does it play m, a variant file that names no system, by the options
	 * m sets? NULL: it plays only the variants that name it. */
	bool (*serves_variant)(const struct map *m);
	unsigned serves;		/* enum system_serves bits */
	int delegates;			/* the most members a delegation has; 0:
					   GAME_MAX_MEMBERS */
	/* How its mails name it (judge/system_words.h); NULL: as a Diplomacy
	 * game of the standard rules. */
	const struct system_words *words;
	/* Resolve the phase b of g with the orders into res, by the engine
	 * (adj_resolve_at) given what the system keeps (Realpolitik: its
	 * capitals where they stand now), and why, when not NULL, with the
	 * reasons of each unit's result (adj_resolve_why). NULL: adj_resolve
	 * with g's rules. */
	void (*resolve)(const struct game *g, const struct board *b, const struct order *orders,
	    int norders, struct phase_result *res, struct phase_why *why);
	/* Into capital (indexed by province): the power whose capital each
	 * province is now, POWER_NONE for none (Realpolitik: a capital lost
	 * moves). NULL: the variant's capitals, where they stand. */
	void (*capitals)(const struct game *g, power_id *capital);
	/* Work out t->next from the adjudicated phase and append the report
	 * everyone gets to t->report. */
	void (*turn)(struct turn *t);
	/* Is the game over on g->board? The result ("England wins with 18
	 * supply centres") into result. */
	bool (*ended)(const struct game *g, char *result, size_t size);

	/* A new game of it (not one read from its file): what the variant's
	 * options make of its settings. */
	void (*new_game)(struct game *g);

	/* Its state. The game file's lines of its own (judge/game.h), after
	 * the common ones in each part. */
	const struct game_field_table *fields;
	/* Its own settings (SET), nsettings of them; NULL: none. */
	const struct system_setting *settings;
	int nsettings;
	/* Its own state: made when a game gets the system (a new game, or
	 * one being read, before any line), kept in g->state and freed with
	 * the game. */
	void *(*state_new)(struct game *g);
	void (*state_free)(void *state);
	/* Every line of the game file is read: finish (check what the lines
	 * say together). Returns NULL, or what is wrong. */
	const char *(*loaded)(struct game *g);

	/* Its history: the state to keep with a phase's history record,
	 * written before the phase is resolved, and restored from it by a
	 * rollback. */
	void (*history_write)(const struct game *g, struct buf *out);
	void (*history_read)(struct game *g, const char *text, size_t len);

	/* Its phases. A phase starts at now (after a turn, a START, a
	 * rollback). */
	void (*phase_started)(struct game *g, time_t now);
	/* The length of g's current phase when its rules give it one (the
	 * first negotiation longer than the rest); 0: the settings'. */
	long (*phase_length)(const struct game *g);
	/* Must the phase wait for its deadline though every order is in? */
	bool (*waits)(const struct game *g);
	/* Check order o of power p before the engine does ("  REFUSED: ..."
	 * with the reason into reply when refused; ORDER_CHECK_ENGINE leaves
	 * it to adj_check). */
	enum order_check (*check_order)(const struct game *g, power_id p, const struct order *o,
	    struct buf *reply);
	/* How many units power p may raise in g's Winter (armies and fleets;
	 * where units stack, all its builds due), and a build order of a unit
	 * of type t it may give ("A ber", "F kie", a place without an order of
	 * p yet when there is one) into example, when not NULL (size >= 16):
	 * "" when it may raise no unit of that type now. */
	int (*build_sites)(const struct game *g, power_id p, enum unit_type t, char *example,
	    size_t size);
	/* How many units power p may raise in the Winter of b (armies and
	 * fleets; what its results call builds not used when it raises fewer)
	 * (default: its builds due, at most one in each free home centre). */
	int (*raisable)(const struct game *g, const struct board *b, power_id p);

	/* Its commands and help. Its part of HELP for power p (POWER_NONE:
	 * the game master): after the judge's for a game with a board (the
	 * game master's, after the judge's commands: ",\n" and a list ending
	 * in ".\n"), all of it in a game without one. */
	void (*help)(const struct game *g, power_id p, struct buf *out);
	/* Its own commands, ncommands of them. */
	const struct command_handler *commands;
	int ncommands;

	/* SYS_BOARDLESS: the part for a game without a board. */
	const struct system_boardless *boardless;
	/* SYS_POLITICS: the part for a game of political points. */
	const struct system_politics *politics;
};

/* Does s serve every bit of what (enum system_serves)? NULL serves nothing. */
bool system_serves(const struct rule_system *s, unsigned what);
/* The words g's mails name it by: its system's, or a Diplomacy game's. */
const struct system_words *system_words(const struct game *g);
/* True when s fills what its serves bits promise (and its core): each
 * registered system is checked by the tests. */
bool system_complete(const struct rule_system *s);

/* The wrappers: each calls g's system's operation, or does its default. */

/* Where g is, in a few words: its stage (SYS_BOARDLESS), or its phase
 * ("Spring 1901 Movement"), into out. Returns out. */
char *system_stage(const struct game *g, char *out, size_t size);
/* Is power p still in g? Its system's answer (SYS_BOARDLESS), or: it has
 * units or centres. */
bool system_alive(const struct game *g, power_id p);
/* Hand line text of power p to g's line reader (SYS_BOARDLESS only); as
 * its line operation returns. */
enum cmd_result system_line(struct judge *j, struct game *g, power_id p, const char *text,
    size_t len, struct buf *reply);
/* What time requires of g at now (SYS_OWN_CLOCK only): as its tick
 * returns. */
bool system_tick(struct judge *j, struct game *g, time_t now);
/* Where g stands for p, at the end of a reply (SYS_OWN_STATUS only). */
void system_status(struct judge *j, const struct game *g, power_id p, const char *zone,
    time_t now, struct buf *out);
/* g's public record text (SYS_RECORD_PAGE only) into out. */
void system_public_text(const struct game *g, struct buf *out);
/* The state to keep with g's next history record into out; none by default. */
void system_history_write(const struct game *g, struct buf *out);
/* Restore g's state from a history record's text (NULL, len 0: none
 * kept); nothing by default. */
void system_history_read(struct game *g, const char *text, size_t len);
/* Has p earned a bonus g's standings count? No by default. */
bool system_standing_bonus(const struct game *g, power_id p);
/* A phase of g starts at now; nothing by default. */
void system_phase_started(struct game *g, time_t now);
/* Must g's phase wait for its deadline though every order is in? No by
 * default. */
bool system_waits(const struct game *g);
/* Append p's own orders in g (list_orders); none by default. */
void system_list_orders(const struct game *g, power_id p, struct buf *out);
/* Append what p, with no units nor centres, may do to come back; false
 * (nothing appended) by default. */
bool system_comeback_help(const struct game *g, power_id p, struct buf *out);
/* What g's notice of an open speech phase adds (SYS_POLITICS), into out. */
void system_speech_note(const struct game *g, struct buf *out);
/* The most members a delegation of g may have under its rules. */
int system_delegates(const struct game *g);
/* Until when g's speech window is open (SYS_POLITICS); 0: none. */
time_t system_speech_until(const struct game *g);
/* Does g have speech phases (SYS_POLITICS)? */
bool system_speeches(const struct game *g);
/* Is press between powers closed in g's current phase (SYS_POLITICS)? */
bool system_silent(const struct game *g);
/* May power p give an order with the list prefs (SYS_POLITICS)? R_OK, or
 * why not (R_VOID: g's rules have no such orders). */
enum reason system_check_list(const struct game *g, power_id p, const struct order_prefs *prefs);
/* Keep p's order o with its list prefs, replacing an earlier one; 0, or
 * -1 (no room, or no such orders in g's rules). */
int system_keep_list(struct game *g, power_id p, const struct order *o,
    const struct order_prefs *prefs);
/* Append p's order o with its list (the order alone without SYS_POLITICS). */
void system_format_list(const struct game *g, power_id p, const struct order *o, struct buf *out);
/* The length of g's current phase by its rules; 0: the settings'. */
long system_phase_length(const struct game *g);
/* A new game g: its system's defaults from the variant. */
void system_new_game(struct game *g);
/* Check order o of power p: as check_order returns; ORDER_CHECK_ENGINE
 * (the engine's) by default. */
enum order_check system_check_order(const struct game *g, power_id p, const struct order *o,
    struct buf *reply);
/* How many units power p of g may raise in the Winter of b: its
 * system's raisable, else its builds due, at most one in each free home
 * centre (adj_build_sites). */
int system_raisable(const struct game *g, const struct board *b, power_id p);
/* How many units p may raise in g's Winter, and a build order of a unit of
 * type t p may give into example when not NULL (size >= 16): its
 * system's, else its free home centres (adj_build_sites) and a unit of
 * type t in the first of them without an order of p that can hold one
 * (an army: "A par" when there is none; a fleet: "" when there is none). */
int system_build_sites(const struct game *g, power_id p, enum unit_type t, char *example,
    size_t size);
/* Is a conference of g under way? Its powers and name as conference
 * gives them; none by default (*powers, name untouched). */
bool system_conference(const struct game *g, uint64_t *powers, struct buf *name);
/* The reason of an AWARD to p in full (out "" when it is the reason
 * given) and the points it may give, as award_reason does; without
 * goals of its own, a reason "goal <n>" (n 1 to GAME_GOALS) is refused:
 * p has no such goal. */
int system_award_reason(const struct game *g, power_id p, long *points, const char *reason,
    char *out, size_t n, struct buf *reply);
/* Append g's system's part of HELP for p (POWER_NONE: the game master);
 * returns false when it has none. */
bool system_help(const struct game *g, power_id p, struct buf *out);
/* Resolve the phase b of g with the orders into res by g's system
 * (its resolve, else the engine's adj_resolve), and into why the reasons
 * of each unit's result when why is not NULL (for a report). */
void system_resolve(const struct game *g, const struct board *b, const struct order *orders,
    int norders, struct phase_result *res, struct phase_why *why);
/* Into capital (MAP_MAX_PROVS, by province): the power whose capital each
 * province of g is now, or POWER_NONE (its capitals, else the variant's). */
void system_capitals(const struct game *g, power_id *capital);

/* The command cmd of system s that who may give, or NULL. */
const struct command_handler *system_command(const struct rule_system *s, enum command cmd,
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
