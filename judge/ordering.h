/*
 * ordering.h — the order lines of a message: taken for the sender's power,
 * refused with the reason, a date above them, or plainly not orders at all
 * (a greeting, a name). Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_ORDERING_H
#define POUCH_JUDGE_ORDERING_H

#include "../mailer/message.h"
#include "judge.h"

/* What ordering_take made of a line. */
enum taken {
	TAKE_REFUSED,		/* refused, the reason appended to the reply */
	TAKE_DONE,		/* taken (or blank), the verdict appended */
	TAKE_CHAT,		/* plainly not an order (a greeting, a name, thanks):
				 * nothing appended, the caller lists it as ignored */
};

/* Take one order line from power p's delegation: a line of several
 * whole orders ("build a berlin, build f kiel") gives each. A heading
 * ("Austria:") naming one of its powers sets *heading, the power whose
 * orders follow (POWER_NONE: p's; it decides orders naming no unit, as
 * Waive); a unit or home centre decides the others. Appends the verdicts
 * to reply; returns what the line was (enum taken). */
enum taken ordering_take_headed(struct game *g, power_id p, power_id *heading, const char *line,
    size_t len, struct buf *reply);
/* ordering_take_headed for a line on its own, under no heading. */
enum taken ordering_take(struct game *g, power_id p, const char *line, size_t len,
    struct buf *reply);
/* True when line is plainly not an order on g's board (a greeting, a name,
 * thanks; a heading, "Orders for England:") and no command tried either. */
bool ordering_chat(const struct game *g, const char *line, size_t len);
/* True when a piece of subject (split at commas and semicolons, a "Re:" or
 * "Fwd:" in front left out) reads as an order of power p on g's board;
 * false for the GM (p POWER_NONE). */
bool ordering_in_subject(const struct game *g, power_id p, const char *subject);
/* True when line, from power p (POWER_NONE: the GM), could close a mail
 * on g's board: refused as an order, its first word no place, unit,
 * power or order word (or a place only as a misspelling), no place named
 * in it, not a date, a heading ("...:") or a misspelt command ("Eva",
 * "Ann (class 3B)", "Stedelijk Gymnasium"). */
bool ordering_signature(const struct game *g, power_id p, const char *line, size_t len);
/* True when line is a greeting or a closing (parser/endings.h) that names
 * no place on g's board (g NULL: no board): "Hoi,", "Thanks!", "Mvg,
 * Bram", not "Here are my orders: A Par H". */
bool ordering_greeting(const struct game *g, const char *line, size_t len);
/* A date line above orders ("Spring 1935", "Fall 1935:", "Orders for
 * Spring 1935:"): 1 when line is one, *same saying whether it names the
 * game's phase. */
int ordering_date(const struct game *g, const char *line, size_t len, bool *same);
/* The order lines a message had refused, kept to tell whether they were
 * meant for the phase decided just before. */
#define LATE_LINES_MAX 8
struct late_lines {
	int n;
	const char *text[LATE_LINES_MAX];
	size_t len[LATE_LINES_MAX];
	bool dated;		/* orders refused under a date line naming another phase */
};

/* Tell the sender of orders in m (power p) that the phase they may have
 * meant was decided before their mail came: when its Date is before the
 * decision, or when it came soon after with orders refused that fit the
 * position decided (or dated for another phase). The note into out,
 * times in zone. */
void ordering_late_note(struct judge *j, const struct game *g, const struct inmsg *m, power_id p,
    const struct late_lines *refused, const char *zone, time_t now, struct buf *out);

#endif
