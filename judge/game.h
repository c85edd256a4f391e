/*
 * game.h — one game: its settings, delegations, observers, the position
 * and the orders given so far, in memory and as a text file.
 *
 * The file (game.txt in the game's folder) is line-oriented "key value",
 * readable and editable by a host in an emergency; see the tables of
 * fields (struct game_field: the common one in game.c, a rule system's own
 * in its module) for every key. It is always replaced whole and
 * atomically by the shell.
 * History (one file per adjudicated phase), the audit log and the press
 * archive live beside it, append-only.
 *
 * A game holds pointers to its variant (struct map) and name index, shared
 * between games of the same variant and owned by the judge, and to its
 * rule system, whose state of its own (g->state) it owns.
 */
#ifndef POUCH_GAME_H
#define POUCH_GAME_H

#include <stdbool.h>
#include <time.h>

#include "../lib/buf.h"
#include "../parser/names.h"
#include "engine/board.h"
#include "engine/map.h"
#include "engine/muna_rules.h"
#include "engine/order.h"
#include "engine/rules.h"
#include "secret.h"

struct rule_system;
struct tz_lookup;

#define GAME_NAME_MAX 24
#define ADDR_MAX 128
#define ZONE_MAX 48
#define GAME_MAX_MEMBERS 8
#define GAME_MAX_OBSERVERS 32
#define GAME_MAX_BOUNCING 32
#define BOUNCE_LIMIT 3		/* bounces after which an address is not written to */
#define GAME_MAX_GMS 4
#define GAME_MAX_ORDERS 80
#define GAME_MAX_YEARS 120
#define GAME_MAX_AWARDS 128
#define AWARD_REASON_MAX 160
#define GAME_GOALS 3		/* political goals a delegation may have (AWARD ... GOAL n) */

enum game_status { GAME_FORMING = 0, GAME_ACTIVE, GAME_PAUSED, GAME_ENDED };
/* Press between powers: none; white (signed, to anyone or everyone); grey (white, and
 * anonymous); private (signed, to named powers only: no BROADCAST but the GM's). */
enum press_policy { PRESS_NONE = 0, PRESS_WHITE, PRESS_GREY, PRESS_PRIVATE };
enum nmr_policy { NMR_WAIT = 0, NMR_CD };
enum vote { VOTE_NONE = 0, VOTE_DRAW, VOTE_CONCEDE };

struct member {
	char addr[ADDR_MAX];
	char zone[ZONE_MAX];	/* for showing times; "" = the game's zone */
};

/* A game holds a delegation for every power, and a judge all its games at
 * once: its members and orders are kept in arrays as long as they are
 * (game_member_room, game_set_order), not room for the most of each, so
 * that a delegation takes some 200 bytes and its records, not 2.5 KB. */
struct delegation {
	int nmembers;
	struct member *members;		/* nmembers of them (game_member_room); NULL: none yet */
	char secret[SECRET_HASH_MAX];	/* hash; "" = nobody may order (civil disorder) */
	bool wait;			/* WAIT: do not process early */
	bool resigned;			/* RESIGN/EJECT: in civil disorder until replaced */
	bool reminded;			/* reminder sent for the current phase */
	uint8_t vote;			/* enum vote */
	power_id concede_to;
	int points;			/* political (victory) points: the GM's awards and
					   those of the rules */
	int norders;
	int orders_room;		/* orders has room for this many */
	struct order *orders;		/* the current phase's orders (game_set_order) */
};

/* Political points given or taken, with the reason, for the reports. */
struct award {
	char phase[8];			/* the phase it was given in: "S1936M" */
	power_id power;
	bool rules;			/* earned under the rules (an insurrection), not
					   given by the officers */
	int points;			/* negative: revoked */
	char reason[AWARD_REASON_MAX];
};

struct game_settings {
	char variant[32];
	enum edition edition;
	long duration[3];	/* seconds per phase type (movement, retreat, adjustment) */
	int deadline_minute;	/* fixed time of day (minutes after local midnight), -1: none */
	uint8_t days;		/* allowed weekdays, bit 0 = Sunday; 0: any day */
	long grace;		/* civil disorder waits this long after the deadline */
	long remind;		/* remind this long before the deadline; 0: never */
	char zone[ZONE_MAX];	/* the game's time zone */
	enum press_policy press;
	enum nmr_policy nmr;
	bool gm_reads_press;	/* the GM gets copies of private press (players are told) */
	long first_movement;	/* the first movement phase's length; 0: as the others */
	bool dated_orders;	/* orders need a date line above them ("Spring 1935") */
};

