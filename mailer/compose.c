/*
 * compose.c — outgoing messages.
 *
 * Every piece of text the judge gives (subjects, names, bodies) may carry
 * a player's words, so header text is cleaned of line breaks and control
 * characters before it is written: nothing can inject a header. Invalid
 * UTF-8 is repaired first, so encoded words always hold whole characters.
 */
#include "compose.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "address.h"
#include "charset.h"
#include "codec.h"

#define LINE_SOFT 76		/* fold header lines at about this width */
#define EW_MAX 66		/* longest encoded word we write */
#define MAX_REFERENCES 20

void
compose_date(time_t t, char *out, size_t size)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
		"Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(out, size, "%s, %d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday], tm.tm_mday,
	    months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

char *
compose_game_tag(const char *game)
{
	struct buf b;

	buf_init(&b, 40);
	for (; *game; game++) {
		char c = str_lc(*game);
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
			c = '-';
		if (buf_putc(&b, c) < 0)
			break;
	}
	return buf_take(&b);
}

/* UTF-8 text for a header: valid, one line, no control characters. */
static char *
clean_header_text(const char *s)
{
	struct buf b;
	bool bad = false;
	char *c;

	buf_init(&b, 4 * strlen(s) + 4);
	charset_to_utf8("utf-8", s, strlen(s), &b, &bad);
	c = buf_take(&b);
	for (s = c; *s; s++)
		if ((unsigned char)*s < 32 || *s == 127)
			c[s - c] = ' ';
	return c;
}

static bool
plain_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			return false;
	return true;
}

/* Characters written as themselves in a "Q" encoded word (the strict set
 * allowed in phrases by RFC 2047 5(3)). */
static bool
q_literal(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '!' || c == '*' || c == '+' || c == '-' || c == '/';
}

static int
put_encoded_words(const char *s, struct buf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *start = "=?UTF-8?Q?";
	size_t wlen = 0;
	bool open = false;

	while (*s) {
		size_t l = utf8_seq_len(s, strlen(s)), need = 0, i;

		if (l == 0)
			l = 1;	/* cannot happen after cleaning; be safe */
		for (i = 0; i < l; i++)
			need += (q_literal((unsigned char)s[i]) || s[i] == ' ') ? 1 : 3;
		if (open && wlen + need + 2 > EW_MAX) {
			if (buf_puts(out, "?=\n ") < 0)
				return -1;
			open = false;
		}
		if (!open) {
			if (buf_puts(out, start) < 0)
				return -1;
			wlen = strlen(start);
			open = true;
		}
		for (i = 0; i < l; i++) {
			unsigned char c = (unsigned char)s[i];
			int r;
			if (c == ' ')
				r = buf_putc(out, '_');
			else if (q_literal(c))
				r = buf_putc(out, (char)c);
			else {
				char e[3] = { '=', hex[c >> 4], hex[c & 15] };
				r = buf_append(out, e, 3);
			}
			if (r < 0)
				return -1;
		}
		wlen += need;
		s += l;
	}
	if (open && buf_puts(out, "?=") < 0)
		return -1;
	return 0;
}

/* Plain ASCII text folded at blanks near LINE_SOFT columns: a blank
 * before a word that would not fit becomes a line break and the blank. */
static int
put_folded(const char *s, size_t col, struct buf *out)
{
	while (*s) {
		const char *sp;
		size_t word;

		if (*s == ' ') {
			const char *w = s + 1;
			sp = strchr(w, ' ');
			word = sp ? (size_t)(sp - w) : strlen(w);
			if (col + 1 + word > LINE_SOFT && col > 1 && word > 0) {
				if (buf_putc(out, '\n') < 0)
					return -1;
				col = 0;
			}
			if (buf_putc(out, ' ') < 0)
				return -1;
			col++;
			s++;
			continue;
		}
		sp = strchr(s, ' ');
		word = sp ? (size_t)(sp - s) : strlen(s);
		if (buf_append(out, s, word) < 0)
			return -1;
		col += word;
		s += word;
	}
	return 0;
}

int
compose_header_text(const char *text, size_t name_len, struct buf *out)
{
	char *t = clean_header_text(text);
	int r;

	if (plain_ascii(t) && strstr(t, "=?") == NULL)
		r = put_folded(t, name_len + 2, out);
	else
		r = put_encoded_words(t, out);
	free(t);
	return r;
}

