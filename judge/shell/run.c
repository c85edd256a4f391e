#define _DEFAULT_SOURCE
#include "run.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/crash.h"
#include "../../lib/fsio.h"
#include "../../lib/grow.h"
#include "../../lib/log.h"
#include "../../lib/monotime.h"
#include "../../lib/str.h"
#include "../../lib/strv.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "../../mailer/compose.h"
#include "verify.h"

#define HOST_SOURCE "host:"
/* The steps of a run, as POUCH_CRASH_AT and POUCH_PAUSE_AT name them (lib/crash.h). */
static const char *const run_steps[] = { "fetch", "apply", "commit", "pages", "send" };
/* A note on a game set aside, or the mail telling its masters. */
#define ASIDE_TEXT_MAX (1u << 16)

static void
remember(void *arg, const char *message_id)
{
	strset_add(arg, message_id);
}

/* DATA/pages-due (see write_pages). */
static void
pages_due_path(const struct runner *r, char *path, size_t size)
{
	snprintf(path, size, "%s/pages-due", r->o.data);
}

/* The temporary files a killed run left (or one whose file system turned
 * read-only before it could remove them): NAME.tmp.PID of a process that
 * is gone, in the folders the run replaces files in. The store's lock is
 * held: no other run is writing them. Done by runs that load the games
 * (an idle run reads no folder; a leftover file harms nothing meanwhile). */
static void
sweep_tmp(const struct runner *r)
{
	char dir[1200], *outbox = mail_outbox_dir(r->o.data);
	int n;

	snprintf(dir, sizeof dir, "%s/games", r->o.data);
	n = fs_sweep_tmp(r->o.data, 0) + fs_sweep_tmp(dir, 2) + fs_sweep_tmp(outbox, 1) +
	    fs_sweep_tmp(r->pages_dir, 1);
	free(outbox);
	if (n > 0)
		log_info("%s: removed %d temporary files left by an earlier run", r->o.data, n);
}

/* The spool's own folder is swept by every live run, once the lock is
 * held, idle runs too: a run that changed the ledger replaces its summary
 * as it closes, after its last step, and the runs after one killed there
 * may all be idle (they read the summary alone, never the games). */
static void
sweep_spool_tmp(const char *spool)
{
	int n = fs_sweep_tmp(spool, 0);

	if (n > 0)
		log_info("%s: removed %d temporary files left by an earlier run", spool, n);
}

static int consume(struct runner *r, struct buf *err);
static int taken_ahead(struct runner *r, size_t i, struct inmsg *m);
static void read_ahead(struct runner *r, size_t from, size_t n);
static void verify_ahead(struct runner *r, bool on);
static size_t first_pending(struct spool *sp);

/* The judge's drain: a tick's effects taken game by game (tick). */
static void
drain_fx(void *arg)
{
	struct runner *r = arg;

	if (r->drain_to != NULL && consume(r, r->drain_to) < 0)
		r->drain_bad = 1;
}

/* judge_tick (due: judge_tick_due) at t, its effects taken as it goes.
 * Returns 0, or -1 (err) when one could not be taken. */
static int
tick(struct runner *r, time_t t, bool due, struct buf *err)
{
	r->drain_to = err;
	r->drain_bad = 0;
	if (due)
		judge_tick_due(&r->j, t);
	else
		judge_tick(&r->j, t);
	r->drain_to = NULL;
	if (consume(r, err) < 0)
		r->drain_bad = 1;
	return r->drain_bad ? -1 : 0;
}

int
runner_open(struct runner *r, const struct run_opts *o, struct buf *err)
{
	struct judge_io io;
	char *dir, *packs;
	int rc;

	memset(r, 0, sizeof *r);
	r->o = *o;
	crash_steps(run_steps, (int)(sizeof run_steps / sizeof run_steps[0]));
	strset_init(&r->known);
	if (conf_load(&r->conf, o->config, o->conf_dir ? o->conf_dir : o->data, err) < 0) {
		conf_free(&r->conf);
		return -1;
	}
	rc = store_open(&r->st, o->data, o->maps, o->wait_ms, err);
	if (rc != 0) {
		conf_free(&r->conf);
		return rc;
	}
	r->opened = 1;
	dir = o->spool ? xstrdup(o->spool) : mail_spool_dir(o->data);
	if (!o->replay && !o->look_only)
		sweep_spool_tmp(dir);
	/* A run reads the ledger only when it has something to do. */
	r->sp = o->replay ? spool_open(dir, err) : spool_open_lazy(dir, err);
	if (r->sp != NULL) {
		/* The randomness key lives with the spool: the spool alone
		 * rebuilds everything. */
		char key[1200];
		snprintf(key, sizeof key, "%s/judge.key", dir);
		if (o->replay && !fs_exists(key)) {
			buf_printf(err, "%s: missing (the live judge's key, needed to replay)\n", key);
			rc = -1;
		} else if (store_use_key(&r->st, key, err) < 0) {
			rc = -1;
		}
	} else {
		rc = -1;
	}
	free(dir);
	if (rc < 0)
		return -1;
	/* A judge's clock never goes back: a run asked to work before the last
	 * busy run's clock (a --now behind it, or the system's clock set back)
	 * works at that clock, so that what it decides and stamps agrees with
	 * what was decided and stamped before. */
	if (!o->replay && spool_clock(r->sp) > r->o.now) {
		r->asked_now = r->o.now;
		r->o.now = spool_clock(r->sp);
	}
	store_io(&r->st, &io);
	judge_init(&r->j, &r->conf.judge, &io);
	r->j.drain = drain_fx;
	r->j.drain_arg = r;
	mail_mime_opts(&r->conf.mail, &r->mo);
	/* A replay draws its own pages, never over the live ones. */
	if (o->replay)
		snprintf(r->pages_dir, sizeof r->pages_dir, "%s/pages", o->data);
	else
		str_copy(r->pages_dir, r->conf.pages, sizeof r->pages_dir);
	webpages_init(&r->web, r->pages_dir, r->conf.judge.base_url, o->maps);
	if (o->replay) {
		snprintf(r->mail_dir, sizeof r->mail_dir, "%s/replay-mail", o->data);
		if (fs_mkdir_p(r->mail_dir, 0750) < 0) {
			buf_printf(err, "%s: %s\n", r->mail_dir, strerror(errno));
			return -1;
		}
		return 0;
	}
	/* The embedded default reads a Maildir: there from the first run on,
	 * for mail to be delivered into. */
	if (r->conf.mail.imap_host == NULL && !o->look_only) {
		static const char *const sub[] = { "new", "cur", "tmp" };
		char md[1200];
		for (size_t k = 0; k < 3; k++) {
			snprintf(md, sizeof md, "%s/%s", r->conf.mail.maildir_in, sub[k]);
			if (fs_mkdir_p(md, 0750) < 0) {
				buf_printf(err, "%s: %s\n", md, strerror(errno));
				return -1;
			}
		}
	}
	dir = mail_outbox_dir(o->data);
	packs = mail_outbox_packs(spool_dir(r->sp));
	r->ob = outbox_open(dir, packs, err);
	free(dir);
	free(packs);
	return r->ob == NULL ? -1 : 0;
}