struct game {
	char name[GAME_NAME_MAX];
	struct game_settings set;
	enum game_status status;
	char result[200];		/* how it ended */
	int ngms;
	char gms[GAME_MAX_GMS][ADDR_MAX];
	char gm_secret[SECRET_HASH_MAX];
	time_t created;
	time_t phase_start;
	time_t deadline;		/* of the current phase; 0 while forming or paused */
	long paused_left;		/* seconds that were left when paused */
	bool gm_told;			/* the late delegations and the GMs were told the
					   deadline passed with orders missing */
	time_t completed_at;		/* when the orders missing at the deadline were
					   all in (the arrival of that message), until the
					   end of the run decides the phase; 0: not */
	long seq;			/* last inbound message applied */
	int nphases;			/* history records written */
	int rewinds;			/* times the clock was set back over a phase count
					   it had passed (ROLLBACK, a deadline set again
					   after its notice): names its messages apart */
	/* The records below (observers, bouncing, years, awards) have room for
	 * their most only once the first is kept (GAME_ROOM): NULL before, so
	 * that a game without them is small. */
	int nobservers;
	char (*observers)[ADDR_MAX];	/* GAME_MAX_OBSERVERS */
	int nbouncing;			/* addresses whose mail came back */
	struct game_bounce {
		char addr[ADDR_MAX];
		int count;		/* BOUNCE_LIMIT or more: suspended */
	} *bouncing;			/* GAME_MAX_BOUNCING */
	struct delegation *del;		/* one for each power of the map (at least one):
					   ndel of them; see game_fit_delegations */
	int ndel;
	struct board board;
	int nyears;			/* centre counts at the end of each year */
	struct game_year {
		int year;
		uint8_t centres[MAP_MAX_POWERS];
	} *years;			/* GAME_MAX_YEARS */
	int nawards;			/* the latest GAME_MAX_AWARDS awards */
	struct award *awards;		/* GAME_MAX_AWARDS */

	/* Not stored: set when loading. */
	const struct map *map;
	const struct names *names;
	struct rules rules;
	const struct rule_system *sys;	/* its rules' module (judge/system.h) */
	void *state;			/* the system's own state (its state_new), or NULL */
};

/*
 * Change one setting by name (the table of settings in game.c: each key
 * with the kind of value it takes, such as press none|white|grey|private, movement
 * 48h, time HH:MM|none, days mon,wed,fri|any); a zone must be one zones
 * knows. Returns 0, or -1 with the reason in why (an unknown key: the keys).
 * The judge's settings only: game_set knows a rule system's own too.
 */
int game_settings_set(struct game_settings *s, const char *key, const char *value,
    const struct tz_lookup *zones, struct buf *why);
/* Change one setting of g by name, the judge's or its rule system's
 * (struct system_setting), as game_settings_set: 0, or -1 with why. */
int game_set(struct game *g, const char *key, const char *value, const struct tz_lookup *zones,
    struct buf *why);
/* Room for max records at *slot (a game's observers, bouncing, years or
 * awards; see GAME_ROOM), made when it has none yet; freed by game_free. */
void game_room(void *slot, size_t max, size_t size);
#define GAME_ROOM(g, field, max) game_room(&(g)->field, (max), sizeof *(g)->field)

/* Room for n members (at most GAME_MAX_MEMBERS) in delegation d: those
 * beyond nmembers are made blank; d->nmembers is the caller's to set. */
void game_member_room(struct delegation *d, int n);
/* Give g a delegation for each power of its map: after game_init or
 * game_read, again when a rule system adds powers to its game's map. */
void game_fit_delegations(struct game *g);
/* Default settings for a new game of variant (copied). */
void game_settings_default(struct game_settings *s, const char *variant);
/*
 * Set up a new game (g zeroed): settings, the variant's starting position,
 * status FORMING (delegations not yet complete). m and nm must outlive it.
 */
void game_init(struct game *g, const char *name, const struct game_settings *s,
    const struct map *m, const struct names *nm, time_t now);

