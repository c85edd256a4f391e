#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700	/* nftw */
#define _DEFAULT_SOURCE
#ifdef __linux__
#define _GNU_SOURCE		/* syncfs */
#endif
#include "fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crash.h"
#include "str.h"
#include "xalloc.h"

int
fs_read_file(const char *path, struct buf *out)
{
	return fs_read_file_sized(path, SIZE_MAX, out);
}

int
fs_read_file_sized(const char *path, size_t size, struct buf *out)
{
	char tmp[65536];
	int fd, saved;
	ssize_t n;
	size_t got = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		/* Into the buffer's own room when it has enough (a buffer
		 * read into again and again, as a replay of many files does),
		 * else by way of tmp, appended. */
		size_t room = out->data != NULL && !out->failed ? out->cap - out->len - 1 : 0;
		if (room > out->max - out->len)
			room = out->max - out->len;
		if (room >= sizeof tmp) {
			n = read(fd, out->data + out->len, room);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			out->len += (size_t)n;
			out->data[out->len] = '\0';
			/* a regular file's short read is its end: once
			 * the size it had is in, no read for the 0 */
			if ((got += (size_t)n) >= size && (size_t)n < room)
				break;
			continue;
		}
		n = read(fd, tmp, sizeof tmp);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (buf_append(out, tmp, (size_t)n) < 0) {
			close(fd);
			errno = EFBIG;
			return -1;
		}
		if ((got += (size_t)n) >= size && (size_t)n < sizeof tmp)
			break;
	}
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	return 0;
}

int
fs_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	crash_point();
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

/* Directory part of path into dir ("." when there is none). */
static void
dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		str_copy(dir, ".", size);
	else if (slash == path)
		str_copy(dir, "/", size);
	else {
		size_t n = (size_t)(slash - path);
		if (n >= size)
			n = size - 1;
		memcpy(dir, path, n);
		dir[n] = '\0';
	}
}

/* fn on path opened read-only (with extra flags), keeping fn's errno. */
static int
on_open(const char *path, int flags, int (*fn)(int))
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | flags);
	int r, saved;

	if (fd < 0)
		return -1;
	crash_point();
	r = fn(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return r;
}

int
fs_fsync_dir(const char *dir)
{
	return on_open(dir, O_DIRECTORY, fsync);
}

/* Write path through a temporary file; sync when durable. */
static int
replace_file(const char *path, const void *data, size_t len, mode_t mode, int durable)
{
	char tmp[PATH_MAX], dir[PATH_MAX];
	int fd, saved;

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	if (fs_write_all(fd, data, len) < 0 || (durable && fsync(fd) < 0))
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	crash_point();
	if (rename(tmp, path) < 0)
		goto fail;
	if (!durable)
		return 0;
	dir_of(path, dir, sizeof dir);
	return fs_fsync_dir(dir);
fail:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
	return -1;
}

/* Whether the regular file at path holds exactly the len bytes at data. */
static bool
holds(const char *path, const void *data, size_t len)
{
	char chunk[16384];
	struct stat st;
	size_t at = 0;
	bool same;
	int fd;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len)
		return false;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	same = true;
	while (same && at < len) {
		ssize_t got = read(fd, chunk, len - at < sizeof chunk ? len - at : sizeof chunk);
		if (got <= 0)
			same = false;
		else
			same = memcmp(chunk, (const char *)data + at, (size_t)got) == 0;
		at += got > 0 ? (size_t)got : 0;
	}
	close(fd);
	return same;
}

int
fs_replace_changed(const char *path, const void *data, size_t len)
{
	if (holds(path, data, len))
		return 0;
	return fs_replace(path, data, len);
}

