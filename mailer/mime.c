/*
 * mime.c — from raw mail to struct inmsg.
 *
 * The tree is walked twice at most. The first walk wants text/plain: in a
 * multipart/alternative it takes the first child that gives plain text, in
 * multipart/related and multipart/signed only the first (root) part, in
 * every other multipart all children in order, joining inline text/plain
 * leaves; it also counts attachments and reads delivery status reports.
 * When the first walk found no plain text at all, the second walk does the
 * same wanting text/html, which html.c turns into text.
 *
 * Parts are never copied: a part is a (pointer, length) view into the raw
 * bytes; only leaves that are used are decoded. Broken structure degrades
 * gracefully: a multipart whose boundary never appears is read as plain
 * text, an unterminated last part runs to the end, an unknown or missing
 * Content-Type is text/plain, an unknown transfer encoding is read as is.
 */
#define _DEFAULT_SOURCE	/* timegm */
#include "mime.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/buf.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "address.h"
#include "charset.h"
#include "codec.h"
#include "header.h"
#include "html.h"

enum want { WANT_PLAIN, WANT_HTML };

struct ctx {
	const struct mime_opts *o;
	struct inmsg *m;
	struct buf text;	/* UTF-8, not yet cleaned */
	int parts;
	bool dsn;		/* a delivery-status part was read */
	bool first_pass;	/* count attachments and read reports only once */
};

struct span {
	const char *p;
	size_t n;
};

void
mime_opts_init(struct mime_opts *o)
{
	o->max_raw = MIME_DEFAULT_MAX_RAW;
	o->max_lines = MIME_DEFAULT_MAX_LINES;
	o->own_address = NULL;
}

/* --- small helpers ---------------------------------------------------- */

/* The id inside the first <...>, or the whole value when it is one word;
 * control bytes dropped; NULL when empty. */
static char *
msgid_from(const char *v)
{
	const char *s, *e;
	struct buf b;

	if (v == NULL)
		return NULL;
	s = strchr(v, '<');
	if (s != NULL) {
		e = strchr(++s, '>');
		if (e == NULL)
			e = s + strlen(s);
	} else {
		while (*v == ' ' || *v == '\t')
			v++;
		s = v;
		for (e = s; *e && *e != ' ' && *e != '\t'; e++)
			;
	}
	buf_init(&b, 998);
	for (; s < e; s++)
		if ((unsigned char)*s > 32 && *s != 127 && buf_putc(&b, *s) < 0)
			break;
	if (b.len == 0) {
		buf_free(&b);
		return NULL;
	}
	return buf_take(&b);
}

char *
mime_message_id(const char *raw, size_t len)
{
	struct hdr_list h;
	char *id;

	hdr_parse(raw, len, &h);
	id = msgid_from(hdr_get(&h, "Message-ID"));
	hdr_list_free(&h);
	return id;
}

/* The token value of header field name ("" when absent), lower case. */
static char *
field_token(const struct hdr_list *h, const char *name)
{
	const char *v = hdr_get(h, name);

	return hdr_main_value(v ? v : "");
}

static bool
type_is(const char *type, const char *a)
{
	return strcmp(type, a) == 0;
}

static bool
is_plain_type(const char *t)
{
	return type_is(t, "text/plain") || strchr(t, '/') == NULL;	/* missing or broken */
}

static bool
is_html_type(const char *t)
{
	return type_is(t, "text/html") || type_is(t, "application/xhtml+xml");
}

static void
add_bounced(struct inmsg *m, const char *v)
{
	char *a;
	const char *semi = strchr(v, ';');
	struct buf b;
	int i;

	if (semi)
		v = semi + 1;	/* "rfc822; user@host" */
	buf_init(&b, 300);
	for (; *v; v++)
		if (*v != '<' && *v != '>' && *v != ' ' && *v != '\t' && buf_putc(&b, str_lc(*v)) < 0)
			break;
	a = buf_take(&b);
	if (!addr_valid(a) || m->nbounced >= MIME_MAX_BOUNCED) {
		free(a);
		return;
	}
	for (i = 0; i < m->nbounced; i++)
		if (strcmp(m->bounced[i], a) == 0) {
			free(a);
			return;
		}
	m->bounced = xreallocarray(m->bounced, (size_t)m->nbounced + 1, sizeof *m->bounced);
	m->bounced[m->nbounced++] = a;
}

