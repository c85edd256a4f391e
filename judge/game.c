#define _DEFAULT_SOURCE
#include "game.h"

#include <stddef.h>
#include <stdio.h>
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/scan.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../lib/tz.h"
#include "../parser/orders.h"
#include "engine/adjudicate.h"
#include "engine/resolver.h"
#include "system.h"

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

/* The kinds of value a game setting takes (game_settings_set). */
enum setting_kind {
	SETTING_WORD,		/* one of its words only (an enum, as int) */
	SETTING_FLAG,		/* one of its words only (bool) */
	SETTING_EDITION,	/* an edition (edition_parse) */
	SETTING_ZONE,		/* a time zone the lookup knows (char[ZONE_MAX]) */
	SETTING_SPAN,		/* a span such as 24h (long seconds) */
	SETTING_LENGTH,		/* a span of more than nothing (long seconds) */
	SETTING_TIME,		/* HH:MM: minutes after midnight (int) */
	SETTING_DAYS,		/* weekdays, or any (uint8_t mask, bit 0 Sunday) */
	SETTING_SYSTEM,		/* here: the rule system's own (its settings) */
};

/* A word a setting takes for a value ("grey", "none"), any case. */
struct setting_word {
	const char *word;
	long value;
};

static const struct setting_word press_words[] = {
	{ "none", PRESS_NONE }, { "white", PRESS_WHITE }, { "grey", PRESS_GREY },
	{ "gray", PRESS_GREY }, { "private", PRESS_PRIVATE }, { NULL, 0 },
};
static const struct setting_word nmr_words[] = {
	{ "wait", NMR_WAIT }, { "cd", NMR_CD }, { "civil-disorder", NMR_CD }, { NULL, 0 },
};
static const struct setting_word yes_words[] = {
	{ "yes", 1 }, { "on", 1 }, { "no", 0 }, { "off", 0 }, { NULL, 0 },
};
static const struct setting_word no_time_words[] = { { "none", -1 }, { NULL, 0 } };
static const struct setting_word no_span_words[] = { { "none", 0 }, { "0", 0 }, { NULL, 0 } };

_Static_assert(sizeof(enum press_policy) == sizeof(int) && sizeof(enum nmr_policy) == sizeof(int),
    "a SETTING_WORD is stored as an int");

/*
 * The settings a game master may SET (and NEWGAME's options): each key
 * with the kind of its value, where it is kept, and the words it takes
 * besides (tried first). An alias is another name for the setting above
 * it, not listed when a key is unknown.
 */
#define SET_OFF(m) offsetof(struct game_settings, m)
static const struct setting {
	const char *key;
	enum setting_kind kind;
	size_t off;
	const struct setting_word *words;	/* or NULL */
	bool alias;
} settings[] = {
	{ "press", SETTING_WORD, SET_OFF(press), press_words, false },
	{ "nmr", SETTING_WORD, SET_OFF(nmr), nmr_words, false },
	{ "edition", SETTING_EDITION, SET_OFF(edition), NULL, false },
	{ "zone", SETTING_ZONE, SET_OFF(zone), NULL, false },
	{ "movement", SETTING_LENGTH, SET_OFF(duration[PHASE_MOVEMENT]), NULL, false },
	{ "retreat", SETTING_LENGTH, SET_OFF(duration[PHASE_RETREAT]), NULL, false },
	{ "adjustment", SETTING_LENGTH, SET_OFF(duration[PHASE_ADJUSTMENT]), NULL, false },
	{ "first-movement", SETTING_LENGTH, SET_OFF(first_movement), no_span_words, false },
	{ "grace", SETTING_SPAN, SET_OFF(grace), NULL, false },
	{ "remind", SETTING_SPAN, SET_OFF(remind), NULL, false },
	{ "time", SETTING_TIME, SET_OFF(deadline_minute), no_time_words, false },
	{ "days", SETTING_DAYS, SET_OFF(days), NULL, false },
	{ "gmpress", SETTING_FLAG, SET_OFF(gm_reads_press), yes_words, false },
	{ "gm-reads-press", SETTING_FLAG, SET_OFF(gm_reads_press), yes_words, true },
	{ NULL, SETTING_SYSTEM, 0, NULL, false },
	{ "dated-orders", SETTING_FLAG, SET_OFF(dated_orders), yes_words, false },
};
#undef SET_OFF

/* Store n at base, a field of setting k's kind. */
static void
setting_store(const struct setting *k, char *base, long n)
{
	switch (k->kind) {
	case SETTING_WORD:
	case SETTING_TIME:
		*(int *)(void *)base = (int)n;
		break;
	case SETTING_FLAG:
		*(bool *)(void *)base = n != 0;
		break;
	case SETTING_DAYS:
		*(uint8_t *)(void *)base = (uint8_t)n;
		break;
	case SETTING_SPAN:
	case SETTING_LENGTH:
		*(long *)(void *)base = n;
		break;
	case SETTING_EDITION:
	case SETTING_ZONE:
	case SETTING_SYSTEM:
		assert(!"a setting of this kind takes no word");
		break;
	}
}

/* Set k of s to v. Returns 0, or -1 when v is no value of k. */
static int
setting_apply(struct game_settings *s, const struct setting *k, const char *v,
    const struct tz_lookup *zones)
{
	char *base = (char *)s + k->off;
	const struct setting_word *w;
	uint8_t mask;
	long n;
	int hh, mm;

	for (w = k->words; w && w->word; w++)
		if (str_eq_nocase(v, w->word)) {
			setting_store(k, base, w->value);
			return 0;
		}
	switch (k->kind) {
	case SETTING_WORD:
	case SETTING_FLAG:
		return -1;
	case SETTING_EDITION:
		return edition_parse(v, (enum edition *)(void *)base) < 0 ? -1 : 0;
	case SETTING_ZONE:
		if (!tz_valid(zones, v))
			return -1;
		str_copy(base, v, ZONE_MAX);
		return 0;
	case SETTING_SPAN:
	case SETTING_LENGTH:
		if (time_parse_span(v, &n) < 0 || (k->kind == SETTING_LENGTH && n <= 0))
			return -1;
		setting_store(k, base, n);
		return 0;
	case SETTING_TIME:
		if (strlen(v) != 5 || v[2] != ':' || (hh = (v[0] - '0') * 10 + (v[1] - '0')) < 0 ||
		    hh >= 24 || (mm = (v[3] - '0') * 10 + (v[4] - '0')) < 0 || mm >= 60)
			return -1;
		setting_store(k, base, hh * 60 + mm);
		return 0;
	case SETTING_DAYS:
		if (days_parse(v, true, &mask) < 0)
			return -1;
		setting_store(k, base, mask);
		return 0;
	case SETTING_SYSTEM:
		break;
	}
	return -1;
}

