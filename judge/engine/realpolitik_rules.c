/*
 * realpolitik_rules.c — Realpolitik movement: stacks, embarking, landing
 * (realpolitik_rules.h; the rules: judge/systems/REALPOLITIK.md).
 *
 * Three steps, as the standard adjudicator: orders are matched to units
 * and checked; the decisions are taken; the position after the phase is
 * written. Decisions are three-valued (undecided, yes, no). A strength is
 * an interval [lo, hi]: lo counts only what is decided in its favour, hi
 * everything still possible; a move is decided when its attack's lo beats
 * every opposing hi, or its hi cannot beat some opposing lo.
 */
#include "realpolitik_rules.h"

#include <string.h>

#define NONE (-1)
#define INF 10000	/* the strength of a province a unit may not enter at all */

enum { UNDEC = 0, YES, NO };

enum rk {
	RK_HOLD = 0,	/* holds (also: no order) */
	RK_MOVE,
	RK_SUPPORT,
	RK_BOARD_IN,	/* army moves into its fleet's province and boards it */
	RK_BOARD_WAIT,	/* army waits for its fleet, which moves in */
	RK_BOARD_HERE,	/* army boards the fleet in its own province */
	RK_CARGO,	/* army on board, staying on board */
	RK_LAND,	/* army on board, landing where its fleet lies */
};

struct rp {
	const struct map *m;
	const struct board *b;
	const power_id *seat;			/* the capitals now, or NULL: the map's */
	int n;
	uint8_t kind[BOARD_MAX_UNITS];
	uint8_t st[BOARD_MAX_UNITS];		/* move or support decision */
	int16_t ord[BOARD_MAX_UNITS];
	int16_t ride[BOARD_MAX_UNITS];		/* army: its fleet; fleet: the army on board */
	int16_t next[BOARD_MAX_UNITS];		/* next unit in the same province */
	loc_id dest[BOARD_MAX_UNITS];
	prov_id destp[BOARD_MAX_UNITS];		/* move: where to; support: PROV_NONE = hold */
	prov_id tprov[BOARD_MAX_UNITS];		/* support: the supported province */
	uint8_t ttype[BOARD_MAX_UNITS];		/* support: the supported unit's type, or UNIT_NONE */
	prov_id prov[BOARD_MAX_UNITS];
	int16_t first[MAP_MAX_PROVS];
};

struct iv {
	int lo, hi;
};

static enum unit_type
utype(const struct rp *w, int u)
{
	return (enum unit_type)(w->b->units[u].type & ~UNIT_ABOARD);
}

static bool
aboard(const struct rp *w, int u)
{
	return (w->b->units[u].type & UNIT_ABOARD) != 0;
}

static power_id
pw(const struct rp *w, int u)
{
	return w->b->units[u].power;
}

/* Does u stay and defend its province (a unit landing counts: its fleet
 * stays if it does not get away)? */
static bool
stayer(const struct rp *w, int u)
{
	switch (w->kind[u]) {
	case RK_HOLD:
	case RK_SUPPORT:
	case RK_BOARD_WAIT:
	case RK_BOARD_HERE:
	case RK_LAND:
		return true;
	default:
		return false;
	}
}

static bool
mover(const struct rp *w, int u)
{
	return w->kind[u] == RK_MOVE || w->kind[u] == RK_BOARD_IN;
}

static struct iv
iv_max(struct iv a, struct iv b)
{
	struct iv r = { a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi };
	return r;
}

/* ------------------------------------------------------------- set up -- */

/* Pair the armies on board with the fleets of their power in the same
 * province: the k-th army on board rides the k-th fleet (board order). */
static void
pair_cargo(struct rp *w)
{
	int u, f;

	for (u = 0; u < w->n; u++) {
		if (!aboard(w, u))
			continue;
		w->kind[u] = RK_CARGO;
		for (f = w->first[w->prov[u]]; f != NONE; f = w->next[f]) {
			if (utype(w, f) == UNIT_FLEET && pw(w, f) == pw(w, u) && w->ride[f] == NONE) {
				w->ride[f] = (int16_t)u;
				w->ride[u] = (int16_t)f;
				break;
			}
		}
	}
}

static void
rp_init(struct rp *w, const struct map *m, const struct board *b, const power_id *seat)
{
	int u, last[MAP_MAX_PROVS];

	memset(w, 0, sizeof *w);
	w->m = m;
	w->b = b;
	w->seat = seat;
	w->n = b->nunits;
	for (u = 0; u < m->nprovs; u++) {
		w->first[u] = NONE;
		last[u] = NONE;
	}
	for (u = 0; u < w->n; u++) {
		prov_id p = m->locs[b->units[u].loc].prov;

		w->prov[u] = p;
		w->ord[u] = w->ride[u] = w->next[u] = NONE;
		w->dest[u] = LOC_NONE;
		w->destp[u] = w->tprov[u] = PROV_NONE;
		if (last[p] == NONE)
			w->first[p] = (int16_t)u;
		else
			w->next[last[p]] = (int16_t)u;
		last[p] = u;
	}
	pair_cargo(w);
}

