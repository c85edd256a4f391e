#include "commands.h"

#include <string.h>

#include "../lib/str.h"
#include "endings.h"

#define PLAYER COMMAND_PLAYER
#define GM COMMAND_GM
#define BOTH (COMMAND_PLAYER | COMMAND_GM)

/* The ways a command is written, in the order a line is matched. */
static const struct {
	const char *word;	/* first word */
	const char *second;	/* required second word, or NULL */
	enum command cmd;
} table[] = {
#define COMMAND(id, word, second, name, who) { word, second, CMD_##id },
#define WORDS(id, word, second) { word, second, CMD_##id },
#include "commands.def"
#undef COMMAND
#undef WORDS
};

/* Each command's name in HELP and who may give it. */
static const struct {
	const char *name;
	unsigned who;
} commands[CMD_MAX] = {
#define COMMAND(id, word, second, name, who) [CMD_##id] = { name, who },
#define WORDS(id, word, second)
#include "commands.def"
#undef COMMAND
#undef WORDS
};

const char *
command_name(enum command c)
{
	return c > CMD_NONE && c < CMD_MAX ? commands[c].name : "?";
}

unsigned
command_who(enum command c)
{
	return c > CMD_NONE && c < CMD_MAX ? commands[c].who : 0;
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
	return command_who(c) == COMMAND_GM;
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

/* Are the n lines before all blank or quoted: is the next the message's
 * first line? */
static bool
first_line(const struct body_line *lines, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (lines[i].kind != LINE_BLANK && lines[i].kind != LINE_QUOTED)
			return false;
	return true;
}

/* Does the line [s, e) begin with a word one letter off GAME ("GAEM",
 * "GAM", "GAMES") that is no command, followed by three or four words (a
 * game, a power of one word or two, a password)? */
static bool
game_misspelt(const char *s, const char *e)
{
	const char *w, *rest, *a;
	size_t wn, an;
	int words = 0;

	rest = next_word(s, e, &w, &wn);
	if (wn == 0 || str_edit_distance(w, wn, "game", 4, 1) != 1 ||
	    classify(s, (size_t)(e - s), &a, &an) != CMD_NONE)
		return false;
	while (rest < e && words < 5) {
		rest = next_word(rest, e, &a, &an);
		words += an > 0;
	}
	return words == 3 || words == 4;
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
			if (word_is(w, wn, "game") || word_is(w, wn, "signon") ||
			    (first_line(out, count - 1) && game_misspelt(s, e))) {
				bl->kind = LINE_IDENT;
				bl->misspelt = !word_is(w, wn, "game") && !word_is(w, wn, "signon");
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
	 * every line from its start on is the signature; but a quoted mail
	 * the sender wrote under is passed over, and what follows read. */
	for (i = 0; i < count; i++) {
		int quoted;

		if (out[i].kind == LINE_SIGNATURE)
			break;
		if (out[i].kind == LINE_TEXT &&
		    (quoted = ending_quoted_mail(&out[i], count - i)) > 0) {
			for (quoted += i; i < quoted; i++)
				if (out[i].kind != LINE_BLANK)
					out[i].kind = LINE_QUOTED_MAIL;
			i--;
			continue;
		}
		if ((out[i].kind == LINE_TEXT || out[i].kind == LINE_PRESS) &&
		    ending_starts(&out[i], count - i)) {
			for (; i < count; i++)
				out[i].kind = LINE_SIGNATURE;
			break;
		}
	}
	/* A word near GAME is no GAME line in a message that has one. */
	for (i = 0; i < count && !(out[i].kind == LINE_IDENT && !out[i].misspelt); i++)
		;
	if (i < count)
		for (i = 0; i < count; i++)
			if (out[i].kind == LINE_IDENT && out[i].misspelt) {
				out[i].kind = LINE_TEXT;
				out[i].misspelt = 0;
			}
	return more ? max + 1 : count;
}
