#include "strv.h"

#include <stdlib.h>

#include "xalloc.h"

void
strv_push(char ***v, int *n, const char *s)
{
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

void
strv_free(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
