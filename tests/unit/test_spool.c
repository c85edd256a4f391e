/*
 * test_spool.c — the durable archive: Maildir layout, ledger records and
 * their reload, never storing a source twice, duplicates by Message-ID,
 * arrival order, applied marks, cursors, sent mail, damaged ledgers, the
 * lazy open and its summary.
 */
#include "../support/testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <limits.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../lib/log.h"
#include "../../spool/index.h"
#include "../../spool/maildir.h"
#include "../../spool/spool.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	return test_mkdtemp(dir, sizeof dir, "spool");
}

static int
teardown(void **state)
{
	(void)state;
	return test_rm_rf(dir);
}

static struct spool *
open_with(struct spool *(*open_fn)(const char *, struct buf *), const char *name)
{
	struct buf err;
	struct spool *s;

	buf_init(&err, 4096);
	s = open_fn(dir, &err);
	if (s == NULL)
		fail_msg("%s: %s", name, buf_str(&err));
	buf_free(&err);
	return s;
}

static struct spool *
open_ok(void)
{
	return open_with(spool_open, "spool_open");
}

static struct spool *
open_lazy_ok(void)
{
	return open_with(spool_open_lazy, "spool_open_lazy");
}

static void
close_ok(struct spool *s)
{
	struct buf err;

	buf_init(&err, 4096);
	if (spool_close(s, &err) < 0)
		fail_msg("spool_close: %s", buf_str(&err));
	buf_free(&err);
}

static int
count_files(const char *sub)
{
	return test_count_files(dir, sub);
}

static void
test_store_and_reload(void **state)
{
	struct spool *s = open_ok();
	struct buf err, raw;
	const char *id1, *id2, *id3, *again;
	const struct spool_entry *e;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_store_in(s, "imap://j@h/INBOX;UIDVALIDITY=7/;UID=1", "m1@x", "one\n", 4,
	    1000, &id1, &err), 1);
	assert_int_equal(spool_store_in(s, "imap://j@h/INBOX;UIDVALIDITY=7/;UID=2", NULL, "two\n", 4,
	    1010, &id2, &err), 1);
	/* the same source again: nothing stored, same id */
	assert_int_equal(spool_store_in(s, "imap://j@h/INBOX;UIDVALIDITY=7/;UID=1", "m1@x", "one\n", 4,
	    1020, &again, &err), 0);
	assert_string_equal(again, id1);
	/* an earlier arrival is raised to the last one */
	assert_int_equal(spool_store_in(s, "maildir:123.abc", "m3@x", "three\n", 6, 900, &id3, &err), 1);
	assert_int_equal(spool_count_in(s), 3);
	assert_int_equal(spool_in(s, 2)->arrival, 1010);
	/* written into the batch's pack, one file for the batch */
	assert_int_equal(count_files("pack"), 1);
	assert_int_equal(count_files("in/tmp"), 0);
	buf_init(&raw, 1 << 20);
	assert_int_equal(spool_read(s, id3, &raw, &err), 0);
	buf_reset(&raw);
	assert_int_equal(spool_sync(s, &err), 0);
	assert_int_equal(count_files("pack"), 1);
	assert_int_equal(count_files("in/new"), 0);
	{
		char p[256];
		snprintf(p, sizeof p, "%s/ledger", dir);
		assert_int_equal(fs_read_file(p, &raw), 0);
		assert_non_null(strstr(buf_str(&raw), "pouch-spool 3\nin\t1000.000001.pouch\t1000\t4\t"));
		/* where each is: the pack, named after the batch's first, and
		 * the offset */
		assert_non_null(strstr(buf_str(&raw), "\t000001.pack:0\t~"));
		assert_non_null(strstr(buf_str(&raw), "\t000001.pack:4\t~"));
		assert_non_null(strstr(buf_str(&raw), "\t000001.pack:8\t~"));
	}
	close_ok(s);

	s = open_ok();
	assert_int_equal(spool_count_in(s), 3);
	e = spool_in(s, 0);
	assert_string_equal(e->id, "1000.000001.pouch");
	assert_string_equal(e->source, "imap://j@h/INBOX;UIDVALIDITY=7/;UID=1");
	assert_string_equal(e->message_id, "m1@x");
	assert_int_equal(e->size, 4);
	assert_int_equal(e->state, SPOOL_STORED);
	assert_null(spool_in(s, 1)->message_id);
	assert_non_null(spool_lookup_source(s, "maildir:123.abc"));
	assert_null(spool_lookup_source(s, "maildir:nope"));
	buf_reset(&raw);
	assert_int_equal(spool_read(s, spool_in(s, 2)->id, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "three\n");
	/* new ids continue after the old ones */
	assert_int_equal(spool_store_in(s, "maildir:456.def", NULL, "four\n", 5, 2000, &id1, &err), 1);
	assert_string_equal(id1, "2000.000004.pouch");
	close_ok(s);
	buf_free(&raw);
	buf_free(&err);
}

static void
test_duplicates_and_applied(void **state)
{
	struct spool *s = open_ok();
	struct buf err, raw;
	const char *a, *b;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_store_in(s, "maildir:1", "same@x", "X: 1\n\nfirst\n", 12, 10, &a, &err), 1);
	/* the same text under another header: a copy delivered twice */
	assert_int_equal(spool_store_in(s, "maildir:2", "same@x", "X: 22\r\n\r\nfirst\n", 15, 11, &b,
	    &err), 1);
	assert_int_equal(spool_lookup(s, b)->state, SPOOL_DUPLICATE);
	assert_string_equal(spool_lookup(s, b)->dup_of, a);
	/* another text under the same Message-ID (a correction, another
	 * sender's mail): a message of its own, not a copy */
	{
		const char *c;
		assert_int_equal(spool_store_in(s, "maildir:3", "same@x", "X: 1\n\nsecond\n", 13, 12, &c,
		    &err), 1);
		assert_int_equal(spool_lookup(s, c)->state, SPOOL_STORED);
		assert_null(spool_lookup(s, c)->dup_of);
		/* a copy of the first after it: a copy still, of the first */
		assert_int_equal(spool_store_in(s, "maildir:4", "same@x", "X: 4\n\nfirst\n", 12, 13, &c,
		    &err), 1);
		assert_int_equal(spool_lookup(s, c)->state, SPOOL_DUPLICATE);
		assert_string_equal(spool_lookup(s, c)->dup_of, a);
	}
	assert_int_equal(spool_sync(s, &err), 0);
	assert_int_equal(count_files("pack"), 1);	/* the bytes are kept anyway */
	buf_init(&raw, 64);
	assert_int_equal(spool_read(s, b, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "X: 22\r\n\r\nfirst\n");
	buf_free(&raw);
	assert_int_equal(spool_mark_applied(s, a, 20, &err), 0);
	assert_int_equal(spool_mark_applied(s, a, 21, &err), 1);
	assert_int_equal(spool_mark_applied(s, b, 22, &err), -1);
	assert_non_null(strstr(buf_str(&err), "duplicate"));
	assert_int_equal(spool_mark_applied(s, "nope", 22, &err), -1);
	{
		char *ca = strdup(a), *cb = strdup(b);	/* ids are borrowed until close */
		close_ok(s);
		s = open_ok();
		assert_int_equal(spool_lookup(s, ca)->state, SPOOL_APPLIED);
		assert_int_equal(spool_lookup(s, ca)->applied, 20);
		assert_int_equal(spool_lookup(s, cb)->state, SPOOL_DUPLICATE);
		free(ca);
		free(cb);
	}
	close_ok(s);
	buf_free(&err);
}

