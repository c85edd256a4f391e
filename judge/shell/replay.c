/*
 * replay.c — pouch replay's checks and repair (replay.h): the games and
 * mail of a replay compared with the live judge's, and a game rebuilt
 * from the spool put in place of a damaged one.
 */
#define _DEFAULT_SOURCE
#include "replay.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"

/* The largest game file, history record or mail compared or put in place. */
#define REPLAY_FILE_MAX (256u << 20)

/* Whether files a and b hold the same bytes (both readable). */
static int
same_file(const char *a, const char *b)
{
	struct buf x, y;
	int same;

	buf_init(&x, REPLAY_FILE_MAX);
	buf_init(&y, REPLAY_FILE_MAX);
	same = fs_read_file(a, &x) == 0 && fs_read_file(b, &y) == 0 && x.len == y.len &&
	    memcmp(x.data, y.data, x.len) == 0;
	buf_free(&x);
	buf_free(&y);
	return same;
}

int
replay_verify_games(const char *live, const char *out, FILE *report, int *checked)
{
	char dir[1100], a[1400], b[1400];
	DIR *d;
	struct dirent *e;
	int diffs = 0;

	snprintf(dir, sizeof dir, "%s/games", live);
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		DIR *h;
		struct dirent *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(a, sizeof a, "%s/games/%s/game.txt", live, e->d_name);
		snprintf(b, sizeof b, "%s/games/%s/game.txt", out, e->d_name);
		(*checked)++;
		if (!same_file(a, b)) {
			fprintf(report, "differs: game %s (%s, %s)\n", e->d_name, a, b);
			diffs++;
		}
		snprintf(a, sizeof a, "%s/games/%s/history", live, e->d_name);
		h = opendir(a);
		while (h && (f = readdir(h)) != NULL) {
			if (f->d_name[0] == '.' || strstr(f->d_name, ".tmp."))
				continue;
			snprintf(a, sizeof a, "%s/games/%s/history/%s", live, e->d_name, f->d_name);
			snprintf(b, sizeof b, "%s/games/%s/history/%s", out, e->d_name, f->d_name);
			(*checked)++;
			if (!same_file(a, b)) {
				fprintf(report, "differs: history %s/%s (%s, %s)\n", e->d_name, f->d_name, a, b);
				diffs++;
			}
		}
		if (h)
			closedir(h);
	}
	closedir(d);
	/* Games the replay made that the live judge does not have. */
	snprintf(dir, sizeof dir, "%s/games", out);
	d = opendir(dir);
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(a, sizeof a, "%s/games/%s/game.txt", live, e->d_name);
		if (!fs_exists(a)) {
			fprintf(report, "differs: game %s exists only in the replay\n", e->d_name);
			diffs++;
		}
	}
	if (d)
		closedir(d);
	return diffs;
}

/* A message the live judge made: sent (in the spool) or still in its outbox. */
struct live_msg {
	char *message_id;
	char *spool_id;	/* sent: the spool's id */
	size_t spool_at;	/* sent: its place among the spool's sent messages */
	char *queued;		/* waiting: its id in the outbox... */
	char *data;		/* ...and its bytes */
	size_t len;
	int matched;
};

struct live_list {
	struct live_msg *v;
	size_t n;
};

/* A message waiting in the live judge's outbox, into the list arg. */
static void
live_queued(void *arg, const char *id, const char *data, size_t len)
{
	struct live_list *l = arg;
	char *msgid = mime_message_id(data, len);

	if (msgid == NULL || strncmp(msgid, ASIDE_MSGID, strlen(ASIDE_MSGID)) == 0) {
		free(msgid);
		return;
	}
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n] = (struct live_msg){ msgid, NULL, 0, xstrdup(id), xmalloc(len + 1), len, 0 };
	memcpy(l->v[l->n].data, data, len);
	l->n++;
}

static int
live_cmp(const void *a, const void *b)
{
	return strcmp(((const struct live_msg *)a)->message_id, ((const struct live_msg *)b)->message_id);
}

