#include "map.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../lib/strv.h"
#include "../../lib/xalloc.h"

struct map *
map_new(const char *name, const char *title)
{
	struct map *m = xcalloc(1, sizeof *m);

	m->name = xstrdup(name);
	m->title = xstrdup(title);
	m->start_year = 1901;
	return m;
}

void
map_free(struct map *m)
{
	int i, t;

	if (m == NULL)
		return;
	free(m->drawing);
	for (i = 0; i < m->npowers; i++) {
		struct power *p = &m->powers[i];
		free(p->name);
		free(p->token);
		free(p->adjective);
		free(p->abbr);
		free(p->colour);
		strv_free(p->aliases, p->naliases);
	}
	for (i = 0; i < m->nprovs; i++) {
		free(m->provs[i].abbr);
		free(m->provs[i].name);
		strv_free(m->provs[i].aliases, m->provs[i].naliases);
	}
	for (i = 0; i < m->nlocs; i++) {
		free(m->locs[i].name);
		free(m->locs[i].coast_abbr);
		free(m->locs[i].coast_name);
		for (t = 1; t <= 2; t++)
			free(m->locs[i].adj[t]);
	}
	for (i = 0; i < m->noptions; i++) {
		free(m->options[i].name);
		free(m->options[i].value);
	}
	for (t = 1; t <= 2; t++) {
		free(m->adj_bits[t]);
		free(m->reach_bits[t]);
	}
	free(m->prov_fleet_adj);
	free(m->convoy_reach);
	free(m->options);
	free(m->start);
	free(m->provs);
	free(m->locs);
	free(m->name);
	free(m->title);
	free(m->file);
	free(m);
}

power_id
map_add_power(struct map *m, const char *name, const char *adjective, const char *abbr,
    char letter, const char *colour)
{
	struct power *p;

	assert(m->npowers < MAP_MAX_POWERS);
	p = &m->powers[m->npowers];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->token = xstrdup(name);
	for (char *c = p->token; *c; c++)
		if (*c == ' ' || *c == '\t')
			*c = '_';
	p->adjective = xstrdup(adjective);
	p->abbr = xstrdup(abbr);
	p->letter = letter;
	p->colour = xstrdup(colour);
	return (power_id)m->npowers++;
}

void
map_add_power_alias(struct map *m, power_id p, const char *alias)
{
	strv_push(&m->powers[p].aliases, &m->powers[p].naliases, alias);
}

static loc_id
add_loc(struct map *m, prov_id p, uint8_t coast, const char *name)
{
	struct location *l;

	assert(m->nlocs < MAP_MAX_LOCS);
	m->locs = xreallocarray(m->locs, (size_t)m->nlocs + 1, sizeof *m->locs);
	l = &m->locs[m->nlocs];
	memset(l, 0, sizeof *l);
	l->prov = p;
	l->coast = coast;
	l->name = xstrdup(name);
	return (loc_id)m->nlocs++;
}

prov_id
map_add_province(struct map *m, const char *abbr, const char *name, enum terrain terrain)
{
	struct province *p;
	struct location *l;
	prov_id id;
	char *lc;

	assert(m->nprovs < MAP_MAX_PROVS);
	m->provs = xreallocarray(m->provs, (size_t)m->nprovs + 1, sizeof *m->provs);
	id = (prov_id)m->nprovs++;
	p = &m->provs[id];
	memset(p, 0, sizeof *p);
	lc = str_lower(xstrdup(abbr));
	p->abbr = lc;
	p->name = xstrdup(name);
	p->terrain = (uint8_t)terrain;
	p->home = POWER_NONE;
	p->capital = POWER_NONE;
	p->naval_base = POWER_NONE;
	p->loc = add_loc(m, id, 0, lc);
	l = &m->locs[p->loc];
	l->army_ok = terrain != TERRAIN_SEA;
	l->fleet_ok = terrain != TERRAIN_LAND;
	return id;
}

loc_id
map_add_coast(struct map *m, prov_id pid, const char *abbr, const char *name)
{
	struct province *p = &m->provs[pid];
	char buf[128];
	loc_id l;

	assert(p->ncoasts < MAP_MAX_COASTS);
	snprintf(buf, sizeof buf, "%s/%s", p->abbr, abbr);
	str_lower(buf);
	l = add_loc(m, pid, (uint8_t)(p->ncoasts + 1), buf);
	m->locs[l].fleet_ok = true;
	m->locs[l].coast_abbr = str_lower(xstrdup(abbr));
	m->locs[l].coast_name = xstrdup(name);
	p->coast[p->ncoasts++] = l;
	/* With named coasts, fleets stand on a coast, never on the main location. */
	m->locs[p->loc].fleet_ok = false;
	return l;
}

