/*
 * outbox.c — the queue of outgoing mail.
 *
 * A message is its bytes in a pack and its state, kept as records in a
 * journal. outbox_add appends the bytes to this process's pack
 * (PACKS/outbox.UNIQUE.pack, PACKS the spool's pack/ as pouch run opens
 * it, one file however many messages a run queues) and makes the state
 * record, which names them ("place PACK:OFFSET"); each process that
 * changes states appends to a journal file of its own (DIR/meta/
 * journal.TIME.PID), and a message's latest record is its state.
 * Nothing is synced yet, and a record that names bytes not yet synced is
 * held in memory (jpend): outbox_sync fsyncs the pack and its directory,
 * then writes those records and fsyncs the journal. So no record on disk
 * ever names bytes a crash could lose, and a written record is the
 * commit point: a message whose record was not written was never queued
 * (its bytes stay in the pack, named by nothing). outbox_flush begins with
 * outbox_sync, so nothing is ever tried before it is safely queued.
 *
 * A queued message costs no file of its own: no create, rename, link or
 * unlink. When it is sent, the spool's "out" record names the same bytes
 * (spool_store_out_at), and they stay where they are as the spool's
 * archive; the outbox only says, by a "gone ID" record, that the message
 * left it. Packs in the outbox's own directory (DIR/pack, when it was not
 * given the spool's) are copied into the archive, and removed once
 * nothing is queued.
 *
 * A message this process queued is held in memory not at all: its record
 * is in one of the journal's fresh segments (a few offsets for all the
 * messages a run queues), and a flush reads them back from the journal,
 * FRESH_READ bytes at a time, after the messages in memory. Of any other
 * message still queued (read from the journals at open, or tried by this
 * process) memory holds only where its latest record is (file, offset,
 * length, and a hash to find it changed): the text is read again when the
 * message is tried, and a message that left the outbox is forgotten at
 * once, so a flush holds at most a batch of the messages this process
 * queued, and 100 to 150 bytes per message of the queue it found at open,
 * whatever their recipients. At the end of a flush the latest
 * state of each message still queued is written again into this
 * process's journal and every older journal is removed (journal_compact):
 * the journals hold the queue, not the history, and a "gone" record and
 * the states before it go together.
 *
 * A flush sends every due message through the sink (one connection),
 * appending its state after each attempt when the sink's word is final at
 * once (SMTP: so a crashed process leaves a true state; durable at the end
 * of the batch). Then:
 *
 *   1. sink_sync: deliveries the sink reported are made durable (for SMTP
 *      the server's 250 is enough); if that fails, they count as not done.
 *      A staged sink's deliveries (Maildir: in tmp/ until sink_sync links
 *      them into new/) are recorded only now, after sink_sync: a process
 *      killed before leaves them pending, and the next flush gives them to
 *      the sink again under the same key (the outbox id), which publishes
 *      what was left in tmp/ and does not deliver twice what reached new/;
 *   2. finished messages (no recipient left waiting) go into the spool's
 *      sent archive under the key "outbox:ID", which the spool stores only
 *      once, and the spool is synced;
 *   3. their permanent failures are written to DIR/failed/ID (synced, when
 *      there are any, before the next step);
 *   4. the finished messages leave the outbox: a "gone" record each,
 *      synced with the batch's states in one fsync of the journal.
 *
 * A crash anywhere leaves each message in the outbox with a state that
 * says what is done, and the next flush finishes it without archiving it
 * twice. A power loss before the end of a batch can forget that a message
 * was sent, and then it is sent again: duplicates, never losses.
 *
 * An older pouch queued each message as a file, DIR/new/ID, with its
 * state in the journal (no "place"): such a message is still read from
 * there, sent, archived by a hard link of the file into the spool's
 * out/new/, and its file removed when it leaves the outbox.
 *
 * State (text, one item per line; free text has control bytes replaced by
 * blanks; in a journal each record starts with "id ID" and ends with an
 * empty line; "gone ID", its sum and an empty line says the message left):
 *	from ADDR
 *	message-id ID
 *	queued TIME
 *	attempts N
 *	next TIME
 *	error TEXT
 *	rcpt pending|sent|failed ADDR CODE TEXT
 *	place PACK:OFFSET
 *	body SIZE SUM
 *	sum SUM
 * "body" describes the message's bytes (SUM: their FNV-1a hash, 64 bits,
 * str_hash_bytes): a message cut short or changed on disk is not sent.
 * "sum" ends a journal record (the low 32 bits of the hash of the record
 * before it): a record changed on
 * disk is passed over, and the message's earlier state counts (states
 * written before these lines existed have neither, and are taken as they
 * are); without an earlier state the message waits for the host
 * (outbox_drop) with a warning at every run.
 */
#define _GNU_SOURCE	/* memmem */
#include "outbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/crash.h"
#include "../lib/fsio.h"
#include "../lib/grow.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/strv.h"
#include "../lib/xalloc.h"
#include "../spool/maildir.h"
#include "address.h"
#include "mime.h"

#define META_MAX (1024 * 1024)
#define MESSAGE_MAX (256u * 1024 * 1024)

enum rstate { R_PENDING, R_SENT, R_FAILED };

struct orcpt {
	char *addr;
	enum rstate st;
	int code;
	char *text;
};

struct meta {
	char *from;
	char *message_id;
	time_t queued;
	int attempts;
	time_t next;
	char *error;
	struct orcpt *r;
	int n;
	size_t size;		/* the message's bytes (when body_sum is set) */
	char body_sum[17];	/* their hash in hex; "" when not known */
	char *place;		/* "PACK:OFFSET": its bytes in a pack; NULL: DIR/new/ID */
};

struct names {
	char **v;
	size_t n;
};

/* A state record of a journal: where it is, not its text, which is read
 * again when needed (meta_read), so that a queue of many messages, each
 * with many recipients, costs only this much memory per message. */
struct jrec {
	char *id;
	uint64_t hash;		/* str_hash_bytes of its bytes, to find a change */
	off_t off;		/* its lines after "id ID", in jfiles[file] */
	uint32_t len;		/* up to the empty line that ends it */
	int file;		/* index in jfiles */
	bool placed;		/* its state has a place: the bytes are in a pack */
	bool gone;		/* a later "gone" record: it left the outbox */
};

/* Records waiting for their pack to be synced are written once they take
 * this much: the pack is synced then, and memory stays bounded. */
#define JPEND_MAX (256 * 1024)
/* A batch of records (journal_batch_begin) is written when it reaches this. */
#define JBATCH_MAX (256 * 1024)
/* The records outbox_add wrote are read back (fresh_each) this much at a
 * time. */
#define FRESH_READ (256 * 1024)

/* Where in this process's journal records of messages outbox_add queued
 * are, one after the other, with no other record among them: such a
 * message has no entry in memory (jv) until a flush or outbox_drop takes
 * it up, so that a run that queues many holds none of them. */
struct fseg {
	int file;			/* index in jfiles */
	off_t start, end;
};

struct outbox {
	char *dir;
	char *meta_dir;
	char *failed_dir;
	struct jrec *jv;		/* the latest journal record of each message */
	size_t njv, capjv;
	size_t *jidx;			/* jv by id: open addressing, position + 1, 0: empty */
	size_t capjidx;			/* a power of two, more than twice njv; 0: none yet */
	char **jfiles;			/* journal file paths (NULL once removed) */
	size_t njfiles;
	int jfd;			/* this process's journal, or -1 */
	int jfile;			/* its index in jfiles */
	off_t jend;			/* its size so far */
	int rfd;			/* the journal file last read, or -1 */
	int rfile;			/* its index in jfiles */
	bool jdirty;			/* appended to since the last sync */
	bool jnew;			/* made since the last sync: sync meta/ */
	struct buf jpend;		/* outbox_add's records: their bytes are not yet synced */
	struct buf jbatch;		/* records appended while batching, not yet written */
	bool batching;			/* journal_batch_begin .. _end */
	struct fseg *fresh;		/* outbox_add's records written, not in jv */
	size_t nfresh, capfresh;
	struct jrec seen;		/* the record fresh_each hands out, whose */
	const char *seen_raw;		/* bytes it holds here (NULL: none) */
	char *pack_dir;			/* where queued messages' bytes go */
	bool pack_shared;		/* the spool's pack/: archived where they are */
	bool pack_dir_made;		/* made by this process: sync its parent */
	int pfd;			/* this process's pack, or -1 */
	char pack_name[64];
	uint64_t pack_len;
	bool pack_dirty;		/* written since the last sync */
	bool pack_new;			/* made since the last sync: sync pack_dir */
	int rpfd;			/* the pack last read, or -1 */
	char rpname[64];
	struct names new_files;		/* state and failure files not yet fsync'd */
	bool broken;			/* a write failed: nothing more is recorded */
};

/* After a failed write (a full disk) the journal may end in a torn
 * record, and a message may be missing from what the judge queued: no
 * record is appended after it and nothing is synced, so the run commits
 * nothing, and the next process reads only whole records. */
static int
refuse_broken(const struct outbox *ob, struct buf *err)
{
	if (!ob->broken)
		return 0;
	buf_printf(err, "%s: an earlier write failed; nothing more is queued or recorded\n", ob->dir);
	return -1;
}

static void
names_add(struct names *l, const char *s)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(s);
}

static void
names_clear(struct names *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* A copy of s on one line (control bytes made blanks), or "" for NULL. */
static char *
one_line(const char *s)
{
	char *c = xstrdup(s ? s : ""), *p;

	for (p = c; *p; p++)
		if ((unsigned char)*p < 32)
			*p = ' ';
	return c;
}

static void
meta_free(struct meta *m)
{
	int i;

	free(m->from);
	free(m->message_id);
	free(m->error);
	free(m->place);
	for (i = 0; i < m->n; i++) {
		free(m->r[i].addr);
		free(m->r[i].text);
	}
	free(m->r);
	memset(m, 0, sizeof *m);
}

static void
add_rcpt(struct meta *m, const char *addr, enum rstate st, int code, const char *text)
{
	m->r = xreallocarray(m->r, (size_t)m->n + 1, sizeof *m->r);
	m->r[m->n].addr = xstrdup(addr);
	m->r[m->n].st = st;
	m->r[m->n].code = code;
	m->r[m->n].text = one_line(text);
	m->n++;
}

/* The "body" hash of a message's bytes, in hex. */
static void
body_sum(const char *data, size_t len, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)str_hash_bytes(data, len));
}

