/*
 * outbox.h — outgoing mail waits here until a server took it.
 *
 * API:
 *	struct outbox *ob = outbox_open("DATA/outbox", "DATA/spool/pack", &err);
 *	outbox_add(ob, from, rcpts, n, bytes, len, now, &id, &err);	// queued...
 *	outbox_sync(ob, &err);						// ...for good
 *	outbox_flush(ob, sink, spool, now, &stats, &err);		// send what is due
 *	outbox_close(ob);
 *
 * A message is written to the outbox durably before anything tries to
 * send it: outbox_add writes, outbox_sync makes every message added since
 * the last sync durable at once (a few journal commits for a whole batch,
 * not a few per message), and outbox_flush syncs before its first attempt. outbox_flush gives every due message to the sink; a recipient
 * that accepted is done, one that refused for good (5xx) is recorded as a
 * failure, one that could not be reached (4xx, no connection) is tried
 * again on a later run after an exponential backoff (OUTBOX_BACKOFF_BASE
 * seconds doubling per attempt up to OUTBOX_BACKOFF_MAX), and is given up
 * as a failure after OUTBOX_EXPIRE seconds. When no recipient is left
 * waiting, the message moves into the spool's sent archive and leaves the
 * outbox. The failures stay listed (outbox_failures) until the judge
 * has reported them and calls outbox_forget_failure.
 *
 * On disk (DIR is the outbox directory, PACKS the pack directory given
 * to outbox_open: the spool's pack/ in pouch run):
 *	PACKS/outbox.UNIQUE.pack	the queued messages' bytes, one after the
 *				other (a pack per process; kept as the spool's
 *				archive once sent)
 *	DIR/meta/journal.TIME.PID	states, "gone" records
 *	DIR/failed/ID		permanent failures to report
 *	DIR/{tmp,new,cur}/ID	messages an older pouch queued (still sent)
 *
 * The clock is a parameter (now): the same calls give the same result.
 */
#ifndef POUCH_OUTBOX_H
#define POUCH_OUTBOX_H

#include <stddef.h>
#include <time.h>

#include "../lib/buf.h"
#include "../spool/spool.h"
#include "sink.h"

#define OUTBOX_BACKOFF_BASE 60
#define OUTBOX_BACKOFF_MAX 7200
#define OUTBOX_EXPIRE (5 * 24 * 3600)
#define OUTBOX_MAX_RCPTS 1000
/* A flush tries this many messages, then makes their outcome durable and
 * forgets them before the next batch (one connection for all). */
#define OUTBOX_FLUSH_BATCH 1000

struct outbox;

struct outbox_stats {
	int sent;		/* messages finished this run (every recipient accepted or failed) */
	int deferred;		/* messages tried and kept for a later attempt */
	int waiting;		/* messages not due yet */
	int failed_rcpts;	/* recipients given up this run */
	/* lines for the judge's log (owned; free with strv_free): a
	 * recipient's delivery the first time it is deferred, a message not
	 * sent because it is damaged ("outbox message ID not sent: ...") */
	char **notes;
	int nnotes;
};

struct outbox_failure {
	char *id;		/* outbox id of the message */
	char *message_id;	/* its Message-ID (without <>), or NULL */
	char *rcpt;
	int code;		/* SMTP code, 0 when none (expired) */
	char *reason;
	time_t when;
};

/* Open (creating when missing) the outbox in dir; queued messages' bytes
 * go into packs in pack_dir (the spool's pack/, so that a sent message is
 * archived where it is), or, when NULL, in dir/pack (copied into the
 * archive when sent). NULL with err on failure. */
struct outbox *outbox_open(const char *dir, const char *pack_dir, struct buf *err);
/* Release (what is not synced may be lost). NULL-safe. */
void outbox_close(struct outbox *ob);

/* Queue data (RFC 5322 bytes, e.g. from compose_message) for rcpts[0..n)
 * from the envelope sender from; durable after outbox_sync. *id (may be
 * NULL) gets the outbox id (caller frees). Returns 0 or -1 (err). */
int outbox_add(struct outbox *ob, const char *from, char *const *rcpts, int n, const char *data,
    size_t len, time_t now, char **id, struct buf *err);
/* Make everything added or recorded since the last sync durable. Returns
 * 0, or -1 (err). After a failed write (outbox_add, a state record) the
 * outbox refuses to add, record or sync until it is opened again. */
int outbox_sync(struct outbox *ob, struct buf *err);

/* Try every message due at now through sink (opened here only when
 * something is due; may be NULL when nothing is expected to be due), and
 * archive finished ones in sp. Returns 0, or -1 when the outbox itself
 * could not be read or written (err); send failures are not errors. */
int outbox_flush(struct outbox *ob, struct mail_sink *sink, struct spool *sp, time_t now,
    struct outbox_stats *st, struct buf *err);

/* Call fn with the Message-ID of every message waiting in the outbox.
 * Returns 0, or -1 (err) when a state file cannot be read. */
int outbox_each_message_id(struct outbox *ob, void (*fn)(void *arg, const char *message_id),
    void *arg, struct buf *err);
/* Call fn with the id and the bytes of every message waiting in the
 * outbox (one it cannot read is passed over). Returns 0. */
int outbox_each_message(struct outbox *ob, void (*fn)(void *arg, const char *id,
    const char *data, size_t len), void *arg, struct buf *err);
/* Remove message id from the outbox unsent (the host's decision, for one
 * damaged on disk). Returns 0 or -1 (err). */
int outbox_drop(struct outbox *ob, const char *id, struct buf *err);
/* Number of messages waiting in the outbox. */
int outbox_count(struct outbox *ob);
/* The message states held in memory, and in *bytes what they take: where
 * each state is in its journal, never its text, only for messages still
 * queued, and none for those this process queued and did not try yet
 * (for tests: it must not grow with a message's recipients, nor with the
 * messages sent, nor with those queued). */
size_t outbox_held(const struct outbox *ob, size_t *bytes);

/* The recorded permanent failures (a new array; free with
 * outbox_failures_free). Returns the count, or -1 (err). */
int outbox_failures(struct outbox *ob, struct outbox_failure **v, struct buf *err);
void outbox_failures_free(struct outbox_failure *v, int n);
/* Drop the failure records of message id once they are reported. Returns 0 or -1. */
int outbox_forget_failure(struct outbox *ob, const char *id, struct buf *err);

#endif
