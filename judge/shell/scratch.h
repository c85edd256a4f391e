/*
 * scratch.h — the memory a password check works in, kept by its thread.
 *
 * libxcrypt's yescrypt maps a fresh region for each check (1 MB at the
 * judge's cost) and unmaps it after: about half the CPU of a check is the
 * kernel handing those pages in, one fault and one zeroed page at a time.
 * Between scratch_begin and scratch_end, on the calling thread alone, the
 * process's mmap and munmap (scratch.c defines them; every other call goes
 * on to the C library's, unchanged) keep such a region mapped when
 * libxcrypt lets it go, wiped, and give it back to the thread's next
 * check. The hash is libxcrypt's, computed as ever: only where its scratch
 * memory comes from changes.
 *
 * API: scratch_begin, scratch_end, scratch_release, scratch_reused.
 */
#ifndef POUCH_SHELL_SCRATCH_H
#define POUCH_SHELL_SCRATCH_H

#include <stddef.h>

/* This thread's anonymous read-write maps of 1 MB or more, until
 * scratch_end, may be given a region kept from its last check. */
void scratch_begin(void);
/* The end of what scratch_begin began. */
void scratch_end(void);
/* Unmap the region this thread keeps, if any (before the thread ends, or
 * when its checks are done). */
void scratch_release(void);
/* How many maps this thread was given from a kept region. */
size_t scratch_reused(void);

#endif
