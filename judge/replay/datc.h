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
 * '#' starts a comment; VARIANT_ALL names the variant (standard only here).
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

struct datc_totals {
	int passed;
	int failed;
};

/*
 * Run every case of the file text[0..len) on map m. Cases without an
 * EDITION line use edition dflt. A failing case appends its name, the
 * expected and actual positions (and results) to report; with verbose,
 * passing cases are listed too. Totals are added to *t. Returns -1 when the
 * file itself is malformed (the reason is in report), else 0.
 */
int datc_run(const struct map *m, enum edition dflt, const char *text, size_t len,
    const char *fname, int verbose, struct buf *report, struct datc_totals *t);

#endif
