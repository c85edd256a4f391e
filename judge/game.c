#define _DEFAULT_SOURCE
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/scan.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../lib/tz.h"
#include "../parser/orders.h"
#include "engine/adjudicate.h"

static const char *const day_names[7] = { "sun", "mon", "tue", "wed", "thu", "fri", "sat" };
static const char *const phase_keys[3] = { "movement", "retreat", "adjustment" };

/* The weekdays named in v ("mon,wed fri", "Monday": a day's first three
 * letters, any case; "any" too when any_ok) as a mask into *mask. Returns 0,
 * or -1 at a word that names no day. */
static int
days_parse(const char *v, bool any_ok, uint8_t *mask)
{
	struct scan_word w;
	int i;

	*mask = 0;
	while (scan_token(&v, " ,", &w) == 0) {
		if (any_ok && scan_word_is_nocase(&w, "any"))
			continue;
		for (i = 0; i < 7; i++)
			if (w.len >= 3 && str_eqn_nocase(w.ptr, 3, day_names[i]))
				break;
		if (i == 7)
			return -1;
		*mask |= (uint8_t)(1 << i);
	}
	return 0;
}

void
game_settings_default(struct game_settings *s, const char *variant)
{
	memset(s, 0, sizeof *s);
	str_copy(s->variant, variant, sizeof s->variant);
	s->edition = EDITION_2023;
	s->duration[PHASE_MOVEMENT] = 48 * 3600;
	s->duration[PHASE_RETREAT] = 24 * 3600;
	s->duration[PHASE_ADJUSTMENT] = 24 * 3600;
	s->deadline_minute = -1;
	s->grace = 24 * 3600;
	s->remind = 24 * 3600;
	str_copy(s->zone, "UTC", sizeof s->zone);
	s->press = PRESS_WHITE;
	s->nmr = NMR_CD;
}

int
game_settings_set(struct game_settings *s, const char *key, const char *v, struct buf *why)
{
	long span;

	if (str_eq_nocase(key, "press")) {
		if (str_eq_nocase(v, "none"))
			s->press = PRESS_NONE;
		else if (str_eq_nocase(v, "white"))
			s->press = PRESS_WHITE;
		else if (str_eq_nocase(v, "grey") || str_eq_nocase(v, "gray"))
			s->press = PRESS_GREY;
		else
			goto bad;
	} else if (str_eq_nocase(key, "nmr")) {
		if (str_eq_nocase(v, "wait"))
			s->nmr = NMR_WAIT;
		else if (str_eq_nocase(v, "cd") || str_eq_nocase(v, "civil-disorder"))
			s->nmr = NMR_CD;
		else
			goto bad;
	} else if (str_eq_nocase(key, "edition")) {
		if (edition_parse(v, &s->edition) < 0)
			goto bad;
	} else if (str_eq_nocase(key, "zone")) {
		if (!tz_valid(v))
			goto bad;
		str_copy(s->zone, v, sizeof s->zone);
	} else if (str_eq_nocase(key, "grace") || str_eq_nocase(key, "remind")) {
		if (time_parse_span(v, &span) < 0)
			goto bad;
		*(str_eq_nocase(key, "grace") ? &s->grace : &s->remind) = span;
	} else if (str_eq_nocase(key, "movement") || str_eq_nocase(key, "retreat") ||
	    str_eq_nocase(key, "adjustment")) {
		if (time_parse_span(v, &span) < 0 || span <= 0)
			goto bad;
		s->duration[str_eq_nocase(key, "movement") ? 0 : str_eq_nocase(key, "retreat") ? 1 : 2] =
		    span;
	} else if (str_eq_nocase(key, "time")) {
		int hh, mm;
		if (strlen(v) == 5 && v[2] == ':' && (hh = (v[0] - '0') * 10 + (v[1] - '0')) >= 0 &&
		    hh < 24 && (mm = (v[3] - '0') * 10 + (v[4] - '0')) >= 0 && mm < 60)
			s->deadline_minute = hh * 60 + mm;
		else if (str_eq_nocase(v, "none"))
			s->deadline_minute = -1;
		else
			goto bad;
	} else if (str_eq_nocase(key, "days")) {
		uint8_t mask;
		if (days_parse(v, true, &mask) < 0)
			goto bad;
		s->days = mask;
	} else if (str_eq_nocase(key, "first-movement")) {
		if (str_eq_nocase(v, "none") || strcmp(v, "0") == 0)
			s->first_movement = 0;
		else if (time_parse_span(v, &span) < 0 || span <= 0)
			goto bad;
		else
			s->first_movement = span;
	} else if (str_eq_nocase(key, "speech")) {
		if (str_eq_nocase(v, "none") || str_eq_nocase(v, "off") || strcmp(v, "0") == 0)
			s->speech = 0;
		else if (time_parse_span(v, &span) < 0 || span <= 0)
			goto bad;
		else
			s->speech = span;
	} else if (str_eq_nocase(key, "gmpress") || str_eq_nocase(key, "gm-reads-press")) {
		if (str_eq_nocase(v, "yes") || str_eq_nocase(v, "on"))
			s->gm_reads_press = true;
		else if (str_eq_nocase(v, "no") || str_eq_nocase(v, "off"))
			s->gm_reads_press = false;
		else
			goto bad;
	} else {
		buf_printf(why, "unknown setting \"%s\" (press, nmr, edition, zone, movement, retreat, "
		    "adjustment, first-movement, grace, remind, time, days, gmpress, speech)", key);
		return -1;
	}
	return 0;
bad:
	buf_printf(why, "bad value \"%s\" for %s", v, key);
	return -1;
}

