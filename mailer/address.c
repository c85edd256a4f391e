/*
 * address.c — address lists, validation, plus-addressing.
 *
 * The list parser walks the value once with a small state (inside quotes,
 * comment depth, inside <>), collecting for each entry the text outside
 * <> (the display name, or the address itself when there is no <>), the
 * text inside <>, and the first comment (the old "addr (Name)" form).
 * Entries end at ',' or ';' at top level; a ':' at top level before any
 * '<' starts a group, whose name is dropped.
 */
#include "address.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "header.h"

#define ADDR_MAX 254

static bool
atext(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("!#$%&'*+-/=?^_`{|}~", c) != NULL);
}

static bool
label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '_';
}

bool
addr_valid(const char *a)
{
	const char *at = strrchr(a, '@'), *p;
	size_t n = strlen(a);

	if (at == NULL || at == a || n > ADDR_MAX || at - a > 64)
		return false;
	/* local part: dot-atom */
	if (a[0] == '.' || at[-1] == '.')
		return false;
	for (p = a; p < at; p++) {
		if (*p == '.') {
			if (p[1] == '.')
				return false;
		} else if (!atext(*p)) {
			return false;
		}
	}
	/* domain: labels separated by single dots */
	p = at + 1;
	if (*p == '\0' || *p == '.' || *p == '-' || a[n - 1] == '.' || a[n - 1] == '-')
		return false;
	for (; *p; p++) {
		if (*p == '.') {
			if (p[1] == '.' || p[-1] == '-' || p[1] == '-')
				return false;
		} else if (!label_char(*p)) {
			return false;
		}
	}
	return true;
}

struct entry {
	struct buf outside;	/* quotes removed, blanks squeezed */
	struct buf angle;
	struct buf comment;
	bool seen_angle;
	bool seen_comment;
	bool quoted;		/* a quoted string outside <>: no bare address */
};

static void
entry_init(struct entry *e, size_t max)
{
	buf_init(&e->outside, max);
	buf_init(&e->angle, max);
	buf_init(&e->comment, max);
	e->seen_angle = e->seen_comment = e->quoted = false;
}

static void
entry_reset(struct entry *e)
{
	buf_reset(&e->outside);
	buf_reset(&e->angle);
	buf_reset(&e->comment);
	e->seen_angle = e->seen_comment = e->quoted = false;
}

static void
entry_free(struct entry *e)
{
	buf_free(&e->outside);
	buf_free(&e->angle);
	buf_free(&e->comment);
}

/* A new string of s[0..) trimmed; NULL when empty. */
static char *
trimmed_or_null(const char *s)
{
	char *c = xstrdup(s), *t = str_trim(c);

	if (*t == '\0') {
		free(c);
		return NULL;
	}
	memmove(c, t, strlen(t) + 1);
	return c;
}

/* The address trimmed, lower case; NULL unless valid. */
static char *
clean_addr(const char *s)
{
	char *a = trimmed_or_null(s);

	if (a == NULL)
		return NULL;
	str_lower(a);
	if (!addr_valid(a)) {
		free(a);
		return NULL;
	}
	return a;
}

static bool
emit(struct entry *e, struct addr **v, int *n, int max, bool *bad)
{
	char *name = NULL, *raw_addr;
	const char *route_end;

	if (*n >= max)
		return false;
	if (e->seen_angle) {
		raw_addr = xstrdup(buf_str(&e->angle));
		name = trimmed_or_null(buf_str(&e->outside));
	} else {
		raw_addr = xstrdup(buf_str(&e->outside));
		if (e->seen_comment)
			name = trimmed_or_null(buf_str(&e->comment));
	}
	/* obsolete source route "<@a,@b:user@host>" */
	route_end = raw_addr[0] == '@' ? strrchr(raw_addr, ':') : NULL;
	if (name == NULL && buf_str(&e->outside)[0] == '\0' && raw_addr[0] == '\0') {
		free(raw_addr);
		return true;	/* an empty entry: "a,,b" */
	}
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof **v);
	(*v)[*n].addr = !e->seen_angle && e->quoted ? NULL :
	    clean_addr(route_end ? route_end + 1 : raw_addr);
	(*v)[*n].name = NULL;
	if (name != NULL) {
		(*v)[*n].name = hdr_decode(name, bad);
		free(name);
	}
	(*n)++;
	free(raw_addr);
	return true;
}

