/*
 * source_maildir.c — reading a local Maildir.
 *
 * Postfix (virtual delivery), Dovecot (LMTP) and procmail all write the
 * same Maildir format: a message is a file in new/, or in cur/ once a mail
 * reader saw the folder, named UNIQUE or UNIQUE:2,FLAGS. New messages are
 * those without the S (seen) or T (trashed) flag, handed over oldest first
 * (by the file's modification time, then the unique name); a message
 * accepted moves to cur/UNIQUE:2,FLAGS with S added (one rename).
 *
 * The identity of a message is its unique name (the file's name up to its
 * ':'), which stays the same when the file moves from new/ to cur/ and
 * gains flags.
 *
 * A fetch hands over at most MD_ROUND messages, the oldest (or as many
 * as source_maildir_round says), and keeps only
 * those (their names and times) until the commit: the folders are read
 * again for the next round (s->more), so that a run over a mailbox of any
 * size holds the same few MB, where holding every name took some 150
 * bytes a message.
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/crash.h"
#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/xalloc.h"
#include "../spool/maildir.h"
#include "source.h"

#define MD_ROUND 16384		/* messages handed over by one fetch (default) */

struct md_item {
	time_t mtime;
	size_t size;		/* its size when the folder was read */
	char *name;		/* the file's name in new/ or cur/ */
	size_t uid_len;		/* its unique name: name up to the ':' */
	bool in_cur;
	bool accepted;
};

struct mdsrc {
	char *dir;
	struct md_item *items;	/* the round's messages: a heap while the
				 * folders are read, then oldest first */
	size_t nitems;
	size_t round;		/* the most a fetch hands over */
	unsigned rounds;	/* fetches so far */
};