/* A display name: as it is when it is atoms, quoted when it has specials,
 * encoded words when it is not ASCII. */
static int
put_phrase(const char *name, struct buf *out)
{
	char *t = clean_header_text(name);
	const char *p;
	bool atoms = true;
	int r = 0;

	for (p = t; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    (*p != '\0' && strchr(" !#$%&'*+-/=?^_`{|}~", *p) != NULL)))
			atoms = false;
	if (!plain_ascii(t) || strstr(t, "=?") != NULL) {
		r = put_encoded_words(t, out);
	} else if (atoms) {
		r = buf_puts(out, t);
	} else {
		r = buf_putc(out, '"');
		for (p = t; *p && r == 0; p++) {
			if (*p == '"' || *p == '\\')
				r = buf_putc(out, '\\');
			if (r == 0)
				r = buf_putc(out, *p);
		}
		if (r == 0)
			r = buf_putc(out, '"');
	}
	free(t);
	return r;
}

static int
put_address_field(const char *field, char **list, int n, struct buf *out, struct buf *err)
{
	size_t col;
	int i;

	if (n == 0)
		return 0;
	buf_printf(out, "%s: ", field);
	col = strlen(field) + 2;
	for (i = 0; i < n; i++) {
		size_t l = strlen(list[i]);

		if (!addr_valid(list[i])) {
			buf_printf(err, "invalid %s address \"%.80s\"\n", field, list[i]);
			return -1;
		}
		if (i > 0) {
			buf_putc(out, ',');
			col++;
			if (col + l + 1 > LINE_SOFT) {
				buf_puts(out, "\n");
				col = 0;
			}
			buf_putc(out, ' ');
			col++;
		}
		buf_puts(out, list[i]);
		col += l;
	}
	return buf_putc(out, '\n');
}

/* Every <id> of a References value, then in_reply_to when it is not one of
 * them; the first and the last ones when there are too many. */
static void
put_references(const char *refs, const char *in_reply_to, struct buf *out)
{
	char *ids[256];
	int n = 0, i;
	const char *p = refs ? refs : "";
	bool have_irt = false;

	while (n < 256) {
		const char *s = strchr(p, '<'), *e;
		if (s == NULL || (e = strchr(s, '>')) == NULL)
			break;
		ids[n] = xstrndup(s + 1, (size_t)(e - s - 1));
		if (in_reply_to && strcmp(ids[n], in_reply_to) == 0)
			have_irt = true;
		n++;
		p = e + 1;
	}
	if (in_reply_to && !have_irt && n < 256)
		ids[n++] = xstrdup(in_reply_to);
	if (n > 0) {
		buf_puts(out, "References:");
		for (i = 0; i < n; i++) {
			if (i == 0 || i >= n - (MAX_REFERENCES - 1)) {
				char *c = clean_header_text(ids[i]);
				buf_printf(out, "%s<%s>", i == 0 ? " " : "\n ", c);
				free(c);
			}
			free(ids[i]);
		}
		buf_putc(out, '\n');
	}
}

/* FNV-1a, for Message-IDs the judge did not set. */
static uint64_t
fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h ^ 0xff;
}

static void
put_body(const char *text, struct buf *out)
{
	struct buf norm;
	const char *s;

	buf_init(&norm, 2 * strlen(text) + 2);
	for (s = text; *s; s++) {
		if (*s == '\r') {
			if (s[1] != '\n')
				buf_putc(&norm, '\n');
			continue;
		}
		buf_putc(&norm, *s);
	}
	if (norm.len > 0 && norm.data[norm.len - 1] != '\n')
		buf_putc(&norm, '\n');
	{
		struct buf utf;
		bool bad = false;
		buf_init(&utf, 4 * norm.len + 4);
		charset_to_utf8("utf-8", buf_str(&norm), norm.len, &utf, &bad);
		codec_qp_encode(buf_str(&utf), utf.len, out);
		buf_free(&utf);
	}
	buf_free(&norm);
}

/* A cap no message built from m can reach, so that writes into the work
 * buffer cannot fail (every input byte grows at most 12 times: an encoded
 * word byte "=XX" plus folding). */
