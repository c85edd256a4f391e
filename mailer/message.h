/*
 * message.h — the judge's view of mail: what it reads and what it writes.
 *
 * The judge (judge/) never sees RFC 5322 bytes. The mail layer (mailer/)
 * turns a raw message into a struct inmsg (headers decoded to UTF-8, the
 * best text part as UTF-8 text), and a struct outmsg into bytes to send.
 * Both structs own their strings; inmsg_free/outmsg_free release them.
 */
#ifndef POUCH_MESSAGE_H
#define POUCH_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* Why a message must not be answered (RFC 3834 and common practice). */
enum inmsg_kind {
	INMSG_NORMAL = 0,
	INMSG_AUTO,		/* Auto-Submitted other than "no", X-Autoreply, vacation, ... */
	INMSG_BULK,		/* Precedence: bulk/list/junk, List-Id, List-Unsubscribe */
	INMSG_BOUNCE,		/* a delivery status notification or MAILER-DAEMON */
	INMSG_OWN,		/* sent by this judge (our Message-ID or X-Pouch header) */
};

struct inmsg {
	char *spool_id;		/* where the raw bytes are kept */
	time_t arrival;		/* when it arrived (the judge's clock for it) */
	char *message_id;	/* without <>; may be NULL */
	char *from_addr;	/* the address alone, lower case; NULL if unusable */
	char *from_name;	/* display name, UTF-8; may be NULL */
	char *reply_to;		/* address, may be NULL */
	char *to;		/* the address it was sent to (for plus-addressing: judge+game@) */
	char *subject;		/* UTF-8, RFC 2047 decoded; may be NULL */
	char *in_reply_to;	/* without <>; may be NULL */
	char *references;	/* as in the header; may be NULL */
	char *text;		/* the body as UTF-8 text: text/plain preferred, else HTML
				   converted; never NULL (may be "") */
	enum inmsg_kind kind;
	bool html_only;		/* text came from HTML */
	bool had_attachments;	/* parts other than the text were ignored */
	bool truncated;		/* text was cut at the size or line cap */
	bool bad_charset;	/* an unknown charset was read as Latin-1/replaced */
	char **bounced;		/* for INMSG_BOUNCE: the failed recipient addresses */
	int nbounced;
	/* added by the mail layer (mailer/mime.c) */
	char *to_tag;		/* the +tag of `to` when it is the judge's address with
				   one (judge+game@ gives "game"), lower case; may be NULL */
	char *kind_reason;	/* why kind is not INMSG_NORMAL, for logs and replies;
				   NULL when normal */
	time_t date;		/* the Date header: the sender's claim, not the clock;
				   0 when missing or unreadable */
	size_t raw_size;	/* bytes of the raw message */
	size_t read_size;	/* of them, read: all, or those up to the last line end
				   within mail.max_size (then truncated is set) */
	int nattachments;	/* parts that were not read as text */
};

enum outmsg_auto { OUT_REPLY = 0, OUT_GENERATED };	/* Auto-Submitted: auto-replied / auto-generated */

struct outmsg {
	char **to;		/* recipients (addresses) */
	int nto;
	char **cc;
	int ncc;
	char *subject;		/* UTF-8 (encoded on the way out) */
	char *text;		/* UTF-8 body */
	char *in_reply_to;	/* Message-ID answered, without <>; may be NULL */
	char *references;	/* may be NULL */
	char *game;		/* game name: List-Id and Reply-To plus address; may be NULL */
	enum outmsg_auto autosub;
	time_t date;		/* Date header (deterministic: the judge's clock) */
	char *message_id;	/* set by the judge, deterministic, without <> */
};

void inmsg_free(struct inmsg *m);
void outmsg_free(struct outmsg *m);

#endif
