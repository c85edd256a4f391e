#define _DEFAULT_SOURCE
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <gnutls/crypto.h>

#include "../../lib/crash.h"
#include "../../lib/fsio.h"
#include "../../lib/grow.h"
#include "../../lib/scan.h"
#include "../../lib/str.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "entropy.h"

#define GAME_FILE_MAX (4u << 20)

static int read_history(void *ctx, const char *game, int index, struct buf *out);
static int read_sealed(const char *path, struct buf *out, struct buf *why);
static const struct map *find_variant(void *ctx, const char *name, const struct names **nm);

/* ------------------------------------------------------- the end line -- */

/* The checksum of text: the first 8 bytes of its SHA-256, in hex. */
static int
seal_sum(const char *text, size_t len, char out[17])
{
	unsigned char h[32];

	if (gnutls_hash_fast(GNUTLS_DIG_SHA256, text, len, h) < 0)
		return -1;
	for (int i = 0; i < 8; i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
	return 0;
}

void
store_seal(struct buf *text)
{
	char sum[17] = "edited";

	if (text->len > 0 && text->data[text->len - 1] != '\n')
		buf_putc(text, '\n');
	if (seal_sum(buf_str(text), text->len, sum) < 0)
		str_copy(sum, "edited", sizeof sum);	/* no digest: still an end */
	buf_printf(text, "end %s\n", sum);
}

int
store_unseal(const char *text, size_t len, size_t *body, struct buf *why)
{
	const char *last;
	size_t n, line = 1;
	char sum[17];

	for (size_t i = 0; i < len; i++)
		line += text[i] == '\n';
	if (len == 0) {
		buf_printf(why, "1: the file is empty (cut short?)\n");
		return -1;
	}
	if (text[len - 1] != '\n') {
		buf_printf(why, "%zu: the last line has no newline: the file was cut short\n", line);
		return -1;
	}
	line--;		/* the number of the last line */
	for (last = text + len - 1; last > text && last[-1] != '\n'; last--)
		;
	n = (size_t)(text + len - 1 - last);
	if (n < 4 || memcmp(last, "end ", 4) != 0) {
		buf_printf(why, "%zu: no end line after this one: the file was cut short\n", line);
		return -1;
	}
	*body = (size_t)(last - text);
	if (n == 10 && memcmp(last, "end edited", 10) == 0)
		return 0;	/* changed by hand: taken as it is */
	if (seal_sum(text, *body, sum) < 0 || n != 4 + 16 || memcmp(last + 4, sum, 16) != 0) {
		buf_printf(why, "%zu: the checksum does not match: the file is damaged\n", line);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------ the upgrade -- */

/* True when the last line of text is an end line (whether or not it is
 * right): a file written since the end line came in. */
static int
has_end_line(const char *text, size_t len)
{
	const char *last;

	if (len == 0 || text[len - 1] != '\n')
		return 0;
	for (last = text + len - 1; last > text && last[-1] != '\n'; last--)
		;
	return (size_t)(text + len - last) > 4 && memcmp(last, "end ", 4) == 0;
}

/* Seal the file at path in place when it has no end line and is whole
 * (ends with a newline); one that is not is left for store_load to set
 * aside. Returns 0 or -1/err. */
static int
seal_old(const char *path, struct buf *b, struct buf *err)
{
	buf_reset(b);
	if (fs_read_file(path, b) < 0)
		return 0;	/* gone or unreadable: store_load says so */
	if (b->len == 0 || b->data[b->len - 1] != '\n' || has_end_line(buf_str(b), b->len))
		return 0;
	store_seal(b);
	if (fs_write_atomic_mode(path, b->data, b->len, 0640) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* True when text (no end line) reads whole as a game file. */
static int
reads_as_game(struct store *s, const struct buf *text)
{
	struct game_lookup lk = { s, find_variant, varcache_system, varcache_setting };
	struct game *g;
	struct buf why;
	int ok;

	if (text->len == 0 || text->data[text->len - 1] != '\n')
		return 0;
	g = xcalloc(1, sizeof *g);
	buf_init(&why, BUF_ERRORS_MAX);
	ok = game_read(g, text->data, text->len, &lk, &why) == 0;
	buf_free(&why);
	game_free(g);
	return ok;
}

/* Seal the history records of the game in folder dir (numbered and
 * rolled back alike). Returns 0 or -1/err. */
static int
seal_old_history(const char *dir, struct buf *b, struct buf *err)
{
	char path[1600];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	snprintf(path, sizeof path, "%s/history", dir);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp.") || n < 5 ||
		    strcmp(e->d_name + n - 4, ".txt") != 0)
			continue;
		snprintf(path, sizeof path, "%s/history/%s", dir, e->d_name);
		rc = seal_old(path, b, err);
	}
	closedir(d);
	return rc;
}

/*
 * A data directory from before the end line (no STORE_SEALED in games/):
 * every game file that reads as before, and its history records, sealed
 * in place, then the marker written. Each file is replaced atomically and
 * synced, so that a run stopped half-way leaves files old or sealed, never
 * neither, and the next run goes on. Returns 0 or -1/err.
 */
static int
seal_old_games(struct store *s, struct buf *err)
{
	char path[1400], dir[1300];
	static const char marker[] = "game files and history records end with a checksum line\n";
	DIR *d;
	struct dirent *e;
	struct buf b;
	int rc = 0;

	snprintf(path, sizeof path, "%s/games/%s", s->dir, STORE_SEALED);
	if (fs_exists(path))
		return 0;
	snprintf(path, sizeof path, "%s/games", s->dir);
	if ((d = opendir(path)) == NULL) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&b, GAME_FILE_MAX);
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || !game_name_valid(e->d_name))
			continue;
		store_game_dir(s, e->d_name, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/game.txt", dir);
		buf_reset(&b);
		if (fs_read_file(path, &b) < 0)
			continue;
		if (has_end_line(buf_str(&b), b.len) || !reads_as_game(s, &b))
			continue;	/* sealed already, or damaged: store_load decides */
		/* The records first: the game file is what names them. */
		if (seal_old_history(dir, &b, err) < 0 || seal_old(path, &b, err) < 0)
			rc = -1;
	}
	closedir(d);
	buf_free(&b);
	snprintf(path, sizeof path, "%s/games/%s", s->dir, STORE_SEALED);
	if (rc == 0 && fs_write_atomic_mode(path, marker, sizeof marker - 1, 0640) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/* The end line of sealed text (store_seal), without "end " and the newline,
 * into sum; "" when there is none. */
static void
end_sum(const char *text, size_t len, char *sum, size_t size)
{
	size_t k = len;

	*sum = '\0';
	if (k == 0 || text[k - 1] != '\n')
		return;
	k--;
	while (k > 0 && text[k - 1] != '\n')
		k--;
	if (len - k > 5 && memcmp(text + k, "end ", 4) == 0 && len - k - 5 < size) {
		memcpy(sum, text + k + 4, len - k - 5);
		sum[len - k - 5] = '\0';
	}
}

/* The size of file path, 0 when it is not there. */
static long long
file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/*
 * The note of a commit that appends to game logs (STORE_APPENDING): for
 * each log of a game whose file the commit replaces, "GAME LOG SIZE SUM",
 * its size before the commit and the end line of the new game file. A
 * game's file not in place (a stopped commit) means its logs hold lines of
 * messages the next run applies again: cut back to SIZE. Returns 0 or
 * -1/err.
 */
static int
recover_appends(struct store *s, struct buf *err)
{
	char path[1400], sum[64], line[600];
	struct buf note, text;
	const char *p, *end, *l;
	size_t n;
	int rc = 0;

	snprintf(path, sizeof path, "%s/games/%s", s->dir, STORE_APPENDING);
	buf_init(&note, 1u << 20);
	if (fs_read_file(path, &note) < 0) {
		buf_free(&note);
		if (errno == ENOENT)
			return 0;
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&text, GAME_FILE_MAX);
	p = buf_str(&note);
	end = p + note.len;
	while (rc == 0 && (l = str_next_line(&p, end, &n)) != NULL) {
		char game[GAME_NAME_MAX], log[16], want[64], file[1400];
		const char *q = line;
		long long size;
		long v;
		int fd;

		/* a line cut short (no newline: the note was being written) or
		 * not of this form names no log to cut */
		if (p > end || l[n] != '\n' || n >= sizeof line)
			continue;
		memcpy(line, l, n);
		line[n] = '\0';
		if (scan_name(&q, game, sizeof game) < 0 || !game_name_valid(game) ||
		    scan_name(&q, log, sizeof log) < 0 || (strcmp(log, "audit.log") != 0 &&
		    strcmp(log, "press.log") != 0 && strcmp(log, "history") != 0) ||
		    scan_long(&q, 0, LONG_MAX, &v) < 0 || scan_name(&q, want, sizeof want) < 0)
			continue;
		size = v;
		snprintf(file, sizeof file, "%s/games/%s/game.txt", s->dir, game);
		buf_reset(&text);
		*sum = '\0';
		if (fs_read_file(file, &text) == 0)
			end_sum(buf_str(&text), text.len, sum, sizeof sum);
		if (strcmp(log, "history") == 0) {
			/* a record the game in place no longer names: its
			 * rolled-back copy stays */
			snprintf(file, sizeof file, "%s/games/%s/history/%04lld.txt", s->dir, game, size);
			if (strcmp(sum, want) == 0 && unlink(file) < 0 && errno != ENOENT) {
				buf_printf(err, "%s: %s\n", file, strerror(errno));
				rc = -1;
			}
			continue;
		}
		if (strcmp(sum, want) == 0)
			continue;	/* the game's file is in place: its lines stand */
		snprintf(file, sizeof file, "%s/games/%s/%s", s->dir, game, log);
		if (file_size(file) <= size)
			continue;
		if ((fd = open(file, O_WRONLY | O_CLOEXEC)) < 0 || ftruncate(fd, (off_t)size) < 0 ||
		    fsync(fd) < 0) {
			buf_printf(err, "%s: %s\n", file, strerror(errno));
			rc = -1;
		}
		if (fd >= 0)
			close(fd);
	}
	buf_free(&text);
	buf_free(&note);
	if (rc == 0 && unlink(path) < 0 && errno != ENOENT) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

int
store_open(struct store *s, const char *dir, const char *maps_dir, int wait_ms, struct buf *err)
{
	char path[1200];

	memset(s, 0, sizeof *s);
	s->lockfd = -1;
	if (str_copy(s->dir, dir, sizeof s->dir) >= sizeof s->dir) {
		buf_printf(err, "data directory name too long\n");
		return -1;
	}
	snprintf(path, sizeof path, "%s/games", dir);
	if (fs_mkdir_p(path, 0750) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof path, "%s/pouch.lock", dir);
	s->lockfd = fs_lock(path, wait_ms);
	if (s->lockfd < 0) {
		if (errno == EWOULDBLOCK)
			return 1;
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	varcache_init(&s->vc, maps_dir);
	s->zones = zones_new(NULL);
	if (recover_appends(s, err) < 0 || seal_old_games(s, err) < 0) {
		store_close(s);
		return -1;
	}
	return 0;
}

void
store_close(struct store *s)
{
	int i;

	for (i = 0; i < s->napp; i++) {	/* staged and never committed */
		free(s->app[i].path);
		buf_free(&s->app[i].text);
	}
	free(s->app);
	free(s->retired);
	s->retired = NULL;
	s->nretired = s->capretired = 0;
	for (i = 0; i < s->nsync; i++)
		free(s->sync[i]);
	free(s->sync);
	for (i = 0; i < s->ndirs; i++)
		free(s->dirs[i]);
	free(s->dirs);
	s->app = NULL;
	s->sync = s->dirs = NULL;
	s->napp = s->nsync = s->ndirs = 0;
	for (i = 0; i < s->naside; i++)
		free(s->aside[i].why);
	free(s->aside);
	s->aside = NULL;
	s->naside = 0;
	varcache_free(&s->vc);
	zones_free(s->zones);
	s->zones = NULL;
	fs_unlock(s->lockfd);
	s->lockfd = -1;
}

int
store_has_game(const char *data, const char *game)
{
	char dir[1100], path[1400];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(dir, sizeof dir, "%s/games", data);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || !str_eq_nocase(e->d_name, game))
			continue;
		snprintf(path, sizeof path, "%s/%s/game.txt", dir, e->d_name);
		found = fs_exists(path);
	}
	closedir(d);
	return found;
}

void
store_game_dir(const struct store *s, const char *game, char *out, size_t size)
{
	snprintf(out, size, "%s/games/%s", s->dir, game);
}

int
store_history(struct store *s, const char *game, int index, struct buf *out)
{
	return read_history(s, game, index, out);
}

static int
read_history(void *ctx, const char *game, int index, struct buf *out)
{
	struct store *s = ctx;
	char path[1300];

	if (!game_name_valid(game))
		return -1;
	snprintf(path, sizeof path, "%s/games/%s/history/%04d.txt", s->dir, game, index);
	return read_sealed(path, out, NULL);
}

/* Append the file at path without its end line; -1 when it cannot be
 * read or is not whole (why, when not NULL, says "PATH:LINE: ..."). */
static int
read_sealed(const char *path, struct buf *out, struct buf *why)
{
	size_t start = out->len, body;
	struct buf w;
	int rc = 0;

	if (fs_read_file(path, out) < 0) {
		if (why)
			buf_printf(why, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&w, 1 << 12);
	if (store_unseal(out->data + start, out->len - start, &body, &w) < 0) {
		if (why)
			buf_printf(why, "%s:%s", path, buf_str(&w));
		buf_truncate(out, start);
		rc = -1;
	} else {
		buf_truncate(out, start + body);
	}
	buf_free(&w);
	return rc;
}

int
store_use_key(struct store *s, const char *path, struct buf *err)
{
	struct buf b;
	int rc = -1;

	buf_init(&b, 4096);
	if (fs_read_file(path, &b) < 0) {
		unsigned char k[32];
		if (errno != ENOENT || entropy_read(k) < 0 || entropy_read(k + 16) < 0) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			goto out;
		}
		buf_reset(&b);
		for (size_t i = 0; i < sizeof k; i++)
			buf_printf(&b, "%02x", k[i]);
		buf_putc(&b, '\n');
		if (fs_write_atomic_mode(path, buf_str(&b), b.len, 0600) < 0) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			goto out;
		}
	}
	for (size_t i = 0; i < sizeof s->key; i++) {
		int hi = b.len < 2 * i + 2 ? -1 : str_hexval(b.data[2 * i]);
		int lo = hi < 0 ? -1 : str_hexval(b.data[2 * i + 1]);
		if (lo < 0) {
			buf_printf(err, "%s: not a key (64 hex digits)\n", path);
			goto out;
		}
		s->key[i] = (unsigned char)(hi * 16 + lo);
	}
	s->haskey = 1;
	rc = 0;
out:
	buf_free(&b);
	return rc;
}

int
store_derive(const unsigned char key[32], const char *label, unsigned char out[16])
{
	unsigned char mac[32];

	if (gnutls_hmac_fast(GNUTLS_MAC_SHA256, key, 32, label, strlen(label), mac) < 0)
		return -1;
	memcpy(out, mac, 16);
	return 0;
}

static int
random16(void *ctx, const char *label, unsigned char out[16])
{
	struct store *s = ctx;

	return s->haskey ? store_derive(s->key, label, out) : entropy_read(out);
}

/* Variants (for game_read and the judge) go through the store's cache. */
static const struct map *
find_variant(void *ctx, const char *name, const struct names **nm)
{
	struct store *s = ctx;

	return varcache_get(&s->vc, name, nm);
}

void
store_io(struct store *s, struct judge_io *io)
{
	io->ctx = s;
	io->variant = find_variant;
	io->history = read_history;
	io->random = random16;
	io->system = varcache_system;
	io->zones = zones_lookup(s->zones);
	io->secret_check = NULL;	/* the run's own, while it applies mail */
	io->secret_arg = NULL;
}

/* The masters named by what is left of a damaged game file. */
static void
aside_gms(struct store_aside *a, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL && a->ngms < GAME_MAX_GMS) {
		char addr[ADDR_MAX];
		if (n < 4 || memcmp(line, "gm ", 3) != 0 || n - 3 >= sizeof addr)
			continue;
		memcpy(addr, line + 3, n - 3);
		addr[n - 3] = '\0';
		if (strchr(addr, '@') && !strpbrk(addr, " \t\r"))
			str_copy(a->gms[a->ngms++], addr, ADDR_MAX);
	}
}

/* Set game name aside: why holds "LINE: ..." lines about path (or whole
 * "PATH:LINE: ..." lines when path is NULL). */
static void
set_aside(struct store *s, const char *name, const char *path, const char *why,
    const char *text, size_t len)
{
	struct store_aside *a;
	struct buf w;
	const char *p = why;

	s->aside = xreallocarray(s->aside, (size_t)s->naside + 1, sizeof *s->aside);
	a = &s->aside[s->naside++];
	memset(a, 0, sizeof *a);
	str_copy(a->game, name, sizeof a->game);
	buf_init(&w, BUF_ERRORS_MAX);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t k = nl ? (size_t)(nl - p) : strlen(p);
		if (path)
			buf_printf(&w, "%s:", path);
		buf_printf(&w, "%.*s\n", (int)k, p);
		p += k + (nl != NULL);
	}
	if (w.len == 0)
		buf_printf(&w, "%s: damaged\n", path ? path : name);
	a->why = buf_take(&w);
	aside_gms(a, text, len);
}

