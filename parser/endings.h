/*
 * endings.h — how mail ends: the lines that close a message or open the
 * one it answers, told apart from orders by their words alone (no map).
 *
 * The end of a mail starts at a signature separator ("-- " or "--", a
 * line of underscores), a reply header ("On ... wrote:" and its Dutch,
 * German, French, Spanish and Italian forms, also wrapped over two or
 * three lines), a block of header lines ("From: ... Sent: ... To: ..."
 * in those languages), a title between dashes ("-----Original
 * Message-----", "---------- Forwarded message ---------"), a forward's
 * introduction ("Begin forwarded message:"), a phone's or mail app's
 * footer ("Sent from my iPhone", "Get Outlook for Android") or a notice
 * ("This e-mail is confidential ..."). A greeting or closing ("Hoi,",
 * "Dear judge,", "Thanks!", "MfG", "Gr. Eva") is a line of its own that
 * is not an order wherever it is. Nothing is allocated.
 */
#ifndef POUCH_ENDINGS_H
#define POUCH_ENDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "commands.h"

/* True when the end of the mail starts at lines[0], lines[0..n) being the
 * rest of the body as body_split left it (trimmed). */
bool ending_starts(const struct body_line *lines, int n);
/* When lines[0..n) open with a quoted mail (a reply header, "On ...
 * wrote:", then quoted lines) and the sender wrote under it (a line that
 * is neither quoted nor the start of an end): the lines the quoted mail
 * takes, to be passed over; else 0. */
int ending_quoted_mail(const struct body_line *lines, int n);
/* True when line[0..len) is a greeting or a closing ("Hi judge!",
 * "Met vriendelijke groet,", "thx, Bram"): it begins with one and holds
 * no arrow. */
bool ending_greeting(const char *line, size_t len);

#endif
