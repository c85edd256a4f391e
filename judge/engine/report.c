#include "report.h"

#include <stdlib.h>
#include <string.h>

static void
put_place(const struct map *m, loc_id l, struct buf *out)
{
	const struct location *lc = &m->locs[l];

	buf_puts(out, m->provs[lc->prov].name);
	if (lc->coast_name)
		buf_printf(out, " (%s)", lc->coast_name);
}

/* " -> Place" when l is a location. */
static void
put_dest(const struct map *m, loc_id l, struct buf *out)
{
	if (l != LOC_NONE) {
		buf_puts(out, " -> ");
		put_place(m, l, out);
	}
}

/* "Army", "Fleet" (an army on board is an army). */
static const char *
type_word(uint8_t t)
{
	t &= (uint8_t)~UNIT_ABOARD;
	return t == UNIT_ARMY ? "Army" : t == UNIT_FLEET ? "Fleet" : "Unit";
}

struct order
report_named(const struct map *m, const struct board *b, const struct order *o)
{
	struct order n = *o;
	power_id by = o->power;
	int u;

	if ((o->kind != ORDER_SUPPORT && o->kind != ORDER_CONVOY) || o->target == LOC_NONE ||
	    o->loc == LOC_NONE)
		return n;
	if (by == POWER_NONE && (u = board_unit_in(b, m, m->locs[o->loc].prov)) >= 0)
		by = b->units[u].power;
	u = board_unit_in(b, m, m->locs[o->target].prov);
	if (u >= 0 && by != POWER_NONE)	/* the nation the board gives, not the one written */
		n.target_power = b->units[u].power != by ? b->units[u].power : POWER_NONE;
	return n;
}

void
report_order(const struct map *m, const struct order *o, uint8_t unit_type, struct buf *out)
{
	uint8_t t = (uint8_t)((unit_type ? unit_type : o->type) & ~UNIT_ABOARD);

	switch (o->kind) {
	case ORDER_BUILD:
		buf_printf(out, "Build %s ", o->type == UNIT_FLEET ? "fleet" : "army");
		put_place(m, o->loc, out);
		return;
	case ORDER_REMOVE:
		buf_printf(out, "Remove %s ", t == UNIT_FLEET ? "fleet" : "army");
		put_place(m, o->loc, out);
		return;
	case ORDER_WAIVE:
		buf_puts(out, "Waive a build");
		return;
	case ORDER_REVIVE:
		buf_puts(out, "Revive ");
		if (o->loc != LOC_NONE)
			put_place(m, o->loc, out);
		return;
	default:
		break;
	}
	buf_printf(out, "%s ", type_word(t));
	put_place(m, o->loc, out);
	switch (o->kind) {
	case ORDER_HOLD:
		buf_puts(out, " HOLD");
		break;
	case ORDER_MOVE:
	case ORDER_RETREAT:
		buf_puts(out, " -> ");
		put_place(m, o->dest, out);
		if (o->via_convoy)
			buf_puts(out, " via convoy");
		break;
	case ORDER_DISBAND:
		buf_puts(out, " DISBAND");
		break;
	case ORDER_SUPPORT:
	case ORDER_CONVOY:
		buf_puts(out, o->kind == ORDER_SUPPORT ? " SUPPORT " : " CONVOY ");
		if (o->target_power != POWER_NONE)
			buf_printf(out, "%s ", m->powers[o->target_power].adjective);
		buf_printf(out, "%s ", type_word(o->kind == ORDER_CONVOY ? UNIT_ARMY : o->target_type));
		put_place(m, o->target, out);
		put_dest(m, o->dest, out);
		break;
	case ORDER_INSURRECTION:
		buf_puts(out, " INSURRECTION ");
		buf_puts(out, o->target_power != POWER_NONE ? m->powers[o->target_power].name : "?");
		break;
	case ORDER_EMBARK:
		put_dest(m, o->dest, out);
		buf_puts(out, " EMBARK");
		if (o->target != LOC_NONE) {
			buf_puts(out, " ON Fleet ");
			put_place(m, o->target, out);
		}
		break;
	case ORDER_LAND:
		buf_puts(out, " LAND");
		if (o->dest != LOC_NONE) {
			buf_puts(out, " IN ");
			put_place(m, o->dest, out);
		}
		break;
	default:
		break;
	}
}

/* The "(*bounce*)" tag of a result, or "" for success. */
static void
put_tag(enum reason r, int dislodged, struct buf *out)
{
	const char *t = NULL;

	switch (r) {
	case R_OK:
	case R_NONE:
		break;
	case R_BOUNCED: t = "bounce"; break;
	case R_CUT: t = "cut"; break;
	case R_VOID: t = "void"; break;
	case R_NO_CONVOY: t = "no convoy"; break;
	case R_PARADOX: t = "convoy paradox"; break;
	case R_DISLODGED: t = NULL; break;
	case R_RETREAT_BOUNCED: t = "bounce, destroyed"; break;
	case R_DISBANDED: t = "disbanded"; break;
	case R_REMOVED: t = "civil disorder"; break;
	default: t = reason_text(r); break;
	}
	if (t && dislodged)
		buf_printf(out, "  (*%s, dislodged*)", t);
	else if (t)
		buf_printf(out, "  (*%s*)", t);
	else if (dislodged)
		buf_puts(out, "  (*dislodged*)");
}

struct line {
	power_id power;
	prov_id prov;
	int idx;
};

static int
cmp_line(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->power != y->power)
		return x->power < y->power ? -1 : 1;
	return x->prov < y->prov ? -1 : x->prov > y->prov;
}

