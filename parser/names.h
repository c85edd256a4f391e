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
 *   NAME_PREFIX  a unique-looking beginning of a name (3 letters or more)
 *   NAME_FUZZY   within a small edit distance (misspellings)
 *
 * Whether a candidate fits is not decided here: the order parser asks the
 * board (see orders.h).
 */
#ifndef POUCH_NAMES_H
#define POUCH_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "../judge/map.h"

#define NAMES_MAX_CAND 8

enum name_tier { NAME_EXACT = 0, NAME_PREFIX = 1, NAME_FUZZY = 2, NAME_NONE = 3 };

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

/* Provinces an already normalised key matches, best tier only. Returns the
 * number of candidates (0: none), at most NAMES_MAX_CAND. */
int names_provinces(const struct names *n, const char *key, struct name_cand *out);
/* Exact province match only (the fast path); PROV_NONE when none. */
prov_id names_province_exact(const struct names *n, const char *key);
/* Powers a normalised key matches (names, adjectives, abbreviations,
 * aliases, letters), best tier only. */
int names_powers(const struct names *n, const char *key, struct name_cand *out);
/* True when some province name or alias begins with the normalised words
 * of key followed by a space (so a longer name may still match). */
int names_is_name_start(const struct names *n, const char *key);

#endif