/* Set key of s, or of g's rule system when g is not NULL (s is then
 * &g->set), to v, as game_set. */
static int
settings_set(struct game_settings *s, struct game *g, const char *key, const char *v,
    const struct tz_lookup *zones, struct buf *why)
{
	const struct rule_system *sys = g != NULL ? g->sys : NULL;
	int nsys = sys != NULL ? sys->nsettings : 0, k, n = 0;
	size_t i;

	for (i = 0; i < sizeof settings / sizeof settings[0]; i++) {
		if (settings[i].kind == SETTING_SYSTEM) {
			for (k = 0; k < nsys; k++)
				if (str_eq_nocase(key, sys->settings[k].key)) {
					if (sys->settings[k].set(g, v) == 0)
						return 0;
					break;
				}
			if (k == nsys)
				continue;
		} else if (!str_eq_nocase(key, settings[i].key)) {
			continue;
		} else if (setting_apply(s, &settings[i], v, zones) == 0) {
			return 0;
		}
		buf_printf(why, "bad value \"%s\" for %s", v, key);
		return -1;
	}
	buf_printf(why, "unknown setting \"%s\" (", key);
	for (i = 0; i < sizeof settings / sizeof settings[0]; i++)
		if (settings[i].kind == SETTING_SYSTEM) {
			for (k = 0; k < nsys; k++)
				buf_printf(why, "%s%s", n++ ? ", " : "", sys->settings[k].key);
		} else if (!settings[i].alias) {
			buf_printf(why, "%s%s", n++ ? ", " : "", settings[i].key);
		}
	buf_putc(why, ')');
	return -1;
}

int
game_settings_set(struct game_settings *s, const char *key, const char *v,
    const struct tz_lookup *zones, struct buf *why)
{
	return settings_set(s, NULL, key, v, zones, why);
}

int
game_set(struct game *g, const char *key, const char *v, const struct tz_lookup *zones,
    struct buf *why)
{
	return settings_set(&g->set, g, key, v, zones, why);
}

void
game_room(void *slot, size_t max, size_t size)
{
	void **p = slot;

	if (*p == NULL)
		*p = xcalloc(max, size);
}

/* Free the records game_room made room for. */
static void
free_rooms(struct game *g)
{
	free(g->observers);
	free(g->bouncing);
	free(g->years);
	free(g->awards);
}

void
game_member_room(struct delegation *d, int n)
{
	int k;

	if (n <= 0) {
		free(d->members);
		d->members = NULL;
		return;
	}
	d->members = xreallocarray(d->members, (size_t)n, sizeof *d->members);
	for (k = d->nmembers; k < n; k++)
		memset(&d->members[k], 0, sizeof d->members[k]);
}

/* Room for one more order in d (which holds fewer than GAME_MAX_ORDERS). */
static void
order_room(struct delegation *d)
{
	if (d->norders < d->orders_room)
		return;
	d->orders_room = d->orders_room ? d->orders_room * 2 : 8;
	if (d->orders_room > GAME_MAX_ORDERS)
		d->orders_room = GAME_MAX_ORDERS;
	d->orders = xreallocarray(d->orders, (size_t)d->orders_room, sizeof *d->orders);
}

/* Free g's delegations and what each holds. */
static void
free_delegations(struct game *g)
{
	for (int p = 0; p < g->ndel; p++) {
		free(g->del[p].members);
		free(g->del[p].orders);
	}
	free(g->del);
	g->del = NULL;
	g->ndel = 0;
}

void
game_fit_delegations(struct game *g)
{
	int n = g->map->npowers > 0 ? g->map->npowers : 1, p;

	if (n <= g->ndel)
		return;
	g->del = xreallocarray(g->del, (size_t)n, sizeof *g->del);
	memset(&g->del[g->ndel], 0, (size_t)(n - g->ndel) * sizeof *g->del);
	for (p = g->ndel; p < n; p++)
		g->del[p].concede_to = POWER_NONE;
	g->ndel = n;
}

void
game_init(struct game *g, const char *name, const struct game_settings *s, const struct map *m,
    const struct names *nm, time_t now)
{
	memset(g, 0, sizeof *g);
	str_copy(g->name, name, sizeof g->name);
	g->set = *s;
	g->status = GAME_FORMING;
	g->created = now;
	g->map = m;
	g->names = nm;
	game_set_rules(g);
	board_init_start(&g->board, m);
	game_fit_delegations(g);
}

void
game_set_rules(struct game *g)
{
	rules_for_map(&g->rules, g->map, g->set.edition);
}

bool
game_victory_points(const struct game *g)
{
	return (map_caps(g->map) & RULES_POINTS) != 0;
}

int
game_standings(const struct game *g, const struct board *b, struct standing *out)
{
	int points[MAP_MAX_POWERS];
	bool bonus[MAP_MAX_POWERS];
	int p;

	for (p = 0; p < g->map->npowers; p++) {
		points[p] = g->del[p].points;
		bonus[p] = system_standing_bonus(g, (power_id)p);
	}
	return muna_standings(g->map, b, points, bonus, out);
}

void
game_award(struct game *g, power_id p, int points, bool rules, const char *reason)
{
	struct award *a;

	g->del[p].points += points;
	GAME_ROOM(g, awards, GAME_MAX_AWARDS);
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

bool
game_phase_since(const char *code, const struct board *b)
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
	int i, k = 0;

	for (i = 0; i < g->nawards; i++) {
		const struct award *a = &g->awards[i];
		if (a->rules && game_phase_since(a->phase, b))
			g->del[a->power].points -= a->points;
		else
			g->awards[k++] = *a;
	}
	g->nawards = k;
}

char *
game_stage(const struct game *g, char *out, size_t size)
{
	return system_stage(g, out, size);
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
game_press_name(enum press_policy p)
{
	return p == PRESS_NONE ? "none" : p == PRESS_GREY ? "grey" : p == PRESS_PRIVATE ? "private" :
	    "white";
}

const char *
game_status_name(enum game_status s)
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
	return system_alive(g, p);
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
		return due < 0 || (due > 0 && game_build_sites(g, p) > 0);
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
			int sites = game_build_sites(g, p);
			for (k = 0; k < d->norders; k++)
				n += d->orders[k].kind == ORDER_BUILD || d->orders[k].kind == ORDER_WAIVE;
			return n >= (due < sites ? due : sites);
		}
		return true;
	}
}

