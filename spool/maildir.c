/*
 * maildir.c — durable Maildir delivery, in batches (fs_fsync_all).
 */
#define _GNU_SOURCE	/* renameat2 */
#include "maildir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "../lib/crash.h"
#include "../lib/fsio.h"
#include "../lib/strset.h"
#include "../lib/xalloc.h"

static int
path_of(char *out, size_t size, const char *dir, const char *sub, const char *name)
{
	int n = snprintf(out, size, "%s/%s%s%s", dir, sub, name ? "/" : "", name ? name : "");

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

int
md_create(const char *dir)
{
	static const char *const subs[] = { "tmp", "new", "cur" };
	char p[PATH_MAX];
	size_t i;

	if (fs_mkdir_p(dir, 0700) < 0)
		return -1;
	for (i = 0; i < 3; i++) {
		if (path_of(p, sizeof p, dir, subs[i], NULL) < 0)
			return -1;
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* dir/tmp/name into tmp, when the name is free in new/ too. */
static int
tmp_name(const char *dir, const char *name, char *tmp, size_t size)
{
	char dst[PATH_MAX];

	if (path_of(tmp, size, dir, "tmp", name) < 0 || path_of(dst, sizeof dst, dir, "new", name) < 0)
		return -1;
	if (fs_exists(dst)) {
		errno = EEXIST;
		return -1;
	}
	return 0;
}

int
md_link_tmp(const char *dir, const char *name, const char *src)
{
	char tmp[PATH_MAX];

	return tmp_name(dir, name, tmp, sizeof tmp) < 0 ? -1 : link(src, tmp);
}

/* Write len bytes to the new file tmp (flags: how it is created). */
static int
write_file(const char *tmp, int flags, const void *data, size_t len)
{
	int fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0600);
	if (fd < 0)
		return -1;
	if (fs_write_all(fd, data, len) < 0) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	if (close(fd) < 0) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

int
md_move(const char *from, const char *to)
{
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a file system without it: a link, which never overwrites either */
	if (link(from, to) < 0)
		return -1;
	unlink(from);
	return 0;
}

int
md_write_tmp(const char *dir, const char *name, const void *data, size_t len)
{
	char tmp[PATH_MAX];

	if (tmp_name(dir, name, tmp, sizeof tmp) < 0)
		return -1;
	return write_file(tmp, O_EXCL, data, len);
}

int
md_write_fresh(const char *dir, const char *name, const void *data, size_t len, bool replace)
{
	char tmp[PATH_MAX];
	int r;

	if (path_of(tmp, sizeof tmp, dir, "tmp", name) < 0)
		return -1;
	r = write_file(tmp, O_EXCL, data, len);
	if (r == 0 || errno != EEXIST || !replace)
		return r;
	/* a copy left by a killed run: another name for it may be in a
	 * reader's cur/ by now, so it is unlinked, never written over */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return -1;
	return write_file(tmp, O_EXCL, data, len);
}

/* One part of a batch (md_publish_each): its n files synced together,
 * moved into new/, then every new/ folder synced together. */
static int
publish_part(char *const *dirs, char *const *names, size_t n)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	char **paths = xcalloc(n + 1, sizeof *paths), **news = xcalloc(n + 1, sizeof *news);
	struct strset seen;
	size_t i, k, nnew = 0;
	int r = 0;

	strset_init(&seen);
	for (i = 0; i < n && r == 0; i++) {
		r = path_of(tmp, sizeof tmp, dirs[i], "tmp", names[i]);
		paths[i] = xstrdup(tmp);
	}
	/* every file durable before any of them is published */
	if (r == 0)
		r = fs_fsync_all(paths, n);
	for (i = 0; i < n && r == 0; i++) {
		crash_point();
		if (path_of(dst, sizeof dst, dirs[i], "new", names[i]) < 0 || md_move(paths[i], dst) < 0) {
			r = -1;
			break;
		}
		/* each Maildir's new/ once */
		path_of(dst, sizeof dst, dirs[i], "new", NULL);
		if (strset_add(&seen, dst))
			news[nnew++] = xstrdup(dst);
	}
	/* the names durable: every new/ synced, together */
	if (r == 0)
		r = fs_fsync_all(news, nnew);
	for (i = 0; i < n; i++)
		free(paths[i]);
	for (k = 0; k < nnew; k++)
		free(news[k]);
	free(paths);
	free(news);
	strset_free(&seen);
	return r;
}

int
md_publish_each(char *const *dirs, char *const *names, size_t n)
{
	size_t i, m;

	for (i = 0; i < n; i += m) {
		m = n - i < MD_PUBLISH_PART ? n - i : MD_PUBLISH_PART;
		if (publish_part(dirs + i, names + i, m) < 0)
			return -1;
	}
	return 0;
}

int
md_publish(const char *dir, char *const *names, size_t n)
{
	size_t most = n < MD_PUBLISH_PART ? n : MD_PUBLISH_PART;
	char **dirs = xcalloc(most + 1, sizeof *dirs);
	size_t i, m;
	int r = 0;

	for (i = 0; i < most; i++)
		dirs[i] = (char *)(uintptr_t)dir;
	for (i = 0; i < n && r == 0; i += m) {
		m = n - i < MD_PUBLISH_PART ? n - i : MD_PUBLISH_PART;
		r = publish_part(dirs, names + i, m);
	}
	free(dirs);
	return r;
}

int
md_deliver(const char *dir, const char *name, const void *data, size_t len)
{
	char *names[1];

	if (md_write_tmp(dir, name, data, len) < 0)
		return -1;
	names[0] = (char *)(uintptr_t)name;
	return md_publish(dir, names, 1);
}

int
md_find(const char *dir, const char *name, char *path, size_t size)
{
	static const char *const subs[] = { "new", "cur" };
	size_t nlen = strlen(name), i;
	char d[PATH_MAX];

	for (i = 0; i < 3; i++) {
		if (path_of(path, size, dir, i < 2 ? subs[i] : "tmp", name) < 0)
			return -1;
		if (fs_exists(path))
			return 0;
	}
	/* moved by a mail reader: cur/name:2,FLAGS */
	for (i = 0; i < 2; i++) {
		DIR *dp;
		struct dirent *e;

		if (path_of(d, sizeof d, dir, subs[i], NULL) < 0 || (dp = opendir(d)) == NULL)
			continue;
		while ((e = readdir(dp)) != NULL) {
			if (strncmp(e->d_name, name, nlen) == 0 && e->d_name[nlen] == ':') {
				int r = path_of(path, size, dir, subs[i], e->d_name);
				closedir(dp);
				return r;
			}
		}
		closedir(dp);
	}
	errno = ENOENT;
	return -1;
}

void
md_unique_name(char *out, size_t size)
{
	static unsigned long count;
	struct timeval tv;

	gettimeofday(&tv, NULL);
	snprintf(out, size, "%lld.M%ldP%ldQ%lu.pouch", (long long)tv.tv_sec, (long)tv.tv_usec,
	    (long)getpid(), ++count);
}

int
md_clean_tmp(const char *dir)
{
	char d[PATH_MAX], f[PATH_MAX];
	DIR *dp;
	struct dirent *e;
	int n = 0;

	if (path_of(d, sizeof d, dir, "tmp", NULL) < 0 || (dp = opendir(d)) == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (path_of(f, sizeof f, dir, "tmp", e->d_name) == 0 && unlink(f) == 0)
			n++;
	}
	closedir(dp);
	return n;
}

int
md_clean_stale(const char *dir, long long before)
{
	char d[PATH_MAX], f[PATH_MAX];
	DIR *dp;
	struct dirent *e;
	struct stat st;
	int n = 0;

	if (path_of(d, sizeof d, dir, "tmp", NULL) < 0 || (dp = opendir(d)) == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.' || path_of(f, sizeof f, dir, "tmp", e->d_name) < 0)
			continue;
		if (lstat(f, &st) == 0 && S_ISREG(st.st_mode) && (long long)st.st_mtime < before &&
		    unlink(f) == 0)
			n++;
	}
	closedir(dp);
	return n;
}

int
md_published(const char *dir, const char *name)
{
	char p[PATH_MAX];

	if (path_of(p, sizeof p, dir, "new", name) < 0)
		return -1;
	if (fs_exists(p))
		return 1;
	if (path_of(p, sizeof p, dir, "cur", name) < 0)
		return -1;
	return fs_exists(p) ? 1 : 0;
}
