/*
 * realpolitik.c — Calhamer's Realpolitik (1958) as a rule system, the
 * rules and every choice in judge/systems/REALPOLITIK.md. Movement is the
 * engine's (judge/engine/realpolitik_rules.c, behind the variant's option); this
 * module carries out what a turn adds to it:
 *
 * - occupation on the even move: when the Fall move and its retreats are
 *   over, a centre becomes the power's whose unit stood there when the move
 *   began and still stands there (rp_occupy), instead of the standard
 *   "whoever is there at the end of the Fall";
 * - supply each Winter: builds only where rp_can_build allows (armies in
 *   the capitals, fleets in the naval bases, stacks allowed), checked when
 *   the order is given (check_order) and settled, by the engine
 *   (adj_resolve_supply) with the capitals where they stand now;
 * - capitals: a lost capital moves to the centre its power named (CAPITAL)
 *   or by default (rp_capital_default), and back when it is retaken;
 * - RELINQUISH: a power gives up a centre when the phase is processed;
 * - the end: the sole remaining power wins; the game master's END
 *   adjourns the game, won by a power with 13 of the 34 possible units,
 *   else shared by every power still in it.
 *
 * Its state (struct rp, g->state) is kept in the game file's rp-* lines
 * and with each phase's history record.
 */
#include "realpolitik.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../engine/realpolitik_rules.h"
#include "../engine/report.h"
#include "../system_words.h"
#include "standard.h"

struct rp {
	/* Per capital of the variant: where it stands now (the capital
	 * itself while its power holds it, the centre it moved to, or
	 * PROV_NONE); PROV_NONE for any other province. */
	prov_id seat[MAP_MAX_PROVS];
	prov_id choice[MAP_MAX_POWERS];	/* CAPITAL named before a loss, or PROV_NONE */
	power_id give_up[MAP_MAX_PROVS];	/* RELINQUISH: who gives the centre up, or POWER_NONE */
	power_id held[MAP_MAX_PROVS];	/* who stood in each centre when the Fall move began */
	bool fall;			/* held[] waits for the Fall's retreats */
};

static struct rp *
state(const struct game *g)
{
	return g->state;
}

static void *
rp_new(struct game *g)
{
	const struct map *m = g->map;
	struct rp *s = xcalloc(1, sizeof *s);
	int q;

	for (q = 0; q < MAP_MAX_PROVS; q++) {
		s->seat[q] = q < m->nprovs && m->provs[q].capital != POWER_NONE ? (prov_id)q : PROV_NONE;
		s->give_up[q] = POWER_NONE;
		s->held[q] = POWER_NONE;
	}
	for (q = 0; q < MAP_MAX_POWERS; q++)
		s->choice[q] = PROV_NONE;
	return s;
}

static void
rp_free(void *p)
{
	free(p);
}

prov_id
rp_capital_now(const struct game *g, prov_id c)
{
	return state(g)->seat[c];
}

/* ------------------------------------------------------------ capitals -- */

/* seat[q]: the power whose capital province q is now (for rp_can_build and
 * rp_capital_default). */
static void
army_seats(const struct game *g, power_id *seat)
{
	const struct map *m = g->map;
	const struct rp *s = state(g);
	int q;

	for (q = 0; q < m->nprovs; q++)
		seat[q] = POWER_NONE;
	for (q = 0; q < m->nprovs; q++)
		if (m->provs[q].capital != POWER_NONE && s->seat[q] != PROV_NONE)
			seat[s->seat[q]] = m->provs[q].capital;
}

/* May power p make centre q its capital on b (a home centre it holds, not
 * a capital now)? */
static bool
capital_fits(const struct game *g, const struct board *b, power_id p, prov_id q)
{
	power_id seat[MAP_MAX_PROVS];

	if (q == PROV_NONE || !g->map->provs[q].supply || g->map->provs[q].home != p ||
	    b->owner[q] != p)
		return false;
	army_seats(g, seat);
	return seat[q] != p;
}

/* "Paris and Lyon": the provinces whose seat is p, joined; how many. */
static int
put_seats(const struct map *m, const power_id *seat, power_id p, struct buf *out)
{
	int q, n = 0, k = 0;

	for (q = 0; q < m->nprovs; q++)
		n += seat[q] == p;
	for (q = 0; q < m->nprovs; q++)
		if (seat[q] == p)
			buf_printf(out, "%s%s", k++ == 0 ? "" : k == n ? " and " : ", ", m->provs[q].name);
	return n;
}

/* Capital c of power p is lost on b: move it to the centre p chose, else
 * by default. Says what happened into out. */
