/*
 * adjudicate.h — resolve a phase: movement, retreats, adjustments.
 *
 * API
 *
 *	struct phase_result res;
 *	adj_resolve(map, rules, board, orders, norders, &res, NULL);
 *	// res.reason[i]     outcome of orders[i]
 *	// res.unit_order[u] which order unit u executed (-1: none, it held)
 *	// res.after         the position once the phase is resolved
 *	phase_next(map, rules, &res.after);	// on to the next phase with decisions
 *
 * The orders are what the powers submitted, in submission order, possibly
 * illegal, duplicated or addressed to units that do not exist. Each one
 * gets a reason code (order.h); a unit without a legal order holds.
 *
 * Movement is resolved with Kruijswijk's guess-and-backup algorithm (DATC
 * chapter 5; "The Math of Adjudication"): every MOVE, SUPPORT and CONVOY
 * is a decision; cycles are settled by the backup rule, circular movement
 * (all moves in the cycle succeed) or, when a convoy is part of the cycle,
 * the Szykman rule (the convoying fleets in the paradox are ignored).
 * Nothing is allocated: the working storage lives on the stack, sized by
 * BOARD_MAX_UNITS and MAP_MAX_PROVS.
 *
 * The result struct is large (about 10 KiB); the caller owns it.
 */
#ifndef POUCH_ADJUDICATE_H
#define POUCH_ADJUDICATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/buf.h"
#include "board.h"
#include "map.h"
#include "order.h"
#include "rules.h"

#define ADJ_MAX_ORDERS 1024

struct phase_result {
	int norders;
	uint8_t reason[ADJ_MAX_ORDERS];		/* enum reason, per submitted order */
	int16_t order_unit[ADJ_MAX_ORDERS];	/* unit addressed (board index), or -1 */

	/* Per unit of the input board (retreat phase: per dislodged unit). */
	int nunits;
	int16_t unit_order[BOARD_MAX_UNITS];	/* executed order, or -1 (held / disbanded) */
	uint8_t unit_reason[BOARD_MAX_UNITS];	/* enum reason of what the unit did */
	uint8_t unit_dislodged[BOARD_MAX_UNITS]; /* movement: 1 when dislodged */

	/* Adjustment phase: units removed by the civil-disorder rule. */
	int nremoved;
	struct unit removed[BOARD_MAX_UNITS];

	struct board after;	/* the position with the phase resolved (same phase label) */
};

/*
 * Why each unit's order failed, and what dislodged it, as the resolver
 * decided (adj_resolve_why): filled after the phase is resolved, from the
 * resolver's own decisions, only when asked for. Units are indices of the
 * input board, -1 for none.
 */
enum why {
	WHY_NONE = 0,		/* it did what it was ordered to (or held) */
	WHY_BOUNCED,		/* move: stood off by other (how), mine against theirs;
				   other2: a support of the other's power, which did
				   not count against its unit */
	WHY_OWN_UNIT,		/* move: other, of its own power, stays there */
	WHY_CUT,		/* support: cut by the move of other (how 1: other dislodged
				   the supporter, coming from where the support goes) */
	WHY_VOID,		/* support or convoy: other (or nobody) did not do that */
	WHY_CONVOY_BROKEN,	/* move: the convoying fleet other was dislodged by other2 */
	WHY_NO_ROUTE,		/* move: no fleets were ordered to carry it all the way */
	WHY_PARADOX,		/* move or convoy: the convoy was set aside (Szykman rule) */
	/* a rule system's own rules (Realpolitik: resolver.h) */
	WHY_STACK,		/* move: other, of its own power, stays there and they may
				   not share the province */
	WHY_FLEET_STAYED,	/* landing: the fleet other did not get away */
	WHY_FLEET_STILL,	/* landing: the fleet other was not ordered to move */
	WHY_FLEET_LEFT,		/* boarding: the fleet other moved away */
	WHY_FLEET_MISSED,	/* boarding: the fleet other did not arrive */
	WHY_FLEET_LOST,		/* on board the fleet other, which was dislodged */
	/* retreats (units are the dislodged ones of the input board) */
	WHY_RETREAT_CLASH,	/* destroyed: other (other2, a third) retreated to the
				   same province */
	WHY_NO_RETREAT,		/* destroyed: no retreat was ordered for it (how 1: the
				   orders it was given could not be carried out) */
	/* a success, for the full account (EXPLAIN) */
	WHY_MOVED,		/* move: it won against other (how as a bounce's), mine
				   against theirs */
	WHY_MAX
};

/* How a move was stood off (enum why WHY_BOUNCED). */
enum why_how {
	HOW_HOLD = 0,		/* by the unit staying in the province */
	HOW_HEAD,		/* by the unit moving the other way (head to head) */
	HOW_PREVENT,		/* by another move into the province */
};

#define WHY_MAX_SUPPORTS 8

