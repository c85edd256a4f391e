/*
 * test_mailer.c — the local mail path end to end, without servers: the
 * Maildir source reading a Maildir as Postfix or Dovecot
 * writes it, fetching into the spool (commit only after a durable store),
 * reading back as struct inmsg, queueing replies and sending them through
 * the Maildir sink.
 */
#include "../support/testutil.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "../../lib/fsio.h"
#include "../../mailer/mailer.h"
#include "../../spool/maildir.h"

static char dir[64];
static char inbox[128], spooldir[128], outdir[128], obdir[128], packdir[160];

static int
setup(void **state)
{
	(void)state;
	if (test_mkdtemp(dir, sizeof dir, "mailer") < 0)
		return -1;
	snprintf(inbox, sizeof inbox, "%s/inbox", dir);
	snprintf(spooldir, sizeof spooldir, "%s/spool", dir);
	snprintf(packdir, sizeof packdir, "%s/pack", spooldir);
	snprintf(outdir, sizeof outdir, "%s/out", dir);
	snprintf(obdir, sizeof obdir, "%s/outbox", dir);
	return md_create(inbox);
}

static int
teardown(void **state)
{
	(void)state;
	return test_rm_rf(dir);
}

/* Put a message in inbox/SUB/NAME with modification time t. */
static void
deliver(const char *sub, const char *name, const char *text, time_t t)
{
	char p[512];
	struct utimbuf u = { t, t };

	snprintf(p, sizeof p, "%s/%s/%s", inbox, sub, name);
	assert_int_equal(fs_write_atomic(p, text, strlen(text)), 0);
	assert_int_equal(utime(p, &u), 0);
}

static int
count(const char *d, const char *sub)
{
	return test_count_files(d, sub);
}

struct seen {
	int n;
	char keys[8][128];
	time_t when[8];
	int leave;	/* index to leave */
};

static int
collect(void *arg, const struct source_msg *m, struct buf *err)
{
	struct seen *s = arg;

	(void)err;
	snprintf(s->keys[s->n], sizeof s->keys[0], "%s", m->key);
	s->when[s->n] = m->delivered;
	return s->n++ == s->leave ? SOURCE_LEAVE : SOURCE_ACCEPT;
}

static void
test_maildir_source(void **state)
{
	struct mail_source *src;
	struct seen s;
	struct buf err;
	char *cursor, p[512];

	(void)state;
	deliver("new", "1700000300.M1P1.host", "Subject: third\n\nc\n", 1700000300);
	deliver("new", "1700000100.M1P1.host", "Subject: first\n\na\n", 1700000100);
	deliver("cur", "1700000200.M2P1.host:2,", "Subject: second, unseen in cur\n\nb\n", 1700000200);
	deliver("cur", "1690000000.M3P1.host:2,S", "Subject: old and seen\n\nx\n", 1690000000);
	buf_init(&err, 4096);
	memset(&s, 0, sizeof s);
	s.leave = 1;
	src = source_maildir_new(inbox);
	assert_int_equal(source_open(src, &err), 0);
	assert_int_equal(source_fetch(src, NULL, collect, &s, &err), 0);
	assert_int_equal(s.n, 3);	/* oldest first, the seen one skipped */
	assert_string_equal(s.keys[0], "maildir:1700000100.M1P1.host");
	assert_string_equal(s.keys[1], "maildir:1700000200.M2P1.host");
	assert_string_equal(s.keys[2], "maildir:1700000300.M1P1.host");
	assert_int_equal(s.when[0], 1700000100);
	assert_int_equal(source_commit(src, &cursor, &err), 0);
	assert_null(cursor);
	source_free(src);
	snprintf(p, sizeof p, "%s/cur/1700000100.M1P1.host:2,S", inbox);
	assert_true(fs_exists(p));
	snprintf(p, sizeof p, "%s/maildirfolder", inbox);
	assert_false(fs_exists(p));	/* Courier's subfolder marker is not made */
	assert_int_equal(count(inbox, "new"), 0);
	/* again: only the message that was left */
	memset(&s, 0, sizeof s);
	s.leave = -1;
	src = source_maildir_new(inbox);
	assert_int_equal(source_open(src, &err), 0);
	assert_int_equal(source_fetch(src, NULL, collect, &s, &err), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.keys[0], "maildir:1700000200.M2P1.host");
	source_free(src);	/* closed without commit: nothing changes */
	snprintf(p, sizeof p, "%s/cur/1700000200.M2P1.host:2,", inbox);
	assert_true(fs_exists(p));
	buf_free(&err);
}

