/*
 * test_outbox.c — the outbox with a scripted sink: durable queueing,
 * per-recipient outcomes, backoff, expiry, the sent archive, failure
 * records, recovery after a crash between two steps, a write that fails.
 */
#include "../support/testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/strv.h"
#include "../../mailer/outbox.h"
#include "../../mailer/sink.h"
#include "../../spool/spool.h"

static char dir[64];

/* The outbox of the test's directory, queueing into the spool's packs. */
static struct outbox *
open_outbox(struct buf *err)
{
	char p[128], packs[160];

	snprintf(p, sizeof p, "%s/outbox", dir);
	snprintf(packs, sizeof packs, "%s/spool/pack", dir);
	return outbox_open(p, packs, err);
}

/* A sink whose outcome is chosen by the recipient's local part:
 * perm... refused (550), temp... deferred (450), anything else accepted;
 * or unreachable altogether when down. */
struct fake {
	int down;
	int opens;
	int sends;
	int syncs;
	int sync_fails;	/* sink_sync fails */
	int forbid;	/* fail the test when called */
	int down_after;	/* unreachable from this send on (counting from 1; 0: never) */
	int many;	/* sink_send_many calls */
	int most;	/* most messages given to one of them */
	struct outbox *watch;	/* when set: the most it holds at a send... */
	size_t most_held;	/* ...here */
};

static int
fake_open(struct mail_sink *k, struct buf *err)
{
	struct fake *f = k->priv;

	(void)err;
	f->opens++;
	return 0;
}

static int
fake_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct fake *f = k->priv;
	int i;

	(void)key;
	(void)from;
	(void)data;
	(void)len;
	if (f->forbid)
		fail_msg("the sink should not be used");
	f->sends++;
	if (f->watch != NULL) {
		size_t bytes, held = outbox_held(f->watch, &bytes);
		if (held > f->most_held)
			f->most_held = held;
	}
	if (f->down || (f->down_after > 0 && f->sends >= f->down_after)) {
		buf_puts(err, "connection refused\n");
		sink_set_all(res, n, RCPT_TEMPFAIL, 0, "connection refused");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (str_prefix_nocase(rcpts[i], "perm"))
			sink_set_all(&res[i], 1, RCPT_PERMFAIL, 550, "550 5.1.1 no such user");
		else if (str_prefix_nocase(rcpts[i], "temp"))
			sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 450, "450 4.2.0 try later");
		else
			sink_set_all(&res[i], 1, RCPT_OK, 250, "250 ok");
	}
	return 0;
}

static int
fake_sync(struct mail_sink *k, struct buf *err)
{
	struct fake *f = k->priv;

	f->syncs++;
	if (f->sync_fails) {
		buf_puts(err, "disk full\n");
		return -1;
	}
	return 0;
}

static void
fake_close(struct mail_sink *k)
{
	(void)k;
}

static const struct sink_ops fake_ops = { fake_open, fake_send, fake_sync, fake_close, NULL };

/* Several at once, as the SMTP sink over several connections, here one
 * after another (sink_send_many's own way, as for a sink without it). */
static int
fake_send_many(struct mail_sink *k, struct sink_msg *v, int n, struct buf *err)
{
	struct fake *f = k->priv;
	struct mail_sink plain = *k;

	f->many++;
	if (n > f->most)
		f->most = n;
	plain.ops = &fake_ops;
	return sink_send_many(&plain, v, n, err);
}

static const struct sink_ops fake_many_ops = { fake_open, fake_send, fake_sync, fake_close,
	fake_send_many };

struct env {
	struct outbox *ob;
	struct spool *sp;
	struct fake f;
	struct mail_sink sink;
	struct buf err;
};

static int
setup(void **state)
{
	struct env *e = calloc(1, sizeof *e);
	char p[128];

	if (test_mkdtemp(dir, sizeof dir, "outbox") < 0)
		return -1;
	buf_init(&e->err, 1 << 16);
	e->ob = open_outbox(&e->err);
	snprintf(p, sizeof p, "%s/spool", dir);
	e->sp = spool_open(p, &e->err);
	e->sink.ops = &fake_ops;
	e->sink.priv = &e->f;
	*state = e;
	return e->ob && e->sp ? 0 : -1;
}

