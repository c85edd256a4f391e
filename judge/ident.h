/*
 * ident.h — who sent a message: the GAME line (game, power or GM,
 * password), checked against the game's secrets. Not part of the judge's
 * API.
 */
#ifndef POUCH_JUDGE_IDENT_H
#define POUCH_JUDGE_IDENT_H

#include "../parser/commands.h"
#include "judge.h"

/* The sender of a message, once a GAME line named them. */
struct ident {
	struct game *g;			/* NULL until identified */
	power_id power;			/* POWER_NONE for the GM */
	bool gm;
};

/* Read the GAME line bl into id. Returns 0 when it matches; -2 when the
 * line is not written as it should be; -1 when it names no game, power and
 * password of this judge. why says which, for the judge's log. */
int ident_read(struct judge *j, const struct body_line *bl, struct ident *id, struct buf *why);
/* Read the GAME line bl into id as ident_read does, but leave the password
 * unchecked: it goes into pw (of size pwsize), and *hash is the stored hash
 * it must match (NULL: none to check, the host's line). Returns as
 * ident_read; 0 says only that the line names a game and a power or GM of
 * this judge. Changes nothing but id. */
int ident_parse(struct judge *j, const struct body_line *bl, struct ident *id, char *pw,
    size_t pwsize, const char **hash, struct buf *why);
/* "> GAME school1 England (password not shown)": the GAME line bl as the
 * reply repeats it. */
void ident_echo(struct judge *j, const struct body_line *bl, struct buf *reply);
/* The game named by the first of the n lines that is a GAME line (NULL:
 * none), to read the lines before it by. */
struct game *ident_game_ahead(struct judge *j, const struct body_line *lines, int n);
/* The password and stored hash of the first of the n lines that is a GAME
 * line, handed to fn, when it names a game and a power or GM of this judge
 * (judge_mail_secret). */
void ident_secret_ahead(struct judge *j, const struct body_line *lines, int n,
    void (*fn)(void *arg, const char *secret, const char *hash), void *arg);
/* The zone member addr of p's delegation sees times in ("" = the game's). */
const char *ident_zone(const struct game *g, power_id p, const char *addr);

#endif
