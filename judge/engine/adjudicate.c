/*
 * adjudicate.c — movement, retreat and adjustment resolution.
 *
 * Movement, in three steps:
 *
 * 1. Checking (check_*): each submitted order is matched to a unit and
 *    checked against the board alone. An order that could never be valid
 *    is illegal and ignored: the unit holds and may receive support to hold
 *    (2023 rulebook; DATC 4.E.1). A later legal order to a unit replaces an
 *    earlier one.
 *
 * 2. Resolving (resolve): Kruijswijk's guess-and-backup algorithm over the
 *    decisions MOVE (does the move succeed), SUPPORT (is the support given,
 *    i.e. not cut) and CONVOY (does the fleet stay, i.e. is not dislodged).
 *    The strengths of DATC 5.B (attack, hold, defend, prevent) are computed
 *    on demand from other decisions. resolve() first guesses "fails"; when
 *    an adjudication depends on a guess, the dependency list records it. A
 *    cycle rooted at an order is tried with both guesses: one consistent
 *    answer is the answer; two (circular movement) or none (a paradox) call
 *    the backup rule.
 *
 * 3. Reporting: reason codes per order and per unit, the position after
 *    movement with dislodged units, where their attackers came from and the
 *    provinces left empty by standoffs.
 *
 * DATC references are to the Diplomacy Adjudicator Test Cases v3.0;
 * rulebook references to the 1971 rulebook unless another is named.
 */
#include "adjudicate.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "resolver.h"

enum { K_HOLD = 0, K_MOVE, K_SUPPORT, K_CONVOY };

/* How an army move relates to convoys (DATC 4.A.3). */
enum {
	CM_LAND = 0,		/* over land only */
	CM_CONVOY,		/* by convoy only: not adjacent, or the rules say the convoy is meant */
	CM_1971,		/* by convoy only to swap with a unit coming the other way (1971) */
};

#define NONE (-1)

/* The steps every movement phase takes (checking a move, its strengths,
 * its decision) are written into their callers, which the compiler's own
 * measure of size would not do; the rare ones (a convoy, the second guess
 * of a cycle) are kept out of line, so the common path stays short. */
#define INLINE inline __attribute__((always_inline))
#define OUT_OF_LINE __attribute__((noinline))

struct ws {
	const struct map *m;
	const struct rules *r;
	const struct board *b;
	int n;
	uint8_t kind[BOARD_MAX_UNITS];
	uint8_t cmode[BOARD_MAX_UNITS];
	uint8_t resolved[BOARD_MAX_UNITS];
	uint8_t visited[BOARD_MAX_UNITS];
	uint8_t in_cycle[BOARD_MAX_UNITS];
	uint8_t res[BOARD_MAX_UNITS];
	uint8_t paradox[BOARD_MAX_UNITS];	/* convoy set aside by the Szykman rule */
	uint8_t via[BOARD_MAX_UNITS];
	int16_t ord[BOARD_MAX_UNITS];		/* executed order */
	loc_id dest[BOARD_MAX_UNITS];		/* move, convoy, support-to-move destination */
	prov_id destp[BOARD_MAX_UNITS];		/* its province (PROV_NONE: support to hold) */
	prov_id prov[BOARD_MAX_UNITS];		/* where the unit is */
	int16_t target[BOARD_MAX_UNITS];	/* supported / convoyed unit */
	int16_t next_into[BOARD_MAX_UNITS];	/* next move to the same province */
	int16_t next_sup[BOARD_MAX_UNITS];	/* next support of the same unit */
	int16_t next_cvy[BOARD_MAX_UNITS];	/* next convoy of the same army */
	int16_t sup_head[BOARD_MAX_UNITS];
	int16_t cvy_head[BOARD_MAX_UNITS];
	int16_t at[MAP_MAX_PROVS];		/* unit in the province */
	int16_t into[MAP_MAX_PROVS];		/* first move to the province */
	int16_t cycle[BOARD_MAX_UNITS];		/* orders in unresolved cycles */
	int16_t cpos[BOARD_MAX_UNITS];		/* position in cycle[] while in_cycle */
	int ncycle;
	int lowest;				/* earliest cycle position depended on */
	int recursion_hits;
	bool guess_based;
};

static bool resolve_open(struct ws *w, int u);

/* Resolve the decision of unit u (resolve_open): most are met again once
 * settled, and answer here without a call. */
static inline bool
resolve(struct ws *w, int u)
{
	return w->resolved[u] ? w->res[u] : resolve_open(w, u);
}

/* ------------------------------------------------------------ checking -- */

/*
 * The destination a fleet at from reaches when ordered to to: a coast must
 * be given when two coasts can be reached (DATC 4.B.1), is supplied when
 * only one can (4.B.2 a) unless the map says the coast must always be named,
 * and a coast that cannot be reached makes the order illegal (4.B.3 b).
 * Returns R_OK and sets *out, or the reason.
 */
static INLINE enum reason
fleet_dest(const struct map *m, loc_id from, loc_id to, loc_id *out)
{
	const struct location *tl = &m->locs[to];
	const struct province *tp = &m->provs[tl->prov];
	loc_id found = LOC_NONE;
	int i, nfound = 0;

	if (tl->coast > 0) {
		if (map_adjacent(m, UNIT_FLEET, from, to)) {
			*out = to;
			return R_OK;
		}
		return map_reaches(m, UNIT_FLEET, from, tl->prov) ? R_BAD_COAST : R_NOT_ADJACENT;
	}
	if (tp->ncoasts == 0) {
		if (!map_adjacent(m, UNIT_FLEET, from, to))
			return R_NOT_ADJACENT;
		*out = to;
		return R_OK;
	}
	for (i = 0; i < tp->ncoasts; i++) {
		if (map_adjacent(m, UNIT_FLEET, from, tp->coast[i])) {
			found = tp->coast[i];
			nfound++;
		}
	}
	if (nfound == 0)
		return R_NOT_ADJACENT;
	if (nfound > 1)
		return R_NEED_COAST;
	if (tp->coast_named)
		return R_NAME_COAST;
	*out = found;
	return R_OK;
}

enum reason
adj_fleet_dest(const struct map *m, loc_id from, loc_id to, loc_id *out)
{
	return fleet_dest(m, from, to, out);
}

/*
 * Is sea province s on a chordless route src -> seas -> dst? Such a route
 * has no shortcut, so every fleet on it is needed; a convoy order by a fleet
 * on no such route is illegal in the 2023 rules (DATC 6.G.19). Depth-first
 * over the seas; path[] holds the route so far.
 */
struct route_search {
	const struct map *m;
	prov_id src, dst, want;
	prov_id path[64];
	int len;
	int budget;
};

/* The first province after q (-1: from the first) a fleet passes to from
 * p, or -1. */
static inline int
next_link(const struct map *m, prov_id p, int q)
{
	const uint64_t *row = &m->prov_fleet_adj[(unsigned)p * (unsigned)m->prov_words];
	int k = (q + 1) / 64;
	uint64_t bits;

	if (q + 1 >= m->nprovs)
		return -1;
	bits = row[k] & (~(uint64_t)0 << ((q + 1) % 64));
	while (bits == 0) {
		if (++k >= m->prov_words)
			return -1;
		bits = row[k];
	}
	return k * 64 + __builtin_ctzll(bits);
}

static bool
route_dfs(struct route_search *rs, bool seen_want)
{
	const struct map *m = rs->m;
	prov_id last = rs->path[rs->len - 1];
	int q, i;

	if (--rs->budget < 0)
		return true;	/* give up: do not declare the order illegal */
	if (rs->len > 1 && map_fleet_link(m, last, rs->dst)) {
		/* The route must end here: dst may touch no earlier sea. */
		for (i = 1; i < rs->len - 1; i++)
			if (map_fleet_link(m, rs->path[i], rs->dst))
				return false;
		return seen_want;
	}
	if (rs->len >= (int)(sizeof rs->path / sizeof rs->path[0]))
		return false;
	/* The seas a fleet passes to from last, in the provinces' order:
	 * the set bits of last's row of fleet links, a word at a time. */
	for (q = -1; (q = next_link(m, last, q)) >= 0;) {
		if (m->provs[q].terrain != TERRAIN_SEA)
			continue;
		for (i = 0; i < rs->len - 1; i++)
			if (rs->path[i] == q || map_fleet_link(m, rs->path[i], (prov_id)q))
				break;
		if (i < rs->len - 1)
			continue;
		/* q is adjacent only to the last node: a chordless extension. */
		rs->path[rs->len++] = (prov_id)q;
		if (route_dfs(rs, seen_want || q == rs->want)) {
			rs->len--;
			return true;
		}
		rs->len--;
	}
	return false;
}

static bool
fleet_needed(const struct map *m, prov_id src, prov_id dst, prov_id sea)
{
	struct route_search rs;

	rs.m = m;
	rs.src = src;
	rs.dst = dst;
	rs.want = sea;
	rs.path[0] = src;
	rs.len = 1;
	rs.budget = 200000;
	return route_dfs(&rs, false);
}

/*
 * Could fleets now on the board carry an army from src to dst (whatever
 * they are ordered)? A move that needs a convoy no fleet could give is
 * illegal (DATC 4.E.1, 6.D.32).
 */
/* Move the seas of sea[0..*n) that a fleet in s reaches to queue[*tail]. */
static void
reach_seas(const struct map *m, prov_id s, prov_id *sea, int *n, prov_id *queue, int *tail)
{
	int i = 0;

	while (i < *n) {
		if (map_fleet_link(m, s, sea[i])) {
			queue[(*tail)++] = sea[i];
			sea[i] = sea[--*n];
		} else {
			i++;
		}
	}
}

