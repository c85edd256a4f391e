/*
 * tz.h — times in named time zones (IANA names from the tzdata package:
 * "Europe/Amsterdam", "America/New_York"; "UTC").
 *
 * API: the conversions are pure. What a zone's clocks show at an instant
 * (its offset from UTC and the abbreviation) is asked of a struct tz_lookup
 * the caller passes; the judge's shell supplies one that reads the tzdata
 * files (judge/shell/zones.h). The process's TZ is never read or changed.
 * A NULL lookup knows UTC only. "UTC", "GMT", "Z" and "" are always UTC.
 */
#ifndef POUCH_TZ_H
#define POUCH_TZ_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* What the clocks of a zone show at one instant. */
struct tz_offset {
	long utoff;		/* seconds east of UTC: 3600 for CET */
	bool isdst;
	const char *abbr;	/* "CEST"; borrowed from the lookup */
};

/* Where offsets come from. */
struct tz_lookup {
	void *ctx;
	/* The offset of zone at instant t into out. Returns 0, or -1 when
	 * the zone is unknown. out->abbr lives as long as ctx. */
	int (*offset)(void *ctx, const char *zone, time_t t, struct tz_offset *out);
};

/* True when zone names a zone lk knows ("UTC" always). */
bool tz_valid(const struct tz_lookup *lk, const char *zone);
/* Broken-down local time of t in zone (tm_gmtoff and tm_zone are set,
 * tm_zone borrowed from lk). Returns 0, or -1 when the zone is unknown
 * (out is then UTC). */
int tz_local(const struct tz_lookup *lk, const char *zone, time_t t, struct tm *out);
/*
 * The instant of local wall-clock time tm in zone (fields out of range are
 * carried over, as mktime does; tm_isdst is ignored). A time the clocks
 * skip (spring forward) or show twice (fall back) is read with the offset
 * in force before the change: 02:30 on the day Amsterdam skips from 02:00
 * to 03:00 is 03:30 CEST, and the first of two 02:30s is taken; glibc's
 * mktime (tm_isdst -1) gives the same after a call for the day before.
 * Returns 0, or -1 (unknown zone, out of range).
 */
int tz_mktime(const struct tz_lookup *lk, const char *zone, const struct tm *tm, time_t *out);

/* "2026-11-22T18:00:00Z" (size >= 21). Returns out. */
char *time_rfc3339(time_t t, char *out, size_t size);
/* Parse "2026-11-22T18:00:00Z" or "2026-11-22 18:00" (UTC). Returns 0 or -1. */
int time_parse_utc(const char *s, time_t *out);
/*
 * "Sunday 22 November 2026, 19:00 CET" for t in zone (size >= 64). Returns
 * out. An unknown zone is shown as UTC.
 */
char *time_human(const struct tz_lookup *lk, const char *zone, time_t t, char *out, size_t size);
/* "2 days 5 hours", "40 minutes" for a span of seconds (size >= 32). */
char *time_span(long seconds, char *out, size_t size);
/* Parse a span: "48h", "2d", "90m", "1d12h", "36" (hours). Returns 0 or -1. */
int time_parse_span(const char *s, long *seconds);

#endif
