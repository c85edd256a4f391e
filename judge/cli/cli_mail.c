/*
 * cli_mail.c — pouch fetch and pouch send, for operators and tests.
 *
 *	pouch [--data DIR] [--config FILE] fetch
 *	pouch [--data DIR] [--config FILE] send [--now TIME]
 *	pouch read-mail FILE...
 *
 * The configuration is --config FILE, else DATA/pouch.conf when it
 * exists, else the embedded defaults, read and checked as by pouch run
 * (judge/shell/conf.h): an unknown key is reported with FILE:LINE.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "../shell/conf.h"
#include "../shell/run.h"
#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../mailer/mailer.h"
#include "../../spool/spool.h"

/* Data directory and configuration for a mail command (the same file and
 * checks as pouch run: conf.h); 0 or -1 (printed). The mail settings are
 * moved into cfg. */
static int
load(const struct cli_opts *o, const char *cmd, struct mail_config *cfg)
{
	struct pouch_conf pc;
	struct buf err;
	int r = 0;

	if (!cli_data_exists(o, cmd))
		return -1;	/* pouch run or game new makes it, not a mail step alone */
	buf_init(&err, BUF_ERRORS_MAX);
	if (conf_load(&pc, o->config, cli_data_dir(o), &err) < 0) {
		cli_print_err(cmd, &err);
		r = -1;
	}
	buf_free(&err);
	*cfg = pc.mail;
	memset(&pc.mail, 0, sizeof pc.mail);
	conf_free(&pc);
	if (r < 0)
		mail_config_free(cfg);
	return r;
}

/* What both commands need: the configuration and the open spool. Returns
 * 0, or -1 after printing why (nothing to release then). */
static int
begin(const struct cli_opts *o, const char *cmd, struct mail_config *cfg, struct spool **sp,
    struct buf *err)
{
	char *dir;

	if (load(o, cmd, cfg) < 0)
		return -1;
	buf_init(err, BUF_ERRORS_MAX);
	dir = mail_spool_dir(cli_data_dir(o));
	*sp = spool_open(dir, err);
	free(dir);
	if (*sp == NULL) {
		cli_print_err(cmd, err);
		buf_free(err);
		mail_config_free(cfg);
		return -1;
	}
	return 0;
}

/* Close the spool, print the errors of a failed run, release. Returns
 * the exit status. */
static int
end(const char *cmd, int r, struct mail_config *cfg, struct spool *sp, struct buf *err)
{
	if (spool_close(sp, err) < 0)
		r = -1;
	if (r < 0)
		cli_print_err(cmd, err);
	buf_free(err);
	mail_config_free(cfg);
	return r < 0 ? 1 : 0;
}

int
cli_fetch(const struct cli_opts *o, int argc, char **argv)
{
	struct mail_config cfg;
	struct fetch_stats st;
	struct mail_source *src;
	struct spool *sp;
	struct buf err;
	int r;

	(void)argv;
	if (argc != 1) {
		return cli_usage("fetch", stderr);
	}
	if (begin(o, "fetch", &cfg, &sp, &err) < 0)
		return 1;
	src = source_from_config(&cfg);
	r = mail_fetch(src, sp, time(NULL), &st, &err);
	if (r == 0 || st.fetched > 0) {
		printf("%s: %d new messages: %d stored, %d already in the spool, %d duplicates",
		    src->name, st.fetched, st.stored, st.known, st.duplicates);
		if (src->commands > 0)
			printf(" (%d IMAP commands)", src->commands);
		printf("\n");
	}
	source_free(src);
	return end("fetch", r, &cfg, sp, &err);
}