/* Every history record game g names must be there and whole. */
static int
check_history(struct store *s, const struct game *g, struct buf *rec, struct buf *why)
{
	char path[1300];

	for (int i = 1; i <= g->nphases; i++) {
		snprintf(path, sizeof path, "%s/games/%s/history/%04d.txt", s->dir, g->name, i);
		buf_reset(rec);
		if (read_sealed(path, rec, why) < 0)
			return -1;
	}
	return 0;
}

int
store_load(struct store *s, struct judge *j, struct buf *err)
{
	struct game_lookup lk = { s, find_variant, varcache_system, varcache_setting };
	char path[1300];
	DIR *d;
	struct dirent *e;
	struct buf text, rec;
	int n = 0;

	snprintf(path, sizeof path, "%s/games", s->dir);
	d = opendir(path);
	if (d == NULL) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&text, GAME_FILE_MAX);
	buf_init(&rec, GAME_FILE_MAX);
	while ((e = readdir(d)) != NULL) {
		struct game *g;
		struct buf why;
		size_t body;

		if (e->d_name[0] == '.' || !game_name_valid(e->d_name))
			continue;
		snprintf(path, sizeof path, "%s/games/%s/game.txt", s->dir, e->d_name);
		buf_reset(&text);
		if (fs_read_file(path, &text) < 0) {
			if (errno == ENOENT)
				continue;	/* a game being created when a run stopped */
			buf_init(&why, 1024);
			buf_printf(&why, "%s\n", strerror(errno));
			set_aside(s, e->d_name, path, buf_str(&why), "", 0);
			buf_free(&why);
			continue;
		}
		g = xcalloc(1, sizeof *g);
		buf_init(&why, BUF_ERRORS_MAX);
		if (store_unseal(buf_str(&text), text.len, &body, &why) < 0 ||
		    game_read(g, buf_str(&text), body, &lk, &why) < 0) {
			set_aside(s, e->d_name, path, buf_str(&why), buf_str(&text), text.len);
			game_free(g);
		} else if (check_history(s, g, &rec, &why) < 0) {
			set_aside(s, e->d_name, NULL, buf_str(&why), buf_str(&text), body);
			game_free(g);
		} else {
			judge_add_game(j, g);
			n++;
		}
		buf_free(&why);
	}
	buf_free(&rec);
	closedir(d);
	/* Replies per sender this hour, as the last run left them. */
	snprintf(path, sizeof path, "%s/rates.txt", s->dir);
	buf_reset(&text);
	if (fs_read_file(path, &text) == 0) {
		const char *p = buf_str(&text), *end = p + text.len, *line;
		size_t k;
		while ((line = str_next_line(&p, end, &k)) != NULL) {
			char l[ADDR_MAX + 64], addr[ADDR_MAX];
			const char *q = l;
			long w, c;
			if (k >= sizeof l)
				continue;
			memcpy(l, line, k);
			l[k] = '\0';
			/* "WINDOW COUNT ADDRESS", as rates_text writes it */
			if (scan_long(&q, LONG_MIN, LONG_MAX, &w) == 0 &&
			    scan_long(&q, 1, INT_MAX, &c) == 0 && scan_name(&q, addr, sizeof addr) == 0 &&
			    *addr != '\0')
				judge_set_rate(j, addr, (time_t)w, (int)c);
		}
	}
	buf_free(&text);
	return n;
}