/* spool_mark_applied_at: by position, the same record as by id (the
 * ledger read again says so), a duplicate refused, a position past the
 * end refused. */
static void
test_mark_applied_at(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	const char *a, *b;
	char *ca;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_store_in(s, "maildir:1", "one@x", "first\n", 6, 10, &a, &err), 1);
	ca = strdup(a);
	assert_int_equal(spool_store_in(s, "maildir:2", "one@x", "first\n", 6, 11, &b, &err), 1);
	assert_int_equal(spool_sync(s, &err), 0);
	assert_int_equal(spool_mark_applied_at(s, 0, 20, &err), 0);
	assert_int_equal(spool_mark_applied_at(s, 0, 21, &err), 1);
	assert_int_equal(spool_mark_applied_at(s, 1, 22, &err), -1);
	assert_non_null(strstr(buf_str(&err), "duplicate"));
	assert_int_equal(spool_mark_applied_at(s, 2, 22, &err), -1);
	assert_int_equal(spool_pending(s), 0);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_lookup(s, ca)->state, SPOOL_APPLIED);
	assert_int_equal(spool_lookup(s, ca)->applied, 20);
	assert_int_equal(spool_state(s, 1), SPOOL_DUPLICATE);
	free(ca);
	close_ok(s);
	buf_free(&err);
}

/* The runs, in the ledger's order among the messages: which messages each
 * run read, and when it ran, runs in the same second too; the clock's
 * place; the settings' history. */
static void
test_runs(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	const char *id;
	char *ids[3];
	int i;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_index(s, &err), 0);
	for (i = 0; i < 2; i++) {
		char src[16];
		snprintf(src, sizeof src, "maildir:%d", i);
		assert_int_equal(spool_store_in(s, src, NULL, "x\n", 2, 90, &id, &err), 1);
		ids[i] = strdup(id);
	}
	spool_set_cursor(s, "settings", "address=a@x");
	spool_mark_run(s, 100);
	spool_set_clock(s, 100);
	assert_int_equal(spool_store_in(s, "maildir:2", NULL, "x\n", 2, 100, &id, &err), 1);
	ids[2] = strdup(id);
	spool_mark_run(s, 100);		/* the same second: a run all the same */
	assert_int_equal(spool_count_runs(s), 2);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_index(s, &err), 0);
	assert_int_equal(spool_count_runs(s), 2);
	assert_int_equal(spool_run_at(s, 0)->time, 100);
	assert_true(spool_lookup(s, ids[1])->rec_in < spool_run_at(s, 0)->rec);
	assert_true(spool_run_at(s, 0)->rec < spool_clock_rec(s));
	assert_true(spool_clock_rec(s) < spool_lookup(s, ids[2])->rec_in);
	assert_true(spool_lookup(s, ids[2])->rec_in < spool_run_at(s, 1)->rec);
	assert_int_equal(spool_count_settings(s), 1);
	assert_string_equal(spool_setting_at(s, 0)->value, "address=a@x");
	assert_true(spool_setting_at(s, 0)->rec < spool_run_at(s, 0)->rec);
	for (i = 0; i < 3; i++)
		free(ids[i]);
	close_ok(s);
	buf_free(&err);
}

static void
test_cursor_out_and_escapes(void **state)
{
	struct spool *s = open_ok();
	struct buf err, raw;
	const char *weird = "imap://j@h/Odd\tFolder %41 -\n;UID=1", *id;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&raw, 1 << 20);
	assert_null(spool_cursor(s, "imap://j@h/INBOX"));
	spool_set_cursor(s, "imap://j@h/INBOX", "7:10");
	spool_set_cursor(s, "imap://j@h/INBOX", "7:12");
	assert_int_equal(spool_store_in(s, weird, "-", "x\n", 2, 5, &id, &err), 1);
	assert_int_equal(spool_store_out(s, "outbox:1", "out-1@judge", "a@x,b@y", "sent\n", 5, 6, &id,
	    &err), 1);
	assert_int_equal(spool_store_out(s, "outbox:1", "out-1@judge", "a@x,b@y", "sent\n", 5, 7, &id,
	    &err), 0);	/* the same key is stored once */
	assert_int_equal(spool_store_out(s, NULL, NULL, "c@z", "other\n", 6, 8, &id, &err), 1);
	close_ok(s);
	assert_int_equal(count_files("out/new"), 0);
	assert_int_equal(count_files("pack"), 1);
	s = open_ok();
	assert_string_equal(spool_cursor(s, "imap://j@h/INBOX"), "7:12");
	assert_string_equal(spool_in(s, 0)->source, weird);
	assert_string_equal(spool_in(s, 0)->message_id, "-");
	assert_int_equal(spool_count_out(s), 2);
	assert_string_equal(spool_out(s, 0)->key, "outbox:1");
	assert_null(spool_out(s, 1)->key);
	assert_string_equal(spool_out(s, 0)->rcpts, "a@x,b@y");
	assert_string_equal(spool_out(s, 0)->message_id, "out-1@judge");
	assert_int_equal(spool_read(s, spool_out(s, 0)->id, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "sent\n");
	close_ok(s);
	buf_free(&raw);
	buf_free(&err);
}

/* Put a file in the spool as a killed run leaves one: published in
 * SUB/new/ under id, never recorded in the ledger; and next-seq gone, as
 * that run removed it before publishing anything. */
static void
orphan(const char *sub, const char *id)
{
	char p[256];

	snprintf(p, sizeof p, "%s/%s/new/%s", dir, sub, id);
	assert_int_equal(fs_write_atomic(p, "orphan\n", 7), 0);
	snprintf(p, sizeof p, "%s/next-seq", dir);
	assert_int_equal(unlink(p), 0);
}

/* DATA/spool/next-seq: written by a clean close; while it is there, ids
 * are handed out from it (or the ledger, the higher) without looking for
 * them in the folders, which only an older pouch wrote files into. */
