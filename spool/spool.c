/*
 * spool.c — message files plus an append-only ledger.
 *
 * The ledger is a text file, one record per line, fields separated by
 * tabs, '-' for "none", other bytes below 0x21 and '%' written %XX (and a
 * value that is exactly "-" as %2D):
 *
 *	pouch-spool 2
 *	in	ID	ARRIVAL	SIZE	SOURCE	MESSAGE-ID	DUP-OF	~SUM
 *	applied	ID	TIME	~SUM
 *	out	ID	TIME	SIZE	KEY	MESSAGE-ID	RCPTS	~SUM
 *	cursor	NAME	VALUE	~SUM
 *
 * SUM is the record's checksum (record_sum), so that a byte changed on
 * disk is found, never used; a "pouch-spool 1" ledger has none.
 *
 * It is read whole into arrays and hash indexes (id, source, Message-ID):
 * at open, or with spool_open_lazy when first needed (spool_index). A
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
 * Why the order in spool_sync is right: messages are written under tmp/
 * as they come, unsynced; spool_sync fsyncs every one of them (the first
 * fsync commits the whole batch to the journal), links them into new/,
 * fsyncs new/, and only then appends and fsyncs the ledger. A crash before
 * the ledger append leaves files the ledger does not name (harmless: the
 * source was not told, the message is fetched and stored again under a new
 * id; tmp/ is emptied at the next open); a crash after it leaves complete,
 * durable records. Three journal commits per batch instead of three per
 * message: that is what lets a run store hundreds of messages a second.
 */
#define _DEFAULT_SOURCE
#include "spool.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "maildir.h"

#define LEDGER_MAX ((size_t)1 << 30)
#define LEDGER_MAGIC "pouch-spool 2"	/* every record ends with its checksum */
#define LEDGER_MAGIC_V1 "pouch-spool 1"	/* records without one (older ledgers) */
#define SUMMARY_MAGIC "pouch-spool-summary 1"

/* --- a string → index hash map (keys borrowed) ----------------------- */

struct strmap {
	const char **keys;
	size_t *vals;
	size_t cap;	/* power of two */
	size_t n;
};

static void map_put(struct strmap *m, const char *key, size_t val);

static void
map_grow(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof *m->keys);
	m->vals = xcalloc(m->cap, sizeof *m->vals);
	m->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.keys[i] != NULL)
			map_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

/* Insert or replace. */
static void
map_put(struct strmap *m, const char *key, size_t val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap)
		map_grow(m);
	for (i = str_hash(key) & (m->cap - 1); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1))
		if (strcmp(m->keys[i], key) == 0) {
			m->vals[i] = val;
			return;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

/* The value of key, or SIZE_MAX. */
static size_t
map_get(const struct strmap *m, const char *key)
{
	size_t i;

	if (m->cap == 0)
		return SIZE_MAX;
	for (i = str_hash(key) & (m->cap - 1); m->keys[i] != NULL; i = (i + 1) & (m->cap - 1))
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
	return SIZE_MAX;
}

static void
map_free(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof *m);
}

/* --- the spool --------------------------------------------------------- */

struct cursor {
	char *name;
	char *value;
};

