/*
 * crash.h — aimed kills and pauses, for the kill tests (tests/cli/killmd.sh)
 * and the read-only fault test (tests/cli/faults.sh).
 *
 * POUCH_CRASH_AT=STEP[:N] makes the process kill itself with SIGKILL at
 * the Nth (default first) durable operation of STEP: a write, fsync,
 * link or rename of the spool, the outbox, the games, the map pages, the
 * Maildirs. The program names its steps (crash_steps(): a run's are
 * fetch, apply, commit, pages, send, in judge/shell/run.c). When the
 * variable is set and the process ends without reaching N, it says on
 * stderr how many operations each step had, "pouch: crash points: fetch
 * 12 apply 40 ...", so a test can aim the next kill. POUCH_PAUSE_AT=STEP[:N] counts the same operations but stops the
 * process (SIGSTOP) just before the Nth one; a test waits for state T in
 * /proc/PID/stat, breaks something (the file system turns read-only) and
 * sends SIGCONT. The counts are reported when either variable is set.
 * Unset (as always outside the tests), crash_point is one branch.
 */
#ifndef POUCH_CRASH_H
#define POUCH_CRASH_H

#define CRASH_STEPS_MAX 16

/* The names of the steps STEP may be, in the order the counts are
 * reported (at most CRASH_STEPS_MAX, borrowed for good); before crash_step. */
void crash_steps(const char *const *names, int n);
/* The calling thread enters step (one of crash_steps' names) from now on;
 * another thread counts toward no step until it calls this itself. */
void crash_step(const char *step);
/* One durable operation of the current step, before it is done: SIGKILL
 * when it is the one POUCH_CRASH_AT names, SIGSTOP for POUCH_PAUSE_AT. */
void crash_point(void);

#endif