void
game_init(struct game *g, const char *name, const struct game_settings *s, const struct map *m,
    const struct names *nm, time_t now)
{
	int p;

	memset(g, 0, sizeof *g);
	str_copy(g->name, name, sizeof g->name);
	g->set = *s;
	g->status = GAME_FORMING;
	g->created = now;
	g->map = m;
	g->names = nm;
	game_set_rules(g);
	g->conf.where = PROV_NONE;
	board_init_start(&g->board, m);
	for (p = 0; p < MAP_MAX_POWERS; p++)
		g->del[p].concede_to = POWER_NONE;
}

void
game_set_rules(struct game *g)
{
	rules_init(&g->rules, g->set.edition);
	g->rules.build_anywhere = map_option_on(g->map, "build-anywhere");
	g->rules.insurrection = map_option_on(g->map, "insurrection");
}

bool
game_victory_points(const struct game *g)
{
	return map_option_on(g->map, "victory-points");
}

int
game_standings(const struct game *g, const struct board *b, struct standing *out)
{
	int points[MAP_MAX_POWERS];
	bool bonus[MAP_MAX_POWERS];
	int p;

	for (p = 0; p < g->map->npowers; p++) {
		points[p] = g->del[p].points;
		bonus[p] = g->del[p].bonus[0] != '\0';
	}
	return muna_standings(g->map, b, points, bonus, out);
}

void
game_award(struct game *g, power_id p, int points, bool rules, const char *reason)
{
	struct award *a;

	g->del[p].points += points;
	if (g->nawards == GAME_MAX_AWARDS) {
		/* The record keeps the latest; the totals stay right. */
		memmove(&g->awards[0], &g->awards[1], (GAME_MAX_AWARDS - 1) * sizeof g->awards[0]);
		g->nawards--;
	}
	a = &g->awards[g->nawards++];
	phase_code(&g->board, a->phase, sizeof a->phase);
	a->power = p;
	a->rules = rules;
	a->points = points;
	str_copy(a->reason, reason, sizeof a->reason);
}

/* Is the phase of code ("S1901M") at or after b's? */
static bool
code_since(const char *code, const struct board *b)
{
	enum season s;
	enum phase_type t;
	int y;

	return phase_parse(code, &y, &s, &t) == 0 &&
	    phase_cmp(y, s, t, b->year, (enum season)b->season, (enum phase_type)b->phase) >= 0;
}

void
game_forget_since(struct game *g, const struct board *b)
{
	int i, k = 0, p;

	for (i = 0; i < g->nawards; i++) {
		const struct award *a = &g->awards[i];
		if (a->rules && code_since(a->phase, b))
			g->del[a->power].points -= a->points;
		else
			g->awards[k++] = *a;
	}
	g->nawards = k;
	for (p = 0; p < g->map->npowers; p++)
		if (g->del[p].bonus[0] && code_since(g->del[p].bonus, b))
			g->del[p].bonus[0] = '\0';
}

bool
game_name_valid(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n >= GAME_NAME_MAX)
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_'))
			return false;
	}
	return true;
}

const char *
press_name(enum press_policy p)
{
	return p == PRESS_NONE ? "none" : p == PRESS_GREY ? "grey" : "white";
}

const char *
status_name(enum game_status s)
{
	static const char *const n[] = { "forming", "active", "paused", "ended" };
	return s <= GAME_ENDED ? n[s] : "?";
}

power_id
game_power_of(const struct game *g, const char *addr)
{
	int p, i;

	for (p = 0; p < g->map->npowers; p++)
		for (i = 0; i < g->del[p].nmembers; i++)
			if (str_eq_nocase(g->del[p].members[i].addr, addr))
				return (power_id)p;
	return POWER_NONE;
}

bool
game_is_gm(const struct game *g, const char *addr)
{
	int i;

	for (i = 0; i < g->ngms; i++)
		if (str_eq_nocase(g->gms[i], addr))
			return true;
	return false;
}

bool
game_alive(const struct game *g, power_id p)
{
	return board_count_units(&g->board, p) > 0 ||
	    board_count_centres(&g->board, g->map, p) > 0;
}

bool
game_must_order(const struct game *g, power_id p)
{
	const struct board *b = &g->board;
	int i, due;

	switch (b->phase) {
	case PHASE_MOVEMENT:
		return board_count_units(b, p) > 0;
	case PHASE_RETREAT:
		for (i = 0; i < b->ndislodged; i++)
			if (b->dislodged[i].unit.power == p)
				return true;
		return false;
	default:
		due = adj_builds_due(g->map, b, p);
		return due < 0 || (due > 0 && adj_build_sites(g->map, &g->rules, b, p) > 0);
	}
}

