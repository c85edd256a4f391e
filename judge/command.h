/*
 * command.h — the one shape of a mail command's handler: each command a
 * word of the mail (enum command), who may give it and the function that
 * carries it out, in the judge's tables (player.c, gm.c) and in a rule
 * system's (system.h, commands). dispatch.c looks a line's command up in
 * them. Also what a line read by a rule system comes to (system.h, line).
 */
#ifndef POUCH_JUDGE_COMMAND_H
#define POUCH_JUDGE_COMMAND_H

#include "../lib/buf.h"
#include "../parser/commands.h"
#include "game.h"

struct judge;

/* What a command, or a line a rule system reads, came to. */
enum cmd_result {
	CMD_DONE,		/* carried out (or taken): what it did is in the reply */
	CMD_REFUSED,		/* refused: the reason is in the reply */
	CMD_STOP,		/* done, and the rest of the message is not read (SIGNOFF) */
	CMD_IGNORED,		/* plainly not meant for the judge (a greeting): passed
				   over quietly */
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

/* A command's handler: carries out c, says what it did (or why not) in
 * c->reply. */
typedef enum cmd_result command_fn(struct command_call *c);

/* A line of a command table: the command, who may give it (enum
 * system_who bits: SYSTEM_PLAYER, SYSTEM_GM) and its handler. */
struct command_handler {
	enum command cmd;
	unsigned who;
	command_fn *run;
};

#endif