/* Units that stack: how many units of o's type stand in o's province (in a
 * retreat phase: are dislodged from it). */
static int
stack_units(const struct game *g, const struct order *o)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	prov_id pr = m->locs[o->loc].prov;
	int i, n = 0;

	if (b->phase == PHASE_RETREAT) {
		for (i = 0; i < b->ndislodged; i++)
			n += m->locs[b->dislodged[i].unit.loc].prov == pr &&
			    (b->dislodged[i].unit.type & ~UNIT_ABOARD) == o->type;
		return n;
	}
	for (i = 0; i < b->nunits; i++)
		n += m->locs[b->units[i].loc].prov == pr && (b->units[i].type & ~UNIT_ABOARD) == o->type;
	return n;
}

/* Orders to a stack (RULES_STACKS) go to its units in turn: the order
 * that o replaces (the oldest one to a unit of its type there when every
 * such unit has one: the latest orders stand, so a stack ordered again in
 * a later mail takes the new orders), or -1 when o is added. A stack's
 * orders are kept oldest first (game_set_order). */
static int
stack_slot(const struct game *g, const struct delegation *d, const struct order *o)
{
	const struct map *m = g->map;
	int k, oldest = -1, n = 0;

	for (k = 0; k < d->norders; k++)
		if (d->orders[k].kind != ORDER_WAIVE && d->orders[k].loc != LOC_NONE &&
		    m->locs[d->orders[k].loc].prov == m->locs[o->loc].prov &&
		    d->orders[k].type == o->type) {
			if (oldest < 0)
				oldest = k;
			n++;
		}
	return n >= stack_units(g, o) ? oldest : -1;
}

/* Builds stack where units do (RULES_STACKS): a build of p for a province it has a
 * build for already raises another unit there while p has builds due not
 * yet ordered (each build or waiver uses one); when it has none, the
 * build replaces the last one there. The order o replaces, or -1 when o
 * is added. */
static int
build_slot(const struct game *g, power_id p, const struct order *o)
{
	const struct delegation *d = &g->del[p];
	const struct map *m = g->map;
	int k, last = -1, given = 0;

	for (k = 0; k < d->norders; k++) {
		const struct order *e = &d->orders[k];
		given += e->kind == ORDER_BUILD || e->kind == ORDER_WAIVE;
		if (e->kind == ORDER_BUILD && e->loc != LOC_NONE &&
		    m->locs[e->loc].prov == m->locs[o->loc].prov)
			last = k;
	}
	return given < adj_builds_due(m, &g->board, p) ? -1 : last;
}

int
game_stack_replaces(const struct game *g, power_id p, const struct order *o, int *units)
{
	if (!(map_caps(g->map) & RULES_STACKS) || o->kind == ORDER_WAIVE || o->kind == ORDER_REVIVE ||
	    o->loc == LOC_NONE)
		return -1;
	*units = 0;
	if (o->kind == ORDER_BUILD)
		return build_slot(g, p, o);
	*units = stack_units(g, o);
	return *units > 1 ? stack_slot(g, &g->del[p], o) : -1;
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
	} else if (o->kind != ORDER_WAIVE && o->loc != LOC_NONE &&
	    (map_caps(g->map) & RULES_STACKS)) {
		k = o->kind == ORDER_BUILD ? build_slot(g, p, o) : stack_slot(g, d, o);
		if (k >= 0 && o->kind != ORDER_BUILD) {
			/* The oldest goes; the new one comes last, the newest. */
			memmove(&d->orders[k], &d->orders[k + 1],
			    (size_t)(d->norders - k - 1) * sizeof d->orders[0]);
			d->orders[d->norders - 1] = *o;
			return 0;
		}
		if (k >= 0) {
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
	order_room(d);
	d->orders[d->norders++] = *o;
	return 0;
}

void
game_format_order(const struct game *g, power_id p, const struct order *o, struct buf *out)
{
	if (o->kind == ORDER_REVIVE)
		system_format_list(g, p, o, out);
	else
		order_format(g->map, o, ORDER_SHORT, out);
}

bool
game_ordered_in(const struct game *g, power_id p, prov_id q)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->norders; k++)
		if (d->orders[k].loc != LOC_NONE && g->map->locs[d->orders[k].loc].prov == q)
			return true;
	return false;
}

void
game_clear_orders(struct game *g, power_id p)
{
	int i;

	for (i = 0; i < g->map->npowers; i++)
		if (p == POWER_NONE || p == i)
			g->del[i].norders = 0;
}

/* ---------------------------------------------------------- the fields -- */

/*
 * Every line of the game file is a field of the tables below: its writer
 * and its reader sit side by side, so that neither can be added without
 * the other (tests/unit/test_game.c writes a game with every field set and
 * checks that every key is written and read back alike). game_write() walks
 * the parts in order; in each part the common table, then the rule
 * systems' tables.
 */

#define MEMBER_SIZE(type, m) sizeof(((type *)0)->m)

/* What game_read keeps until every line is read: the board's lines (read
 * as one board) and the orders (read against that board). */
struct pending_order {
	power_id power;
	int line;
	char text[160];
};

struct game_pending {
	struct buf board;
	int *bline;		/* each board line's line in the file */
	int nbline;
	struct pending_order *po;
	int npo;
};

/* A game's tables: the common one, then its system's (or none). */
static int
game_tables(const struct game *g, const struct game_field_table *out[2])
{
	out[0] = &game_common_fields;
	if (g->sys == NULL || g->sys->fields == NULL)
		return 1;
	out[1] = g->sys->fields;
	return 2;
}

/* Where field f's value lives: in g, or in power p's delegation. */
static const void *
field_value(const struct game_field *f, const struct game *g, power_id p)
{
	const char *base = p == POWER_NONE ? (const char *)g : (const char *)&g->del[p];

	return base + f->off;
}

static void *
field_place(const struct game_field *f, struct game *g, power_id p)
{
	char *base = p == POWER_NONE ? (char *)g : (char *)&g->del[p];

	return base + f->off;
}

