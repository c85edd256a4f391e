/*
 * muna_rules.c — insurrections, victory points and conferences of the MUNA
 * variant. judge/systems/MUNA.md is the rulebook of what is done here; the
 * comments cite the seed's sections (§7 "Losing your country and
 * regaining it", §8 political victory points, §9 organising a conference).
 *
 * How an insurrection is decided (§7), for each eliminated power that
 * units were sent to:
 *
 *	1. A unit that was ordered to the insurrection and dislodged did not
 *	   turn up: the insurrection fails ("one of the promised units fails
 *	   to turn up").
 *	2. Without a valid revival order it fails.
 *	3. Fewer than three units: it fails.
 *	4. The centres are taken in the order of preference. A set of centres
 *	   costs three units, four when it has more than three centres ("four
 *	   units: all five"), and one more unit for each occupied centre in
 *	   it; a centre that would make the set cost more than the units there
 *	   are is passed over and the next one is tried. Nothing taken: it
 *	   fails.
 *	5. Each centre taken: the occupier (if any) is destroyed and the
 *	   centre is the revived power's; one army of it (a fleet where no
 *	   army can stand) stands in the first centre taken, the most wanted.
 *
 * The insurgents leave the board before any of this, so a unit sent from
 * one of the power's own centres frees that centre.
 */
#include "muna_rules.h"

#include <string.h>

#include "../../lib/str.h"
#include "resolver.h"

enum reason
muna_check_revival(const struct map *m, const struct board *b, power_id p,
    const struct order_prefs *prefs)
{
	int i;

	if (b->phase != PHASE_MOVEMENT)
		return R_WRONG_PHASE;
	if (p == POWER_NONE || !board_eliminated(b, m, p))
		return R_NOT_ELIMINATED;
	for (i = 0; i < prefs->n; i++)
		if (!m->provs[prefs->prov[i]].supply || m->provs[prefs->prov[i]].home != p)
			return R_NOT_HOME;
	return prefs->n < MUNA_REVIVAL_CENTRES ? R_FEW_CENTRES : R_OK;
}

void
muna_season_clear(struct muna_season *s)
{
	memset(s, 0, sizeof *s);
}

bool
muna_season_pending(const struct muna_season *s)
{
	int p;

	if (s->n > 0)
		return true;
	for (p = 0; p < MAP_MAX_POWERS; p++)
		if (s->revival[p].n > 0)
			return true;
	return false;
}

void
muna_season_take(const struct map *m, const struct board *b, const struct order *orders,
    int norders, const struct phase_result *res, const struct order_prefs *revival,
    struct muna_season *s)
{
	int u, p;

	muna_season_clear(s);
	for (u = 0; u < res->nunits && u < b->nunits; u++) {
		int o = res->unit_order[u];
		enum reason r = (enum reason)res->unit_reason[u];
		if (o < 0 || o >= norders || orders[o].kind != ORDER_INSURRECTION ||
		    (r != R_OK && r != R_DISLODGED) || s->n >= MUNA_MAX_INSURGENTS)
			continue;
		s->u[s->n].unit = b->units[u];
		s->u[s->n].target = orders[o].target_power;
		s->u[s->n].dislodged = res->unit_dislodged[u] != 0;
		s->n++;
	}
	for (p = 0; p < m->npowers; p++)
		if (revival[p].n > 0 && muna_check_revival(m, b, (power_id)p, &revival[p]) == R_OK)
			s->revival[p] = revival[p];
}

/* Index of the unit u stands for on b, or -1. */
static int
find_unit(const struct map *m, const struct board *b, const struct unit *u)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (b->units[i].power == u->power && b->units[i].type == u->type &&
		    m->locs[b->units[i].loc].prov == m->locs[u->loc].prov)
			return i;
	return -1;
}

/* Step 4 and 5 for target t with n units (the insurgents have left b). */
static void
take_centres(const struct map *m, struct board *b, const struct order_prefs *want, int n,
    struct muna_rising *r)
{
	int i, occupied = 0;

	for (i = 0; i < want->n; i++) {
		prov_id c = want->prov[i];
		bool occ = board_unit_in(b, m, c) >= 0;
		int size = r->nregained + 1;
		int cost = (size > MUNA_REVIVAL_CENTRES ? MUNA_FULL_UNITS : MUNA_REVIVAL_UNITS) +
		    occupied + occ;

		if (cost > n) {
			if (occ)
				r->skipped[r->nskipped++] = c;
			continue;
		}
		occupied += occ;
		r->regained[r->nregained++] = c;
	}
	for (i = 0; i < r->nregained; i++) {
		prov_id c = r->regained[i];
		int k = board_unit_in(b, m, c);
		loc_id l = m->provs[c].loc;

		if (k >= 0) {
			r->destroyed[r->ndestroyed++] = b->units[k];
			board_remove_unit(b, k);
		}
		b->owner[c] = r->target;
		/* §7: "reclaim three of the supply centres ... and build a unit
		 * there": one unit, in the centre most wanted of those taken. */
		if (i > 0)
			continue;
		if (m->locs[l].army_ok)
			board_add_unit(b, UNIT_ARMY, r->target, l);
		else if ((l = map_default_loc(m, c, UNIT_FLEET)) != LOC_NONE)
			board_add_unit(b, UNIT_FLEET, r->target, l);
	}
}

