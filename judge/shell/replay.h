/*
 * replay.h — what pouch replay does beyond a run into a data directory of
 * its own (run.h, with run_opts.replay): --verify compares the games and
 * mail it rebuilt with the live judge's, --game puts one rebuilt game in
 * place of a damaged one. The command line (judge/cli/cli_run.c) reads
 * the options and prints.
 */
#ifndef POUCH_SHELL_REPLAY_H
#define POUCH_SHELL_REPLAY_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../../lib/buf.h"
#include "run.h"

/* What a repair (replay_repair_game) came to. */
enum replay_repair {
	REPAIR_DONE,		/* rebuilt and put in place */
	REPAIR_FAILED,		/* nothing replayed, nothing changed: err says why */
	REPAIR_NO_GAME,		/* replayed, but the spool makes no such game */
	REPAIR_NOT_PUT,		/* replayed, not put in place: err says why */
};

/* What a repair replayed: up to which message of the spool (the point where
 * the game was set aside, or else where it was last saved), how many
 * messages it applied and how many of them were the host's. */
struct replay_repaired {
	size_t upto;
	bool set_aside;
	int applied, host;
};

/* Make a new directory under TMPDIR (default /tmp), its path into scratch.
 * Returns 0, or -1 (err says why). */
int replay_scratch(char *scratch, size_t size, struct buf *err);
/* Every game file and history record of the replay in out against the live
 * judge's in live, and the games only one has: a "differs: ..." line on
 * report for each difference. Adds the files compared to *checked; returns
 * the number of differences. */
int replay_verify_games(const char *live, const char *out, FILE *report, int *checked);
/* The mail the replay r made (r->mail_dir) against what the live judge in
 * live made, sent (its spool) or waiting (its outbox), byte for byte; as
 * replay_verify_games. */
int replay_verify_mail(struct runner *r, const char *live, FILE *report, int *checked);
/* Put the game rebuilt in out/games/game in place of the live one: its
 * history records and logs first, its file last (the damaged one kept
 * beside it as game.txt.damaged-NOW), then the note that set it aside
 * goes. Returns 0, or -1 (err says why). */
int replay_install_game(const char *live, const char *out, const char *game, time_t now,
    struct buf *err);

/* pouch replay --game: rebuild game of the live judge in live from its spool
 * up to its set-aside point, in a scratch directory of its own under the live
 * judge's lock (ro: the run's options, its data and clock set here), and put
 * it in place; what was replayed into *done. */
enum replay_repair replay_repair_game(const char *live, struct run_opts *ro, const char *game,
    struct replay_repaired *done, struct buf *err);

#endif