/* The first inbound message not applied yet: where the spool stood when
 * the games on disk were last written (with its clock). */
static size_t
first_pending(struct spool *sp)
{
	size_t i, n = spool_count_in(sp);

	for (i = 0; i < n; i++)
		if (spool_state(sp, i) == SPOOL_STORED)
			break;
	return i;
}

static void
aside_note_path(const struct runner *r, const char *game, char *out, size_t size)
{
	char dir[1100];

	store_game_dir(&r->st, game, dir, sizeof dir);
	snprintf(out, size, "%s/%s", dir, ASIDE_NOTE);
}

/* Mail the masters named by what is left of the game's file. The
 * Message-ID names the game and the spool position, so a run repeated
 * after a crash does not send it twice. */
static void
tell_masters(struct runner *r, const struct store_aside *a, size_t upto)
{
	struct outmsg m;
	struct buf text, err;
	char id[256], subject[160], game[GAME_NAME_MAX], addrs[GAME_MAX_GMS][ADDR_MAX];
	char *to[GAME_MAX_GMS];

	if (r->ob == NULL || a->ngms == 0)
		return;
	snprintf(id, sizeof id, ASIDE_MSGID "%s.%zu@%s", a->game, upto, r->conf.judge.domain);
	if (!strset_add(&r->known, id))
		return;
	buf_init(&text, ASIDE_TEXT_MAX);
	buf_printf(&text, "The judge cannot read the file of game %s: it is damaged\n"
	    "(%.*s).\n\n"
	    "The game is set aside: nothing happens in it, and the mail sent to it is\n"
	    "kept, not read, until the judge's host rebuilds the game from the judge's\n"
	    "archive of messages (pouch replay --game %s). Then that mail is read in\n"
	    "the order it came, and the game goes on as if nothing had happened.\n"
	    "The other games on this judge go on as usual.\n", a->game,
	    (int)strcspn(a->why, "\n"), a->why, a->game);
	snprintf(subject, sizeof subject, "[%s] the game is set aside: its file is damaged", a->game);
	for (int i = 0; i < a->ngms; i++) {
		str_copy(addrs[i], a->gms[i], ADDR_MAX);
		to[i] = addrs[i];
	}
	str_copy(game, a->game, sizeof game);
	memset(&m, 0, sizeof m);
	m.to = to;
	m.nto = a->ngms;
	m.subject = subject;
	m.text = buf_take(&text);
	m.game = game;
	m.autosub = OUT_GENERATED;
	m.date = r->o.now;
	m.message_id = id;
	buf_init(&err, BUF_ERRORS_MAX);
	if (mail_queue(r->ob, &r->conf.mail, &m, r->o.now, NULL, &err) < 0)
		log_warn("not queued: %s (%s)", id, buf_str(&err));
	else
		r->stats.queued++;
	buf_free(&err);
	free(m.text);
}

/* Tell the host (every run) and the game's masters (once, with the
 * note) that a game is set aside. */
static void
set_aside(struct runner *r)
{
	char path[1300], stamp[32];
	int i;

	/* A note beside a game that loads is left from a repair that
	 * stopped before removing it. */
	for (i = 0; !r->o.replay && !r->o.look_only && i < r->j.ngames; i++) {
		aside_note_path(r, r->j.games[i]->name, path, sizeof path);
		if (unlink(path) == 0)
			log_info("%s: removed (the game is whole)", path);
	}
	if (r->st.naside == 0)
		return;
	r->aside_notes = xcalloc((size_t)r->st.naside, sizeof *r->aside_notes);
	for (i = 0; i < r->st.naside; i++) {
		const struct store_aside *a = &r->st.aside[i];
		struct buf note;
		size_t upto;
		int n = (int)strcspn(a->why, "\n");

		log_warn("game %s set aside: %.*s (repair: %s replay --game %s)", a->game, n,
		    a->why, r->o.invocation ? r->o.invocation : "pouch", a->game);
		if (r->o.replay || r->o.look_only)
			continue;
		aside_note_path(r, a->game, path, sizeof path);
		if (fs_exists(path))
			continue;	/* set aside in an earlier run: its masters know */
		upto = first_pending(r->sp);
		buf_init(&note, ASIDE_TEXT_MAX);
		buf_printf(&note, "# pouch set this game aside; pouch replay --game %s repairs it\n"
		    "since %s\nupto %zu\nclock %lld\n", a->game,
		    time_rfc3339(r->o.now, stamp, sizeof stamp), upto, (long long)spool_clock(r->sp));
		for (const char *p = a->why; *p; p += n + (p[n] == '\n')) {
			n = (int)strcspn(p, "\n");
			buf_printf(&note, "why %.*s\n", n, p);
		}
		r->aside_notes[i] = buf_take(&note);
		tell_masters(r, a, upto);
	}
}

/* The games, and the Message-IDs waiting in the outbox (which, like those
 * the spool archived as sent, are not queued again). Once per run, before
 * the first message is applied. */
static int load_games(struct runner *r, struct buf *err);

int
runner_load(struct runner *r, struct buf *err)
{
	size_t at = err->len;

	if (r->load_err != NULL) {
		buf_puts(err, r->load_err);
		return -1;
	}
	if (r->loaded)
		return 0;
	r->loaded = 1;
	if (load_games(r, err) < 0) {
		r->load_err = xstrdup(buf_str(err) + at);
		return -1;
	}
	return 0;
}

/* runner_load's work. */
static int
load_games(struct runner *r, struct buf *err)
{
	if (spool_index(r->sp, err) < 0 || store_load(&r->st, &r->j, err) < 0)
		return -1;
	/* A game has applied message seq, the seq-th inbound record: a ledger
	 * with fewer lost whole records (cut at a line's end). */
	for (int i = 0; i < r->j.ngames; i++)
		if (r->j.games[i]->seq > 0 && (size_t)r->j.games[i]->seq > spool_count_in(r->sp)) {
			buf_printf(err, "%s/ledger: cut short: it names %zu inbound messages, but game %s "
			    "applied message %ld; the spool is left alone\n", spool_dir(r->sp),
			    spool_count_in(r->sp), r->j.games[i]->name, r->j.games[i]->seq);
			return -1;
		}
	if (r->o.replay && r->j.ngames > 0) {
		buf_printf(err, "%s: already holds games; replay into a new data directory\n",
		    r->o.data);
		return -1;
	}
	if (r->ob != NULL && outbox_each_message_id(r->ob, remember, &r->known, err) < 0)
		return -1;
	if (!r->o.replay && !r->o.look_only)
		sweep_tmp(r);
	set_aside(r);
	return 0;
}