int
cli_send(const struct cli_opts *o, int argc, char **argv)
{
	struct mail_config cfg;
	struct outbox_stats st;
	struct outbox_failure *fv = NULL;
	struct outbox *ob;
	struct spool *sp;
	struct buf err;
	time_t now = time(NULL);
	char *dir, *packs;
	const char *drop = NULL;
	int r, i, nf;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--now") == 0 && i + 1 < argc &&
		    cli_parse_now(argv[i + 1], &now) == 0) {
			i++;
		} else if (strcmp(argv[i], "--drop") == 0 && i + 1 < argc) {
			drop = argv[++i];
		} else {
			return cli_usage("send", stderr);
		}
	}
	if (begin(o, "send", &cfg, &sp, &err) < 0)
		return 1;
	dir = mail_outbox_dir(cli_data_dir(o));
	packs = mail_outbox_packs(spool_dir(sp));
	ob = outbox_open(dir, packs, &err);
	free(dir);
	free(packs);
	if (ob == NULL)
		return end("send", -1, &cfg, sp, &err);
	if (drop != NULL) {	/* the host's decision: nothing is sent */
		r = outbox_drop(ob, drop, &err);
		if (r == 0) {
			char line[600];
			printf("dropped %s; %d left in the outbox\n", drop, outbox_count(ob));
			/* what the judge made and never sent: a difference for good */
			snprintf(line, sizeof line, "outbox message %.200s dropped unsent by the host "
			    "(pouch send --drop): pouch replay --verify lists the mail the replay makes "
			    "in its place as made by the replay only", drop);
			r = runner_log_line(cli_data_dir(o), now, line, &err);
		}
		outbox_close(ob);
		return end("send", r, &cfg, sp, &err);
	}
	r = mail_send(ob, &cfg, sp, now, &st, &err);
	if (runner_log_notes(cli_data_dir(o), now, &st.notes, &st.nnotes, &err) < 0)
		r = -1;
	printf("sent %d, deferred %d, waiting %d, %d recipients failed for good; %d left in the outbox\n",
	    st.sent, st.deferred, st.waiting, st.failed_rcpts, outbox_count(ob));
	nf = outbox_failures(ob, &fv, &err);
	for (i = 0; i < nf; i++)
		printf("  failed: %s to %s: %s\n", fv[i].id, fv[i].rcpt, fv[i].reason);
	outbox_failures_free(fv, nf > 0 ? nf : 0);
	outbox_close(ob);
	return end("send", nf < 0 ? -1 : r, &cfg, sp, &err);
}

/* Whether the n bytes at raw begin as a mail message: a header field
 * ("Name: value", after an mbox "From " line if any), and no NUL byte
 * before the text. */
static bool
looks_like_mail(const char *raw, size_t n)
{
	size_t i = 0, k;

	if (n >= 5 && memcmp(raw, "From ", 5) == 0)
		while (i < n && raw[i++] != '\n')
			;
	for (k = i; k < n && raw[k] > ' ' && raw[k] < 127 && raw[k] != ':'; k++)
		;
	if (k == i || k >= n || raw[k] != ':')
		return false;
	for (k = i; k < n; k++) {
		if (raw[k] == '\0')
			return false;
		if (raw[k] == '\n' && (k + 1 == n || raw[k + 1] == '\n' ||
		    (raw[k + 1] == '\r' && k + 2 < n && raw[k + 2] == '\n')))
			break;	/* the blank line: the text follows */
	}
	return true;
}

/* Write s (UTF-8); a control character (but a line end and a tab in
 * text), also one of the C1 range (U+0080 to U+009F, which a terminal may
 * take for ESC sequences), is shown as '?': no byte of a message drives
 * the terminal. */
static void
put_shown(const char *s, bool text)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if ((*p < 32 && !(text && (*p == '\n' || *p == '\t'))) || *p == 127)
			putchar('?');
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			putchar('?');
			p++;
		} else
			putchar(*p);
	}
}

/* Print a message file as the judge reads it: the headers it uses and the
 * text (decoded, UTF-8). */
