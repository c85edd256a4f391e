/*
 * mail.c — handling the mail a judge receives (judge_mail, judge_host_mail).
 *
 * A message is read line by line (parser/commands.h). Its first GAME line
 * identifies the sender: game, power (or GM) and password (ident.c).
 * Every later line is a command (dispatch.c), an order (ordering.c) or
 * part of a press block (press.c), and every line gets its verdict in the
 * reply (reply.c), so that a bad line never costs a good one. Lines that
 * are no orders are listed as ignored, never refused: quoted lines,
 * greetings and thanks wherever they are, the end of the mail (a
 * signature, a quoted or forwarded mail: parser/endings.h) and, above it,
 * the last lines with no order in them (a name, a school's address).
 *
 * The reply goes to the sender, copied to the other members of the
 * delegation. A message that cannot be authenticated gets a refusal that
 * says nothing about the game. Messages that must not be answered
 * (auto-replies, lists, bounces, our own mail) get no reply at all.
 */
#include "judge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../parser/commands.h"
#include "bounce.h"
#include "command.h"
#include "dispatch.h"
#include "ident.h"
#include "ordering.h"
#include "outbound.h"
#include "press.h"
#include "reply.h"
#include "status.h"

/* A message being read. */
struct mail {
	struct judge *j;
	const struct inmsg *m;
	long seq;
	time_t now;
	bool host;		/* from the host (judge_host_mail) */
	struct ident id;	/* the sender, once the GAME line named them */
	struct game *ahead;	/* the game the GAME line names, for the lines above it */
	const struct body_line *lines;	/* the message's lines, */
	int nlines;		/* how many */
	int ident_at;		/* the index of its first GAME line (-1: none) */
	int closing_at;		/* its last lines from here on close it (names, thanks) */
	int above_at;		/* its first quoted mail written under (nlines: none) */
	int above_close;	/* the lines from here to above_at close what is above it */
	struct ignored ign;	/* lines that are not orders */
	struct press pr;	/* the press block being read */
	struct echo echo;	/* what the reply left out */
	struct buf reply;
	bool told_ident;	/* the sender was told to start with a GAME line */
	bool refused;		/* the GAME line or NEWGAME was refused: nothing more is read
				 * or recorded */
	bool stop;		/* the rest of the message is not read */
	enum {
		ORDERED_NONE,	/* no orders */
		ORDERED_TAKEN,	/* orders taken */
		ORDERED_REFUSED,	/* an order refused */
	} ordered;
	struct late_lines late;	/* the orders refused, for the note on late orders */
	size_t note_at;		/* where a note on late orders goes in the reply */
	bool misdated;		/* the orders under the last date line are for another phase */
	bool dated;		/* a date line came before the orders */
	power_id heading;	/* the power a heading line named ("Austria:"), whose orders
				 * follow; POWER_NONE: the GAME line's */
};

/* Mail that gets no reply (a bounce, an automatic reply, a list, our own):
 * dealt with or noted in the log; returns true when m is such mail. */
static bool
mail_unanswered(struct judge *j, const struct inmsg *m, bool host)
{
	char which[300];	/* the message, for the log: "message <ID>" */

	if (m->message_id)
		snprintf(which, sizeof which, "message <%.250s>", m->message_id);
	else
		str_copy(which, "a message without a Message-ID", sizeof which);
	switch (host ? INMSG_NORMAL : m->kind) {
	case INMSG_BOUNCE:
		bounce_handle(j, m);
		return true;
	case INMSG_AUTO:
		outbound_log(j, NULL, "ignored an automatic reply from %s (%s)",
		    m->from_addr ? m->from_addr : "?", which);
		return true;
	case INMSG_BULK:
		outbound_log(j, NULL, "ignored list or bulk mail from %s (%s)",
		    m->from_addr ? m->from_addr : "?", which);
		return true;
	case INMSG_OWN:
		outbound_log(j, NULL, "ignored mail sent by this judge (%s)", which);
		return true;
	default:
		break;
	}
	if (host)
		return false;
	if (m->from_addr == NULL || *m->from_addr == '\0') {
		outbound_log(j, NULL, "ignored a message without a usable sender (%s)", which);
		return true;
	}
	bounce_clear(j, m->from_addr);
	if (str_eq_nocase(m->from_addr, j->conf->address)) {
		outbound_log(j, NULL, "ignored a message from the judge's own address (%s)", which);
		return true;
	}
	return false;
}

