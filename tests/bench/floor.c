/*
 * floor.c — what the machine itself allows, for the benchmarks to be read
 * against (tests/bench/bench.sh prints each figure beside its floor):
 *
 *	floor read PATH...	read every file under PATH (directories walked,
 *				names sorted as check-game does) and cut it into
 *				whitespace-separated words: the least a replay of
 *				the record files must do. Prints seconds, files,
 *				bytes, words.
 *	floor disk DIR N SIZE	in DIR (made, then removed): N records of SIZE
 *				bytes appended to one file and synced once; then
 *				N files of SIZE bytes created and synced with one
 *				sync of the file system: the least a run that keeps
 *				N messages durable must wait for. Prints seconds
 *				of each.
 *
 * Asserts nothing about time; exits 1 when it cannot do the work.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/monotime.h"

struct tally {
	long files, words;
	long long bytes;
	char *buf;
	size_t cap;
};

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Read the file at path and count its words into t. */
static int
read_one(struct tally *t, const char *path)
{
	int fd = open(path, O_RDONLY);
	struct stat sb;
	size_t n = 0;
	ssize_t k;
	int inword = 0;

	if (fd < 0 || fstat(fd, &sb) < 0) {
		perror(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((size_t)sb.st_size + 1 > t->cap) {
		t->cap = (size_t)sb.st_size + 1;
		t->buf = realloc(t->buf, t->cap);
		if (t->buf == NULL) {
			close(fd);
			return -1;
		}
	}
	while (n < (size_t)sb.st_size && (k = read(fd, t->buf + n, (size_t)sb.st_size - n)) > 0)
		n += (size_t)k;
	close(fd);
	for (size_t i = 0; i < n; i++) {
		int space = t->buf[i] == ' ' || t->buf[i] == '\t' || t->buf[i] == '\n' || t->buf[i] == '\r';
		t->words += !space && !inword;
		inword = !space;
	}
	t->files++;
	t->bytes += (long long)n;
	return 0;
}

/* Read path: a file, or every .txt file under a directory. */
static int
read_path(struct tally *t, const char *path)
{
	struct stat sb;
	struct dirent *e;
	char **names = NULL, sub[4096];
	size_t n = 0, i;
	int rc = 0;
	DIR *d;

	if (stat(path, &sb) < 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(sb.st_mode))
		return read_one(t, path);
	if ((d = opendir(path)) == NULL) {
		perror(path);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || !(e->d_type == DT_DIR || (len > 4 &&
		    strcmp(e->d_name + len - 4, ".txt") == 0)))
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		if (names == NULL || (names[n] = strdup(e->d_name)) == NULL) {
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
		if (rc == 0 && read_path(t, sub) < 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

/* Write size bytes of b to fd, all of them. */
static int
write_all(int fd, const char *b, size_t size)
{
	while (size > 0) {
		ssize_t k = write(fd, b, size);
		if (k <= 0)
			return -1;
		b += k;
		size -= (size_t)k;
	}
	return 0;
}

static int
disk(const char *dir, long n, size_t size)
{
	char *rec = malloc(size), path[4096];
	double t0, append, create;
	long i;
	int fd;

	if (rec == NULL || mkdir(dir, 0700) < 0) {
		perror(dir);
		free(rec);
		return 1;
	}
	memset(rec, 'x', size);
	rec[size - 1] = '\n';
	snprintf(path, sizeof path, "%s/append", dir);
	t0 = monotime_ms();
	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600)) < 0)
		goto fail;
	for (i = 0; i < n; i++)
		if (write_all(fd, rec, size) < 0)
			goto fail;
	if (fsync(fd) < 0 || close(fd) < 0)
		goto fail;
	append = monotime_ms() - t0;
	unlink(path);
	t0 = monotime_ms();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%ld", dir, i);
		if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0 ||
		    write_all(fd, rec, size) < 0 || close(fd) < 0)
			goto fail;
	}
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY)) < 0 || syncfs(fd) < 0 || close(fd) < 0)
		goto fail;
	create = monotime_ms() - t0;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%ld", dir, i);
		unlink(path);
	}
	rmdir(dir);
	printf("append %ld records of %zu bytes, one fsync: %.3f s\n", n, size, append / 1000);
	printf("create %ld files of %zu bytes, one sync: %.3f s\n", n, size, create / 1000);
	free(rec);
	return 0;
fail:
	perror(path);
	free(rec);
	return 1;
}

int
main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "read") == 0) {
		struct tally t = { 0 };
		double t0 = monotime_ms(), ms;
		int rc = 0;

		for (int i = 2; i < argc; i++)
			if (read_path(&t, argv[i]) < 0)
				rc = 1;
		ms = monotime_ms() - t0;
		free(t.buf);
		printf("read and tokenise: %.3f s, %ld files, %lld bytes, %ld words\n", ms / 1000,
		    t.files, t.bytes, t.words);
		return rc;
	}
	if (argc == 5 && strcmp(argv[1], "disk") == 0) {
		long n = strtol(argv[3], NULL, 10), size = strtol(argv[4], NULL, 10);
		if (n < 1 || size < 1 || size > (1L << 24)) {
			fprintf(stderr, "floor disk: N and SIZE must be positive\n");
			return 2;
		}
		return disk(argv[2], n, (size_t)size);
	}
	fprintf(stderr, "usage: floor read PATH... | floor disk DIR N SIZE\n");
	return 2;
}
