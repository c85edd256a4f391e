/*
 * test_store.c — the data directory: games saved and loaded back, history
 * records, rollbacks that keep the retired records, the run lock.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../../judge/judge.h"
#include "../../judge/shell/store.h"
#include "../../judge/systems/muna_state.h"
#include "../../lib/buf.h"
#include "../../lib/fsio.h"

/* After the judge's headers: <unistd.h> defines R_OK. */
#include <sys/wait.h>
#include <unistd.h>

#define T0 1893456000 /* 2030-01-01T00:00:00Z */

static const char *const powers[] = { "Austria", "England", "France", "Germany", "Italy",
	"Russia", "Turkey" };

struct fixture {
	char dir[64];
	struct judge_conf conf;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);

	strcpy(f->dir, "/tmp/pouch-test-store.XXXXXX");
	if (mkdtemp(f->dir) == NULL)
		return -1;
	strcpy(f->conf.address, "judge@example.test");
	strcpy(f->conf.domain, "example.test");
	strcpy(f->conf.name, "pouch");
	f->conf.reply_limit = 100;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	/* KEEP=1 lists the directory and leaves it, to look at after a failure. */
	snprintf(cmd, sizeof cmd, getenv("KEEP") ? "ls -R %s" : "rm -rf %s", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static void
open_store(struct fixture *f, struct store *s, struct judge *j)
{
	struct judge_io io;
	struct buf err;

	buf_init(&err, 1 << 16);
	assert_int_equal(store_open(s, f->dir, "maps", 0, &err), 0);
	store_io(s, &io);
	judge_init(j, &f->conf, &io);
	assert_true(store_load(s, j, &err) >= 0);
	buf_free(&err);
}

static void
save(struct store *s, struct judge *j)
{
	struct buf err;

	buf_init(&err, 1 << 16);
	assert_int_equal(store_save(s, j, &err), 0);
	assert_string_equal(buf_str(&err), "");
	buf_free(&err);
	judge_effects_clear(j);
}

/* A started standard game "demo" with one delegation per power. */
/* A started game "demo" of variant with seven delegations. */
static void
make_variant_game(struct judge *j, const char *variant)
{
	struct game_settings st;
	struct game *g;
	struct buf why;
	int p;

	buf_init(&why, 1 << 16);
	game_settings_default(&st, variant);
	g = judge_new_game(j, "demo", &st, "gm@example.test", "gm-secret", T0, &why);
	assert_non_null(g);
	for (p = 0; p < 7; p++) {
		char who[64];
		snprintf(who, sizeof who, "%s@school.test", powers[p]);
		if (judge_add_delegation(j, g, p, who, "delegation-pw", T0, &why) < 0)
			fail_msg("%s", buf_str(&why));
	}
	assert_int_equal(judge_start(j, g, T0, &why), 0);
	buf_free(&why);
}

static void
make_game(struct judge *j)
{
	make_variant_game(j, "standard");
}

static void
game_text(const struct game *g, struct buf *out)
{
	buf_init(out, 4u << 20);
	game_write(g, out);
}

/* A history record that passed its cap (the judge marks it cut) is never
 * written: staging fails naming it (and a run then commits nothing). */
static void
test_cut_record_not_written(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct buf out, err;
	char path[256];

	open_store(f, &s, &j);
	make_game(&j);
	buf_init(&out, 1 << 20);
	assert_int_equal(judge_process(&j, j.games[0], T0 + 60, false, &out), 0);
	assert_int_equal(j.fx.nphases, 1);
	assert_false(j.fx.phases[0].cut);
	j.fx.phases[0].cut = true;
	buf_init(&err, BUF_ERRORS_MAX);
	assert_int_equal(store_stage(&s, &j, &err), -1);
	assert_non_null(strstr(buf_str(&err), "history/0001.txt: not written"));
	snprintf(path, sizeof path, "%s/games/demo/history/0001.txt", f->dir);
	assert_false(fs_exists(path));
	buf_free(&err);
	buf_free(&out);
	judge_free(&j);
	store_close(&s);
}

/* A delegation holding England and Germany, Italy left out: still held
 * together after the game file is saved and loaded; a new password for
 * one of them makes it a delegation apart. */
static void
test_held_powers_saved(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct game_settings st;
	struct game *g;
	struct buf why;
	const power_id eg[2] = { 1, 3 };	/* England, Germany */

	open_store(f, &s, &j);
	buf_init(&why, 1 << 16);
	game_settings_default(&st, "standard");
	g = judge_new_game(&j, "held", &st, "gm@example.test", "gm-secret", T0, &why);
	assert_non_null(g);
	assert_int_equal(judge_add_delegations(&j, g, eg, 2, "ann@school.test", "eg-password", T0,
	    &why), 0);
	assert_int_equal(judge_add_delegation(&j, g, 0, "bob@school.test", "at-password", T0, &why), 0);
	assert_int_equal(judge_start(&j, g, T0, &why), 0);
	assert_true(game_held_together(g, 1, 3));
	assert_false(game_held_together(g, 0, 1));
	assert_false(game_held_together(g, 4, 2));	/* nobody holds Italy or France */
	save(&s, &j);
	judge_free(&j);
	store_close(&s);

	open_store(f, &s, &j);
	g = judge_find_game(&j, "held");
	assert_non_null(g);
	assert_true(game_held_together(g, 1, 3));
	assert_true(game_first_held(g, 1));
	assert_false(game_first_held(g, 3));
	assert_false(game_held_together(g, 0, 3));
	assert_int_equal(judge_add_delegation(&j, g, 3, "ann@school.test", "ger-password", T0 + 60,
	    &why), 0);
	assert_false(game_held_together(g, 1, 3));
	assert_true(game_first_held(g, 3));
	save(&s, &j);
	judge_free(&j);
	store_close(&s);
	buf_free(&why);
}

static void
test_save_and_load(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct buf before, after, out, rec;
	char path[256];

	open_store(f, &s, &j);
	assert_int_equal(j.ngames, 0);
	make_game(&j);
	buf_init(&out, 1 << 20);
	/* Everyone missed the deadline: the phase is adjudicated with holds. */
	assert_int_equal(judge_process(&j, j.games[0], T0 + 60, false, &out), 0);
	assert_int_equal(j.fx.nphases, 1);
	/* Reply counts carry over to the next run (and to a replay). */
	judge_set_rate(&j, "alice@school.test", T0 + 30, 3);
	judge_set_rate(&j, "old@school.test", T0 - 7200, 5);	/* an hour gone: dropped */
	j.rates_dirty = true;
	save(&s, &j);
	game_text(j.games[0], &before);
	judge_free(&j);
	store_close(&s);

	snprintf(path, sizeof path, "%s/games/demo/history/0001.txt", f->dir);
	assert_true(fs_exists(path));
	test_read_file(path, &rec);
	assert_non_null(strstr(buf_str(&rec), "1901"));
	buf_free(&rec);
	snprintf(path, sizeof path, "%s/games/demo/audit.log", f->dir);
	assert_true(fs_exists(path));

	/* A second run sees the same game, byte for byte. */
	open_store(f, &s, &j);
	assert_int_equal(j.ngames, 1);
	assert_int_equal(j.nrates, 1);
	assert_string_equal(j.rates[0].addr, "alice@school.test");
	assert_int_equal(j.rates[0].count, 3);
	assert_int_equal((int)(j.rates[0].window - T0), 30);
	game_text(j.games[0], &after);
	assert_string_equal(buf_str(&after), buf_str(&before));
	judge_free(&j);
	store_close(&s);
	buf_free(&before);
	buf_free(&after);
	buf_free(&out);
}

static void
test_rollback_keeps_records(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct buf out, why, rec;
	char path[256];
	int i;

	open_store(f, &s, &j);
	make_game(&j);
	buf_init(&out, 1 << 20);
	buf_init(&why, 1 << 16);
	for (i = 0; i < 3; i++) {
		assert_int_equal(judge_process(&j, j.games[0], T0 + 60 * (i + 1), false, &out), 0);
		save(&s, &j);
	}
	snprintf(path, sizeof path, "%s/games/demo/history/0002.txt", f->dir);
	assert_true(fs_exists(path));
	assert_int_equal(judge_rollback(&j, j.games[0], "F1901M", T0 + 1000, &why), 0);
	save(&s, &j);
	/* Records from 2 on are kept under another name too (the game file
	 * says that only record 1 counts now; 2 is written again when F1901M
	 * is played again). */
	assert_int_equal(j.games[0]->nphases, 1);
	snprintf(path, sizeof path, "%s/games/demo/history/0003.rolled-back-%lld.txt", f->dir,
	    (long long)(T0 + 1000));
	assert_true(fs_exists(path));
	test_read_file(path, &rec);
	assert_non_null(strstr(buf_str(&rec), "1902"));
	buf_free(&rec);
	assert_int_equal(judge_process(&j, j.games[0], T0 + 2000, false, &out), 0);
	save(&s, &j);
	snprintf(path, sizeof path, "%s/games/demo/history/0002.txt", f->dir);
	test_read_file(path, &rec);
	assert_non_null(strstr(buf_str(&rec), "1901"));
	buf_free(&rec);
	judge_free(&j);
	store_close(&s);
	buf_free(&out);
	buf_free(&why);
}

/* A rollback reopens the conference the phase found open, closed since
 * (here by hand, as the judge closes it when its place is taken), with its
 * name; a phase without a conference leaves none open. Conferences are
 * MUNA's: the game plays the MUNA rules on the standard board. */
static void
test_rollback_restores_conference(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct game *g;
	struct buf out, why;
	const struct map *m;

	open_store(f, &s, &j);
	make_variant_game(&j, "tests/variants/muna-test.xml");
	g = j.games[0];
	m = g->map;
	buf_init(&out, 1 << 20);
	buf_init(&why, 1 << 16);
	assert_int_equal(judge_process(&j, g, T0 + 60, false, &out), 0);	/* S1901M: none */
	save(&s, &j);
	muna_state(g)->conf.where = map_find_province(m, "tyr");
	muna_state(g)->conf.year = 1901;
	muna_state(g)->conf.season = SEASON_FALL;
	muna_state(g)->conf.powers = (1u << map_find_power(m, "Austria")) | (1u << map_find_power(m, "Italy")) |
	    (1u << map_find_power(m, "England"));
	strcpy(muna_state(g)->conf.name, "the Alpine conference");
	assert_int_equal(judge_process(&j, g, T0 + 120, false, &out), 0);	/* F1901M */
	save(&s, &j);
	muna_state(g)->conf.where = PROV_NONE;
	assert_int_equal(judge_rollback(&j, g, "F1901M", T0 + 1000, &why), 0);
	save(&s, &j);
	assert_int_equal(muna_state(g)->conf.where, map_find_province(m, "tyr"));
	assert_int_equal(muna_state(g)->conf.year, 1901);
	assert_int_equal(muna_state(g)->conf.season, SEASON_FALL);
	assert_int_equal(muna_state(g)->conf.powers, (1u << map_find_power(m, "Austria")) |
	    (1u << map_find_power(m, "Italy")) | (1u << map_find_power(m, "England")));
	assert_string_equal(muna_state(g)->conf.name, "the Alpine conference");
	/* Back to Spring 1901, when there was none. */
	assert_int_equal(judge_rollback(&j, g, "S1901M", T0 + 1100, &why), 0);
	assert_int_equal(muna_state(g)->conf.where, PROV_NONE);
	judge_free(&j);
	store_close(&s);
	buf_free(&out);
	buf_free(&why);
}

/* The text of game "demo" made in a fresh data directory under dir, with
 * randomness from the key file keyfile. */
static void
demo_with_key(const char *dir, const char *keyfile, struct buf *out)
{
	struct fixture f;
	struct store s;
	struct judge j;
	struct buf err;

	memset(&f, 0, sizeof f);
	snprintf(f.dir, sizeof f.dir, "%s", dir);
	strcpy(f.conf.domain, "example.test");
	buf_init(&err, 1 << 16);
	open_store(&f, &s, &j);
	assert_int_equal(store_use_key(&s, keyfile, &err), 0);
	make_game(&j);
	game_text(j.games[0], out);
	judge_free(&j);
	store_close(&s);
	buf_free(&err);
}

static void
test_key_reproduces(void **state)
{
	struct fixture *f = *state;
	char a[128], b[128], key1[128], key2[128];
	struct buf t1, t2, t3, k;

	snprintf(a, sizeof a, "%s/a", f->dir);
	snprintf(b, sizeof b, "%s/b", f->dir);
	snprintf(key1, sizeof key1, "%s/key1", f->dir);
	snprintf(key2, sizeof key2, "%s/key2", f->dir);
	/* The key is made on first use, readable by its owner only. */
	demo_with_key(a, key1, &t1);
	test_read_file(key1, &k);
	assert_int_equal((int)k.len, 65);
	{
		struct stat st;
		assert_int_equal(stat(key1, &st), 0);
		assert_int_equal(st.st_mode & 0777, 0600);
	}
	/* The same key and events: the same salts, byte for byte. */
	demo_with_key(b, key1, &t2);
	assert_string_equal(buf_str(&t1), buf_str(&t2));
	assert_non_null(strstr(buf_str(&t1), "$y$"));
	/* Another key: other salts. */
	snprintf(b, sizeof b, "%s/c", f->dir);
	demo_with_key(b, key2, &t3);
	assert_string_not_equal(buf_str(&t1), buf_str(&t3));
	buf_free(&t1);
	buf_free(&t2);
	buf_free(&t3);
	buf_free(&k);
}

/* What store_open returns in another process, waiting up to 50 ms. */
static int
open_elsewhere(const char *dir)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct store b;
		struct buf e;
		buf_init(&e, 1 << 16);
		_exit(store_open(&b, dir, "maps", 50, &e) + 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status) - 1;
}

