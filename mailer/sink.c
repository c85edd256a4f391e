/*
 * sink.c — the generic part of mail sinks, and the Maildir sink.
 *
 * The Maildir sink is the embedded default: each recipient gets a
 * Maildir DIR/ADDRESS/ (created on first use), which a local POP/IMAP
 * server or a mail reader can serve. Messages are written to tmp/ as they
 * are sent and published in a batch by sink_sync (maildir.h): one journal
 * commit for the files and one per recipient's new/, not one per message.
 * So a delivery counts only once sink_sync returned (k->staged).
 *
 * A message is filed under its key (the outbox's id): a run killed before
 * it could record the batch sends it again, and then a message already in
 * new/ or cur/ is not delivered twice, and its copy a killed run left in
 * tmp/ is replaced. At a message's first try (k->first_try: queued by
 * the same process, never given to a sink) there is nothing to look for,
 * and the sink does not look. A mail reader that renamed it (cur/KEY:2,S) between
 * the two runs gets it twice. Files in tmp/ older than 36 hours (left by
 * anything) are removed when the sink first uses a Maildir in a run.
 */
#include "sink.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/fsio.h"
#include "../lib/str.h"
#include "../lib/strset.h"
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
sink_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	return k->ops->send(k, key, from, rcpts, n, data, len, res, err);
}

int
sink_send_many(struct mail_sink *k, struct sink_msg *v, int n, struct buf *err)
{
	int i;

	if (k->ops->send_many != NULL)
		return k->ops->send_many(k, v, n, err);
	for (i = 0; i < n; i++) {
		k->first_try = v[i].first_try;
		if (sink_send(k, v[i].key, v[i].from, v[i].rcpts, v[i].n, v[i].data, v[i].len,
		    v[i].res, err) < 0) {
			while (++i < n)	/* the rest waits for a later run */
				sink_set_all(v[i].res, v[i].n, RCPT_TEMPFAIL, 0,
				    "not tried: the connection failed");
			return -1;
		}
	}
	return 0;
}

int
sink_group(const struct mail_sink *k)
{
	return k->group > 1 ? k->group : 1;
}

int
sink_sync(struct mail_sink *k, struct buf *err)
{
	return k->ops->sync(k, err);
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

/* --- Maildir ------------------------------------------------------------ */

struct mds {
	char *dir;
	char **boxes;		/* written, not published: box and name, pairwise */
	char **names;
	size_t n;
	char **failed;		/* the last sync's deliveries not published: */
	char **why;		/* box/new/name and the reason, pairwise */
	size_t nfailed;
	struct strset made;	/* boxes known to exist */
};

/* Create box unless this sink already did (then clear tmp/ of what is
 * stale). Returns 0 or -1/errno. */
static int
make_box(struct mds *p, const char *box)
{
	if (strset_has(&p->made, box))
		return 0;
	if (md_create(box) < 0)
		return -1;
	md_clean_stale(box, (long long)time(NULL) - MD_STALE_SECONDS);
	strset_add(&p->made, box);
	return 0;
}

static int
mds_open(struct mail_sink *k, struct buf *err)
{
	(void)k;
	(void)err;
	return 0;
}

/* The Maildir of rcpt below dir, into box. */
static void
box_of(const char *dir, const char *rcpt, char *box, size_t size)
{
	char *a = str_lower(xstrdup(rcpt)), *c;

	for (c = a; *c; c++)
		if (*c == '/')	/* legal in a local part, not in a file name */
			*c = '_';
	snprintf(box, size, "%s/%s", dir, a);
	free(a);
}

/* The file name of a delivery: key when it can be one, else a fresh one. */
static void
delivery_name(const char *key, char *name, size_t size)
{
	if (key != NULL && key[0] != '\0' && key[0] != '.' && strlen(key) < size &&
	    strpbrk(key, "/:") == NULL)
		str_copy(name, key, size);
	else
		md_unique_name(name, size);
}

/* Is name written into box already by this message's deliveries, from
 * index from on? (Two recipients of a message may share a Maildir; the
 * name is the message's own key, so no other message's delivery has it.) */
static bool
in_batch(const struct mds *p, size_t from, const char *box, const char *name)
{
	size_t i;

	for (i = from; i < p->n; i++)
		if (strcmp(p->names[i], name) == 0 && strcmp(p->boxes[i], box) == 0)
			return true;
	return false;
}

static int
mds_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct mds *p = k->priv;
	size_t first = p->n;	/* this message's deliveries start here */
	int i, r;

	(void)from;
	(void)err;
	for (i = 0; i < n; i++) {
		char box[PATH_MAX], name[128], why[200];

		if (!addr_valid(rcpts[i])) {
			sink_set_all(&res[i], 1, RCPT_PERMFAIL, 553, "invalid address");
			continue;
		}
		box_of(p->dir, rcpts[i], box, sizeof box);
		delivery_name(key, name, sizeof name);
		r = make_box(p, box);
		/* Looked for only when the message may have been delivered
		 * before (by a run killed before it could record it). */
		if (r == 0 && key != NULL)
			r = in_batch(p, first, box, name) ? 1 : k->first_try ? 0 : md_published(box, name);
		if (r == 1) {	/* there already: published, or in this batch */
			sink_set_all(&res[i], 1, RCPT_OK, 250, "delivered");
			continue;
		}
		if (r < 0 || md_write_fresh(box, name, data, len, true) < 0) {
			snprintf(why, sizeof why, "cannot deliver into %.100s: %.60s", box, strerror(errno));
			sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0, why);
			continue;
		}
		p->boxes = xreallocarray(p->boxes, p->n + 1, sizeof *p->boxes);
		p->names = xreallocarray(p->names, p->n + 1, sizeof *p->names);
		p->boxes[p->n] = xstrdup(box);
		p->names[p->n] = xstrdup(name);
		p->n++;
		sink_set_all(&res[i], 1, RCPT_OK, 250, "delivered");
	}
	return 0;
}