/* Replace path with data by a rename, not synced: outbox_sync makes it
 * durable (the path is remembered in ob->new_files). Returns 0 or -1. */
static int
replace_file(struct outbox *ob, const char *path, const struct buf *data, struct buf *err)
{
	char tmp[PATH_MAX];
	int fd, closed = 0;

	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	crash_point();
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data->data, data->len) != (ssize_t)data->len ||
	    (closed = 1, close(fd)) < 0 || rename(tmp, path) < 0) {
		buf_printf(err, "%s: cannot write: %s\n", path, strerror(errno));
		if (fd >= 0 && !closed)
			close(fd);
		if (fd >= 0)
			unlink(tmp);	/* fails too on a read-only file system */
		return -1;
	}
	names_add(&ob->new_files, path);
	return 0;
}

/* Append the state m as text. */
static void
meta_text(const struct meta *m, struct buf *b)
{
	static const char *const names[] = { "pending", "sent", "failed" };
	int i;

	buf_printf(b, "from %s\n", m->from);
	if (m->message_id)
		buf_printf(b, "message-id %s\n", m->message_id);
	buf_printf(b, "queued %lld\nattempts %d\nnext %lld\n", (long long)m->queued, m->attempts,
	    (long long)m->next);
	if (m->error)
		buf_printf(b, "error %s\n", m->error);
	for (i = 0; i < m->n; i++)
		buf_printf(b, "rcpt %s %s %d %s\n", names[m->r[i].st], m->r[i].addr, m->r[i].code,
		    m->r[i].text);
	if (m->place)
		buf_printf(b, "place %s\n", m->place);
	if (m->body_sum[0])
		buf_printf(b, "body %zu %s\n", m->size, m->body_sum);
}

/* Split "word rest" in place: returns rest ("" when none). */
static char *
split1(char *s)
{
	char *sp = strchr(s, ' ');

	if (sp == NULL)
		return s + strlen(s);
	*sp = '\0';
	return sp + 1;
}

/* The slot of id in the index: the one holding it, or the empty one where
 * it would go. The index must exist. */
static size_t
journal_slot(const struct outbox *ob, const char *id)
{
	size_t mask = ob->capjidx - 1, h = (size_t)str_hash(id) & mask;

	while (ob->jidx[h] != 0 && strcmp(ob->jv[ob->jidx[h] - 1].id, id) != 0)
		h = (h + 1) & mask;
	return h;
}

/* Make the index anew, with room for at least want records. */
static void
journal_reindex(struct outbox *ob, size_t want)
{
	size_t i, cap = 64;

	while (cap < 2 * want + 2)
		cap *= 2;
	free(ob->jidx);
	ob->jidx = xcalloc(cap, sizeof *ob->jidx);
	ob->capjidx = cap;
	for (i = 0; i < ob->njv; i++)
		ob->jidx[journal_slot(ob, ob->jv[i].id)] = i + 1;
}

/* The latest journal record of id, or NULL. */
static const struct jrec *
journal_find(const struct outbox *ob, const char *id)
{
	size_t h;

	if (ob->capjidx == 0)
		return NULL;
	h = journal_slot(ob, id);
	return ob->jidx[h] ? &ob->jv[ob->jidx[h] - 1] : NULL;
}

/* Is there a state for id in memory (not one that left the outbox)? */
static bool
meta_known(const struct outbox *ob, const char *id)
{
	const struct jrec *jr = journal_find(ob, id);

	return jr != NULL && !jr->gone;
}

/* Read state text (name is for messages). Returns 0 or -1 (err). */
static int
meta_parse(const char *text, size_t len, const char *name, struct meta *m, struct buf *err)
{
	const char *p = text, *end = text + len, *line;
	size_t n;
	long v;

	memset(m, 0, sizeof *m);
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char *l = xstrndup(line, n), *rest = split1(l);

		if (strcmp(l, "from") == 0)
			m->from = xstrdup(rest);
		else if (strcmp(l, "message-id") == 0)
			m->message_id = xstrdup(rest);
		else if (strcmp(l, "queued") == 0 && str_to_long(rest, LONG_MIN, LONG_MAX, &v) == 0)
			m->queued = (time_t)v;
		else if (strcmp(l, "attempts") == 0 && str_to_long(rest, 0, INT_MAX, &v) == 0)
			m->attempts = (int)v;
		else if (strcmp(l, "next") == 0 && str_to_long(rest, LONG_MIN, LONG_MAX, &v) == 0)
			m->next = (time_t)v;
		else if (strcmp(l, "error") == 0)
			m->error = xstrdup(rest);
		else if (strcmp(l, "rcpt") == 0) {
			char *addr = split1(rest), *code = split1(addr), *rtext = split1(code);
			enum rstate st = strcmp(rest, "sent") == 0 ? R_SENT :
			    strcmp(rest, "failed") == 0 ? R_FAILED : R_PENDING;
			if (str_to_long(code, 0, 999, &v) < 0)
				v = 0;
			add_rcpt(m, addr, st, (int)v, rtext);
		} else if (strcmp(l, "place") == 0 && strchr(rest, ':') != NULL &&
		    strchr(rest, '/') == NULL && rest[0] != '.') {
			free(m->place);
			m->place = xstrdup(rest);
		} else if (strcmp(l, "body") == 0) {
			char *sum = split1(rest);
			if (str_to_long(rest, 0, LONG_MAX, &v) == 0 && strlen(sum) == 16) {
				m->size = (size_t)v;
				str_copy(m->body_sum, sum, sizeof m->body_sum);
			}
		}
		free(l);
	}
	if (m->from == NULL || m->n == 0) {
		buf_printf(err, "%s: damaged (no sender or no recipient)\n", name);
		meta_free(m);
		return -1;
	}
	return 0;
}

/* The lines of a journal record between its "id" line and the empty line
 * that ends it, [p, end): the state's lines into text, its first "sum"
 * line's value into sum ("" when none). */
static void
record_text(const char *p, const char *end, struct buf *text, char sum[16])
{
	const char *line;
	size_t n;

	buf_reset(text);
	sum[0] = '\0';
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		if (n > 4 && memcmp(line, "sum ", 4) == 0 && sum[0] == '\0') {
			snprintf(sum, 16, "%.*s", (int)(n - 4), line + 4);
		} else {
			buf_append(text, line, n);
			buf_putc(text, '\n');
		}
	}
}

static bool record_sum_ok(const char *id, const struct buf *text, const char *sum);

static int journal_flush(struct outbox *ob, struct buf *err);

/* A read descriptor for journal file file: this process's own, or one
 * kept open for the next read. -1 (errno) when it cannot be opened. */
static int
journal_fd(struct outbox *ob, int file)
{
	if (file == ob->jfile && ob->jfd >= 0) {
		struct buf err;
		int r;
		buf_init(&err, 1024);
		r = journal_flush(ob, &err);	/* what is read is written */
		buf_free(&err);
		if (r < 0)
			return -1;
		return ob->jfd;
	}
	if (ob->rfd >= 0 && ob->rfile == file)
		return ob->rfd;
	if (ob->rfd >= 0)
		close(ob->rfd);
	ob->rfd = open(ob->jfiles[file], O_RDONLY | O_CLOEXEC);
	ob->rfile = file;
	return ob->rfd;
}

/* The state text of record jr, read again from its journal file and
 * checked against what was read before. Returns 0 or -1 (err). */
static int
journal_text(struct outbox *ob, const struct jrec *jr, struct buf *text, struct buf *err)
{
	const char *path = jr->file >= 0 && ob->jfiles[jr->file] ? ob->jfiles[jr->file] : NULL;
	char *raw, sum[16];
	int fd;
	ssize_t got;

	if (ob->seen_raw != NULL && jr->file == ob->seen.file && jr->off == ob->seen.off &&
	    jr->len == ob->seen.len) {	/* read already, by fresh_each */
		raw = xmalloc((size_t)jr->len + 1);
		memcpy(raw, ob->seen_raw, jr->len);
		got = (ssize_t)jr->len;
		goto check;
	}
	fd = path ? journal_fd(ob, jr->file) : -1;

	if (fd < 0) {
		buf_printf(err, "%s: cannot read: %s\n", path ? path : ob->meta_dir,
		    path ? strerror(errno) : "the journal is gone");
		return -1;
	}
	raw = xmalloc((size_t)jr->len + 1);
	got = pread(fd, raw, jr->len, jr->off);
check:
	if (got != (ssize_t)jr->len || str_hash_bytes(raw, jr->len) != jr->hash) {
		buf_printf(err, "%s: the state of %s %s\n", path, jr->id, got < 0 ?
		    strerror(errno) : "changed since it was read");
		free(raw);
		return -1;
	}
	record_text(raw, raw + jr->len, text, sum);
	free(raw);
	if (sum[0] && !record_sum_ok(jr->id, text, sum)) {
		buf_printf(err, "%s: the state of %s is damaged\n", path, jr->id);
		return -1;
	}
	return 0;
}

/* The state of record jr (NULL: none, for id). Returns 0 or -1 (err). */
static int
meta_read_rec(struct outbox *ob, const struct jrec *jr, const char *id, struct meta *m,
    struct buf *err)
{
	struct buf text;
	int r;

	memset(m, 0, sizeof *m);
	if (jr == NULL) {
		buf_printf(err, "%s: no state for %s\n", ob->meta_dir, id);
		return -1;
	}
	buf_init(&text, META_MAX);
	r = journal_text(ob, jr, &text, err);
	if (r == 0)
		r = meta_parse(text.data, text.len, jr->file >= 0 ? ob->jfiles[jr->file] : ob->meta_dir,
		    m, err);
	buf_free(&text);
	return r;
}

static int
meta_read(struct outbox *ob, const char *id, struct meta *m, struct buf *err)
{
	return meta_read_rec(ob, journal_find(ob, id), id, m, err);
}

/* The record of id in memory is now src (but for its id, which is
 * copied): it replaces the record before (only the latest counts). */
