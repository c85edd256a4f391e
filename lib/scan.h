/*
 * scan.h — a cursor scanner over a NUL-terminated string, after curl's
 * strparse. Each function looks at the text at *p; when it takes something
 * it moves *p past it, and when it fails *p stays where it was, so a caller
 * may try another reading. Nothing is allocated and the text is never
 * written: a word is a pointer and a length into it.
 *
 *	const char *p = "owner England lon";
 *	struct scan_word w;
 *	long n;
 *
 *	if (scan_literal(&p, "owner") == 0 && scan_word(&p, &w) == 0 ...)
 *
 * Blanks are spaces and tabs.
 */
#ifndef POUCH_SCAN_H
#define POUCH_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct scan_word {
	const char *ptr;
	size_t len;
};

/* Move *p past blanks. */
void scan_blanks(const char **p);
/* True when nothing but blanks is left at *p (*p moves past them). */
bool scan_at_end(const char **p);
/* Take the next word: blanks skipped, then every byte up to a blank or the
 * end. Returns 0, or -1 when only blanks are left. */
int scan_word(const char **p, struct scan_word *w);
/* Take the next token: bytes of seps skipped, then every byte up to one of
 * seps or the end (strtok's reading, without writing). Returns 0 or -1. */
int scan_token(const char **p, const char *seps, struct scan_word *w);
/* Take the next word when it is a decimal number (optional sign) in
 * [min, max]. Returns 0 and sets *out, or -1 (*p not moved). */
int scan_long(const char **p, long min, long max, long *out);
/* Take the next word when it is exactly lit. Returns 0 or -1. */
int scan_literal(const char **p, const char *lit);
/* Take the next word into out (size > 0) with a NUL, as "" when it does not
 * fit (a name no lookup finds). Returns 0, or -1 when there is no word. */
int scan_name(const char **p, char *out, size_t size);
/* What is left after the blanks at *p (*p moves to the end). */
const char *scan_rest(const char **p);

/* True when w is exactly s; scan_word_is_nocase ignores ASCII case. */
bool scan_word_is(const struct scan_word *w, const char *s);
bool scan_word_is_nocase(const struct scan_word *w, const char *s);
/* w as a whole decimal number (optional sign) in [min, max]: 0 and *out, or -1. */
int scan_word_long(const struct scan_word *w, long min, long max, long *out);
/* Copy w into out (size > 0) with a NUL. Returns 0, or -1 when it does not
 * fit (out then holds "", so no lookup can match a cut word). */
int scan_word_copy(const struct scan_word *w, char *out, size_t size);

#endif