void
muna_resolve(const struct map *m, struct board *b, const struct muna_season *s,
    struct muna_result *out)
{
	int i, t;

	memset(out, 0, sizeof *out);
	/* The insurgents that turned up leave the board. */
	for (i = 0; i < s->n; i++) {
		int k;
		if (s->u[i].dislodged || (k = find_unit(m, b, &s->u[i].unit)) < 0)
			continue;
		out->disbanded[out->ndisbanded++] = b->units[k];
		board_remove_unit(b, k);
	}
	for (t = 0; t < m->npowers; t++) {
		struct muna_rising *r = &out->r[out->n];
		int sent[MAP_MAX_POWERS] = { 0 }, p;
		bool missing = false;

		for (i = 0; i < s->n; i++) {
			if (s->u[i].target != t)
				continue;
			if (s->u[i].dislodged && !missing) {
				missing = true;
				r->missing = s->u[i].unit;
			}
			if (!s->u[i].dislodged) {
				r->nunits++;
				sent[s->u[i].unit.power]++;
			}
		}
		if (r->nunits == 0 && !missing && s->revival[t].n == 0)
			continue;
		out->n++;
		r->target = (power_id)t;
		if (missing)
			r->outcome = MUNA_UNIT_MISSING;
		else if (s->revival[t].n == 0)
			r->outcome = MUNA_NO_REVIVAL;
		else if (r->nunits < MUNA_REVIVAL_UNITS)
			r->outcome = MUNA_TOO_FEW;
		else {
			take_centres(m, b, &s->revival[t], r->nunits, r);
			r->outcome = r->nregained ? MUNA_REVIVED : MUNA_NO_CENTRE;
		}
		/* §7: "any Great Power investing at least two units in an
		 * insurrection gains a non-territorial Victory Point", whatever
		 * the outcome: the units that turned up are the investment. */
		for (p = 0; p < m->npowers; p++)
			r->points[p] = sent[p] >= MUNA_INSURGENT_POINT;
	}
}

enum muna_step
muna_season_step(const struct map *m, const struct board *before, const struct order *orders,
    int norders, const struct phase_result *res, const struct order_prefs *revival,
    struct muna_season *s, struct board *next, struct muna_result *out)
{
	if (before->phase == PHASE_ADJUSTMENT)
		return MUNA_QUIET;
	if (before->phase == PHASE_MOVEMENT)
		muna_season_take(m, before, orders, norders, res, revival, s);
	if (!muna_season_pending(s))
		return MUNA_QUIET;
	/* The dislodged units with nowhere to go are gone first (as
	 * phase_next would): the insurgents leaving must not open a way. */
	if (before->phase == PHASE_MOVEMENT && adj_disband_stranded(m, next) > 0)
		return MUNA_WAITING;
	muna_resolve(m, next, s, out);
	return MUNA_DECIDED;
}

/* ------------------------------------------------------------- reports -- */

static void
put_place(const struct map *m, loc_id l, struct buf *out)
{
	buf_puts(out, m->provs[m->locs[l].prov].name);
	if (m->locs[l].coast_name)
		buf_printf(out, " (%s)", m->locs[l].coast_name);
}

/* "the English fleet in London". */
static void
put_unit(const struct map *m, const struct unit *u, struct buf *out)
{
	buf_printf(out, "the %s %s in ", m->powers[u->power].adjective,
	    unit_word((enum unit_type)u->type));
	put_place(m, u->loc, out);
}

/* ", " between items and " and " before the last of n. */
static void
put_sep(int i, int n, struct buf *out)
{
	if (i > 0)
		buf_puts(out, i == n - 1 ? " and " : ", ");
}

static void
put_provs(const struct map *m, const prov_id *p, int n, struct buf *out)
{
	int i;

	for (i = 0; i < n; i++) {
		put_sep(i, n, out);
		buf_puts(out, m->provs[p[i]].name);
	}
}

static const char *const numbers[] = { "no", "one", "two", "three", "four", "five", "six",
	"seven", "eight", "nine", "ten" };