const struct store_aside *
store_find_aside(const struct store *s, const char *game)
{
	for (int i = 0; i < s->naside; i++)
		if (str_eq_nocase(s->aside[i].game, game))
			return &s->aside[i];
	return NULL;
}

/* ---------------------------------------------------------- staging -- */

static void
list_add(char ***v, int *n, int *cap, const char *path)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], path) == 0)
			return;
	GROW(*v, *n, *cap);
	(*v)[(*n)++] = xstrdup(path);
}

static void
list_clear(char **v, int *n)
{
	int i;

	for (i = 0; i < *n; i++)
		free(v[i]);
	*n = 0;
}

/* Text to append to path, the log of game owner ("": the judge's), at the
 * commit; game, when not "", heads the line. */
static void
stage_append(struct store *s, const char *path, const char *owner, const char *stamp,
    const char *game, const char *text)
{
	int i;

	for (i = 0; i < s->napp; i++)
		if (strcmp(s->app[i].path, path) == 0)
			break;
	if (i == s->napp) {
		GROW(s->app, s->napp, s->capapp);
		s->app[i].path = xstrdup(path);
		str_copy(s->app[i].game, owner, sizeof s->app[i].game);
		buf_init(&s->app[i].text, 256u << 20);
		s->napp++;
	}
	buf_printf(&s->app[i].text, "%s %s%s%s\n", stamp, game, *game ? ": " : "", text);
}