/* The lines of text t. */
static int
text_lines(const char *t)
{
	int n = *t != '\0' && t[strlen(t) - 1] != '\n';

	for (; *t; t++)
		n += *t == '\n';
	return n;
}

/* What the reply says first about how the message could be read. */
static void
mail_notices(const struct inmsg *m, struct buf *reply)
{
	int nlines = text_lines(m->text);

	if (nlines > BODY_MAX_LINES)
		nlines = BODY_MAX_LINES;
	if (m->truncated && m->read_size < m->raw_size)
		buf_printf(reply, "Your message was larger than the judge reads (%zu KB): only its "
		    "first %zu KB were read,\nwhich held %d lines of text; the orders and commands "
		    "in them were taken.\nNothing after them was read (orders and commands "
		    "neither): send those again,\nin a shorter message.\n\n",
		    (m->raw_size + 1023) / 1024, (m->read_size + 1023) / 1024, nlines);
	else if (m->truncated)
		buf_printf(reply, "Your message was too long; only its beginning was read (%d "
		    "lines).\nNothing after it was read (orders and commands neither): send them "
		    "again.\n\n", nlines);
	if (m->had_attachments)
		buf_puts(reply, "Attachments are not read: write your orders in the message itself.\n\n");
	if (m->html_only)
		buf_puts(reply, "Your message had no plain-text part; its HTML was read as text.\n\n");
	if (m->bad_charset)
		buf_puts(reply, "Your message's character set was not recognised: letters outside "
		    "plain ASCII\nmay have been misread. Please send plain text in UTF-8.\n\n");
}

/* The sender's power, POWER_NONE for the GM. */
static power_id
mail_from(const struct mail *ml)
{
	return ml->id.gm ? POWER_NONE : ml->id.power;
}

/* The message's first GAME line, and where its end (a signature, a
 * quoted mail) starts. */
static void
mail_scan(struct mail *ml)
{
	int i;

	ml->ident_at = -1;
	for (i = 0; i < ml->nlines && ml->ident_at < 0; i++)
		if (ml->lines[i].kind == LINE_IDENT)
			ml->ident_at = i;
	for (i = 0; i < ml->nlines && ml->lines[i].kind != LINE_SIGNATURE; i++)
		;
	ml->closing_at = i;
	for (i = 0; i < ml->closing_at && ml->lines[i].kind != LINE_QUOTED_MAIL; i++)
		;
	ml->above_at = ml->above_close = i;
}

/* Does text begin with a unit's or an order's word ("A Lvp H", "Fleet
 * London holds", "Build A Kiel"), which no name signed begins with? */
static bool
order_word_first(const char *text, size_t len)
{
	static const char *const words[] = { "a", "f", "army", "fleet", "build", "remove",
		"waive", "disband" };
	size_t i, n = 0;

	while (n < len && text[n] != ' ' && text[n] != '\t')
		n++;
	for (i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strlen(words[i]) == n && strncasecmp(text, words[i], n) == 0)
			return true;
	return false;
}

/* Could bl be a name signed under a closing: one to four words of
 * letters and digits, no order's dash or arrow, not beginning with a unit
 * or an order word ("Sem", "Jan-Willem de Vries", "Ann (class 3B)")? */
