/*
 * dispatch.h — carrying out a command line: the game's rule system first
 * (system_command), then the judge's tables (command.h), then the refusal
 * that says whose command it is. Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_DISPATCH_H
#define POUCH_JUDGE_DISPATCH_H

#include "../parser/commands.h"
#include "command.h"
#include "judge.h"

/* Carry out command line bl of game g from power p (POWER_NONE: the GM),
 * sent from sender; what it did into reply. */
enum cmd_result dispatch_command(struct judge *j, struct game *g, power_id p, const char *sender,
    const struct body_line *bl, struct buf *reply);
/* NEWGAME line bl from sender, before any GAME line. */
enum cmd_result dispatch_newgame(struct judge *j, const char *sender, const struct body_line *bl,
    struct buf *reply);

#endif
