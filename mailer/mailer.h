/*
 * mailer.h — the mail layer as the judge uses it.
 *
 * One run of the judge:
 *
 *	mail_config_init(&cfg, data); mail_config_read(&cfg, conf, judge_key, j, &err);
 *	sp = spool_open(mail_spool_dir(data), &err);
 *	src = source_from_config(&cfg);
 *	mail_fetch(src, sp, now, &fs, &err);		// new mail is in the spool
 *	source_free(src);
 *	for (i = 0; i < spool_count_in(sp); i++) {
 *		e = spool_in(sp, i);
 *		if (e->state != SPOOL_STORED) continue;
 *		mail_read(sp, e, &mo, &m, &err);	// struct inmsg with spool_id, arrival
 *		... apply m, queue replies with mail_queue(ob, &cfg, &reply, now, ...) ...
 *		spool_mark_applied(sp, e->id, now, &err);
 *	}
 *	outbox_sync(ob, &err);				// the replies, for good
 *	spool_sync(sp, &err);				// then the applied marks
 *	mail_send(ob, &cfg, sp, now, &os, &err);	// flush the outbox
 *
 * Replay is the same loop over every inbound entry that is not a
 * duplicate, with e->arrival as the clock.
 */
#ifndef POUCH_MAILER_H
#define POUCH_MAILER_H

#include <time.h>

#include "../lib/buf.h"
#include "../spool/spool.h"
#include "compose.h"
#include "config.h"
#include "message.h"
#include "mime.h"
#include "outbox.h"
#include "sink.h"
#include "source.h"

struct fetch_stats {
	int fetched;		/* messages the source handed over */
	int stored;		/* of which new in the spool */
	int known;		/* already in the spool (an earlier run stored them) */
	int duplicates;		/* stored, but their Message-ID was known: never applied */
	int early;		/* stored, delivered before the spool's clock: they
				   arrive at that clock (spool_store_in) */
};

/* Fetch every new message from src (opened here; source_free it after) into sp:
 * each is stored, the spool synced, and only then the source commits (marks
 * them seen or deletes them) and its cursor is saved in the spool. A
 * message's arrival is when the server received it (never later than now).
 * A source that caps its batch is asked again, batch after batch (at most
 * 25), until nothing new is left: memory holds one batch at a time.
 * Returns 0, or -1 with a reason in err; what was stored stays stored. */
int mail_fetch(struct mail_source *src, struct spool *sp, time_t now, struct fetch_stats *st,
    struct buf *err);
/* Called by mail_fetch_each after each message it stored anew, while the
 * fetch goes on: the spool lists it (the last inbound entry), not yet
 * durable. */
typedef void (*fetch_stored_fn)(void *arg);
/* mail_fetch, calling stored(arg) (stored may be NULL) after each message
 * stored anew. */
int mail_fetch_each(struct mail_source *src, struct spool *sp, time_t now,
    struct fetch_stats *st, fetch_stored_fn stored, void *arg, struct buf *err);

/* Read inbound entry e from sp and parse it with o into m (which gets
 * spool_id and arrival too). Returns 0, or -1 (err) when the file cannot
 * be read. */
int mail_read(struct spool *sp, const struct spool_entry *e, const struct mime_opts *o,
    struct inmsg *m, struct buf *err);

/* Compose m with the judge's identity from cfg and queue it for every To
 * and Cc recipient (envelope sender: judge.address). Durable after
 * outbox_sync (mail_send syncs before sending); *id (may be NULL) gets the
 * outbox id (caller frees). Returns 0, or -1 (err). */
int mail_queue(struct outbox *ob, const struct mail_config *cfg, const struct outmsg *m,
    time_t now, char **id, struct buf *err);

/* Flush the outbox through the sink cfg names. Returns outbox_flush's. */
int mail_send(struct outbox *ob, const struct mail_config *cfg, struct spool *sp, time_t now,
    struct outbox_stats *st, struct buf *err);

/* MIME and compose options from cfg (borrowing its strings). */
void mail_mime_opts(const struct mail_config *cfg, struct mime_opts *o);
void mail_compose_opts(const struct mail_config *cfg, struct compose_opts *o);

/* DATA/spool and DATA/outbox (new strings; caller frees). */
char *mail_spool_dir(const char *data_dir);
char *mail_outbox_dir(const char *data_dir);
/* Where the outbox queues its messages' bytes: the pack/ of the spool in
 * spool_dir, so that a sent message is archived where it is. */
char *mail_outbox_packs(const char *spool_dir);

#endif
