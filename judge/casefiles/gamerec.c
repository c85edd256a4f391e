/*
 * gamerec.c — recorded-game replay (format in gamerec.h).
 *
 * Speed matters here (the whole archive is replayed in the test suite and
 * the benchmark), so the record is read with a small dedicated scanner
 * rather than the free-text order parser: the format is a fixed keyword
 * notation, not player prose.
 */
#define _DEFAULT_SOURCE
#include "gamerec.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../engine/adjudicate.h"
#include "../engine/report.h"
#include "../engine/resolver.h"

#define MAX_PHASES 1024
#define MAX_ORDERS_PER_PHASE 256
#define HEADERS 64		/* phase headers remembered */

/* A word of the record: the bytes where they lie in the file, never copied. */
struct word {
	const char *s;
	size_t n;
};

/* Does word w read lit (a string literal)? The first byte tells most apart
 * without a call. */
#define WORD_IS(w, lit) ((w).n == sizeof(lit) - 1 && (w).s[0] == (lit)[0] && \
	memcmp((w).s, lit, sizeof(lit) - 1) == 0)

/* Next whitespace-separated word of [*p, end), at most max - 1 bytes of it
 * (the rest is passed over, as a longer word matches nothing); n = 0 at the
 * line's end. */
static struct word
word(const char **p, const char *end, size_t max)
{
	const char *s = *p;
	struct word w;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	w.s = s;
	while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
		s++;
	w.n = (size_t)(s - w.s) < max ? (size_t)(s - w.s) : max - 1;
	*p = s;
	return w;
}

/* A short word met in a record (a province's letters, "stp/sc"), and
 * where it names. */
struct abbr {
	uint64_t key;		/* its length and bytes (word_key); 0: a free slot */
	loc_id loc;		/* LOC_NONE when it names no place */
	prov_id prov;		/* the location's province */
};

/* Bytes a line starts with, as one word (load8) and the mask of those bytes. */
struct pattern {
	uint64_t p, mask;
};

/* What the reader of records keeps from one record to the next: the map,
 * its names, the place of every three-letter word met so far, the powers
 * by the first byte of their names, and the working storage of a replay
 * (nothing is allocated per record or per phase). */
struct reader {
	const struct map *m;
	const struct names *nm;
	size_t plen[MAP_MAX_POWERS];	/* the powers' name lengths */
	power_id first[256];		/* the power whose name alone starts with the
					   byte (and holds no ':', and is short enough
					   for its pattern), else POWER_NONE */
	struct pattern power[MAP_MAX_POWERS][2];	/* "Power: " */
	struct pattern supply, army, fleet;	/* "supply ", "army ", "fleet " */
	struct pattern three;		/* the key of a word of three bytes (word_key):
					   p its length byte, mask its bytes */
	struct pattern move, support, hold, then_move;	/* "move ", "support ", "hold\n",
							   " move " */
	/* The orders of two phases: the one read and the one before it,
	 * handed on once the next position is read. */
	struct order orders[2][MAX_ORDERS_PER_PHASE];
	struct header {			/* a phase header met before (known_header) */
		char text[64];		/* what follows "PHASE " */
		size_t len;		/* 0: none */
		int year;
		enum season season;
		enum phase_type type;
	} headers[HEADERS];
	struct phase_result res;
	struct phase_result scratch;	/* phases the record omits */
	struct board b;			/* the replay's position */
	struct board want;		/* the record's, of the phase being read */
	struct board before;		/* b before the phase last played (for fn) */
	/* The short words met so far, by a hash of their bytes: a small
	 * table, looked at for nearly every word of a record. */
	unsigned shift;			/* 64 less the bits of the hash */
	uint64_t hmask;			/* the slots less one (a hash's bits all set) */
	unsigned nabbr, maxabbr;	/* slots taken; at most (half of them) */
	struct abbr none;		/* a word met when the table is full */
	struct abbr abbr[];
};

/* The 8 bytes at s as one word. The patterns they are held against are
 * made the same way, so the machine's byte order does not matter. */
static inline uint64_t
load8(const char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	return v;
}

/* The pattern of the k bytes (at most 8) of str. */
static struct pattern
make_pattern(const char *str, size_t k)
{
	char b[8] = { 0 }, m[8] = { 0 };
	struct pattern pt;

	memcpy(b, str, k);
	memset(m, 0xff, k);
	pt.p = load8(b);
	pt.mask = load8(m);
	return pt;
}

static struct reader *
reader_new(const struct map *m, const struct names *nm)
{
	struct reader *rd;
	bool met[256] = { false };
	unsigned bits = 6;
	int p, c;

	while ((1u << bits) < 2u * ((unsigned)m->nlocs + 32u))
		bits++;
	rd = xcalloc(1, sizeof *rd + (sizeof rd->abbr[0] << bits));
	rd->m = m;
	rd->nm = nm;
	rd->shift = 64 - bits;
	rd->hmask = ((uint64_t)1 << bits) - 1;
	rd->maxabbr = 1u << (bits - 1);
	memset(rd->first, POWER_NONE, sizeof rd->first);
	for (p = 0; p < m->npowers; p++) {
		char pre[16];
		size_t n = strlen(m->powers[p].name);
		rd->plen[p] = n;
		c = (unsigned char)m->powers[p].name[0];
		/* several powers start alike: none */
		rd->first[c] = met[c] || n + 2 > sizeof pre || strchr(m->powers[p].name, ':') ?
		    POWER_NONE : (power_id)p;
		met[c] = true;
		if (n + 2 > sizeof pre)
			continue;
		memset(pre, 0, sizeof pre);
		memcpy(pre, m->powers[p].name, n);
		memcpy(pre + n, ": ", 2);
		rd->power[p][0] = make_pattern(pre, n + 2 < 8 ? n + 2 : 8);
		rd->power[p][1] = make_pattern(pre + 8, n + 2 > 8 ? n + 2 - 8 : 0);
	}
	rd->three = make_pattern("\0\0\0\0\0\0\0\3", 8);
	rd->three.mask = make_pattern("\377\377\377", 3).mask;
	rd->supply = make_pattern("supply ", 7);
	rd->army = make_pattern("army ", 5);
	rd->fleet = make_pattern("fleet ", 6);
	rd->move = make_pattern("move ", 5);
	rd->support = make_pattern("support ", 8);
	rd->hold = make_pattern("hold\n", 5);
	rd->then_move = make_pattern(" move ", 6);
	return rd;
}