/* The unit order o addresses: in its province, of the type written (an
 * army on board only for a landing, or when no other army is there), on
 * the coast it names when a unit stands there (fleets on both coasts of a
 * base), the first not yet ordered, else the last; NONE with the reason in
 * *why. */
static int
addressed(const struct rp *w, const struct order *o, enum reason *why)
{
	int u, pass, last = NONE;
	bool coast;

	*why = R_NO_UNIT;
	if (o->loc == LOC_NONE)
		return NONE;
	coast = w->m->locs[o->loc].coast != 0;
	/* Passes 0 and 1 on the coast named (when it names one), 2 and 3
	 * anywhere in the province. */
	for (pass = coast ? 0 : 2; pass < 4 && last == NONE; pass++) {
		for (u = w->first[w->m->locs[o->loc].prov]; u != NONE; u = w->next[u]) {
			bool want_aboard = (o->kind == ORDER_LAND) != (pass % 2 == 1);
			if (aboard(w, u) != want_aboard || (pass < 2 && w->b->units[u].loc != o->loc))
				continue;
			if (o->type != UNIT_NONE && o->type != utype(w, u))
				continue;
			if (o->power != POWER_NONE && o->power != pw(w, u)) {
				*why = R_FOREIGN_UNIT;
				continue;
			}
			if (w->ord[u] == NONE)
				return u;
			last = u;
		}
	}
	return last;
}

/* A fleet of u's power in province p with no army on board and none
 * boarding it (the first such); NONE when there is none. */
static int
free_fleet(const struct rp *w, int u, prov_id p)
{
	int f, a;

	for (f = w->first[p]; f != NONE; f = w->next[f]) {
		if (utype(w, f) != UNIT_FLEET || pw(w, f) != pw(w, u) || w->ride[f] != NONE)
			continue;
		for (a = 0; a < w->n; a++)
			if (a != u && w->ride[a] == f)
				break;
		if (a == w->n)
			return f;
	}
	return NONE;
}

static enum reason
check_move(struct rp *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	loc_id from = w->b->units[u].loc, d;
	enum reason rc;

	if (o->dest == LOC_NONE)
		return R_NOT_ADJACENT;
	if (m->locs[o->dest].prov == w->prov[u])
		return R_SAME_PROVINCE;
	if (utype(w, u) == UNIT_ARMY) {
		d = m->provs[m->locs[o->dest].prov].loc;
		if (!m->locs[d].army_ok || !map_adjacent(m, UNIT_ARMY, from, d))
			return R_NOT_ADJACENT;	/* no convoys: over land only */
	} else {
		rc = adj_fleet_dest(m, from, o->dest, &d);
		if (rc != R_OK)
			return rc;
	}
	w->kind[u] = RK_MOVE;
	w->dest[u] = d;
	w->destp[u] = m->locs[d].prov;
	return R_OK;
}

static enum reason
check_support(struct rp *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	enum unit_type t = utype(w, u);
	prov_id tp;

	if (o->target == LOC_NONE)
		return R_NO_UNIT;
	tp = m->locs[o->target].prov;
	if (tp == w->prov[u])
		return R_SAME_PROVINCE;	/* units sharing a province do not support one another */
	if (o->dest == LOC_NONE) {
		if (!map_reaches(m, t, w->b->units[u].loc, tp))
			return R_CANNOT_SUPPORT;
		w->destp[u] = PROV_NONE;
	} else {
		if (m->locs[o->dest].prov == w->prov[u])
			return R_SAME_PROVINCE;
		if (!map_reaches(m, t, w->b->units[u].loc, m->locs[o->dest].prov))
			return R_CANNOT_SUPPORT;
		w->destp[u] = m->locs[o->dest].prov;
	}
	w->kind[u] = RK_SUPPORT;
	w->dest[u] = o->dest;
	w->tprov[u] = tp;
	w->ttype[u] = o->target_type;
	return R_OK;
}

/* Is province p a capital (where the capitals stand now) or a naval base,
 * of any power? An army and a fleet do not come together there by a move. */
static bool
headquarters(const struct rp *w, prov_id p)
{
	power_id cap = w->seat != NULL ? w->seat[p] : w->m->provs[p].capital;

	return cap != POWER_NONE || w->m->provs[p].naval_base != POWER_NONE;
}

/* "A Hol - Bel on board F Bel", "A Bel embarks F Nth", "A Lon embarks";
 * not by a move into a capital or naval base (R_HEADQUARTERS). */