/* Counts the messages handed over, checks they come oldest first. */
struct order_seen {
	int n;
	time_t last;
	bool disorder;
};

static int
in_order(void *arg, const struct source_msg *m, struct buf *err)
{
	struct order_seen *o = arg;

	(void)err;
	o->disorder |= m->delivered < o->last;
	o->last = m->delivered;
	o->n++;
	return SOURCE_ACCEPT;
}

/* A mailbox of more messages than one fetch hands over (16,384; here
 * 64): the oldest first, the rest in another round after the commit
 * (more), and only as many held at once; flags a reader gave a message
 * are kept when it is marked seen. */
static void
test_maildir_rounds(void **state)
{
	enum { ROUND = 64, N = ROUND + 5 };
	struct mail_source *src;
	struct order_seen o;
	struct buf err;
	char *cursor, p[512];
	int i;

	(void)state;
	for (i = 0; i < N; i++) {
		/* the newest written first: the folder's order is not the mail's */
		struct utimbuf u = { 1700000000 + N - i, 1700000000 + N - i };
		FILE *f;
		snprintf(p, sizeof p, "%s/new/%d.M%dP1.host", inbox, 1700000000 + N - i, i);
		assert_non_null(f = fopen(p, "w"));
		fputs("Subject: s\n\nx\n", f);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(utime(p, &u), 0);
	}
	deliver("cur", "1600000000.flagged.host:2,F", "Subject: read, unseen\n\nb\n", 1600000000);
	buf_init(&err, 4096);
	src = source_maildir_new(inbox);
	source_maildir_round(src, ROUND);
	assert_int_equal(source_open(src, &err), 0);
	memset(&o, 0, sizeof o);
	assert_int_equal(source_fetch(src, NULL, in_order, &o, &err), 0);
	assert_int_equal(o.n, ROUND);
	assert_false(o.disorder);
	assert_true(src->more);
	assert_int_equal(source_commit(src, &cursor, &err), 0);
	assert_int_equal(count(inbox, "new"), N + 1 - ROUND);
	assert_int_equal(source_fetch(src, NULL, in_order, &o, &err), 0);
	assert_int_equal(o.n, N + 1);
	assert_false(o.disorder);	/* the second round's are all newer */
	assert_false(src->more);
	assert_int_equal(source_commit(src, &cursor, &err), 0);
	source_free(src);
	assert_int_equal(count(inbox, "new"), 0);
	assert_int_equal(count(inbox, "cur"), N + 1);
	snprintf(p, sizeof p, "%s/cur/1600000000.flagged.host:2,FS", inbox);
	assert_true(fs_exists(p));
	buf_free(&err);
}