static bool
fleet_chain(const struct ws *w, prov_id src, prov_id dst)
{
	const struct map *m = w->m;
	prov_id sea[BOARD_MAX_UNITS];	/* fleets at sea not reached yet, by province */
	prov_id queue[BOARD_MAX_UNITS];
	int nsea = 0, head = 0, tail = 0, u;

	/* Only the board's fleets matter: the one unit each province counts
	 * with (w->at), a fleet, at sea. */
	for (u = 0; u < w->n; u++)
		if (w->at[w->prov[u]] == u && w->b->units[u].type == UNIT_FLEET &&
		    m->provs[w->prov[u]].terrain == TERRAIN_SEA)
			sea[nsea++] = w->prov[u];
	reach_seas(m, src, sea, &nsea, queue, &tail);
	while (head < tail) {
		prov_id s = queue[head++];
		if (map_fleet_link(m, s, dst))
			return true;
		reach_seas(m, s, sea, &nsea, queue, &tail);
	}
	return false;
}

/* An army move to a province it does not border, from here to p: R_OK
 * when fleets now on the board could carry it (check_order; kept out of
 * its line, as most moves are overland). */
static OUT_OF_LINE enum reason
by_sea(const struct ws *w, prov_id here, prov_id p)
{
	if (!map_convoy_reach(w->m, here, p))
		return R_NOT_ADJACENT;
	return fleet_chain(w, here, p) ? R_OK : R_NO_CONVOY;
}

/* check_order of a convoy order o for unit u. */
static OUT_OF_LINE enum reason
check_convoy(struct ws *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	prov_id here = w->prov[u];
	int tu;

	if (w->b->units[u].type != UNIT_FLEET || m->provs[here].terrain != TERRAIN_SEA)
		return R_CANNOT_CONVOY;
	if (o->target == LOC_NONE || o->dest == LOC_NONE)
		return R_NO_UNIT;
	tu = w->at[m->locs[o->target].prov];
	if (tu != NONE && w->b->units[tu].type != UNIT_ARMY)
		return R_CANNOT_CONVOY;	/* only armies are convoyed (DATC 6.A.7) */
	if (m->locs[o->target].prov == m->locs[o->dest].prov)
		return R_SAME_PROVINCE;
	if (!map_convoy_reach(m, m->locs[o->target].prov, m->locs[o->dest].prov))
		return R_CANNOT_CONVOY;
	if (!fleet_needed(m, m->locs[o->target].prov, m->locs[o->dest].prov, here))
		return R_CANNOT_CONVOY;
	w->kind[u] = K_CONVOY;
	w->paradox[u] = 0;
	w->dest[u] = m->provs[m->locs[o->dest].prov].loc;
	w->destp[u] = m->locs[o->dest].prov;
	w->target[u] = (int16_t)tu;
	return R_OK;
}

/* check_order of a revival order of MUNA, o, for unit u. */
static OUT_OF_LINE enum reason
check_insurrection(struct ws *w, int u, const struct order *o)
{
	const struct map *m = w->m;

	/* MUNA: the unit stays where it is this season, holding (it can
	 * be supported, and dislodged); it leaves the board when the
	 * season ends (judge/engine/muna_rules.h). */
	if (!(w->r->caps & RULES_REVIVAL))
		return R_WRONG_PHASE;
	if (o->target_power >= m->npowers || !board_eliminated(w->b, m, o->target_power))
		return R_NOT_ELIMINATED;
	w->kind[u] = K_HOLD;
	return R_OK;
}

/* Check order o for unit u; only when it is legal are the working fields
 * of u written (an illegal order leaves the unit's earlier one as it was). */
static INLINE enum reason
check_order(struct ws *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	const struct unit *un = &w->b->units[u];
	enum unit_type t = (enum unit_type)un->type;
	prov_id here = w->prov[u];
	enum reason rc;
	loc_id d;
	int tu;

	switch (o->kind) {
	case ORDER_HOLD:
		w->kind[u] = K_HOLD;
		return R_OK;

	case ORDER_MOVE:
		if (o->dest == LOC_NONE)
			return R_NOT_ADJACENT;
		if (m->locs[o->dest].prov == here)
			return R_SAME_PROVINCE;
		if (t == UNIT_ARMY) {
			/* A coast given for an army is ignored (DATC 4.B.6). */
			d = m->provs[m->locs[o->dest].prov].loc;
			if (!m->locs[d].army_ok)
				return R_NOT_ADJACENT;
			if (map_adjacent(m, UNIT_ARMY, un->loc, d))
				w->cmode[u] = CM_LAND;
			else if ((rc = by_sea(w, here, m->locs[d].prov)) == R_OK)
				w->cmode[u] = CM_CONVOY;
			else
				return rc;
		} else {
			rc = fleet_dest(m, un->loc, o->dest, &d);
			if (rc != R_OK)
				return rc;
			w->cmode[u] = CM_LAND;
		}
		w->kind[u] = K_MOVE;
		w->dest[u] = d;
		w->destp[u] = m->locs[d].prov;
		w->via[u] = o->via_convoy && t == UNIT_ARMY;
		return R_OK;

	case ORDER_SUPPORT:
		if (o->target == LOC_NONE)
			return R_NO_UNIT;
		if (m->locs[o->target].prov == here)
			return R_SAME_PROVINCE;	/* support to hold itself (DATC 6.A.8) */
		tu = w->at[m->locs[o->target].prov];
		if (o->dest == LOC_NONE) {
			if (!map_reaches(m, t, un->loc, m->locs[o->target].prov))
				return R_CANNOT_SUPPORT;
			w->destp[u] = PROV_NONE;
		} else {
			if (m->locs[o->dest].prov == here)
				return R_SAME_PROVINCE;	/* DATC 6.D.34 */
			if (!map_reaches(m, t, un->loc, m->locs[o->dest].prov))
				return R_CANNOT_SUPPORT;
			w->destp[u] = m->locs[o->dest].prov;
		}
		w->kind[u] = K_SUPPORT;
		w->dest[u] = o->dest;
		w->target[u] = (int16_t)tu;
		return R_OK;

	case ORDER_CONVOY:
		return check_convoy(w, u, o);

	case ORDER_INSURRECTION:
		return check_insurrection(w, u, o);

	default:
		return R_WRONG_PHASE;
	}
}

/* An order a unit is given in a movement phase (variant orders when their
 * rules are on)? */
static bool
movement_kind(const struct rules *r, const struct order *o)
{
	return o->kind == ORDER_HOLD || o->kind == ORDER_MOVE || o->kind == ORDER_SUPPORT ||
	    o->kind == ORDER_CONVOY || (o->kind == ORDER_INSURRECTION && (r->caps & RULES_REVIVAL));
}

/* A revival order (MUNA) in a movement phase: carried out when the season
 * ends (judge/engine/muna_rules.h); here only whether its power may give it. */
static enum reason
revival_reason(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *o)
{
	if (!(r->caps & RULES_REVIVAL))
		return R_WRONG_PHASE;
	return o->power < m->npowers && board_eliminated(b, m, o->power) ? R_OK : R_NOT_ELIMINATED;
}

/* Do the convoy orders for army u form a whole route (whatever happens
 * to the fleets)? */
static bool
ordered_route(struct ws *w, int u)
{
	const struct map *m = w->m;
	int16_t cand[BOARD_MAX_UNITS], queue[BOARD_MAX_UNITS];
	uint8_t seen[BOARD_MAX_UNITS];
	int nc = 0, head = 0, tail = 0, i, j, f;

	for (f = w->cvy_head[u]; f != NONE; f = w->next_cvy[f])
		if (w->kind[f] == K_CONVOY && w->destp[f] == w->destp[u])
			cand[nc++] = (int16_t)f;
	memset(seen, 0, sizeof seen);
	for (i = 0; i < nc; i++)
		if (map_fleet_link(m, w->prov[u], w->prov[cand[i]])) {
			seen[i] = 1;
			queue[tail++] = (int16_t)i;
		}
	while (head < tail) {
		i = queue[head++];
		if (map_fleet_link(m, w->prov[cand[i]], w->destp[u]))
			return true;
		for (j = 0; j < nc; j++)
			if (!seen[j] && map_fleet_link(m, w->prov[cand[i]], w->prov[cand[j]])) {
				seen[j] = 1;
				queue[tail++] = (int16_t)j;
			}
	}
	return false;
}

/* Decide, per the edition, whether army moves to adjacent provinces use
 * offered convoys (DATC 4.A.3). Needs all convoy orders known. */
static void
set_convoy_modes(struct ws *w)
{
	int u, f;

	for (u = 0; u < w->n; u++) {
		bool own = false, any = false;

		if (w->kind[u] != K_MOVE || w->cmode[u] != CM_LAND ||
		    w->b->units[u].type != UNIT_ARMY)
			continue;
		for (f = w->cvy_head[u]; f != NONE; f = w->next_cvy[f]) {
			if (w->destp[f] != w->destp[u])
				continue;
			any = true;
			if (w->b->units[f].power == w->b->units[u].power)
				own = true;
		}
		switch (w->r->convoy_adjacent) {
		case ADJ_CONVOY_2023:
			if (w->via[u] || own)
				w->cmode[u] = CM_CONVOY;
			break;
		case ADJ_CONVOY_2000:
			/* The convoy counts only when the ordered convoys make a
			 * whole route; else the army goes overland (DATC v2.4
			 * 6.G.8). A route that is later broken does not fall
			 * back (6.G.11). */
			if ((w->via[u] || own) && ordered_route(w, u))
				w->cmode[u] = CM_CONVOY;
			break;
		case ADJ_CONVOY_1982:
			if (own)
				w->cmode[u] = CM_CONVOY;
			break;
		case ADJ_CONVOY_1971:
			if (any)
				w->cmode[u] = CM_1971;
			break;
		case ADJ_CONVOY_EXPLICIT:
			if (w->via[u])
				w->cmode[u] = CM_CONVOY;
			break;
		case ADJ_CONVOY_WEBDIP:
			/* Only a move written "via convoy" is convoyed, and only
			 * when the convoy orders make a whole route; otherwise it
			 * goes overland. A route broken later does not fall
			 * back. */
			if (w->via[u] && ordered_route(w, u))
				w->cmode[u] = CM_CONVOY;
			break;
		}
	}
}

