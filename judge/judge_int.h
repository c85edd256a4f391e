/*
 * judge_int.h — shared by judge.c (mail), turn.c (time and turns) and
 * gm.c (the game master's commands). Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_INT_H
#define POUCH_JUDGE_INT_H

#include "../parser/commands.h"
#include "judge.h"
#include "system.h"

/* Queue a message. to/cc are lists of addresses (copied); subject and text
 * are copied. g (may be NULL) sets List-Id and Reply-To. */
void jx_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *const *cc, int ncc, const char *subject, const char *text,
    const char *in_reply_to, const char *references, enum outmsg_auto a);
/* Start an event: what follows is named after it (Message-IDs
 * "pouch.<name>.<n>@domain", random labels "<name>/<n>"). */
void jx_event(struct judge *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Does mail to addr keep bouncing in game g (it is not written to)? */
bool jx_suspended(const struct game *g, const char *addr);
/* Note what happened to a message that got no reply. */
void jx_log(struct judge *j, const struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "Deadline: <in zone> (<UTC>), in 2 days 5 hours." for zone ("" = the game's). */
void jx_deadline_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out);
/* "Speech phase until ...: every delegation may BROADCAST." while it is open. */
void jx_speech_line(const struct judge *j, const struct game *g, const char *zone, time_t now,
    struct buf *out);
/* Start the current phase at now: deadline, flags, reminders reset. */
void jx_start_phase(struct judge *j, struct game *g, time_t now);
/* The deadline of a phase starting at start. */
time_t jx_deadline_after(const struct judge *j, const struct game *g, time_t start);
/* jx_orders_status for every power p's delegation holds, each named when
 * it holds several. */
void jx_held_status(const struct game *g, power_id p, struct buf *out);
/* The orders of power p as the reply shows them, with unordered units. */
void jx_orders_status(const struct game *g, power_id p, struct buf *out);
/* What power p must do in the current phase, in one sentence or two. */
void jx_what_to_do(const struct game *g, power_id p, struct buf *out);
/* The position: units by power and centre counts. */
void jx_position(const struct game *g, struct buf *out);
/* End the game with result text; announces it. */
void jx_end_game(struct judge *j, struct game *g, const char *result);
/* Handle a GM command line of game g; output appended to reply.
 * Returns 0, or -1 when refused (reason in reply). */
int jx_gm_command(struct judge *j, struct game *g, enum command cmd, const char *args,
    size_t args_len, const char *sender, struct buf *reply);


#endif