int
runner_idle(struct runner *r)
{
	char path[1200];
	struct buf b;
	long due = 0;

	if (r->o.replay || spool_pending(r->sp) > 0)
		return 0;
	pages_due_path(r, path, sizeof path);
	if (fs_exists(path))
		return 0;	/* map pages to draw again */
	snprintf(path, sizeof path, "%s/next-due", r->o.data);
	buf_init(&b, 64);
	if (fs_read_file(path, &b) < 0 || str_to_long(buf_str(&b), 0, LONG_MAX, &due) < 0)
		due = 0;
	buf_free(&b);
	return r->o.now < (time_t)due;
}

/* The earliest time any game may need the judge without a message (a
 * reminder, a deadline), for runner_idle; LONG_MAX when none. */
static time_t
next_due(const struct judge *j)
{
	time_t due = (time_t)LONG_MAX, t;
	int i;

	for (i = 0; i < j->ngames; i++) {
		const struct game *g = j->games[i];
		if (g->status != GAME_ACTIVE)
			continue;
		t = g->deadline;
		if (g->gm_told) {
			/* The deadline passed and was announced: the grace period's
			 * end, or the GM (by mail) when the game waits for one. */
			t = g->set.nmr == NMR_CD ? g->deadline + g->set.grace : (time_t)LONG_MAX;
		} else {
			if (g->set.remind > 0 && g->deadline - g->set.remind < t)
				t = g->deadline - g->set.remind;
			if (g->phase_start + (g->deadline - g->phase_start) / 2 < t)
				t = g->phase_start + (g->deadline - g->phase_start) / 2;
		}
		if (t < due)
			due = t;
	}
	return due;
}

/* The fetch stored a message (mail_fetch_each): the first new one to be
 * applied loads the games and starts the password checks; then the mail
 * stored is read ahead as the apply step reads it, within its bounds. A
 * load that fails stops this; runner_apply says why (runner_load). */
static void
fetched_one(void *arg)
{
	struct runner *r = arg;
	size_t n = spool_count_in(r->sp);
	struct buf err;

	if (r->ahead_off || spool_state(r->sp, n - 1) != SPOOL_STORED)
		return;	/* a copy: never applied, nor worth loading for */
	if (r->vf == NULL) {
		buf_init(&err, BUF_ERRORS_MAX);
		if (r->loaded || verifier_threads() == 0 || runner_load(r, &err) < 0) {
			r->ahead_off = 1;
			buf_free(&err);
			return;
		}
		buf_free(&err);
		verify_ahead(r, true);
		if (r->vf == NULL) {
			r->ahead_off = 1;
			return;
		}
		r->ahead = first_pending(r->sp);
	}
	read_ahead(r, r->ahead, n);
}

int
runner_fetch(struct runner *r, struct buf *err)
{
	struct mail_source *src = source_from_config(&r->conf.mail);
	struct fetch_stats fs;
	int rc;

	double t0 = monotime_ms();

	crash_step("fetch");
	memset(&fs, 0, sizeof fs);
	rc = mail_fetch_each(src, r->sp, r->o.now, &fs, fetched_one, r, err);
	r->stats.ms_fetch = monotime_ms() - t0;
	if (r->vf != NULL)
		verifier_counts(r->vf, &r->stats.checks_fetch, &r->stats.made);
	r->stats.fetched = fs.fetched;
	r->stats.stored = fs.stored;
	r->stats.early = fs.early;
	source_free(src);
	return rc;
}

int
runner_host(struct runner *r, const char *body, struct buf *err)
{
	static unsigned counter;
	char msgid[160], date[64], source[200];
	const char *id;
	struct buf raw;
	int rc;

	snprintf(msgid, sizeof msgid, "host.%lld.%ld.%u@%s", (long long)r->o.now, (long)getpid(),
	    ++counter, r->conf.judge.domain);
	compose_date(r->o.now, date, sizeof date);
	buf_init(&raw, 1 << 20);
	buf_printf(&raw, "From: the judge's host <host@localhost>\r\nDate: %s\r\nMessage-ID: <%s>\r\n"
	    "Subject: pouch game\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n\r\n", date, msgid);
	for (const char *p = body; *p; p++) {
		if (*p == '\n')
			buf_putc(&raw, '\r');
		buf_putc(&raw, *p);
	}
	/* Only this source marks a message as the host's: nothing fetched
	 * from a mailbox can have it. */
	snprintf(source, sizeof source, "%s%s", HOST_SOURCE, msgid);
	rc = spool_store_in(r->sp, source, msgid, raw.data, raw.len, r->o.now, &id, err);
	buf_free(&raw);
	if (rc < 0)
		return -1;
	str_copy(r->host_id, id, sizeof r->host_id);
	return spool_sync(r->sp, err);
}

