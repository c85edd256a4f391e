/*
 * reply.h — the reply to a message: each line repeated with its verdict,
 * kept short whatever comes in (long lines cut, repeated refusals counted,
 * lines past a size left out), the lines that are not orders counted, and
 * the reply sent, at most so many an hour to one sender. Not part of the
 * judge's API.
 */
#ifndef POUCH_JUDGE_REPLY_H
#define POUCH_JUDGE_REPLY_H

#include "../mailer/message.h"
#include "ident.h"
#include "judge.h"

/* A reply is cut at REPLY_CAP bytes. */
#define REPLY_CAP (16u << 10)

/* What a reply has left out so far. */
struct echo {
	size_t mark;		/* where the current line's part of the reply starts */
	char last[256];		/* the last refusal shown ("" when none) */
	int same;		/* lines since with the same refusal, not shown */
	int hidden;		/* lines not shown for the reply's size */
};

/* Append "> text" to out, cut to its first 100 characters with "…". */
void reply_quote(struct buf *out, const char *text, size_t len);
/* The part of reply from e->mark on is one line's echo and verdict:
 * keep it, count it as a repeat, or leave it out for the reply's size. */
void echo_settle(struct echo *e, struct buf *reply);
/* After the last line: the counts of what was left out. */
void echo_end(struct echo *e, struct buf *reply);

/* Lines that are plainly not orders: counted, the first few quoted; and
 * the end of the message (a signature, a quoted mail): counted, its first
 * line quoted. The caller buf_init()s and buf_free()s both buffers. */
struct ignored {
	int n;
	struct buf quotes;
	int tail;		/* lines of the end of the message, not blank */
	struct buf tail_quote;	/* its first line, quoted */
	int above;		/* lines of a quoted mail written under */
	struct buf above_quote;	/* its first line, quoted */
};

/* Count line as ignored (quoting it when among the first few). */
void ignored_add(struct ignored *ig, const char *line, size_t len);
/* Count line as a line of the end of the message (quoting the first). */
void ignored_tail(struct ignored *ig, const char *line, size_t len);
/* Count line as a line of a quoted mail the sender wrote under. */
void ignored_above(struct ignored *ig, const char *line, size_t len);
/* "Ignored 2 lines that are not orders: "hi mr judge…", "Alice"." (one:
 * "an order", many: "orders", or the words of a game of commands), then
 * "Ignored the end of your message from "-- " on (3 lines): ...". */
void ignored_put(const struct ignored *ig, const char *one, const char *many, struct buf *out);

/* Cut reply to REPLY_CAP, saying so. */
void reply_cap(struct buf *reply);
/* Send text as the reply to m from the sender id, copied to the rest of
 * the delegation (or the other GMs); not when the sender had too many
 * replies this hour (noted in the log). */
void reply_send(struct judge *j, const struct inmsg *m, const struct ident *id, const char *text);

#endif
