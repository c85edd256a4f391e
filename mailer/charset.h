/*
 * charset.h — everything to UTF-8.
 *
 * Mail declares its charset, often wrongly. The rules:
 *   - no charset, "us-ascii" or "utf-8": kept when it is valid UTF-8;
 *     otherwise invalid bytes are read as Windows-1252 (no charset, ASCII)
 *     or replaced by U+FFFD (UTF-8), and *bad is set;
 *   - "iso-8859-1"/"latin1": read as Windows-1252 (a superset in practice);
 *   - any other name iconv knows: converted, invalid sequences replaced
 *     by U+FFFD (*bad set);
 *   - a name iconv does not know: read as Windows-1252, *bad set.
 * The output is always valid UTF-8 (it may contain NUL and control bytes;
 * cleaning those is the caller's business).
 */
#ifndef POUCH_CHARSET_H
#define POUCH_CHARSET_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"

/* Append src[0..n) in charset cs (NULL or "" when undeclared) to out as
 * UTF-8; sets *bad (never clears it) as described above. Returns 0, or -1
 * when out is full (the output so far stays valid UTF-8). */
int charset_to_utf8(const char *cs, const char *src, size_t n, struct buf *out, bool *bad);

/* True when s[0..n) is valid UTF-8 (no overlongs, surrogates or > U+10FFFF). */
bool utf8_valid(const char *s, size_t n);

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is invalid. */
size_t utf8_seq_len(const char *s, size_t n);

/* Append the UTF-8 encoding of code point cp to out. Returns 0 or -1. */
int utf8_put(struct buf *out, unsigned cp);

#endif