static void
capital_lost(struct game *g, const struct board *b, prov_id c, struct buf *out)
{
	const struct map *m = g->map;
	struct rp *s = state(g);
	power_id p = m->provs[c].capital, seat[MAP_MAX_PROVS];
	prov_id to = s->choice[p];
	bool chosen = true;

	army_seats(g, seat);
	if (s->seat[c] != PROV_NONE)
		seat[s->seat[c]] = POWER_NONE;
	if (to == PROV_NONE || to == c || m->provs[to].home != p || b->owner[to] != p ||
	    seat[to] == p) {
		to = rp_capital_default(m, b, seat, p, c);
		chosen = false;
	}
	if (to == s->seat[c])
		return;
	s->seat[c] = to;
	if (chosen)
		s->choice[p] = PROV_NONE;
	if (to == PROV_NONE)
		buf_printf(out, "%s has lost %s and holds no other centre of its own to move its "
		    "capital to.\n", m->powers[p].name, m->provs[c].name);
	else
		buf_printf(out, "%s has lost %s: its capital moves to %s (%s).\n", m->powers[p].name,
		    m->provs[c].name, m->provs[to].name, chosen ? "as it chose" :
		    "by default: the first of its home centres it holds that is no capital");
}

/* Move each capital on b: back to one retaken, away from one lost (or
 * from the centre it had moved to, lost too). What moved into out. */
static void
capitals_update(struct game *g, const struct board *b, struct buf *out)
{
	const struct map *m = g->map;
	struct rp *s = state(g);
	int c;

	for (c = 0; c < m->nprovs; c++) {
		power_id p = m->provs[c].capital;
		prov_id now = s->seat[c];
		if (p == POWER_NONE)
			continue;
		if (b->owner[c] == p) {
			if (now != c)
				buf_printf(out, "%s has retaken %s: its capital moves back there.\n",
				    m->powers[p].name, m->provs[c].name);
			s->seat[c] = (prov_id)c;
		} else if (now == PROV_NONE || now == c || b->owner[now] != p) {
			capital_lost(g, b, (prov_id)c, out);
		}
	}
}

/* ---------------------------------------------------------- occupation -- */

/* Who stands in each centre as the Fall move begins on b. */
static void
remember_fall(struct rp *s, const struct map *m, const struct board *b)
{
	int q;

	for (q = 0; q < m->nprovs; q++)
		s->held[q] = m->provs[q].supply ? rp_standing(m, b, (prov_id)q) : POWER_NONE;
	s->fall = true;
}

/* The Fall move's start as rp_occupy reads it: one unit for each centre
 * someone stood in (like gives the rest of the board). */
static void
fall_start(const struct rp *s, const struct map *m, const struct board *like, struct board *b)
{
	int q;

	*b = *like;
	b->nunits = 0;
	for (q = 0; q < m->nprovs; q++)
		if (s->held[q] != POWER_NONE)
			board_add_unit(b, UNIT_ARMY, s->held[q], m->provs[q].loc);
}

/* How many provinces power p may raise a unit in on b now (armies and
 * fleets). */
static int
build_sites(const struct game *g, const struct board *b, power_id p)
{
	power_id seat[MAP_MAX_PROVS];

	army_seats(g, seat);
	return realpolitik_resolver.build_sites(g->map, b, seat, p);
}

/* How many units power p may raise on b: all its builds due when it has a
 * capital or naval base to raise them in (a stack takes any number), else
 * none. */
static int
raisable(const struct game *g, const struct board *b, power_id p)
{
	int due = adj_builds_due(g->map, b, p);

	return due > 0 && build_sites(g, b, p) > 0 ? due : 0;
}

/* The first place power p may raise a unit of type t in on g's board, as
 * a build order names it ("A ber", a naval base "F stp/nc"), into
 * example; when fresh, only a place p has no order for yet. Returns false
 * when there is none. */
static bool
example_site(const struct game *g, power_id p, enum unit_type t, bool fresh, char *example,
    size_t size)
{
	const struct map *m = g->map;
	power_id seat[MAP_MAX_PROVS];
	int q;

	army_seats(g, seat);
	for (q = 0; q < m->nprovs; q++) {
		const struct province *pr = &m->provs[q];
		loc_id l = t == UNIT_ARMY ? pr->loc : map_default_loc(m, (prov_id)q, UNIT_FLEET);
		if (realpolitik_resolver.can_build(m, &g->board, seat, p, t, (prov_id)q) != R_OK ||
		    (fresh && game_ordered_in(g, p, (prov_id)q)))
			continue;
		if (l == LOC_NONE && pr->ncoasts > 0)
			l = pr->coast[0];
		if (l == LOC_NONE)
			continue;
		snprintf(example, size, "%c %s", unit_letter(t), m->locs[l].name);
		return true;
	}
	return false;
}

