/*
 * press.c — press blocks (press.h): the header read ("TO France, Germany
 * ANON", "TO GM", "TO CONFERENCE"), the block refused when the game's
 * press rules do not allow it, and delivered to each recipient once, with
 * a copy naming the real sender for the archive.
 */
#include "press.h"

#include <stdio.h>
#include <string.h>

#include "../lib/str.h"
#include "outbound.h"

/* Recipients of power p: its members' addresses. */
static int
members_of(const struct game *g, power_id p, const char **out, int max)
{
	const struct delegation *d = &g->del[p];
	int i, n = 0;

	for (i = 0; i < d->nmembers && n < max; i++)
		out[n++] = d->members[i].addr;
	return n;
}

/* Read "TO France, Germany [ANON]" / "TO ALL" / "TO GM". Returns 0 or -1/why. */
static int
press_header(const struct game *g, struct press *pr, const char *args, size_t n,
    struct buf *why)
{
	char buf[400], *s, tok[64];
	int any = 0;

	if (n >= sizeof buf) {
		buf_puts(why, "press header too long");
		return -1;
	}
	memcpy(buf, args, n);
	buf[n] = '\0';
	for (s = buf; *s; s++)
		if (*s == ',' || *s == ';' || *s == '\t')
			*s = ' ';
	for (s = buf;;) {
		size_t k;
		power_id p;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		k = strcspn(s, " ");
		snprintf(tok, sizeof tok, "%.*s", (int)(k < sizeof tok ? k : sizeof tok - 1), s);
		if (str_eq_nocase(tok, "to") || str_eq_nocase(tok, "and")) {
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "anon") || str_eq_nocase(tok, "anonymous") ||
		    str_eq_nocase(tok, "grey") || str_eq_nocase(tok, "gray")) {
			pr->anon = true;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "all") || str_eq_nocase(tok, "everyone")) {
			pr->broadcast = true;
			any = 1;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "gm") || str_eq_nocase(tok, "master")) {
			pr->to_gm = true;
			any = 1;
			s += k;
			continue;
		}
		if (str_eq_nocase(tok, "conference")) {
			if (!system_conference(g, NULL, NULL)) {
				buf_puts(why, "no conference is open");
				return -1;
			}
			pr->conference = true;
			any = 1;
			s += k;
			continue;
		}
		/* A power, in one word or several ("United Kingdom"). */
		p = map_take_power(g->map, &s);
		if (p == POWER_NONE) {
			buf_printf(why, "no power called \"%s\"", tok);
			return -1;
		}
		pr->to |= (uint64_t)1 << p;
		any = 1;
	}
	if (!any && !pr->broadcast) {
		buf_puts(why, "say whom the press is for: PRESS TO France, Germany (or ALL, or GM, or "
		    "CONFERENCE)");
		return -1;
	}
	return 0;
}

/* "Press in school1 from France to England, the GM:\n\n" and the text of
 * pr from who, into body. */
static void
press_body(struct judge *j, const struct game *g, const char *who, const struct press *pr,
    struct buf *body)
{
	const struct map *m = g->map;
	int p, k = 0;

	buf_printf(body, "Press in %s from %s", g->name, who);
	if (pr->broadcast) {
		buf_puts(body, " to everyone");
		if (judge_speech_open(g, j->now))
			buf_puts(body, " (speech phase)");
	} else {
		buf_puts(body, " to ");
		if (pr->conference) {
			system_conference(g, NULL, body);
			k++;
		}
		for (p = 0; p < m->npowers; p++)
			if (pr->to & ((uint64_t)1 << p))
				buf_printf(body, "%s%s", k++ ? ", " : "", m->powers[p].name);
		if (pr->to_gm)
			buf_printf(body, "%sthe GM", k ? " and " : "");
	}
	buf_puts(body, ":\n\n");
	buf_append(body, buf_str(&pr->text), pr->text.len);
	if (pr->text.len == 0 || buf_str(&pr->text)[pr->text.len - 1] != '\n')
		buf_putc(body, '\n');
	if (pr->cut)
		buf_puts(body, "\n[Cut here: the message was longer than the judge reads. The rest "
		    "was not\ndelivered; its sender has been told.]\n");
}

