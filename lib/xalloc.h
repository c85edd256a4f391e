/*
 * xalloc.h — allocation that cannot fail.
 *
 * Policy: running out of memory is not an expected failure for pouch; these
 * wrappers print a message and abort. Callers never check for NULL.
 */
#ifndef POUCH_XALLOC_H
#define POUCH_XALLOC_H

#include <stddef.h>

/* malloc(n); aborts on failure. n == 0 returns a unique pointer. */
void *xmalloc(size_t n);
/* calloc(count, size) with overflow check; aborts on failure. */
void *xcalloc(size_t count, size_t size);
/* realloc(p, n); aborts on failure. */
void *xrealloc(void *p, size_t n);
/* realloc for arrays: count * size with overflow check. */
void *xreallocarray(void *p, size_t count, size_t size);
/* strdup(s); s must not be NULL. Caller frees. */
char *xstrdup(const char *s);
/* Copy of the first n bytes of s (stops at NUL), NUL-terminated. Caller frees. */
char *xstrndup(const char *s, size_t n);
/* A new string formatted as printf would (e.g. paths "%s/%s"). Caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