/* Decode a part body by its Content-Transfer-Encoding into out. */
static int
decode_cte(const char *cte, const char *p, size_t n, struct buf *out)
{
	if (cte != NULL && strcmp(cte, "base64") == 0)
		return codec_base64_decode(p, n, out);
	if (cte != NULL && strcmp(cte, "quoted-printable") == 0)
		return codec_qp_decode(p, n, false, out);
	return buf_append(out, p, n);	/* 7bit, 8bit, binary, unknown */
}

/* message/delivery-status (RFC 3464): blocks of fields separated by empty
 * lines; the per-recipient blocks with "Action: failed" name the addresses. */
static void
read_dsn(struct ctx *c, const char *cte, const char *p, size_t n)
{
	struct buf d;
	size_t off = 0;

	buf_init(&d, c->o->max_raw);
	decode_cte(cte, p, n, &d);
	while (off < d.len) {
		struct hdr_list h;
		size_t used = hdr_parse(d.data + off, d.len - off, &h);
		const char *action = hdr_get(&h, "Action");
		const char *rcpt = hdr_get(&h, "Final-Recipient");

		if (rcpt == NULL)
			rcpt = hdr_get(&h, "Original-Recipient");
		if (rcpt != NULL && action != NULL && str_prefix_nocase(action, "failed"))
			add_bounced(c->m, rcpt);
		hdr_list_free(&h);
		if (used == 0) {	/* a line that is not a field: skip it */
			const char *nl = memchr(d.data + off, '\n', d.len - off);
			used = nl ? (size_t)(nl - (d.data + off)) + 1 : d.len - off;
		}
		off += used;
	}
	buf_free(&d);
	c->dsn = true;
}

/* Split a multipart body at its boundary. Returns the number of parts put
 * in *parts (a new array; caller frees), 0 when the boundary never occurs. */
static int
split_multipart(struct ctx *c, const char *body, size_t n, const char *boundary, struct span **parts)
{
	size_t blen = strlen(boundary), pos = 0;
	const char *part = NULL;
	int count = 0;

	*parts = NULL;
	while (pos < n) {
		const char *line = body + pos, *nl = memchr(line, '\n', n - pos);
		size_t len = nl ? (size_t)(nl - line) : n - pos, next = nl ? pos + len + 1 : n;
		const char *rest;
		bool close;

		if (len >= 2 + blen && line[0] == '-' && line[1] == '-' &&
		    memcmp(line + 2, boundary, blen) == 0) {
			size_t i = 2 + blen;

			rest = line + i;
			close = len - i >= 2 && rest[0] == '-' && rest[1] == '-';
			if (close)
				i += 2;
			while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
				i++;
			if (i == len) {	/* a delimiter line */
				if (part != NULL && c->parts < MIME_MAX_PARTS) {
					const char *end = line;
					/* the line break before the delimiter belongs to it */
					if (end > part && end[-1] == '\n')
						end--;
					if (end > part && end[-1] == '\r')
						end--;
					*parts = xreallocarray(*parts, (size_t)count + 1, sizeof **parts);
					(*parts)[count].p = part;
					(*parts)[count].n = (size_t)(end - part);
					count++;
					c->parts++;
				}
				if (close)
					return count;
				part = body + next;
				pos = next;
				continue;
			}
		}
		pos = next;
	}
	if (part != NULL && c->parts < MIME_MAX_PARTS) {	/* no closing delimiter */
		*parts = xreallocarray(*parts, (size_t)count + 1, sizeof **parts);
		(*parts)[count].p = part;
		(*parts)[count].n = (size_t)(body + n - part);
		count++;
		c->parts++;
	}
	return count;
}

