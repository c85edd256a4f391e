#include "strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"
#include "xalloc.h"

void
strset_init(struct strset *s)
{
	memset(s, 0, sizeof *s);
}

void
strset_free(struct strset *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
	memset(s, 0, sizeof *s);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t
find(const struct strset *s, const char *key)
{
	size_t i = (size_t)str_hash(key) & (s->cap - 1);

	while (s->slot[i] && strcmp(s->slot[i], key) != 0)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void
grow(struct strset *s)
{
	struct strset t;
	size_t i;

	t.cap = s->cap ? s->cap * 2 : 64;
	t.n = s->n;
	t.slot = xcalloc(t.cap, sizeof *t.slot);
	for (i = 0; i < s->cap; i++)
		if (s->slot[i])
			t.slot[find(&t, s->slot[i])] = s->slot[i];
	free(s->slot);
	*s = t;
}

int
strset_add(struct strset *s, const char *key)
{
	size_t i;

	if ((s->n + 1) * 4 > s->cap * 3)	/* at most three quarters full */
		grow(s);
	i = find(s, key);
	if (s->slot[i])
		return 0;
	s->slot[i] = xstrdup(key);
	s->n++;
	return 1;
}

bool
strset_has(const struct strset *s, const char *key)
{
	return s->cap > 0 && s->slot[find(s, key)] != NULL;
}
