/*
 * monotime.h — milliseconds on the monotonic clock, for measuring how long
 * something took (never for dates: the judge's time is an argument).
 */
#ifndef POUCH_MONOTIME_H
#define POUCH_MONOTIME_H

double monotime_ms(void);

#endif