static const char *
article(uint8_t t)
{
	return t == UNIT_ARMY ? "an army" : "a fleet";
}

void
report_unused(const struct map *m, const struct order *orders,
    const struct phase_result *res, const int *raisable, struct buf *out)
{
	int p, i;

	for (p = 0; p < m->npowers; p++) {
		int used = 0;
		if (raisable[p] <= 0)
			continue;
		for (i = 0; i < res->norders; i++)
			used += orders[i].power == p && res->reason[i] == R_OK &&
			    (orders[i].kind == ORDER_BUILD || orders[i].kind == ORDER_WAIVE);
		if (used < raisable[p])
			buf_printf(out, "%s: %d build%s not used.\n", m->powers[p].name,
			    raisable[p] - used, raisable[p] - used == 1 ? "" : "s");
	}
}

static void adjust_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, int i, struct buf *out);
static void removed_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, power_id p, struct buf *out);

void
report_results(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct phase_why *why, struct buf *out)
{
	struct line lines[BOARD_MAX_UNITS];
	struct order named;
	int n = 0, i;

	buf_printf(out, "%s results for %s of %d.\n\n",
	    b->phase == PHASE_MOVEMENT ? "Movement" : b->phase == PHASE_RETREAT ? "Retreat" :
									   "Adjustment",
	    season_name((enum season)b->season), b->year);

	if (b->phase == PHASE_MOVEMENT || b->phase == PHASE_RETREAT) {
		int nu = b->phase == PHASE_MOVEMENT ? b->nunits : b->ndislodged;
		for (i = 0; i < nu; i++) {
			const struct unit *u = b->phase == PHASE_MOVEMENT ? &b->units[i] :
									  &b->dislodged[i].unit;
			lines[n].power = u->power;
			lines[n].prov = m->locs[u->loc].prov;
			lines[n].idx = i;
			n++;
		}
		qsort(lines, (size_t)n, sizeof lines[0], cmp_line);
		for (i = 0; i < n; i++) {
			int u = lines[i].idx, o = res->unit_order[u], k, any = 0, hit = 0;
			/* A power that gave no order at all: one line, unless a unit
			 * of it was dislodged (then every unit is listed). */
			for (k = 0; k < n; k++) {
				int uk = lines[k].idx;
				if (lines[k].power != lines[i].power)
					continue;
				any |= res->unit_order[uk] >= 0;
				hit |= b->phase == PHASE_MOVEMENT && res->unit_dislodged[uk];
			}
			if (!any && !hit) {
				if (i == 0 || lines[i - 1].power != lines[i].power)
					buf_printf(out, "%s: no orders; %s.\n", m->powers[lines[i].power].name,
					    b->phase == PHASE_MOVEMENT ? "all units hold" :
									 "its dislodged units are disbanded");
				continue;
			}
			const struct unit *un = b->phase == PHASE_MOVEMENT ? &b->units[u] :
									   &b->dislodged[u].unit;
			buf_printf(out, "%s: ", m->powers[un->power].name);
			if (o >= 0) {
				named = report_named(m, b, &orders[o]);
				report_order(m, &named, un->type, out);
			} else {
				buf_printf(out, "%s ", type_word(un->type));
				put_place(m, un->loc, out);
				buf_puts(out, b->phase != PHASE_MOVEMENT ? " DISBAND" :
				    un->type & UNIT_ABOARD ? " STAYS ON BOARD" : " HOLD");
			}
			buf_putc(out, '.');
			/* An army on board needs no order: it stays on board, as
			 * its power was told it would. */
			if (o < 0 && b->phase == PHASE_MOVEMENT && (un->type & UNIT_ABOARD))
				put_tag(R_OK, res->unit_dislodged[u], out);
			else if (o < 0 && b->phase == PHASE_MOVEMENT)
				buf_printf(out, "  (*no order%s*)", res->unit_dislodged[u] ? ", dislodged" : "");
			else if (o < 0)
				buf_puts(out, "  (*no order*)");
			else
				put_tag((enum reason)res->unit_reason[u],
				    b->phase == PHASE_MOVEMENT && res->unit_dislodged[u] &&
					res->unit_reason[u] != R_DISLODGED ? 1 :
				    res->unit_reason[u] == R_DISLODGED, out);
			buf_putc(out, '\n');
			if (why != NULL && b->phase == why->phase && u < why->nunits) {
				size_t mark = out->len;
				buf_puts(out, "    ");
				if (report_why(m, b, orders, res, why, u, out))
					buf_puts(out, ".\n");
				else
					buf_truncate(out, mark);
			}
		}
	} else {
		for (i = 0; i < res->norders; i++) {
			const struct order *o = &orders[i];
			power_id pw = o->power;
			if (pw == POWER_NONE)
				continue;
			buf_printf(out, "%s: ", m->powers[pw].name);
			if (res->reason[i] == R_OK) {
				if (o->kind == ORDER_BUILD) {
					buf_printf(out, "Builds %s in ", article(o->type));
					put_place(m, o->loc, out);
				} else if (o->kind == ORDER_WAIVE) {
					buf_puts(out, "Waives a build");
				} else {
					buf_printf(out, "Removes %s in ", o->type == UNIT_ARMY ||
					    o->type == UNIT_FLEET ? article(o->type) : "the unit");
					put_place(m, o->loc, out);
				}
				buf_puts(out, ".\n");
			} else {
				report_order(m, o, o->type, out);
				buf_putc(out, '.');
				put_tag((enum reason)res->reason[i], 0, out);
				buf_putc(out, '\n');
				if (why != NULL)
					adjust_why(m, b, orders, res, i, out);
			}
		}
		for (i = 0; i < res->nremoved; i++) {
			const struct unit *u = &res->removed[i];
			buf_printf(out, "%s: Removes %s in ", m->powers[u->power].name, article(u->type));
			put_place(m, u->loc, out);
			buf_puts(out, ".  (*civil disorder*)\n");
			if (why != NULL)
				removed_why(m, b, orders, res, u->power, out);
		}
		if (res->norders == 0 && res->nremoved == 0)
			buf_puts(out, "No adjustments.\n");
	}

	/* Illegal orders: listed so that nobody wonders where they went. */
	for (i = 0; i < res->norders; i++) {
		if (!reason_is_illegal((enum reason)res->reason[i]) || b->phase == PHASE_ADJUSTMENT)
			continue;
		buf_printf(out, "%s: ", orders[i].power != POWER_NONE ?
		    m->powers[orders[i].power].name : "?");
		named = report_named(m, b, &orders[i]);
		report_order(m, &named, orders[i].type, out);
		buf_printf(out, ".  (*illegal: %s*)\n", reason_text((enum reason)res->reason[i]));
	}

	if (b->phase == PHASE_MOVEMENT && res->after.ndislodged > 0) {
		buf_puts(out, "\nThe following units were dislodged:\n");
		for (i = 0; i < res->after.ndislodged; i++) {
			const struct dislodged *d = &res->after.dislodged[i];
			loc_id opt[16];
			int k, no = adj_retreat_options(m, &res->after, d, opt);

			buf_printf(out, "The %s %s in ", m->powers[d->unit.power].adjective,
			    type_word(d->unit.type));
			put_place(m, d->unit.loc, out);
			if (no == 0) {
				buf_puts(out, " with no valid retreats was destroyed.\n");
				continue;
			}
			buf_puts(out, " can retreat to ");
			for (k = 0; k < no; k++) {
				if (k > 0)
					buf_puts(out, k == no - 1 ? " or " : ", ");
				put_place(m, opt[k], out);
			}
			buf_puts(out, ".\n");
		}
	}
}

