/*
 * codec.c — quoted-printable and base64, both directions.
 */
#include "codec.h"

#include <string.h>

#include "../lib/str.h"

int
codec_qp_decode(const char *src, size_t n, bool q_header, struct buf *out)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)src[i];

		if (c == '=') {
			size_t j = i + 1;
			int hi, lo;

			/* soft line break: "=" then optional blanks then CRLF or LF */
			while (j < n && (src[j] == ' ' || src[j] == '\t'))
				j++;
			if (j < n && (src[j] == '\n' || src[j] == '\r')) {
				if (src[j] == '\r' && j + 1 < n && src[j + 1] == '\n')
					j++;
				i = j + 1;
				continue;
			}
			if (j == n) {	/* "=" at the very end: a soft break too */
				i = n;
				continue;
			}
			hi = i + 1 < n ? str_hexval((unsigned char)src[i + 1]) : -1;
			lo = i + 2 < n ? str_hexval((unsigned char)src[i + 2]) : -1;
			if (hi >= 0 && lo >= 0) {
				if (buf_putc(out, (char)(hi * 16 + lo)) < 0)
					return -1;
				i += 3;
				continue;
			}
			/* invalid escape: keep the '=' as it is */
		} else if (c == '_' && q_header) {
			c = ' ';
		}
		if (buf_putc(out, (char)c) < 0)
			return -1;
		i++;
	}
	return 0;
}

static int
b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')	/* '-' and '_': the URL-safe alphabet some senders use */
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

int
codec_base64_decode(const char *src, size_t n, struct buf *out)
{
	unsigned acc = 0;
	int bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int v;

		if (src[i] == '=')
			break;
		v = b64val((unsigned char)src[i]);
		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (buf_putc(out, (char)((acc >> bits) & 0xff)) < 0)
				return -1;
		}
	}
	return 0;
}

static const char hexdigits[] = "0123456789ABCDEF";

/* True when the byte at p, at column col of a physical line, must be written =XX. */
static bool
qp_must_encode(const char *p, const char *line_end, size_t col)
{
	unsigned char c = (unsigned char)*p;

	if (c == '=' || c >= 0x7f || (c < 0x20 && c != '\t'))
		return true;
	if ((c == ' ' || c == '\t') && p + 1 == line_end)
		return true;	/* trailing blank would be stripped in transit */
	if (col == 0 && c == '.')
		return true;	/* a lone "." ends SMTP DATA */
	if (col == 0 && c == 'F' && line_end - p >= 5 && memcmp(p, "From ", 5) == 0)
		return true;	/* mbox would escape it */
	return false;
}

int
codec_qp_encode(const char *src, size_t n, struct buf *out)
{
	const char *p = src, *end = src + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = nl ? nl : end;
		size_t col = 0;

		for (; p < line_end; p++) {
			bool enc = qp_must_encode(p, line_end, col);
			size_t w = enc ? 3 : 1;

			/* keep room for the '=' of a soft break unless this ends the line */
			if (col + w > (p + 1 == line_end ? 76u : 75u)) {
				if (buf_puts(out, "=\n") < 0)
					return -1;
				col = 0;
				enc = qp_must_encode(p, line_end, col);
				w = enc ? 3 : 1;
			}
			if (enc) {
				char e[3] = { '=', hexdigits[(unsigned char)*p >> 4],
					hexdigits[(unsigned char)*p & 15] };
				if (buf_append(out, e, 3) < 0)
					return -1;
			} else if (buf_putc(out, *p) < 0) {
				return -1;
			}
			col += w;
		}
		if (nl) {
			if (buf_putc(out, '\n') < 0)
				return -1;
			p = nl + 1;
		}
	}
	return 0;
}

int
codec_base64_encode(const void *src, size_t n, struct buf *out)
{
	static const char alpha[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		char q[4] = { alpha[s[i] >> 2], alpha[((s[i] & 3) << 4) | (s[i + 1] >> 4)],
			alpha[((s[i + 1] & 15) << 2) | (s[i + 2] >> 6)], alpha[s[i + 2] & 63] };
		if (buf_append(out, q, 4) < 0)
			return -1;
	}
	if (i < n) {
		char q[4] = { alpha[s[i] >> 2], '=', '=', '=' };
		if (i + 1 < n) {
			q[1] = alpha[((s[i] & 3) << 4) | (s[i + 1] >> 4)];
			q[2] = alpha[(s[i + 1] & 15) << 2];
		} else {
			q[1] = alpha[(s[i] & 3) << 4];
		}
		if (buf_append(out, q, 4) < 0)
			return -1;
	}
	return 0;
}