static bool
name_line(const struct body_line *bl)
{
	size_t k;
	int words = 0;
	bool in = false;

	if (bl->kind != LINE_TEXT || bl->len == 0)
		return false;
	for (k = 0; k < bl->len; k++) {
		char c = bl->text[k];
		if (c == ' ' || c == '\t') {
			in = false;
			continue;
		}
		if (c == '-' && !in)
			return false;	/* an order's dash, not a name's */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '\'' || c == '(' || c == ')' || c == '-' ||
		    (unsigned char)c >= 0x80))
			return false;
		if (!in)
			words++;
		in = true;
	}
	return words >= 1 && words <= 4 && !order_word_first(bl->text, bl->len);
}

/* The line above i (blanks skipped) when it is a closing that ends with a
 * comma ("Regards,", "Groetjes,") and the lines from it to end are names
 * (at most two): its index, else -1. */
static int
closing_above(const struct mail *ml, int i, int end)
{
	const struct game *g = ml->id.g;
	int k, names = 0;

	for (k = i; k < end; k++) {
		const struct body_line *bl = &ml->lines[k];
		if (bl->kind == LINE_BLANK)
			continue;
		if (!name_line(bl) || ++names > 2)
			return -1;
	}
	for (k = i - 1; k > ml->ident_at; k--) {
		const struct body_line *bl = &ml->lines[k];
		if (bl->kind == LINE_BLANK)
			continue;
		if (bl->kind == LINE_TEXT && bl->len > 0 && bl->text[bl->len - 1] == ',' &&
		    ordering_greeting(g, bl->text, bl->len))
			return k;
		if (!name_line(bl) || ++names > 2)
			return -1;
	}
	return -1;
}

/* The first of the lines above end that close what is above it: blank or
 * quoted, a greeting, lines ordering_signature finds no order in, or a
 * name signed under a closing ("Regards,\nSem", even when the name reads
 * as a place or a command); end when there are none. */
static int
closing_from(const struct mail *ml, int end)
{
	const struct game *g = ml->id.g;
	power_id p = mail_from(ml);
	int i = end, from = end, k;

	while (--i > ml->ident_at) {
		const struct body_line *bl = &ml->lines[i];
		if (bl->kind == LINE_BLANK || bl->kind == LINE_QUOTED)
			continue;
		if (bl->kind == LINE_TEXT && (ordering_greeting(g, bl->text, bl->len) ||
		    ordering_signature(g, p, bl->text, bl->len))) {
			from = i;
			continue;
		}
		if ((k = closing_above(ml, i, end)) < 0)
			break;
		from = i = k;
	}
	return from;
}

/* The sender identified: the lines that close the message above its end,
 * and above a quoted mail written under (not in a game that reads its
 * lines itself). */
static void
mail_closing(struct mail *ml)
{
	if (system_serves(ml->id.g->sys, SYS_BOARDLESS))
		return;
	ml->closing_at = closing_from(ml, ml->closing_at);
	if (ml->above_at < ml->closing_at && ml->above_at > ml->ident_at)
		ml->above_close = closing_from(ml, ml->above_at);
}

