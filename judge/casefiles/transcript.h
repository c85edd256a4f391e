/*
 * transcript.h — play a script of mail and clock ticks through the judge
 * and write down everything it sends. The transcript tests compare this
 * output with golden files; a GM can use it to rehearse a game offline.
 *
 *	# comments and blank lines between steps are ignored
 *	CONFIG address judge@example.test       judge settings (address, domain,
 *	CONFIG base-url https://maps.example     base-url, name, reply-limit)
 *	AT 2026-11-20 10:00                      set the clock (UTC)
 *	MAIL alice@x [Subject text]              a message from alice@x; its body
 *	GAME school1 England pw                  follows, up to a line with a
 *	F Lon - Nth                              single "."
 *	.
 *	MAIL! alice@x ...                        the same, as an auto-reply
 *	MAIL+ alice@x ...                        a message that waits in the
 *	                                         inbox: the next MAIL's run
 *	                                         reads both (a phase is decided
 *	                                         after the run read all it has)
 *	HOST                                     a message from the host (what
 *	NEWGAME school1 standard GM teacher@x    `pouch game` files): the body
 *	DELEGATION England alice@x               follows as for MAIL
 *	START
 *	.
 *	BOUNCE bob@y                             a bounce (DSN) of mail to bob@y
 *	TICK 2026-11-22 18:00                    the clock moves on; deadlines act
 *	STATE school1                            print the game file
 *
 * Output: each outgoing message (recipients, subject, threading, body),
 * each audit line and log note, in the order the judge made them. A
 * message under a Message-ID made before is shown as NOT SENT, with its
 * recipients and subject: `pouch run` takes it for a repeat and drops it.
 * Passwords and salts are drawn from a key of 32 zero bytes (as the judge
 * draws them from its key), so the output is stable, and a run through pouch
 * with that key makes the same ones.
 */
#ifndef POUCH_TRANSCRIPT_H
#define POUCH_TRANSCRIPT_H

#include <stddef.h>

#include "../../lib/buf.h"

/* Run the script text[0..len) with variants from maps_dir (NULL: default).
 * Appends the transcript to out. Returns 0, or -1 on a script error (the
 * line and reason are in out). */
int transcript_run(const char *text, size_t len, const char *fname, const char *maps_dir,
    struct buf *out);

#endif
