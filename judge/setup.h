/*
 * setup.h — setting a game up, beyond the judge's API (judge_new_game,
 * judge_add_delegations, judge_start in judge.h). Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_SETUP_H
#define POUCH_JUDGE_SETUP_H

#include "judge.h"

/* "England", "England and Germany", "England, Germany and Turkey": the np
 * powers ps of g appended to out. */
void setup_powers_named(const struct game *g, const power_id *ps, int np, struct buf *out);
/* The powers of g held together with ps[0] that are not among the np
 * powers ps, into out (MAP_MAX_POWERS at most): those a new delegation of
 * ps sets apart. Returns their count. */
int setup_partners(const struct game *g, const power_id *ps, int np, power_id *out);
/* Welcome addr, just made an observer of g: what it receives and why. */
void setup_tell_observer(struct judge *j, const struct game *g, const char *addr);

#endif
