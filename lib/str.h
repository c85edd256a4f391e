/*
 * str.h — small string helpers (ASCII case folding, trimming, numbers,
 * bounded edit distance, line iteration). None of them allocate unless the
 * name says so.
 */
#ifndef POUCH_STR_H
#define POUCH_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ASCII-only lower case of c (bytes >= 0x80 are returned unchanged). */
static inline char
str_lc(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* True when a and b are equal ignoring ASCII case. */
bool str_eq_nocase(const char *a, const char *b);
/* True when the n bytes at a equal the NUL-terminated b ignoring ASCII case. */
bool str_eqn_nocase(const char *a, size_t n, const char *b);
/* True when s begins with prefix, ignoring ASCII case. */
bool str_prefix_nocase(const char *s, const char *prefix);
/* Lower-case s in place (ASCII only); returns s. */
char *str_lower(char *s);
/* The value of hex digit c (either case), or -1. */
int str_hexval(int c);
/* Strip leading and trailing ASCII white space in place; returns the new start. */
char *str_trim(char *s);
/* Parse a whole decimal integer (optional sign, surrounding blanks allowed).
 * Returns 0 and sets *out, or -1 when s is not exactly a number in [min, max]. */
int str_to_long(const char *s, long min, long max, long *out);

/* A 64-bit hash of a NUL-terminated string (for hash tables), and of n
 * bytes at p (checksums of records and files on disk: any one byte changed,
 * or the length, changes it; the same on every machine). */
uint64_t str_hash(const char *s);
uint64_t str_hash_bytes(const void *p, size_t n);

/*
 * Edit distance (Levenshtein with adjacent transpositions) between a[0..alen)
 * and b[0..blen), ignoring ASCII case. Returns the distance, or limit + 1
 * when it exceeds limit (the computation stops early). Strings longer than
 * 63 bytes are compared only when their lengths are equal and then
 * byte-wise; no allocation.
 */
int str_edit_distance(const char *a, size_t alen, const char *b, size_t blen, int limit);

/*
 * Line iteration over [*p, end): returns the start of the next line and sets
 * *len to its length without the "\n" or "\r\n"; advances *p. Returns NULL
 * at the end.
 */
const char *str_next_line(const char **p, const char *end, size_t *len);

/* Copy s[0..n) into out (size > 0), truncated, with blanks removed at both
 * ends. Returns out. */
char *str_ncopy_trim(char *out, size_t size, const char *s, size_t n);
/*
 * Split one line of a "key value" file: copies line[0..n) into buf (size
 * bytes), trims it and sets *key and *val (val "" when absent). Returns 1
 * for a key, 0 for a blank or '#' comment line, -1 when the line is longer
 * than buf.
 */
int str_split_kv(const char *line, size_t n, char *buf, size_t size, char **key, char **val);

/* Copy at most size-1 bytes of src into dst and NUL-terminate (size > 0).
 * Returns the length of src (as strlcpy). */
size_t str_copy(char *dst, const char *src, size_t size);

#endif