static const char *
number(int n)
{
	return n >= 0 && n <= 10 ? numbers[n] : "many";
}

/* "Insurrection in Russia" and the units sent to it, one a line. */
static void
put_insurgents(const struct map *m, const struct muna_season *s, power_id t, struct buf *out)
{
	int i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->u[i].target == t;
	buf_printf(out, "Insurrection in %s", m->powers[t].name);
	if (n == 0) {
		buf_puts(out, ": no unit was sent to it.\n");
		return;
	}
	buf_puts(out, ". Units sent to it:\n");
	for (i = 0; i < s->n; i++) {
		if (s->u[i].target != t)
			continue;
		buf_puts(out, "  ");
		put_unit(m, &s->u[i].unit, out);
		buf_puts(out, s->u[i].dislodged ? " (dislodged: it does not join)\n" : "\n");
	}
}

void
muna_report_pending(const struct map *m, const struct muna_season *s, struct buf *out)
{
	int t, i;

	for (t = 0; t < m->npowers; t++) {
		for (i = 0; i < s->n && s->u[i].target != t; i++)
			;
		if (i == s->n)
			continue;
		buf_putc(out, '\n');
		put_insurgents(m, s, (power_id)t, out);
		buf_puts(out, "It is decided at the end of the season, after the retreats.\n");
	}
}

void
muna_report(const struct map *m, const struct muna_season *s, const struct muna_result *r,
    struct buf *out)
{
	int i, p;

	for (i = 0; i < r->n; i++) {
		const struct muna_rising *x = &r->r[i];
		const struct order_prefs *want = &s->revival[x->target];
		const char *name = m->powers[x->target].name;

		buf_putc(out, '\n');
		put_insurgents(m, s, x->target, out);
		if (want->n > 0) {
			buf_printf(out, "%s asked for ", name);
			put_provs(m, want->prov, want->n, out);
			buf_puts(out, want->n > 1 ? ", most wanted first.\n" : ".\n");
		}
		switch (x->outcome) {
		case MUNA_REVIVED:
			buf_printf(out, "%s rises again: it takes back ", name);
			put_provs(m, x->regained, x->nregained, out);
			buf_printf(out, ", with a new unit in %s.\n", m->provs[x->regained[0]].name);
			if (x->ndestroyed > 0) {
				buf_puts(out, "The insurgents destroy ");
				for (p = 0; p < x->ndestroyed; p++) {
					put_sep(p, x->ndestroyed, out);
					put_unit(m, &x->destroyed[p], out);
				}
				buf_puts(out, ".\n");
			}
			if (x->nskipped > 0) {
				put_provs(m, x->skipped, x->nskipped, out);
				buf_printf(out, " %s occupied: taking %s would have needed one more unit%s.\n",
				    x->nskipped == 1 ? "is" : "are", x->nskipped == 1 ? "it" : "them",
				    x->nskipped == 1 ? "" : " each");
			}
			break;
		case MUNA_UNIT_MISSING:
			buf_puts(out, "It fails: ");
			put_unit(m, &x->missing, out);
			buf_puts(out, " was dislodged and did not join it.\n");
			break;
		case MUNA_NO_REVIVAL:
			buf_printf(out, "It fails: %s filed no valid revival order naming its home centres, "
			    "most wanted first.\n", name);
			break;
		case MUNA_TOO_FEW:
			if (x->nunits == 0)
				buf_printf(out, "%s's revival order found no support.\n", name);
			else
				buf_printf(out, "It fails: it needs at least %s units, and %s joined.\n",
				    number(MUNA_REVIVAL_UNITS), number(x->nunits));
			break;
		default:
			buf_printf(out, "It fails: every centre %s named is occupied, and each would have "
			    "needed one more unit.\n", name);
			break;
		}
		for (p = 0; p < m->npowers; p++)
			if (x->points[p])
				buf_printf(out, "%s earns %d victory point for sending two units or more.\n",
				    m->powers[p].name, x->points[p]);
		if (x->nunits > 0)
			buf_printf(out, "The %s that joined %s disbanded%s.\n", x->nunits == 1 ? "unit" : "units",
			    x->nunits == 1 ? "is" : "are", x->outcome == MUNA_REVIVED ? "" : " all the same");
	}
}

unsigned
muna_caps(const struct map *m)
{
	if (m->noptions == 0)
		return 0;	/* the standard board: quickly */
	return (map_option_on(m, "insurrection") ? RULES_REVIVAL : 0) |
	    (map_option_on(m, "victory-points") ? RULES_POINTS : 0) |
	    (map_option_on(m, "build-type") ? RULES_BUILD_TYPE : 0);
}

/* ------------------------------------------------------ victory points -- */