/* The location a word names, looked up in the names: a province's
 * abbreviation, "stp/sc" for a coast. */
static loc_id
lookup_loc(const struct reader *rd, struct word w)
{
	const char *slash = memchr(w.s, '/', w.n);
	struct name_cand c;
	char coast[16];
	size_t k;

	if (names_province_exactn(rd->nm, w.s, slash ? (size_t)(slash - w.s) : w.n, &c) == 0)
		return LOC_NONE;
	if (slash == NULL)
		return rd->m->provs[c.id].loc;
	k = w.n - (size_t)(slash + 1 - w.s);	/* less than a word's 16 */
	memcpy(coast, slash + 1, k);
	coast[k] = '\0';
	return map_find_coast(rd->m, (prov_id)c.id, coast);
}

/* A word met for the first time: looked up in the names, and kept in
 * free slot h while the table has room. */
static const struct abbr *
first_abbr(struct reader *rd, struct word w, uint64_t key, uint64_t h)
{
	struct abbr *a = rd->nabbr < rd->maxabbr ? &rd->abbr[h] : &rd->none;

	a->loc = lookup_loc(rd, w);
	a->prov = a->loc == LOC_NONE ? PROV_NONE : rd->m->locs[a->loc].prov;
	if (a != &rd->none) {
		a->key = key;
		rd->nabbr++;
	}
	return a;
}

/* Longest word kept in the table: its bytes and its length fit a key. */
#define SHORT_WORD 7

/* The key of a word of 1 to SHORT_WORD bytes: its bytes, then its length
 * in the last of 8 (as load8 reads them). */
static inline uint64_t
word_key(struct word w)
{
	char b[8] = { 0 };

	memcpy(b, w.s, w.n);
	b[7] = (char)w.n;
	return load8(b);
}

/* The slot of key, or the free slot where it would go. */
static inline struct abbr *
abbr_slot(struct reader *rd, uint64_t key)
{
	uint64_t h = (key * 0x9e3779b97f4a7c15u) >> rd->shift;

	while (rd->abbr[h].key != key && rd->abbr[h].key != 0)
		h = (h + 1) & rd->hmask;
	return &rd->abbr[h];
}

/* The place of a word of 1 to SHORT_WORD bytes. */
static inline const struct abbr *
find_abbr(struct reader *rd, struct word w)
{
	uint64_t key = word_key(w);
	struct abbr *a = abbr_slot(rd, key);

	return a->key != 0 ? a : first_abbr(rd, w, key, (uint64_t)(a - rd->abbr));
}

/* Is the word three letters a-z? */
static inline bool
is_abbr(struct word w)
{
	return w.n == 3 && (unsigned)(w.s[0] - 'a') < 26 && (unsigned)(w.s[1] - 'a') < 26 &&
	    (unsigned)(w.s[2] - 'a') < 26;
}

/* The place of the three bytes at s (8 may be read) when they are a word
 * met before or three letters a-z, else NULL. Nearly every word of a
 * record is met before: its bytes are known to be a word, and the table
 * answers without looking at them one by one. */
static inline const struct abbr *
quick_abbr(struct reader *rd, const char *s)
{
	uint64_t key = (load8(s) & rd->three.mask) | rd->three.p;
	struct abbr *a = abbr_slot(rd, key);
	struct word w = { s, 3 };

	if (a->key != 0)
		return a;
	return is_abbr(w) ? first_abbr(rd, w, key, (uint64_t)(a - rd->abbr)) : NULL;
}

/* The location a word names. Nearly every one is a province's three
 * letters or a coast, met hundreds of times in a record: looked up in the
 * names once. */
static inline loc_id
find_loc(struct reader *rd, struct word w)
{
	return w.n >= 1 && w.n <= SHORT_WORD ? find_abbr(rd, w)->loc : lookup_loc(rd, w);
}

/* The power whose name is the n bytes at s. */
static power_id
find_power(const struct reader *rd, const char *s, size_t n)
{
	const struct map *m = rd->m;
	int p;

	for (p = 0; p < m->npowers; p++)
		if (rd->plen[p] == n && m->powers[p].name[0] == s[0] &&
		    memcmp(m->powers[p].name, s, n) == 0)
			return (power_id)p;
	return POWER_NONE;
}

/* Does the word contain the n bytes at sub? */
static bool
word_has(struct word w, const char *sub, size_t n)
{
	size_t i;

	for (i = 0; i + n <= w.n; i++)
		if (memcmp(w.s + i, sub, n) == 0)
			return true;
	return false;
}

/* Put a dislodged unit on b. */
static void
add_dislodged(struct board *b, enum unit_type t, power_id pw, loc_id l)
{
	struct dislodged *d = &b->dislodged[b->ndislodged++];

	d->unit.type = (uint8_t)t;
	d->unit.power = pw;
	d->unit.loc = l;
	d->attacker = PROV_NONE;
}

/* Read one line of a POSITIONS section (len > 0) into b. Returns 0, or -1
 * with the fault in why. */
static int
position_line(struct reader *rd, const char *line, size_t len, struct board *b, struct buf *why)
{
	const char *colon = memchr(line, ':', len), *q, *end = line + len;
	struct word kind, place;
	power_id pw;
	loc_id l;

	if (colon == NULL) {
		buf_printf(why, "bad position line: %.*s", (int)len, line);
		return -1;
	}
	pw = find_power(rd, line, (size_t)(colon - line));
	q = colon + 1;
	kind = word(&q, end, 32);
	place = word(&q, end, 16);
	l = find_loc(rd, place);
	if (pw == POWER_NONE || l == LOC_NONE) {
		buf_printf(why, "bad position line: %.*s", (int)len, line);
		return -1;
	}
	if (WORD_IS(kind, "supply")) {
		b->owner[rd->m->locs[l].prov] = pw;
	} else {
		bool dislodged = word_has(kind, "/dislodged", 10);
		enum unit_type t = kind.n >= 4 && memcmp(kind.s, "army", 4) == 0 ? UNIT_ARMY :
		    kind.n >= 5 && memcmp(kind.s, "fleet", 5) == 0 ? UNIT_FLEET : UNIT_NONE;
		if (t == UNIT_NONE) {
			buf_printf(why, "bad unit kind: %.*s", (int)len, line);
			return -1;
		}
		if (dislodged)
			add_dislodged(b, t, pw, l);
		else
			board_add_unit(b, t, pw, l);
	}
	return 0;
}

