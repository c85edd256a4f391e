/*
 * judge.h — the judge: games run by mail.
 *
 * API
 *
 * The judge is the pure core of the service. The shell (store.h, the
 * `pouch run` command) loads the games into a struct judge, hands it each
 * inbound message with its arrival time (judge_mail) and the current time
 * (judge_tick), then makes the effects durable: outgoing messages, changed
 * games, history records, audit lines, press copies. The judge reads no
 * files and no clock: given the same games, messages and times it produces
 * the same effects, byte for byte (this is what `pouch replay` relies on).
 *
 *	judge_init(&j, &conf, &io);
 *	judge_add_game(&j, g);            // for every stored game
 *	judge_mail(&j, &msg, seq, msg.arrival);
 *	judge_tick(&j, now);
 *	... persist j.effects, then judge_effects_clear(&j) ...
 *	judge_free(&j);
 *
 * Reading history (for HISTORY and ROLLBACK) and choosing random secrets
 * go through the io callbacks, so tests can supply them.
 */
#ifndef POUCH_JUDGE_H
#define POUCH_JUDGE_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../lib/buf.h"
#include "../lib/sha256.h"
#include "../lib/tz.h"
#include "../mailer/message.h"
#include "engine/adjudicate.h"
#include "game.h"
#include "system.h"

/* judge.due_at of a game the tick at a message never looks at (not under way) */
#define DUE_NONE ((time_t)INT64_MAX)

struct judge_conf {
	char address[ADDR_MAX];		/* the judge's address: judge@example.test */
	char domain[128];		/* for Message-IDs and List-Ids */
	char base_url[256];		/* public map pages; "" when none */
	char create_key[SECRET_HASH_MAX]; /* hash of the key for NEWGAME by mail; "" = none */
	char name[64];			/* how the judge signs ("pouch") */
	int reply_limit;		/* replies to one sender per hour */
};

/* What the judge asks of the shell. */
struct judge_io {
	void *ctx;
	/* The variant called name and its name index, or NULL. */
	const struct map *(*variant)(void *ctx, const char *name, const struct names **nm);
	/* Append history record index of game to out; -1 when there is none. */
	int (*history)(void *ctx, const char *game, int index, struct buf *out);
	/* 16 random bytes (salts, generated passwords); -1 on failure. label
	 * names the event and draw ("m12/1"): a shell that derives the bytes
	 * from a secret key and the label lets a replay reproduce them. */
	int (*random)(void *ctx, const char *label, unsigned char out[16]);
	/* The rule system that variant m plays (judge/system.h). */
	const struct rule_system *(*system)(void *ctx, const struct map *m);
	/* The offsets of the time zones (judge/shell/zones.h). */
	struct tz_lookup zones;
	/* When set, asked instead of secret_check whether secret matches the
	 * stored hash (the same verdict: the shell may have checked it ahead). */
	bool (*secret_check)(void *arg, const char *secret, const char *hash);
	void *secret_arg;
};

/* A phase just adjudicated: for the history file and the map pages. */
struct judge_phase {
	char game[GAME_NAME_MAX];
	int index;			/* history record number (1, 2, ...) */
	struct board before;
	struct board after;		/* resolved position (dislodged units still there) */
	struct board next;		/* the position of the next phase */
	int norders;
	struct order *orders;		/* owned */
	struct phase_result *res;	/* owned */
	char *text;			/* the history record's text, owned */
	bool cut;			/* text passed its cap: not whole, never written */
};

struct judge_note {
	char game[GAME_NAME_MAX];	/* "" for judge-wide notes */
	char *text;			/* owned; one line, no newline */
};

struct judge_effects {
	struct outmsg *out;		/* messages to send */
	int nout, capout;
	struct judge_phase *phases;	/* phases adjudicated */
	int nphases, capphases;
	struct judge_note *audit;	/* GM actions (no secrets) */
	int naudit, capaudit;
	struct judge_note *press;	/* press copies for the archive */
	int npress, cappress;
	struct judge_note *rollbacks;	/* game rolled back: history after text (a number) to retire */
	int nrollbacks, caprollbacks;
	struct judge_note *log;		/* what happened to messages that got no reply */
	int nlog, caplog;
	struct judge_note *pages;	/* games whose map pages show something new that no
					   phase, rollback or audit line says (the index's
					   line on the deadline); no text */
	int npages, cappages;
	char *host_reply;		/* judge_host_mail's answer, for the host's terminal */
};

struct sender_rate {
	char addr[ADDR_MAX];
	time_t window;			/* start of the current hour */
	int count;
};

/* Strings of the judge (games' names, senders' addresses) found by their
 * bytes, ASCII case folded: open addressing, slot[k] = entry + 1 (0:
 * empty), cap a power of two, at most half full. */
struct fold_index {
	int *slot;
	size_t cap;
};