/* The judge's count of the units p may raise in g's Winter, with an order
 * of a unit of type t it may give: in a place it has not ordered yet,
 * else onto a stack it is raising; none ("") when it may raise no such
 * unit. */
static int
rp_build_sites_op(const struct game *g, power_id p, enum unit_type t, char *example, size_t size)
{
	if (example != NULL && !example_site(g, p, t, true, example, size) &&
	    !example_site(g, p, t, false, example, size))
		example[0] = '\0';
	return raisable(g, &g->board, p);
}

/* Must the Winter be played on b: a power to remove units, or one to
 * raise some with a place to raise them? */
static bool
adjustments_needed(const struct game *g, const struct board *b)
{
	int p;

	for (p = 0; p < g->map->npowers; p++)
		if (adj_builds_due(g->map, b, (power_id)p) < 0 || raisable(g, b, (power_id)p) > 0)
			return true;
	return false;
}

/* t->next from the phase's result: the engine's next phase, but when the
 * Fall is over, centres change hands by occupation. Returns true then. */
static bool
next_phase(struct turn *t, struct rp *s)
{
	const struct map *m = t->g->map;
	struct board *n = &t->next, *start;
	power_id owner[MAP_MAX_PROVS];

	if (t->before->season == SEASON_FALL && t->before->phase == PHASE_MOVEMENT)
		remember_fall(s, m, t->before);
	memcpy(owner, n->owner, sizeof owner);
	phase_next(m, &t->g->rules, n);
	if (t->before->season != SEASON_FALL || n->season == SEASON_FALL)
		return false;
	memcpy(n->owner, owner, sizeof owner);
	start = xmalloc(sizeof *start);
	fall_start(s, m, t->before, start);
	rp_occupy(m, start, n);
	free(start);
	s->fall = false;
	return true;
}

/* After the Fall: the Winter when it must be played, else the next Spring. */
static void
after_fall(const struct game *g, const struct board *before, struct board *n)
{
	bool winter = adjustments_needed(g, n);

	n->year = before->year + (winter ? 0 : 1);
	n->season = winter ? SEASON_WINTER : SEASON_SPRING;
	n->phase = winter ? PHASE_ADJUSTMENT : PHASE_MOVEMENT;
}

/* Centres given up with RELINQUISH leave their power on b. What happened
 * into out. */
static void
relinquish(struct game *g, struct board *b, struct buf *out)
{
	const struct map *m = g->map;
	struct rp *s = state(g);
	int q;

	for (q = 0; q < m->nprovs; q++) {
		power_id p = s->give_up[q];
		if (p == POWER_NONE)
			continue;
		s->give_up[q] = POWER_NONE;
		if (b->owner[q] != p) {
			buf_printf(out, "%s no longer holds %s: it has nothing to relinquish there.\n",
			    m->powers[p].name, m->provs[q].name);
			continue;
		}
		b->owner[q] = POWER_NONE;
		buf_printf(out, "%s relinquishes %s: the centre belongs to no power now.\n",
		    m->powers[p].name, m->provs[q].name);
	}
}

/* ----------------------------------------------------------------- supply -- */

/* The phase b of g resolved by the engine with the orders, the capitals
 * where they stand now, into res: the movement with Realpolitik's
 * resolver (an army stacks in a capital moved to, not in one lost), the
 * Winter by its supply rules. */
static void
rp_resolve(const struct game *g, const struct board *b, const struct order *orders,
    int norders, struct phase_result *res, struct phase_why *why)
{
	power_id seat[MAP_MAX_PROVS];

	army_seats(g, seat);
	if (why != NULL)
		adj_resolve_why(g->map, &g->rules, b, seat, orders, norders, res, why);
	else
		adj_resolve_at(g->map, &g->rules, b, seat, orders, norders, res, NULL);
}

/* Why power p may not raise the unit of build order o now (R_OK when it
 * may): the order settled alone. */
static enum reason
build_check(const struct game *g, power_id p, const struct order *o)
{
	struct phase_result *res = xmalloc(sizeof *res);
	struct order own = *o;
	enum reason why;

	own.power = p;
	rp_resolve(g, &g->board, &own, 1, res, NULL);
	why = (enum reason)res->reason[0];
	free(res);
	return why;
}