static int
teardown(void **state)
{
	struct env *e = *state;

	outbox_close(e->ob);
	spool_close(e->sp, NULL);
	buf_free(&e->err);
	free(e);
	return test_rm_rf(dir);
}

static const char msg[] = "From: judge@example.test\nMessage-ID: <m1@judge>\n\nhello\n";

static char *
queue(struct env *e, char **rcpts, int n, time_t now)
{
	char *id = NULL;

	if (outbox_add(e->ob, "judge@example.test", rcpts, n, msg, sizeof msg - 1, now, &id, &e->err) < 0)
		fail_msg("outbox_add: %s", buf_str(&e->err));
	return id;
}

static struct outbox_stats
flush(struct env *e, time_t now)
{
	struct outbox_stats st;

	if (outbox_flush(e->ob, &e->sink, e->sp, now, &st, &e->err) < 0)
		fail_msg("outbox_flush: %s", buf_str(&e->err));
	strv_free(st.notes, st.nnotes);	/* counted, not kept */
	st.notes = NULL;
	return st;
}

/* Journal files in the outbox's state directory. */
static int
count_journals(void)
{
	char p[256];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(p, sizeof p, "%s/outbox/meta", dir);
	d = opendir(p);
	while (d && (de = readdir(d)) != NULL)
		n += strncmp(de->d_name, "journal.", 8) == 0;
	if (d)
		closedir(d);
	return n;
}

/* The place ("PACK:OFFSET") of queued message id, from the journals: the
 * pack's path into path, the offset into *off. */
static void
place_of(const char *id, char *path, size_t size, long *off)
{
	char p[256], f[600], head[200];
	DIR *d;
	struct dirent *de;
	struct buf b;
	const char *at, *pl;

	snprintf(p, sizeof p, "%s/outbox/meta", dir);
	snprintf(head, sizeof head, "id %s\n", id);
	d = opendir(p);
	assert_non_null(d);
	buf_init(&b, 1 << 24);
	*path = '\0';
	while ((de = readdir(d)) != NULL) {
		snprintf(f, sizeof f, "%s/%s", p, de->d_name);
		buf_reset(&b);
		if (strncmp(de->d_name, "journal.", 8) != 0 || fs_read_file(f, &b) < 0 ||
		    (at = strstr(buf_str(&b), head)) == NULL || (pl = strstr(at, "\nplace ")) == NULL)
			continue;
		pl += 7;
		snprintf(path, size, "%s/spool/pack/%.*s", dir, (int)strcspn(pl, ":"), pl);
		*off = strtol(pl + strcspn(pl, ":") + 1, NULL, 10);
	}
	closedir(d);
	buf_free(&b);
	assert_true(*path != '\0');
}

/* Files under DIR/outbox/SUB. */
static int
count_files(const char *sub)
{
	char p[160];

	snprintf(p, sizeof p, "%s/outbox", dir);
	return test_count_files(p, sub);
}

static void
test_send(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", b[] = "bob@example.test";
	char *r[] = { a, b }, *id, p[256];
	struct outbox_stats st;
	struct buf raw;

	long off;

	id = queue(e, r, 2, 1000);
	assert_int_equal(outbox_count(e->ob), 0);	/* not before the sync */
	assert_int_equal(count_journals(), 0);	/* its record waits for its bytes */
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	assert_int_equal(outbox_count(e->ob), 1);
	/* A new message is its bytes in a pack and its state in the batch's
	 * journal: no file of its own. */
	assert_int_equal(count_journals(), 1);
	assert_int_equal(count_files("new") + count_files("tmp") + count_files("cur"), 0);
	snprintf(p, sizeof p, "%s/outbox/meta/%s", dir, id);
	assert_false(fs_exists(p));
	place_of(id, p, sizeof p, &off);
	assert_true(fs_exists(p));
	st = flush(e, 1000);
	assert_int_equal(st.sent, 1);
	assert_int_equal(e->f.opens, 1);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(count_journals(), 0);	/* nobody needs it any more */
	assert_true(fs_exists(p));	/* the spool's archive now */
	assert_int_equal(spool_count_out(e->sp), 1);
	assert_string_equal(spool_out(e->sp, 0)->rcpts, "alice@example.test,bob@example.test");
	assert_string_equal(spool_out(e->sp, 0)->message_id, "m1@judge");
	buf_init(&raw, 1 << 20);
	assert_int_equal(spool_read(e->sp, spool_out(e->sp, 0)->id, &raw, &e->err), 0);
	assert_string_equal(buf_str(&raw), msg);	/* byte for byte */
	buf_free(&raw);
	/* nothing due: the sink is not even opened */
	st = flush(e, 2000);
	assert_int_equal(e->f.opens, 1);
	free(id);
}