void
game_field_key(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	buf_puts(out, f->keys);
	if (p != POWER_NONE)
		buf_printf(out, " %s", g->map->powers[p].token);
}

void
game_put_span(struct buf *out, long s)
{
	if (s % 3600 == 0)
		buf_printf(out, "%ldh\n", s / 3600);
	else
		buf_printf(out, "%ldm\n", s / 60);
}

power_id
game_scan_power(const struct map *m, const char **v)
{
	char name[64];

	if (scan_name(v, name, sizeof name) < 0)
		return POWER_NONE;
	scan_blanks(v);
	return map_find_power(m, name);
}

/* Shared writers and readers: a value at f->off of a kind. */

void
game_field_write_text(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const char *s = field_value(f, g, p);

	if (s[0] == '\0' && (f->flags & GAME_FIELD_OPTIONAL))
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", s);
}

const char *
game_field_read_text(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	str_copy(field_place(f, in->g, p), v, (size_t)f->max);
	return NULL;
}

static void
write_time(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	time_t t = *(const time_t *)field_value(f, g, p);
	char s[32];

	if (t == 0)
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", time_rfc3339(t, s, sizeof s));
}

static const char *
read_time(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	return time_parse_utc(v, field_place(f, in->g, p)) < 0 ? "bad time" : NULL;
}

static void
write_span(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	long s = *(const long *)field_value(f, g, p);

	if (s == 0 && (f->flags & GAME_FIELD_OPTIONAL))
		return;
	game_field_key(f, g, p, out);
	buf_putc(out, ' ');
	game_put_span(out, s);
}

static const char *
read_span(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	return time_parse_span(v, field_place(f, in->g, p)) < 0 ? "bad span" : NULL;
}

static void
write_long(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	long n = *(const long *)field_value(f, g, p);

	if (n == 0 && (f->flags & GAME_FIELD_OPTIONAL))
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %ld\n", n);
}

static const char *
read_long(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	return str_to_long(v, f->min, f->max, field_place(f, in->g, p)) < 0 ? "bad number" : NULL;
}

static void
write_int(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int n = *(const int *)field_value(f, g, p);

	if (n == 0 && (f->flags & GAME_FIELD_OPTIONAL))
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %d\n", n);
}

static const char *
read_int(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	long n;

	if (str_to_long(v, f->min, f->max, &n) < 0)
		return "bad number";
	*(int *)field_place(f, in->g, p) = (int)n;
	return NULL;
}

static void
write_yes(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	bool b = *(const bool *)field_value(f, g, p);

	if (!b && (f->flags & GAME_FIELD_OPTIONAL))
		return;
	game_field_key(f, g, p, out);
	buf_puts(out, b ? " yes\n" : " no\n");
}

static const char *
read_yes(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	*(bool *)field_place(f, in->g, p) = strcmp(v, "yes") == 0;
	return NULL;
}

/* The game's own fields. */

static const char *
read_game_name(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	game_field_read_text(f, in, p, v);
	return game_name_valid(v) ? NULL : "bad game name";
}

/* The variant is read before every other line (game_read). */
static const char *
read_variant(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)in, (void)p, (void)v;
	return NULL;
}

static void
write_edition(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", edition_name(g->set.edition));
}

static const char *
read_edition(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return edition_parse(v, &in->g->set.edition) < 0 ? "unknown edition" : NULL;
}

static void
write_status(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", game_status_name(g->status));
}

static const char *
read_status(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	int i;

	(void)f, (void)p;
	for (i = 0; i <= GAME_ENDED; i++)
		if (strcmp(v, game_status_name((enum game_status)i)) == 0) {
			in->g->status = (enum game_status)i;
			return NULL;
		}
	return "unknown status";
}

/* "duration movement 48h", a line for each kind of phase. */
static void
write_duration(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	for (i = 0; i < 3; i++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %s ", phase_keys[i]);
		game_put_span(out, g->set.duration[i]);
	}
}

static const char *
read_duration(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct scan_word w;
	int i;

	(void)f, (void)p;
	if (scan_word(&v, &w) == 0)
		for (i = 0; i < 3; i++)
			if (scan_word_is(&w, phase_keys[i]))
				return time_parse_span(scan_rest(&v), &in->g->set.duration[i]) < 0 ?
				    "expected: duration movement|retreat|adjustment SPAN" : NULL;
	return "expected: duration movement|retreat|adjustment SPAN";
}

static void
write_deadline_time(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int m = g->set.deadline_minute;

	if (m < 0)
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %02d:%02d\n", m / 60, m % 60);
}

static const char *
read_deadline_time(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	int hh, mm;

	(void)f, (void)p;
	if (strlen(v) == 5 && v[2] == ':' && (hh = (v[0] - '0') * 10 + v[1] - '0') < 24 &&
	    (mm = (v[3] - '0') * 10 + v[4] - '0') < 60 && hh >= 0 && mm >= 0) {
		in->g->set.deadline_minute = hh * 60 + mm;
		return NULL;
	}
	return "expected HH:MM";
}

static void
write_days(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	if (g->set.days == 0)
		return;
	game_field_key(f, g, p, out);
	for (i = 0; i < 7; i++)
		if (g->set.days & (1 << i))
			buf_printf(out, " %s", day_names[i]);
	buf_putc(out, '\n');
}

static const char *
read_days(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return days_parse(v, false, &in->g->set.days) < 0 ? "unknown day" : NULL;
}

static void
write_press(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", game_press_name(g->set.press));
}

static const char *
read_press(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	in->g->set.press = strcmp(v, "none") == 0 ? PRESS_NONE :
	    strcmp(v, "grey") == 0 ? PRESS_GREY : strcmp(v, "private") == 0 ? PRESS_PRIVATE :
	    PRESS_WHITE;
	return NULL;
}

static void
write_nmr(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	game_field_key(f, g, p, out);
	buf_puts(out, g->set.nmr == NMR_CD ? " civil-disorder\n" : " wait\n");
}

static const char *
read_nmr(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	in->g->set.nmr = strcmp(v, "wait") == 0 ? NMR_WAIT : NMR_CD;
	return NULL;
}

/* The lists of addresses: a line each. */

static void
write_gms(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	for (i = 0; i < g->ngms; i++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %s\n", g->gms[i]);
	}
}

static const char *
read_gm(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game *g = in->g;

	(void)f, (void)p;
	if (g->ngms < GAME_MAX_GMS)
		str_copy(g->gms[g->ngms++], v, ADDR_MAX);
	return NULL;
}

