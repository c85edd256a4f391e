#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "tz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "str.h"
#include "xalloc.h"

#ifndef TZ_DIR
#define TZ_DIR "/usr/share/zoneinfo"
#endif

static bool
is_utc(const char *zone)
{
	return zone == NULL || *zone == '\0' || str_eq_nocase(zone, "UTC") ||
	    str_eq_nocase(zone, "GMT") || str_eq_nocase(zone, "Z");
}

bool
tz_valid(const char *zone)
{
	char path[512];
	struct stat st;
	const char *p;

	if (is_utc(zone))
		return true;
	if (strlen(zone) > 100 || strstr(zone, "..") || zone[0] == '/')
		return false;
	for (p = zone; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '/' || *p == '_' || *p == '-' || *p == '+'))
			return false;
	snprintf(path, sizeof path, "%s/%s", TZ_DIR, zone);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Switch TZ to zone; returns the previous value (to pass to tz_restore). */
static char *
tz_switch(const char *zone)
{
	const char *old = getenv("TZ");
	char *saved = old ? xstrdup(old) : NULL;
	char val[160];

	snprintf(val, sizeof val, ":%s", zone);
	setenv("TZ", val, 1);
	tzset();
	return saved;
}

static void
tz_restore(char *saved)
{
	if (saved) {
		setenv("TZ", saved, 1);
		free(saved);
	} else {
		unsetenv("TZ");
	}
	tzset();
}

int
tz_local(const char *zone, time_t t, struct tm *out)
{
	char *saved;

	if (is_utc(zone) || !tz_valid(zone)) {
		gmtime_r(&t, out);
		return is_utc(zone) ? 0 : -1;
	}
	saved = tz_switch(zone);
	localtime_r(&t, out);
	tz_restore(saved);
	return 0;
}

int
tz_mktime(const char *zone, const struct tm *tm, time_t *out)
{
	struct tm copy = *tm;
	char *saved;

	if (is_utc(zone)) {
		*out = timegm(&copy);
		return *out == (time_t)-1 ? -1 : 0;
	}
	if (!tz_valid(zone))
		return -1;
	saved = tz_switch(zone);
	copy.tm_isdst = -1;
	*out = mktime(&copy);
	tz_restore(saved);
	return *out == (time_t)-1 ? -1 : 0;
}

char *
time_rfc3339(time_t t, char *out, size_t size)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return out;
}

int
time_parse_utc(const char *s, time_t *out)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof tm);
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (end == NULL) {
		memset(&tm, 0, sizeof tm);
		end = strptime(s, "%Y-%m-%d %H:%M", &tm);
	}
	if (end == NULL)
		return -1;
	while (*end == ' ')
		end++;
	if (*end == 'Z' || *end == 'z')
		end++;
	else if (str_eq_nocase(end, "UTC"))
		end += 3;
	if (*end != '\0')
		return -1;
	*out = timegm(&tm);
	return *out == (time_t)-1 ? -1 : 0;
}

char *
time_human(const char *zone, time_t t, char *out, size_t size)
{
	struct tm tm;

	if (is_utc(zone) || tz_local(zone, t, &tm) < 0) {
		gmtime_r(&t, &tm);
		strftime(out, size, "%A %e %B %Y, %H:%M UTC", &tm);
	} else {
		strftime(out, size, "%A %e %B %Y, %H:%M %Z", &tm);
	}
	/* %e pads single digits with a blank */
	{
		char *dbl = strstr(out, "  ");
		if (dbl)
			memmove(dbl, dbl + 1, strlen(dbl));
	}
	return out;
}

char *
time_span(long s, char *out, size_t size)
{
	long d = s / 86400, h = (s % 86400) / 3600, m = (s % 3600) / 60;

	if (s < 0)
		snprintf(out, size, "passed");
	else if (d > 0)
		snprintf(out, size, "%ld day%s %ld hour%s", d, d == 1 ? "" : "s", h, h == 1 ? "" : "s");
	else if (h > 0)
		snprintf(out, size, "%ld hour%s %ld minute%s", h, h == 1 ? "" : "s", m,
		    m == 1 ? "" : "s");
	else
		snprintf(out, size, "%ld minute%s", m, m == 1 ? "" : "s");
	return out;
}

int
time_parse_span(const char *s, long *seconds)
{
	long total = 0, v;
	char num[24];
	int any = 0;

	while (*s == ' ')
		s++;
	if (str_to_long(s, 0, 100000, &v) == 0) {
		*seconds = v * 3600;
		return 0;
	}
	while (*s) {
		size_t n = strspn(s, "0123456789");
		if (n == 0 || n >= sizeof num)
			return -1;
		memcpy(num, s, n);
		num[n] = '\0';
		if (str_to_long(num, 0, 100000, &v) < 0)
			return -1;
		s += n;
		switch (str_lc(*s)) {
		case 'd': total += v * 86400; break;
		case 'h': total += v * 3600; break;
		case 'm': total += v * 60; break;
		default: return -1;
		}
		s++;
		any = 1;
		while (*s == ' ')
			s++;
	}
	if (!any)
		return -1;
	*seconds = total;
	return 0;
}