static int
md_open(struct mail_source *s, struct buf *err)
{
	struct mdsrc *p = s->priv;

	if (md_create(p->dir) < 0) {
		buf_printf(err, "Maildir %s: cannot create: %s\n", p->dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* The flags of a file's name: what follows ":2,", or "" (none). */
static const char *
name_flags(const char *name)
{
	const char *info = strchr(name, ':');

	return info != NULL && info[1] == '2' && info[2] == ',' ? info + 3 : "";
}

/* Oldest first: by modification time, then unique name. */
static int
item_cmp(const void *a, const void *b)
{
	const struct md_item *x = a, *y = b;
	size_t n = x->uid_len < y->uid_len ? x->uid_len : y->uid_len;
	int c;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	if ((c = memcmp(x->name, y->name, n)) != 0)
		return c;
	return x->uid_len < y->uid_len ? -1 : x->uid_len > y->uid_len;
}

/* The heap of the round's messages, the newest on top: item k sifted down. */
static void
heap_down(struct md_item *h, size_t n, size_t k)
{
	for (;;) {
		size_t c = 2 * k + 1;
		struct md_item t;

		if (c >= n)
			return;
		if (c + 1 < n && item_cmp(&h[c + 1], &h[c]) > 0)
			c++;
		if (item_cmp(&h[c], &h[k]) <= 0)
			return;
		t = h[k], h[k] = h[c], h[c] = t;
		k = c;
	}
}

static void
heap_up(struct md_item *h, size_t k)
{
	while (k > 0 && item_cmp(&h[(k - 1) / 2], &h[k]) < 0) {
		struct md_item t = h[k];
		h[k] = h[(k - 1) / 2], h[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
}

/* Keep it among the round's messages when it is one of the p->round
 * oldest seen so far. */
static void
consider(struct mdsrc *p, const struct md_item *it)
{
	if (p->nitems < p->round) {
		p->items[p->nitems] = *it;
		p->items[p->nitems].name = xstrdup(it->name);
		heap_up(p->items, p->nitems++);
		return;
	}
	if (item_cmp(it, &p->items[0]) >= 0)
		return;
	free(p->items[0].name);
	p->items[0] = *it;
	p->items[0].name = xstrdup(it->name);
	heap_down(p->items, p->nitems, 0);
}

/* Read the folder new/ or cur/ for new messages. Returns how many it holds,
 * or -1 (err) when it cannot be read. */
static long
scan(struct mail_source *s, bool cur, struct buf *err)
{
	struct mdsrc *p = s->priv;
	char path[PATH_MAX];
	struct dirent *de;
	long n = 0;
	DIR *d;

	snprintf(path, sizeof path, "%s/%s", p->dir, cur ? "cur" : "new");
	if ((d = opendir(path)) == NULL) {
		buf_printf(err, "Maildir %s: cannot read: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		const char *flags = name_flags(de->d_name);
		struct md_item it;
		struct stat st;

		if (de->d_name[0] == '.' || strchr(flags, 'S') != NULL || strchr(flags, 'T') != NULL)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0 || !S_ISREG(st.st_mode))
			continue;	/* gone meanwhile, or no message */
		if ((size_t)st.st_size > SOURCE_MAX_MESSAGE) {
			if (p->rounds == 0)
				log_warn("%s/%s: %lld bytes, more than pouch reads (%u): left in the "
				    "Maildir", path, de->d_name, (long long)st.st_size,
				    SOURCE_MAX_MESSAGE);
			continue;
		}
		it.mtime = st.st_mtime;
		it.size = (size_t)st.st_size;
		it.name = de->d_name;
		it.uid_len = strcspn(de->d_name, ":");
		it.in_cur = cur;
		it.accepted = false;
		consider(p, &it);
		n++;
	}
	closedir(d);
	return n;
}

static void
items_free(struct mdsrc *p)
{
	size_t k;

	for (k = 0; k < p->nitems; k++)
		free(p->items[k].name);
	free(p->items);
	p->items = NULL;
	p->nitems = 0;
}

static int
md_fetch(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg, struct buf *err)
{
	struct mdsrc *p = s->priv;
	struct buf raw, key;
	char path[PATH_MAX];
	long total = 0, n;
	size_t k;
	int res = 0;

	(void)cursor;
	items_free(p);
	p->items = xcalloc(p->round, sizeof *p->items);
	if ((n = scan(s, false, err)) < 0 || (total = n, n = scan(s, true, err)) < 0)
		return -1;
	total += n;
	p->rounds++;
	s->more = total > (long)p->nitems;
	qsort(p->items, p->nitems, sizeof *p->items, item_cmp);
	buf_init(&raw, SOURCE_MAX_MESSAGE);
	buf_init(&key, 4096);
	for (k = 0; k < p->nitems; k++) {
		struct md_item *it = &p->items[k];
		struct source_msg m;
		int r;

		snprintf(path, sizeof path, "%s/%s/%s", p->dir, it->in_cur ? "cur" : "new", it->name);
		buf_reset(&raw);
		if (fs_read_file_sized(path, it->size, &raw) < 0) {
			log_warn("%s: cannot read: %s (left in the Maildir)", path, strerror(errno));
			continue;
		}
		buf_reset(&key);
		buf_printf(&key, "maildir:%.*s", (int)it->uid_len, it->name);
		m.key = buf_str(&key);
		m.data = buf_str(&raw);
		m.len = raw.len;
		m.delivered = it->mtime;
		s->fetched++;
		r = fn(arg, &m, err);
		if (r < 0) {
			res = -1;
			break;
		}
		if (r == SOURCE_ACCEPT) {
			it->accepted = 1;
			s->accepted++;
		}
	}
	buf_free(&raw);
	buf_free(&key);
	return res;
}

/* The name of message it once seen, into out: UNIQUE:2,FLAGS with S among
 * its flags, in ASCII order (as Maildir wants them). */
static int
seen_name(const struct md_item *it, char *out, size_t size)
{
	const char *flags = name_flags(it->name);
	char sorted[64];
	size_t n = 0;
	int c;

	for (c = 33; c < 127; c++)
		if ((c == 'S' || strchr(flags, c) != NULL) && n + 1 < sizeof sorted)
			sorted[n++] = (char)c;
	sorted[n] = '\0';
	c = snprintf(out, size, "%.*s:2,%s", (int)it->uid_len, it->name, sorted);
	return c < 0 || (size_t)c >= size ? -1 : 0;
}

static int
md_commit(struct mail_source *s, char **cursor, struct buf *err)
{
	struct mdsrc *p = s->priv;
	char from[PATH_MAX], to[PATH_MAX], name[NAME_MAX + 8];
	size_t k;
	int failed = 0;

	*cursor = NULL;
	for (k = 0; k < p->nitems; k++) {
		struct md_item *it = &p->items[k];

		if (!it->accepted)
			continue;
		crash_point();
		/* one rename into cur/, with the S flag */
		if (seen_name(it, name, sizeof name) < 0 ||
		    snprintf(from, sizeof from, "%s/%s/%s", p->dir, it->in_cur ? "cur" : "new",
		    it->name) >= (int)sizeof from ||
		    snprintf(to, sizeof to, "%s/cur/%s", p->dir, name) >= (int)sizeof to ||
		    md_move(from, to) < 0)
			failed++;
	}
	items_free(p);
	snprintf(to, sizeof to, "%s/cur", p->dir);
	fs_fsync_dir(to);
	snprintf(to, sizeof to, "%s/new", p->dir);
	fs_fsync_dir(to);
	if (failed) {
		/* not fatal: they are stored, and the spool will recognise them next time */
		buf_printf(err, "Maildir %s: %d messages could not be marked seen\n", p->dir, failed);
		return -1;
	}
	return 0;
}

static void
md_close(struct mail_source *s)
{
	struct mdsrc *p = s->priv;

	if (p == NULL)
		return;
	items_free(p);
	free(p->dir);
	free(p);
	s->priv = NULL;
}

static const struct source_ops maildir_ops = { md_open, md_fetch, md_commit, md_close };

struct mail_source *
source_maildir_new(const char *dir)
{
	struct mail_source *s = xcalloc(1, sizeof *s);
	struct mdsrc *p = xcalloc(1, sizeof *p);

	p->dir = xstrdup(dir);
	p->round = MD_ROUND;
	s->ops = &maildir_ops;
	s->priv = p;
	s->name = xasprintf("maildir:%s", dir);
	return s;
}

void
source_maildir_round(struct mail_source *s, size_t n)
{
	struct mdsrc *p = s->priv;

	p->round = n > 0 ? n : 1;
}