void
map_add_province_alias(struct map *m, prov_id p, const char *alias)
{
	strv_push(&m->provs[p].aliases, &m->provs[p].naliases, alias);
}

bool
map_add_edge(struct map *m, enum unit_type type, loc_id a, loc_id b)
{
	struct location *l = &m->locs[a];
	int i;

	assert(type == UNIT_ARMY || type == UNIT_FLEET);
	for (i = 0; i < l->nadj[type]; i++)
		if (l->adj[type][i] == b)
			return false;
	l->adj[type] = xreallocarray(l->adj[type], (size_t)l->nadj[type] + 1, sizeof(loc_id));
	l->adj[type][l->nadj[type]++] = b;
	return true;
}

void
map_set_option(struct map *m, const char *name, const char *value)
{
	int i;

	for (i = 0; i < m->noptions; i++) {
		if (str_eq_nocase(m->options[i].name, name)) {
			free(m->options[i].value);
			m->options[i].value = xstrdup(value);
			return;
		}
	}
	m->options = xreallocarray(m->options, (size_t)m->noptions + 1, sizeof *m->options);
	m->options[m->noptions].name = xstrdup(name);
	m->options[m->noptions].value = xstrdup(value);
	m->noptions++;
}

static void
setbit(uint64_t *v, size_t i)
{
	v[i / 64] |= (uint64_t)1 << (i % 64);
}

/* For every coastal province, the coastal provinces an army could reach by
 * convoy: breadth-first through sea provinces. */
static void
compute_convoy_reach(struct map *m)
{
	size_t pw = (size_t)m->prov_words;
	prov_id queue[MAP_MAX_PROVS];
	uint8_t seen[MAP_MAX_PROVS];
	int p, q, head, tail;

	free(m->convoy_reach);
	m->convoy_reach = xcalloc((size_t)m->nprovs * pw, sizeof(uint64_t));
	for (p = 0; p < m->nprovs; p++) {
		if (m->provs[p].terrain != TERRAIN_COAST)
			continue;
		memset(seen, 0, (size_t)m->nprovs);
		head = tail = 0;
		for (q = 0; q < m->nprovs; q++) {
			if (m->provs[q].terrain == TERRAIN_SEA && map_fleet_link(m, (prov_id)p, (prov_id)q)) {
				seen[q] = 1;
				queue[tail++] = (prov_id)q;
			}
		}
		while (head < tail) {
			prov_id s = queue[head++];
			for (q = 0; q < m->nprovs; q++) {
				if (seen[q] || !map_fleet_link(m, s, (prov_id)q))
					continue;
				if (m->provs[q].terrain == TERRAIN_SEA) {
					seen[q] = 1;
					queue[tail++] = (prov_id)q;
				} else if (m->provs[q].terrain == TERRAIN_COAST && q != p) {
					setbit(m->convoy_reach, (size_t)p * pw * 64 + (size_t)q);
				}
			}
		}
	}
}

void
map_finish(struct map *m)
{
	int t, a, i, p;
	size_t lw, pw;

	m->loc_words = MAP_WORDS(m->nlocs);
	m->prov_words = MAP_WORDS(m->nprovs);
	lw = (size_t)m->loc_words;
	pw = (size_t)m->prov_words;
	m->nsupply = 0;
	for (p = 0; p < m->nprovs; p++)
		m->nsupply += m->provs[p].supply;
	for (t = 1; t <= 2; t++) {
		free(m->adj_bits[t]);
		free(m->reach_bits[t]);
		m->adj_bits[t] = xcalloc((size_t)m->nlocs * lw, sizeof(uint64_t));
		m->reach_bits[t] = xcalloc((size_t)m->nlocs * pw, sizeof(uint64_t));
		for (a = 0; a < m->nlocs; a++) {
			const struct location *l = &m->locs[a];
			for (i = 0; i < l->nadj[t]; i++) {
				loc_id b = l->adj[t][i];
				setbit(m->adj_bits[t], (size_t)a * lw * 64 + b);
				setbit(m->reach_bits[t], (size_t)a * pw * 64 + m->locs[b].prov);
			}
		}
	}
	free(m->prov_fleet_adj);
	m->prov_fleet_adj = xcalloc((size_t)m->nprovs * pw, sizeof(uint64_t));
	for (a = 0; a < m->nlocs; a++) {
		const struct location *l = &m->locs[a];
		for (i = 0; i < l->nadj[UNIT_FLEET]; i++) {
			prov_id q = m->locs[l->adj[UNIT_FLEET][i]].prov;
			setbit(m->prov_fleet_adj, (size_t)l->prov * pw * 64 + q);
		}
	}
	compute_convoy_reach(m);
}

