#include "board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "resolver.h"

void
board_init_empty(struct board *b, int year, enum season s, enum phase_type p)
{
	memset(b, 0, sizeof *b);
	b->year = year;
	b->season = (uint8_t)s;
	b->phase = (uint8_t)p;
	memset(b->owner, POWER_NONE, sizeof b->owner);
}

void
board_copy(struct board *to, const struct board *from)
{
	to->year = from->year;
	to->season = from->season;
	to->phase = from->phase;
	to->nunits = from->nunits;
	to->ndislodged = from->ndislodged;
	memcpy(to->units, from->units, from->nunits * sizeof from->units[0]);
	memcpy(to->dislodged, from->dislodged, from->ndislodged * sizeof from->dislodged[0]);
	memcpy(to->owner, from->owner, sizeof to->owner);
	memcpy(to->contested, from->contested, sizeof to->contested);
}

void
board_init_start(struct board *b, const struct map *m)
{
	int i;

	board_init_empty(b, m->start_year, SEASON_SPRING, PHASE_MOVEMENT);
	for (i = 0; i < m->nstart; i++)
		board_add_unit(b, (enum unit_type)m->start[i].type, m->start[i].power,
		    m->start[i].loc);
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply)
			b->owner[i] = m->provs[i].home;
	board_sort(b);
}

int
board_add_unit(struct board *b, enum unit_type t, power_id p, loc_id l)
{
	struct unit *u;

	if (b->nunits >= BOARD_MAX_UNITS)
		return -1;
	u = &b->units[b->nunits];
	u->type = (uint8_t)t;
	u->power = p;
	u->loc = l;
	return b->nunits++;
}

void
board_remove_unit(struct board *b, int i)
{
	memmove(&b->units[i], &b->units[i + 1], (size_t)(b->nunits - i - 1) * sizeof b->units[0]);
	b->nunits--;
}

int
board_unit_in(const struct board *b, const struct map *m, prov_id p)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		if (m->locs[b->units[i].loc].prov == p)
			return i;
	return -1;
}

int
board_count_units(const struct board *b, power_id p)
{
	int i, n = 0;

	for (i = 0; i < b->nunits; i++)
		n += b->units[i].power == p;
	return n;
}

int
board_count_centres(const struct board *b, const struct map *m, power_id p)
{
	int i, n = 0;

	for (i = 0; i < m->nprovs; i++)
		n += m->provs[i].supply && b->owner[i] == p;
	return n;
}

bool
board_eliminated(const struct board *b, const struct map *m, power_id p)
{
	int i;

	for (i = 0; i < b->ndislodged; i++)
		if (b->dislodged[i].unit.power == p)
			return false;
	return board_count_units(b, p) == 0 && board_count_centres(b, m, p) == 0;
}

void
board_take_centres(struct board *b, const struct map *m)
{
	int i;

	for (i = 0; i < b->nunits; i++) {
		prov_id p = m->locs[b->units[i].loc].prov;
		if (m->provs[p].supply)
			b->owner[p] = b->units[i].power;
	}
}

int
unit_cmp(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;

	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	if (x->power != y->power)
		return x->power < y->power ? -1 : 1;
	return (int)x->type - (int)y->type;
}

static int
cmp_dislodged(const void *a, const void *b)
{
	return unit_cmp(&((const struct dislodged *)a)->unit, &((const struct dislodged *)b)->unit);
}

void
board_sort(struct board *b)
{
	qsort(b->units, b->nunits, sizeof b->units[0], unit_cmp);
	qsort(b->dislodged, b->ndislodged, sizeof b->dislodged[0], cmp_dislodged);
}

const char *
season_name(enum season s)
{
	static const char *const n[] = { "Spring", "Fall", "Winter" };
	return s <= SEASON_WINTER ? n[s] : "?";
}