static void
append_text(struct ctx *c, const char *s, size_t n)
{
	if (c->text.len > 0 && c->text.data[c->text.len - 1] != '\n' && buf_putc(&c->text, '\n') < 0)
		c->m->truncated = true;
	if (!buf_failed(&c->text) && n > c->text.max - c->text.len) {
		/* keep what fits: the line cap will cut it anyway */
		size_t room = c->text.max - c->text.len;
		while (room > 0 && ((unsigned char)s[room] & 0xc0) == 0x80)
			room--;	/* do not split a UTF-8 sequence */
		buf_append(&c->text, s, room);
		c->m->truncated = true;
	} else if (buf_append(&c->text, s, n) < 0) {
		c->m->truncated = true;
	}
}

/* --- the walk ----------------------------------------------------------- */

static bool walk(struct ctx *c, const char *p, size_t n, int depth, enum want want,
    const char *deftype);

static bool
walk_leaf(struct ctx *c, const char *type, const struct hdr_list *h, const char *body, size_t n,
    enum want want)
{
	const char *ct = hdr_get(h, "Content-Type"), *cd = hdr_get(h, "Content-Disposition");
	char *disp = cd ? hdr_main_value(cd) : NULL, *cte = NULL, *cs = NULL, *fname = NULL;
	bool plain = is_plain_type(type), html = is_html_type(type), attachment;
	struct buf dec, utf;

	if (type_is(type, "message/delivery-status") || type_is(type, "message/global-delivery-status")) {
		if (c->first_pass) {
			char *e = field_token(h, "Content-Transfer-Encoding");
			read_dsn(c, e, body, n);
			free(e);
		}
		free(disp);
		return false;
	}
	fname = cd ? hdr_param(cd, "filename") : NULL;
	if (fname == NULL && ct != NULL)
		fname = hdr_param(ct, "name");
	attachment = (disp != NULL && strcmp(disp, "attachment") == 0) || (!plain && !html) ||
	    (fname != NULL && (disp == NULL || strcmp(disp, "inline") != 0));
	free(fname);
	free(disp);
	if (attachment) {
		if (c->first_pass)
			c->m->nattachments++;
		return false;
	}
	if ((want == WANT_PLAIN && !plain) || (want == WANT_HTML && !html))
		return false;
	cte = field_token(h, "Content-Transfer-Encoding");
	cs = ct ? hdr_param(ct, "charset") : NULL;
	buf_init(&dec, c->o->max_raw);
	buf_init(&utf, 3 * c->o->max_raw + 64);
	if (decode_cte(cte, body, n, &dec) < 0)
		c->m->truncated = true;
	if (charset_to_utf8(cs, buf_str(&dec), dec.len, &utf, &c->m->bad_charset) < 0)
		c->m->truncated = true;
	if (html) {
		struct buf t;
		buf_init(&t, c->text.max);
		if (html_to_text(buf_str(&utf), utf.len, &t) < 0)
			c->m->truncated = true;
		append_text(c, buf_str(&t), t.len);
		buf_free(&t);
	} else {
		append_text(c, buf_str(&utf), utf.len);
	}
	buf_free(&dec);
	buf_free(&utf);
	free(cte);
	free(cs);
	return true;
}

