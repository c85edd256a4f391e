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
#include "../parser/orders.h"
#include "engine/muna_rules.h"
#include "engine/report.h"
#include "status.h"

/* The parsed order as the reply shows it (a revival order with its list). */
static void
put_order(const struct map *m, const struct parse_result *r, struct buf *out)
{
	if (r->order.kind == ORDER_REVIVE)
		order_format_prefs(m, &r->prefs, ORDER_SHORT, out);
	else
		order_format(m, &r->order, ORDER_SHORT, out);
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
 * thanks) and no command tried either. */
bool
ordering_chat(const struct game *g, const char *line, size_t len)
{
	struct board plain;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), POWER_NONE };
	struct parse_result r;

	order_parse(&c, line, len, &r);
	return r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len);
}

/* A date line above orders ("Spring 1935", "Fall 1935:"; the MUNA rules
 * want every set of orders dated): 1 when line is one, *same saying whether
 * it names the game's phase (Winter adjustments may be dated Fall). */
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

/* The power whose unit an order names (a build: whose home centre it is
 * in), or POWER_NONE. */
static power_id
order_owner(const struct game *g, const struct order *o)
{
	const struct map *m = g->map;
	const struct board *b = &g->board;
	prov_id pr;
	int i;

	if (o->loc == LOC_NONE || o->kind == ORDER_REVIVE || o->kind == ORDER_WAIVE)
		return POWER_NONE;
	pr = m->locs[o->loc].prov;
	if (o->kind == ORDER_BUILD)
		return m->provs[pr].home;
	if (b->phase == PHASE_RETREAT) {
		for (i = 0; i < b->ndislodged; i++)
			if (m->locs[b->dislodged[i].unit.loc].prov == pr)
				return b->dislodged[i].unit.power;
		return POWER_NONE;
	}
	i = board_unit_in(b, m, pr);
	return i < 0 ? POWER_NONE : b->units[i].power;
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
	if (cmd)
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

/* Check the order r of power p against the rules and keep it, or refuse
 * it with the rule it breaks. */
static enum taken
keep_order(struct game *g, power_id p, const struct parse_result *r, struct buf *reply)
{
	bool revival = r->order.kind == ORDER_REVIVE;
	int own = revival || g->sys->check_order == NULL ? 1 :
	    g->sys->check_order(g, p, &r->order, reply);
	enum reason why;

	if (own < 0)
		return TAKE_REFUSED;
	why = revival ? muna_check_revival(g->map, &g->board, p, &r->prefs) :
	    own == 0 ? R_OK : adj_check(g->map, &g->rules, &g->board, &r->order);
	if (why != R_OK) {
		buf_puts(reply, "  REFUSED: ");
		if (revival) {
			put_order(g->map, r, reply);
			buf_printf(reply, ": %s\n", reason_text(why));
			return TAKE_REFUSED;
		}
		report_refusal(g->map, &g->board, &r->order, why, reply);
		buf_putc(reply, '\n');
		return TAKE_REFUSED;
	}
	if ((revival ? game_set_revival(g, p, &r->order, &r->prefs) :
	    game_set_order(g, p, &r->order)) < 0) {
		buf_puts(reply, "  REFUSED: too many orders\n");
		return TAKE_REFUSED;
	}
	buf_printf(reply, "  %s: ", r->verdict == VERDICT_CORRECTED ? "corrected" : "accepted");
	put_order(g->map, r, reply);
	if (r->verdict == VERDICT_CORRECTED)
		buf_printf(reply, "  (%s)", r->note);
	buf_putc(reply, '\n');
	return TAKE_DONE;
}

/* Take one order line from power p. Appends the verdict to reply; returns
 * what the line was (enum taken). */
enum taken
ordering_take(struct game *g, power_id p, const char *line, size_t len,
    struct buf *reply)
{
	struct board plain;
	struct parse_ctx c = { g->map, g->names, game_parse_board(g, &plain), p };
	struct parse_result r;

	order_parse(&c, line, len, &r);
	if (r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED) {
		/* A delegation holding several powers: the unit (or, for a build,
		 * the home centre) decides whose order it is; an order naming
		 * neither (a waive) is the power its prefix names. */
		power_id owner = order_owner(g, &r.order);

		if (owner == POWER_NONE)
			owner = r.order.power;
		if (owner != POWER_NONE && owner != p && game_held_together(g, p, owner)) {
			p = c.power = owner;
			order_parse(&c, line, len, &r);
		}
	}
	if (r.verdict == VERDICT_BLANK)
		return TAKE_DONE;
	if (r.verdict == VERDICT_REFUSED && r.chat && !command_tried(line, len))
		return TAKE_CHAT;
	if (r.verdict == VERDICT_REFUSED && r.not_order)
		return refuse_not_order(line, len, &r, reply);
	if (r.verdict == VERDICT_REFUSED) {
		buf_printf(reply, "  REFUSED: %s\n", r.note);
		return TAKE_REFUSED;
	}
	if (r.order.power != p) {
		buf_printf(reply, "  REFUSED: that is an order for %s; you play %s\n",
		    r.order.power == POWER_NONE ? "nobody" : g->map->powers[r.order.power].name,
		    g->map->powers[p].name);
		return TAKE_REFUSED;
	}
	return keep_order(g, p, &r, reply);
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
