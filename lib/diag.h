/*
 * diag.h — problems found in a file, for the people who wrote it: one line
 * each, "FILE:LINE: message", appended to a buffer. After DIAG_MAX problems
 * a single "too many errors, giving up" line ends the list; later problems
 * are only counted, so that a file of the wrong kind gives a short answer.
 */
#ifndef POUCH_DIAG_H
#define POUCH_DIAG_H

#include <stdarg.h>

#include "buf.h"

#define DIAG_MAX 50

struct diag {
	const char *fname;	/* the file, named in every line (borrowed) */
	struct buf *out;	/* where the lines go (borrowed) */
	int count;		/* problems reported, past the cap too */
};

/* Report a problem at line (0 or less: the file as a whole). */
void diag_report(struct diag *d, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* As diag_report, with a va_list. */
void diag_vreport(struct diag *d, int line, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
