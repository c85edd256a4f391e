/*
 * header.h — RFC 5322 header sections: fields, unfolding, RFC 2047
 * encoded words, MIME parameters (RFC 2045, RFC 2231).
 *
 * API: hdr_parse() splits a header section into unfolded fields (raw
 * bytes, not decoded) and tells where the body starts. Lookups are by
 * name, ignoring case. Decoding to UTF-8 is a separate step (hdr_decode),
 * so structured fields (addresses, Content-Type) can be tokenised first.
 *
 * Caps: at most HDR_MAX_FIELDS fields are kept and each value is cut at
 * HDR_MAX_VALUE bytes; anything beyond sets the list's truncated flag.
 * Nothing here fails on bad input: a line that is neither a field nor a
 * continuation ends the header section.
 */
#ifndef POUCH_HEADER_H
#define POUCH_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#define HDR_MAX_FIELDS 2000
#define HDR_MAX_VALUE (64 * 1024)

struct hdr_field {
	char *name;	/* as written, without the colon */
	char *value;	/* unfolded, leading and trailing blanks removed; raw bytes */
};

struct hdr_list {
	struct hdr_field *v;
	int n;
	bool truncated;	/* fields or bytes were dropped by the caps */
};

/* Parse the header section at the start of src[0..len) into h (which it
 * initialises). Returns the offset of the body: just after the empty line,
 * or where the section ended otherwise (len when there is no body). */
size_t hdr_parse(const char *src, size_t len, struct hdr_list *h);
/* Release the fields; h becomes empty. NULL-safe. */
void hdr_list_free(struct hdr_list *h);
/* Value of the first field called name (any case), or NULL; borrowed. */
const char *hdr_get(const struct hdr_list *h, const char *name);
/* Number of fields called name. */
int hdr_count(const struct hdr_list *h, const char *name);

/* Decode RFC 2047 encoded words in a header value and convert everything
 * to UTF-8 (raw 8-bit text: UTF-8 when valid, else Windows-1252). Control
 * characters become spaces. Sets *bad (never clears it) on unknown charsets
 * or repairs. Returns a new string; caller frees. */
char *hdr_decode(const char *value, bool *bad);

/* The value before the first ';' (e.g. "text/plain"), lower case, blanks
 * and comments removed. Returns a new string (maybe ""); caller frees. */
char *hdr_main_value(const char *value);
/* Parameter name of a structured value (e.g. boundary, charset), unquoted;
 * RFC 2231 continuations and %-encoding are joined and decoded (the bytes
 * are returned as they are). Returns a new string, or NULL when absent. */
char *hdr_param(const char *value, const char *name);

#endif