static void
test_next_seq(void **state)
{
	struct spool *s = open_ok();
	struct buf err, b;
	const char *id;
	char p[256];

	(void)state;
	buf_init(&err, 4096);
	buf_init(&b, 64);
	snprintf(p, sizeof p, "%s/next-seq", dir);
	assert_int_equal(spool_store_in(s, "maildir:a", "a@x", "first\n", 6, 100, &id, &err), 1);
	assert_int_equal(spool_sync(s, &err), 0);
	close_ok(s);
	assert_int_equal(fs_read_file(p, &b), 0);
	assert_string_equal(buf_str(&b), "2\n");
	s = open_ok();
	assert_int_equal(spool_store_out(s, "outbox:1", "out@judge", "a@x", "sent\n", 5, 100, &id,
	    &err), 1);
	assert_string_equal(id, "100.000002.pouch");
	/* messages go into packs, not the folders: next-seq stays true */
	assert_int_equal(spool_sync(s, &err), 0);
	assert_true(fs_exists(p));
	close_ok(s);
	/* a next-seq further on (a spool that skipped ids) is where they go on */
	assert_int_equal(fs_write_atomic(p, "40\n", 3), 0);
	s = open_ok();
	assert_int_equal(spool_store_in(s, "maildir:b", "b@x", "second\n", 7, 100, &id, &err), 1);
	assert_string_equal(id, "100.000040.pouch");
	close_ok(s);
	buf_free(&b);
	buf_free(&err);
}

/* Ids stay unique across in/ and out/ after kills: files a killed run
 * published without a ledger record make the next run skip their ids, and
 * a later open must neither hand out an id of the ledger again nor one
 * whose name an orphan holds in the other folder. */
static void
test_ids_after_kills(void **state)
{
	struct spool *s = open_ok();
	struct buf err, raw;
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&raw, 1 << 20);
	assert_int_equal(spool_store_in(s, "maildir:a", "a@x", "first\n", 6, 100, &id, &err), 1);
	assert_string_equal(id, "100.000001.pouch");
	close_ok(s);
	orphan("in", "100.000002.pouch");
	s = open_ok();
	assert_int_equal(spool_store_in(s, "maildir:b", "b@x", "second\n", 7, 100, &id, &err), 1);
	assert_string_equal(id, "100.000003.pouch");
	close_ok(s);
	orphan("in", "100.000004.pouch");
	s = open_ok();
	assert_int_equal(spool_store_out(s, "outbox:1", "out@judge", "a@x", "sent\n", 5, 100, &id,
	    &err), 1);
	assert_string_equal(id, "100.000005.pouch");
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_read(s, spool_out(s, 0)->id, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "sent\n");
	buf_reset(&raw);
	assert_int_equal(spool_read(s, spool_in(s, 1)->id, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "second\n");
	close_ok(s);
	buf_free(&raw);
	buf_free(&err);
}

/* A run that could not commit its games discards its marks: the message
 * is still waiting after a reopen, lazy (no summary counting the mark) or
 * not. */
static void
test_discard(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_store_in(s, "maildir:a", "a@x", "orders\n", 7, 100, &id, &err), 1);
	close_ok(s);
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	assert_int_equal(spool_index(s, &err), 0);
	assert_int_equal(spool_mark_applied(s, spool_in(s, 0)->id, 200, &err), 0);
	assert_int_equal(spool_pending(s), 0);
	spool_discard(s);
	assert_int_equal(spool_sync(s, &err), -1);	/* refused from now on */
	assert_int_equal(spool_close(s, &err), 0);
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_in(s, 0)->state, SPOOL_STORED);
	close_ok(s);
	buf_free(&err);
}

/* The judge's clock: a floor for later arrivals, kept across opens, never
 * moved back. */
static void
test_clock(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal((int)spool_clock(s), 0);
	spool_set_clock(s, 1000);
	spool_set_clock(s, 900);	/* not backwards */
	assert_int_equal((int)spool_clock(s), 1000);
	close_ok(s);
	s = open_ok();
	assert_int_equal((int)spool_clock(s), 1000);
	/* Delivered at 950 by the server's clock, after the judge acted at 1000. */
	assert_int_equal(spool_store_in(s, "maildir:a", "a@x", "x\n", 2, 950, &id, &err), 1);
	assert_int_equal((int)spool_in(s, 0)->arrival, 1000);
	assert_int_equal(spool_store_in(s, "maildir:b", "b@x", "x\n", 2, 1200, &id, &err), 1);
	assert_int_equal((int)spool_in(s, 1)->arrival, 1200);
	close_ok(s);
	buf_free(&err);
}

/* A sent message in a durable file (the outbox's) is taken by a hard
 * link into out/new, not copied into a pack: the outbox's removal of its
 * own name then frees nothing. */
static void
test_sent_file_linked(void **state)
{
	struct spool *s = open_ok();
	struct buf err, raw;
	struct stat st;
	char p[256];
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&raw, 1 << 20);
	snprintf(p, sizeof p, "%s/queued", dir);
	assert_int_equal(fs_write_atomic(p, "sent\n", 5), 0);
	assert_int_equal(spool_store_out_file(s, "outbox:1", "out@judge", "a@x", p, 5, 100, &id, &err),
	    1);
	close_ok(s);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_nlink, 2);
	assert_int_equal(count_files("out/new"), 1);
	assert_int_equal(count_files("pack"), 0);
	s = open_ok();
	assert_int_equal(spool_read_out(s, 0, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "sent\n");
	close_ok(s);
	buf_free(&raw);
	buf_free(&err);
}

/* A spool an older pouch wrote (a "pouch-spool 2" ledger, a file per
 * message) still reads, a message a mail reader moved to cur/ with flags
 * too, and new messages are appended to it in packs. */
