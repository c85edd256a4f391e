/*
 * realpolitik_rules.h — movement under Calhamer's Realpolitik rules (the
 * rule system's resolver; the rules and choices: judge/systems/REALPOLITIK.md).
 *
 * adj_resolve() comes here for a movement phase through the resolver
 * (resolver.h) a Realpolitik variant's rules are handed; the standard
 * adjudicator is not touched. What differs:
 *
 * - Stacks. A province may hold several units of one power: armies in one
 *   of its capitals, fleets in one of its naval bases (struct province's
 *   capital and naval_base). Orders to a province go to its units one by
 *   one, in the order written (a unit of the type written, not yet
 *   ordered; when all are, the last one's order is replaced). The units
 *   that stay defend as one: strength 1 plus the supports to hold the
 *   province. When a foreign unit enters, every unit left there is
 *   dislodged. A unit may enter a province its own power still holds only
 *   to join a stack it may join (an army into its capital among armies, a
 *   fleet into its naval base among fleets, a fleet picking up the army
 *   waiting for it outside the capitals and naval bases); otherwise the
 *   move fails.
 * - No convoys (R_NO_CONVOYS); armies go on board instead.
 * - Embarking (ORDER_EMBARK), not by a move into a capital or naval base
 *   (R_HEADQUARTERS): an army moves into the province where a fleet
 *   of its power lies and goes on board ("A Hol - Bel on board F Bel"); or
 *   it waits while that fleet moves in ("A Bel embarks F Nth" with
 *   "F Nth - Bel"); or it boards the fleet already beside it ("A Lon
 *   embarks"). On board it is UNIT_ABOARD (board.h), has no fighting
 *   power, and moves with its fleet.
 * - Landing (ORDER_LAND): the army lands where its fleet lies when the
 *   fleet is ordered away and gets away; while the fleet leaves, the army
 *   stands in the landing place as if ordered to hold. A fleet dislodged
 *   with an army on board loses it: the army is destroyed.
 *
 * The decisions (does a move succeed, is a support given) are settled by
 * bounds: each strength is known to lie in an interval, narrowed as other
 * decisions are taken, until every one is decided; a cycle of moves that
 * only wait for one another is circular movement and all of them succeed.
 */
#ifndef POUCH_REALPOLITIK_RULES_H
#define POUCH_REALPOLITIK_RULES_H

#include "../../lib/buf.h"
#include "adjudicate.h"
#include "resolver.h"

/* Realpolitik's rules as the engine is handed them: units stack, armies go
 * on board; its movement and supply. */
extern const struct resolver realpolitik_resolver;

/* Resolve the movement phase b with the Realpolitik rules into res (as
 * adj_resolve does; trace, when not NULL, gets one line per unit; why, the
 * reasons of struct phase_why), armies stacking where seat (by province,
 * NULL: the map's) has their capitals. */
void rp_resolve_movement(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct buf *trace, struct phase_why *why);

/*
 * May power p raise a unit of type t in province q now (Realpolitik
 * supply, judge/systems/REALPOLITIK.md)? Armies only in its capitals,
 * fleets only in its naval bases (the map's; or, when seat is not NULL,
 * seat[q] is the power whose capital (t army) or naval base (t fleet)
 * province q is now: a capital moved by the system); it
 * must own the province, no foreign unit may stand there, and it must own
 * at least one of its home centres. Its own units there do not matter: an
 * army and a fleet may share a headquarters when a unit is raised, and
 * units of one kind stack. Returns R_OK or why not: R_NOT_HOME (not such
 * a seat of p), R_NOT_OWNED, R_OCCUPIED, R_BAD_TERRAIN (a fleet inland).
 */
enum reason rp_can_build(const struct map *m, const struct board *b, const power_id *seat,
    power_id p, enum unit_type t, prov_id q);

/* The power standing in province q on b (an army on board does not), or
 * POWER_NONE. */
power_id rp_standing(const struct map *m, const struct board *b, prov_id q);
/* Does power p own one of its home centres on b (else it raises nothing)? */
bool rp_owns_home(const struct map *m, const struct board *b, power_id p);

/* How many provinces power p may raise a unit of type t in now (as
 * rp_can_build; each province once, though a stack may be raised). */
int rp_build_sites(const struct map *m, const struct board *b, const power_id *seat, power_id p,
    enum unit_type t);

/*
 * Where power p's capital lost goes when the power does not say: the
 * first home centre of p (in the map's order) that p owns and that is not
 * already one of its capitals (seat[], indexed by province, or the map's
 * when NULL). PROV_NONE when there is none.
 */
prov_id rp_capital_default(const struct map *m, const struct board *b, const power_id *seat,
    power_id p, prov_id lost);

/*
 * Occupation on even moves: a supply centre becomes the power's whose unit
 * stood in it when the Fall move began (it had moved in before) and still
 * stands there when the move and its retreats are over (it held it on the
 * even move). start is the position the Fall move began from, end the
 * one after its retreats; end's owners are set. Other centres keep their
 * owner. An army on board counts for nothing (its fleet does). Returns
 * how many centres changed hands.
 */
int rp_occupy(const struct map *m, const struct board *start, struct board *end);

#endif