/* The lines of press text t. */
static int
press_lines(const struct buf *t)
{
	size_t i;
	int n = 0;

	for (i = 0; i < t->len; i++)
		n += t->data[i] == '\n';
	return n;
}

/* The addresses press pr from power `from` (POWER_NONE: the GM) goes to,
 * each once, into to (64 at most); returns their count. */
static int
press_recipients(const struct game *g, power_id from, const struct press *pr, const char **to)
{
	const struct map *m = g->map;
	uint64_t conf = 0;
	int p, n = 0, i, k;

	system_conference(g, &conf, NULL);
	for (p = 0; p < m->npowers; p++) {
		int had = n;
		/* Not to the sender's own powers; once to a delegation of several. */
		if (p == from || (from != POWER_NONE && game_held_together(g, from, (power_id)p)))
			continue;
		if (pr->broadcast || (pr->to & ((uint64_t)1 << p)) ||
		    (pr->conference && ((conf >> p) & 1u)))
			n += members_of(g, (power_id)p, to + n, 64 - n);
		for (i = had; i < n; i++) {
			for (k = 0; k < had && strcmp(to[k], to[i]) != 0; k++)
				;
			if (k < had)
				to[i--] = to[--n];
		}
	}
	if (pr->broadcast)
		for (i = 0; i < g->nobservers && n < 64; i++)
			to[n++] = g->observers[i];
	/* The GM sees press addressed to the GM, broadcasts, and private press
	 * when the game says so (the players are told in HELP and LIST); the
	 * officers preside over conferences. */
	if (pr->to_gm || pr->broadcast || pr->conference || g->set.gm_reads_press)
		for (i = 0; i < g->ngms && n < 64; i++)
			to[n++] = g->gms[i];
	return n;
}

/* Deliver a press block from power `from` (POWER_NONE: the GM). */
static void
press_deliver(struct judge *j, struct game *g, power_id from, struct press *pr, struct buf *reply)
{
	const struct map *m = g->map;
	const char *to[64];
	struct buf body, subj, copy;
	int n, i;
	char who[96];

	if (from == POWER_NONE)
		snprintf(who, sizeof who, "the GM");
	else if (pr->anon)
		snprintf(who, sizeof who, "someone");
	else
		snprintf(who, sizeof who, "%s", m->powers[from].name);
	buf_init(&body, OUTBOUND_TEXT_MAX);
	buf_init(&subj, 400);
	buf_init(&copy, OUTBOUND_TEXT_MAX);
	press_body(j, g, who, pr, &body);
	buf_printf(&subj, "[%s] press from %s", g->name, who);
	n = press_recipients(g, from, pr, to);
	if (j->news_game == g)
		outbound_news_flush(j);	/* what the game master announced above it goes first */
	for (i = 0; i < n; i++) {
		const char *one[1] = { to[i] };
		outbound_send(j, g, one, 1, NULL, 0, buf_text(&subj), buf_text(&body), NULL, NULL,
		    OUT_GENERATED);
	}
	/* The archive names the real sender, for the GM's eyes only. */
	buf_printf(&copy, "press %s from %s%s (line %d)\n%s", pr->broadcast ? "broadcast" :
	    pr->conference ? "conference" : "private",
	    from == POWER_NONE ? "GM" : m->powers[from].name, pr->anon ? " (anonymous)" : "", pr->line,
	    buf_str(&pr->text));
	outbound_press_copy(j, g, buf_text(&copy));
	buf_printf(reply, "  press delivered to %d recipient%s\n", n, n == 1 ? "" : "s");
	if (pr->cut)
		buf_printf(reply, "  but cut short: your message was longer than the judge reads, so "
		    "only\n  the first %d lines of this press were delivered (marked as cut). The\n"
		    "  rest, and anything after it (orders too), was not read: send it again.\n",
		    press_lines(&pr->text));
	buf_free(&body);
	buf_free(&subj);
	buf_free(&copy);
}

