/*
 * record.h — a phase's history record played again: the position the
 * orders were given in, the orders as adjudicated, resolved by the game's
 * rules as the phase found them (with what the system kept with the
 * record: Realpolitik's capitals where they stood then), and why each
 * order failed. The map pages draw from it; EXPLAIN gives its account.
 */
#ifndef POUCH_RECORD_H
#define POUCH_RECORD_H

#include <stdbool.h>

#include "engine/adjudicate.h"
#include "game.h"

struct played_phase {
	struct board before;		/* the position the orders were given in */
	struct order *orders;		/* as adjudicated (allocated; NULL when not full) */
	int norders;
	struct phase_result res;	/* their results (full) */
	struct phase_why why;		/* why each unit's order failed (full) */
	power_id capital[MAP_MAX_PROVS];	/* whose capital each province was then */
};

/* Read the history record text of game g into p: the position before and,
 * when full, the orders played again into p->res and p->why, as the judge
 * decided them. Returns 0, or -1 when the record cannot be read. Free with
 * record_played_free. */
int record_play(const struct game *g, const char *text, bool full, struct played_phase *p);

/* Free what record_play allocated in p (p itself is the caller's). */
void record_played_free(struct played_phase *p);

/* Does the history record text match what, as HISTORY and EXPLAIN read it:
 * a part of its first line ("Spring 1901", "1901"), or its phase's code or
 * words in any case ("s1901m", "spring 1901 movement")? */
bool record_matches(const char *text, const char *what);

#endif