static bool
walk_multipart(struct ctx *c, const char *type, const struct hdr_list *h, const char *body,
    size_t n, int depth, enum want want)
{
	const char *ct = hdr_get(h, "Content-Type");
	char *boundary = ct ? hdr_param(ct, "boundary") : NULL;
	const char *sub = type + strlen("multipart/");
	const char *childtype = strcmp(sub, "digest") == 0 ? "message/rfc822" : "text/plain";
	struct span *parts = NULL;
	bool used = false, saved = c->first_pass;
	int np = 0, i;

	if (boundary != NULL && boundary[0] != '\0' && strlen(boundary) <= 200)
		np = split_multipart(c, body, n, boundary, &parts);
	free(boundary);
	if (np == 0 && c->parts >= MIME_MAX_PARTS) {	/* too many parts: skip */
		if (c->first_pass)
			c->m->nattachments++;
		return false;
	}
	if (np == 0)	/* broken: read the body as plain text */
		return walk_leaf(c, "text/plain", h, body, n, want);
	if (strcmp(sub, "alternative") == 0) {
		c->first_pass = false;	/* alternatives are not attachments */
		for (i = 0; i < np && !used; i++)
			used = walk(c, parts[i].p, parts[i].n, depth + 1, want, childtype);
		c->first_pass = saved;
		/* reports inside alternatives are not a thing; attachments neither */
	} else if (strcmp(sub, "related") == 0 || strcmp(sub, "signed") == 0) {
		used = walk(c, parts[0].p, parts[0].n, depth + 1, want, childtype);
	} else if (strcmp(sub, "report") == 0) {
		used = walk(c, parts[0].p, parts[0].n, depth + 1, want, childtype);
		/* the status part is read; the returned message is no attachment */
		for (i = 1; i < np; i++) {
			struct hdr_list ph;
			size_t off = hdr_parse(parts[i].p, parts[i].n, &ph);
			const char *pct = hdr_get(&ph, "Content-Type");
			char *pt = pct ? hdr_main_value(pct) : xstrdup("text/plain");
			if (strstr(pt, "delivery-status") != NULL)
				walk_leaf(c, pt, &ph, parts[i].p + off, parts[i].n - off, want);
			free(pt);
			hdr_list_free(&ph);
		}
	} else {
		for (i = 0; i < np; i++)
			used |= walk(c, parts[i].p, parts[i].n, depth + 1, want, childtype);
	}
	free(parts);
	return used;
}

static bool
walk(struct ctx *c, const char *p, size_t n, int depth, enum want want, const char *deftype)
{
	struct hdr_list h;
	size_t off = hdr_parse(p, n, &h);
	const char *ct = hdr_get(&h, "Content-Type");
	char *type = ct ? hdr_main_value(ct) : xstrdup(deftype);
	bool used;

	if (type[0] == '\0') {
		free(type);
		type = xstrdup("text/plain");
	}
	if (strncmp(type, "multipart/", 10) == 0) {
		if (depth >= MIME_MAX_DEPTH) {
			if (c->first_pass)
				c->m->nattachments++;
			used = false;
		} else {
			used = walk_multipart(c, type, &h, p + off, n - off, depth, want);
		}
	} else {
		used = walk_leaf(c, type, &h, p + off, n - off, want);
	}
	free(type);
	hdr_list_free(&h);
	return used;
}

/* --- cleaning and caps -------------------------------------------------- */

/* Line ends to "\n", control bytes other than tab and newline dropped, a
 * leading byte order mark dropped, then the line cap. */
static char *
clean_text(struct ctx *c)
{
	const char *s = buf_str(&c->text), *end = s + c->text.len;
	struct buf out;
	int lines = 0;

	buf_init(&out, c->text.len + 1);
	if (end - s >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	for (; s < end; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\r') {
			if (s + 1 < end && s[1] == '\n')
				continue;
			ch = '\n';
		}
		if ((ch < 32 && ch != '\t' && ch != '\n') || ch == 127)
			continue;
		if (ch == '\n' && c->o->max_lines > 0 && ++lines >= c->o->max_lines && s + 1 < end) {
			buf_putc(&out, '\n');
			c->m->truncated = true;
			break;
		}
		buf_putc(&out, (char)ch);
	}
	if (out.len > 0 && out.data[out.len - 1] != '\n')
		buf_putc(&out, '\n');	/* every line ends in a newline */
	return buf_take(&out);
}

static bool
blank(const struct buf *b)
{
	size_t i;

	for (i = 0; i < b->len; i++)
		if (!(b->data[i] == ' ' || b->data[i] == '\t' || b->data[i] == '\r' || b->data[i] == '\n'))
			return false;
	return true;
}

/* --- headers and classification ---------------------------------------- */