static size_t
size_bound(const struct outmsg *m, const struct compose_opts *o)
{
	size_t n = 4096;
	int i;

	for (i = 0; i < m->nto; i++)
		n += strlen(m->to[i]) + 4;
	for (i = 0; i < m->ncc; i++)
		n += strlen(m->cc[i]) + 4;
	n += 12 * (m->subject ? strlen(m->subject) : 0);
	n += 12 * (o->from_name ? strlen(o->from_name) : 0);
	n += 4 * (m->text ? strlen(m->text) : 0);
	n += 8 * ((m->in_reply_to ? strlen(m->in_reply_to) : 0) + (m->references ? strlen(m->references) : 0));
	n += 4 * ((m->message_id ? strlen(m->message_id) : 0) + (m->game ? strlen(m->game) : 0));
	n += 4 * (strlen(o->from_addr) + (o->domain ? strlen(o->domain) : 0));
	return n;
}

int
compose_message(const struct outmsg *m, const struct compose_opts *o, struct buf *out,
    struct buf *err)
{
	const char *domain = o->domain;
	char date[64], *tag = NULL, *msgid = NULL;
	struct buf b;
	int r = -1;

	if (o->from_addr == NULL || !addr_valid(o->from_addr)) {
		buf_printf(err, "invalid judge address \"%.80s\"\n", o->from_addr ? o->from_addr : "");
		return -1;
	}
	if (domain == NULL || *domain == '\0')
		domain = strrchr(o->from_addr, '@') + 1;
	if (m->nto + m->ncc == 0) {
		buf_puts(err, "a message without recipients\n");
		return -1;
	}
	buf_init(&b, size_bound(m, o));
	compose_date(m->date, date, sizeof date);
	buf_printf(&b, "Date: %s\n", date);
	buf_puts(&b, "From: ");
	if (o->from_name && *o->from_name) {
		put_phrase(o->from_name, &b);
		buf_putc(&b, ' ');
	}
	buf_printf(&b, "<%s>\n", o->from_addr);
	if (put_address_field("To", m->to, m->nto, &b, err) < 0 ||
	    put_address_field("Cc", m->cc, m->ncc, &b, err) < 0)
		goto fail;
	buf_puts(&b, "Subject: ");
	compose_header_text(m->subject ? m->subject : "", strlen("Subject"), &b);
	buf_putc(&b, '\n');
	if (m->message_id && *m->message_id) {
		msgid = clean_header_text(m->message_id);
	} else {
		uint64_t h = 14695981039346656037ULL;
		int i;
		for (i = 0; i < m->nto; i++)
			h = fnv(h, m->to[i]);
		h = fnv(fnv(fnv(fnv(h, m->subject), m->text), m->in_reply_to), m->game);
		msgid = xmalloc(64 + strlen(domain));
		snprintf(msgid, 64 + strlen(domain), "%lld.%016llx@%s", (long long)m->date,
		    (unsigned long long)h, domain);
	}
	buf_printf(&b, "Message-ID: <%s>\n", msgid);
	if (m->in_reply_to && *m->in_reply_to) {
		char *c = clean_header_text(m->in_reply_to);
		buf_printf(&b, "In-Reply-To: <%s>\n", c);
		free(c);
	}
	put_references(m->references, m->in_reply_to && *m->in_reply_to ? m->in_reply_to : NULL, &b);
	if (m->game && *m->game) {
		char *reply;
		tag = compose_game_tag(m->game);
		reply = addr_with_tag(o->from_addr, tag);
		if (reply != NULL)
			buf_printf(&b, "Reply-To: %s\n", reply);
		free(reply);
		buf_printf(&b, "List-Id: <%s.%s>\n", tag, domain);
	}
	buf_printf(&b, "Auto-Submitted: %s\n",
	    m->autosub == OUT_GENERATED ? "auto-generated" : "auto-replied");
	buf_puts(&b, "X-Auto-Response-Suppress: All\n");
	buf_printf(&b, "X-Pouch-Judge: %s\n", o->from_addr);
	buf_puts(&b, "MIME-Version: 1.0\n");
	buf_puts(&b, "Content-Type: text/plain; charset=utf-8\n");
	buf_puts(&b, "Content-Transfer-Encoding: quoted-printable\n\n");
	put_body(m->text ? m->text : "", &b);
	if (buf_append(out, b.data, b.len) < 0) {
		buf_puts(err, "the message is too big\n");
		goto fail;
	}
	r = 0;
fail:
	buf_free(&b);
	free(tag);
	free(msgid);
	return r;
}
