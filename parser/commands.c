#include "commands.h"

#include <string.h>

#include "../lib/str.h"
#include "endings.h"

static const struct {
	const char *word;	/* first word */
	const char *second;	/* required second word, or NULL */
	enum command cmd;
	int gm;
} table[] = {
	{ "help", NULL, CMD_HELP, 0 },
	{ "orders", NULL, CMD_ORDERS, 0 },
	{ "list", NULL, CMD_LIST, 0 },
	{ "history", NULL, CMD_HISTORY, 0 },
	{ "summary", NULL, CMD_SUMMARY, 0 },
	{ "press", NULL, CMD_PRESS, 0 },
	{ "broadcast", NULL, CMD_BROADCAST, 0 },
	{ "endpress", NULL, CMD_ENDPRESS, 0 },
	{ "end", "press", CMD_ENDPRESS, 0 },
	{ "vote", NULL, CMD_VOTE, 0 },
	{ "wait", NULL, CMD_WAIT, 0 },
	{ "nowait", NULL, CMD_NOWAIT, 0 },
	{ "no", "wait", CMD_NOWAIT, 0 },
	{ "set", NULL, CMD_SET, 0 },
	{ "resign", NULL, CMD_RESIGN, 0 },
	{ "signoff", NULL, CMD_SIGNOFF, 0 },
	{ "quit", NULL, CMD_SIGNOFF, 0 },
	{ "process", NULL, CMD_PROCESS, 1 },
	{ "preview", NULL, CMD_PREVIEW, 1 },
	{ "rollback", NULL, CMD_ROLLBACK, 1 },
	{ "pause", NULL, CMD_PAUSE, 1 },
	{ "resume", NULL, CMD_RESUME, 1 },
	{ "replace", NULL, CMD_REPLACE, 1 },
	{ "eject", NULL, CMD_EJECT, 1 },
	{ "add", "observer", CMD_ADD_OBSERVER, 1 },
	{ "remove", "observer", CMD_REMOVE_OBSERVER, 1 },
	{ "end", NULL, CMD_END, 1 },
	{ "newgame", NULL, CMD_NEWGAME, 1 },
	{ "delegation", NULL, CMD_DELEGATION, 1 },
	{ "start", NULL, CMD_START, 1 },
	{ "award", NULL, CMD_AWARD, 1 },
	{ "revoke", NULL, CMD_REVOKE, 1 },
	{ "conference", NULL, CMD_CONFERENCE, 1 },
	{ "speech", NULL, CMD_SPEECH, 1 },
	{ "request", NULL, CMD_REQUEST, 0 },
	{ "goal", NULL, CMD_GOAL, 0 },
	{ "capital", NULL, CMD_CAPITAL, 0 },
	{ "relinquish", NULL, CMD_RELINQUISH, 0 },
};

const char *
command_name(enum command c)
{
	static const char *const names[CMD_MAX] = {
		[CMD_HELP] = "HELP", [CMD_ORDERS] = "ORDERS", [CMD_LIST] = "LIST",
		[CMD_HISTORY] = "HISTORY", [CMD_SUMMARY] = "SUMMARY", [CMD_PRESS] = "PRESS",
		[CMD_BROADCAST] = "BROADCAST", [CMD_ENDPRESS] = "ENDPRESS", [CMD_VOTE] = "VOTE",
		[CMD_WAIT] = "WAIT", [CMD_NOWAIT] = "NOWAIT", [CMD_SET] = "SET",
		[CMD_RESIGN] = "RESIGN", [CMD_SIGNOFF] = "SIGNOFF", [CMD_PROCESS] = "PROCESS",
		[CMD_PREVIEW] = "PREVIEW", [CMD_ROLLBACK] = "ROLLBACK", [CMD_PAUSE] = "PAUSE",
		[CMD_RESUME] = "RESUME", [CMD_REPLACE] = "REPLACE", [CMD_EJECT] = "EJECT",
		[CMD_ADD_OBSERVER] = "ADD OBSERVER", [CMD_REMOVE_OBSERVER] = "REMOVE OBSERVER",
		[CMD_END] = "END", [CMD_NEWGAME] = "NEWGAME", [CMD_DELEGATION] = "DELEGATION",
		[CMD_START] = "START", [CMD_AWARD] = "AWARD", [CMD_REVOKE] = "REVOKE",
		[CMD_CONFERENCE] = "CONFERENCE", [CMD_SPEECH] = "SPEECH",
		[CMD_REQUEST] = "REQUEST", [CMD_GOAL] = "GOAL",
		[CMD_CAPITAL] = "CAPITAL", [CMD_RELINQUISH] = "RELINQUISH",
	};

	return c > CMD_NONE && c < CMD_MAX && names[c] ? names[c] : "?";
}