/* Why build order o of p is refused (why, not R_OK), in plain words. */
static void
refuse_build(const struct game *g, power_id p, const struct order *o, enum reason why,
    struct buf *out)
{
	const struct map *m = g->map;
	const char *place = m->provs[m->locs[o->loc].prov].name, *name = m->powers[p].name;
	power_id seat[MAP_MAX_PROVS];
	bool army = o->type == UNIT_ARMY;
	int q;

	if (why == R_NOT_HOME) {
		if (army)
			army_seats(g, seat);
		else
			for (q = 0; q < m->nprovs; q++)
				seat[q] = m->provs[q].naval_base;
		if (army && m->provs[m->locs[o->loc].prov].capital == p)
			buf_printf(out, "%s lost its capital %s: armies are raised in ", name, place);
		else
			buf_printf(out, "%s is not a %s of %s: %s are raised in ", place,
			    army ? "capital" : "naval base", name, army ? "armies" : "fleets");
		if (put_seats(m, seat, p, out) == 0)
			buf_puts(out, "none now");
	} else if (why == R_NOT_OWNED && !rp_owns_home(m, &g->board, p)) {
		buf_printf(out, "%s holds none of its home centres: it raises nothing until it "
		    "retakes one", name);
	} else if (why == R_NOT_OWNED) {
		buf_printf(out, "%s does not hold %s: nothing is raised there until it is retaken",
		    name, place);
	} else if (why == R_OCCUPIED) {
		buf_printf(out, "a foreign unit stands in %s: nothing is raised there", place);
	} else {
		report_refusal(m, &g->board, o, why, out);
	}
}

/* "Italy has no build due this Winter" for power p with due builds (none
 * or removals), into out. */
static void
no_build_due(const struct map *m, power_id p, int due, struct buf *out)
{
	buf_printf(out, "%s has no build due this Winter", m->powers[p].name);
	if (due < 0)
		buf_printf(out, ": it removes %d unit%s", -due, due == -1 ? "" : "s");
}

/* A movement order checked by the Realpolitik adjudicator, alone on the
 * board: refused when it could not be carried out whatever the others do
 * (a reason from R_NO_UNIT on: no such unit, no fleet to board, no
 * convoys, ...). */
static enum order_check
check_move(const struct game *g, const struct order *o, struct buf *reply)
{
	struct phase_result *res = xmalloc(sizeof *res);
	enum reason why;

	rp_resolve(g, &g->board, o, 1, res, NULL);
	why = (enum reason)res->reason[0];
	free(res);
	if (why < R_NO_UNIT)
		return ORDER_CHECK_TAKEN;
	buf_puts(reply, "  REFUSED: ");
	report_refusal(g->map, &g->board, o, why, reply);
	buf_putc(reply, '\n');
	return ORDER_CHECK_REFUSED;
}

/* An order checked by the Realpolitik rules when it is given: a movement
 * order by its adjudicator, a build by the supply rules (and a build or
 * waiver with none due refused saying so); any other order is the
 * engine's. */
static enum order_check
rp_check_order(const struct game *g, power_id p, const struct order *o, struct buf *reply)
{
	enum reason why;
	int due;

	if (g->board.phase == PHASE_MOVEMENT && g->rules.resolver == &realpolitik_resolver &&
	    o->kind != ORDER_REVIVE && o->kind != ORDER_INSURRECTION)
		return check_move(g, o, reply);
	if (g->board.phase != PHASE_ADJUSTMENT)
		return ORDER_CHECK_ENGINE;
	due = adj_builds_due(g->map, &g->board, p);
	if (o->kind == ORDER_WAIVE && due <= 0) {
		buf_puts(reply, "  REFUSED: ");
		no_build_due(g->map, p, due, reply);
		buf_puts(reply, "; nothing to waive\n");
		return ORDER_CHECK_REFUSED;
	}
	if (o->kind != ORDER_BUILD || o->loc == LOC_NONE)
		return ORDER_CHECK_ENGINE;
	why = build_check(g, p, o);
	if (why == R_OK)
		return ORDER_CHECK_TAKEN;
	buf_puts(reply, "  REFUSED: ");
	if (due <= 0)
		no_build_due(g->map, p, due, reply);
	if (due <= 0 && why != R_NO_BUILDS)
		buf_puts(reply, "; besides, ");
	if (due > 0 || why != R_NO_BUILDS)
		refuse_build(g, p, o, why, reply);
	buf_putc(reply, '\n');
	return ORDER_CHECK_REFUSED;
}

