/*
 * secret.h — delegation and GM passwords, stored only as hashes.
 *
 * Hashes are yescrypt ("$y$") through libcrypt, at a low cost setting: the
 * secrets keep schoolmates from ordering for each other, and a judge run
 * checks many messages. The salt's randomness comes from the caller (the
 * judge's through struct judge_io: the shell reads the system's, in
 * judge/shell/entropy.c), so the core stays deterministic.
 */
#ifndef POUCH_SECRET_H
#define POUCH_SECRET_H

#include <stdbool.h>
#include <stddef.h>

#define SECRET_HASH_MAX 128

/* Hash secret with the 16 bytes rbytes as salt source into out (size >=
 * SECRET_HASH_MAX). Returns 0, or -1 when libcrypt refuses. */
int secret_hash(const char *secret, const unsigned char rbytes[16], char *out, size_t size);
/* True when secret matches hash (constant-time comparison of the result). */
bool secret_check(const char *secret, const char *hash);
/* A readable password made from 16 random bytes, e.g. "maple-orbit-472". */
void secret_words(const unsigned char r[16], char *out, size_t size);

#endif
