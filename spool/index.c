/*
 * index.c — the spool's index of its ledger in a file (index.h).
 *
 * Page 0 is the header; then the inbound slots, the sent messages'
 * places, the five hash tables (8 bytes a slot: 32 bits of the key's
 * hash and the position + 1, 0 for empty; at most three quarters full,
 * linear probing), each region a whole number of pages, and at the end,
 * written by ix_commit, the spool's state (meta). Pages are read and
 * written through a cache of IX_CACHE_PAGES, written back when one is
 * evicted and at the commit.
 *
 * A region that is full is grown by writing a new file (path.new, twice
 * its room) and renaming it over the old: the old one is never written
 * after that, so a crash leaves either. A file this process made starts
 * "not whole"; a whole one it opened is marked "not whole", and that
 * synced, before the first page is written back into it. ix_commit writes
 * every page, syncs, and then writes the header that says "whole".
 */
#define _GNU_SOURCE
#include "index.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/crash.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"

#define IX_MAGIC "pouch-index 1"
#define IX_CHUNK ((size_t)1 << 16)	/* bytes copied at a time when growing */
#define IX_FIRST 1024			/* the first room of each region, entries */

struct ixhead {
	char magic[16];
	uint32_t whole;			/* 1: committed, for the ledger st */
	uint32_t slot_size;		/* sizeof (struct islot) */
	uint64_t cap_in, n_in, cap_out, n_out;
	uint64_t cap[IX_TABLES], n[IX_TABLES];
	uint64_t meta_len;
	struct ix_stamp st;
	uint32_t sum;			/* of the bytes before it */
};

struct ixpage {
	uint64_t no;			/* UINT64_MAX: empty */
	bool dirty;
};

struct ix {
	int fd;
	char *path;			/* NULL: a temporary file */
	struct ixhead h;
	bool disk_whole;		/* the header on disk says whole */
	const char *why;		/* at the open: why it is not whole */
	bool changed;
	bool failed;
	struct ixpage pg[IX_CACHE_PAGES];
	unsigned char *mem;		/* IX_CACHE_PAGES pages */
};

static uint64_t
round_page(uint64_t n)
{
	return (n + IX_PAGE - 1) / IX_PAGE * IX_PAGE;
}

/* Where each region begins (the tables: k = 0 .. IX_TABLES - 1), and,
 * for k = IX_TABLES, where the meta begins. */
static uint64_t
off_in(const struct ixhead *h)
{
	(void)h;
	return IX_PAGE;
}

static uint64_t
off_out(const struct ixhead *h)
{
	return off_in(h) + round_page(h->cap_in * sizeof(struct islot));
}

static uint64_t
off_table(const struct ixhead *h, int k)
{
	uint64_t o = off_out(h) + round_page(h->cap_out * 8);

	for (int i = 0; i < k; i++)
		o += round_page(h->cap[i] * 8);
	return o;
}

static uint32_t
head_sum(const struct ixhead *h)
{
	return (uint32_t)(str_hash_bytes((const char *)h, offsetof(struct ixhead, sum)) &
	    0xffffffffu);
}

/* The header's page, as it goes to disk. */
static int
write_head(struct ix *x, bool whole)
{
	unsigned char p[IX_PAGE];

	x->h.whole = whole;
	x->h.sum = head_sum(&x->h);
	memset(p, 0, sizeof p);
	memcpy(p, &x->h, sizeof x->h);
	crash_point();
	if (pwrite(x->fd, p, sizeof p, 0) != (ssize_t)sizeof p) {
		x->failed = true;
		return -1;
	}
	x->disk_whole = whole;
	return 0;
}

/* Before a page is written into a file whose header says whole: say it
 * is not, durably. */
static int
mark_open(struct ix *x)
{
	if (!x->disk_whole)
		return 0;
	if (write_head(x, false) < 0 || fsync(x->fd) < 0) {
		x->failed = true;
		return -1;
	}
	return 0;
}

static size_t
slot_of(uint64_t no)
{
	return (size_t)((no * 0x9E3779B97F4A7C15ull) >> 40) % IX_CACHE_PAGES;
}

static int
write_back(struct ix *x, size_t k)
{
	if (!x->pg[k].dirty)
		return 0;
	if (mark_open(x) < 0)
		return -1;
	crash_point();
	if (pwrite(x->fd, x->mem + k * IX_PAGE, IX_PAGE, (off_t)(x->pg[k].no * IX_PAGE)) != IX_PAGE) {
		x->failed = true;
		return -1;
	}
	x->pg[k].dirty = false;
	return 0;
}

/* Page no of the file in the cache (read when it is not); NULL when a
 * read or a write back failed. */