static enum reason
check_embark(struct rp *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	prov_id here = w->prov[u], p, fp;
	int f;

	if (utype(w, u) != UNIT_ARMY)
		return R_NO_FLEET;
	p = o->dest == LOC_NONE ? here : m->locs[o->dest].prov;
	fp = o->target == LOC_NONE ? p : m->locs[o->target].prov;
	if (p != here) {
		if (fp != p)
			return R_NO_FLEET;	/* moving in, it boards the fleet there */
		if (!map_adjacent(m, UNIT_ARMY, w->b->units[u].loc, m->provs[p].loc))
			return R_NOT_ADJACENT;
		if (headquarters(w, p))
			return R_HEADQUARTERS;
		w->kind[u] = RK_BOARD_IN;
		w->dest[u] = m->provs[p].loc;
		w->destp[u] = p;
	} else {
		if (fp != here && headquarters(w, here))
			return R_HEADQUARTERS;
		w->kind[u] = fp == here ? RK_BOARD_HERE : RK_BOARD_WAIT;
	}
	f = free_fleet(w, u, fp);
	if (f == NONE) {
		w->kind[u] = RK_HOLD;
		w->dest[u] = LOC_NONE;
		w->destp[u] = PROV_NONE;
		return R_NO_FLEET;
	}
	w->ride[u] = (int16_t)f;
	return R_OK;
}

static enum reason
check_land(struct rp *w, int u, const struct order *o)
{
	const struct map *m = w->m;
	prov_id p = w->prov[u];

	if (!aboard(w, u) || w->ride[u] == NONE)
		return R_NOT_ABOARD;
	if (o->dest != LOC_NONE && m->locs[o->dest].prov != p)
		return R_NOT_ADJACENT;	/* the landing place is where the fleet lies */
	if (m->provs[p].terrain != TERRAIN_COAST)
		return R_BAD_TERRAIN;
	w->kind[u] = RK_LAND;
	return R_OK;
}

static enum reason
check_order(struct rp *w, int u, const struct order *o)
{
	if (aboard(w, u) && o->kind != ORDER_LAND && o->kind != ORDER_HOLD)
		return R_ABOARD;
	switch (o->kind) {
	case ORDER_HOLD:
		w->kind[u] = aboard(w, u) ? RK_CARGO : RK_HOLD;
		return R_OK;
	case ORDER_MOVE:
		return check_move(w, u, o);
	case ORDER_SUPPORT:
		return check_support(w, u, o);
	case ORDER_CONVOY:
		return R_NO_CONVOYS;
	case ORDER_EMBARK:
		return check_embark(w, u, o);
	case ORDER_LAND:
		return check_land(w, u, o);
	default:
		return R_WRONG_PHASE;
	}
}

/* Reset u to holding (or riding) before a new order is checked. */
static void
reset_unit(struct rp *w, int u)
{
	if (!aboard(w, u) && w->ride[u] != NONE && utype(w, u) == UNIT_ARMY)
		w->ride[u] = NONE;
	w->kind[u] = aboard(w, u) ? RK_CARGO : RK_HOLD;
	w->dest[u] = LOC_NONE;
	w->destp[u] = w->tprov[u] = PROV_NONE;
	w->ttype[u] = UNIT_NONE;
}

/* The unit o addresses, for adj_check_orders. */
static int
addressed_unit(void *w, const struct order *o, enum reason *why)
{
	return addressed(w, o, why);
}

/* Check o into unit u's slots (reset first), restoring them when it is
 * illegal. */
static enum reason
check_kept(void *wp, int u, const struct order *o)
{
	struct rp *w = wp;
	uint8_t kind = w->kind[u], ttype = w->ttype[u];
	int16_t ride = w->ride[u];
	loc_id dest = w->dest[u];
	prov_id destp = w->destp[u], tprov = w->tprov[u];
	enum reason why;

	reset_unit(w, u);
	why = check_order(w, u, o);
	if (why != R_OK) {
		w->kind[u] = kind;
		w->ride[u] = ride;
		w->dest[u] = dest;
		w->destp[u] = destp;
		w->tprov[u] = tprov;
		w->ttype[u] = ttype;
	}
	return why;
}

/* Each order checked and given to its unit (adj_check_orders). */
static void
check_all(struct rp *w, const struct order *orders, int n, struct phase_result *res)
{
	adj_check_orders(w, orders, n, w->ord, res, addressed_unit, check_kept);
}

/* ---------------------------------------------------------- strengths -- */

/* Does support s fit move u? */
static bool
fits_move(const struct rp *w, int s, int u)
{
	if (w->kind[s] != RK_SUPPORT || w->kind[u] != RK_MOVE || w->tprov[s] != w->prov[u] ||
	    w->destp[s] != w->destp[u] || w->destp[s] == PROV_NONE)
		return false;
	if (w->ttype[s] != UNIT_NONE && w->ttype[s] != utype(w, u))
		return false;
	/* A coast named in a support must be the coast moved to. */
	return w->m->locs[w->dest[s]].coast == 0 || w->dest[s] == w->dest[u];
}

/* Does province p hold a unit that stays (so supports to hold it count)? */
static bool
has_stayer(const struct rp *w, prov_id p)
{
	int u;

	for (u = w->first[p]; u != NONE; u = w->next[u])
		if (stayer(w, u))
			return true;
	return false;
}

static bool
fits_hold(const struct rp *w, int s, prov_id p)
{
	return w->kind[s] == RK_SUPPORT && w->destp[s] == PROV_NONE && w->tprov[s] == p &&
	    has_stayer(w, p);
}

/* Supports of move u (mv >= 0) or of holding province p, not counting
 * those of power excl: lo counts those given, hi those not cut. */
