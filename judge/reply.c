/*
 * reply.c — the reply to a message (reply.h).
 *
 * Replies stay short whatever comes in: each line is quoted to at most
 * QUOTE_MAX characters, a refusal the same as the one before is counted,
 * not repeated, refused lines are no longer shown once the reply is past
 * ECHO_SOFT bytes nor any line past ECHO_HARD, and the whole reply is
 * cut at REPLY_CAP.
 */
#include "reply.h"

#include <stdio.h>
#include <string.h>

#include "../lib/grow.h"
#include "../lib/str.h"
#include "outbound.h"

#define QUOTE_MAX 100
#define ECHO_SOFT (6u << 10)
#define ECHO_HARD (10u << 10)

/* Is w[0..n) a word a secret follows (PASSWORD pw, KEY key, "password:")? */
static bool
secret_word(const char *w, size_t n)
{
	while (n > 0 && (w[n - 1] == ':' || w[n - 1] == '='))
		n--;
	return str_eqn_nocase(w, n, "password") || str_eqn_nocase(w, n, "key");
}

/* Is w[0..n) a word between PASSWORD and the secret ("is", "=")? */
static bool
filler_word(const char *w, size_t n)
{
	return str_eqn_nocase(w, n, "is") || str_eqn_nocase(w, n, "=") ||
	    str_eqn_nocase(w, n, ":");
}

/* How many words text[0..len) has. */
static int
count_words(const char *text, size_t len)
{
	size_t i;
	int n = 0;

	for (i = 0; i < len; i++)
		n += text[i] != ' ' && text[i] != '\t' && (i == 0 || text[i - 1] == ' ' ||
		    text[i - 1] == '\t');
	return n;
}

/* text[0..len) into line, the word after PASSWORD or KEY as "(not shown)",
 * and in a GAME line, quoted or not ("> GAME g1 England pw"), all from its
 * fourth word on, where the password is; also in a line of four or five
 * words whose first misspells GAME by one letter ("GAEM g1 England pw"). */
static void
mask_secrets(const char *text, size_t len, struct buf *line)
{
	size_t i, k, lead = 0;
	bool hide = false;
	int game_word = -1;	/* which word of a GAME line; -1: not one */
	int words;

	while (lead < len && (text[lead] == '>' || text[lead] == '|' || text[lead] == ' ' ||
	    text[lead] == '\t'))
		lead++;
	for (k = lead; k < len && text[k] != ' ' && text[k] != '\t'; k++)
		;
	words = count_words(text + lead, len - lead);
	if (str_eqn_nocase(text + lead, k - lead, "game") ||
	    str_eqn_nocase(text + lead, k - lead, "signon") ||
	    ((words == 4 || words == 5) && str_edit_distance(text + lead, k - lead, "game", 4, 1) == 1))
		game_word = 0;
	for (i = 0; i < len; i = k) {
		for (k = i; k < len && text[k] != ' ' && text[k] != '\t'; k++)
			;
		if (k == i) {
			buf_putc(line, text[k++]);
			continue;
		}
		if (game_word >= 0 && i >= lead && game_word++ == 3) {
			buf_puts(line, "(not shown)");
			return;
		}
		if (hide && !filler_word(text + i, k - i))
			buf_puts(line, "(not shown)");
		else
			buf_append(line, text + i, k - i);
		hide = secret_word(text + i, k - i) || (hide && filler_word(text + i, k - i));
	}
}

/* Append "> text" to out, cut to QUOTE_MAX characters with "…"; the word
 * after PASSWORD or KEY is not shown. */
void
reply_quote(struct buf *out, const char *text, size_t len)
{
	struct buf line;
	size_t i, chars = 0;

	buf_init(&line, len + 64);
	mask_secrets(text, len, &line);
	text = buf_str(&line);
	len = line.len;
	for (i = 0; i < len; i++)
		if (((unsigned char)text[i] & 0xC0) != 0x80 && chars++ == QUOTE_MAX)
			break;
	buf_printf(out, "> %.*s%s\n", (int)i, text, i < len ? "\u2026" : "");
	buf_free(&line);
}

/* Would subject s show a password: a GAME line ("Re: GAME g1 England pw"),
 * NEWGAME, or a word after PASSWORD or KEY? */
static bool
subject_secret(const char *s)
{
	size_t n;
	bool first = true, after = false;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return false;
		n = strcspn(s, " \t");
		if (first && (str_eqn_nocase(s, n, "re:") || str_eqn_nocase(s, n, "fwd:") ||
		    str_eqn_nocase(s, n, "fw:") || str_eqn_nocase(s, n, "aw:"))) {
			s += n;
			continue;
		}
		if ((first && (str_eqn_nocase(s, n, "game") || str_eqn_nocase(s, n, "signon"))) ||
		    after || str_eqn_nocase(s, n, "newgame"))
			return true;
		after = secret_word(s, n);
		first = false;
		s += n;
	}
}