static void
test_mixed_recipients(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", p1[] = "perm@example.test", t1[] = "temp@example.test";
	char *r[] = { a, p1, t1 }, *id;
	struct outbox_failure *fv;
	struct outbox_stats st;
	int n;

	id = queue(e, r, 3, 1000);
	st = flush(e, 1000);
	assert_int_equal(st.deferred, 1);
	assert_int_equal(st.failed_rcpts, 1);
	assert_int_equal(outbox_count(e->ob), 1);
	assert_int_equal(outbox_failures(e->ob, &fv, &e->err), 0);	/* recorded when finished */
	st = flush(e, 1030);	/* before the backoff */
	assert_int_equal(st.waiting, 1);
	assert_int_equal(e->f.sends, 1);
	t1[0] = 'x';	/* the server takes it now... but the outbox holds its own copy */
	st = flush(e, 1000 + OUTBOX_BACKOFF_BASE);
	assert_int_equal(e->f.sends, 2);	/* only the pending recipient is tried again */
	assert_int_equal(st.deferred, 1);
	outbox_close(e->ob);	/* reopening changes nothing */
	e->ob = open_outbox(&e->err);
	/* expiry: the temp recipient is given up */
	st = flush(e, 1000 + OUTBOX_EXPIRE);
	assert_int_equal(st.sent, 1);
	assert_int_equal(st.failed_rcpts, 1);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(spool_count_out(e->sp), 1);
	assert_string_equal(spool_out(e->sp, 0)->rcpts, "alice@example.test");
	n = outbox_failures(e->ob, &fv, &e->err);
	assert_int_equal(n, 2);
	assert_string_equal(fv[0].id, id);
	assert_string_equal(fv[0].message_id, "m1@judge");
	assert_string_equal(fv[0].rcpt, "perm@example.test");
	assert_int_equal(fv[0].code, 550);
	assert_string_equal(fv[1].rcpt, "temp@example.test");
	assert_non_null(strstr(fv[1].reason, "gave up after 3 attempts"));
	outbox_failures_free(fv, n);
	assert_int_equal(outbox_forget_failure(e->ob, id, &e->err), 0);
	assert_int_equal(outbox_failures(e->ob, &fv, &e->err), 0);
	assert_int_equal(outbox_forget_failure(e->ob, "../x", &e->err), -1);
	free(id);
}

static void
test_down_and_backoff(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", b[] = "bob@example.test";
	char *r1[] = { a }, *r2[] = { b }, *id1, *id2;
	struct outbox_stats st;

	id1 = queue(e, r1, 1, 1000);
	id2 = queue(e, r2, 1, 1000);
	e->f.down = 1;
	st = flush(e, 1000);
	assert_int_equal(st.deferred, 2);
	assert_int_equal(e->f.sends, 1);	/* unreachable: the second is not tried */
	st = flush(e, 1059);
	assert_int_equal(st.waiting, 2);
	st = flush(e, 1060);	/* 60 s after the first attempt */
	assert_int_equal(st.deferred, 2);
	st = flush(e, 1060 + 119);	/* the second wait is 120 s */
	assert_int_equal(st.waiting, 2);
	e->f.down = 0;
	st = flush(e, 1060 + 120);
	assert_int_equal(st.sent, 2);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(spool_count_out(e->sp), 2);
	free(id1);
	free(id2);
}

/* A crash after archiving and before leaving the outbox: the next flush
 * finishes the message without sending or archiving it again. */
/* Leave text as the journal of a process that crashed, then open the
 * outbox again, as the next run does. */
static void
crashed_journal(struct env *e, const struct buf *text)
{
	char p[256];

	snprintf(p, sizeof p, "%s/outbox/meta/journal.99999999999999999999.1", dir);
	assert_int_equal(fs_write_atomic(p, text->data, text->len), 0);
	outbox_close(e->ob);
	e->ob = open_outbox(&e->err);
	assert_non_null(e->ob);
}