/* The GAME line bl: the sender identified, or the message refused. */
static void
mail_ident(struct mail *ml, const struct body_line *bl)
{
	struct ident *id = &ml->id;
	struct buf why;
	int r;

	if (id->g) {
		buf_puts(&ml->reply, "  ignored: one GAME line per message\n");
		return;
	}
	buf_init(&why, 1024);
	r = ident_read(ml->j, bl, id, &why);
	if (r < 0 && bl->misspelt) {
		/* A word near GAME that does not name a game, a power and its
		 * password has no one meaning: the message is not read. */
		buf_free(&why);
		id->power = POWER_NONE;
		buf_puts(&ml->reply, "  ignored: start with a line GAME <game> <power> <password>"
		    " (send HELP for instructions)\n");
		ml->told_ident = true;
		return;
	}
	if (r == -2) {
		buf_printf(&ml->reply, "  REFUSED: %s.\n  Nothing in your message was recorded.\n",
		    buf_str(&why));
	} else if (r < 0) {
		buf_puts(&ml->reply, "  REFUSED: this GAME line does not match a game, power and "
		    "password of this judge.\n  Check the game's name, your power's name in full (as your "
		    "game master wrote it)\n  and your password; your game master can send a new one. "
		    "Nothing in your message was recorded.\n");
		outbound_log(ml->j, NULL, "not recorded: a message from %s: %s", ml->m->from_addr,
		    buf_str(&why));
	}
	buf_free(&why);
	if (r < 0) {
		ml->refused = true;
		return;
	}
	if (bl->misspelt) {
		size_t w = 0;
		while (w < bl->len && bl->text[w] != ' ' && bl->text[w] != '\t' && bl->text[w] != ':')
			w++;
		buf_printf(&ml->reply, "  \"%.*s\" read as GAME: the line names a game, a power and "
		    "its password\n", (int)w, bl->text);
	}
	if (id->gm)
		buf_printf(&ml->reply, "  game %s, game master\n", id->g->name);
	else
		buf_printf(&ml->reply, "  game %s, %s\n", id->g->name, id->g->map->powers[id->power].name);
	ml->note_at = ml->reply.len;
	mail_closing(ml);
	if (id->g->seq >= ml->seq && ml->seq > 0) {
		/* Already applied (a re-run after a crash): reply again, change nothing. */
		buf_puts(&ml->reply, "  (this message was already applied)\n");
		ml->stop = true;
	}
}

/* NEWGAME before any GAME line: the game it makes is the message's game,
 * its GM may go on. A refused NEWGAME made none, and gives no authority
 * over any other game: the lines after it, meant for the game, are not
 * read, and the reply says how many. */
static void
mail_newgame(struct mail *ml, const struct body_line *bl)
{
	struct judge *j = ml->j;
	int made = j->ngames, i, rest = 0;

	if (dispatch_newgame(j, ml->m->from_addr, bl, &ml->reply) != CMD_DONE) {
		for (i = (int)(bl - ml->lines) + 1; i < ml->closing_at; i++) {
			const struct body_line *l = &ml->lines[i];
			if (l->kind == LINE_COMMAND || l->kind == LINE_IDENT || l->kind == LINE_PRESS ||
			    (l->kind == LINE_TEXT && !name_line(l) &&
			    !ordering_greeting(NULL, l->text, l->len)))
				rest++;	/* a greeting or a name signed is not counted */
		}
		if (rest == 1)
			buf_puts(&ml->reply, "  The line after it was not read.\n");
		else if (rest > 1)
			buf_printf(&ml->reply, "  The %d lines after it were not read.\n", rest);
		ml->refused = true;
		return;
	}
	if (j->ngames > made && (ml->host || game_is_gm(j->games[j->ngames - 1], ml->m->from_addr))) {
		ml->id.g = j->games[j->ngames - 1];
		ml->id.gm = true;
	}
}

/* A line before the GAME line: HELP, NEWGAME, a greeting, or ignored. */
static void
mail_before_game(struct mail *ml, const struct body_line *bl)
{
	if (bl->kind != LINE_COMMAND && ml->ident_at > bl - ml->lines &&
	    ordering_greeting(ml->ahead, bl->text, bl->len)) {
		/* "Hoi," above the GAME line */
		buf_truncate(&ml->reply, ml->echo.mark);
		ignored_add(&ml->ign, bl->text, bl->len);
	} else if (bl->kind == LINE_COMMAND && bl->cmd == CMD_HELP) {
		buf_putc(&ml->reply, '\n');
		status_help(ml->j, NULL, POWER_NONE, &ml->reply);
	} else if (bl->kind == LINE_COMMAND && bl->cmd == CMD_NEWGAME) {
		mail_newgame(ml, bl);
	} else if (ml->ahead && bl->kind != LINE_COMMAND &&
	    ordering_chat(ml->ahead, bl->text, bl->len)) {
		/* "Hi mr judge," above the GAME line */
		buf_truncate(&ml->reply, ml->echo.mark);
		ignored_add(&ml->ign, bl->text, bl->len);
	} else if (!ml->told_ident) {
		buf_puts(&ml->reply, "  ignored: start with a line GAME <game> <power> <password>"
		    " (send HELP for instructions)\n");
		ml->told_ident = true;
	} else {
		buf_puts(&ml->reply, "  ignored (no GAME line)\n");
	}
}

