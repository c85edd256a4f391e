/*
 * spool.c — message files plus an append-only ledger.
 *
 * The ledger is a text file, one record per line, fields separated by
 * tabs, '-' for "none", other bytes below 0x21 and '%' written %XX (and a
 * value that is exactly "-" as %2D):
 *
 *	pouch-spool 3
 *	in	ID	ARRIVAL	SIZE	SOURCE	MESSAGE-ID	DUP-OF	PLACE	~SUM
 *	applied	ID	TIME	~SUM
 *	out	ID	TIME	SIZE	KEY	MESSAGE-ID	RCPTS	PLACE	~SUM
 *	cursor	NAME	VALUE	~SUM
 *
 * SUM is the record's checksum (record_sum), so that a byte changed on
 * disk is found, never used; a "pouch-spool 1" ledger has none. PLACE,
 * "PACK:OFFSET", is where the message's bytes are: a batch's messages go
 * one after the other into one pack file, DIR/pack/PACK; "-" for a sent
 * message taken from the outbox by a hard link (DIR/out/new/ID). A record of a
 * "pouch-spool 2" ledger has no PLACE: its message is the file ID in
 * DIR/in or DIR/out. Both forms read in any ledger.
 *
 * What is kept of each message is in the index, a file beside the ledger
 * read through a small cache (index.h): a slot an inbound message (the
 * record's place in the ledger, the message's state, and its id when it
 * has pouch's form), the place of each sent one's record, and hash tables
 * (id, source, Message-ID; for sent messages key and Message-ID) of 32
 * bits of the key's hash and the slot's position; a match is checked
 * against the record, read again (as are the entries the API hands out,
 * kept in a small cache). So the memory of an open spool does not grow
 * with its history. The index is trusted only when it was closed whole
 * for the ledger as it is (open_index); else it is made again from the
 * ledger, read in pieces. This happens at open, or with spool_open_lazy
 * when first needed (spool_index). A
 * lazy open reads DIR/ledger.sum instead: what a run with nothing new
 * needs (the cursors, the clock, how many messages wait to be applied),
 * written at close for the ledger's size, mtime and inode when the ledger
 * changed or the summary did not describe it.
 * It is a cache: not synced, and ignored (the ledger read) whenever the
 * ledger is not exactly the file it describes, or it is damaged or
 * missing. A crash while appending can leave a last line without its
 * newline: that torn record was never acknowledged (spool_sync had not
 * returned), so it is cut off, with a warning. Any other damage stops
 * spool_open: a ledger that cannot be trusted must not be guessed at,
 * since a lost "applied" record would apply a message twice.
 *
 * Why the order in spool_sync is right: messages are appended to the
 * batch's pack as they come, unsynced; spool_sync fsyncs the pack, then
 * its directory, and only then appends and fsyncs the ledger. A crash
 * before the ledger append leaves a pack the ledger does not name
 * (harmless: the source was not told, the messages are fetched and stored
 * again, and the next batch takes the pack's name and writes over it); a
 * crash after it leaves complete, durable records. Three syncs and one
 * file created per batch, not a file, a link and an unlink per message.
 */
#define _DEFAULT_SOURCE
#include "spool.h"

#include <assert.h>
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
#include "../lib/xalloc.h"
#include "index.h"
#include "maildir.h"

#define LEDGER_MAX ((size_t)1 << 30)
#define LEDGER_CHUNK ((size_t)1 << 18)	/* the ledger is read this much at a time */
/* A batch whose records reach this many bytes is committed before the
 * next message is stored (spool_sync), and a new one begins: the records
 * waiting to be written stay this small however many messages a run
 * fetches (100,000 held 17 MB). */
#define SPOOL_BATCH_BYTES ((size_t)1 << 20)
#define LEDGER_MAGIC "pouch-spool 3"	/* messages in packs: "in" and "out" say where */
#define LEDGER_MAGIC_V2 "pouch-spool 2"	/* every record ends with its checksum */
#define LEDGER_MAGIC_V1 "pouch-spool 1"	/* records without one (older ledgers) */
#define SUMMARY_MAGIC "pouch-spool-summary 1"
#define PACK_NAME_MAX 64	/* "TIME.SEQ.pack" */

static uint32_t
key_hash(const char *key)
{
	return (uint32_t)str_hash(key);
}

/* --- the spool --------------------------------------------------------- */

struct cursor {
	char *name;
	char *value;
};

/* The entries last asked for, read from their records: spool_in and the
 * lookups return them (SPOOL_ENTRY_CACHE of each kind, by position). */
struct cache {
	int fd;			/* the ledger, for reading; -1: not open */
	struct spool_entry in[SPOOL_ENTRY_CACHE];
	size_t in_pos[SPOOL_ENTRY_CACHE];	/* SIZE_MAX: empty */
	struct spool_sent out[SPOOL_ENTRY_CACHE];
	size_t out_pos[SPOOL_ENTRY_CACHE];
	struct buf line;
	bool damaged;		/* a record read again did not read */
};

struct spool {
	char *dir;
	char *in_dir, *out_dir, *ledger, *summary;
	int lock_fd;
	/* the index of the ledger (index.h): a slot an inbound message, the
	 * place of each sent one's record, and the hash tables */
	struct ix *ix;
	char *index_path;
	unsigned long nlines;	/* the ledger's lines read or appended */
	struct cursor *cursors;
	size_t ncursors;
	uint64_t ledger_size;	/* the ledger's bytes on disk (read or appended) */
	struct cache *cache;
	unsigned long next_seq;
	unsigned long nrec;	/* "in" and run, clock, settings records so far */
	unsigned long clock_rec;	/* the last clock record's place */
	struct spool_run *runs;	/* the "run" records */
	size_t nruns;
	struct spool_setting *settings;	/* the "settings" records read from it */
	size_t nsettings;
	time_t last_arrival;
	struct buf pending;	/* ledger lines not yet written */
	/* DATA/spool/next-seq: no file in in/ or out/ has a sequence number
	 * seq_floor or above (read at open, or found by a scan) */
	bool floor_known, floor_file;	/* floor_file: next-seq is on disk */
	unsigned long seq_floor;
	size_t npending;	/* inbound entries SPOOL_STORED */
	bool indexed;		/* the ledger has been read (in, out, the maps) */
	bool known;		/* npending and the cursors are whole (indexed, or
				 * opened from the summary) */
	bool summary_ok;	/* ledger.sum describes the ledger on disk */
	bool ledger_new;	/* created by this process: fsync its directory */
	bool broken;		/* a ledger write failed: refuse everything */
	bool discarded;		/* spool_discard: nothing more is written */
	bool v1;		/* the ledger is "pouch-spool 1": records have no checksum */
	bool ledger_grew;	/* records appended by this process */
	/* The batch's pack: every message stored since the last sync, one
	 * after the other, made durable by spool_sync with one fsync. */
	char *pack_dir;
	int pack_fd;		/* open for appending; -1: none this batch */
	char pack_name[PACK_NAME_MAX];
	uint64_t pack_len;
	bool pack_dir_new;	/* DIR/pack made by this process: sync DIR */
	bool out_linked;	/* durable files linked into out/new/, the folder not synced */
	struct packrd *rd;	/* the pack last read from */
};

/* A pack open for reading (spool_read), kept for the next message. */
struct packrd {
	int fd;
	char name[PACK_NAME_MAX];
};

/* The checksum of a ledger record: the low 32 bits of its FNV-1a hash. It
 * ends every record of a "pouch-spool 2" ledger as a last field "~XXXXXXXX". */
static uint32_t
record_sum(const char *p, size_t n)
{
	return (uint32_t)(str_hash_bytes(p, n) & 0xffffffffu);
}

/* End the record that begins at offset start of s->pending. */
static void
end_record(struct spool *s, size_t start)
{
	if (!s->v1)
		buf_printf(&s->pending, "\t~%08x", (unsigned)record_sum(s->pending.data + start,
		    s->pending.len - start));
	buf_putc(&s->pending, '\n');
}

/* Check and cut off the checksum of record line (a v2 ledger's; "~edited":
 * a host's correction by hand). Returns 0, or -1 when it is missing or
 * does not match. */
static int
check_record(char *line)
{
	char *tab = strrchr(line, '\t');
	unsigned long want;
	char *endp;

	if (tab && strcmp(tab + 1, "~edited") == 0) {
		*tab = '\0';
		return 0;
	}
	if (tab == NULL || tab[1] != '~' || strlen(tab + 2) != 8)
		return -1;
	errno = 0;
	want = strtoul(tab + 2, &endp, 16);
	if (errno || *endp != '\0' || want != record_sum(line, (size_t)(tab - line)))
		return -1;
	*tab = '\0';
	return 0;
}

/* Whether the ledger on disk is a "pouch-spool 1" one (its first line),
 * read before anything is appended to it. */
static bool
ledger_is_v1(const struct spool *s)
{
	char head[sizeof LEDGER_MAGIC_V1];
	int fd = open(s->ledger, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof head);
	close(fd);
	return n == (ssize_t)sizeof head && memcmp(head, LEDGER_MAGIC_V1 "\n", sizeof head) == 0;
}