static char *
decoded(const struct hdr_list *h, const char *name, bool *bad)
{
	const char *v = hdr_get(h, name);

	return v ? hdr_decode(v, bad) : NULL;
}

/* The address the message was sent to: the judge's own (with or without a
 * +tag) among Delivered-To, X-Original-To, To and Cc when own is known;
 * else the first To address. */
static void
pick_to(struct inmsg *m, const struct hdr_list *h, const char *own)
{
	static const char *const fields[] = { "Delivered-To", "X-Original-To", "To", "Cc", NULL };
	const char *const *f;
	bool bad = false;
	int i;

	for (f = fields; own != NULL && *f != NULL && m->to == NULL; f++) {
		for (i = 0; i < h->n && m->to == NULL; i++) {
			struct addr *v = NULL;
			int k, n;

			if (!str_eq_nocase(h->v[i].name, *f))
				continue;
			n = addr_parse_list(h->v[i].value, &v, 50, &bad);
			for (k = 0; k < n; k++)
				if (v[k].addr != NULL && addr_same_mailbox(v[k].addr, own)) {
					m->to = xstrdup(v[k].addr);
					m->to_tag = addr_plus_tag(v[k].addr, own);
					break;
				}
			addr_list_free(v, n);
		}
	}
	if (m->to == NULL && hdr_get(h, "To") != NULL) {
		struct addr *v = NULL;
		int k, n = addr_parse_list(hdr_get(h, "To"), &v, 50, &bad);

		for (k = 0; k < n; k++)
			if (v[k].addr != NULL) {
				m->to = xstrdup(v[k].addr);
				break;
			}
		addr_list_free(v, n);
	}
}

static void
read_addresses(struct inmsg *m, const struct hdr_list *h, const char *own)
{
	const char *from = hdr_get(h, "From");
	struct addr *v = NULL;
	int n;

	if (from != NULL) {
		n = addr_parse_list(from, &v, 1, &m->bad_charset);
		if (n > 0) {
			m->from_addr = v[0].addr;
			m->from_name = v[0].name;
			v[0].addr = v[0].name = NULL;
		}
		addr_list_free(v, n);
		v = NULL;
	}
	if (m->from_addr == NULL && (from = hdr_get(h, "Sender")) != NULL) {
		n = addr_parse_list(from, &v, 1, &m->bad_charset);
		if (n > 0 && v[0].addr != NULL) {
			m->from_addr = v[0].addr;
			v[0].addr = NULL;
			if (m->from_name == NULL) {
				m->from_name = v[0].name;
				v[0].name = NULL;
			}
		}
		addr_list_free(v, n);
		v = NULL;
	}
	if (hdr_get(h, "Reply-To") != NULL) {
		int k;
		n = addr_parse_list(hdr_get(h, "Reply-To"), &v, 10, &m->bad_charset);
		for (k = 0; k < n; k++)
			if (v[k].addr != NULL) {
				m->reply_to = xstrdup(v[k].addr);
				break;
			}
		addr_list_free(v, n);
	}
	pick_to(m, h, own);
}

static void
set_kind(struct inmsg *m, enum inmsg_kind k, const char *reason)
{
	if (m->kind != INMSG_NORMAL)
		return;
	m->kind = k;
	m->kind_reason = xstrdup(reason);
}

static bool
is_daemon_sender(const struct inmsg *m, const char *from_raw)
{
	if (m->from_addr != NULL)
		return str_prefix_nocase(m->from_addr, "mailer-daemon@") ||
		    str_prefix_nocase(m->from_addr, "postmaster@");
	if (from_raw == NULL)
		return false;
	for (; *from_raw; from_raw++)	/* "MAILER-DAEMON" without a domain */
		if (str_prefix_nocase(from_raw, "mailer-daemon"))
			return true;
	return false;
}

static bool
vacation_subject(const char *s)
{
	static const char *const prefixes[] = { "auto:", "automatic reply", "auto-reply",
		"autoreply", "auto reply", "out of office", "out of the office", "away from the office",
		"vacation reply", "abwesenheitsnotiz", "réponse automatique", NULL };
	const char *const *p;

	if (s == NULL)
		return false;
	while (*s == ' ')
		s++;
	for (p = prefixes; *p; p++)
		if (str_prefix_nocase(s, *p))
			return true;
	return false;
}