static void
test_lock(void **state)
{
	struct fixture *f = *state;
	struct store a;
	struct buf err;

	buf_init(&err, 1 << 16);
	assert_int_equal(store_open(&a, f->dir, "maps", 0, &err), 0);
	/* Another process cannot take the data directory while we hold it. */
	assert_int_equal(open_elsewhere(f->dir), 1);
	store_close(&a);
	/* Released: now it can. */
	assert_int_equal(open_elsewhere(f->dir), 0);
	buf_free(&err);
}

static void
test_bad_game_file(void **state)
{
	struct fixture *f = *state;
	struct store s;
	struct judge j;
	struct judge_io io;
	struct buf err;
	char path[256];

	snprintf(path, sizeof path, "%s/games/broken", f->dir);
	assert_int_equal(fs_mkdir_p(path, 0750), 0);
	snprintf(path, sizeof path, "%s/games/broken/game.txt", f->dir);
	assert_int_equal(fs_write_atomic(path, "this is not a game\n", 19), 0);
	buf_init(&err, 1 << 16);
	assert_int_equal(store_open(&s, f->dir, "maps", 0, &err), 0);
	store_io(&s, &io);
	judge_init(&j, &f->conf, &io);
	/* Set aside, not loaded, and the reason names the file and line. */
	assert_int_equal(store_load(&s, &j, &err), 0);
	assert_int_equal(s.naside, 1);
	assert_non_null(store_find_aside(&s, "broken"));
	assert_non_null(strstr(s.aside[0].why, "games/broken/game.txt:1: "));
	judge_free(&j);
	store_close(&s);
	buf_free(&err);
}