static struct iv
supports(const struct rp *w, int mv, prov_id p, power_id excl)
{
	struct iv r = { 0, 0 };
	int s;

	for (s = 0; s < w->n; s++) {
		if (mv >= 0 ? !fits_move(w, s, mv) : !fits_hold(w, s, p))
			continue;
		if (excl != POWER_NONE && pw(w, s) == excl)
			continue;
		r.lo += w->st[s] == YES;
		r.hi += w->st[s] != NO;
	}
	return r;
}

/* Is v moving head to head against u (from u's destination to u's place)? */
static bool
head_to_head(const struct rp *w, int u, int v)
{
	return w->kind[u] == RK_MOVE && w->kind[v] == RK_MOVE && w->prov[v] == w->destp[u] &&
	    w->destp[v] == w->prov[u];
}

/* May u (of power a) enter province d alongside unit v of its own power
 * that is there and may stay? */
static bool
may_join(const struct rp *w, int u, int v)
{
	const struct province *d = &w->m->provs[w->prov[v]];
	power_id a = pw(w, u);
	enum unit_type t = utype(w, u);

	if (w->kind[v] == RK_BOARD_WAIT && w->ride[v] == u)
		return true;	/* the fleet the army waits for */
	if (t != utype(w, v))
		return false;	/* an army and a fleet do not share a province */
	if (t == UNIT_ARMY)
		return (w->seat != NULL ? w->seat[w->prov[v]] : d->capital) == a;
	return d->naval_base == a;
}

/* What holds destination d against u, not counting units moving head to
 * head against it: the units that stay, or that may fail to leave. */
static struct iv
hold_part(const struct rp *w, int u)
{
	prov_id d = w->destp[u];
	struct iv r = { 0, 0 }, one;
	int v;
	bool stay = false, own_block = false, own_maybe = false;

	for (v = w->first[d]; v != NONE; v = w->next[v]) {
		if (w->kind[v] == RK_CARGO || head_to_head(w, u, v))
			continue;
		if (stayer(w, v)) {
			stay = true;
			if (pw(w, v) == pw(w, u) && !may_join(w, u, v))
				own_block = true;
			continue;
		}
		if (w->st[v] == YES)
			continue;
		if (pw(w, v) == pw(w, u)) {
			if (may_join(w, u, v))
				continue;
			if (w->st[v] == NO)
				own_block = true;
			else
				own_maybe = true;
			continue;
		}
		one.lo = w->st[v] == NO;
		one.hi = 1;
		r = iv_max(r, one);
	}
	if (own_block) {
		r.lo = r.hi = INF;
		return r;
	}
	if (stay) {
		int o = w->first[d];
		while (o != NONE && (w->kind[o] == RK_CARGO || !stayer(w, o)))
			o = w->next[o];
		if (pw(w, o) != pw(w, u)) {
			struct iv h = supports(w, NONE, d, POWER_NONE);
			h.lo++;
			h.hi++;
			r = iv_max(r, h);
		}
	}
	if (own_maybe)
		r.hi = INF;
	return r;
}

/* The power whose units u would dislodge (supports of that power do not
 * help it), when one is certainly there: foreign units staying or moving
 * head to head. POWER_NONE when none or not yet known. */
static power_id
defender(const struct rp *w, int u, bool *maybe)
{
	int v;

	*maybe = false;
	for (v = w->first[w->destp[u]]; v != NONE; v = w->next[v]) {
		if (w->kind[v] == RK_CARGO || pw(w, v) == pw(w, u))
			continue;
		if (stayer(w, v) || head_to_head(w, u, v) || (mover(w, v) && w->st[v] == NO))
			return pw(w, v);
		if (mover(w, v) && w->st[v] == UNDEC)
			*maybe = true;
	}
	return POWER_NONE;
}

static struct iv
attack(const struct rp *w, int u)
{
	bool maybe;
	power_id e = defender(w, u, &maybe);
	struct iv r;
	int v;

	if (e == POWER_NONE && maybe) {
		for (v = w->first[w->destp[u]]; v != NONE; v = w->next[v])
			if (mover(w, v) && w->st[v] == UNDEC && pw(w, v) != pw(w, u))
				e = pw(w, v);
		r.lo = 1 + supports(w, u, PROV_NONE, e).lo;
		r.hi = 1 + supports(w, u, PROV_NONE, POWER_NONE).hi;
		return r;
	}
	r = supports(w, u, PROV_NONE, e);
	r.lo++;
	r.hi++;
	return r;
}

/* Prevent strength of x, a move into the same province as another. */
static struct iv
prevent(const struct rp *w, int x)
{
	struct iv r = supports(w, x, PROV_NONE, POWER_NONE);
	int v;

	r.lo++;
	r.hi++;
	for (v = w->first[w->destp[x]]; v != NONE; v = w->next[v]) {
		if (!head_to_head(w, x, v))
			continue;
		if (w->st[v] == YES)
			r.lo = r.hi = 0;	/* beaten head to head: no effect there */
		else if (w->st[v] == UNDEC)
			r.lo = 0;
	}
	return r;
}