bool
game_orders_complete(const struct game *g, power_id p)
{
	const struct board *b = &g->board;
	const struct delegation *d = &g->del[p];
	const struct map *m = g->map;
	int i, k, n = 0, due;

	switch (b->phase) {
	case PHASE_MOVEMENT:
		for (i = 0; i < b->nunits; i++) {
			if (b->units[i].power != p)
				continue;
			for (k = 0; k < d->norders; k++)
				if (m->locs[d->orders[k].loc].prov == m->locs[b->units[i].loc].prov)
					break;
			if (k == d->norders)
				return false;
		}
		return true;
	case PHASE_RETREAT:
		for (i = 0; i < b->ndislodged; i++) {
			if (b->dislodged[i].unit.power != p)
				continue;
			for (k = 0; k < d->norders; k++)
				if (m->locs[d->orders[k].loc].prov == m->locs[b->dislodged[i].unit.loc].prov)
					break;
			if (k == d->norders)
				return false;
		}
		return true;
	default:
		due = adj_builds_due(m, b, p);
		if (due < 0) {
			for (k = 0; k < d->norders; k++)
				n += d->orders[k].kind == ORDER_REMOVE;
			return n >= -due;
		}
		if (due > 0) {
			int sites = adj_build_sites(m, &g->rules, b, p);
			for (k = 0; k < d->norders; k++)
				n += d->orders[k].kind == ORDER_BUILD || d->orders[k].kind == ORDER_WAIVE;
			return n >= (due < sites ? due : sites);
		}
		return true;
	}
}

int
game_set_order(struct game *g, power_id p, const struct order *o)
{
	struct delegation *d = &g->del[p];
	const struct map *m = g->map;
	int k;

	if (o->kind == ORDER_REVIVE) {
		/* One revival order a season, whatever it names first. */
		for (k = 0; k < d->norders; k++)
			if (d->orders[k].kind == ORDER_REVIVE) {
				d->orders[k] = *o;
				return 0;
			}
	} else if (o->kind != ORDER_WAIVE && o->loc != LOC_NONE) {
		for (k = 0; k < d->norders; k++) {
			if (d->orders[k].kind == ORDER_WAIVE || d->orders[k].loc == LOC_NONE)
				continue;
			if (m->locs[d->orders[k].loc].prov == m->locs[o->loc].prov) {
				d->orders[k] = *o;
				return 0;
			}
		}
	}
	if (d->norders >= GAME_MAX_ORDERS)
		return -1;
	d->orders[d->norders++] = *o;
	return 0;
}

int
game_set_revival(struct game *g, power_id p, const struct order *o, const struct order_prefs *prefs)
{
	if (game_set_order(g, p, o) < 0)
		return -1;
	g->del[p].revival = *prefs;
	return 0;
}

const struct order *
game_revival(const struct game *g, power_id p)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->norders; k++)
		if (d->orders[k].kind == ORDER_REVIVE)
			return &d->orders[k];
	return NULL;
}

void
game_format_order(const struct game *g, power_id p, const struct order *o, struct buf *out)
{
	if (o->kind == ORDER_REVIVE)
		order_format_prefs(g->map, &g->del[p].revival, ORDER_SHORT, out);
	else
		order_format(g->map, o, ORDER_SHORT, out);
}

void
game_clear_orders(struct game *g, power_id p)
{
	int i;

	for (i = 0; i < g->map->npowers; i++)
		if (p == POWER_NONE || p == i)
			g->del[i].norders = 0;
}

/* ---------------------------------------------------------------- write -- */

static void
put_time(struct buf *out, const char *key, time_t t)
{
	char s[32];

	if (t)
		buf_printf(out, "%s %s\n", key, time_rfc3339(t, s, sizeof s));
}

static void
put_span(struct buf *out, const char *key, const char *sub, long s)
{
	if (sub)
		buf_printf(out, "%s %s ", key, sub);
	else
		buf_printf(out, "%s ", key);
	if (s % 3600 == 0)
		buf_printf(out, "%ldh\n", s / 3600);
	else
		buf_printf(out, "%ldm\n", s / 60);
}

/* The MUNA state: awards, the conference, insurrections under way. */
static void
write_muna(const struct game *g, struct buf *out)
{
	const struct map *m = g->map;
	int i;

	for (i = 0; i < g->nawards; i++) {
		const struct award *a = &g->awards[i];
		buf_printf(out, "award %s %s %+d %s %s\n", a->phase, m->powers[a->power].token, a->points,
		    a->rules ? "rules" : "officers", a->reason);
	}
	game_write_conference(g, &g->conf, out);
	game_write_season(g, &g->season, out);
}

void
game_write_conference(const struct game *g, const struct conference *c, struct buf *out)
{
	const struct map *m = g->map;
	int p;

	if (c->where == PROV_NONE)
		return;
	buf_printf(out, "conference %s %d %s", m->provs[c->where].abbr, c->year,
	    season_name((enum season)c->season));
	for (p = 0; p < m->npowers; p++)
		if ((c->powers >> p) & 1u)
			buf_printf(out, " %s", m->powers[p].token);
	buf_putc(out, '\n');
	if (c->name[0])
		buf_printf(out, "conference-name %s\n", c->name);
}