/* ---------------------------------------------------------- decisions -- */

/*
 * Is there an unbroken chain of convoying fleets for army u? Fleets count
 * when ordered to convoy u to its destination, not set aside by the Szykman
 * rule, and not dislodged. With the 1971 rule a convoy is broken when any
 * fleet on any route is dislodged (DATC 4.A.1 a).
 */
static bool
convoy_path(struct ws *w, int u)
{
	const struct map *m = w->m;
	int16_t cand[BOARD_MAX_UNITS], queue[BOARD_MAX_UNITS];
	uint8_t seen[BOARD_MAX_UNITS], back[BOARD_MAX_UNITS];
	prov_id src = w->prov[u], dst = w->destp[u];
	int nc = 0, head = 0, tail = 0, i, j, f;
	bool found = false;

	for (f = w->cvy_head[u]; f != NONE; f = w->next_cvy[f])
		if (w->kind[f] == K_CONVOY && w->destp[f] == dst && !w->paradox[f])
			cand[nc++] = (int16_t)f;
	if (nc == 0)
		return false;
	memset(seen, 0, sizeof seen);

	if (!w->r->multi_route_any) {
		for (i = 0; i < nc; i++) {
			if (map_fleet_link(m, src, w->prov[cand[i]]) && resolve(w, cand[i])) {
				seen[i] = 1;
				queue[tail++] = (int16_t)i;
			}
		}
		while (head < tail) {
			i = queue[head++];
			if (map_fleet_link(m, w->prov[cand[i]], dst))
				return true;
			for (j = 0; j < nc; j++) {
				if (!seen[j] && map_fleet_link(m, w->prov[cand[i]], w->prov[cand[j]]) &&
				    resolve(w, cand[j])) {
					seen[j] = 1;
					queue[tail++] = (int16_t)j;
				}
			}
		}
		return false;
	}

	/* 1971: the fleets on some route, then all of them must stay. */
	for (i = 0; i < nc; i++) {
		if (map_fleet_link(m, src, w->prov[cand[i]])) {
			seen[i] = 1;
			queue[tail++] = (int16_t)i;
		}
	}
	while (head < tail) {
		i = queue[head++];
		for (j = 0; j < nc; j++) {
			if (!seen[j] && map_fleet_link(m, w->prov[cand[i]], w->prov[cand[j]])) {
				seen[j] = 1;
				queue[tail++] = (int16_t)j;
			}
		}
	}
	memset(back, 0, sizeof back);
	head = tail = 0;
	for (i = 0; i < nc; i++) {
		if (seen[i] && map_fleet_link(m, w->prov[cand[i]], dst)) {
			back[i] = 1;
			queue[tail++] = (int16_t)i;
			found = true;
		}
	}
	if (!found)
		return false;
	while (head < tail) {
		i = queue[head++];
		for (j = 0; j < nc; j++) {
			if (seen[j] && !back[j] && map_fleet_link(m, w->prov[cand[i]], w->prov[cand[j]])) {
				back[j] = 1;
				queue[tail++] = (int16_t)j;
			}
		}
	}
	for (i = 0; i < nc; i++)
		if (seen[i] && back[i] && !resolve(w, cand[i]))
			return false;
	return true;
}

/* Can move u have any effect on its destination (attack strength above 0)? */
static bool
has_route(struct ws *w, int u)
{
	return w->cmode[u] != CM_CONVOY || convoy_path(w, u);
}

/* Does move u travel by convoy? */
static bool
uses_convoy(struct ws *w, int u)
{
	int v;

	switch (w->cmode[u]) {
	case CM_CONVOY:
		return true;
	case CM_1971:
		v = w->at[w->destp[u]];
		return v != NONE && w->kind[v] == K_MOVE && w->destp[v] == w->prov[u] &&
		    convoy_path(w, u);
	default:
		return false;
	}
}

/* v, moving into u's province as u moves into v's, when neither goes by
 * convoy; else NONE. */
static int
h2h_overland(struct ws *w, int u, int v)
{
	if (uses_convoy(w, u) || uses_convoy(w, v))
		return NONE;
	return v;
}

/* The unit moving head-to-head against u (both over land), or NONE. */
static inline int
h2h(struct ws *w, int u)
{
	int v = w->at[w->destp[u]];

	if (v == NONE || w->kind[v] != K_MOVE || w->destp[v] != w->prov[u])
		return NONE;
	return h2h_overland(w, u, v);
}

/* Does support s match the order of unit u? */
static bool
support_matches(struct ws *w, int s, int u)
{
	if (w->destp[s] == PROV_NONE)
		return w->kind[u] != K_MOVE;
	if (w->kind[u] != K_MOVE || w->destp[u] != w->destp[s])
		return false;
	/* A coast named in a support must be the coast moved to (DATC 4.B.4,
	 * 6.B.9); a support without a coast fits either (6.B.7). */
	if (w->m->locs[w->dest[s]].coast != 0 &&
	    w->dest[s] != w->dest[u])
		return false;
	return true;
}

/* support_count of a unit that has a support. */
static int
supports_of(struct ws *w, int u, power_id excl)
{
	int s, n = 0;

	for (s = w->sup_head[u]; s != NONE; s = w->next_sup[s]) {
		if (!support_matches(w, s, u))
			continue;
		if (excl != POWER_NONE && w->b->units[s].power == excl)
			continue;
		if (resolve(w, s))
			n++;
	}
	return n;
}

/* Successful supports of u's order, not counting those of power excl. */
static inline int
support_count(struct ws *w, int u, power_id excl)
{
	return w->sup_head[u] == NONE ? 0 : supports_of(w, u, excl);
}

static inline int
hold_strength(struct ws *w, prov_id p)
{
	int u = w->at[p];

	if (u == NONE)
		return 0;
	if (w->kind[u] == K_MOVE)
		return resolve(w, u) ? 0 : 1;
	return 1 + support_count(w, u, POWER_NONE);
}

static INLINE int
attack_strength(struct ws *w, int u)
{
	int v;

	if (!has_route(w, u))
		return 0;
	v = w->at[w->destp[u]];
	if (v == NONE)
		return 1 + support_count(w, u, POWER_NONE);
	if (w->kind[v] == K_MOVE && h2h(w, u) == NONE && resolve(w, v))
		return 1 + support_count(w, u, POWER_NONE);
	/* A unit cannot dislodge its own power's unit, nor be helped to
	 * dislodge a unit by that unit's power (DATC 6.D.13-6.D.16). */
	if (w->b->units[v].power == w->b->units[u].power)
		return 0;
	return 1 + support_count(w, u, w->b->units[v].power);
}

static int
defend_strength(struct ws *w, int u)
{
	return 1 + support_count(w, u, POWER_NONE);
}

static INLINE int
prevent_strength(struct ws *w, int u)
{
	int v;

	if (!has_route(w, u))
		return 0;
	v = h2h(w, u);
	/* Beaten in a head-to-head battle: no effect where the attacker came
	 * from (DATC 5.B; issue 4.A.7 choice b). */
	if (v != NONE && resolve(w, v))
		return 0;
	return 1 + support_count(w, u, POWER_NONE);
}

static INLINE bool
move_decision(struct ws *w, int u)
{
	int a = attack_strength(w, u), v, x;

	v = h2h(w, u);
	if (v != NONE) {
		if (a <= defend_strength(w, v))
			return false;
	} else if (a <= hold_strength(w, w->destp[u])) {
		return false;
	}
	for (x = w->into[w->destp[u]]; x != NONE; x = w->next_into[x])
		if (x != u && a <= prevent_strength(w, x))
			return false;
	return true;
}

/* SUPPORT decision: true when the support is given (not cut). */
static bool
support_decision(struct ws *w, int s)
{
	power_id pw = w->b->units[s].power;
	int x;

	for (x = w->into[w->prov[s]]; x != NONE; x = w->next_into[x]) {
		if (w->b->units[x].power == pw)
			continue;	/* a power does not cut its own support */
		if (w->destp[s] != PROV_NONE && w->prov[x] == w->destp[s]) {
			/* Attacked from where the support goes: cut only by
			 * dislodgement (rulebook IX.3; convoyed or not, 4.A.4). */
			if (resolve(w, x))
				return false;
			continue;
		}
		if (has_route(w, x))
			return false;
	}
	return true;
}

/* CONVOY decision: true when the fleet is not dislodged. */
static bool
convoy_decision(struct ws *w, int f)
{
	int x;

	for (x = w->into[w->prov[f]]; x != NONE; x = w->next_into[x])
		if (resolve(w, x))
			return false;
	return true;
}

static INLINE bool
adjudicate(struct ws *w, int u)
{
	switch (w->kind[u]) {
	case K_MOVE:
		return move_decision(w, u);
	case K_SUPPORT:
		return support_decision(w, u);
	case K_CONVOY:
		return convoy_decision(w, u);
	default:
		return true;
	}
}

/* adjudicate, out of line: the second guess of a cycle (resolve_open),
 * which few decisions need. */
static OUT_OF_LINE bool
adjudicate_again(struct ws *w, int u)
{
	return adjudicate(w, u);
}

static void
cycle_add(struct ws *w, int u)
{
	assert(w->ncycle < BOARD_MAX_UNITS);
	w->cpos[u] = (int16_t)w->ncycle;
	w->cycle[w->ncycle++] = (int16_t)u;
	w->in_cycle[u] = 1;
}

static void
cycle_truncate(struct ws *w, int len)
{
	while (w->ncycle > len)
		w->in_cycle[w->cycle[--w->ncycle]] = 0;
}

/*
 * The backup rule for the cycle cycle[from..ncycle). With a convoy in the
 * cycle it is a convoy paradox: the convoying fleets in it are set aside
 * (Szykman rule, DATC 4.A.2). Otherwise it is circular movement: every
 * move in the cycle succeeds (rulebook VIII; DATC 6.C).
 */