/* Read the position lines [p, end) into b (its phase already set). */
static int
read_positions(struct reader *rd, const char *p, const char *end, struct board *b, struct buf *why)
{
	const char *line;
	size_t len;

	while ((line = str_next_line(&p, end, &len)) != NULL)
		if (len > 0 && position_line(rd, line, len, b, why) < 0)
			return -1;
	return 0;
}

/* Longest power name plus kind and place that quick_position reads. */
#define QUICK_SPAN 48

/* Do the bytes at s start with the pattern? */
#define HAS(s, pat) (((load8(s) ^ (pat).p) & (pat).mask) == 0)

/*
 * The usual position line at s, "Power: kind place\n" with single spaces,
 * read into b as position_line would, without finding the line first.
 * Returns the start of the next line, or NULL when the line is of another
 * shape or names nothing known (position_line then reads it, and says
 * what is wrong).
 */
static const char *
quick_position(struct reader *rd, const char *s, const char *end, struct board *b)
{
	power_id pw = rd->first[(unsigned char)s[0]];
	enum unit_type t;
	bool dislodged = false;
	const struct abbr *a;
	struct word place;
	size_t n;
	loc_id l;
	prov_id pr;

	if (pw == POWER_NONE)
		return NULL;
	n = rd->plen[pw];
	if ((size_t)(end - s) < n + QUICK_SPAN || !HAS(s, rd->power[pw][0]) ||
	    !HAS(s + 8, rd->power[pw][1]))
		return NULL;
	s += n + 2;	/* "Power: " */
	if (HAS(s, rd->supply)) {
		t = UNIT_NONE;
		s += 7;
	} else if (HAS(s, rd->army)) {
		t = UNIT_ARMY;
		s += 5;
	} else if (HAS(s, rd->fleet)) {
		t = UNIT_FLEET;
		s += 6;
	} else if (memcmp(s, "army/dislodged ", 15) == 0) {
		t = UNIT_ARMY;
		dislodged = true;
		s += 15;
	} else if (memcmp(s, "fleet/dislodged ", 16) == 0) {
		t = UNIT_FLEET;
		dislodged = true;
		s += 16;
	} else {
		return NULL;
	}
	place.s = s;
	if (s[3] == '\n' && (a = quick_abbr(rd, s)) != NULL) {
		l = a->loc;
		pr = a->prov;
		s += 3;
	} else {
		while (*s != '\n' && *s != ' ' && *s != '\t' && *s != '\r' && s - place.s < 16)
			s++;
		place.n = (size_t)(s - place.s);
		if (*s != '\n' || place.n == 0 || place.n >= 16)
			return NULL;
		l = find_loc(rd, place);
		pr = l == LOC_NONE ? PROV_NONE : rd->m->locs[l].prov;
	}
	if (l == LOC_NONE)
		return NULL;
	if (t == UNIT_NONE) {
		b->owner[pr] = pw;
	} else if (dislodged) {
		add_dislodged(b, t, pw, l);
	} else {
		if (b->nunits >= BOARD_MAX_UNITS)
			return NULL;
		b->units[b->nunits++] = (struct unit){ (uint8_t)t, pw, l };
	}
	return s + 1;
}

/* The phase counts of read_orders. */
struct order_count {
	int n;			/* orders kept */
	long lines, unreadable;	/* orders read; naming no province */
};

/* An order of nobody, naming no place. */
static void
order_blank(struct order *x)
{
	memset(x, 0, sizeof *x);
	x->power = POWER_NONE;
	x->target_power = POWER_NONE;
	x->loc = x->target = x->dest = LOC_NONE;
}

/* The location of the three letters a-z at s followed by the byte after,
 * or LOC_NONE. */
static inline loc_id
quick_loc(struct reader *rd, const char *s, char after)
{
	const struct abbr *a;

	return s[3] == after && (a = quick_abbr(rd, s)) != NULL ? a->loc : LOC_NONE;
}

/*
 * The usual order line at s ("abc move def", "abc hold", "abc support def"
 * with or without "move ghi", single spaces) read into o[c->n] as
 * order_line would, without finding the line first. Returns the start of
 * the next line, or NULL when the line is of another shape or names
 * nothing known (order_line then reads it).
 */
static const char *
quick_order(struct reader *rd, enum phase_type type, const char *s, const char *end,
    struct order *o, struct order_count *c)
{
	struct order *x = &o[c->n];
	loc_id at, to, target = LOC_NONE;
	enum order_kind kind;

	if (end - s < QUICK_SPAN || c->n >= MAX_ORDERS_PER_PHASE ||
	    (at = quick_loc(rd, s, ' ')) == LOC_NONE)
		return NULL;
	s += 4;
	if (HAS(s, rd->move)) {
		kind = type == PHASE_RETREAT ? ORDER_RETREAT : ORDER_MOVE;
		to = quick_loc(rd, s + 5, '\n');
		s += 9;
	} else if (HAS(s, rd->hold)) {
		kind = ORDER_HOLD;
		to = LOC_NONE;
		s += 5;
	} else if (HAS(s, rd->support)) {
		kind = ORDER_SUPPORT;
		to = LOC_NONE;
		if ((target = quick_loc(rd, s + 8, '\n')) != LOC_NONE) {
			s += 12;
		} else if ((target = quick_loc(rd, s + 8, ' ')) != LOC_NONE &&
		    HAS(s + 11, rd->then_move)) {
			to = quick_loc(rd, s + 17, '\n');
			s += 21;
			if (to == LOC_NONE)
				return NULL;
		} else {
			return NULL;
		}
	} else {
		return NULL;
	}
	if (to == LOC_NONE && kind != ORDER_HOLD && kind != ORDER_SUPPORT)
		return NULL;
	order_blank(x);
	x->kind = (uint8_t)kind;
	x->loc = at;
	x->target = target;
	x->dest = to;
	c->lines++;
	c->n++;
	return s;
}