#define PRESS_TEXT_MAX (256u << 10)

void
press_init(struct press *pr)
{
	memset(pr, 0, sizeof *pr);
	buf_init(&pr->text, PRESS_TEXT_MAX);
}

void
press_free(struct press *pr)
{
	buf_free(&pr->text);
}

void
press_line(struct press *pr, const char *text, size_t len)
{
	if (!pr->open)
		return;
	buf_append(&pr->text, text, len);
	buf_putc(&pr->text, '\n');
}

/* May power from (POWER_NONE: the GM) send the press pr in game g? 0, or
 * -1 with the refusal in reply. */
static int
press_allowed(struct judge *j, const struct game *g, power_id from, const struct press *pr,
    struct buf *reply)
{
	bool gm = from == POWER_NONE;
	uint64_t conf = 0;

	system_conference(g, &conf, NULL);
	if (pr->conference && !gm && !((conf >> from) & 1u)) {
		buf_puts(reply, "  REFUSED: only the participants of the conference may write to it\n");
		return -1;
	}
	if (!gm && (pr->broadcast || pr->to || pr->conference) && system_silent(g)) {
		/* The silent phases: orders written on one's own. */
		buf_printf(reply, "  REFUSED: no press between powers while %s are written: write "
		    "them on your own (PRESS TO GM is allowed)\n",
		    g->board.phase == PHASE_RETREAT ? "retreats" : "adjustments");
		return -1;
	}
	if (!gm && g->set.press == PRESS_NONE && (pr->broadcast || pr->to) &&
	    !(pr->broadcast && !pr->to && judge_speech_open(g, j->now))) {
		buf_printf(reply, "  REFUSED: this game has no press between powers (PRESS TO GM is "
		    "allowed%s)\n", system_speeches(g) ?
		    "; BROADCAST is open in the speech phase" : "");
		return -1;
	}
	if (!gm && g->set.press == PRESS_PRIVATE && pr->broadcast && !pr->to &&
	    !judge_speech_open(g, j->now)) {
		buf_puts(reply, "  REFUSED: press in this game is private: write to the powers you "
		    "mean with PRESS TO <powers> (BROADCAST is not allowed)\n");
		return -1;
	}
	if (pr->anon && g->set.press != PRESS_GREY) {
		buf_puts(reply, "  REFUSED: anonymous press is not allowed in this game\n");
		return -1;
	}
	return 0;
}

void
press_begin(struct judge *j, struct game *g, power_id from, const struct body_line *bl,
    struct press *pr, struct buf *reply)
{
	struct buf why;
	int rc;

	press_flush(j, g, from, pr, reply);
	press_free(pr);
	press_init(pr);
	pr->line = bl->lineno;
	buf_init(&why, 400);
	if (bl->cmd == CMD_BROADCAST) {
		/* To everyone, whatever the header says. */
		pr->broadcast = true;
		(void)press_header(g, pr, bl->args, bl->args_len, &why);
		rc = 0;
	} else if ((rc = press_header(g, pr, bl->args, bl->args_len, &why)) < 0) {
		buf_printf(reply, "  REFUSED: %s\n", buf_str(&why));
	}
	buf_free(&why);
	if (rc == 0)
		rc = press_allowed(j, g, from, pr, reply);
	pr->refused = rc < 0;
	pr->open = rc == 0;
}

void
press_end(struct judge *j, struct game *g, power_id from, struct press *pr, struct buf *reply)
{
	if (pr->open)
		press_deliver(j, g, from, pr, reply);
	else if (pr->refused)
		buf_puts(reply, "  the press above was refused: nothing was sent\n");
	else
		buf_puts(reply, "  ignored: no press block to end\n");
	pr->open = false;
	pr->refused = false;
}

void
press_flush(struct judge *j, struct game *g, power_id from, struct press *pr, struct buf *reply)
{
	if (pr->open)
		press_deliver(j, g, from, pr, reply);
}