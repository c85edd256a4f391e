/*
 * compose.h — struct outmsg (message.h) to RFC 5322 bytes.
 *
 * The output depends only on its inputs (no clock, no host name, no
 * randomness): replay compares outgoing mail byte for byte. Lines end in
 * "\n" (the Maildir convention); the SMTP sink turns them into CRLF.
 *
 * Fields, in this order: Date (from outmsg->date, UTC), From, To, Cc,
 * Subject (RFC 2047 when not plain ASCII), Message-ID (outmsg->message_id,
 * or one derived from a hash of the message), In-Reply-To, References
 * (the given ones plus In-Reply-To), Reply-To (local+GAME@domain) and
 * List-Id (<GAME.judge-domain>) when there is a game, Auto-Submitted
 * (RFC 3834), X-Auto-Response-Suppress, X-Pouch-Judge (how our own mail
 * is recognised when it comes back), MIME-Version, Content-Type
 * text/plain; charset=utf-8, Content-Transfer-Encoding quoted-printable.
 */
#ifndef POUCH_COMPOSE_H
#define POUCH_COMPOSE_H

#include "../lib/buf.h"
#include "message.h"

struct compose_opts {
	const char *from_addr;	/* the judge's address (judge.address) */
	const char *from_name;	/* display name, UTF-8; may be NULL */
	const char *domain;	/* judge.domain (List-Id, Message-IDs); NULL: from_addr's */
};

/* Render m into out (appending). Returns 0, or -1 with a one-line reason
 * appended to err when an address is invalid, there is no recipient, or
 * out is full. */
int compose_message(const struct outmsg *m, const struct compose_opts *o, struct buf *out,
    struct buf *err);

/* Append text (UTF-8) as the value of a header field whose name takes
 * name_len columns: plain when it is printable ASCII, else RFC 2047
 * encoded words; folded to keep lines short. Returns 0 or -1 (full). */
int compose_header_text(const char *text, size_t name_len, struct buf *out);

/* The game name as used in List-Id and plus addresses: lower case, every
 * byte other than a-z, 0-9, '-' replaced by '-', at most 40 bytes. New
 * string; caller frees. */
char *compose_game_tag(const char *game);

/* Date header value for t in UTC ("Tue, 14 Nov 2023 22:13:20 +0000"). */
void compose_date(time_t t, char *out, size_t size);

#endif