/* Read one line of ORDERS into o[c->n] (when there is room). */
static void
order_line(struct reader *rd, enum phase_type type, const char *line, size_t len,
    struct order *o, struct order_count *c)
{
	const struct map *m = rd->m;
	const char *q = line, *end = line + len;
	struct word w1, w2, w3, w4, w5;
	struct order *x = &o[c->n];

	if (c->n >= MAX_ORDERS_PER_PHASE || (w1 = word(&q, end, 16)).n == 0)
		return;
	c->lines++;
	order_blank(x);
	w2 = word(&q, end, 16);
	if (WORD_IS(w1, "build")) {
		w3 = word(&q, end, 16);
		x->kind = ORDER_BUILD;
		x->type = WORD_IS(w2, "Army") ? UNIT_ARMY : UNIT_FLEET;
		x->loc = find_loc(rd, w3);
		if (x->loc == LOC_NONE) {
			c->unreadable++;
			return;
		}
		x->power = m->provs[m->locs[x->loc].prov].home;
		c->n++;
		return;
	}
	if (WORD_IS(w1, "remove")) {
		x->kind = ORDER_REMOVE;
		x->loc = find_loc(rd, w2);
		if (x->loc == LOC_NONE) {
			c->unreadable++;
			return;
		}
		c->n++;
		return;
	}
	x->loc = find_loc(rd, w1);
	if (x->loc == LOC_NONE) {
		c->unreadable++;
		return;
	}
	if (WORD_IS(w2, "hold")) {
		x->kind = ORDER_HOLD;
	} else if (WORD_IS(w2, "disband")) {
		x->kind = ORDER_DISBAND;
	} else if (WORD_IS(w2, "move")) {
		w3 = word(&q, end, 16);
		w4 = word(&q, end, 16);
		x->kind = type == PHASE_RETREAT ? ORDER_RETREAT : ORDER_MOVE;
		x->dest = find_loc(rd, w3);
		x->via_convoy = WORD_IS(w4, "via");
	} else if (WORD_IS(w2, "support") || WORD_IS(w2, "convoy")) {
		w3 = word(&q, end, 16);
		w4 = word(&q, end, 16);
		w5 = word(&q, end, 16);
		x->kind = w2.s[0] == 's' ? ORDER_SUPPORT : ORDER_CONVOY;
		x->target = find_loc(rd, w3);
		if (WORD_IS(w4, "move"))
			x->dest = find_loc(rd, w5);
		if (x->target == LOC_NONE || (w4.n > 0 && x->dest == LOC_NONE)) {
			c->unreadable++;
			return;
		}
	} else {
		c->unreadable++;
		return;
	}
	if ((x->kind == ORDER_MOVE || x->kind == ORDER_RETREAT) && x->dest == LOC_NONE) {
		c->unreadable++;
		return;
	}
	c->n++;
}

/* Units of a board by location: 0 empty, else 1 + power * 4 + type. */
static void
by_location(const struct map *m, const struct unit *u, int n, uint16_t *occ)
{
	int i;

	memset(occ, 0, (size_t)m->nlocs * sizeof *occ);
	for (i = 0; i < n; i++)
		occ[u[i].loc] = (uint16_t)(1 + u[i].power * 4 + u[i].type);
}

static void
put_diff(const struct map *m, const uint16_t *got, const uint16_t *want, const char *what,
    struct buf *why)
{
	int l;

	for (l = 0; l < m->nlocs; l++) {
		int k;
		if (got[l] == want[l])
			continue;
		for (k = 0; k < 2; k++) {
			uint16_t v = k == 0 ? got[l] : want[l];
			if (v == 0)
				continue;
			buf_printf(why, "%s %s%s %c %s; ", k == 0 ? "extra" : "missing", what,
			    m->powers[(v - 1) / 4].name, unit_letter((enum unit_type)((v - 1) % 4)),
			    m->locs[l].name);
		}
	}
}

/* Describe how got differs from want (which is authoritative); empty when equal. */
static void
compare(const struct map *m, const struct board *got, const struct board *want, struct buf *why)
{
	uint16_t a[MAP_MAX_LOCS], b[MAP_MAX_LOCS];
	struct unit da[BOARD_MAX_UNITS], db[BOARD_MAX_UNITS];
	char p1[48], p2[48];
	int i;

	if (got->year != want->year || got->season != want->season || got->phase != want->phase) {
		buf_printf(why, "next phase is %s here, %s in the record; ",
		    phase_format(got, p1, sizeof p1), phase_format(want, p2, sizeof p2));
		return;
	}
	by_location(m, got->units, got->nunits, a);
	by_location(m, want->units, want->nunits, b);
	if (got->nunits != want->nunits || memcmp(a, b, (size_t)m->nlocs * sizeof a[0]) != 0)
		put_diff(m, a, b, "", why);
	if (got->ndislodged || want->ndislodged) {
		for (i = 0; i < got->ndislodged; i++)
			da[i] = got->dislodged[i].unit;
		for (i = 0; i < want->ndislodged; i++)
			db[i] = want->dislodged[i].unit;
		by_location(m, da, got->ndislodged, a);
		by_location(m, db, want->ndislodged, b);
		if (memcmp(a, b, (size_t)m->nlocs * sizeof a[0]) != 0)
			put_diff(m, a, b, "dislodged ", why);
	}
	if (memcmp(got->owner, want->owner, (size_t)m->nprovs) == 0)
		return;
	for (i = 0; i < m->nprovs; i++) {
		if (!m->provs[i].supply || got->owner[i] == want->owner[i])
			continue;
		buf_printf(why, "%s owned by %s here, by %s in the record; ", m->provs[i].abbr,
		    got->owner[i] == POWER_NONE ? "nobody" : m->powers[got->owner[i]].name,
		    want->owner[i] == POWER_NONE ? "nobody" : m->powers[want->owner[i]].name);
	}
}