struct unit_why {
	uint8_t why;		/* enum why */
	uint8_t how;		/* enum why_how of a bounce; 1 for a cut by dislodgement */
	uint8_t mine, theirs;	/* strengths of a bounce: this move's, the other's */
	int16_t other, other2;	/* the units the reason names */
	/* Dislodged: by the move of unit by, its attack against this unit's
	 * defence, with the supports that counted. */
	int16_t by;
	uint8_t by_attack, by_defence;
	uint8_t nsup;
	int16_t sup[WHY_MAX_SUPPORTS];
};

struct phase_why {
	int nunits;		/* units of the input board, the dislodged ones of a
				   retreat phase (0: an adjustment phase) */
	int phase;		/* enum phase of the input board */
	bool successes;		/* report_why tells of a move that won too (the full
				   account of EXPLAIN; adj_resolve_why sets false) */
	struct unit_why u[BOARD_MAX_UNITS];
};

/*
 * Resolve the phase b->phase with the given orders. Always succeeds; orders
 * beyond ADJ_MAX_ORDERS are ignored (their reasons are not set). When trace
 * is not NULL, a step-by-step explanation of the movement results is appended.
 */
void adj_resolve(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *orders, int norders, struct phase_result *res, struct buf *trace);

/*
 * Check one order against board b as the adjudicator would, without the
 * other orders: R_OK when it is legal now (it may still fail), else the
 * reason it would be ignored. Used to answer players at submission time.
 */
enum reason adj_check(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *o);

/*
 * Move b (a resolved position, as adj_resolve leaves it) on to the next
 * phase that needs decisions: dislodged units that cannot retreat anywhere
 * are disbanded at once; a retreat phase only when some dislodged unit can
 * retreat; an adjustment phase only when some power must build or remove.
 * Centres change owner when the Fall season is over. Returns the number of
 * phases skipped.
 */
int phase_next(const struct map *m, const struct rules *r, struct board *b);

/* Disband the dislodged units of a resolved movement position b that have
 * nowhere to retreat (phase_next does this first). Returns how many are
 * left: they retreat, and the season is not over. */
int adj_disband_stranded(const struct map *m, struct board *b);

/* Where dislodged unit d may retreat on board b: fills out[] (if not NULL,
 * room for 16) and returns how many places there are. */
int adj_retreat_options(const struct map *m, const struct board *b, const struct dislodged *d,
    loc_id *out);

/*
 * The destination a fleet at from reaches when ordered to to: a coast must
 * be given when two coasts can be reached (DATC 4.B.1), is supplied when
 * only one can (4.B.2 a). Returns R_OK and sets *out, or the reason.
 */
enum reason adj_fleet_dest(const struct map *m, loc_id from, loc_id to, loc_id *out);

/*
 * The checking step of a movement resolver, over its working state w: each
 * order matched to its unit (addressed: the unit, or -1 with the reason),
 * checked into the unit's slots (check: R_OK, or why not with the slots
 * left as they were), a later legal order to a unit replacing an earlier
 * one (ord[u]: the order unit u carries out, -1 for none). Sets each
 * order's unit and reason in res (R_NONE: legal, to be decided).
 */
void adj_check_orders(void *w, const struct order *orders, int n, int16_t *ord,
    struct phase_result *res, int (*addressed)(void *w, const struct order *o, enum reason *why),
    enum reason (*check)(void *w, int u, const struct order *o));

/*
 * Resolve the phase b as adj_resolve does, with the capitals where a rule
 * system has moved them: seat, indexed by province, the power whose
 * capital the province is now (NULL: the map's). Only a system's own
 * resolver (rules->resolver, resolver.h) reads it.
 */
void adj_resolve_at(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct buf *trace);

/*
 * Resolve the phase b as adj_resolve_at does and fill why (not NULL) with
 * the resolver's reasons for each unit (a movement phase) or each
 * dislodged unit (a retreat phase; why->nunits is 0 for an adjustment
 * phase). For the results' words; the adjudication alone is adj_resolve.
 */
void adj_resolve_why(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct phase_why *why);

/*
 * Does why (adj_resolve_why) give every unit of the movement or retreat
 * phase res a reason that fits its result: a failure one for each failed
 * order (a bounce for a bounce, a cut for a cut, ...), the move that
 * dislodged each dislodged unit and a bounce's strengths that did not
 * win; a retreat destroyed by a clash names a unit destroyed by the same
 * clash, one destroyed without a retreat had none carried out? Returns
 * -1 when it does, else the first unit whose reason does not fit.
 */
int adj_why_check(const struct phase_result *res, const struct phase_why *why);

/* Builds (> 0) or removals (< 0) due to power p in an adjustment phase. */
int adj_builds_due(const struct map *m, const struct board *b, power_id p);
/* Number of places power p can build in now (owned, empty home centres;
 * or where the system's resolver says it may raise a unit). */
int adj_build_sites(const struct map *m, const struct rules *r, const struct board *b, power_id p);

/* The power owning at least m->victory_centres centres, or POWER_NONE. */
power_id board_winner(const struct map *m, const struct board *b);

#endif
