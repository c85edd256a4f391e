/*
 * muna_file.c — MUNA's lines in the game file and in the history records:
 * the control bonus, the goals, the conference, insurrections under way
 * (judge/systems/MUNA.md).
 */
#include "muna_file.h"

#include <string.h>

#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "../../lib/tz.h"
#include "muna_state.h"

/* "goal England 1 The text", "goal England 3 2 approved The text". */
static void
write_goals(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const struct muna_goals *d = &muna_state(g)->goals[p];
	int k;

	for (k = 0; k < GAME_GOALS; k++) {
		if (d->goal[k][0] == '\0')
			continue;
		game_field_key(f, g, p, out);
		if (k < GAME_GOALS - 1)
			buf_printf(out, " %d %s\n", k + 1, d->goal[k]);
		else
			buf_printf(out, " %d %d %s %s\n", k + 1, d->goal_points,
			    d->goal_approved ? "approved" : "proposed", d->goal[k]);
	}
}

static const char *
read_goal(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct muna_goals *d = &muna_state(in->g)->goals[p];
	struct scan_word st;
	long k, pts;

	(void)f;
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

/* "conference mun 1936 Spring England France Germany", none when none is open. */
static void
put_conference(const struct game *g, const struct conference *c, struct buf *out)
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
}

/* "conference-name The Congress of Munich", when the conference has one. */
static void
put_conference_name(const struct conference *c, struct buf *out)
{
	if (c->where != PROV_NONE && c->name[0])
		buf_printf(out, "conference-name %s\n", c->name);
}

/* "conference-goal Keep the peace", when the conference has a goal. */
static void
put_conference_goal(const struct conference *c, struct buf *out)
{
	if (c->where != PROV_NONE && c->goal[0])
		buf_printf(out, "conference-goal %s\n", c->goal);
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

/* Read a "conference" line's value into muna_state(g)->conf. Returns NULL or what is wrong. */
static const char *
conference_read(struct game *g, const char *v)
{
	struct scan_word sw;
	char where[64], pw[64];
	long y;
	int s;

	if (scan_name(&v, where, sizeof where) < 0 || scan_long(&v, 1, 99999, &y) < 0 ||
	    scan_word(&v, &sw) < 0)
		return "expected: conference PROVINCE YEAR SEASON POWER...";
	s = scan_season(&sw);
	muna_state(g)->conf.where = map_find_province(g->map, where);
	if (muna_state(g)->conf.where == PROV_NONE || s < 0)
		return "unknown province or season";
	muna_state(g)->conf.year = (int)y;
	muna_state(g)->conf.season = (uint8_t)s;
	while (scan_name(&v, pw, sizeof pw) == 0) {
		power_id p = map_find_power(g->map, pw);
		if (p == POWER_NONE)
			return "unknown power";
		muna_state(g)->conf.powers |= (uint64_t)1 << p;
	}
	return NULL;
}

static void
write_conference(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	put_conference(g, &muna_state(g)->conf, out);
}

static const char *
read_conference(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return conference_read(in->g, v);
}

static void
write_conference_name(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out)
{
	(void)f, (void)p;
	put_conference_name(&muna_state(g)->conf, out);
}

void
muna_file_write_conference(const struct game *g, const struct conference *c, struct buf *out)
{
	put_conference(g, c, out);
	put_conference_name(c, out);
	put_conference_goal(c, out);
}

void
muna_file_read_conference(struct game *g, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	memset(&muna_state(g)->conf, 0, sizeof muna_state(g)->conf);
	muna_state(g)->conf.where = PROV_NONE;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;
		if (str_split_kv(line, n, buf, sizeof buf, &k, &v) <= 0)
			continue;
		if (strcmp(k, "conference") == 0 && conference_read(g, v) != NULL)
			muna_state(g)->conf.where = PROV_NONE;	/* unreadable: none */
		else if (strcmp(k, "conference-name") == 0)
			str_copy(muna_state(g)->conf.name, v, sizeof muna_state(g)->conf.name);
		else if (strcmp(k, "conference-goal") == 0)
			str_copy(muna_state(g)->conf.goal, v, sizeof muna_state(g)->conf.goal);
	}
}

/* "insurgent England F lon Russia [dislodged]", one per insurrection under way. */
static void
put_insurgents(const struct map *m, const struct muna_season *s, struct buf *out)
{
	int i;

	for (i = 0; i < s->n; i++) {
		const struct insurgent *u = &s->u[i];
		buf_printf(out, "insurgent %s ", m->powers[u->unit.power].token);
		unit_format(m, &u->unit, out);
		buf_printf(out, " %s%s\n", m->powers[u->target].token, u->dislodged ? " dislodged" : "");
	}
}

static const char *
insurgent_read(const struct map *m, struct muna_season *s, const char *v)
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