/* The column the power names of the tables take: at least 10, the longest
 * name on maps with longer ones (United Kingdom). */
static int
name_width(const struct map *m)
{
	int p, w = 10;

	for (p = 0; p < m->npowers; p++)
		if ((int)strlen(m->powers[p].name) > w)
			w = (int)strlen(m->powers[p].name);
	return w;
}

void
report_next(const struct map *m, const struct rules *r, const struct board *next,
    struct buf *out)
{
	int p, w;

	if (next->phase != PHASE_ADJUSTMENT)
		return;
	buf_puts(out, "\nAdjustments due:\n");
	w = name_width(m);
	for (p = 0; p < m->npowers; p++) {
		int c = board_count_centres(next, m, (power_id)p);
		int u = board_count_units(next, (power_id)p);
		int due = c - u, sites = adj_build_sites(m, r, next, (power_id)p);

		if (c == 0 && u == 0)
			continue;
		buf_printf(out, "%-*s %2d supply centre%s, %2d unit%s: ", w, m->powers[p].name, c,
		    c == 1 ? "" : "s", u, u == 1 ? "" : "s");
		if (due > 0 && sites > 0)
			buf_printf(out, "builds %d%s\n", due < sites ? due : sites,
			    due > sites ? " (no room for more)" : "");
		else if (due > 0)
			buf_puts(out, "no free home centre to build in\n");
		else if (due < 0)
			buf_printf(out, "removes %d\n", -due);
		else
			buf_puts(out, "no change\n");
	}
}

void
report_centres(const struct map *m, const struct board *b, const struct board *prev,
    struct buf *out)
{
	int p, w = name_width(m);

	buf_puts(out, "\nSupply centre ownership:\n");
	for (p = 0; p < m->npowers; p++) {
		int c = board_count_centres(b, m, (power_id)p), i, k = 0;
		int before = prev ? board_count_centres(prev, m, (power_id)p) : c;

		if (c == 0 && before == 0)
			continue;
		buf_printf(out, "%-*s %2d", w, m->powers[p].name, c);
		if (c != before)
			buf_printf(out, " (%+d)", c - before);
		buf_puts(out, ":");
		for (i = 0; i < m->nprovs; i++)
			if (m->provs[i].supply && b->owner[i] == p)
				buf_printf(out, "%s%s", k++ ? ", " : " ", m->provs[i].name);
		buf_puts(out, k ? "\n" : " none\n");
	}
}

/* ------------------------------------------------------------ refusals -- */

/* "the North Sea" for a sea, "Munich" for land. */
static void
put_the(const struct map *m, prov_id p, struct buf *out)
{
	if (m->provs[p].terrain == TERRAIN_SEA)
		buf_puts(out, "the ");
	buf_puts(out, m->provs[p].name);
}

/* The unit in province p on b (a dislodged one in a retreat phase), or NULL. */
static const struct unit *
unit_in(const struct map *m, const struct board *b, prov_id p)
{
	int i;

	if (b->phase == PHASE_RETREAT) {
		for (i = 0; i < b->ndislodged; i++)
			if (m->locs[b->dislodged[i].unit.loc].prov == p)
				return &b->dislodged[i].unit;
		return NULL;
	}
	i = board_unit_in(b, m, p);
	return i >= 0 ? &b->units[i] : NULL;
}

/* How many units stand in province p on b (more than one: a stack), not
 * counting armies on board. */
static int
units_in(const struct map *m, const struct board *b, prov_id p)
{
	int i, n = 0;

	for (i = 0; i < b->nunits; i++)
		n += m->locs[b->units[i].loc].prov == p && !(b->units[i].type & UNIT_ABOARD);
	return n;
}