static void
test_resume_after_crash(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a }, *id, key[200], pack[300];
	struct buf meta;
	long off;
	struct outbox_stats st;

	id = queue(e, r, 1, 1000);
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	snprintf(key, sizeof key, "outbox:%s", id);
	assert_int_equal(spool_store_out(e->sp, key, "m1@judge", a, msg, sizeof msg - 1, 1000, NULL,
	    &e->err), 1);
	assert_int_equal(spool_sync(e->sp, &e->err), 0);
	/* A process that sent it and was killed before archiving it left its
	 * state in a journal of its own (later than the one that queued it). */
	place_of(id, pack, sizeof pack, &off);
	buf_init(&meta, 1 << 16);
	buf_printf(&meta, "id %s\nfrom judge@example.test\nmessage-id m1@judge\nqueued 1000\n"
	    "attempts 1\nnext 1060\nrcpt sent alice@example.test 250 ok\nplace %s:%ld\n\n", id,
	    strrchr(pack, '/') + 1, off);
	crashed_journal(e, &meta);
	e->f.forbid = 1;
	st = flush(e, 1000);
	assert_int_equal(st.sent, 1);
	assert_int_equal(spool_count_out(e->sp), 1);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(count_journals(), 0);
	buf_free(&meta);
	free(id);
}

/* A record cut short by a crash (no empty line after it) does not count. */
static void
test_torn_record(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a }, *id;
	struct buf j;
	struct outbox_stats st;

	id = queue(e, r, 1, 1000);
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	buf_init(&j, 1 << 16);
	buf_printf(&j, "id %s\nfrom judge@example.test\nmessage-id m1@judge\nqueued 1000\n"
	    "attempts 1\nnext 99999\nrcpt sent alice@example.test 250", id);
	crashed_journal(e, &j);
	/* The state before it stands: still pending, sent now. */
	st = flush(e, 1000);
	assert_int_equal(st.sent, 1);
	assert_int_equal(e->f.sends, 1);
	buf_free(&j);
	free(id);
}

/* The one journal file in the outbox's state directory, into path. */
static void
journal_path(char *path, size_t size)
{
	char p[256];
	DIR *d;
	struct dirent *de;

	snprintf(p, sizeof p, "%s/outbox/meta", dir);
	d = opendir(p);
	assert_non_null(d);
	*path = '\0';
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "journal.", 8) == 0)
			snprintf(path, size, "%s/%s", p, de->d_name);
	closedir(d);
	assert_true(*path != '\0');
}

/* Reopen the outbox (a new run). */
static void
reopen(struct env *e)
{
	outbox_close(e->ob);
	e->ob = open_outbox(&e->err);
	assert_non_null(e->ob);
}

/* A queued message cut short or changed on disk is never sent, nor is one
 * whose state record was changed; the other messages go, and nothing
 * stops the flush. */
static void
test_damaged_entries(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", b[] = "bob@example.test", *ra[] = { a }, *rb[] = { b };
	char *ida, *idb, path[512], jpath[512];
	struct outbox_stats st;
	struct buf j;
	char *at;

	/* A byte of the only state record of a message changed: passed over;
	 * without a state the message is not sent, and the flush goes on. */
	ida = queue(e, ra, 1, 1000);
	idb = queue(e, rb, 1, 1000);
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	journal_path(jpath, sizeof jpath);
	buf_init(&j, 1 << 16);
	assert_int_equal(fs_read_file(jpath, &j), 0);
	at = strstr(j.data, ida);
	assert_non_null(at);
	at = strstr(at, "rcpt pending alice");
	assert_non_null(at);
	memcpy(at + 5, "sent   ", 7);	/* "rcpt sent    alice": as if sent */
	assert_int_equal(fs_write_atomic(jpath, j.data, j.len), 0);
	reopen(e);
	e->f.sends = 0;
	st = flush(e, 1000);
	assert_int_equal(e->f.sends, 1);
	assert_int_equal(st.sent, 1);
	assert_int_equal(outbox_count(e->ob), 1);
	assert_int_equal(outbox_drop(e->ob, ida, &e->err), 0);	/* the host's decision */
	assert_int_equal(outbox_count(e->ob), 0);
	buf_free(&j);
	free(ida);
	free(idb);
	/* The message's bytes: cut short, then one byte changed. */
	for (int k = 0; k < 2; k++) {
		long off;
		int fd;
		idb = queue(e, rb, 1, 1000);
		ida = queue(e, ra, 1, 1000);	/* the last in its pack */
		assert_int_equal(outbox_sync(e->ob, &e->err), 0);
		place_of(ida, path, sizeof path, &off);
		if (k == 0) {
			assert_int_equal(truncate(path, (off_t)off + (off_t)(sizeof msg - 1) / 2), 0);
		} else {
			assert_true((fd = open(path, O_WRONLY)) >= 0);
			assert_int_equal(pwrite(fd, "O", 1, (off_t)off + (off_t)sizeof msg - 3), 1);
			close(fd);
		}
		reopen(e);
		e->f.sends = 0;
		st = flush(e, 1000);
		assert_int_equal(e->f.sends, 1);	/* bob's only */
		assert_int_equal(st.sent, 1);
		assert_int_equal(outbox_count(e->ob), 1);	/* alice's waits for the host */
		reopen(e);	/* and still does in the next run */
		assert_int_equal(outbox_count(e->ob), 1);
		assert_int_equal(outbox_drop(e->ob, ida, &e->err), 0);
		reopen(e);
		assert_int_equal(outbox_count(e->ob), 0);
		free(ida);
		free(idb);
	}
}