/* Append field f (NULL: "-") to b, escaped. */
static void
put_field(struct buf *b, const char *f)
{
	static const char hex[] = "0123456789ABCDEF";

	buf_putc(b, '\t');
	if (f == NULL || *f == '\0') {
		buf_putc(b, '-');
		return;
	}
	if (strcmp(f, "-") == 0) {
		buf_puts(b, "%2D");
		return;
	}
	for (; *f; f++) {
		unsigned char c = (unsigned char)*f;
		if (c < 0x21 || c == '%' || c == 0x7f) {
			char e[3] = { '%', hex[c >> 4], hex[c & 15] };
			buf_append(b, e, 3);
		} else {
			buf_putc(b, (char)c);
		}
	}
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode one escaped field in place; "-" is NULL. */
static char *
get_field(char *f)
{
	char *r = f, *w = f;

	if (strcmp(f, "-") == 0)
		return NULL;
	for (; *r; r++) {
		int hi, lo;
		if (*r == '%' && r[1] && r[2] && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0) {
			*w++ = (char)(hi * 16 + lo);
			r += 2;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return f;
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* An id of the ledger is taken: the next one is past it, whatever ids
 * the runs before skipped (a killed run's files). */
static void
note_id(struct spool *s, const char *id)
{
	const char *dot = strchr(id, '.');
	char *end;
	unsigned long seq;

	s->next_seq++;
	if (dot == NULL)
		return;
	seq = strtoul(dot + 1, &end, 10);
	if (end != dot + 1 && *end == '.' && seq >= s->next_seq)
		s->next_seq = seq + 1;
}

static size_t find(const struct spool *s, enum ix_table t, const char *key);

#define ID_FORMAT_MAX 300

/* The id "TIME.SEQ.pouch" with SEQ in digits digits, into v. */
static void
id_format(char v[ID_FORMAT_MAX], int64_t t, uint8_t digits, uint32_t seq)
{
	snprintf(v, ID_FORMAT_MAX, "%lld.%0*lu.pouch", (long long)t, (int)digits, (unsigned long)seq);
}

/* Whether id has the form "TIME.SEQ.pouch" that the slot keeps: then
 * *t, *seq and *digits describe it. */
static bool
id_parse(const char *id, int64_t *t, uint32_t *seq, uint8_t *digits)
{
	char *end, again[ID_FORMAT_MAX];
	long long tv;
	unsigned long sv;
	const char *dot = strchr(id, '.');

	if (dot == NULL || dot == id || dot[1] < '0' || dot[1] > '9')
		return false;
	errno = 0;
	tv = strtoll(id, &end, 10);
	if (errno || end != dot)
		return false;
	sv = strtoul(dot + 1, &end, 10);
	if (errno || strcmp(end, ".pouch") != 0 || end - (dot + 1) > 9 || sv > UINT32_MAX)
		return false;
	*t = tv;
	*seq = (uint32_t)sv;
	*digits = (uint8_t)(end - (dot + 1));
	id_format(again, tv, *digits, *seq);
	return strcmp(again, id) == 0;	/* no sign or blank the form does not give */
}

/* Add the slot of an "in" record at ledger place off. */
static void
add_in(struct spool *s, uint64_t off, const char *id, time_t arrival, const char *source,
    const char *msgid, const char *dup_of)
{
	size_t pos = ix_count_in(s->ix);
	struct islot e;

	/* every text under a Message-ID, for copy_of; a copy adds none (asked
	 * before the slot is there: the lookup reads slots) */
	bool text = msgid && (dup_of == NULL || find(s, IX_MSGID, msgid) == SIZE_MAX);

	memset(&e, 0, sizeof e);
	e.off = off;
	if (!id_parse(id, &e.id_time, &e.id_seq, &e.id_digits))
		e.id_digits = 0;
	e.state = dup_of ? SPOOL_DUPLICATE : SPOOL_STORED;
	e.rec_in = (uint32_t)++s->nrec;
	if (e.state == SPOOL_STORED)
		s->npending++;
	ix_put_in(s->ix, pos, &e);
	ix_put(s->ix, IX_ID, key_hash(id), pos);
	if (source)
		ix_put(s->ix, IX_SOURCE, key_hash(source), pos);
	if (text)
		ix_put(s->ix, IX_MSGID, key_hash(msgid), pos);
	if (arrival > s->last_arrival)
		s->last_arrival = arrival;
	note_id(s, id);
}

/* Add the place of an "out" record. */
static void
add_out(struct spool *s, uint64_t off, const char *id, const char *key, const char *msgid)
{
	size_t pos = ix_count_out(s->ix);

	ix_add_out(s->ix, off);
	if (key)
		ix_put(s->ix, IX_OUT_KEY, key_hash(key), pos);
	if (msgid)
		ix_put(s->ix, IX_OUT_MSGID, key_hash(msgid), pos);
	note_id(s, id);
}

static void
free_cursors(struct cursor **c, size_t *n)
{
	for (size_t i = 0; i < *n; i++) {
		free((*c)[i].name);
		free((*c)[i].value);
	}
	free(*c);
	*c = NULL;
	*n = 0;
}

static void
set_cursor(struct spool *s, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < s->ncursors; i++)
		if (strcmp(s->cursors[i].name, name) == 0) {
			free(s->cursors[i].value);
			s->cursors[i].value = xstrdup(value);
			return;
		}
	s->cursors = xreallocarray(s->cursors, s->ncursors + 1, sizeof *s->cursors);
	s->cursors[s->ncursors].name = xstrdup(name);
	s->cursors[s->ncursors].value = xstrdup(value);
	s->ncursors++;
}

static int
parse_time(const char *f, time_t *t)
{
	long v;

	if (f == NULL || str_to_long(f, LONG_MIN, LONG_MAX, &v) < 0)
		return -1;
	*t = (time_t)v;
	return 0;
}

static int split_record(char *line, char **f, int max);

/* A record read again is not what was read at the open (the disk changed
 * it): said once; the spool then refuses further work. */
static void
damaged(const struct spool *s, uint64_t off)
{
	if (!s->cache->damaged)
		log_warn("%s: the record at byte %llu changed since it was read; the spool is "
		    "left alone", s->ledger, (unsigned long long)off);
	s->cache->damaged = true;
}

/* The line of the record at ledger place off, read again (from the ledger,
 * or from pending when it is not written yet), its checksum checked and
 * cut off: a string in the cache's line buffer, or NULL. */
static char *
read_record(const struct spool *s, uint64_t off)
{
	struct cache *c = s->cache;
	const char *nl;

	buf_reset(&c->line);
	if (off >= s->ledger_size) {
		size_t at = (size_t)(off - s->ledger_size);
		if (at >= s->pending.len ||
		    (nl = memchr(s->pending.data + at, '\n', s->pending.len - at)) == NULL)
			return NULL;
		buf_append(&c->line, s->pending.data + at, (size_t)(nl - (s->pending.data + at)));
	} else {
		if (c->fd < 0 && (c->fd = open(s->ledger, O_RDONLY | O_CLOEXEC)) < 0)
			return NULL;
		do {
			char chunk[1024];
			ssize_t n = pread(c->fd, chunk, sizeof chunk, (off_t)(off + c->line.len));
			if (n <= 0)
				return NULL;
			nl = memchr(chunk, '\n', (size_t)n);
			if (buf_append(&c->line, chunk, nl ? (size_t)(nl - chunk) : (size_t)n) < 0)
				return NULL;
		} while (nl == NULL);
	}
	if (c->line.len == 0 || (!s->v1 && check_record(c->line.data) < 0))
		return NULL;
	return c->line.data;
}

static void
entry_free(struct spool_entry *e)
{
	free(e->id);
	free(e->source);
	free(e->message_id);
	free(e->dup_of);
	memset(e, 0, sizeof *e);
}

static void
sent_free(struct spool_sent *o)
{
	free(o->id);
	free(o->key);
	free(o->message_id);
	free(o->rcpts);
	memset(o, 0, sizeof *o);
}

/* A message's place in a pack, "NAME:OFFSET" (the last field of a
 * "pouch-spool 3" ledger's "in" and "out" records): NAME a file of
 * DIR/pack/. Into *name (a pointer into f, cut at the colon; may be NULL)
 * and *at. Returns 0, or -1 when it does not read. */
static int
parse_place(char *f, char **name, uint64_t *at)
{
	char *colon = strrchr(f, ':');
	long v;

	if (colon == NULL || colon == f || (size_t)(colon - f) >= PACK_NAME_MAX || f[0] == '.' ||
	    memchr(f, '/', (size_t)(colon - f)) != NULL || str_to_long(colon + 1, 0, LONG_MAX, &v) < 0)
		return -1;
	if (name != NULL) {
		*colon = '\0';
		*name = f;
	}
	if (at != NULL)
		*at = (uint64_t)v;
	return 0;
}

/* Whether the n fields f of a message record read as one of kind ("in",
 * "out"): an id, its time and its size. */
static bool
msg_fields_ok(char **f, int n, const char *kind, time_t *t, long *size)
{
	return (n == 7 || n == 8) && strcmp(f[0], kind) == 0 && f[1] != NULL && parse_time(f[2], t) == 0 &&
	    f[3] != NULL && str_to_long(f[3], 0, LONG_MAX, size) == 0 &&
	    (n == 7 || f[7] == NULL || parse_place(f[7], NULL, NULL) == 0);
}

/* The record of kind at ledger place off, read again into its fields f.
 * Returns 0, or -1 when it no longer reads (damaged). */
static int
reread(const struct spool *s, uint64_t off, const char *kind, char **f, time_t *t, long *size)
{
	char *line = read_record(s, off);

	if (line == NULL || !msg_fields_ok(f, split_record(line, f, 9), kind, t, size)) {
		damaged(s, off);
		return -1;
	}
	return 0;
}

/* Inbound entry pos, from the cache or read again from its record; NULL
 * when that record no longer reads (damaged). */
static struct spool_entry *
entry_at(const struct spool *s, size_t pos)
{
	struct cache *c = s->cache;
	size_t k = pos % SPOOL_ENTRY_CACHE;
	struct spool_entry *e = &c->in[k];
	struct islot slot, *sl = &slot;

	ix_get_in(s->ix, pos, sl);
	if (c->in_pos[k] != pos) {
		char *f[9];
		time_t t;
		long size;

		if (reread(s, sl->off, "in", f, &t, &size) < 0)
			return NULL;
		entry_free(e);
		c->in_pos[k] = pos;
		e->id = xstrdup(f[1]);
		e->arrival = t;
		e->size = (size_t)size;
		e->source = dup_or_null(f[4]);
		e->message_id = dup_or_null(f[5]);
		e->dup_of = dup_or_null(f[6]);
	}
	e->state = (enum spool_state)sl->state;
	e->applied = (time_t)sl->applied;
	e->rec_in = sl->rec_in;
	return e;
}

/* Sent entry pos, the same way. */
static struct spool_sent *
sent_at(const struct spool *s, size_t pos)
{
	struct cache *c = s->cache;
	size_t k = pos % SPOOL_ENTRY_CACHE;
	struct spool_sent *o = &c->out[k];

	if (c->out_pos[k] != pos) {
		char *f[9];
		time_t t;
		long size;

		if (reread(s, ix_get_out(s->ix, pos), "out", f, &t, &size) < 0)
			return NULL;
		sent_free(o);
		c->out_pos[k] = pos;
		o->id = xstrdup(f[1]);
		o->time = t;
		o->size = (size_t)size;
		o->key = dup_or_null(f[4]);
		o->message_id = dup_or_null(f[5]);
		o->rcpts = xstrdup(f[6] ? f[6] : "");
	}
	return o;
}

/* Whether inbound entry pos has this id: from its slot when the id has
 * pouch's form, else from its record. */
static bool
id_is(const struct spool *s, size_t pos, const char *id)
{
	struct islot slot, *sl = &slot;
	const struct spool_entry *e;
	char v[ID_FORMAT_MAX];

	ix_get_in(s->ix, pos, sl);
	if (sl->id_digits != 0) {
		id_format(v, sl->id_time, sl->id_digits, sl->id_seq);
		return strcmp(v, id) == 0;
	}
	e = entry_at(s, pos);
	return e != NULL && strcmp(e->id, id) == 0;
}

/* Whether entry pos of table t has key (a copy of its own: reading a
 * record again may drop a cached entry whose string the caller passed). */
static bool
has_key(const struct spool *s, enum ix_table t, size_t pos, const char *key)
{
	const struct spool_entry *e;
	const struct spool_sent *o;
	const char *v;

	if (t == IX_ID)
		return pos < ix_count_in(s->ix) && id_is(s, pos, key);
	if (t == IX_SOURCE || t == IX_MSGID) {
		e = pos < ix_count_in(s->ix) ? entry_at(s, pos) : NULL;
		v = e == NULL ? NULL : t == IX_SOURCE ? e->source : e->message_id;
	} else {
		o = pos < ix_count_out(s->ix) ? sent_at(s, pos) : NULL;
		v = o == NULL ? NULL : t == IX_OUT_KEY ? o->key : o->message_id;
	}
	return v != NULL && strcmp(v, key) == 0;
}

/* The position of the entry of table t (IX_ID, IX_SOURCE, IX_MSGID: the
 * first with it, of each text; IX_OUT_KEY, IX_OUT_MSGID: sent) whose key
 * is key, or SIZE_MAX. */
static size_t
find(const struct spool *s, enum ix_table t, const char *key)
{
	size_t at = SIZE_MAX, pos, found = SIZE_MAX;
	uint32_t h = key_hash(key);
	char *k = NULL;

	while ((pos = ix_next(s->ix, t, h, &at)) != SIZE_MAX) {
		if (k == NULL)
			k = xstrdup(key);
		if (has_key(s, t, pos, k)) {
			found = pos;
			break;
		}
	}
	free(k);
	return found;
}

/* Split a record (modified in place) into at most max tab-separated
 * fields, the last taking the rest; the fields after the first (the
 * record's kind) decoded, "-" as NULL. Returns the number of fields. */
static int
split_record(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		char *tab = strchr(p, '\t');
		f[n++] = p;
		if (tab == NULL)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	for (int i = 1; i < n; i++)
		f[i] = get_field(f[i]);
	return n;
}

/* Keep the place of a cursor record that orders the judge's work: a run,
 * the clock, the settings (spool_mark_run). */
static void
note_cursor(struct spool *s, const char *name, const char *value)
{
	time_t t;

	if (strcmp(name, "run") == 0 && parse_time(value, &t) == 0) {
		s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof *s->runs);
		s->runs[s->nruns].time = t;
		s->runs[s->nruns++].rec = ++s->nrec;
	} else if (strcmp(name, "clock") == 0) {
		s->clock_rec = ++s->nrec;
	} else if (strcmp(name, "settings") == 0) {
		s->settings = xreallocarray(s->settings, s->nsettings + 1, sizeof *s->settings);
		s->settings[s->nsettings].value = xstrdup(value);
		s->settings[s->nsettings++].rec = ++s->nrec;
	}
}

/* Apply one ledger line (modified in place). Returns 0 or -1 (damaged). */
static int
load_record(struct spool *s, char *line, uint64_t off)
{
	char *f[9];
	int n = split_record(line, f, 9);
	time_t t;
	long size;

	if (strcmp(f[0], "in") == 0 && (n == 7 || n == 8)) {
		if (!msg_fields_ok(f, n, "in", &t, &size) || find(s, IX_ID, f[1]) != SIZE_MAX)
			return -1;
		add_in(s, off, f[1], t, f[4], f[5], f[6]);
		return 0;
	}
	if (strcmp(f[0], "applied") == 0 && n == 3) {
		size_t i = f[1] ? find(s, IX_ID, f[1]) : SIZE_MAX;
		struct islot sl;
		if (i == SIZE_MAX || parse_time(f[2], &t) < 0)
			return -1;
		ix_get_in(s->ix, i, &sl);
		if (sl.state == SPOOL_STORED)
			s->npending--;
		sl.state = SPOOL_APPLIED;
		sl.applied = t;
		ix_put_in(s->ix, i, &sl);
		return 0;
	}
	if (strcmp(f[0], "out") == 0 && (n == 7 || n == 8)) {
		if (!msg_fields_ok(f, n, "out", &t, &size))
			return -1;
		add_out(s, off, f[1], f[4], f[5]);
		return 0;
	}
	if (strcmp(f[0], "cursor") == 0 && n == 3 && f[1] != NULL) {
		set_cursor(s, f[1], f[2] ? f[2] : "");
		note_cursor(s, f[1], f[2] ? f[2] : "");
		return 0;
	}
	return -1;
}

/* The size of the ledger (fd, size bytes) up to the end of its last whole
 * line: less when a crash tore the last record. */
static off_t
whole_lines(int fd, off_t size)
{
	char chunk[4096];
	off_t end = size;

	while (end > 0) {
		size_t n = end < (off_t)sizeof chunk ? (size_t)end : sizeof chunk;
		ssize_t got = pread(fd, chunk, n, end - (off_t)n);
		if (got != (ssize_t)n)
			return -1;
		for (size_t i = n; i > 0; i--)
			if (chunk[i - 1] == '\n')
				return end - (off_t)n + (off_t)i;
		end -= (off_t)n;
	}
	return 0;
}

/* Take ledger line p (number lineno, at place off): the magic line, then
 * records. Returns 0, or -1 with the reason in err. */
static int
load_line(struct spool *s, char *p, unsigned long lineno, uint64_t off, struct buf *err)
{
	if (lineno == 1) {
		if (strcmp(p, LEDGER_MAGIC) != 0 && strcmp(p, LEDGER_MAGIC_V2) != 0 &&
		    strcmp(p, LEDGER_MAGIC_V1) != 0) {
			buf_printf(err, "%s:1: not a pouch spool ledger\n", s->ledger);
			return -1;
		}
		return 0;
	}
	if (*p == '\0')
		return 0;
	if (!s->v1 && check_record(p) < 0) {
		buf_printf(err, "%s:%d: damaged record (its checksum does not match); the spool "
		    "is left alone\n", s->ledger, (int)lineno);
		return -1;
	}
	if (load_record(s, p, off) < 0) {
		buf_printf(err, "%s:%d: damaged record; the spool is left alone\n", s->ledger, (int)lineno);
		return -1;
	}
	return 0;
}

/* Read the ledger's records from place from (0, or where the index's
 * records end, s->nlines lines in) in pieces (memory does not grow with
 * it): each is kept as its place and what the indexes need. */
static int
load_ledger(struct spool *s, uint64_t from, struct buf *err)
{
	int fd = open(s->ledger, O_RDONLY | O_CLOEXEC), rc = 0;
	unsigned long lineno = from ? s->nlines : 0;
	size_t cap = LEDGER_CHUNK, have = 0;
	uint64_t base = from;
	struct stat st;
	off_t keep;
	char *b;

	if (fd < 0 && errno == ENOENT) {
		buf_printf(&s->pending, "%s\n", LEDGER_MAGIC);
		s->ledger_new = true;
		return 0;
	}
	if (fd < 0 || fstat(fd, &st) < 0 || (keep = whole_lines(fd, st.st_size)) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", s->ledger, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((uint64_t)keep < from) {
		buf_printf(err, "%s: shorter than its index says\n", s->ledger);
		close(fd);
		return -1;
	}
	if (keep < st.st_size) {
		log_warn("%s: cutting off an incomplete last record (an interrupted write)", s->ledger);
		if (truncate(s->ledger, keep) < 0) {
			buf_printf(err, "%s: cannot truncate: %s\n", s->ledger, strerror(errno));
			close(fd);
			return -1;
		}
	}
	if (keep == 0) {
		close(fd);
		buf_printf(&s->pending, "%s\n", LEDGER_MAGIC);
		s->ledger_new = true;
		return 0;
	}
	s->ledger_size = (uint64_t)keep;
	if (from > 0 && lseek(fd, (off_t)from, SEEK_SET) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", s->ledger, strerror(errno));
		close(fd);
		return -1;
	}
	b = xmalloc(cap);
	while (rc == 0 && base + have < (uint64_t)keep) {
		size_t want = cap - have, done = 0;
		char *p, *nl;
		ssize_t n;

		if ((uint64_t)keep - base - have < want)
			want = (size_t)((uint64_t)keep - base - have);
		n = read(fd, b + have, want);
		if (n <= 0) {
			buf_printf(err, "%s: cannot read: %s\n", s->ledger, n < 0 ? strerror(errno) :
			    "it became shorter");
			rc = -1;
			break;
		}
		have += (size_t)n;
		for (p = b; rc == 0 && (nl = memchr(p, '\n', have - done)) != NULL; p = nl + 1) {
			*nl = '\0';
			rc = load_line(s, p, ++lineno, base + done, err);
			done += (size_t)(nl + 1 - p);
		}
		memmove(b, b + done, have - done);
		base += done;
		have -= done;
		if (have == cap) {	/* a line longer than the buffer */
			cap *= 2;
			b = xrealloc(b, cap);
		}
	}
	free(b);
	close(fd);
	s->nlines = lineno;
	return rc;
}

/* "SIZE MTIME_S MTIME_NS INODE" of the ledger on disk, or "" when absent. */
static void
ledger_stamp(const struct spool *s, char *out, size_t n)
{
	struct stat st;

	if (stat(s->ledger, &st) < 0) {
		*out = '\0';
		return;
	}
	snprintf(out, n, "%lld %lld %ld %llu", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
	    (long)st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
}

/*
 * ledger.sum: the magic line, "ledger STAMP", "pending N", a "cursor NAME
 * VALUE" line (fields as in the ledger) per cursor, "end". Read when it
 * describes the ledger as it is; returns 0 with the cursors and the count
 * taken, -1 (nothing taken) otherwise.
 */
static int
read_summary(struct spool *s)
{
	char stamp[128], *p, *end, *nl;
	struct buf b;
	long pending = -1;
	int line = 0, stamped = 0, done = 0;

	ledger_stamp(s, stamp, sizeof stamp);
	buf_init(&b, 1 << 20);
	if (*stamp == '\0' || fs_read_file(s->summary, &b) < 0 || b.len == 0 ||
	    b.data[b.len - 1] != '\n') {
		buf_free(&b);
		return -1;
	}
	for (p = b.data, end = b.data + b.len; p < end && !done; p = nl + 1) {
		char *f[3];
		int n;

		nl = memchr(p, '\n', (size_t)(end - p));
		*nl = '\0';
		if (line++ == 0) {
			if (strcmp(p, SUMMARY_MAGIC) != 0)
				break;
			continue;
		}
		n = split_record(p, f, 3);
		if (strcmp(f[0], "ledger") == 0 && n == 2 && f[1] != NULL) {
			if (strcmp(f[1], stamp) != 0)
				break;
			stamped = 1;
		} else if (strcmp(f[0], "pending") == 0 && n == 2 && f[1] != NULL) {
			if (str_to_long(f[1], 0, LONG_MAX, &pending) < 0)
				break;
		} else if (strcmp(f[0], "cursor") == 0 && n == 3 && f[1] != NULL) {
			set_cursor(s, f[1], f[2] ? f[2] : "");
		} else if (strcmp(f[0], "end") == 0 && n == 1) {
			done = 1;
		} else {
			break;
		}
	}
	buf_free(&b);
	if (!done || !stamped || pending < 0) {
		free_cursors(&s->cursors, &s->ncursors);
		return -1;
	}
	s->npending = (size_t)pending;
	return 0;
}

/* Describe the ledger as it now is on disk (at close, when it changed or
 * the summary did not describe it). A cache: a failure is only logged. */
static void
write_summary(struct spool *s)
{
	char stamp[128];
	struct buf b;
	size_t i;

	ledger_stamp(s, stamp, sizeof stamp);
	if (*stamp == '\0')
		return;
	buf_init(&b, 1 << 20);
	buf_printf(&b, "%s\nledger\t%s\npending\t%zu\n", SUMMARY_MAGIC, stamp, s->npending);
	for (i = 0; i < s->ncursors; i++) {
		buf_puts(&b, "cursor");
		put_field(&b, s->cursors[i].name);
		put_field(&b, s->cursors[i].value);
		buf_putc(&b, '\n');
	}
	buf_puts(&b, "end\n");
	if (buf_failed(&b))
		log_debug("%s: not written: longer than %u bytes", s->summary, 1u << 20);
	else if (fs_replace(s->summary, b.data, b.len) < 0)
		log_debug("%s: not written: %s", s->summary, strerror(errno));
	else
		s->summary_ok = true;
	buf_free(&b);
}

/* DATA/spool/next-seq */
static void
floor_path(const struct spool *s, char *p, size_t size)
{
	snprintf(p, size, "%s/next-seq", s->dir);
}

/* At open: next-seq, when a spool closed cleanly wrote it. */
static void
read_floor(struct spool *s)
{
	char p[PATH_MAX];
	struct buf b;
	long v;

	floor_path(s, p, sizeof p);
	buf_init(&b, 64);
	if (fs_read_file(p, &b) == 0 && b.len > 1 && b.data[b.len - 1] == '\n') {
		buf_truncate(&b, b.len - 1);
		if (str_to_long(buf_str(&b), 1, LONG_MAX, &v) == 0) {
			s->seq_floor = (unsigned long)v;
			s->floor_known = s->floor_file = true;
		}
	}
	buf_free(&b);
}

/* Without next-seq (a run was killed, or failed, after publishing files it
 * never recorded): the highest sequence number a file in in/ or out/ has,
 * found once by reading the folders. False when one cannot be read. */
static bool
scan_floor(struct spool *s)
{
	static const char *const subs[] = { "new", "cur" };
	const char *dirs[2] = { s->in_dir, s->out_dir };
	unsigned long top = 0;
	char p[PATH_MAX];

	for (size_t d = 0; d < 2; d++)
		for (size_t k = 0; k < 2; k++) {
			DIR *dp;
			struct dirent *e;

			snprintf(p, sizeof p, "%s/%s", dirs[d], subs[k]);
			if ((dp = opendir(p)) == NULL)
				return false;
			while ((e = readdir(dp)) != NULL) {
				const char *dot = strchr(e->d_name, '.');
				char *end;
				unsigned long seq;

				if (dot == NULL)
					continue;
				seq = strtoul(dot + 1, &end, 10);
				if (end != dot + 1 && *end == '.' && seq > top)
					top = seq;
			}
			closedir(dp);
		}
	s->seq_floor = top + 1;
	s->floor_known = true;
	return true;
}

/* Before the first file of this process is published into out/new (a
 * sent message taken by a link): next-seq goes, for good, so that a run
 * killed from now on leaves no next-seq that its files would belie.
 * Returns 0 or -1/errno. */
static int
unmark_floor(struct spool *s)
{
	char p[PATH_MAX];

	if (!s->floor_file)
		return 0;
	floor_path(s, p, sizeof p);
	crash_point();
	if ((unlink(p) < 0 && errno != ENOENT) || fs_fsync_dir(s->dir) < 0)
		return -1;
	s->floor_file = false;
	return 0;
}

/* At a clean close: next-seq says where the ids go on (not synced: lost,
 * the next process reads the folders instead). */
static void
write_floor(struct spool *s)
{
	char p[PATH_MAX], v[32];
	unsigned long next = s->next_seq > s->seq_floor ? s->next_seq : s->seq_floor;

	if (!s->floor_known || s->floor_file)
		return;
	floor_path(s, p, sizeof p);
	snprintf(v, sizeof v, "%lu\n", next);
	if (fs_replace(p, v, strlen(v)) == 0)
		s->floor_file = true;
}

/* The ledger on disk as the index records it: its size, mtime, inode and
 * the checksum of its last IX_TAIL_BYTES bytes before size. -1 when it
 * cannot be read (absent: size 0). */
static int
ledger_stamp_at(const struct spool *s, uint64_t size, struct ix_stamp *st)
{
	struct stat sb;
	char tail[IX_TAIL_BYTES];
	size_t n = size < sizeof tail ? (size_t)size : sizeof tail;
	int fd;

	memset(st, 0, sizeof *st);
	if (stat(s->ledger, &sb) < 0)
		return errno == ENOENT ? 0 : -1;
	st->size = (uint64_t)sb.st_size;
	st->mtime_s = (int64_t)sb.st_mtim.tv_sec;
	st->mtime_ns = (int64_t)sb.st_mtim.tv_nsec;
	st->ino = (uint64_t)sb.st_ino;
	if (size > st->size || (fd = open(s->ledger, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (pread(fd, tail, n, (off_t)(size - n)) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	close(fd);
	st->tail = record_sum(tail, n);
	return 0;
}

/* The spool's own state, kept with the index (ix_commit): the counters,
 * the cursors, the runs and the settings; lines of tab-separated fields. */
static void
meta_put(const struct spool *s, struct buf *b)
{
	buf_printf(b, "n\t%lu\t%lu\t%lu\t%lu\t%lld\t%zu\n", s->nlines, s->next_seq, s->nrec,
	    s->clock_rec, (long long)s->last_arrival, s->npending);
	for (size_t i = 0; i < s->ncursors; i++) {
		buf_putc(b, 'c');
		put_field(b, s->cursors[i].name);
		put_field(b, s->cursors[i].value);
		buf_putc(b, '\n');
	}
	for (size_t i = 0; i < s->nruns; i++)
		buf_printf(b, "r\t%lld\t%lu\n", (long long)s->runs[i].time, s->runs[i].rec);
	for (size_t i = 0; i < s->nsettings; i++) {
		buf_printf(b, "s\t%lu", s->settings[i].rec);
		put_field(b, s->settings[i].value);
		buf_putc(b, '\n');
	}
	buf_puts(b, "end\n");
}

static int
meta_ulong(const char *f, unsigned long *v)
{
	long x;

	if (f == NULL || str_to_long(f, 0, LONG_MAX, &x) < 0)
		return -1;
	*v = (unsigned long)x;
	return 0;
}

/* Take the state meta_put wrote. Returns 0, or -1 (nothing trusted). */
static int
meta_take(struct spool *s, struct buf *b)
{
	char *p = b->data, *end = b->data + b->len, *nl;
	bool counted = false, done = false;

	for (; p < end && !done; p = nl + 1) {
		char *f[8];
		int n;
		unsigned long u[6];
		time_t t;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return -1;
		*nl = '\0';
		n = split_record(p, f, 8);
		if (strcmp(f[0], "n") == 0 && n == 7) {
			for (int i = 0; i < 6; i++)
				if (i != 4 && meta_ulong(f[i + 1], &u[i]) < 0)
					return -1;
			if (parse_time(f[5], &t) < 0)
				return -1;
			s->nlines = u[0];
			s->next_seq = u[1];
			s->nrec = u[2];
			s->clock_rec = u[3];
			s->last_arrival = t;
			s->npending = (size_t)u[5];
			counted = true;
		} else if (strcmp(f[0], "c") == 0 && n == 3 && f[1] != NULL) {
			set_cursor(s, f[1], f[2] ? f[2] : "");
		} else if (strcmp(f[0], "r") == 0 && n == 3 && parse_time(f[1], &t) == 0 &&
		    meta_ulong(f[2], &u[0]) == 0) {
			s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof *s->runs);
			s->runs[s->nruns].time = t;
			s->runs[s->nruns++].rec = u[0];
		} else if (strcmp(f[0], "s") == 0 && n == 3 && meta_ulong(f[1], &u[0]) == 0) {
			s->settings = xreallocarray(s->settings, s->nsettings + 1, sizeof *s->settings);
			s->settings[s->nsettings].value = xstrdup(f[2] ? f[2] : "");
			s->settings[s->nsettings++].rec = u[0];
		} else if (strcmp(f[0], "end") == 0 && n == 1) {
			done = true;
		} else {
			return -1;
		}
	}
	return counted && done ? 0 : -1;
}

/* Forget what meta_take took (the index is not trusted after all). */
static void
meta_forget(struct spool *s)
{
	free_cursors(&s->cursors, &s->ncursors);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
	for (size_t k = 0; k < s->nsettings; k++)
		free(s->settings[k].value);
	free(s->settings);
	s->settings = NULL;
	s->nsettings = 0;
	s->nlines = s->nrec = s->clock_rec = 0;
	s->next_seq = 1;
	s->last_arrival = 0;
	s->npending = 0;
}

/* The index in a temporary file instead (DIR/index cannot be written: a
 * full disk, a read-only file system), made from the ledger and never
 * kept. Returns 0, or -1 (err). */
static int
temp_index(struct spool *s, struct buf *err)
{
	log_warn("%s: cannot write: %s; the ledger is read into a temporary file",
	    s->index_path, strerror(errno));
	ix_close(s->ix);
	if ((s->ix = ix_open_temp()) == NULL) {
		buf_printf(err, "%s: cannot make an index: %s\n", s->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The index of the ledger (DIR/index, index.h), trusted only when it was
 * committed whole for this very ledger: its size, mtime and inode (then
 * nothing is read), or a ledger that only grew since (the same inode, the
 * same bytes before the place the index covers, as their checksum says:
 * a pouch without the index appended to it; then only the records after
 * that place are read). Otherwise it is made again from the whole ledger,
 * read in pieces, and judge.log says why. Returns 0, or -1 (err).
 */
static int
open_index(struct spool *s, struct buf *err)
{
	struct ix_stamp st, now;
	struct buf meta;
	const char *why;
	bool loud = true;	/* not a new index nor a copied spool's */

	if (s->ix == NULL) {
		s->index_path = xasprintf("%s/index", s->dir);
		if ((s->ix = ix_open(s->index_path)) == NULL && temp_index(s, err) < 0)
			return -1;
	}
	buf_init(&meta, LEDGER_MAX);
	if ((why = ix_whole(s->ix, &st, &meta)) != NULL) {
		if (*why == '\0') {
			why = "there was none";
			loud = false;
		}
		if (why == ix_not_whole)
			loud = false;	/* the failed run said why */
	} else if (ledger_stamp_at(s, st.size, &now) < 0 || now.size < st.size)
		why = "the ledger is shorter than it says";
	else if (now.ino != st.ino || now.tail != st.tail || (now.size == st.size &&
	    (now.mtime_s != st.mtime_s || now.mtime_ns != st.mtime_ns))) {
		why = "the ledger is not the file it describes, or was changed since";
		loud = false;	/* a copy of the data directory, too */
	} else if (meta_take(s, &meta) < 0) {
		meta_forget(s);
		why = "it is damaged";
	}
	buf_free(&meta);
	if (why == NULL) {
		s->ledger_size = st.size;
		if (now.size > st.size && load_ledger(s, st.size, err) < 0)
			return -1;
		return 0;
	}
	if (ix_reset(s->ix) < 0 && temp_index(s, err) < 0)
		return -1;
	if (ledger_stamp_at(s, 0, &now) == 0 && now.size > 0) {
		if (loud)
			log_warn("%s: made again from the ledger: %s", s->index_path, why);
		else
			log_info("%s: made again from the ledger: %s", s->index_path, why);
	}
	return load_ledger(s, 0, err);
}

/* At close: the index made whole for the ledger as it now is, when it
 * changed or the ledger grew (a cache: a failure is only logged). */
static void
commit_index(struct spool *s)
{
	struct ix_stamp st;
	struct buf meta;

	if (s->ix == NULL || !s->indexed || s->broken || s->cache->damaged || ix_failed(s->ix) ||
	    s->index_path == NULL || ledger_stamp_at(s, s->ledger_size, &st) < 0 ||
	    st.size != s->ledger_size)
		return;
	if (!ix_changed(s->ix) && !s->ledger_grew)
		return;
	buf_init(&meta, LEDGER_MAX);
	meta_put(s, &meta);
	if (buf_failed(&meta) || ix_commit(s->ix, &st, meta.data, meta.len) < 0)
		log_warn("%s: not written: %s", s->index_path, strerror(errno));
	buf_free(&meta);
}

static struct spool *
open_spool(const char *dir, bool lazy, struct buf *err)
{
	struct spool *s = xcalloc(1, sizeof *s);
	char *lock;

	s->dir = xstrdup(dir);
	s->in_dir = xasprintf("%s/in", dir);
	s->out_dir = xasprintf("%s/out", dir);
	s->ledger = xasprintf("%s/ledger", dir);
	s->summary = xasprintf("%s/ledger.sum", dir);
	s->lock_fd = -1;
	s->pack_dir = xasprintf("%s/pack", dir);
	s->pack_fd = -1;
	s->rd = xcalloc(1, sizeof *s->rd);
	s->rd->fd = -1;
	s->next_seq = 1;
	s->cache = xcalloc(1, sizeof *s->cache);
	s->cache->fd = -1;
	for (size_t k = 0; k < SPOOL_ENTRY_CACHE; k++)
		s->cache->in_pos[k] = s->cache->out_pos[k] = SIZE_MAX;
	buf_init(&s->cache->line, LEDGER_MAX);
	buf_init(&s->pending, LEDGER_MAX);
	if (fs_mkdir_p(dir, 0700) < 0 || md_create(s->in_dir) < 0 || md_create(s->out_dir) < 0 ||
	    ((s->pack_dir_new = mkdir(s->pack_dir, 0700) == 0) == false && errno != EEXIST)) {
		buf_printf(err, "%s: cannot create the spool: %s\n", dir, strerror(errno));
		goto fail;
	}
	lock = xasprintf("%s/lock", dir);
	s->lock_fd = fs_lock(lock, SPOOL_LOCK_WAIT_MS);
	free(lock);
	if (s->lock_fd < 0) {
		buf_printf(err, "%s: %s\n", dir, errno == EWOULDBLOCK ?
		    "the spool is busy (another pouch is running)" : strerror(errno));
		goto fail;
	}
	md_clean_tmp(s->in_dir);
	md_clean_tmp(s->out_dir);
	read_floor(s);
	s->v1 = ledger_is_v1(s);
	if (lazy && read_summary(s) == 0) {
		s->summary_ok = s->known = true;
		return s;
	}
	if (open_index(s, err) < 0)
		goto fail;
	s->indexed = s->known = true;
	return s;
fail:
	spool_close(s, NULL);
	return NULL;
}

struct spool *
spool_open(const char *dir, struct buf *err)
{
	return open_spool(dir, false, err);
}

struct spool *
spool_open_lazy(const char *dir, struct buf *err)
{
	return open_spool(dir, true, err);
}

int
spool_index(struct spool *s, struct buf *err)
{
	struct cursor *newer;
	size_t nnewer, i;

	if (s->indexed)
		return 0;
	/* The cursors in memory may be newer than the ledger's (set since the
	 * open, not synced yet): they win over what the ledger replays. */
	newer = s->cursors;
	nnewer = s->ncursors;
	s->cursors = NULL;
	s->ncursors = 0;
	s->npending = 0;
	if (open_index(s, err) < 0) {
		s->broken = true;	/* the ledger changed under the summary */
		free_cursors(&newer, &nnewer);
		return -1;
	}
	for (i = 0; i < nnewer; i++)
		set_cursor(s, newer[i].name, newer[i].value);
	free_cursors(&newer, &nnewer);
	s->indexed = s->known = true;
	return 0;
}

size_t
spool_pending(const struct spool *s)
{
	return s->npending;
}

/* True (with the reason in err) after a failed write. */
static bool
refuse_broken(const struct spool *s, struct buf *err)
{
	if (s->cache->damaged && !s->broken && err != NULL)
		buf_printf(err, "%s: a ledger record changed since it was read; reopen the spool\n",
		    s->dir);
	else if (s->broken && err != NULL)
		buf_printf(err, "%s: an earlier write failed; reopen the spool\n", s->dir);
	else if (s->ix != NULL && ix_failed(s->ix) && err != NULL)
		buf_printf(err, "%s: cannot read or write its index; reopen the spool\n", s->dir);
	return s->broken || s->cache->damaged || (s->ix != NULL && ix_failed(s->ix));
}

int
spool_sync(struct spool *s, struct buf *err)
{
	if (refuse_broken(s, err))
		return -1;
	if (s->pack_fd >= 0) {
		/* the pack's bytes, then its name, durable before any record
		 * names it */
		int r;
		crash_point();
		r = fsync(s->pack_fd);
		close(s->pack_fd);
		s->pack_fd = -1;
		if (r == 0) {
			crash_point();
			r = fs_fsync_dir(s->pack_dir);
		}
		if (r == 0 && s->pack_dir_new && (r = fs_fsync_dir(s->dir)) == 0)
			s->pack_dir_new = false;
		if (r < 0) {
			s->broken = true;
			if (err)
				buf_printf(err, "%s/%s: cannot sync: %s\n", s->pack_dir, s->pack_name,
				    strerror(errno));
			return -1;
		}
	}
	if (s->out_linked) {	/* the names of the sent messages linked in */
		char d[PATH_MAX];
		snprintf(d, sizeof d, "%s/new", s->out_dir);
		if (fs_fsync_dir(d) < 0) {
			s->broken = true;
			if (err)
				buf_printf(err, "%s: cannot sync: %s\n", d, strerror(errno));
			return -1;
		}
		s->out_linked = false;
	}
	if (s->pending.len == 0)
		return 0;
	if (fs_append_sync(s->ledger, s->pending.data, s->pending.len) < 0) {
		/* part of it may be written: appending again could tear a record */
		s->broken = true;
		if (err)
			buf_printf(err, "%s: cannot write: %s\n", s->ledger, strerror(errno));
		return -1;
	}
	if (s->ledger_new) {	/* its directory entry must be durable too */
		if (fs_fsync_dir(s->dir) < 0) {
			if (err)
				buf_printf(err, "%s: cannot sync: %s\n", s->dir, strerror(errno));
			return -1;
		}
		s->ledger_new = false;
	}
	s->ledger_size += s->pending.len;
	for (const char *p = s->pending.data, *e = p + s->pending.len;
	    (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
		s->nlines++;
	s->ledger_grew = true;
	buf_reset(&s->pending);
	if (s->pending.cap > LEDGER_CHUNK) {	/* a big batch's room is not kept */
		buf_free(&s->pending);
		buf_init(&s->pending, LEDGER_MAX);
	}
	s->summary_ok = false;	/* rewritten at close */
	return 0;
}

/* The batch's pack, not synced, goes: no record names it. */
static void
drop_pack(struct spool *s)
{
	char p[PATH_MAX];

	if (s->pack_fd < 0)
		return;
	close(s->pack_fd);
	s->pack_fd = -1;
	snprintf(p, sizeof p, "%s/%s", s->pack_dir, s->pack_name);
	unlink(p);
}

void
spool_discard(struct spool *s)
{
	/* the batch's pack goes; no summary, which would count the
	 * forgotten marks */
	drop_pack(s);
	s->out_linked = false;	/* its files stay, never listed */
	buf_reset(&s->pending);
	s->broken = true;
	s->discarded = true;
}

int
spool_close(struct spool *s, struct buf *err)
{
	size_t i;
	int r = 0;

	if (s == NULL)
		return 0;
	if (s->lock_fd >= 0 && !s->discarded) {
		r = spool_sync(s, err);
		if (r == 0)
			commit_index(s);
		if (r == 0 && s->known && !s->summary_ok)
			write_summary(s);	/* for the next lazy open */
		if (r == 0 && !s->broken)
			write_floor(s);
	}
	for (i = 0; i < SPOOL_ENTRY_CACHE; i++) {
		entry_free(&s->cache->in[i]);
		sent_free(&s->cache->out[i]);
	}
	if (s->cache->fd >= 0)
		close(s->cache->fd);
	buf_free(&s->cache->line);
	free(s->cache);
	free_cursors(&s->cursors, &s->ncursors);
	free(s->runs);
	for (size_t k = 0; k < s->nsettings; k++)
		free(s->settings[k].value);
	free(s->settings);
	ix_close(s->ix);
	free(s->index_path);
	drop_pack(s);
	if (s->rd->fd >= 0)
		close(s->rd->fd);
	free(s->rd);
	free(s->pack_dir);
	buf_free(&s->pending);
	fs_unlock(s->lock_fd);
	free(s->dir);
	free(s->in_dir);
	free(s->out_dir);
	free(s->ledger);
	free(s->summary);
	free(s);
	return r;
}

/* Is id the name of a file in the other message folder (one a killed run
 * left there without a ledger record)? Ids name one message in both. */
static bool
taken_elsewhere(const struct spool *s, const char *dir, const char *id)
{
	static const char *const subs[] = { "/new/", "/cur/", "/tmp/" };
	const char *other = strcmp(dir, s->in_dir) == 0 ? s->out_dir : s->in_dir;
	size_t ol = strlen(other), il = strlen(id), i;
	char p[PATH_MAX];

	if (ol + 5 + il >= sizeof p)
		return true;	/* no such file can be made either */
	memcpy(p, other, ol);
	memcpy(p + ol + 5, id, il + 1);
	for (i = 0; i < sizeof subs / sizeof subs[0]; i++) {
		memcpy(p + ol, subs[i], 5);
		if (fs_exists(p))
			return true;
	}
	return false;
}

/* A fresh id "TIME.SEQ.pouch" for a message of time t: past every id of
 * the ledger and, in a spool whose folders hold files (an older pouch's),
 * past every file's. Returns it (static buffer), or NULL. */
static const char *
new_id(struct spool *s, time_t t, struct buf *err)
{
	static char id[64];
	int tries;

	if (s->floor_known || scan_floor(s)) {
		if (s->next_seq < s->seq_floor)
			s->next_seq = s->seq_floor;
	}
	for (tries = 0; tries < 1000; tries++, s->next_seq++) {
		snprintf(id, sizeof id, "%lld.%06lu.pouch", (long long)t, s->next_seq);
		if (s->floor_known ||
		    (!taken_elsewhere(s, s->in_dir, id) && !taken_elsewhere(s, s->out_dir, id)))
			return id;
	}
	buf_printf(err, "%s: no free id for a message\n", s->dir);
	return NULL;
}

/* Append message data to the batch's pack, made when it is the batch's
 * first (named after its sequence number, seq: a pack of that name is one a
 * killed run left, which no record names, and is written over). Its place
 * into place ("NAME:OFFSET"). Returns 0, or -1 (after a failed write the
 * spool refuses further work). */
static int
pack_put(struct spool *s, unsigned long seq, const void *data, size_t len, char *place,
    size_t size, struct buf *err)
{
	char p[PATH_MAX];

	if (s->pack_fd < 0) {
		snprintf(s->pack_name, sizeof s->pack_name, "%06lu.pack", seq);
		snprintf(p, sizeof p, "%s/%s", s->pack_dir, s->pack_name);
		crash_point();
		s->pack_fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		s->pack_len = 0;
		if (s->pack_fd < 0) {
			buf_printf(err, "%s: cannot store a message: %s\n", p, strerror(errno));
			return -1;
		}
	}
	if (fs_write_all(s->pack_fd, data, len) < 0) {
		/* part of it may be written: the places after it would be wrong */
		s->broken = true;
		buf_printf(err, "%s/%s: cannot store a message: %s\n", s->pack_dir, s->pack_name,
		    strerror(errno));
		return -1;
	}
	snprintf(place, size, "%s:%llu", s->pack_name, (unsigned long long)s->pack_len);
	s->pack_len += len;
	return 0;
}

/* Commit the batch early when its records reached SPOOL_BATCH_BYTES. The
 * source is told of no message before the caller's own spool_sync, so
 * this only makes some records durable sooner: a crash after it leaves
 * stored messages the source still offers, recognised by their source
 * identity when fetched again. Returns 0 or -1 (err). */
static int
batch_room(struct spool *s, struct buf *err)
{
	if (s->pending.len < SPOOL_BATCH_BYTES)
		return 0;
	return spool_sync(s, err);
}

/* Where the text of message data[0..len) begins: past its header's empty
 * line (the whole when it has none). */
static size_t
body_at(const char *data, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (data[i] == '\n' && (data[i + 1] == '\n' ||
		    (data[i + 1] == '\r' && i + 2 < len && data[i + 2] == '\n')))
			return i + (data[i + 1] == '\n' ? 2 : 3);
	return 0;
}

/* Does data[0..len) say something else than message e, whose Message-ID it
 * has (a correction sent under the same Message-ID, another sender's
 * message)? A copy delivered twice differs at most in its header. When e
 * cannot be read, it is taken for the same (a copy, never applied). */
static bool
other_text(const struct spool *s, const struct spool_entry *e, const void *data, size_t len)
{
	struct buf old, err;
	size_t a, b;
	bool other = false;

	buf_init(&old, e->size + 1);
	buf_init(&err, BUF_ERRORS_MAX);
	if (spool_read(s, e->id, &old, &err) == 0) {
		a = body_at(old.data, old.len);
		b = body_at(data, len);
		other = old.len - a != len - b ||
		    (len > b && memcmp(old.data + a, (const char *)data + b, len - b) != 0);
	}
	buf_free(&err);
	buf_free(&old);
	return other;
}

/* At most this many earlier texts under one Message-ID are compared with a
 * new message's (a mail program that gives every mail the same one). */
#define COPY_TEXTS 8

/* The message of which data[0..len), under Message-ID msgid, is a copy:
 * one with that Message-ID and the same text; SIZE_MAX when none. */
static size_t
copy_of(const struct spool *s, const char *msgid, const void *data, size_t len)
{
	size_t at = SIZE_MAX, pos, found = SIZE_MAX;
	const struct spool_entry *e;
	char *k = xstrdup(msgid);
	int tried = 0;

	while (tried < COPY_TEXTS && (pos = ix_next(s->ix, IX_MSGID, key_hash(k), &at)) != SIZE_MAX) {
		if (!has_key(s, IX_MSGID, pos, k))
			continue;
		tried++;
		if ((e = entry_at(s, pos)) != NULL && !other_text(s, e, data, len)) {
			found = pos;
			break;
		}
	}
	free(k);
	return found;
}

int
spool_store_in(struct spool *s, const char *source, const char *message_id,
    const void *data, size_t len, time_t arrival, const char **id, struct buf *err)
{
	const struct spool_entry *e;
	const char *name;
	char *dup = NULL, place[PACK_NAME_MAX + 24];
	size_t pos, start;
	uint64_t off;

	if (refuse_broken(s, err) || spool_index(s, err) < 0)
		return -1;
	if (source != NULL && (pos = find(s, IX_SOURCE, source)) != SIZE_MAX) {
		if (id)
			*id = entry_at(s, pos)->id;
		return 0;
	}
	if (batch_room(s, err) < 0)
		return -1;
	if (arrival < s->last_arrival)
		arrival = s->last_arrival;
	if (arrival < spool_clock(s))
		arrival = spool_clock(s);
	if ((name = new_id(s, arrival, err)) == NULL ||
	    pack_put(s, s->next_seq, data, len, place, sizeof place, err) < 0)
		return -1;
	if (message_id != NULL && *message_id == '\0')
		message_id = NULL;
	if (message_id != NULL && (pos = copy_of(s, message_id, data, len)) != SIZE_MAX &&
	    (e = entry_at(s, pos)) != NULL)
		dup = xstrdup(e->id);
	off = s->ledger_size + s->pending.len;
	start = s->pending.len;
	buf_puts(&s->pending, "in");
	put_field(&s->pending, name);
	buf_printf(&s->pending, "\t%lld\t%zu", (long long)arrival, len);
	put_field(&s->pending, source);
	put_field(&s->pending, message_id);
	put_field(&s->pending, dup);
	put_field(&s->pending, place);
	end_record(s, start);
	add_in(s, off, name, arrival, source, message_id, dup);
	free(dup);
	if (id)
		*id = entry_at(s, ix_count_in(s->ix) - 1)->id;
	return 1;
}

size_t
spool_count_in(const struct spool *s)
{
	assert(s->indexed);
	return ix_count_in(s->ix);
}

const struct spool_entry *
spool_in(const struct spool *s, size_t i)
{
	assert(s->indexed);
	return i < ix_count_in(s->ix) ? entry_at(s, i) : NULL;
}

enum spool_state
spool_state(const struct spool *s, size_t i)
{
	struct islot sl;

	assert(s->indexed && i < ix_count_in(s->ix));
	ix_get_in(s->ix, i, &sl);
	if (ix_failed(s->ix))
		return SPOOL_DUPLICATE;	/* not read: never to be applied */
	return (enum spool_state)sl.state;
}

const struct spool_entry *
spool_lookup(const struct spool *s, const char *id)
{
	size_t i;

	assert(s->indexed);
	i = find(s, IX_ID, id);
	return i == SIZE_MAX ? NULL : entry_at(s, i);
}

const struct spool_entry *
spool_lookup_source(const struct spool *s, const char *source)
{
	size_t i;

	assert(s->indexed);
	i = find(s, IX_SOURCE, source);
	return i == SIZE_MAX ? NULL : entry_at(s, i);
}

/* Mark inbound entry i, whose id is id, applied at now (spool_mark_applied). */
static int
mark_applied(struct spool *s, size_t i, const char *id, time_t now, struct buf *err)
{
	struct islot slot, *e = &slot;
	size_t start;

	ix_get_in(s->ix, i, e);
	if (ix_failed(s->ix)) {
		buf_printf(err, "%s: cannot read: %s\n", s->index_path, strerror(EIO));
		return -1;
	}
	if (e->state == SPOOL_APPLIED)
		return 1;
	if (e->state == SPOOL_DUPLICATE) {
		const struct spool_entry *d = entry_at(s, i);
		buf_printf(err, "spool: %s is a duplicate of %s and is never applied\n", id,
		    d && d->dup_of ? d->dup_of : "another");
		return -1;
	}
	e->state = SPOOL_APPLIED;
	e->applied = now;
	ix_put_in(s->ix, i, e);
	if (s->cache->in_pos[i % SPOOL_ENTRY_CACHE] == i) {	/* a copy handed out */
		s->cache->in[i % SPOOL_ENTRY_CACHE].state = SPOOL_APPLIED;
		s->cache->in[i % SPOOL_ENTRY_CACHE].applied = now;
	}
	s->npending--;
	start = s->pending.len;
	buf_puts(&s->pending, "applied");
	put_field(&s->pending, id);
	buf_printf(&s->pending, "\t%lld", (long long)now);
	end_record(s, start);
	return 0;
}

int
spool_mark_applied(struct spool *s, const char *id, time_t now, struct buf *err)
{
	size_t i;

	if (spool_index(s, err) < 0)
		return -1;
	i = find(s, IX_ID, id);
	if (i == SIZE_MAX) {
		buf_printf(err, "spool: no inbound message %s\n", id);
		return -1;
	}
	return mark_applied(s, i, id, now, err);
}

int
spool_mark_applied_at(struct spool *s, size_t i, time_t now, struct buf *err)
{
	struct islot slot, *sl = &slot;
	char id[ID_FORMAT_MAX];

	if (spool_index(s, err) < 0)
		return -1;
	if (i >= ix_count_in(s->ix)) {
		buf_printf(err, "spool: no inbound message at %zu\n", i);
		return -1;
	}
	ix_get_in(s->ix, i, sl);
	if (sl->id_digits != 0) {
		id_format(id, sl->id_time, sl->id_digits, sl->id_seq);
	} else {
		const struct spool_entry *e = entry_at(s, i);
		if (e == NULL) {
			buf_printf(err, "%s: a record changed since it was read\n", s->ledger);
			return -1;
		}
		str_copy(id, e->id, sizeof id);
	}
	return mark_applied(s, i, id, now, err);
}

/* The pack name, open for reading (kept for the next message). Returns
 * its descriptor, or -1/errno. */
static int
pack_open(const struct spool *s, const char *name)
{
	struct packrd *rd = s->rd;
	char p[PATH_MAX];

	if (rd->fd >= 0 && strcmp(rd->name, name) == 0)
		return rd->fd;
	if (rd->fd >= 0)
		close(rd->fd);
	rd->fd = -1;
	snprintf(p, sizeof p, "%s/%s", s->pack_dir, name);
	if ((rd->fd = open(p, O_RDONLY | O_CLOEXEC)) >= 0)
		str_copy(rd->name, name, sizeof rd->name);
	return rd->fd;
}

/* Append to out the bytes of the message whose record, of kind, is at
 * ledger place off: from its pack, or, a record of an older ledger (no
 * place), from its file in dir. Returns 0, or -1 with a reason in err. */
static int
read_message(const struct spool *s, uint64_t off, const char *kind, const char *dir,
    struct buf *out, struct buf *err)
{
	char *f[9], *line = read_record(s, off), *name, path[PATH_MAX];
	int n = line ? split_record(line, f, 9) : 0, fd;
	uint64_t at;
	time_t t;
	long size;

	if (line == NULL || !msg_fields_ok(f, n, kind, &t, &size)) {
		damaged(s, off);
		buf_printf(err, "%s: the record at byte %llu does not read\n", s->ledger,
		    (unsigned long long)off);
		return -1;
	}
	if (n == 8 && f[7] != NULL) {
		size_t done = 0;
		char chunk[8192];

		parse_place(f[7], &name, &at);
		if ((fd = pack_open(s, name)) < 0) {
			buf_printf(err, "%s/%s: cannot read: %s\n", s->pack_dir, name, strerror(errno));
			return -1;
		}
		while (done < (size_t)size) {
			size_t want = (size_t)size - done < sizeof chunk ? (size_t)size - done : sizeof chunk;
			ssize_t r = pread(fd, chunk, want, (off_t)(at + done));
			if (r <= 0 || buf_append(out, chunk, (size_t)r) < 0) {
				buf_printf(err, "%s/%s: cannot read message %s: %s\n", s->pack_dir, name,
				    f[1], r < 0 ? strerror(errno) : "the pack is shorter than its record");
				return -1;
			}
			done += (size_t)r;
		}
		return 0;
	}
	if (strchr(f[1], '/') != NULL || f[1][0] == '.' || md_find(dir, f[1], path, sizeof path) < 0) {
		buf_printf(err, "spool: message %s not found\n", f[1]);
		return -1;
	}
	if (fs_read_file(path, out) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
spool_read(const struct spool *s, const char *id, struct buf *out, struct buf *err)
{
	size_t pos;

	assert(s->indexed);
	if ((pos = find(s, IX_ID, id)) != SIZE_MAX) {
		struct islot sl;
		ix_get_in(s->ix, pos, &sl);
		return read_message(s, sl.off, "in", s->in_dir, out, err);
	}
	for (pos = 0; pos < ix_count_out(s->ix); pos++) {
		const struct spool_sent *o = sent_at(s, pos);
		if (o != NULL && strcmp(o->id, id) == 0)
			return spool_read_out(s, pos, out, err);
	}
	buf_printf(err, "spool: message %s not found\n", id);
	return -1;
}

int
spool_read_out(const struct spool *s, size_t i, struct buf *out, struct buf *err)
{
	assert(s->indexed && i < ix_count_out(s->ix));
	return read_message(s, ix_get_out(s->ix, i), "out", s->out_dir, out, err);
}

/* A durable file src (the outbox's) into out/new/id by a hard link: its
 * bytes are on disk for good already, and the outbox's name for it goes
 * once it is sent, so the file lives on as the spool's copy, neither
 * copied nor freed (freeing a file costs more than a link). Only out/new
 * is synced, before the ledger names it (spool_sync). Returns 0, or -1
 * with errno (EXDEV: another file system). */
static int
link_out(struct spool *s, const char *id, const char *src)
{
	char p[PATH_MAX];

	if ((size_t)snprintf(p, sizeof p, "%s/new/%s", s->out_dir, id) >= sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (unmark_floor(s) < 0)
		return -1;
	crash_point();
	if (link(src, p) < 0)
		return -1;
	s->out_linked = true;
	return 0;
}

/* Archive a sent message: its bytes data (copied into the batch's pack),
 * or the durable file src (linked), or the bytes already durable at place
 * at in pack/ (named as they are). */
static int
store_out(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const void *data, size_t len, const char *src, const char *at, time_t when, const char **id,
    struct buf *err)
{
	const char *name;
	char place[PACK_NAME_MAX + 24] = "";
	size_t i, start;
	uint64_t off;

	if (refuse_broken(s, err) || spool_index(s, err) < 0)
		return -1;
	if (at != NULL) {
		if (strlen(at) >= sizeof place || (str_copy(place, at, sizeof place),
		    parse_place(place, NULL, NULL) < 0)) {
			buf_printf(err, "%s: cannot archive a sent message at \"%.80s\": not a place "
			    "in a pack\n", s->dir, at);
			return -1;
		}
	}
	if (key != NULL && (i = find(s, IX_OUT_KEY, key)) != SIZE_MAX) {
		if (id)
			*id = sent_at(s, i)->id;
		return 0;
	}
	if (batch_room(s, err) < 0 || (name = new_id(s, when, err)) == NULL)
		return -1;
	if (src != NULL && link_out(s, name, src) < 0) {
		int e = errno;
		buf_printf(err, "%s: cannot store a sent message: %s\n", s->out_dir, strerror(e));
		errno = e;
		return -1;
	}
	if (src == NULL && at == NULL &&
	    pack_put(s, s->next_seq, data, len, place, sizeof place, err) < 0)
		return -1;
	off = s->ledger_size + s->pending.len;
	start = s->pending.len;
	buf_puts(&s->pending, "out");
	put_field(&s->pending, name);
	buf_printf(&s->pending, "\t%lld\t%zu", (long long)when, len);
	put_field(&s->pending, key);
	put_field(&s->pending, message_id);
	put_field(&s->pending, rcpts);
	put_field(&s->pending, place);
	end_record(s, start);
	add_out(s, off, name, key, message_id);
	if (id)
		*id = sent_at(s, ix_count_out(s->ix) - 1)->id;
	return 1;
}

int
spool_store_out(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const void *data, size_t len, time_t when, const char **id, struct buf *err)
{
	return store_out(s, key, message_id, rcpts, data, len, NULL, NULL, when, id, err);
}

int
spool_store_out_at(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const char *place, size_t len, time_t when, const char **id, struct buf *err)
{
	return store_out(s, key, message_id, rcpts, NULL, len, NULL, place, when, id, err);
}

int
spool_store_out_file(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const char *path, size_t len, time_t when, const char **id, struct buf *err)
{
	struct buf data;
	int r = store_out(s, key, message_id, rcpts, NULL, len, path, NULL, when, id, err);

	if (r >= 0 || errno != EXDEV)
		return r;
	/* Another file system: a copy into the pack. */
	buf_reset(err);
	buf_init(&data, len + 1);
	if (fs_read_file(path, &data) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		buf_free(&data);
		return -1;
	}
	r = store_out(s, key, message_id, rcpts, data.data, data.len, NULL, NULL, when, id, err);
	buf_free(&data);
	return r;
}

size_t
spool_count_out(const struct spool *s)
{
	assert(s->indexed);
	return ix_count_out(s->ix);
}

const struct spool_sent *
spool_out(const struct spool *s, size_t i)
{
	assert(s->indexed);
	return i < ix_count_out(s->ix) ? sent_at(s, i) : NULL;
}

bool
spool_sent_message_id(const struct spool *s, const char *message_id)
{
	assert(s->indexed);
	return find(s, IX_OUT_MSGID, message_id) != SIZE_MAX;
}

size_t
spool_pending_bytes(const struct spool *s)
{
	return s->pending.cap;
}

size_t
spool_index_bytes(const struct spool *s)
{
	return s->ix ? ix_memory(s->ix) : 0;
}

const char *
spool_cursor(const struct spool *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->ncursors; i++)
		if (strcmp(s->cursors[i].name, name) == 0)
			return s->cursors[i].value;
	return NULL;
}

void
spool_set_cursor(struct spool *s, const char *name, const char *value)
{
	size_t start = s->pending.len;

	set_cursor(s, name, value);
	if (s->indexed)
		note_cursor(s, name, value);
	buf_puts(&s->pending, "cursor");
	put_field(&s->pending, name);
	put_field(&s->pending, value);
	end_record(s, start);
}

time_t
spool_clock(const struct spool *s)
{
	const char *v = spool_cursor(s, "clock");

	return v ? (time_t)strtoll(v, NULL, 10) : 0;
}

void
spool_set_clock(struct spool *s, time_t t)
{
	char v[32];

	if (t <= spool_clock(s))
		return;
	snprintf(v, sizeof v, "%lld", (long long)t);
	spool_set_cursor(s, "clock", v);
}

void
spool_mark_run(struct spool *s, time_t now)
{
	char v[32];

	assert(s->indexed);
	snprintf(v, sizeof v, "%lld", (long long)now);
	spool_set_cursor(s, "run", v);
}

unsigned long
spool_clock_rec(const struct spool *s)
{
	assert(s->indexed);
	return s->clock_rec;
}

size_t
spool_count_runs(const struct spool *s)
{
	assert(s->indexed);
	return s->nruns;
}

const struct spool_run *
spool_run_at(const struct spool *s, size_t i)
{
	assert(s->indexed && i < s->nruns);
	return &s->runs[i];
}

size_t
spool_count_settings(const struct spool *s)
{
	assert(s->indexed);
	return s->nsettings;
}

const struct spool_setting *
spool_setting_at(const struct spool *s, size_t i)
{
	assert(s->indexed && i < s->nsettings);
	return &s->settings[i];
}

const char *
spool_dir(const struct spool *s)
{
	return s->dir;
}
