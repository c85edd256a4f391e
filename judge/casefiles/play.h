/*
 * play.h — play a game from a file of orders and report every phase.
 *
 *	# a comment
 *	EDITION 2023                  optional; the default is 2023
 *	ORDERS Spring 1901            the orders of that phase follow, one per line,
 *	England: F lon - nth          in any form the order parser reads, each with
 *	France: A Paris -> Burgundy   the power's name first
 *	ORDERS Fall 1901
 *	...
 *
 * Phases between two ORDERS blocks are played without orders (a retreat
 * with nobody retreating, an adjustment nobody orders). The report shows
 * how every order was read, the results in the judge's grammar, retreats
 * and builds due, and the supply centres after each year. Archivists use
 * it to replay a game from the orders in old mail.
 */
#ifndef POUCH_PLAY_H
#define POUCH_PLAY_H

#include <stddef.h>

#include "../../lib/buf.h"
#include "../engine/adjudicate.h"
#include "../engine/board.h"
#include "../engine/map.h"
#include "../engine/order.h"
#include "../engine/rules.h"

/* Play text[0..len) from the map's starting position. Appends the report to
 * out. Returns 0, or -1 when the file cannot be followed (the reason is in
 * out: an unknown phase, a phase that is already past). */
int play_text(const struct map *m, enum edition ed, const char *text, size_t len,
    const char *fname, struct buf *out);

/* Told about every phase as it is resolved: the position before, the
 * orders, the results and the next phase's position. It may add to the
 * report (out), which then goes on with "Next phase: ...". */
struct play_hook {
	void (*phase)(void *ctx, const struct board *before, const struct order *orders, int norders,
	    const struct phase_result *res, const struct board *after, struct buf *out);
	void *ctx;
};

/* As play_text, calling hook (when not NULL) after each phase. */
int play_text_hooked(const struct map *m, enum edition ed, const char *text, size_t len,
    const char *fname, const struct play_hook *hook, struct buf *out);

#endif
