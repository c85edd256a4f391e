/*
 * sink.h — where outbound mail goes: a small backend interface.
 *
 * A sink is opened once per batch and given one message at a time with
 * its envelope; it reports the outcome per recipient, so one bad address
 * neither fails nor delays the others. The outbox (outbox.h) decides what
 * to do with each outcome: done, retry later, or give up.
 *
 *	struct mail_sink *k = sink_smtp_new(cfg);   // or sink_maildir_new(dir)
 *	if (sink_open(k, &err) == 0) {
 *		for each message: sink_send(k, key, from, rcpts, n, data, len, res, &err);
 *		sink_sync(k, &err);	// only now is "accepted" for good
 *	}
 *	sink_free(k);
 *
 * An accepted recipient is final once sink_sync returned 0: an SMTP server
 * that said 250 has the message (and a kill after it cannot take it back);
 * the Maildir sink (k->staged) writes a batch to tmp/ first and publishes
 * it in sink_sync, the way the spool does: a kill before then leaves
 * nothing a mail reader sees. The caller must not count a staged delivery
 * before sink_sync returned 0.
 */
#ifndef POUCH_SINK_H
#define POUCH_SINK_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"
#include "config.h"

enum rcpt_status {
	RCPT_OK,		/* accepted: the message is delivered or queued for it */
	RCPT_TEMPFAIL,		/* try again later (4xx, connection trouble) */
	RCPT_PERMFAIL,		/* refused for good (5xx) */
};

struct rcpt_result {
	enum rcpt_status status;
	int code;		/* SMTP reply code; 0 when there was none */
	char text[256];		/* the server's reply, or our reason */
};

struct mail_sink;

/* One message of sink_send_many: sink_send's arguments, and res[0..n) for
 * its outcome. */
struct sink_msg {
	const char *key, *from;
	char *const *rcpts;
	int n;
	const char *data;
	size_t len;
	struct rcpt_result *res;
	bool first_try;		/* mail_sink.first_try for this message */
};

struct sink_ops {
	int (*open)(struct mail_sink *k, struct buf *err);
	int (*send)(struct mail_sink *k, const char *key, const char *from, char *const *rcpts,
	    int n, const char *data, size_t len, struct rcpt_result *res, struct buf *err);
	int (*sync)(struct mail_sink *k, struct buf *err);
	void (*close)(struct mail_sink *k);
	/* optional: several messages at once (sink_send_many) */
	int (*send_many)(struct mail_sink *k, struct sink_msg *v, int n, struct buf *err);
};

struct mail_sink {
	const struct sink_ops *ops;
	char *name;		/* for messages: "smtp://host:port" or "maildir:DIR" */
	bool staged;		/* deliveries count only after sink_sync (Maildir) */
	int group;		/* messages sink_send_many takes at a time (sink_group) */
	bool first_try;		/* set before each sink_send (sink_send_many: from
				 * its message): no sink was ever given a message
				 * under this key, so none of it can be delivered
				 * already (the Maildir sink does not look) */
	void *priv;
};

/* Deliver into DIR/ADDRESS/ (a Maildir per recipient), durable at sink_sync. */
struct mail_sink *sink_maildir_new(const char *dir);
/* Send through an SMTP server with libcurl (smtp.* keys). */
struct mail_sink *sink_smtp_new(const struct mail_config *cfg);
/* Connect to cfg's SMTP server as sending would (TLS verified, AUTH with
 * the password file), send NOOP and quit: nothing is sent. Returns 0, or
 * -1 with the reason in err (the certificate, the login, the connection). */
int sink_smtp_check(const struct mail_config *cfg, struct buf *err);

/* Prepare (for SMTP: read the password; no connection yet). Returns 0 or
 * -1 (reason in err). */
int sink_open(struct mail_sink *k, struct buf *err);
/* Send data (LF or CRLF line ends) from `from` to rcpts[0..n). key (or
 * NULL) names the message the same way at every attempt: the Maildir sink
 * files it under that name, so a retry after a kill does not deliver it
 * twice. Fills res[0..n). Returns 0 when the server was reached (the
 * outcome is in res), -1 when it was not (every res is RCPT_TEMPFAIL). */
int sink_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err);
/* Send v[0..n) as sink_send would each, in any order, over several
 * connections at once where the sink can (SMTP: smtp.connections); fills
 * every v[i].res. Returns 0, or -1 when the sink became unreachable or a
 * connection broke (err says why): the messages it did not send then have
 * RCPT_TEMPFAIL, and no more should be given to it in this run. */
int sink_send_many(struct mail_sink *k, struct sink_msg *v, int n, struct buf *err);
/* How many messages sink_send_many should be given at a time to keep the
 * sink's connections busy: 1 for a sink that sends one at a time. */
int sink_group(const struct mail_sink *k);
/* Make every delivery reported RCPT_OK since the last sync durable.
 * Returns 0, or -1 (err) when they may be lost: then none of them counts. */
int sink_sync(struct mail_sink *k, struct buf *err);
/* After sink_sync returned -1: why the delivery of message key to rcpt
 * failed (borrowed until the next call on k), or NULL when it was made
 * durable all the same (the Maildir sink publishes each recipient's
 * Maildir apart); a sink that cannot tell gives why_all for every one. */
const char *sink_failure(const struct mail_sink *k, const char *key, const char *rcpt,
    const char *why_all);
/* Close and free (unsynced deliveries are dropped). NULL-safe. */
void sink_free(struct mail_sink *k);

/* Set every res[0..n) to status with text (helper for sinks). */
void sink_set_all(struct rcpt_result *res, int n, enum rcpt_status status, int code,
    const char *text);

#endif