/* "the fleet in the North Sea" */
static void
put_unit_in(const struct map *m, uint8_t type, prov_id p, struct buf *out)
{
	buf_printf(out, "the %s in ", type == UNIT_ARMY ? "army" : type == UNIT_FLEET ? "fleet" : "unit");
	put_the(m, p, out);
}

/* "the fleet in the North Sea cannot reach Brest" */
static void
put_cannot(const struct map *m, uint8_t type, prov_id here, const char *what, prov_id p,
    struct buf *out)
{
	put_unit_in(m, type, here, out);
	buf_printf(out, " cannot %s ", what);
	put_the(m, p, out);
}

static prov_id
prov_of(const struct map *m, loc_id l)
{
	return l == LOC_NONE ? PROV_NONE : m->locs[l].prov;
}

/*
 * In a retreat phase, an order of o->power for its own unit in here that
 * was not dislodged (none of its units was dislodged from here, whoever
 * else's was): "your army in Munich is not dislodged: only dislodged units
 * retreat or disband now", and when the power has none to retreat, that.
 * Returns false, writing nothing, for any other order.
 */
static bool
put_not_dislodged(const struct map *m, const struct board *b, const struct order *o, prov_id here,
    struct buf *out)
{
	int i, u, any = 0;

	if (b->phase != PHASE_RETREAT || here == PROV_NONE || o->power == POWER_NONE)
		return false;
	u = board_unit_in(b, m, here);
	if (u < 0 || b->units[u].power != o->power)
		return false;
	for (i = 0; i < b->ndislodged; i++) {
		const struct unit *d = &b->dislodged[i].unit;
		if (d->power != o->power)
			continue;
		if (m->locs[d->loc].prov == here)
			return false;
		any = 1;
	}
	buf_printf(out, "your %s in ", b->units[u].type == UNIT_FLEET ? "fleet" : "army");
	put_the(m, here, out);
	buf_puts(out, " is not dislodged: only dislodged units retreat or disband now");
	if (!any)
		buf_puts(out, ", and you have no units to retreat");
	return true;
}

void
report_refusal(const struct map *m, const struct board *b, const struct order *o, enum reason why,
    struct buf *out)
{
	prov_id here = prov_of(m, o->loc), dest = prov_of(m, o->dest), tgt = prov_of(m, o->target);
	const struct unit *u = here != PROV_NONE ? unit_in(m, b, here) : NULL;
	uint8_t type = u ? u->type : o->type;
	const struct unit *tu = tgt != PROV_NONE ? unit_in(m, b, tgt) : NULL;