/* Flush the count of repeated refusals into out. */
static void
echo_flush(struct echo *e, struct buf *out)
{
	if (e->same > 0)
		buf_printf(out, "  (the same refusal for %d more line%s)\n", e->same,
		    e->same == 1 ? "" : "s");
	e->same = 0;
}

/* The part of the reply from e->mark on is one line's echo and verdict:
 * keep it, count it as a repeat, or leave it out for the reply's size. */
void
echo_settle(struct echo *e, struct buf *reply)
{
	const char *seg = reply->data + e->mark, *verdict;
	size_t n = reply->len - e->mark;
	bool refusal;

	if (n == 0)
		return;
	verdict = memchr(seg, '\n', n);
	verdict = verdict ? verdict + 1 : seg + n;
	refusal = strncmp(verdict, "  REFUSED", 9) == 0 || strncmp(verdict, "  ignored", 9) == 0;
	if (refusal && e->last[0] && strlen(e->last) == (size_t)(seg + n - verdict) &&
	    memcmp(e->last, verdict, strlen(e->last)) == 0) {
		buf_truncate(reply, e->mark);
		e->same++;
		return;
	}
	if ((refusal && e->mark > ECHO_SOFT) || e->mark > ECHO_HARD) {
		buf_truncate(reply, e->mark);
		e->hidden++;
		return;
	}
	if (e->same > 0) {
		struct buf keep;
		buf_init(&keep, OUTBOUND_TEXT_MAX);
		buf_append(&keep, seg, n);
		buf_truncate(reply, e->mark);
		echo_flush(e, reply);
		buf_append(reply, keep.data, keep.len);
		buf_free(&keep);
		verdict = NULL;
	}
	e->last[0] = '\0';
	if (refusal) {
		seg = reply->data + reply->len - n;
		verdict = memchr(seg, '\n', n);
		verdict = verdict ? verdict + 1 : seg + n;
		if ((size_t)(seg + n - verdict) < sizeof e->last)
			snprintf(e->last, sizeof e->last, "%.*s", (int)(seg + n - verdict), verdict);
	}
}

/* After the last line: the counts of what was left out. */
void
echo_end(struct echo *e, struct buf *reply)
{
	echo_settle(e, reply);
	e->mark = reply->len;
	echo_flush(e, reply);
	if (e->hidden > 0)
		buf_printf(reply, "  (%d more line%s read but not repeated here: a reply is kept under "
		    "%u KB)\n", e->hidden, e->hidden == 1 ? "" : "s", REPLY_CAP >> 10);
}

#define IGNORED_QUOTED 3
#define IGNORED_QUOTE_LEN 20

/* text[0..len) without its blanks and with any password hidden, cut to
 * IGNORED_QUOTE_LEN characters, in quotes, into out. */
static void
ignored_quote(const char *text, size_t len, struct buf *out)
{
	struct buf masked;
	const char *line;
	size_t k;

	buf_init(&masked, len + 64);
	mask_secrets(text, len, &masked);
	line = buf_str(&masked);
	len = masked.len;
	while (len > 0 && (line[0] == ' ' || line[0] == '\t'))
		line++, len--;
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	k = len;
	if (k > IGNORED_QUOTE_LEN) {
		k = IGNORED_QUOTE_LEN;
		while (k > 0 && ((unsigned char)line[k] & 0xC0) == 0x80)
			k--;
		while (k > 0 && line[k - 1] == ' ')
			k--;
	}
	buf_printf(out, "\"%.*s%s\"", (int)k, line, k < len ? "\xE2\x80\xA6" : "");
	buf_free(&masked);
}

void
ignored_add(struct ignored *ig, const char *line, size_t len)
{
	if (ig->n++ >= IGNORED_QUOTED)
		return;
	if (ig->n > 1)
		buf_puts(&ig->quotes, ", ");
	ignored_quote(line, len, &ig->quotes);
}

void
ignored_above(struct ignored *ig, const char *line, size_t len)
{
	if (ig->above++ == 0)
		ignored_quote(line, len, &ig->above_quote);
}

void
ignored_tail(struct ignored *ig, const char *line, size_t len)
{
	if (ig->tail++ == 0)
		ignored_quote(line, len, &ig->tail_quote);
}

/* "Ignored 2 lines that are not orders: "hi mr judge…", "Alice"." and
 * "Ignored the end of your message from "-- " on (3 lines): ..." */
void
ignored_put(const struct ignored *ig, const char *one, const char *many, struct buf *out)
{
	if (ig->n == 1)
		buf_printf(out, "\nIgnored 1 line that is not %s: %s", one, buf_str(&ig->quotes));
	else if (ig->n > 1)
		buf_printf(out, "\nIgnored %d lines that are not %s: %s", ig->n, many,
		    buf_str(&ig->quotes));
	if (ig->n > IGNORED_QUOTED)
		buf_printf(out, " and %d more", ig->n - IGNORED_QUOTED);
	if (ig->n > 0)
		buf_puts(out, ".\n");
	if (ig->above > 0)
		buf_printf(out, "%sRead what you wrote under the mail you quoted; the quoted mail, "
		    "from %s on (%d line%s), is not read.\n", ig->n > 0 ? "" : "\n",
		    buf_str(&ig->above_quote), ig->above, ig->above == 1 ? "" : "s");
	if (ig->tail > 0)
		buf_printf(out, "%sIgnored the end of your message from %s on (%d line%s): a "
		    "signature or a quoted mail is not read.\n", ig->n > 0 || ig->above > 0 ? "" : "\n",
		    buf_str(&ig->tail_quote), ig->tail, ig->tail == 1 ? "" : "s");
}