/* Read the header of a phase, "PHASE " and the n bytes at line, as the
 * phase-th of its record. Returns 0, or -1 with the fault said in report. */
static int
read_header(const char *line, size_t n, int phase, const char *name, int lineno, int *year,
    enum season *season, enum phase_type *type, struct buf *report)
{
	char hdr[64];

	if (phase >= MAX_PHASES || n - 6 >= sizeof hdr) {
		buf_printf(report, "%s:%d: too many phases or bad header\n", name, lineno);
		return -1;
	}
	memcpy(hdr, line + 6, n - 6);
	hdr[n - 6] = '\0';
	if (phase_parse(hdr, year, season, type) < 0) {
		buf_printf(report, "%s:%d: bad phase \"%s\"\n", name, lineno, hdr);
		return -1;
	}
	return 0;
}

/* read_header, answered from rd's table of the headers met before (the
 * same few phases begin every record). */
static int
known_header(struct reader *rd, const char *line, size_t n, int phase, const char *name,
    int lineno, int *year, enum season *season, enum phase_type *type, struct buf *report)
{
	struct header *h;
	uint32_t x = 2166136261u;
	size_t i;

	if (phase >= MAX_PHASES || n <= 6 || n - 6 >= sizeof h->text)
		return read_header(line, n, phase, name, lineno, year, season, type, report);
	for (i = 6; i < n; i++)
		x = (x ^ (unsigned char)line[i]) * 16777619u;
	h = &rd->headers[x % HEADERS];
	if (h->len != n - 6 || memcmp(h->text, line + 6, n - 6) != 0) {
		if (read_header(line, n, phase, name, lineno, year, season, type, report) < 0)
			return -1;
		memcpy(h->text, line + 6, n - 6);
		h->len = n - 6;
		h->year = *year;
		h->season = *season;
		h->type = *type;
	}
	*year = h->year;
	*season = h->season;
	*type = h->type;
	return 0;
}

/*
 * The record's shape from p on (line lineno + 1), nph phases met before,
 * the last of them (its header on line phline) with a POSITIONS when have_pos; nopos is the line of an
 * earlier phase without one (0: none). A bad header anywhere is the fault
 * said, else the first phase without POSITIONS, else a record without any
 * PHASE. Returns 0, or -1 with the fault said in report.
 */
static int
check_shape(const char *p, const char *end, int lineno, int nph, int phline, bool have_pos,
    int nopos, const char *name, struct buf *report)
{
	const char *line;
	size_t n;
	int year;
	enum season season;
	enum phase_type type;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		lineno++;
		if (n >= 6 && memcmp(line, "PHASE ", 6) == 0) {
			if (read_header(line, n, nph, name, lineno, &year, &season, &type, report) < 0)
				return -1;
			if (nph > 0 && !have_pos && nopos == 0)
				nopos = phline;
			nph++;
			phline = lineno;
			have_pos = false;
		} else if (n == 9 && memcmp(line, "POSITIONS", 9) == 0) {
			have_pos = true;
		}
	}
	if (nph == 0) {
		buf_printf(report, "%s: no PHASE in the record\n", name);
		return -1;
	}
	if (nopos == 0 && !have_pos)
		nopos = phline;
	if (nopos != 0) {
		buf_printf(report, "%s:%d: phase without POSITIONS\n", name, nopos);
		return -1;
	}
	return 0;
}

/* A replay under way, read in one pass over the record. */
struct replay {
	struct reader *rd;
	const struct rules *r;
	const char *name;
	struct gamerec_stats *st;
	gamerec_phase_fn fn;
	void *ctx;
	int nph;			/* phases met */
	int line;			/* the header line of the phase being read */
	int year;			/* its phase */
	enum season season;
	enum phase_type type;
	struct board played;		/* the label of the phase last played */
	const char *pos;		/* its POSITIONS lines, NULL before any */
	bool pos_bad;			/* they hold a fault, said in why */
	struct order_count oc[2];	/* its orders (index nph - 1 & 1) and the last played */
	bool cd;			/* the phase last played ended in civil disorder */
	struct buf why;
	struct buf fail;		/* why the replay stopped, said once the record's
					   shape is known to be sound */
};

/* Play the phase being read (number k) with its orders from the replay's
 * position. */
static void
play(struct replay *rp, int k)
{
	struct reader *rd = rp->rd;
	struct order_count *c = &rp->oc[k & 1];

	rp->st->orders += c->lines;
	rp->st->unreadable += c->unreadable;
	if (rp->fn)
		board_copy(&rd->before, &rd->b);
	adj_resolve(rd->m, rp->r, &rd->b, rd->orders[k & 1], c->n, &rd->res, NULL);
	rp->st->phases++;
	/* Removals the orders left open were made by the server's own
	 * civil-disorder rule. */
	rp->cd = rd->b.phase == PHASE_ADJUSTMENT && rd->res.nremoved > 0;
	rp->played.year = rp->year;
	rp->played.season = (uint8_t)rp->season;
	rp->played.phase = (uint8_t)rp->type;
	board_copy(&rd->b, &rd->res.after);
	phase_next(rd->m, rp->r, &rd->b);
}

/* Hand one phase to the caller's function. */
static int
emit(const struct replay *rp, int k)
{
	const struct reader *rd = rp->rd;
	struct gamerec_phase ph = { &rd->before, rd->orders[k & 1], rp->oc[k & 1].n, &rd->res,
		&rd->b };

	return rp->fn ? rp->fn(rp->ctx, &ph) : 0;
}

/* Compare the phase played (number k) with the record's next position.
 * Returns 0 when they agree, 1 when not (said in rp->fail), -1 when the
 * caller's function stopped the replay. */
