/*
 * ordering.c — the order lines of a message (ordering.h): each parsed on
 * the game's board, given to the power whose unit it names (a delegation
 * may hold several), checked against the rules and kept, or refused with
 * the reason; a misspelt command is told apart from a misspelt place.
 */
#include "ordering.h"

#include <stdio.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "../parser/commands.h"
#include "../parser/endings.h"
#include "../parser/orders.h"
#include "engine/report.h"
#include "status.h"

/* The parsed order of power p in g as the reply shows it (a revival order
 * with its list; the nation of another power's unit it supports). */
static void
put_order(const struct game *g, power_id p, const struct parse_result *r, struct buf *out)
{
	struct order o = r->order;

	if (o.power == POWER_NONE)
		o.power = p;
	o = report_named(g->map, &g->board, &o);
	if (r->order.kind == ORDER_REVIVE)
		order_format_prefs(g->map, &r->prefs, ORDER_SHORT, out);
	else
		order_format(g->map, &o, ORDER_SHORT, out);
}

/* The first word of line, trimmed, into word (cut at a blank or a
 * punctuation mark); returns its length. */
static size_t
first_word(const char *line, size_t len, char *word, size_t size)
{
	size_t wn;

	str_ncopy_trim(word, size, line, len);
	wn = strcspn(word, " \t:,.!?;");
	word[wn] = '\0';
	return wn;
}

/* The first word of line is a command tried: a misspelt one ("HLEP"), or
 * one in capitals ("SUBMIT") as commands are written. */
static bool
command_tried(const char *line, size_t len)
{
	char word[64];
	size_t wn = first_word(line, len, word, sizeof word), k;

	for (k = 0; k < wn && word[k] >= 'A' && word[k] <= 'Z'; k++)
		;
	return (k == wn && wn >= 3) || command_suggest(word, wn) != NULL;
}

/* True when line is plainly not an order on g's board (a greeting, a name,
 * thanks; a heading, "Orders for England:") and no command tried either. */
bool
ordering_chat(const struct game *g, const char *line, size_t len)
{
	struct board plain;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), POWER_NONE };
	struct parse_result r;

	order_parse(&c, line, len, &r);
	return (r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len)) ||
	    (r.verdict == VERDICT_BLANK && r.heading != POWER_NONE);
}

bool
ordering_in_subject(const struct game *g, power_id p, const char *subject)
{
	static const char *const prefixes[] = { "re:", "fwd:", "fw:", "aw:", "antw:" };
	struct board plain;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), p };
	struct parse_result r;
	const char *s = subject, *e;
	size_t k;

	if (p == POWER_NONE)
		return false;	/* the GM's Subject: rarely orders, often a word like one */
	for (k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (str_prefix_nocase(s, prefixes[k])) {
			s += strlen(prefixes[k]);
			k = (size_t)-1;	/* "Re: Fwd: Re:": look again from the first */
		}
	}
	while (*s != '\0') {
		e = s + strcspn(s, ",;");
		order_parse(&c, s, (size_t)(e - s), &r);
		/* One word read as a place's hold ("resume": Rome) is no order. */
		if (r.order.power == p && (r.verdict == VERDICT_ACCEPTED ||
		    (r.verdict == VERDICT_CORRECTED && memchr(s, ' ', (size_t)(e - s)) != NULL)))
			return true;
		s = *e != '\0' ? e + 1 : e;
	}
	return false;
}

/* A word of a signature line that may name a place: the whole name or
 * abbreviation of one (alone or with the next word, "North Sea"); with
 * prefix, also the beginning of a name ("Mun"); with fuzzy, also a
 * misspelling of a long one ("Burgandy"). */
static bool
signature_place(const struct names *nm, const char *w, size_t n, const char *next, size_t nn,
    bool prefix, bool fuzzy)
{
	struct name_cand cand[NAMES_MAX_CAND];
	char key[96];
	int k, nc;

	names_normalise(w, n, key, sizeof key);
	if (names_province_exact(nm, key) != PROV_NONE)
		return true;
	if (nn > 0 && n + nn + 1 < sizeof key) {
		char two[96];
		memcpy(two, w, n);
		two[n] = ' ';
		memcpy(two + n + 1, next, nn);
		names_normalise(two, n + nn + 1, key, sizeof key);
		if (names_province_exact(nm, key) != PROV_NONE)
			return true;
		names_normalise(w, n, key, sizeof key);
	}
	if (!prefix || n < 3)
		return false;
	nc = names_provinces(nm, key, cand);
	for (k = 0; k < nc; k++)
		if (cand[k].tier == NAME_PREFIX || cand[k].tier == NAME_EXACT ||
		    (fuzzy && n >= 5 && cand[k].dist <= 2))
			return true;
	return false;
}

