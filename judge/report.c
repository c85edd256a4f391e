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

static const char *
type_word(uint8_t t)
{
	return t == UNIT_ARMY ? "Army" : t == UNIT_FLEET ? "Fleet" : "Unit";
}

void
report_order(const struct map *m, const struct order *o, uint8_t unit_type, struct buf *out)
{
	uint8_t t = unit_type ? unit_type : o->type;

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
report_results(const struct map *m, const struct board *b, const struct order *orders,
    const struct phase_result *res, struct buf *out)
{
	struct line lines[BOARD_MAX_UNITS];
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
				report_order(m, &orders[o], un->type, out);
			} else {
				buf_printf(out, "%s ", type_word(un->type));
				put_place(m, un->loc, out);
				buf_puts(out, b->phase == PHASE_MOVEMENT ? " HOLD" : " DISBAND");
			}
			buf_putc(out, '.');
			if (o < 0 && b->phase == PHASE_MOVEMENT)
				buf_printf(out, "  (*no order%s*)", res->unit_dislodged[u] ? ", dislodged" : "");
			else if (o < 0)
				buf_puts(out, "  (*no order*)");
			else
				put_tag((enum reason)res->unit_reason[u],
				    b->phase == PHASE_MOVEMENT && res->unit_dislodged[u] &&
					res->unit_reason[u] != R_DISLODGED ? 1 :
				    res->unit_reason[u] == R_DISLODGED, out);
			buf_putc(out, '\n');
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
			}
		}
		for (i = 0; i < res->nremoved; i++) {
			const struct unit *u = &res->removed[i];
			buf_printf(out, "%s: Removes %s in ", m->powers[u->power].name, article(u->type));
			put_place(m, u->loc, out);
			buf_puts(out, ".  (*civil disorder*)\n");
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
		report_order(m, &orders[i], orders[i].type, out);
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