static int
settle(struct replay *rp, int k)
{
	struct reader *rd = rp->rd;
	const struct map *m = rd->m;
	struct board *b = &rd->b, *want = &rd->want;
	struct buf *why = &rp->why;

	/* The record keeps some phases in which nothing could be decided
	 * (an adjustment where no power can build or must remove); we skip
	 * them. Accept one when the position is the same. */
	if (phase_cmp(want->year, (enum season)want->season, (enum phase_type)want->phase, b->year,
		(enum season)b->season, (enum phase_type)b->phase) < 0) {
		struct board relabelled = *b;
		relabelled.year = want->year;
		relabelled.season = want->season;
		relabelled.phase = want->phase;
		buf_reset(why);
		compare(m, &relabelled, want, why);
		if (why->len == 0) {
			rp->st->kept_phases++;
			*b = relabelled;
		}
	}
	/* Rarely the record omits a phase (nobody gave orders in it): play
	 * it without orders and see whether the record's position follows. */
	if (phase_cmp(want->year, (enum season)want->season, (enum phase_type)want->phase, b->year,
		(enum season)b->season, (enum phase_type)b->phase) > 0) {
		struct board trial = *b;
		int j;
		for (j = 0; j < 4 && phase_cmp(want->year, (enum season)want->season,
		    (enum phase_type)want->phase, trial.year, (enum season)trial.season,
		    (enum phase_type)trial.phase) > 0; j++) {
			adj_resolve(m, rp->r, &trial, rd->orders[k & 1], 0, &rd->scratch, NULL);
			trial = rd->scratch.after;
			phase_next(m, rp->r, &trial);
		}
		buf_reset(why);
		compare(m, &trial, want, why);
		if (why->len == 0) {
			rp->st->omitted_phases += j;
			*b = trial;
		}
	}
	buf_reset(why);
	compare(m, b, want, why);
	if (rp->cd) {
		rp->st->cd_phases++;
		if (why->len == 0)
			rp->st->cd_matched++;
		board_copy(b, want);	/* the server's own civil-disorder choice */
		buf_reset(why);
		return emit(rp, k) != 0 ? -1 : 0;
	}
	if (why->len > 0) {
		char p1[48];
		buf_printf(&rp->fail, "%s:%d: after %s: %s\n", rp->name, rp->line,
		    phase_format(&rp->played, p1, sizeof p1), buf_str(why));
		return 1;
	}
	return emit(rp, k) != 0 ? -1 : 0;
}

/* The phase being read (number nph - 1) is over, its lines all read: check
 * its position, settle the phase before it and, when another follows,
 * play it. Returns as settle, or -1 with rp->fail said when its position
 * cannot be read. */
static int
end_phase(struct replay *rp, bool another)
{
	int k = rp->nph - 1, rc = 0;

	if (rp->pos_bad) {
		buf_printf(&rp->fail, "%s:%d: %s\n", rp->name, rp->line, buf_str(&rp->why));
		return -1;
	}
	if (k == 0)
		rp->rd->b = rp->rd->want;
	else
		rc = settle(rp, k - 1);
	if (rc == 0 && another)
		play(rp, k);
	return rc;
}

/* Start reading the record's position into want, at the phase being read. */
static void
start_positions(struct replay *rp)
{
	struct board *w = &rp->rd->want;

	/* Only what the position lines fill is cleared: units past the
	 * counts are never read. */
	w->year = rp->year;
	w->season = (uint8_t)rp->season;
	w->phase = (uint8_t)rp->type;
	w->nunits = 0;
	w->ndislodged = 0;
	memset(w->owner, POWER_NONE, sizeof w->owner);
	memset(w->contested, 0, sizeof w->contested);
	rp->pos_bad = false;
	buf_reset(&rp->why);
}

/*
 * Replay one record in one pass over its lines: each phase is played once
 * the next one's header is met, and compared once that one's position is
 * read. The record's shape (its headers, a POSITIONS in every phase) is
 * checked as the lines go by; a fault in it is what is said, even when the
 * replay stopped earlier (the rest of the record is then only looked at).
 * With fn, the shape is checked first, so fn never sees a phase of a record
 * that is not sound.
 */
static int
replay(struct reader *rd, const struct rules *r, const char *text, size_t len, const char *name,
    struct gamerec_stats *st, struct buf *report, gamerec_phase_fn fn, void *ctx)
{
	struct replay rp;
	struct gamerec_stats st0 = *st;
	const char *p = text, *end = text + len, *line;
	size_t n;
	int lineno = 0, rc = 0, nopos = 0;
	enum { NONE, POS, ORD } sec = NONE;

