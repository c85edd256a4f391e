/*
 * entropy.h — random bytes from the system, for the shell alone. The judge
 * gets its own through struct judge_io (store_io), labelled, so that a
 * replay makes the same ones again.
 */
#ifndef POUCH_SHELL_ENTROPY_H
#define POUCH_SHELL_ENTROPY_H

/* Fill out with 16 random bytes from the system. Returns 0, or -1 (errno set). */
int entropy_read(unsigned char out[16]);

#endif
