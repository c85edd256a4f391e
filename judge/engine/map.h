/*
 * map.h — the board of a variant: powers, provinces, locations, adjacency.
 *
 * API
 *
 * A struct map is built once (by variant_load() in maps/variant.h, or by the
 * builder functions below) and is read-only afterwards; every core module
 * takes it as const. Everything is addressed by small integers:
 *
 *   power_id  0 .. npowers-1      (POWER_NONE when absent)
 *   prov_id   0 .. nprovs-1       a province: land, sea or coast
 *   loc_id    0 .. nlocs-1        a place where a unit stands
 *
 * Each province has one main location (its "loc"). A province with named
 * coasts (Spain, St Petersburg, Bulgaria; Iran on the MUNA map) has one more
 * location per coast; armies stand on the main location, fleets on a coast
 * location. Elsewhere armies and fleets share the main location. Adjacency
 * is a relation between locations, separately for armies and fleets, and is
 * always symmetric (the loader rejects asymmetric files).
 *
 * Precomputed bit matrices make the adjudicator's questions O(1):
 * map_adjacent() (loc to loc) and map_reaches() (loc to any location of a
 * province, used by supports: "could have moved there").
 *
 * Memory: the map owns all its strings and arrays; map_free() releases them.
 */
#ifndef POUCH_MAP_H
#define POUCH_MAP_H

#include <stdbool.h>
#include <stdint.h>

typedef uint8_t power_id;
typedef uint16_t prov_id;
typedef uint16_t loc_id;

#define POWER_NONE ((power_id)0xff)
#define PROV_NONE ((prov_id)0xffff)
#define LOC_NONE ((loc_id)0xffff)

#define MAP_MAX_POWERS 32
#define MAP_MAX_PROVS 480
#define MAP_MAX_LOCS 512
#define MAP_MAX_COASTS 4
#define MAP_WORDS(n) (((n) + 63) / 64)

enum terrain { TERRAIN_LAND = 1, TERRAIN_SEA = 2, TERRAIN_COAST = 3 };
enum unit_type { UNIT_NONE = 0, UNIT_ARMY = 1, UNIT_FLEET = 2 };

struct power {
	char *name;		/* "England", "United Kingdom" */
	char *token;		/* the name as one word, for files: "United_Kingdom" */
	char *adjective;	/* "English" */
	char *abbr;		/* "ENG" (unique, upper case) */
	char letter;		/* 'E', or '\0' when none */
	char *colour;		/* "#rrggbb" */
	char **aliases;		/* extra names accepted in orders ("Britain") */
	int naliases;
};

struct province {
	char *abbr;		/* "stp": unique, lower case */
	char *name;		/* "St Petersburg" */
	char **aliases;		/* other names and abbreviations ("nat" for "nao") */
	int naliases;
	uint8_t terrain;	/* enum terrain */
	bool supply;		/* a supply centre */
	power_id home;		/* home power of a supply centre, or POWER_NONE */
	power_id capital;	/* Realpolitik: the power whose capital this is (its armies
				   stack and are raised here), or POWER_NONE */
	power_id naval_base;	/* Realpolitik: the power whose naval base this is (its
				   fleets stack and are raised here), or POWER_NONE */
	loc_id loc;		/* main location */
	uint8_t ncoasts;	/* named coasts (0 for most provinces) */
	loc_id coast[MAP_MAX_COASTS];
	bool coast_named;	/* a fleet ordered here must name the coast, even when it
				   can reach only one (MUNA's Iran) */
	int line;		/* line of the definition in the variant file (0 if built) */
};

struct location {
	prov_id prov;
	uint8_t coast;		/* 0: the main location; k > 0: the province's coast[k-1] */
	bool army_ok;		/* an army may stand here */
	bool fleet_ok;		/* a fleet may stand here */
	char *name;		/* "stp" or "stp/nc" */
	char *coast_abbr;	/* "nc", or NULL for a main location */
	char *coast_name;	/* "North Coast", or NULL */
	uint16_t nadj[3];	/* neighbours, indexed by enum unit_type (army 1, fleet 2) */
	loc_id *adj[3];
};

struct start_unit {
	power_id power;
	uint8_t type;		/* enum unit_type */
	loc_id loc;
};

struct map_option {
	char *name;
	char *value;
};

struct map {
	char *name;		/* "standard" */
	char *title;		/* "Standard" */
	char *file;		/* the file it was loaded from, or NULL */
	char *drawing;		/* the variant whose drawing (map.svg) shows this board: NULL
				   for its own, the geography's for one that takes another's */
	char system[16];	/* the rule system it plays (judge/system.h); "": by its options */
	int npowers, nprovs, nlocs;
	struct power powers[MAP_MAX_POWERS];
	struct province *provs;
	struct location *locs;
	int start_year;
	int victory_centres;	/* centres needed to win outright; 0: no such victory */
	int nstart;
	struct start_unit *start;
	int noptions;
	struct map_option *options;
	int nsupply;		/* supply centres on the map */