	if (fn && check_shape(text, end, 0, 0, 0, false, 0, name, report) < 0) {
		st->games_failed++;
		return -1;
	}
	memset(&rp, 0, sizeof rp);
	rp.rd = rd;
	rp.r = r;
	rp.name = name;
	rp.st = st;
	rp.fn = fn;
	rp.ctx = ctx;
	buf_init(&rp.why, BUF_ERRORS_MAX);
	buf_init(&rp.fail, BUF_ERRORS_MAX);
	while (p < end) {
		const char *q;
		/* The usual lines, read where they lie. */
		if (sec == POS && !rp.pos_bad) {
			while (*p != 'P' && *p != 'O' &&
			    (q = quick_position(rd, p, end, &rd->want)) != NULL) {
				p = q;
				lineno++;
			}
		} else if (sec == ORD) {
			struct order *o = rd->orders[(rp.nph - 1) & 1];
			while (*p != 'P' && *p != 'O' &&
			    (q = quick_order(rd, rp.type, p, end, o, &rp.oc[(rp.nph - 1) & 1])) != NULL) {
				p = q;
				lineno++;
			}
		}
		lineno++;
		line = str_next_line(&p, end, &n);
		if (n >= 6 && memcmp(line, "PHASE ", 6) == 0) {
			int y;
			enum season se;
			enum phase_type ty;
			if (known_header(rd, line, n, rp.nph, name, lineno, &y, &se, &ty, report) < 0) {
				rc = -1;
				goto shape;
			}
			if (rp.nph > 0) {
				if (rp.pos == NULL)
					nopos = rp.line;
				else
					rc = end_phase(&rp, true);
			}
			rp.nph++;
			rp.line = lineno;
			rp.year = y;
			rp.season = se;
			rp.type = ty;
			rp.pos = NULL;
			rp.pos_bad = false;
			memset(&rp.oc[(rp.nph - 1) & 1], 0, sizeof rp.oc[0]);
			sec = NONE;
			if (nopos != 0 || rc != 0)
				break;
		} else if (rp.nph == 0) {
			continue;
		} else if (n == 9 && memcmp(line, "POSITIONS", 9) == 0) {
			rp.pos = p;
			start_positions(&rp);
			memset(&rp.oc[(rp.nph - 1) & 1], 0, sizeof rp.oc[0]);
			sec = POS;
		} else if (n == 6 && memcmp(line, "ORDERS", 6) == 0) {
			/* A second ORDERS ends the POSITIONS there, the first
			 * ORDERS and its lines read as positions. */
			if (sec == ORD && rp.pos != NULL) {
				start_positions(&rp);
				rp.pos_bad = read_positions(rd, rp.pos, line, &rd->want, &rp.why) < 0;
			}
			memset(&rp.oc[(rp.nph - 1) & 1], 0, sizeof rp.oc[0]);
			sec = ORD;
		} else if (sec == POS) {
			if (n > 0 && !rp.pos_bad)
				rp.pos_bad = position_line(rd, line, n, &rd->want, &rp.why) < 0;
		} else if (sec == ORD) {
			order_line(rd, rp.type, line, n, rd->orders[(rp.nph - 1) & 1],
			    &rp.oc[(rp.nph - 1) & 1]);
		}
	}
	if (p >= end && rc == 0 && nopos == 0 && rp.nph > 0) {
		if (rp.pos == NULL)
			nopos = rp.line;
		else
			rc = end_phase(&rp, false);
	}
	if (rc == -1 && rp.fail.len == 0)
		goto out;	/* fn stopped the replay */
	/* The rest of the record (from the phase being read on) is looked at
	 * for a fault of its shape, which is said before any other. */
	if (rc != 0 || nopos != 0 || rp.nph == 0) {
		if (check_shape(p, end, lineno, rp.nph, rp.line, rp.pos != NULL, nopos, name,
			report) < 0) {
			rc = -1;
			goto shape;
		}
		buf_append(report, rp.fail.data, rp.fail.len);
	}
	goto out;
shape:
	*st = st0;
out:
	if (rc == 0)
		st->games_passed++;
	else
		st->games_failed++;
	buf_free(&rp.why);
	buf_free(&rp.fail);
	return rc;
}

int
gamerec_check_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report)
{
	return gamerec_replay_text(m, nm, r, text, len, name, st, report, NULL, NULL);
}

int
gamerec_replay_text(const struct map *m, const struct names *nm, const struct rules *r,
    const char *text, size_t len, const char *name, struct gamerec_stats *st, struct buf *report,
    gamerec_phase_fn fn, void *ctx)
{
	struct reader *rd = reader_new(m, nm);
	int rc = replay(rd, r, text, len, name, st, report, fn, ctx);

	free(rd);
	return rc;
}

struct walker {
	const struct map *m;
	const struct names *nm;
	struct reader *rd;
	struct rules r;
	int verbose;
	FILE *out;
	struct gamerec_stats st;
	struct buf text;
	bool reasons;			/* check every movement and retreat phase's reasons */
	long failures, explained;	/* failed orders and dislodged units; with a reason */
	long lost, lost_explained;	/* retreats: units destroyed; with a reason */
	long adjusted, adjusted_explained; /* adjustments: failed builds and removals,
					   units removed in civil disorder; with a reason */
	const char *path;
	struct phase_result *res;
	struct phase_why *why;
	struct buf words;
};

/* Is unit result r of a unit of a movement or retreat phase a failure
 * that wants a reason? */
static bool
wants_reason(enum reason r, bool dislodged, bool retreat)
{
	if (retreat)	/* destroyed: by a clash, or with no retreat carried out */
		return r == R_RETREAT_BOUNCED || r == R_DISBANDED;
	return dislodged || r == R_BOUNCED || r == R_CUT || r == R_VOID || r == R_NO_CONVOY ||
	    r == R_PARADOX || r == R_DISLODGED;
}

/* A replayed adjustment phase resolved again and written as a results
 * mail gives it: every line with a result's tag ("(*not a home supply
 * centre*)", "(*civil disorder*)"; not an illegal order's) has its reason
 * under it, and it fits: "removed: " for a unit removed in civil disorder,
 * "failed: " for a build or removal that failed. Returns 1 when one has
 * none, naming it. */
static int
check_adjustment(struct walker *w, const struct gamerec_phase *ph)
{
	const char *s, *end, *line, *under;
	char text[512], p1[48];
	size_t n, un;

	adj_resolve_why(w->m, &w->r, ph->before, NULL, ph->orders, ph->norders, w->res, w->why);
	buf_reset(&w->words);
	report_results(w->m, ph->before, ph->orders, w->res, w->why, &w->words);
	s = buf_str(&w->words);
	end = s + w->words.len;
	while ((line = str_next_line(&s, end, &n)) != NULL) {
		bool civil;
		const char *p = s;

		str_ncopy_trim(text, sizeof text, line, n);
		if (strstr(text, "  (*") == NULL || strstr(text, "(*illegal") != NULL)
			continue;
		civil = strstr(text, "(*civil disorder*)") != NULL;
		w->adjusted++;
		under = str_next_line(&p, end, &un);
		if (under != NULL && un > 4 && memcmp(under, "    ", 4) == 0 &&
		    str_prefix_nocase(under + 4, civil ? "removed: " : "failed: ")) {
			w->adjusted_explained++;
			continue;
		}
		fprintf(w->out, "%s: %s: no reason that fits under \"%s\"\n", w->path,
		    phase_format(ph->before, p1, sizeof p1), text);
		return 1;
	}
	return 0;
}

/* A replayed phase resolved again with its reasons: each failed order,
 * dislodged unit and unit destroyed in a retreat has one, and it fits;
 * so has each failed build or removal and each unit removed in civil
 * disorder (gamerec_phase_fn). */