static unsigned char *
page(struct ix *x, uint64_t no)
{
	size_t k = slot_of(no);
	unsigned char *m = x->mem + k * IX_PAGE;
	ssize_t n;

	if (x->pg[k].no == no)
		return m;
	if (x->pg[k].no != UINT64_MAX && write_back(x, k) < 0)
		return NULL;
	x->pg[k].no = UINT64_MAX;
	n = pread(x->fd, m, IX_PAGE, (off_t)(no * IX_PAGE));
	if (n < 0) {
		x->failed = true;
		return NULL;
	}
	memset(m + n, 0, IX_PAGE - (size_t)n);	/* past the end: zeros */
	x->pg[k].no = no;
	x->pg[k].dirty = false;
	return m;
}

/* Copy len bytes at file offset off to or from v. */
static void
access_bytes(struct ix *x, uint64_t off, void *v, size_t len, bool write)
{
	unsigned char *b = v;

	while (len > 0) {
		uint64_t no = off / IX_PAGE;
		size_t in = (size_t)(off % IX_PAGE), n = IX_PAGE - in < len ? IX_PAGE - in : len;
		unsigned char *m = page(x, no);

		if (m == NULL) {
			if (!write)
				memset(b, 0, len);
			return;
		}
		if (write) {
			memcpy(m + in, b, n);
			x->pg[slot_of(no)].dirty = true;
			x->changed = true;
		} else {
			memcpy(b, m + in, n);
		}
		b += n;
		off += n;
		len -= n;
	}
}

static void
drop_cache(struct ix *x)
{
	for (size_t k = 0; k < IX_CACHE_PAGES; k++) {
		x->pg[k].no = UINT64_MAX;
		x->pg[k].dirty = false;
	}
}

static int
flush(struct ix *x)
{
	for (size_t k = 0; k < IX_CACHE_PAGES; k++)
		if (x->pg[k].no != UINT64_MAX && write_back(x, k) < 0)
			return -1;
	return 0;
}

static void
empty_head(struct ixhead *h)
{
	memset(h, 0, sizeof *h);
	str_copy(h->magic, IX_MAGIC, sizeof h->magic);
	h->slot_size = sizeof(struct islot);
	h->cap_in = h->cap_out = IX_FIRST;
	for (int k = 0; k < IX_TABLES; k++)
		h->cap[k] = IX_FIRST;
}

static struct ix *
new_ix(int fd, const char *path)
{
	struct ix *x = xcalloc(1, sizeof *x);

	x->fd = fd;
	x->path = path ? xstrdup(path) : NULL;
	x->mem = xmalloc((size_t)IX_CACHE_PAGES * IX_PAGE);
	drop_cache(x);
	return x;
}

const char ix_not_whole[] = "it was not closed whole (a run was killed or failed)";

struct ix *
ix_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	struct ix *x;
	ssize_t n;

	if (fd < 0)
		return NULL;
	x = new_ix(fd, path);
	n = pread(fd, &x->h, sizeof x->h, 0);
	if (n != (ssize_t)sizeof x->h || memcmp(x->h.magic, IX_MAGIC, sizeof IX_MAGIC) != 0) {
		x->why = "";	/* new, or an empty file (a full disk): none */
	} else if (x->h.slot_size != sizeof(struct islot) || x->h.sum != head_sum(&x->h)) {
		x->why = "it is damaged";
	} else if (x->h.whole != 1) {
		x->why = ix_not_whole;
	} else {
		x->disk_whole = true;
		return x;
	}
	empty_head(&x->h);	/* never whole */
	return x;
}

struct ix *
ix_open_temp(void)
{
	const char *t = getenv("TMPDIR");
	int fd = open(t && *t ? t : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	struct ix *x;

	if (fd < 0)
		return NULL;
	x = new_ix(fd, NULL);
	empty_head(&x->h);
	return x;
}

const char *
ix_whole(struct ix *x, struct ix_stamp *st, struct buf *meta)
{
	struct stat sb;
	uint64_t at = off_table(&x->h, IX_TABLES), got = 0;
	char chunk[8192];

	if (!x->disk_whole)
		return x->why ? x->why : "";
	if (x->h.n_in > x->h.cap_in || x->h.n_out > x->h.cap_out ||
	    fstat(x->fd, &sb) < 0 || (uint64_t)sb.st_size != at + x->h.meta_len)
		return "it is damaged";
	for (int k = 0; k < IX_TABLES; k++)
		if (x->h.cap[k] == 0 || (x->h.cap[k] & (x->h.cap[k] - 1)) != 0 ||
		    (x->h.n[k] + 1) * 4 > x->h.cap[k] * 3 + 4)
			return "it is damaged";
	while (got < x->h.meta_len) {
		size_t want = x->h.meta_len - got < sizeof chunk ? (size_t)(x->h.meta_len - got) :
		    sizeof chunk;
		ssize_t n = pread(x->fd, chunk, want, (off_t)(at + got));
		if (n <= 0 || buf_append(meta, chunk, (size_t)n) < 0)
			return "it is damaged";
		got += (uint64_t)n;
	}
	*st = x->h.st;
	return NULL;
}

/* A new file at path.new with the header h (its regions' room), renamed
 * over path once filled by fill (NULL: empty); the cache then serves it. */
static int
replace_file(struct ix *x, const struct ixhead *h, int (*fill)(struct ix *, int, const struct ixhead *))
{
	char tmp[PATH_MAX];
	int fd, old = x->fd;
	struct ixhead oldh = x->h;

	snprintf(tmp, sizeof tmp, "%s.new", x->path);
	crash_point();
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		x->failed = true;
		return -1;
	}
	x->fd = fd;
	x->h = *h;
	x->disk_whole = false;
	drop_cache(x);
	if (write_head(x, false) < 0 || (fill != NULL && fill(x, old, &oldh) < 0) ||
	    rename(tmp, x->path) < 0) {
		x->failed = true;
		close(old);
		return -1;
	}
	close(old);
	x->changed = true;
	return 0;
}