void
game_write_season(const struct game *g, const struct muna_season *s, struct buf *out)
{
	const struct map *m = g->map;
	int i, p;

	for (i = 0; i < s->n; i++) {
		const struct insurgent *u = &s->u[i];
		buf_printf(out, "insurgent %s ", m->powers[u->unit.power].token);
		unit_format(m, &u->unit, out);
		buf_printf(out, " %s%s\n", m->powers[u->target].token, u->dislodged ? " dislodged" : "");
	}
	for (p = 0; p < m->npowers; p++) {
		const struct order_prefs *r = &s->revival[p];
		if (r->n == 0)
			continue;
		buf_printf(out, "revival %s", m->powers[p].token);
		for (i = 0; i < r->n; i++)
			buf_printf(out, " %s", m->provs[r->prov[i]].abbr);
		buf_putc(out, '\n');
	}
}

void
game_write(const struct game *g, struct buf *out)
{
	const struct game_settings *s = &g->set;
	const struct map *m = g->map;
	int i, p;

	buf_printf(out, "# pouch game file: replaced whole on every change; see pouch(1)\n");
	buf_printf(out, "game %s\n", g->name);
	buf_printf(out, "variant %s\n", s->variant);
	buf_printf(out, "edition %s\n", edition_name(s->edition));
	buf_printf(out, "status %s\n", status_name(g->status));
	if (g->result[0])
		buf_printf(out, "result %s\n", g->result);
	put_time(out, "created", g->created);
	put_time(out, "phase-start", g->phase_start);
	put_time(out, "deadline", g->deadline);
	if (g->paused_left)
		buf_printf(out, "paused-left %ld\n", g->paused_left);
	if (g->gm_told)
		buf_printf(out, "gm-told yes\n");
	for (i = 0; i < 3; i++)
		put_span(out, "duration", phase_keys[i], s->duration[i]);
	if (s->deadline_minute >= 0)
		buf_printf(out, "deadline-time %02d:%02d\n", s->deadline_minute / 60,
		    s->deadline_minute % 60);
	if (s->days) {
		buf_puts(out, "deadline-days");
		for (i = 0; i < 7; i++)
			if (s->days & (1 << i))
				buf_printf(out, " %s", day_names[i]);
		buf_putc(out, '\n');
	}
	put_span(out, "grace", NULL, s->grace);
	put_span(out, "remind", NULL, s->remind);
	buf_printf(out, "zone %s\n", s->zone);
	buf_printf(out, "press %s\n", press_name(s->press));
	buf_printf(out, "nmr %s\n", s->nmr == NMR_CD ? "civil-disorder" : "wait");
	buf_printf(out, "gm-reads-press %s\n", s->gm_reads_press ? "yes" : "no");
	if (s->speech)
		put_span(out, "speech", NULL, s->speech);
	if (s->first_movement)
		put_span(out, "first-movement", NULL, s->first_movement);
	put_time(out, "speech-until", g->speech_until);
	for (i = 0; i < g->ngms; i++)
		buf_printf(out, "gm %s\n", g->gms[i]);
	if (g->gm_secret[0])
		buf_printf(out, "gm-secret %s\n", g->gm_secret);
	buf_printf(out, "seq %ld\n", g->seq);
	buf_printf(out, "phases %d\n", g->nphases);
	for (i = 0; i < g->nobservers; i++)
		buf_printf(out, "observer %s\n", g->observers[i]);
	for (i = 0; i < g->nbouncing; i++)
		buf_printf(out, "bounces %d %s\n", g->bouncing[i].count, g->bouncing[i].addr);
	for (p = 0; p < m->npowers; p++) {
		const struct delegation *d = &g->del[p];
		const char *pn = m->powers[p].token;	/* one word, as the reader wants */
		int k;

		for (k = 0; k < d->nmembers; k++)
			buf_printf(out, "member %s %s%s%s\n", pn, d->members[k].addr,
			    d->members[k].zone[0] ? " " : "", d->members[k].zone);
		if (d->secret[0])
			buf_printf(out, "secret %s %s\n", pn, d->secret);
		if (d->wait || d->resigned || d->reminded)
			buf_printf(out, "flags %s%s%s%s\n", pn, d->wait ? " wait" : "",
			    d->resigned ? " resigned" : "", d->reminded ? " reminded" : "");
		if (d->vote == VOTE_DRAW)
			buf_printf(out, "vote %s draw\n", pn);
		else if (d->vote == VOTE_CONCEDE && d->concede_to != POWER_NONE)
			buf_printf(out, "vote %s concede %s\n", pn, m->powers[d->concede_to].token);
		if (d->points)
			buf_printf(out, "points %s %d\n", pn, d->points);
		if (d->bonus[0])
			buf_printf(out, "control-bonus %s %s\n", pn, d->bonus);
		for (k = 0; k < GAME_GOALS; k++)
			if (d->goal[k][0] && k < GAME_GOALS - 1)
				buf_printf(out, "goal %s %d %s\n", pn, k + 1, d->goal[k]);
			else if (d->goal[k][0])
				buf_printf(out, "goal %s %d %d %s %s\n", pn, k + 1, d->goal_points,
				    d->goal_approved ? "approved" : "proposed", d->goal[k]);
		for (k = 0; k < d->norders; k++) {
			buf_printf(out, "order %s ", pn);
			game_format_order(g, (power_id)p, &d->orders[k], out);
			buf_putc(out, '\n');
		}
	}
	write_muna(g, out);
	for (i = 0; i < g->nyears; i++) {
		buf_printf(out, "centres %d", g->years[i].year);
		for (p = 0; p < m->npowers; p++)
			buf_printf(out, " %d", g->years[i].centres[p]);
		buf_putc(out, '\n');
	}
	board_write(&g->board, m, out);
}