/*
 * The game file's fields. A field is a key (or several, blank-separated,
 * read by one reader) with its writer and its reader side by side, so that
 * nothing is written that is not read back, or read that is not written.
 * game_write() writes the parts in the order below and, in each part, the
 * common table's fields, then those of the rule systems' tables; the two
 * parts of the delegations are written power by power, their lines read
 * "KEY POWER ...". game_read() finds each line's field by its key.
 */
enum game_part {
	GAME_PART_HEAD,		/* the game and its settings */
	GAME_PART_SETTING,	/* a rule system's settings, among the judge's in
				   the head where the common table marks */
	GAME_PART_POWER,	/* a delegation's lines */
	GAME_PART_ORDERS,	/* then its orders */
	GAME_PART_STATE,	/* after the delegations: a rule system's state */
	GAME_PART_POSITION,	/* last: the centre counts and the board */
};

#define GAME_FIELD_OPTIONAL 1u	/* the shared writers: no line when zero or "" */

/* What a reader works on: the game, the line's key and number; pending
 * belongs to game_read() (the board and the orders, read at the end). */
struct game_in {
	struct game *g;
	const char *key;
	int line;
	struct game_pending *pending;
	const struct game_lookup *lookup;
};

struct game_field {
	const char *keys;
	enum game_part part;
	/* Append the field's lines (those of power p in the delegations' parts,
	 * else p is POWER_NONE). */
	void (*write)(const struct game_field *f, const struct game *g, power_id p,
	    struct buf *out);
	/* Read the value v of one line (after the power in the delegations'
	 * parts). Returns NULL, or what is wrong for "LINE: what: KEY". */
	const char *(*read)(const struct game_field *f, struct game_in *in, power_id p,
	    const char *v);
	/* For the shared writers and readers: where the value is (in struct
	 * game, or in struct delegation in the delegations' parts), the range
	 * of a number or the size of a text, GAME_FIELD_ flags. */
	size_t off;
	long min, max;
	unsigned flags;
};

struct game_field_table {
	const struct game_field *fields;
	size_t n;
};

/* The fields of every game. A rule system's own are in its table
 * (struct rule_system, fields), read and written after these. */
extern const struct game_field_table game_common_fields;

/* Append a span of seconds as a game file writes it ("48h", or "90m"
 * when not whole hours) and the line's end. */
void game_put_span(struct buf *out, long seconds);
/* Shared writers and readers for the systems' tables: a text (at f->off,
 * of size f->max; GAME_FIELD_OPTIONAL: no line when ""). */
void game_field_write_text(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out);
const char *game_field_read_text(const struct game_field *f, struct game_in *in, power_id p,
    const char *v);
/* Append how each line of f begins: "KEY", or "KEY POWER" for power p. */
void game_field_key(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out);
/* The next word of *v as a power of map m (*v then past the blanks after
 * it), or POWER_NONE. */
power_id game_scan_power(const struct map *m, const char **v);

/* Where game_read() finds a variant (its map and name index) and the rule
 * system that plays it, by the variant's name; system may be NULL (the
 * game then has none, and a line of a system's table is an error). */
struct game_lookup {
	void *ctx;
	const struct map *(*variant)(void *ctx, const char *name, const struct names **nm);
	const struct rule_system *(*system)(void *ctx, const struct map *m);
	/* Is key a setting some rule system keeps as its own (struct
	 * system_setting)? A game of other rules may carry its line from
	 * when every game took it: read as nothing. NULL: no key is. */
	bool (*setting)(void *ctx, const char *key);
};

/* Append the file form of g to out: every field of the common table and
 * of its system's. */
void game_write(const struct game *g, struct buf *out);
/*
 * Read a game file. The variant and its system are looked up through lk.
 * Errors are appended to err as "LINE: message". Returns 0 or -1 (g must
 * still be freed with game_free).
 */
int game_read(struct game *g, const char *text, size_t len, const struct game_lookup *lk,
    struct buf *err);
/* The position orders are read against: g's board, or in a Realpolitik
 * game its copy in plain without the mark of armies on board (the order
 * parser knows units by type: board_plain). */
const struct board *game_parse_board(const struct game *g, struct board *plain);
/* How many units power p may raise in g's Winter: its rule system's count
 * (build_sites), else its free home centres (adj_build_sites). */