/* A command line of the identified sender. */
static void
mail_command(struct mail *ml, const struct body_line *bl)
{
	struct game *g = ml->id.g;

	if (bl->cmd == CMD_PRESS || bl->cmd == CMD_BROADCAST) {
		press_begin(ml->j, g, mail_from(ml), bl, &ml->pr, &ml->reply);
		return;
	}
	if (bl->cmd == CMD_ENDPRESS) {
		press_end(ml->j, g, mail_from(ml), &ml->pr, &ml->reply);
		return;
	}
	if (dispatch_command(ml->j, g, mail_from(ml), ml->m->from_addr, bl, &ml->reply) ==
	    CMD_STOP)
		ml->stop = true;
	judge_touch(ml->j, g);
}

/* A date line bl above orders: the orders under it are refused when it
 * names another phase. */
static void
mail_date(struct mail *ml, const struct body_line *bl, bool same)
{
	const struct game *g = ml->id.g;

	ml->misdated = !same;
	ml->dated = true;
	if (!ml->misdated) {
		buf_puts(&ml->reply, "  dated: the current phase\n");
		return;
	}
	buf_printf(&ml->reply, "  REFUSED: the game is in %s %d, not %.*s: the orders under this "
	    "date are refused\n", season_name((enum season)g->board.season), g->board.year,
	    (int)bl->len, bl->text);
	ml->ordered = ORDERED_REFUSED;
	ml->late.dated = true;
}

/* A line of the identified sender read by the game's rule system (a
 * game without a board: judge/system.h, line). */
static void
mail_system_line(struct mail *ml, const struct body_line *bl)
{
	struct game *g = ml->id.g;

	switch (system_line(ml->j, g, mail_from(ml), bl->text, bl->len, &ml->reply)) {
	case CMD_IGNORED:
		buf_truncate(&ml->reply, ml->echo.mark);
		ignored_add(&ml->ign, bl->text, bl->len);
		break;
	case CMD_REFUSED:
		ml->ordered = ORDERED_REFUSED;
		break;
	case CMD_DONE:
	case CMD_STOP:
		if (ml->ordered == ORDERED_NONE)
			ml->ordered = ORDERED_TAKEN;
		break;
	}
	judge_touch(ml->j, g);
}

/* An order line (or what should be one) of the identified sender. */
static void
mail_order(struct mail *ml, const struct body_line *bl)
{
	struct game *g = ml->id.g;
	bool same;

	if (system_serves(g->sys, SYS_BOARDLESS)) {
		mail_system_line(ml, bl);
		return;
	}
	if (ml->id.gm && ordering_chat(g, bl->text, bl->len)) {
		buf_truncate(&ml->reply, ml->echo.mark);
		ignored_add(&ml->ign, bl->text, bl->len);
		return;
	}
	if (ml->id.gm) {
		buf_puts(&ml->reply, "  REFUSED: the game master gives no orders (this is not a command)\n");
		return;
	}
	if (g->status != GAME_ACTIVE && g->status != GAME_PAUSED) {
		buf_printf(&ml->reply, "  REFUSED: the game is %s\n", game_status_name(g->status));
		return;
	}
	if (ordering_date(g, bl->text, bl->len, &same)) {
		mail_date(ml, bl, same);
		return;
	}
	if (ml->misdated) {
		buf_puts(&ml->reply, "  REFUSED: dated for another phase (see the date above)\n");
		ml->ordered = ORDERED_REFUSED;
		ml->late.dated = true;
		return;
	}
	if (g->set.dated_orders && !ml->dated && !ordering_chat(g, bl->text, bl->len)) {
		buf_printf(&ml->reply, "  REFUSED: orders in this game are dated: write \"%s %d\" on "
		    "a line above them\n", season_name((enum season)g->board.season), g->board.year);
		ml->ordered = ORDERED_REFUSED;
		return;
	}
	switch (ordering_take_headed(g, ml->id.power, &ml->heading, bl->text, bl->len,
	    &ml->reply)) {
	case TAKE_CHAT:
		buf_truncate(&ml->reply, ml->echo.mark);
		ignored_add(&ml->ign, bl->text, bl->len);
		break;
	case TAKE_REFUSED:
		ml->ordered = ORDERED_REFUSED;
		if (ml->late.n < LATE_LINES_MAX) {
			ml->late.text[ml->late.n] = bl->text;
			ml->late.len[ml->late.n++] = bl->len;
		}
		break;
	case TAKE_DONE:
		if (ml->ordered == ORDERED_NONE)
			ml->ordered = ORDERED_TAKEN;
		break;
	}
	judge_touch(ml->j, g);
}

