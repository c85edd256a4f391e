/*
 * report.h — the text of phase results, in the classic judge grammar that
 * existing tools read:
 *
 *	Movement results for Spring of 1901.
 *
 *	Austria: Army Vienna -> Galicia.  (*bounce*)
 *	England: Fleet London SUPPORT Fleet Edinburgh -> North Sea.  (*cut*)
 *	France: Army Paris HOLD.  (*dislodged*)
 *
 * followed by the dislodged units and their retreats, and after an
 * adjustment phase the supply centre table. Pure: text in a buffer.
 */
#ifndef POUCH_REPORT_H
#define POUCH_REPORT_H

#include "../../lib/buf.h"
#include "adjudicate.h"
#include "board.h"
#include "map.h"
#include "order.h"

/* "Movement results for Spring of 1901." and one line per order or
 * unit, for the resolved phase b (before) with orders and res; when why
 * is not NULL (adj_resolve_why), under each order that failed and each
 * unit dislodged (of a retreat phase: each unit destroyed) the line of
 * report_why, indented by four spaces. */
void report_results(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct phase_why *why, struct buf *out);

/* Why unit u of movement phase b (resolved with orders into res and why)
 * failed or was dislodged, in plain words: "bounced: the French army in
 * Marseilles also moved to Burgundy, 1 against 1"; of a retreat phase, why
 * its dislodged unit u was destroyed: "destroyed: the Russian fleet in
 * Sevastopol also retreated to Armenia"; with why->successes, a move that
 * won where anything stood in its way too: "moved: 2 against 1, the
 * German army in Munich staying there". Appends to out; returns false
 * (appending nothing) when there is nothing to say. */
bool report_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct phase_why *why, int u, struct buf *out);

/* After an adjustment phase's results: "Germany: 1 build not used." for
 * each power p whose builds and waives that succeeded (orders as res
 * judged them) are fewer than raisable[p], the units it could raise (by
 * power; the rest is lost). The results mail and the phase's page both
 * say it with this. */
void report_unused(const struct map *m, const struct order *orders,
    const struct phase_result *res, const int *raisable, struct buf *out);

/* What happens next: dislodged units and where they may retreat, or the
 * builds and removals due, for the position next (after phase_next). */
void report_next(const struct map *m, const struct rules *r, const struct board *next,
    struct buf *out);

/* Supply centre ownership and unit counts per power, with changes since prev
 * (may be NULL). */
void report_centres(const struct map *m, const struct board *b, const struct board *prev,
    struct buf *out);

/* A copy of order o as results and replies print it on board b: the
 * nation of the unit it supports or convoys named when that unit is
 * another power's than the one ordering (o->power, else the owner of the
 * unit at o->loc), as the rulebook writes "A Sil S RUSSIAN A War-Pru",
 * and no nation for the power's own unit, whatever nation the order wrote. */
struct order report_named(const struct map *m, const struct board *b, const struct order *o);

/* One order in the results grammar: "Army Vienna -> Galicia". */
void report_order(const struct map *m, const struct order *o, uint8_t unit_type,
    struct buf *out);

/* Why order o cannot be carried out on b, in plain words for the player:
 * "you have no unit in Munich", "the fleet in the North Sea cannot reach
 * Brest, so it cannot support a move there". Appends to out. */
void report_refusal(const struct map *m, const struct board *b, const struct order *o,
    enum reason why, struct buf *out);

/* Power p's units on b in words, "army in Budapest, fleet in Trieste", a
 * stack once ("2 armies in Munich"), the dislodged ones marked. Appends to
 * out; returns how many units. */
int report_power_units(const struct map *m, const struct board *b, power_id p, struct buf *out);

/* "Units now:" and a line per power with units: "Austria: army in
 * Budapest, fleet in Trieste, army in Vienna." */
void report_units(const struct map *m, const struct board *b, struct buf *out);

#endif
