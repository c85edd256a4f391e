/*
 * status.h — what the judge tells about a game as it stands: the
 * position, a power's orders and what it must do, the deadline and speech
 * lines, HELP. Reads the game, changes nothing, sends nothing. Not part
 * of the judge's API (judge_grace_end, judge_speech_open, judge_in_disorder
 * and judge_standings, defined here, are declared in judge.h and system.h).
 */
#ifndef POUCH_JUDGE_STATUS_H
#define POUCH_JUDGE_STATUS_H

#include "judge.h"
#include "system.h"

/* "Deadline: <in zone> (<UTC>), in 2 days 5 hours." for zone ("" = the game's). */
void status_deadline_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out);
/* "Speech phase until ...: every delegation may BROADCAST." while it is open. */
void status_speech_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out);
/* status_orders for every power p's delegation holds, each named when it
 * holds several. */
void status_held(const struct game *g, power_id p, struct buf *out);
/* The orders of power p as the reply shows them, with unordered units. */
void status_orders(const struct game *g, power_id p, struct buf *out);
/* The refusal of o, an adjustment of power p beyond those it may order
 * (game_adjustment_extra): how many it may, the ones it gave, how to
 * change them. */
void status_adjustment_extra(const struct game *g, power_id p, const struct order *o,
    struct buf *out);
/* What power p must do in the current phase, in one sentence or two. */
void status_what_to_do(const struct game *g, power_id p, struct buf *out);
/* The position: units by power and centre counts. */
void status_position(const struct game *g, struct buf *out);
/* Must power p still give orders it has not given, with someone to give them? */
bool status_orders_late(const struct game *g, power_id p);
/* True when g's phase is decided as soon as the judge next looks, before
 * its deadline: every delegation that must order has (someone has), none
 * asked to WAIT, and the rules do not keep the phase to its deadline. */
bool status_decided_early(const struct game *g);
/* Has every power that must order given all its orders (none late)? */
bool status_orders_complete(const struct game *g);
/* The position before the phase of history record rec into b. Returns 0,
 * or -1 when the record has none that reads. */
int status_history_position(const struct game *g, const char *rec, struct board *b);
/* What g plays, as its mails name it, into out: its variant's title and
 * rules, the system's own ("Realpolitik (1958), Calhamer's rules") or the
 * standard rules' edition ("Standard, 2023 rules"); the title alone when
 * it names the system's rules already. */
void status_put_title_rules(const struct game *g, struct buf *out);
/* The players' HELP, with what is particular to game g (NULL: none) for
 * its power p. */
void status_help(const struct judge *j, const struct game *g, power_id p, struct buf *out);

#endif