static void
test_old_spool(void **state)
{
	static const char ledger[] = "pouch-spool 2\n"
	    "in\t5.000001.pouch\t5\t6\tmaildir:m\t-\t-\t~edited\n"
	    "out\t6.000002.pouch\t6\t5\toutbox:1\tout@judge\ta@x\t~edited\n";
	struct spool *s;
	struct buf err, raw;
	char p[256];
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&raw, 1 << 20);
	s = open_ok();
	close_ok(s);
	snprintf(p, sizeof p, "%s/ledger", dir);
	assert_int_equal(fs_write_atomic(p, ledger, sizeof ledger - 1), 0);
	snprintf(p, sizeof p, "%s/in/cur/5.000001.pouch:2,S", dir);
	assert_int_equal(fs_write_atomic(p, "moved\n", 6), 0);
	snprintf(p, sizeof p, "%s/out/new/6.000002.pouch", dir);
	assert_int_equal(fs_write_atomic(p, "sent\n", 5), 0);
	s = open_ok();
	assert_int_equal(spool_read(s, "5.000001.pouch", &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "moved\n");
	buf_reset(&raw);
	assert_int_equal(spool_read_out(s, 0, &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "sent\n");
	assert_int_equal(spool_read(s, "../ledger", &raw, &err), -1);
	assert_int_equal(spool_read(s, "no-such-id", &raw, &err), -1);
	assert_int_equal(spool_store_in(s, "maildir:n", NULL, "new\n", 4, 7, &id, &err), 1);
	assert_string_equal(id, "7.000003.pouch");
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 2);
	buf_reset(&raw);
	assert_int_equal(spool_read(s, "7.000003.pouch", &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "new\n");
	buf_reset(&raw);
	assert_int_equal(spool_read(s, "5.000001.pouch", &raw, &err), 0);
	assert_string_equal(buf_str(&raw), "moved\n");
	close_ok(s);
	snprintf(p, sizeof p, "%s/ledger", dir);
	buf_reset(&raw);
	assert_int_equal(fs_read_file(p, &raw), 0);
	assert_non_null(strstr(buf_str(&raw), "\tmaildir:n\t-\t-\t000003.pack:0\t~"));
	buf_free(&raw);
	buf_free(&err);
}

static void
test_damage(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	char ledger[256], stray[256];
	const char *id;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(spool_store_in(s, "maildir:a", NULL, "a\n", 2, 5, &id, &err), 1);
	close_ok(s);
	snprintf(ledger, sizeof ledger, "%s/ledger", dir);
	/* an interrupted append: the torn record is cut off */
	assert_int_equal(fs_append_sync(ledger, "in\t9.000009.pouch\t9", 19), 0);
	snprintf(stray, sizeof stray, "%s/in/tmp/leftover", dir);
	assert_int_equal(fs_write_atomic(stray, "x", 1), 0);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 1);
	assert_false(fs_exists(stray));	/* tmp/ is cleaned */
	close_ok(s);
	/* a damaged record in the middle: refuse to open */
	assert_int_equal(fs_append_sync(ledger, "applied\tunknown-id\t7\n", 21), 0);
	s = spool_open(dir, &err);
	assert_null(s);
	assert_non_null(strstr(buf_str(&err), "ledger:3: damaged record"));
	buf_free(&err);
}

/* Every record ends with its checksum: any one byte of a record changed
 * (on a failing disk) stops spool_open with the line, never passes. A
 * "pouch-spool 1" ledger (records without checksums) is still read, and
 * appended to in its own form. */
static void
test_record_checksums(void **state)
{
	struct spool *s = open_ok();
	struct buf err, whole;
	char ledger[256], path[256];
	const char *id;
	FILE *fp;

	(void)state;
	buf_init(&err, 4096);
	buf_init(&whole, 1 << 20);
	assert_int_equal(spool_store_in(s, "maildir:a", "a@x", "a\n", 2, 5, &id, &err), 1);
	assert_int_equal(spool_store_in(s, "maildir:b", "b@x", "b\n", 2, 6, &id, &err), 1);
	assert_int_equal(spool_mark_applied(s, id, 7, &err), 0);
	spool_set_cursor(s, "imap", "7:42");
	close_ok(s);
	snprintf(ledger, sizeof ledger, "%s/ledger", dir);
	assert_int_equal(fs_read_file(ledger, &whole), 0);
	/* Each byte after the first line but the last newline (a torn last
	 * record, cut off as an interrupted write). */
	for (size_t at = strlen("pouch-spool 2\n"); at + 1 < whole.len; at++) {
		char saved = whole.data[at];
		whole.data[at] = saved == '0' ? '1' : saved == '\t' ? ' ' : '0';
		fp = fopen(ledger, "w");
		assert_non_null(fp);
		assert_int_equal(fwrite(whole.data, 1, whole.len, fp), whole.len);
		fclose(fp);
		buf_reset(&err);
		s = spool_open(dir, &err);
		if (s != NULL)
			fail_msg("the ledger with byte %zu changed was read", at);
		assert_non_null(strstr(buf_str(&err), "ledger:"));
		assert_non_null(strstr(buf_str(&err), "damaged record"));
		whole.data[at] = saved;
	}
	/* A record corrected by hand, so marked, is taken as written. */
	{
		char *cur = strstr(whole.data, "\ncursor\t") + 1, *tilde = strchr(cur, '~');
		size_t head = (size_t)(tilde - whole.data);
		fp = fopen(ledger, "w");
		assert_non_null(fp);
		assert_int_equal(fwrite(whole.data, 1, head, fp), head);
		fputs("~edited\n", fp);
		fclose(fp);
		s = open_ok();
		assert_string_equal(spool_cursor(s, "imap"), "7:42");
		close_ok(s);
	}
	/* An older ledger. */
	fp = fopen(ledger, "w");
	assert_non_null(fp);
	fputs("pouch-spool 1\nin\t1.000001.pouch\t1\t2\tmaildir:old\t-\t-\n", fp);
	fclose(fp);
	snprintf(path, sizeof path, "%s/in/new/1.000001.pouch", dir);
	assert_int_equal(fs_write_atomic(path, "o\n", 2), 0);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 1);
	assert_int_equal(spool_store_in(s, "maildir:c", NULL, "c\n", 2, 8, &id, &err), 1);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 2);
	close_ok(s);
	buf_reset(&whole);
	assert_int_equal(fs_read_file(ledger, &whole), 0);
	assert_null(strchr(buf_str(&whole), '~'));
	buf_free(&whole);
	buf_free(&err);
}

/* Overwrite the ledger with same-sized bytes, keeping its mtime: a lazy
 * open that read it would see the damage. */