/* ----------------------------------------------------------------- read -- */

static const char *const board_keys[] = { "phase", "unit", "dislodged", "contested", "owner" };

static int
is_board_key(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof board_keys / sizeof board_keys[0]; i++)
		if (strcmp(k, board_keys[i]) == 0)
			return 1;
	return 0;
}

static int
read_time(const char *v, time_t *t)
{
	return time_parse_utc(v, t);
}

/* "Power rest": the power and the rest of the value. */
static power_id
split_power(const struct map *m, char *v, char **rest)
{
	char *sp = v + strcspn(v, " \t");

	if (*sp)
		*sp++ = '\0';
	*rest = str_trim(sp);
	return map_find_power(m, v);
}

/* "goal England 1 The text" or "goal England 3 2 approved The text" (after
 * the power). Returns NULL or what is wrong. */
static const char *
read_goal(struct delegation *d, const char *v)
{
	struct scan_word st;
	long k, pts;

	if (scan_long(&v, 1, GAME_GOALS, &k) < 0)
		return "expected: goal POWER NUMBER [POINTS approved|proposed] TEXT";
	if (k == GAME_GOALS) {
		if (scan_long(&v, 1, GOAL_MAX_POINTS, &pts) < 0 || scan_word(&v, &st) < 0)
			return "expected: goal POWER 3 POINTS approved|proposed TEXT";
		d->goal_points = (uint8_t)pts;
		d->goal_approved = scan_word_is(&st, "approved");
	}
	str_copy(d->goal[k - 1], scan_rest(&v), AWARD_REASON_MAX);
	return NULL;
}

/* "award S1936M England +2 officers The reason". Returns NULL or what is wrong. */
static const char *
read_award(struct game *g, const char *v)
{
	struct award *a = &g->awards[g->nawards];
	char ph[sizeof a->phase], pw[64];
	struct scan_word who;
	long n;

	if (g->nawards >= GAME_MAX_AWARDS || scan_name(&v, ph, sizeof ph) < 0 || ph[0] == '\0' ||
	    scan_name(&v, pw, sizeof pw) < 0 || scan_long(&v, -1000, 1000, &n) < 0 ||
	    scan_word(&v, &who) < 0 || !(scan_word_is(&who, "rules") || scan_word_is(&who, "officers")))
		return "expected: award PHASE POWER POINTS officers|rules REASON";
	if ((a->power = map_find_power(g->map, pw)) == POWER_NONE)
		return "unknown power";
	str_copy(a->phase, ph, sizeof a->phase);
	a->points = (int)n;
	a->rules = scan_word_is(&who, "rules");
	str_copy(a->reason, scan_rest(&v), sizeof a->reason);
	g->nawards++;
	return NULL;
}

/* The season named by w (as season_name() writes it, any case), or -1. */
static int
scan_season(const struct scan_word *w)
{
	int s;

	for (s = SEASON_SPRING; s <= SEASON_WINTER; s++)
		if (scan_word_is_nocase(w, season_name((enum season)s)))
			return s;
	return -1;
}

/* "conference mun 1936 Spring England France Germany". */
static const char *
read_conference(struct game *g, const char *v)
{
	struct scan_word sw;
	char where[64], pw[64];
	long y;
	int s;

	if (scan_name(&v, where, sizeof where) < 0 || scan_long(&v, 1, 99999, &y) < 0 ||
	    scan_word(&v, &sw) < 0)
		return "expected: conference PROVINCE YEAR SEASON POWER...";
	s = scan_season(&sw);
	g->conf.where = map_find_province(g->map, where);
	if (g->conf.where == PROV_NONE || s < 0)
		return "unknown province or season";
	g->conf.year = (int)y;
	g->conf.season = (uint8_t)s;
	while (scan_name(&v, pw, sizeof pw) == 0) {
		power_id p = map_find_power(g->map, pw);
		if (p == POWER_NONE)
			return "unknown power";
		g->conf.powers |= (uint64_t)1 << p;
	}
	return NULL;
}

/* "insurgent England F lon Russia [dislodged]". */
static const char *
read_insurgent(const struct map *m, struct muna_season *s, const char *v)
{
	struct insurgent *u = &s->u[s->n];
	const char *why = NULL;
	char target[64];

	if (s->n >= MUNA_MAX_INSURGENTS)
		return "too many insurgents";
	if (board_parse_unit(m, &v, &u->unit, &why) < 0)
		return why;
	if (scan_name(&v, target, sizeof target) < 0 ||
	    (u->target = map_find_power(m, target)) == POWER_NONE)
		return "expected: insurgent POWER TYPE LOCATION TARGET-POWER [dislodged]";
	u->dislodged = scan_literal(&v, "dislodged") == 0;
	s->n++;
	return NULL;
}

