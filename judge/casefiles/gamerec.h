/*
 * gamerec.h — replay recorded games (the droidippy record format) and
 * compare every phase with the record.
 *
 *	PHASE 1901 Spring Movement
 *	POSITIONS
 *	England: fleet lon          units; coasts as stp/nc
 *	Russia: fleet/dislodged den dislodged units (retreat phases)
 *	England: supply lon         centre owners
 *	ORDERS
 *	lon move nth                keyed by province; unordered units hold
 *	kie support ber move mun    x support y [move z] | x convoy y move z
 *	yor move nwy via convoy     | x hold | x disband
 *	build Army par | remove mun
 *
 * The first POSITIONS is the start; each PHASE's ORDERS are adjudicated,
 * the game advanced, and the result compared with the next PHASE: the
 * phase itself, units with coasts, dislodged units and centre owners, as
 * exact sets. Adjustment phases in which some power left removals
 * unordered were decided by the server's own civil-disorder rule: they are
 * counted apart, the recorded position is taken, and the replay goes on.
 * A recorded phase in which nothing could be decided (we skip those) is
 * accepted when the position is identical; a phase the record leaves out
 * is played without orders and accepted when the record's next position
 * follows. Both are counted and reported.
 */
#ifndef POUCH_GAMEREC_H
#define POUCH_GAMEREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../../lib/buf.h"
#include "../../parser/names.h"
#include "../engine/adjudicate.h"
#include "../engine/board.h"
#include "../engine/map.h"
#include "../engine/order.h"
#include "../engine/rules.h"

struct gamerec_stats {
	int games_passed;
	int games_failed;
	long phases;			/* phases adjudicated */
	long orders;			/* orders read */
	long unreadable;		/* orders naming no province (recorded typos) */
	int cd_phases;			/* civil-disorder adjustment phases met */
	int cd_matched;			/* ... where our civil-disorder rule chose the same units */
	int kept_phases;		/* empty phases the record keeps and we skip */
	int omitted_phases;		/* phases the record leaves out, played without orders */
};

/*
 * Check one game record text[0..len). Appends the first mismatch (if any)
 * to report and updates st. Returns 0 when the game matches, 1 when not,
 * -1 when the record is malformed.
 */
int gamerec_check_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report);

/* One replayed phase, as gamerec_replay_text() hands it on. */
struct gamerec_phase {
	const struct board *before;	/* the position the orders were given in */
	const struct order *orders;	/* the orders read from the record */
	int norders;
	const struct phase_result *res;	/* their results */
	const struct board *after;	/* the next phase's position (the record's, when the
					   server's civil-disorder removals were used) */
};

/* Called for each phase of a replay; returns 0 to go on, else the replay stops. */
typedef int (*gamerec_phase_fn)(void *ctx, const struct gamerec_phase *ph);

/*
 * As gamerec_check_text, and hands every phase that agrees with the record
 * to fn (when not NULL), in order. Returns as gamerec_check_text, or -1
 * when fn stopped the replay.
 */
int gamerec_replay_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report,
    gamerec_phase_fn fn, void *ctx);

/*
 * Check files and directories (recursively, files named *.txt) of game
 * records; print each failure and the summary "N passed, M failed" to out.
 * With reasons, every phase is also resolved with its reasons
 * (adj_resolve_why): a game whose failed orders, dislodged units or units
 * destroyed in a retreat lack a reason that fits (adj_why_check,
 * report_why), or whose failed builds and removals and units removed in
 * civil disorder lack theirs under them in the results, fails. Returns the exit
 * status: 0 all passed, 1 otherwise.
 */
int gamerec_check_paths(const struct map *m, enum edition ed, const char *const *paths, int n,
    int verbose, bool reasons, FILE *out);

#endif