const char *
phase_type_name(enum phase_type p)
{
	static const char *const n[] = { "Movement", "Retreat", "Adjustment" };
	return p <= PHASE_ADJUSTMENT ? n[p] : "?";
}

char *
phase_format(const struct board *b, char *out, size_t size)
{
	snprintf(out, size, "%s %d %s", season_name((enum season)b->season), b->year,
	    phase_type_name((enum phase_type)b->phase));
	return out;
}

int
phase_parse(const char *s, int *year, enum season *season, enum phase_type *phase)
{
	char buf[64];
	const char *p;
	struct scan_word tok;
	int have_year = 0, have_season = 0, have_phase = 0;
	long y;

	/* Compact form: S1901M, F1901R, W1901A */
	if (strlen(s) >= 6 && strchr("SsFfWw", s[0]) && strchr("MmRrAaBb", s[strlen(s) - 1]) &&
	    strspn(s + 1, "0123456789") == strlen(s) - 2) {
		str_copy(buf, s + 1, sizeof buf);
		buf[strlen(buf) - 1] = '\0';
		if (str_to_long(buf, 1, 99999, &y) < 0)
			return -1;
		*year = (int)y;
		*season = str_lc(s[0]) == 's' ? SEASON_SPRING : str_lc(s[0]) == 'f' ? SEASON_FALL :
										 SEASON_WINTER;
		switch (str_lc(s[strlen(s) - 1])) {
		case 'm': *phase = PHASE_MOVEMENT; break;
		case 'r': *phase = PHASE_RETREAT; break;
		default: *phase = PHASE_ADJUSTMENT; break;
		}
		if (*phase == PHASE_ADJUSTMENT)
			*season = SEASON_WINTER;
		return (*season == SEASON_WINTER) == (*phase == PHASE_ADJUSTMENT) ? 0 : -1;
	}
	if (strlen(s) >= sizeof buf)
		return -1;	/* as long a name is none */
	for (p = s; scan_token(&p, " ,\t", &tok) == 0;) {
		if (scan_word_long(&tok, 1, 99999, &y) == 0) {
			*year = (int)y;
			have_year = 1;
		} else if (scan_word_is_nocase(&tok, "spring")) {
			*season = SEASON_SPRING;
			have_season = 1;
		} else if (scan_word_is_nocase(&tok, "fall") || scan_word_is_nocase(&tok, "autumn")) {
			*season = SEASON_FALL;
			have_season = 1;
		} else if (scan_word_is_nocase(&tok, "winter")) {
			*season = SEASON_WINTER;
			have_season = 1;
		} else if (scan_word_is_nocase(&tok, "movement") || scan_word_is_nocase(&tok, "moves")) {
			*phase = PHASE_MOVEMENT;
			have_phase = 1;
		} else if (scan_word_is_nocase(&tok, "retreat") ||
		    scan_word_is_nocase(&tok, "retreats")) {
			*phase = PHASE_RETREAT;
			have_phase = 1;
		} else if (scan_word_is_nocase(&tok, "adjustment") ||
		    scan_word_is_nocase(&tok, "adjustments") || scan_word_is_nocase(&tok, "build") ||
		    scan_word_is_nocase(&tok, "builds")) {
			*phase = PHASE_ADJUSTMENT;
			have_phase = 1;
		} else
			return -1;
	}
	if (!have_year || !have_season)
		return -1;
	if (!have_phase)
		*phase = *season == SEASON_WINTER ? PHASE_ADJUSTMENT : PHASE_MOVEMENT;
	if (*phase == PHASE_ADJUSTMENT)
		*season = SEASON_WINTER;
	else if (*season == SEASON_WINTER)
		return -1;
	return 0;
}

void
phase_code(const struct board *b, char *out, size_t size)
{
	snprintf(out, size, "%c%d%c", "SFW"[b->season % 3], b->year, "MRA"[b->phase % 3]);
}

