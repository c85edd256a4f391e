/*
 * crashpoint.h — named points where a test can make pouch die as a crash
 * would, to check what each step of a run leaves on disk.
 *
 *	POUCH_CRASH_AT=POINT[:N] pouch run
 *
 * kills the process with SIGKILL the N-th time (default: the first) it
 * passes POINT. Without the variable a point does nothing. The points are
 * listed in spool/README.md (Durability, step by step).
 */
#ifndef POUCH_CRASHPOINT_H
#define POUCH_CRASHPOINT_H

/* Die here (SIGKILL) when POUCH_CRASH_AT names point and its count. */
void crash_point(const char *point);

#endif
