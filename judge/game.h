/*
 * game.h — one game: its settings, delegations, observers, the position
 * and the orders given so far, in memory and as a text file.
 *
 * The file (game.txt in the game's folder) is line-oriented "key value",
 * readable and editable by a host in an emergency; see game_write() for
 * every key. It is always replaced whole and atomically by the shell.
 * History (one file per adjudicated phase), the audit log and the press
 * archive live beside it, append-only.
 *
 * A game holds pointers to its variant (struct map) and name index, shared
 * between games of the same variant and owned by the judge.
 */
#ifndef POUCH_GAME_H
#define POUCH_GAME_H

#include <stdbool.h>
#include <time.h>

#include "../lib/buf.h"
#include "../parser/names.h"
#include "board.h"
#include "map.h"
#include "order.h"
#include "rules.h"
#include "secret.h"

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

enum game_status { GAME_FORMING = 0, GAME_ACTIVE, GAME_PAUSED, GAME_ENDED };
enum press_policy { PRESS_NONE = 0, PRESS_WHITE, PRESS_GREY };
enum nmr_policy { NMR_WAIT = 0, NMR_CD };
enum vote { VOTE_NONE = 0, VOTE_DRAW, VOTE_CONCEDE };

struct member {
	char addr[ADDR_MAX];
	char zone[ZONE_MAX];	/* for showing times; "" = the game's zone */
};

struct delegation {
	int nmembers;
	struct member members[GAME_MAX_MEMBERS];
	char secret[SECRET_HASH_MAX];	/* hash; "" = nobody may order (civil disorder) */
	bool wait;			/* WAIT: do not process early */
	bool resigned;			/* RESIGN/EJECT: in civil disorder until replaced */
	bool reminded;			/* reminder sent for the current phase */
	uint8_t vote;			/* enum vote */
	power_id concede_to;
	int points;			/* political (victory) points awarded by the GM */
	int norders;
	struct order orders[GAME_MAX_ORDERS];	/* the current phase's orders */
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
	bool gm_told;			/* the GMs were told the game waits for them */
	long seq;			/* last inbound message applied */
	int nphases;			/* history records written */
	int nobservers;
	char observers[GAME_MAX_OBSERVERS][ADDR_MAX];
	int nbouncing;			/* addresses whose mail came back */
	struct {
		char addr[ADDR_MAX];
		int count;		/* BOUNCE_LIMIT or more: suspended */
	} bouncing[GAME_MAX_BOUNCING];
	struct delegation del[MAP_MAX_POWERS];
	struct board board;
	int nyears;			/* centre counts at the end of each year */
	struct {
		int year;
		uint8_t centres[MAP_MAX_POWERS];
	} years[GAME_MAX_YEARS];

	/* Not stored: set when loading. */
	const struct map *map;
	const struct names *names;
	struct rules rules;
};

/*
 * Change one setting by name: edition, press (none|white|grey), nmr
 * (wait|cd), zone, movement/retreat/adjustment (spans such as 48h), grace,
 * remind, time (HH:MM or none), days (mon,wed,fri or any), gmpress (yes|no).
 * Returns 0, or -1 with the reason in why.
 */
int game_settings_set(struct game_settings *s, const char *key, const char *value,
    struct buf *why);
/* Default settings for a new game of variant (copied). */
void game_settings_default(struct game_settings *s, const char *variant);
/*
 * Set up a new game: settings, the variant's starting position, status
 * FORMING (delegations not yet complete). m and nm must outlive it.
 */
void game_init(struct game *g, const char *name, const struct game_settings *s,
    const struct map *m, const struct names *nm, time_t now);

/* Append the file form of g to out. */
void game_write(const struct game *g, struct buf *out);
/*
 * Read a game file. The variant is looked up through find (which returns
 * the map and its name index for a variant name, or NULL). Errors are
 * appended to err as "LINE: message". Returns 0 or -1.
 */
int game_read(struct game *g, const char *text, size_t len,
    const struct map *(*find)(void *ctx, const char *variant, const struct names **nm),
    void *ctx, struct buf *err);

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
/* True when addr is one of the game's GMs. */
bool game_is_gm(const struct game *g, const char *addr);
/* True when power p is still in the game (has units or centres). */
bool game_alive(const struct game *g, power_id p);
/* True when power p has to give orders in the current phase. */
bool game_must_order(const struct game *g, power_id p);
/* True when power p's orders for the current phase are complete. */
bool game_orders_complete(const struct game *g, power_id p);
/* Add or replace an order of power p (by unit; adjustments by province).
 * Returns 0, or -1 when the order list is full. */
int game_set_order(struct game *g, power_id p, const struct order *o);
/* Forget all orders of power p (or of every power when p is POWER_NONE). */
void game_clear_orders(struct game *g, power_id p);

/* "none", "white", "grey" and back. */
const char *press_name(enum press_policy p);
const char *status_name(enum game_status s);

#endif