	/* Derived by map_finish(); the adjudicator's fast paths. */
	uint64_t *adj_bits[3];	/* [type][from * loc_words + to / 64] */
	uint64_t *reach_bits[3]; /* [type][from * prov_words + prov / 64] */
	uint64_t *prov_fleet_adj; /* [p * prov_words + q / 64]: a fleet can pass p <-> q */
	uint64_t *convoy_reach;	/* [p * prov_words + q / 64]: an army in coastal p could be
				   convoyed to coastal q through seas */
	int loc_words, prov_words;
};

/* A new empty map with the given short name and title (both copied). */
struct map *map_new(const char *name, const char *title);
/* Release a map and everything it owns. map_free(NULL) is a no-op. */
void map_free(struct map *m);

/* Builder: add a power. Returns its id. Strings are copied. */
power_id map_add_power(struct map *m, const char *name, const char *adjective,
    const char *abbr, char letter, const char *colour);
/* Builder: add an alias to a power (copied). */
void map_add_power_alias(struct map *m, power_id p, const char *alias);
/* Builder: add a province with its main location. Returns its id. */
prov_id map_add_province(struct map *m, const char *abbr, const char *name,
    enum terrain terrain);
/* Builder: add a named coast ("nc", "North Coast") to a province; returns the location. */
loc_id map_add_coast(struct map *m, prov_id p, const char *abbr, const char *name);
/* Builder: add an alias to a province (copied). */
void map_add_province_alias(struct map *m, prov_id p, const char *alias);
/* Builder: add the directed edge a -> b for units of the given type.
 * Returns false (and adds nothing) when the edge is already present. */
bool map_add_edge(struct map *m, enum unit_type type, loc_id a, loc_id b);
/* Builder: set a rule option (copied; later values replace earlier ones). */
void map_set_option(struct map *m, const char *name, const char *value);
/*
 * Builder: compute the derived tables. Call once after the last builder
 * call and before any query below.
 */
void map_finish(struct map *m);

/* Queries. All take a finished map. */

/* True when a unit of type t may move from location a to location b. */
static inline bool
map_adjacent(const struct map *m, enum unit_type t, loc_id a, loc_id b)
{
	return (m->adj_bits[t][(unsigned)a * (unsigned)m->loc_words + b / 64] >> (b % 64)) & 1u;
}

/* True when a unit of type t at a may move to some location of province p. */
static inline bool
map_reaches(const struct map *m, enum unit_type t, loc_id a, prov_id p)
{
	return (m->reach_bits[t][(unsigned)a * (unsigned)m->prov_words + p / 64] >> (p % 64)) & 1u;
}

/* True when a fleet could pass between provinces p and q (any coasts). */
static inline bool
map_fleet_link(const struct map *m, prov_id p, prov_id q)
{
	return (m->prov_fleet_adj[(unsigned)p * (unsigned)m->prov_words + q / 64] >> (q % 64)) & 1u;
}

/* True when an army in coastal province p could be convoyed to q (fleets permitting). */
static inline bool
map_convoy_reach(const struct map *m, prov_id p, prov_id q)
{
	return (m->convoy_reach[(unsigned)p * (unsigned)m->prov_words + q / 64] >> (q % 64)) & 1u;
}

/* The province of location l. */
static inline prov_id
map_loc_prov(const struct map *m, loc_id l)
{
	return m->locs[l].prov;
}

/* True when a unit of type t may stand on location l. */
static inline bool
map_loc_allows(const struct map *m, enum unit_type t, loc_id l)
{
	return t == UNIT_ARMY ? m->locs[l].army_ok : t == UNIT_FLEET ? m->locs[l].fleet_ok : false;
}

/* Province whose abbreviation, name or alias equals s (ignoring case), or PROV_NONE. */
prov_id map_find_province(const struct map *m, const char *s);
/*
 * Location named s: "stp", "stp/nc", "stp(nc)", "stp nc", or any province
 * name with a coast abbreviation. Returns LOC_NONE when unknown.
 */
loc_id map_find_location(const struct map *m, const char *s);
/* Coast location of province p whose abbreviation (or name) is coast, or LOC_NONE. */
loc_id map_find_coast(const struct map *m, prov_id p, const char *coast);
/* Power whose name, adjective, abbreviation, letter or alias equals s (ignoring case). */
/* The power named at the start of *s by one to four words ("United
 * Kingdom a@x" gives the UK): the longest match; *s then points past it
 * and past a comma written right after the name. POWER_NONE (and *s
 * unchanged) when none. */
power_id map_take_power(const struct map *m, char **s);
power_id map_find_power(const struct map *m, const char *s);
/* Value of rule option name, or NULL. */
const char *map_option(const struct map *m, const char *name);
/* True when rule option name is set to "yes", "true", "on" or "1". */
bool map_option_on(const struct map *m, const char *name);

/*
 * The location a unit of type t uses in province p when no coast is given:
 * the main location if t may stand there, else the only coast, else LOC_NONE
 * (a fleet in a province with two coasts needs a coast).
 */
loc_id map_default_loc(const struct map *m, prov_id p, enum unit_type t);

/* Single-letter unit name: 'A' or 'F'. */
char unit_letter(enum unit_type t);
/* "army" / "fleet". */
const char *unit_word(enum unit_type t);

#endif