/* Every message the live judge made, sorted by Message-ID. */
static struct live_msg *
live_mail(struct runner *r, const char *live, size_t *n)
{
	struct live_list l = { NULL, 0 };
	struct outbox *ob;
	struct buf err;
	char dir[1100], *packs;
	size_t i;

	for (i = 0; i < spool_count_out(r->sp); i++) {
		const struct spool_sent *s = spool_out(r->sp, i);
		/* The notice that a game was set aside comes from the shell
		 * (a damaged file), not from the spool: no replay makes it. */
		if (s == NULL || s->message_id == NULL ||
		    strncmp(s->message_id, ASIDE_MSGID, strlen(ASIDE_MSGID)) == 0)
			continue;
		l.v = xreallocarray(l.v, l.n + 1, sizeof *l.v);
		l.v[l.n] = (struct live_msg){ xstrdup(s->message_id), xstrdup(s->id), i, NULL, NULL, 0, 0 };
		l.n++;
	}
	/* What waits in its outbox (the spool it was given holds its packs). */
	snprintf(dir, sizeof dir, "%s/outbox", live);
	packs = mail_outbox_packs(spool_dir(r->sp));
	buf_init(&err, 4096);
	if (fs_exists(dir) && (ob = outbox_open(dir, packs, &err)) != NULL) {
		outbox_each_message(ob, live_queued, &l, &err);
		outbox_close(ob);
	}
	buf_free(&err);
	free(packs);
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, live_cmp);
	*n = l.n;
	return l.v;
}

int
replay_verify_mail(struct runner *r, const char *live, FILE *report, int *checked)
{
	struct buf raw, mine, e_err;
	struct live_msg *v, key = { NULL, NULL, 0, NULL, NULL, 0, 0 };
	size_t n, i;
	DIR *d;
	struct dirent *e;
	int diffs = 0;

	v = live_mail(r, live, &n);
	buf_init(&raw, REPLAY_FILE_MAX);
	buf_init(&mine, REPLAY_FILE_MAX);
	buf_init(&e_err, 1024);
	d = opendir(r->mail_dir);
	while (d && (e = readdir(d)) != NULL) {
		char id[512], path[1400], live_path[PATH_MAX];
		struct live_msg *found;
		size_t k = strlen(e->d_name);
		if (k < 5 || strcmp(e->d_name + k - 4, ".eml") != 0 || k - 4 >= sizeof id)
			continue;
		memcpy(id, e->d_name, k - 4);
		id[k - 4] = '\0';
		(*checked)++;
		key.message_id = id;
		found = n ? bsearch(&key, v, n, sizeof *v, live_cmp) : NULL;
		if (found == NULL) {
			fprintf(report, "differs: mail %s was made by the replay only\n", id);
			diffs++;
			continue;
		}
		found->matched = 1;
		snprintf(path, sizeof path, "%s/%s", r->mail_dir, e->d_name);
		buf_reset(&mine);
		buf_reset(&raw);
		if (found->queued)
			snprintf(live_path, sizeof live_path, "outbox %s", found->queued);
		else	/* in a pack: `pouch spool show ID` gives it */
			snprintf(live_path, sizeof live_path, "spool %s", found->spool_id);
		if (fs_read_file(path, &mine) < 0 || (found->queued ?
		    buf_append(&raw, found->data, found->len) : spool_read_out(r->sp, found->spool_at,
		    &raw, &e_err)) < 0 ||
		    raw.len != mine.len || memcmp(raw.data, mine.data, raw.len) != 0) {
			/* Both named, to compare them. */
			fprintf(report, "differs: mail %s (%s, %s)\n", id, live_path, path);
			diffs++;
		}
	}
	if (d)
		closedir(d);
	for (i = 0; i < n; i++) {
		if (!v[i].matched) {
			fprintf(report, "differs: mail %s was made by the live judge only\n", v[i].message_id);
			diffs++;
		}
		free(v[i].message_id);
		free(v[i].queued);
		free(v[i].data);
		free(v[i].spool_id);
	}
	free(v);
	buf_free(&raw);
	buf_free(&mine);
	buf_free(&e_err);
	return diffs;
}

int
replay_scratch(char *scratch, size_t size, struct buf *err)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch, size, "%s/pouch-replay.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(scratch) == NULL) {
		buf_printf(err, "%s: %s\n", scratch, strerror(errno));
		return -1;
	}
	return 0;
}

/* Copy from into to (synced), keeping to's mode 0640. Returns 0, or -1 (err says why). */
static int
install_file(const char *from, const char *to, struct buf *err)
{
	struct buf b;
	int rc;

	buf_init(&b, REPLAY_FILE_MAX);
	rc = fs_read_file(from, &b) < 0 || fs_write_atomic_mode(to, b.data, b.len, 0640) < 0 ? -1 : 0;
	if (rc < 0)
		buf_printf(err, "%s: %s\n", to, strerror(errno));
	buf_free(&b);
	return rc;
}

/* The note that set a game aside goes last: a run that finds the game
 * whole removes a note left behind. */