int
addr_parse_list(const char *value, struct addr **v, int max, bool *bad)
{
	struct entry e;
	const char *p;
	bool quoted = false, angle = false, in_group = false, collect = false;
	int depth = 0, n = 0;

	entry_init(&e, strlen(value) + 1);
	for (p = value; *p; p++) {
		char c = *p;

		if (depth > 0) {
			if (c == '\\' && p[1]) {
				p++;
				c = *p;
			} else if (c == '(') {
				depth++;
			} else if (c == ')') {
				depth--;
				if (depth == 0) {
					collect = false;
					continue;
				}
			}
			if (collect)
				buf_putc(&e.comment, c);
			continue;
		}
		if (quoted) {
			if (c == '\\' && p[1])
				c = *++p;
			else if (c == '"') {
				quoted = false;
				continue;
			}
			buf_putc(angle ? &e.angle : &e.outside, c);
			continue;
		}
		if (angle) {
			if (c == '>')
				angle = false;
			else if (c == '"') {
				quoted = true;	/* a quoted local part: kept, and refused later */
				buf_putc(&e.angle, c);
			} else if (c == '(') {
				depth = 1;
				collect = false;
			} else {
				buf_putc(&e.angle, c);
			}
			continue;
		}
		switch (c) {
		case '(':
			depth = 1;
			collect = !e.seen_comment;	/* the first comment may be a name */
			e.seen_comment = true;
			break;
		case '"':
			quoted = true;
			e.quoted = true;
			break;
		case '<':
			angle = true;
			e.seen_angle = true;
			buf_reset(&e.angle);
			break;
		case ':':
			if (!e.seen_angle && !in_group) {
				in_group = true;	/* "group: a, b;" — drop its name */
				entry_reset(&e);
			} else {
				buf_putc(&e.outside, c);
			}
			break;
		case ';':
		case ',':
			if (c == ';')
				in_group = false;
			if (!emit(&e, v, &n, max, bad))
				goto out;
			entry_reset(&e);
			break;
		case '\t':
		case '\r':
		case '\n':
		case ' ':
			if (e.outside.len > 0 && e.outside.data[e.outside.len - 1] != ' ')
				buf_putc(&e.outside, ' ');
			break;
		default:
			buf_putc(&e.outside, c);
			break;
		}
	}
	emit(&e, v, &n, max, bad);
out:
	entry_free(&e);
	return n;
}

void
addr_list_free(struct addr *v, int n)
{
	int i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].addr);
	}
	free(v);
}

/* Length of the local part of a, before its last '@' (-1 when there is none). */
static long
local_len(const char *a)
{
	const char *at = strrchr(a, '@');

	return at ? (long)(at - a) : -1;
}

char *
addr_plus_tag(const char *a, const char *base)
{
	long bl = local_len(base), al = local_len(a), i;

	if (bl <= 0 || al <= bl + 1 || a[bl] != '+' || !str_eq_nocase(a + al, base + bl))
		return NULL;
	for (i = 0; i < bl; i++)
		if (str_lc(a[i]) != str_lc(base[i]))
			return NULL;
	return str_lower(xstrndup(a + bl + 1, (size_t)(al - bl - 1)));
}

bool
addr_same_mailbox(const char *a, const char *base)
{
	char *tag;

	if (str_eq_nocase(a, base))
		return true;
	tag = addr_plus_tag(a, base);
	free(tag);
	return tag != NULL;
}

char *
addr_with_tag(const char *base, const char *tag)
{
	long bl = local_len(base);
	struct buf b;
	char *r;

	if (bl <= 0 || !addr_valid(base))
		return NULL;
	buf_init(&b, ADDR_MAX + 1);
	if (buf_append(&b, base, (size_t)bl) < 0 || buf_putc(&b, '+') < 0 || buf_puts(&b, tag) < 0 ||
	    buf_puts(&b, base + bl) < 0) {
		buf_free(&b);
		return NULL;
	}
	r = str_lower(buf_take(&b));
	if (!addr_valid(r)) {
		free(r);
		return NULL;
	}
	return r;
}