static void
scribble_on_ledger(void)
{
	char ledger[256];
	struct stat st;
	struct timespec times[2];
	struct buf b;
	int fd;

	snprintf(ledger, sizeof ledger, "%s/ledger", dir);
	assert_int_equal(stat(ledger, &st), 0);
	buf_init(&b, 1 << 20);
	assert_int_equal(fs_read_file(ledger, &b), 0);
	memset(b.data + strlen("pouch-spool 2\n"), 'Z', b.len - strlen("pouch-spool 2\n") - 1);
	fd = open(ledger, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(fs_write_all(fd, b.data, b.len), 0);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	assert_int_equal(futimens(fd, times), 0);
	close(fd);
	buf_free(&b);
}

/* A lazy open takes the cursors, the clock and the count of messages to
 * apply from ledger.sum, and reads the ledger only when asked. */
static void
test_lazy_open(void **state)
{
	struct spool *s = open_ok();
	struct buf err;
	char sum[256], saved[256], cmd[600];
	const char *a, *id;

	(void)state;
	buf_init(&err, 4096);
	snprintf(sum, sizeof sum, "%s/ledger.sum", dir);
	snprintf(saved, sizeof saved, "%s/ledger.sum.saved", dir);
	assert_int_equal(spool_store_in(s, "maildir:1", "one@x", "1\n", 2, 10, &a, &err), 1);
	assert_int_equal(spool_store_in(s, "maildir:2", "two@x", "2\n", 2, 11, &id, &err), 1);
	assert_int_equal(spool_store_in(s, "maildir:3", "two@x", "2\n", 2, 12, &id, &err), 1);
	assert_int_equal(spool_pending(s), 2);	/* the duplicate never waits */
	assert_int_equal(spool_mark_applied(s, a, 20, &err), 0);
	assert_int_equal(spool_pending(s), 1);
	spool_set_cursor(s, "imap://j@h/IN\tBOX", "7:12");
	spool_set_clock(s, 30);
	close_ok(s);
	assert_true(fs_exists(sum));

	/* From the summary alone. */
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	assert_string_equal(spool_cursor(s, "imap://j@h/IN\tBOX"), "7:12");
	assert_int_equal((int)spool_clock(s), 30);
	/* A cursor set before the ledger is read is newer than the ledger's. */
	spool_set_cursor(s, "imap://j@h/IN\tBOX", "7:13");
	assert_int_equal(spool_index(s, &err), 0);
	assert_string_equal(spool_cursor(s, "imap://j@h/IN\tBOX"), "7:13");
	assert_int_equal(spool_count_in(s), 3);
	assert_int_equal(spool_in(s, 1)->state, SPOOL_STORED);
	assert_int_equal(spool_pending(s), 1);
	assert_int_equal(spool_mark_applied(s, spool_in(s, 1)->id, 40, &err), 0);
	close_ok(s);
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 0);
	assert_string_equal(spool_cursor(s, "imap://j@h/IN\tBOX"), "7:13");
	/* A run that only moves its cursor and clock keeps the summary true. */
	spool_set_clock(s, 50);
	close_ok(s);
	s = open_lazy_ok();
	assert_int_equal((int)spool_clock(s), 50);
	assert_int_equal(spool_pending(s), 0);
	close_ok(s);

	/* The lazy open did not read the ledger: a ledger scribbled over
	 * without its size or mtime changing is found only by spool_index,
	 * which then refuses, and the spool with it. */
	snprintf(cmd, sizeof cmd, "cp -p '%s/ledger' '%s/ledger.good'", dir, dir);
	assert_int_equal(system(cmd), 0);
	scribble_on_ledger();
	s = open_lazy_ok();
	assert_int_equal(spool_index(s, &err), -1);
	assert_non_null(strstr(buf_str(&err), "damaged record"));
	buf_reset(&err);
	assert_int_equal(spool_store_in(s, "maildir:4", NULL, "4\n", 2, 60, &id, &err), -1);
	spool_close(s, NULL);
	snprintf(cmd, sizeof cmd, "mv '%s/ledger.good' '%s/ledger'", dir, dir);
	assert_int_equal(system(cmd), 0);

	/* A summary of another ledger (older, or of another file), a damaged
	 * one and none: the ledger is read. */
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", sum, saved);
	assert_int_equal(system(cmd), 0);
	s = open_ok();
	assert_int_equal(spool_store_in(s, "maildir:5", "five@x", "5\n", 2, 70, &id, &err), 1);
	close_ok(s);
	snprintf(cmd, sizeof cmd, "cp '%s' '%s'", saved, sum);
	assert_int_equal(system(cmd), 0);	/* says pending 0, of the ledger before */
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	close_ok(s);	/* and writes a true one */
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	close_ok(s);
	{	/* a summary cut short (no "end" line), saying 9 wait */
		struct buf b;
		char *p;

		buf_init(&b, 1 << 16);
		assert_int_equal(fs_read_file(sum, &b), 0);
		assert_true(b.len > 4 && strcmp(b.data + b.len - 4, "end\n") == 0);
		p = strstr(b.data, "pending\t1\n");
		assert_non_null(p);
		p[strlen("pending\t")] = '9';
		assert_int_equal(fs_write_atomic(sum, b.data, b.len - 4), 0);
		buf_free(&b);
	}
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	assert_int_equal((int)spool_clock(s), 50);
	close_ok(s);
	/* one that names no ledger at all */
	assert_int_equal(fs_write_atomic(sum, "pouch-spool-summary 1\npending\t9\nend\n", 36), 0);
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	close_ok(s);
	assert_int_equal(unlink(sum), 0);
	s = open_lazy_ok();
	assert_int_equal(spool_pending(s), 1);
	assert_string_equal(spool_cursor(s, "imap://j@h/IN\tBOX"), "7:13");
	close_ok(s);
	buf_free(&err);
}

