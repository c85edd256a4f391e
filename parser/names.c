#include "names.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"

enum { KIND_PROV = 0, KIND_POWER = 1 };

struct entry {
	char *key;
	uint8_t kind;
	uint8_t len;		/* strlen(key) */
	uint16_t id;
};

#define NAMES_MAX_COASTS 16

struct names {
	const struct map *m;
	struct entry *e;
	int ne;
	uint32_t *slot;		/* entry index + 1; 0 = empty */
	uint32_t mask;
	int ncoasts;
	char coasts[NAMES_MAX_COASTS][8];	/* distinct coast abbreviations ("nc") */
};

/* Fold one UTF-8 sequence at s (n bytes available) to ASCII. Returns the
 * bytes consumed; *out gets up to two ASCII characters ("" to drop it). */
static size_t
fold_utf8(const unsigned char *s, size_t n, char out[3])
{
	static const char latin1[64] = /* U+00C0 .. U+00FF */
	    "aaaaaaaceeeeiiiidnooooo*ouuuuyts"
	    "aaaaaaaceeeeiiiidnooooo/ouuuuyty";
	unsigned cp;
	size_t len;

	out[0] = out[1] = out[2] = '\0';
	if (s[0] < 0x80) {
		out[0] = (char)s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0 && n >= 2) {
		cp = ((unsigned)(s[0] & 0x1f) << 6) | (s[1] & 0x3f);
		len = 2;
	} else if ((s[0] & 0xf0) == 0xe0 && n >= 3) {
		cp = ((unsigned)(s[0] & 0x0f) << 12) | ((unsigned)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
		len = 3;
	} else if ((s[0] & 0xf8) == 0xf0 && n >= 4) {
		return 4;	/* outside the BMP: drop */
	} else {
		return 1;	/* invalid byte: drop */
	}
	if (cp >= 0xc0 && cp <= 0xff) {
		out[0] = latin1[cp - 0xc0];
		if (cp == 0xdf) {
			out[0] = 's';
			out[1] = 's';
		}
		if (out[0] == '*' || out[0] == '/')
			out[0] = ' ';
	} else if (cp >= 0x100 && cp <= 0x17f) {
		/* Latin Extended-A: pairs of upper/lower case of a base letter. */
		static const char ext[] = "aaaaaa" "cccccccc" "dddd" "eeeeeeeeee" "gggggggg" "hhhh"
		    "iiiiiiiiii" "ii" "jj" "kkk" "llllllllll" "nnnnnnnnn" "oooooo" "oo" "rrrrrr"
		    "ssssssss" "tttttt" "uuuuuuuuuuuu" "ww" "yyy" "zzzzzz" "s";
		out[0] = cp - 0x100 < sizeof ext - 1 ? ext[cp - 0x100] : ' ';
	} else if (cp >= 0x410 && cp <= 0x44f) {
		/* Cyrillic letters that look like Latin ones ("Wаr" typed with a
		 * Cyrillic a); the others are dropped. */
		static const char cyr[33] = "a?b??e????k?mho?pcty?x??????????";
		char c = cyr[(cp - 0x410) % 32];
		out[0] = c == '?' ? ' ' : c;
	} else if (cp >= 0xff01 && cp <= 0xff5e) {
		/* Fullwidth forms of ASCII ("Ａ", "－"). */
		out[0] = (char)(cp - 0xfee0);
	} else if (cp == 0xa0 || cp == 0x2009 || cp == 0x202f) {
		out[0] = ' ';
	} else if (cp == 0x2010 || cp == 0x2011 || cp == 0x2012 || cp == 0x2013 || cp == 0x2014 ||
	    cp == 0x2212) {
		out[0] = '-';
	} else if (cp == 0x2192 || cp == 0x27a1 || cp == 0x21d2) {
		out[0] = '-';
		out[1] = '>';
	} else if (cp == 0x2018 || cp == 0x2019) {
		out[0] = '\'';
	} else {
		out[0] = ' ';
	}
	return len;
}

size_t
names_fold(const char *s, size_t len, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t o = 0;

	while (p < end && o + 1 < size) {
		char f[3];
		int i;

		while (p < end && *p < 0x80 && o + 1 < size)
			out[o++] = str_lc((char)*p++);
		if (p == end || o + 1 >= size)
			break;
		p += fold_utf8(p, (size_t)(end - p), f);
		for (i = 0; f[i] && o + 1 < size; i++)
			out[o++] = str_lc(f[i]);
	}
	out[o] = '\0';
	return o;
}

size_t
names_normalise(const char *s, size_t len, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t o = 0;
	int space = 1;

	while (p < end && o + 1 < size) {
		char f[3];
		int i;

		p += fold_utf8(p, (size_t)(end - p), f);
		for (i = 0; f[i] && o + 1 < size; i++) {
			char c = str_lc(f[i]);
			if (c == '.' || c == '\'')
				continue;
			if (c == ' ' || c == '-' || c == '_' || c == '\t') {
				if (!space)
					out[o++] = ' ';
				space = 1;
				continue;
			}
			out[o++] = c;
			space = 0;
		}
	}
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	return o;
}

static uint32_t
hashn(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static uint32_t
hash(const char *s)
{
	return hashn(s, strlen(s));
}

static void
add(struct names *n, const char *name, uint8_t kind, uint16_t id)
{
	char key[128];
	size_t kl;
	int i;

	if ((kl = names_normalise(name, strlen(name), key, sizeof key)) == 0)
		return;
	for (i = 0; i < n->ne; i++)
		if (n->e[i].kind == kind && n->e[i].id == id && strcmp(n->e[i].key, key) == 0)
			return;
	n->e = xreallocarray(n->e, (size_t)n->ne + 1, sizeof *n->e);
	n->e[n->ne].key = xstrdup(key);
	n->e[n->ne].kind = kind;
	n->e[n->ne].len = (uint8_t)kl;
	n->e[n->ne].id = id;
	n->ne++;
}

struct names *
names_new(const struct map *m)
{
	struct names *n = xcalloc(1, sizeof *n);
	uint32_t size = 64;
	int p, i;

	n->m = m;
	for (p = 0; p < m->nprovs; p++) {
		const struct province *pr = &m->provs[p];
		add(n, pr->abbr, KIND_PROV, (uint16_t)p);
		add(n, pr->name, KIND_PROV, (uint16_t)p);
		for (i = 0; i < pr->naliases; i++)
			add(n, pr->aliases[i], KIND_PROV, (uint16_t)p);
	}
	for (p = 0; p < m->npowers; p++) {
		const struct power *pw = &m->powers[p];
		add(n, pw->name, KIND_POWER, (uint16_t)p);
		add(n, pw->adjective, KIND_POWER, (uint16_t)p);
		add(n, pw->abbr, KIND_POWER, (uint16_t)p);
		for (i = 0; i < pw->naliases; i++)
			add(n, pw->aliases[i], KIND_POWER, (uint16_t)p);
		if (pw->letter) {
			char l[2] = { pw->letter, '\0' };
			add(n, l, KIND_POWER, (uint16_t)p);
		}
	}
	for (i = 0; i < m->nlocs; i++) {
		const char *ca = m->locs[i].coast_abbr;
		int k;
		if (ca == NULL || strlen(ca) >= sizeof n->coasts[0])
			continue;
		for (k = 0; k < n->ncoasts; k++)
			if (str_eq_nocase(n->coasts[k], ca))
				break;
		if (k == n->ncoasts && n->ncoasts < NAMES_MAX_COASTS) {
			str_copy(n->coasts[n->ncoasts], ca, sizeof n->coasts[0]);
			str_lower(n->coasts[n->ncoasts]);
			n->ncoasts++;
		}
	}
	while (size < (uint32_t)n->ne * 4)
		size *= 2;
	n->slot = xcalloc(size, sizeof *n->slot);
	n->mask = size - 1;
	for (i = 0; i < n->ne; i++) {
		uint32_t h = hash(n->e[i].key) & n->mask;
		while (n->slot[h])
			h = (h + 1) & n->mask;
		n->slot[h] = (uint32_t)i + 1;
	}
	return n;
}

void
names_free(struct names *n)
{
	int i;

	if (n == NULL)
		return;
	for (i = 0; i < n->ne; i++)
		free(n->e[i].key);
	free(n->e);
	free(n->slot);
	free(n);
}

int
names_cand_add(struct name_cand *out, int k, uint16_t id, uint8_t tier, uint8_t dist,
    const char *key)
{
	int i, j;

	for (i = 0; i < k; i++) {
		if (out[i].id == id) {
			if (dist >= out[i].dist)
				return k;
			/* closer: take it out and insert again below */
			memmove(&out[i], &out[i + 1], (size_t)(k - i - 1) * sizeof *out);
			k--;
			break;
		}
	}
	if (k >= NAMES_MAX_CAND) {
		if (dist >= out[k - 1].dist)
			return k;
		k--;
	}
	for (j = k; j > 0 && out[j - 1].dist > dist; j--)
		out[j] = out[j - 1];
	out[j].id = id;
	out[j].tier = tier;
	out[j].dist = dist;
	out[j].key = key;
	return k + 1;
}

static int
exact(const struct names *n, const char *key, size_t len, uint8_t kind, struct name_cand *out)
{
	uint32_t h = hashn(key, len) & n->mask;
	int k = 0;

	while (n->slot[h]) {
		const struct entry *e = &n->e[n->slot[h] - 1];
		if (e->kind == kind && e->len == len && memcmp(e->key, key, len) == 0)
			k = names_cand_add(out, k, e->id, NAME_EXACT, 0, e->key);
		h = (h + 1) & n->mask;
	}
	return k;
}

int
names_province_exactn(const struct names *n, const char *key, size_t len, struct name_cand *out)
{
	uint32_t h = hashn(key, len) & n->mask;

	while (n->slot[h]) {
		const struct entry *e = &n->e[n->slot[h] - 1];
		if (e->kind == KIND_PROV && e->len == len && memcmp(e->key, key, len) == 0) {
			out[0].id = e->id;
			out[0].tier = NAME_EXACT;
			out[0].dist = 0;
			out[0].key = e->key;
			return 1;
		}
		h = (h + 1) & n->mask;
	}
	return 0;
}

prov_id
names_province_exact(const struct names *n, const char *key)
{
	uint32_t h = hash(key) & n->mask;

	while (n->slot[h]) {
		const struct entry *e = &n->e[n->slot[h] - 1];
		if (e->kind == KIND_PROV && strcmp(e->key, key) == 0)
			return e->id;
		h = (h + 1) & n->mask;
	}
	return PROV_NONE;
}

/* Largest edit distance forgiven for a word of this length. */
static int
fuzz_limit(size_t len)
{
	if (len < 4)
		return 0;
	if (len <= 5)
		return 1;
	if (len <= 8)
		return 2;
	return 3;
}

/* Does each word of key begin the same word of name ("engl chan" ->
 * "english channel"), with as many words in both? */
static int
word_prefix(const char *key, const char *name)
{
	for (;;) {
		while (*key && *key != ' ') {
			if (*key++ != *name++)
				return 0;
		}
		while (*name && *name != ' ')
			name++;
		if (*key == '\0' || *name == '\0')
			return *key == *name;
		key++;
		name++;
	}
}

static int
lookup(const struct names *n, const char *key, uint8_t kind, struct name_cand *out)
{
	size_t len = strlen(key);
	int k, i, limit;

	k = exact(n, key, len, kind, out);
	if (k > 0 || len == 0)
		return k;
	if (len >= 3) {
		int words = strchr(key, ' ') != NULL;
		for (i = 0; i < n->ne; i++) {
			const struct entry *e = &n->e[i];
			if (e->kind == kind &&
			    (strncmp(e->key, key, len) == 0 || (words && word_prefix(key, e->key))))
				k = names_cand_add(out, k, e->id, NAME_PREFIX, 0, e->key);
		}
		if (k > 0)
			return k;
	}
	limit = fuzz_limit(len);
	if (limit == 0)
		return 0;
	for (i = 0; i < n->ne; i++) {
		const struct entry *e = &n->e[i];
		int d;
		if (e->kind != kind)
			continue;
		d = str_edit_distance(key, len, e->key, strlen(e->key), limit);
		if (d <= limit)
			k = names_cand_add(out, k, e->id, NAME_FUZZY, (uint8_t)d, e->key);
	}
	return k;
}

int
names_provinces(const struct names *n, const char *key, struct name_cand *out)
{
	return lookup(n, key, KIND_PROV, out);
}

int
names_powers(const struct names *n, const char *key, struct name_cand *out)
{
	return lookup(n, key, KIND_POWER, out);
}

int
names_powers_prefix(const struct names *n, const char *key, struct name_cand *out)
{
	size_t len = strlen(key);
	int i, k = 0;

	if (len == 0)
		return 0;
	for (i = 0; i < n->ne; i++) {
		const struct entry *e = &n->e[i];
		if (e->kind == KIND_POWER && strncmp(e->key, key, len) == 0)
			k = names_cand_add(out, k, e->id, NAME_PREFIX, 0, e->key);
	}
	return k;
}

power_id
names_power_exact(const struct names *n, const char *key)
{
	uint32_t h = hash(key) & n->mask;

	if (key[0] == '\0' || key[1] == '\0')
		return POWER_NONE;	/* letters only with a colon */
	while (n->slot[h]) {
		const struct entry *e = &n->e[n->slot[h] - 1];
		if (e->kind == KIND_POWER && strcmp(e->key, key) == 0)
			return (power_id)e->id;
		h = (h + 1) & n->mask;
	}
	return POWER_NONE;
}

int
names_is_coast(const struct names *n, const char *w)
{
	int i;

	for (i = 0; i < n->ncoasts; i++)
		if (n->coasts[i][0] == w[0] && strcmp(n->coasts[i], w) == 0)
			return 1;
	return 0;
}

int
names_province_distance(const struct names *n, prov_id p, const char *key, int limit)
{
	size_t len = strlen(key);
	int i, best = limit + 1;

	if (len == 0)
		return best;
	for (i = 0; i < n->ne; i++) {
		const struct entry *e = &n->e[i];
		int d;
		if (e->kind != KIND_PROV || e->id != p || e->key[0] != key[0])
			continue;
		if (len >= 2 && strncmp(e->key, key, len) == 0)
			return 0;
		d = str_edit_distance(key, len, e->key, strlen(e->key), limit);
		if (d < best)
			best = d;
	}
	return best;
}

int
names_suggest(const struct names *n, const char *key, struct name_cand *out, int max)
{
	struct name_cand all[NAMES_MAX_CAND];
	size_t len = strlen(key);
	int i, k = 0, limit = len < 4 ? 2 : (int)len / 2 + 1;

	if (len < 2)
		return 0;
	for (i = 0; i < n->ne; i++) {
		const struct entry *e = &n->e[i];
		size_t el = strlen(e->key);
		int d;
		if (e->kind != KIND_PROV)
			continue;
		/* a short word is compared with the beginning of long names too */
		d = str_edit_distance(key, len, e->key, el, limit);
		if (el > len && len >= 3) {
			int dp = str_edit_distance(key, len, e->key, len, limit) + 1;
			if (dp < d)
				d = dp;
		}
		if (d > limit)
			continue;
		/* rank: the same beginning counts, a different first letter too */
		d = 2 * d + (e->key[0] != key[0]) - (strncmp(e->key, key, 3) == 0);
		k = names_cand_add(all, k, e->id, NAME_FUZZY, (uint8_t)(d < 0 ? 0 : d), e->key);
	}
	if (k > max)
		k = max;
	memcpy(out, all, (size_t)k * sizeof *out);
	return k;
}

int
names_is_name_start(const struct names *n, const char *key)
{
	size_t len = strlen(key);
	int i;

	for (i = 0; i < n->ne; i++)
		if (n->e[i].kind == KIND_PROV && strncmp(n->e[i].key, key, len) == 0 &&
		    n->e[i].key[len] == ' ')
			return 1;
	return 0;
}
