/*
 * realpolitik.h — Calhamer's Realpolitik (1958) as a rule system
 * (judge/systems/REALPOLITIK.md): movement by the engine's Realpolitik
 * adjudicator (judge/engine/realpolitik_rules.h); occupation of a centre on the
 * even (Fall) move; supply each Winter with armies raised in the capitals
 * and fleets in the naval bases; a lost capital moved (CAPITAL) and back;
 * centres given up (RELINQUISH); the sole remaining power wins, and an
 * adjourned game (END) goes to a power with 13 of the 34 possible units,
 * else is shared.
 */
#ifndef POUCH_REALPOLITIK_SYSTEM_H
#define POUCH_REALPOLITIK_SYSTEM_H

#include "../system.h"

extern const struct rule_system realpolitik_system;

/* Units a power must have when the game is adjourned to win it: the
 * seed's "majority (13/34) of the possible armies and fleets". */
#define RP_ADJOURN_UNITS 13

/* The result of a game adjourned on b into out: a power with
 * RP_ADJOURN_UNITS units and more than any other wins; two or more with as
 * many share it; else every power still in the game (units or centres)
 * shares it. */
void rp_adjourned(const struct map *m, const struct board *b, char *out, size_t size);

/* Where power p's capital c (a capital of the variant) stands now in g:
 * c while p holds it, the centre it moved to, or PROV_NONE. */
prov_id rp_capital_now(const struct game *g, prov_id c);

#endif