int
muna_control_centres(const struct map *m)
{
	const char *v = map_option(m, "control-bonus");
	long n;

	if (v == NULL || str_to_long(v, 1, MAP_MAX_PROVS, &n) < 0)
		return 0;
	return (int)n;
}

/* Does row a come before row b? */
static bool
standing_before(const struct standing *a, const struct standing *b)
{
	if (a->total != b->total)
		return a->total > b->total;
	if (a->centres != b->centres)
		return a->centres > b->centres;
	return a->power < b->power;
}

int
muna_standings(const struct map *m, const struct board *b, const int *points, const bool *bonus,
    struct standing *out)
{
	int p, i;

	for (p = 0; p < m->npowers; p++) {
		struct standing s;
		s.power = (power_id)p;
		s.centres = board_count_centres(b, m, (power_id)p);
		s.political = points[p];
		s.bonus = bonus[p] ? MUNA_BONUS_POINTS : 0;
		s.total = s.centres + s.political + s.bonus;
		/* Insertion into the sorted rows. */
		for (i = p; i > 0 && standing_before(&s, &out[i - 1]); i--)
			out[i] = out[i - 1];
		out[i] = s;
	}
	return m->npowers;
}

void
muna_standings_table(const struct map *m, const struct standing *s, int n, const char *title,
    struct buf *out)
{
	int i;

	buf_printf(out, "\n%s\n  %-16s %7s %9s %5s %5s\n", title, "", "centres", "political",
	    "bonus", "total");
	for (i = 0; i < n; i++)
		buf_printf(out, "  %-16s %7d %9d %5d %5d\n", m->powers[s[i].power].name, s[i].centres,
		    s[i].political, s[i].bonus, s[i].total);
}

/* ---------------------------------------------------------- conferences -- */

static bool
participant(const struct conference *c, power_id p)
{
	return p < 64 && (c->powers >> p) & 1u;
}

const struct unit *
muna_conference_hostile(const struct map *m, const struct board *b, const struct conference *c)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (m->locs[b->units[i].loc].prov == c->where && !participant(c, b->units[i].power))
			return &b->units[i];
	for (i = 0; i < b->ndislodged; i++)
		if (m->locs[b->dislodged[i].unit.loc].prov == c->where &&
		    !participant(c, b->dislodged[i].unit.power))
			return &b->dislodged[i].unit;
	return NULL;
}

/* Did a unit of a power that does not take part move or retreat into the
 * conference's place in the phase from before to next? A unit raised there
 * (a build in the power's own home centre) entered nothing, nor did one
 * standing there before. */
static bool
muna_conference_entered(const struct map *m, const struct conference *c,
    const struct board *before, const struct board *next)
{
	int i, k;
	bool stood;

	if (before->phase == PHASE_ADJUSTMENT)
		return false;
	for (i = 0; i < next->nunits; i++) {
		const struct unit *u = &next->units[i];
		if (m->locs[u->loc].prov != c->where || participant(c, u->power))
			continue;
		stood = false;
		for (k = 0; k < before->nunits; k++)
			stood |= m->locs[before->units[k].loc].prov == c->where &&
			    before->units[k].power == u->power;
		if (!stood)
			return true;
	}
	return false;
}

enum conference_end
muna_conference_check(const struct map *m, const struct conference *c, const struct board *before,
    const struct board *next)
{
	prov_id w = c->where;

	if (w == PROV_NONE)
		return CONF_GOES_ON;
	if (muna_conference_entered(m, c, before, next))
		return CONF_OCCUPIED;
	if (m->provs[w].supply && next->owner[w] != before->owner[w] &&
	    (next->owner[w] == POWER_NONE || !participant(c, next->owner[w])))
		return CONF_TAKEN;
	if (phase_cmp(next->year, (enum season)next->season, (enum phase_type)next->phase, c->year + 1,
	    (enum season)c->season, c->season == SEASON_WINTER ? PHASE_ADJUSTMENT : PHASE_MOVEMENT) >= 0)
		return CONF_EXPIRED;
	return CONF_GOES_ON;
}

void
muna_conference_name(const struct map *m, const struct conference *c, struct buf *out)
{
	if (c->name[0])
		buf_puts(out, c->name);
	else if (c->where != PROV_NONE)
		buf_printf(out, "the conference in %s", m->provs[c->where].name);
}

void
muna_conference_powers(const struct map *m, const struct conference *c, struct buf *out)
{
	int p, n = 0, k = 0;

	for (p = 0; p < m->npowers; p++)
		n += participant(c, (power_id)p);
	for (p = 0; p < m->npowers; p++)
		if (participant(c, (power_id)p)) {
			put_sep(k++, n, out);
			buf_puts(out, m->powers[p].name);
		}
}
