/*
 * store.h — the judge's data directory (shell).
 *
 *	DATA/pouch.lock                  one run at a time
 *	DATA/games/NAME/game.txt         the game (game.h), replaced atomically
 *	DATA/games/NAME/history/0001.txt one record per adjudicated phase
 *	DATA/games/NAME/audit.log        GM actions, append-only
 *	DATA/games/NAME/press.log        press copies (real senders), append-only
 *	DATA/games/NAME/set-aside        the game was found damaged (run.h)
 *	DATA/games/.sealed               every game file and record is sealed
 *	DATA/games/.appending            a commit's game logs as they were before it
 *	DATA/judge.log                   what happened to unanswered mail
 *
 * Every replacement is temp + fsync + rename + directory fsync; every
 * append is fsync'd. Game files and history records end with a checksum
 * line (store_seal), so that one cut short or changed is never used. A second pouch process waits for the lock a little
 * and then gives up cleanly.
 */
/* In DATA/games: every game file and history record there ends with its
 * end line. store_open seals a folder from before the end line (files
 * without one that read whole) and then writes it. */
#define STORE_SEALED ".sealed"
#ifndef POUCH_STORE_H
#define POUCH_STORE_H

#include "../../lib/buf.h"
#include "../judge.h"
#include "varcache.h"
#include "zones.h"

/* A game that could not be loaded: set aside until it is repaired. */
struct store_aside {
	char game[GAME_NAME_MAX];
	char *why;			/* owned: "PATH:LINE: reason" lines */
	int ngms;			/* the masters what is left of the file names */
	char gms[GAME_MAX_GMS][ADDR_MAX];
};

struct store {
	char dir[1024];
	int lockfd;
	struct varcache vc;
	struct zones *zones;		/* the time zones read */
	unsigned char key[32];		/* randomness key (store_use_key) */
	int haskey;
	/* staged by store_stage, made durable by store_commit */
	struct {
		char *path;
		char game[GAME_NAME_MAX];	/* the game whose log it is; "": judge.log */
		struct buf text;
	} *app;				/* lines to append */
	int napp, capapp;
	char **sync;			/* files written, to fsync */
	int nsync, capsync;
	char **dirs;			/* folders with new names, to fsync */
	int ndirs, capdirs;
	struct {
		char game[GAME_NAME_MAX];
		long from, upto;	/* its records from..upto-1 were rolled back (copied) */
	} *retired;			/* this run's rollbacks, tidied at the commit */
	int nretired, capretired;
	struct store_aside *aside;	/* games store_load set aside */
	int naside;
};

/* In DATA/games while a commit appends to game logs or retires history
 * records (a rollback): each log's size before it, each record retired,
 * and the end line of the game file the commit writes. */
#define STORE_APPENDING ".appending"

/*
 * Open (creating it if needed) and lock the data directory dir, waiting up
 * to wait_ms for another run to finish; cut off what a commit that was
 * stopped before its game file was in place appended to that game's logs,
 * or remove the records a rollback retired once it is (STORE_APPENDING);
 * seal, once, the games of a folder
 * from before the end line (STORE_SEALED). Returns 0, 1 when another run
 * holds the lock (nothing was done), -1 on error (reason in err).
 */
int store_open(struct store *s, const char *dir, const char *maps_dir, int wait_ms,
    struct buf *err);
void store_close(struct store *s);
/*
 * Draw the judge's randomness (salts, generated passwords) from the key in
 * file path, HMAC-SHA-256(key, event label), so that a replay with the same
 * key reproduces it. The key is made (32 random bytes, mode 0600) when the
 * file does not exist. Without a key the system's randomness is used.
 * Returns 0 or -1/err.
 */
int store_use_key(struct store *s, const char *path, struct buf *err);
/* The 16 bytes HMAC-SHA-256(key, label) begins with. Returns 0 or -1. */
int store_derive(const unsigned char key[32], const char *label, unsigned char out[16]);
/* The judge_io for this store (variants, history, randomness, zones). */
void store_io(struct store *s, struct judge_io *io);
/*
 * Load every game into j. A game whose file or one of whose history
 * records is not whole (no end line, a wrong checksum) or does not read is
 * set aside (s->aside, with the file and line), never loaded. Returns the
 * number of games loaded, or -1 when the games folder cannot be read (err).
 */
int store_load(struct store *s, struct judge *j, struct buf *err);
/* The game called game that store_load set aside, or NULL. */
const struct store_aside *store_find_aside(const struct store *s, const char *game);
/*
 * Game files and history records end with a line "end SUM", SUM the first
 * 8 bytes of the SHA-256 of everything before it in hex ("end edited": a
 * host changed the file by hand; taken as it is). store_seal appends it
 * (and a newline before it when text lacks one); store_unseal checks it and
 * sets *body to the length before it. Returns 0, or -1 with "LINE: reason"
 * in why.
 */
void store_seal(struct buf *text);
int store_unseal(const char *text, size_t len, size_t *body, struct buf *why);
/*
 * Take the judge's effects (history records, records retired by a
 * rollback, audit and press lines, log notes; outgoing mail is the mail
 * layer's) so that the effects can be cleared: history records are written
 * at once, lines kept to append. Nothing is durable yet.
 */
int store_stage(struct store *s, struct judge *j, struct buf *err);
/*
 * Make everything staged durable, then the changed games and the reply
 * counts: the new game files written beside the old, the sizes of the
 * changed games' audit and press logs noted (STORE_APPENDING), the lines
 * appended, all synced together, so that a game file never names a record
 * that is not there; then the games renamed into place. One commit per
 * run costs a few rounds of fsyncs whatever the number of messages. A
 * crash before it returns leaves the games as they were (a re-run applies
 * the same messages again and gets the same effects): the next store_open
 * cuts a game's logs back to the sizes noted unless its new file is in
 * place, so a game log says each thing once; a line of judge.log may then
 * appear twice, never be lost. Returns 0 or -1/err.
 */
int store_commit(struct store *s, struct judge *j, struct buf *err);
/* A line for DATA/judge.log, stamped when (the arrival of the message it
 * is about), appended at the next commit (what the shell alone knows of a
 * message that gets no answer). */
void store_log(struct store *s, time_t when, const char *text);
/* store_stage and store_commit. */
int store_save(struct store *s, struct judge *j, struct buf *err);
/* Append history record index (1, 2, ...) of game to out; -1 when there is none. */
int store_history(struct store *s, const char *game, int index, struct buf *out);
/* Whether data directory data has a game called game (its folder in
 * data/games, the name's case aside), without opening or changing
 * anything: 1 or 0. */
int store_has_game(const char *data, const char *game);
/* Path of a game's folder (size >= 1100). */
void store_game_dir(const struct store *s, const char *game, char *out, size_t size);

#endif
