#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "tz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str.h"

static bool
is_utc(const char *zone)
{
	return zone == NULL || *zone == '\0' || str_eq_nocase(zone, "UTC") ||
	    str_eq_nocase(zone, "GMT") || str_eq_nocase(zone, "Z");
}

/* The offset of zone at t; UTC for the UTC names. Returns 0 or -1. */
static int
offset_at(const struct tz_lookup *lk, const char *zone, time_t t, struct tz_offset *out)
{
	if (is_utc(zone)) {
		out->utoff = 0;
		out->isdst = false;
		out->abbr = "UTC";
		return 0;
	}
	if (lk == NULL || lk->offset == NULL)
		return -1;
	return lk->offset(lk->ctx, zone, t, out);
}

bool
tz_valid(const struct tz_lookup *lk, const char *zone)
{
	struct tz_offset o;

	return offset_at(lk, zone, 0, &o) == 0;
}

int
tz_local(const struct tz_lookup *lk, const char *zone, time_t t, struct tm *out)
{
	struct tz_offset o;
	time_t local;

	if (offset_at(lk, zone, t, &o) < 0) {
		gmtime_r(&t, out);
		return -1;
	}
	local = t + o.utoff;
	if (gmtime_r(&local, out) == NULL)
		return -1;
	out->tm_isdst = o.isdst;
	out->tm_gmtoff = o.utoff;
	out->tm_zone = o.abbr;
	return 0;
}

/* The longest a zone's offset changed at once (Pacific/Apia skipped a day:
 * -10 to +14), and a margin: the offset "before" a local time is read this
 * long before it. */
#define TZ_BEFORE (30 * 3600)

int
tz_mktime(const struct tz_lookup *lk, const char *zone, const struct tm *tm, time_t *out)
{
	struct tm copy = *tm;
	struct tz_offset before, at;
	time_t wall, t;

	/* The wall-clock time as if it were UTC, fields carried over. */
	copy.tm_isdst = 0;
	wall = timegm(&copy);
	if (offset_at(lk, zone, wall - TZ_BEFORE, &before) < 0)
		return -1;
	/* Read with the offset before. When the clocks show another offset
	 * at that instant, they changed: the time is after the change when
	 * it is one with the new offset, else it is in the gap. */
	t = wall - before.utoff;
	if (offset_at(lk, zone, t, &at) < 0)
		return -1;
	if (at.utoff != before.utoff) {
		time_t t2 = wall - at.utoff;
		struct tz_offset o2;
		if (offset_at(lk, zone, t2, &o2) == 0 && o2.utoff == at.utoff)
			t = t2;
	}
	*out = t;
	return t == (time_t)-1 ? -1 : 0;
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
time_human(const struct tz_lookup *lk, const char *zone, time_t t, char *out, size_t size)
{
	struct tm tm;

	if (is_utc(zone) || tz_local(lk, zone, t, &tm) < 0) {
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
