/*
 * mailer.c — fetching into the spool, reading from it, queueing and
 * sending: the glue between sources, spool, MIME, compose and outbox.
 */
#include "mailer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/log.h"
#include "../lib/xalloc.h"

#define MAIL_FETCH_BATCHES 25	/* batches in one run (IMAP: 2,000 messages each) */

struct fetch_ctx {
	struct spool *sp;
	time_t now;
	struct fetch_stats *st;
	fetch_stored_fn stored;
	void *arg;
};

static int
store_one(void *arg, const struct source_msg *m, struct buf *err)
{
	struct fetch_ctx *c = arg;
	time_t arrival = m->delivered > 0 && m->delivered < c->now ? m->delivered : c->now;
	char *msgid = mime_message_id(m->data, m->len);
	const char *id;
	int r;

	c->st->fetched++;
	r = spool_store_in(c->sp, m->key, msgid, m->data, m->len, arrival, &id, err);
	free(msgid);
	if (r < 0)
		return -1;
	if (r == 0) {
		c->st->known++;
	} else {
		c->st->stored++;
		if (m->delivered > 0 && m->delivered < spool_clock(c->sp))
			c->st->early++;
		if (spool_lookup(c->sp, id)->state == SPOOL_DUPLICATE)
			c->st->duplicates++;
		if (c->stored != NULL)
			c->stored(c->arg);
	}
	return SOURCE_ACCEPT;
}

int
mail_fetch(struct mail_source *src, struct spool *sp, time_t now, struct fetch_stats *st,
    struct buf *err)
{
	return mail_fetch_each(src, sp, now, st, NULL, NULL, err);
}

int
mail_fetch_each(struct mail_source *src, struct spool *sp, time_t now,
    struct fetch_stats *st, fetch_stored_fn stored, void *arg, struct buf *err)
{
	struct fetch_ctx c = { sp, now, st, stored, arg };
	char *cursor = NULL;
	int r, rounds = 0;

	memset(st, 0, sizeof *st);
	if (source_open(src, err) < 0)
		return -1;
	do {
		int before = src->accepted;

		r = source_fetch(src, spool_cursor(sp, src->name), store_one, &c, err);
		/* even after a failure part way, what was accepted is committed once it is durable */
		if (src->accepted == before && r < 0)
			return -1;
		if (spool_sync(sp, err) < 0)
			return -1;	/* nothing acknowledged: the next run fetches again */
		if (source_commit(src, &cursor, err) < 0)
			return -1;	/* stored; the next run recognises them */
		if (cursor != NULL) {
			const char *old = spool_cursor(sp, src->name);
			if (old == NULL || strcmp(old, cursor) != 0)
				spool_set_cursor(sp, src->name, cursor);
			free(cursor);
			cursor = NULL;
			if (spool_sync(sp, err) < 0)
				return -1;
		}
		/* another batch only when this one moved on */
		if (src->accepted == before)
			break;
	} while (r == 0 && src->more && ++rounds < MAIL_FETCH_BATCHES);
	return r;
}

int
mail_read(struct spool *sp, const struct spool_entry *e, const struct mime_opts *o,
    struct inmsg *m, struct buf *err)
{
	struct buf raw;

	buf_init(&raw, e->size + 1);
	if (spool_read(sp, e->id, &raw, err) < 0) {
		buf_free(&raw);
		return -1;
	}
	mime_parse(buf_str(&raw), raw.len, o, m);
	m->spool_id = xstrdup(e->id);
	m->arrival = e->arrival;
	buf_free(&raw);
	return 0;
}

void
mail_mime_opts(const struct mail_config *cfg, struct mime_opts *o)
{
	mime_opts_init(o);
	o->max_raw = cfg->max_size;
	o->max_lines = cfg->max_lines;
	o->own_address = cfg->judge_address;
}

void
mail_compose_opts(const struct mail_config *cfg, struct compose_opts *o)
{
	o->from_addr = cfg->judge_address;
	o->from_name = cfg->judge_name;
	o->domain = mail_config_domain(cfg);
}

int
mail_queue(struct outbox *ob, const struct mail_config *cfg, const struct outmsg *m,
    time_t now, char **id, struct buf *err)
{
	struct compose_opts co;
	struct buf bytes;
	char **rcpts;
	int i, n = 0, r;

	mail_compose_opts(cfg, &co);
	buf_init(&bytes, 64u * 1024 * 1024);
	if (compose_message(m, &co, &bytes, err) < 0) {
		buf_free(&bytes);
		return -1;
	}
	rcpts = xcalloc((size_t)(m->nto + m->ncc) + 1, sizeof *rcpts);
	for (i = 0; i < m->nto; i++)
		rcpts[n++] = m->to[i];
	for (i = 0; i < m->ncc; i++)
		rcpts[n++] = m->cc[i];
	r = outbox_add(ob, cfg->judge_address, rcpts, n, bytes.data, bytes.len, now, id, err);
	free(rcpts);
	buf_free(&bytes);
	return r;
}

/* The sink cfg asks for: SMTP when smtp.url is set, else maildir.out. */
static struct mail_sink *
sink_from_config(const struct mail_config *cfg)
{
	if (cfg->smtp_url != NULL && *cfg->smtp_url != '\0')
		return sink_smtp_new(cfg);
	return sink_maildir_new(cfg->maildir_out);
}

int
mail_send(struct outbox *ob, const struct mail_config *cfg, struct spool *sp, time_t now,
    struct outbox_stats *st, struct buf *err)
{
	struct mail_sink *k = sink_from_config(cfg);
	int r = outbox_flush(ob, k, sp, now, st, err);

	sink_free(k);
	return r;
}

char *
mail_spool_dir(const char *data_dir)
{
	return xasprintf("%s/spool", data_dir);
}

char *
mail_outbox_dir(const char *data_dir)
{
	return xasprintf("%s/outbox", data_dir);
}

char *
mail_outbox_packs(const char *spool_dir)
{
	return xasprintf("%s/pack", spool_dir);
}