/* The string of entry i of an index of j. */
typedef const char *fold_key_fn(const struct judge *j, int i);

struct judge {
	const struct judge_conf *conf;
	struct judge_io io;
	struct game **games;		/* owned */
	bool *dirty;			/* per game: must be saved */
	int ngames, capgames;
	/* games touched since the shell last asked (judge_touched): their
	 * indexes, each once, and a flag per game beside games[] */
	int *touched;
	int ntouched;
	bool *is_touched;
	/* judge_tick_due's index (turn.c): a game is looked at when its wake
	 * time came (its deadline while it waits quietly for it; at once
	 * otherwise), kept in a heap, not by a pass over every game */
	struct due_entry {
		time_t at;
		int game;
	} *due;				/* a min-heap by at; an entry whose at is no
					 * longer its game's due_at is stale */
	int ndue, capdue;
	time_t *due_at;			/* per game: its live entry's at; DUE_NONE: none */
	int *retick;			/* games touched since the index last saw them */
	int nretick;
	bool *is_retick;
	int *cand;			/* the games one tick looks at */
	int ncand;
	bool *is_cand;
	bool due_built;			/* the heap holds every game */
	/* Called by judge_tick and judge_tick_due after each game they looked
	 * at, when set: the shell takes the effects (fx) game by game, so that
	 * a tick that decides a phase in every game does not hold them all. */
	void (*drain)(void *arg);
	void *drain_arg;
	struct fold_index names;	/* games by name (the first of a name) */
	struct judge_effects fx;
	struct sender_rate *rates;	/* replies per sender (kept by the shell) */
	int nrates, caprates;
	struct fold_index rate_index;	/* rates by address (the last of one) */
	bool rates_dirty;
	/* passwords verified this run, by the SHA-256 of the stored hash and
	 * the password (never the password): open addressing, capok a power
	 * of two, an all-zero digest an empty slot */
	unsigned char (*okcache)[SHA256_SIZE];
	size_t nok, capok;
	long seq;			/* the message being handled */
	bool host;			/* ... comes from the host (judge_host_mail) */
	bool reading;			/* ... is being read (judge_mail, judge_host_mail) */
	/* An announcement of that message that ends with the deadline, sent
	 * once the message is read to its end (outbound_news): */
	struct game *news_game;		/* its game; NULL: none */
	char news_subject[128];
	char *news_text;		/* its text; NULL: only that the deadline moved */
	bool news_active;		/* sent only if the game is running then */
	char idbase[64];		/* Message-IDs of what the current event produces: */
	int nmsg;			/* "pouch.<idbase>.<nmsg>@domain", the same on a re-run */
	int nrand;			/* random labels "<idbase>/<nrand>" */
	time_t now;
};

/* Set up an empty judge. conf must outlive it. */
void judge_init(struct judge *j, const struct judge_conf *conf, const struct judge_io *io);
/* Free games and effects. */
void judge_free(struct judge *j);
/* Take ownership of a loaded game. Returns its index. */
int judge_add_game(struct judge *j, struct game *g);
/* The game called name (case-insensitive), or NULL. */
struct game *judge_find_game(struct judge *j, const char *name);
/* The entry of x whose string (key(j, entry)) is s, ASCII case folded; -1 when none. */
int fold_index_find(const struct fold_index *x, const struct judge *j, fold_key_fn *key,
    const char *s);
/* Index entry i, one of n (it grows with them): a string already there
 * keeps its entry unless last says the later entry takes it. */
void fold_index_put(struct fold_index *x, const struct judge *j, fold_key_fn *key, int i, int n,
    bool last);
/* Index of g in j->games. */
int judge_game_index(const struct judge *j, const struct game *g);
/* The indexes of the games touched (judge_touch) or added since the last
 * call, each once, in increasing order, into *idx (valid until the next
 * touch); returns how many. A game's effects are known by then. */
int judge_touched(struct judge *j, const int **idx);
/* qsort's order of two game indexes (ints), lowest first. */
int judge_cmp_index(const void *a, const void *b);

/* Handle one inbound message numbered seq (in arrival order) at time now. */
void judge_mail(struct judge *j, const struct inmsg *m, long seq, time_t now);
/*
 * The same for a message from the host (`pouch game ...` on the judge's
 * machine, filed in the spool like mail so that replay sees it). It has
 * the authority of every game's master without a password:
 *	GAME school1 GM
 *	DELEGATION England alice@example.org
 * and may create games without the creation key:
 *	NEWGAME school1 standard GM teacher@example.org [PASSWORD pw]
 * (without a password one is made up and mailed to the GM). The answer
 * is not mailed: it is left in j->fx.host_reply. Only the shell decides
 * that a message is the host's, never anything in the message.
 */
