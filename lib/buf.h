/*
 * buf.h — growable byte buffers with a mandatory maximum size.
 *
 * API: a struct buf owns its bytes; it is always NUL-terminated (the NUL is
 * not counted in len). Every append that would take len past max fails with
 * -1 and leaves the buffer unchanged, so input from mail can never grow a
 * buffer without bound. buf_take() hands the bytes to the caller.
 *
 *	struct buf b;
 *	buf_init(&b, 1 << 20);
 *	if (buf_append(&b, data, n) < 0) ... too big ...
 *	char *s = buf_take(&b);		// caller frees s; b is empty again
 */
#ifndef POUCH_BUF_H
#define POUCH_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *data;	/* NUL-terminated; NULL until the first append */
	size_t len;	/* bytes used, excluding the NUL */
	size_t cap;	/* bytes allocated */
	size_t max;	/* hard cap on len */
};

/* Prepare an empty buffer that may hold at most max bytes. */
void buf_init(struct buf *b, size_t max);
/* Release the bytes; b becomes empty (max kept). buf_free on an empty buffer is a no-op. */
void buf_free(struct buf *b);
/* Forget the contents but keep the allocation. */
void buf_reset(struct buf *b);
/* Append n bytes. Returns 0, or -1 when len + n would exceed max. */
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
/* The contents as a C string ("" when empty); borrowed, valid until the next change. */
const char *buf_str(const struct buf *b);
/* Hand the NUL-terminated bytes to the caller (never NULL); b becomes empty. */
char *buf_take(struct buf *b);
/* Drop trailing bytes so that len becomes n (n <= len). */
void buf_truncate(struct buf *b, size_t n);

#endif
