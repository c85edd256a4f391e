/*
 * dispatch.c — a command line carried out (dispatch.h). The game's rule
 * system is asked first (judge/system.h), then the game master's table
 * (gm.c) and the players' (player.c); a command the sender may not give
 * is refused with the reason: whose command it is, or that the game's
 * rules have no such command.
 */
#include "dispatch.h"

#include "../lib/str.h"
#include "command.h"
#include "gm.h"
#include "player.h"

/* How much of a line's arguments is read: the game master's commands
 * read more (a DELEGATION lists addresses) than the players' and the
 * commands the GM shares with them. */
#define ARGS_PLAYER 400
#define ARGS_GM 600

/* The entry of the n commands in t for cmd that who may give, or NULL. */
static const struct command_handler *
find(const struct command_handler *t, int n, enum command cmd, unsigned who)
{
	int i;

	for (i = 0; i < n; i++)
		if (t[i].cmd == cmd && (t[i].who & who))
			return &t[i];
	return NULL;
}

/* The judge's own command cmd that who may give, or NULL. */
static const struct command_handler *
table_command(enum command cmd, unsigned who)
{
	const struct command_handler *e = find(gm_commands, gm_ncommands, cmd, who);

	return e ? e : find(player_commands, player_ncommands, cmd, who);
}

/* A command nobody of who's kind may give: say whose it is. */
static enum cmd_result
refuse(const struct game *g, enum command cmd, unsigned who, struct buf *reply)
{
	if (who == SYSTEM_PLAYER && (command_is_gm(cmd) || system_command(g->sys, cmd, SYSTEM_GM)))
		buf_printf(reply, "  REFUSED: %s is a command for the game master\n", command_name(cmd));
	else
		buf_printf(reply, "  REFUSED: %s is not a command of this game's rules (%s)\n",
		    command_name(cmd), g->sys->name);
	return CMD_REFUSED;
}

enum cmd_result
dispatch_command(struct judge *j, struct game *g, power_id p, const char *sender,
    const struct body_line *bl, struct buf *reply)
{
	unsigned who = p == POWER_NONE ? SYSTEM_GM : SYSTEM_PLAYER;
	const struct command_handler *sc = system_command(g->sys, bl->cmd, who);
	const struct command_handler *e = sc ? NULL : table_command(bl->cmd, who);
	char args[ARGS_GM];
	struct command_call c = { j, g, p, sender, bl->cmd, args, reply };

	str_ncopy_trim(args, who == SYSTEM_GM && !(e && (e->who & SYSTEM_PLAYER)) ? ARGS_GM :
	    ARGS_PLAYER, bl->args, bl->args_len);
	/* The commands of the game's rules come first. */
	if (sc)
		return sc->run(&c);
	if (e == NULL)
		return refuse(g, bl->cmd, who, reply);
	return e->run(&c);
}

enum cmd_result
dispatch_newgame(struct judge *j, const char *sender, const struct body_line *bl,
    struct buf *reply)
{
	char args[ARGS_GM];
	struct command_call c = { j, NULL, POWER_NONE, sender, bl->cmd, args, reply };

	str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
	return gm_newgame(&c);
}
