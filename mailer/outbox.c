/*
 * outbox.c — the queue of outgoing mail.
 *
 * Each message is two files: the bytes in DIR/new/ID and its state in
 * DIR/meta/ID. outbox_add writes the state first (atomically) and then
 * the message (maildir.h): a message file is the commit point, and a state
 * file without one is ignored. Each attempt replaces the state file
 * atomically. When nothing is left to try, the message is finished in
 * this order, each step durable before the next:
 *
 *   1. the bytes go into the spool's sent archive (when anyone accepted),
 *      and the state records the archive id ("archived"), so that a
 *      crash and a second finish do not archive it twice;
 *   2. the permanent failures are written to DIR/failed/ID;
 *   3. the message and its state leave the outbox.
 *
 * A crash anywhere leaves the message in the outbox with a state that
 * says what is done, and the next flush finishes it: nothing is lost,
 * nobody gets the message twice from a finished attempt.
 *
 * State file (text, one item per line; free text has control bytes
 * replaced by blanks):
 *	from ADDR
 *	message-id ID
 *	queued TIME
 *	attempts N
 *	next TIME
 *	archived SPOOL-ID
 *	error TEXT
 *	rcpt pending|sent|failed ADDR CODE TEXT
 */
#define _DEFAULT_SOURCE
#include "outbox.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../spool/maildir.h"
#include "address.h"
#include "mime.h"

#define META_MAX (1024 * 1024)
#define MESSAGE_MAX (256u * 1024 * 1024)

enum rstate { R_PENDING, R_SENT, R_FAILED };

struct orcpt {
	char *addr;
	enum rstate st;
	int code;
	char *text;
};

struct meta {
	char *from;
	char *message_id;
	time_t queued;
	int attempts;
	time_t next;
	char *archived;
	char *error;
	struct orcpt *r;
	int n;
};

struct outbox {
	char *dir;
	char *meta_dir;
	char *failed_dir;
};

static char *
join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", a, b);
	return p;
}

/* A copy of s on one line (control bytes made blanks), or "" for NULL. */
static char *
one_line(const char *s)
{
	char *c = xstrdup(s ? s : ""), *p;

	for (p = c; *p; p++)
		if ((unsigned char)*p < 32)
			*p = ' ';
	return c;
}

static void
meta_free(struct meta *m)
{
	int i;

	free(m->from);
	free(m->message_id);
	free(m->archived);
	free(m->error);
	for (i = 0; i < m->n; i++) {
		free(m->r[i].addr);
		free(m->r[i].text);
	}
	free(m->r);
	memset(m, 0, sizeof *m);
}

static void
add_rcpt(struct meta *m, const char *addr, enum rstate st, int code, const char *text)
{
	m->r = xreallocarray(m->r, (size_t)m->n + 1, sizeof *m->r);
	m->r[m->n].addr = xstrdup(addr);
	m->r[m->n].st = st;
	m->r[m->n].code = code;
	m->r[m->n].text = one_line(text);
	m->n++;
}

static int
meta_write(struct outbox *ob, const char *id, const struct meta *m, struct buf *err)
{
	static const char *const names[] = { "pending", "sent", "failed" };
	struct buf b;
	char *path = join(ob->meta_dir, id);
	int i, r;

	buf_init(&b, META_MAX);
	buf_printf(&b, "from %s\n", m->from);
	if (m->message_id)
		buf_printf(&b, "message-id %s\n", m->message_id);
	buf_printf(&b, "queued %lld\nattempts %d\nnext %lld\n", (long long)m->queued, m->attempts,
	    (long long)m->next);
	if (m->archived)
		buf_printf(&b, "archived %s\n", m->archived);
	if (m->error)
		buf_printf(&b, "error %s\n", m->error);
	for (i = 0; i < m->n; i++)
		buf_printf(&b, "rcpt %s %s %d %s\n", names[m->r[i].st], m->r[i].addr, m->r[i].code,
		    m->r[i].text);
	r = fs_write_atomic_mode(path, b.data, b.len, 0600);
	if (r < 0)
		buf_printf(err, "%s: cannot write: %s\n", path, strerror(errno));
	buf_free(&b);
	free(path);
	return r;
}

