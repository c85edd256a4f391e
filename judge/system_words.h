/*
 * system_words.h — how a rule system's mails name its game (judge/system.h,
 * words): the welcome mails (setup.c), the game master's NEWGAME reply
 * (gm.c), the title and rules line of HELP (status.c) and the public
 * record's title (shell/webpages.c). A system without words is named as a
 * Diplomacy game of the standard rules.
 */
#ifndef POUCH_SYSTEM_WORDS_H
#define POUCH_SYSTEM_WORDS_H

struct system_words {
	/* SYS_BOARDLESS: what its mails call the game ("World Game war": "w1,
	 * a World Game war"; the variant's title only repeats it) and a side
	 * to name in examples ("Country-A"). */
	const char *kind;
	const char *example_side;
	/* SYS_OWN_GAME: what its welcome mails call it ("Realpolitik game":
	 * "the Realpolitik game rp1"). */
	const char *called;
	/* The rules it plays, where a Diplomacy game names the standard rules'
	 * edition ("2023 rules"): "Calhamer's rules". NULL: the
	 * edition's. */
	const char *rules;
	/* What the game master does after NEWGAME, one line. NULL: add the
	 * delegations, then START. */
	const char *setup_hint;
};

#endif
