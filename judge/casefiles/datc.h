/*
 * datc.h — run DATC case files (the jDip case-file format).
 *
 * A file holds cases:
 *
 *	CASE 6.A.1
 *	PRESTATE_SETPHASE Spring 1901, Movement
 *	PRESTATE                      units: "England: F nth"
 *	PRESTATE_DISLODGED            dislodged units (a retreat phase)
 *	PRESTATE_RESULTS              "SUCCESS: England: A lvp-edi" / "FAILURE: ..."
 *	                              (the movement before a retreat phase)
 *	PRESTATE_SUPPLYCENTER_OWNERS  "Russia: A war": Russia owns Warsaw; when
 *	                              given, only the centres listed are owned
 *	ORDERS                        "England: F nth-pic"
 *	POSTSTATE                     every unit after the phase, or
 *	POSTSTATE_SAME                units unchanged
 *	POSTSTATE_DISLODGED           dislodged units that can retreat (a unit
 *	                              with no legal retreat is destroyed at once)
 *	END
 *
 * '#' starts a comment; VARIANT_ALL names the variant the cases are played
 * on ("Standard", "realpolitik"). `pouch datc FILE...` plays each file on
 * the variant its VARIANT_ALL names (standard without one); with
 * `--variant V` every file is played on V, and a file naming another
 * variant is refused. The variant's system hands the engine its rules
 * (rules.resolver, resolver_for).
 *
 * Realpolitik (tests/data/datc/realpolitik*.txt; the rules:
 * judge/systems/REALPOLITIK.md). In PRESTATE, PRESTATE_DISLODGED,
 * POSTSTATE and POSTSTATE_DISLODGED:
 *
 *	Germany: A ber                several lines for one province are a
 *	Germany: A ber                stack: here two German armies in Berlin
 *	England: F nth                an army on board a fleet: the word
 *	England: A nth aboard         "aboard" after the army's place, which
 *	                              is the province of its fleet (a sea or a
 *	                              coast; a coast such as stp/sc may be
 *	                              written, the army stands on the province)
 *
 * An army on board rides the fleet of its power in that province; with
 * several fleets there, the k-th army on board (in the order written)
 * rides the k-th fleet. A stack's lines may come in any order; positions
 * are compared as lists of units, so a stack of three is three equal
 * lines. Orders to a stack are given to its units in the order written
 * (each to a unit of the type written not yet ordered; when all are, the
 * last one's order is replaced). A landing order ("England: A nth lands")
 * goes to an army on board; any other army order to an army standing in
 * the province, and only when none stands there to the army on board,
 * which may only hold (stay on board) or land. Retreat orders to a
 * province go to its dislodged units the same way (a scattered stack). A
 * dislodged unit is never on board (an army on board a dislodged fleet is
 * destroyed, so it is in neither POSTSTATE). "aboard" is read in any case,
 * only for an army, and only on a variant whose armies board (RULES_BOARDING).
 * The orders are those of parser/README.md: "A hol - bel on board F bel",
 * "A bel embarks F nth", "A lon embarks", "A bel lands". RESULTS for an
 * embarking or a landing: SUCCESS when the army went on board or landed.
 *
 * pouch's own case files (tests/data/datc) add, all optional:
 *
 *	EDITION 2023                  rule edition of this case
 *	RESULTS                       after ORDERS: "SUCCESS: <order>" or
 *	                              "FAILURE: <order>" per order checked
 *	REMOVED                       after adjustment ORDERS: units that civil
 *	                              disorder must remove
 *	ORDERS ...                    a second ORDERS block is played in the
 *	                              next phase (e.g. movement, then retreats)
 *
 * SUCCESS means: a hold was not dislodged, a move or retreat took place, a
 * support was not cut (a support that matches no order is not cut), a
 * convoy's fleet stayed, an adjustment was carried out.
 */
#ifndef POUCH_DATC_H
#define POUCH_DATC_H

#include <stddef.h>

#include "../../lib/buf.h"
#include "../engine/map.h"
#include "../engine/rules.h"

/* datc_run's verbose for the results with their reasons. */
#define DATC_REASONS (-1)

struct datc_totals {
	int passed;
	int failed;
};

/* The variant named by the VARIANT_ALL line of text[0..len), copied into
 * out (size bytes). Returns 0, or -1 when there is none. */
int datc_variant(const char *text, size_t len, char *out, size_t size);

/*
 * Run every case of the file text[0..len) on map m. Cases without an
 * EDITION line use edition dflt. A failing case appends its name, the
 * expected and actual positions (and results) to report; with verbose,
 * passing cases are listed too; with verbose DATC_REASONS, each phase's
 * results with the reason of every order that failed (report_why) instead.
 * Totals are added to *t. Returns -1 when the file itself is malformed
 * (the reason is in report), else 0.
 */
int datc_run(const struct map *m, enum edition dflt, const char *text, size_t len,
    const char *fname, int verbose, struct buf *report, struct datc_totals *t);

#endif