static void
classify(struct ctx *c, const struct hdr_list *h)
{
	struct inmsg *m = c->m;
	const char *own = c->o->own_address, *v;
	char *tmp;

	if (hdr_get(h, "X-Pouch-Judge") != NULL)
		set_kind(m, INMSG_OWN, "sent by a pouch judge (X-Pouch-Judge)");
	else if (own != NULL && m->from_addr != NULL && addr_same_mailbox(m->from_addr, own))
		set_kind(m, INMSG_OWN, "sent from the judge's own address");

	if (c->dsn)
		set_kind(m, INMSG_BOUNCE, "delivery status notification");
	if ((v = hdr_get(h, "X-Failed-Recipients")) != NULL) {
		struct addr *a = NULL;
		bool bad = false;
		int k, n = addr_parse_list(v, &a, MIME_MAX_BOUNCED, &bad);
		for (k = 0; k < n; k++)
			if (a[k].addr != NULL)
				add_bounced(m, a[k].addr);
		addr_list_free(a, n);
		set_kind(m, INMSG_BOUNCE, "bounce (X-Failed-Recipients)");
	}
	if (is_daemon_sender(m, hdr_get(h, "From")))
		set_kind(m, INMSG_BOUNCE, "sent by a mailer daemon or postmaster");

	if (hdr_get(h, "Auto-Submitted") != NULL) {
		tmp = field_token(h, "Auto-Submitted");
		if (strcmp(tmp, "no") != 0)
			set_kind(m, INMSG_AUTO, "Auto-Submitted");
		free(tmp);
	}
	if (hdr_get(h, "X-Autoreply") != NULL || hdr_get(h, "X-Autorespond") != NULL ||
	    hdr_get(h, "X-Autoresponder") != NULL || hdr_get(h, "X-Vacation") != NULL)
		set_kind(m, INMSG_AUTO, "an autoresponder header");
	if (vacation_subject(m->subject))
		set_kind(m, INMSG_AUTO, "a vacation or automatic reply subject");
	tmp = field_token(h, "Return-Path");
	if (strcmp(tmp, "<>") == 0)
		set_kind(m, INMSG_AUTO, "empty Return-Path (automatic mail)");
	free(tmp);
	if (hdr_count(h, "Received") > MIME_MAX_HOPS)
		set_kind(m, INMSG_AUTO, "too many Received fields (a mail loop)");

	tmp = field_token(h, "Precedence");
	if (strcmp(tmp, "bulk") == 0 || strcmp(tmp, "list") == 0 || strcmp(tmp, "junk") == 0)
		set_kind(m, INMSG_BULK, "Precedence: bulk, list or junk");
	free(tmp);
	if (hdr_get(h, "List-Id") != NULL || hdr_get(h, "List-Unsubscribe") != NULL)
		set_kind(m, INMSG_BULK, "mailing list mail (List-Id or List-Unsubscribe)");
}