/* What power p must do in the Winter on b, in a few words, into out. */
static const char *
adjustment_words(const struct game *g, const struct board *b, power_id p, char *out,
    size_t size)
{
	int due = adj_builds_due(g->map, b, p);

	if (due < 0)
		snprintf(out, size, "removes %d", -due);
	else if (due == 0)
		snprintf(out, size, "no change");
	else if (raisable(g, b, p) == 0)
		snprintf(out, size, "no capital or naval base to raise a unit in");
	else
		snprintf(out, size, "builds %d", due);
	return out;
}

/* "Adjustments due:" on next (a Winter), as report_next's table with the
 * Realpolitik build sites: the capitals and naval bases. */
static void
report_adjustments(const struct game *g, const struct board *next, struct buf *out)
{
	const struct map *m = g->map;
	char words[96];
	int p, w = 10;

	for (p = 0; p < m->npowers; p++)
		if ((int)strlen(m->powers[p].name) > w)
			w = (int)strlen(m->powers[p].name);
	buf_puts(out, "\nAdjustments due:\n");
	for (p = 0; p < m->npowers; p++) {
		int c = board_count_centres(next, m, (power_id)p), u = board_count_units(next, (power_id)p);
		if (c == 0 && u == 0)
			continue;
		buf_printf(out, "%-*s %2d supply centre%s, %2d unit%s: %s\n", w, m->powers[p].name, c,
		    c == 1 ? "" : "s", u, u == 1 ? "" : "s",
		    adjustment_words(g, next, (power_id)p, words, sizeof words));
	}
}

/* The position t leads to: the units, the centres when the Fall is over,
 * the adjustments due. */
static void
report_position(const struct turn *t)
{
	const struct map *m = t->g->map;

	report_units(m, &t->next, t->report);
	if (t->before->season == SEASON_FALL && t->next.season != SEASON_FALL)
		report_centres(m, &t->next, t->before, t->report);
	if (t->next.phase == PHASE_ADJUSTMENT)
		report_adjustments(t->g, &t->next, t->report);
	else
		report_next(m, &t->g->rules, &t->next, t->report);
}

/* ------------------------------------------------------------------ turn -- */

static void
rp_turn(struct turn *t)
{
	struct rp *s = state(t->g);
	struct buf news;
	bool fall_over;

	t->next = t->res->after;
	fall_over = next_phase(t, s);
	buf_init(&news, 1024);
	relinquish(t->g, &t->next, &news);
	capitals_update(t->g, &t->next, &news);
	if (fall_over)
		after_fall(t->g, t->before, &t->next);
	report_results(t->g->map, t->before, t->orders, t->res, t->why, t->report);
	if (t->before->phase == PHASE_ADJUSTMENT)
		standard_report_unused(t);
	if (news.len > 0)
		buf_printf(t->report, "\n%s", buf_str(&news));
	buf_free(&news);
	report_position(t);
	standard_report_eliminated(t, "");
}

/* The one power with units or centres on b, when no other has any;
 * POWER_NONE otherwise. */
static power_id
sole_power(const struct map *m, const struct board *b)
{
	power_id last = POWER_NONE;
	int p;

	for (p = 0; p < m->npowers; p++) {
		if (board_count_units(b, (power_id)p) + board_count_centres(b, m, (power_id)p) == 0)
			continue;
		if (last != POWER_NONE)
			return POWER_NONE;
		last = (power_id)p;
	}
	return last;
}

static bool
rp_ended(const struct game *g, char *result, size_t size)
{
	power_id p = sole_power(g->map, &g->board);

	if (p == POWER_NONE)
		return false;
	snprintf(result, size, "%s wins: the sole remaining power", g->map->powers[p].name);
	return true;
}

/* --------------------------------------------------------------- commands -- */