/* When the sink cannot make its deliveries durable, they did not happen. */
static void
test_sink_sync_fails(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", p1[] = "perm@example.test", *r[] = { a, p1 }, *id;
	struct outbox_stats st;

	id = queue(e, r, 2, 1000);
	e->f.sync_fails = 1;
	st = flush(e, 1000);
	assert_int_equal(e->f.syncs, 1);
	assert_int_equal(st.deferred, 1);
	assert_int_equal(st.sent, 0);
	assert_int_equal(outbox_count(e->ob), 1);
	assert_int_equal(spool_count_out(e->sp), 0);
	e->f.sync_fails = 0;
	st = flush(e, 1000 + OUTBOX_BACKOFF_BASE);
	assert_int_equal(st.sent, 1);
	assert_int_equal(e->f.sends, 2);
	assert_string_equal(spool_out(e->sp, 0)->rcpts, "alice@example.test");
	free(id);
}

static void
test_refused(void **state)
{
	struct env *e = *state;
	char bad[] = "not an address", ok[] = "a@b.c";
	char *r1[] = { bad }, *r2[] = { ok };

	assert_int_equal(outbox_add(e->ob, "judge@example.test", r1, 1, "x", 1, 0, NULL, &e->err), -1);
	assert_int_equal(outbox_add(e->ob, "judge@example.test", r2, 0, "x", 1, 0, NULL, &e->err), -1);
	assert_int_equal(outbox_add(e->ob, "bad sender", r2, 1, "x", 1, 0, NULL, &e->err), -1);
	assert_int_equal(outbox_count(e->ob), 0);
}

/* A write that fails half-way (a full disk, here the file size limit):
 * the pack ends in a torn message, and nothing more is queued, recorded
 * or synced by this process (not even the record of the message before,
 * which waited for its bytes to be synced); a new one reads only whole
 * records. */
static void
test_failed_write(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a }, *id;
	struct rlimit old, lim;
	struct outbox *ob;
	char *id2 = NULL;

	id = queue(e, r, 1, 1000);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = sizeof msg + sizeof msg / 2;	/* the second message is torn */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(outbox_add(e->ob, "judge@example.test", r, 1, msg, sizeof msg - 1, 1000,
	    &id2, &e->err), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	/* The space is back, but this process appends nothing after the tear. */
	buf_reset(&e->err);
	assert_int_equal(outbox_add(e->ob, "judge@example.test", r, 1, msg, sizeof msg - 1, 1000,
	    &id2, &e->err), -1);
	assert_non_null(strstr(buf_str(&e->err), "an earlier write failed"));
	assert_int_equal(outbox_sync(e->ob, &e->err), -1);
	assert_int_equal(outbox_count(e->ob), 0);
	/* The next process: the first message's state is whole, nothing was
	 * published, and a message queued now goes out. */
	ob = open_outbox(&e->err);
	assert_non_null(ob);
	outbox_close(e->ob);
	e->ob = ob;
	assert_int_equal(outbox_count(e->ob), 0);
	free(id);
	id = queue(e, r, 1, 1000);
	assert_int_equal(flush(e, 1000).sent, 1);
	free(id);
}