/* One line of the message: repeated in the reply, then carried out. */
static void
mail_line(struct mail *ml, const struct body_line *bl)
{
	echo_settle(&ml->echo, &ml->reply);
	ml->echo.mark = ml->reply.len;
	switch (bl->kind) {
	case LINE_BLANK:
		return;
	case LINE_QUOTED:
		ignored_add(&ml->ign, bl->text, bl->len);
		return;
	case LINE_SIGNATURE:
		if (bl->len > 0)
			ignored_tail(&ml->ign, bl->text, bl->len);
		return;
	case LINE_QUOTED_MAIL:
		ignored_above(&ml->ign, bl->text, bl->len);
		return;
	case LINE_PRESS:
		press_line(&ml->pr, bl->text, bl->len);
		return;
	case LINE_IDENT:
		/* Repeated without its password. */
		ident_echo(ml->j, bl, &ml->reply);
		mail_ident(ml, bl);
		return;
	default:
		break;
	}
	if (ml->id.g != NULL && bl->kind == LINE_TEXT &&
	    (bl - ml->lines >= ml->closing_at || (bl - ml->lines >= ml->above_close &&
	    bl - ml->lines < ml->above_at) || ordering_greeting(ml->id.g, bl->text, bl->len))) {
		/* "Thanks!", and a name or a school's address at the end */
		ignored_add(&ml->ign, bl->text, bl->len);
		return;
	}
	reply_quote(&ml->reply, bl->text, bl->len);
	if (ml->id.g == NULL)
		mail_before_game(ml, bl);
	else if (bl->kind == LINE_COMMAND)
		mail_command(ml, bl);
	else
		mail_order(ml, bl);
}

/* Orders came: the note on a phase decided before they came, said after
 * the GAME line, before the orders it explains. */
static void
mail_late_note(struct mail *ml, const char *zone)
{
	struct buf note, rest;

	buf_init(&note, 1024);
	ordering_late_note(ml->j, ml->id.g, ml->m, ml->id.power, &ml->late, zone, ml->now, &note);
	if (note.len) {
		buf_init(&rest, OUTBOUND_TEXT_MAX);
		buf_append(&rest, ml->reply.data + ml->note_at, ml->reply.len - ml->note_at);
		buf_truncate(&ml->reply, ml->note_at);
		buf_append(&ml->reply, note.data, note.len);
		buf_append(&ml->reply, rest.data, rest.len);
		buf_free(&rest);
	}
	buf_free(&note);
}

/* The end of a reply in a running or paused game: the sender's orders and
 * the deadline, or that the game is paused (the GM: the deadline). */
