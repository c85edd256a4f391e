/*
 * crash.h — aimed kills, for the kill tests (tests/killmd.sh).
 *
 * POUCH_CRASH_AT=STEP[:N] makes the process kill itself with SIGKILL at
 * the Nth (default first) durable operation of STEP: a write, fsync,
 * link or rename of the spool, the outbox, the games, the map pages, the
 * Maildirs. The steps are those of a run (judge/run.c): fetch, apply,
 * commit, pages, send. When the variable is set and the process ends
 * without reaching N, it says on stderr how many operations each step had,
 * "pouch: crash points: fetch 12 apply 40 ...", so a test can aim the next
 * kill. Unset (as always outside the tests), crash_point is one branch.
 */
#ifndef POUCH_CRASH_H
#define POUCH_CRASH_H

/* The process enters step (a string constant) from now on. */
void crash_step(const char *step);
/* One durable operation of the current step: SIGKILL when it is the one
 * POUCH_CRASH_AT names. */
void crash_point(void);

#endif
