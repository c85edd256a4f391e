/*
 * outbound.h — what the judge leaves for the shell: messages to send
 * (named after the event that made them), audit and log notes, press
 * copies. Not part of the judge's API (judge_audit, judge_announce and
 * judge_send, defined here, are the rule systems' services in system.h).
 */
#ifndef POUCH_JUDGE_OUTBOUND_H
#define POUCH_JUDGE_OUTBOUND_H

#include "judge.h"
#include "system.h"

/* The largest text the judge writes in one message. */
#define OUTBOUND_TEXT_MAX (4u << 20)
/* The largest short notice (a game master's welcome, the political points). */
#define OUTBOUND_NOTICE_MAX (1u << 16)

/* Queue a message. to/cc are lists of addresses (copied); subject and text
 * are copied. g (may be NULL) sets List-Id and Reply-To. Addresses that
 * keep bouncing in g are left out. A NULL subject or text (buf_text() of a
 * buffer that refused an append) is a message not whole: it is not sent,
 * and the judge's log says so. */
void outbound_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *const *cc, int ncc, const char *subject, const char *text,
    const char *in_reply_to, const char *references, enum outmsg_auto a);
/* judge_event(): declared with the services to the rule systems (system.h). */
/* 16 random bytes from the shell, labelled with the event and draw so that
 * a replay can reproduce them. Returns 0, or -1 when there are none. */
int outbound_random(struct judge *j, unsigned char r[16]);
/* Does mail to addr keep bouncing in game g (it is not written to)? */
bool outbound_suspended(const struct game *g, const char *addr);
/* Note what happened to a message that got no reply. */
void outbound_log(struct judge *j, const struct game *g, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Note that what g's map pages show changed though no phase was decided,
 * no rollback made and no audit line written (the deadline passed with
 * orders missing): the shell draws its index again. */
void outbound_pages(struct judge *j, const struct game *g);
/* Announce text (copied) to everyone in g once the message being read is
 * read to its end (outbound_news_flush), with the deadline that holds
 * then; active: only if the game is running then; no message read: at
 * once. An announcement kept of another game, or of g with a text, is sent
 * first. text NULL (not whole): not sent, logged at once. */
void outbound_news(struct judge *j, struct game *g, const char *subject, const char *text,
    bool active);
/* The game master moved g's deadline: announced at the end of the message
 * being read (no message: at once), unless another announcement of g goes then (it gives the
 * deadline) or the game is not running then. */
void outbound_deadline_moved(struct judge *j, struct game *g);
/* Send the announcement outbound_news keeps, if any. */
void outbound_news_flush(struct judge *j);
/* Keep a copy of press in game g (text copied) for the archive; text NULL (not whole): none, logged. */
void outbound_press_copy(struct judge *j, const struct game *g, const char *text);

#endif