int
ix_reset(struct ix *x)
{
	struct ixhead h;

	empty_head(&h);
	drop_cache(x);
	if (x->path == NULL || !x->disk_whole) {
		/* nothing on disk is trusted: emptied in place */
		x->h = h;
		x->changed = true;
		if (ftruncate(x->fd, 0) < 0 || write_head(x, false) < 0) {
			x->failed = true;
			return -1;
		}
		return 0;
	}
	return replace_file(x, &h, NULL);
}

/* Copy bytes [from, from + len) of fd old to the new file at to. */
static int
copy_region(struct ix *x, int old, uint64_t from, uint64_t to, uint64_t len)
{
	unsigned char *b = xmalloc(IX_CHUNK);
	uint64_t done = 0;

	while (done < len) {
		size_t want = len - done < IX_CHUNK ? (size_t)(len - done) : IX_CHUNK;
		ssize_t n = pread(old, b, want, (off_t)(from + done));
		if (n < 0) {
			free(b);
			return -1;
		}
		memset(b + n, 0, want - (size_t)n);
		if (pwrite(x->fd, b, want, (off_t)(to + done)) != (ssize_t)want) {
			free(b);
			return -1;
		}
		done += want;
	}
	free(b);
	return 0;
}

static void table_put(struct ix *x, int t, uint32_t h, uint32_t posp1);

/* The new file's regions from the old's: the arrays copied, every table's
 * entries put in again (its room may have changed). */
static int
fill_grown(struct ix *x, int old, const struct ixhead *oh)
{
	unsigned char *b;

	if (copy_region(x, old, off_in(oh), off_in(&x->h), oh->n_in * sizeof(struct islot)) < 0 ||
	    copy_region(x, old, off_out(oh), off_out(&x->h), oh->n_out * 8) < 0)
		return -1;
	b = xmalloc(IX_CHUNK);
	for (int t = 0; t < IX_TABLES; t++) {
		uint64_t len = oh->cap[t] * 8, done = 0;
		x->h.n[t] = 0;
		while (done < len) {
			size_t want = len - done < IX_CHUNK ? (size_t)(len - done) : IX_CHUNK;
			ssize_t n = pread(old, b, want, (off_t)(off_table(oh, t) + done));
			if (n < 0) {
				free(b);
				return -1;
			}
			memset(b + n, 0, want - (size_t)n);
			for (size_t i = 0; i + 8 <= want; i += 8) {
				uint32_t h, p;
				memcpy(&h, b + i, 4);
				memcpy(&p, b + i + 4, 4);
				if (p != 0)
					table_put(x, t, h, p);
			}
			done += want;
		}
	}
	free(b);
	return x->failed ? -1 : 0;
}

/* Grow to the room h (the region that is full given four times its
 * room), and every other region more than half full twice its own: the
 * parts grow together, so the file is written again a few times in all.
 * Every page is written back to the old file first. */
static int
grow(struct ix *x, struct ixhead *h)
{
	if (h->cap_in == x->h.cap_in && h->n_in * 2 > h->cap_in)
		h->cap_in *= 2;
	if (h->cap_out == x->h.cap_out && h->n_out * 2 > h->cap_out)
		h->cap_out *= 2;
	for (int k = 0; k < IX_TABLES; k++)
		if (h->cap[k] == x->h.cap[k] && h->n[k] * 8 > h->cap[k] * 3)	/* half its most */
			h->cap[k] *= 2;
	if (flush(x) < 0)
		return -1;
	if (x->path == NULL) {
		/* a temporary file: the same steps through a second one */
		struct ix *y = ix_open_temp();
		int r;
		if (y == NULL) {
			x->failed = true;
			return -1;
		}
		y->h = *h;
		r = fill_grown(y, x->fd, &x->h);
		if (r == 0)
			r = flush(y);
		if (r < 0) {
			ix_close(y);
			x->failed = true;
			return -1;
		}
		close(x->fd);
		x->fd = y->fd;
		x->h = y->h;
		drop_cache(x);
		free(y->mem);
		free(y);
		x->changed = true;
		return 0;
	}
	return replace_file(x, h, fill_grown);
}