struct spool {
	char *dir;
	char *in_dir, *out_dir, *ledger, *summary;
	int lock_fd;
	struct spool_entry *in;
	size_t nin, capin;
	struct spool_sent *out;
	size_t nout, capout;
	struct strmap by_out_key;
	struct cursor *cursors;
	size_t ncursors;
	struct strmap by_id, by_source, by_msgid;
	unsigned long next_seq;
	unsigned long nrec;	/* "in" and run, clock, settings records so far */
	unsigned long clock_rec;	/* the last clock record's place */
	struct spool_run *runs;	/* the "run" records */
	size_t nruns;
	struct spool_setting *settings;	/* the "settings" records read from it */
	size_t nsettings;
	time_t last_arrival;
	struct buf pending;	/* ledger lines not yet written */
	char **pend_in, **pend_out;	/* files written but not published */
	size_t npend_in, npend_out;
	size_t npending;	/* inbound entries SPOOL_STORED */
	bool indexed;		/* the ledger has been read (in, out, the maps) */
	bool known;		/* npending and the cursors are whole (indexed, or
				 * opened from the summary) */
	bool summary_ok;	/* ledger.sum describes the ledger on disk */
	bool ledger_new;	/* created by this process: fsync its directory */
	bool broken;		/* a ledger write failed: refuse everything */
	bool discarded;		/* spool_discard: nothing more is written */
	bool v1;		/* the ledger is "pouch-spool 1": records have no checksum */
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

static void
free_pending(char ***pend, size_t *n)
{
	size_t i;

	for (i = 0; i < *n; i++)
		free((*pend)[i]);
	free(*pend);
	*pend = NULL;
	*n = 0;
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

static struct spool_entry *
add_in(struct spool *s, const char *id, time_t arrival, size_t size, const char *source,
    const char *msgid, const char *dup_of)
{
	struct spool_entry *e;

	if (s->nin == s->capin) {
		s->capin = s->capin ? s->capin * 2 : 256;
		s->in = xreallocarray(s->in, s->capin, sizeof *s->in);
		/* the maps borrow keys from the entries' strings, which do not move */
	}
	e = &s->in[s->nin];
	memset(e, 0, sizeof *e);
	e->id = xstrdup(id);
	e->arrival = arrival;
	e->size = size;
	e->source = dup_or_null(source);
	e->message_id = dup_or_null(msgid);
	e->dup_of = dup_or_null(dup_of);
	e->state = dup_of ? SPOOL_DUPLICATE : SPOOL_STORED;
	e->rec_in = ++s->nrec;
	if (e->state == SPOOL_STORED)
		s->npending++;
	map_put(&s->by_id, e->id, s->nin);
	if (e->source)
		map_put(&s->by_source, e->source, s->nin);
	if (e->message_id && map_get(&s->by_msgid, e->message_id) == SIZE_MAX)
		map_put(&s->by_msgid, e->message_id, s->nin);
	if (arrival > s->last_arrival)
		s->last_arrival = arrival;
	s->nin++;
	note_id(s, e->id);
	return e;
}

static void
add_out(struct spool *s, const char *id, time_t t, size_t size, const char *key, const char *msgid,
    const char *rcpts)
{
	struct spool_sent *o;

	if (s->nout == s->capout) {
		s->capout = s->capout ? s->capout * 2 : 256;
		s->out = xreallocarray(s->out, s->capout, sizeof *s->out);
	}
	o = &s->out[s->nout++];
	o->id = xstrdup(id);
	o->time = t;
	o->size = size;
	o->key = dup_or_null(key);
	o->message_id = dup_or_null(msgid);
	o->rcpts = xstrdup(rcpts ? rcpts : "");
	if (o->key)
		map_put(&s->by_out_key, o->key, s->nout - 1);
	note_id(s, o->id);
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
load_record(struct spool *s, char *line)
{
	char *f[8];
	int n = split_record(line, f, 8);
	time_t t;
	long size;

	if (strcmp(f[0], "in") == 0 && n == 7) {
		if (f[1] == NULL || map_get(&s->by_id, f[1]) != SIZE_MAX || parse_time(f[2], &t) < 0 || f[3] == NULL ||
		    str_to_long(f[3], 0, LONG_MAX, &size) < 0)
			return -1;
		add_in(s, f[1], t, (size_t)size, f[4], f[5], f[6]);
		return 0;
	}
	if (strcmp(f[0], "applied") == 0 && n == 3) {
		size_t i = f[1] ? map_get(&s->by_id, f[1]) : SIZE_MAX;
		if (i == SIZE_MAX || parse_time(f[2], &t) < 0)
			return -1;
		if (s->in[i].state == SPOOL_STORED)
			s->npending--;
		s->in[i].state = SPOOL_APPLIED;
		s->in[i].applied = t;
		return 0;
	}
	if (strcmp(f[0], "out") == 0 && n == 7) {
		if (f[1] == NULL || parse_time(f[2], &t) < 0 || f[3] == NULL ||
		    str_to_long(f[3], 0, LONG_MAX, &size) < 0)
			return -1;
		add_out(s, f[1], t, (size_t)size, f[4], f[5], f[6]);
		return 0;
	}
	if (strcmp(f[0], "cursor") == 0 && n == 3 && f[1] != NULL) {
		set_cursor(s, f[1], f[2] ? f[2] : "");
		note_cursor(s, f[1], f[2] ? f[2] : "");
		return 0;
	}
	return -1;
}

static int
load_ledger(struct spool *s, struct buf *err)
{
	struct buf b;
	char *p, *end, *nl;
	int lineno = 0;

	buf_init(&b, LEDGER_MAX);
	if (fs_read_file(s->ledger, &b) < 0) {
		if (errno == ENOENT) {
			buf_free(&b);
			buf_printf(&s->pending, "%s\n", LEDGER_MAGIC);
			s->ledger_new = true;
			return 0;
		}
		buf_printf(err, "%s: cannot read: %s\n", s->ledger, strerror(errno));
		buf_free(&b);
		return -1;
	}
	if (b.len > 0 && b.data[b.len - 1] != '\n') {
		off_t keep = (off_t)b.len;
		while (keep > 0 && b.data[keep - 1] != '\n')
			keep--;
		log_warn("%s: cutting off an incomplete last record (an interrupted write)", s->ledger);
		if (truncate(s->ledger, keep) < 0) {
			buf_printf(err, "%s: cannot truncate: %s\n", s->ledger, strerror(errno));
			buf_free(&b);
			return -1;
		}
		buf_truncate(&b, (size_t)keep);
	}
	if (b.len == 0) {
		buf_printf(&s->pending, "%s\n", LEDGER_MAGIC);
		s->ledger_new = true;
		buf_free(&b);
		return 0;
	}
	p = b.data;
	end = b.data + b.len;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		*nl = '\0';
		lineno++;
		if (lineno == 1) {
			if (strcmp(p, LEDGER_MAGIC) != 0 && strcmp(p, LEDGER_MAGIC_V1) != 0) {
				buf_printf(err, "%s:1: not a pouch spool ledger\n", s->ledger);
				goto fail;
			}
			continue;
		}
		if (*p == '\0')
			continue;
		if (!s->v1 && check_record(p) < 0) {
			buf_printf(err, "%s:%d: damaged record (its checksum does not match); the spool "
			    "is left alone\n", s->ledger, lineno);
			goto fail;
		}
		if (load_record(s, p) < 0) {
			buf_printf(err, "%s:%d: damaged record; the spool is left alone\n", s->ledger, lineno);
			goto fail;
		}
	}
	buf_free(&b);
	return 0;
fail:
	buf_free(&b);
	return -1;
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
	if (fs_replace(s->summary, b.data, b.len) < 0)
		log_debug("%s: not written: %s", s->summary, strerror(errno));
	else
		s->summary_ok = true;
	buf_free(&b);
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
	s->next_seq = 1;
	buf_init(&s->pending, LEDGER_MAX);
	if (fs_mkdir_p(dir, 0700) < 0 || md_create(s->in_dir) < 0 || md_create(s->out_dir) < 0) {
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
	s->v1 = ledger_is_v1(s);
	if (lazy && read_summary(s) == 0) {
		s->summary_ok = s->known = true;
		return s;
	}
	if (load_ledger(s, err) < 0)
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
	if (load_ledger(s, err) < 0) {
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
	if (s->broken && err != NULL)
		buf_printf(err, "%s: an earlier write failed; reopen the spool\n", s->dir);
	return s->broken;
}

int
spool_sync(struct spool *s, struct buf *err)
{
	if (refuse_broken(s, err))
		return -1;
	if ((s->npend_in > 0 && md_publish(s->in_dir, s->pend_in, s->npend_in) < 0) ||
	    (s->npend_out > 0 && md_publish(s->out_dir, s->pend_out, s->npend_out) < 0)) {
		/* the ledger must not name files that may not be there */
		s->broken = true;
		if (err)
			buf_printf(err, "%s: cannot sync: %s\n", s->dir, strerror(errno));
		return -1;
	}
	free_pending(&s->pend_in, &s->npend_in);
	free_pending(&s->pend_out, &s->npend_out);
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
	buf_reset(&s->pending);
	s->summary_ok = false;	/* rewritten at close */
	return 0;
}

void
spool_discard(struct spool *s)
{
	/* the files stay in tmp/ (removed at the next open); no summary,
	 * which would count the forgotten marks */
	free_pending(&s->pend_in, &s->npend_in);
	free_pending(&s->pend_out, &s->npend_out);
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
		if (r == 0 && s->known && !s->summary_ok)
			write_summary(s);	/* for the next lazy open */
	}
	for (i = 0; i < s->nin; i++) {
		free(s->in[i].id);
		free(s->in[i].source);
		free(s->in[i].message_id);
		free(s->in[i].dup_of);
	}
	for (i = 0; i < s->nout; i++) {
		free(s->out[i].id);
		free(s->out[i].key);
		free(s->out[i].message_id);
		free(s->out[i].rcpts);
	}
	free_cursors(&s->cursors, &s->ncursors);
	free(s->runs);
	for (size_t k = 0; k < s->nsettings; k++)
		free(s->settings[k].value);
	free(s->settings);
	free(s->in);
	free(s->out);
	map_free(&s->by_id);
	map_free(&s->by_source);
	map_free(&s->by_msgid);
	map_free(&s->by_out_key);
	free_pending(&s->pend_in, &s->npend_in);
	free_pending(&s->pend_out, &s->npend_out);
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

/* Write data under a fresh id into dir/tmp (published by spool_sync) and
 * remember it in *pend; returns the id (static buffer) or NULL. */
static const char *
deliver_new(struct spool *s, const char *dir, char ***pend, size_t *npend, time_t t,
    const void *data, size_t len, const char *src, struct buf *err)
{
	static char id[64];
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		snprintf(id, sizeof id, "%lld.%06lu.pouch", (long long)t, s->next_seq + (unsigned long)tries);
		if (taken_elsewhere(s, dir, id)) {
			errno = EEXIST;
			continue;
		}
		if ((src ? md_link_tmp(dir, id, src) : md_write_tmp(dir, id, data, len)) == 0) {
			s->next_seq += (unsigned long)tries;
			*pend = xreallocarray(*pend, *npend + 1, sizeof **pend);
			(*pend)[(*npend)++] = xstrdup(id);
			return id;
		}
		if (errno != EEXIST)
			break;
	}
	buf_printf(err, "%s: cannot store a message: %s\n", dir, strerror(errno));
	return NULL;
}

int
spool_store_in(struct spool *s, const char *source, const char *message_id,
    const void *data, size_t len, time_t arrival, const char **id, struct buf *err)
{
	const struct spool_entry *e;
	const char *name, *dup = NULL;
	size_t first, start;

	if (refuse_broken(s, err) || spool_index(s, err) < 0)
		return -1;
	if (source != NULL && (e = spool_lookup_source(s, source)) != NULL) {
		if (id)
			*id = e->id;
		return 0;
	}
	if (arrival < s->last_arrival)
		arrival = s->last_arrival;
	if (arrival < spool_clock(s))
		arrival = spool_clock(s);
	name = deliver_new(s, s->in_dir, &s->pend_in, &s->npend_in, arrival, data, len, NULL, err);
	if (name == NULL)
		return -1;
	if (message_id != NULL && *message_id == '\0')
		message_id = NULL;
	if (message_id != NULL && (first = map_get(&s->by_msgid, message_id)) != SIZE_MAX)
		dup = s->in[first].id;
	/* dup points into a string of its own, which add_in does not move */
	e = add_in(s, name, arrival, len, source, message_id, dup);
	start = s->pending.len;
	buf_puts(&s->pending, "in");
	put_field(&s->pending, e->id);
	buf_printf(&s->pending, "\t%lld\t%zu", (long long)e->arrival, e->size);
	put_field(&s->pending, e->source);
	put_field(&s->pending, e->message_id);
	put_field(&s->pending, e->dup_of);
	end_record(s, start);
	if (id)
		*id = e->id;
	return 1;
}

size_t
spool_count_in(const struct spool *s)
{
	assert(s->indexed);
	return s->nin;
}

const struct spool_entry *
spool_in(const struct spool *s, size_t i)
{
	assert(s->indexed);
	return i < s->nin ? &s->in[i] : NULL;
}

const struct spool_entry *
spool_lookup(const struct spool *s, const char *id)
{
	size_t i;

	assert(s->indexed);
	i = map_get(&s->by_id, id);

	return i == SIZE_MAX ? NULL : &s->in[i];
}

const struct spool_entry *
spool_lookup_source(const struct spool *s, const char *source)
{
	size_t i;

	assert(s->indexed);
	i = map_get(&s->by_source, source);

	return i == SIZE_MAX ? NULL : &s->in[i];
}

int
spool_mark_applied(struct spool *s, const char *id, time_t now, struct buf *err)
{
	struct spool_entry *e;
	size_t i, start;

	if (spool_index(s, err) < 0)
		return -1;
	i = map_get(&s->by_id, id);
	if (i == SIZE_MAX) {
		buf_printf(err, "spool: no inbound message %s\n", id);
		return -1;
	}
	e = &s->in[i];
	if (e->state == SPOOL_APPLIED)
		return 1;
	if (e->state == SPOOL_DUPLICATE) {
		buf_printf(err, "spool: %s is a duplicate of %s and is never applied\n", id, e->dup_of);
		return -1;
	}
	e->state = SPOOL_APPLIED;
	e->applied = now;
	s->npending--;
	start = s->pending.len;
	buf_puts(&s->pending, "applied");
	put_field(&s->pending, e->id);
	buf_printf(&s->pending, "\t%lld", (long long)now);
	end_record(s, start);
	return 0;
}

int
spool_sent_path(const struct spool *s, const char *id, char *path, size_t size)
{
	if (strchr(id, '/') != NULL || id[0] == '.' || md_find(s->out_dir, id, path, size) < 0)
		return -1;
	return 0;
}

int
spool_read(const struct spool *s, const char *id, struct buf *out, struct buf *err)
{
	char path[PATH_MAX];

	if (strchr(id, '/') != NULL || id[0] == '.' ||
	    (md_find(s->in_dir, id, path, sizeof path) < 0 &&
	    md_find(s->out_dir, id, path, sizeof path) < 0)) {
		buf_printf(err, "spool: message %s not found\n", id);
		return -1;
	}
	if (fs_read_file(path, out) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
store_out(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const void *data, size_t len, const char *src, time_t when, const char **id, struct buf *err)
{
	const char *name;
	struct spool_sent *o;
	size_t i, start;

	if (refuse_broken(s, err) || spool_index(s, err) < 0)
		return -1;
	if (key != NULL && (i = map_get(&s->by_out_key, key)) != SIZE_MAX) {
		if (id)
			*id = s->out[i].id;
		return 0;
	}
	name = deliver_new(s, s->out_dir, &s->pend_out, &s->npend_out, when, data, len, src, err);
	if (name == NULL)
		return -1;
	add_out(s, name, when, len, key, message_id, rcpts);
	o = &s->out[s->nout - 1];
	start = s->pending.len;
	buf_puts(&s->pending, "out");
	put_field(&s->pending, o->id);
	buf_printf(&s->pending, "\t%lld\t%zu", (long long)o->time, o->size);
	put_field(&s->pending, o->key);
	put_field(&s->pending, o->message_id);
	put_field(&s->pending, o->rcpts);
	end_record(s, start);
	if (id)
		*id = o->id;
	return 1;
}

int
spool_store_out(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const void *data, size_t len, time_t when, const char **id, struct buf *err)
{
	return store_out(s, key, message_id, rcpts, data, len, NULL, when, id, err);
}

int
spool_store_out_file(struct spool *s, const char *key, const char *message_id, const char *rcpts,
    const char *path, size_t len, time_t when, const char **id, struct buf *err)
{
	int r = store_out(s, key, message_id, rcpts, NULL, len, path, when, id, err);
	struct buf data;

	if (r >= 0 || errno != EXDEV)
		return r;
	/* Another filesystem: a copy. */
	buf_reset(err);
	buf_init(&data, len + 1);
	if (fs_read_file(path, &data) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		buf_free(&data);
		return -1;
	}
	r = store_out(s, key, message_id, rcpts, data.data, data.len, NULL, when, id, err);
	buf_free(&data);
	return r;
}

size_t
spool_count_out(const struct spool *s)
{
	assert(s->indexed);
	return s->nout;
}

const struct spool_sent *
spool_out(const struct spool *s, size_t i)
{
	assert(s->indexed);
	return i < s->nout ? &s->out[i] : NULL;
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
