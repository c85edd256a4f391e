/*
 * entropy.c — random bytes from the system (entropy.h).
 */
#define _DEFAULT_SOURCE
#include "entropy.h"

#include <sys/random.h>
#include <sys/types.h>

int
entropy_read(unsigned char out[16])
{
	size_t got = 0;

	while (got < 16) {
		ssize_t r = getrandom(out + got, 16 - got, 0);
		if (r < 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}
