#define _DEFAULT_SOURCE
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gnutls/crypto.h>

#include "../lib/fsio.h"
#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"

#define GAME_FILE_MAX (4u << 20)

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
	return 0;
}

void
store_close(struct store *s)
{
	varcache_free(&s->vc);
	fs_unlock(s->lockfd);
	s->lockfd = -1;
}

void
store_game_dir(const struct store *s, const char *game, char *out, size_t size)
{
	snprintf(out, size, "%s/games/%s", s->dir, game);
}

static int
read_history(void *ctx, const char *game, int index, struct buf *out)
{
	struct store *s = ctx;
	char path[1300];

	if (!game_name_valid(game))
		return -1;
	snprintf(path, sizeof path, "%s/games/%s/history/%04d.txt", s->dir, game, index);
	return fs_read_file(path, out);
}

int
store_use_key(struct store *s, const char *path, struct buf *err)
{
	struct buf b;
	int rc = -1;

	buf_init(&b, 4096);
	if (fs_read_file(path, &b) < 0) {
		unsigned char k[32];
		if (errno != ENOENT || secret_random(k) < 0 || secret_random(k + 16) < 0) {
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
		unsigned v;
		if (b.len < 2 * i + 2 || sscanf(buf_str(&b) + 2 * i, "%2x", &v) != 1) {
			buf_printf(err, "%s: not a key (64 hex digits)\n", path);
			goto out;
		}
		s->key[i] = (unsigned char)v;
	}
	s->haskey = 1;
	rc = 0;
out:
	buf_free(&b);
	return rc;
}

static int
random16(void *ctx, const char *label, unsigned char out[16])
{
	struct store *s = ctx;
	unsigned char mac[32];

	if (!s->haskey)
		return secret_random(out);
	if (gnutls_hmac_fast(GNUTLS_MAC_SHA256, s->key, sizeof s->key, label, strlen(label), mac) < 0)
		return -1;
	memcpy(out, mac, 16);
	return 0;
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
}

int
store_load(struct store *s, struct judge *j, struct buf *err)
{
	char path[1300];
	DIR *d;
	struct dirent *e;
	struct buf text;
	int n = 0, bad = 0;

	snprintf(path, sizeof path, "%s/games", s->dir);
	d = opendir(path);
	if (d == NULL) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&text, GAME_FILE_MAX);
	while ((e = readdir(d)) != NULL) {
		struct game *g;
		struct buf why;

		if (e->d_name[0] == '.' || !game_name_valid(e->d_name))
			continue;
		snprintf(path, sizeof path, "%s/games/%s/game.txt", s->dir, e->d_name);
		buf_reset(&text);
		if (fs_read_file(path, &text) < 0) {
			if (errno == ENOENT)
				continue;
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			bad = 1;
			continue;
		}
		g = xcalloc(1, sizeof *g);
		buf_init(&why, 1 << 16);
		if (game_read(g, buf_str(&text), text.len, find_variant, s, &why) < 0) {
			const char *p = buf_str(&why);
			/* Prefix every reason with the file. */
			while (*p) {
				const char *nl = strchr(p, '\n');
				size_t k = nl ? (size_t)(nl - p) : strlen(p);
				buf_printf(err, "%s:%.*s\n", path, (int)k, p);
				p += k + (nl != NULL);
			}
			free(g);
			bad = 1;
		} else {
			judge_add_game(j, g);
			n++;
		}
		buf_free(&why);
	}
	closedir(d);
	buf_free(&text);
	return bad ? -1 : n;
}

static int
append_line(const char *path, const char *stamp, const char *text, struct buf *err)
{
	struct buf b;
	int rc;

	buf_init(&b, 16u << 20);
	buf_printf(&b, "%s %s\n", stamp, text);
	rc = fs_append_sync(path, buf_str(&b), b.len);
	if (rc < 0)
		buf_printf(err, "%s: %s\n", path, strerror(errno));
	buf_free(&b);
	return rc;
}

int
store_save(struct store *s, struct judge *j, struct buf *err)
{
	struct judge_effects *fx = &j->fx;
	char dir[1100], path[1300], stamp[32];
	struct buf b;
	int i, bad = 0;

	time_rfc3339(j->now, stamp, sizeof stamp);
	buf_init(&b, GAME_FILE_MAX);
	/* History first: a game file never names a record that is not there. */
	for (i = 0; i < fx->nphases; i++) {
		const struct judge_phase *ph = &fx->phases[i];
		store_game_dir(s, ph->game, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/history", dir);
		if (fs_mkdir_p(path, 0750) < 0 ||
		    (snprintf(path, sizeof path, "%s/history/%04d.txt", dir, ph->index),
			fs_write_atomic(path, ph->text, strlen(ph->text)) < 0)) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			bad = 1;
		}
	}
	for (i = 0; i < fx->nrollbacks; i++) {
		/* Records from the rolled-back phase on are kept, renamed, so that
		 * nothing is lost: history/0007.txt -> history/0007.rolled-back-<time>.txt */
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
			if (rename(path, to) < 0) {
				buf_printf(err, "%s: %s\n", path, strerror(errno));
				bad = 1;
			}
		}
		snprintf(path, sizeof path, "%s/history", dir);
		fs_fsync_dir(path);
	}
	for (i = 0; i < fx->naudit; i++) {
		store_game_dir(s, fx->audit[i].game, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/audit.log", dir);
		bad |= append_line(path, stamp, fx->audit[i].text, err) < 0;
	}
	for (i = 0; i < fx->npress; i++) {
		store_game_dir(s, fx->press[i].game, dir, sizeof dir);
		snprintf(path, sizeof path, "%s/press.log", dir);
		bad |= append_line(path, stamp, fx->press[i].text, err) < 0;
	}
	for (i = 0; i < fx->nlog; i++) {
		snprintf(path, sizeof path, "%s/judge.log", s->dir);
		buf_reset(&b);
		if (fx->log[i].game[0])
			buf_printf(&b, "%s: ", fx->log[i].game);
		buf_puts(&b, fx->log[i].text);
		bad |= append_line(path, stamp, buf_str(&b), err) < 0;
	}
	/* The game files last: what they say has happened is recorded above
	 * (a crash in between may repeat a log line, never lose one). */
	for (i = 0; i < j->ngames; i++) {
		if (!j->dirty[i])
			continue;
		store_game_dir(s, j->games[i]->name, dir, sizeof dir);
		if (fs_mkdir_p(dir, 0750) < 0) {
			buf_printf(err, "%s: %s\n", dir, strerror(errno));
			bad = 1;
			continue;
		}
		buf_reset(&b);
		game_write(j->games[i], &b);
		snprintf(path, sizeof path, "%s/game.txt", dir);
		if (fs_write_atomic_mode(path, buf_str(&b), b.len, 0640) < 0) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			bad = 1;
			continue;
		}
		j->dirty[i] = false;
	}
	buf_free(&b);
	return bad ? -1 : 0;
}