size_t
ix_count_in(const struct ix *x)
{
	return (size_t)x->h.n_in;
}

size_t
ix_count_out(const struct ix *x)
{
	return (size_t)x->h.n_out;
}

void
ix_get_in(struct ix *x, size_t pos, struct islot *sl)
{
	access_bytes(x, off_in(&x->h) + pos * sizeof *sl, sl, sizeof *sl, false);
}

void
ix_put_in(struct ix *x, size_t pos, const struct islot *sl)
{
	struct islot v = *sl;

	if (pos >= x->h.cap_in) {
		struct ixhead h = x->h;
		h.cap_in *= 4;
		if (grow(x, &h) < 0)
			return;
	}
	access_bytes(x, off_in(&x->h) + pos * sizeof v, &v, sizeof v, true);
	if (pos >= x->h.n_in)
		x->h.n_in = pos + 1;
}

uint64_t
ix_get_out(struct ix *x, size_t pos)
{
	uint64_t v;

	access_bytes(x, off_out(&x->h) + pos * 8, &v, 8, false);
	return v;
}

void
ix_add_out(struct ix *x, uint64_t off)
{
	if (x->h.n_out >= x->h.cap_out) {
		struct ixhead h = x->h;
		h.cap_out *= 4;
		if (grow(x, &h) < 0)
			return;
	}
	access_bytes(x, off_out(&x->h) + x->h.n_out * 8, &off, 8, true);
	x->h.n_out++;
}

/* Put (h, posp1) in table t, whose room is enough. */
static void
table_put(struct ix *x, int t, uint32_t h, uint32_t posp1)
{
	uint64_t mask = x->h.cap[t] - 1, i, base = off_table(&x->h, t);
	unsigned char e[8];

	for (i = h & mask;; i = (i + 1) & mask) {
		uint32_t p;
		access_bytes(x, base + i * 8 + 4, &p, 4, false);
		if (x->failed)
			return;
		if (p == 0)
			break;
	}
	memcpy(e, &h, 4);
	memcpy(e + 4, &posp1, 4);
	access_bytes(x, base + i * 8, e, 8, true);
	x->h.n[t]++;
}

void
ix_put(struct ix *x, enum ix_table t, uint32_t h, size_t pos)
{
	if ((x->h.n[t] + 1) * 4 > x->h.cap[t] * 3) {
		struct ixhead nh = x->h;
		nh.cap[t] *= 4;
		if (grow(x, &nh) < 0)
			return;
	}
	table_put(x, t, h, (uint32_t)pos + 1);
}

size_t
ix_next(struct ix *x, enum ix_table t, uint32_t h, size_t *at)
{
	uint64_t mask = x->h.cap[t] - 1, base = off_table(&x->h, t), i;

	i = *at == SIZE_MAX ? h & mask : (*at + 1) & mask;
	for (;; i = (i + 1) & mask) {
		uint32_t e[2];
		access_bytes(x, base + i * 8, e, 8, false);
		if (e[1] == 0)
			return SIZE_MAX;
		if (e[0] == h) {
			*at = (size_t)i;
			return e[1] - 1;
		}
	}
}

bool
ix_failed(const struct ix *x)
{
	return x->failed;
}

bool
ix_changed(const struct ix *x)
{
	return x->changed;
}

int
ix_commit(struct ix *x, const struct ix_stamp *st, const void *meta, size_t len)
{
	uint64_t at = off_table(&x->h, IX_TABLES);

	if (x->path == NULL)
		return 0;	/* a temporary file: never kept */
	if (x->failed) {
		errno = EIO;
		return -1;
	}
	if (flush(x) < 0 || mark_open(x) < 0)
		return -1;
	crash_point();
	if (ftruncate(x->fd, (off_t)at) < 0 ||
	    (len > 0 && pwrite(x->fd, meta, len, (off_t)at) != (ssize_t)len))
		goto fail;
	crash_point();
	if (fsync(x->fd) < 0)
		goto fail;
	x->h.meta_len = len;
	x->h.st = *st;
	if (write_head(x, true) < 0)
		return -1;
	x->changed = false;
	return 0;
fail:
	x->failed = true;
	return -1;
}

void
ix_close(struct ix *x)
{
	if (x == NULL)
		return;
	close(x->fd);
	free(x->mem);
	free(x->path);
	free(x);
}

size_t
ix_memory(const struct ix *x)
{
	return sizeof *x + (size_t)IX_CACHE_PAGES * IX_PAGE;
}