static void
mail_status(struct mail *ml)
{
	const struct ident *id = &ml->id;
	const char *zone;

	/* A paused game too: a player's orders given while it waits for its
	 * master are listed, and the reply says it is paused. */
	if (ml->refused || id->g == NULL ||
	    (id->g->status != GAME_ACTIVE && id->g->status != GAME_PAUSED))
		return;
	if (id->g->status == GAME_PAUSED && (id->gm || system_serves(id->g->sys, SYS_OWN_STATUS)))
		return;
	if (system_serves(id->g->sys, SYS_OWN_STATUS)) {
		buf_putc(&ml->reply, '\n');
		system_status(ml->j, id->g, mail_from(ml),
		    id->gm ? "" : ident_zone(id->g, id->power, ml->m->from_addr), ml->now, &ml->reply);
		return;
	}
	if (id->gm) {
		buf_putc(&ml->reply, '\n');
		status_deadline_line(ml->j, id->g, "", ml->now, &ml->reply);
		return;
	}
	zone = ident_zone(id->g, id->power, ml->m->from_addr);
	if (ml->ordered != ORDERED_NONE)
		mail_late_note(ml, zone);
	buf_putc(&ml->reply, '\n');
	status_held(id->g, id->power, &ml->reply);
	buf_putc(&ml->reply, '\n');
	status_deadline_line(ml->j, id->g, zone, ml->now, &ml->reply);
}

/* After the last line: the press still open delivered, the reply
 * finished and sent (the host's kept for its terminal). */
static void
mail_close(struct mail *ml)
{
	struct game *g = ml->id.g;

	echo_end(&ml->echo, &ml->reply);
	if (g == NULL && ml->reply.len == 0 && (ml->ign.n > 0 || ml->ign.tail > 0))
		/* nothing but quoted lines, greetings or a signature */
		buf_puts(&ml->reply, "Start with a line GAME <game> <power> <password> (send HELP for "
		    "instructions).\n");
	if (!ml->refused)
		press_flush(ml->j, g, mail_from(ml), &ml->pr, &ml->reply);
	press_free(&ml->pr);
	if (!ml->refused)
		ignored_put(&ml->ign, g && system_serves(g->sys, SYS_BOARDLESS) ? "a command" : "an order",
		    g && system_serves(g->sys, SYS_BOARDLESS) ? "commands" : "orders", &ml->reply);
	buf_free(&ml->ign.quotes);
	buf_free(&ml->ign.tail_quote);
	buf_free(&ml->ign.above_quote);
	if (g && !ml->refused && ml->ordered == ORDERED_NONE && ml->m->subject &&
	    !system_serves(g->sys, SYS_BOARDLESS) &&
	    ordering_in_subject(g, ml->id.power, ml->m->subject))
		buf_puts(&ml->reply, "Your Subject reads like orders, but the judge reads only the "
		    "message: write them there, one a line.\n");
	mail_status(ml);
	if (g && !ml->refused && g->seq < ml->seq) {
		g->seq = ml->seq;
		judge_touch(ml->j, g);
	}
	if (ml->reply.len == 0 && ml->m->subject && *ml->m->subject)
		buf_puts(&ml->reply, "Your message was empty: the judge reads the message, never "
		    "its Subject.\nWrite the GAME line and your orders there. Send HELP for "
		    "instructions.\n");
	else if (ml->reply.len == 0)
		buf_puts(&ml->reply, "Your message was empty. Send HELP for instructions.\n");
	reply_cap(&ml->reply);
	outbound_news_flush(ml->j);	/* with the deadline the message left */
	if (ml->host)
		ml->j->fx.host_reply = buf_take(&ml->reply);
	else
		reply_send(ml->j, ml->m, &ml->id, buf_text(&ml->reply));
	buf_free(&ml->reply);
}

