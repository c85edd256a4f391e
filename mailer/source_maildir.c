/*
 * source_maildir.c — reading a local Maildir through libetpan.
 *
 * Postfix (virtual delivery), Dovecot (LMTP) and procmail all write the
 * same Maildir format; libetpan's maildir API lists new/ and cur/; a
 * message marked seen moves to cur/UNIQUE:2,S (one rename for a message
 * in new/ without flags, libetpan's link and unlink otherwise). New messages
 * are those without the S flag (in new/, or in cur/ when a mail reader
 * looked at the folder without reading them), handed over oldest first.
 *
 * The identity of a message is its Maildir unique name, which stays the
 * same when the file moves from new/ to cur/ and gains flags.
 *
 * libetpan's maildir_update creates a "maildirfolder" file (a Courier
 * convention for subfolders), which would make Dovecot take the folder
 * for a subfolder; it is removed again when it was not there before.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libetpan/libetpan.h>

#include "../lib/crash.h"
#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/xalloc.h"
#include "../spool/maildir.h"
#include "source.h"

struct md_item {
	char *uid;
	char *path;
	time_t mtime;
	int flags;
	int accepted;
};

struct mdsrc {
	char *dir;
	struct maildir *md;
	struct md_item *items;
	size_t nitems;
};

static int
md_open(struct mail_source *s, struct buf *err)
{
	struct mdsrc *p = s->priv;
	char folder_file[PATH_MAX];
	int had, r;

	if (md_create(p->dir) < 0) {
		buf_printf(err, "Maildir %s: cannot create: %s\n", p->dir, strerror(errno));
		return -1;
	}
	snprintf(folder_file, sizeof folder_file, "%s/maildirfolder", p->dir);
	had = fs_exists(folder_file);
	p->md = maildir_new(p->dir);
	if (p->md == NULL) {
		buf_printf(err, "Maildir %s: cannot open\n", p->dir);
		return -1;
	}
	r = maildir_update(p->md);
	if (!had)
		unlink(folder_file);
	if (r != MAILDIR_NO_ERROR) {
		buf_printf(err, "Maildir %s: cannot read (libetpan error %d)\n", p->dir, r);
		return -1;
	}
	return 0;
}

static int
item_cmp(const void *a, const void *b)
{
	const struct md_item *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->uid, y->uid);
}

static int
md_fetch(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg, struct buf *err)
{
	struct mdsrc *p = s->priv;
	unsigned i, n = carray_count(p->md->mdir_msg_list);
	struct buf raw, key;
	size_t k;
	int res = 0;

	(void)cursor;
	assert(p->items == NULL);	/* one fetch per open */
	p->items = xcalloc(n ? n : 1, sizeof *p->items);
	for (i = 0; i < n; i++) {
		struct maildir_msg *m = carray_get(p->md->mdir_msg_list, i);
		struct stat st;
		char *path;

		if (m->msg_flags & (MAILDIR_FLAG_SEEN | MAILDIR_FLAG_TRASHED))
			continue;
		path = maildir_message_get(p->md, m->msg_uid);
		if (path == NULL)
			continue;
		if (stat(path, &st) < 0) {	/* gone meanwhile */
			free(path);
			continue;
		}
		if ((size_t)st.st_size > SOURCE_MAX_MESSAGE) {
			log_warn("%s: %lld bytes, more than pouch reads (%u): left in the Maildir", path,
			    (long long)st.st_size, SOURCE_MAX_MESSAGE);
			free(path);
			continue;
		}
		p->items[p->nitems].uid = xstrdup(m->msg_uid);
		p->items[p->nitems].path = path;
		p->items[p->nitems].mtime = st.st_mtime;
		p->items[p->nitems].flags = m->msg_flags;
		p->nitems++;
	}
	qsort(p->items, p->nitems, sizeof *p->items, item_cmp);
	buf_init(&raw, SOURCE_MAX_MESSAGE);
	buf_init(&key, 4096);
	for (k = 0; k < p->nitems; k++) {
		struct md_item *it = &p->items[k];
		struct source_msg m;
		int r;

		buf_reset(&raw);
		if (fs_read_file(it->path, &raw) < 0) {
			log_warn("%s: cannot read: %s (left in the Maildir)", it->path, strerror(errno));
			continue;
		}
		buf_reset(&key);
		buf_printf(&key, "maildir:%s", it->uid);
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

static int
md_commit(struct mail_source *s, char **cursor, struct buf *err)
{
	struct mdsrc *p = s->priv;
	char sub[PATH_MAX];
	size_t k;
	int failed = 0;

	*cursor = NULL;
	for (k = 0; k < p->nitems; k++) {
		struct md_item *it = &p->items[k];
		int flags = (it->flags & ~MAILDIR_FLAG_NEW) | MAILDIR_FLAG_SEEN;

		if (!it->accepted)
			continue;
		crash_point();
		/* a new message without flags: one rename into cur/ */
		if (it->flags == MAILDIR_FLAG_NEW && snprintf(sub, sizeof sub, "%s/cur/%s:2,S", p->dir,
		    it->uid) < (int)sizeof sub && md_move(it->path, sub) == 0)
			continue;
		if (maildir_message_change_flags(p->md, it->uid, flags) != MAILDIR_NO_ERROR)
			failed++;
	}
	snprintf(sub, sizeof sub, "%s/cur", p->dir);
	fs_fsync_dir(sub);
	snprintf(sub, sizeof sub, "%s/new", p->dir);
	fs_fsync_dir(sub);
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
	size_t k;

	if (p == NULL)
		return;
	if (p->md != NULL)
		maildir_free(p->md);
	for (k = 0; k < p->nitems; k++) {
		free(p->items[k].uid);
		free(p->items[k].path);
	}
	free(p->items);
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
	s->ops = &maildir_ops;
	s->priv = p;
	s->name = xasprintf("maildir:%s", dir);
	return s;
}