prov_id
map_find_province(const struct map *m, const char *s)
{
	int p, i;

	for (p = 0; p < m->nprovs; p++)
		if (str_eq_nocase(m->provs[p].abbr, s))
			return (prov_id)p;
	for (p = 0; p < m->nprovs; p++) {
		const struct province *pr = &m->provs[p];
		if (str_eq_nocase(pr->name, s))
			return (prov_id)p;
		for (i = 0; i < pr->naliases; i++)
			if (str_eq_nocase(pr->aliases[i], s))
				return (prov_id)p;
	}
	return PROV_NONE;
}

loc_id
map_find_coast(const struct map *m, prov_id p, const char *coast)
{
	const struct province *pr = &m->provs[p];
	int i;

	for (i = 0; i < pr->ncoasts; i++) {
		const struct location *l = &m->locs[pr->coast[i]];
		if (str_eq_nocase(l->coast_abbr, coast) || str_eq_nocase(l->coast_name, coast))
			return pr->coast[i];
	}
	return LOC_NONE;
}

loc_id
map_find_location(const struct map *m, const char *s)
{
	char buf[128], *sep, *coast;
	size_t n;
	prov_id p;

	if (str_copy(buf, s, sizeof buf) >= sizeof buf)
		return LOC_NONE;
	p = map_find_province(m, str_trim(buf));
	if (p != PROV_NONE)
		return m->provs[p].loc;
	/* "stp/nc", "stp(nc)", "stp (nc)", "stp nc" */
	sep = strpbrk(buf, "/(");
	if (sep == NULL)
		sep = strrchr(buf, ' ');
	if (sep == NULL)
		return LOC_NONE;
	coast = sep + 1;
	*sep = '\0';
	n = strlen(coast);
	if (n > 0 && coast[n - 1] == ')')
		coast[n - 1] = '\0';
	p = map_find_province(m, str_trim(buf));
	if (p == PROV_NONE)
		return LOC_NONE;
	return map_find_coast(m, p, str_trim(coast));
}

power_id
map_find_power(const struct map *m, const char *s)
{
	int p, i;

	for (p = 0; p < m->npowers; p++) {
		const struct power *pw = &m->powers[p];
		if (str_eq_nocase(pw->name, s) || str_eq_nocase(pw->token, s) ||
		    str_eq_nocase(pw->abbr, s) ||
		    str_eq_nocase(pw->adjective, s) ||
		    (pw->letter && s[0] && !s[1] && str_lc(s[0]) == str_lc(pw->letter)))
			return (power_id)p;
		for (i = 0; i < pw->naliases; i++)
			if (str_eq_nocase(pw->aliases[i], s))
				return (power_id)p;
	}
	return POWER_NONE;
}

power_id
map_take_power(const struct map *m, char **s)
{
	char *p = *s, *end, save;
	int words, k;
	power_id pw;

	while (*p == ' ' || *p == '\t')
		p++;
	/* The longest of up to four words that names a power. */
	for (words = 4; words >= 1; words--) {
		end = p;
		for (k = 0; k < words; k++) {
			while (*end == ' ' || *end == '\t')
				end++;
			if (*end == '\0')
				break;
			while (*end && *end != ' ' && *end != '\t')
				end++;
		}
		if (k < words)
			continue;
		save = *end;
		*end = '\0';
		pw = map_find_power(m, p);
		if (pw == POWER_NONE && end - p > 1 && end[-1] == ',') {
			/* "France, pw": the comma parts, it is no part of the name */
			end[-1] = '\0';
			pw = map_find_power(m, p);
			end[-1] = ',';
		}
		*end = save;
		if (pw != POWER_NONE) {
			while (*end == ' ' || *end == '\t')
				end++;
			*s = end;
			return pw;
		}
	}
	return POWER_NONE;
}

const char *
map_option(const struct map *m, const char *name)
{
	int i;

	for (i = 0; i < m->noptions; i++)
		if (str_eq_nocase(m->options[i].name, name))
			return m->options[i].value;
	return NULL;
}

bool
map_option_on(const struct map *m, const char *name)
{
	const char *v = map_option(m, name);

	return v && (str_eq_nocase(v, "yes") || str_eq_nocase(v, "true") ||
	    str_eq_nocase(v, "on") || strcmp(v, "1") == 0);
}

loc_id
map_default_loc(const struct map *m, prov_id p, enum unit_type t)
{
	const struct province *pr = &m->provs[p];

	if (map_loc_allows(m, t, pr->loc))
		return pr->loc;
	if (t == UNIT_FLEET && pr->ncoasts == 1)
		return pr->coast[0];
	return LOC_NONE;
}

char
unit_letter(enum unit_type t)
{
	return t == UNIT_ARMY ? 'A' : t == UNIT_FLEET ? 'F' : '?';
}

const char *
unit_word(enum unit_type t)
{
	return t == UNIT_ARMY ? "army" : t == UNIT_FLEET ? "fleet" : "unit";
}