static void
journal_set(struct outbox *ob, const char *id, const struct jrec *src)
{
	struct jrec *jr;
	size_t h;

	if (2 * (ob->njv + 1) >= ob->capjidx)
		journal_reindex(ob, ob->njv + 1);
	h = journal_slot(ob, id);
	if (ob->jidx[h] != 0) {
		jr = &ob->jv[ob->jidx[h] - 1];
	} else {
		GROW(ob->jv, ob->njv, ob->capjv);
		jr = &ob->jv[ob->njv];
		jr->id = xstrdup(id);
		ob->jidx[h] = ++ob->njv;
	}
	jr->file = src->file;
	jr->off = src->off;
	jr->len = src->len;
	jr->hash = src->hash;
	jr->placed = src->placed;
	jr->gone = src->gone;
}

/* The record at [off, off + len) of journal file file (raw: its bytes
 * there), without its id. */
static struct jrec
jrec_of(int file, off_t off, const char *raw, size_t len)
{
	struct jrec jr;

	jr.id = NULL;
	jr.file = file;
	jr.off = off;
	jr.len = (uint32_t)len;
	jr.hash = str_hash_bytes(raw, len);
	jr.placed = memmem(raw, len, "\nplace ", 7) != NULL;
	jr.gone = false;
	return jr;
}

/* id's state is now the record at [off, off + len) of journal file file
 * (raw: its bytes there). */
static void
journal_add(struct outbox *ob, const char *id, int file, off_t off, const char *raw, size_t len)
{
	struct jrec jr = jrec_of(file, off, raw, len);

	journal_set(ob, id, &jr);
}

static int
journal_file_add(struct outbox *ob, const char *path)
{
	ob->jfiles = xreallocarray(ob->jfiles, ob->njfiles + 1, sizeof *ob->jfiles);
	ob->jfiles[ob->njfiles] = xstrdup(path);
	return (int)ob->njfiles++;
}

