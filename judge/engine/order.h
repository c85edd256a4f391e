/*
 * order.h — orders as written, and the reason codes of their outcomes.
 *
 * A struct order records what a player wrote, already matched against the
 * map (locations are ids) but not yet checked against the board: the unit
 * may be missing, the move impossible. Checking and adjudication happen in
 * adjudicate.h, which gives every order a reason code. A player's illegal
 * order is data, never an error path.
 */
#ifndef POUCH_ORDER_H
#define POUCH_ORDER_H

#include <stdint.h>

#include "../../lib/buf.h"
#include "board.h"
#include "map.h"

enum order_kind {
	ORDER_NONE = 0,
	ORDER_HOLD,
	ORDER_MOVE,	/* in a retreat phase a move is read as a retreat */
	ORDER_SUPPORT,	/* dest == LOC_NONE: support to hold */
	ORDER_CONVOY,
	ORDER_RETREAT,
	ORDER_DISBAND,	/* retreat phase: disband a dislodged unit */
	ORDER_BUILD,
	ORDER_REMOVE,	/* adjustment phase */
	ORDER_WAIVE,
	/*
	 * Variant orders, read only when the variant's rule option is on.
	 * Without the option in struct rules the adjudicator answers them with
	 * R_WRONG_PHASE; MUNA's are carried out by judge/engine/muna_rules.h.
	 */
	ORDER_INSURRECTION,	/* "insurrection" (MUNA): "F Lon-Russia": the unit at loc
				   disbands to support the revival of target_power */
	ORDER_REVIVE,	/* "insurrection" (MUNA): an eliminated power names the home
			   centres it wants back, in order of preference; loc is the
			   first choice, the whole list is a struct order_prefs kept
			   beside the order (see below) */
	ORDER_EMBARK,	/* RULES_BOARDING: the army at loc goes on board the fleet at
			   target (LOC_NONE: the fleet in its province), moving first
			   to dest when one is given (LOC_NONE: it stays) */
	ORDER_LAND,	/* RULES_BOARDING: the army on board a fleet at loc goes ashore
			   at dest (the fleet's province unless written) */
};

struct order {
	uint8_t kind;		/* enum order_kind */
	power_id power;		/* the power giving the order (POWER_NONE: the unit's owner) */
	uint8_t type;		/* unit type as written; UNIT_NONE when omitted */
	uint8_t via_convoy;	/* move: "via convoy" or a route was written */
	loc_id loc;		/* the ordered unit (build: where to build) */
	uint8_t target_type;	/* support/convoy: the other unit's type as written */
	power_id target_power;	/* support/convoy: its power as written, or POWER_NONE;
				   insurrection: the power to revive */
	loc_id target;		/* support/convoy: the other unit's location */
	loc_id dest;		/* move/retreat/convoy/support-to-move: destination */
};

/*
 * A revival order's preference list. It is kept beside the order, not in
 * it: struct order is copied often and stays small, and a power files at
 * most one revival order a season, so whoever stores orders keeps one list
 * per power (the parser returns it in struct parse_result).
 */
#define ORDER_MAX_PREFS 8

struct order_prefs {
	uint8_t n;
	prov_id prov[ORDER_MAX_PREFS];	/* most wanted first */
};

/*
 * Reason codes. The first group describes what happened to a legal order,
 * the rest why an order was not carried out. Keep reason_text() in step.
 */
enum reason {
	R_NONE = 0,		/* not adjudicated */
	R_OK,			/* carried out: moved, held, supported, convoyed, built, ... */
	R_BOUNCED,		/* move: stood off or beaten */
	R_CUT,			/* support: cut (attacked, or the supporter was dislodged) */
	R_VOID,			/* support/convoy: the other unit was not ordered to match */
	R_NO_CONVOY,		/* move: no unbroken chain of convoying fleets */
	R_PARADOX,		/* convoy: set aside by the Szykman rule (convoy paradox) */
	R_DISLODGED,		/* hold/convoy: the unit was dislodged */
	/* checks against the board (the order is ignored; the unit holds) */
	R_NO_UNIT,		/* no unit at that location */
	R_FOREIGN_UNIT,		/* the unit belongs to another power */
	R_NOT_ADJACENT,		/* cannot reach the destination */
	R_BAD_COAST,		/* that coast cannot be reached */
	R_NEED_COAST,		/* both coasts can be reached: the coast must be given */
	R_SAME_PROVINCE,	/* move or support to the unit's own province */
	R_CANNOT_SUPPORT,	/* the supporter could not move to the province it supports */
	R_CANNOT_CONVOY,	/* fleet not at sea, or the convoyed unit is not an army */
	R_WRONG_PHASE,		/* not an order of this phase */
	R_REPLACED,		/* a later order to the same unit replaced this one */
	/* retreats */
	R_RETREAT_OCCUPIED,	/* destination occupied */
	R_RETREAT_ATTACKER,	/* destination is where the attacker came from */
	R_RETREAT_CONTESTED,	/* destination was left empty by a standoff */
	R_RETREAT_BOUNCED,	/* two retreats to one province: both disbanded */
	R_NOT_DISLODGED,	/* only dislodged units retreat or disband */
	/* adjustments */
	R_NOT_HOME,		/* build outside the power's home centres */
	R_NOT_OWNED,		/* home centre currently owned by another power */
	R_OCCUPIED,		/* a unit is already there */
	R_BAD_TERRAIN,		/* fleet inland / army at sea */
	R_NO_BUILDS,		/* no builds left */
	R_NO_REMOVALS,		/* no removals needed or left */
	R_REMOVED,		/* unit removed under the civil-disorder rule */
	R_DISBANDED,		/* dislodged unit disbanded (no order or no retreat) */
	/* variant rules (MUNA, judge/engine/muna_rules.h) */
	R_NOT_ELIMINATED,	/* insurrection or revival for a power still in the game */
	R_FEW_CENTRES,		/* revival order naming fewer than three home centres */
	/* Realpolitik (judge/engine/realpolitik_rules.h) */
	R_ABOARD,		/* an army on board a fleet may only land or stay on board */
	R_NOT_ABOARD,		/* landing: the army is not on board a fleet */
	R_NO_FLEET,		/* embarking: no fleet of its power there to take it, or the
				   fleet already carries an army */
	R_NO_CONVOYS,		/* fleets do not convoy in Realpolitik */
	R_NAME_COAST,		/* the map says a fleet ordered there names the coast */
	R_HEADQUARTERS,		/* Realpolitik: an army and a fleet do not come together by a
				   move in a capital or naval base */
	R_MAX
};

/* Short phrase for a reason ("bounced", "support cut", "no such unit", ...). */
const char *reason_text(enum reason r);
/* Stable machine name ("bounced", "cut", "no_unit", ...). */
const char *reason_name(enum reason r);
/* True for reasons that mean the order was refused before adjudication. */
int reason_is_illegal(enum reason r);

/* Order formats: ORDER_SHORT "A par - bur", ORDER_LONG "Army Paris -> Burgundy". */
enum order_style { ORDER_SHORT, ORDER_LONG };

/*
 * Append the canonical text of o (without the power). For orders whose unit
 * type was omitted, unit_type (from the board, or UNIT_NONE) is printed.
 * A revival order prints its first choice only: see order_format_prefs.
 */
void order_format(const struct map *m, const struct order *o, enum order_style style,
    struct buf *out);
/* Append a revival order with its whole list: "Revive mos, stp, war". */
void order_format_prefs(const struct map *m, const struct order_prefs *p,
    enum order_style style, struct buf *out);

#endif
