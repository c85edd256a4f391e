/*
 * commands.h — the structure of a mail body sent to the judge.
 *
 *	GAME school1 England correct-horse      identification, once
 *	F Lon - Nth                             orders (ORDERS is optional)
 *	A Lvp - Yor
 *	PRESS TO France, Germany                a press block ...
 *	Shall we talk about Belgium?
 *	ENDPRESS                                ... ends here (or at the end)
 *	LIST
 *	-- 
 *	a signature: ignored, like quoted lines ("> ...")
 *
 * The signature runs to the end of the body; it starts wherever the end
 * of a mail does (endings.h): "-- " or "--", a reply header ("On ...
 * wrote:"), Outlook's "From: ... Sent: ..." block, a forwarded message,
 * a phone's footer, a notice.
 *
 * body_split() classifies each line; it does not interpret orders (that is
 * orders.h) nor decide what a command may do (that is the judge). Commands
 * are one per line, case-insensitive, and recognised by their first word
 * (REMOVE and ADD only with OBSERVER after them, so "Remove A Mun" stays an
 * order). Nothing is allocated: lines point into the text.
 */
#ifndef POUCH_COMMANDS_H
#define POUCH_COMMANDS_H

#include <stddef.h>

enum line_kind {
	LINE_BLANK = 0,
	LINE_QUOTED,		/* "> ..." : ignored */
	LINE_SIGNATURE,		/* the end of the mail on (endings.h): ignored */
	LINE_QUOTED_MAIL,	/* a quoted mail the sender wrote under: its reply
				   header and quoted lines, passed over */
	LINE_IDENT,		/* GAME <game> <power|GM> <password> */
	LINE_COMMAND,
	LINE_PRESS,		/* text inside a press block */
	LINE_TEXT,		/* anything else: an order, or something unreadable */
};

/* The commands (commands.def): CMD_HELP, CMD_ORDERS, ... */
enum command {
	CMD_NONE = 0,
#define COMMAND(id, word, second, name, who) CMD_##id,
#define WORDS(id, word, second)
#include "commands.def"
#undef COMMAND
#undef WORDS
	CMD_MAX
};

/* Who may give a command (in some game): bits. */
enum command_who { COMMAND_PLAYER = 1, COMMAND_GM = 2 };

struct body_line {
	enum line_kind kind;
	enum command cmd;	/* LINE_COMMAND */
	int lineno;		/* 1-based line number in the body */
	const char *text;	/* the line, trimmed (not NUL-terminated) */
	size_t len;
	const char *args;	/* LINE_COMMAND / LINE_IDENT: text after the keyword(s) */
	size_t args_len;
	unsigned char misspelt;	/* LINE_IDENT: the message's first line, whose first
				   word misspells GAME by one letter ("GAEM") and is
				   no command, with three or four words after it: a
				   GAME line only if they name a game, a power and
				   its password (the judge checks) */
};

#define BODY_MAX_LINES 1000

/*
 * Split text into classified lines (at most max; returns the count, or
 * max + 1 when there were more lines than max). Blank, quoted and signature
 * lines are included so that line numbers stay meaningful.
 */
int body_split(const char *text, size_t len, struct body_line *out, int max);

/* The command's name as written in HELP ("PRESS", "ADD OBSERVER", ...). */
const char *command_name(enum command c);
/* The one command word (its name, "HELP") that word[0..n) misspells, by
 * an edit distance of 1 (2 for words of six letters or more); NULL when
 * none or several are that close. */
const char *command_suggest(const char *word, size_t n);
/* True for commands only the game master may give. */
int command_is_gm(enum command c);
/* Who may give c (enum command_who bits), in some game. */
unsigned command_who(enum command c);

#endif