/* This process's journal, made when first needed. Returns 0 or -1 (err). */
static int
journal_open(struct outbox *ob, struct buf *err)
{
	struct timespec ts;
	char *path;

	if (ob->jfd >= 0)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	path = xasprintf("%s/journal.%020lld.%ld", ob->meta_dir,
	    (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, (long)getpid());
	crash_point();
	ob->jfd = open(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (ob->jfd < 0) {
		ob->broken = true;
		buf_printf(err, "%s: cannot write: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	ob->jfile = journal_file_add(ob, path);
	ob->jend = 0;
	ob->jdirty = false;
	ob->jnew = true;
	free(path);
	return 0;
}

/* Write the records a batch holds, in one write. Returns 0 or -1 (err). */
static int
journal_flush(struct outbox *ob, struct buf *err)
{
	if (ob->jbatch.len == 0)
		return 0;
	if (fs_write_all(ob->jfd, ob->jbatch.data, ob->jbatch.len) < 0) {
		ob->broken = true;
		buf_printf(err, "%s: cannot write: %s\n", ob->jfiles[ob->jfile], strerror(errno));
		buf_reset(&ob->jbatch);
		return -1;
	}
	buf_reset(&ob->jbatch);
	return 0;
}

/* From here to journal_batch_end, records are appended to the journal in
 * writes of up to JBATCH_MAX bytes, not one each: a state or a "gone" per
 * message sent. Unsynced either way, they count only from the next
 * outbox_sync; a process killed in between loses them as it would lose
 * them unsynced (the ledger says what was sent). Whatever reads the journal
 * (journal_fd) or syncs it writes them first. */
static void
journal_batch_begin(struct outbox *ob)
{
	ob->batching = true;
}

/* Write what the batch holds and stop batching. Returns 0 or -1 (err). */
static int
journal_batch_end(struct outbox *ob, struct buf *err)
{
	ob->batching = false;
	return journal_flush(ob, err);
}

/* Append rec (whole records) to this process's journal in one write (or
 * to the batch, written whole): a killed process leaves whole records.
 * Returns 0 or -1 (err). */
static int
journal_append(struct outbox *ob, const char *rec, size_t len, struct buf *err)
{
	if (journal_open(ob, err) < 0)
		return -1;
	if (ob->batching && len <= JBATCH_MAX) {
		if (ob->jbatch.len + len > JBATCH_MAX && journal_flush(ob, err) < 0)
			return -1;
		buf_append(&ob->jbatch, rec, len);
	} else if (journal_flush(ob, err) < 0) {
		return -1;
	} else if (fs_write_all(ob->jfd, rec, len) < 0) {
		ob->broken = true;
		buf_printf(err, "%s: cannot write: %s\n", ob->jfiles[ob->jfile], strerror(errno));
		return -1;
	}
	ob->jend += (off_t)len;
	if (!ob->jdirty) {
		names_add(&ob->new_files, ob->jfiles[ob->jfile]);
		ob->jdirty = true;
	}
	return 0;
}

/* The pack's bytes, then its name, durable: before any record that names
 * them is written. Returns 0 or -1 (err). */
static int
pack_sync(struct outbox *ob, struct buf *err)
{
	char parent[PATH_MAX], *slash;

	if (!ob->pack_dirty)
		return 0;
	crash_point();
	if (fsync(ob->pfd) < 0 || (ob->pack_new && fs_fsync_dir(ob->pack_dir) < 0))
		goto fail;
	if (ob->pack_new && ob->pack_dir_made) {
		str_copy(parent, ob->pack_dir, sizeof parent);
		if ((slash = strrchr(parent, '/')) != NULL && slash != parent)
			*slash = '\0';
		if (fs_fsync_dir(parent) < 0)
			goto fail;
		ob->pack_dir_made = false;
	}
	ob->pack_dirty = ob->pack_new = false;
	return 0;
fail:
	ob->broken = true;
	buf_printf(err, "%s/%s: cannot sync: %s\n", ob->pack_dir, ob->pack_name, strerror(errno));
	return -1;
}

/* Write the records that waited for the pack (pack_sync first): a fresh
 * segment of the journal. Returns 0 or -1 (err). */
static int
pending_write(struct outbox *ob, struct buf *err)
{
	struct fseg *last;

	if (ob->jpend.len == 0)
		return 0;
	if (pack_sync(ob, err) < 0 || journal_append(ob, ob->jpend.data, ob->jpend.len, err) < 0)
		return -1;
	last = ob->nfresh > 0 ? &ob->fresh[ob->nfresh - 1] : NULL;
	if (last != NULL && last->file == ob->jfile && last->end == ob->jend - (off_t)ob->jpend.len) {
		last->end = ob->jend;
	} else {
		GROW(ob->fresh, ob->nfresh, ob->capfresh);
		ob->fresh[ob->nfresh].file = ob->jfile;
		ob->fresh[ob->nfresh].start = ob->jend - (off_t)ob->jpend.len;
		ob->fresh[ob->nfresh++].end = ob->jend;
	}
	buf_reset(&ob->jpend);
	return 0;
}

/* A journal record of id with the state text into rec (its head, "id
 * ID", before *head bytes). Returns 0, or -1 when it is too long. */
static int
record_make(struct buf *rec, const char *id, const struct buf *text, size_t *head)
{
	buf_reset(rec);
	buf_printf(rec, "id %s\n", id);
	*head = rec->len;
	buf_append(rec, text->data, text->len);
	buf_printf(rec, "sum %08x\n\n", (unsigned)(str_hash_bytes(rec->data, rec->len) & 0xffffffffu));
	return buf_failed(rec) ? -1 : 0;
}

/* Record m as the state of id. A new message's (fresh: outbox_add's)
 * names bytes not yet synced: it waits in jpend until they are, and is
 * not held in jv. Any other is appended to this process's journal (made
 * durable by outbox_sync), after what waits in jpend (the pack synced
 * first). Returns 0 or -1 (err). */
static int
meta_write(struct outbox *ob, const char *id, const struct meta *m, bool fresh, struct buf *err)
{
	struct buf t, rec;
	size_t head;
	int r = 0;

	if (refuse_broken(ob, err) < 0)
		return -1;
	buf_init(&t, META_MAX);
	buf_init(&rec, META_MAX + 256);
	meta_text(m, &t);
	if (record_make(&rec, id, &t, &head) < 0) {
		buf_printf(err, "%s: the state of %s not written: longer than a record may be\n",
		    ob->meta_dir, id);
		r = -1;
	} else if (fresh) {
		buf_append(&ob->jpend, rec.data, rec.len);
		if (ob->jpend.len >= JPEND_MAX)
			r = pending_write(ob, err);
	} else if ((r = pending_write(ob, err)) == 0 &&
	    (r = journal_append(ob, rec.data, rec.len, err)) == 0) {
		journal_add(ob, id, ob->jfile, ob->jend - (off_t)rec.len + (off_t)head, t.data, t.len);
	}
	buf_free(&t);
	buf_free(&rec);
	return r;
}

/* Call fn with each record of the fresh segments whose message has no
 * record in memory (a later state, or a "gone" by outbox_drop), in the
 * order written, read FRESH_READ bytes at a time; fn may append to the
 * journal, not change the segments. Stops at fn's first nonzero return.
 * Returns 0, fn's value, or -1 (err) when the journal cannot be read. */
static int
fresh_each(struct outbox *ob, int (*fn)(struct outbox *ob, const struct jrec *jr, void *arg),
    void *arg, struct buf *err)
{
	struct buf win;
	size_t s;
	int r = 0;

	buf_init(&win, FRESH_READ + META_MAX + 1024);
	for (s = 0; s < ob->nfresh && r == 0; s++) {
		const struct fseg sg = ob->fresh[s];
		off_t at = sg.start;	/* the file's offset of win.data[0] */
		size_t used = 0;

		buf_reset(&win);
		while (r == 0) {
			const char *p = win.data + used, *end, *nl;
			end = win.len > used ? memmem(p, win.len - used, "\n\n", 2) : NULL;
			if (end == NULL) {
				off_t from = at + (off_t)win.len;
				size_t want = sg.end - from < FRESH_READ ? (size_t)(sg.end - from) : FRESH_READ;
				char *chunk;
				ssize_t got;
				int fd;
				if (want == 0)
					break;	/* the segment's end */
				if (used > 0) {	/* (win.data is NULL until the first read) */
					memmove(win.data, win.data + used, win.len - used);
					buf_truncate(&win, win.len - used);
				}
				at += (off_t)used;
				used = 0;
				chunk = xmalloc(want);
				fd = journal_fd(ob, sg.file);
				got = fd < 0 ? -1 : pread(fd, chunk, want, from);
				if (got <= 0 || buf_append(&win, chunk, (size_t)got) < 0) {
					buf_printf(err, "%s: cannot read: %s\n", ob->jfiles[sg.file],
					    got < 0 ? strerror(errno) : "cut short");
					free(chunk);
					r = -1;
					break;
				}
				free(chunk);
				continue;
			}
			nl = memchr(p, '\n', (size_t)(end - p) + 1);
			if (nl - p > 3 && (size_t)(nl - p) - 3 < 128 && memcmp(p, "id ", 3) == 0) {
				char id[128];
				struct jrec jr;
				memcpy(id, p + 3, (size_t)(nl - p) - 3);
				id[nl - p - 3] = '\0';
				jr = jrec_of(sg.file, at + (nl + 1 - win.data), nl + 1,
				    (size_t)(end + 1 - (nl + 1)));
				jr.id = id;
				if (journal_find(ob, id) == NULL) {
					ob->seen = jr;
					ob->seen_raw = nl + 1;
					r = fn(ob, &jr, arg);
					ob->seen_raw = NULL;
				}
			}
			used = (size_t)(end + 2 - win.data);
		}
	}
	buf_free(&win);
	return r;
}

static int
fresh_count_one(struct outbox *ob, const struct jrec *jr, void *arg)
{
	(void)ob;
	(void)jr;
	(*(size_t *)arg)++;
	return 0;
}

/* The record that says message id left the outbox ("gone ID", its sum). */
static int
gone_write(struct outbox *ob, const char *id, struct buf *err)
{
	struct buf rec;
	int r;

	if (refuse_broken(ob, err) < 0 || pending_write(ob, err) < 0)
		return -1;
	buf_init(&rec, 4096);
	buf_printf(&rec, "gone %s\n", id);
	buf_printf(&rec, "sum %08x\n\n", (unsigned)(str_hash_bytes(rec.data, rec.len) & 0xffffffffu));
	r = journal_append(ob, rec.data, rec.len, err);
	buf_free(&rec);
	return r;
}

/* Append len bytes of a message to this process's pack (made when first
 * needed), not synced; its place ("NAME:OFFSET") into place. Returns 0
 * or -1 (err; the outbox is broken). */
static int
pack_put(struct outbox *ob, const char *data, size_t len, char *place, size_t size,
    struct buf *err)
{
	char path[PATH_MAX];

	if (ob->pfd < 0) {
		char u[48], *dot;
		md_unique_name(u, sizeof u);
		if ((dot = strstr(u, ".pouch")) != NULL)
			*dot = '\0';
		snprintf(ob->pack_name, sizeof ob->pack_name, "outbox.%s.pack", u);
		if (!fs_exists(ob->pack_dir)) {
			if (fs_mkdir_p(ob->pack_dir, 0700) < 0)
				goto fail;
			ob->pack_dir_made = true;
		}
		snprintf(path, sizeof path, "%s/%s", ob->pack_dir, ob->pack_name);
		crash_point();
		ob->pfd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
		if (ob->pfd < 0)
			goto fail;
		ob->pack_len = 0;
		ob->pack_new = true;
	}
	ob->pack_dirty = true;
	if (fs_write_all(ob->pfd, data, len) < 0)
		goto fail;
	snprintf(place, size, "%s:%llu", ob->pack_name, (unsigned long long)ob->pack_len);
	ob->pack_len += len;
	return 0;
fail:
	/* part of it may be written: the places after it would be wrong */
	ob->broken = true;
	buf_printf(err, "%s/%s: cannot queue a message: %s\n", ob->pack_dir, ob->pack_name,
	    strerror(errno));
	return -1;
}

/* The bytes of a message at place in the outbox's packs into out.
 * Returns 0 or -1 (errno). */
static int
pack_read(struct outbox *ob, const char *place, size_t size, struct buf *out)
{
	const char *colon = strrchr(place, ':');
	char name[64], path[PATH_MAX], chunk[8192];
	unsigned long long at;
	size_t done = 0;
	char *end;

	if (colon == NULL || (size_t)(colon - place) >= sizeof name) {
		errno = EINVAL;
		return -1;
	}
	memcpy(name, place, (size_t)(colon - place));
	name[colon - place] = '\0';
	errno = 0;
	at = strtoull(colon + 1, &end, 10);
	if (*end != '\0' || errno != 0) {
		errno = EINVAL;
		return -1;
	}
	if (ob->rpfd < 0 || strcmp(ob->rpname, name) != 0) {
		if (ob->rpfd >= 0)
			close(ob->rpfd);
		snprintf(path, sizeof path, "%s/%s", ob->pack_dir, name);
		if ((ob->rpfd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
		str_copy(ob->rpname, name, sizeof ob->rpname);
	}
	buf_reset(out);
	while (done < size) {
		size_t want = size - done < sizeof chunk ? size - done : sizeof chunk;
		ssize_t r = pread(ob->rpfd, chunk, want, (off_t)(at + done));
		if (r <= 0 || buf_append(out, chunk, (size_t)r) < 0) {
			if (r == 0)
				break;	/* shorter: the body check says so */
			return -1;
		}
		done += (size_t)r;
	}
	return 0;
}

static int
str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether sum is the hash of the record "id ID\n" + text. */
static bool
record_sum_ok(const char *id, const struct buf *text, const char *sum)
{
	struct buf b;
	char want[16];

	buf_init(&b, META_MAX + 256);
	buf_printf(&b, "id %s\n", id);
	buf_append(&b, text->data, text->len);
	snprintf(want, sizeof want, "%08x", (unsigned)(str_hash_bytes(b.data, b.len) & 0xffffffffu));
	buf_free(&b);
	return strcmp(want, sum) == 0;
}

/* Whether sum is the hash of the record "gone ID\n". */
static bool
gone_sum_ok(const char *id, const char *sum)
{
	char b[160], want[16];
	int n = snprintf(b, sizeof b, "gone %s\n", id);

	snprintf(want, sizeof want, "%08x",
	    (unsigned)(str_hash_bytes(b, (size_t)n) & 0xffffffffu));
	return strcmp(want, sum) == 0;
}

/* Message id left the outbox (a "gone" record): its state no longer counts. */
static void
journal_gone(struct outbox *ob, const char *id)
{
	const struct jrec *jr = journal_find(ob, id);

	if (jr != NULL)
		ob->jv[jr - ob->jv].gone = true;
}

/* Forget the messages that left the outbox: what is held is the queue. */
static void
journal_drop_gone(struct outbox *ob)
{
	size_t k, kept;

	for (k = kept = 0; k < ob->njv; k++) {
		/* while fresh records are unread, the "gone" of one of them
		 * stays to say so */
		if (ob->jv[k].gone && ob->nfresh == 0)
			free(ob->jv[k].id);
		else
			ob->jv[kept++] = ob->jv[k];
	}
	if (kept != ob->njv) {
		ob->njv = kept;
		journal_reindex(ob, ob->njv);
	}
}

/* Read the journals in the state directory. Returns 0 or -1 (err). */
static int
journal_load(struct outbox *ob, struct buf *err)
{
	DIR *d = opendir(ob->meta_dir);
	struct dirent *e;
	struct buf b, rec;
	char **names = NULL;
	size_t nn = 0, k;
	int rc = 0;

	if (d == NULL) {
		buf_printf(err, "%s: %s\n", ob->meta_dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "journal.", 8) == 0) {
			names = xreallocarray(names, nn + 1, sizeof *names);
			names[nn++] = xstrdup(e->d_name);
		}
	closedir(d);
	/* Oldest first: a later record of a message wins. */
	if (nn > 1)
		qsort(names, nn, sizeof *names, str_cmp);
	buf_init(&b, 256u << 20);
	buf_init(&rec, META_MAX);
	for (k = 0; k < nn && rc == 0; k++) {
		char *path = xasprintf("%s/%s", ob->meta_dir, names[k]), id[128] = "", sum[16];
		const char *p, *end, *line, *start = NULL;
		size_t n;
		int file, lineno = 0;
		bool gone = false;

		buf_reset(&b);
		if (fs_read_file(path, &b) < 0) {
			buf_printf(err, "%s: cannot read: %s\n", path, strerror(errno));
			free(path);
			rc = -1;
			break;
		}
		file = journal_file_add(ob, path);
		free(path);
		p = buf_str(&b);
		end = p + b.len;
		/* A record counts once its empty line is there, and when its
		 * sum matches. */
		while ((line = str_next_line(&p, end, &n)) != NULL) {
			lineno++;
			if (n > 3 && memcmp(line, "id ", 3) == 0 && n - 3 < sizeof id) {
				memcpy(id, line + 3, n - 3);
				id[n - 3] = '\0';
				start = p;
				gone = false;
			} else if (n > 5 && memcmp(line, "gone ", 5) == 0 && n - 5 < sizeof id) {
				memcpy(id, line + 5, n - 5);
				id[n - 5] = '\0';
				start = p;
				gone = true;
			} else if (n == 0) {
				if (id[0] && gone && (p <= end) && p[-1] == '\n') {
					record_text(start, line, &rec, sum);
					if (gone_sum_ok(id, sum))
						journal_gone(ob, id);
					else
						log_warn("%s:%d: damaged record of %s, passed over", ob->jfiles[file],
						    lineno - 1, id);
				} else if (id[0] && (p <= end) && p[-1] == '\n') {
					record_text(start, line, &rec, sum);
					bool ok = !sum[0] || record_sum_ok(id, &rec, sum);
					if (!ok)
						log_warn("%s:%d: damaged record of %s, passed over (its earlier "
						    "state counts)", ob->jfiles[file], lineno - 1, id);
					/* Without an earlier state, the damaged one is kept (it
					 * reads as damaged): the message waits for the host. */
					if (ok || journal_find(ob, id) == NULL)
						journal_add(ob, id, file, (off_t)(start - b.data), start,
						    (size_t)(line - start));
				}
				id[0] = '\0';
			}
		}
	}
	for (k = 0; k < nn; k++)
		free(names[k]);
	free(names);
	buf_free(&b);
	buf_free(&rec);
	journal_drop_gone(ob);
	return rc;
}

struct outbox *
outbox_open(const char *dir, const char *pack_dir, struct buf *err)
{
	struct outbox *ob = xcalloc(1, sizeof *ob);

	ob->dir = xstrdup(dir);
	ob->meta_dir = xasprintf("%s/meta", dir);
	ob->failed_dir = xasprintf("%s/failed", dir);
	ob->pack_dir = pack_dir ? xstrdup(pack_dir) : xasprintf("%s/pack", dir);
	ob->pack_shared = pack_dir != NULL;
	ob->jfd = -1;
	ob->jfile = -1;
	ob->rfd = -1;
	ob->pfd = -1;
	ob->rpfd = -1;
	buf_init(&ob->jpend, JPEND_MAX + META_MAX + 512);
	buf_init(&ob->jbatch, JBATCH_MAX + 1);
	if (md_create(dir) < 0 || fs_mkdir_p(ob->meta_dir, 0700) < 0 ||
	    fs_mkdir_p(ob->failed_dir, 0700) < 0) {
		buf_printf(err, "%s: cannot create the outbox: %s\n", dir, strerror(errno));
		outbox_close(ob);
		return NULL;
	}
	md_clean_tmp(dir);
	if (journal_load(ob, err) < 0) {
		outbox_close(ob);
		return NULL;
	}
	return ob;
}

void
outbox_close(struct outbox *ob)
{
	if (ob == NULL)
		return;
	names_clear(&ob->new_files);
	if (ob->jfd >= 0 && ob->jbatch.len > 0 && !ob->broken)
		(void)fs_write_all(ob->jfd, ob->jbatch.data, ob->jbatch.len);	/* as written */
	buf_free(&ob->jbatch);
	buf_free(&ob->jpend);
	free(ob->fresh);
	if (ob->pfd >= 0)
		close(ob->pfd);
	if (ob->rpfd >= 0)
		close(ob->rpfd);
	free(ob->pack_dir);
	for (size_t i = 0; i < ob->njv; i++)
		free(ob->jv[i].id);
	free(ob->jv);
	free(ob->jidx);
	for (size_t i = 0; i < ob->njfiles; i++)
		free(ob->jfiles[i]);
	free(ob->jfiles);
	if (ob->jfd >= 0)
		close(ob->jfd);
	if (ob->rfd >= 0)
		close(ob->rfd);
	free(ob->dir);
	free(ob->meta_dir);
	free(ob->failed_dir);
	free(ob);
}

int
outbox_add(struct outbox *ob, const char *from, char *const *rcpts, int n, const char *data,
    size_t len, time_t now, char **id, struct buf *err)
{
	struct meta m;
	char name[128], place[128];
	int i;

	if (id)
		*id = NULL;
	if (!addr_valid(from)) {
		buf_printf(err, "outbox: invalid sender \"%.80s\"\n", from);
		return -1;
	}
	if (n < 1 || n > OUTBOX_MAX_RCPTS) {
		buf_printf(err, "outbox: %d recipients (1 to %d allowed)\n", n, OUTBOX_MAX_RCPTS);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!addr_valid(rcpts[i])) {
			buf_printf(err, "outbox: invalid recipient \"%.80s\"\n", rcpts[i]);
			return -1;
		}
	if (refuse_broken(ob, err) < 0 || pack_put(ob, data, len, place, sizeof place, err) < 0)
		return -1;
	memset(&m, 0, sizeof m);
	m.from = xstrdup(from);
	m.message_id = mime_message_id(data, len);
	m.queued = now;
	m.next = now;
	m.size = len;
	m.place = xstrdup(place);
	body_sum(data, len, m.body_sum);
	for (i = 0; i < n; i++)
		add_rcpt(&m, rcpts[i], R_PENDING, 0, "");
	md_unique_name(name, sizeof name);
	/* The record names the bytes: it waits for them to be synced. */
	if (meta_write(ob, name, &m, true, err) < 0) {
		meta_free(&m);
		return -1;
	}
	meta_free(&m);
	if (id)
		*id = xstrdup(name);
	return 0;
}

int
outbox_sync(struct outbox *ob, struct buf *err)
{
	struct names live = { NULL, 0 };
	bool failed = false;
	size_t i;

	if (refuse_broken(ob, err) < 0)
		return -1;
	/* the messages' bytes, then the records that name them */
	if (pack_sync(ob, err) < 0 || pending_write(ob, err) < 0 || journal_flush(ob, err) < 0)
		return -1;
	for (i = 0; i < ob->new_files.n; i++) {
		const char *p = ob->new_files.v[i];

		if (!fs_exists(p))
			continue;	/* removed meanwhile */
		names_add(&live, p);
		if (strncmp(p, ob->meta_dir, strlen(ob->meta_dir)) != 0)
			failed = true;
	}
	if (fs_fsync_all(live.v, live.n) < 0 || (ob->jnew && fs_fsync_dir(ob->meta_dir) < 0) ||
	    (failed && fs_fsync_dir(ob->failed_dir) < 0)) {
		buf_printf(err, "%s: cannot sync: %s\n", ob->dir, strerror(errno));
		names_clear(&live);
		return -1;
	}
	names_clear(&live);
	names_clear(&ob->new_files);
	ob->jdirty = false;
	ob->jnew = false;
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the files in DIR/new (an older pouch queued its messages
 * there), sorted. */
static char **
list_new(struct outbox *ob, int *n)
{
	char *d = xasprintf("%s/new", ob->dir);
	DIR *dp = opendir(d);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	free(d);
	if (dp == NULL)
		return NULL;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		v = xreallocarray(v, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(dp);
	if (*n > 1)
		qsort(v, (size_t)*n, sizeof *v, name_cmp);
	return v;
}

/* The ids of the messages queued for good that have a record in memory,
 * oldest first: each whose latest state names its bytes in a pack and,
 * from an older pouch, each file in new/ (with its state, or without one:
 * flush says so). The fresh records (fresh_each) come after them. */
static char **
list_queue(struct outbox *ob, int *n)
{
	int nold, k;
	char **old = list_new(ob, &nold), **v = NULL;
	size_t i;

	*n = 0;
	for (i = 0; i < ob->njv; i++) {
		const char *id = ob->jv[i].id;
		if (ob->jv[i].gone || (!ob->jv[i].placed && (nold == 0 ||
		    bsearch(&id, old, (size_t)nold, sizeof *old, name_cmp) == NULL)))
			continue;
		v = xreallocarray(v, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = xstrdup(id);
	}
	for (k = 0; k < nold; k++)
		if (!meta_known(ob, old[k])) {
			v = xreallocarray(v, (size_t)*n + 1, sizeof *v);
			v[(*n)++] = xstrdup(old[k]);
		}
	strv_free(old, nold);
	return v;
}

/* What outbox_each_message_id and outbox_each_message call back. */
struct each {
	void (*id_fn)(void *arg, const char *message_id);
	void (*data_fn)(void *arg, const char *id, const char *data, size_t len);
	void *arg;
	struct buf data;
};

/* The callback of struct each for the message of record jr (NULL: id's
 * in memory). One without a whole state (damaged) is passed over: flush
 * says so. */
static int
each_one(struct outbox *ob, const struct jrec *jr, const char *id, struct each *e)
{
	struct meta m;
	struct buf why;
	char path[PATH_MAX];
	int r;

	buf_init(&why, 4096);
	r = meta_read_rec(ob, jr ? jr : journal_find(ob, id), id, &m, &why);
	buf_free(&why);
	if (r < 0)
		return 0;
	if (e->id_fn != NULL && m.message_id != NULL)
		e->id_fn(e->arg, m.message_id);
	if (e->data_fn != NULL) {
		buf_reset(&e->data);
		if (m.place != NULL)
			r = pack_read(ob, m.place, m.size, &e->data);
		else
			r = md_find(ob->dir, id, path, sizeof path) < 0 ? -1 :
			    fs_read_file(path, &e->data);
		if (r == 0)
			e->data_fn(e->arg, id, e->data.data, e->data.len);
	}
	meta_free(&m);
	return 0;
}

static int
each_fresh(struct outbox *ob, const struct jrec *jr, void *arg)
{
	return each_one(ob, jr, jr->id, arg);
}

/* Every queued message through e: those in memory, then the fresh ones. */
static int
each_queued(struct outbox *ob, struct each *e, struct buf *err)
{
	int n, i;
	char **v = list_queue(ob, &n);

	buf_init(&e->data, MESSAGE_MAX);
	for (i = 0; i < n; i++)
		each_one(ob, NULL, v[i], e);
	strv_free(v, n);
	i = fresh_each(ob, each_fresh, e, err);
	buf_free(&e->data);
	return i;
}

int
outbox_each_message_id(struct outbox *ob, void (*fn)(void *arg, const char *message_id),
    void *arg, struct buf *err)
{
	struct each e = { .id_fn = fn, .arg = arg };

	return each_queued(ob, &e, err);
}

int
outbox_each_message(struct outbox *ob, void (*fn)(void *arg, const char *id, const char *data,
    size_t len), void *arg, struct buf *err)
{
	struct each e = { .data_fn = fn, .arg = arg };

	return each_queued(ob, &e, err);
}

/* fresh_each: the record of *arg (an id), taken into memory. */
static int
fresh_take(struct outbox *ob, const struct jrec *jr, void *arg)
{
	const char *const *id = arg;

	if (strcmp(jr->id, *id) != 0)
		return 0;
	journal_set(ob, jr->id, jr);
	return 1;
}

int
outbox_drop(struct outbox *ob, const char *id, struct buf *err)
{
	char path[PATH_MAX];

	if (!meta_known(ob, id) && (journal_find(ob, id) != NULL ||
	    fresh_each(ob, fresh_take, &id, err) != 1)) {
		if (err->len == 0)
			buf_printf(err, "outbox: no message %s\n", id);
		return -1;
	}
	if (strchr(id, '/') == NULL && id[0] != '.' && md_find(ob->dir, id, path, sizeof path) == 0 &&
	    unlink(path) < 0) {
		buf_printf(err, "%s: cannot remove: %s\n", path, strerror(errno));
		return -1;
	}
	if (gone_write(ob, id, err) < 0 || outbox_sync(ob, err) < 0)
		return -1;
	journal_gone(ob, id);
	journal_drop_gone(ob);
	return 0;
}

size_t
outbox_held(const struct outbox *ob, size_t *bytes)
{
	*bytes = ob->capjv * sizeof *ob->jv + ob->capjidx * sizeof *ob->jidx;
	for (size_t i = 0; i < ob->njv; i++)
		*bytes += strlen(ob->jv[i].id) + 1;
	return ob->njv;
}

int
outbox_count(struct outbox *ob)
{
	int n;
	char **v = list_queue(ob, &n);
	size_t nfresh = 0;
	struct buf err;

	strv_free(v, n);
	buf_init(&err, 4096);
	fresh_each(ob, fresh_count_one, &nfresh, &err);
	buf_free(&err);
	return n + (int)nfresh;
}

static time_t
backoff(int attempts)
{
	time_t d = OUTBOX_BACKOFF_BASE;

	while (--attempts > 0 && d < OUTBOX_BACKOFF_MAX)
		d *= 2;
	return d < OUTBOX_BACKOFF_MAX ? d : OUTBOX_BACKOFF_MAX;
}

/* One message of a flush. */
struct job {
	char *id;
	struct meta m;
	struct buf data;	/* the message, when it was read for an attempt */
	int *accepted;		/* recipients accepted in this batch (indexes) */
	int naccepted;
	bool finished;		/* nobody left waiting */
	bool unrecorded;	/* m changed, not yet appended to the journal */
	bool to_send;		/* read (data), waiting for its attempt */
	bool first_try;		/* queued by this process, never tried (sink_msg) */
};

struct flush {
	struct outbox *ob;
	struct mail_sink *sink;
	int sink_state;		/* 0 not opened, 1 open, -1 unreachable this run */
	struct buf down;	/* why it is unreachable */
	time_t now;
	struct outbox_stats *st;
	struct job *jobs;
	size_t njobs;
	size_t unsent;		/* jobs[unsent..njobs) may wait to be sent (send_group) */
	bool removed;		/* finished messages left the outbox */
	bool failures;		/* failure files written in this batch */
	bool fresh;		/* the message visited was queued by this process and
				 * never tried: its first try */
	struct spool *sp;
	int batch;		/* -1: a job of this batch could not be read or written */
	int res;		/* -1: a batch failed */
	struct buf *err;
};

static void
chomp(struct buf *b)
{
	while (b->len > 0 && b->data[b->len - 1] == '\n')
		buf_truncate(b, b->len - 1);
}

/* For the judge's log: the delivery of m to rcpt deferred for the first
 * time (its first attempt), and why. */
static void
note_deferred(struct flush *f, const struct meta *m, const char *rcpt, const char *why)
{
	char line[1200];

	if (m->attempts != 1)
		return;
	snprintf(line, sizeof line, "delivery to %s deferred, tried again for up to %d days: %s (%s)",
	    rcpt, OUTBOX_EXPIRE / 86400, why, m->message_id ? m->message_id : "no Message-ID");
	strv_push(&f->st->notes, &f->st->nnotes, line);
}

/* For the judge's log: message id is damaged and waits for the host. */
static void
note_damaged(struct flush *f, const char *id, const char *why)
{
	char line[PATH_MAX + 400];

	snprintf(line, sizeof line, "outbox message %s not sent: %s; it waits for the host "
	    "(pouch send --drop %s)", id, why, id);
	strv_push(&f->st->notes, &f->st->nnotes, line);
}

static bool
has_pending(const struct meta *m)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (m->r[i].st == R_PENDING)
			return true;
	return false;
}

/* One message's attempt: its pending recipients (rcpts, their indexes in
 * m.r) and the sink's outcome for each. */
struct try {
	char **rcpts;
	int *index;
	struct rcpt_result *rr;
	int n;
};

/* The pending recipients of j, for the sink; j->accepted made ready. */
static void
try_prepare(struct job *j, struct try *t)
{
	struct meta *m = &j->m;
	int i, n = 0;

	for (i = 0; i < m->n; i++)
		n += m->r[i].st == R_PENDING;
	t->rr = xcalloc((size_t)n + 1, sizeof *t->rr);
	t->rcpts = xcalloc((size_t)n + 1, sizeof *t->rcpts);
	t->index = xcalloc((size_t)n + 1, sizeof *t->index);
	j->accepted = xcalloc((size_t)n + 1, sizeof *j->accepted);
	for (n = 0, i = 0; i < m->n; i++)
		if (m->r[i].st == R_PENDING) {
			t->rcpts[n] = m->r[i].addr;
			t->index[n++] = i;
		}
	t->n = n;
}

/* Open the sink for the first attempt of the flush; say so when it cannot be. */
static void
open_sink(struct flush *f)
{
	struct buf e;

	if (f->sink_state != 0)
		return;
	buf_init(&e, 4096);
	f->sink_state = f->sink != NULL && sink_open(f->sink, &e) == 0 ? 1 : -1;
	if (f->sink_state < 0) {
		chomp(&e);
		buf_puts(&f->down, f->sink ? buf_str(&e) : "no sink");
		log_warn("%s (the outbox keeps the mail)", buf_str(&f->down));
	}
	buf_free(&e);
}

/* Record the sink's outcome t for j in j->m (not yet written). */
static void
try_record(struct flush *f, struct job *j, struct try *t)
{
	struct meta *m = &j->m;
	struct rcpt_result *rr = t->rr;
	int i, n = t->n, pending = 0;

	m->attempts++;
	for (i = 0; i < n; i++) {
		struct orcpt *o = &m->r[t->index[i]];
		free(o->text);
		o->text = one_line(rr[i].text);
		o->code = rr[i].code;
		if (rr[i].status == RCPT_OK) {
			o->st = R_SENT;
			j->accepted[j->naccepted++] = t->index[i];
		} else if (rr[i].status == RCPT_PERMFAIL) {
			o->st = R_FAILED;
			f->st->failed_rcpts++;
			log_warn("mail to %s refused for good: %s", o->addr, o->text);
		} else {
			pending++;
			free(m->error);
			m->error = one_line(rr[i].text);
			note_deferred(f, m, o->addr, m->error);
		}
	}
	if (pending > 0 && f->now - m->queued >= OUTBOX_EXPIRE) {
		for (i = 0; i < m->n; i++)
			if (m->r[i].st == R_PENDING) {
				char why[400];
				snprintf(why, sizeof why, "gave up after %d attempts: %s", m->attempts,
				    m->r[i].text);
				free(m->r[i].text);
				m->r[i].text = one_line(why);
				m->r[i].st = R_FAILED;
				f->st->failed_rcpts++;
			}
	}
	m->next = f->now + backoff(m->attempts);
	free(t->rr);
	free(t->rcpts);
	free(t->index);
}

/*
 * Hand the jobs read since the last group (jobs[unsent..], those to_send)
 * to the sink together, then record each outcome: appended to the journal
 * at once when the sink's word is final (SMTP: so a crashed process
 * leaves a true state; synced at the end of the batch), after sink_sync
 * for a staged sink. The outcomes are recorded here, by the caller's
 * thread, whatever threads the sink sends on. Returns 0, or -1 when a
 * state could not be written.
 */
static int
send_group(struct flush *f, struct buf *err)
{
	size_t k, first = f->unsent;
	struct try *t = xcalloc(f->njobs - first + 1, sizeof *t);
	struct sink_msg *v = xcalloc(f->njobs - first + 1, sizeof *v);
	int n = 0, i, r = 0;

	for (k = first; k < f->njobs; k++) {
		struct job *j = &f->jobs[k];
		if (!j->to_send)
			continue;
		try_prepare(j, &t[n]);
		v[n] = (struct sink_msg){ j->id, j->m.from, t[n].rcpts, t[n].n, j->data.data,
			j->data.len, t[n].rr, j->first_try };
		n++;
	}
	if (n > 0)
		open_sink(f);
	if (n > 0 && f->sink_state > 0) {
		struct buf e;
		buf_init(&e, 4096);
		if (sink_send_many(f->sink, v, n, &e) < 0) {
			f->sink_state = -1;	/* unreachable: only defer the rest */
			chomp(&e);
			buf_reset(&f->down);
			buf_puts(&f->down, buf_str(&e));
			log_warn("%s (the outbox keeps the mail)", buf_str(&e));
		}
		buf_free(&e);
	} else {
		for (i = 0; i < n; i++)
			sink_set_all(t[i].rr, t[i].n, RCPT_TEMPFAIL, 0, buf_str(&f->down));
	}
	for (i = 0, k = first; k < f->njobs; k++) {
		struct job *j = &f->jobs[k];
		if (!j->to_send)
			continue;
		try_record(f, j, &t[i++]);
		j->to_send = false;
		buf_free(&j->data);	/* not held for the rest of the batch */
		if (f->sink != NULL && f->sink->staged)
			j->unrecorded = true;
		else if (meta_write(f->ob, j->id, &j->m, false, err) < 0)
			r = -1;
		j->finished = !has_pending(&j->m);
	}
	f->unsent = f->njobs;
	free(t);
	free(v);
	return r;
}

/* Read the state of message id and, when it is due, read the message for
 * its attempt, made with the next group (send_group). Returns 0, or -1
 * when the outbox could not be read or written. */
static int
visit(struct flush *f, const char *id, struct buf *err)
{
	struct job j;
	char path[PATH_MAX];

	memset(&j, 0, sizeof j);
	buf_init(&j.data, MESSAGE_MAX);
	{
		struct buf why;
		int bad;
		buf_init(&why, 4096);
		bad = meta_read(f->ob, id, &j.m, &why) < 0;
		if (bad) {
			/* Its state was damaged on disk: this one waits for
			 * the host, the others go. */
			chomp(&why);
			log_warn("outbox message %s not sent: %s", id, buf_str(&why));
			note_damaged(f, id, buf_str(&why));
			f->st->waiting++;
		}
		buf_free(&why);
		if (bad) {
			buf_free(&j.data);
			return 0;
		}
	}
	if (has_pending(&j.m)) {
		if (j.m.next > f->now) {
			f->st->waiting++;
			meta_free(&j.m);
			return 0;
		}
		if (j.m.place != NULL) {	/* in a pack */
			snprintf(path, sizeof path, "%s/%s", f->ob->pack_dir, j.m.place);
			if (pack_read(f->ob, j.m.place, j.m.size, &j.data) < 0) {
				log_warn("outbox message %s not sent: %s: cannot read: %s", id, path,
				    strerror(errno));
				f->st->waiting++;
				buf_free(&j.data);
				meta_free(&j.m);
				return 0;
			}
		/* an older pouch's: in new/ (else wherever md_find finds it) */
		} else if ((snprintf(path, sizeof path, "%s/new/%s", f->ob->dir, id),
		    fs_read_file(path, &j.data)) < 0 && (errno != ENOENT ||
		    md_find(f->ob->dir, id, path, sizeof path) < 0 || fs_read_file(path, &j.data) < 0)) {
			buf_printf(err, "outbox %s: cannot read: %s\n", id, strerror(errno));
			buf_free(&j.data);
			meta_free(&j.m);
			return -1;
		}
		if (j.m.body_sum[0]) {
			char got[17];
			body_sum(j.data.data, j.data.len, got);
			if (j.data.len != j.m.size || strcmp(got, j.m.body_sum) != 0) {
				char why[PATH_MAX + 100];
				snprintf(why, sizeof why, "%s: damaged (%zu bytes, queued with %zu, or "
				    "changed)", path, j.data.len, j.m.size);
				log_warn("outbox message %s not sent: %s", id, why);
				note_damaged(f, id, why);
				f->st->waiting++;
				buf_free(&j.data);
				meta_free(&j.m);
				return 0;
			}
		}
		j.id = xstrdup(id);
		j.to_send = true;	/* tried with the next group (send_group) */
		j.first_try = f->fresh;
	}
	if (j.id == NULL)
		j.id = xstrdup(id);
	j.finished = !has_pending(&j.m);
	if (!j.to_send)
		buf_free(&j.data);
	f->jobs = xreallocarray(f->jobs, f->njobs + 1, sizeof *f->jobs);
	f->jobs[f->njobs++] = j;
	if (f->njobs - f->unsent >= (size_t)(f->sink != NULL ? sink_group(f->sink) : 1))
		return send_group(f, err);
	return 0;
}

/* The sink could not make its deliveries durable: those it says failed
 * (sink_failure: all, or one recipient's Maildir) did not happen. */
static void
undo_accepted(struct flush *f, const char *why)
{
	size_t k;
	int i;

	for (k = 0; k < f->njobs; k++) {
		struct job *j = &f->jobs[k];
		int undone = 0;
		for (i = 0; i < j->naccepted; i++) {
			struct orcpt *o = &j->m.r[j->accepted[i]];
			const char *w = sink_failure(f->sink, j->id, o->addr, why);
			if (w == NULL)
				continue;	/* delivered all the same */
			o->st = R_PENDING;
			o->code = 0;
			free(o->text);
			o->text = one_line(w);
			free(j->m.error);
			j->m.error = one_line(w);
			note_deferred(f, &j->m, o->addr, j->m.error);
			undone++;
		}
		if (undone > 0) {
			j->finished = false;
			j->unrecorded = true;
		}
	}
}

/* Append the states not yet recorded. Returns 0 or -1 (err). */
static int
record(struct flush *f, struct buf *err)
{
	size_t k;
	int r = 0;

	journal_batch_begin(f->ob);
	for (k = 0; k < f->njobs; k++)
		if (f->jobs[k].unrecorded) {
			if (meta_write(f->ob, f->jobs[k].id, &f->jobs[k].m, false, err) < 0)
				r = -1;
			f->jobs[k].unrecorded = false;
		}
	if (journal_batch_end(f->ob, err) < 0)
		r = -1;
	return r;
}

/* The path and status of queued message id: in new/, where it is queued,
 * else wherever md_find finds it. Returns 0 or -1/errno. */
static int
find_queued(const struct outbox *ob, const char *id, char *path, size_t size, struct stat *st)
{
	if ((size_t)snprintf(path, size, "%s/new/%s", ob->dir, id) < size && stat(path, st) == 0)
		return 0;
	if (md_find(ob->dir, id, path, size) < 0)
		return -1;
	return stat(path, st);
}

/* Steps 2 and 3 of the essay for the finished jobs. */
static int
archive(struct flush *f, struct spool *sp, struct buf *err)
{
	size_t k;
	int i, stored = 0;
	char *spack = xasprintf("%s/pack", spool_dir(sp));
	bool shared = strcmp(spack, f->ob->pack_dir) == 0;

	free(spack);

	for (k = 0; k < f->njobs; k++) {
		struct job *j = &f->jobs[k];
		struct buf sent;
		char path[PATH_MAX], key[200];
		int nfailed = 0;

		if (!j->finished)
			continue;
		buf_init(&sent, META_MAX);
		for (i = 0; i < j->m.n; i++) {
			if (j->m.r[i].st == R_SENT)
				buf_printf(&sent, "%s%s", sent.len ? "," : "", j->m.r[i].addr);
			nfailed += j->m.r[i].st == R_FAILED;
		}
		if (sent.len > 0 && j->m.place != NULL) {
			/* Its bytes, durable since it was queued: named where
			 * they are in the spool's pack/, else copied there. */
			int r;
			snprintf(key, sizeof key, "outbox:%s", j->id);
			if (shared) {
				r = spool_store_out_at(sp, key, j->m.message_id, buf_str(&sent), j->m.place,
				    j->m.size, f->now, NULL, err);
			} else {
				struct buf data;
				buf_init(&data, MESSAGE_MAX);
				r = pack_read(f->ob, j->m.place, j->m.size, &data);
				if (r < 0)
					buf_printf(err, "outbox %s: cannot read: %s\n", j->id, strerror(errno));
				else
					r = spool_store_out(sp, key, j->m.message_id, buf_str(&sent), data.data,
					    data.len, f->now, NULL, err);
				buf_free(&data);
			}
			if (r < 0) {
				buf_free(&sent);
				return -1;
			}
			stored++;
		} else if (sent.len > 0) {
			snprintf(key, sizeof key, "outbox:%s", j->id);
			/* An older pouch's file, durable since it was queued,
			 * goes into the archive as it is (a hard link). */
			struct stat stt;
			if (find_queued(f->ob, j->id, path, sizeof path, &stt) < 0 ||
			    spool_store_out_file(sp, key, j->m.message_id, buf_str(&sent), path,
			    (size_t)stt.st_size, f->now, NULL, err) < 0) {
				if (err->len == 0)
					buf_printf(err, "outbox %s: cannot read: %s\n", j->id, strerror(errno));
				buf_free(&sent);
				return -1;
			}
			stored++;
		}
		buf_free(&sent);
		if (nfailed > 0) {
			struct buf fb;
			char *fp = xasprintf("%s/%s", f->ob->failed_dir, j->id);
			int r;

			buf_init(&fb, META_MAX);
			if (j->m.message_id)
				buf_printf(&fb, "message-id %s\n", j->m.message_id);
			for (i = 0; i < j->m.n; i++)
				if (j->m.r[i].st == R_FAILED)
					buf_printf(&fb, "failed %s %d %lld %s\n", j->m.r[i].addr,
					    j->m.r[i].code, (long long)f->now, j->m.r[i].text);
			r = replace_file(f->ob, fp, &fb, err);
			free(fp);
			buf_free(&fb);
			if (r < 0)
				return -1;
			f->failures = true;
		}
	}
	return stored > 0 ? spool_sync(sp, err) : 0;
}

/* Forget the states of the messages that left the outbox in flush f:
 * what is held stays the size of the queue. */
static void
journal_forget(struct flush *f)
{
	struct outbox *ob = f->ob;
	bool *gone = xcalloc(ob->njv + 1, sizeof *gone);
	size_t k, kept;

	for (k = 0; k < f->njobs; k++) {
		const struct jrec *jr = f->jobs[k].finished ? journal_find(ob, f->jobs[k].id) : NULL;
		if (jr != NULL)
			gone[jr - ob->jv] = true;
	}
	for (k = kept = 0; k < ob->njv; k++) {
		if (gone[k])
			free(ob->jv[k].id);
		else
			ob->jv[kept++] = ob->jv[k];
	}
	free(gone);
	ob->njv = kept;
	journal_reindex(ob, ob->njv);
}

/* Step 4: each finished message leaves the outbox, by a "gone" record
 * (an older pouch's file in new/ is removed first). Durable with the next
 * outbox_sync. */
static int
remove_finished(struct flush *f, struct buf *err)
{
	char path[PATH_MAX], dir[PATH_MAX];
	size_t k;
	int removed = 0, files = 0;

	for (k = 0; k < f->njobs; k++) {
		if (!f->jobs[k].finished || f->jobs[k].m.place != NULL)
			continue;
		snprintf(path, sizeof path, "%s/new/%s", f->ob->dir, f->jobs[k].id);
		if (unlink(path) == 0) {	/* where it is queued: no need to look */
			files++;
			continue;
		}
		if (md_find(f->ob->dir, f->jobs[k].id, path, sizeof path) == 0 && unlink(path) < 0) {
			buf_printf(err, "%s: cannot remove: %s\n", path, strerror(errno));
			return -1;
		}
		files++;
	}
	if (files > 0) {	/* gone for good before the record says so */
		snprintf(dir, sizeof dir, "%s/new", f->ob->dir);
		fs_fsync_dir(dir);
	}
	journal_batch_begin(f->ob);
	for (k = 0; k < f->njobs; k++) {
		if (!f->jobs[k].finished)
			continue;
		if (gone_write(f->ob, f->jobs[k].id, err) < 0) {
			journal_batch_end(f->ob, err);
			return -1;
		}
		removed++;
	}
	if (journal_batch_end(f->ob, err) < 0)
		return -1;
	if (removed > 0) {
		journal_forget(f);
		f->removed = true;
	}
	return 0;
}

/* Whether the message of record k is still queued (its bytes in a pack,
 * or an older pouch's file in new/). */
static bool
still_queued(const struct outbox *ob, size_t k)
{
	char path[PATH_MAX];

	if (ob->jv[k].gone)
		return false;
	if (ob->jv[k].placed)
		return true;
	snprintf(path, sizeof path, "%s/new/%s", ob->dir, ob->jv[k].id);
	return fs_exists(path);
}

/* The outbox's own packs, once nothing is queued (the spool's are its
 * archive: they stay). */
static void
pack_clean(struct outbox *ob)
{
	DIR *dp;
	struct dirent *e;
	char path[PATH_MAX];

	if (ob->pack_shared || (dp = opendir(ob->pack_dir)) == NULL)
		return;
	if (ob->pfd >= 0)
		close(ob->pfd);
	if (ob->rpfd >= 0)
		close(ob->rpfd);
	ob->pfd = ob->rpfd = -1;
	while ((e = readdir(dp)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".pack") == 0) {
			snprintf(path, sizeof path, "%s/%s", ob->pack_dir, e->d_name);
			unlink(path);
		}
	}
	closedir(dp);
}

/* Once a flush is done: the latest state of each message still queued
 * goes into this process's journal, and every older journal is removed,
 * so that the journals hold the queue, not the history (a "gone" record
 * and the states before it go together). With nothing queued, this
 * journal goes too, and the outbox's own packs (not the spool's, which
 * are its archive). A record that cannot be read again keeps its file.
 * Returns 0 or -1 (err). */
static int
journal_compact(struct outbox *ob, struct buf *err)
{
	bool *keep = xcalloc(ob->njfiles + 1, sizeof *keep);
	struct buf text, rec;
	size_t k, fi, live = 0, older = 0, held = 0;
	int r = 0;

	for (k = 0; k < ob->njv; k++)
		if (still_queued(ob, k)) {
			live++;
			if (ob->jfd >= 0 && ob->jv[k].file == ob->jfile)
				held += ob->jv[k].len + 200;
		}
	/* This process's journal too, when what it holds is mostly history:
	 * the queue goes into a new one. */
	if (ob->jfd >= 0 && live > 0 && (size_t)ob->jend > 2 * held + 4096) {
		close(ob->jfd);
		ob->jfd = -1;
		ob->jfile = -1;
	}
	buf_init(&text, META_MAX);
	buf_init(&rec, META_MAX + 256);
	for (k = 0; k < ob->njv && r == 0; k++) {
		struct jrec *jr = &ob->jv[k];
		size_t head;
		if (!still_queued(ob, k) || (ob->jfd >= 0 && jr->file == ob->jfile))
			continue;
		buf_reset(&text);
		if (journal_text(ob, jr, &text, err) < 0) {
			buf_reset(err);	/* flush said so: it waits for the host */
			if (jr->file >= 0)
				keep[jr->file] = true;
			continue;
		}
		buf_reset(&rec);
		buf_printf(&rec, "id %s\n", jr->id);
		head = rec.len;
		buf_append(&rec, text.data, text.len);
		buf_printf(&rec, "sum %08x\n\n",
		    (unsigned)(str_hash_bytes(rec.data, rec.len) & 0xffffffffu));
		if ((r = journal_append(ob, rec.data, rec.len, err)) == 0)
			journal_add(ob, jr->id, ob->jfile, ob->jend - (off_t)rec.len + (off_t)head,
			    text.data, text.len);
	}
	buf_free(&text);
	buf_free(&rec);
	for (fi = 0; fi < ob->njfiles; fi++)
		older += ob->jfiles[fi] != NULL && !(ob->jfd >= 0 && (int)fi == ob->jfile && live > 0);
	if (r == 0 && older > 0 && (r = outbox_sync(ob, err)) == 0) {
		for (fi = 0; fi < ob->njfiles; fi++) {
			if (ob->jfiles[fi] == NULL || keep[fi] ||
			    (ob->jfd >= 0 && (int)fi == ob->jfile && live > 0))
				continue;
			crash_point();
			unlink(ob->jfiles[fi]);
			free(ob->jfiles[fi]);
			ob->jfiles[fi] = NULL;
			if ((int)fi == ob->jfile && ob->jfd >= 0) {
				close(ob->jfd);	/* a new one when needed */
				ob->jfd = -1;
				ob->jfile = -1;
			}
			if ((int)fi == ob->rfile && ob->rfd >= 0) {
				close(ob->rfd);
				ob->rfd = -1;
			}
		}
		if (live == 0)
			pack_clean(ob);
		fs_fsync_dir(ob->meta_dir);
		for (k = 0; k < ob->njv; k++)	/* none of them is queued */
			ob->jv[k].gone = ob->jv[k].file < 0 || ob->jfiles[ob->jv[k].file] == NULL;
		journal_drop_gone(ob);
	}
	free(keep);
	return r;
}

/* Steps 1 to 4 of the essay for the jobs of a batch (res: -1 when one of
 * them could not be read or written: then none is archived or removed),
 * then count and forget them. Returns 0 or -1 (err). */
static int
finish_batch(struct flush *f, struct spool *sp, int res, bool last, struct buf *err)
{
	size_t k;

	if (send_group(f, err) < 0)
		res = -1;
	if (f->sink_state > 0) {
		struct buf e;
		buf_init(&e, 4096);
		if (sink_sync(f->sink, &e) < 0) {
			chomp(&e);
			log_warn("%s (the outbox keeps the mail)", buf_str(&e));
			undo_accepted(f, buf_str(&e));
		}
		buf_free(&e);
	}
	if (record(f, err) < 0)
		res = -1;
	/* The states recorded, the archive's records synced, failure files
	 * durable (synced first, when there are any): then the finished
	 * messages leave, their "gone" records synced with the states. */
	f->failures = false;
	if (res == 0 && (archive(f, sp, err) < 0 || (f->failures && outbox_sync(f->ob, err) < 0) ||
	    remove_finished(f, err) < 0 || outbox_sync(f->ob, err) < 0 ||
	    (last && journal_compact(f->ob, err) < 0)))
		res = -1;
	else if (res < 0)
		outbox_sync(f->ob, err);	/* keep what was recorded */
	for (k = 0; k < f->njobs; k++) {
		if (f->jobs[k].finished && res == 0)
			f->st->sent++;
		else if (!f->jobs[k].finished)
			f->st->deferred++;
		free(f->jobs[k].id);
		free(f->jobs[k].accepted);
		buf_free(&f->jobs[k].data);
		meta_free(&f->jobs[k].m);
	}
	free(f->jobs);
	f->jobs = NULL;
	f->njobs = f->unsent = 0;
	return res;
}

/* Message id of a flush: tried when due, and when a batch is full, the
 * batch finished. Returns 1 when the outbox refuses to record (nothing
 * more is tried), else 0. */
static int
flush_one(struct flush *f, const char *id)
{
	if (f->ob->broken)
		return 1;	/* no attempt whose outcome cannot be recorded */
	if (!meta_known(f->ob, id)) {
		log_warn("outbox: %s has no state file: left alone", id);
		return 0;
	}
	if (visit(f, id, f->err) < 0)
		f->batch = -1;
	/* A long queue goes in batches, each finished before the next: what
	 * is held stays the size of a batch. */
	if (f->njobs == OUTBOX_FLUSH_BATCH) {
		if (finish_batch(f, f->sp, f->batch, false, f->err) < 0)
			f->res = -1;
		f->batch = 0;
	}
	return 0;
}

/* fresh_each: a message this process queued, taken into memory when the
 * flush reaches it (and forgotten with its batch once it left). */
static int
flush_fresh(struct outbox *ob, const struct jrec *jr, void *arg)
{
	struct flush *f = arg;
	int r;

	if (ob->broken)
		return 1;
	journal_set(ob, jr->id, jr);
	f->fresh = true;
	r = flush_one(f, jr->id);
	f->fresh = false;
	return r;
}

int
outbox_flush(struct outbox *ob, struct mail_sink *sink, struct spool *sp, time_t now,
    struct outbox_stats *st, struct buf *err)
{
	struct flush f;
	char **names;
	int n, i, r;

	memset(st, 0, sizeof *st);
	if (outbox_sync(ob, err) < 0)	/* queued for good before any attempt */
		return -1;
	memset(&f, 0, sizeof f);
	f.ob = ob;
	f.sink = sink;
	f.now = now;
	f.st = st;
	f.sp = sp;
	f.err = err;
	buf_init(&f.down, 4096);
	/* The messages in memory (queued by an earlier process, or tried
	 * before), then those this process queued, read from its journal. */
	names = list_queue(ob, &n);
	for (i = 0; i < n && flush_one(&f, names[i]) == 0; i++)
		continue;
	strv_free(names, n);
	if (i == n) {
		r = fresh_each(ob, flush_fresh, &f, err);
		if (r < 0)
			f.res = -1;
		else if (r == 0)
			ob->nfresh = 0;	/* each is in memory now, or left */
	}
	if (finish_batch(&f, sp, f.batch, true, err) < 0)
		f.res = -1;
	buf_free(&f.down);
	return f.res;
}

int
outbox_failures(struct outbox *ob, struct outbox_failure **v, struct buf *err)
{
	DIR *dp = opendir(ob->failed_dir);
	struct dirent *e;
	int n = 0;

	*v = NULL;
	if (dp == NULL) {
		buf_printf(err, "%s: cannot read: %s\n", ob->failed_dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		char *path;
		struct buf b;
		const char *p, *end, *line;
		char *msgid = NULL;
		size_t len;

		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp.") != NULL)
			continue;
		path = xasprintf("%s/%s", ob->failed_dir, e->d_name);
		buf_init(&b, META_MAX);
		if (fs_read_file(path, &b) == 0) {
			p = buf_str(&b);
			end = p + b.len;
			while ((line = str_next_line(&p, end, &len)) != NULL) {
				char *l = xstrndup(line, len), *rest = split1(l);
				if (strcmp(l, "message-id") == 0) {
					free(msgid);
					msgid = xstrdup(rest);
				} else if (strcmp(l, "failed") == 0) {
					char *code = split1(rest), *when = split1(code), *text = split1(when);
					long c = 0, w = 0;
					struct outbox_failure *f;
					str_to_long(code, 0, 999, &c);
					str_to_long(when, LONG_MIN, LONG_MAX, &w);
					*v = xreallocarray(*v, (size_t)n + 1, sizeof **v);
					f = &(*v)[n++];
					f->id = xstrdup(e->d_name);
					f->message_id = msgid ? xstrdup(msgid) : NULL;
					f->rcpt = xstrdup(rest);
					f->code = (int)c;
					f->reason = xstrdup(text);
					f->when = (time_t)w;
				}
				free(l);
			}
		}
		free(msgid);
		buf_free(&b);
		free(path);
	}
	closedir(dp);
	return n;
}

void
outbox_failures_free(struct outbox_failure *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].message_id);
		free(v[i].rcpt);
		free(v[i].reason);
	}
	free(v);
}

int
outbox_forget_failure(struct outbox *ob, const char *id, struct buf *err)
{
	char *path;

	if (strchr(id, '/') != NULL || id[0] == '.') {
		buf_printf(err, "outbox: bad id \"%s\"\n", id);
		return -1;
	}
	path = xasprintf("%s/%s", ob->failed_dir, id);
	if (unlink(path) < 0) {
		buf_printf(err, "%s: cannot remove: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	return fs_fsync_dir(ob->failed_dir);
}