/* Write path (a temporary file) whole, to be synced at the commit; on
 * failure (a full disk) nothing is left of it. text NULL (buf_text() of a
 * buffer that refused an append) is not whole: nothing is written. */
static int
write_file(struct store *s, const char *path, const char *text, struct buf *err)
{
	int fd, saved;

	if (text == NULL) {
		buf_printf(err, "%s: not written: its text passed the size it may have\n", path);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fs_write_all(fd, text, strlen(text)) < 0) {
		saved = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) < 0) {
		saved = errno;
		goto fail;
	}
	list_add(&s->sync, &s->nsync, &s->capsync, path);
	return 0;
fail:
	unlink(path);
	buf_printf(err, "%s: %s\n", path, strerror(saved));
	return -1;
}

/* Replace path (through a temporary file; synced at the commit). */
static int
write_now(struct store *s, const char *path, const char *text, struct buf *err)
{
	char tmp[1400];

	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	if (write_file(s, tmp, text, err) < 0)
		return -1;
	s->nsync--;	/* the name to sync is path */
	free(s->sync[s->nsync]);
	if (rename(tmp, path) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	list_add(&s->sync, &s->nsync, &s->capsync, path);
	return 0;
}

/* Copy from to to (once: an existing to is left alone). */
static int
copy_once(struct store *s, const char *from, const char *to, struct buf *err)
{
	struct buf b;
	int rc = 0;

	if (fs_exists(to))
		return 0;
	buf_init(&b, GAME_FILE_MAX);
	if (fs_read_file(from, &b) < 0 || write_now(s, to, buf_text(&b), err) < 0) {
		if (err->len == 0)
			buf_printf(err, "%s: %s\n", from, strerror(errno));
		rc = -1;
	}
	buf_free(&b);
	return rc;
}

int
store_stage(struct store *s, struct judge *j, struct buf *err)
{
	struct judge_effects *fx = &j->fx;
	char dir[1100], path[1300], stamp[32];
	struct buf rec;
	int i, bad = 0;

	time_rfc3339(j->now, stamp, sizeof stamp);
	buf_init(&rec, GAME_FILE_MAX);
	/*
	 * History records go in place at once (synced at the commit): the game
	 * file, written only at the commit, names none that is not there. A
	 * rollback copies the records it retires (NNNN.rolled-back-TIME.txt)
	 * and leaves them until the game file that no longer names them is in
	 * place (a re-run after a crash can still read them); the commit then
	 * removes those the game did not write again.
	 */
	for (i = 0; i < fx->nrollbacks; i++) {
		long from = 0, k;
		str_to_long(fx->rollbacks[i].text, 0, 1000000, &from);
		store_game_dir(s, fx->rollbacks[i].game, dir, sizeof dir);
		for (k = from; k < from + 100000; k++) {
			char to[1400];
			snprintf(path, sizeof path, "%s/history/%04ld.txt", dir, k);
			if (!fs_exists(path))
				break;
			snprintf(to, sizeof to, "%s/history/%04ld.rolled-back-%lld.txt", dir, k,
			    (long long)j->now);
			bad |= copy_once(s, path, to, err) < 0;
		}
		GROW(s->retired, s->nretired, s->capretired);
		str_copy(s->retired[s->nretired].game, fx->rollbacks[i].game, GAME_NAME_MAX);
		s->retired[s->nretired].from = from;
		s->retired[s->nretired++].upto = bad ? from : k;
	}
	for (i = 0; i < fx->nphases; i++) {
		const struct judge_phase *ph = &fx->phases[i];
		store_game_dir(s, ph->game, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/history", dir);
		if (fs_mkdir_p(path, 0750) < 0) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			bad = 1;
			continue;
		}
		list_add(&s->dirs, &s->ndirs, &s->capdirs, path);
		snprintf(path, sizeof path, "%s/history/%04d.txt", dir, ph->index);
		if (ph->cut) {
			buf_printf(err, "%s: not written: the record passed the size it may have\n", path);
			bad = 1;
			continue;
		}
		buf_reset(&rec);
		buf_puts(&rec, ph->text);
		store_seal(&rec);
		bad |= write_now(s, path, buf_text(&rec), err) < 0;
	}
	for (i = 0; i < fx->naudit; i++) {
		store_game_dir(s, fx->audit[i].game, dir, sizeof dir);
		if (fs_mkdir_p(dir, 0750) < 0) {	/* a new game's first line */
			buf_printf(err, "%s: %s\n", dir, strerror(errno));
			bad = 1;
			continue;
		}
		snprintf(path, sizeof path, "%s/audit.log", dir);
		stage_append(s, path, fx->audit[i].game, stamp, "", fx->audit[i].text);
	}
	for (i = 0; i < fx->npress; i++) {
		store_game_dir(s, fx->press[i].game, dir, sizeof dir);
		if (fs_mkdir_p(dir, 0750) < 0) {
			buf_printf(err, "%s: %s\n", dir, strerror(errno));
			bad = 1;
			continue;
		}
		snprintf(path, sizeof path, "%s/press.log", dir);
		stage_append(s, path, fx->press[i].game, stamp, "", fx->press[i].text);
	}
	for (i = 0; i < fx->nlog; i++) {
		snprintf(path, sizeof path, "%s/judge.log", s->dir);
		stage_append(s, path, "", stamp, fx->log[i].game, fx->log[i].text);
	}
	buf_free(&rec);
	return bad ? -1 : 0;
}

void
store_log(struct store *s, time_t when, const char *text)
{
	char path[1300], stamp[32];

	snprintf(path, sizeof path, "%s/judge.log", s->dir);
	stage_append(s, path, "", time_rfc3339(when, stamp, sizeof stamp), "", text);
}

/* ----------------------------------------------------------- commit -- */

static void
rates_text(const struct judge *j, struct buf *out)
{
	int i;

	for (i = 0; i < j->nrates; i++)
		if (j->now - j->rates[i].window < 3600)
			buf_printf(out, "%lld %d %s\n", (long long)j->rates[i].window, j->rates[i].count,
			    j->rates[i].addr);
}

/* Note (STORE_APPENDING) the records of game from index from to upto - 1
 * that a rollback copied and the game, its file's end line among sums, no
 * longer names. */
static void
note_retired(const struct store *s, struct judge *j, const char *game, long from, long upto,
    char *const *sums, int nsum, struct buf *note)
{
	const struct game *g = judge_find_game(j, game);
	size_t gl = strlen(game);
	char path[1400];
	int i;

	for (i = 0; i < nsum; i++)
		if (strncmp(sums[i], game, gl) == 0 && sums[i][gl] == ' ')
			break;
	if (g == NULL || i == nsum)
		return;
	for (long k = from > g->nphases ? from : g->nphases + 1; k < upto; k++) {
		snprintf(path, sizeof path, "%s/games/%s/history/%04ld.txt", s->dir, game, k);
		if (fs_exists(path))
			buf_printf(note, "%s history %ld %s\n", game, k, sums[i] + gl + 1);
	}
}

int
store_commit(struct store *s, struct judge *j, struct buf *err)
{
	char dir[1100], path[1300], sum[64], appending[1300];
	char **tmps = NULL, **finals = NULL, **sums = NULL;
	int ntmp = 0, captmp = 0, nfin = 0, capfin = 0, nsum = 0, capsum = 0, i, bad = 0;
	struct buf b, note;

	/* 1. The game files (and the reply counts), written beside the old
	 * ones; each changed game's end line kept for the note. */
	buf_init(&b, GAME_FILE_MAX);
	for (i = 0; i < j->ngames && !bad; i++) {
		if (!j->dirty[i])
			continue;
		store_game_dir(s, j->games[i]->name, dir, sizeof dir);
		if (fs_mkdir_p(dir, 0750) < 0) {
			buf_printf(err, "%s: %s\n", dir, strerror(errno));
			bad = 1;
			break;
		}
		buf_reset(&b);
		game_write(j->games[i], &b);
		store_seal(&b);
		end_sum(buf_str(&b), b.len, sum, sizeof sum);
		snprintf(path, sizeof path, "%s %s", j->games[i]->name, sum);
		GROW(sums, nsum, capsum);
		sums[nsum++] = xstrdup(path);
		snprintf(path, sizeof path, "%s/game.txt.tmp.%ld", dir, (long)getpid());
		list_add(&tmps, &ntmp, &captmp, path);
		snprintf(path, sizeof path, "%s/game.txt", dir);
		list_add(&finals, &nfin, &capfin, path);
		bad |= write_file(s, tmps[ntmp - 1], buf_text(&b), err) < 0;
	}
	if (!bad && j->rates_dirty) {
		buf_reset(&b);
		rates_text(j, &b);
		snprintf(path, sizeof path, "%s/rates.txt.tmp.%ld", s->dir, (long)getpid());
		list_add(&tmps, &ntmp, &captmp, path);
		snprintf(path, sizeof path, "%s/rates.txt", s->dir);
		list_add(&finals, &nfin, &capfin, path);
		bad |= write_file(s, tmps[ntmp - 1], buf_text(&b), err) < 0;
	}
	buf_free(&b);

	/* 2. The note of the logs' sizes (replaced whole: there or not),
	 * then the appends; with the history records and the new game files,
	 * all synced together. */
	*appending = '\0';
	buf_init(&note, 1u << 20);
	for (i = 0; i < s->napp && !bad; i++) {
		const char *name = strrchr(s->app[i].path, '/');
		int k;
		for (k = 0; k < nsum && *s->app[i].game; k++) {
			size_t gl = strlen(s->app[i].game);
			if (strncmp(sums[k], s->app[i].game, gl) == 0 && sums[k][gl] == ' ')
				break;
		}
		if (*s->app[i].game == '\0' || k == nsum)
			continue;	/* judge.log, or a game whose file stays */
		buf_printf(&note, "%s %s %lld %s\n", s->app[i].game, name + 1,
		    file_size(s->app[i].path), sums[k] + strlen(s->app[i].game) + 1);
	}
	for (i = 0; i < s->nretired && !bad; i++)
		note_retired(s, j, s->retired[i].game, s->retired[i].from, s->retired[i].upto, sums,
		    nsum, &note);
	if (!bad && note.len > 0) {
		snprintf(appending, sizeof appending, "%s/games/%s", s->dir, STORE_APPENDING);
		bad |= write_now(s, appending, buf_text(&note), err) < 0;
	}
	buf_free(&note);
	for (i = 0; i < s->napp; i++) {
		int fd;
		if (bad)
			;	/* nothing appended for games that stay as they were */
		else if (buf_failed(&s->app[i].text)) {
			buf_printf(err, "%s: not written: this run's lines passed the size they may have\n",
			    s->app[i].path);
			bad = 1;
		} else if ((fd = open(s->app[i].path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		    0640)) < 0 || fs_write_all(fd, buf_str(&s->app[i].text), s->app[i].text.len) < 0 ||
		    close(fd) < 0) {
			buf_printf(err, "%s: %s\n", s->app[i].path, strerror(errno));
			bad = 1;
		} else {
			list_add(&s->sync, &s->nsync, &s->capsync, s->app[i].path);
		}
		free(s->app[i].path);
		buf_free(&s->app[i].text);
	}
	s->napp = 0;
	if (!bad && s->nsync > 0 && fs_fsync_all(s->sync, (size_t)s->nsync) < 0) {
		buf_printf(err, "%s: syncing: %s\n", s->dir, strerror(errno));
		bad = 1;
	}
	if (!bad && s->ndirs > 0 && fs_fsync_all(s->dirs, (size_t)s->ndirs) < 0) {
		buf_printf(err, "%s: syncing: %s\n", s->dir, strerror(errno));
		bad = 1;
	}
	list_clear(s->sync, &s->nsync);
	list_clear(s->dirs, &s->ndirs);

	/* 3. The games renamed into place (no game file may name what is
	 * not durable), then their folders synced; the note is then done. */
	for (i = 0; i < ntmp && !bad; i++) {
		char *slash;
		crash_point();
		if (rename(tmps[i], finals[i]) < 0) {
			buf_printf(err, "%s: %s\n", finals[i], strerror(errno));
			bad = 1;
			break;
		}
		slash = strrchr(finals[i], '/');
		*slash = '\0';
		list_add(&s->dirs, &s->ndirs, &s->capdirs, finals[i]);
		*slash = '/';
	}
	if (!bad && s->ndirs > 0 && fs_fsync_all(s->dirs, (size_t)s->ndirs) < 0) {
		buf_printf(err, "%s: syncing: %s\n", s->dir, strerror(errno));
		bad = 1;
	}
	list_clear(s->dirs, &s->ndirs);
	/* the games in place: the records they retired go, and the note */
	if (!bad && *appending && s->nretired > 0)
		bad |= recover_appends(s, err) < 0;
	else if (!bad && *appending)
		unlink(appending);
	s->nretired = 0;
	for (i = 0; i < ntmp; i++) {
		if (bad)
			unlink(tmps[i]);
		free(tmps[i]);
		free(finals[i]);
	}
	for (i = 0; i < nsum; i++)
		free(sums[i]);
	free(sums);
	free(tmps);
	free(finals);
	if (bad)
		return -1;
	for (i = 0; i < j->ngames; i++)
		j->dirty[i] = false;
	j->rates_dirty = false;
	return 0;
}

int
store_save(struct store *s, struct judge *j, struct buf *err)
{
	if (store_stage(s, j, err) < 0) {
		store_commit(s, j, err);
		return -1;
	}
	return store_commit(s, j, err);
}