	/* An order to a unit standing undislodged, whatever else stands or was
	 * dislodged there. */
	if ((why == R_WRONG_PHASE || why == R_FOREIGN_UNIT || why == R_NOT_DISLODGED) &&
	    put_not_dislodged(m, b, o, here, out))
		return;
	switch (why) {
	case R_NO_UNIT:
		if (o->kind == ORDER_BUILD || o->kind == ORDER_WAIVE || here == PROV_NONE)
			break;
		if (u == NULL || (o->power != POWER_NONE && u->power != o->power) ||
		    (o->kind != ORDER_SUPPORT && o->kind != ORDER_CONVOY)) {
			buf_printf(out, "you have no %sunit in ", b->phase == PHASE_RETREAT ?
			    "dislodged " : "");
			put_the(m, here, out);
			return;
		}
		if (tgt == PROV_NONE) {
			buf_printf(out, "say which unit it %s", o->kind == ORDER_SUPPORT ? "supports" :
										 "convoys");
			return;
		}
		buf_puts(out, "there is no unit in ");
		put_the(m, tgt, out);
		buf_printf(out, " to %s", o->kind == ORDER_SUPPORT ? "support" : "convoy");
		return;
	case R_FOREIGN_UNIT:
		if (u == NULL)
			break;
		put_unit_in(m, type, here, out);
		buf_printf(out, " is %s, not yours", m->powers[u->power].adjective);
		return;
	case R_NOT_ADJACENT:
	case R_NO_CONVOY:
		if (here == PROV_NONE || dest == PROV_NONE)
			break;
		put_cannot(m, type, here, "reach", dest, out);
		if (why == R_NO_CONVOY)
			buf_puts(out, ": no fleets at sea could carry it there");
		return;
	case R_BAD_COAST:
		if (here == PROV_NONE || dest == PROV_NONE)
			break;
		put_cannot(m, type, here, "reach that coast of", dest, out);
		return;
	case R_NEED_COAST:
		if (dest == PROV_NONE)
			break;
		put_the(m, dest, out);
		buf_puts(out, " has two coasts the fleet can reach: say which");
		if (m->provs[dest].ncoasts > 0)
			buf_printf(out, " (e.g. %s)", m->locs[m->provs[dest].coast[0]].name);
		return;
	case R_NAME_COAST:
		if (dest == PROV_NONE)
			break;
		buf_puts(out, "a fleet ordered to ");
		put_the(m, dest, out);
		buf_puts(out, " must name the coast");
		return;
	case R_SAME_PROVINCE:
		if (here == PROV_NONE)
			break;
		if (o->kind == ORDER_SUPPORT && tgt == here) {
			put_unit_in(m, type, here, out);
			buf_puts(out, units_in(m, b, here) > 1 ? " cannot support another unit there: "
			    "units that share a place do not support one another" : " cannot support itself");
			return;
		}
		put_unit_in(m, type, here, out);
		buf_puts(out, o->kind == ORDER_SUPPORT ? " cannot support a unit into the place it is in "
		    "itself" : o->kind == ORDER_CONVOY ? " cannot convoy an army to where it is" :
		    " is there already");
		return;
	case R_CANNOT_SUPPORT:
		if (here == PROV_NONE || (dest == PROV_NONE && tgt == PROV_NONE))
			break;
		put_cannot(m, type, here, "reach", dest != PROV_NONE ? dest : tgt, out);
		buf_puts(out, dest != PROV_NONE ? ", so it cannot support a move there" :
		    ", so it cannot support the unit there");
		return;
	case R_CANNOT_CONVOY:
		if (here == PROV_NONE)
			break;
		put_unit_in(m, type, here, out);
		if (type != UNIT_FLEET || m->provs[here].terrain != TERRAIN_SEA)
			buf_puts(out, " cannot convoy: only fleets at sea convoy");
		else if (tu && tu->type != UNIT_ARMY)
			buf_puts(out, " cannot convoy a fleet: only armies are convoyed");
		else
			buf_puts(out, " is not on a way by sea between those places");
		return;
	case R_WRONG_PHASE:
		buf_printf(out, "that is not an order for %s phase",
		    b->phase == PHASE_MOVEMENT ? "a movement" : b->phase == PHASE_RETREAT ?
		    "a retreat" : "an adjustment");
		return;
	case R_RETREAT_OCCUPIED:
	case R_RETREAT_ATTACKER:
	case R_RETREAT_CONTESTED:
		if (here == PROV_NONE || dest == PROV_NONE)
			break;
		put_cannot(m, type, here, "retreat to", dest, out);
		buf_puts(out, why == R_RETREAT_OCCUPIED ? ": a unit is there" :
		    why == R_RETREAT_ATTACKER ? ": the attack came from there" :
						": it was left empty by a standoff");
		return;
	case R_NOT_DISLODGED:
		if (here == PROV_NONE)
			break;
		buf_puts(out, "you have no dislodged unit in ");
		put_the(m, here, out);
		buf_puts(out, ": only dislodged units retreat or disband now");
		return;
	case R_NOT_HOME:
	case R_NOT_OWNED:
	case R_OCCUPIED:
		if (here == PROV_NONE)
			break;
		if (why == R_OCCUPIED) {
			buf_puts(out, "there is already a unit in ");
			put_the(m, here, out);
			return;
		}
		put_the(m, here, out);
		buf_puts(out, why == R_NOT_HOME ? " is not one of your home centres" :
		    " is one of your home centres, but you do not own it now");
		return;
	case R_BAD_TERRAIN:
		if (here == PROV_NONE)
			break;
		if (o->kind == ORDER_LAND) {	/* the army on board, not its fleet */
			put_unit_in(m, UNIT_ARMY, here, out);
			buf_puts(out, " cannot land there: an army lands only on a coast");
			return;
		}
		buf_printf(out, "%s cannot stand in ", type == UNIT_FLEET ? "a fleet" : "an army");
		put_the(m, here, out);
		return;
	case R_NO_BUILDS:
		buf_puts(out, "you have no builds left");
		return;
	case R_NO_REMOVALS:
		buf_puts(out, "you have no units to remove");
		return;
	case R_NOT_ELIMINATED:
		if (o->kind == ORDER_REVIVE) {
			buf_puts(out, "your country is still in the game; only a country that has lost "
			    "every centre and unit is revived");
			return;
		}
		if (o->target_power >= m->npowers)
			break;
		buf_printf(out, "%s is still in the game: insurrections are for a power that has lost "
		    "every centre", m->powers[o->target_power].name);
		return;
	default:
		break;
	}
	buf_puts(out, reason_text(why));
}

/* --------------------------------------------------------------- units -- */

/* "army in Munich", or n of them: "2 armies in Munich" (a Realpolitik
 * stack). */
static void
put_unit_words(const struct map *m, const struct unit *u, int n, struct buf *out)
{
	if (n > 1)
		buf_printf(out, "%d %s in ", n, u->type == UNIT_ARMY ? "armies" :
		    u->type == UNIT_FLEET ? "fleets" : "armies on board the fleet");
	else
		buf_printf(out, "%s in ", u->type == UNIT_ARMY ? "army" : u->type == UNIT_FLEET ?
		    "fleet" : u->type & UNIT_ABOARD ? "army on board the fleet" : "unit");
	put_the(m, m->locs[u->loc].prov, out);
	if (m->locs[u->loc].coast_name)
		buf_printf(out, " (%s)", m->locs[u->loc].coast_name);
}

/* How many of the n units at u are like u[i] (power, type, place): 0 when
 * one before it is, so that a stack is named once, at its first unit. */
static int
stack_at(const struct unit *u, size_t stride, int n, int i)
{
	const struct unit *a = (const struct unit *)((const char *)u + stride * (size_t)i);
	int k, same = 0;

	for (k = 0; k < n; k++) {
		const struct unit *b = (const struct unit *)((const char *)u + stride * (size_t)k);
		if (b->power != a->power || b->type != a->type || b->loc != a->loc)
			continue;
		if (k < i)
			return 0;
		same++;
	}
	return same;
}

int
report_power_units(const struct map *m, const struct board *b, power_id p, struct buf *out)
{
	int i, k = 0, n;

	for (i = 0; i < b->nunits; i++) {
		if (b->units[i].power != p ||
		    (n = stack_at(b->units, sizeof b->units[0], b->nunits, i)) == 0)
			continue;
		buf_puts(out, k ? ", " : "");
		put_unit_words(m, &b->units[i], n, out);
		k += n;
	}
	for (i = 0; i < b->ndislodged; i++) {
		if (b->dislodged[i].unit.power != p ||
		    (n = stack_at(&b->dislodged[0].unit, sizeof b->dislodged[0], b->ndislodged, i)) == 0)
			continue;
		buf_puts(out, k ? ", " : "");
		put_unit_words(m, &b->dislodged[i].unit, n, out);
		buf_puts(out, " (dislodged)");
		k += n;
	}
	return k;
}

