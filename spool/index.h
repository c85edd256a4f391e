/*
 * index.h — the spool's index of its ledger, in a file beside it
 * (DIR/index), read and written through a cache of a few pages, so that
 * the memory of an open spool does not grow with its history.
 *
 * The file holds, in regions of fixed-size entries: a slot a message
 * received (struct islot), the ledger place of each sent one, and five
 * open-addressed hash tables (32 bits of a key's hash and a position;
 * the keys are not kept: the spool checks a candidate against its record
 * in the ledger). A header says which ledger (its size, mtime, inode and
 * a checksum of its last bytes) the index describes, whether it was
 * closed whole, and where the spool's own state (its counters, cursors,
 * runs and settings: ix_meta) is. The spool decides whether to trust it
 * (spool.c, open_index); the rules that make that safe are here:
 *
 *  - before a process first changes the index, the header is marked
 *    "open" and synced: a crash from then on leaves an index nobody
 *    trusts (it is rebuilt from the ledger);
 *  - ix_commit writes every page back, syncs the file, and only then
 *    writes the header that says it is whole, for a ledger already synced.
 *
 * Used only by spool.c.
 */
#ifndef POUCH_SPOOL_INDEX_H
#define POUCH_SPOOL_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/buf.h"

/* The hash tables. */
enum ix_table { IX_ID, IX_SOURCE, IX_MSGID, IX_OUT_KEY, IX_OUT_MSGID, IX_TABLES };

/*
 * What is kept of an inbound message: where its record is, its state,
 * and its id when it has the form pouch gives ids (TIME.SEQ.pouch).
 */
struct islot {
	uint64_t off;		/* its "in" record's place in the ledger, or
				 * past its end: in pending, not written yet */
	int64_t applied;	/* SPOOL_APPLIED: when */
	int64_t id_time;	/* its id is "ID_TIME.ID_SEQ.pouch"... */
	uint32_t id_seq;
	uint32_t rec_in;	/* spool_entry.rec_in */
	uint8_t id_digits;	/* ...with ID_SEQ written in this many digits;
				 * 0: an id of another form (read from the ledger) */
	uint8_t state;		/* enum spool_state */
};

/* The ledger an index describes. */
struct ix_stamp {
	uint64_t size;
	int64_t mtime_s, mtime_ns;
	uint64_t ino;
	uint32_t tail;		/* checksum of the bytes before size (ix_tail_bytes) */
};

/* Bytes of the ledger before the place an index covers that its stamp sums. */
#define IX_TAIL_BYTES 256
/* Pages the cache holds (of IX_PAGE bytes). */
#define IX_PAGE 4096
#define IX_CACHE_PAGES 256

struct ix;

/* Open (creating when missing) the index file at path. NULL with errno
 * when it cannot be opened or made. */
struct ix *ix_open(const char *path);
/* An index in an unnamed temporary file (the spool's directory cannot be
 * written): never trusted, never committed. NULL with errno. */
struct ix *ix_open_temp(void);
/* NULL when the file holds a whole index, closed by ix_commit: then *st
 * is the ledger it describes and meta its state (appended). Otherwise why
 * not, in words: "" when there is none (a new or empty file). */
const char *ix_whole(struct ix *x, struct ix_stamp *st, struct buf *meta);
/* ix_whole's why for an index a run left unfinished (killed, or a write
 * failed): the usual aftermath of a failure the run already reported. */
extern const char ix_not_whole[];
/* Forget everything: an empty index (the spool then reads the ledger). */
int ix_reset(struct ix *x);
/* The entries in each part. */
size_t ix_count_in(const struct ix *x);
size_t ix_count_out(const struct ix *x);
/* Inbound slot pos (< ix_count_in), into *sl; zeros on a failed read. */
void ix_get_in(struct ix *x, size_t pos, struct islot *sl);
/* Set slot pos (at most ix_count_in: one past adds it). */
void ix_put_in(struct ix *x, size_t pos, const struct islot *sl);
/* The ledger place of sent message pos; add one (at ix_count_out). */
uint64_t ix_get_out(struct ix *x, size_t pos);
void ix_add_out(struct ix *x, uint64_t off);
/* Add position pos under hash h to table t. */
void ix_put(struct ix *x, enum ix_table t, uint32_t h, size_t pos);
/* The next position under hash h in table t: *at SIZE_MAX for the first,
 * then where the last was found. SIZE_MAX when there is none. */
size_t ix_next(struct ix *x, enum ix_table t, uint32_t h, size_t *at);
/* Whether a read or write of the file failed since it was opened (the
 * spool then refuses further work). */
bool ix_failed(const struct ix *x);
/* Whether this process changed the index. */
bool ix_changed(const struct ix *x);
/* Write everything back and sync it, then the header saying the index is
 * whole for the ledger st, with the spool's state meta. 0, or -1/errno;
 * nothing for a temporary file. */
int ix_commit(struct ix *x, const struct ix_stamp *st, const void *meta, size_t len);
/* Close, writing nothing more (an index not committed is not trusted). */
void ix_close(struct ix *x);
/* Bytes the index holds in memory (its cache, at most). */
size_t ix_memory(const struct ix *x);

#endif