void
mime_parse(const char *raw, size_t len, const struct mime_opts *o, struct inmsg *m)
{
	struct ctx c;
	struct hdr_list h;
	const char *v;

	memset(m, 0, sizeof *m);
	m->raw_size = len;
	if (len > o->max_raw) {
		/* the beginning, whole lines only: a line cut in its middle
		 * ("A Par - B") would be read as another order */
		len = o->max_raw;
		while (len > 0 && raw[len - 1] != '\n')
			len--;
		if (len == 0)	/* not a line end in it: as it comes */
			len = o->max_raw;
		m->truncated = true;
	}
	m->read_size = len;
	c.o = o;
	c.m = m;
	c.parts = 0;
	c.dsn = false;
	c.first_pass = true;
	buf_init(&c.text, 4 * o->max_raw + 64);

	hdr_parse(raw, len, &h);
	m->message_id = msgid_from(hdr_get(&h, "Message-ID"));
	m->in_reply_to = msgid_from(hdr_get(&h, "In-Reply-To"));
	m->references = decoded(&h, "References", &m->bad_charset);
	m->subject = decoded(&h, "Subject", &m->bad_charset);
	if ((v = hdr_get(&h, "Date")) != NULL)
		m->date = mime_parse_date(v);
	read_addresses(m, &h, o->own_address);

	walk(&c, raw, len, 0, WANT_PLAIN, "text/plain");
	if (blank(&c.text)) {	/* no plain text: try the HTML parts */
		c.first_pass = false;
		c.parts = 0;
		buf_reset(&c.text);
		if (walk(&c, raw, len, 0, WANT_HTML, "text/plain"))
			m->html_only = true;
	}
	m->text = clean_text(&c);
	if (m->text[0] == '\0')
		m->html_only = false;
	m->had_attachments = m->nattachments > 0;
	classify(&c, &h);
	buf_free(&c.text);
	hdr_list_free(&h);
}

/* --- dates --------------------------------------------------------------- */

static const char *
skip_date_cfws(const char *p)
{
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p != '(')
			return p;
		while (*p && *p != ')')
			p++;
		if (*p)
			p++;
	}
}

/* Read up to max digits; returns the count read (0 when none). */
static int
read_digits(const char **p, int max, int *out)
{
	int n = 0, v = 0;

	while (n < max && **p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	*out = v;
	return n;
}

time_t
mime_parse_date(const char *value)
{
	static const char *const months[] = { "jan", "feb", "mar", "apr", "may", "jun", "jul",
		"aug", "sep", "oct", "nov", "dec" };
	static const struct { const char *name; int minutes; } zones[] = {
		{ "ut", 0 }, { "gmt", 0 }, { "z", 0 }, { "utc", 0 }, { "est", -300 }, { "edt", -240 },
		{ "cst", -360 }, { "cdt", -300 }, { "mst", -420 }, { "mdt", -360 },
		{ "pst", -480 }, { "pdt", -420 } };
	const char *p = skip_date_cfws(value);
	struct tm tm;
	int day, year, nd, hh, mm, ss = 0, zone = 0, i;
	time_t t;

	memset(&tm, 0, sizeof tm);
	if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')) {	/* day of week */
		while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
			p++;
		p = skip_date_cfws(p);
	}
	if (read_digits(&p, 2, &day) == 0 || day < 1 || day > 31)
		return 0;
	p = skip_date_cfws(p);
	for (i = 0; i < 12; i++)
		if (str_prefix_nocase(p, months[i]))
			break;
	if (i == 12)
		return 0;
	tm.tm_mon = i;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
		p++;
	p = skip_date_cfws(p);
	nd = read_digits(&p, 4, &year);
	if (nd == 0)
		return 0;
	if (nd == 2)
		year += year < 50 ? 2000 : 1900;
	else if (nd == 3)
		year += 1900;
	p = skip_date_cfws(p);
	if (read_digits(&p, 2, &hh) == 0 || *p++ != ':' || read_digits(&p, 2, &mm) == 0)
		return 0;
	if (*p == ':') {
		p++;
		read_digits(&p, 2, &ss);
	}
	if (hh > 23 || mm > 59 || ss > 60)
		return 0;
	p = skip_date_cfws(p);
	if (*p == '+' || *p == '-') {
		int sign = *p == '-' ? -1 : 1, z;
		p++;
		if (read_digits(&p, 4, &z) == 4)
			zone = sign * ((z / 100) * 60 + z % 100);
	} else {
		for (i = 0; i < (int)(sizeof zones / sizeof zones[0]); i++)
			if (str_prefix_nocase(p, zones[i].name)) {
				zone = zones[i].minutes;
				break;
			}
	}
	tm.tm_mday = day;
	tm.tm_year = year - 1900;
	tm.tm_hour = hh;
	tm.tm_min = mm;
	tm.tm_sec = ss;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return 0;
	return t - (time_t)zone * 60;
}