void
report_units(const struct map *m, const struct board *b, struct buf *out)
{
	struct board s = *b;
	int p;

	board_sort(&s);
	buf_puts(out, "\nUnits now:\n");
	for (p = 0; p < m->npowers; p++) {
		size_t mark = out->len;
		buf_printf(out, "%s: ", m->powers[p].name);
		if (report_power_units(m, &s, (power_id)p, out) == 0)
			buf_truncate(out, mark);
		else
			buf_puts(out, ".\n");
	}
}

/* ----------------------------------------------------------- reasons -- */

/* "the French army in Marseilles", unit u of b, the dislodged unit u of a
 * retreat phase (an army on board is an army). */
static void
put_other(const struct map *m, const struct board *b, int u, struct buf *out)
{
	const struct unit *un = b->phase == PHASE_RETREAT ? &b->dislodged[u].unit : &b->units[u];
	uint8_t t = (uint8_t)(un->type & ~UNIT_ABOARD);

	buf_printf(out, "the %s %s in ", m->powers[un->power].adjective,
	    t == UNIT_ARMY ? "army" : t == UNIT_FLEET ? "fleet" : "unit");
	put_the(m, m->locs[un->loc].prov, out);
	if (m->locs[un->loc].coast_name && !(un->type & UNIT_ABOARD))
		buf_printf(out, " (%s)", m->locs[un->loc].coast_name);
}

/* The order unit u of b carried out, or NULL (it held, or had none). */
static const struct order *
order_of(const struct order *orders, const struct phase_result *res, int u)
{
	return u >= 0 && u < res->nunits && res->unit_order[u] >= 0 ? &orders[res->unit_order[u]] :
								     NULL;
}

/* "the French army in Marseilles also moved to Burgundy: equal strength, 1
 * against 1", "... also moved to Burgundy and was stronger, 2 against 1" */
static void
put_bounce(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct unit_why *y, struct buf *out)
{
	const struct order *oo = order_of(orders, res, y->other);

	buf_puts(out, "bounced: ");
	if (y->other < 0) {
		buf_puts(out, "the province held");
	} else {
		put_other(m, b, y->other, out);
		if (y->how == HOW_HEAD)
			buf_puts(out, " moved the other way, head to head");
		else if (y->how == HOW_PREVENT && oo != NULL && oo->kind == ORDER_MOVE) {
			buf_puts(out, " also moved to ");
			put_the(m, prov_of(m, oo->dest), out);
		} else if (y->how == HOW_PREVENT)
			buf_puts(out, " also moved there");
		else
			buf_puts(out, oo != NULL && oo->kind == ORDER_MOVE ? " could not leave" :
										" stayed there");
	}
	/* Who won, and by how much: the stronger side's strength first. */
	if (y->theirs > y->mine)
		buf_printf(out, " and was stronger, %d against %d", y->theirs, y->mine);
	else if (y->theirs == y->mine)
		buf_printf(out, ": equal strength, %d against %d", y->mine, y->theirs);
	else
		buf_printf(out, ", %d against %d", y->mine, y->theirs);
	if (y->other2 >= 0 && y->other >= 0) {
		buf_puts(out, "; the support of ");
		put_other(m, b, y->other2, out);
		buf_printf(out, " does not count against a unit of its own power");
	}
}

/* "the French army in Paris was ordered to Picardy, not to Burgundy" */
static void
put_void(const struct map *m, const struct board *b, const struct order *o,
    const struct order *orders, const struct phase_result *res, const struct unit_why *y,
    struct buf *out)
{
	const struct order *to = order_of(orders, res, y->other);
	bool moving = to != NULL && (to->kind == ORDER_MOVE);

	buf_printf(out, "%s void: ", o->kind == ORDER_CONVOY ? "convoy" : "support");
	if (y->other < 0) {
		buf_puts(out, "there is no unit in ");
		put_the(m, prov_of(m, o->target), out);
		return;
	}
	put_other(m, b, y->other, out);
	if (o->kind == ORDER_CONVOY) {
		buf_puts(out, moving ? " did not go by sea to " : " was not ordered to move to ");
		put_the(m, prov_of(m, o->dest), out);
	} else if (o->dest == LOC_NONE) {
		if (moving) {
			buf_puts(out, " was ordered to move to ");
			put_the(m, prov_of(m, to->dest), out);
			buf_puts(out, ", not to hold");
		} else {
			buf_puts(out, " was not ordered to do that");
		}
	} else if (moving && prov_of(m, to->dest) != prov_of(m, o->dest)) {
		buf_puts(out, " was ordered to ");
		put_the(m, prov_of(m, to->dest), out);
		buf_puts(out, ", not to ");
		put_the(m, prov_of(m, o->dest), out);
	} else if (moving) {
		buf_puts(out, " was ordered to another coast");
	} else {
		buf_puts(out, " was not ordered to move to ");
		put_the(m, prov_of(m, o->dest), out);
	}
}

/* Why a move into a province its own unit u stays in failed. */
static void
put_stack(const struct map *m, const struct board *b, int mover, const struct unit_why *y,
    struct buf *out)
{
	uint8_t a = (uint8_t)(b->units[mover].type & ~UNIT_ABOARD);
	uint8_t t = y->other >= 0 ? (uint8_t)(b->units[y->other].type & ~UNIT_ABOARD) : a;

