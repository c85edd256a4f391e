/*
 * run.h — one run of the judge over its data directory (shell).
 *
 * `pouch run`, `pouch game ...` and `pouch replay` are all this loop:
 *
 *	runner_open(&r, &opts, &err);        lock, settings, games, spool, outbox
 *	runner_fetch(&r, &err);              new mail into the spool (run only)
 *	runner_apply(&r, &err);              every stored message, in arrival order
 *	runner_commit(&r, &err);             outbox, games, applied marks: durable
 *	runner_send(&r, &err);               the outbox to the mail server
 *	runner_pages_wait(&r);               the map pages drawn meanwhile
 *	runner_close(&r);
 *
 * Applying a message: the clock moves to its arrival (deadlines that
 * passed before it are acted on first), the judge reads it (judge_mail,
 * or judge_host_mail for what `pouch game` filed), and what it completed
 * is acted on at once. At the end the clock moves to the run's time.
 * Every outgoing message is queued in the outbox unless its Message-ID was
 * queued or sent before (a re-run after a crash repeats the same effects
 * with the same Message-IDs); game changes, history and logs are staged
 * and committed once, after the outbox and before the spool's applied
 * marks, so that a crash at any point loses nothing and applies nothing
 * twice. The marks are made only once the games are committed: a run that
 * fails before (a full disk) leaves every message to the next run.
 *
 * The map pages of the games that moved on are drawn on a thread of their
 * own from the end of the commit, while the run sends (they are made again
 * from the history records: DATA/pages-due names them until they are on
 * disk for good); runner_pages_wait, and every later step, waits for them.
 *
 * Replay (opts.replay): the spool is read, never written; the games start
 * empty in a new data directory; every message that is not a duplicate is
 * applied whatever its mark, and the final tick is at the spool's clock
 * (the live judge's last run). Outgoing mail is written as files into
 * OUT/replay-mail/ instead of the outbox.
 */
#ifndef POUCH_RUN_H
#define POUCH_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "../../lib/buf.h"
#include "../../lib/strset.h"
#include "../../mailer/mailer.h"
#include "conf.h"
#include "../judge.h"
#include "store.h"
#include "webpages.h"

struct run_opts {
	const char *data;	/* data directory */
	const char *config;	/* settings file; NULL: DATA/pouch.conf when it exists */
	const char *conf_dir;	/* what its relative paths are relative to; NULL: data */
	const char *maps;	/* variants; NULL: the default */
	const char *spool;	/* replay: the spool to read (default DATA/spool) */
	time_t now;		/* the run's time */
	int replay;
	int replay_cut;		/* replay: only the inbound messages before replay_upto */
	size_t replay_upto;
	int wait_ms;		/* for the data directory's lock */
	FILE *host_out;		/* where answers to host messages go; NULL: nowhere */
	int look_only;		/* the games are only looked at (game list, doctor): nothing
				 * is written, no Maildir made */
	const char *invocation;	/* how the host's commands start ("pouch --data DIR"),
				 * in what the host is told to type; NULL: "pouch" */
};

struct run_stats {
	int fetched, stored;	/* mail_fetch */
	int early;		/* of the stored, delivered before the last busy run's
				   clock (their arrival is that clock) */
	int applied;		/* messages applied */
	int host;		/* of which host messages */
	int unreadable;		/* spooled files that could not be read */
	int held;		/* messages kept for a game set aside */
	int queued;		/* messages put in the outbox (or replay-mail/) */
	int not_queued;		/* messages the mail layer refused (a bad address, a full disk) */
	int repeated;		/* effects whose Message-ID was queued before */
	int phases;		/* phases adjudicated */
	int pages;		/* phase pages drawn (struct webpages) */
	int record_pages;	/* public record pages drawn */
	int paged_games;	/* games whose map pages were drawn */
	int pages_left;		/* games whose pages could not all be written (or
				   synced): drawn again by the next run */
	size_t checks;		/* password checks queued ahead of the judge */
	size_t checks_fetch;	/* ... of which while the mail was fetched */
	size_t made_fetch;	/* checks the worker threads had made when the
				   apply step began, and when it ended */
	size_t made;
	struct outbox_stats out;
	double ms_fetch, ms_apply, ms_commit, ms_send;	/* wall time of each step */
	double ms_pages;	/* the map pages' drawing, on a thread of its own from the
				   commit on (while the run sends) */
};

