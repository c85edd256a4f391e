/*
 * grow.h — growing an array by doubling, one element at a time.
 *
 *	GROW(v, n, cap);	// room for v[n]
 *	v[n++] = x;
 */
#ifndef POUCH_GROW_H
#define POUCH_GROW_H

#include "xalloc.h"

/* Make room for one more element in arr, which holds n of cap. */
#define GROW(arr, n, cap)                                                        \
	do {                                                                     \
		if ((n) == (cap)) {                                              \
			(cap) = (cap) ? (cap) * 2 : 16;                          \
			(arr) = xreallocarray((arr), (size_t)(cap), sizeof *(arr)); \
		}                                                                \
	} while (0)

#endif
