/*
 * source.h — where inbound mail comes from: a small backend interface.
 *
 * A source is opened, asked once for everything new (one callback per
 * message, with the raw bytes and the message's identity at the source),
 * then told to commit: mark as seen, or delete, exactly the messages the
 * callback accepted — which the caller does only after it stored them
 * durably (fdm's commit/abort). A source that is closed without commit
 * changes nothing on the server, so a crash or an error anywhere before
 * the commit loses nothing: the next run fetches the same messages again
 * and the spool recognises them by their identity.
 *
 *	struct mail_source *src = source_imap_new(cfg);
 *	if (source_open(src, &err) == 0 &&
 *	    source_fetch(src, cursor, store_cb, arg, &err) == 0 &&
 *	    spool_sync(sp, &err) == 0)
 *		source_commit(src, &new_cursor, &err);
 *	source_free(src);		// closes
 *
 * A cursor is a source's saved position, an opaque string the caller
 * keeps between runs (the IMAP source uses "UIDVALIDITY:LASTUID" so that
 * it asks only for UIDs above the last one stored, however the \Seen flags
 * were changed by people reading the mailbox).
 */
#ifndef POUCH_SOURCE_H
#define POUCH_SOURCE_H

#include <stddef.h>
#include <time.h>

#include "../lib/buf.h"
#include "config.h"

struct source_msg {
	const char *key;	/* identity at the source (spool.h gives the forms) */
	const char *data;	/* the raw message (borrowed for the callback) */
	size_t len;
	time_t delivered;	/* when the server received it; 0 when unknown */
};

enum { SOURCE_LEAVE = 0, SOURCE_ACCEPT = 1 };

/* A message bigger than this is left where it is, with a warning. */
#define SOURCE_MAX_MESSAGE (64u * 1024 * 1024)

/* Called once per new message, in delivery order. Returns SOURCE_ACCEPT
 * (stored: commit it), SOURCE_LEAVE (leave it for a later run), or -1 to
 * stop fetching (the source then fails with the callback's error). */
typedef int (*source_msg_fn)(void *arg, const struct source_msg *m, struct buf *err);

struct mail_source;

struct source_ops {
	int (*open)(struct mail_source *s, struct buf *err);
	int (*fetch)(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg,
	    struct buf *err);
	int (*commit)(struct mail_source *s, char **cursor, struct buf *err);
	void (*close)(struct mail_source *s);
};

struct mail_source {
	const struct source_ops *ops;
	char *name;		/* e.g. "imap://judge@mail.example.org/INBOX": cursor name, logs */
	void *priv;
	int fetched;		/* messages given to the callback */
	int accepted;		/* of which accepted */
	int commands;		/* protocol commands sent (IMAP: a run costs the same
				   few whatever the number of messages) */
	int more;		/* the last fetch left new messages for another
				   (a batch is capped): fetch and commit again */
	int open;
};

/* A Maildir source reading dir (created when missing): up to 16,384
 * messages a fetch, the oldest, s->more set when there are more. */
struct mail_source *source_maildir_new(const char *dir);
/* The most messages a fetch of Maildir source s (source_maildir_new) hands
 * over, and holds: n (at least 1) instead of 16,384. */
void source_maildir_round(struct mail_source *s, size_t n);
/* An IMAP source as configured (imap.* keys), through libetpan. */
struct mail_source *source_imap_new(const struct mail_config *cfg);
/* The source cfg asks for: IMAP when imap.host is set, else maildir.in. */
struct mail_source *source_from_config(const struct mail_config *cfg);

/* Connect / open. Returns 0, or -1 with a reason in err. */
int source_open(struct mail_source *s, struct buf *err);
/* Give every new message to fn (see source_msg_fn). cursor: the value the
 * last commit returned, or NULL. Returns 0, or -1 (reason in err). */
int source_fetch(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg,
    struct buf *err);
/* Mark the accepted messages (seen or deleted). *cursor gets the new
 * cursor (caller frees) or NULL when the source keeps none. Returns 0 or -1.
 * When s->more is set, source_fetch may then be called again with the new
 * cursor (the same connection, the next batch). */
int source_commit(struct mail_source *s, char **cursor, struct buf *err);
/* Close (without committing) and free. NULL-safe. */
void source_free(struct mail_source *s);

#endif