/* "revival Russia mos stp war": the rest after the power. */
static const char *
read_revival(const struct map *m, struct order_prefs *r, const char *rest)
{
	char name[64];

	r->n = 0;
	while (scan_name(&rest, name, sizeof name) == 0) {
		prov_id pr = map_find_province(m, name);
		if (pr == PROV_NONE || r->n >= ORDER_MAX_PREFS)
			return "expected: revival POWER PROVINCE...";
		r->prov[r->n++] = pr;
	}
	return NULL;
}

/* One line of the insurrections under way ("insurgent ...", "revival ..."):
 * 1 when it was one (why says what is wrong with it, or NULL), else 0. */
static int
read_season_line(const struct map *m, struct muna_season *s, const char *k, char *v,
    const char **why)
{
	char *rest;
	power_id pw;

	if (strcmp(k, "insurgent") == 0) {
		*why = read_insurgent(m, s, v);
		return 1;
	}
	if (strcmp(k, "revival") != 0)
		return 0;
	pw = split_power(m, v, &rest);
	*why = pw == POWER_NONE ? "unknown power" : read_revival(m, &s->revival[pw], rest);
	return 1;
}

void
game_read_conference(struct game *g, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	memset(&g->conf, 0, sizeof g->conf);
	g->conf.where = PROV_NONE;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;
		if (str_split_kv(line, n, buf, sizeof buf, &k, &v) <= 0)
			continue;
		if (strcmp(k, "conference") == 0 && read_conference(g, v) != NULL)
			g->conf.where = PROV_NONE;	/* unreadable: none */
		else if (strcmp(k, "conference-name") == 0)
			str_copy(g->conf.name, v, sizeof g->conf.name);
	}
}

void
game_read_season(const struct game *g, const char *text, size_t len, struct muna_season *s)
{
	const char *p = text, *end = text + len, *line, *why;
	size_t n;

	muna_season_clear(s);
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;
		if (str_split_kv(line, n, buf, sizeof buf, &k, &v) > 0)
			read_season_line(g->map, s, k, v, &why);
	}
}

struct pending_order {
	power_id power;
	int line;
	char text[160];
};

