/*
 * command.h — the shape of the judge's command tables: each command a
 * word of the mail (enum command), who may give it and the function that
 * carries it out. The players' table is in player.c, the game master's in
 * gm.c; dispatch.c looks a line's command up in them. Not part of the
 * judge's API.
 */
#ifndef POUCH_JUDGE_COMMAND_H
#define POUCH_JUDGE_COMMAND_H

#include "../parser/commands.h"
#include "judge.h"
#include "system.h"

/* What a command's handler returns. */
enum command_rc {
	COMMAND_REFUSED = -1,	/* refused: the reason is in the reply */
	COMMAND_DONE = 0,
	COMMAND_STOP = 1,	/* the rest of the message is not read (SIGNOFF) */
};

/* One command line being carried out. */
struct command_call {
	struct judge *j;
	struct game *g;
	power_id power;		/* the sender's power; POWER_NONE for the GM */
	const char *sender;	/* the sender's address */
	enum command cmd;
	char *args;		/* the rest of the line, trimmed; the handler may cut it */
	struct buf *reply;	/* what it did, or "  REFUSED: ..." */
};

struct judge_command {
	enum command cmd;
	unsigned who;		/* enum system_who bits: SYSTEM_PLAYER, SYSTEM_GM */
	int (*run)(struct command_call *c);	/* returns enum command_rc */
};

#endif
