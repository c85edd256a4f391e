#include "str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool
str_eq_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (str_lc(*a) != str_lc(*b))
			return false;
	return *a == *b;
}

bool
str_eqn_nocase(const char *a, size_t n, const char *b)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] == '\0' || str_lc(a[i]) != str_lc(b[i]))
			return false;
	return b[n] == '\0';
}

bool
str_prefix_nocase(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (*s == '\0' || str_lc(*s) != str_lc(*prefix))
			return false;
	return true;
}

char *
str_lower(char *s)
{
	char *p;

	for (p = s; *p; p++)
		*p = str_lc(*p);
	return s;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

char *
str_trim(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

int
str_to_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	while (is_blank(*s))
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s)
		return -1;
	while (is_blank(*end))
		end++;
	if (*end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
str_edit_distance(const char *a, size_t alen, const char *b, size_t blen, int limit)
{
	/* Three rolling rows of the optimal-string-alignment matrix. */
	int rows[3][64];
	int *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t i, j;
	int d;

	if (alen > 63 || blen > 63) {
		if (alen != blen)
			return limit + 1;
		d = 0;
		for (i = 0; i < alen; i++)
			if (str_lc(a[i]) != str_lc(b[i]) && ++d > limit)
				return limit + 1;
		return d;
	}
	if ((alen > blen ? alen - blen : blen - alen) > (size_t)limit)
		return limit + 1;
	for (j = 0; j <= blen; j++)
		prev[j] = (int)j;
	for (i = 1; i <= alen; i++) {
		int rowmin;

		cur[0] = (int)i;
		rowmin = cur[0];
		for (j = 1; j <= blen; j++) {
			int cost = str_lc(a[i - 1]) == str_lc(b[j - 1]) ? 0 : 1;
			int v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && str_lc(a[i - 1]) == str_lc(b[j - 2]) &&
			    str_lc(a[i - 2]) == str_lc(b[j - 1]) && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < rowmin)
				rowmin = v;
		}
		if (rowmin > limit)
			return limit + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen] > limit ? limit + 1 : prev[blen];
}

const char *
str_next_line(const char **p, const char *end, size_t *len)
{
	const char *s = *p, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (nl == NULL) {
		*len = (size_t)(end - s);
		*p = end;
	} else {
		*len = (size_t)(nl - s);
		*p = nl + 1;
	}
	if (*len > 0 && s[*len - 1] == '\r')
		(*len)--;
	return s;
}

size_t
str_copy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size > 0) {
		size_t m = n < size - 1 ? n : size - 1;
		memcpy(dst, src, m);
		dst[m] = '\0';
	}
	return n;
}

char *
str_ncopy_trim(char *out, size_t size, const char *s, size_t n)
{
	size_t k = n < size - 1 ? n : size - 1;
	char *t;

	memcpy(out, s, k);
	out[k] = '\0';
	t = str_trim(out);
	if (t != out)
		memmove(out, t, strlen(t) + 1);
	return out;
}

int
str_split_kv(const char *line, size_t n, char *buf, size_t size, char **key, char **val)
{
	char *k, *v;

	if (n >= size)
		return -1;
	memcpy(buf, line, n);
	buf[n] = '\0';
	k = str_trim(buf);
	if (*k == '\0' || *k == '#')
		return 0;
	v = k + strcspn(k, " \t");
	if (*v)
		*v++ = '\0';
	*key = k;
	*val = str_trim(v);
	return 1;
}

int
str_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Eight bytes from c, least significant first (the same on every machine). */
static uint64_t
load_le64(const unsigned char *c)
{
	return (uint64_t)c[0] | (uint64_t)c[1] << 8 | (uint64_t)c[2] << 16 |
	    (uint64_t)c[3] << 24 | (uint64_t)c[4] << 32 | (uint64_t)c[5] << 40 |
	    (uint64_t)c[6] << 48 | (uint64_t)c[7] << 56;
}

/*
 * A word at a time: each step, (h ^ word) times an odd number then a
 * shift-xor, is one-to-one in h, so a change in any byte changes the result;
 * the length goes in first and last, so a cut changes it too.
 */
uint64_t
str_hash_bytes(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t h = 14695981039346656037ULL ^ ((uint64_t)n * 0x9E3779B97F4A7C15ULL), w = 0;
	size_t k;

	for (; n >= 8; c += 8, n -= 8) {
		h = (h ^ load_le64(c)) * 0x100000001B3ULL;
		h ^= h >> 29;
	}
	for (k = 0; k < n; k++)
		w |= (uint64_t)c[k] << (8 * k);
	h = (h ^ w ^ ((uint64_t)n << 56)) * 0x100000001B3ULL;
	h ^= h >> 32;
	return h;
}

uint64_t
str_hash(const char *s)
{
	return str_hash_bytes(s, strlen(s));
}
