/*
 * tz.h — times in named time zones (IANA names from the tzdata package:
 * "Europe/Amsterdam", "America/New_York"; "UTC").
 *
 * Conversions switch the process's TZ for the duration of the call and
 * restore it: deterministic for the same inputs, not thread-safe (pouch is
 * single-threaded).
 */
#ifndef POUCH_TZ_H
#define POUCH_TZ_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* True when zone names a zone this machine knows ("UTC" always). */
bool tz_valid(const char *zone);
/* Broken-down local time of t in zone (tm_gmtoff and tm_zone are set).
 * Returns 0, or -1 when the zone is unknown (out is then UTC). */
int tz_local(const char *zone, time_t t, struct tm *out);
/* The instant of local wall-clock time tm in zone (tm_isdst -1: decided by
 * the zone). Returns 0 or -1. */
int tz_mktime(const char *zone, const struct tm *tm, time_t *out);

/* "2026-11-22T18:00:00Z" (size >= 21). Returns out. */
char *time_rfc3339(time_t t, char *out, size_t size);
/* Parse "2026-11-22T18:00:00Z" or "2026-11-22 18:00" (UTC). Returns 0 or -1. */
int time_parse_utc(const char *s, time_t *out);
/*
 * "Sunday 22 November 2026, 19:00 CET" for t in zone (size >= 64). Returns
 * out. An unknown zone is shown as UTC.
 */
char *time_human(const char *zone, time_t t, char *out, size_t size);
/* "2 days 5 hours", "40 minutes" for a span of seconds (size >= 32). */
char *time_span(long seconds, char *out, size_t size);
/* Parse a span: "48h", "2d", "90m", "1d12h", "36" (hours). Returns 0 or -1. */
int time_parse_span(const char *s, long *seconds);

#endif