static struct iv
opposition(const struct rp *w, int u)
{
	struct iv r = hold_part(w, u), s;
	int v;

	for (v = w->first[w->destp[u]]; v != NONE; v = w->next[v]) {
		if (!head_to_head(w, u, v))
			continue;
		if (pw(w, v) == pw(w, u)) {
			r.lo = r.hi = INF;
			return r;
		}
		s = supports(w, v, PROV_NONE, POWER_NONE);
		s.lo++;
		s.hi++;
		r = iv_max(r, s);
	}
	for (v = 0; v < w->n; v++)
		if (v != u && w->kind[v] == RK_MOVE && w->destp[v] == w->destp[u])
			r = iv_max(r, prevent(w, v));
	return r;
}

/* ---------------------------------------------------------- decisions -- */

/* Is province p taken by a foreign move (one not of power own)? */
static int
taken(const struct rp *w, prov_id p, power_id own)
{
	int x, r = NO;

	for (x = 0; x < w->n; x++) {
		if (w->kind[x] != RK_MOVE || w->destp[x] != p || pw(w, x) == own)
			continue;
		if (w->st[x] == YES)
			return YES;
		if (w->st[x] == UNDEC)
			r = UNDEC;
	}
	return r;
}

static int
decide_move(const struct rp *w, int u)
{
	struct iv a = attack(w, u), o = opposition(w, u);

	if (a.lo > o.hi)
		return YES;
	if (a.hi <= o.lo)
		return NO;
	return UNDEC;
}

/* An army boarding the fleet in the province it moves into: it gets on
 * board when the fleet stays there and the province is not taken. */
static int
decide_board_in(const struct rp *w, int u)
{
	int f = w->ride[u], t;

	if (w->kind[f] == RK_MOVE && w->st[f] != NO)
		return w->st[f] == YES ? NO : UNDEC;
	t = taken(w, w->prov[f], pw(w, f));
	return t == YES ? NO : t == NO ? YES : UNDEC;
}

/* A support is cut by an attack from anywhere but the province it
 * supports a move into; from there, only when its province is taken. */
static int
decide_support(const struct rp *w, int s)
{
	int x, r = YES;

	for (x = 0; x < w->n; x++) {
		if (w->kind[x] != RK_MOVE || w->destp[x] != w->prov[s] || pw(w, x) == pw(w, s))
			continue;
		if (w->destp[s] == PROV_NONE || w->prov[x] != w->destp[s])
			return NO;
		if (w->st[x] == YES)
			return NO;
		if (w->st[x] == UNDEC)
			r = UNDEC;
	}
	return r;
}

static int
decide(const struct rp *w, int u)
{
	switch (w->kind[u]) {
	case RK_MOVE:
		return decide_move(w, u);
	case RK_BOARD_IN:
		return decide_board_in(w, u);
	case RK_SUPPORT:
		return decide_support(w, u);
	default:
		return YES;
	}
}

/* Circular movement: from undecided move u, follow the undecided moves
 * out of each destination; the loop found, of three moves or more,
 * succeeds (two would be a swap, which needs a convoy). Returns false when
 * there is none (u then fails). */
static bool
settle_circle(struct rp *w, int u)
{
	int16_t seen[BOARD_MAX_UNITS];
	int v, k, len = 0;

	for (;;) {
		for (k = 0; k < len; k++)
			if (seen[k] == u)
				break;
		if (k < len) {
			if (len - k < 3)
				return false;
			for (; k < len; k++)
				w->st[seen[k]] = YES;
			return true;
		}
		seen[len++] = (int16_t)u;
		for (v = w->first[w->destp[u]]; v != NONE; v = w->next[v])
			if (w->kind[v] == RK_MOVE && w->st[v] == UNDEC)
				break;
		if (v == NONE)
			return false;
		u = v;
	}
}

static void
decide_all(struct rp *w)
{
	int u, changed, left;

	for (;;) {
		do {
			changed = 0;
			left = NONE;
			for (u = 0; u < w->n; u++) {
				int d;
				if (w->st[u] != UNDEC)
					continue;
				d = decide(w, u);
				if (d != UNDEC) {
					w->st[u] = (uint8_t)d;
					changed = 1;
				} else if (left == NONE && w->kind[u] == RK_MOVE) {
					left = u;
				}
			}
		} while (changed);
		if (left == NONE)
			return;
		if (!settle_circle(w, left))
			w->st[left] = NO;
	}
}

/* ------------------------------------------------------------- result -- */

/* Does u end the phase in its province, and is it still standing there
 * (not carried away, not moved)? */
static bool
left_behind(const struct rp *w, int u)
{
	switch (w->kind[u]) {
	case RK_MOVE:
	case RK_BOARD_IN:
		return w->st[u] != YES;
	case RK_CARGO:
		return w->ride[u] == NONE || w->kind[w->ride[u]] != RK_MOVE ||
		    w->st[w->ride[u]] != YES;
	default:
		return true;
	}
}

