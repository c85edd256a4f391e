#define _DEFAULT_SOURCE
#include "crashpoint.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

void
crash_point(const char *point)
{
	static long passed;
	const char *want = getenv("POUCH_CRASH_AT"), *colon;
	size_t n = strlen(point);
	long nth = 1;

	if (want == NULL || strncmp(want, point, n) != 0 || (want[n] != '\0' && want[n] != ':'))
		return;
	colon = want + n;
	if (*colon == ':' && str_to_long(colon + 1, 1, 1000000, &nth) < 0)
		return;
	if (++passed == nth)
		raise(SIGKILL);
}
