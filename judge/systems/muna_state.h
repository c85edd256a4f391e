/*
 * muna_state.h — what a MUNA game keeps beyond the standard game's (its
 * state, g->state: judge/system.h, state_new): the conference under way,
 * the insurrections waiting for the end of their season, the control
 * bonus and the political goals (judge/systems/MUNA.md).
 */
#ifndef POUCH_MUNA_STATE_H
#define POUCH_MUNA_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../engine/muna_rules.h"
#include "../game.h"

#define GOAL_MAX_POINTS 3	/* the most a proposed goal is worth */
#define GOAL_NOTICE (2 * 86400)	/* a proposed goal reaches the officers this long
				   before the first turn's deadline */

/* A delegation's political goals (MUNA.md, 8): GAME_GOALS, two the
 * officers set and one it proposes. */
struct muna_goals {
	char goal[GAME_GOALS][AWARD_REASON_MAX];	/* 1 and 2 (the officers'),
					   3 (proposed by the delegation); empty: none */
	uint8_t goal_points;		/* goal 3: what it is worth, 1 to GOAL_MAX_POINTS */
	bool goal_approved;		/* goal 3: the officers approved it */
};

struct muna_state {
	struct conference conf;		/* the conference under way; where = PROV_NONE: none */
	struct muna_season season;	/* insurrections waiting for the end of their season */
	char bonus[MAP_MAX_POWERS][8];	/* phase ("F1905M") in which each power earned
					   the control bonus; "": not earned */
	struct muna_goals goals[MAP_MAX_POWERS];
	long speech;			/* the speech window at the start of each Spring, in
					   seconds; 0: none (setting speech) */
	time_t speech_until;		/* broadcasts are open to all until then; 0: no window */
	struct order_prefs revival[MAP_MAX_POWERS];	/* the whole list of each power's
					   revival order (ORDER_REVIVE among its orders;
					   meaningless without one) */
	int nspeakers;			/* the order of speeches the officers set: */
	power_id speakers[MAP_MAX_POWERS];	/* who speaks first, second, ... */
};

/* The MUNA state of g, a game of the MUNA system. */
struct muna_state *muna_state(const struct game *g);

#endif