static void
write_observers(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	for (i = 0; i < g->nobservers; i++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %s\n", g->observers[i]);
	}
}

static const char *
read_observer(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game *g = in->g;

	(void)f, (void)p;
	if (g->nobservers < GAME_MAX_OBSERVERS) {
		GAME_ROOM(g, observers, GAME_MAX_OBSERVERS);
		str_copy(g->observers[g->nobservers++], v, ADDR_MAX);
	}
	return NULL;
}

/* "bounces 2 addr": mail to addr came back twice. */
static void
write_bounces(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	for (i = 0; i < g->nbouncing; i++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %d %s\n", g->bouncing[i].count, g->bouncing[i].addr);
	}
}

static const char *
read_bounces(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game *g = in->g;
	const char *addr;
	long n;

	(void)f, (void)p;
	if (scan_long(&v, 1, 1000000, &n) < 0 || *(addr = scan_rest(&v)) == '\0')
		return "expected bounces COUNT ADDRESS";
	if (g->nbouncing < GAME_MAX_BOUNCING) {
		GAME_ROOM(g, bouncing, GAME_MAX_BOUNCING);
		str_copy(g->bouncing[g->nbouncing].addr, addr, ADDR_MAX);
		g->bouncing[g->nbouncing++].count = (int)n;
	}
	return NULL;
}

/* The delegations' fields: "KEY POWER ...". */

/* "member England addr [zone]". */
static void
write_members(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->nmembers; k++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %s%s%s\n", d->members[k].addr, d->members[k].zone[0] ? " " : "",
		    d->members[k].zone);
	}
}

static const char *
read_member(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct delegation *d = &in->g->del[p];
	struct member *mb;
	struct scan_word addr;

	(void)f;
	if (d->nmembers >= GAME_MAX_MEMBERS)
		return "too many members";
	game_member_room(d, d->nmembers + 1);
	mb = &d->members[d->nmembers];
	if (scan_word(&v, &addr) < 0)
		addr = (struct scan_word){ "", 0 };
	str_ncopy_trim(mb->addr, sizeof mb->addr, addr.ptr, addr.len);
	str_copy(mb->zone, scan_rest(&v), sizeof mb->zone);
	d->nmembers++;
	return NULL;
}

/* "flags England wait resigned reminded", those that are set. */
static void
write_flags(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const struct delegation *d = &g->del[p];

	if (!d->wait && !d->resigned && !d->reminded)
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, "%s%s%s\n", d->wait ? " wait" : "", d->resigned ? " resigned" : "",
	    d->reminded ? " reminded" : "");
}

static const char *
read_flags(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct delegation *d = &in->g->del[p];

	(void)f;
	d->wait = strstr(v, "wait") != NULL;
	d->resigned = strstr(v, "resigned") != NULL;
	d->reminded = strstr(v, "reminded") != NULL;
	return NULL;
}

/* "vote England draw", "vote England concede France". */
static void
write_vote(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const struct delegation *d = &g->del[p];

	if (d->vote == VOTE_DRAW) {
		game_field_key(f, g, p, out);
		buf_puts(out, " draw\n");
	} else if (d->vote == VOTE_CONCEDE && d->concede_to != POWER_NONE) {
		game_field_key(f, g, p, out);
		buf_printf(out, " concede %s\n", g->map->powers[d->concede_to].token);
	}
}

static const char *
read_vote(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct delegation *d = &in->g->del[p];

	(void)f;
	if (str_prefix_nocase(v, "draw")) {
		d->vote = VOTE_DRAW;
		return NULL;
	}
	if (!str_prefix_nocase(v, "concede "))
		return "expected draw or concede POWER";
	d->vote = VOTE_CONCEDE;
	v += 8;
	d->concede_to = map_find_power(in->g->map, scan_rest(&v));
	return d->concede_to == POWER_NONE ? "unknown power conceded to" : NULL;
}

/* "order England A par - bur", read once the board is. */
static void
write_orders(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->norders; k++) {
		game_field_key(f, g, p, out);
		buf_putc(out, ' ');
		game_format_order(g, p, &d->orders[k], out);
		buf_putc(out, '\n');
	}
}

static const char *
read_order(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game_pending *pd = in->pending;
	struct pending_order *o = &pd->po[pd->npo];

	(void)f;
	if (pd->npo < MAP_MAX_POWERS * GAME_MAX_ORDERS) {
		o->power = p;
		o->line = in->line;
		str_copy(o->text, v, sizeof o->text);
		pd->npo++;
	}
	return NULL;
}

/* The position, last. */

/* "centres 1901 5 3 ...": the centre counts at the end of a year, in the
 * order of the powers. */
static void
write_centres(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i, q;

	for (i = 0; i < g->nyears; i++) {
		game_field_key(f, g, p, out);
		buf_printf(out, " %d", g->years[i].year);
		for (q = 0; q < g->map->npowers; q++)
			buf_printf(out, " %d", g->years[i].centres[q]);
		buf_putc(out, '\n');
	}
}

static const char *
read_centres(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game *g = in->g;
	long num;
	int q = 0;

	(void)f, (void)p;
	if (g->nyears >= GAME_MAX_YEARS || scan_long(&v, 1, 99999, &num) < 0)
		return "expected: centres YEAR COUNT...";
	GAME_ROOM(g, years, GAME_MAX_YEARS);
	g->years[g->nyears].year = (int)num;
	while (q < MAP_MAX_POWERS && scan_long(&v, 0, 255, &num) == 0)
		g->years[g->nyears].centres[q++] = (uint8_t)num;
	g->nyears++;
	return NULL;
}

/* The board in its own text form (board.h); its lines are read as one board. */
static void
write_board(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	board_write(&g->board, g->map, out);
}

static const char *
read_board_line(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game_pending *pd = in->pending;

	(void)f, (void)p;
	buf_printf(&pd->board, "%s %s\n", in->key, v);
	pd->bline = xreallocarray(pd->bline, (size_t)pd->nbline + 1, sizeof *pd->bline);
	pd->bline[pd->nbline++] = in->line;
	return NULL;
}

/* "award S1936M England +2 officers The reason". */
static void
write_awards(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	int i;

	for (i = 0; i < g->nawards; i++) {
		const struct award *a = &g->awards[i];
		game_field_key(f, g, p, out);
		buf_printf(out, " %s %s %+d %s %s\n", a->phase, g->map->powers[a->power].token,
		    a->points, a->rules ? "rules" : "officers", a->reason);
	}
}