static void
handle_mail(struct judge *j, const struct inmsg *m, long seq, time_t now, bool host)
{
	struct body_line *lines;
	struct mail ml;
	int n, i;

	j->now = now;
	j->seq = seq;
	j->host = host;
	judge_event(j, "m%ld", seq);
	if (mail_unanswered(j, m, host))
		return;
	memset(&ml, 0, sizeof ml);
	ml.j = j;
	ml.m = m;
	ml.seq = seq;
	ml.now = now;
	ml.host = host;
	ml.id.power = POWER_NONE;
	ml.heading = POWER_NONE;
	buf_init(&ml.reply, OUTBOUND_TEXT_MAX);
	buf_init(&ml.ign.quotes, 1024);
	buf_init(&ml.ign.tail_quote, 256);
	buf_init(&ml.ign.above_quote, 256);
	press_init(&ml.pr);
	lines = xcalloc(BODY_MAX_LINES, sizeof *lines);
	n = body_split(m->text, strlen(m->text), lines, BODY_MAX_LINES);
	if (n > BODY_MAX_LINES) {
		buf_printf(&ml.reply, "Your message has more than %d lines; only the first %d were "
		    "read.\n\n", BODY_MAX_LINES, BODY_MAX_LINES);
		n = BODY_MAX_LINES;
	}
	ml.ahead = ident_game_ahead(j, lines, n);
	j->reading = true;
	ml.lines = lines;
	ml.nlines = n;
	mail_scan(&ml);
	mail_notices(m, &ml.reply);
	ml.echo.mark = ml.reply.len;
	for (i = 0; i < n && !ml.stop && !ml.refused; i++)
		mail_line(&ml, &lines[i]);
	/* A press block the text was cut in is delivered saying so. */
	ml.pr.cut = m->truncated || text_lines(m->text) > BODY_MAX_LINES;
	free(lines);
	mail_close(&ml);
	j->reading = false;
	j->host = false;
}

void
judge_mail(struct judge *j, const struct inmsg *m, long seq, time_t now)
{
	handle_mail(j, m, seq, now, false);
}

void
judge_host_mail(struct judge *j, const struct inmsg *m, long seq, time_t now)
{
	handle_mail(j, m, seq, now, true);
}

void
judge_mail_game(const struct inmsg *m, char *out, size_t size)
{
	struct body_line *lines;
	int n, i;

	*out = '\0';
	if (m->text == NULL)
		return;
	lines = xcalloc(BODY_MAX_LINES, sizeof *lines);
	n = body_split(m->text, strlen(m->text), lines, BODY_MAX_LINES);
	if (n > BODY_MAX_LINES)
		n = BODY_MAX_LINES;
	for (i = 0; i < n; i++) {
		const struct body_line *bl = &lines[i];
		if (bl->kind == LINE_IDENT ||
		    (bl->kind == LINE_COMMAND && bl->cmd == CMD_NEWGAME)) {
			const char *a = bl->args, *end = bl->args + bl->args_len;
			size_t k;
			while (a < end && (*a == ' ' || *a == '\t'))
				a++;
			for (k = 0; a + k < end && a[k] != ' ' && a[k] != '\t'; k++)
				;
			if (k < size) {
				memcpy(out, a, k);
				out[k] = '\0';
			}
			break;
		}
	}
	free(lines);
}

void
judge_mail_secret(struct judge *j, const struct inmsg *m,
    void (*fn)(void *arg, const char *secret, const char *hash), void *arg)
{
	struct body_line first[32], *lines = first;
	int n;

	if (m->text == NULL)
		return;
	/* The GAME line is mostly among the first lines: those alone are
	 * read first. Where the mail ends may read otherwise with the rest
	 * unread; what is found is only checked ahead, and judge_mail checks
	 * what it reads, so a line taken wrongly costs a check, never a verdict. */
	n = body_split(m->text, strlen(m->text), first, 32);
	if (n > 32) {
		int i;
		for (i = 0; i < 32 && first[i].kind != LINE_IDENT; i++)
			;
		if (i == 32) {
			lines = xcalloc(BODY_MAX_LINES, sizeof *lines);
			n = body_split(m->text, strlen(m->text), lines, BODY_MAX_LINES);
		} else {
			n = 32;
		}
	}
	ident_secret_ahead(j, lines, n > BODY_MAX_LINES ? BODY_MAX_LINES : n, fn, arg);
	if (lines != first)
		free(lines);
}
