/*
 * muna_rules.h — the rules of the MUN Alfrink 1935 Historical Committee variant
 * that a map cannot express: insurrections that revive an eliminated
 * power, victory points with the control bonus, and the conference's
 * ending conditions. Each is a rule option the variant file switches on
 * (maps/FORMAT.md); judge/systems/MUNA.md gives the rules with every decision the
 * rulebook leaves open.
 *
 * API
 *
 * An insurrection is ordered in a movement phase and carried out when its
 * season ends, after the retreats and before the Fall centres change hands:
 *
 *	muna_season_take(m, before, orders, n, res, revival, &season);
 *	... a retreat phase may come in between (the season is kept in the
 *	    game file) ...
 *	muna_resolve(m, &board, &season, &result);   // the board changes
 *	muna_report(m, &season, &result, &text);
 *
 * Victory points are worked out from the board and what the game keeps
 * (political points, the control bonus): muna_standings().
 *
 * Pure: no I/O, no allocation.
 */
#ifndef POUCH_MUNA_RULES_H
#define POUCH_MUNA_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/buf.h"
#include "adjudicate.h"
#include "board.h"
#include "map.h"
#include "order.h"

#define MUNA_MAX_INSURGENTS 64
#define MUNA_REVIVAL_UNITS 3	/* units that win back three home centres */
#define MUNA_FULL_UNITS 4	/* units that win back all of them */
#define MUNA_REVIVAL_CENTRES 3	/* centres three units win back; the fewest a
				   revival order names */
#define MUNA_BONUS_POINTS 5	/* for reaching the control-bonus centres, once */
#define MUNA_INSURGENT_POINT 2	/* units of one power in one revival that earn it a point */

/* A unit given an insurrection order this season. */
struct insurgent {
	struct unit unit;	/* where it stood; unit.power sent it */
	power_id target;	/* the power it is to revive */
	bool dislodged;		/* it did not turn up: the insurrection fails */
};

/* The insurrections of the season under way: what the movement phase
 * ordered, kept until the season ends. */
struct muna_season {
	int n;
	struct insurgent u[MUNA_MAX_INSURGENTS];
	struct order_prefs revival[MAP_MAX_POWERS];	/* revival orders filed (n = 0: none) */
};

enum muna_outcome {
	MUNA_REVIVED = 0,
	MUNA_UNIT_MISSING,	/* a promised unit was dislodged */
	MUNA_NO_REVIVAL,	/* the power filed no valid revival order */
	MUNA_TOO_FEW,		/* fewer than MUNA_REVIVAL_UNITS units */
	MUNA_NO_CENTRE,		/* every centre named is occupied and too few units to take one */
};

/* What became of the insurrection in one power. */
struct muna_rising {
	power_id target;
	uint8_t outcome;		/* enum muna_outcome */
	int nunits;			/* units that joined */
	struct unit missing;		/* MUNA_UNIT_MISSING: the dislodged unit */
	int nregained;
	prov_id regained[ORDER_MAX_PREFS];	/* in the order taken */
	int nskipped;
	prov_id skipped[ORDER_MAX_PREFS];	/* named, occupied, and not enough units */
	int ndestroyed;
	struct unit destroyed[ORDER_MAX_PREFS];	/* occupiers swept away */
	uint8_t points[MAP_MAX_POWERS];	/* victory points earned by the helpers */
};

struct muna_result {
	int n;
	struct muna_rising r[MAP_MAX_POWERS];
	int ndisbanded;
	struct unit disbanded[MUNA_MAX_INSURGENTS];	/* insurgents that left the board */
};

/* Check a revival order of power p for board b: R_OK, or why it is not
 * valid (R_WRONG_PHASE, R_NOT_ELIMINATED, R_NOT_HOME, R_FEW_CENTRES). */
enum reason muna_check_revival(const struct map *m, const struct board *b, power_id p,
    const struct order_prefs *prefs);

/* Forget the season. */
void muna_season_clear(struct muna_season *s);
/* True when the season has anything for muna_resolve. */
bool muna_season_pending(const struct muna_season *s);
/*
 * Record what a movement phase (position b, orders and their results res)
 * ordered: every insurrection order its unit carried out or was dislodged
 * doing, and the revival orders in revival[power] (prefs the orders stand
 * for; revival orders that are not valid are left out). s is cleared first.
 */