/* Write a file without syncing it (thousands of times, in a test; made
 * anew, since ext4 flushes a file truncated and written again on close). */
static void
put_file(const char *path, const char *data, size_t len)
{
	FILE *fp;

	unlink(path);
	fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* Load the store in a fresh judge; returns the number of games loaded and
 * copies the first set-aside reason into why. */
static int
load_count(struct fixture *f, struct buf *why)
{
	struct store s;
	struct judge j;
	struct judge_io io;
	struct buf err;
	int n;

	buf_init(&err, 1 << 16);
	assert_int_equal(store_open(&s, f->dir, "maps", 0, &err), 0);
	store_io(&s, &io);
	judge_init(&j, &f->conf, &io);
	n = store_load(&s, &j, &err);
	assert_int_equal(n + s.naside, 1);
	buf_reset(why);
	if (s.naside)
		buf_puts(why, s.aside[0].why);
	judge_free(&j);
	store_close(&s);
	buf_free(&err);
	return n;
}

/* The game "demo" adjudicated once and saved; the paths of its file and
 * first history record in game and rec (256 bytes each). */
static void
saved_game(struct fixture *f, char game[256], char rec[256])
{
	struct store s;
	struct judge j;
	struct buf out;

	open_store(f, &s, &j);
	make_game(&j);
	buf_init(&out, 1 << 20);
	assert_int_equal(judge_process(&j, j.games[0], T0 + 60, false, &out), 0);
	save(&s, &j);
	judge_free(&j);
	store_close(&s);
	buf_free(&out);
	snprintf(game, 256, "%s/games/demo/game.txt", f->dir);
	snprintf(rec, 256, "%s/games/demo/history/0001.txt", f->dir);
}

/* A game file or history record cut short at any byte, or with any one
 * byte changed, is set aside with the file and line named: never loaded. */
static void
test_damaged_everywhere(void **state)
{
	struct fixture *f = *state;
	struct buf whole, why;
	char game[256], rec[256];
	const char *files[2] = { game, rec };

	saved_game(f, game, rec);
	buf_init(&whole, 4u << 20);
	buf_init(&why, 1 << 16);
	assert_int_equal(load_count(f, &why), 1);
	for (int k = 0; k < 2; k++) {
		buf_reset(&whole);
		assert_int_equal(fs_read_file(files[k], &whole), 0);
		assert_true(whole.len > 100);
		for (size_t cut = 0; cut < whole.len; cut++) {
			put_file(files[k], whole.data, cut);
			if (load_count(f, &why) != 0)
				fail_msg("%s cut to %zu bytes was loaded", files[k], cut);
			assert_non_null(strstr(buf_str(&why), files[k]));
			assert_non_null(strstr(buf_str(&why), k ? "history/0001.txt:" : "game.txt:"));
		}
		for (size_t at = 0; at < whole.len; at += 7) {
			char saved = whole.data[at];
			whole.data[at] = saved == 'x' ? 'y' : 'x';
			put_file(files[k], whole.data, whole.len);
			if (load_count(f, &why) != 0)
				fail_msg("%s with byte %zu changed was loaded", files[k], at);
			whole.data[at] = saved;
		}
		put_file(files[k], whole.data, whole.len);
		assert_int_equal(load_count(f, &why), 1);
	}
	/* A host's change by hand, marked so, is taken as it is. */
	buf_reset(&whole);
	assert_int_equal(fs_read_file(game, &whole), 0);
	memcpy(strstr(whole.data, "\nend ") + 1, "end edited\n", 12);
	put_file(game, whole.data, strlen(whole.data));
	assert_int_equal(load_count(f, &why), 1);
	/* ... and when it does not read, the reason has the file's line:
	 * without its position, where the file ends. */
	{
		char *ph = strstr(whole.data, "\nphase ");
		int lines = 0;
		assert_non_null(ph);
		memcpy(ph + 1, "end edited\n", 12);
		for (char *c = whole.data; *c; c++)
			lines += *c == '\n';
		put_file(game, whole.data, strlen(whole.data));
		assert_int_equal(load_count(f, &why), 0);
		snprintf(rec, sizeof rec, "game.txt:%d: no phase line\n", lines - 1);
		if (strstr(buf_str(&why), rec) == NULL)
			fail_msg("wanted \"%s\" in \"%s\"", rec, buf_str(&why));
	}
	buf_free(&whole);
	buf_free(&why);
}

/* Take the end line off the file at path (as the release before it wrote
 * the file); the whole file is left in whole. */
static void
strip_end(const char *path, struct buf *whole)
{
	char *last;

	buf_reset(whole);
	assert_int_equal(fs_read_file(path, whole), 0);
	whole->data[whole->len - 1] = '\0';
	last = strrchr(whole->data, '\n');
	assert_non_null(last);
	assert_memory_equal(last + 1, "end ", 4);
	put_file(path, whole->data, (size_t)(last + 1 - whole->data));
	whole->data[whole->len - 1] = '\n';
}

/* A data directory from before the end line (no marker) is sealed once
 * when opened: each whole file as this release writes it, one cut in a
 * line left to be set aside. With the marker, a missing end line is damage. */
static void
test_upgrade(void **state)
{
	struct fixture *f = *state;
	struct buf game_whole, rec_whole, b, why;
	char game[256], rec[256], marker[256];

	saved_game(f, game, rec);
	snprintf(marker, sizeof marker, "%s/games/%s", f->dir, STORE_SEALED);
	assert_true(fs_exists(marker));	/* a new directory: marked at once */
	buf_init(&game_whole, 4u << 20);
	buf_init(&rec_whole, 4u << 20);
	buf_init(&b, 4u << 20);
	buf_init(&why, 1 << 16);

	/* The old format: sealed again, byte for byte, and loaded. */
	strip_end(game, &game_whole);
	strip_end(rec, &rec_whole);
	assert_int_equal(unlink(marker), 0);
	assert_int_equal(load_count(f, &why), 1);
	assert_true(fs_exists(marker));
	assert_int_equal(fs_read_file(game, &b), 0);
	assert_true(b.len == game_whole.len && memcmp(b.data, game_whole.data, b.len) == 0);
	buf_reset(&b);
	assert_int_equal(fs_read_file(rec, &b), 0);
	assert_true(b.len == rec_whole.len && memcmp(b.data, rec_whole.data, b.len) == 0);

	/* With the marker, no end line is damage. */
	strip_end(rec, &rec_whole);
	assert_int_equal(load_count(f, &why), 0);
	assert_non_null(strstr(buf_str(&why), "history/0001.txt:"));
	put_file(rec, rec_whole.data, rec_whole.len);

	/* The old format cut in the middle of a line: left, and set aside. */
	strip_end(game, &game_whole);
	put_file(game, game_whole.data, game_whole.len / 2);
	assert_true(game_whole.data[game_whole.len / 2 - 1] != '\n');
	assert_int_equal(unlink(marker), 0);
	assert_int_equal(load_count(f, &why), 0);
	assert_non_null(strstr(buf_str(&why), "game.txt:"));
	buf_reset(&b);
	assert_int_equal(fs_read_file(game, &b), 0);
	assert_true(b.len == game_whole.len / 2);
	assert_true(fs_exists(marker));
	buf_free(&game_whole);
	buf_free(&rec_whole);
	buf_free(&b);
	buf_free(&why);
}

/* The game a message is for, as the shell asks before applying it (mail
 * for a game set aside waits). */
static void
test_mail_game(void **state)
{
	static const struct {
		const char *text, *game;
	} cases[] = {
		{ "GAME g1 France france-pw\nA Par - Bur\n", "g1" },
		{ "Hello\n\n  GAME   school-2  GM secret\nPAUSE\n", "school-2" },
		{ "> GAME quoted England pw\nNEWGAME g3 standard GM gm@example.test\n", "g3" },
		{ "A Par - Bur\n", "" },
		{ "GAME a-name-far-longer-than-any-game England pw\n", "" },
	};
	char game[GAME_NAME_MAX], text[256];
	struct inmsg m;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&m, 0, sizeof m);
		snprintf(text, sizeof text, "%s", cases[i].text);
		m.text = text;
		judge_mail_game(&m, game, sizeof game);
		assert_string_equal(game, cases[i].game);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_save_and_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_record_not_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_powers_saved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_everywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_upgrade, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rollback_keeps_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rollback_restores_conference, setup, teardown),
		cmocka_unit_test_setup_teardown(test_key_reproduces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_game_file, setup, teardown),
		cmocka_unit_test(test_mail_game),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
