/*
 * muna_file.h — MUNA's lines in the game file (its table of fields) and
 * its state kept with each history record.
 */
#ifndef POUCH_MUNA_FILE_H
#define POUCH_MUNA_FILE_H

#include "../../lib/buf.h"
#include "../game.h"

/* The control bonus, goals, the conference and insurrections under way. */
extern const struct game_field_table muna_file_fields;

/* Append insurrections under way (s) in the game file's form. */
void muna_file_write_season(const struct game *g, const struct muna_season *s, struct buf *out);
/* Read insurrections under way into s from the "insurgent" and "revival"
 * lines of text (other lines are passed over). */
void muna_file_read_season(const struct game *g, const char *text, size_t len, struct muna_season *s);
/* The conference as "conference ..." and "conference-name ..." lines (none
 * when none is open), as in the game file and in the history records; the
 * reader sets g->conf from such lines in text (none when there are none). */
void muna_file_write_conference(const struct game *g, const struct conference *c, struct buf *out);
void muna_file_read_conference(struct game *g, const char *text, size_t len);

#endif