static void
backup_rule(struct ws *w, int from)
{
	bool convoy = false;
	int i;

	for (i = from; i < w->ncycle; i++)
		if (w->kind[w->cycle[i]] == K_CONVOY)
			convoy = true;
	for (i = from; i < w->ncycle; i++) {
		int u = w->cycle[i];
		if (convoy) {
			if (w->kind[u] == K_CONVOY)
				w->paradox[u] = 1;
		} else if (w->kind[u] == K_MOVE) {
			w->res[u] = 1;
			w->resolved[u] = 1;
		}
	}
}

/*
 * The guess algorithm of DATC 5.F. An order met again deeper in its own
 * recursion answers with its current guess (first "fails") and joins the
 * cycle list; recursion_hits counts such meetings, so that only the
 * ancestor of the whole cycle tries the second guess and, if the guesses
 * disagree, applies the backup rule.
 *
 * One addition: an order may also lean on a cycle member found earlier,
 * by an order further out (Pandin's paradox, DATC 5.D). Such an answer is
 * a guess too, and the frame is then not the ancestor: "lowest" records
 * the earliest cycle position a frame depended on.
 */
static bool
resolve_open(struct ws *w, int u)
{
	int old_len, old_hits, old_low;
	bool first, second, old_gb;

	if (w->resolved[u])
		return w->res[u];
	if (w->in_cycle[u]) {
		w->guess_based = true;
		if (w->cpos[u] < w->lowest)
			w->lowest = w->cpos[u];
		return w->res[u];
	}
	if (w->visited[u]) {
		cycle_add(w, u);
		w->guess_based = true;
		w->recursion_hits++;
		return w->res[u];
	}
	w->visited[u] = 1;
	old_len = w->ncycle;
	old_gb = w->guess_based;
	old_hits = w->recursion_hits;
	old_low = w->lowest;
	w->guess_based = false;
	w->lowest = INT_MAX;
	w->res[u] = 0;
	first = adjudicate(w, u);
	if (!w->guess_based) {
		/* No cyclic dependency: the answer is final. */
		w->guess_based = old_gb;
		w->lowest = old_low;
		w->res[u] = first;
		w->resolved[u] = 1;
		w->visited[u] = 0;
		return first;
	}
	if (w->in_cycle[u])
		w->recursion_hits--;
	if (w->recursion_hits == old_hits && w->lowest >= old_len) {
		/* u is the ancestor of the whole cycle: try the other guess. */
		cycle_truncate(w, old_len);
		w->res[u] = 1;
		w->lowest = INT_MAX;
		second = adjudicate_again(w, u);
		w->recursion_hits = old_hits;
		w->lowest = old_low;
		if (first == second) {
			cycle_truncate(w, old_len);
			w->guess_based = old_gb;
			w->res[u] = first;
			w->resolved[u] = 1;
			w->visited[u] = 0;
			return first;
		}
		/* Two answers or none: circular movement or a paradox. */
		backup_rule(w, old_len);
		cycle_truncate(w, old_len);
		w->guess_based = old_gb;
		w->visited[u] = 0;
		return resolve(w, u);
	}
	/* Part of a cycle whose ancestor is further out: retreat. */
	if (!w->in_cycle[u])
		cycle_add(w, u);
	if (old_low < w->lowest)
		w->lowest = old_low;
	w->res[u] = first;
	w->visited[u] = 0;
	return first;
}

/* ------------------------------------------------------------ movement -- */

static void
ws_init(struct ws *w, const struct map *m, const struct rules *r, const struct board *b)
{
	int u;

	_Static_assert(NONE == -1 && K_HOLD == 0, "ws_init sets its arrays bytewise");
	w->m = m;
	w->r = r;
	w->b = b;
	w->n = b->nunits;
	w->ncycle = 0;
	w->lowest = INT_MAX;
	w->recursion_hits = 0;
	w->guess_based = false;
	/* NONE is all ones, K_HOLD and every flag zero: each array is set
	 * in one stroke, for the map's provinces and the board's units only.
	 * What an order fills (cmode, via, dest, destp, target, paradox) is
	 * written by check_order when the order is legal and read only for a
	 * unit of that kind; a list's links (next_into, next_sup, next_cvy)
	 * only for the units on it; res once the unit's decision is begun:
	 * they are not set here. */
	memset(w->at, 0xff, (size_t)m->nprovs * sizeof w->at[0]);
	memset(w->into, 0xff, (size_t)m->nprovs * sizeof w->into[0]);
	memset(w->kind, K_HOLD, (size_t)w->n);
	memset(w->resolved, 0, (size_t)w->n);
	memset(w->visited, 0, (size_t)w->n);
	memset(w->in_cycle, 0, (size_t)w->n);
	memset(w->ord, 0xff, (size_t)w->n * sizeof w->ord[0]);
	memset(w->sup_head, 0xff, (size_t)w->n * sizeof w->sup_head[0]);
	memset(w->cvy_head, 0xff, (size_t)w->n * sizeof w->cvy_head[0]);
	for (u = 0; u < w->n; u++) {
		w->prov[u] = m->locs[b->units[u].loc].prov;
		if (w->at[w->prov[u]] == NONE)
			w->at[w->prov[u]] = (int16_t)u;
	}
}

/* Find the unit an order addresses: the unit in the order's province. */
static int
addressed_unit(struct ws *w, const struct order *o, enum reason *why)
{
	int u;

	if (o->loc == LOC_NONE) {
		*why = R_NO_UNIT;
		return NONE;
	}
	u = w->at[w->m->locs[o->loc].prov];
	if (u == NONE) {
		*why = R_NO_UNIT;
		return NONE;
	}
	if (o->power != POWER_NONE && o->power != w->b->units[u].power) {
		*why = R_FOREIGN_UNIT;
		return NONE;
	}
	return u;
}

void
adj_check_orders(void *w, const struct order *orders, int n, int16_t *ord,
    struct phase_result *res, int (*addressed)(void *w, const struct order *o, enum reason *why),
    enum reason (*check)(void *w, int u, const struct order *o))
{
	int i, u;

	for (i = 0; i < n; i++) {
		enum reason why = R_OK;

		res->order_unit[i] = NONE;
		u = addressed(w, &orders[i], &why);
		if (u == NONE) {
			res->reason[i] = (uint8_t)why;
			continue;
		}
		res->order_unit[i] = (int16_t)u;
		why = check(w, u, &orders[i]);
		if (why != R_OK) {
			res->reason[i] = (uint8_t)why;
			continue;
		}
		if (ord[u] != NONE)
			res->reason[ord[u]] = R_REPLACED;
		ord[u] = (int16_t)i;
		res->reason[i] = R_NONE;
	}
}

/* The unit a movement order addresses (adj_check_orders), or NONE with
 * why: a revival is settled here, an order of another phase refused. */
static int
movement_unit(void *wp, const struct order *o, enum reason *why)
{
	struct ws *w = wp;

	_Static_assert(ORDER_MOVE == ORDER_HOLD + 1 && ORDER_SUPPORT == ORDER_HOLD + 2 &&
	    ORDER_CONVOY == ORDER_HOLD + 3, "the usual orders are in a row");
	if ((unsigned)(o->kind - ORDER_HOLD) > ORDER_CONVOY - ORDER_HOLD) {
		/* Not one of the usual four. */
		if (o->kind == ORDER_REVIVE) {
			*why = revival_reason(w->m, w->r, w->b, o);
			return NONE;
		}
		if (!movement_kind(w->r, o)) {
			*why = R_WRONG_PHASE;
			return NONE;
		}
	}
	return addressed_unit(w, o, why);
}

static void
check_all(struct ws *w, const struct order *orders, int n, struct phase_result *res)
{
	int u, i;
	uint8_t convoys = 0;	/* a convoy linked or a move via convoy */

	/* adj_check_orders' loop, written out: the engine's own steps called
	 * directly, as the hot path of every phase. */
	for (i = 0; i < n; i++) {
		enum reason why = R_OK;

		res->order_unit[i] = NONE;
		u = movement_unit(w, &orders[i], &why);
		if (u == NONE) {
			res->reason[i] = (uint8_t)why;
			continue;
		}
		res->order_unit[i] = (int16_t)u;
		why = check_order(w, u, &orders[i]);
		if (why != R_OK) {
			res->reason[i] = (uint8_t)why;
			continue;
		}
		if (w->ord[u] != NONE)
			res->reason[w->ord[u]] = R_REPLACED;
		w->ord[u] = (int16_t)i;
		res->reason[i] = R_NONE;
	}
	/* Link moves to their destinations, supports and convoys to their units. */
	for (u = w->n - 1; u >= 0; u--) {
		switch (w->kind[u]) {
		case K_MOVE:
			w->next_into[u] = w->into[w->destp[u]];
			w->into[w->destp[u]] = (int16_t)u;
			convoys |= w->via[u];
			break;
		case K_SUPPORT:
			if (w->target[u] != NONE) {
				w->next_sup[u] = w->sup_head[w->target[u]];
				w->sup_head[w->target[u]] = (int16_t)u;
			}
			break;
		case K_CONVOY:
			if (w->target[u] != NONE) {
				w->next_cvy[u] = w->cvy_head[w->target[u]];
				w->cvy_head[w->target[u]] = (int16_t)u;
				convoys = 1;
			}
			break;
		default:
			break;
		}
	}
	/* With no convoy offered and no move written "via convoy", every
	 * move stays overland under every edition's rule. */
	if (convoys)
		set_convoy_modes(w);
}

/* Does convoy u carry nobody: its army was not ordered to its destination
 * by sea? */
static bool
convoy_void(struct ws *w, int u)
{
	int t = w->target[u];

	return t == NONE || w->kind[t] != K_MOVE || w->destp[t] != w->destp[u] || !uses_convoy(w, t);
}