int game_build_sites(const struct game *g, power_id p);
/* How many adjustments power p may order this phase: its builds (no more
 * than it has places to build in) or its removals; 0 when none. */
int game_adjustments_allowed(const struct game *g, power_id p);
/* True when o, a build, waiver or removal of power p, would come beyond
 * what p may order: all of them ordered already and o replacing none. */
bool game_adjustment_extra(const struct game *g, power_id p, const struct order *o);
/* Give g its rule system s (may be NULL) and the system's fresh state. */
void game_set_system(struct game *g, const struct rule_system *s);
/* Free what game g holds (its system's state, its delegations and the
 * records given room by game_room), not g itself. */
void game_release(struct game *g);
/* Free g (allocated by the caller) and all it holds. NULL: nothing. */
void game_free(struct game *g);

/* Where g is, in a few words: its rule system's stage, or its phase
 * ("Spring 1901 Movement"), into out. Returns out. */
char *game_stage(const struct game *g, char *out, size_t size);
/* True when name is a valid game name (letters, digits, '-', '_'; 1..23). */
bool game_name_valid(const char *name);
/* The delegation of power p. */
static inline struct delegation *
game_del(struct game *g, power_id p)
{
	return &g->del[p];
}
/* The power whose delegation has member addr, or POWER_NONE. */
power_id game_power_of(const struct game *g, const char *addr);
/* True when one delegation holds powers p and q (the same password hash,
 * set by one DELEGATION naming both; p == q counts). */
bool game_held_together(const struct game *g, power_id p, power_id q);
/* True when power p is the first of the powers its delegation holds. */
bool game_first_held(const struct game *g, power_id p);
/* True when addr is one of the game's GMs. */
bool game_is_gm(const struct game *g, const char *addr);
/* True when power p is still in the game (has units or centres). */
bool game_alive(const struct game *g, power_id p);
/* True when power p has to give orders in the current phase. */
bool game_must_order(const struct game *g, power_id p);
/* True when power p's orders for the current phase are complete. */
bool game_orders_complete(const struct game *g, power_id p);
/* Add or replace an order of power p (by unit; adjustments by province;
 * in Realpolitik, a stack's units in turn and a province's builds up to
 * the builds due). Returns 0, or -1 when the order list is full. */
int game_set_order(struct game *g, power_id p, const struct order *o);
/* Realpolitik: when o, an order of p to a stack whose every unit has an
 * order already, would replace one of them (game_set_order), that order's
 * index in p's orders, with the stack's units in *units; a build when
 * every build due has an order, the last build in its place (*units 0);
 * else -1. */
int game_stack_replaces(const struct game *g, power_id p, const struct order *o, int *units);
/* True when power p has an order for province q already (a build, a
 * removal, or a unit's order there). */
bool game_ordered_in(const struct game *g, power_id p, prov_id q);
/* Forget all orders of power p (or of every power when p is POWER_NONE). */
void game_clear_orders(struct game *g, power_id p);

/* Set g->rules from the edition and the variant's rule options. */
void game_set_rules(struct game *g);
/* Append an order of power p as the game file has it (an order with a
 * list, its whole list: its rule system's). */
void game_format_order(const struct game *g, power_id p, const struct order *o, struct buf *out);
/* Record political points (negative: revoked) given to power p in the
 * current phase, adding them to its total. rules: earned under the rules. */
void game_award(struct game *g, power_id p, int points, bool rules, const char *reason);
/* A rollback to the phase of b: forget the points the rules gave in it
 * and later (insurrections). The officers' stay. */
void game_forget_since(struct game *g, const struct board *b);
/* Is the phase of code ("S1901M") at or after b's? */
bool game_phase_since(const char *code, const struct board *b);
/* The victory point standings (judge/engine/muna_rules.h); returns the number of rows. */
int game_standings(const struct game *g, const struct board *b, struct standing *out);
/* True when the game keeps victory point standings (RULES_POINTS). */
bool game_victory_points(const struct game *g);

/* "none", "white", "grey" and back. */
const char *game_press_name(enum press_policy p);
/* "forming", "active", "paused", "ended" ("?" for another value). */
const char *game_status_name(enum game_status s);

#endif
