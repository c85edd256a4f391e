/*
 * resolver.h — what a rule system brings to the engine beyond the
 * standard rules: its own movement resolution, where it raises units, and
 * the capabilities the parser, the board and the judge test (units stack,
 * armies go on board fleets) instead of the system's name.
 *
 * A system with rules of its own fills one `struct resolver` in its
 * engine file (judge/engine/NAME_rules.c) and adds it to the table in
 * resolver.c. The engine is handed it in `struct rules` (rules.resolver,
 * set from the map by resolver_for); NULL there is the standard game.
 *
 * `seat`, where an operation takes it, is indexed by province: the power
 * whose capital the province is now (a rule system may move capitals);
 * NULL is the map's capitals.
 *
 * A system whose rules a variant switches on by its options, whatever
 * system it names, gives its capabilities from the options instead (a
 * function in its engine file, listed in resolver.c).
 */
#ifndef POUCH_RESOLVER_H
#define POUCH_RESOLVER_H

#include "../../lib/buf.h"
#include "adjudicate.h"

/* What a system's rules do beyond the standard ones. */
enum rules_cap {
	RULES_STACKS = 1 << 0,		/* several units of a power share a province; orders
					   to it go to its units in turn */
	RULES_BOARDING = 1 << 1,	/* armies go on board fleets and land (ORDER_EMBARK,
					   ORDER_LAND, UNIT_ABOARD) */
	RULES_REVIVAL = 1 << 2,		/* units rise in an eliminated power and bring it
					   back (ORDER_INSURRECTION, ORDER_REVIVE) */
	RULES_POINTS = 1 << 3,		/* the game keeps victory point standings
					   (centres, political points, a bonus) */
	RULES_BUILD_TYPE = 1 << 4,	/* a build names its unit type where either
					   could stand: none is assumed */
};

struct resolver {
	const char *system;	/* the rule system whose rules these are, as a variant
				   names it (map.system) */
	unsigned caps;		/* enum rules_cap bits */
	/* Resolve the movement phase b into res, as adj_resolve does (trace,
	 * when not NULL, gets one line per unit; why, when not NULL, the
	 * reason of each unit's failure, its own rules' WHY_ codes among
	 * them). */
	void (*movement)(const struct map *m, const struct rules *r, const struct board *b,
	    const power_id *seat, const struct order *orders, int norders,
	    struct phase_result *res, struct buf *trace, struct phase_why *why);
	/* May power p raise a unit of type t in province q now? R_OK or why
	 * not. */
	enum reason (*can_build)(const struct map *m, const struct board *b, const power_id *seat,
	    power_id p, enum unit_type t, prov_id q);
	/* How many places power p may raise a unit in now. */
	int (*build_sites)(const struct map *m, const struct board *b, const power_id *seat,
	    power_id p);
};

/* The resolver of the rule system map m plays, or NULL: the standard rules. */
const struct resolver *resolver_for(const struct map *m);
/* The capabilities (enum rules_cap bits) of the rules map m plays: its
 * system's resolver's, and those its options switch on. */
unsigned map_caps(const struct map *m);
/* Fill r with edition e's choices and what the rules map m plays add to
 * them: its system's resolver, the capabilities (map_caps), builds in any
 * owned centre when its options say so. Every tool that adjudicates a
 * game of m starts from these, as the judge does. */
void rules_for_map(struct rules *r, const struct map *m, enum edition e);

#endif