static const char *
read_award(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct game *g = in->g;
	struct award *a;
	char ph[sizeof a->phase], pw[64];
	struct scan_word who;
	long n;

	(void)f, (void)p;
	if (g->nawards >= GAME_MAX_AWARDS || scan_name(&v, ph, sizeof ph) < 0 || ph[0] == '\0' ||
	    scan_name(&v, pw, sizeof pw) < 0 || scan_long(&v, -1000, 1000, &n) < 0 ||
	    scan_word(&v, &who) < 0 || !(scan_word_is(&who, "rules") || scan_word_is(&who, "officers")))
		return "expected: award PHASE POWER POINTS officers|rules REASON";
	GAME_ROOM(g, awards, GAME_MAX_AWARDS);
	a = &g->awards[g->nawards];
	if ((a->power = map_find_power(g->map, pw)) == POWER_NONE)
		return "unknown power";
	str_copy(a->phase, ph, sizeof a->phase);
	a->points = (int)n;
	a->rules = scan_word_is(&who, "rules");
	str_copy(a->reason, scan_rest(&v), sizeof a->reason);
	g->nawards++;
	return NULL;
}

/* The lines of the rule system's settings (its fields of part
 * GAME_PART_SETTING), where the common table places them. */
static void
write_system_settings(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out)
{
	size_t i;

	(void)f;
	if (g->sys == NULL || g->sys->fields == NULL)
		return;
	for (i = 0; i < g->sys->fields->n; i++) {
		const struct game_field *s = &g->sys->fields->fields[i];
		if (s->part == GAME_PART_SETTING)
			s->write(s, g, p, out);
	}
}

#define GAME_OFF(m) offsetof(struct game, m)
#define DEL_OFF(m) offsetof(struct delegation, m)
#define OPT GAME_FIELD_OPTIONAL

static const struct game_field common_fields[] = {
	{ "game", GAME_PART_HEAD, game_field_write_text, read_game_name,
	    GAME_OFF(name), 0, GAME_NAME_MAX, 0 },
	{ "variant", GAME_PART_HEAD, game_field_write_text, read_variant,
	    GAME_OFF(set.variant), 0, 0, 0 },
	{ "edition", GAME_PART_HEAD, write_edition, read_edition, 0, 0, 0, 0 },
	{ "status", GAME_PART_HEAD, write_status, read_status, 0, 0, 0, 0 },
	{ "result", GAME_PART_HEAD, game_field_write_text, game_field_read_text,
	    GAME_OFF(result), 0,
	    MEMBER_SIZE(struct game, result), OPT },
	{ "created", GAME_PART_HEAD, write_time, read_time, GAME_OFF(created), 0, 0, 0 },
	{ "phase-start", GAME_PART_HEAD, write_time, read_time, GAME_OFF(phase_start), 0, 0, 0 },
	{ "deadline", GAME_PART_HEAD, write_time, read_time, GAME_OFF(deadline), 0, 0, 0 },
	{ "paused-left", GAME_PART_HEAD, write_long, read_long, GAME_OFF(paused_left), 0, 1L << 40,
	    OPT },
	{ "gm-told", GAME_PART_HEAD, write_yes, read_yes, GAME_OFF(gm_told), 0, 0, OPT },
	{ "completed", GAME_PART_HEAD, write_time, read_time, GAME_OFF(completed_at), 0, 0, 0 },
	{ "duration", GAME_PART_HEAD, write_duration, read_duration, 0, 0, 0, 0 },
	{ "deadline-time", GAME_PART_HEAD, write_deadline_time, read_deadline_time, 0, 0, 0, 0 },
	{ "deadline-days", GAME_PART_HEAD, write_days, read_days, 0, 0, 0, 0 },
	{ "grace", GAME_PART_HEAD, write_span, read_span, GAME_OFF(set.grace), 0, 0, 0 },
	{ "remind", GAME_PART_HEAD, write_span, read_span, GAME_OFF(set.remind), 0, 0, 0 },
	{ "zone", GAME_PART_HEAD, game_field_write_text, game_field_read_text,
	    GAME_OFF(set.zone), 0, ZONE_MAX, 0 },
	{ "press", GAME_PART_HEAD, write_press, read_press, 0, 0, 0, 0 },
	{ "nmr", GAME_PART_HEAD, write_nmr, read_nmr, 0, 0, 0, 0 },
	{ "gm-reads-press", GAME_PART_HEAD, write_yes, read_yes, GAME_OFF(set.gm_reads_press), 0, 0,
	    0 },
	{ "", GAME_PART_HEAD, write_system_settings, NULL, 0, 0, 0, 0 },
	{ "first-movement", GAME_PART_HEAD, write_span, read_span, GAME_OFF(set.first_movement), 0,
	    0, OPT },
	{ "dated-orders", GAME_PART_HEAD, write_yes, read_yes, GAME_OFF(set.dated_orders), 0, 0,
	    OPT },
	{ "gm", GAME_PART_HEAD, write_gms, read_gm, 0, 0, 0, 0 },
	{ "gm-secret", GAME_PART_HEAD, game_field_write_text, game_field_read_text,
	    GAME_OFF(gm_secret), 0,
	    SECRET_HASH_MAX, OPT },
	{ "seq", GAME_PART_HEAD, write_long, read_long, GAME_OFF(seq), 0, 1L << 50, 0 },
	{ "phases", GAME_PART_HEAD, write_int, read_int, GAME_OFF(nphases), 0, 1000000, 0 },
	{ "rewinds", GAME_PART_HEAD, write_int, read_int, GAME_OFF(rewinds), 0, 1000000, OPT },
	{ "observer", GAME_PART_HEAD, write_observers, read_observer, 0, 0, 0, 0 },
	{ "bounces", GAME_PART_HEAD, write_bounces, read_bounces, 0, 0, 0, 0 },
	{ "member", GAME_PART_POWER, write_members, read_member, 0, 0, 0, 0 },
	{ "secret", GAME_PART_POWER, game_field_write_text, game_field_read_text,
	    DEL_OFF(secret), 0, SECRET_HASH_MAX,
	    OPT },
	{ "flags", GAME_PART_POWER, write_flags, read_flags, 0, 0, 0, 0 },
	{ "vote", GAME_PART_POWER, write_vote, read_vote, 0, 0, 0, 0 },
	{ "points", GAME_PART_POWER, write_int, read_int, DEL_OFF(points), -1000, 1000, OPT },
	{ "order", GAME_PART_ORDERS, write_orders, read_order, 0, 0, 0, 0 },
	{ "award", GAME_PART_STATE, write_awards, read_award, 0, 0, 0, 0 },
	{ "centres", GAME_PART_POSITION, write_centres, read_centres, 0, 0, 0, 0 },
	{ "phase unit dislodged contested owner", GAME_PART_POSITION, write_board, read_board_line,
	    0, 0, 0, 0 },
};

