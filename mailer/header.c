/*
 * header.c — header sections, encoded words, MIME parameters.
 *
 * Encoded words (RFC 2047): "=?charset?B|Q?text?=". The bytes of adjacent
 * words in the same charset are joined before conversion, because senders
 * split multi-byte characters across words; blanks between two encoded
 * words are dropped. Text around them may be raw 8-bit (RFC 6532 or just
 * broken), which is read as UTF-8 when valid and as Windows-1252 otherwise.
 */
#include "header.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "charset.h"
#include "codec.h"

static bool
is_wsp(char c)
{
	return c == ' ' || c == '\t';
}

/* Length of the line at src[0..len) without its "\n" or "\r\n"; *next is
 * the offset after the line end. */
static size_t
line_at(const char *src, size_t len, size_t *next)
{
	const char *nl = memchr(src, '\n', len);
	size_t n = nl ? (size_t)(nl - src) : len;

	*next = nl ? n + 1 : len;
	if (n > 0 && src[n - 1] == '\r')
		n--;
	return n;
}

static bool
valid_name(const char *s, size_t n)
{
	size_t i;

	while (n > 0 && is_wsp(s[n - 1]))	/* obsolete "Name :" */
		n--;
	if (n == 0)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 32 || (unsigned char)s[i] >= 127)
			return false;
	return true;
}

static void
finish_field(struct hdr_list *h, char **name, struct buf *val)
{
	char *v, *t;

	if (*name == NULL)
		return;
	if (h->n >= HDR_MAX_FIELDS) {
		h->truncated = true;
		free(*name);
		*name = NULL;
		buf_reset(val);
		return;
	}
	if (h->n % 16 == 0)
		h->v = xreallocarray(h->v, (size_t)h->n + 16, sizeof *h->v);
	v = buf_take(val);
	t = str_trim(v);
	if (t != v)
		memmove(v, t, strlen(t) + 1);
	h->v[h->n].name = *name;
	h->v[h->n].value = v;
	h->n++;
	*name = NULL;
}

static void
append_capped(struct hdr_list *h, struct buf *val, const char *s, size_t n)
{
	size_t room = val->max - val->len;

	if (n > room) {
		h->truncated = true;
		n = room;
	}
	buf_append(val, s, n);
}

size_t
hdr_parse(const char *src, size_t len, struct hdr_list *h)
{
	struct buf val;
	char *name = NULL;
	size_t p = 0, next, n;

	memset(h, 0, sizeof *h);
	buf_init(&val, HDR_MAX_VALUE);
	if (len >= 5 && memcmp(src, "From ", 5) == 0)	/* an mbox separator */
		line_at(src, len, &p);
	while (p < len) {
		const char *line = src + p, *colon;

		n = line_at(line, len - p, &next);
		if (n == 0) {
			p += next;
			break;
		}
		if (is_wsp(line[0])) {
			if (name != NULL)
				append_capped(h, &val, line, n);
			p += next;
			continue;
		}
		colon = memchr(line, ':', n);
		if (colon == NULL || !valid_name(line, (size_t)(colon - line)))
			break;	/* not a header: the body starts here */
		finish_field(h, &name, &val);
		{
			size_t nl = (size_t)(colon - line);
			while (nl > 0 && is_wsp(line[nl - 1]))
				nl--;
			name = xstrndup(line, nl);
		}
		append_capped(h, &val, colon + 1, n - (size_t)(colon + 1 - line));
		p += next;
	}
	finish_field(h, &name, &val);
	buf_free(&val);
	return p < len ? p : len;
}

void
hdr_list_free(struct hdr_list *h)
{
	int i;

	if (h == NULL)
		return;
	for (i = 0; i < h->n; i++) {
		free(h->v[i].name);
		free(h->v[i].value);
	}
	free(h->v);
	memset(h, 0, sizeof *h);
}

const char *
hdr_get(const struct hdr_list *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (str_eq_nocase(h->v[i].name, name))
			return h->v[i].value;
	return NULL;
}

int
hdr_count(const struct hdr_list *h, const char *name)
{
	int i, c = 0;

	for (i = 0; i < h->n; i++)
		c += str_eq_nocase(h->v[i].name, name);
	return c;
}

/* --- RFC 2047 -------------------------------------------------------- */

#define EW_SCAN 1000	/* longest encoded text accepted (RFC 2047: 75 for the word) */