	buf_puts(out, "failed: ");
	if (y->other >= 0) {
		put_other(m, b, y->other, out);
		buf_puts(out, " stays there, and ");
	}
	if (a != t)
		buf_puts(out, "an army and a fleet do not share a province");
	else if (a == UNIT_ARMY)
		buf_puts(out, "armies share a province only in their own capital");
	else
		buf_puts(out, "fleets share a province only in their own naval base");
}

/* The failure part of unit u's reason (before any dislodgement). */
static bool
put_failure(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct unit_why *y, int u, struct buf *out)
{
	const struct order *o = order_of(orders, res, u);

	switch (y->why) {
	case WHY_BOUNCED:
		put_bounce(m, b, orders, res, y, out);
		return true;
	case WHY_OWN_UNIT:
		buf_puts(out, "failed: ");
		if (y->other >= 0) {
			const struct order *oo = order_of(orders, res, y->other);
			put_other(m, b, y->other, out);
			buf_puts(out, y->how == HOW_HEAD ? " moved the other way, head to head" :
			    oo != NULL && oo->kind == ORDER_MOVE ? " could not leave" : " stayed there");
			buf_puts(out, ", and ");
		}
		buf_puts(out, "a power does not dislodge its own unit");
		return true;
	case WHY_CUT:
		buf_puts(out, "support cut: ");
		if (y->other < 0) {
			buf_puts(out, "the supporting unit was attacked");
			return true;
		}
		buf_puts(out, y->how ? "dislodged by " : "attacked by ");
		put_other(m, b, y->other, out);
		return true;
	case WHY_VOID:
		if (o == NULL)
			return false;
		put_void(m, b, o, orders, res, y, out);
		return true;
	case WHY_CONVOY_BROKEN:
		buf_puts(out, "no convoy: ");
		put_other(m, b, y->other, out);
		buf_puts(out, " was dislodged");
		if (y->other2 >= 0) {
			buf_puts(out, " by ");
			put_other(m, b, y->other2, out);
		}
		return true;
	case WHY_NO_ROUTE:
		buf_puts(out, "no convoy: no fleets were ordered to carry it all the way");
		return true;
	case WHY_PARADOX:
		buf_puts(out, o != NULL && o->kind == ORDER_CONVOY ?
		    "convoy paradox: the convoy is set aside (Szykman rule)" :
		    "convoy paradox: its convoy is set aside (Szykman rule), so it stays");
		return true;
	case WHY_STACK:
		put_stack(m, b, u, y, out);
		return true;
	case WHY_MOVED:
		buf_printf(out, "moved: %d against %d, ", y->mine, y->theirs);
		put_other(m, b, y->other, out);
		if (y->how == HOW_HEAD) {
			buf_puts(out, " moving the other way");
		} else if (y->how == HOW_PREVENT) {
			buf_puts(out, " also moving there");
		} else {
			const struct order *oo = order_of(orders, res, y->other);
			buf_puts(out, oo != NULL && oo->kind == ORDER_MOVE ? " not getting away" :
									   " staying there");
		}
		return true;
	case WHY_FLEET_STAYED:
	case WHY_FLEET_STILL:
	case WHY_FLEET_LEFT:
	case WHY_FLEET_MISSED:
	case WHY_FLEET_LOST:
		buf_puts(out, y->why == WHY_FLEET_STAYED || y->why == WHY_FLEET_STILL ?
		    "did not land: " : y->why == WHY_FLEET_LOST ? "lost: " : "did not board: ");
		if (y->other < 0) {
			buf_puts(out, "no fleet");
			return true;
		}
		put_other(m, b, y->other, out);
		buf_puts(out, y->why == WHY_FLEET_STAYED ? " did not get away, so the army stays on board" :
		    y->why == WHY_FLEET_STILL ? " was not ordered to move, so the army stays on board" :
		    y->why == WHY_FLEET_LEFT ? " moved away" :
		    y->why == WHY_FLEET_MISSED ? " did not arrive" :
						 " it was on was dislodged");
		return true;
	default:
		return false;
	}
}

/* Why dislodged unit d of retreat phase b was destroyed: "destroyed: the
 * Russian fleet in Sevastopol also retreated to Armenia". */
static bool
put_retreat_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct unit_why *y, int d, struct buf *out)
{
	const struct order *o = order_of(orders, res, d);

	switch (y->why) {
	case WHY_RETREAT_CLASH:
		if (o == NULL || y->other < 0)
			return false;
		buf_puts(out, "destroyed: ");
		put_other(m, b, y->other, out);
		if (y->other2 >= 0) {
			buf_puts(out, " and ");
			put_other(m, b, y->other2, out);
		}
		buf_puts(out, " also retreated to ");
		put_the(m, prov_of(m, o->dest), out);
		return true;
	case WHY_NO_RETREAT:
		buf_puts(out, y->how ? "destroyed: the retreat ordered for it could not be carried out" :
				       "destroyed: no retreat was ordered for it");
		return true;
	default:
		return false;
	}
}