/* A byte of a word: a letter, a digit, or part of a letter outside ASCII. */
static bool
word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (unsigned char)c >= 0x80;
}

/* The next word of [p, end): letters and digits, apostrophes inside. */
static const char *
signature_word(const char *p, const char *end, const char **w, size_t *n)
{
	while (p < end && !word_byte(*p))
		p++;
	*w = p;
	while (p < end && (word_byte(*p) || (*p == '\'' && p + 1 < end &&
	    word_byte(p[1]))))
		p++;
	*n = (size_t)(p - *w);
	return p;
}

/* The first word of a line, w[0..n), read alone: unknown to the parser
 * (no place, unit, power or order word), or a place only by a
 * misspelling's distance ("Giulia" for Apulia). */
static bool
signature_first(const struct parse_ctx *c, const char *w, size_t n)
{
	struct name_cand cand[NAMES_MAX_CAND];
	struct parse_result r;
	char key[96];
	int k, nc;

	order_parse(c, w, n, &r);
	if (r.verdict == VERDICT_REFUSED && r.not_order)
		return true;
	names_normalise(w, n, key, sizeof key);
	nc = names_provinces(c->names, key, cand);
	for (k = 0; k < nc; k++)
		if (cand[k].tier != NAME_FUZZY)
			return false;
	return nc > 0;
}

bool
ordering_signature(const struct game *g, power_id p, const char *line, size_t len)
{
	struct board plain;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), p };
	struct parse_result r;
	const char *q, *end, *w, *next;
	char key[96];
	size_t n, nn, i;
	bool same, arrow = false;
	int words = 0;

	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	end = line + len;
	if (len == 0 || line[len - 1] == ':' || len >= PARSE_MAX_LINE ||
	    ordering_date(g, line, len, &same) || order_word_in(line, len))
		return false;	/* "we waive this time": meant as an order */
	order_parse(&c, line, len, &r);
	if (r.verdict != VERDICT_REFUSED)
		return false;
	for (i = 0; i + 1 < len; i++)
		if ((line[i] == '-' && line[i + 1] == '>') ||
		    (i > 0 && line[i - 1] == ' ' && line[i] == '-' && line[i + 1] == ' '))
			arrow = true;
	for (q = line; (q = signature_word(q, end, &w, &n)), n > 0;)
		words++;
	/* "HLEP", "SUBMIT": a command tried */
	if (words == 1 && command_tried(line, len))
		return false;
	q = signature_word(line, end, &w, &n);
	names_normalise(w, n, key, sizeof key);
	if (names_power_exact(g->names, key) != POWER_NONE)
		return false;	/* "England", a heading */
	if (!r.not_order && (arrow || !signature_first(&c, w, n)))
		return false;
	for (; n > 0; w = next, n = nn) {
		q = signature_word(q, end, &next, &nn);
		if (signature_place(g->names, w, n, next, nn, words == 1 || arrow, arrow))
			return false;
	}
	return true;
}

bool
ordering_greeting(const struct game *g, const char *line, size_t len)
{
	const char *q, *end = line + len, *w, *next;
	size_t n, nn;

	if (!ending_greeting(line, len))
		return false;
	if (g == NULL || g->names == NULL)
		return true;
	q = signature_word(line, end, &w, &n);
	for (; n > 0; w = next, n = nn) {
		q = signature_word(q, end, &next, &nn);
		if (signature_place(g->names, w, n, next, nn, false, false))
			return false;
	}
	return true;
}

/* A date line above orders ("Spring 1935", "Fall 1935:", "Orders for
 * Spring 1935:"; a committee's rules want every set of orders dated): 1 when
 * line is one, *same saying whether it names the game's phase (Winter
 * adjustments may be dated Fall). */
