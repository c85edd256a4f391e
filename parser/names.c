#include "names.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"

enum { KIND_PROV = 0, KIND_POWER = 1 };

struct entry {
	char *key;
	uint8_t kind;
	uint16_t id;
};

struct names {
	const struct map *m;
	struct entry *e;
	int ne;
	uint32_t *slot;		/* entry index + 1; 0 = empty */
	uint32_t mask;
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

		if (*p < 0x80) {
			out[o++] = str_lc((char)*p++);
			continue;
		}
		p += fold_utf8(p, (size_t)(end - p), f);
		for (i = 0; f[i] && o + 1 < size; i++)
			out[o++] = f[i];
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
hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void
add(struct names *n, const char *name, uint8_t kind, uint16_t id)
{
	char key[128];
	int i;

	if (names_normalise(name, strlen(name), key, sizeof key) == 0)
		return;
	for (i = 0; i < n->ne; i++)
		if (n->e[i].kind == kind && n->e[i].id == id && strcmp(n->e[i].key, key) == 0)
			return;
	n->e = xreallocarray(n->e, (size_t)n->ne + 1, sizeof *n->e);
	n->e[n->ne].key = xstrdup(key);
	n->e[n->ne].kind = kind;
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

static int
add_cand(struct name_cand *out, int k, uint16_t id, uint8_t tier, uint8_t dist, const char *key)
{
	int i;

	for (i = 0; i < k; i++) {
		if (out[i].id == id) {
			if (dist < out[i].dist) {
				out[i].dist = dist;
				out[i].key = key;
			}
			return k;
		}
	}
	if (k >= NAMES_MAX_CAND)
		return k;
	out[k].id = id;
	out[k].tier = tier;
	out[k].dist = dist;
	out[k].key = key;
	return k + 1;
}

static int
exact(const struct names *n, const char *key, uint8_t kind, struct name_cand *out)
{
	uint32_t h = hash(key) & n->mask;
	int k = 0;

	while (n->slot[h]) {
		const struct entry *e = &n->e[n->slot[h] - 1];
		if (e->kind == kind && strcmp(e->key, key) == 0)
			k = add_cand(out, k, e->id, NAME_EXACT, 0, e->key);
		h = (h + 1) & n->mask;
	}
	return k;
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

static int
lookup(const struct names *n, const char *key, uint8_t kind, struct name_cand *out)
{
	size_t len = strlen(key);
	int k, i, best = 99, limit;

	k = exact(n, key, kind, out);
	if (k > 0 || len == 0)
		return k;
	if (len >= 3) {
		for (i = 0; i < n->ne; i++) {
			const struct entry *e = &n->e[i];
			if (e->kind == kind && strncmp(e->key, key, len) == 0)
				k = add_cand(out, k, e->id, NAME_PREFIX, 0, e->key);
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
		if (d > limit || d > best)
			continue;
		if (d < best) {
			best = d;
			k = 0;
		}
		k = add_cand(out, k, e->id, NAME_FUZZY, (uint8_t)d, e->key);
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
