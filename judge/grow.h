/*
 * grow.h — growing the judge's arrays (effects, caches, rates) by
 * doubling. Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_GROW_H
#define POUCH_JUDGE_GROW_H

#include "../lib/xalloc.h"

/* Make room for one more element in arr, which holds n of cap. */
#define GROW(arr, n, cap)                                                        \
	do {                                                                     \
		if ((n) == (cap)) {                                              \
			(cap) = (cap) ? (cap) * 2 : 16;                          \
			(arr) = xreallocarray((arr), (size_t)(cap), sizeof *(arr)); \
		}                                                                \
	} while (0)

#endif
