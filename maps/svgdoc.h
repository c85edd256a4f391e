/*
 * svgdoc.h — a drawing's elements as a tree in one arena, written out as
 * XML: what render.c builds a map in. Nothing is freed before the whole
 * document is, so that a map of thousands of elements costs a few blocks
 * of memory rather than an allocation for every element, attribute and
 * string.
 *
 * API
 *
 *	struct svg_doc *d = svg_doc_new("svg");
 *	struct svg_node *p = svg_el(svg_doc_root(d), "path");
 *	svg_set(p, "class", cls);		// copied
 *	svg_set_kept(p, "d", geometry_path);	// not copied: outlives d
 *	svg_write(svg_doc_root(d), &out);
 *	svg_doc_free(d);
 *
 * Element and attribute names are never copied: they are string literals.
 * Elements and attributes are written in the order they were added, an
 * element without content as <name/>; text and attribute values with the
 * characters XML reserves escaped (in attributes also the quote and the
 * white space a parser would normalise).
 */
#ifndef POUCH_SVGDOC_H
#define POUCH_SVGDOC_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"

struct svg_doc;
struct svg_node;

/* A new document whose root element is named root (kept, not copied). Free with svg_doc_free. */
struct svg_doc *svg_doc_new(const char *root);
/* Release d and every node and copy made in it. svg_doc_free(NULL) is a no-op. */
void svg_doc_free(struct svg_doc *d);
/* The root element of d. */
struct svg_node *svg_doc_root(struct svg_doc *d);
/* A new element name appended to parent's children; returns it. */
struct svg_node *svg_el(struct svg_node *parent, const char *name);
/* A new element name of d with no parent yet (svg_append places it). */
struct svg_node *svg_new(struct svg_doc *d, const char *name);
/* Append the parentless element child to parent's children. */
void svg_append(struct svg_node *parent, struct svg_node *child);
/* A new element name appended to parent, holding text (copied; NULL: none). */
struct svg_node *svg_el_text(struct svg_node *parent, const char *name, const char *text);
/* Append n bytes of markup to parent's children, written as they are (kept, not copied). */
void svg_raw(struct svg_node *parent, const char *markup, size_t n);
/* Add attribute name="value" to n, value copied (NULL: empty). */
void svg_set(struct svg_node *n, const char *name, const char *value);
/* The same with value kept, not copied: it must outlive n's document. */
void svg_set_kept(struct svg_node *n, const char *name, const char *value);
/* Append the markup of n and everything in it to out. Returns 0, or -1 when out's maximum is reached. */
int svg_write(const struct svg_node *n, struct buf *out);
/* Append text to out escaped as svg_write escapes text (attr false) or an attribute's value. */
void svg_escape(const char *text, bool attr, struct buf *out);

#endif
