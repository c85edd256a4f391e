/*
 * standard.h — the standard game's rule system (the 1971 rulebook and its
 * editions, judge/engine/EDITIONS.md), and the steps of its turn that a
 * system layered over it reuses in its own order.
 */
#ifndef POUCH_STANDARD_H
#define POUCH_STANDARD_H

#include "../system.h"

extern const struct rule_system standard_system;

/* Append the results of t's orders, and builds left unused, to t->report. */
void standard_report_results(const struct turn *t);
/* Append "Germany: 1 build not used." to t->report for each power that
 * built and waived fewer units in t's Winter than its rule system says it
 * could raise on t->before (system_raisable; the rest is lost). */
void standard_report_unused(const struct turn *t);
/* Append the position t leads to: the units, the centres when a year
 * ended, what the next phase asks for. */
void standard_report_position(const struct turn *t);
/* Append "X has been eliminated." for each power t left with nothing,
 * followed by also (a sentence, or ""). */
void standard_report_eliminated(const struct turn *t, const char *also);
/* The standard victory: a power with the variant's victory centres after
 * a year's adjustments. */
bool standard_ended(const struct game *g, char *result, size_t size);

#endif
