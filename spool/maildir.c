/*
 * maildir.c — durable Maildir delivery.
 */
#define _DEFAULT_SOURCE
#include "maildir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "../lib/fsio.h"

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

static int
write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
md_deliver(const char *dir, const char *name, const void *data, size_t len, bool sync_dir)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	int fd, saved;

	if (path_of(tmp, sizeof tmp, dir, "tmp", name) < 0 ||
	    path_of(dst, sizeof dst, dir, "new", name) < 0)
		return -1;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (link(tmp, dst) < 0)
		goto fail;
	unlink(tmp);
	if (sync_dir)
		return md_sync(dir);
	return 0;
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

int
md_sync(const char *dir)
{
	char p[PATH_MAX];

	if (path_of(p, sizeof p, dir, "new", NULL) < 0)
		return -1;
	return fs_fsync_dir(p);
}

int
md_find(const char *dir, const char *name, char *path, size_t size)
{
	static const char *const subs[] = { "new", "cur" };
	size_t nlen = strlen(name), i;
	char d[PATH_MAX];

	for (i = 0; i < 2; i++) {
		if (path_of(path, size, dir, subs[i], name) < 0)
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