int
fs_replace_link(const char *path, const char *from)
{
	char tmp[PATH_MAX];
	struct stat a, b;
	int saved;

	/* the same file already (a rename of one link onto another of the
	 * same file would do nothing, and leave the temporary name) */
	if (stat(from, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 0;
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	crash_point();
	if (link(from, tmp) < 0) {
		if (errno != EEXIST)
			return -1;
		/* a killed run's: made again */
		if (unlink(tmp) < 0 || link(from, tmp) < 0)
			return -1;
	}
	if (rename(tmp, path) < 0) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

int
fs_write_atomic_mode(const char *path, const void *data, size_t len, mode_t mode)
{
	return replace_file(path, data, len, mode, 1);
}

int
fs_replace(const char *path, const void *data, size_t len)
{
	return replace_file(path, data, len, 0644, 0);
}

int
fs_write_atomic(const char *path, const void *data, size_t len)
{
	return fs_write_atomic_mode(path, data, len, 0644);
}

/* The PID of a temporary file's name (NAME.tmp.PID), or -1. */
static long
tmp_pid(const char *name)
{
	const char *p = strstr(name, ".tmp."), *q;
	long pid;

	while (p != NULL && strstr(p + 5, ".tmp.") != NULL)
		p = strstr(p + 5, ".tmp.");
	if (p == NULL || p == name)
		return -1;
	for (q = p + 5; *q >= '0' && *q <= '9'; q++)
		;
	if (q == p + 5 || *q != '\0' || str_to_long(p + 5, 1, INT_MAX, &pid) < 0)
		return -1;
	return pid;
}

int
fs_sweep_tmp(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	struct stat st;
	long pid;
	int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		/* hidden names are passed over, but a hidden file's temporary
		 * (".sealed.tmp.PID") */
		if ((e->d_name[0] == '.' && tmp_pid(e->d_name) < 0) ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path ||
		    lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth > 0)
				n += fs_sweep_tmp(path, depth - 1);
			continue;
		}
		pid = tmp_pid(e->d_name);
		if (!S_ISREG(st.st_mode) || pid < 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (unlink(path) == 0)
			n++;
	}
	closedir(d);
	return n;
}

int
fs_append_sync(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int saved;

	if (fd < 0)
		return -1;
	if (fs_write_all(fd, data, len) < 0 || (crash_point(), fsync(fd)) < 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

int
fs_sync_fs(const char *path)
{
#ifdef __linux__
	return on_open(path, 0, syncfs);
#else
	(void)path;
	sync();
	return 0;
#endif
}

int
fs_mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	char *p;

	if (str_copy(tmp, path, sizeof tmp) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* Mostly it is there, or only its last part is missing: one call. */
	if (mkdir(tmp, mode) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT)
		return -1;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, mode) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int
fs_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int
fs_lock(const char *path, int wait_ms)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	int waited = 0;

	if (fd < 0)
		return -1;
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;
		if (waited >= wait_ms) {
			errno = EWOULDBLOCK;
			break;
		}
		{
			struct timespec ts = { 0, 50 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
		waited += 50;
	}
	{
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return -1;
}

void
fs_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

/*
 * fs_fsync_all: an fsync of a new file waits for a journal commit. One
 * after another, N files cost N commits; issued together from a few
 * threads, the filesystem folds them into a handful of commits (group
 * commit), which turns 200 files from most of a second into a few tens of
 * milliseconds. Every file is still fsync'd; only the waiting overlaps.
 */
struct sync_job {
	char *const *paths;
	size_t n;
	atomic_size_t next;
	atomic_int error;	/* errno of the first failure, 0 when none */
};

static void *
sync_worker(void *arg)
{
	struct sync_job *j = arg;
	size_t i;

	while ((i = atomic_fetch_add(&j->next, 1)) < j->n) {
		int fd = open(j->paths[i], O_RDONLY | O_CLOEXEC), r;

		r = fd < 0 ? -1 : fsync(fd);
		if (fd >= 0)
			close(fd);
		if (r < 0) {
			int none = 0;
			atomic_compare_exchange_strong(&j->error, &none, errno ? errno : EIO);
		}
	}
	return NULL;
}

static int
fsync_each(char *const *paths, size_t n)
{
	pthread_t th[FS_SYNC_THREADS];
	struct sync_job j;
	size_t want = n / 8 < FS_SYNC_THREADS ? n / 8 : FS_SYNC_THREADS, started = 0, k;

	j.paths = paths;
	j.n = n;
	atomic_init(&j.next, 0);
	atomic_init(&j.error, 0);
	for (k = 0; k < want; k++)	/* small batches need no threads */
		if (pthread_create(&th[started], NULL, sync_worker, &j) == 0)
			started++;
	sync_worker(&j);	/* the caller works too */
	for (k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	if (atomic_load(&j.error) != 0) {
		errno = atomic_load(&j.error);
		return -1;
	}
	return 0;
}

/*
 * A large batch: one syncfs(2) per file system the files are on, in place
 * of an fsync each. syncfs writes back every dirty page and inode of the
 * file system and waits for one journal commit, so each file's bytes and
 * name are as durable as their own fsyncs would make them; and since
 * Linux 5.8 it reports a writeback error of any of them. The file
 * systems are told apart by the directories' device numbers: one stat
 * for each directory the files are in (a Maildir sink's batch puts them
 * in hundreds, one after the other in turn), not one for each file.
 */
static int
dir_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
syncfs_all(char *const *paths, size_t n)
{
	char dir[PATH_MAX], **dirs = xcalloc(n, sizeof *dirs);
	dev_t devs[FS_SYNC_THREADS];
	char *reps[FS_SYNC_THREADS];
	size_t i, k, ndirs = 0, ndev = 0;
	int r = 0, saved = 0;

	for (i = 0; i < n; i++) {
		dir_of(paths[i], dir, sizeof dir);
		if (ndirs == 0 || strcmp(dir, dirs[ndirs - 1]) != 0)
			dirs[ndirs++] = xstrdup(dir);
	}
	qsort(dirs, ndirs, sizeof *dirs, dir_cmp);
	for (i = 0; i < ndirs && r == 0; i++) {
		struct stat st;

		if (i > 0 && strcmp(dirs[i], dirs[i - 1]) == 0)
			continue;
		if (stat(dirs[i], &st) < 0) {
			r = -1;
			saved = errno;
			break;
		}
		for (k = 0; k < ndev && devs[k] != st.st_dev; k++)
			;
		if (k < ndev)
			continue;
		if (ndev == FS_SYNC_THREADS) {
			r = 1;	/* many file systems: an fsync each, as before */
			break;
		}
		devs[ndev] = st.st_dev;
		reps[ndev++] = xstrdup(dirs[i]);
	}
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	for (k = 0; k < ndev; k++) {
		if (r == 0 && fs_sync_fs(reps[k]) < 0) {
			r = -1;
			saved = errno;
		}
		free(reps[k]);
	}
	if (r == 1)
		return fsync_each(paths, n);
	if (r < 0 && saved != 0)
		errno = saved;
	return r;
}

int
fs_fsync_all(char *const *paths, size_t n)
{
	if (n >= FS_SYNCFS_MIN)
		return syncfs_all(paths, n);
	crash_point();
	return fsync_each(paths, n);
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int
fs_rm_rf(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
