/*
 * html.h — HTML mail bodies to plain text (libxml2's HTML parser).
 */
#ifndef POUCH_HTML_H
#define POUCH_HTML_H

#include <stddef.h>

#include "../lib/buf.h"

/* Append the text of the HTML document html[0..n) (UTF-8) to out: script,
 * style, head and comments dropped; <br>, paragraphs, headings, table rows
 * and other blocks become line breaks, list items start with "- ", table
 * cells are separated by a space; entities decoded, no-break spaces made
 * plain; runs of blanks squeezed (kept inside <pre>), at most one empty line
 * in a row. Returns 0, or -1 when out is full (what fitted is kept). */
int html_to_text(const char *html, size_t n, struct buf *out);

#endif
