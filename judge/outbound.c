/*
 * outbound.c — what the judge leaves for the shell (outbound.h): messages
 * with Message-IDs named after the event that made them, announcements to
 * a whole game, audit and log notes, press copies.
 */
#include "outbound.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/grow.h"
#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"
#include "status.h"

/* A line of the judge's log or a game's audit. */
#define NOTE_TEXT_MAX (1u << 16)

static char **
copy_list(const char *const *v, int n)
{
	char **c = xcalloc((size_t)(n ? n : 1), sizeof *c);
	int i;

	for (i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

void
outbound_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *const *cc, int ncc, const char *subject, const char *text,
    const char *in_reply_to, const char *references, enum outmsg_auto a)
{
	struct outmsg *o;
	const char *kto[GAME_MAX_MEMBERS + GAME_MAX_GMS + GAME_MAX_OBSERVERS + 8];
	const char *kcc[GAME_MAX_MEMBERS + GAME_MAX_GMS + GAME_MAX_OBSERVERS + 8];
	int i, n;
	char id[256];

	/* Addresses that keep bouncing are left out (the Message-ID is taken
	 * anyway, so the numbering does not depend on them). */
	for (i = n = 0; i < nto && n < (int)(sizeof kto / sizeof kto[0]); i++)
		if (!outbound_suspended(g, to[i]))
			kto[n++] = to[i];
	nto = n;
	for (i = n = 0; i < ncc && n < (int)(sizeof kcc / sizeof kcc[0]); i++)
		if (!outbound_suspended(g, cc[i]))
			kcc[n++] = cc[i];
	ncc = n;
	if (nto == 0 && ncc > 0) {
		kto[nto++] = kcc[--ncc];
	}
	if (nto == 0) {
		++j->nmsg;
		return;
	}
	if (subject == NULL || text == NULL) {
		++j->nmsg;	/* the Message-IDs after it stay as they were */
		outbound_log(j, g, "a message to %s not sent: its text passed the %u KB a message "
		    "may have", kto[0], OUTBOUND_TEXT_MAX >> 10);
		return;
	}
	GROW(j->fx.out, j->fx.nout, j->fx.capout);
	o = &j->fx.out[j->fx.nout++];
	memset(o, 0, sizeof *o);
	o->to = copy_list(kto, nto);
	o->nto = nto;
	o->cc = copy_list(kcc, ncc);
	o->ncc = ncc;
	o->subject = xstrdup(subject);
	o->text = xstrdup(text);
	o->in_reply_to = in_reply_to ? xstrdup(in_reply_to) : NULL;
	o->references = references ? xstrdup(references) : NULL;
	o->game = g ? xstrdup(g->name) : NULL;
	o->autosub = a;
	o->date = j->now;
	/* Deterministic: the same event gives the same Message-ID, so that a
	 * run repeated after a crash is recognised by the outbox. */
	snprintf(id, sizeof id, "pouch.%s.%d@%s", j->idbase[0] ? j->idbase : "judge", ++j->nmsg,
	    j->conf->domain);
	o->message_id = xstrdup(id);
}

void
judge_event(struct judge *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->idbase, sizeof j->idbase, fmt, ap);
	va_end(ap);
	j->nmsg = 0;
	j->nrand = 0;
}

/* 16 bytes from the shell, labelled with the event so that a replay can
 * reproduce them. */
int
outbound_random(struct judge *j, unsigned char r[16])
{
	char label[96];

	if (j->io.random == NULL)
		return -1;
	snprintf(label, sizeof label, "%s/%d", j->idbase[0] ? j->idbase : "judge", ++j->nrand);
	return j->io.random(j->io.ctx, label, r);
}

/* How often mail to addr in game g came back (0: never). */
static int
bounce_count(const struct game *g, const char *addr)
{
	int i;

	for (i = 0; i < g->nbouncing; i++)
		if (str_eq_nocase(g->bouncing[i].addr, addr))
			return g->bouncing[i].count;
	return 0;
}

bool
outbound_suspended(const struct game *g, const char *addr)
{
	return g != NULL && bounce_count(g, addr) >= BOUNCE_LIMIT;
}

static void
add_note(struct judge_note **arr, int *n, int *cap, const struct game *g, const char *fmt,
    va_list ap)
{
	struct buf b;
	struct judge_note *nt;

	GROW(*arr, *n, *cap);
	nt = &(*arr)[(*n)++];
	str_copy(nt->game, g ? g->name : "", sizeof nt->game);
	buf_init(&b, NOTE_TEXT_MAX);
	if (buf_vprintf(&b, fmt, ap) < 0) {	/* never half a note: which one, said so */
		buf_reset(&b);
		buf_printf(&b, "a note longer than %u KB left out (\"%.60s\")", NOTE_TEXT_MAX >> 10,
		    fmt);
	}
	nt->text = buf_take(&b);
}

void
judge_audit(struct judge *j, const struct game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(&j->fx.audit, &j->fx.naudit, &j->fx.capaudit, g, fmt, ap);
	va_end(ap);
}

void
outbound_log(struct judge *j, const struct game *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(&j->fx.log, &j->fx.nlog, &j->fx.caplog, g, fmt, ap);
	va_end(ap);
}