static void
test_maildir_helpers(void **state)
{
	char md[256], path[512], name[128], other[128];
	struct buf b;

	(void)state;
	snprintf(md, sizeof md, "%s/box", dir);
	assert_int_equal(md_create(md), 0);
	md_unique_name(name, sizeof name);
	md_unique_name(other, sizeof other);
	assert_string_not_equal(name, other);
	assert_int_equal(md_deliver(md, name, "hello\n", 6), 0);
	assert_int_equal(md_deliver(md, name, "again\n", 6), -1);	/* never overwritten */
	assert_int_equal(md_find(md, name, path, sizeof path), 0);
	buf_init(&b, 1024);
	assert_int_equal(fs_read_file(path, &b), 0);
	assert_string_equal(buf_str(&b), "hello\n");
	assert_int_equal(md_find(md, "missing", path, sizeof path), -1);
	/* the move into new/ never overwrites a name there either */
	{
		char from[512], to[512];
		snprintf(from, sizeof from, "%s/tmp/%s", md, name);
		snprintf(to, sizeof to, "%s/new/%s", md, name);
		assert_int_equal(fs_write_atomic(from, "other\n", 6), 0);
		assert_int_equal(md_move(from, to), -1);
		assert_int_equal(errno, EEXIST);
		assert_true(fs_exists(from));
		buf_reset(&b);
		assert_int_equal(fs_read_file(to, &b), 0);
		assert_string_equal(buf_str(&b), "hello\n");
		assert_int_equal(unlink(from), 0);
	}
	/* a batch: written to tmp/, published together */
	{
		char n1[128], n2[128], *names[2] = { n1, n2 };
		md_unique_name(n1, sizeof n1);
		md_unique_name(n2, sizeof n2);
		assert_int_equal(md_write_tmp(md, n1, "1\n", 2), 0);
		assert_int_equal(md_write_tmp(md, n2, "2\n", 2), 0);
		assert_int_equal(md_write_tmp(md, name, "x\n", 2), -1);	/* taken in new/ */
		assert_int_equal(md_publish(md, names, 2), 0);
		snprintf(path, sizeof path, "%s/new/%s", md, n2);
		assert_true(fs_exists(path));
		snprintf(path, sizeof path, "%s/tmp/%s", md, n2);
		assert_false(fs_exists(path));
	}
	/* a batch of more than a part: published in parts, every message */
	{
		enum { N = MD_PUBLISH_PART + 3 };
		char **names = calloc(N, sizeof *names);
		int i;
		assert_non_null(names);
		for (i = 0; i < N; i++) {
			names[i] = malloc(128);
			assert_non_null(names[i]);
			md_unique_name(names[i], 128);
			assert_int_equal(md_write_tmp(md, names[i], "p\n", 2), 0);
		}
		assert_int_equal(md_publish(md, names, N), 0);
		for (i = 0; i < N; i++) {
			snprintf(path, sizeof path, "%s/new/%s", md, names[i]);
			assert_true(fs_exists(path));
			snprintf(path, sizeof path, "%s/tmp/%s", md, names[i]);
			assert_false(fs_exists(path));
			free(names[i]);
		}
		free(names);
	}
	/* delivering again after a kill: a copy left in tmp/ whose other name
	 * a reader has in cur/ is replaced, the reader's file left as it was */
	{
		char n3[128], tmp[PATH_MAX], cur[PATH_MAX];
		md_unique_name(n3, sizeof n3);
		assert_int_equal(md_published(md, name), 1);	/* in new/ */
		assert_int_equal(md_published(md, n3), 0);
		assert_int_equal(md_write_fresh(md, n3, "old\n", 4, false), 0);
		assert_int_equal(md_write_fresh(md, n3, "new\n", 4, false), -1);	/* EEXIST */
		snprintf(tmp, sizeof tmp, "%s/tmp/%s", md, n3);
		snprintf(cur, sizeof cur, "%s/cur/%s:2,S", md, n3);
		assert_int_equal(link(tmp, cur), 0);
		assert_int_equal(md_published(md, n3), 0);	/* cur/NAME:2,S: not seen */
		assert_int_equal(md_write_fresh(md, n3, "new\n", 4, true), 0);
		buf_reset(&b);
		assert_int_equal(fs_read_file(cur, &b), 0);
		assert_string_equal(buf_str(&b), "old\n");
		buf_reset(&b);
		assert_int_equal(fs_read_file(tmp, &b), 0);
		assert_string_equal(buf_str(&b), "new\n");
		snprintf(cur, sizeof cur, "%s/cur/%s", md, n3);
		assert_int_equal(link(tmp, cur), 0);
		assert_int_equal(md_published(md, n3), 1);	/* in cur/ */
	}
	buf_free(&b);
}

/* The index keeps places and hashes, not the strings, in a file beside the
 * ledger: its memory does not grow with the messages however many and
 * long their sources, Message-IDs and keys, and every lookup stays exact
 * (a hash that matches is checked against the record). */
static void
test_index_memory(void **state)
{
	enum { N = 3000, LONG = 300 };
	struct spool *s = open_ok();
	struct buf err;
	char pad[LONG], src[LONG + 64], mid[LONG + 64], key[LONG + 64];
	size_t i, bytes, empty = spool_index_bytes(s);

	(void)state;
	buf_init(&err, 4096);
	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	for (i = 0; i < N; i++) {
		const char *id;
		snprintf(src, sizeof src, "maildir:%zu.%s", i, pad);
		/* every tenth repeats the Message-ID of the one before */
		snprintf(mid, sizeof mid, "%zu.%s@x", i % 10 == 9 ? i - 1 : i, pad);
		assert_int_equal(spool_store_in(s, src, mid, "m\n", 2, 1000 + (time_t)i, &id, &err), 1);
		if (i % 2 == 0 && i % 10 != 9)
			assert_int_equal(spool_mark_applied(s, id, 5000, &err), 0);
		snprintf(key, sizeof key, "outbox:%zu.%s", i, pad);
		snprintf(mid, sizeof mid, "out%zu.%s@judge", i, pad);
		assert_int_equal(spool_store_out(s, key, mid, "a@x", "o\n", 2, 5000, NULL, &err), 1);
	}
	close_ok(s);

	s = open_ok();
	bytes = spool_index_bytes(s);
	assert_true(bytes > 0);
	assert_int_equal(bytes, empty);		/* the same as with no message */
	assert_true(bytes <= (2u << 20));
	for (i = 0; i < N; i += 7) {
		const struct spool_entry *e;
		snprintf(src, sizeof src, "maildir:%zu.%s", i, pad);
		e = spool_lookup_source(s, src);
		assert_non_null(e);
		assert_string_equal(e->source, src);
		assert_int_equal(e->arrival, 1000 + (time_t)i);
		assert_int_equal(e->state, i % 10 == 9 ? SPOOL_DUPLICATE : i % 2 == 0 ? SPOOL_APPLIED :
		    SPOOL_STORED);
		assert_int_equal(spool_state(s, i), e->state);
		assert_ptr_equal(spool_lookup(s, e->id), e);
		snprintf(mid, sizeof mid, "out%zu.%s@judge", i, pad);
		assert_true(spool_sent_message_id(s, mid));
		assert_string_equal(spool_out(s, i)->message_id, mid);
	}
	assert_null(spool_lookup_source(s, "maildir:nope"));
	assert_false(spool_sent_message_id(s, "nope@judge"));
	/* an outbox key already archived is not stored again */
	snprintf(key, sizeof key, "outbox:%d.%s", N - 1, pad);
	assert_int_equal(spool_store_out(s, key, NULL, "a@x", "o\n", 2, 6000, NULL, &err), 0);
	/* a Message-ID seen long ago still makes a duplicate */
	snprintf(mid, sizeof mid, "%d.%s@x", 0, pad);
	assert_int_equal(spool_store_in(s, "maildir:late", mid, "m\n", 2, 9000, NULL, &err), 1);
	assert_int_equal(spool_in(s, N)->state, SPOOL_DUPLICATE);
	assert_string_equal(spool_in(s, N)->dup_of, spool_in(s, 0)->id);
	close_ok(s);
	buf_free(&err);
}

/* A batch of many messages, stored without a sync between them (a run
 * fetching a big mailbox), keeps its records waiting to be written no
 * bigger than some MB: it is committed in parts, every message stored
 * once and found again. */
