/*
 * strv.h — a vector of owned strings counted by an int beside it:
 *
 *	char **v = NULL;
 *	int n = 0;
 *	strv_push(&v, &n, "a");
 *	strv_free(v, n);
 */
#ifndef POUCH_STRV_H
#define POUCH_STRV_H

/* Append a copy of s to the n strings of *v (the array grows). */
void strv_push(char ***v, int *n, const char *s);
/* Free the n strings of v and v itself; v NULL (n 0) is a no-op. */
void strv_free(char **v, int n);

#endif
