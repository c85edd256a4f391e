/*
 * player.h — the commands players give by mail (ORDERS, LIST, HISTORY,
 * SUMMARY, VOTE, WAIT, NOWAIT, SET ZONE, RESIGN, HELP, SIGNOFF); HISTORY,
 * SUMMARY and SIGNOFF are the game master's too. Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_PLAYER_H
#define POUCH_JUDGE_PLAYER_H

#include "command.h"

/* The players' commands, player_ncommands of them. */
extern const struct command_handler player_commands[];
extern const int player_ncommands;

#endif