static void
test_fetch_into_spool(void **state)
{
	struct mail_source *src;
	struct fetch_stats st;
	struct spool *sp;
	struct buf err;
	struct inmsg m;
	struct mime_opts mo;

	(void)state;
	deliver("new", "1700000100.a.host", "From: A <alice@example.test>\nMessage-ID: <m1@x>\n"
	    "Subject: orders\n\nA Par-Bur\n", 1700000100);
	deliver("new", "1700000200.b.host", "From: A <alice@example.test>\nMessage-ID: <m1@x>\n"
	    "Subject: orders\nX-Delivered: again\n\nA Par-Bur\n", 1700000200);	/* a copy */
	deliver("new", "1700000300.c.host", "", 1700000300);	/* empty: stored all the same */
	buf_init(&err, 4096);
	sp = spool_open(spooldir, &err);
	assert_non_null(sp);
	src = source_maildir_new(inbox);
	assert_int_equal(mail_fetch(src, sp, 1800000000, &st, &err), 0);
	source_free(src);
	assert_int_equal(st.fetched, 3);
	assert_int_equal(st.stored, 3);
	assert_int_equal(st.duplicates, 1);
	assert_int_equal(spool_count_in(sp), 3);
	assert_int_equal(spool_in(sp, 0)->arrival, 1700000100);	/* when it was delivered */
	assert_int_equal(spool_in(sp, 1)->state, SPOOL_DUPLICATE);
	assert_int_equal(count(inbox, "new"), 0);
	assert_int_equal(count(inbox, "cur"), 3);
	mime_opts_init(&mo);
	assert_int_equal(mail_read(sp, spool_in(sp, 0), &mo, &m, &err), 0);
	assert_string_equal(m.spool_id, spool_in(sp, 0)->id);
	assert_int_equal(m.arrival, 1700000100);
	assert_string_equal(m.from_addr, "alice@example.test");
	assert_string_equal(m.text, "A Par-Bur\n");
	inmsg_free(&m);
	assert_int_equal(mail_read(sp, spool_in(sp, 2), &mo, &m, &err), 0);
	assert_string_equal(m.text, "");
	inmsg_free(&m);
	/* a second run finds nothing */
	src = source_maildir_new(inbox);
	assert_int_equal(mail_fetch(src, sp, 1800000000, &st, &err), 0);
	source_free(src);
	assert_int_equal(st.fetched, 0);
	assert_int_equal(spool_close(sp, &err), 0);
	buf_free(&err);
}

/* When the spool cannot store, the source is not told anything. */
static void
test_store_failure(void **state)
{
	struct mail_source *src;
	struct fetch_stats st;
	struct spool *sp;
	struct buf err;
	char tmp[256];

	(void)state;
	deliver("new", "1700000100.a.host", "Subject: one\n\n1\n", 1700000100);
	deliver("new", "1700000200.b.host", "Subject: two\n\n2\n", 1700000200);
	buf_init(&err, 4096);
	sp = spool_open(spooldir, &err);
	assert_non_null(sp);
	snprintf(tmp, sizeof tmp, "%s/pack", spooldir);
	assert_int_equal(rmdir(tmp), 0);	/* every store fails now */
	src = source_maildir_new(inbox);
	assert_int_equal(mail_fetch(src, sp, 1800000000, &st, &err), -1);
	assert_non_null(strstr(buf_str(&err), "cannot store a message"));
	source_free(src);
	assert_int_equal(count(inbox, "new"), 2);	/* both still unseen */
	assert_int_equal(spool_close(sp, &err), 0);
	/* fixed: the next run takes them */
	sp = spool_open(spooldir, &err);
	src = source_maildir_new(inbox);
	assert_int_equal(mail_fetch(src, sp, 1800000000, &st, &err), 0);
	source_free(src);
	assert_int_equal(st.stored, 2);
	assert_int_equal(spool_close(sp, &err), 0);
	buf_free(&err);
}