void judge_host_mail(struct judge *j, const struct inmsg *m, long seq, time_t now);
/* The game the message's first GAME (or NEWGAME) line names, into out
 * (size >= GAME_NAME_MAX); "" when it names none. Only reads the text: the
 * shell holds back mail for a game it set aside. */
void judge_mail_game(const struct inmsg *m, char *out, size_t size);
/* The password the first GAME line of m gives and the stored hash it is to
 * match, handed to fn, when the line names a game and a power (or GM) of
 * this judge: for a shell that checks passwords ahead of judge_mail.
 * Changes nothing; fn must not keep secret. */
void judge_mail_secret(struct judge *j, const struct inmsg *m,
    void (*fn)(void *arg, const char *secret, const char *hash), void *arg);
/* Do what time requires up to now: process phases whose deadline passed or
 * whose orders are all in, send reminders and deadline notices. A phase
 * is dated when it was decided, however late the tick: at its deadline
 * when its orders were complete then, at the end of its grace period when
 * orders are still missing, at the tick that found them complete when
 * orders missing at the deadline are completed later (the judge_tick_due
 * after the message that completed them, at its arrival);
 * reminders and notices are sent at now, with the time left then, so a
 * replay ticks at the times of the live runs (spool_run_at) as well as
 * those of the mail: the shell ticks with judge_tick_due at each
 * message's arrival, before and after applying it, and with judge_tick
 * once a run has applied all it fetched (a phase is decided early, or
 * when orders missing at the deadline are completed, only then, so the
 * mail that came with the last orders counts for that phase too; a phase
 * completed in the grace period is decided at the arrival of a message
 * that comes after the grace period ended, before it is applied). */
void judge_tick(struct judge *j, time_t now);
/* The same, except that a phase whose orders are all in waits for its
 * deadline or the next judge_tick. */
void judge_tick_due(struct judge *j, time_t now);

/*
 * Create a game (NEWGAME by mail or from the host). gm is the GM's
 * address; gm_password is hashed; when it is NULL one is made up and
 * mailed to the GM. Returns the game, or NULL with a reason in why.
 */
struct game *judge_new_game(struct judge *j, const char *name, const struct game_settings *s,
    const char *gm, const char *gm_password, time_t now, struct buf *why);
/* Add a delegation (members separated by commas or blanks). An empty
 * password generates one and mails it to the members. Returns 0 or -1/why. */
int judge_add_delegation(struct judge *j, struct game *g, power_id p, const char *members,
    const char *password, time_t now, struct buf *why);
/* The same for a delegation holding the np powers ps (fewer than seven
 * delegations): one password and the same members for all of them. */
int judge_add_delegations(struct judge *j, struct game *g, const power_id *ps, int np,
    const char *members, const char *password, time_t now, struct buf *why);
/* Start a forming game: the first deadline is set. Returns 0 or -1/why. */
int judge_start(struct judge *j, struct game *g, time_t now, struct buf *why);
/* Adjudicate the current phase of g now (GM PROCESS). preview: only show
 * the results (appended to out), change nothing. Returns 0 or -1/why. */
int judge_process(struct judge *j, struct game *g, time_t now, bool preview, struct buf *out);
/* Go back to the start of the phase whose history record is index.
 * Returns 0 or -1/why. */
int judge_rollback(struct judge *j, struct game *g, const char *phase, time_t now,
    struct buf *why);

/* When the phase of g will be decided now that its deadline passed with
 * orders missing: the end of the grace period. 0 when the deadline has not
 * passed at now (nor was its passing told: a clock behind the judge's), no
 * orders are missing, or the game waits for its GM. */
time_t judge_grace_end(const struct game *g, time_t now);

/* What the index of g's map pages and game list say instead of a deadline
 * while g waits for its game master at now: "Paused; waiting for the game
 * master", or, its deadline passed with orders missing under SET nmr wait
 * (now, or its passing told), "Deadline passed; waiting for the game
 * master". NULL when it does not wait. */
const char *judge_master_wait(const struct game *g, time_t now);

/* Is the judge's address the placeholder (judge@localhost, a domain
 * "localhost"): one players cannot write to? */
bool judge_address_placeholder(const struct judge_conf *c);
/* The warning for it, two lines each starting with indent, appended to out
 * (nothing when the address is a real one). */
void judge_address_warning(const struct judge_conf *c, const char *indent, struct buf *out);

/* Restore a sender's reply count (from the shell's last run). */
void judge_set_rate(struct judge *j, const char *addr, time_t window, int count);
/* Forget the effects (after the shell made them durable). */
void judge_effects_clear(struct judge *j);
/* judge_touch(): declared with the services to the rule systems
 * (system.h). */

/* The public URL of the page of the phase played from position before
 * (BASE/GAME/S1901M.html, maps/pages.h); nothing when no base URL is set. */
void judge_map_url(const struct judge *j, const struct game *g, const struct board *before,
    struct buf *out);

#endif