int
game_read(struct game *g, const char *text, size_t len,
    const struct map *(*find)(void *ctx, const char *variant, const struct names **nm),
    void *ctx, struct buf *err)
{
	const char *p = text, *end = text + len, *line;
	struct buf boardtxt, berr;
	struct pending_order *po = NULL;
	int npo = 0, lineno = 0, errors = 0, i, *bline = NULL, nbline = 0;
	size_t n;

	memset(g, 0, sizeof *g);
	game_settings_default(&g->set, "standard");
	for (i = 0; i < MAP_MAX_POWERS; i++)
		g->del[i].concede_to = POWER_NONE;
	g->conf.where = PROV_NONE;
	buf_init(&boardtxt, 1 << 20);
	po = calloc(MAP_MAX_POWERS * GAME_MAX_ORDERS, sizeof *po);
	if (po == NULL)
		abort();

	/* First the variant, needed to read power names. */
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		if (n > 8 && strncmp(line, "variant ", 8) == 0) {
			char v[64];
			size_t k = n - 8 < sizeof v - 1 ? n - 8 : sizeof v - 1;
			memcpy(v, line + 8, k);
			v[k] = '\0';
			str_copy(g->set.variant, str_trim(v), sizeof g->set.variant);
			break;
		}
	}
	g->map = find(ctx, g->set.variant, &g->names);
	if (g->map == NULL) {
		buf_printf(err, "unknown variant \"%s\"\n", g->set.variant);
		free(po);
		buf_free(&boardtxt);
		return -1;
	}

	p = text;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;
		const char *why = NULL;
		power_id pw;
		char *rest;
		long num;

		lineno++;
		switch (str_split_kv(line, n, buf, sizeof buf, &k, &v)) {
		case 0:
			continue;
		case -1:
			buf_printf(err, "%d: line too long\n", lineno);
			errors++;
			continue;
		default:
			break;
		}
		if (is_board_key(k)) {
			buf_printf(&boardtxt, "%s %s\n", k, v);
			bline = xreallocarray(bline, (size_t)nbline + 1, sizeof *bline);
			bline[nbline++] = lineno;	/* its line in the file */
			continue;
		}
		if (strcmp(k, "game") == 0) {
			if (!game_name_valid(v))
				why = "bad game name";
			str_copy(g->name, v, sizeof g->name);
		} else if (strcmp(k, "variant") == 0) {
			/* read above */
		} else if (strcmp(k, "edition") == 0) {
			if (edition_parse(v, &g->set.edition) < 0)
				why = "unknown edition";
		} else if (strcmp(k, "status") == 0) {
			for (i = 0; i <= GAME_ENDED; i++)
				if (strcmp(v, status_name((enum game_status)i)) == 0)
					break;
			if (i > GAME_ENDED)
				why = "unknown status";
			else
				g->status = (enum game_status)i;
		} else if (strcmp(k, "result") == 0) {
			str_copy(g->result, v, sizeof g->result);
		} else if (strcmp(k, "created") == 0) {
			if (read_time(v, &g->created) < 0)
				why = "bad time";
		} else if (strcmp(k, "phase-start") == 0) {
			if (read_time(v, &g->phase_start) < 0)
				why = "bad time";
		} else if (strcmp(k, "deadline") == 0) {
			if (read_time(v, &g->deadline) < 0)
				why = "bad time";
		} else if (strcmp(k, "paused-left") == 0) {
			if (str_to_long(v, 0, 1L << 40, &g->paused_left) < 0)
				why = "bad number";
		} else if (strcmp(k, "gm-told") == 0) {
			g->gm_told = strcmp(v, "yes") == 0;
		} else if (strcmp(k, "duration") == 0) {
			char *sp = v + strcspn(v, " \t");
			if (*sp)
				*sp++ = '\0';
			for (i = 0; i < 3; i++)
				if (strcmp(v, phase_keys[i]) == 0)
					break;
			if (i == 3 || time_parse_span(str_trim(sp), &g->set.duration[i]) < 0)
				why = "expected: duration movement|retreat|adjustment SPAN";
		} else if (strcmp(k, "deadline-time") == 0) {
			int hh, mm;
			if (strlen(v) == 5 && v[2] == ':' && (hh = (v[0] - '0') * 10 + v[1] - '0') < 24 &&
			    (mm = (v[3] - '0') * 10 + v[4] - '0') < 60 && hh >= 0 && mm >= 0)
				g->set.deadline_minute = hh * 60 + mm;
			else
				why = "expected HH:MM";
		} else if (strcmp(k, "deadline-days") == 0) {
			if (days_parse(v, false, &g->set.days) < 0)
				why = "unknown day";
		} else if (strcmp(k, "grace") == 0) {
			if (time_parse_span(v, &g->set.grace) < 0)
				why = "bad span";
		} else if (strcmp(k, "remind") == 0) {
			if (time_parse_span(v, &g->set.remind) < 0)
				why = "bad span";
		} else if (strcmp(k, "zone") == 0) {
			str_copy(g->set.zone, v, sizeof g->set.zone);
		} else if (strcmp(k, "press") == 0) {
			g->set.press = strcmp(v, "none") == 0 ? PRESS_NONE :
			    strcmp(v, "grey") == 0 ? PRESS_GREY : PRESS_WHITE;
		} else if (strcmp(k, "nmr") == 0) {
			g->set.nmr = strcmp(v, "wait") == 0 ? NMR_WAIT : NMR_CD;
		} else if (strcmp(k, "gm-reads-press") == 0) {
			g->set.gm_reads_press = strcmp(v, "yes") == 0;
		} else if (strcmp(k, "speech") == 0) {
			if (time_parse_span(v, &g->set.speech) < 0)
				why = "bad span";
		} else if (strcmp(k, "first-movement") == 0) {
			if (time_parse_span(v, &g->set.first_movement) < 0)
				why = "bad span";
		} else if (strcmp(k, "speech-until") == 0) {
			if (read_time(v, &g->speech_until) < 0)
				why = "bad time";
		} else if (strcmp(k, "award") == 0) {
			why = read_award(g, v);
		} else if (strcmp(k, "conference") == 0) {
			why = read_conference(g, v);
		} else if (strcmp(k, "conference-name") == 0) {
			str_copy(g->conf.name, v, sizeof g->conf.name);
		} else if (read_season_line(g->map, &g->season, k, v, &why)) {
			/* done */
		} else if (strcmp(k, "gm") == 0) {
			if (g->ngms < GAME_MAX_GMS)
				str_copy(g->gms[g->ngms++], v, ADDR_MAX);
		} else if (strcmp(k, "gm-secret") == 0) {
			str_copy(g->gm_secret, v, sizeof g->gm_secret);
		} else if (strcmp(k, "seq") == 0) {
			if (str_to_long(v, 0, 1L << 50, &g->seq) < 0)
				why = "bad number";
		} else if (strcmp(k, "phases") == 0) {
			if (str_to_long(v, 0, 1000000, &num) < 0)
				why = "bad number";
			g->nphases = (int)num;
		} else if (strcmp(k, "centres") == 0) {
			const char *c = v;
			int q = 0;
			if (g->nyears >= GAME_MAX_YEARS || scan_long(&c, 1, 99999, &num) < 0) {
				why = "expected: centres YEAR COUNT...";
			} else {
				g->years[g->nyears].year = (int)num;
				while (q < MAP_MAX_POWERS && scan_long(&c, 0, 255, &num) == 0)
					g->years[g->nyears].centres[q++] = (uint8_t)num;
				g->nyears++;
			}
		} else if (strcmp(k, "observer") == 0) {
			if (g->nobservers < GAME_MAX_OBSERVERS)
				str_copy(g->observers[g->nobservers++], v, ADDR_MAX);
		} else if (strcmp(k, "bounces") == 0) {
			char *addr = v + strcspn(v, " \t");
			if (*addr)
				*addr++ = '\0';
			if (str_to_long(v, 1, 1000000, &num) < 0 || *addr == '\0')
				why = "expected bounces COUNT ADDRESS";
			else if (g->nbouncing < GAME_MAX_BOUNCING) {
				str_copy(g->bouncing[g->nbouncing].addr, str_trim(addr), ADDR_MAX);
				g->bouncing[g->nbouncing++].count = (int)num;
			}
		} else if ((pw = split_power(g->map, v, &rest)) == POWER_NONE) {
			why = "unknown key, or unknown power";
		} else if (strcmp(k, "member") == 0) {
			struct delegation *d = &g->del[pw];
			char *zone = rest + strcspn(rest, " \t");
			if (*zone)
				*zone++ = '\0';
			if (d->nmembers >= GAME_MAX_MEMBERS)
				why = "too many members";
			else {
				str_copy(d->members[d->nmembers].addr, rest, ADDR_MAX);
				str_copy(d->members[d->nmembers].zone, str_trim(zone), ZONE_MAX);
				d->nmembers++;
			}
		} else if (strcmp(k, "secret") == 0) {
			str_copy(g->del[pw].secret, rest, SECRET_HASH_MAX);
		} else if (strcmp(k, "flags") == 0) {
			g->del[pw].wait = strstr(rest, "wait") != NULL;
			g->del[pw].resigned = strstr(rest, "resigned") != NULL;
			g->del[pw].reminded = strstr(rest, "reminded") != NULL;
		} else if (strcmp(k, "vote") == 0) {
			if (str_prefix_nocase(rest, "draw")) {
				g->del[pw].vote = VOTE_DRAW;
			} else if (str_prefix_nocase(rest, "concede ")) {
				g->del[pw].vote = VOTE_CONCEDE;
				g->del[pw].concede_to = map_find_power(g->map, str_trim(rest + 8));
				if (g->del[pw].concede_to == POWER_NONE)
					why = "unknown power conceded to";
			} else {
				why = "expected draw or concede POWER";
			}
		} else if (strcmp(k, "points") == 0) {
			if (str_to_long(rest, -1000, 1000, &num) < 0)
				why = "bad number";
			g->del[pw].points = (int)num;
		} else if (strcmp(k, "goal") == 0) {
			why = read_goal(&g->del[pw], rest);
		} else if (strcmp(k, "control-bonus") == 0) {
			str_copy(g->del[pw].bonus, rest, sizeof g->del[pw].bonus);

		} else if (strcmp(k, "order") == 0) {
			if (npo < MAP_MAX_POWERS * GAME_MAX_ORDERS) {
				po[npo].power = pw;
				po[npo].line = lineno;
				str_copy(po[npo].text, rest, sizeof po[npo].text);
				npo++;
			}
		} else {
			why = "unknown key";
		}
		if (why) {
			buf_printf(err, "%d: %s: %s\n", lineno, why, k);
			errors++;
		}
	}
	buf_init(&berr, 1 << 16);
	if (board_read(&g->board, g->map, buf_str(&boardtxt), boardtxt.len, &berr) < 0) {
		/* The board's complaints, with the file's line numbers: a
		 * missing line is missed where the file ends. */
		const char *q = buf_str(&berr), *qend = q + berr.len, *l;
		size_t k;
		while ((l = str_next_line(&q, qend, &k)) != NULL) {
			long bl = 0;
			size_t digits = strspn(l, "0123456789");
			if (digits > 0 && digits + 1 < k && l[digits] == ':' &&
			    (bl = strtol(l, NULL, 10)) >= 1 && bl <= nbline)
				buf_printf(err, "%d%.*s\n", bline[bl - 1], (int)(k - digits), l + digits);
			else
				buf_printf(err, "%d: %.*s\n", lineno, (int)k, l);
		}
		errors++;
	}
	buf_free(&berr);
	free(bline);
	game_set_rules(g);
	/* Orders need the board to be read. */
	for (i = 0; i < npo; i++) {
		struct parse_ctx c = { g->map, g->names, &g->board, po[i].power };
		struct parse_result r;

		order_parse(&c, po[i].text, strlen(po[i].text), &r);
		if (r.verdict == VERDICT_REFUSED || r.verdict == VERDICT_BLANK ||
		    (r.order.kind == ORDER_REVIVE ?
			game_set_revival(g, po[i].power, &r.order, &r.prefs) :
			game_set_order(g, po[i].power, &r.order)) < 0) {
			buf_printf(err, "%d: cannot read order \"%s\"\n", po[i].line, po[i].text);
			errors++;
		}
	}
	free(po);
	buf_free(&boardtxt);
	return errors ? -1 : 0;
}

bool
game_held_together(const struct game *g, power_id p, power_id q)
{
	const struct delegation *a = &g->del[p], *b = &g->del[q];

	if (p == q)
		return true;
	return a->secret[0] != '\0' && !a->resigned && !b->resigned && a->nmembers > 0 &&
	    b->nmembers > 0 && strcmp(a->secret, b->secret) == 0;
}

bool
game_first_held(const struct game *g, power_id p)
{
	int q;

	for (q = 0; q < p; q++)
		if (game_held_together(g, (power_id)q, p))
			return false;
	return true;
}