static enum reason
outcome(const struct rp *w, int u, bool dislodged)
{
	int f = w->ride[u], s;

	switch (w->kind[u]) {
	case RK_MOVE:
	case RK_BOARD_IN:
		return w->st[u] == YES ? R_OK : R_BOUNCED;
	case RK_SUPPORT:
		for (s = 0; s < w->n; s++)
			if (w->destp[u] == PROV_NONE ? fits_hold(w, u, w->tprov[u]) : fits_move(w, u, s))
				return w->st[u] == YES ? R_OK : R_CUT;
		return R_VOID;
	case RK_BOARD_WAIT:
		if (dislodged)
			return R_DISLODGED;
		return w->kind[f] == RK_MOVE && w->destp[f] == w->prov[u] && w->st[f] == YES ?
		    R_OK : R_BOUNCED;
	case RK_BOARD_HERE:
		if (dislodged)
			return R_DISLODGED;
		return w->kind[f] == RK_MOVE && w->st[f] == YES ? R_BOUNCED : R_OK;
	case RK_LAND:
		if (dislodged)
			return R_DISLODGED;
		if (w->kind[f] != RK_MOVE)
			return R_VOID;
		return w->st[f] == YES ? R_OK : R_BOUNCED;
	default:
		return dislodged ? R_DISLODGED : R_OK;
	}
}

/* Where u stands after the phase (its type in *type); false when it is
 * gone (on board a fleet that was dislodged). */
static loc_id
new_place(const struct rp *w, int u, bool *lost, uint8_t *type)
{
	const struct map *m = w->m;
	const struct unit *un = &w->b->units[u];
	enum reason r = outcome(w, u, false);
	int f = w->ride[u];

	*type = un->type;
	*lost = false;
	switch (w->kind[u]) {
	case RK_MOVE:
		return w->st[u] == YES ? w->dest[u] : un->loc;
	case RK_BOARD_IN:
		if (w->st[u] != YES)
			return un->loc;
		*type = UNIT_ARMY | UNIT_ABOARD;
		return m->provs[w->destp[u]].loc;
	case RK_BOARD_WAIT:
	case RK_BOARD_HERE:
		if (r == R_OK)
			*type = UNIT_ARMY | UNIT_ABOARD;
		return un->loc;
	case RK_LAND:
		if (r == R_OK)
			*type = UNIT_ARMY;
		return r == R_OK ? m->provs[w->prov[u]].loc : un->loc;
	case RK_CARGO:
		if (f == NONE)
			return un->loc;
		if (w->kind[f] == RK_MOVE && w->st[f] == YES)
			return m->provs[w->destp[f]].loc;
		return un->loc;
	default:
		return un->loc;
	}
}

/* The unit whose move took u's province, or NONE. */
static int
dislodger(const struct rp *w, int u)
{
	int x;

	if (!left_behind(w, u))
		return NONE;
	for (x = 0; x < w->n; x++)
		if (w->kind[x] == RK_MOVE && w->destp[x] == w->prov[u] && w->st[x] == YES &&
		    pw(w, x) != pw(w, u))
			return x;
	return NONE;
}

static void
mark_contested(const struct rp *w, struct board *a)
{
	int u, k;

	for (u = 0; u < w->n; u++) {
		bool occupied = false;

		if (w->kind[u] != RK_MOVE || w->st[u] == YES || prevent(w, u).hi == 0)
			continue;
		for (k = 0; k < a->nunits && !occupied; k++)
			occupied = w->m->locs[a->units[k].loc].prov == w->destp[u];
		if (!occupied)
			board_set_contested(a, w->destp[u]);
	}
}

static void
write_result(const struct rp *w, struct phase_result *res, struct buf *trace)
{
	const struct map *m = w->m;
	struct board *a = &res->after;
	int u;

	*a = *w->b;
	a->nunits = 0;
	a->ndislodged = 0;
	memset(a->contested, 0, sizeof a->contested);
	res->nunits = w->n;
	for (u = 0; u < w->n; u++) {
		int x = dislodger(w, u);
		int carrier = w->kind[u] == RK_CARGO || (w->kind[u] == RK_LAND &&
		    outcome(w, u, false) != R_OK) ? w->ride[u] : NONE;
		bool dis = x != NONE, lost;
		struct unit un = w->b->units[u];

		/* On board a fleet that is dislodged: lost with it. */
		if (carrier != NONE && dislodger(w, carrier) != NONE)
			dis = true;
		res->unit_order[u] = w->ord[u];
		res->unit_dislodged[u] = dis;
		res->unit_reason[u] = (uint8_t)outcome(w, u, dis);
		if (w->ord[u] != NONE)
			res->reason[w->ord[u]] = res->unit_reason[u];
		un.loc = new_place(w, u, &lost, &un.type);
		if (trace)
			buf_printf(trace, "%s %c %s: %s\n", m->powers[un.power].name,
			    unit_letter(utype(w, u)), m->locs[w->b->units[u].loc].name,
			    reason_text((enum reason)res->unit_reason[u]));
		if (carrier != NONE && dis)
			continue;	/* destroyed with its fleet */
		if (dis) {
			struct dislodged *d = &a->dislodged[a->ndislodged++];
			d->unit = w->b->units[u];
			d->unit.type &= (uint8_t)~UNIT_ABOARD;
			if (w->kind[u] == RK_LAND)
				d->unit.loc = m->provs[w->prov[u]].loc;
			d->attacker = w->prov[x];
		} else {
			a->units[a->nunits++] = un;
		}
	}
	mark_contested(w, a);
}

