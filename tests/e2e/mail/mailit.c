/*
 * mailit.c — a helper for the mail integration tests (tests/e2e/mail/run.sh):
 * queues mail as the judge would and reports what the spool and the
 * outbox hold, through the same APIs the judge uses.
 *
 *	mailit queue DATA COUNT RCPT...	queue COUNT messages to RCPT...
 *	mailit inbound DATA		one line per inbound message, parsed
 *	mailit counts DATA		"in=N stored=N applied=N duplicate=N out=N outbox=N failed=N"
 *
 * DATA is a data directory; its pouch.conf, when there is one, is read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../../lib/fsio.h"
#include "../../../lib/str.h"
#include "../../../lib/xalloc.h"
#include "../../../mailer/mailer.h"

static int
ignore_key(void *arg, const char *key, const char *value, const char *file, int line,
    struct buf *err)
{
	(void)arg;
	(void)key;
	(void)value;
	(void)file;
	(void)line;
	(void)err;
	return 0;
}

static int
load(const char *data, struct mail_config *cfg)
{
	char path[4096];
	struct buf err;
	int r = 0;

	mail_config_init(cfg, data);
	snprintf(path, sizeof path, "%s/pouch.conf", data);
	if (!fs_exists(path))
		return 0;
	buf_init(&err, 1 << 16);
	if (mail_config_read(cfg, path, ignore_key, NULL, &err) < 0) {
		fprintf(stderr, "mailit: %s", buf_str(&err));
		r = -1;
	}
	buf_free(&err);
	return r;
}

static struct spool *
open_spool(const char *data)
{
	char *dir = mail_spool_dir(data);
	struct buf err;
	struct spool *sp;

	buf_init(&err, 1 << 16);
	sp = spool_open(dir, &err);
	if (sp == NULL)
		fprintf(stderr, "mailit: %s", buf_str(&err));
	buf_free(&err);
	free(dir);
	return sp;
}

static int
cmd_queue(const char *data, int count, char **rcpts, int nrcpts)
{
	struct mail_config cfg;
	struct outbox *ob;
	struct buf err;
	char *dir, *sdir, *packs;
	time_t now = time(NULL);
	int i, r = 0;

	if (load(data, &cfg) < 0)
		return 1;
	buf_init(&err, 1 << 16);
	dir = mail_outbox_dir(data);
	sdir = mail_spool_dir(data);
	packs = mail_outbox_packs(sdir);
	ob = outbox_open(dir, packs, &err);
	free(dir);
	free(sdir);
	free(packs);
	for (i = 0; ob != NULL && i < count && r == 0; i++) {
		struct outmsg m;
		char subject[64], text[256], msgid[128];

		memset(&m, 0, sizeof m);
		snprintf(subject, sizeof subject, "Spring 1901 r\xc3\xa9sultats %d", i);
		snprintf(text, sizeof text, "Message %d of %d.\nA Par-Bur succeeds.\n\xe2\x9c\x93 done\n", i,
		    count);
		snprintf(msgid, sizeof msgid, "mailit.%lld.%d@%s", (long long)now, i,
		    mail_config_domain(&cfg));
		m.to = rcpts;
		m.nto = nrcpts;
		m.subject = subject;
		m.text = text;
		m.game = (char *)(uintptr_t)"game1";
		m.date = now;
		m.message_id = msgid;
		r = mail_queue(ob, &cfg, &m, now, NULL, &err);
	}
	if (ob != NULL && r == 0)
		r = outbox_sync(ob, &err);
	if (ob == NULL || r < 0)
		fprintf(stderr, "mailit: %s", buf_str(&err));
	outbox_close(ob);
	buf_free(&err);
	mail_config_free(&cfg);
	return ob == NULL || r < 0;
}

static int
cmd_inbound(const char *data)
{
	static const char *const kinds[] = { "normal", "auto", "bulk", "bounce", "own" };
	static const char *const states[] = { "stored", "applied", "duplicate" };
	struct mail_config cfg;
	struct mime_opts mo;
	struct spool *sp;
	struct buf err;
	size_t i;

	if (load(data, &cfg) < 0 || (sp = open_spool(data)) == NULL)
		return 1;
	mail_mime_opts(&cfg, &mo);
	buf_init(&err, 1 << 16);
	for (i = 0; i < spool_count_in(sp); i++) {
		const struct spool_entry *e = spool_in(sp, i);
		struct inmsg m;

		if (mail_read(sp, e, &mo, &m, &err) < 0) {
			fprintf(stderr, "mailit: %s", buf_str(&err));
			continue;
		}
		printf("%s %s %s from=%s tag=%s bounced=%d subject=%s\n", e->id, states[e->state],
		    kinds[m.kind], m.from_addr ? m.from_addr : "-", m.to_tag ? m.to_tag : "-", m.nbounced,
		    m.subject ? m.subject : "-");
		inmsg_free(&m);
	}
	spool_close(sp, NULL);
	buf_free(&err);
	mail_config_free(&cfg);
	return 0;
}

static int
cmd_counts(const char *data)
{
	struct outbox_failure *fv = NULL;
	struct outbox *ob;
	struct spool *sp;
	struct buf err;
	char *dir, *sdir, *packs;
	int n[3] = { 0, 0, 0 }, nf;
	size_t i;

	if ((sp = open_spool(data)) == NULL)
		return 1;
	for (i = 0; i < spool_count_in(sp); i++)
		n[spool_state(sp, i)]++;
	buf_init(&err, 1 << 16);
	dir = mail_outbox_dir(data);
	sdir = mail_spool_dir(data);
	packs = mail_outbox_packs(sdir);
	ob = outbox_open(dir, packs, &err);
	free(dir);
	free(sdir);
	free(packs);
	if (ob == NULL) {
		fprintf(stderr, "mailit: %s", buf_str(&err));
		return 1;
	}
	nf = outbox_failures(ob, &fv, &err);
	printf("in=%zu stored=%d applied=%d duplicate=%d out=%zu outbox=%d failed=%d\n",
	    spool_count_in(sp), n[SPOOL_STORED], n[SPOOL_APPLIED], n[SPOOL_DUPLICATE],
	    spool_count_out(sp), outbox_count(ob), nf);
	outbox_failures_free(fv, nf > 0 ? nf : 0);
	outbox_close(ob);
	spool_close(sp, NULL);
	buf_free(&err);
	return 0;
}

int
main(int argc, char **argv)
{
	long count;

	if (argc >= 5 && strcmp(argv[1], "queue") == 0 &&
	    str_to_long(argv[3], 1, 100000, &count) == 0)
		return cmd_queue(argv[2], (int)count, argv + 4, argc - 4);
	if (argc == 3 && strcmp(argv[1], "inbound") == 0)
		return cmd_inbound(argv[2]);
	if (argc == 3 && strcmp(argv[1], "counts") == 0)
		return cmd_counts(argv[2]);
	fprintf(stderr, "usage: mailit queue DATA COUNT RCPT... | inbound DATA | counts DATA\n");
	return 2;
}