const struct game_field_table game_common_fields = {
	common_fields, sizeof common_fields / sizeof common_fields[0]
};

#undef OPT

/* ------------------------------------------------------ write and read -- */

/* Append the lines of the fields of one part (for power p in the parts of
 * the delegations). */
static void
write_part(const struct game *g, enum game_part part, power_id p, struct buf *out)
{
	const struct game_field_table *tables[2];
	int t, nt = game_tables(g, tables);
	size_t i;

	for (t = 0; t < nt; t++)
		for (i = 0; i < tables[t]->n; i++) {
			const struct game_field *f = &tables[t]->fields[i];
			if (f->part == part)
				f->write(f, g, p, out);
		}
}

void
game_write(const struct game *g, struct buf *out)
{
	int p;

	buf_printf(out, "# pouch game file: replaced whole on every change; see pouch(1)\n");
	write_part(g, GAME_PART_HEAD, POWER_NONE, out);
	for (p = 0; p < g->map->npowers; p++) {
		write_part(g, GAME_PART_POWER, (power_id)p, out);
		write_part(g, GAME_PART_ORDERS, (power_id)p, out);
	}
	write_part(g, GAME_PART_STATE, POWER_NONE, out);
	write_part(g, GAME_PART_POSITION, POWER_NONE, out);
}

/* Every key of the common table with its field, sorted by key: a game
 * file has a line per unit and order, and each is looked up. */
struct field_key {
	char key[24];
	const struct game_field *f;
};

#define FIELD_KEYS_MAX 128

static int
field_key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct field_key *)a)->key, ((const struct field_key *)b)->key);
}

/* The index of the common table's keys, made on first use (the table is
 * constant, so it is the same in every run). */
static const struct field_key *
field_index(size_t *n)
{
	static struct field_key idx[FIELD_KEYS_MAX];
	static size_t nidx;
	size_t i;

	if (nidx == 0) {
		for (i = 0; i < game_common_fields.n; i++) {
			const char *keys = game_common_fields.fields[i].keys;
			struct scan_word w;
			while (scan_word(&keys, &w) == 0) {
				assert(nidx < FIELD_KEYS_MAX && w.len < sizeof idx[0].key);
				memcpy(idx[nidx].key, w.ptr, w.len);
				idx[nidx].key[w.len] = '\0';
				idx[nidx++].f = &game_common_fields.fields[i];
			}
		}
		qsort(idx, nidx, sizeof idx[0], field_key_cmp);
		for (i = 1; i < nidx; i++)
			assert(strcmp(idx[i - 1].key, idx[i].key) != 0);	/* one field a key */
	}
	*n = nidx;
	return idx;
}

/* True when k is one of the blank-separated words of keys. */
static bool
key_among(const char *keys, const char *k)
{
	struct scan_word w;

	while (scan_word(&keys, &w) == 0)
		if (scan_word_is(&w, k))
			return true;
	return false;
}

/* The field of key k in g's tables, or NULL: the common table's by its
 * index, then the system's (a short table) in turn. */
static const struct game_field *
field_find(const struct game *g, const char *k)
{
	struct field_key want;
	const struct field_key *idx, *hit;
	size_t n, i;

	if (str_copy(want.key, k, sizeof want.key) >= sizeof want.key)
		return NULL;
	idx = field_index(&n);
	if ((hit = bsearch(&want, idx, n, sizeof idx[0], field_key_cmp)) != NULL)
		return hit->f;
	if (g->sys != NULL && g->sys->fields != NULL)
		for (i = 0; i < g->sys->fields->n; i++)
			if (key_among(g->sys->fields->fields[i].keys, k))
				return &g->sys->fields->fields[i];
	return NULL;
}

/* Read the value v of a line of key k. Returns NULL or what is wrong. */
static const char *
read_field(struct game_in *in, const char *k, const char *v)
{
	const struct game_field *f = field_find(in->g, k);
	power_id p;

	in->key = k;
	if (f != NULL && f->part != GAME_PART_POWER && f->part != GAME_PART_ORDERS)
		return f->read(f, in, POWER_NONE, v);
	if (f == NULL && in->lookup->setting != NULL && in->lookup->setting(in->lookup->ctx, k))
		return NULL;	/* another system's setting: nothing in this game */
	if ((p = game_scan_power(in->g->map, &v)) == POWER_NONE)
		return "unknown key, or unknown power";
	return f != NULL ? f->read(f, in, p, v) : "unknown key";
}

/* Every line of text, but the board's and the orders, which wait in
 * in->pending. Returns the number of lines in error. */
static int
read_lines(struct game_in *in, const char *text, size_t len, struct buf *err)
{
	const char *p = text, *end = text + len, *line, *why;
	int errors = 0;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;

		in->line++;
		switch (str_split_kv(line, n, buf, sizeof buf, &k, &v)) {
		case 0:
			continue;
		case -1:
			buf_printf(err, "%d: line too long\n", in->line);
			errors++;
			continue;
		default:
			break;
		}
		if ((why = read_field(in, k, v)) != NULL) {
			buf_printf(err, "%d: %s: %s\n", in->line, why, k);
			errors++;
		}
	}
	return errors;
}

/* The variant's name from the "variant" line, needed before the others
 * to read power names. */
static void
read_variant_first(struct game *g, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		if (n > 8 && strncmp(line, "variant ", 8) == 0) {
			char v[64];
			size_t k = n - 8 < sizeof v - 1 ? n - 8 : sizeof v - 1;
			memcpy(v, line + 8, k);
			v[k] = '\0';
			str_copy(g->set.variant, str_trim(v), sizeof g->set.variant);
			return;
		}
	}
}

/* Read the board from its lines; its complaints go to err with the file's
 * line numbers (a missing line is missed where the file ends, at line
 * last). Returns 1 when it cannot be read, else 0. */
