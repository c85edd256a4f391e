#include "order.h"

#include <string.h>

static const struct {
	const char *name;
	const char *text;
} reasons[R_MAX] = {
	[R_NONE] = { "none", "not adjudicated" },
	[R_OK] = { "ok", "succeeded" },
	[R_BOUNCED] = { "bounced", "bounced" },
	[R_CUT] = { "cut", "support cut" },
	[R_VOID] = { "void", "void: the other unit did not make that move" },
	[R_NO_CONVOY] = { "no_convoy", "no convoy" },
	[R_PARADOX] = { "paradox", "convoy paradox: the convoy is ignored" },
	[R_DISLODGED] = { "dislodged", "dislodged" },
	[R_NO_UNIT] = { "no_unit", "no such unit" },
	[R_FOREIGN_UNIT] = { "foreign_unit", "not your unit" },
	[R_NOT_ADJACENT] = { "not_adjacent", "cannot reach that province" },
	[R_BAD_COAST] = { "bad_coast", "cannot reach that coast" },
	[R_NEED_COAST] = { "need_coast", "both coasts are possible: say which" },
	[R_SAME_PROVINCE] = { "same_province", "cannot move or support into its own province" },
	[R_CANNOT_SUPPORT] = { "cannot_support", "cannot support there: it could not move there" },
	[R_CANNOT_CONVOY] = { "cannot_convoy", "cannot convoy" },
	[R_WRONG_PHASE] = { "wrong_phase", "not an order for this phase" },
	[R_REPLACED] = { "replaced", "replaced by a later order" },
	[R_RETREAT_OCCUPIED] = { "retreat_occupied", "cannot retreat into an occupied province" },
	[R_RETREAT_ATTACKER] = { "retreat_attacker",
	    "cannot retreat to where the attacker came from" },
	[R_RETREAT_CONTESTED] = { "retreat_contested",
	    "cannot retreat to a province left empty by a standoff" },
	[R_RETREAT_BOUNCED] = { "retreat_bounced", "bounced with another retreat: disbanded" },
	[R_NOT_DISLODGED] = { "not_dislodged", "only dislodged units retreat" },
	[R_NOT_HOME] = { "not_home", "not a home supply centre" },
	[R_NOT_OWNED] = { "not_owned", "home centre not owned" },
	[R_OCCUPIED] = { "occupied", "province occupied" },
	[R_BAD_TERRAIN] = { "bad_terrain", "that unit cannot stand there" },
	[R_NO_BUILDS] = { "no_builds", "no builds available" },
	[R_NO_REMOVALS] = { "no_removals", "no removals due" },
	[R_REMOVED] = { "removed", "removed (civil disorder)" },
	[R_DISBANDED] = { "disbanded", "disbanded" },
	[R_NOT_ELIMINATED] = { "not_eliminated", "that power is still in the game" },
	[R_FEW_CENTRES] = { "few_centres",
	    "a revival order names at least three home centres, most wanted first" },
	[R_ABOARD] = { "aboard", "an army on board a fleet can only land or stay on board" },
	[R_NOT_ABOARD] = { "not_aboard", "the army is not on board a fleet" },
	[R_NO_FLEET] = { "no_fleet", "no fleet of that power there to take the army on board" },
	[R_NO_CONVOYS] = { "no_convoys", "fleets do not convoy in Realpolitik: armies go on board" },
	[R_NAME_COAST] = { "name_coast", "a fleet ordered there must name the coast" },
	[R_HEADQUARTERS] = { "headquarters",
	    "an army and a fleet cannot come together in a capital or naval base" },
};

const char *
reason_text(enum reason r)
{
	return r < R_MAX && reasons[r].text ? reasons[r].text : "?";
}

const char *
reason_name(enum reason r)
{
	return r < R_MAX && reasons[r].name ? reasons[r].name : "?";
}

int
reason_is_illegal(enum reason r)
{
	switch (r) {
	case R_NO_UNIT:
	case R_FOREIGN_UNIT:
	case R_NOT_ADJACENT:
	case R_BAD_COAST:
	case R_NEED_COAST:
	case R_NAME_COAST:
	case R_SAME_PROVINCE:
	case R_CANNOT_SUPPORT:
	case R_CANNOT_CONVOY:
	case R_WRONG_PHASE:
	case R_REPLACED:
	case R_RETREAT_OCCUPIED:
	case R_RETREAT_ATTACKER:
	case R_RETREAT_CONTESTED:
	case R_NOT_DISLODGED:
	case R_NOT_HOME:
	case R_NOT_OWNED:
	case R_OCCUPIED:
	case R_BAD_TERRAIN:
	case R_NO_BUILDS:
	case R_NO_REMOVALS:
	case R_NOT_ELIMINATED:
	case R_FEW_CENTRES:
	case R_ABOARD:
	case R_NOT_ABOARD:
	case R_NO_FLEET:
	case R_NO_CONVOYS:
	case R_HEADQUARTERS:
		return 1;
	default:
		return 0;
	}
}