int
replay_install_game(const char *live, const char *out, const char *game, time_t now,
    struct buf *err)
{
	char from[2600], to[1400], dir[1200];
	DIR *d;
	struct dirent *e;
	int bad = 0;

	snprintf(dir, sizeof dir, "%s/games/%s/history", live, game);
	if (fs_mkdir_p(dir, 0750) < 0) {
		buf_printf(err, "%s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof dir, "%s/games/%s/history", out, game);
	d = opendir(dir);
	while (d && !bad && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp."))
			continue;
		snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
		snprintf(to, sizeof to, "%s/games/%s/history/%s", live, game, e->d_name);
		bad = install_file(from, to, err) < 0;
	}
	if (d)
		closedir(d);
	for (int k = 0; k < 2 && !bad; k++) {
		const char *log = k ? "press.log" : "audit.log";
		snprintf(from, sizeof from, "%s/games/%s/%s", out, game, log);
		snprintf(to, sizeof to, "%s/games/%s/%s", live, game, log);
		if (fs_exists(from))
			bad = install_file(from, to, err) < 0;
	}
	if (bad)
		return -1;
	/* A copy of the damaged file, then the new one replaces it whole: a
	 * crash in between leaves the game set aside, never without a file. */
	snprintf(from, sizeof from, "%s/games/%s/game.txt", live, game);
	snprintf(to, sizeof to, "%s/games/%s/game.txt.damaged-%lld", live, game, (long long)now);
	if (fs_exists(from) && install_file(from, to, err) < 0)
		return -1;
	snprintf(from, sizeof from, "%s/games/%s/game.txt", out, game);
	snprintf(to, sizeof to, "%s/games/%s/game.txt", live, game);
	if (install_file(from, to, err) < 0)
		return -1;
	snprintf(to, sizeof to, "%s/games/%s/%s", live, game, ASIDE_NOTE);
	if (unlink(to) < 0 && errno != ENOENT) {
		buf_printf(err, "%s: %s\n", to, strerror(errno));
		return -1;
	}
	/* The next run loads the games whatever DATA/next-due said. */
	snprintf(to, sizeof to, "%s/next-due", live);
	unlink(to);
	return 0;
}

/* Replay into ro->data and commit; the messages applied into *done.
 * Returns 0, or -1 (err says why). */
static int
repair_replay(const struct run_opts *ro, struct replay_repaired *done, struct buf *err)
{
	struct runner r;
	int rc = runner_open(&r, ro, err);

	if (rc == 1)
		buf_printf(err, "another pouch is working on %s; nothing done\n", ro->data);
	if (rc == 0) {
		if (runner_apply(&r, err) < 0 || runner_commit(&r, err) < 0)
			rc = -1;
		done->applied = r.stats.applied;
		done->host = r.stats.host;
	}
	runner_close(&r);
	return rc == 0 ? 0 : -1;
}

enum replay_repair
replay_repair_game(const char *live, struct run_opts *ro, const char *game,
    struct replay_repaired *done, struct buf *err)
{
	char lock[1100], scratch[1100], path[1300];
	enum replay_repair result = REPAIR_FAILED;
	time_t clock = 0;
	int fd, rc;

	memset(done, 0, sizeof *done);
	/* No run may touch the games meanwhile. */
	snprintf(lock, sizeof lock, "%s/pouch.lock", live);
	if ((fd = fs_lock(lock, ro->wait_ms)) < 0) {
		buf_printf(err, "%s: %s\n", lock, errno == EWOULDBLOCK ?
		    "another pouch is working there; try again" : strerror(errno));
		return REPAIR_FAILED;
	}
	if ((rc = runner_aside_point(live, game, &done->upto, &clock, err)) < 0 ||
	    replay_scratch(scratch, sizeof scratch, err) < 0) {
		fs_unlock(fd);
		return REPAIR_FAILED;
	}
	done->set_aside = rc == 1;
	ro->data = scratch;
	ro->replay_cut = 1;
	ro->replay_upto = done->upto;
	ro->now = clock;
	snprintf(path, sizeof path, "%s/games/%s/game.txt", scratch, game);
	if (repair_replay(ro, done, err) == 0)
		result = !fs_exists(path) ? REPAIR_NO_GAME :
		    replay_install_game(live, scratch, game, time(NULL), err) < 0 ? REPAIR_NOT_PUT :
		    REPAIR_DONE;
	fs_rm_rf(scratch);
	fs_unlock(fd);
	return result;
}