/* Reason for what unit u did, once everything is resolved. */
static enum reason
unit_outcome(struct ws *w, int u, bool dislodged)
{
	int t;

	switch (w->kind[u]) {
	case K_MOVE:
		if (w->res[u])
			return R_OK;
		if (w->cmode[u] == CM_CONVOY && !convoy_path(w, u))
			return R_NO_CONVOY;
		return R_BOUNCED;
	case K_SUPPORT:
		t = w->target[u];
		if (t == NONE || !support_matches(w, u, t))
			return R_VOID;
		return w->res[u] ? R_OK : R_CUT;
	case K_CONVOY:
		if (w->paradox[u])
			return R_PARADOX;
		if (convoy_void(w, u))
			return dislodged ? R_DISLODGED : R_VOID;
		return w->res[u] ? R_OK : R_DISLODGED;
	default:
		return dislodged ? R_DISLODGED : R_OK;
	}
}

/* Is u a move over land into a province nobody holds and no other unit
 * moves into? It succeeds whatever else is decided (move_decision: an
 * attack of at least 1 against no hold and no other move), so it is
 * settled without a look at the rest; its supports are decided in their
 * turn. */
static INLINE bool
free_move(const struct ws *w, int u)
{
	prov_id p;

	if (w->kind[u] != K_MOVE || w->cmode[u] == CM_CONVOY)
		return false;
	p = w->destp[u];
	return w->at[p] == NONE && w->into[p] == u && w->next_into[u] == NONE;
}

static void explain(struct ws *w, const struct phase_result *res, struct buf *out);
static void account(struct ws *w, const int16_t *dislodger, struct phase_why *why);

static void
resolve_movement(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *orders, int norders, struct phase_result *res, struct buf *trace,
    struct phase_why *why)
{
	struct ws w;
	struct board *a = &res->after;
	uint8_t moved[BOARD_MAX_UNITS];
	int16_t dislodger[BOARD_MAX_UNITS];
	int16_t failed[BOARD_MAX_UNITS];	/* moves that failed */
	uint64_t occupied[MAP_WORDS(MAP_MAX_PROVS)];	/* provinces held after the moves */
	int u, x, nfailed = 0;

	ws_init(&w, m, r, b);
	check_all(&w, orders, norders, res);
	/* Every decision, in the units' order; each is final once answered
	 * from here. */
	for (u = 0; u < w.n; u++) {
		if (free_move(&w, u)) {
			w.res[u] = 1;
			w.resolved[u] = 1;
			moved[u] = 1;
			continue;
		}
		moved[u] = w.kind[u] != K_HOLD && resolve(&w, u) && w.kind[u] == K_MOVE;
	}

	/* The position after: b's header and centres; the units and the
	 * dislodged are written below, as far as they go. */
	a->year = b->year;
	a->season = b->season;
	a->phase = b->phase;
	memcpy(a->owner, b->owner, sizeof a->owner);
	a->nunits = 0;
	a->ndislodged = 0;
	memset(a->contested, 0, sizeof a->contested);
	memset(occupied, 0, sizeof occupied);
	res->nunits = w.n;
	for (u = 0; u < w.n; u++) {
		struct unit un = b->units[u];
		prov_id p = w.prov[u];
		int att = NONE;

		if (moved[u]) {
			un.loc = w.dest[u];
			p = w.destp[u];
		} else {
			/* Dislodged by the move into its province that succeeded. */
			for (x = w.into[p]; x != NONE; x = w.next_into[x])
				if (moved[x])
					att = x;
			if (w.kind[u] == K_MOVE)
				failed[nfailed++] = (int16_t)u;
		}
		dislodger[u] = (int16_t)att;
		res->unit_order[u] = w.ord[u];
		res->unit_dislodged[u] = att != NONE;
		res->unit_reason[u] = (uint8_t)unit_outcome(&w, u, att != NONE);
		if (w.ord[u] != NONE)
			res->reason[w.ord[u]] = res->unit_reason[u];
		if (att != NONE) {
			struct dislodged *d = &a->dislodged[a->ndislodged++];
			d->unit = un;
			d->attacker = w.prov[att];
			/* 2023: retreat allowed to where a convoyed attacker came from (4.A.5). */
			if (r->retreat_to_convoy_origin && uses_convoy(&w, att))
				d->attacker = PROV_NONE;
		} else {
			occupied[p / 64] |= (uint64_t)1 << (p % 64);
			a->units[a->nunits++] = un;
		}
	}
	/* Provinces left empty by a standoff: a move there failed that still
	 * had strength to bounce, i.e. could arrive and did not lose a
	 * head-to-head battle (DATC 6.H.6, 6.H.9). Its unit may since have
	 * been dislodged by another. */
	for (x = 0; x < nfailed; x++) {
		prov_id p;

		u = failed[x];
		if (prevent_strength(&w, u) == 0)
			continue;
		p = w.destp[u];
		if (!((occupied[p / 64] >> (p % 64)) & 1))
			board_set_contested(a, p);
	}
	if (trace)
		explain(&w, res, trace);
	if (why)
		account(&w, dislodger, why);
}

/* ------------------------------------------------------------- account -- */

/*
 * The reasons of struct phase_why, read from the decisions resolve() took:
 * every strength below is the resolver's own, computed from decisions
 * already settled (nothing is decided again). The first condition of
 * move_decision that holds is the one named, as the resolver tests them.
 */

/* A support given to move u by power p, whose unit u would dislodge: it
 * does not count (DATC 6.D.12), or NONE. */
static int
excluded_support(struct ws *w, int u, power_id p)
{
	int s;

	for (s = w->sup_head[u]; s != NONE; s = w->next_sup[s])
		if (w->b->units[s].power == p && support_matches(w, s, u) && w->res[s])
			return s;
	return NONE;
}

/* Was move u stood off by another move into its province at least as
 * strong as u free of what stands there? Then into y, and true. */
static bool
stood_off(struct ws *w, int u, struct unit_why *y)
{
	int x, free = 1 + support_count(w, u, POWER_NONE);

	for (x = w->into[w->destp[u]]; x != NONE; x = w->next_into[x]) {
		if (x != u && free <= prevent_strength(w, x)) {
			y->why = WHY_BOUNCED;
			y->how = HOW_PREVENT;
			y->other = (int16_t)x;
			y->mine = (uint8_t)free;
			y->theirs = (uint8_t)prevent_strength(w, x);
			return true;
		}
	}
	return false;
}

/* Why failed move u failed. */
static void
account_move(struct ws *w, int u, const int16_t *dislodger, struct unit_why *y)
{
	int a, v, x, f;

	if (!has_route(w, u)) {
		y->why = WHY_NO_ROUTE;
		for (f = w->cvy_head[u]; f != NONE; f = w->next_cvy[f]) {
			if (w->kind[f] != K_CONVOY || w->destp[f] != w->destp[u])
				continue;
			if (w->paradox[f]) {
				y->why = WHY_PARADOX;
				y->other = (int16_t)f;
				return;
			}
			if (!w->res[f] && y->why == WHY_NO_ROUTE) {
				y->why = WHY_CONVOY_BROKEN;
				y->other = (int16_t)f;
				y->other2 = dislodger[f];
			}
		}
		return;
	}
	a = attack_strength(w, u);
	y->mine = (uint8_t)a;
	v = h2h(w, u);
	/* The unit there could not leave, and another move into the province
	 * stood this one off even as if it had: that move is the cause (a
	 * standoff stops a chain of moves, DATC 6.C.3, 6.C.7, 6.C.8). */
	x = w->at[w->destp[u]];
	if (v == NONE && x != NONE && w->kind[x] == K_MOVE && stood_off(w, u, y))
		return;
	if (v != NONE) {
		if (a <= defend_strength(w, v)) {
			y->why = a == 0 && w->b->units[v].power == w->b->units[u].power ?
			    WHY_OWN_UNIT : WHY_BOUNCED;
			y->how = HOW_HEAD;
			y->other = (int16_t)v;
			y->theirs = (uint8_t)defend_strength(w, v);
			if (y->why == WHY_BOUNCED)
				y->other2 = (int16_t)excluded_support(w, u, w->b->units[v].power);
			return;
		}
	} else if (a <= hold_strength(w, w->destp[u])) {
		v = w->at[w->destp[u]];
		/* Its own unit there would have stopped it, but a stronger
		 * move into the province stood it off first: that is the
		 * reason a player can see (the own unit may be dislodged). */
		if (a == 0 && v != NONE && w->b->units[v].power == w->b->units[u].power &&
		    stood_off(w, u, y))
			return;
		y->why = a == 0 && v != NONE && w->b->units[v].power == w->b->units[u].power ?
		    WHY_OWN_UNIT : WHY_BOUNCED;
		y->how = HOW_HOLD;
		y->other = (int16_t)v;
		y->theirs = (uint8_t)hold_strength(w, w->destp[u]);
		if (v != NONE && y->why == WHY_BOUNCED)
			y->other2 = (int16_t)excluded_support(w, u, w->b->units[v].power);
		return;
	}
	for (x = w->into[w->destp[u]]; x != NONE; x = w->next_into[x]) {
		if (x != u && a <= prevent_strength(w, x)) {
			y->why = WHY_BOUNCED;
			y->how = HOW_PREVENT;
			y->other = (int16_t)x;
			y->theirs = (uint8_t)prevent_strength(w, x);
			return;
		}
	}
}

/* Why support s was not given (cut) or counted for nothing (void). */
static void
account_support(struct ws *w, int s, struct unit_why *y)
{
	int x, t = w->target[s];

	if (t == NONE || !support_matches(w, s, t)) {
		y->why = WHY_VOID;
		y->other = (int16_t)t;
		return;
	}
	if (w->res[s])
		return;
	y->why = WHY_CUT;
	for (x = w->into[w->prov[s]]; x != NONE; x = w->next_into[x]) {
		if (w->b->units[x].power == w->b->units[s].power)
			continue;
		if (w->destp[s] != PROV_NONE && w->prov[x] == w->destp[s]) {
			if (resolve(w, x)) {
				y->how = 1;
				y->other = (int16_t)x;
				return;
			}
			continue;
		}
		if (has_route(w, x)) {
			y->other = (int16_t)x;
			return;
		}
	}
}

/* What move u, which succeeded, won against, when anything stood in its
 * way: the unit moving the other way, the unit that stayed, or the
 * strongest other move into the province. */
