/*
 * charset.c — conversion to UTF-8 with iconv, and the fallbacks.
 *
 * Charset names come from mail, so they are checked (letters, digits and
 * "-_.:", at most 40 bytes) before iconv_open sees them. Windows-1252 is
 * decoded by a table here, so the fallback can never fail.
 */
#include "charset.h"

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

#include "../lib/str.h"

/* Windows-1252 0x80..0x9f; 0 where the code page defines nothing. */
static const unsigned short cp1252_high[32] = {
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
};

int
utf8_put(struct buf *out, unsigned cp)
{
	char b[4];
	size_t n;

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return buf_append(out, b, n);
}

size_t
utf8_seq_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i;
	unsigned cp;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		cp = u[0] & 0x1f;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		cp = u[0] & 0x0f;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		cp = u[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (u[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

bool
utf8_valid(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t l;

		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		l = utf8_seq_len(s + i, n - i);
		if (l == 0)
			return false;
		i += l;
	}
	return true;
}

static int
put_cp1252(struct buf *out, unsigned char c)
{
	unsigned cp = c;

	if (c >= 0x80 && c < 0xa0)
		cp = cp1252_high[c - 0x80] ? cp1252_high[c - 0x80] : 0xfffd;
	return utf8_put(out, cp);
}

static int
from_cp1252(const char *src, size_t n, struct buf *out)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)src[i];

		if (c < 0x80)
			continue;
		if (buf_append(out, src + run, i - run) < 0 || put_cp1252(out, c) < 0)
			return -1;
		run = i + 1;
	}
	return buf_append(out, src + run, n - run);
}

/* UTF-8 with repairs: each invalid byte becomes U+FFFD, or its Windows-1252
 * reading when latin_fallback. */
static int
repair_utf8(const char *src, size_t n, bool latin_fallback, struct buf *out, bool *bad)
{
	size_t i = 0, run = 0;

	while (i < n) {
		size_t l;

		if ((unsigned char)src[i] < 0x80) {
			i++;
			continue;
		}
		l = utf8_seq_len(src + i, n - i);
		if (l > 0) {
			i += l;
			continue;
		}
		*bad = true;
		if (buf_append(out, src + run, i - run) < 0)
			return -1;
		if ((latin_fallback ? put_cp1252(out, (unsigned char)src[i]) : utf8_put(out, 0xfffd)) < 0)
			return -1;
		run = ++i;
	}
	return buf_append(out, src + run, n - run);
}

static bool
name_ok(const char *cs)
{
	size_t n = 0;

	for (; *cs; cs++, n++) {
		char c = *cs;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.' || c == ':'))
			return false;
	}
	return n > 0 && n <= 40;
}

static int
with_iconv(iconv_t cd, const char *src, size_t n, struct buf *out, bool *bad)
{
	char chunk[4096];
	char *in = (char *)(uintptr_t)src;	/* iconv's prototype is not const-correct */
	size_t inleft = n;

	for (;;) {
		char *o = chunk;
		size_t oleft = sizeof chunk;
		size_t r = iconv(cd, inleft ? &in : NULL, &inleft, &o, &oleft);
		int e = errno;

		if (buf_append(out, chunk, sizeof chunk - oleft) < 0)
			return -1;
		if (r != (size_t)-1) {
			if (inleft == 0)
				break;
			continue;
		}
		if (e == E2BIG)
			continue;
		/* EILSEQ or EINVAL (truncated at the end): one byte becomes U+FFFD */
		*bad = true;
		if (utf8_put(out, 0xfffd) < 0)
			return -1;
		if (inleft == 0)
			break;
		in++;
		inleft--;
		iconv(cd, NULL, NULL, NULL, NULL);
		if (inleft == 0)
			break;
	}
	return 0;
}

int
charset_to_utf8(const char *cs, const char *src, size_t n, struct buf *out, bool *bad)
{
	iconv_t cd;
	int r;

	if (cs == NULL || *cs == '\0' || str_eq_nocase(cs, "us-ascii") || str_eq_nocase(cs, "ascii"))
		return repair_utf8(src, n, true, out, bad);
	if (str_eq_nocase(cs, "utf-8") || str_eq_nocase(cs, "utf8"))
		return repair_utf8(src, n, false, out, bad);
	if (str_eq_nocase(cs, "iso-8859-1") || str_eq_nocase(cs, "latin1") ||
	    str_eq_nocase(cs, "iso8859-1") || str_eq_nocase(cs, "windows-1252") ||
	    str_eq_nocase(cs, "cp1252") || str_eq_nocase(cs, "iso_8859-1"))
		return from_cp1252(src, n, out);
	cd = name_ok(cs) ? iconv_open("UTF-8", cs) : (iconv_t)-1;
	if (cd == (iconv_t)-1) {
		*bad = true;
		return from_cp1252(src, n, out);
	}
	r = with_iconv(cd, src, n, out, bad);
	iconv_close(cd);
	return r;
}