int
phase_cmp(int y1, enum season s1, enum phase_type p1, int y2, enum season s2, enum phase_type p2)
{
	if (y1 != y2)
		return y1 < y2 ? -1 : 1;
	if (s1 != s2)
		return s1 < s2 ? -1 : 1;
	return (int)p1 - (int)p2;
}

void
unit_format(const struct map *m, const struct unit *u, struct buf *out)
{
	buf_printf(out, "%c %s", unit_letter((enum unit_type)(u->type & ~UNIT_ABOARD)),
	    m->locs[u->loc].name);
	if (u->type & UNIT_ABOARD)
		buf_puts(out, " aboard");
}

void
board_write(const struct board *b, const struct map *m, struct buf *out)
{
	struct board s = *b;
	char ph[64];
	int i;

	board_sort(&s);
	buf_printf(out, "phase %s\n", phase_format(&s, ph, sizeof ph));
	for (i = 0; i < s.nunits; i++) {
		buf_printf(out, "unit %s ", m->powers[s.units[i].power].token);
		unit_format(m, &s.units[i], out);
		buf_putc(out, '\n');
	}
	for (i = 0; i < s.ndislodged; i++) {
		const struct dislodged *d = &s.dislodged[i];
		buf_printf(out, "dislodged %s ", m->powers[d->unit.power].token);
		unit_format(m, &d->unit, out);
		if (d->attacker != PROV_NONE)
			buf_printf(out, " from %s", m->provs[d->attacker].abbr);
		buf_putc(out, '\n');
	}
	for (i = 0; i < m->nprovs; i++)
		if (board_contested(&s, (prov_id)i))
			buf_printf(out, "contested %s\n", m->provs[i].abbr);
	for (i = 0; i < m->nprovs; i++)
		if (m->provs[i].supply && s.owner[i] != POWER_NONE)
			buf_printf(out, "owner %s %s\n", m->powers[s.owner[i]].token, m->provs[i].abbr);
}

void
board_plain(struct board *b)
{
	int i;

	for (i = 0; i < b->nunits; i++)
		b->units[i].type &= (uint8_t)~UNIT_ABOARD;
}

int
board_aboard(const struct map *m, const char **p, const char *end, struct unit *u,
    const char **why)
{
	prov_id q = m->locs[u->loc].prov;

	if (!(map_caps(m) & RULES_BOARDING)) {
		*why = "armies go on board fleets only in Realpolitik";
		return -1;
	}
	if (m->provs[q].terrain == TERRAIN_LAND) {
		*why = "an army on board a fleet is at sea or on a coast";
		return -1;
	}
	u->loc = m->provs[q].loc;
	u->type = UNIT_ARMY | UNIT_ABOARD;
	*p = end;
	return 0;
}

int
board_parse_unit(const struct map *m, const char **p, struct unit *u, const char **why)
{
	const char *s = *p;
	char pw[64], ty[8], loc[64];

	if (scan_name(&s, pw, sizeof pw) < 0 || scan_name(&s, ty, sizeof ty) < 0 ||
	    scan_name(&s, loc, sizeof loc) < 0) {
		*why = "expected POWER TYPE LOCATION";
		return -1;
	}
	u->power = map_find_power(m, pw);
	if (u->power == POWER_NONE) {
		*why = "unknown power";
		return -1;
	}
	u->type = str_eq_nocase(ty, "A") || str_eq_nocase(ty, "army")    ? UNIT_ARMY :
		  str_eq_nocase(ty, "F") || str_eq_nocase(ty, "fleet") ? UNIT_FLEET :
									   UNIT_NONE;
	if (u->type == UNIT_NONE) {
		*why = "unit type must be A or F";
		return -1;
	}
	u->loc = map_find_location(m, loc);
	if (u->loc == LOC_NONE) {
		*why = "unknown location";
		return -1;
	}
	if (u->type == UNIT_FLEET && !m->locs[u->loc].fleet_ok)
		u->loc = map_default_loc(m, m->locs[u->loc].prov, UNIT_FLEET);
	if (u->type == UNIT_ARMY && scan_literal(&s, "aboard") == 0)
		return board_aboard(m, p, s, u, why);
	if (u->loc == LOC_NONE || !map_loc_allows(m, (enum unit_type)u->type, u->loc)) {
		*why = "that unit cannot stand there";
		return -1;
	}
	*p = s;
	return 0;
}