static void
test_queue_and_send(void **state)
{
	struct mail_config cfg;
	struct outbox *ob;
	struct spool *sp;
	struct outbox_stats st;
	struct outmsg m;
	struct buf err;
	char a[] = "Alice@Example.test", b[] = "bob@example.test", bad[] = "x";
	char *to[] = { a }, *cc[] = { b }, *badto[] = { bad }, *id = NULL;
	char box[256];

	(void)state;
	mail_config_init(&cfg, dir);
	free(cfg.judge_address);
	cfg.judge_address = strdup("judge@example.test");
	buf_init(&err, 4096);
	ob = outbox_open(obdir, packdir, &err);
	sp = spool_open(spooldir, &err);
	assert_non_null(ob);
	assert_non_null(sp);
	memset(&m, 0, sizeof m);
	m.to = to;
	m.nto = 1;
	m.cc = cc;
	m.ncc = 1;
	m.subject = (char *)(uintptr_t)"results";
	m.text = (char *)(uintptr_t)"A Par-Bur succeeds\n";
	m.game = (char *)(uintptr_t)"g1";
	m.date = 1700000000;
	assert_int_equal(mail_queue(ob, &cfg, &m, 1700000000, &id, &err), 0);
	assert_non_null(id);
	free(id);
	m.to = badto;
	assert_int_equal(mail_queue(ob, &cfg, &m, 1700000000, NULL, &err), -1);
	assert_int_equal(outbox_sync(ob, &err), 0);
	assert_int_equal(outbox_count(ob), 1);
	assert_int_equal(mail_send(ob, &cfg, sp, 1700000000, &st, &err), 0);
	assert_int_equal(st.sent, 1);
	snprintf(box, sizeof box, "%s/mail/out/alice@example.test", dir);
	assert_int_equal(count(box, "new"), 1);
	snprintf(box, sizeof box, "%s/mail/out/bob@example.test", dir);
	assert_int_equal(count(box, "new"), 1);
	assert_int_equal(spool_count_out(sp), 1);
	outbox_close(ob);
	assert_int_equal(spool_close(sp, &err), 0);
	mail_config_free(&cfg);
	buf_free(&err);
}

/* The Maildir sink inside a process killed in sink_sync: before the batch
 * is published (kill_after_publish 0) or right after (1), before the
 * outbox can record anything more. */
static int kill_after_publish;
static const struct sink_ops *maildir_ops;

static int
killed_sync(struct mail_sink *k, struct buf *err)
{
	if (kill_after_publish)
		maildir_ops->sync(k, err);
	raise(SIGKILL);
	return -1;
}

#define KILLED_MSGS 30

/* In a child: queue KILLED_MSGS replies, two recipients each (r0..r9,
 * every box gets six), and flush them through a sink killed in its sync.
 * Returns the child's wait status. */