static void
test_batch_bounded(void **state)
{
	enum { N = 6000, LONG = 600 };
	struct spool *s = open_ok();
	struct buf err;
	char pad[LONG], src[LONG + 64];
	size_t i, most = 0;

	(void)state;
	buf_init(&err, 4096);
	memset(pad, 'x', sizeof pad - 1);
	pad[sizeof pad - 1] = '\0';
	for (i = 0; i < N; i++) {
		snprintf(src, sizeof src, "maildir:%zu.%s", i, pad);
		assert_int_equal(spool_store_in(s, src, NULL, "m\n", 2, 1000 + (time_t)i, NULL,
		    &err), 1);
		if (spool_pending_bytes(s) > most)
			most = spool_pending_bytes(s);
	}
	/* the records are more than N * LONG bytes: 3.6 MB */
	assert_true(most <= ((size_t)2 << 20));
	/* stored again, each is known */
	snprintf(src, sizeof src, "maildir:%d.%s", 17, pad);
	assert_int_equal(spool_store_in(s, src, NULL, "m\n", 2, 9000, NULL, &err), 0);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_count_in(s), N);
	for (i = 0; i < N; i += 997) {
		snprintf(src, sizeof src, "maildir:%zu.%s", i, pad);
		assert_non_null(spool_lookup_source(s, src));
		assert_int_equal(spool_in(s, i)->arrival, 1000 + (time_t)i);
	}
	close_ok(s);
	buf_free(&err);
}

/* An id of another form than pouch gives (a ledger edited by hand, an
 * older pouch) is found by its record. */
static void
test_other_ids(void **state)
{
	static const char ledger[] = "pouch-spool 1\n"
	    "in\tby-hand\t100\t2\tmaildir:a\ta@x\t-\n"
	    "in\t0100.1.pouch\t101\t2\tmaildir:b\tb@x\t-\n"
	    "applied\tby-hand\t102\n";
	char p[256];
	struct spool *s;
	struct buf err;

	(void)state;
	buf_init(&err, 4096);
	snprintf(p, sizeof p, "%s/ledger", dir);
	assert_int_equal(fs_write_atomic(p, ledger, sizeof ledger - 1), 0);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 2);
	assert_int_equal(spool_lookup(s, "by-hand")->state, SPOOL_APPLIED);
	assert_int_equal(spool_lookup(s, "0100.1.pouch")->state, SPOOL_STORED);
	assert_null(spool_lookup(s, "100.1.pouch"));
	assert_int_equal(spool_mark_applied(s, "0100.1.pouch", 103, &err), 0);
	close_ok(s);
	s = open_ok();
	assert_int_equal(spool_lookup(s, "0100.1.pouch")->state, SPOOL_APPLIED);
	close_ok(s);
	buf_free(&err);
}

/* The spool's counts, states and lookups for the messages test_index_*
 * store: n inbound ("maildir:K", Message-ID "mK@x", text "text K % 7"),
 * every third applied; one sent per inbound ("outbox:K"). */
static void
index_fill(struct spool *s, size_t from, size_t n)
{
	struct buf err;
	char src[64], mid[64], text[64];

	buf_init(&err, 4096);
	for (size_t k = from; k < from + n; k++) {
		const char *id;
		snprintf(src, sizeof src, "maildir:%zu", k);
		snprintf(mid, sizeof mid, "m%zu@x", k);
		snprintf(text, sizeof text, "Subject: s\n\ntext %zu\n", k % 7);
		assert_int_equal(spool_store_in(s, src, mid, text, strlen(text), 100 + (time_t)k,
		    &id, &err), 1);
		if (k % 3 == 0)
			assert_int_equal(spool_mark_applied(s, id, 500, &err), 0);
		snprintf(src, sizeof src, "outbox:%zu", k);
		assert_int_equal(spool_store_out(s, src, NULL, "a@x", "o\n", 2, 500, NULL, &err), 1);
	}
	assert_int_equal(spool_sync(s, &err), 0);
	buf_free(&err);
}

static void
index_check(size_t n)
{
	struct spool *s = open_ok();
	struct buf err;
	char src[64], mid[64], text[64];
	size_t pending = 0;

	buf_init(&err, 4096);
	assert_int_equal(spool_count_in(s), n);
	assert_int_equal(spool_count_out(s), n);
	for (size_t k = 0; k < n; k++) {
		const struct spool_entry *e;
		pending += k % 3 != 0;
		snprintf(src, sizeof src, "maildir:%zu", k);
		e = spool_lookup_source(s, src);
		assert_non_null(e);
		assert_ptr_equal(e, spool_in(s, k));
		assert_int_equal(e->arrival, 100 + (time_t)k);
		assert_int_equal(spool_state(s, k), k % 3 == 0 ? SPOOL_APPLIED : SPOOL_STORED);
		assert_ptr_equal(spool_lookup(s, e->id), e);
		snprintf(src, sizeof src, "outbox:%zu", k);
		assert_string_equal(spool_out(s, k)->key, src);
	}
	assert_int_equal(spool_pending(s), pending);
	assert_null(spool_lookup_source(s, "maildir:none"));
	/* a source seen, however long ago, is not stored again; a copy of
	 * the first message under its Message-ID is one */
	assert_int_equal(spool_store_in(s, "maildir:0", NULL, "x\n", 2, 900, NULL, &err), 0);
	assert_int_equal(spool_store_out(s, "outbox:0", NULL, "a@x", "o\n", 2, 900, NULL, &err), 0);
	snprintf(mid, sizeof mid, "m%d@x", 0);
	snprintf(text, sizeof text, "Subject: again\n\ntext %d\n", 0);
	assert_int_equal(spool_store_in(s, "maildir:copy", mid, text, strlen(text), 900, NULL, &err),
	    1);
	assert_int_equal(spool_in(s, n)->state, SPOOL_DUPLICATE);
	assert_string_equal(spool_in(s, n)->dup_of, spool_in(s, 0)->id);
	spool_discard(s);
	close_ok(s);
	buf_free(&err);
}

/* Open and close the spool: whether the index was made again from the
 * ledger (what the open said on stderr). */
static bool
made_again(void)
{
	char p[256];
	struct buf b;
	int fd, save;
	bool r;

	snprintf(p, sizeof p, "%s/stderr", dir);
	fflush(stderr);
	save = dup(2);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(save >= 0 && fd >= 0);
	dup2(fd, 2);
	close(fd);
	log_set_level(LOG_INFO);
	close_ok(open_ok());
	log_set_level(LOG_WARN);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	buf_init(&b, 1 << 20);
	assert_int_equal(fs_read_file(p, &b), 0);
	r = strstr(buf_str(&b), "index: made again from the ledger") != NULL;
	buf_free(&b);
	unlink(p);
	return r;
}