int
ordering_date(const struct game *g, const char *line, size_t len, bool *same)
{
	static const char *const words[] = { "spring", "fall", "autumn", "winter" };
	static const enum season seasons[] = { SEASON_SPRING, SEASON_FALL, SEASON_FALL,
		SEASON_WINTER };
	char buf[48], *year;
	long y;
	size_t i, k;

	while (len > 0 && (line[len - 1] == ':' || line[len - 1] == '.'))
		len--;
	for (i = 0; i < 2; i++)	/* "Orders for Spring 1901:" */
		if (len > 11 && (str_prefix_nocase(line, i ? "orders of " : "orders for "))) {
			line += i ? 10 : 11;
			len -= i ? 10 : 11;
		}
	if (len == 0 || len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = '\0';
	k = strcspn(buf, " \t");
	if (buf[k] == '\0')
		return 0;
	buf[k] = '\0';
	year = str_trim(buf + k + 1);
	for (i = 0; i < sizeof words / sizeof words[0] && !str_eq_nocase(buf, words[i]); i++)
		;
	if (i == sizeof words / sizeof words[0] || str_to_long(year, 1, 99999, &y) < 0)
		return 0;
	*same = y == g->board.year && (seasons[i] == g->board.season ||
	    (seasons[i] == SEASON_FALL && g->board.season == SEASON_WINTER));
	return 1;
}

/* Refuse a line that is not an order at all (r.not_order): a misspelt
 * command, or a word that is no place. */
static enum taken
refuse_not_order(const char *line, size_t len, const struct parse_result *r, struct buf *reply)
{
	char word[64];
	const char *cmd, *like = strstr(r->note, "did you mean ");
	size_t wn = first_word(line, len, word, sizeof word);

	cmd = command_suggest(word, wn);
	if (str_eq_nocase(word, "password"))
		buf_puts(reply, "  REFUSED: only the game master sets passwords (REPLACE power "
		    "PASSWORD);\n  ask yours for a new one.\n");
	else if (cmd)
		buf_printf(reply, "  REFUSED: not an order or a command; did you mean %s?\n", cmd);
	else if (like)
		buf_printf(reply, "  REFUSED: \"%s\" is not a place or a command (places like it: "
		    "%.*s). Send HELP for the commands.\n", word, (int)strcspn(like + 13, "?"),
		    like + 13);
	else
		buf_printf(reply, "  REFUSED: \"%s\" is not a place or a command. Send HELP for "
		    "the commands.\n", word);
	return TAKE_REFUSED;
}

/* A stack's units all had orders, or every build due: which one the new
 * order replaced ("Moscow has 2 armies and both have orders: this one
 * replaces A mos - stp."). */
static void
put_replaced(const struct game *g, const struct order *old, int units, struct buf *reply)
{
	const struct map *m = g->map;
	bool army = old->type == UNIT_ARMY;

	if (old->kind == ORDER_BUILD) {
		buf_puts(reply, "  Every build due has an order: this one replaces ");
		order_format(m, old, ORDER_SHORT, reply);
		buf_printf(reply, ", the last in %s.\n", m->provs[m->locs[old->loc].prov].name);
		return;
	}
	buf_printf(reply, "  %s has %d %s%s and %s have orders: this one replaces ",
	    m->provs[m->locs[old->loc].prov].name, units, army ? "armies" : "fleets",
	    g->board.phase == PHASE_RETREAT ? " dislodged" : "", units == 2 ? "both" : "all");
	order_format(m, old, ORDER_SHORT, reply);
	buf_puts(reply, ".\n");
}

/* Check the order r of power p against the rules and keep it, or refuse
 * it with the rule it breaks. */
static enum taken
keep_order(struct game *g, power_id p, const struct parse_result *r, struct buf *reply)
{
	bool listed = r->order.kind == ORDER_REVIVE;
	enum order_check own = listed ? ORDER_CHECK_ENGINE :
	    system_check_order(g, p, &r->order, reply);
	enum reason why;
	struct order old;
	int k, units = 0;

	if (own == ORDER_CHECK_REFUSED)
		return TAKE_REFUSED;
	why = listed ? system_check_list(g, p, &r->prefs) :
	    own == ORDER_CHECK_TAKEN ? R_OK : adj_check(g->map, &g->rules, &g->board, &r->order);
	if (why == R_OK && !listed && game_adjustment_extra(g, p, &r->order)) {
		status_adjustment_extra(g, p, &r->order, reply);
		return TAKE_REFUSED;
	}
	if (why != R_OK) {
		buf_puts(reply, "  REFUSED: ");
		if (listed) {
			put_order(g, p, r, reply);
			buf_puts(reply, ": ");
			report_refusal(g->map, &g->board, &r->order, why, reply);
			buf_putc(reply, '\n');
			return TAKE_REFUSED;
		}
		report_refusal(g->map, &g->board, &r->order, why, reply);
		buf_putc(reply, '\n');
		return TAKE_REFUSED;
	}
	k = listed ? -1 : game_stack_replaces(g, p, &r->order, &units);
	if (k >= 0)
		old = g->del[p].orders[k];
	if ((listed ? system_keep_list(g, p, &r->order, &r->prefs) :
	    game_set_order(g, p, &r->order)) < 0) {
		buf_puts(reply, "  REFUSED: too many orders\n");
		return TAKE_REFUSED;
	}
	buf_printf(reply, "  %s: ", r->verdict == VERDICT_CORRECTED ? "corrected" : "accepted");
	put_order(g, p, r, reply);
	if (r->verdict == VERDICT_CORRECTED)
		buf_printf(reply, "  (%s)", r->note);
	buf_putc(reply, '\n');
	if (k >= 0)
		put_replaced(g, &old, units, reply);
	return TAKE_DONE;
}

/* "all others hold" (order_all_hold) from power p: a hold for each of its
 * units without an order yet, in a movement phase. */
static enum taken
all_hold(struct game *g, power_id p, struct buf *reply)
{
	const struct board *b = &g->board;
	struct parse_result r;
	enum taken t = TAKE_DONE;
	int i, n = 0;

	if (b->phase != PHASE_MOVEMENT) {
		buf_puts(reply, "  REFUSED: units hold in a movement phase; in this phase there is "
		    "nothing to hold\n");
		return TAKE_REFUSED;
	}
	for (i = 0; i < b->nunits; i++) {
		const struct unit *u = &b->units[i];
		if (u->power != p || (u->type & UNIT_ABOARD) ||
		    game_ordered_in(g, p, map_loc_prov(g->map, u->loc)))
			continue;
		memset(&r, 0, sizeof r);
		r.verdict = VERDICT_CORRECTED;
		r.heading = POWER_NONE;
		r.order.kind = ORDER_HOLD;
		r.order.power = p;
		r.order.type = u->type;
		r.order.loc = u->loc;
		r.order.target = r.order.dest = LOC_NONE;
		r.order.target_power = POWER_NONE;
		str_copy(r.note, "read as a hold for each unit without an order", sizeof r.note);
		if (keep_order(g, p, &r, reply) == TAKE_REFUSED)
			t = TAKE_REFUSED;
		n++;
	}
	if (n == 0)
		buf_puts(reply, "  no unit of yours is without an order: nothing to hold\n");
	return t;
}

/* The powers held together with p, besides p, as a set (bit q for q). */
static uint32_t
held_with(const struct game *g, power_id p)
{
	uint32_t held = 0;
	int q;

	for (q = 0; q < g->map->npowers && q < 32; q++)
		if (q != p && game_held_together(g, p, (power_id)q))
			held |= 1u << q;
	return held;
}

/* A heading line naming power h ("Austria:"): the orders below are h's
 * when p's delegation holds it. */
static enum taken
take_heading(struct game *g, power_id p, power_id h, power_id *heading, struct buf *reply)
{
	if (!game_held_together(g, p, h)) {
		buf_printf(reply, "  REFUSED: you do not play %s\n", g->map->powers[h].name);
		return TAKE_REFUSED;
	}
	*heading = h;
	return TAKE_DONE;
}

enum taken
ordering_take_headed(struct game *g, power_id p, power_id *heading, const char *line, size_t len,
    struct buf *reply)
{
	struct board plain;
	power_id by = *heading != POWER_NONE ? *heading : p;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), by };
	struct parse_result r;
	enum taken t = TAKE_DONE;
	int k;

	/* A delegation holding several powers: a misspelt place is read by
	 * all their units, and the unit (or, for a build, the home centre)
	 * decides whose order it is. */
	if (order_all_hold(line, len))
		return all_hold(g, by, reply);
	order_parse_held(&c, held_with(g, by), line, len, &r);
	if (r.verdict == VERDICT_BLANK && r.heading != POWER_NONE)
		return take_heading(g, p, r.heading, heading, reply);
	if (r.verdict == VERDICT_BLANK)
		return TAKE_DONE;
	if (r.verdict == VERDICT_REFUSED && r.nparts > 0) {
		/* "build a berlin, build f kiel": each part a whole order, a
		 * refusal naming its part */
		for (k = 0; k < r.nparts; k++) {
			const char *part = line + r.part[k].off, *said;
			struct buf one;
			buf_init(&one, 4096);
			if (ordering_take_headed(g, p, heading, part, r.part[k].len, &one) ==
			    TAKE_REFUSED)
				t = TAKE_REFUSED;
			said = buf_str(&one);
			if (strncmp(said, "  REFUSED: ", strlen("  REFUSED: ")) == 0)
				buf_printf(reply, "  REFUSED: \"%.*s\": %s", (int)r.part[k].len,
				    part, said + strlen("  REFUSED: "));
			else
				buf_puts(reply, said);
			buf_free(&one);
		}
		return t;
	}
	if (r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len))
		return TAKE_CHAT;
	if (r.verdict == VERDICT_REFUSED && r.not_order)
		return refuse_not_order(line, len, &r, reply);
	if (r.verdict == VERDICT_REFUSED) {
		buf_printf(reply, "  REFUSED: %s\n", r.note);
		return TAKE_REFUSED;
	}
	if (r.order.power != by && !(r.order.power != POWER_NONE &&
	    game_held_together(g, by, r.order.power))) {
		buf_printf(reply, "  REFUSED: that is an order for %s; you play %s\n",
		    r.order.power == POWER_NONE ? "nobody" : g->map->powers[r.order.power].name,
		    g->map->powers[by].name);
		return TAKE_REFUSED;
	}
	return keep_order(g, r.order.power == POWER_NONE ? by : r.order.power, &r, reply);
}