const char *
command_suggest(const char *word, size_t n)
{
	const char *best = NULL;
	int limit = n <= 5 ? 1 : 2, bestd = limit + 1, nbest = 0;
	size_t i;

	if (n < 3)
		return NULL;
	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		const char *w = table[i].word, *name = command_name(table[i].cmd);
		int d;
		if (table[i].second || strlen(w) < 3)
			continue;
		d = str_edit_distance(word, n, w, strlen(w), limit);
		if (d == 0)
			return NULL;	/* a command as written: not a misspelling */
		if (d > limit)
			continue;
		if (d < bestd) {
			bestd = d;
			best = name;
			nbest = 1;
		} else if (d == bestd && strcmp(best, name) != 0) {
			nbest++;
		}
	}
	return nbest == 1 ? best : NULL;
}

int
command_is_gm(enum command c)
{
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].cmd == c)
			return table[i].gm;
	return 0;
}

/* The next word of [p, end) as [*w, *w + *n); returns the rest. */
static const char *
next_word(const char *p, const char *end, const char **w, size_t *n)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	*w = p;
	while (p < end && *p != ' ' && *p != '\t' && *p != ':')
		p++;
	*n = (size_t)(p - *w);
	if (p < end && *p == ':')
		p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static int
word_is(const char *w, size_t n, const char *kw)
{
	return n == strlen(kw) && str_eqn_nocase(w, n, kw);
}

/* Classify a command line; returns CMD_NONE when it is not one. */
static enum command
classify(const char *s, size_t len, const char **args, size_t *args_len)
{
	const char *end = s + len, *w1, *w2, *rest1, *rest2;
	size_t n1, n2, i;

	rest1 = next_word(s, end, &w1, &n1);
	rest2 = next_word(rest1, end, &w2, &n2);
	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (!word_is(w1, n1, table[i].word))
			continue;
		if (table[i].cmd == CMD_ORDERS && (word_is(w2, n2, "for") || word_is(w2, n2, "of")))
			return CMD_NONE;	/* "Orders for Austria:": a heading above orders */
		if (table[i].second) {
			if (!word_is(w2, n2, table[i].second))
				continue;
			*args = rest2;
		} else {
			*args = rest1;
		}
		*args_len = (size_t)(end - *args);
		return table[i].cmd;
	}
	return CMD_NONE;
}

int
body_split(const char *text, size_t len, struct body_line *out, int max)
{
	const char *p = text, *end = text + len, *line;
	size_t n;
	int count = 0, lineno = 0, in_press = 0, signed_off = 0, more = 0, i;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		struct body_line *bl;
		const char *s = line, *e = line + n;

		lineno++;
		if (count >= max) {
			more = 1;
			break;
		}
		bl = &out[count++];
		memset(bl, 0, sizeof *bl);
		bl->lineno = lineno;
		while (s < e && (*s == ' ' || *s == '\t' || (unsigned char)*s == 0xa0))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		bl->text = s;
		bl->len = (size_t)(e - s);
		if (signed_off) {
			bl->kind = LINE_SIGNATURE;
			continue;
		}
		if (bl->len == 0) {
			bl->kind = in_press ? LINE_PRESS : LINE_BLANK;
			continue;
		}
		if (*s == '>' || (bl->len >= 2 && s[0] == '|' && s[1] == ' ')) {
			bl->kind = LINE_QUOTED;
			continue;
		}
		if (in_press) {
			const char *a;
			size_t an;
			if (classify(s, bl->len, &a, &an) == CMD_ENDPRESS) {
				bl->kind = LINE_COMMAND;
				bl->cmd = CMD_ENDPRESS;
				in_press = 0;
			} else {
				bl->kind = LINE_PRESS;
			}
			continue;
		}
		{
			const char *w, *rest;
			size_t wn;
			rest = next_word(s, e, &w, &wn);
			if (word_is(w, wn, "game") || word_is(w, wn, "signon")) {
				bl->kind = LINE_IDENT;
				bl->args = rest;
				bl->args_len = (size_t)(e - rest);
				continue;
			}
		}
		bl->cmd = classify(s, bl->len, &bl->args, &bl->args_len);
		if (bl->cmd == CMD_NONE) {
			bl->kind = LINE_TEXT;
			continue;
		}
		bl->kind = LINE_COMMAND;
		if (bl->cmd == CMD_PRESS || bl->cmd == CMD_BROADCAST)
			in_press = 1;
		if (bl->cmd == CMD_SIGNOFF)
			signed_off = 1;
	}
	/* The end of the mail (a signature, a quoted or forwarded message):
	 * every line from its start on is the signature. */
	for (i = 0; i < count; i++) {
		if (out[i].kind == LINE_SIGNATURE)
			break;
		if ((out[i].kind == LINE_TEXT || out[i].kind == LINE_PRESS) &&
		    ending_starts(&out[i], count - i)) {
			for (; i < count; i++)
				out[i].kind = LINE_SIGNATURE;
			break;
		}
	}
	return more ? max + 1 : count;
}
