/*
 * zones.h — the time zones of this machine's tzdata, read from the TZif
 * files under /usr/share/zoneinfo (RFC 8536) and kept once read: the
 * struct tz_lookup the shell gives the judge (struct judge_io) and
 * everything else that shows times (lib/tz.h).
 *
 *	struct zones *z = zones_new(NULL);
 *	struct tz_lookup lk = zones_lookup(z);
 *	time_human(&lk, "Europe/Amsterdam", t, when, sizeof when);
 *	zones_free(z);
 *
 * A file holds the zone's transitions (v1: 32-bit times; v2 and later:
 * 64-bit ones, read in preference) and, for the instants after the last
 * one, a POSIX TZ string in its footer ("CET-1CEST,M3.5.0,M10.5.0/3")
 * from which the clock changes of any year are computed. Leap second
 * records ("right/" zones) are skipped.
 */
#ifndef POUCH_ZONES_H
#define POUCH_ZONES_H

#include <stddef.h>
#include <time.h>

#include "../../lib/tz.h"

struct zones;

/* Zones read from the folder dir (NULL: /usr/share/zoneinfo). Free with
 * zones_free. */
struct zones *zones_new(const char *dir);
/* Free z and every zone read; NULL is a no-op. */
void zones_free(struct zones *z);
/* The lookup answering from z (z must outlive it). */
struct tz_lookup zones_lookup(struct zones *z);
/*
 * The offset of zone at t into out. A zone is known when its name is
 * made of letters, digits, '/', '_', '-' and '+' (no "..", not starting
 * with '/', at most 100 bytes) and its file is a well-formed TZif file.
 * Returns 0, or -1 when it is not. out->abbr lives as long as z.
 */
int zones_offset(struct zones *z, const char *zone, time_t t, struct tz_offset *out);
/*
 * The offset at t by the POSIX TZ string spec (the footer's format:
 * "CET-1CEST,M3.5.0,M10.5.0/3", "<+0545>-5:45"), abbreviation copied into
 * abbr (size >= 16). Returns 0, or -1 when spec cannot be read. For the
 * tests.
 */
int zones_posix_offset(const char *spec, time_t t, struct tz_offset *out, char *abbr,
    size_t size);

#endif
