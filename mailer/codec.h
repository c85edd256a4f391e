/*
 * codec.h — content transfer encodings: quoted-printable and base64.
 *
 * Decoders are tolerant: mail in the wild has broken escapes, missing
 * padding and stray characters, and none of that may lose the rest of the
 * message. Every function appends to a capped struct buf and returns -1
 * when the cap was reached (what fitted is kept), else 0.
 */
#ifndef POUCH_CODEC_H
#define POUCH_CODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"

/* Decode quoted-printable (RFC 2045 6.7). Soft line breaks are removed,
 * invalid escapes are kept as they are. With q_header, '_' is a space
 * (RFC 2047 "Q" encoding). Returns 0, or -1 when out is full. */
int codec_qp_decode(const char *src, size_t n, bool q_header, struct buf *out);

/* Decode base64, skipping characters outside the alphabet and stopping at
 * the first '=' pad. Returns 0, or -1 when out is full. */
int codec_base64_decode(const char *src, size_t n, struct buf *out);

/* Encode text with LF line ends as quoted-printable with LF line ends:
 * lines of at most 76 characters, '=', control bytes, bytes >= 0x80,
 * trailing blanks, a leading "From " and a lone leading '.' encoded.
 * Deterministic. Returns 0, or -1 when out is full. */
int codec_qp_encode(const char *src, size_t n, struct buf *out);

/* Encode n bytes as base64 without line breaks. Returns 0 or -1 (full). */
int codec_base64_encode(const void *src, size_t n, struct buf *out);

#endif
