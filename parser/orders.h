/*
 * orders.h — one line of free text in, one order or a helpful refusal out.
 *
 * The contract is the 1971 rulebook's: "An order which admits of two
 * meanings is not followed. A badly written order, which nevertheless can
 * have only one meaning, must be followed."
 *
 * API
 *
 *	struct parse_ctx c = { map, names, board, power };
 *	struct parse_result r;
 *	order_parse(&c, "army paris moves to burgundy", n, &r);
 *	// r.verdict: VERDICT_ACCEPTED, VERDICT_CORRECTED (r.note says what was
 *	// read differently from what was written), VERDICT_REFUSED (r.note says
 *	// why, with suggestions), VERDICT_BLANK (nothing there)
 *
 * Names are matched exactly, then by unique beginning, then by small
 * misspelling (names.h); for the ordered unit, last, by closeness to the
 * places where the sender has units. When more than one place fits what
 * was written, the board decides: the unit must be there (and the
 * sender's), the move must be possible (a convoy only when fleets on the
 * board could make it), the supported unit must exist. Exactly one reading
 * must survive. Names written exactly are taken as written even when the
 * order is impossible: legality is the adjudicator's business, and its
 * reason codes explain it. Nothing is guessed silently: every correction
 * (a name read differently, a unit type filled in or put right, a coast
 * added, a remark ignored) is named in r.note.
 *
 * Forms: "A Par-Bur", "Par Bur", "army paris moves to burgundy",
 * "A Paris -> Burgundy", "F North Sea C A Lon - Nwy", "A Lon-Nwy via convoy",
 * "A Lon-Nth-Nwy" (a route, accepted and not needed), "A Mun S A Bur",
 * "Mun supports Bur", "A Mun S A Bur H", "A Sil S RUSSIAN A War-Pru",
 * "F StP(sc)-Bot", "F stp/sc - bot", "spain north coast", "A Mun H",
 * "holds", "stand", "A Mun R Boh", "A Mun D", "Build A Par", "B F Lon",
 * "build fleet st petersburg north coast", "Remove A Mun", "Waive", and an
 * optional power prefix "England:" / "E:" / "ENG:" / "England". Ordinary
 * wording with one meaning: "our army in Vienna moves to Trieste", "A Vie -
 * Tri instead", "ok, A Vie - Tri please". A power's name alone ("Austria:")
 * is a heading (r.heading); a line of several whole orders ("build a
 * berlin, build f kiel") is refused as one and its parts given (r.nparts).
 *
 * Variant orders, read only when the map's rule option is on:
 * "insurrection" (MUNA): "F Lon-Russia", "F Lon insurrection Russia", and
 * the revival order "Revive: Moscow, St Petersburg, Warsaw" (most wanted
 * first; the list is returned in r.prefs); "realpolitik": "A Hol embarks
 * F Bel", "A Hol - Bel on board F Bel", "A Bel lands", "A Bel goes ashore".
 * With the option off they are refused with the reason.
 *
 * parser/README.md describes all this for players and maintainers, and the
 * golden file tests/data/parser/orders.golden shows it case by case.
 *
 * No allocation; a line is at most PARSE_MAX_LINE bytes.
 */
#ifndef POUCH_ORDERS_H
#define POUCH_ORDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "../judge/engine/board.h"
#include "../judge/engine/map.h"
#include "../judge/engine/order.h"
#include "names.h"

#define PARSE_MAX_LINE 400
#define PARSE_NOTE 320
#define PARSE_MAX_PARTS 8	/* whole orders on one line (order_parse: nparts) */

struct parse_ctx {
	const struct map *m;
	const struct names *names;
	const struct board *b;	/* the position orders are for; NULL: no board checks */
	power_id power;		/* the sender's power; POWER_NONE: unknown (a prefix may name it) */
};

enum verdict { VERDICT_ACCEPTED = 0, VERDICT_CORRECTED, VERDICT_REFUSED, VERDICT_BLANK };

struct parse_result {
	enum verdict verdict;
	struct order order;		/* valid unless REFUSED or BLANK */
	struct order_prefs prefs;	/* ORDER_REVIVE: the centres, most wanted first */
	char note[PARSE_NOTE];		/* corrections or the refusal, in plain English */
	unsigned char not_order;	/* REFUSED because the first word is no place, unit,
					   power or order word: the line is likely not an
					   order at all (a greeting, a misspelt command) */
	unsigned char chat;		/* REFUSED, and plainly not an order: no arrow, no
					   order word or unit type, no place (a greeting,
					   a name, thanks); the judge lists it as ignored */
	unsigned char bare;		/* a hold written as the unit alone ("A Par") */
	power_id heading;		/* BLANK: the line is a power's name alone
					   ("Austria:", "Austria's orders"), saying whose
					   orders follow; else POWER_NONE */
	unsigned char nparts;		/* REFUSED as one order, but the line is nparts
					   whole orders separated by commas, semicolons,
					   "and" or "then": each is part[i] of the line */
	struct { uint16_t off, len; } part[PARSE_MAX_PARTS];
};

/* Parse one line (UTF-8, not NUL-terminated necessarily). Never fails:
 * problems are a VERDICT_REFUSED result. Allocates nothing; c and r are
 * the caller's. */
void order_parse(const struct parse_ctx *c, const char *line, size_t len, struct parse_result *r);

/* order_parse for a delegation: held has bit q set for each power q the
 * sender holds besides c->power. A unit or home centre of any of them is
 * the sender's (a misspelt place is read by their units too), and the
 * order is given to the power whose unit or centre it names. */
void order_parse_held(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r);

/* True when line has a whole order word (hold, move, support, waive,
 * build, ...): a line a delegation meant as an order, never a signature. */
bool order_word_in(const char *line, size_t len);

/* True when line says that every unit without an order holds ("all others
 * hold", "the rest hold pls", "all units hold"): only such words, courtesy
 * and one hold word. */
bool order_all_hold(const char *line, size_t len);

/* Append the canonical text of an accepted or corrected result, with the
 * power when known: "England: A lvp - edi". Nothing for other verdicts. */
void order_format_result(const struct map *m, const struct parse_result *r, struct buf *out);

/* "accepted", "corrected", "refused", "blank". */
const char *verdict_name(enum verdict v);

#endif
