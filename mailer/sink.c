/*
 * sink.c — the generic part of mail sinks, and the Maildir sink.
 *
 * The Maildir sink is the embedded default: each recipient gets a
 * Maildir DIR/ADDRESS/ (created on first use), which a local POP/IMAP
 * server or a mail reader can serve. Delivery is durable (maildir.h)
 * before the recipient counts as accepted.
 */
#include "sink.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../spool/maildir.h"
#include "address.h"

void
sink_set_all(struct rcpt_result *res, int n, enum rcpt_status status, int code, const char *text)
{
	int i;

	for (i = 0; i < n; i++) {
		res[i].status = status;
		res[i].code = code;
		str_copy(res[i].text, text, sizeof res[i].text);
	}
}

int
sink_open(struct mail_sink *k, struct buf *err)
{
	return k->ops->open(k, err);
}

int
sink_send(struct mail_sink *k, const char *from, char *const *rcpts, int n, const char *data,
    size_t len, struct rcpt_result *res, struct buf *err)
{
	return k->ops->send(k, from, rcpts, n, data, len, res, err);
}

void
sink_free(struct mail_sink *k)
{
	if (k == NULL)
		return;
	k->ops->close(k);
	free(k->name);
	free(k);
}

struct mail_sink *
sink_from_config(const struct mail_config *cfg)
{
	if (cfg->smtp_url != NULL && *cfg->smtp_url != '\0')
		return sink_smtp_new(cfg);
	return sink_maildir_new(cfg->maildir_out);
}

/* --- Maildir ------------------------------------------------------------ */

static int
mds_open(struct mail_sink *k, struct buf *err)
{
	(void)k;
	(void)err;
	return 0;
}

static int
mds_send(struct mail_sink *k, const char *from, char *const *rcpts, int n, const char *data,
    size_t len, struct rcpt_result *res, struct buf *err)
{
	const char *dir = k->priv;
	int i;

	(void)from;
	(void)err;
	for (i = 0; i < n; i++) {
		char box[PATH_MAX], name[128], why[200], *a, *c;

		if (!addr_valid(rcpts[i])) {
			sink_set_all(&res[i], 1, RCPT_PERMFAIL, 553, "invalid address");
			continue;
		}
		a = str_lower(xstrdup(rcpts[i]));
		for (c = a; *c; c++)
			if (*c == '/')	/* legal in a local part, not in a file name */
				*c = '_';
		snprintf(box, sizeof box, "%s/%s", dir, a);
		free(a);
		md_unique_name(name, sizeof name);
		if (md_create(box) < 0 || md_deliver(box, name, data, len, true) < 0) {
			snprintf(why, sizeof why, "cannot deliver into %.100s: %.60s", box, strerror(errno));
			sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0, why);
			continue;
		}
		sink_set_all(&res[i], 1, RCPT_OK, 250, "delivered");
	}
	return 0;
}

static void
mds_close(struct mail_sink *k)
{
	free(k->priv);
	k->priv = NULL;
}

static const struct sink_ops maildir_sink_ops = { mds_open, mds_send, mds_close };

struct mail_sink *
sink_maildir_new(const char *dir)
{
	struct mail_sink *k = xcalloc(1, sizeof *k);
	size_t n = strlen(dir) + 16;

	k->ops = &maildir_sink_ops;
	k->priv = xstrdup(dir);
	k->name = xmalloc(n);
	snprintf(k->name, n, "maildir:%s", dir);
	return k;
}
