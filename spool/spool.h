/*
 * spool.h — the durable archive of every message in and out.
 *
 * API:
 *	struct spool *s = spool_open("DATA/spool", &err);
 *	r = spool_store_in(s, source_key, message_id, raw, len, now, &id, &err);
 *	...				// more messages
 *	spool_sync(s, &err);		// now they are on disk for good
 *	...				// only now tell the server they are stored
 *	for (i = 0; i < spool_count_in(s); i++) { e = spool_in(s, i); ... }
 *	spool_mark_applied(s, e->id, now, &err);
 *	spool_close(s, &err);		// syncs too
 *
 * On disk (DIR is the spool directory):
 *	DIR/pack/NNNNNN.pack	the raw messages of a batch, in and out, one
 *				after the other (the ledger says where each is)
 *	DIR/out/{tmp,new,cur}/	sent messages: the outbox's files, hard-linked
 *	DIR/in/{tmp,new,cur}/	inbound messages an older pouch stored
 *	DIR/ledger		append-only text: what is where, in arrival order
 *	DIR/ledger.sum		a summary of the ledger for spool_open_lazy (a cache)
 *	DIR/index		the ledger's index, looked up in place (a cache)
 *	DIR/lock		held while the spool is open
 *
 * The ledger gives each message a stable id (its file name), its arrival
 * time, its source identity (for IMAP "imap://user@host/FOLDER;UIDVALIDITY=V/;UID=U",
 * for a Maildir "maildir:UNIQUE") and Message-ID, and later records that it
 * was applied. A source identity already in the ledger is never stored
 * again. A new message whose Message-ID is already known is stored (its
 * bytes are kept like every others) but marked SPOOL_DUPLICATE, so it is
 * never applied twice.
 *
 * Durability: nothing written is durable until spool_sync() returns 0.
 * spool_sync fsyncs the batch's pack and its directory, and then appends
 * and fsyncs the ledger, so the ledger never names bytes that a crash
 * could lose. After any
 * failed write the spool refuses further work until it is reopened.
 *
 * Arrival times never go backwards in ledger order: a time earlier than
 * the last one recorded is raised to it. Listing order is ledger order,
 * which is therefore arrival order (replay relies on it).
 *
 * One process at a time: spool_open takes DIR/lock, waiting up to
 * SPOOL_LOCK_WAIT_MS.
 */
#ifndef POUCH_SPOOL_H
#define POUCH_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "../lib/buf.h"

#define SPOOL_LOCK_WAIT_MS 10000
/* The entries (inbound, and sent) the spool keeps read out for its callers. */
#define SPOOL_ENTRY_CACHE 64

enum spool_state {
	SPOOL_STORED,		/* stored, not applied yet */
	SPOOL_APPLIED,		/* the judge applied it */
	SPOOL_DUPLICATE,	/* same Message-ID as dup_of: never to be applied */
};

/*
 * The spool keeps of each message only its record's place in the ledger,
 * its state and what its indexes need, in DIR/index, not in memory
 * (spool_index_bytes); an entry is read again from its record when asked
 * for. Entries, and their strings,
 * are borrowed: valid until spool_close or until SPOOL_ENTRY_CACHE other
 * entries of the same kind (inbound, sent) were asked for, whichever comes
 * first; state and applied follow spool_mark_applied.
 */
struct spool_entry {
	char *id;		/* stable id: the file name */
	time_t arrival;		/* the judge's clock for this message */
	size_t size;		/* bytes */
	char *source;		/* source identity; NULL when unknown */
	char *message_id;	/* without <>; NULL when none */
	char *dup_of;		/* SPOOL_DUPLICATE: id of the first copy */
	enum spool_state state;
	time_t applied;		/* SPOOL_APPLIED: when */
	/* Where its "in" record stands among the ledger's records that order
	 * the judge's work ("in", and the cursors "run", "clock", "settings"):
	 * 1, 2, ... (see spool_mark_run). */
	unsigned long rec_in;
};

struct spool_sent {
	char *id;
	time_t time;		/* when it was accepted */
	size_t size;
	char *key;		/* the sender's identity for it (e.g. "outbox:ID"); NULL */
	char *message_id;	/* NULL when none */
	char *rcpts;		/* the accepting recipients, comma separated */
};

struct spool;

/* Open (creating when missing) the spool in dir and read its ledger.
 * Returns NULL with a reason in err (busy, unreadable, a damaged ledger). */
struct spool *spool_open(const char *dir, struct buf *err);
/*
 * The same, reading only DIR/ledger.sum when it describes the ledger as it
 * is: the cursors, the clock and spool_pending, all a run with nothing new
 * needs, in a time that does not grow with the spool. The ledger itself is
 * read by spool_index, which storing and marking call themselves; call it
 * before listing or looking up entries (spool_count_in, spool_in,
 * spool_lookup, spool_lookup_source, spool_count_out, spool_out).
 */
struct spool *spool_open_lazy(const char *dir, struct buf *err);
/* Read the ledger, if not done yet. Returns 0, or -1 with a reason in err
 * (then the spool refuses further work). */
int spool_index(struct spool *s, struct buf *err);
/* Inbound messages stored and not applied yet (no spool_index needed). */
size_t spool_pending(const struct spool *s);
/* spool_sync (unless spool_discard was called), then release everything.
 * Returns spool_sync's result. NULL-safe (returns 0). */
int spool_close(struct spool *s, struct buf *err);
/* Forget every record and file not yet synced (a run that could not
 * commit its games must not leave its `applied` marks), and refuse all
 * further work, as after a failed write. */
void spool_discard(struct spool *s);
/* Make everything stored or marked so far durable (see above). Returns 0,
 * or -1 with a reason in err; then nothing may be acknowledged upstream. */
