/*
 * verify.h — passwords checked ahead of the judge, on threads of their own.
 *
 * Checking a password against its yescrypt hash is slow on purpose (about a
 * millisecond of CPU). A run that applies thousands of messages from
 * thousands of delegations reads ahead of the apply step, from the fetch
 * on (as soon as a new message is stored, run.c): each message's
 * GAME line gives a password and the hash it must match (judge_mail_secret),
 * queued here; worker threads check them while the judge applies the
 * messages before. When the judge asks (verifier_check), the verdict is
 * known, or being made (it waits for it), or not begun (it checks it
 * itself, at once). A verdict, either way, is kept for the verifier's life
 * by the SHA-256 of the hash and the password; a password is held only
 * while its check is queued, then wiped. The hash is checked as it is, by
 * secret_check: whichever thread makes the verdict, it is the same, so a
 * replay decides as the live run did.
 *
 * API: verifier_new, verifier_add (ahead), verifier_check (when the judge
 * asks), verifier_queued, verifier_counts, verifier_free.
 */
#ifndef POUCH_SHELL_VERIFY_H
#define POUCH_SHELL_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

/* Checks queued at most; verifier_add refuses more. */
#define VERIFY_QUEUE_MAX 1024
/* Verdicts kept at most; past that a check is made and not kept. */
#define VERIFY_KNOWN_MAX (1u << 16)

struct verifier;

/* A verifier with nthreads worker threads (0: every check is made by
 * verifier_check's caller). Never NULL; fatal when threads cannot start. */
struct verifier *verifier_new(int nthreads);
/* The worker threads this machine's processors give (one less than it has
 * online, at most 4; 0 on one). */
int verifier_threads(void);
/* Queue the check of secret (at most 256 bytes) against hash, unless its
 * verdict is known or it is queued. Returns false when the queue is full
 * (VERIFY_QUEUE_MAX) or too many verdicts are kept. Copies both. */
bool verifier_add(struct verifier *v, const char *secret, const char *hash);
/* How many checks are queued and not begun. */
size_t verifier_queued(struct verifier *v);
/* How many checks were queued (*added: those verifier_add queued, not
 * those it found known or queued), and how many the worker threads made
 * (*made: not those verifier_check's caller made). */
void verifier_counts(struct verifier *v, size_t *added, size_t *made);
/* Whether secret matches hash, as secret_check says: from a verdict made
 * ahead, or made now. */
bool verifier_check(struct verifier *v, const char *secret, const char *hash);
/* The same for struct judge_io's secret_check (arg is the verifier). */
bool verifier_check_io(void *arg, const char *secret, const char *hash);
/* Stop the workers (a check under way is finished), wipe the queued
 * passwords, free. NULL is a no-op. */
void verifier_free(struct verifier *v);

#endif