struct ew {
	const char *charset;	/* start, not terminated */
	size_t charset_len;
	char enc;		/* 'B' or 'Q' */
	const char *text;
	size_t text_len;
	size_t total;		/* bytes from "=?" to "?=" inclusive */
};

/* Recognise an encoded word at s (which starts with "=?"). */
static bool
parse_ew(const char *s, struct ew *w)
{
	const char *p = s + 2, *q, *end;

	for (q = p; *q && *q != '?'; q++)
		if ((unsigned char)*q <= 32 || (unsigned char)*q >= 127)
			return false;
	if (*q != '?' || q == p)
		return false;
	w->charset = p;
	w->charset_len = (size_t)(q - p);
	{	/* RFC 2231 language suffix: "utf-8*en" */
		const char *star = memchr(p, '*', w->charset_len);
		if (star)
			w->charset_len = (size_t)(star - p);
	}
	if (w->charset_len == 0 || w->charset_len > 40)
		return false;
	if (q[1] != 'B' && q[1] != 'b' && q[1] != 'Q' && q[1] != 'q')
		return false;
	if (q[2] != '?')
		return false;
	w->enc = (char)(q[1] == 'b' || q[1] == 'B' ? 'B' : 'Q');
	w->text = q + 3;
	/* RFC 2047 words are at most 75 bytes; looking further than EW_SCAN
	 * would make a value full of "=?" quadratic */
	for (end = w->text; *end && end - w->text < EW_SCAN; end++)
		if (end[0] == '?' && end[1] == '=')
			break;
	if (*end != '?')
		return false;
	w->text_len = (size_t)(end - w->text);
	w->total = (size_t)(end + 2 - s);
	return true;
}

struct decoder {
	struct buf out;		/* UTF-8 */
	struct buf pend;	/* decoded bytes of adjacent words not yet converted */
	char charset[41];
	bool *bad;
};

static void
flush_pending(struct decoder *d)
{
	if (d->pend.len > 0)
		charset_to_utf8(d->charset, d->pend.data, d->pend.len, &d->out, d->bad);
	buf_reset(&d->pend);
}

char *
hdr_decode(const char *value, bool *bad)
{
	struct decoder d;
	size_t len = strlen(value), i = 0, lit = 0;
	bool prev_ew = false;
	char *s, *c;

	buf_init(&d.out, 4 * len + 64);
	buf_init(&d.pend, len + 1);
	d.charset[0] = '\0';
	d.bad = bad;
	while (i < len) {
		struct ew w;
		size_t j;

		if (!(value[i] == '=' && value[i + 1] == '?' && parse_ew(value + i, &w))) {
			i++;
			continue;
		}
		/* literal text value[lit..i) before this word; blanks only between
		 * two words are dropped */
		for (j = lit; j < i && is_wsp(value[j]); j++)
			;
		if (!(prev_ew && j == i)) {
			flush_pending(&d);
			charset_to_utf8(NULL, value + lit, i - lit, &d.out, bad);
		}
		{
			char cs[41];
			memcpy(cs, w.charset, w.charset_len);
			cs[w.charset_len] = '\0';
			if (!str_eq_nocase(cs, d.charset)) {
				flush_pending(&d);
				memcpy(d.charset, cs, w.charset_len + 1);
			}
		}
		if (w.enc == 'B')
			codec_base64_decode(w.text, w.text_len, &d.pend);
		else
			codec_qp_decode(w.text, w.text_len, true, &d.pend);
		i += w.total;
		lit = i;
		prev_ew = true;
	}
	flush_pending(&d);
	charset_to_utf8(NULL, value + lit, len - lit, &d.out, bad);
	buf_free(&d.pend);
	s = buf_take(&d.out);
	for (c = s; *c; c++)
		if ((unsigned char)*c < 32 || *c == 127)
			*c = ' ';
	return s;
}

/* --- structured values ----------------------------------------------- */

/* Skip blanks and (nested) comments. */
static const char *
skip_cfws(const char *p)
{
	for (;;) {
		while (is_wsp(*p) || *p == '\r' || *p == '\n')
			p++;
		if (*p != '(')
			return p;
		{
			int depth = 0;
			for (; *p; p++) {
				if (*p == '\\' && p[1]) {
					p++;
				} else if (*p == '(') {
					depth++;
				} else if (*p == ')' && --depth == 0) {
					p++;
					break;
				}
			}
		}
	}
}