void
reply_cap(struct buf *reply)
{
	size_t cut;

	if (reply->len <= REPLY_CAP)
		return;
	/* A last resort (answers to commands are not counted by the echo). */
	cut = REPLY_CAP - 200;
	while (cut > 0 && reply->data[cut - 1] != '\n')
		cut--;
	buf_truncate(reply, cut);
	buf_printf(reply, "\n(The rest of this reply is left out: a reply is at most %u KB.)\n",
	    REPLY_CAP >> 10);
}
static const char *
rate_addr(const struct judge *j, int i)
{
	return j->rates[i].addr;
}

/* A new sender's rate, found by its address from now on. */
static struct sender_rate *
new_rate(struct judge *j, const char *addr, time_t window, int count)
{
	struct sender_rate *r;

	GROW(j->rates, j->nrates, j->caprates);
	r = &j->rates[j->nrates++];
	str_copy(r->addr, addr, sizeof r->addr);
	r->window = window;
	r->count = count;
	fold_index_put(&j->rate_index, j, rate_addr, j->nrates - 1, j->nrates, true);
	return r;
}

void
judge_set_rate(struct judge *j, const char *addr, time_t window, int count)
{
	new_rate(j, addr, window, count);
}

/* May we send addr another reply this hour? Counts it when so. */
static bool
rate_ok(struct judge *j, const char *addr, time_t now)
{
	struct sender_rate *r;
	int i;

	if (j->conf->reply_limit <= 0)
		return true;
	i = fold_index_find(&j->rate_index, j, rate_addr, addr);
	r = i >= 0 ? &j->rates[i] : new_rate(j, addr, now, 0);
	if (now - r->window >= 3600) {
		r->window = now;
		r->count = 0;
	}
	if (r->count >= j->conf->reply_limit)
		return false;
	r->count++;
	j->rates_dirty = true;
	return true;
}

/* The address a reply goes to. */
static const char *
reply_addr(const struct inmsg *m)
{
	return m->reply_to && *m->reply_to ? m->reply_to : m->from_addr;
}

void
reply_send(struct judge *j, const struct inmsg *m, const struct ident *id, const char *text)
{
	const char *to[1] = { reply_addr(m) }, *cc[GAME_MAX_MEMBERS + GAME_MAX_GMS];
	struct buf subj;
	int ncc = 0, i;

	if (!rate_ok(j, to[0], j->now)) {
		outbound_log(j, id->g, "no reply to %s: more than %d replies this hour "
		    "(judge.reply_limit); its message %s%s%s", to[0], j->conf->reply_limit,
		    m->message_id ? "<" : "", m->message_id ? m->message_id : "without a Message-ID",
		    m->message_id ? ">" : "");
		return;
	}
	/* Copies to the rest of the delegation (or the other GMs). */
	if (id->g && id->power != POWER_NONE) {
		const struct delegation *d = &id->g->del[id->power];
		for (i = 0; i < d->nmembers; i++)
			if (!str_eq_nocase(d->members[i].addr, to[0]))
				cc[ncc++] = d->members[i].addr;
	} else if (id->g && id->gm) {
		for (i = 0; i < id->g->ngms; i++)
			if (!str_eq_nocase(id->g->gms[i], to[0]))
				cc[ncc++] = id->g->gms[i];
	}
	buf_init(&subj, 1024);
	if (m->subject && *m->subject && !subject_secret(m->subject)) {
		if (!str_prefix_nocase(m->subject, "re:"))
			buf_puts(&subj, "Re: ");
		buf_puts(&subj, m->subject);
	} else {
		if (id->g)
			buf_printf(&subj, "[%s] your orders", id->g->name);
		else
			buf_puts(&subj, "Re: your message to the judge");
	}
	{
		struct buf refs;
		buf_init(&refs, 8192);
		if (m->references && *m->references)
			buf_printf(&refs, "%s ", m->references);
		if (m->message_id && buf_printf(&refs, "<%s>", m->message_id) < 0) {
			buf_reset(&refs);	/* too many to keep: the one it answers */
			buf_printf(&refs, "<%s>", m->message_id);
		}
		outbound_send(j, id->g, to, 1, cc, ncc, buf_text(&subj), text, m->message_id,
		    refs.len ? buf_text(&refs) : NULL, OUT_REPLY);
		buf_free(&refs);
	}
	buf_free(&subj);
}