/* "from PROVINCE" after a dislodged unit, or nothing. Returns NULL or what is wrong. */
static const char *
read_attacker(const struct map *m, const char *s, prov_id *attacker)
{
	char at[64];

	*attacker = PROV_NONE;
	if (scan_at_end(&s))
		return NULL;
	if (scan_literal(&s, "from") < 0 || scan_name(&s, at, sizeof at) < 0)
		return "expected: from PROVINCE";
	*attacker = map_find_province(m, at);
	return *attacker == PROV_NONE ? "unknown province after from" : NULL;
}

int
board_read(struct board *b, const struct map *m, const char *text, size_t len, struct buf *err)
{
	const char *p = text, *end = text + len, *line;
	size_t n;
	int lineno = 0, errors = 0, have_phase = 0;

	board_init_empty(b, m->start_year, SEASON_SPRING, PHASE_MOVEMENT);
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char buf[512], *s, *kw;
		const char *why = NULL;
		struct unit u;
		int kv;

		lineno++;
		kv = str_split_kv(line, n, buf, sizeof buf, &kw, &s);
		if (kv == 0)
			continue;
		if (kv < 0) {
			buf_printf(err, "%d: line too long\n", lineno);
			errors++;
			continue;
		}
		if (strcmp(kw, "phase") == 0) {
			int y;
			enum season se;
			enum phase_type ph;
			if (phase_parse(s, &y, &se, &ph) < 0)
				why = "bad phase";
			else {
				b->year = y;
				b->season = (uint8_t)se;
				b->phase = (uint8_t)ph;
				have_phase = 1;
			}
		} else if (strcmp(kw, "unit") == 0) {
			const char *rest = s;
			if (board_parse_unit(m, &rest, &u, &why) == 0 &&
			    board_add_unit(b, (enum unit_type)u.type, u.power, u.loc) < 0)
				why = "too many units";
		} else if (strcmp(kw, "dislodged") == 0) {
			const char *rest = s;
			struct dislodged *d = &b->dislodged[b->ndislodged];
			if (board_parse_unit(m, &rest, &u, &why) < 0)
				;	/* why says it */
			else if (b->ndislodged >= BOARD_MAX_UNITS)
				why = "too many dislodged units";
			else if ((why = read_attacker(m, rest, &d->attacker)) == NULL) {
				d->unit = u;
				b->ndislodged++;
			}
		} else if (strcmp(kw, "contested") == 0) {
			prov_id pr = map_find_province(m, str_trim(s));
			if (pr == PROV_NONE)
				why = "unknown province";
			else
				board_set_contested(b, pr);
		} else if (strcmp(kw, "owner") == 0) {
			const char *rest = s;
			char pw[64], pv[64];
			power_id po = scan_name(&rest, pw, sizeof pw) == 0 ? map_find_power(m, pw) : POWER_NONE;
			prov_id pr = scan_name(&rest, pv, sizeof pv) == 0 ? map_find_province(m, pv) : PROV_NONE;
			if (po == POWER_NONE || pr == PROV_NONE)
				why = "expected: owner POWER PROVINCE";
			else if (!m->provs[pr].supply)
				why = "not a supply centre";
			else
				b->owner[pr] = po;
		} else
			why = "unknown keyword";
		if (why) {
			buf_printf(err, "%d: %s\n", lineno, why);
			errors++;
		}
	}
	if (!have_phase) {
		buf_printf(err, "no phase line\n");
		errors++;
	}
	board_sort(b);
	return errors ? -1 : 0;
}