/* Split "word rest" in place: returns rest ("" when none). */
static char *
split1(char *s)
{
	char *sp = strchr(s, ' ');

	if (sp == NULL)
		return s + strlen(s);
	*sp = '\0';
	return sp + 1;
}

static int
meta_read(struct outbox *ob, const char *id, struct meta *m, struct buf *err)
{
	char *path = join(ob->meta_dir, id);
	struct buf b;
	const char *p, *end, *line;
	size_t n;
	long v;

	memset(m, 0, sizeof *m);
	buf_init(&b, META_MAX);
	if (fs_read_file(path, &b) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", path, strerror(errno));
		buf_free(&b);
		free(path);
		return -1;
	}
	p = buf_str(&b);
	end = p + b.len;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char *l = xstrndup(line, n), *rest = split1(l);

		if (strcmp(l, "from") == 0)
			m->from = xstrdup(rest);
		else if (strcmp(l, "message-id") == 0)
			m->message_id = xstrdup(rest);
		else if (strcmp(l, "queued") == 0 && str_to_long(rest, LONG_MIN, LONG_MAX, &v) == 0)
			m->queued = (time_t)v;
		else if (strcmp(l, "attempts") == 0 && str_to_long(rest, 0, INT_MAX, &v) == 0)
			m->attempts = (int)v;
		else if (strcmp(l, "next") == 0 && str_to_long(rest, LONG_MIN, LONG_MAX, &v) == 0)
			m->next = (time_t)v;
		else if (strcmp(l, "archived") == 0)
			m->archived = xstrdup(rest);
		else if (strcmp(l, "error") == 0)
			m->error = xstrdup(rest);
		else if (strcmp(l, "rcpt") == 0) {
			char *addr = split1(rest), *code = split1(addr), *text = split1(code);
			enum rstate st = strcmp(rest, "sent") == 0 ? R_SENT :
			    strcmp(rest, "failed") == 0 ? R_FAILED : R_PENDING;
			if (str_to_long(code, 0, 999, &v) < 0)
				v = 0;
			add_rcpt(m, addr, st, (int)v, text);
		}
		free(l);
	}
	buf_free(&b);
	if (m->from == NULL || m->n == 0) {
		buf_printf(err, "%s: damaged (no sender or no recipient)\n", path);
		free(path);
		meta_free(m);
		return -1;
	}
	free(path);
	return 0;
}

struct outbox *
outbox_open(const char *dir, struct buf *err)
{
	struct outbox *ob = xcalloc(1, sizeof *ob);

	ob->dir = xstrdup(dir);
	ob->meta_dir = join(dir, "meta");
	ob->failed_dir = join(dir, "failed");
	if (md_create(dir) < 0 || fs_mkdir_p(ob->meta_dir, 0700) < 0 ||
	    fs_mkdir_p(ob->failed_dir, 0700) < 0) {
		buf_printf(err, "%s: cannot create the outbox: %s\n", dir, strerror(errno));
		outbox_close(ob);
		return NULL;
	}
	md_clean_tmp(dir);
	return ob;
}

void
outbox_close(struct outbox *ob)
{
	if (ob == NULL)
		return;
	free(ob->dir);
	free(ob->meta_dir);
	free(ob->failed_dir);
	free(ob);
}

