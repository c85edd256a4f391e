#include "scan.h"

#include <limits.h>
#include <string.h>

#include "str.h"

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

void
scan_blanks(const char **p)
{
	while (is_blank(**p))
		(*p)++;
}

bool
scan_at_end(const char **p)
{
	scan_blanks(p);
	return **p == '\0';
}

int
scan_word(const char **p, struct scan_word *w)
{
	const char *s = *p;

	while (is_blank(*s))
		s++;
	if (*s == '\0')
		return -1;
	w->ptr = s;
	while (*s != '\0' && !is_blank(*s))
		s++;
	w->len = (size_t)(s - w->ptr);
	*p = s;
	return 0;
}

int
scan_token(const char **p, const char *seps, struct scan_word *w)
{
	const char *s = *p + strspn(*p, seps);

	if (*s == '\0')
		return -1;
	w->ptr = s;
	w->len = strcspn(s, seps);
	*p = s + w->len;
	return 0;
}

int
scan_long(const char **p, long min, long max, long *out)
{
	const char *s = *p;
	struct scan_word w;

	if (scan_word(&s, &w) < 0 || scan_word_long(&w, min, max, out) < 0)
		return -1;
	*p = s;
	return 0;
}

int
scan_literal(const char **p, const char *lit)
{
	const char *s = *p;
	struct scan_word w;

	if (scan_word(&s, &w) < 0 || !scan_word_is(&w, lit))
		return -1;
	*p = s;
	return 0;
}

int
scan_name(const char **p, char *out, size_t size)
{
	struct scan_word w;

	if (scan_word(p, &w) < 0)
		return -1;
	scan_word_copy(&w, out, size);
	return 0;
}

const char *
scan_rest(const char **p)
{
	const char *s;

	scan_blanks(p);
	s = *p;
	*p += strlen(s);
	return s;
}

bool
scan_word_is(const struct scan_word *w, const char *s)
{
	return strlen(s) == w->len && memcmp(w->ptr, s, w->len) == 0;
}

bool
scan_word_is_nocase(const struct scan_word *w, const char *s)
{
	return str_eqn_nocase(w->ptr, w->len, s);
}

int
scan_word_long(const struct scan_word *w, long min, long max, long *out)
{
	size_t i = 0;
	bool neg = false;
	long v = 0;

	if (w->len > 0 && (w->ptr[0] == '-' || w->ptr[0] == '+'))
		neg = w->ptr[i++] == '-';
	if (i == w->len)
		return -1;
	for (; i < w->len; i++) {
		int d = w->ptr[i] - '0';
		if (d < 0 || d > 9 || v > (LONG_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (neg)
		v = -v;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
scan_word_copy(const struct scan_word *w, char *out, size_t size)
{
	if (w->len >= size) {
		out[0] = '\0';
		return -1;
	}
	memcpy(out, w->ptr, w->len);
	out[w->len] = '\0';
	return 0;
}
