#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
oom(size_t n)
{
	fprintf(stderr, "pouch: out of memory (%zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t count, size_t size)
{
	void *p;
	if (count && size > SIZE_MAX / count)
		oom(SIZE_MAX);
	p = calloc(count ? count : 1, size ? size : 1);
	if (p == NULL)
		oom(count * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL)
		oom(n);
	return q;
}

void *
xreallocarray(void *p, size_t count, size_t size)
{
	if (count && size > SIZE_MAX / count)
		oom(SIZE_MAX);
	return xrealloc(p, count * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}
