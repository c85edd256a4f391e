/*
 * mime.h — raw RFC 5322 / MIME bytes to a struct inmsg (message.h).
 *
 * API:
 *	struct mime_opts o;
 *	struct inmsg m;
 *	mime_opts_init(&o);
 *	o.own_address = "judge@example.org";
 *	mime_parse(raw, len, &o, &m);	// never fails; flags say what went wrong
 *	... m.text, m.kind ...
 *	inmsg_free(&m);
 *
 * What it does: headers unfolded and RFC 2047-decoded to UTF-8; addresses
 * parsed (from_addr in lower case); the text is the text/plain parts
 * (several inline ones are joined), or, when there are none, the HTML
 * parts converted to text; quoted-printable and base64 decoded, charsets
 * converted to UTF-8 (charset.h); other parts counted as attachments. Line
 * ends become "\n"; NUL and other control characters except tab are
 * removed. The text is given whole: quoted lines and signatures are the
 * judge's business.
 *
 * Caps: only the first max_raw bytes are read, up to the last line end
 * among them (no line read in part: read_size says how many), and at most
 * max_lines lines of text are kept; more sets truncated. Nesting is cut at MIME_MAX_DEPTH
 * and MIME_MAX_PARTS parts.
 *
 * Classification (kind, with kind_reason), first match wins:
 *   OWN     an X-Pouch-Judge field, or From is own_address (or a +tag of it)
 *   BOUNCE  a delivery status notification (multipart/report with a
 *           message/delivery-status part: the Final-Recipients with Action
 *           failed go to bounced), X-Failed-Recipients, or a sender called
 *           MAILER-DAEMON or postmaster
 *   AUTO    Auto-Submitted other than "no", X-Autoreply, X-Autorespond,
 *           a vacation subject ("Auto:", "Automatic reply", "Out of
 *           office", ...), an empty Return-Path, more than MIME_MAX_HOPS
 *           Received fields (a loop)
 *   BULK    Precedence bulk/list/junk, List-Id, List-Unsubscribe
 */
#ifndef POUCH_MIME_H
#define POUCH_MIME_H

#include <stddef.h>
#include <time.h>

#include "message.h"

#define MIME_DEFAULT_MAX_RAW (1024 * 1024)
#define MIME_DEFAULT_MAX_LINES 1000
#define MIME_MAX_DEPTH 20
#define MIME_MAX_PARTS 500
#define MIME_MAX_BOUNCED 100
#define MIME_MAX_HOPS 40

struct mime_opts {
	size_t max_raw;			/* bytes read at most (default 1 MiB) */
	int max_lines;			/* lines of text kept (default 1000) */
	const char *own_address;	/* the judge's address; may be NULL */
};

/* Fill o with the defaults (own_address NULL). */
void mime_opts_init(struct mime_opts *o);

/* Parse raw[0..len) into m, which it overwrites (m need not be
 * initialised; spool_id and arrival are left 0 for the caller). Always
 * succeeds; text is never NULL. Release with inmsg_free(). */
void mime_parse(const char *raw, size_t len, const struct mime_opts *o, struct inmsg *m);

/* The Message-ID of raw[0..len) without <>, or NULL when there is none
 * usable. Reads the header section only. Caller frees. */
char *mime_message_id(const char *raw, size_t len);

/* An RFC 5322 date ("Tue, 14 Nov 2023 22:13:20 +0100", obsolete zones and
 * two-digit years accepted) as a time_t, or 0 when it cannot be read. */
time_t mime_parse_date(const char *value);

#endif