static int
check_reasons(void *ctx, const struct gamerec_phase *ph)
{
	struct walker *w = ctx;
	bool retreat = ph->before->phase == PHASE_RETREAT;
	int u, bad;

	if (ph->before->phase == PHASE_ADJUSTMENT)
		return check_adjustment(w, ph);
	adj_resolve_why(w->m, &w->r, ph->before, NULL, ph->orders, ph->norders, w->res, w->why);
	bad = adj_why_check(w->res, w->why);
	for (u = 0; u < w->res->nunits; u++) {
		if (w->res->unit_reason[u] != ph->res->unit_reason[u] ||
		    w->res->unit_dislodged[u] != ph->res->unit_dislodged[u])
			bad = u;
		/* A disbanding ordered is no failure. */
		if (!wants_reason((enum reason)w->res->unit_reason[u], w->res->unit_dislodged[u],
			retreat) || (retreat && w->res->unit_reason[u] == R_DISBANDED &&
			w->res->unit_order[u] >= 0))
			continue;
		w->failures++;
		w->lost += retreat;
		buf_reset(&w->words);
		if (report_why(w->m, ph->before, ph->orders, w->res, w->why, u, &w->words)) {
			w->explained++;
			w->lost_explained += retreat;
		} else {
			bad = u;
		}
	}
	if (bad >= 0) {
		char p1[48];
		fprintf(w->out, "%s: %s: the reason of the unit in %s does not fit its result\n",
		    w->path, phase_format(ph->before, p1, sizeof p1),
		    w->m->locs[retreat ? ph->before->dislodged[bad].unit.loc :
					  ph->before->units[bad].loc].name);
		return 1;
	}
	return 0;
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/* An entry of a directory of records: its name, and its type when the
 * directory says it (DT_UNKNOWN when not). */
struct entry {
	char *name;
	unsigned char type;
};

static int
cmp_entries(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void check_path(struct walker *w, const char *path);

/* Replay the record in the file at path. */
static void
check_file(struct walker *w, const char *path)
{
	struct buf report;

	buf_reset(&w->text);
	if (fs_read_file(path, &w->text) < 0) {
		fprintf(w->out, "%s: %s\n", path, strerror(errno));
		w->st.games_failed++;
		return;
	}
	buf_init(&report, 1 << 20);
	w->path = path;
	/* a game whose reasons do not fit fails (said by check_reasons) */
	replay(w->rd, &w->r, buf_str(&w->text), w->text.len, path, &w->st, &report,
	    w->reasons ? check_reasons : NULL, w);
	fputs(buf_str(&report), w->out);
	buf_free(&report);
}

/* The records of directory path (its files ending in .txt and its
 * directories), in the order of their names. */
static void
check_dir(struct walker *w, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	struct entry *ents = NULL;
	size_t n = 0, i;

	if (d == NULL) {
		fprintf(w->out, "%s: %s\n", path, strerror(errno));
		w->st.games_failed++;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		ents = xreallocarray(ents, n + 1, sizeof *ents);
		ents[n].name = xstrdup(e->d_name);
		ents[n++].type = e->d_type;
	}
	closedir(d);
	qsort(ents, n, sizeof *ents, cmp_entries);
	for (i = 0; i < n; i++) {
		char sub[4096];
		struct stat ss;
		bool txt = has_suffix(ents[i].name, ".txt");

		snprintf(sub, sizeof sub, "%s/%s", path, ents[i].name);
		/* A plain file is read without a stat first; any other kind
		 * the directory names (or none) is looked at. */
		if (ents[i].type == DT_REG) {
			if (txt)
				check_file(w, sub);
		} else if (stat(sub, &ss) == 0 && (S_ISDIR(ss.st_mode) || txt)) {
			check_path(w, sub);
		}
		free(ents[i].name);
	}
	free(ents);
}

static void
check_path(struct walker *w, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) < 0) {
		fprintf(w->out, "%s: %s\n", path, strerror(errno));
		w->st.games_failed++;
		return;
	}
	if (S_ISDIR(sb.st_mode))
		check_dir(w, path);
	else
		check_file(w, path);
}

int
gamerec_check_paths(const struct map *m, enum edition ed, const char *const *paths, int n,
    int verbose, bool reasons, FILE *out)
{
	struct walker w;
	int i;

	memset(&w, 0, sizeof w);
	w.reasons = reasons;
	if (reasons) {
		w.res = xmalloc(sizeof *w.res);
		w.why = xmalloc(sizeof *w.why);
		buf_init(&w.words, 4096);
	}
	w.m = m;
	w.nm = names_new(m);
	w.rd = reader_new(m, w.nm);
	rules_for_map(&w.r, m, ed);
	w.verbose = verbose;
	w.out = out;
	buf_init(&w.text, 64u << 20);
	for (i = 0; i < n; i++)
		check_path(&w, paths[i]);
	fprintf(out, "%ld phases, %ld orders (%ld unreadable) replayed\n", w.st.phases, w.st.orders,
	    w.st.unreadable);
	fprintf(out, "%d civil-disorder adjustment phases (recorded removals used; ours agreed in %d)\n",
	    w.st.cd_phases, w.st.cd_matched);
	fprintf(out, "%d phases kept by the record in which nothing could be decided\n",
	    w.st.kept_phases);
	fprintf(out, "%d phases missing from the record, played without orders\n",
	    w.st.omitted_phases);
	if (reasons) {
		fprintf(out, "%ld failed orders and dislodged units, %ld with a reason that fits\n",
		    w.failures, w.explained);
		fprintf(out, "of them %ld units destroyed in a retreat, %ld with a reason that fits\n",
		    w.lost, w.lost_explained);
		fprintf(out, "%ld failed builds and removals and units removed in civil disorder, "
		    "%ld with a reason that fits\n", w.adjusted, w.adjusted_explained);
		free(w.res);
		free(w.why);
		buf_free(&w.words);
	}
	fprintf(out, "%d passed, %d failed\n", w.st.games_passed, w.st.games_failed);
	buf_free(&w.text);
	free(w.rd);
	names_free((struct names *)(uintptr_t)w.nm);
	return w.st.games_failed ? 1 : 0;
}
