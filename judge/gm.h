/*
 * gm.h — the commands a game master gives by mail (PROCESS, PREVIEW,
 * ROLLBACK, PAUSE, RESUME, SET, START, DELEGATION, REPLACE, EJECT,
 * ADD/REMOVE OBSERVER, END, AWARD/REVOKE, LIST, HELP) and NEWGAME.
 * Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_GM_H
#define POUCH_JUDGE_GM_H

#include "command.h"

/* The game master's commands, gm_ncommands of them. */
extern const struct command_handler gm_commands[];
extern const int gm_ncommands;
/* NEWGAME: by mail the sender becomes the GM; from the host, the one it
 * names. c->g is not used (it may be NULL). Refused, the reply says the
 * game was not created and why, in one line. */
enum cmd_result gm_newgame(struct command_call *c);

#endif