/* The bytes of the journal files. */
static long
journal_bytes(void)
{
	char p[256], f[600];
	DIR *d;
	struct dirent *de;
	struct buf b;
	long n = 0;

	snprintf(p, sizeof p, "%s/outbox/meta", dir);
	d = opendir(p);
	buf_init(&b, 1 << 24);
	while (d && (de = readdir(d)) != NULL) {
		snprintf(f, sizeof f, "%s/%s", p, de->d_name);
		buf_reset(&b);
		if (strncmp(de->d_name, "journal.", 8) == 0 && fs_read_file(f, &b) == 0)
			n += (long)b.len;
	}
	if (d)
		closedir(d);
	buf_free(&b);
	return n;
}

/* The outbox holds where each state is, not its text (read again from the
 * journal), and forgets a message once it is sent: memory stays small per
 * queued message whatever its recipients, and does not grow with the
 * messages sent. */
static void
test_held_memory(void **state)
{
	enum { NMSG = 40, NRCPT = 200 };
	struct env *e = *state;
	char *r[NRCPT], *id;
	size_t bytes;
	int i;

	for (i = 0; i < NRCPT; i++) {
		r[i] = malloc(64);
		snprintf(r[i], 64, "%s%03d@example.test", i == 0 ? "temp" : "player", i);
	}
	id = queue(e, r, NRCPT, 1000);	/* one waits: its first recipient is deferred */
	free(id);
	for (i = 1; i < NMSG; i++) {
		id = queue(e, r + 1, NRCPT - 1, 1000);
		free(id);
	}
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	assert_true(journal_bytes() > NMSG * NRCPT * 20);	/* the states are big... */
	/* ...the process that queued them holds none of them */
	assert_int_equal(outbox_held(e->ob, &bytes), 0);
	assert_int_equal(outbox_count(e->ob), NMSG);
	/* The same, read from the journal by another process. */
	outbox_close(e->ob);
	e->ob = open_outbox(&e->err);
	assert_non_null(e->ob);
	assert_int_equal(outbox_held(e->ob, &bytes), NMSG);
	assert_true(bytes < NMSG * 128);
	assert_int_equal(flush(e, 1000).sent, NMSG - 1);
	assert_int_equal(spool_count_out(e->sp), NMSG - 1);
	/* The sent are forgotten, though their journal stays for the one left. */
	assert_int_equal(outbox_held(e->ob, &bytes), 1);
	assert_int_equal(count_journals(), 1);
	for (i = 0; i < NRCPT; i++)
		free(r[i]);
}

/* A long queue is sent in batches over one connection, each made durable
 * (the sink synced, the archive, the journal) and forgotten before the
 * next: every message sent once, archived once, nothing left. */
static void
test_flush_batches(void **state)
{
	enum { NMSG = OUTBOX_FLUSH_BATCH + OUTBOX_FLUSH_BATCH / 2 };
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a };
	struct outbox_stats st;
	size_t bytes;
	int i;

	for (i = 0; i < NMSG; i++)
		free(queue(e, r, 1, 1000));
	st = flush(e, 1000);
	assert_int_equal(st.sent, NMSG);
	assert_int_equal(e->f.sends, NMSG);
	assert_int_equal(e->f.opens, 1);
	assert_int_equal(e->f.syncs, 2);	/* one for each batch */
	assert_int_equal(spool_count_out(e->sp), NMSG);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(outbox_held(e->ob, &bytes), 0);
	assert_int_equal(count_journals(), 0);
}

/* A sink that takes messages in groups (sink_group: SMTP over several
 * connections) gets them so, every outcome is recorded once, and one that
 * becomes unreachable part way leaves what it did not send in the outbox,
 * tried again later; nothing is sent twice. */
static void
test_groups(void **state)
{
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a };
	struct outbox_stats st;
	int i;

	e->sink.ops = &fake_many_ops;
	e->sink.group = 4;
	for (i = 0; i < 10; i++)
		free(queue(e, r, 1, 1000));
	e->f.down_after = 7;	/* the seventh send finds the server gone */
	st = flush(e, 1000);
	assert_int_equal(st.sent, 6);
	assert_int_equal(st.deferred, 4);
	assert_int_equal(e->f.sends, 7);	/* none tried after it */
	assert_int_equal(e->f.many, 2);	/* 4, then 4; the last 2 not given */
	assert_int_equal(e->f.most, 4);
	assert_int_equal(spool_count_out(e->sp), 6);
	assert_int_equal(outbox_count(e->ob), 4);
	e->f.down_after = 0;
	st = flush(e, 1060);
	assert_int_equal(st.sent, 4);
	assert_int_equal(e->f.sends, 11);
	assert_int_equal(spool_count_out(e->sp), 10);
	assert_int_equal(outbox_count(e->ob), 0);
}