/* ------------------------------------------------------------ account -- */

/* The unit that stays in province p against u (not on board, not moving
 * head to head against it), or NONE. */
static int
staying(const struct rp *w, int u, prov_id p)
{
	int v;

	for (v = w->first[p]; v != NONE; v = w->next[v])
		if (w->kind[v] != RK_CARGO && !head_to_head(w, u, v) &&
		    (stayer(w, v) || w->st[v] != YES))
			return v;
	return NONE;
}

/* Why failed move u failed, as decide_move found: the opposition that its
 * attack did not beat (all decisions are taken: each bound is exact). */
static void
account_move(const struct rp *w, int u, struct unit_why *y)
{
	struct iv a = attack(w, u), h = hold_part(w, u), s;
	int v;

	y->mine = (uint8_t)a.lo;
	if (h.lo >= INF) {
		y->why = WHY_STACK;
		for (v = w->first[w->destp[u]]; v != NONE && y->other == NONE; v = w->next[v])
			if (w->kind[v] != RK_CARGO && pw(w, v) == pw(w, u) && !may_join(w, u, v))
				y->other = (int16_t)v;
		return;
	}
	for (v = w->first[w->destp[u]]; v != NONE; v = w->next[v]) {
		if (!head_to_head(w, u, v))
			continue;
		if (pw(w, v) == pw(w, u)) {
			y->why = WHY_OWN_UNIT;
			y->other = (int16_t)v;
			return;
		}
		s = supports(w, v, PROV_NONE, POWER_NONE);
		if (a.lo <= s.lo + 1) {
			y->why = WHY_BOUNCED;
			y->how = HOW_HEAD;
			y->other = (int16_t)v;
			y->theirs = (uint8_t)(s.lo + 1);
			return;
		}
	}
	if (a.lo <= h.lo) {
		y->why = WHY_BOUNCED;
		y->how = HOW_HOLD;
		y->other = (int16_t)staying(w, u, w->destp[u]);
		y->theirs = (uint8_t)h.lo;
		return;
	}
	for (v = 0; v < w->n; v++) {
		if (v != u && w->kind[v] == RK_MOVE && w->destp[v] == w->destp[u] &&
		    a.lo <= prevent(w, v).lo) {
			y->why = WHY_BOUNCED;
			y->how = HOW_PREVENT;
			y->other = (int16_t)v;
			y->theirs = (uint8_t)prevent(w, v).lo;
			return;
		}
	}
}

/* Why unit u's order failed, by its kind and its outcome r. */
static void
account_unit(const struct rp *w, int u, enum reason r, struct unit_why *y)
{
	int f = w->ride[u], x;

	switch (w->kind[u]) {
	case RK_MOVE:
		if (r != R_OK)
			account_move(w, u, y);
		break;
	case RK_BOARD_IN:
		if (r == R_OK)
			break;
		y->other = (int16_t)f;
		y->why = w->kind[f] == RK_MOVE && w->st[f] == YES ? WHY_FLEET_LEFT : WHY_FLEET_LOST;
		break;
	case RK_BOARD_WAIT:
		if (r == R_BOUNCED) {
			y->why = WHY_FLEET_MISSED;
			y->other = (int16_t)f;
		}
		break;
	case RK_BOARD_HERE:
		if (r == R_BOUNCED) {
			y->why = WHY_FLEET_LEFT;
			y->other = (int16_t)f;
		}
		break;
	case RK_LAND:
		if (r == R_BOUNCED || r == R_VOID) {
			y->why = r == R_VOID ? WHY_FLEET_STILL : WHY_FLEET_STAYED;
			y->other = (int16_t)f;
		}
		break;
	case RK_SUPPORT:
		if (r == R_VOID) {
			y->why = WHY_VOID;
			y->other = w->first[w->tprov[u]];
		} else if (r == R_CUT) {
			y->why = WHY_CUT;
			for (x = 0; x < w->n && y->other == NONE; x++) {
				if (w->kind[x] != RK_MOVE || w->destp[x] != w->prov[u] ||
				    pw(w, x) == pw(w, u))
					continue;
				if (w->destp[u] == PROV_NONE || w->prov[x] != w->destp[u])
					y->other = (int16_t)x;
				else if (w->st[x] == YES) {
					y->other = (int16_t)x;
					y->how = 1;
				}
			}
		}
		break;
	default:
		break;
	}
}

/* The reasons of struct phase_why from the decisions decide_all took
 * (noinline, cold: the adjudication alone does not pay for them). */
