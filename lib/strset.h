/*
 * strset.h — a set of strings (open addressing, FNV-1a), for "seen
 * before?" questions over thousands of Message-IDs.
 *
 *	struct strset s;
 *	strset_init(&s);
 *	if (strset_add(&s, id)) ...	// 1: new, 0: already there
 *	strset_has(&s, id);
 *	strset_free(&s);
 */
#ifndef POUCH_STRSET_H
#define POUCH_STRSET_H

#include <stdbool.h>
#include <stddef.h>

struct strset {
	char **slot;		/* NULL: empty */
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

void strset_init(struct strset *s);
void strset_free(struct strset *s);
/* Add a copy of key. Returns 1 when it was new, 0 when already there. */
int strset_add(struct strset *s, const char *key);
bool strset_has(const struct strset *s, const char *key);

#endif
