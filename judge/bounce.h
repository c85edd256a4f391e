/*
 * bounce.h — mail that came back: counted per game and address; after
 * BOUNCE_LIMIT bounces the address is no longer written to (its game's
 * GMs are told) until mail comes from it again. Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_BOUNCE_H
#define POUCH_JUDGE_BOUNCE_H

#include "../mailer/message.h"
#include "judge.h"

/* A delivery status notification m: count the bounce in every game of
 * the address it names. */
void bounce_handle(struct judge *j, const struct inmsg *m);
/* Mail came from addr: it works again wherever it bounced. */
void bounce_clear(struct judge *j, const char *addr);

#endif