__attribute__((noinline, cold)) static void
account(const struct rp *w, const struct phase_result *res, struct phase_why *why)
{
	int u, s;

	why->nunits = w->n;
	for (u = 0; u < w->n; u++) {
		struct unit_why *y = &why->u[u];
		int x = dislodger(w, u), f = w->ride[u];

		memset(y, 0, sizeof *y);
		y->other = y->other2 = y->by = NONE;
		account_unit(w, u, (enum reason)res->unit_reason[u], y);
		if (x == NONE && res->unit_dislodged[u] && f != NONE) {
			/* On board a fleet that was dislodged: lost with it. */
			y->why = WHY_FLEET_LOST;
			y->other = (int16_t)f;
			x = dislodger(w, f);
		}
		if (x == NONE)
			continue;
		y->by = (int16_t)x;
		y->by_attack = (uint8_t)attack(w, x).lo;
		y->by_defence = (uint8_t)(head_to_head(w, x, u) ?
		    supports(w, u, PROV_NONE, POWER_NONE).lo + 1 : hold_part(w, x).lo);
		for (s = 0; s < w->n; s++) {
			if (!fits_move(w, s, x) || w->st[s] != YES || pw(w, s) == pw(w, u))
				continue;
			if (y->nsup < WHY_MAX_SUPPORTS)
				y->sup[y->nsup++] = (int16_t)s;
		}
	}
}

void
rp_resolve_movement(const struct map *m, const struct rules *r, const struct board *b,
    const power_id *seat, const struct order *orders, int norders, struct phase_result *res,
    struct buf *trace, struct phase_why *why)
{
	struct rp w;

	(void)r;
	rp_init(&w, m, b, seat);
	check_all(&w, orders, norders, res);
	decide_all(&w);
	write_result(&w, res, trace);
	if (why)
		account(&w, res, why);
}

/* --------------------------------------------------- supply, occupation -- */

power_id
rp_standing(const struct map *m, const struct board *b, prov_id q)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (m->locs[b->units[i].loc].prov == q && !(b->units[i].type & UNIT_ABOARD))
			return b->units[i].power;
	return POWER_NONE;
}

bool
rp_owns_home(const struct map *m, const struct board *b, power_id p)
{
	int q;

	for (q = 0; q < m->nprovs; q++)
		if (m->provs[q].home == p && b->owner[q] == p)
			return true;
	return false;
}

enum reason
rp_can_build(const struct map *m, const struct board *b, const power_id *seat, power_id p,
    enum unit_type t, prov_id q)
{
	const struct province *pr = &m->provs[q];
	power_id holder = seat ? seat[q] : t == UNIT_ARMY ? pr->capital : pr->naval_base;
	int i;

	if (holder != p)
		return R_NOT_HOME;
	if (t == UNIT_FLEET && pr->terrain != TERRAIN_COAST)
		return R_BAD_TERRAIN;
	if (b->owner[q] != p || !rp_owns_home(m, b, p))
		return R_NOT_OWNED;
	for (i = 0; i < b->nunits; i++)
		if (m->locs[b->units[i].loc].prov == q && b->units[i].power != p)
			return R_OCCUPIED;
	return R_OK;
}

int
rp_build_sites(const struct map *m, const struct board *b, const power_id *seat, power_id p,
    enum unit_type t)
{
	int q, n = 0;

	for (q = 0; q < m->nprovs; q++)
		n += rp_can_build(m, b, seat, p, t, (prov_id)q) == R_OK;
	return n;
}

prov_id
rp_capital_default(const struct map *m, const struct board *b, const power_id *seat, power_id p,
    prov_id lost)
{
	int q;

	for (q = 0; q < m->nprovs; q++) {
		power_id cap = seat ? seat[q] : m->provs[q].capital;
		if (q != lost && m->provs[q].home == p && b->owner[q] == p && cap != p)
			return (prov_id)q;
	}
	return PROV_NONE;
}

int
rp_occupy(const struct map *m, const struct board *start, struct board *end)
{
	int q, n = 0;

	for (q = 0; q < m->nprovs; q++) {
		power_id now;

		if (!m->provs[q].supply)
			continue;
		now = rp_standing(m, end, (prov_id)q);
		if (now == POWER_NONE || now == end->owner[q] || rp_standing(m, start, (prov_id)q) != now)
			continue;
		end->owner[q] = now;
		n++;
	}
	return n;
}

/* ------------------------------------------------------------- resolver -- */

/* A unit raised where the capitals stand now (armies; a naval base does
 * not move). */
static enum reason
can_build_now(const struct map *m, const struct board *b, const power_id *seat, power_id p,
    enum unit_type t, prov_id q)
{
	return rp_can_build(m, b, t == UNIT_ARMY ? seat : NULL, p, t, q);
}

/* Armies where the capitals stand now, and fleets. */
static int
build_sites_now(const struct map *m, const struct board *b, const power_id *seat, power_id p)
{
	return rp_build_sites(m, b, seat, p, UNIT_ARMY) + rp_build_sites(m, b, NULL, p, UNIT_FLEET);
}

const struct resolver realpolitik_resolver = {
	.system = "realpolitik",
	.caps = RULES_STACKS | RULES_BOARDING,
	.movement = rp_resolve_movement,
	.can_build = can_build_now,
	.build_sites = build_sites_now,
};