void muna_season_take(const struct map *m, const struct board *b, const struct order *orders,
    int norders, const struct phase_result *res, const struct order_prefs *revival,
    struct muna_season *s);
/*
 * The season is over (b: the position after its moves and retreats, no
 * dislodged units left): the insurgents leave the board and every
 * insurrection is decided. A revived power takes back its centres and an
 * army stands in each; occupiers of centres it takes are destroyed.
 * Results in out.
 */
void muna_resolve(const struct map *m, struct board *b, const struct muna_season *s,
    struct muna_result *out);
enum muna_step {
	MUNA_QUIET = 0,		/* no insurrection under way */
	MUNA_WAITING,		/* recorded; the season ends after the retreats */
	MUNA_DECIDED,		/* the season ended: decided */
};

/*
 * Move the insurrections on with a processed phase (before: its position,
 * orders and res: what was ordered and its results; next: the resolved
 * position, before phase_next). A movement phase records its
 * insurrections in s (revival[p]: the lists of the revival orders). When
 * the season ends on next, they are decided there (muna_resolve, results
 * in out); s is left for the report: clear it after.
 */
enum muna_step muna_season_step(const struct map *m, const struct board *before,
    const struct order *orders, int norders, const struct phase_result *res,
    const struct order_prefs *revival, struct muna_season *s, struct board *next,
    struct muna_result *out);
/* Describe the season's insurrections and what became of them in plain words. */
void muna_report(const struct map *m, const struct muna_season *s, const struct muna_result *r,
    struct buf *out);
/* The insurrections of a movement phase that is followed by retreats:
 * what waits for the end of the season. */
void muna_report_pending(const struct map *m, const struct muna_season *s, struct buf *out);

/* The capabilities (judge/engine/resolver.h) the variant's options switch
 * on: RULES_REVIVAL (insurrection), RULES_POINTS (victory-points),
 * RULES_BUILD_TYPE (build-type). */
unsigned muna_caps(const struct map *m);

/* ------------------------------------------------------ victory points -- */

/* The centres that earn the control bonus (option control-bonus), or 0. */
int muna_control_centres(const struct map *m);

struct standing {
	power_id power;
	int centres;
	int political;
	int bonus;
	int total;
};

/*
 * The standings on b: one row per power, best first (total, then centres,
 * then the map's order). points[p] are p's political points, bonus[p]
 * whether it has earned the control bonus. Returns the number of rows.
 */
int muna_standings(const struct map *m, const struct board *b, const int *points,
    const bool *bonus, struct standing *out);
/* The standings as a table, headed by title. */
void muna_standings_table(const struct map *m, const struct standing *s, int n,
    const char *title, struct buf *out);

/* ---------------------------------------------------------- conferences -- */

struct conference {
	prov_id where;		/* PROV_NONE: no conference */
	int year;		/* opened in this year and season: */
	uint8_t season;		/* it lasts until the same season a year later */
	uint64_t powers;	/* participants, a bit per power */
	char name[96];		/* "" : "the conference in <where>" */
	char goal[160];		/* its preliminary goal, as the officers wrote it; "": none */
};

enum conference_end {
	CONF_GOES_ON = 0,
	CONF_EXPIRED,		/* a game year has passed */
	CONF_OCCUPIED,		/* a unit of another power is in its location */
	CONF_TAKEN,		/* its location changed hands to another power */
};

/* A unit on b in the conference's place that is not a participant's, or
 * NULL: the location must be free of such units to open a conference. */
const struct unit *muna_conference_hostile(const struct map *m, const struct board *b,
    const struct conference *c);
/* Does the conference end now that the game went from before to next? */
enum conference_end muna_conference_check(const struct map *m, const struct conference *c,
    const struct board *before, const struct board *next);
/* The conference's name: its own, or "the conference in Munich". */
void muna_conference_name(const struct map *m, const struct conference *c, struct buf *out);
/* "England, France and Germany". */
void muna_conference_powers(const struct map *m, const struct conference *c, struct buf *out);

#endif