bool
report_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, const struct phase_why *why, int u, struct buf *out)
{
	const struct unit_why *y;
	bool said;
	int k;

	if (why == NULL || u < 0 || u >= why->nunits)
		return false;
	y = &why->u[u];
	if (b->phase == PHASE_RETREAT)
		return put_retreat_why(m, b, orders, res, y, u, out);
	if (y->why == WHY_MOVED && !why->successes)
		return false;	/* a move that won: only in the full account */
	if (y->why == WHY_CUT && y->how && y->by >= 0) {
		/* cut by the dislodgement the rest of the line gives */
		buf_puts(out, "support cut: ");
		said = false;
	} else {
		said = put_failure(m, b, orders, res, y, u, out);
	}
	if (y->by < 0 || (y->why == WHY_FLEET_LOST && said))
		return said;
	buf_puts(out, said ? "; dislodged by " : "dislodged by ");
	put_other(m, b, y->by, out);
	for (k = 0; k < y->nsup; k++) {
		buf_puts(out, k == 0 ? ", supported by " : k == y->nsup - 1 ? " and " : ", ");
		if (k == 0 || b->units[y->sup[k]].power != b->units[y->sup[k - 1]].power)
			put_other(m, b, y->sup[k], out);
		else
			put_unit_in(m, (uint8_t)(b->units[y->sup[k]].type & ~UNIT_ABOARD),
			    m->locs[b->units[y->sup[k]].loc].prov, out);
	}
	buf_printf(out, ", %d against %d", y->by_attack, y->by_defence);
	return true;
}

/* ------------------------------------------------ adjustment reasons -- */

/* How many orders of power p were carried out in adjustment phase res of
 * the kind of removals (remove) or builds and waivers. */
static int
adjust_done(const struct order *orders, const struct phase_result *res, power_id p, bool remove)
{
	int i, n = 0;

	for (i = 0; i < res->norders; i++)
		if (orders[i].power == p && res->reason[i] == R_OK &&
		    (orders[i].kind == ORDER_REMOVE || orders[i].kind == ORDER_DISBAND) == remove)
			n++;
	return n;
}

/* "1 build", "2 removals" */
static void
put_count(int n, const char *what, struct buf *out)
{
	buf_printf(out, "%d %s%s", n, what, n == 1 ? "" : "s");
}

/* Why adjustment order i of phase b (resolved into res) failed, on a line
 * of its own four spaces in: "    failed: Munich is not one of France's
 * home centres." */
static void
adjust_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, int i, struct buf *out)
{
	const struct order *o = &orders[i];
	power_id p = o->power;
	prov_id q = prov_of(m, o->loc);
	enum reason r = (enum reason)res->reason[i];
	int due = adj_builds_due(m, b, p);

	buf_puts(out, "    failed: ");
	switch (r) {
	case R_NOT_HOME:
		if (q == PROV_NONE)
			goto plain;
		put_the(m, q, out);
		if (m->provs[q].capital != POWER_NONE || m->provs[q].naval_base != POWER_NONE ||
		    m->provs[q].home == POWER_NONE)
			buf_printf(out, " is not a place where %s raises %s", m->powers[p].name,
			    o->type == UNIT_FLEET ? "fleets" : o->type == UNIT_ARMY ? "armies" : "units");
		else
			buf_printf(out, " is not one of %s's home centres", m->powers[p].name);
		break;
	case R_NOT_OWNED:
		if (q == PROV_NONE)
			goto plain;
		put_the(m, q, out);
		if (b->owner[q] != p && b->owner[q] != POWER_NONE)
			buf_printf(out, " is held by %s now", m->powers[b->owner[q]].name);
		else if (b->owner[q] != p)
			buf_printf(out, " is not held by %s now", m->powers[p].name);
		else
			buf_printf(out, " is %s's, but it does not hold its home centre now",
			    m->powers[p].name);
		break;
	case R_OCCUPIED:
		if (q == PROV_NONE)
			goto plain;
		buf_puts(out, "there is a unit in ");
		put_the(m, q, out);
		buf_puts(out, " already");
		break;
	case R_BAD_TERRAIN:
		if (q == PROV_NONE || (o->type != UNIT_ARMY && o->type != UNIT_FLEET))
			goto plain;
		buf_printf(out, "%s cannot stand in ", article(o->type));
		put_the(m, q, out);
		break;
	case R_NO_BUILDS:
		buf_printf(out, "%s ", m->powers[p].name);
		if (due <= 0) {
			buf_puts(out, "had no builds due");
			break;
		}
		buf_puts(out, "had ");
		put_count(due, "build", out);
		buf_puts(out, due == 1 ? ", and another order used it" : ", and other orders used them");
		break;
	case R_NO_REMOVALS:
		buf_printf(out, "%s ", m->powers[p].name);
		if (due >= 0) {
			buf_puts(out, "had no removals due");
			break;
		}
		buf_puts(out, "had ");
		put_count(-due, "removal", out);
		buf_puts(out, due == -1 ? " due, and another order made it" :
					  " due, and other orders made them");
		break;
	case R_NO_UNIT:
		if (q == PROV_NONE || o->kind == ORDER_BUILD || o->kind == ORDER_WAIVE)
			goto plain;
		buf_puts(out, "there is no unit in ");
		put_the(m, q, out);
		break;
	case R_FOREIGN_UNIT:
		if (q == PROV_NONE || unit_in(m, b, q) == NULL)
			goto plain;
		buf_puts(out, "the unit in ");
		put_the(m, q, out);
		buf_printf(out, " is %s", m->powers[unit_in(m, b, q)->power].adjective);
		break;
	default:
	plain:
		buf_puts(out, reason_text(r));
		break;
	}
	buf_puts(out, ".\n");
}

/* Why power p's units were removed by the civil-disorder rule, on a line
 * of its own four spaces in: "    removed: France ordered 0 of the 1
 * removals due, so the rules chose this unit." */
static void
removed_why(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, power_id p, struct buf *out)
{
	int due = -adj_builds_due(m, b, p);

	buf_printf(out, "    removed: %s ordered %d of the ", m->powers[p].name,
	    adjust_done(orders, res, p, true));
	put_count(due, "removal", out);
	buf_puts(out, " due, so the rules chose this unit.\n");
}