static void
account_won(struct ws *w, int u, struct unit_why *y)
{
	int v = h2h(w, u), x, theirs = 0;

	if (v != NONE) {
		theirs = defend_strength(w, v);
		y->how = HOW_HEAD;
		y->other = (int16_t)v;
	} else if ((theirs = hold_strength(w, w->destp[u])) > 0) {
		y->how = HOW_HOLD;
		y->other = (int16_t)w->at[w->destp[u]];
	}
	for (x = w->into[w->destp[u]]; x != NONE; x = w->next_into[x])
		if (x != u && prevent_strength(w, x) > theirs) {
			theirs = prevent_strength(w, x);
			y->how = HOW_PREVENT;
			y->other = (int16_t)x;
		}
	if (theirs == 0 || y->other == NONE)
		return;
	y->why = WHY_MOVED;
	y->mine = (uint8_t)attack_strength(w, u);
	y->theirs = (uint8_t)theirs;
}

/* Kept out of resolve_movement (noinline, cold): the adjudication alone
 * must not pay for the words of a report. */
__attribute__((noinline, cold)) static void
account(struct ws *w, const int16_t *dislodger, struct phase_why *why)
{
	int u, s;

	why->nunits = w->n;
	for (u = 0; u < w->n; u++) {
		struct unit_why *y = &why->u[u];
		int by = dislodger[u];

		memset(y, 0, sizeof *y);
		y->other = y->other2 = y->by = NONE;
		switch (w->kind[u]) {
		case K_MOVE:
			if (!w->res[u])
				account_move(w, u, dislodger, y);
			else
				account_won(w, u, y);
			break;
		case K_SUPPORT:
			account_support(w, u, y);
			break;
		case K_CONVOY:
			if (w->paradox[u]) {
				y->why = WHY_PARADOX;
			} else if (convoy_void(w, u)) {
				y->why = WHY_VOID;
				y->other = w->target[u];
			}
			break;
		default:
			break;
		}
		if (by == NONE)
			continue;
		y->by = (int16_t)by;
		y->by_attack = (uint8_t)attack_strength(w, by);
		y->by_defence = (uint8_t)(h2h(w, by) == u ? defend_strength(w, u) :
		    hold_strength(w, w->prov[u]));
		for (s = w->sup_head[by]; s != NONE; s = w->next_sup[s]) {
			if (!support_matches(w, s, by) || !w->res[s] ||
			    w->b->units[s].power == w->b->units[u].power)
				continue;
			if (y->nsup < WHY_MAX_SUPPORTS)
				y->sup[y->nsup++] = (int16_t)s;
		}
	}
}

/* ------------------------------------------------------------- explain -- */

static void
put_unit(const struct ws *w, int u, struct buf *out)
{
	unit_format(w->m, &w->b->units[u], out);
}

static void
explain(struct ws *w, const struct phase_result *res, struct buf *out)
{
	const struct map *m = w->m;
	int u;

	for (u = 0; u < w->n; u++) {
		power_id pw = w->b->units[u].power;
		int v;

		buf_printf(out, "%s ", m->powers[pw].name);
		put_unit(w, u, out);
		switch (w->kind[u]) {
		case K_MOVE:
			buf_printf(out, " - %s: ", m->locs[w->dest[u]].name);
			if (w->cmode[u] != CM_LAND)
				buf_printf(out, "%s; ", uses_convoy(w, u) ? "by convoy" : "over land");
			if (!has_route(w, u)) {
				buf_puts(out, "no convoy path, no effect; fails\n");
				break;
			}
			buf_printf(out, "attack %d", attack_strength(w, u));
			v = h2h(w, u);
			if (v != NONE) {
				buf_printf(out, " vs defence %d of ", defend_strength(w, v));
				put_unit(w, v, out);
				buf_puts(out, " (head to head)");
			} else {
				buf_printf(out, " vs hold %d", hold_strength(w, w->destp[u]));
			}
			for (v = w->into[w->destp[u]]; v != NONE; v = w->next_into[v]) {
				if (v == u)
					continue;
				buf_printf(out, ", prevent %d of ", prevent_strength(w, v));
				put_unit(w, v, out);
			}
			buf_printf(out, "; %s\n", w->res[u] ? "succeeds" : "fails");
			break;
		case K_SUPPORT:
			buf_puts(out, " supports: ");
			if (w->target[u] == NONE || !support_matches(w, u, w->target[u]))
				buf_puts(out, "void, the supported unit was not ordered to match\n");
			else
				buf_printf(out, "%s\n", w->res[u] ? "given" : "cut");
			break;
		case K_CONVOY:
			buf_printf(out, " convoys: %s\n", w->paradox[u] ? "ignored (convoy paradox, Szykman rule)" :
			    w->res[u] ? "stays" : "dislodged, convoy broken");
			break;
		default:
			buf_printf(out, " holds: strength %d; %s\n", hold_strength(w, w->prov[u]),
			    res->unit_dislodged[u] ? "dislodged" : "stays");
			break;
		}
	}
}

/* ------------------------------------------------------------- retreats -- */

/* The dislodged unit in province p an order addresses: the first one not
 * yet given an order (a scattered Realpolitik stack has several), else the
 * first; NONE when there is none. */
static int
dislodged_in(const struct map *m, const struct board *b, prov_id p, const int16_t *chosen)
{
	int d, first = NONE;

	for (d = 0; d < b->ndislodged; d++) {
		if (m->locs[b->dislodged[d].unit.loc].prov != p)
			continue;
		if (chosen[d] == NONE)
			return d;
		if (first == NONE)
			first = d;
	}
	return first;
}

/* Why each dislodged unit of retreat phase b was destroyed (resolved
 * into res, to[] where each retreats), into why. */
__attribute__((noinline, cold)) static void
account_retreats(const struct map *m, const struct board *b, const loc_id *to,
    const struct phase_result *res, struct phase_why *why)
{
	int d, k, i;

	why->nunits = b->ndislodged;
	for (d = 0; d < b->ndislodged; d++) {
		struct unit_why *y = &why->u[d];

		memset(y, 0, sizeof *y);
		y->other = y->other2 = y->by = NONE;
		if (res->unit_reason[d] == R_RETREAT_BOUNCED) {
			y->why = WHY_RETREAT_CLASH;
			for (k = 0; k < b->ndislodged; k++) {
				if (k == d || to[k] == LOC_NONE ||
				    m->locs[to[k]].prov != m->locs[to[d]].prov)
					continue;
				if (y->other == NONE)
					y->other = (int16_t)k;
				else if (y->other2 == NONE)
					y->other2 = (int16_t)k;
			}
		} else if (res->unit_order[d] < 0) {
			y->why = WHY_NO_RETREAT;
			for (i = 0; i < res->norders; i++)
				if (res->order_unit[i] == d)
					y->how = 1;
		}
	}
}

static void
resolve_retreats(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *orders, int norders, struct phase_result *res, struct phase_why *said)
{
	int16_t chosen[BOARD_MAX_UNITS];
	loc_id to[BOARD_MAX_UNITS];
	struct board *a = &res->after;
	int i, d, k;

	(void)r;
	for (d = 0; d < b->ndislodged; d++) {
		chosen[d] = NONE;
		to[d] = LOC_NONE;
	}
	for (i = 0; i < norders; i++) {
		const struct order *o = &orders[i];
		const struct dislodged *dl = NULL;
		enum reason why = R_OK;
		loc_id dest = LOC_NONE;
		prov_id p;

		res->order_unit[i] = NONE;
		if (o->kind != ORDER_MOVE && o->kind != ORDER_RETREAT && o->kind != ORDER_DISBAND) {
			res->reason[i] = R_WRONG_PHASE;
			continue;
		}
		if (o->loc == LOC_NONE) {
			res->reason[i] = R_NO_UNIT;
			continue;
		}
		p = m->locs[o->loc].prov;
		d = dislodged_in(m, b, p, chosen);
		if (d == NONE) {
			res->reason[i] = board_unit_in(b, m, p) >= 0 ? R_NOT_DISLODGED : R_NO_UNIT;
			continue;
		}
		dl = &b->dislodged[d];
		if (o->power != POWER_NONE && o->power != dl->unit.power) {
			res->reason[i] = R_FOREIGN_UNIT;
			continue;
		}
		res->order_unit[i] = (int16_t)d;
		if (o->kind != ORDER_DISBAND) {
			if (o->dest == LOC_NONE) {
				why = R_NOT_ADJACENT;
			} else if (dl->unit.type == UNIT_ARMY) {
				dest = m->provs[m->locs[o->dest].prov].loc;
				if (!map_adjacent(m, UNIT_ARMY, dl->unit.loc, dest))
					why = R_NOT_ADJACENT;
			} else {
				why = fleet_dest(m, dl->unit.loc, o->dest, &dest);
			}
			if (why == R_OK) {
				prov_id dp = m->locs[dest].prov;
				if (board_unit_in(b, m, dp) >= 0)
					why = R_RETREAT_OCCUPIED;
				else if (dp == dl->attacker)
					why = R_RETREAT_ATTACKER;
				else if (board_contested(b, dp))
					why = R_RETREAT_CONTESTED;
			}
		}
		if (why != R_OK) {
			res->reason[i] = (uint8_t)why;
			continue;
		}
		if (chosen[d] != NONE)
			res->reason[chosen[d]] = R_REPLACED;
		chosen[d] = (int16_t)i;
		to[d] = o->kind == ORDER_DISBAND ? LOC_NONE : dest;
		res->reason[i] = R_OK;
	}

	board_copy(a, b);
	a->ndislodged = 0;
	memset(a->contested, 0, sizeof a->contested);
	res->nunits = b->ndislodged;
	for (d = 0; d < b->ndislodged; d++) {
		bool clash = false;

		res->unit_order[d] = chosen[d];
		res->unit_dislodged[d] = 1;
		if (to[d] == LOC_NONE) {
			res->unit_reason[d] = R_DISBANDED;
			continue;
		}
		for (k = 0; k < b->ndislodged; k++)
			if (k != d && to[k] != LOC_NONE && m->locs[to[k]].prov == m->locs[to[d]].prov)
				clash = true;
		if (clash) {
			res->unit_reason[d] = R_RETREAT_BOUNCED;
			res->reason[chosen[d]] = R_RETREAT_BOUNCED;
			continue;
		}
		res->unit_reason[d] = R_OK;
		board_add_unit(a, (enum unit_type)b->dislodged[d].unit.type, b->dislodged[d].unit.power,
		    to[d]);
	}
	if (said != NULL)	/* the reasons, for the results' words */
		account_retreats(m, b, to, res, said);
}

