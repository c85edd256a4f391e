/*
 * press.h — press blocks: "PRESS TO France, Germany" (or BROADCAST) opens
 * one, the lines that follow are its text, ENDPRESS (or the end of the
 * message) delivers it to its recipients, with a copy for the archive.
 * Not part of the judge's API.
 */
#ifndef POUCH_JUDGE_PRESS_H
#define POUCH_JUDGE_PRESS_H

#include <stdint.h>

#include "../parser/commands.h"
#include "judge.h"

/* The press block being read. */
struct press {
	bool open;
	bool broadcast;
	bool anon;
	bool to_gm;
	bool conference;	/* to the conference under way (system_conference) */
	bool refused;		/* the block was refused: its ENDPRESS says so */
	bool cut;		/* the message ended inside the block: it was cut at
				   the judge's limit, not at its end */
	uint64_t to;		/* powers, bit per power */
	int line;
	struct buf text;
};

/* Set up pr with no block open; press_free releases it. */
void press_init(struct press *pr);
void press_free(struct press *pr);
/* A PRESS or BROADCAST line bl of power from (POWER_NONE: the GM) in game
 * g: an open block is delivered first; the new one is opened, or refused
 * with the reason in reply. */
void press_begin(struct judge *j, struct game *g, power_id from, const struct body_line *bl,
    struct press *pr, struct buf *reply);
/* A line of text: part of the open block, if one is. */
void press_line(struct press *pr, const char *text, size_t len);
/* ENDPRESS: deliver the open block, or say why there is none. */
void press_end(struct judge *j, struct game *g, power_id from, struct press *pr,
    struct buf *reply);
/* The end of the message: deliver the block still open, if one is. */
void press_flush(struct judge *j, struct game *g, power_id from, struct press *pr,
    struct buf *reply);

#endif