int spool_sync(struct spool *s, struct buf *err);

/* Store an inbound message. source (may be NULL) and message_id (may be
 * NULL) are copied. Returns 1 when stored, 0 when source is already in the
 * ledger (nothing written), -1 on error (reason in err). *id (may be NULL)
 * gets the entry's id either way, borrowed. */
int spool_store_in(struct spool *s, const char *source, const char *message_id,
    const void *data, size_t len, time_t arrival, const char **id, struct buf *err);

/* Inbound entries in arrival order: count, and the i-th (borrowed; NULL
 * when its record no longer reads: the spool then refuses further work). */
size_t spool_count_in(const struct spool *s);
const struct spool_entry *spool_in(const struct spool *s, size_t i);
/* The state of the i-th (i < spool_count_in), without reading its record. */
enum spool_state spool_state(const struct spool *s, size_t i);
/* The inbound entry with this id, or NULL. */
const struct spool_entry *spool_lookup(const struct spool *s, const char *id);
/* The inbound entry stored from this source identity, or NULL. */
const struct spool_entry *spool_lookup_source(const struct spool *s, const char *source);

/* Record that id was applied at now. Returns 0, 1 when it already was,
 * -1 when id is unknown or a duplicate (reason in err). */
int spool_mark_applied(struct spool *s, const char *id, time_t now, struct buf *err);
/* spool_mark_applied for inbound entry i (0 .. spool_count_in - 1). */
int spool_mark_applied_at(struct spool *s, size_t i, time_t now, struct buf *err);

/* Append the raw bytes of message id (inbound or sent) to out. Returns 0,
 * or -1 with a reason in err. */
int spool_read(const struct spool *s, const char *id, struct buf *out, struct buf *err);
/* The same for the i-th sent message (i < spool_count_out): of the `out`
 * records only, whatever an inbound message's id is. */
int spool_read_out(const struct spool *s, size_t i, struct buf *out, struct buf *err);

/* Archive a sent message (the outbox calls this once the server accepted
 * it). key (may be NULL) identifies it for its sender: a key already in
 * the ledger is not stored again. rcpts: the recipients that accepted it.
 * Returns 1 when stored, 0 when key was known, -1 on error (err). *id (may
 * be NULL) gets its id. */
int spool_store_out(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const void *data, size_t len, time_t when, const char **id, struct buf *err);
/* The same for a message already in a file that is durable (the outbox's):
 * the spool takes it by a hard link into out/new, without copying or
 * syncing its bytes again (a copy into the pack when path is on another
 * filesystem). */
int spool_store_out_file(struct spool *s, const char *key, const char *message_id,
    const char *rcpts, const char *path, size_t len, time_t when, const char **id,
    struct buf *err);
/* The same for a message whose bytes are already durable in a pack of
 * this spool's pack/ directory (the outbox queues its messages there):
 * the record names them at place ("NAME:OFFSET", len bytes), nothing is
 * copied, linked or synced but the record. */
int spool_store_out_at(struct spool *s, const char *key, const char *message_id,
    const char *rcpts, const char *place, size_t len, time_t when, const char **id,
    struct buf *err);
size_t spool_count_out(const struct spool *s);
const struct spool_sent *spool_out(const struct spool *s, size_t i);
/* Whether a sent message with this Message-ID is archived (needs spool_index). */
bool spool_sent_message_id(const struct spool *s, const char *message_id);
/* The bytes the index of the ledger takes in memory (for tests): its
 * cache, however many messages the spool holds. */
size_t spool_index_bytes(const struct spool *s);
/* The bytes the records not yet written take (for tests): no more than
 * about SPOOL_BATCH_BYTES, however many messages a batch stores. */
size_t spool_pending_bytes(const struct spool *s);

/* A source's saved position (e.g. "UIDVALIDITY:LASTUID"), or NULL. */
const char *spool_cursor(const struct spool *s, const char *name);
/* Save a source's position (durable with the next spool_sync). */
void spool_set_cursor(struct spool *s, const char *name, const char *value);

/*
 * The judge's clock: the time up to which it has acted on this spool (its
 * last run). A message stored later never gets an arrival before it, so
 * that what the judge did at that time (a deadline it passed) comes before
 * the message in replay too. spool_set_clock only moves it forward;
 * durable with the next spool_sync. 0 when never set.
 */
time_t spool_clock(const struct spool *s);
void spool_set_clock(struct spool *s, time_t t);

/*
 * The runs of the judge. A run that has work records its time (the cursor
 * "run") and syncs it before it applies anything, after the messages it
 * stored: the ledger then says which messages each run read (those stored
 * before its record and not read by an earlier one) and when it ran, for
 * a replay, and for a run after a crash, to act at the same times with the
 * same mail. spool_mark_run records one (durable with the next
 * spool_sync); spool_run_at lists them, ledger and this process's alike.
 * spool_clock_rec: where the last "clock" record stands (0: none): runs
 * recorded after it may not have finished. All need spool_index.
 */
struct spool_run {
	time_t time;
	unsigned long rec;
};
void spool_mark_run(struct spool *s, time_t now);
size_t spool_count_runs(const struct spool *s);
const struct spool_run *spool_run_at(const struct spool *s, size_t i);
unsigned long spool_clock_rec(const struct spool *s);

/* The judge's settings that shape what it sends (its address, domain, map
 * URL...), recorded as the cursor "settings" by each run that found them
 * changed: every such record, in order, with its place among the records
 * above, for a replay to use the settings in force then. */
struct spool_setting {
	unsigned long rec;
	char *value;
};
size_t spool_count_settings(const struct spool *s);
const struct spool_setting *spool_setting_at(const struct spool *s, size_t i);

/* The spool directory (borrowed). */
const char *spool_dir(const struct spool *s);

#endif
