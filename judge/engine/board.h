/*
 * board.h — a position: the phase, the units, dislodged units and the
 * owners of supply centres. Plain data with fixed capacity, so a board can
 * be copied with = and the adjudicator never allocates.
 *
 * Several units may share a province (RULES_STACKS, Realpolitik's); the
 * standard adjudicator checks that they do not.
 *
 * Text form (one line each, see board_write): the state file of a game and
 * the working format of the test tools.
 *
 *	phase Spring 1901 Movement
 *	unit England F stp/sc
 *	dislodged Turkey A bul from rum
 *	contested gal
 *	owner England lon
 */
#ifndef POUCH_BOARD_H
#define POUCH_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/buf.h"
#include "map.h"

#define BOARD_MAX_UNITS 256

enum season { SEASON_SPRING = 0, SEASON_FALL = 1, SEASON_WINTER = 2 };
enum phase_type { PHASE_MOVEMENT = 0, PHASE_RETREAT = 1, PHASE_ADJUSTMENT = 2 };

/*
 * Realpolitik: an army on board a fleet stands on the fleet's location
 * with this bit set in its type (type is then UNIT_ARMY | UNIT_ABOARD).
 * It rides the fleet of its power in that province (with several, the
 * k-th army on board rides the k-th fleet in board order: see
 * judge/engine/realpolitik_rules.h). Only a Realpolitik board has it.
 */
#define UNIT_ABOARD 0x80u

struct unit {
	uint8_t type;		/* enum unit_type, with UNIT_ABOARD (Realpolitik) */
	power_id power;
	loc_id loc;
};

struct dislodged {
	struct unit unit;
	prov_id attacker;	/* where the dislodging unit came from: no retreat there;
				   PROV_NONE when the rules allow it (attack by convoy, 2023) */
};

struct board {
	int year;
	uint8_t season;		/* enum season */
	uint8_t phase;		/* enum phase_type */
	uint16_t nunits;
	struct unit units[BOARD_MAX_UNITS];
	uint16_t ndislodged;
	struct dislodged dislodged[BOARD_MAX_UNITS];
	power_id owner[MAP_MAX_PROVS];			/* supply centre owners */
	uint64_t contested[MAP_WORDS(MAP_MAX_PROVS)];	/* left empty by a standoff */
};

/* The starting position of the map: Spring START Movement, starting units,
 * home centres owned by their powers. */
void board_init_start(struct board *b, const struct map *m);
/* Copy from into to: what a board holds (units and dislodged units past
 * their counts are left as they are: nothing reads them), cheaper than =. */
void board_copy(struct board *to, const struct board *from);

/* An empty board at the given phase: no units, no owners. */
void board_init_empty(struct board *b, int year, enum season s, enum phase_type p);
/* Clear UNIT_ABOARD on every unit: the board as the order parser and the
 * standard rules read it (they index by unit type). */
void board_plain(struct board *b);
/* Add a unit. Returns its index, or -1 when the board is full. */
int board_add_unit(struct board *b, enum unit_type t, power_id p, loc_id l);
/* Remove unit i (later units move down one place). */
void board_remove_unit(struct board *b, int i);
/* Index of the first unit in province p, or -1. */
int board_unit_in(const struct board *b, const struct map *m, prov_id p);
/* Number of units of power p. */
int board_count_units(const struct board *b, power_id p);
/* Number of supply centres owned by power p. */
int board_count_centres(const struct board *b, const struct map *m, power_id p);
/* True when power p has no unit (dislodged or not) and no centre on b. */
bool board_eliminated(const struct board *b, const struct map *m, power_id p);
/* Set the owner of every supply centre that holds a unit to that unit's power. */
void board_take_centres(struct board *b, const struct map *m);
/* qsort comparator for struct unit: by location, then power, then type. */
int unit_cmp(const void *a, const void *b);
/* Sort units (and dislodged units) by location, so boards compare and print canonically. */
void board_sort(struct board *b);

static inline bool
board_contested(const struct board *b, prov_id p)
{
	return (b->contested[p / 64] >> (p % 64)) & 1u;
}

static inline void
board_set_contested(struct board *b, prov_id p)
{
	b->contested[p / 64] |= (uint64_t)1 << (p % 64);
}

/* "Spring", "Fall", "Winter". */
const char *season_name(enum season s);
/* "Movement", "Retreat", "Adjustment". */
const char *phase_type_name(enum phase_type p);
/* "Spring 1901 Movement" into out (size >= 32). Returns out. */
char *phase_format(const struct board *b, char *out, size_t size);
/*
 * Parse a phase name: "Spring 1901 Movement", "S1901M", "Fall 1901, Retreat",
 * "1901 Fall Adjustment", "Winter 1901" (adjustment). A Fall adjustment is
 * stored as Winter. Returns 0 or -1.
 */
int phase_parse(const char *s, int *year, enum season *season, enum phase_type *phase);
/* "S1901M", "F1901R", "W1901A" into out. */
void phase_code(const struct board *b, char *out, size_t size);
/* Compare two phases in time order (<0, 0, >0). */
int phase_cmp(int y1, enum season s1, enum phase_type p1, int y2, enum season s2,
    enum phase_type p2);

/* Read "POWER T LOC" (T: A, F, army or fleet) at the cursor *p and move it
 * past them; "POWER A LOC aboard" is an army on board (UNIT_ABOARD).
 * Returns 0, or -1 with a message in why (*p not moved). */
int board_parse_unit(const struct map *m, const char **p, struct unit *u, const char **why);
/* Army u (its loc read) on board: on the main location of its province,
 * which must be a sea or a coast of a map whose armies board (RULES_BOARDING);
 * *p is set to end. Returns 0, or -1 with a message in why. */
int board_aboard(const struct map *m, const char **p, const char *end, struct unit *u,
    const char **why);
/* Append "F stp/sc" for unit u ("A nth aboard" for an army on board). */
void unit_format(const struct map *m, const struct unit *u, struct buf *out);

/* Append the text form of b (see above). Units are listed in location order. */
void board_write(const struct board *b, const struct map *m, struct buf *out);
/*
 * Read a board in text form. Lines that do not start with one of the
 * keywords are errors, reported as "LINE: message" in err. Returns 0 or -1.
 */
int board_read(struct board *b, const struct map *m, const char *text, size_t len,
    struct buf *err);

#endif