static int
read_board(struct game *g, const struct game_pending *pd, int last, struct buf *err)
{
	struct buf berr;
	const char *q, *qend, *l;
	size_t k;

	buf_init(&berr, BUF_ERRORS_MAX);
	if (board_read(&g->board, g->map, buf_str(&pd->board), pd->board.len, &berr) == 0) {
		buf_free(&berr);
		return 0;
	}
	q = buf_str(&berr);
	qend = q + berr.len;
	while ((l = str_next_line(&q, qend, &k)) != NULL) {
		long bl = 0;
		size_t digits = strspn(l, "0123456789");
		if (digits > 0 && digits + 1 < k && l[digits] == ':' &&
		    (bl = strtol(l, NULL, 10)) >= 1 && bl <= pd->nbline)
			buf_printf(err, "%d%.*s\n", pd->bline[bl - 1], (int)(k - digits), l + digits);
		else
			buf_printf(err, "%d: %.*s\n", last, (int)k, l);
	}
	buf_free(&berr);
	return 1;
}

int
game_build_sites(const struct game *g, power_id p)
{
	return system_build_sites(g, p, UNIT_ARMY, NULL, 0);
}

int
game_adjustments_allowed(const struct game *g, power_id p)
{
	int due = adj_builds_due(g->map, &g->board, p), sites;

	if (due <= 0)
		return -due;
	sites = game_build_sites(g, p);
	return due < sites ? due : sites;
}

/* Would game_set_order put o, an adjustment of p, in place of an order p
 * has (a build or removal in the same province; where units stack, as
 * build_slot and stack_slot say)? */
static bool
adjustment_replaces(const struct game *g, power_id p, const struct order *o)
{
	const struct delegation *d = &g->del[p];
	const struct map *m = g->map;
	int k;

	if (o->kind == ORDER_WAIVE || o->loc == LOC_NONE)
		return false;
	if (map_caps(g->map) & RULES_STACKS)
		return (o->kind == ORDER_BUILD ? build_slot(g, p, o) : stack_slot(g, d, o)) >= 0;
	for (k = 0; k < d->norders; k++)
		if (d->orders[k].kind != ORDER_WAIVE && d->orders[k].loc != LOC_NONE &&
		    m->locs[d->orders[k].loc].prov == m->locs[o->loc].prov)
			return true;
	return false;
}

bool
game_adjustment_extra(const struct game *g, power_id p, const struct order *o)
{
	const struct delegation *d = &g->del[p];
	bool removal = o->kind == ORDER_REMOVE;
	int k, n = 0;

	if (g->board.phase != PHASE_ADJUSTMENT || (!removal && o->kind != ORDER_BUILD &&
	    o->kind != ORDER_WAIVE) || adjustment_replaces(g, p, o))
		return false;
	for (k = 0; k < d->norders; k++)
		n += removal ? d->orders[k].kind == ORDER_REMOVE :
		    d->orders[k].kind == ORDER_BUILD || d->orders[k].kind == ORDER_WAIVE;
	return n >= game_adjustments_allowed(g, p);
}

const struct board *
game_parse_board(const struct game *g, struct board *plain)
{
	if (!(map_caps(g->map) & RULES_BOARDING))
		return &g->board;
	*plain = g->board;
	board_plain(plain);
	return plain;
}

/* Read the orders against the board. Returns the number that cannot be read. */
static int
read_orders(struct game *g, const struct game_pending *pd, struct buf *err)
{
	int i, errors = 0;

	for (i = 0; i < pd->npo; i++) {
		const struct pending_order *o = &pd->po[i];
		struct board plain;
		struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), o->power };
		struct parse_result r;

		order_parse(&c, o->text, strlen(o->text), &r);
		if (r.verdict == VERDICT_REFUSED || r.verdict == VERDICT_BLANK ||
		    (r.order.kind == ORDER_REVIVE ? system_keep_list(g, o->power, &r.order, &r.prefs) :
						    game_set_order(g, o->power, &r.order)) < 0) {
			buf_printf(err, "%d: cannot read order \"%s\"\n", o->line, o->text);
			errors++;
		}
	}
	return errors;
}

/* A game as game_read() starts it: the defaults, no delegations. */
static void
game_blank(struct game *g)
{
	game_set_system(g, NULL);
	free_rooms(g);
	free_delegations(g);
	memset(g, 0, sizeof *g);
	game_settings_default(&g->set, "standard");
}

void
game_set_system(struct game *g, const struct rule_system *s)
{
	if (g->sys != NULL && g->sys->state_free != NULL && g->state != NULL)
		g->sys->state_free(g->state);
	g->state = NULL;
	g->sys = s;
	if (s != NULL && s->state_new != NULL)
		g->state = s->state_new(g);
}

void
game_release(struct game *g)
{
	game_set_system(g, NULL);
	free_rooms(g);
	free_delegations(g);
}

void
game_free(struct game *g)
{
	if (g == NULL)
		return;
	game_release(g);
	free(g);
}

/* The system's check of the whole file. Returns the number of errors. */
static int
read_finish(struct game *g, int last, struct buf *err)
{
	const char *why;

	if (g->sys == NULL || g->sys->loaded == NULL || (why = g->sys->loaded(g)) == NULL)
		return 0;
	buf_printf(err, "%d: %s\n", last, why);
	return 1;
}

int
game_read(struct game *g, const char *text, size_t len, const struct game_lookup *lk,
    struct buf *err)
{
	struct game_pending pd = { 0 };
	struct game_in in = { g, NULL, 0, &pd, lk };
	int errors;

	game_blank(g);
	read_variant_first(g, text, len);
	g->map = lk->variant(lk->ctx, g->set.variant, &g->names);
	if (g->map == NULL) {
		buf_printf(err, "unknown variant \"%s\"\n", g->set.variant);
		return -1;
	}
	game_fit_delegations(g);
	game_set_system(g, lk->system != NULL ? lk->system(lk->ctx, g->map) : NULL);
	buf_init(&pd.board, 1 << 20);
	pd.po = xcalloc(MAP_MAX_POWERS * GAME_MAX_ORDERS, sizeof *pd.po);
	errors = read_lines(&in, text, len, err);
	errors += read_board(g, &pd, in.line, err);
	game_set_rules(g);
	errors += read_orders(g, &pd, err);
	errors += read_finish(g, in.line, err);
	free(pd.po);
	free(pd.bline);
	buf_free(&pd.board);
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
