/*
 * crash.h — aimed kills and pauses, for the kill tests (tests/cli/killmd.sh)
 * and the read-only fault test (tests/cli/faults.sh).
 *
 * POUCH_CRASH_AT=STEP[:N] makes the process kill itself with SIGKILL at
 * the Nth (default first) durable operation of STEP: a write, fsync,
 * link or rename of the spool, the outbox, the games, the map pages, the
 * Maildirs. The steps are those of a run (judge/shell/run.c): fetch, apply,
 * commit, pages, send. When the variable is set and the process ends
 * without reaching N, it says on stderr how many operations each step had,
 * "pouch: crash points: fetch 12 apply 40 ...", so a test can aim the next
 * kill. POUCH_PAUSE_AT=STEP[:N] counts the same operations but stops the
 * process (SIGSTOP) just before the Nth one; a test waits for state T in
 * /proc/PID/stat, breaks something (the file system turns read-only) and
 * sends SIGCONT. The counts are reported when either variable is set.
 * Unset (as always outside the tests), crash_point is one branch.
 */
#ifndef POUCH_CRASH_H
#define POUCH_CRASH_H

/* The process enters step (a string constant) from now on. */
void crash_step(const char *step);
/* One durable operation of the current step, before it is done: SIGKILL
 * when it is the one POUCH_CRASH_AT names, SIGSTOP for POUCH_PAUSE_AT. */
void crash_point(void);

#endif