/* Replay: the message as a file named after its Message-ID. */
static int
write_replay_mail(struct runner *r, const struct outmsg *m, struct buf *err)
{
	struct compose_opts co;
	struct buf bytes;
	char path[1400];
	int rc;

	mail_compose_opts(&r->conf.mail, &co);
	buf_init(&bytes, 64u << 20);
	rc = compose_message(m, &co, &bytes, err);
	snprintf(path, sizeof path, "%s/%s.eml", r->mail_dir, m->message_id);
	if (rc == 0 && strchr(m->message_id, '/') == NULL &&
	    fs_write_atomic(path, bytes.data, bytes.len) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	buf_free(&bytes);
	return rc;
}

/* Draw the pages of game from history record first on (the earliest
 * asked for wins). A game found by its index, not by a pass over the list. */
static void
add_paged(struct runner *r, const char *game, int first)
{
	const struct game *g = judge_find_game(&r->j, game);
	int gi = g ? judge_game_index(&r->j, g) : -1, k = -1;

	if (gi >= 0 && gi >= r->npaged_at) {
		int n = r->j.ngames;
		r->paged_at = xreallocarray(r->paged_at, (size_t)n, sizeof *r->paged_at);
		memset(r->paged_at + r->npaged_at, 0, (size_t)(n - r->npaged_at) * sizeof *r->paged_at);
		r->npaged_at = n;
	}
	if (gi >= 0 && r->paged_at[gi] > 0)
		k = r->paged_at[gi] - 1;
	else if (gi < 0)
		for (k = 0; k < r->npaged && strcmp(r->paged[k].game, game) != 0; k++)
			;
	if (k < 0 || k == r->npaged) {
		k = r->npaged;
		r->paged = xreallocarray(r->paged, (size_t)r->npaged + 1, sizeof *r->paged);
		str_copy(r->paged[k].game, game, sizeof r->paged[k].game);
		r->paged[k].first = first;
		r->npaged++;
		if (gi >= 0)
			r->paged_at[gi] = k + 1;
	} else if (first < r->paged[k].first) {
		r->paged[k].first = first;
	}
}

/* Forget the list of games whose pages are to be drawn. */
static void
clear_paged(struct runner *r)
{
	free(r->paged);
	r->paged = NULL;
	r->npaged = 0;
	free(r->paged_at);
	r->paged_at = NULL;
	r->npaged_at = 0;
}

/* Whether id is one the judge gives the mail it makes while it handles
 * one inbound message ("pouch.mSEQ.N@DOMAIN"): no other event makes it,
 * and a run handles each message once, so such an id need not be kept
 * to be queued once in a run; the outbox's (r->known) and the spool's
 * are still looked at. So r->known does not grow with a run's mail. */
static bool
per_message_id(const char *id)
{
	const char *p = id + 7;

	if (strncmp(id, "pouch.m", 7) != 0 || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '@';
}

/* Take the judge's effects: mail to the outbox, the rest to the store. */
static int
consume(struct runner *r, struct buf *err)
{
	struct judge_effects *fx = &r->j.fx;
	const int *touched;
	int i, n, bad = 0;

	for (i = 0; i < fx->nout; i++) {
		const struct outmsg *m = &fx->out[i];
		if ((r->ob != NULL && spool_sent_message_id(r->sp, m->message_id)) ||
		    (per_message_id(m->message_id) ? strset_has(&r->known, m->message_id) :
		    !strset_add(&r->known, m->message_id))) {
			r->stats.repeated++;
			continue;
		}
		if (r->o.replay ? write_replay_mail(r, m, err) < 0 :
		    mail_queue(r->ob, &r->conf.mail, m, r->o.now, NULL, err) < 0) {
			/* An address the mail layer refuses, a full disk: the rest
			 * goes on; runner_apply says how many, and the first reason. */
			if (r->stats.not_queued++ == 0) {
				while (err->len > 0 && err->data[err->len - 1] == '\n')
					buf_truncate(err, err->len - 1);
				snprintf(r->not_queued_why, sizeof r->not_queued_why, "%s (%s)",
				    m->message_id, buf_str(err));
			}
			buf_reset(err);
			continue;
		}
		r->stats.queued++;
	}
	r->stats.phases += fx->nphases;
	if (store_stage(&r->st, &r->j, err) < 0)
		bad = 1;
	/* The map pages of the games that moved on: drawn at the commit,
	 * once per game, from the first new phase on. */
	for (i = 0; i < fx->nphases; i++)
		add_paged(r, fx->phases[i].game, fx->phases[i].index);
	/* A game rolled back: its index and current map, and the page of the
	 * last phase it keeps (whose link to the next goes), from the record
	 * the rollback retired first on (the rest stay, unlinked). */
	for (i = 0; i < fx->nrollbacks; i++) {
		long from;
		if (str_to_long(fx->rollbacks[i].text, 1, INT_MAX, &from) == 0)
			add_paged(r, fx->rollbacks[i].game, (int)from);
	}
	/* A game without a board has no phases: its page follows each change.
	 * Only the games touched since the last time are looked at: the
	 * others are as they were then. A game with a board: its pages show
	 * no orders before they are decided, so an order changes nothing on
	 * them, and they are drawn only for what they show (the phases and
	 * rollbacks above, the game master's actions below, and here the
	 * deadline's passing with orders missing, which the index gives). */
	n = judge_touched(&r->j, &touched);
	for (i = 0; i < n; i++) {
		const struct game *g = r->j.games[touched[i]];
		if (r->j.dirty[touched[i]] && system_serves(g->sys, SYS_RECORD_PAGE))
			add_paged(r, g->name, 1);
	}
	for (i = 0; i < fx->npages; i++) {
		const struct game *g = judge_find_game(&r->j, fx->pages[i].game);
		if (g != NULL && !system_serves(g->sys, SYS_RECORD_PAGE))
			add_paged(r, g->name, g->nphases + 2);	/* no phase page */
	}
	/* What the game master (or a player's rare order) did to a game: a new
	 * deadline, PAUSE, RESUME, its end; the index follows it. */
	for (i = 0; i < fx->naudit; i++) {
		const struct game *g = fx->audit[i].game[0] ? judge_find_game(&r->j,
		    fx->audit[i].game) : NULL;
		if (g != NULL && !system_serves(g->sys, SYS_RECORD_PAGE))
			add_paged(r, g->name, g->nphases + 2);
	}
	judge_effects_clear(&r->j);
	return bad ? -1 : 0;
}

/* Apply inbound message i. Returns 0, 1 when it is held back for a game
 * set aside, or -1 (err). */
static int
apply_one(struct runner *r, size_t i, struct buf *err)
{
	const struct spool_entry *e = spool_in(r->sp, i);
	struct inmsg m;
	int host;

	memset(&m, 0, sizeof m);
	if (!taken_ahead(r, i, &m) && mail_read(r->sp, e, &r->mo, &m, err) < 0) {
		/* The bytes are gone (a disk error): say so, and go on. */
		log_warn("spool message %s cannot be read: %s", e->id, buf_str(err));
		buf_reset(err);
		r->stats.unreadable++;
		return 0;
	}
	host = e->source && strncmp(e->source, HOST_SOURCE, strlen(HOST_SOURCE)) == 0;
	if (r->st.naside > 0) {
		/* Mail for a game set aside waits in the spool, unread, until
		 * the game is repaired. */
		char game[GAME_NAME_MAX];
		judge_mail_game(&m, game, sizeof game);
		if (*game && store_find_aside(&r->st, game)) {
			if (host && strcmp(e->id, r->host_id) == 0) {
				if (r->o.host_out)
					fprintf(r->o.host_out, "Game %s is set aside: its file is damaged. "
					    "This is kept, and done\nwhen the game is repaired "
					    "(%s replay --game %s).\n", game,
					    r->o.invocation ? r->o.invocation : "pouch", game);
				r->host_refused = 1;
			}
			inmsg_free(&m);
			r->stats.held++;
			return 1;
		}
	}
	if (tick(r, e->arrival, true, err) < 0)
		goto fail;
	if (host)
		judge_host_mail(&r->j, &m, (long)i + 1, e->arrival);
	else
		judge_mail(&r->j, &m, (long)i + 1, e->arrival);
	if (host && r->j.fx.host_reply && strcmp(e->id, r->host_id) == 0) {
		if (r->o.host_out)
			fputs(r->j.fx.host_reply, r->o.host_out);
		r->host_refused = strstr(r->j.fx.host_reply, "REFUSED") != NULL;
	}
	if (consume(r, err) < 0 || tick(r, e->arrival, true, err) < 0)
		goto fail;
	inmsg_free(&m);
	r->stats.applied++;
	r->stats.host += host;
	return 0;
fail:
	inmsg_free(&m);
	return -1;
}

/* Live: record the settings that shape what the judge sends when they
 * are not those the spool last recorded, so that a replay uses them for
 * what this run does. */
static void
record_settings(struct runner *r)
{
	struct buf b;
	const char *old = spool_cursor(r->sp, "settings");

	buf_init(&b, 4096);
	conf_settings_write(&r->conf, &b);
	if (old == NULL || strcmp(old, buf_str(&b)) != 0)
		spool_set_cursor(r->sp, "settings", buf_str(&b));
	buf_free(&b);
}

/* Replay: the settings in force before ledger record rec (the last ones
 * when rec is 0). A spool that recorded none keeps the current ones. */
static void
replay_settings(struct runner *r, unsigned long rec)
{
	const struct spool_setting *st = NULL;

	for (; r->nsettings < spool_count_settings(r->sp); r->nsettings++) {
		const struct spool_setting *x = spool_setting_at(r->sp, r->nsettings);
		if (rec != 0 && x->rec > rec)
			break;
		st = x;
	}
	if (st) {
		conf_settings_apply(&r->conf, st->value);
		mail_mime_opts(&r->conf.mail, &r->mo);	/* it points at the address */
	}
}

/* What the runs recorded before ledger record rec (all of them when rec is
 * 0) did, from run *k on: time moved on to each run's time, the phases
 * whose orders were all in were decided. */
static int
do_runs(struct runner *r, size_t *k, unsigned long rec, struct buf *err)
{
	for (; *k < spool_count_runs(r->sp); ++*k) {
		const struct spool_run *ru = spool_run_at(r->sp, *k);
		if ((rec != 0 && ru->rec > rec) || (r->o.replay_cut && ru->time > r->o.now))
			break;
		if (r->o.replay)
			replay_settings(r, ru->rec);
		if (tick(r, ru->time, false, err) < 0)
			return -1;
	}
	return 0;
}

/* Checks queued ahead of the apply step at most, and messages read ahead
 * (and their bytes): enough to keep the workers busy, with few passwords
 * and little mail held at once. */
#define VERIFY_AHEAD 256
#define READ_AHEAD 1024
#define KEPT_BYTES (8u << 20)

static void
queue_secret(void *arg, const char *secret, const char *hash)
{
	verifier_add(arg, secret, hash);
}

/* The passwords of the messages from the first of from and where the
 * reading ahead stands on, up to n, read ahead and queued for the workers,
 * while fewer than VERIFY_AHEAD wait. The judge checks again as it
 * applies each message: this only makes the verdict ready. A live run
 * keeps what it read for the apply step (taken_ahead), in ledger order;
 * a replay, whose settings may change from one message to the next,
 * reads again. The fetch reads ahead too, as it stores (fetched_one). */
static void
read_ahead(struct runner *r, size_t from, size_t n)
{
	struct buf err;

	if (r->vf == NULL)
		return;
	if (r->ahead < from)
		r->ahead = from;
	buf_init(&err, BUF_ERRORS_MAX);
	while (r->ahead < n && r->kept_len < READ_AHEAD && r->kept_bytes < KEPT_BYTES &&
	    verifier_queued(r->vf) < VERIFY_AHEAD) {
		size_t k = r->ahead++;
		enum spool_state st = spool_state(r->sp, k);
		const struct spool_entry *e;
		struct read_ahead *ra;

		if (st == SPOOL_DUPLICATE || (!r->o.replay && st != SPOOL_STORED))
			continue;
		if ((e = spool_in(r->sp, k)) == NULL ||
		    (e->source && strncmp(e->source, HOST_SOURCE, strlen(HOST_SOURCE)) == 0))
			continue;
		ra = &r->kept[(r->kept_head + r->kept_len) % READ_AHEAD];
		memset(ra, 0, sizeof *ra);
		ra->i = k;
		if (mail_read(r->sp, e, &r->mo, &ra->m, &err) < 0) {
			buf_reset(&err);	/* the apply step says so */
			inmsg_free(&ra->m);
			continue;
		}
		judge_mail_secret(&r->j, &ra->m, queue_secret, r->vf);
		if (r->o.replay) {
			inmsg_free(&ra->m);
			continue;
		}
		ra->size = e->size;
		r->kept_len++;
		r->kept_bytes += e->size;
	}
	buf_free(&err);
}

/* Message i as read ahead, into m: 1, or 0 when it was not kept. */
static int
taken_ahead(struct runner *r, size_t i, struct inmsg *m)
{
	while (r->kept_len > 0) {
		struct read_ahead *ra = &r->kept[r->kept_head];
		if (ra->i > i)
			return 0;
		r->kept_head = (r->kept_head + 1) % READ_AHEAD;
		r->kept_len--;
		r->kept_bytes -= ra->size;
		if (ra->i == i) {
			*m = ra->m;
			return 1;
		}
		inmsg_free(&ra->m);	/* passed over (not applied after all) */
	}
	return 0;
}

/* Start checking passwords ahead (when this machine has a processor to
 * spare; the fetch may have started already), or stop: the judge then
 * checks them itself. */
static void
verify_ahead(struct runner *r, bool on)
{
	int nth = on && r->vf == NULL ? verifier_threads() : 0;

	if (on && nth > 0) {
		r->vf = verifier_new(nth);
		r->ahead = 0;
		r->kept = xcalloc(READ_AHEAD, sizeof *r->kept);
		r->kept_head = r->kept_len = r->kept_bytes = 0;
		r->j.io.secret_check = verifier_check_io;
		r->j.io.secret_arg = r->vf;
	} else if (!on) {
		r->j.io.secret_check = NULL;
		r->j.io.secret_arg = NULL;
		verifier_free(r->vf);
		r->vf = NULL;
		for (; r->kept_len > 0; r->kept_len--) {
			inmsg_free(&r->kept[r->kept_head].m);
			r->kept_head = (r->kept_head + 1) % READ_AHEAD;
		}
		free(r->kept);
		r->kept = NULL;
	}
}

/*
 * The messages in ledger order, each run's at once, then what that run did
 * (judge_tick at its time: a phase whose orders are all in is decided only
 * once the run has read all its mail). A live run records itself first
 * (spool_mark_run), and does again, as they were, the runs after the last
 * that finished (a crash): the same mail, the same Message-IDs. A replay
 * does every run. Messages stored before the first recorded run (a spool
 * from an older pouch) are each a run of their own, at their arrival.
 */
/* Inbound message i is a copy of one before it (the same Message-ID and
 * text): never applied nor answered; judge.log says so once, in the run
 * that stored it (stored after the last finished run's clock record),
 * dated at its arrival as every line about a message received is. */
static void
note_copy(struct runner *r, size_t i, unsigned long clock_rec)
{
	const struct spool_entry *e = spool_in(r->sp, i);
	char line[900];

	if (e == NULL || e->rec_in <= clock_rec)
		return;
	snprintf(line, sizeof line, "not applied nor answered: message %s (Message-ID <%.300s>) is "
	    "a copy of message %s, the same Message-ID and text, answered once", e->id,
	    e->message_id ? e->message_id : "", e->dup_of ? e->dup_of : "before it");
	store_log(&r->st, e->arrival, line);
}

int
runner_apply(struct runner *r, struct buf *err)
{
	unsigned long clock_rec;
	size_t i, n, k = 0, copies;
	time_t end = r->o.now;
	double t0 = monotime_ms();
	int rc = 0;

	runner_pages_wait(r);
	crash_step("apply");
	if (runner_load(r, err) < 0)
		return -1;
	if (!r->o.replay) {
		while (k < spool_count_runs(r->sp) &&
		    spool_run_at(r->sp, k)->rec < spool_clock_rec(r->sp))
			k++;
		record_settings(r);
		spool_mark_run(r->sp, r->o.now);
		if (spool_sync(r->sp, err) < 0)
			return -1;
	}
	n = spool_count_in(r->sp);
	if (r->o.replay && r->o.replay_cut && r->o.replay_upto < n)
		n = r->o.replay_upto;
	verify_ahead(r, true);
	if (r->vf != NULL)
		verifier_counts(r->vf, &r->stats.checks, &r->stats.made_fetch);
	/* Copies stored since the last finished run come after every
	 * message applied: only those are looked at (note_copy). */
	clock_rec = spool_clock_rec(r->sp);
	for (copies = n; copies > 0 && spool_state(r->sp, copies - 1) != SPOOL_APPLIED; copies--)
		;
	for (i = 0; i < n; i++) {
		const struct spool_entry *e;
		enum spool_state st = spool_state(r->sp, i);
		int held;
		if (st == SPOOL_DUPLICATE && !r->o.replay && i >= copies)
			note_copy(r, i, clock_rec);
		if (st == SPOOL_DUPLICATE || (!r->o.replay && st != SPOOL_STORED))
			continue;
		read_ahead(r, i + 1, n);	/* message i is applied now: too late */
		if ((e = spool_in(r->sp, i)) == NULL) {
			buf_printf(err, "%s/ledger: a record changed since it was read\n",
			    spool_dir(r->sp));
			rc = -1;
			break;
		}
		if (do_runs(r, &k, e->rec_in, err) < 0) {
			rc = -1;
			break;
		}
		if (r->o.replay)
			replay_settings(r, k < spool_count_runs(r->sp) ?
			    spool_run_at(r->sp, k)->rec : 0);
		if ((held = apply_one(r, i, err)) < 0) {
			rc = -1;
			break;
		}
		e = spool_in(r->sp, i);	/* the same entry (the spool keeps the last read) */
		if (!r->o.replay && held == 1) {
			GROW(r->held, r->nheld, r->capheld);
			r->held[r->nheld++] = i;
		}
		if (spool_count_runs(r->sp) == 0 || e->rec_in < spool_run_at(r->sp, 0)->rec) {
			if (tick(r, e->arrival, false, err) < 0) {
				rc = -1;
				break;
			}
		}
	}
	if (r->vf != NULL)
		verifier_counts(r->vf, &r->stats.checks, &r->stats.made);
	verify_ahead(r, false);
	if (rc == 0)
		rc = do_runs(r, &k, 0, err);
	if (rc == 0 && !r->o.replay)
		r->apply_upto = n;	/* the commit marks them */
	if (r->o.replay && end == 0 && !r->o.replay_cut)
		end = spool_clock(r->sp);	/* where the live judge stopped */
	if (rc == 0 && end > 0) {
		rc = tick(r, end, false, err);
	}
	if (rc < 0 && !r->o.replay)
		spool_discard(r->sp);	/* nothing of this run counts as applied */
	if (r->stats.not_queued > 0)	/* one line, however many */
		log_warn("not queued: %d message%s; the first: %s", r->stats.not_queued,
		    r->stats.not_queued == 1 ? "" : "s", r->not_queued_why);
	r->stats.not_queued = 0;
	r->stats.ms_apply = monotime_ms() - t0;
	return rc;
}

/* DATA/pages-due lists the games whose map pages are still to be drawn,
 * "GAME FIRST" a line: written (synced) before the games are committed
 * (runner_commit), rewritten with the games whose pages could not all be
 * written (a full disk), removed once all were and are on disk for good.
 * A run that finds it draws them again. */
static void
read_pages_due(struct runner *r)
{
	char path[1200], game[GAME_NAME_MAX];
	const char *p, *end, *line, *blank;
	struct buf b;
	size_t n;
	long first;

	pages_due_path(r, path, sizeof path);
	buf_init(&b, 1 << 20);
	if (fs_read_file(path, &b) == 0) {
		p = buf_str(&b);
		end = p + b.len;
		while ((line = str_next_line(&p, end, &n)) != NULL) {
			char num[16];
			blank = memchr(line, ' ', n);
			if (blank == NULL || (size_t)(blank - line) >= sizeof game ||
			    (size_t)(line + n - blank) > sizeof num)
				continue;
			memcpy(game, line, (size_t)(blank - line));
			game[blank - line] = '\0';
			memcpy(num, blank + 1, (size_t)(line + n - blank - 1));
			num[line + n - blank - 1] = '\0';
			if (str_to_long(num, 1, INT_MAX, &first) == 0 && judge_find_game(&r->j, game))
				add_paged(r, game, (int)first);
		}
	}
	buf_free(&b);
}

static void
write_pages_due(struct runner *r)
{
	char path[1200];
	struct buf b;
	int k;

	pages_due_path(r, path, sizeof path);
	if (r->npaged == 0) {
		if (unlink(path) < 0 && errno != ENOENT)
			log_warn("%s: %s", path, strerror(errno));
		return;
	}
	buf_init(&b, 1 << 20);
	for (k = 0; k < r->npaged; k++)
		buf_printf(&b, "%s %d\n", r->paged[k].game, r->paged[k].first);
	if (buf_failed(&b))
		log_warn("%s: not written: longer than %u bytes", path, 1u << 20);
	else if (fs_write_atomic(path, b.data, b.len) < 0)
		log_warn("%s: %s", path, strerror(errno));
	buf_free(&b);
}

/* The map pages of the games that moved on, and of those a failed run
 * left undrawn. A page that cannot be written is a warning, and counted
 * (stats.pages_left): the next run draws that game's pages again
 * (DATA/pages-due). */
static void
write_pages(struct runner *r)
{
	struct buf err;
	int k, left = 0;

	crash_step("pages");
	if (r->npaged == 0) {	/* runner_commit read DATA/pages-due */
		write_pages_due(r);	/* a list naming no game that is left */
		return;
	}
	buf_init(&err, BUF_ERRORS_MAX);
	for (k = 0; k < r->npaged; k++) {
		const struct game *g = judge_find_game(&r->j, r->paged[k].game);
		buf_reset(&err);
		if (g && webpages_game(&r->web, &r->st, g, r->paged[k].first, &err) < 0) {
			log_warn("map pages of %s: %s", g->name, buf_str(&err));
			r->paged[left++] = r->paged[k];
		}
	}
	r->npaged = left;	/* (paged_at no longer matches: cleared below) */
	r->stats.pages_left = left;
	/* The pages are written without syncing: the list goes only once
	 * they are on disk for good, an index drawn alone as much as a phase
	 * page (a page not changed is not written, and costs the sync
	 * nothing; no folder of pages, nothing written). */
	if (left == 0 && fs_sync_fs(r->pages_dir) < 0 && errno != ENOENT) {
		log_warn("%s: %s (the pages are drawn again next run)", r->pages_dir, strerror(errno));
		r->stats.pages_left = k;
	} else {
		write_pages_due(r);
	}
	buf_free(&err);
	clear_paged(r);
	r->stats.pages = r->web.phases;
	r->stats.record_pages = r->web.records;
	r->stats.paged_games = r->web.games;
}

static void *
pages_thread(void *arg)
{
	struct runner *r = arg;
	double t0 = monotime_ms();

	write_pages(r);
	r->stats.ms_pages = monotime_ms() - t0;
	return NULL;
}

/* Draw the pages on a thread of their own (signals stay with the main
 * thread), or here when there are none to draw or no thread starts. While
 * they are drawn the thread alone touches r->paged, r->web and the pages;
 * it reads the games and their history, which nothing changes until
 * runner_pages_wait. */
static void
begin_pages(struct runner *r)
{
	sigset_t all, old;
	int rc = -1;

	if (r->npaged > 0) {
		webpages_threads();
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = pthread_create(&r->pages_th, NULL, pages_thread, r);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (rc == 0) {
		r->pages_running = true;
		return;
	}
	pages_thread(r);
	crash_step("commit");
}

void
runner_pages_wait(struct runner *r)
{
	if (!r->pages_running)
		return;
	pthread_join(r->pages_th, NULL);
	r->pages_running = false;
}

/* Write DATA/next-due (not synced: a file that is missing or cut short
 * just makes the next run load the games); with keep_earlier, the
 * earlier of due and what the file says. */
static void
write_next_due(struct runner *r, time_t due, int keep_earlier)
{
	char path[1200], v[32];
	struct buf b;
	long old;

	snprintf(path, sizeof path, "%s/next-due", r->o.data);
	buf_init(&b, 64);
	if (keep_earlier && fs_read_file(path, &b) == 0 &&
	    str_to_long(buf_str(&b), 0, LONG_MAX, &old) == 0 && (time_t)old < due)
		due = (time_t)old;
	buf_free(&b);
	snprintf(v, sizeof v, "%lld\n", (long long)due);
	if (fs_replace(path, v, strlen(v)) < 0)
		log_warn("%s: %s", path, strerror(errno));
}

static void
free_applied(struct runner *r)
{
	free(r->held);
	r->held = NULL;
	r->nheld = r->capheld = 0;
	r->apply_upto = 0;
}

/* Marks are made durable this many at a time: the ledger's records
 * waiting to be written stay small however many messages a run applied. */
#define MARKS_PER_SYNC 4096

/* The ledger's "applied" marks of what this run applied (runner_apply):
 * every message before apply_upto still stored, but those held. */
static int
mark_applied(struct runner *r, struct buf *err)
{
	size_t i, h = 0, n = 0;

	for (i = 0; i < r->apply_upto; i++) {
		if (h < r->nheld && r->held[h] == i) {
			h++;
			continue;
		}
		if (spool_state(r->sp, i) != SPOOL_STORED)
			continue;
		if (spool_mark_applied_at(r->sp, i, r->o.now, err) < 0)
			return -1;
		if (++n % MARKS_PER_SYNC == 0 && spool_sync(r->sp, err) < 0)
			return -1;
	}
	return 0;
}

int
runner_commit(struct runner *r, struct buf *err)
{
	double t0 = monotime_ms();
	time_t due = next_due(&r->j);
	int rc;

	runner_pages_wait(r);
	crash_step("commit");
	/* The outbox first: a game saved as having sent a message must find
	 * it queued. Then the games; then the marks that say so (forgotten
	 * when the games could not be saved: the next run applies again). */
	if (r->ob && outbox_sync(r->ob, err) < 0)
		goto fail;
	/* Nor may the games apply a message the spool failed to record (its
	 * ledger write failed in the fetch: the spool refuses to sync). */
	if (!r->o.replay && spool_sync(r->sp, err) < 0)
		goto fail;
	/* next-due never says later than the games on disk: the earlier of
	 * the old and the new value while the games are being replaced. */
	if (!r->o.replay && r->loaded)
		write_next_due(r, due, 1);
	/* The games whose pages are to be drawn, listed before the games are
	 * replaced: a commit that lands but reports a failure (a file system
	 * gone read-only at its last sync) leaves them to the next run. */
	read_pages_due(r);
	if (r->npaged > 0)
		write_pages_due(r);
	if (store_commit(&r->st, &r->j, err) < 0)
		goto fail;
	/* Games set aside in this run: the note, once the mail to their
	 * masters is queued for good. */
	for (int i = 0; r->aside_notes && i < r->st.naside; i++) {
		char path[1300];
		if (r->aside_notes[i] == NULL)
			continue;
		aside_note_path(r, r->st.aside[i].game, path, sizeof path);
		if (fs_write_atomic(path, r->aside_notes[i], strlen(r->aside_notes[i])) < 0) {
			buf_printf(err, "%s: %s\n", path, strerror(errno));
			goto fail;
		}
		free(r->aside_notes[i]);
		r->aside_notes[i] = NULL;
	}
	begin_pages(r);
	rc = 0;
	if (!r->o.replay) {
		if (r->loaded)
			write_next_due(r, due, 0);
		/* The games say these messages were applied: now the marks. */
		rc = mark_applied(r, err);
		free_applied(r);
		if (rc < 0)
			return -1;
		spool_set_clock(r->sp, r->o.now);
		rc = spool_sync(r->sp, err);
	}
	r->stats.ms_commit = monotime_ms() - t0;
	return rc;
fail:
	if (!r->o.replay)
		spool_discard(r->sp);
	return -1;
}

int
runner_log_line(const char *data, time_t now, const char *line, struct buf *err)
{
	char stamp[32], path[1200];
	struct buf b;
	int rc = 0;

	snprintf(path, sizeof path, "%s/judge.log", data);
	buf_init(&b, 64 << 10);
	buf_printf(&b, "%s %s\n", time_rfc3339(now, stamp, sizeof stamp), line);
	if (buf_failed(&b) || fs_append_sync(path, buf_str(&b), b.len) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		rc = -1;
	}
	buf_free(&b);
	return rc;
}

int
runner_log_notes(const char *data, time_t now, char ***notes, int *n, struct buf *err)
{
	char path[1200];
	struct buf old;
	int i, rc = 0, read = 0;

	snprintf(path, sizeof path, "%s/judge.log", data);
	buf_init(&old, 1u << 30);
	for (i = 0; i < *n && rc == 0; i++) {
		const char *l = (*notes)[i];
		/* a damaged message waits in the outbox and is found by every
		 * send: logged once ("outbox message ID not sent: ...") */
		if (strncmp(l, "outbox message ", 15) == 0) {
			size_t k = strcspn(l + 15, " ") + 15 + strlen(" not sent");
			char key[300];
			if (!read++ && fs_read_file(path, &old) < 0)
				buf_reset(&old);
			snprintf(key, sizeof key, " %.*s", (int)(k < 290 ? k : 290), l);
			if (strstr(buf_str(&old), key) != NULL)
				continue;
		}
		rc = runner_log_line(data, now, l, err);
	}
	buf_free(&old);
	strv_free(*notes, *n);
	*notes = NULL;
	*n = 0;
	return rc;
}

int
runner_send(struct runner *r, struct buf *err)
{
	struct outbox_failure *fv = NULL;
	int nf, i;

	double t0 = monotime_ms();

	if (r->ob == NULL)
		return 0;
	crash_step("send");
	if (mail_send(r->ob, &r->conf.mail, r->sp, r->o.now, &r->stats.out, err) < 0) {
		strv_free(r->stats.out.notes, r->stats.out.nnotes);
		r->stats.out.notes = NULL;
		return -1;
	}
	if (runner_log_notes(r->o.data, r->o.now, &r->stats.out.notes, &r->stats.out.nnotes, err) < 0)
		return -1;
	r->stats.ms_send = monotime_ms() - t0;
	/* Recipients refused for good: logged, then forgotten (a bounce that
	 * comes back by mail reaches the game master through the judge). */
	nf = outbox_failures(r->ob, &fv, err);
	for (i = 0; i < nf; i++) {
		char line[1024], stamp[32], path[1200];
		snprintf(line, sizeof line, "%s delivery to %s failed for good: %s (%s)\n",
		    time_rfc3339(r->o.now, stamp, sizeof stamp), fv[i].rcpt, fv[i].reason,
		    fv[i].message_id ? fv[i].message_id : fv[i].id);
		snprintf(path, sizeof path, "%s/judge.log", r->o.data);
		if (fs_append_sync(path, line, strlen(line)) == 0)
			outbox_forget_failure(r->ob, fv[i].id, err);
		log_warn("%s", line);
	}
	outbox_failures_free(fv, nf > 0 ? nf : 0);
	return nf < 0 ? -1 : 0;
}

void
runner_close(struct runner *r)
{
	struct buf err;

	if (!r->opened)
		return;
	runner_pages_wait(r);
	buf_init(&err, BUF_ERRORS_MAX);
	verify_ahead(r, false);
	judge_free(&r->j);
	free_applied(r);	/* not committed: the next run applies them */
	outbox_close(r->ob);
	if (spool_close(r->sp, &err) < 0)
		log_warn("%s", buf_str(&err));
	buf_free(&err);
	webpages_free(&r->web);
	clear_paged(r);
	for (int i = 0; r->aside_notes && i < r->st.naside; i++)
		free(r->aside_notes[i]);
	free(r->aside_notes);
	r->aside_notes = NULL;
	store_close(&r->st);
	conf_free(&r->conf);
	strset_free(&r->known);
	free(r->load_err);
	r->load_err = NULL;
	r->opened = 0;
}

int
runner_aside_point(const char *data, const char *game, size_t *upto, time_t *clock,
    struct buf *err)
{
	char path[1300];
	struct buf b;
	struct spool *sp;
	char *dir;
	int got = 0;

	snprintf(path, sizeof path, "%s/games/%s/%s", data, game, ASIDE_NOTE);
	buf_init(&b, ASIDE_TEXT_MAX);
	if (fs_read_file(path, &b) == 0) {
		const char *p = buf_str(&b), *end = p + b.len, *line;
		size_t n;
		while ((line = str_next_line(&p, end, &n)) != NULL) {
			char v[32];
			long x;
			if (n > 5 && n - 5 < sizeof v && memcmp(line, "upto ", 5) == 0) {
				memcpy(v, line + 5, n - 5);
				v[n - 5] = '\0';
				got += str_to_long(v, 0, LONG_MAX, &x) == 0;
				*upto = (size_t)x;
			} else if (n > 6 && n - 6 < sizeof v && memcmp(line, "clock ", 6) == 0) {
				memcpy(v, line + 6, n - 6);
				v[n - 6] = '\0';
				got += str_to_long(v, 0, LONG_MAX, &x) == 0;
				*clock = (time_t)x;
			}
		}
		buf_free(&b);
		if (got == 2)
			return 1;
		buf_printf(err, "%s: damaged (no upto or clock line)\n", path);
		return -1;
	}
	buf_free(&b);
	if (errno != ENOENT) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	/* Never set aside: where the last run left the spool. */
	dir = mail_spool_dir(data);
	sp = spool_open(dir, err);
	free(dir);
	if (sp == NULL)
		return -1;
	*upto = first_pending(sp);
	*clock = spool_clock(sp);
	return spool_close(sp, err) < 0 ? -1 : 0;
}