/*
 * turn.h — what time does to a game, beyond the judge's API (judge_tick,
 * judge_process, judge_rollback in judge.h). Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_TURN_H
#define POUCH_JUDGE_TURN_H

#include "judge.h"

/* Start the current phase at now: deadline, flags, reminders reset. */
void turn_start_phase(struct judge *j, struct game *g, time_t now);
/* The current phase of g was given a new deadline (SET DEADLINE, RESUME):
 * the notice of its passing is due again, named apart from the last. */
void turn_deadline_again(struct game *g);
/* End the game with result text; announces it. */
void turn_end_game(struct judge *j, struct game *g, const char *result);

#endif