/* Refuse unless g is being played. */
static int
check_active(const struct game *g, struct buf *reply)
{
	if (g->status == GAME_ACTIVE || g->status == GAME_PAUSED)
		return 0;
	buf_printf(reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
	return -1;
}

/* "  capitals: Vienna, Budapest; naval base: Trieste" for power p. */
static void
put_headquarters(const struct game *g, power_id p, struct buf *reply)
{
	const struct map *m = g->map;
	power_id seat[MAP_MAX_PROVS];
	int q;

	army_seats(g, seat);
	buf_puts(reply, "  capitals now: ");
	if (put_seats(m, seat, p, reply) == 0)
		buf_puts(reply, "none");
	for (q = 0; q < m->nprovs; q++)
		seat[q] = m->provs[q].naval_base;
	buf_puts(reply, "; naval bases: ");
	put_seats(m, seat, p, reply);
	if (state(g)->choice[p] != PROV_NONE)
		buf_printf(reply, "; a capital lost moves to %s", m->provs[state(g)->choice[p]].name);
	buf_putc(reply, '\n');
}

/* The capital of p lost now (moved away from it), or PROV_NONE. */
static prov_id
lost_capital(const struct game *g, power_id p)
{
	const struct map *m = g->map;
	int c;

	for (c = 0; c < m->nprovs; c++)
		if (m->provs[c].capital == p && state(g)->seat[c] != c)
			return (prov_id)c;
	return PROV_NONE;
}

/* CAPITAL: where p's capitals are; CAPITAL <centre>: a capital lost moves
 * there now, or the next one lost will. */
static enum cmd_result
cmd_capital(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	power_id p = call->power;
	char *args = call->args;
	struct buf *reply = call->reply;
	const struct map *m = g->map;
	struct rp *s = state(g);
	prov_id q, c;

	if (*args == '\0') {
		put_headquarters(g, p, reply);
		return CMD_DONE;
	}
	if (check_active(g, reply) < 0)
		return CMD_REFUSED;
	q = map_find_province(m, args);
	if (!capital_fits(g, &g->board, p, q)) {
		buf_printf(reply, "  REFUSED: CAPITAL <centre>: a home centre of %s that it holds and "
		    "that is not a capital now\n", m->powers[p].name);
		return CMD_REFUSED;
	}
	c = lost_capital(g, p);
	judge_audit(j, g, "%s: CAPITAL %s", m->powers[p].name, m->provs[q].name);
	judge_touch(j, g);
	if (c == PROV_NONE) {
		s->choice[p] = q;
		buf_printf(reply, "  if %s loses a capital, it moves to %s\n", m->powers[p].name,
		    m->provs[q].name);
		return CMD_DONE;
	}
	s->seat[c] = q;
	buf_printf(reply, "  %s lost: the capital of %s is %s now\n", m->provs[c].name,
	    m->powers[p].name, m->provs[q].name);
	return CMD_DONE;
}

/* RELINQUISH: the centres p gives up; RELINQUISH NONE: none after all;
 * RELINQUISH <centre>: give it up when the phase is processed. */
static enum cmd_result
cmd_relinquish(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	power_id p = call->power;
	char *args = call->args;
	struct buf *reply = call->reply;
	const struct map *m = g->map;
	struct rp *s = state(g);
	prov_id q;
	int n = 0;

	if (*args != '\0' && check_active(g, reply) < 0)
		return CMD_REFUSED;
	for (q = 0; q < m->nprovs; q++) {
		if (s->give_up[q] != p)
			continue;
		if (str_eq_nocase(args, "none"))
			s->give_up[q] = POWER_NONE;
		else if (*args == '\0')
			buf_printf(reply, "%s%s", n++ ? ", " : "  to relinquish: ", m->provs[q].name);
	}
	if (str_eq_nocase(args, "none")) {
		buf_puts(reply, "  no centre will be relinquished\n");
		return CMD_DONE;
	}
	if (*args == '\0') {
		buf_puts(reply, n ? "\n" : "  no centre to relinquish\n");
		return CMD_DONE;
	}
	q = map_find_province(m, args);
	if (q == PROV_NONE || !m->provs[q].supply || g->board.owner[q] != p) {
		buf_printf(reply, "  REFUSED: RELINQUISH <centre>: a supply centre %s holds\n",
		    m->powers[p].name);
		return CMD_REFUSED;
	}
	s->give_up[q] = p;
	judge_audit(j, g, "%s: RELINQUISH %s", m->powers[p].name, m->provs[q].name);
	judge_touch(j, g);
	buf_printf(reply, "  %s gives up %s when this phase is processed (RELINQUISH NONE takes it "
	    "back)\n", m->powers[p].name, m->provs[q].name);
	return CMD_DONE;
}

/* "Shared by A, B" into out from at: the powers of b that have units
 * or centres (with at least most units, when most > 0). Returns the
 * length written. */
static size_t
put_sharers(const struct map *m, const struct board *b, int most, char *out, size_t size)
{
	size_t at = (size_t)snprintf(out, size, "Shared by");
	int p, n = 0;

	for (p = 0; p < m->npowers && at < size; p++) {
		int units = board_count_units(b, (power_id)p);
		if (units + board_count_centres(b, m, (power_id)p) == 0 || units < most)
			continue;
		at += (size_t)snprintf(out + at, size - at, "%s %s", n++ ? "," : "", m->powers[p].name);
	}
	return at < size ? at : size - 1;
}

void
rp_adjourned(const struct map *m, const struct board *b, char *out, size_t size)
{
	int p, most = 0, n = 0;
	size_t at;

	for (p = 0; p < m->npowers; p++)
		if (board_count_units(b, (power_id)p) > most)
			most = board_count_units(b, (power_id)p);
	for (p = 0; p < m->npowers; p++)
		n += board_count_units(b, (power_id)p) == most;
	if (most >= RP_ADJOURN_UNITS && n == 1) {
		for (p = 0; board_count_units(b, (power_id)p) != most; p++)
			;
		snprintf(out, size, "%s wins the adjourned game with %d of the %d possible units",
		    m->powers[p].name, most, m->nsupply);
		return;
	}
	at = put_sharers(m, b, most >= RP_ADJOURN_UNITS ? most : 0, out, size);
	if (most >= RP_ADJOURN_UNITS)
		snprintf(out + at, size - at, " (adjourned: each has %d of the %d possible units)",
		    most, m->nsupply);
	else
		snprintf(out + at, size - at, " (adjourned: no power has %d of the %d possible units)",
		    RP_ADJOURN_UNITS, m->nsupply);
}

/* END: the game master adjourns the game; the rules say who wins. */
static enum cmd_result
cmd_end(struct command_call *call)
{
	struct judge *j = call->j;
	struct game *g = call->g;
	char *args = call->args;
	struct buf *reply = call->reply;
	const struct map *m = g->map;
	char result[sizeof g->result], subject[128];
	struct buf text;

	if (check_active(g, reply) < 0)
		return CMD_REFUSED;
	if (*args != '\0') {
		buf_puts(reply, "  REFUSED: END alone: the game is adjourned and the Realpolitik rules "
		    "say who wins\n");
		return CMD_REFUSED;
	}
	rp_adjourned(m, &g->board, result, sizeof result);
	judge_game_over(j, g, result);
	buf_init(&text, 4096);
	buf_printf(&text, "Game %s is adjourned.\n\n%s.\n", g->name, result);
	report_centres(m, &g->board, NULL, &text);
	report_units(m, &g->board, &text);
	snprintf(subject, sizeof subject, "[%s] game over", g->name);
	judge_announce(j, g, subject, buf_text(&text));
	buf_free(&text);
	buf_puts(reply, "  the game is adjourned\n");
	return CMD_DONE;
}

static void
rp_orders_help(const struct game *g, struct buf *out)
{
	(void)g;
	buf_puts(out, "Realpolitik (judge/systems/REALPOLITIK.md): armies stack in their own\n"
	    "capitals, fleets in their own naval bases. Orders to a stack go to its\n"
	    "units in turn; once each has one, a new order replaces the oldest one.\n"
	    "\"A Hol - Bel on board F Bel\", \"A Bel embarks F Nth\", \"A Bel lands\".\n"
	    "A centre is yours when your unit stood in it as the Fall move began\n"
	    "and still stands there after it.\n"
	    "Winter: armies are raised in your capitals, fleets in your naval bases.\n"
	    "CAPITAL shows them; CAPITAL <centre> names where a lost capital goes.\n"
	    "RELINQUISH <centre> gives a centre up when the phase is processed.\n");
}

/* HELP: Realpolitik's orders for a delegation, how END works for the game
 * master (p POWER_NONE). */
static void
rp_help(const struct game *g, power_id p, struct buf *out)
{
	if (p != POWER_NONE) {
		rp_orders_help(g, out);
		return;
	}
	buf_printf(out, "In Realpolitik END alone adjourns the game: a power with %d units and\n"
	    "more than any other wins, else every power still in the game shares it\n"
	    "(judge/systems/REALPOLITIK.md).\n", RP_ADJOURN_UNITS);
}

/* ------------------------------------------------------ the game file -- */

/*
 * rp-capital POWER CAPITAL NOW    a capital moved (NOW: a centre, or none)
 * rp-choice POWER CENTRE          CAPITAL named before a loss
 * rp-relinquish POWER CENTRE      RELINQUISH given this phase
 * rp-held POWER CENTRE            who stood in a centre as the Fall began
 */
static void
put_line(const struct map *m, const char *key, power_id p, prov_id q, prov_id r,
    struct buf *out)
{
	buf_printf(out, "%s %s %s", key, m->powers[p].token, m->provs[q].abbr);
	if (strcmp(key, "rp-capital") == 0)
		buf_printf(out, " %s", r == PROV_NONE ? "none" : m->provs[r].abbr);
	buf_putc(out, '\n');
}

static void
write_state(const struct game *g, struct buf *out)
{
	const struct map *m = g->map;
	const struct rp *s = state(g);
	int q;

	for (q = 0; q < m->nprovs; q++)
		if (m->provs[q].capital != POWER_NONE && s->seat[q] != q)
			put_line(m, "rp-capital", m->provs[q].capital, (prov_id)q, s->seat[q], out);
	for (q = 0; q < m->npowers; q++)
		if (s->choice[q] != PROV_NONE)
			put_line(m, "rp-choice", (power_id)q, s->choice[q], PROV_NONE, out);
	for (q = 0; q < m->nprovs; q++)
		if (s->give_up[q] != POWER_NONE)
			put_line(m, "rp-relinquish", s->give_up[q], (prov_id)q, PROV_NONE, out);
	for (q = 0; s->fall && q < m->nprovs; q++)
		if (s->held[q] != POWER_NONE)
			put_line(m, "rp-held", s->held[q], (prov_id)q, PROV_NONE, out);
}

/* The next word of *v as a province of m, or PROV_NONE. */
static prov_id
scan_prov(const struct map *m, const char **v)
{
	char name[64];

	if (scan_name(v, name, sizeof name) < 0)
		return PROV_NONE;
	return map_find_province(m, name);
}

/* One rp- line (key, the rest in v) into g's state. Returns NULL or what
 * is wrong. */
static const char *
read_state_line(struct game *g, const char *key, const char *v)
{
	const struct map *m = g->map;
	struct rp *s = state(g);
	power_id p = game_scan_power(m, &v);
	prov_id q = scan_prov(m, &v), r;

	if (p == POWER_NONE || q == PROV_NONE)
		return "expected: KEY POWER PROVINCE";
	if (strcmp(key, "rp-capital") == 0) {
		r = scan_literal(&v, "none") == 0 ? PROV_NONE : scan_prov(m, &v);
		if (m->provs[q].capital != p || (r == PROV_NONE && !scan_at_end(&v)) ||
		    (r != PROV_NONE && m->provs[r].home != p))
			return "expected: rp-capital POWER CAPITAL CENTRE|none (a home centre)";
		s->seat[q] = r;
	} else if (strcmp(key, "rp-choice") == 0) {
		if (m->provs[q].home != p)
			return "expected: rp-choice POWER HOME-CENTRE";
		s->choice[p] = q;
	} else if (strcmp(key, "rp-relinquish") == 0) {
		if (!m->provs[q].supply)
			return "expected: rp-relinquish POWER CENTRE";
		s->give_up[q] = p;
	} else {
		if (!m->provs[q].supply)
			return "expected: rp-held POWER CENTRE";
		s->held[q] = p;
		s->fall = true;
	}
	return NULL;
}

static void
write_field(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	write_state(g, out);
}

static const char *
read_field(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return read_state_line(in->g, in->key, v);
}

static const struct game_field rp_fields[] = {
	{ "rp-capital rp-choice rp-relinquish rp-held", GAME_PART_STATE, write_field, read_field,
	  0, 0, 0, 0 },
};

static const struct game_field_table rp_table = { rp_fields, 1 };

/* The state as the phase found it, kept with its history record. */
static void
rp_history_write(const struct game *g, struct buf *out)
{
	write_state(g, out);
}

static void
rp_history_read(struct game *g, const char *text, size_t len)
{
	struct rp *fresh = rp_new(g);
	const char *p = text, *end = text + len, *line;
	char buf[256], *key, *val;
	size_t n;

	*state(g) = *fresh;
	free(fresh);
	while (text && (line = str_next_line(&p, end, &n)) != NULL)
		if (str_split_kv(line, n, buf, sizeof buf, &key, &val) == 1)
			(void)read_state_line(g, key, val);
}

static const struct command_handler rp_commands[] = {
	{ CMD_CAPITAL, SYSTEM_PLAYER, cmd_capital },
	{ CMD_RELINQUISH, SYSTEM_PLAYER, cmd_relinquish },
	{ CMD_END, SYSTEM_GM, cmd_end },
};

static const struct system_words rp_words = {
	.called = "Realpolitik game",
	.rules = "Calhamer's rules",
};

const struct rule_system realpolitik_system = {
	.name = "realpolitik",
	.serves = SYS_OWN_GAME,
	.words = &rp_words,
	.resolve = rp_resolve,
	.capitals = army_seats,
	.turn = rp_turn,
	.ended = rp_ended,
	.fields = &rp_table,
	.state_new = rp_new,
	.state_free = rp_free,
	.history_write = rp_history_write,
	.history_read = rp_history_read,
	.check_order = rp_check_order,
	.build_sites = rp_build_sites_op,
	.raisable = raisable,
	.help = rp_help,
	.commands = rp_commands,
	.ncommands = (int)(sizeof rp_commands / sizeof rp_commands[0]),
};