static void
put_loc(const struct map *m, loc_id l, enum order_style style, struct buf *out)
{
	const struct location *loc = &m->locs[l];

	if (style == ORDER_SHORT) {
		buf_puts(out, loc->name);
		return;
	}
	buf_puts(out, m->provs[loc->prov].name);
	if (loc->coast_name)
		buf_printf(out, " (%s)", loc->coast_name);
}

static void
put_unit(const struct map *m, uint8_t type, power_id power, loc_id l, enum order_style style,
    struct buf *out)
{
	if (power != POWER_NONE)
		buf_printf(out, "%s ", m->powers[power].adjective);
	if (style == ORDER_SHORT) {
		if (type != UNIT_NONE)
			buf_printf(out, "%c ", unit_letter((enum unit_type)type));
	} else {
		buf_puts(out, type == UNIT_ARMY ? "Army " : type == UNIT_FLEET ? "Fleet " : "");
	}
	put_loc(m, l, style, out);
}

void
order_format(const struct map *m, const struct order *o, enum order_style style, struct buf *out)
{
	const char *arrow = style == ORDER_SHORT ? " - " : " -> ";

	switch (o->kind) {
	case ORDER_BUILD:
		buf_puts(out, style == ORDER_SHORT ? "Build " : "Build ");
		put_unit(m, o->type, POWER_NONE, o->loc, style, out);
		return;
	case ORDER_WAIVE:
		buf_puts(out, "Waive");
		return;
	case ORDER_REMOVE:
		buf_puts(out, "Remove ");
		put_unit(m, o->type, POWER_NONE, o->loc, style, out);
		return;
	case ORDER_REVIVE:
		buf_puts(out, "Revive ");
		if (o->loc != LOC_NONE)
			put_loc(m, o->loc, style, out);
		return;
	default:
		break;
	}
	put_unit(m, o->type, POWER_NONE, o->loc, style, out);
	switch (o->kind) {
	case ORDER_HOLD:
		buf_puts(out, style == ORDER_SHORT ? " H" : " Hold");
		break;
	case ORDER_MOVE:
		buf_puts(out, arrow);
		put_loc(m, o->dest, style, out);
		if (o->via_convoy)
			buf_puts(out, " via convoy");
		break;
	case ORDER_RETREAT:
		buf_puts(out, style == ORDER_SHORT ? " R " : " retreats to ");
		put_loc(m, o->dest, style, out);
		break;
	case ORDER_DISBAND:
		buf_puts(out, style == ORDER_SHORT ? " D" : " Disband");
		break;
	case ORDER_SUPPORT:
		buf_puts(out, style == ORDER_SHORT ? " S " : " Supports ");
		put_unit(m, o->target_type, o->target_power, o->target, style, out);
		if (o->dest != LOC_NONE) {
			buf_puts(out, arrow);
			put_loc(m, o->dest, style, out);
		}
		break;
	case ORDER_CONVOY:
		buf_puts(out, style == ORDER_SHORT ? " C " : " Convoys ");
		put_unit(m, o->target_type ? o->target_type : UNIT_ARMY, o->target_power, o->target,
		    style, out);
		buf_puts(out, arrow);
		put_loc(m, o->dest, style, out);
		break;
	case ORDER_INSURRECTION:
		buf_puts(out, arrow);
		if (o->target_power != POWER_NONE)
			buf_puts(out, m->powers[o->target_power].name);
		break;
	case ORDER_EMBARK:
		if (o->dest != LOC_NONE) {
			buf_puts(out, arrow);
			put_loc(m, o->dest, style, out);
		}
		buf_puts(out, style == ORDER_SHORT ? " embarks" : " goes on board");
		if (o->target != LOC_NONE) {
			buf_putc(out, ' ');
			put_unit(m, UNIT_FLEET, o->target_power, o->target, style, out);
		}
		break;
	case ORDER_LAND:
		buf_puts(out, style == ORDER_SHORT ? " lands" : " goes ashore");
		if (o->dest != LOC_NONE && m->locs[o->dest].prov != m->locs[o->loc].prov) {
			buf_puts(out, " in ");
			put_loc(m, o->dest, style, out);
		}
		break;
	default:
		break;
	}
}

void
order_format_prefs(const struct map *m, const struct order_prefs *p, enum order_style style,
    struct buf *out)
{
	int i;

	buf_puts(out, "Revive");
	for (i = 0; i < p->n; i++) {
		buf_puts(out, i == 0 ? " " : ", ");
		put_loc(m, m->provs[p->prov[i]].loc, style, out);
	}
}