struct runner {
	struct run_opts o;
	time_t asked_now;	/* the time asked for, when it was before the last
				   busy run's clock, which o.now then keeps; else 0 */
	struct pouch_conf conf;
	struct store st;
	struct judge j;
	struct spool *sp;
	struct outbox *ob;
	struct mime_opts mo;
	struct strset known;	/* Message-IDs in the outbox, or queued by this run
				 * for an event other than one message (consume) */
	struct webpages web;	/* the map pages */
	char pages_dir[1100];
	struct {
		char game[GAME_NAME_MAX];
		int first;	/* first history record new in this run */
	} *paged;		/* games whose pages are to be drawn */
	int npaged;
	int *paged_at;		/* per game (its judge index): its place in paged + 1;
				 * 0: not there */
	int npaged_at;
	pthread_t pages_th;	/* drawing the pages, while pages_running */
	bool pages_running;
	struct buf *drain_to;	/* while a tick runs: where consume's errors go */
	int drain_bad;		/* ... and whether one failed */
	char host_id[128];	/* the spool id of this run's host message, if any */
	/* What the commit marks applied: every inbound message before
	 * apply_upto still stored, but those held (for a game set aside, in
	 * ledger order); found again from the spool, not kept a message each */
	size_t apply_upto;
	size_t *held;
	size_t nheld, capheld;
	char mail_dir[1100];	/* replay: where outgoing mail is written */
	struct run_stats stats;
	char not_queued_why[600];	/* the first refusal of this apply step */
	int opened;
	int loaded;		/* the games are loaded (or were tried) */
	char *load_err;		/* why they could not be, said again when asked again */
	int ahead_off;		/* the fetch reads no mail ahead (no thread to spare, or
				   the games did not load) */
	int host_refused;	/* the host's message had a line refused */
	size_t nsettings;	/* replay: the spool's settings records used so far */
	char **aside_notes;	/* per r->st.aside: its note to write, NULL when written */
	struct verifier *vf;	/* while applying: the passwords checked ahead */
	size_t ahead;		/* ... read ahead up to this inbound message */
	struct read_ahead {	/* ... the messages read then, for the apply step */
		size_t i, size;
		struct inmsg m;
	} *kept;
	size_t kept_head, kept_len;	/* a ring of READ_AHEAD */
	size_t kept_bytes;		/* their raw sizes, at most KEPT_BYTES */
};

/* A game set aside has DATA/games/NAME/ASIDE_NOTE ("since", "upto N",
 * "clock T" and "why" lines): the position in the spool and the clock it
 * was set aside at, which `pouch replay --game NAME` rebuilds it to. */
#define ASIDE_NOTE "set-aside"
/* The Message-IDs of the mail telling a game's masters it was set aside
 * ("pouch.aside.GAME.UPTO@DOMAIN"): the shell's, no replay makes them. */
#define ASIDE_MSGID "pouch.aside."

/* Open everything. Returns 0; 1 when another run holds the data directory
 * (nothing was done); -1 on error (err). */
int runner_open(struct runner *r, const struct run_opts *o, struct buf *err);
/* Fetch new mail into the spool. On a machine with a processor to spare,
 * the first new message stored loads the games (runner_load) and the
 * passwords of what is stored start being checked at once, read ahead of
 * the apply step as runner_apply reads them. Returns 0 or -1 (err; what
 * was stored stays). */
int runner_fetch(struct runner *r, struct buf *err);
/* File a message from the host (`pouch game`): body is its text. Its answer
 * is printed to opts.host_out when it is applied. Returns 0 or -1 (err). */
int runner_host(struct runner *r, const char *body, struct buf *err);
/* Load the games (runner_apply does it when needed), once: a later call
 * returns what the first did. Returns 0 or -1 (err). */
int runner_load(struct runner *r, struct buf *err);
/* True when there is nothing to do before sending: no message waits to
 * be applied, and no game needs the judge yet (DATA/next-due, written at
 * every commit, says when one may). Then the games need not be loaded. */
int runner_idle(struct runner *r);
/* Apply every stored message, then tick to the run's time. Returns 0, or
 * -1 (err) when effects could not be staged. */
int runner_apply(struct runner *r, struct buf *err);
/* Make it all durable, and begin drawing the map pages (on a thread).
 * Returns 0 or -1 (err). */
int runner_commit(struct runner *r, struct buf *err);
/* Send what waits in the outbox. Returns 0 or -1 (err). */
int runner_send(struct runner *r, struct buf *err);
/* Wait until the map pages the commit began are drawn (a no-op when none
 * are being drawn); stats.pages, record_pages and paged_games then count
 * them. */
void runner_pages_wait(struct runner *r);
/* Wait for the pages, then unlock and free everything. */
void runner_close(struct runner *r);
/* Append the outbox's notes (struct outbox_stats) to data's judge.log,
 * stamped now, and free them (*notes NULL, *n 0 after): a damaged message
 * once, however many sends find it. Returns 0 or -1 (err). */
int runner_log_notes(const char *data, time_t now, char ***notes, int *n, struct buf *err);
/* The same for one line (a note of the host's, as send --drop's). */
int runner_log_line(const char *data, time_t now, const char *line, struct buf *err);
/* Where game (in data directory data) was set aside: the number of inbound
 * messages applied then (*upto) and the judge's clock (*clock), from its
 * note; for a game never set aside, where the last run left the spool.
 * Returns 1 (from the note), 0 (from the spool) or -1 (err). */
int runner_aside_point(const char *data, const char *game, size_t *upto, time_t *clock,
    struct buf *err);

#endif