static void
copy_file(const char *from, const char *to)
{
	struct buf b;

	buf_init(&b, 64u << 20);
	assert_int_equal(fs_read_file(from, &b), 0);
	assert_int_equal(fs_write_atomic(to, b.data, b.len), 0);
	buf_free(&b);
}

/* The index is trusted when it was closed whole for the ledger as it is:
 * then the ledger is not read at all (a byte of it changed behind the
 * spool's back, its mtime put back, goes unnoticed at the open). It is
 * made again, from the whole ledger, when it is missing, damaged, or
 * describes another ledger; and one that describes the ledger before
 * records were appended is brought up to date from the records after. */
static void
test_index_trusted_or_rebuilt(void **state)
{
	struct spool *s = open_ok();
	char ledger[256], index[256], old[256];
	struct stat st;
	struct timespec t[2];
	int fd;

	(void)state;
	snprintf(ledger, sizeof ledger, "%s/ledger", dir);
	snprintf(index, sizeof index, "%s/index", dir);
	snprintf(old, sizeof old, "%s/index.old", dir);
	char was;

	index_fill(s, 0, 40);
	close_ok(s);
	assert_true(fs_exists(index));
	assert_false(made_again());
	index_check(40);
	copy_file(index, old);
	/* records appended since: read from where the index stops */
	s = open_ok();
	index_fill(s, 40, 30);
	close_ok(s);
	copy_file(old, index);
	assert_false(made_again());
	index_check(70);

	/* a ledger changed in the middle, its mtime put back: not read */
	assert_int_equal(stat(ledger, &st), 0);
	fd = open(ledger, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &was, 1, 40), 1);
	assert_int_equal(pwrite(fd, was == 'Z' ? "Y" : "Z", 1, 40), 1);	/* in the first record */
	close(fd);
	t[0] = st.st_atim;
	t[1] = st.st_mtim;
	assert_int_equal(utimensat(AT_FDCWD, ledger, t, 0), 0);
	s = open_ok();
	assert_int_equal(spool_count_in(s), 70);
	close_ok(s);
	/* without the index it is read, and the damage found */
	assert_int_equal(unlink(index), 0);
	{
		struct buf err;
		buf_init(&err, 4096);
		assert_null(spool_open(dir, &err));
		assert_non_null(strstr(buf_str(&err), "ledger:2: damaged record"));
		buf_free(&err);
	}
	fd = open(ledger, O_WRONLY);
	assert_int_equal(pwrite(fd, &was, 1, 40), 1);	/* mended */
	close(fd);
	assert_true(made_again());	/* missing */
	index_check(70);

	/* a byte of the index's header changed; the index cut short */
	fd = open(index, O_WRONLY);
	assert_int_equal(pwrite(fd, "\x7f", 1, 30), 1);
	close(fd);
	assert_true(made_again());
	index_check(70);
	assert_int_equal(truncate(index, 5000), 0);
	assert_true(made_again());
	index_check(70);
	/* an index of another ledger (the same bytes in a new file): made
	 * again */
	s = open_ok();
	index_fill(s, 70, 5);
	close_ok(s);
	copy_file(ledger, old);		/* ledger, new inode, same bytes */
	assert_int_equal(rename(old, ledger), 0);
	assert_true(made_again());
	index_check(75);
}

/* A run killed after its ledger was synced, before the index was closed:
 * a small one (its pages still in memory: the index on disk describes the
 * ledger before) and a big one (pages written back: the index says it is
 * not whole). Either way the next open takes every record as the ledger
 * has it: nothing is stored twice or applied twice. */
static void
test_index_killed(void **state)
{
	static const size_t sizes[] = { 5, 12000 };
	struct spool *s = open_ok();
	size_t done = 3;

	(void)state;
	index_fill(s, 0, done);
	close_ok(s);
	for (size_t r = 0; r < 2; r++) {
		pid_t pid = fork();
		int status;

		assert_true(pid >= 0);
		if (pid == 0) {
			struct spool *c = spool_open(dir, NULL);
			if (c == NULL)
				_exit(2);
			index_fill(c, done, sizes[r]);
			_exit(0);	/* as killed: no close */
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		done += sizes[r];
		/* the small one's index describes the ledger before it */
		assert_int_equal(made_again(), r == 1);
		index_check(done);
	}
}

/* The index file's own parts: slots and places by position, hash tables
 * with many keys of one hash (a collision: each position given once, in
 * the order put), growing past their first room, all read back. */
static void
test_index_file(void **state)
{
	enum { N = 5000 };
	char path[256];
	struct ix *x;
	size_t at, pos, seen;

	(void)state;
	snprintf(path, sizeof path, "%s/index", dir);
	x = ix_open(path);
	assert_non_null(x);
	for (size_t i = 0; i < N; i++) {
		struct islot sl = { .off = i * 10, .rec_in = (uint32_t)i, .state = (uint8_t)(i % 3) };
		ix_put_in(x, i, &sl);
		ix_add_out(x, i * 7);
		ix_put(x, IX_ID, 42, i);			/* all one hash */
		ix_put(x, IX_SOURCE, (uint32_t)i * 2654435761u, i);
	}
	assert_false(ix_failed(x));
	assert_int_equal(ix_count_in(x), N);
	for (size_t i = 0; i < N; i++) {
		struct islot sl;
		ix_get_in(x, i, &sl);
		assert_int_equal(sl.off, i * 10);
		assert_int_equal(sl.rec_in, i);
		assert_int_equal(ix_get_out(x, i), i * 7);
		at = SIZE_MAX;
		assert_int_equal(ix_next(x, IX_SOURCE, (uint32_t)i * 2654435761u, &at), i);
	}
	at = SIZE_MAX;
	for (seen = 0; (pos = ix_next(x, IX_ID, 42, &at)) != SIZE_MAX; seen++)
		assert_int_equal(pos, seen);
	assert_int_equal(seen, N);
	at = SIZE_MAX;
	assert_int_equal(ix_next(x, IX_ID, 43, &at), SIZE_MAX);
	at = SIZE_MAX;
	assert_int_equal(ix_next(x, IX_MSGID, 42, &at), SIZE_MAX);
	ix_close(x);
	/* never committed: not whole */
	x = ix_open(path);
	{
		struct ix_stamp st;
		struct buf meta;
		buf_init(&meta, 4096);
		assert_non_null(ix_whole(x, &st, &meta));
		buf_free(&meta);
	}
	ix_close(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_store_and_reload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_duplicates_and_applied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mark_applied_at, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_out_and_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ids_after_kills, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_old_spool, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_record_checksums, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lazy_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_maildir_helpers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_trusted_or_rebuilt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_killed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_next_seq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sent_file_linked, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