static void
mds_forget(struct mds *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->boxes[i]);
		free(p->names[i]);
	}
	free(p->boxes);
	free(p->names);
	p->boxes = p->names = NULL;
	p->n = 0;
}

/* Forget the last sync's failures. */
static void
mds_forget_failed(struct mds *p)
{
	size_t i;

	for (i = 0; i < p->nfailed; i++) {
		free(p->failed[i]);
		free(p->why[i]);
	}
	free(p->failed);
	free(p->why);
	p->failed = p->why = NULL;
	p->nfailed = 0;
}

/* Publish every delivery of the batch: the files synced together, then
 * the recipients' new/ folders together. When that fails, each delivery
 * not yet in new/ is published alone, so that one recipient's Maildir
 * (its new/ gone, its disk full) fails its own deliveries, named, and not
 * the others'; those are kept for sink_failure. */
static int
mds_sync(struct mail_sink *k, struct buf *err)
{
	struct mds *p = k->priv;
	size_t i;

	mds_forget_failed(p);
	if (p->n == 0 || md_publish_each(p->boxes, p->names, p->n) == 0) {
		mds_forget(p);
		return 0;
	}
	for (i = 0; i < p->n; i++) {
		char path[PATH_MAX + 200], why[PATH_MAX + 100];
		snprintf(path, sizeof path, "%s/new", p->boxes[i]);
		if ((md_published(p->boxes[i], p->names[i]) == 1 && fs_fsync_dir(path) == 0) ||
		    md_publish_each(&p->boxes[i], &p->names[i], 1) == 0)
			continue;
		snprintf(why, sizeof why, "cannot deliver into the Maildir %s: %s", p->boxes[i],
		    strerror(errno));
		snprintf(path, sizeof path, "%s/new/%s", p->boxes[i], p->names[i]);
		p->failed = xreallocarray(p->failed, p->nfailed + 1, sizeof *p->failed);
		p->why = xreallocarray(p->why, p->nfailed + 1, sizeof *p->why);
		p->failed[p->nfailed] = xstrdup(path);
		p->why[p->nfailed++] = xstrdup(why);
	}
	if (p->nfailed > 0)
		buf_printf(err, "%s (%zu of %zu deliveries not made)\n", p->why[0], p->nfailed, p->n);
	mds_forget(p);
	return p->nfailed > 0 ? -1 : 0;
}

static void
mds_close(struct mail_sink *k)
{
	struct mds *p = k->priv;

	if (p == NULL)
		return;
	mds_forget(p);
	mds_forget_failed(p);
	strset_free(&p->made);
	free(p->dir);
	free(p);
	k->priv = NULL;
}

static const struct sink_ops maildir_sink_ops = { mds_open, mds_send, mds_sync, mds_close, NULL };

const char *
sink_failure(const struct mail_sink *k, const char *key, const char *rcpt, const char *why_all)
{
	const struct mds *p;
	char box[PATH_MAX], name[128], path[PATH_MAX + 200];
	size_t i;

	if (k->ops != &maildir_sink_ops)
		return why_all;
	p = k->priv;
	box_of(p->dir, rcpt, box, sizeof box);
	delivery_name(key, name, sizeof name);
	snprintf(path, sizeof path, "%s/new/%s", box, name);
	for (i = 0; i < p->nfailed; i++)
		if (strcmp(p->failed[i], path) == 0)
			return p->why[i];
	return key != NULL && strcmp(name, key) == 0 ? NULL : why_all;
}

struct mail_sink *
sink_maildir_new(const char *dir)
{
	struct mail_sink *k = xcalloc(1, sizeof *k);
	struct mds *p = xcalloc(1, sizeof *p);

	p->dir = xstrdup(dir);
	strset_init(&p->made);
	k->ops = &maildir_sink_ops;
	k->priv = p;
	k->staged = true;
	k->name = xasprintf("maildir:%s", dir);
	return k;
}