char *
hdr_main_value(const char *value)
{
	struct buf b;
	const char *p = skip_cfws(value);

	buf_init(&b, strlen(value) + 1);
	while (*p && *p != ';') {
		if (*p == '(') {
			p = skip_cfws(p);
			continue;
		}
		if (!is_wsp(*p) && *p != '"')
			buf_putc(&b, str_lc(*p));
		p++;
	}
	return buf_take(&b);
}

#define MAX_PARAMS 64

struct param {
	char *name;
	char *value;
};

/* Split "x; a=1; b="2"" into parameters; returns how many. */
static int
split_params(const char *value, struct param *pv, int max)
{
	const char *p = value;
	bool quoted = false;
	int n = 0;

	/* skip the main value */
	for (; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '\\' && quoted && p[1])
			p++;
		else if (*p == ';' && !quoted)
			break;
	}
	while (*p && n < max) {
		const char *ns, *ne;
		struct buf v;

		while (*p == ';')
			p = skip_cfws(p + 1);
		ns = p;
		while (*p && *p != '=' && *p != ';')
			p++;
		ne = p;
		while (ne > ns && is_wsp(ne[-1]))
			ne--;
		if (*p != '=') {
			continue;	/* a bare word: ignore */
		}
		p = skip_cfws(p + 1);
		buf_init(&v, strlen(p) + 1);
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				buf_putc(&v, *p);
			}
			if (*p == '"')
				p++;
			while (*p && *p != ';')
				p++;
		} else {
			const char *vs = p, *ve;
			while (*p && *p != ';')
				p++;
			ve = p;
			while (ve > vs && (is_wsp(ve[-1]) || ve[-1] == '\r' || ve[-1] == '\n'))
				ve--;
			buf_append(&v, vs, (size_t)(ve - vs));
		}
		if (ne > ns) {
			pv[n].name = xstrndup(ns, (size_t)(ne - ns));
			pv[n].value = buf_take(&v);
			n++;
		} else {
			buf_free(&v);
		}
	}
	return n;
}

/* %XX decoding of an RFC 2231 extended value; skip_charset drops the
 * "charset'language'" prefix. */
static void
pct_decode(const char *s, bool skip_charset, struct buf *out)
{
	static const char hex[] = "0123456789abcdef";

	if (skip_charset) {
		const char *q1 = strchr(s, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
		if (q2)
			s = q2 + 1;
	}
	for (; *s; s++) {
		const char *h, *l;
		if (*s == '%' && s[1] && s[2] && (h = strchr(hex, str_lc(s[1]))) != NULL &&
		    (l = strchr(hex, str_lc(s[2]))) != NULL) {
			buf_putc(out, (char)((h - hex) * 16 + (l - hex)));
			s += 2;
		} else {
			buf_putc(out, *s);
		}
	}
}

static const char *
find_param(struct param *pv, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (str_eq_nocase(pv[i].name, name))
			return pv[i].value;
	return NULL;
}

char *
hdr_param(const char *value, const char *name)
{
	struct param pv[MAX_PARAMS];
	int n = split_params(value, pv, MAX_PARAMS), i, k;
	const char *v;
	char key[80];
	char *res = NULL;

	if ((v = find_param(pv, n, name)) != NULL) {
		res = xstrdup(v);
	} else if (snprintf(key, sizeof key, "%s*", name) < (int)sizeof key &&
	    (v = find_param(pv, n, key)) != NULL) {
		struct buf b;
		buf_init(&b, strlen(v) + 1);
		pct_decode(v, true, &b);
		res = buf_take(&b);
	} else {
		struct buf b;
		buf_init(&b, strlen(value) + 1);
		for (k = 0; k < MAX_PARAMS; k++) {
			snprintf(key, sizeof key, "%s*%d", name, k);
			if ((v = find_param(pv, n, key)) != NULL) {
				buf_puts(&b, v);
				continue;
			}
			snprintf(key, sizeof key, "%s*%d*", name, k);
			if ((v = find_param(pv, n, key)) == NULL)
				break;
			pct_decode(v, k == 0, &b);
		}
		if (k > 0)
			res = buf_take(&b);
		buf_free(&b);
	}
	for (i = 0; i < n; i++) {
		free(pv[i].name);
		free(pv[i].value);
	}
	return res;
}