int
outbox_add(struct outbox *ob, const char *from, char *const *rcpts, int n, const char *data,
    size_t len, time_t now, char **id, struct buf *err)
{
	struct meta m;
	char name[128];
	int i;

	if (id)
		*id = NULL;
	if (!addr_valid(from)) {
		buf_printf(err, "outbox: invalid sender \"%.80s\"\n", from);
		return -1;
	}
	if (n < 1 || n > OUTBOX_MAX_RCPTS) {
		buf_printf(err, "outbox: %d recipients (1 to %d allowed)\n", n, OUTBOX_MAX_RCPTS);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!addr_valid(rcpts[i])) {
			buf_printf(err, "outbox: invalid recipient \"%.80s\"\n", rcpts[i]);
			return -1;
		}
	memset(&m, 0, sizeof m);
	m.from = xstrdup(from);
	m.message_id = mime_message_id(data, len);
	m.queued = now;
	m.next = now;
	for (i = 0; i < n; i++)
		add_rcpt(&m, rcpts[i], R_PENDING, 0, "");
	md_unique_name(name, sizeof name);
	if (meta_write(ob, name, &m, err) < 0) {
		meta_free(&m);
		return -1;
	}
	meta_free(&m);
	if (md_deliver(ob->dir, name, data, len, true) < 0) {
		char *path = join(ob->meta_dir, name);
		buf_printf(err, "%s: cannot queue a message: %s\n", ob->dir, strerror(errno));
		unlink(path);
		free(path);
		return -1;
	}
	if (id)
		*id = xstrdup(name);
	return 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the queued messages, sorted (oldest first). */
static char **
list_queue(struct outbox *ob, int *n)
{
	char *d = join(ob->dir, "new");
	DIR *dp = opendir(d);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	free(d);
	if (dp == NULL)
		return NULL;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		v = xreallocarray(v, (size_t)*n + 1, sizeof *v);
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(dp);
	if (*n > 1)
		qsort(v, (size_t)*n, sizeof *v, name_cmp);
	return v;
}

static void
free_names(char **v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int
outbox_count(struct outbox *ob)
{
	int n;
	char **v = list_queue(ob, &n);

	free_names(v, n);
	return n;
}

static time_t
backoff(int attempts)
{
	time_t d = OUTBOX_BACKOFF_BASE;

	while (--attempts > 0 && d < OUTBOX_BACKOFF_MAX)
		d *= 2;
	return d < OUTBOX_BACKOFF_MAX ? d : OUTBOX_BACKOFF_MAX;
}

/* Steps 1-3 of the essay above. */
static int
finish(struct outbox *ob, const char *id, struct meta *m, const struct buf *data, struct spool *sp,
    time_t now, struct buf *err)
{
	struct buf sent;
	char *path;
	int i, nfailed = 0;

	buf_init(&sent, META_MAX);
	for (i = 0; i < m->n; i++) {
		if (m->r[i].st == R_SENT)
			buf_printf(&sent, "%s%s", sent.len ? "," : "", m->r[i].addr);
		nfailed += m->r[i].st == R_FAILED;
	}
	if (sent.len > 0 && m->archived == NULL) {
		const char *sid;
		if (spool_store_out(sp, m->message_id, buf_str(&sent), data->data, data->len, now, &sid,
		    err) < 0 || spool_sync(sp, err) < 0) {
			buf_free(&sent);
			return -1;
		}
		m->archived = xstrdup(sid);
		if (meta_write(ob, id, m, err) < 0) {
			buf_free(&sent);
			return -1;
		}
	}
	buf_free(&sent);
	if (nfailed > 0) {
		struct buf f;
		int r;
		buf_init(&f, META_MAX);
		if (m->message_id)
			buf_printf(&f, "message-id %s\n", m->message_id);
		for (i = 0; i < m->n; i++)
			if (m->r[i].st == R_FAILED)
				buf_printf(&f, "failed %s %d %lld %s\n", m->r[i].addr, m->r[i].code,
				    (long long)now, m->r[i].text);
		path = join(ob->failed_dir, id);
		r = fs_write_atomic_mode(path, f.data, f.len, 0600);
		if (r < 0)
			buf_printf(err, "%s: cannot write: %s\n", path, strerror(errno));
		free(path);
		buf_free(&f);
		if (r < 0)
			return -1;
	}
	{
		char mpath[PATH_MAX];
		if (md_find(ob->dir, id, mpath, sizeof mpath) == 0 && unlink(mpath) < 0 && errno != ENOENT) {
			buf_printf(err, "%s: cannot remove: %s\n", mpath, strerror(errno));
			return -1;
		}
	}
	md_sync(ob->dir);
	path = join(ob->meta_dir, id);
	unlink(path);
	free(path);
	fs_fsync_dir(ob->meta_dir);
	return 0;
}

/* One attempt for message id. *down is set when the sink could not be
 * reached (the rest of the run only defers). Returns 0, or -1 when the
 * outbox could not be read or written. */
static int
attempt(struct outbox *ob, const char *id, struct mail_sink *sink, int *sink_state,
    struct buf *down_reason, struct spool *sp, time_t now, struct outbox_stats *st,
    struct buf *err)
{
	struct meta m;
	struct buf data;
	char path[PATH_MAX];
	char **rcpts = NULL;
	int *index = NULL;
	int i, n = 0, pending = 0, res = 0;

	if (meta_read(ob, id, &m, err) < 0)
		return -1;
	for (i = 0; i < m.n; i++)
		pending += m.r[i].st == R_PENDING;
	if (pending > 0 && m.next > now) {
		st->waiting++;
		meta_free(&m);
		return 0;
	}
	buf_init(&data, MESSAGE_MAX);
	if (md_find(ob->dir, id, path, sizeof path) < 0 || fs_read_file(path, &data) < 0) {
		buf_printf(err, "outbox %s: cannot read: %s\n", id, strerror(errno));
		res = -1;
		goto out;
	}
	if (pending > 0) {
		struct rcpt_result *rr = xcalloc((size_t)pending, sizeof *rr);

		rcpts = xcalloc((size_t)pending, sizeof *rcpts);
		index = xcalloc((size_t)pending, sizeof *index);
		for (i = 0; i < m.n; i++)
			if (m.r[i].st == R_PENDING) {
				rcpts[n] = m.r[i].addr;
				index[n++] = i;
			}
		if (*sink_state == 0) {
			struct buf e;
			buf_init(&e, 4096);
			*sink_state = sink != NULL && sink_open(sink, &e) == 0 ? 1 : -1;
			if (*sink_state < 0) {
				while (e.len > 0 && e.data[e.len - 1] == '\n')
					buf_truncate(&e, e.len - 1);
				buf_printf(down_reason, "%s", sink ? buf_str(&e) : "no sink");
				log_warn("%s (the outbox keeps the mail)", buf_str(down_reason));
			}
			buf_free(&e);
		}
		if (*sink_state > 0) {
			struct buf e;
			buf_init(&e, 4096);
			if (sink_send(sink, m.from, rcpts, n, data.data, data.len, rr, &e) < 0) {
				*sink_state = -1;	/* unreachable: only defer the rest */
				while (e.len > 0 && e.data[e.len - 1] == '\n')
					buf_truncate(&e, e.len - 1);
				buf_reset(down_reason);
				buf_puts(down_reason, buf_str(&e));
				log_warn("%s (the outbox keeps the mail)", buf_str(&e));
			}
			buf_free(&e);
		} else {
			sink_set_all(rr, n, RCPT_TEMPFAIL, 0, buf_str(down_reason));
		}
		m.attempts++;
		pending = 0;
		for (i = 0; i < n; i++) {
			struct orcpt *o = &m.r[index[i]];
			free(o->text);
			o->text = one_line(rr[i].text);
			o->code = rr[i].code;
			if (rr[i].status == RCPT_OK) {
				o->st = R_SENT;
			} else if (rr[i].status == RCPT_PERMFAIL) {
				o->st = R_FAILED;
				st->failed_rcpts++;
				log_warn("mail to %s refused for good: %s", o->addr, o->text);
			} else {
				pending++;
				free(m.error);
				m.error = one_line(rr[i].text);
			}
		}
		if (pending > 0 && now - m.queued >= OUTBOX_EXPIRE) {
			for (i = 0; i < m.n; i++)
				if (m.r[i].st == R_PENDING) {
					char why[400];
					snprintf(why, sizeof why, "gave up after %d attempts: %s", m.attempts,
					    m.r[i].text);
					free(m.r[i].text);
					m.r[i].text = one_line(why);
					m.r[i].st = R_FAILED;
					st->failed_rcpts++;
				}
			pending = 0;
		}
		m.next = now + backoff(m.attempts);
		free(rr);
		if (meta_write(ob, id, &m, err) < 0) {
			res = -1;
			goto out;
		}
	}
	if (pending > 0) {
		st->deferred++;
	} else {
		if (finish(ob, id, &m, &data, sp, now, err) < 0) {
			res = -1;
			goto out;
		}
		st->sent++;
	}
out:
	free(rcpts);
	free(index);
	buf_free(&data);
	meta_free(&m);
	return res;
}

int
outbox_flush(struct outbox *ob, struct mail_sink *sink, struct spool *sp, time_t now,
    struct outbox_stats *st, struct buf *err)
{
	struct buf down;
	char **names;
	int n, i, sink_state = 0, res = 0;

	memset(st, 0, sizeof *st);
	buf_init(&down, 4096);
	names = list_queue(ob, &n);
	for (i = 0; i < n; i++) {
		char mpath[PATH_MAX];

		snprintf(mpath, sizeof mpath, "%s/%s", ob->meta_dir, names[i]);
		if (!fs_exists(mpath)) {
			log_warn("outbox: %s has no state file: left alone", names[i]);
			continue;
		}
		if (attempt(ob, names[i], sink, &sink_state, &down, sp, now, st, err) < 0)
			res = -1;
	}
	free_names(names, n);
	buf_free(&down);
	return res;
}

int
outbox_failures(struct outbox *ob, struct outbox_failure **v, struct buf *err)
{
	DIR *dp = opendir(ob->failed_dir);
	struct dirent *e;
	int n = 0;

	*v = NULL;
	if (dp == NULL) {
		buf_printf(err, "%s: cannot read: %s\n", ob->failed_dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		char *path;
		struct buf b;
		const char *p, *end, *line;
		char *msgid = NULL;
		size_t len;

		if (e->d_name[0] == '.' || strstr(e->d_name, ".tmp.") != NULL)
			continue;
		path = join(ob->failed_dir, e->d_name);
		buf_init(&b, META_MAX);
		if (fs_read_file(path, &b) == 0) {
			p = buf_str(&b);
			end = p + b.len;
			while ((line = str_next_line(&p, end, &len)) != NULL) {
				char *l = xstrndup(line, len), *rest = split1(l);
				if (strcmp(l, "message-id") == 0) {
					free(msgid);
					msgid = xstrdup(rest);
				} else if (strcmp(l, "failed") == 0) {
					char *code = split1(rest), *when = split1(code), *text = split1(when);
					long c = 0, w = 0;
					struct outbox_failure *f;
					str_to_long(code, 0, 999, &c);
					str_to_long(when, LONG_MIN, LONG_MAX, &w);
					*v = xreallocarray(*v, (size_t)n + 1, sizeof **v);
					f = &(*v)[n++];
					f->id = xstrdup(e->d_name);
					f->message_id = msgid ? xstrdup(msgid) : NULL;
					f->rcpt = xstrdup(rest);
					f->code = (int)c;
					f->reason = xstrdup(text);
					f->when = (time_t)w;
				}
				free(l);
			}
		}
		free(msgid);
		buf_free(&b);
		free(path);
	}
	closedir(dp);
	return n;
}

void
outbox_failures_free(struct outbox_failure *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(v[i].id);
		free(v[i].message_id);
		free(v[i].rcpt);
		free(v[i].reason);
	}
	free(v);
}

int
outbox_forget_failure(struct outbox *ob, const char *id, struct buf *err)
{
	char *path;

	if (strchr(id, '/') != NULL || id[0] == '.') {
		buf_printf(err, "outbox: bad id \"%s\"\n", id);
		return -1;
	}
	path = join(ob->failed_dir, id);
	if (unlink(path) < 0) {
		buf_printf(err, "%s: cannot remove: %s\n", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	return fs_fsync_dir(ob->failed_dir);
}