/* What a process queues is not held in memory: a flush reads it back from
 * the journal as it goes, and holds at most a batch's messages at a time;
 * one of them dropped (pouch send --drop) before the flush is not sent,
 * and those not due yet stay queued. */
static void
test_queued_not_held(void **state)
{
	enum { NMSG = 2 * OUTBOX_FLUSH_BATCH + OUTBOX_FLUSH_BATCH / 2 };
	struct env *e = *state;
	char a[] = "alice@example.test", *r[] = { a }, *drop = NULL;
	size_t bytes;
	int i;

	for (i = 0; i < NMSG; i++) {
		char *id = queue(e, r, 1, 1000);
		if (i == NMSG / 2)
			drop = id;
		else
			free(id);
	}
	assert_int_equal(outbox_sync(e->ob, &e->err), 0);
	assert_int_equal(outbox_held(e->ob, &bytes), 0);
	assert_true(bytes < 1024);
	assert_int_equal(outbox_count(e->ob), NMSG);
	assert_int_equal(outbox_drop(e->ob, drop, &e->err), 0);
	assert_int_equal(outbox_count(e->ob), NMSG - 1);
	assert_int_equal(outbox_drop(e->ob, drop, &e->err), -1);	/* once */
	buf_reset(&e->err);
	free(drop);
	/* not due yet: nothing tried, nothing lost */
	assert_int_equal(flush(e, 999).waiting, NMSG - 1);
	assert_int_equal(e->f.sends, 0);
	assert_int_equal(outbox_count(e->ob), NMSG - 1);
	e->f.watch = e->ob;
	assert_int_equal(flush(e, 1000).sent, NMSG - 1);
	assert_int_equal(e->f.sends, NMSG - 1);
	assert_int_equal(spool_count_out(e->sp), NMSG - 1);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(outbox_held(e->ob, &bytes), 0);
	assert_int_equal(count_journals(), 0);
	/* Queued and sent in one process, as a run does: at most a batch held. */
	e->f.most_held = 0;
	for (i = 0; i < NMSG; i++)
		free(queue(e, r, 1, 2000));
	assert_int_equal(flush(e, 2000).sent, NMSG);
	assert_true(e->f.most_held > 0 && e->f.most_held <= OUTBOX_FLUSH_BATCH);
	assert_int_equal(outbox_count(e->ob), 0);
	assert_int_equal(count_journals(), 0);
}

/* A message that waits long (its recipient deferred) does not keep the
 * states of the messages sent with it: after a flush the journals hold the
 * queue, and the next run reads and holds only the one left, in one
 * journal. */
static void
test_compacted(void **state)
{
	enum { NMSG = 300 };
	struct env *e = *state;
	char a[] = "alice@example.test", t[] = "temp@example.test", *ra[] = { a }, *rt[] = { t };
	size_t bytes;
	int i;

	free(queue(e, rt, 1, 1000));
	for (i = 0; i < NMSG; i++)
		free(queue(e, ra, 1, 1000));
	assert_int_equal(flush(e, 1000).sent, NMSG);
	for (int run = 0; run < 3; run++) {
		reopen(e);
		assert_int_equal(outbox_held(e->ob, &bytes), 1);
		assert_int_equal(outbox_count(e->ob), 1);
		assert_int_equal(count_journals(), 1);
		assert_true(journal_bytes() < 1000);	/* its state, once */
		assert_int_equal(flush(e, 1000 + 100000 * (run + 1)).deferred, 1);
	}
	assert_int_equal(flush(e, 1000 + OUTBOX_EXPIRE).sent, 1);
	reopen(e);
	assert_int_equal(outbox_held(e->ob, &bytes), 0);
	assert_int_equal(count_journals(), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_send, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mixed_recipients, setup, teardown),
		cmocka_unit_test_setup_teardown(test_down_and_backoff, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_after_crash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_torn_record, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sink_sync_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flush_batches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queued_not_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compacted, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
