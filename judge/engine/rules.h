/*
 * rules.h — rule editions: the choices the rulebooks make differently.
 *
 * An edition is a bundle of choices on the issues the DATC (Diplomacy
 * Adjudicator Test Cases, L. B. Kruijswijk) lists in its chapter 4. The
 * default, 2023, follows the 2023 rulebook with the DATC v3.0 preferences.
 * See judge/engine/EDITIONS.md for the table of differences.
 *
 * Every edition resolves convoy paradoxes with the Szykman rule (4.A.2).
 */
#ifndef POUCH_RULES_H
#define POUCH_RULES_H

#include <stdbool.h>

struct resolver;

enum edition {
	EDITION_2023 = 0,	/* 2023 rulebook, DATC v3.0 preferences (default) */
	EDITION_2000,		/* 2000 rulebook, DATC v2.4 preferences */
	EDITION_1982,		/* 1982 rulebook as the DATC describes it */
	EDITION_1971,		/* 1971 rulebook, DATC's 1971 alternatives */
	EDITION_DPTG,		/* Diplomacy Player's Technical Guide (1998) */
	EDITION_WEBDIP,		/* webDiplomacy's adjudicator */
	EDITION_MAX
};

/* 4.A.3: when does an army that could go by land use an offered convoy? */
enum convoy_adjacent {
	ADJ_CONVOY_2023,	/* "via convoy" or an own fleet ordered to convoy it; no fallback */
	ADJ_CONVOY_2000,	/* as 2023, but only when the ordered convoys make a whole route;
				   else overland (DATC v2.4 6.G.8) */
	ADJ_CONVOY_1982,	/* only when an own fleet is ordered to convoy it */
	ADJ_CONVOY_1971,	/* only to swap with a unit moving the opposite way, when the
				   convoy is not disrupted (unwanted convoys avoided) */
	ADJ_CONVOY_EXPLICIT,	/* only when ordered "by convoy" (DPTG) */
	ADJ_CONVOY_WEBDIP,	/* only when ordered "via convoy" and the convoy orders make a
				   whole route; else overland (webDiplomacy) */
};

/* 4.D.8: which units civil disorder removes first. */
enum civil_disorder {
	CD_2023,		/* not on a centre; farthest from an owned centre counting every
				   adjacency; fleets first; alphabetical */
	CD_HOME,		/* farthest from a home centre counting every adjacency; fleets
				   first; alphabetical (1971/1982/2000) */
};

struct rules {
	enum edition edition;
	enum convoy_adjacent convoy_adjacent;
	bool multi_route_any;		/* 4.A.1 (1971): disrupted when any route is */
	bool retreat_to_convoy_origin;	/* 4.A.5 (b): may retreat where a convoyed attacker came from */
	bool dislodged_bounces_unless_h2h; /* 4.A.7 (b): a dislodged unit still bounces a third
					      unit, except where its head-to-head attacker came from */
	enum civil_disorder civil_disorder;
	bool build_anywhere;		/* variant option: build in any owned centre */
	unsigned caps;			/* what the map's rules do beyond the standard ones
					   (enum rules_cap, resolver.h: map_caps); the
					   adjudicator tests RULES_REVIVAL (insurrection
					   and revival orders are carried out) */
	/* The rule system's own movement and supply (resolver.h), or NULL:
	 * the standard rules. */
	const struct resolver *resolver;
};

/* Fill r with the choices of edition e. */
void rules_init(struct rules *r, enum edition e);
/* Parse "2023", "2000", "1982", "1971", "dptg", "webdiplomacy". Returns 0 or -1. */
int edition_parse(const char *s, enum edition *e);
/* "2023", ... */
const char *edition_name(enum edition e);

#endif