/* "revival Russia mos stp war": a power's list of centres to revive. */
static void
put_revivals(const struct map *m, const struct muna_season *s, struct buf *out)
{
	int i, p;

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

static const char *
revival_read(const struct map *m, struct muna_season *s, const char *v)
{
	power_id p = game_scan_power(m, &v);
	struct order_prefs *r;
	char name[64];

	if (p == POWER_NONE)
		return "unknown power";
	r = &s->revival[p];
	r->n = 0;
	while (scan_name(&v, name, sizeof name) == 0) {
		prov_id pr = map_find_province(m, name);
		if (pr == PROV_NONE || r->n >= ORDER_MAX_PREFS)
			return "expected: revival POWER PROVINCE...";
		r->prov[r->n++] = pr;
	}
	return NULL;
}

static void
write_insurgents(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	put_insurgents(g->map, &muna_state(g)->season, out);
}

static const char *
read_insurgent(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return insurgent_read(in->g->map, &muna_state(in->g)->season, v);
}

static void
write_revivals(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	(void)f, (void)p;
	put_revivals(g->map, &muna_state(g)->season, out);
}

static const char *
read_revival(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return revival_read(in->g->map, &muna_state(in->g)->season, v);
}

void
muna_file_write_season(const struct game *g, const struct muna_season *s, struct buf *out)
{
	put_insurgents(g->map, s, out);
	put_revivals(g->map, s, out);
}

void
muna_file_read_season(const struct game *g, const char *text, size_t len, struct muna_season *s)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	muna_season_clear(s);
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[600], *k, *v;
		if (str_split_kv(line, n, buf, sizeof buf, &k, &v) <= 0)
			continue;
		if (strcmp(k, "insurgent") == 0)
			insurgent_read(g->map, s, v);
		else if (strcmp(k, "revival") == 0)
			revival_read(g->map, s, v);
	}
}

/* "control-bonus England F1905M", when England earned it. */
static void
write_bonus(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	const char *b = muna_state(g)->bonus[p];

	if (b[0] == '\0')
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", b);
}

static const char *
read_bonus(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f;
	str_copy(muna_state(in->g)->bonus[p], v, sizeof muna_state(in->g)->bonus[p]);
	return NULL;
}

static const char *
read_conference_name(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	str_copy(muna_state(in->g)->conf.name, v, sizeof muna_state(in->g)->conf.name);
	return NULL;
}

static void
write_conference_goal(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out)
{
	(void)f, (void)p;
	put_conference_goal(&muna_state(g)->conf, out);
}

static const char *
read_conference_goal(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	str_copy(muna_state(in->g)->conf.goal, v, sizeof muna_state(in->g)->conf.goal);
	return NULL;
}

/* "speech-order fra ita ger": the order of speeches the officers set. */
static void
write_speech_order(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out)
{
	const struct muna_state *st = muna_state(g);
	int k;

	(void)f, (void)p;
	if (st->nspeakers == 0)
		return;
	buf_puts(out, "speech-order");
	for (k = 0; k < st->nspeakers; k++)
		buf_printf(out, " %s", g->map->powers[st->speakers[k]].token);
	buf_putc(out, '\n');
}

static const char *
read_speech_order(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	struct muna_state *st = muna_state(in->g);
	char pw[64];

	(void)f, (void)p;
	st->nspeakers = 0;
	while (st->nspeakers < MAP_MAX_POWERS && scan_name(&v, pw, sizeof pw) == 0) {
		power_id q = map_find_power(in->g->map, pw);
		if (q == POWER_NONE)
			return "unknown power";
		st->speakers[st->nspeakers++] = q;
	}
	return NULL;
}

/* "speech-until 2026-11-20T21:00:00Z", while a speech window is open or
 * was. */
static void
write_speech_until(const struct game_field *f, const struct game *g, power_id p,
    struct buf *out)
{
	char s[32];

	if (muna_state(g)->speech_until == 0)
		return;
	game_field_key(f, g, p, out);
	buf_printf(out, " %s\n", time_rfc3339(muna_state(g)->speech_until, s, sizeof s));
}

static const char *
read_speech_until(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return time_parse_utc(v, &muna_state(in->g)->speech_until) < 0 ? "bad time" : NULL;
}

/* "speech 12h": the speech setting, among the judge's settings. */
static void
write_speech(const struct game_field *f, const struct game *g, power_id p, struct buf *out)
{
	if (muna_state(g)->speech == 0)
		return;
	game_field_key(f, g, p, out);
	buf_putc(out, ' ');
	game_put_span(out, muna_state(g)->speech);
}

static const char *
read_speech(const struct game_field *f, struct game_in *in, power_id p, const char *v)
{
	(void)f, (void)p;
	return time_parse_span(v, &muna_state(in->g)->speech) < 0 ? "bad span" : NULL;
}

static const struct game_field muna_fields[] = {
	{ "speech", GAME_PART_SETTING, write_speech, read_speech, 0, 0, 0, 0 },
	{ "speech-until", GAME_PART_HEAD, write_speech_until, read_speech_until, 0, 0, 0, 0 },
	{ "control-bonus", GAME_PART_POWER, write_bonus, read_bonus, 0, 0, 0, 0 },
	{ "goal", GAME_PART_POWER, write_goals, read_goal, 0, 0, 0, 0 },
	{ "conference", GAME_PART_STATE, write_conference, read_conference, 0, 0, 0, 0 },
	{ "conference-name", GAME_PART_STATE, write_conference_name, read_conference_name,
	    0, 0, 0, 0 },
	{ "conference-goal", GAME_PART_STATE, write_conference_goal, read_conference_goal,
	    0, 0, 0, 0 },
	{ "speech-order", GAME_PART_STATE, write_speech_order, read_speech_order, 0, 0, 0, 0 },
	{ "insurgent", GAME_PART_STATE, write_insurgents, read_insurgent, 0, 0, 0, 0 },
	{ "revival", GAME_PART_STATE, write_revivals, read_revival, 0, 0, 0, 0 },
};

const struct game_field_table muna_file_fields = {
	muna_fields, sizeof muna_fields / sizeof muna_fields[0]
};