void
outbound_pages(struct judge *j, const struct game *g)
{
	struct judge_note *nt;

	GROW(j->fx.pages, j->fx.npages, j->fx.cappages);
	nt = &j->fx.pages[j->fx.npages++];
	str_copy(nt->game, g->name, sizeof nt->game);
	nt->text = NULL;
}

void
outbound_press_copy(struct judge *j, const struct game *g, const char *text)
{
	struct judge_note *nt;

	if (text == NULL) {
		outbound_log(j, g, "press not kept in the archive: its text passed the %u KB a "
		    "message may have", OUTBOUND_TEXT_MAX >> 10);
		return;
	}
	GROW(j->fx.press, j->fx.npress, j->fx.cappress);
	nt = &j->fx.press[j->fx.npress++];
	str_copy(nt->game, g->name, sizeof nt->game);
	nt->text = xstrdup(text);
}

/* Keep news of g to announce at the end of the message (outbound_news):
 * text NULL, that the deadline moved. */
static void
news_keep(struct judge *j, struct game *g, const char *subject, const char *text, bool active)
{
	if (j->news_game && (j->news_game != g || (text && j->news_text)))
		outbound_news_flush(j);
	if (text == NULL) {
		if (j->news_game == g)
			return;	/* what goes then gives the deadline */
		snprintf(j->news_subject, sizeof j->news_subject, "[%s] new deadline", g->name);
		active = true;
	} else {
		str_copy(j->news_subject, subject, sizeof j->news_subject);
		j->news_text = xstrdup(text);
	}
	j->news_game = g;
	j->news_active = active;
}

void
outbound_news(struct judge *j, struct game *g, const char *subject, const char *text,
    bool active)
{
	if (text == NULL || !j->reading)
		judge_announce(j, g, subject, text);	/* NULL, not whole: logged, not sent */
	else
		news_keep(j, g, subject, text, active);
}

void
outbound_deadline_moved(struct judge *j, struct game *g)
{
	news_keep(j, g, NULL, NULL, true);
	if (!j->reading)
		outbound_news_flush(j);
}

void
outbound_news_flush(struct judge *j)
{
	struct game *g = j->news_game;
	char *text = j->news_text;

	if (g == NULL)
		return;
	j->news_game = NULL;
	j->news_text = NULL;
	if (!j->news_active || g->status == GAME_ACTIVE)
		judge_announce(j, g, j->news_subject, text ? text :
		    "The game master has set a new deadline.\n");
	free(text);
}

/* Is addr among the n addresses of sent (case folded)? Else it is added:
 * an announcement goes once to someone of two delegations, or a member
 * who also observes or is a game master. */
static bool
sent_before(const char ***sent, int *n, int *cap, const char *addr)
{
	int k;

	for (k = 0; k < *n; k++)
		if (str_eq_nocase((*sent)[k], addr))
			return true;
	GROW(*sent, *n, *cap);
	(*sent)[(*n)++] = addr;
	return false;
}

void
judge_announce(struct judge *j, struct game *g, const char *subject, const char *text)
{
	const char *to[1], **sent = NULL;
	struct buf body;
	int p, i, nsent = 0, capsent = 0;

	if (j->news_game == g)
		outbound_news_flush(j);	/* in the order they were made */
	if (text == NULL) {
		outbound_send(j, g, (const char *[]){ "the game" }, 1, NULL, 0, subject, NULL, NULL,
		    NULL, OUT_GENERATED);
		return;
	}
	buf_init(&body, OUTBOUND_TEXT_MAX);
	for (p = 0; p < g->map->npowers; p++) {
		if (!game_first_held(g, (power_id)p))
			continue;	/* one copy for a delegation of several powers */
		for (i = 0; i < g->del[p].nmembers; i++) {
			if (sent_before(&sent, &nsent, &capsent, g->del[p].members[i].addr))
				continue;
			buf_reset(&body);
			buf_puts(&body, text);
			if (g->status == GAME_ACTIVE) {
				buf_putc(&body, '\n');
				status_deadline_line(j, g, g->del[p].members[i].zone, j->now, &body);
			}
			to[0] = g->del[p].members[i].addr;
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL,
			    OUT_GENERATED);
		}
	}
	/* The observers and the GMs: the deadline in the game's zone. */
	buf_reset(&body);
	buf_puts(&body, text);
	if (g->status == GAME_ACTIVE) {
		buf_putc(&body, '\n');
		status_deadline_line(j, g, "", j->now, &body);
	}
	for (i = 0; i < g->nobservers + g->ngms; i++) {
		to[0] = i < g->nobservers ? g->observers[i] : g->gms[i - g->nobservers];
		if (!sent_before(&sent, &nsent, &capsent, to[0]))
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&body), NULL, NULL,
			    OUT_GENERATED);
	}
	free(sent);
	buf_free(&body);
}

void
judge_send(struct judge *j, const struct game *g, const char *const *to, int nto,
    const char *subject, const char *text)
{
	outbound_send(j, g, to, nto, NULL, 0, subject, text, NULL, NULL, OUT_GENERATED);
}

time_t
judge_now(const struct judge *j)
{
	return j->now;
}

void
judge_time_human(const struct judge *j, const char *zone, time_t t, char *out, size_t size)
{
	(void)j;
	time_human(&j->io.zones, zone, t, out, size);
}
