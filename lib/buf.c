#include "buf.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void
buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->failed = false;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->failed = false;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	b->failed = false;
	if (b->data)
		b->data[0] = '\0';
}

/* Make room for n more bytes plus the NUL; a refusal sticks. */
static int
grow(struct buf *b, size_t n)
{
	size_t need, cap;

	if (b->failed || n > b->max - b->len) {
		b->failed = true;
		return -1;
	}
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > ((size_t)-1) / 2 ? need : cap * 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
	return 0;
}

int
buf_append(struct buf *b, const void *p, size_t n)
{
	if (grow(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int
buf_puts(struct buf *b, const char *s)
{
	return buf_append(b, s, strlen(s));
}

int
buf_putc(struct buf *b, char c)
{
	/* Room for it and the NUL already there (most calls): no call. */
	if (!b->failed && b->len < b->max && b->len + 2 <= b->cap) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
		return 0;
	}
	return buf_append(b, &c, 1);
}

int
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	size_t room = b->data ? b->cap - b->len : 0;
	va_list ap2;
	int n;

	/* One pass when it fits in the room the buffer has (most appends);
	 * else the length is known, the buffer grows and it is written again. */
	if (b->failed)
		return -1;
	va_copy(ap2, ap);
	n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
	va_end(ap2);
	if (n >= 0 && (size_t)n < room && (size_t)n <= b->max - b->len) {
		b->len += (size_t)n;
		return 0;
	}
	if (room)
		b->data[b->len] = '\0';	/* what did not fit is not kept */
	if (n < 0) {
		b->failed = true;
		return -1;
	}
	if (grow(b, (size_t)n) < 0)
		return -1;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return r;
}

bool
buf_failed(const struct buf *b)
{
	return b->failed;
}

const char *
buf_str(const struct buf *b)
{
	return b->data ? b->data : "";
}

const char *
buf_text(const struct buf *b)
{
	return b->failed ? NULL : buf_str(b);
}

char *
buf_take(struct buf *b)
{
	char *s = b->data ? b->data : xstrdup("");
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->failed = false;
	return s;
}

void
buf_truncate(struct buf *b, size_t n)
{
	assert(n <= b->len);
	b->len = n;
	b->failed = false;
	if (b->data)
		b->data[n] = '\0';
}
