/*
 * buf.h — growable byte buffers with a mandatory maximum size.
 *
 * API: a struct buf owns its bytes; it is always NUL-terminated (the NUL is
 * not counted in len). Every append that would take len past max fails with
 * -1 and leaves the buffer unchanged, so input from mail can never grow a
 * buffer without bound. buf_take() hands the bytes to the caller.
 *
 * The error is sticky: once an append is refused, every later append is
 * refused too and buf_failed() says so, so a text never loses a piece from
 * its middle while a smaller piece after it fits. Writers may ignore the
 * result of each append; the place that uses the text (sends it, writes
 * it, puts it into a mail) checks once, taking it with buf_text(), which
 * gives NULL for a text that is not whole. buf_reset(), and buf_truncate()
 * to a mark taken before the refused append, start clean again.
 *
 *	struct buf b;
 *	buf_init(&b, 1 << 20);
 *	buf_puts(&b, head); buf_printf(&b, "%d\n", n);
 *	if (buf_failed(&b)) ... too big: use none of it ...
 *	char *s = buf_take(&b);		// caller frees s; b is empty again
 */
#ifndef POUCH_BUF_H
#define POUCH_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* The most the reasons one step gives for failing may take (an error buffer). */
#define BUF_ERRORS_MAX (1u << 16)

struct buf {
	char *data;	/* NUL-terminated; NULL until the first append */
	size_t len;	/* bytes used, excluding the NUL */
	size_t cap;	/* bytes allocated */
	size_t max;	/* hard cap on len */
	bool failed;	/* an append was refused: every later one is too */
};

/* Prepare an empty buffer that may hold at most max bytes. */
void buf_init(struct buf *b, size_t max);
/* Release the bytes; b becomes empty and clean (max kept). buf_free on an empty buffer is a no-op. */
void buf_free(struct buf *b);
/* Forget the contents and a refused append, but keep the allocation. */
void buf_reset(struct buf *b);
/* Append n bytes. Returns 0, or -1 when len + n would exceed max or an
 * append was refused before (the buffer is then unchanged). */
int buf_append(struct buf *b, const void *p, size_t n);
/* Append a NUL-terminated string. Returns 0 or -1 as buf_append. */
int buf_puts(struct buf *b, const char *s);
/* Append one byte. Returns 0 or -1. */
int buf_putc(struct buf *b, char c);
/* Append formatted text. Returns 0 or -1 (too big). */
int buf_printf(struct buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Has an append been refused since the buffer was made, reset or cut back? */
bool buf_failed(const struct buf *b);
/* The contents as a C string ("" when empty); borrowed, valid until the next change. */
const char *buf_str(const struct buf *b);
/* The contents for the place that uses them: as buf_str, or NULL when an
 * append was refused (the text is not whole). */
const char *buf_text(const struct buf *b);
/* Hand the NUL-terminated bytes to the caller (never NULL); b becomes empty and clean. */
char *buf_take(struct buf *b);
/* Drop trailing bytes so that len becomes n (n <= len), and forget a
 * refused append: the caller cuts back to a mark taken before it. */
void buf_truncate(struct buf *b, size_t n);

#endif