/* ---------------------------------------------------------- adjustments -- */

int
adj_builds_due(const struct map *m, const struct board *b, power_id p)
{
	return board_count_centres(b, m, p) - board_count_units(b, p);
}

/* adj_builds_due of every power into due[power_id] (room for 256), in one
 * look at the centres and one at the units. */
static void
builds_due(const struct map *m, const struct board *b, int *due)
{
	int i;

	memset(due, 0, 256 * sizeof *due);
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply)
			due[b->owner[i]]++;
	for (i = 0; i < b->nunits; i++)
		due[b->units[i].power]--;
}

/* Mark in occ (MAP_WORDS(MAP_MAX_PROVS) words) the provinces that hold a
 * unit of b. */
static void
occupied_provs(const struct map *m, const struct board *b, uint64_t *occ)
{
	int i;

	memset(occ, 0, MAP_WORDS(MAP_MAX_PROVS) * sizeof *occ);
	for (i = 0; i < b->nunits; i++) {
		prov_id p = m->locs[b->units[i].loc].prov;
		occ[p / 64] |= (uint64_t)1 << (p % 64);
	}
}

static inline bool
occupied(const uint64_t *occ, prov_id p)
{
	return (occ[p / 64] >> (p % 64)) & 1u;
}

/* May power p build in province pr of b (its provinces with a unit
 * marked in occ)? */
static bool
can_build_in(const struct map *m, const struct rules *r, const struct board *b,
    const uint64_t *occ, power_id p, prov_id pr)
{
	const struct province *pv = &m->provs[pr];

	if (!pv->supply || b->owner[pr] != p)
		return false;
	if (!r->build_anywhere && pv->home != p)
		return false;
	return !occupied(occ, pr);
}

int
adj_build_sites(const struct map *m, const struct rules *r, const struct board *b, power_id p)
{
	uint64_t occ[MAP_WORDS(MAP_MAX_PROVS)];
	int i, n = 0;

	if (r->resolver != NULL && r->resolver->build_sites != NULL)
		return r->resolver->build_sites(m, b, NULL, p);
	occupied_provs(m, b, occ);
	for (i = 0; i < m->nprovs; i++)
		n += can_build_in(m, r, b, occ, p, (prov_id)i);
	return n;
}

/* Distances (in steps over any adjacency) from the nearest province
 * marked in goal; -1 where unreachable. */
static void
distances(const struct map *m, const uint8_t *goal, int *dist)
{
	prov_id queue[MAP_MAX_PROVS];
	int head = 0, tail = 0, p, l, i, t;

	for (p = 0; p < m->nprovs; p++) {
		dist[p] = goal[p] ? 0 : -1;
		if (goal[p])
			queue[tail++] = (prov_id)p;
	}
	while (head < tail) {
		prov_id q = queue[head++];
		const struct province *pv = &m->provs[q];
		/* The province's locations: its main one, then its coasts. */
		for (l = -1; l < pv->ncoasts; l++) {
			const struct location *lc = &m->locs[l < 0 ? pv->loc : pv->coast[l]];
			for (t = 1; t <= 2; t++) {
				for (i = 0; i < lc->nadj[t]; i++) {
					prov_id z = m->locs[lc->adj[t][i]].prov;
					if (dist[z] < 0) {
						dist[z] = dist[q] + 1;
						queue[tail++] = z;
					}
				}
			}
		}
	}
}

struct cd_unit {
	int idx;
	int on_centre;
	int dist;
	const char *name;
	uint8_t type;
};