enum taken
ordering_take(struct game *g, power_id p, const char *line, size_t len, struct buf *reply)
{
	power_id heading = POWER_NONE;

	return ordering_take_headed(g, p, &heading, line, len, reply);
}

/* Orders that come this soon after a phase was decided may have been
 * meant for it. */
#define LATE_WINDOW 3600

/* Would one of the refused lines have been an order of power p in the
 * position before the phase decided last (its history record rec)? */
static bool
fits_decided(const struct game *g, power_id p, const struct late_lines *refused, const char *rec)
{
	struct board b;
	int i;

	if (status_history_position(g, rec, &b) < 0)
		return false;
	for (i = 0; i < refused->n; i++) {
		struct parse_ctx c = { g->map, g->names, &b, p };
		struct parse_result r;
		order_parse(&c, refused->text[i], refused->len[i], &r);
		if ((r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED) &&
		    adj_check(g->map, &g->rules, &b, &r.order) == R_OK)
			return true;
	}
	return false;
}

/*
 * Tell the sender of orders that the phase they may have meant was decided
 * before their mail came: when it was written before the decision (its
 * Date), or came within LATE_WINDOW of it with orders refused that were
 * orders in the position decided (or dated for another phase).
 */
void
ordering_late_note(struct judge *j, const struct game *g, const struct inmsg *m, power_id p,
    const struct late_lines *refused, const char *zone, time_t now, struct buf *out)
{
	struct buf rec;
	char when[96], ph[48];
	const char *t;
	size_t n;
	bool dated_before = m->date > 0 && m->date < g->phase_start;

	if (g->nphases == 0 || j->io.history == NULL || g->phase_start > now ||
	    !(dated_before || ((refused->n > 0 || refused->dated) &&
	    now - g->phase_start < LATE_WINDOW)))
		return;
	buf_init(&rec, 1 << 22);
	if (j->io.history(j->io.ctx, g->name, g->nphases, &rec) == 0 &&
	    str_prefix_nocase(buf_str(&rec), "phase ") &&
	    (dated_before || refused->dated || fits_decided(g, p, refused, buf_str(&rec)))) {
		t = buf_str(&rec) + strlen("phase ");
		n = strcspn(t, "\n");
		time_human(&j->io.zones, zone && *zone ? zone : g->set.zone, g->phase_start, when, sizeof when);
		buf_printf(out, "  %.*s was decided on %s, before your mail arrived;\n"
		    "  these orders were read for %s.\n", (int)n, t, when,
		    phase_format(&g->board, ph, sizeof ph));
	}
	buf_free(&rec);
}