int
cli_read_mail(const struct cli_opts *o, int argc, char **argv)
{
	struct mime_opts mo;
	struct buf raw;
	int i, status = 0;

	(void)o;
	if (argc < 2) {
		return cli_usage("read-mail", stderr);
	}
	mime_opts_init(&mo);
	mo.max_raw = 64u << 20;
	mo.max_lines = 1000000;
	buf_init(&raw, 64u << 20);
	for (i = 1; i < argc; i++) {
		struct inmsg m;
		buf_reset(&raw);
		if (fs_read_file(argv[i], &raw) < 0) {
			fprintf(stderr, "pouch read-mail: %s: %s\n", argv[i], strerror(errno));
			status = 1;
			continue;
		}
		if (!looks_like_mail(raw.data, raw.len)) {
			fprintf(stderr, "pouch read-mail: %s: not a mail message (it does not begin "
			    "with header lines such as \"From: ...\")\n", argv[i]);
			status = 1;
			continue;
		}
		mime_parse(buf_str(&raw), raw.len, &mo, &m);
		if (argc > 2)
			printf("==> %s\n", argv[i]);
		fputs("From: ", stdout);
		put_shown(m.from_addr ? m.from_addr : "", false);
		fputs("\nSubject: ", stdout);
		put_shown(m.subject ? m.subject : "", false);
		fputs("\n\n", stdout);
		put_shown(m.text, true);
		if (*m.text && m.text[strlen(m.text) - 1] != '\n')
			putchar('\n');
		inmsg_free(&m);
	}
	buf_free(&raw);
	return status;
}

/* pouch spool [--spool dir] list | show id ...: what the spool holds (one
 * line a message: in or out, id, time, bytes, Message-ID), or the raw
 * bytes of messages, as received or sent. */
int
cli_spool(const struct cli_opts *o, int argc, char **argv)
{
	const char *dir = NULL;
	char dflt[1100];
	struct spool *sp;
	struct buf err, raw;
	int i = 1, status = 0;
	size_t k;

	if (i + 1 < argc && strcmp(argv[i], "--spool") == 0) {
		dir = argv[i + 1];
		i += 2;
	}
	if (i >= argc || (strcmp(argv[i], "list") != 0 && strcmp(argv[i], "show") != 0) ||
	    (strcmp(argv[i], "show") == 0 && i + 1 >= argc))
		return cli_usage("spool", stderr);
	if (dir == NULL) {
		snprintf(dflt, sizeof dflt, "%s/spool", cli_data_dir(o));
		dir = dflt;
	}
	if (!fs_exists(dir)) {
		fprintf(stderr, "pouch spool: there is no spool %s\n", dir);
		return 1;
	}
	buf_init(&err, 4096);
	if ((sp = spool_open(dir, &err)) == NULL) {
		fprintf(stderr, "pouch spool: %s", buf_str(&err));
		buf_free(&err);
		return 1;
	}
	buf_init(&raw, (size_t)1 << 30);
	if (strcmp(argv[i], "list") == 0) {
		for (k = 0; k < spool_count_in(sp); k++) {
			const struct spool_entry *e = spool_in(sp, k);
			if (e != NULL)
				printf("in\t%s\t%lld\t%zu\t%s\n", e->id, (long long)e->arrival, e->size,
				    e->message_id ? e->message_id : "-");
		}
		for (k = 0; k < spool_count_out(sp); k++) {
			const struct spool_sent *e = spool_out(sp, k);
			if (e != NULL)
				printf("out\t%s\t%lld\t%zu\t%s\n", e->id, (long long)e->time, e->size,
				    e->message_id ? e->message_id : "-");
		}
	}
	for (i++; strcmp(argv[i - 1], "list") != 0 && i < argc; i++) {
		buf_reset(&raw);
		if (spool_read(sp, argv[i], &raw, &err) < 0) {
			fprintf(stderr, "pouch spool: %s", buf_str(&err));
			buf_reset(&err);
			status = 1;
			continue;
		}
		fwrite(raw.data, 1, raw.len, stdout);
	}
	spool_close(sp, NULL);
	buf_free(&raw);
	buf_free(&err);
	return fflush(stdout) == 0 ? status : 1;
}