static int
cmp_cd(const void *a, const void *b)
{
	const struct cd_unit *x = a, *y = b;

	/* Units on a centre last (2023), farthest first, fleets first, then
	 * alphabetical by province name. */
	if (x->on_centre != y->on_centre)
		return x->on_centre - y->on_centre;
	if (x->dist != y->dist)
		return y->dist - x->dist;
	if (x->type != y->type)
		return x->type == UNIT_FLEET ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Remove n units of power p under the civil-disorder rule of the edition. */
static void
civil_disorder(const struct map *m, const struct rules *r, struct board *a, power_id p, int n,
    struct phase_result *res)
{
	uint8_t goal[MAP_MAX_PROVS];
	int dist[MAP_MAX_PROVS];
	struct cd_unit c[BOARD_MAX_UNITS];
	int i, nc = 0, pr;

	/* Distance counts every adjacency, whatever the unit could cross:
	 * 2023 to owned centres, older editions to home centres. */
	for (pr = 0; pr < m->nprovs; pr++) {
		if (r->civil_disorder == CD_2023)
			goal[pr] = m->provs[pr].supply && a->owner[pr] == p;
		else
			goal[pr] = m->provs[pr].supply && m->provs[pr].home == p;
	}
	distances(m, goal, dist);
	for (i = 0; i < a->nunits; i++) {
		const struct unit *u = &a->units[i];
		prov_id up = m->locs[u->loc].prov;
		int d;

		if (u->power != p)
			continue;
		d = dist[up];
		c[nc].idx = i;
		c[nc].on_centre = r->civil_disorder == CD_2023 && m->provs[up].supply;
		c[nc].dist = d < 0 ? 9999 : d;
		c[nc].name = m->provs[up].name;
		c[nc].type = u->type;
		nc++;
	}
	qsort(c, (size_t)nc, sizeof c[0], cmp_cd);
	if (n > nc)
		n = nc;
	/* Remove the chosen units, highest index first so indices stay valid. */
	{
		int idx[BOARD_MAX_UNITS], k, j;

		for (k = 0; k < n; k++)
			idx[k] = c[k].idx;
		for (k = 0; k < n; k++)
			for (j = k + 1; j < n; j++)
				if (idx[j] > idx[k]) {
					int t = idx[j];
					idx[j] = idx[k];
					idx[k] = t;
				}
		for (k = 0; k < n; k++) {
			res->removed[res->nremoved++] = a->units[idx[k]];
			board_remove_unit(a, idx[k]);
		}
	}
}

/* May the unit of build order o be raised: where a power raises units
 * (by the system's resolver on b when it says where, seat its capitals
 * now or NULL for the map's; else its home centres, or any centre with
 * build_anywhere), the province its own and empty on a, not built in
 * already (built[])? R_OK or why not. */
static enum reason
build_place(const struct map *m, const struct rules *r, const struct board *b,
    const struct board *a, const power_id *seat, const uint8_t *built, const struct order *o)
{
	prov_id pr = m->locs[o->loc].prov;
	power_id pw = o->power;

	if (pw == POWER_NONE)
		return R_NOT_HOME;
	if (r->resolver != NULL && r->resolver->can_build != NULL)
		return o->type != UNIT_ARMY && o->type != UNIT_FLEET ? R_BAD_TERRAIN :
		    r->resolver->can_build(m, b, seat, pw, (enum unit_type)o->type, pr);
	if (!m->provs[pr].supply || (!r->build_anywhere && m->provs[pr].home != pw))
		return R_NOT_HOME;
	if (a->owner[pr] != pw)
		return R_NOT_OWNED;
	if (board_unit_in(a, m, pr) >= 0 || built[pr])
		return R_OCCUPIED;
	return R_OK;
}

/* Why the unit of build order o cannot stand where it is raised (R_OK
 * when it can); that location into *at. */
static enum reason
build_terrain(const struct map *m, const struct order *o, loc_id *at)
{
	prov_id pr = m->locs[o->loc].prov;
	loc_id l = o->loc;

	if (o->type == UNIT_FLEET) {
		/* A fleet in a province with two coasts needs its coast
		 * (DATC 4.B.7); never inland (4.C.4). */
		if (m->locs[l].coast == 0)
			l = map_default_loc(m, pr, UNIT_FLEET);
		if (l == LOC_NONE)
			return m->provs[pr].ncoasts > 1 ? R_NEED_COAST : R_BAD_TERRAIN;
		if (!m->locs[l].fleet_ok)
			return R_BAD_TERRAIN;
	} else if (o->type == UNIT_ARMY) {
		l = m->provs[pr].loc;
		if (!m->locs[l].army_ok)
			return R_BAD_TERRAIN;
	} else {
		return R_BAD_TERRAIN;
	}
	*at = l;
	return R_OK;
}

/* Removal order o on a, with due[] the adjustments left: R_OK when a
 * unit was removed, or why not. */
static enum reason
remove_unit(const struct map *m, struct board *a, const struct order *o, int *due)
{
	int u = board_unit_in(a, m, m->locs[o->loc].prov);

	if (u < 0)
		return R_NO_UNIT;
	if (o->power != POWER_NONE && a->units[u].power != o->power)
		return R_FOREIGN_UNIT;
	if (due[a->units[u].power] >= 0)
		return R_NO_REMOVALS;
	due[a->units[u].power]++;
	board_remove_unit(a, u);
	return R_OK;
}

/* One adjustment order o on res->after, with due[] the adjustments left
 * and built[] the provinces built in. */
static enum reason
adjust_one(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *o, int *due, uint8_t *built,
    struct phase_result *res)
{
	power_id pw = o->power;
	enum reason why;
	loc_id l = LOC_NONE;

	if (o->kind == ORDER_WAIVE) {
		if (pw == POWER_NONE || due[pw] <= 0)
			return R_NO_BUILDS;
		due[pw]--;
		return R_OK;
	}
	if (o->kind != ORDER_BUILD && o->kind != ORDER_REMOVE && o->kind != ORDER_DISBAND)
		return R_WRONG_PHASE;
	if (o->loc == LOC_NONE)
		return R_NO_UNIT;
	if (o->kind != ORDER_BUILD)
		return remove_unit(m, &res->after, o, due);
	why = build_place(m, r, b, &res->after, seat, built, o);
	if (why == R_OK)
		why = build_terrain(m, o, &l);
	if (why == R_OK && due[pw] <= 0)
		why = R_NO_BUILDS;
	if (why != R_OK)
		return why;
	due[pw]--;
	built[m->locs[o->loc].prov] = 1;
	board_add_unit(&res->after, (enum unit_type)o->type, pw, l);
	return R_OK;
}

static void
resolve_adjustments(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res)
{
	int due[256];
	uint8_t built[MAP_MAX_PROVS];
	int i, p;

	board_copy(&res->after, b);
	res->nunits = 0;
	res->nremoved = 0;
	memset(built, 0, sizeof built);
	builds_due(m, b, due);
	for (i = 0; i < norders; i++) {
		res->order_unit[i] = NONE;
		res->reason[i] = (uint8_t)adjust_one(m, r, b, seat, &orders[i], due, built, res);
	}
	for (p = 0; p < m->npowers; p++)
		if (due[p] < 0)
			civil_disorder(m, r, &res->after, (power_id)p, -due[p], res);
}

/* --------------------------------------------------------------- phases -- */

enum reason
adj_check(const struct map *m, const struct rules *r, const struct board *b, const struct order *o)
{
	struct phase_result *res;
	enum reason why;

	if (b->phase == PHASE_MOVEMENT) {
		struct ws w;
		int u;

		if (o->kind == ORDER_REVIVE)
			return revival_reason(m, r, b, o);
		if (!movement_kind(r, o))
			return R_WRONG_PHASE;
		ws_init(&w, m, r, b);
		u = addressed_unit(&w, o, &why);
		if (u == NONE)
			return why;
		return check_order(&w, u, o);
	}
	/* Retreats and adjustments: resolve this order alone. */
	res = malloc(sizeof *res);
	if (res == NULL)
		abort();
	adj_resolve(m, r, b, o, 1, res, NULL);
	why = (enum reason)res->reason[0];
	free(res);
	/* Alone it cannot bounce with another retreat, nor run out of builds
	 * that other orders used. */
	return why == R_RETREAT_BOUNCED ? R_OK : why;
}

/* The phase b resolved (adj_resolve_at); inlined into both entries, the
 * standard game's path being the hot one. */
static inline void
resolve_phase(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct buf *trace, struct phase_why *why)
{
	if (norders > ADJ_MAX_ORDERS)
		norders = ADJ_MAX_ORDERS;
	res->norders = norders;
	res->nunits = 0;
	res->nremoved = 0;
	switch (b->phase) {
	case PHASE_MOVEMENT:
		if (r->resolver != NULL && r->resolver->movement != NULL)
			r->resolver->movement(m, r, b, seat, orders, norders, res, trace, why);
		else
			resolve_movement(m, r, b, orders, norders, res, trace, why);
		break;
	case PHASE_RETREAT:
		resolve_retreats(m, r, b, orders, norders, res, why);
		break;
	default:
		resolve_adjustments(m, r, b, seat, orders, norders, res);
		break;
	}
}

void
adj_resolve(const struct map *m, const struct rules *r, const struct board *b,
    const struct order *orders, int norders, struct phase_result *res, struct buf *trace)
{
	resolve_phase(m, r, b, NULL, orders, norders, res, trace, NULL);
}

void
adj_resolve_at(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct buf *trace)
{
	resolve_phase(m, r, b, seat, orders, norders, res, trace, NULL);
}

/* Does reason y fit unit result r (enum reason)? */
static bool
why_fits(enum reason r, const struct unit_why *y, int n)
{
	if (y->other >= n || y->other2 >= n || y->by >= n)
		return false;
	switch (r) {
	case R_OK:
		return y->why == WHY_NONE || (y->why == WHY_MOVED && y->mine > y->theirs);
	case R_BOUNCED:
		if (y->why == WHY_BOUNCED)
			return y->mine <= y->theirs;
		return y->why == WHY_OWN_UNIT || y->why == WHY_STACK ||
		    (y->why >= WHY_FLEET_STAYED && y->why <= WHY_FLEET_LOST);
	case R_CUT:
		return y->why == WHY_CUT && y->other >= 0;
	case R_VOID:
		return y->why == WHY_VOID || y->why == WHY_FLEET_STILL;
	case R_NO_CONVOY:
		return y->why == WHY_NO_ROUTE || y->why == WHY_CONVOY_BROKEN || y->why == WHY_PARADOX;
	case R_PARADOX:
		return y->why == WHY_PARADOX;
	case R_DISLODGED:
		return y->by >= 0 || y->why == WHY_FLEET_LOST;
	default:
		return false;
	}
}

/* Does reason y fit dislodged unit d of a retreat phase resolved into
 * res: destroyed by a clash with another unit so destroyed, or without
 * a retreat carried out? */
static bool
retreat_why_fits(const struct phase_result *res, const struct unit_why *y, int d)
{
	int n = res->nunits;

	if (y->other >= n || y->other2 >= n || y->by != NONE)
		return false;
	switch (res->unit_reason[d]) {
	case R_RETREAT_BOUNCED:
		return y->why == WHY_RETREAT_CLASH && y->other >= 0 && y->other != d &&
		    res->unit_reason[y->other] == R_RETREAT_BOUNCED;
	case R_DISBANDED:
		return res->unit_order[d] < 0 ? y->why == WHY_NO_RETREAT : y->why == WHY_NONE;
	default:
		return y->why == WHY_NONE;
	}
}

int
adj_why_check(const struct phase_result *res, const struct phase_why *why)
{
	int u;

	if (why->nunits != res->nunits)
		return 0;
	if (why->phase == PHASE_RETREAT) {
		for (u = 0; u < why->nunits; u++)
			if (!retreat_why_fits(res, &why->u[u], u))
				return u;
		return -1;
	}
	for (u = 0; u < why->nunits; u++) {
		const struct unit_why *y = &why->u[u];
		if (!why_fits((enum reason)res->unit_reason[u], y, why->nunits))
			return u;
		if (res->unit_dislodged[u] ?
			(y->by < 0 && y->why != WHY_FLEET_LOST) ||
			    (y->by >= 0 && y->by_attack <= y->by_defence) :
			y->by >= 0)
			return u;
	}
	return -1;
}

void
adj_resolve_why(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct phase_why *why)
{
	why->nunits = 0;
	why->phase = b->phase;
	why->successes = false;
	resolve_phase(m, r, b, seat, orders, norders, res, NULL, why);
}

static bool
adjustments_needed(const struct map *m, const struct rules *r, const struct board *b)
{
	int due[256];
	int p;

	builds_due(m, b, due);
	for (p = 0; p < m->npowers; p++)
		if (due[p] < 0 || (due[p] > 0 && adj_build_sites(m, r, b, (power_id)p) > 0))
			return true;
	return false;
}

/* adj_retreat_options, the provinces of b with a unit marked in occ. */
static int
retreat_options(const struct map *m, const struct board *b, const uint64_t *occ,
    const struct dislodged *d, loc_id *out)
{
	const struct location *l = &m->locs[d->unit.loc];
	int i, n = 0;

	for (i = 0; i < l->nadj[d->unit.type]; i++) {
		loc_id to = l->adj[d->unit.type][i];
		prov_id p = m->locs[to].prov;
		if (occupied(occ, p) || p == d->attacker || board_contested(b, p))
			continue;
		if (out)
			out[n] = to;
		n++;
	}
	return n;
}

int
adj_retreat_options(const struct map *m, const struct board *b, const struct dislodged *d,
    loc_id *out)
{
	uint64_t occ[MAP_WORDS(MAP_MAX_PROVS)];

	occupied_provs(m, b, occ);
	return retreat_options(m, b, occ, d, out);
}

int
adj_disband_stranded(const struct map *m, struct board *b)
{
	uint64_t occ[MAP_WORDS(MAP_MAX_PROVS)];
	int i, k;

	if (b->ndislodged == 0)
		return 0;
	occupied_provs(m, b, occ);
	for (i = k = 0; i < b->ndislodged; i++)
		if (retreat_options(m, b, occ, &b->dislodged[i], NULL) > 0)
			b->dislodged[k++] = b->dislodged[i];
	b->ndislodged = (uint16_t)k;
	return k;
}

int
phase_next(const struct map *m, const struct rules *r, struct board *b)
{
	int skipped = 0;

	if (b->phase == PHASE_MOVEMENT) {
		/* A dislodged unit with nowhere to go is disbanded at once. */
		if (adj_disband_stranded(m, b) > 0) {
			b->phase = PHASE_RETREAT;
			return 0;
		}
	}
	if (b->phase == PHASE_MOVEMENT)
		skipped++;	/* no retreat phase */
	memset(b->contested, 0, sizeof b->contested);
	b->ndislodged = 0;
	if (b->phase != PHASE_ADJUSTMENT) {
		if (b->season == SEASON_SPRING) {
			b->season = SEASON_FALL;
			b->phase = PHASE_MOVEMENT;
			return skipped;
		}
		board_take_centres(b, m);
		b->season = SEASON_WINTER;
		b->phase = PHASE_ADJUSTMENT;
		if (adjustments_needed(m, r, b))
			return skipped;
		skipped++;
	}
	b->year++;
	b->season = SEASON_SPRING;
	b->phase = PHASE_MOVEMENT;
	return skipped;
}

power_id
board_winner(const struct map *m, const struct board *b)
{
	int p;

	if (m->victory_centres <= 0)
		return POWER_NONE;
	for (p = 0; p < m->npowers; p++)
		if (board_count_centres(b, m, (power_id)p) >= m->victory_centres)
			return (power_id)p;
	return POWER_NONE;
}
