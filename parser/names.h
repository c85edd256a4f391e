/*
 * names.h — every name a player may use for a province, a coast or a
 * power, and the matching rules of the parser.
 *
 * A struct names is built once per map (names_new) and then only read.
 * Keys are normalised: ASCII lower case, accents folded (é -> e), '.' and
 * apostrophes dropped, hyphens and runs of blanks turned into one space,
 * so "St. Petersburg", "st petersburg" and "ST PETERSBURG" are one key.
 *
 * Matching a written name gives candidates in three tiers, and a lower tier
 * is only consulted when the higher one is empty:
 *
 *   NAME_EXACT   the abbreviation, the full name or an alias
 *   NAME_PREFIX  a beginning of a name (3 letters or more)
 *   NAME_FUZZY   within a small edit distance (misspellings): 1 for words
 *                of 4-5 letters, 2 up to 8 letters, 3 beyond; every name
 *                within the limit is a candidate, closest first
 *
 * A fourth tier, NAME_SITE, is the order parser's: a word close to the name
 * of a place where the sender has a unit (names_province_distance).
 *
 * Whether a candidate fits is not decided here: the order parser asks the
 * board (see orders.h). Exact lookups are one hash probe; the other tiers
 * scan the index and are only used when the exact one found nothing.
 */
#ifndef POUCH_NAMES_H
#define POUCH_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "../judge/engine/map.h"

#define NAMES_MAX_CAND 8

enum name_tier { NAME_EXACT = 0, NAME_PREFIX = 1, NAME_FUZZY = 2, NAME_SITE = 3, NAME_NONE = 4 };

struct name_cand {
	uint16_t id;		/* prov_id or power_id */
	uint8_t tier;		/* enum name_tier */
	uint8_t dist;		/* edit distance for NAME_FUZZY */
	const char *key;	/* the name matched (borrowed from the index) */
};

struct names;

/* Build the index for map m (m must outlive it). */
struct names *names_new(const struct map *m);
void names_free(struct names *n);

/*
 * Normalise s[0..len) into out (size >= 2), see above. Returns the length
 * written (truncated to size - 1).
 */
size_t names_normalise(const char *s, size_t len, char *out, size_t size);

/* Fold s[0..len) to lower-case ASCII (accents dropped, dashes and arrows
 * made '-' and "->", other non-ASCII made blanks), keeping punctuation.
 * Returns the length written. */
size_t names_fold(const char *s, size_t len, char *out, size_t size);

/* Provinces an already normalised key matches, best tier only, closest
 * first. Returns the number of candidates (0: none), at most NAMES_MAX_CAND. */
int names_provinces(const struct names *n, const char *key, struct name_cand *out);
/* Exact province match only (the fast path); PROV_NONE when none. */
prov_id names_province_exact(const struct names *n, const char *key);
/* Exact province match of the len bytes at key (not NUL-terminated), with
 * its candidates in out as names_provinces would give them. Returns the
 * number of candidates (0 or 1). */
int names_province_exactn(const struct names *n, const char *key, size_t len,
    struct name_cand *out);
/* Powers a normalised key matches (names, adjectives, abbreviations,
 * aliases, letters), best tier only. */
int names_powers(const struct names *n, const char *key, struct name_cand *out);
/* Powers with a name or alias that begins with key, whatever its length
 * ("b" -> Britain -> England). For a prefix followed by a colon. */
int names_powers_prefix(const struct names *n, const char *key, struct name_cand *out);
/* Exact power match of a whole name, adjective, abbreviation or alias (not
 * a single letter); POWER_NONE when none. */
power_id names_power_exact(const struct names *n, const char *key);
/* True when some province name or alias begins with the normalised words
 * of key followed by a space (so a longer name may still match). */
int names_is_name_start(const struct names *n, const char *key);
/* True when the normalised word w is a coast abbreviation of the map ("nc"). */
int names_is_coast(const struct names *n, const char *w);
/*
 * How close key is to province p, for the parser's NAME_SITE tier: 0 when
 * key (2 letters or more) begins one of p's names, else the smallest edit
 * distance to a name with the same first letter, or limit + 1 when none is
 * within limit.
 */
int names_province_distance(const struct names *n, prov_id p, const char *key, int limit);
/*
 * Add a candidate to out[0..k) (room for NAMES_MAX_CAND): one entry per id,
 * the closest kept, sorted by distance; when full, a closer candidate
 * replaces the farthest. Returns the new count.
 */
int names_cand_add(struct name_cand *out, int k, uint16_t id, uint8_t tier, uint8_t dist,
    const char *key);
/*
 * Suggestions for an unknown word: up to max provinces (max <= NAMES_MAX_CAND)
 * whose names are closest to key, within about half its length; closest
 * first. Returns how many.
 */
int names_suggest(const struct names *n, const char *key, struct name_cand *out, int max);

#endif