static int
flush_and_die(void)
{
	pid_t pid = fork();
	int status = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		static struct sink_ops ops;
		struct buf err;
		struct outbox_stats st;
		struct outbox *ob;
		struct spool *sp;
		struct mail_sink *k;
		char out[256];

		buf_init(&err, 4096);
		ob = outbox_open(obdir, packdir, &err);
		sp = spool_open(spooldir, &err);
		if (ob == NULL || sp == NULL)
			_exit(2);
		for (int i = 0; i < KILLED_MSGS; i++) {
			char a[64], b[64], data[256];
			char *rcpts[] = { a, b };
			snprintf(a, sizeof a, "r%d@example.test", i % 10);
			snprintf(b, sizeof b, "r%d@example.test", (i + 5) % 10);
			snprintf(data, sizeof data, "From: judge@example.test\nTo: %s, %s\n"
			    "Message-ID: <m%d@example.test>\nSubject: reply\n\nreply %d\n", a, b, i, i);
			if (outbox_add(ob, "judge@example.test", rcpts, 2, data, strlen(data),
			    1700000000, NULL, &err) < 0)
				_exit(2);
		}
		if (outbox_sync(ob, &err) < 0)
			_exit(2);
		snprintf(out, sizeof out, "%s/mail/out", dir);
		k = sink_maildir_new(out);
		maildir_ops = k->ops;
		ops = *k->ops;
		ops.sync = killed_sync;
		k->ops = &ops;
		outbox_flush(ob, k, sp, 1700000000, &st, &err);
		_exit(3);	/* not reached: the sync kills */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* A run killed during its send step on the Maildir sink: the next flush
 * delivers every reply once into new/ and leaves nothing in tmp/. */
static void
check_killed_send(int after_publish)
{
	struct mail_config cfg;
	struct outbox *ob;
	struct spool *sp;
	struct outbox_stats st;
	struct buf err;
	char box[256];
	int status, i, in_new = 0, in_tmp = 0, left = 0;

	kill_after_publish = after_publish;
	status = flush_and_die();
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	mail_config_init(&cfg, dir);
	buf_init(&err, 4096);
	ob = outbox_open(obdir, packdir, &err);
	sp = spool_open(spooldir, &err);
	assert_non_null(ob);
	assert_non_null(sp);
	assert_int_equal(mail_send(ob, &cfg, sp, 1700000060, &st, &err), 0);
	assert_int_equal(outbox_count(ob), 0);
	for (i = 0; i < 10; i++) {
		snprintf(box, sizeof box, "%s/mail/out/r%d@example.test", dir, i);
		if (count(box, "new") != 6)
			left++;
		in_new += count(box, "new");
		in_tmp += count(box, "tmp");
	}
	print_message("killed %s publishing: %d of %d deliveries in new/, %d in tmp/\n",
	    after_publish ? "after" : "before", in_new, 2 * KILLED_MSGS, in_tmp);
	assert_int_equal(left, 0);
	assert_int_equal(in_new, 2 * KILLED_MSGS);
	assert_int_equal(in_tmp, 0);
	assert_int_equal(spool_count_out(sp), KILLED_MSGS);
	outbox_close(ob);
	assert_int_equal(spool_close(sp, &err), 0);
	mail_config_free(&cfg);
	buf_free(&err);
}

static void
test_killed_before_publish(void **state)
{
	(void)state;
	check_killed_send(0);
}

static void
test_killed_after_publish(void **state)
{
	(void)state;
	check_killed_send(1);
}

/* Files in a recipient's tmp/ older than 36 hours go when the sink next
 * delivers there; younger ones (another writer may be at work) stay. */
static void
test_stale_tmp(void **state)
{
	struct mail_sink *k;
	struct rcpt_result res[1];
	struct buf err;
	char out[256], box[300], p[400], a[] = "dave@example.test", *rcpts[] = { a };
	const char *msg = "From: judge@example.test\nSubject: s\n\nbody\n";
	time_t now = time(NULL);
	struct utimbuf old = { now - MD_STALE_SECONDS - 60, now - MD_STALE_SECONDS - 60 };

	(void)state;
	buf_init(&err, 4096);
	snprintf(out, sizeof out, "%s/mail/out", dir);
	snprintf(box, sizeof box, "%s/dave@example.test", out);
	assert_int_equal(md_create(box), 0);
	snprintf(p, sizeof p, "%s/tmp/old.pouch", box);
	assert_int_equal(fs_write_atomic(p, "x", 1), 0);
	assert_int_equal(utime(p, &old), 0);
	snprintf(p, sizeof p, "%s/tmp/young.pouch", box);
	assert_int_equal(fs_write_atomic(p, "x", 1), 0);
	k = sink_maildir_new(out);
	assert_int_equal(sink_open(k, &err), 0);
	assert_int_equal(sink_send(k, "m1.pouch", "judge@example.test", rcpts, 1, msg, strlen(msg),
	    res, &err), 0);
	assert_int_equal(res[0].status, RCPT_OK);
	assert_int_equal(sink_sync(k, &err), 0);
	sink_free(k);
	assert_int_equal(count(box, "new"), 1);
	assert_int_equal(count(box, "tmp"), 1);
	assert_true(fs_exists(p));
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_maildir_source, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maildir_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fetch_into_spool, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_failure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue_and_send, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_before_publish, setup, teardown),
		cmocka_unit_test_setup_teardown(test_killed_after_publish, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_tmp, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
