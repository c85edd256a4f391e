/*
 * svgdoc.c — an arena-backed element tree and its writer (svgdoc.h).
 */
#include "svgdoc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"

#define BLOCK (64u << 10)	/* the arena grows by blocks of this size */
#define STAGE (16u << 10)	/* output gathered before it goes into the buffer */

struct block {
	struct block *next;
	size_t used, size;
	char mem[];
};

struct svg_attr {
	const char *name, *value;
	struct svg_attr *next;
};

struct svg_node {
	struct svg_doc *doc;
	const char *name;		/* NULL: raw markup */
	const char *text;		/* the element's text, or the raw markup; NULL: none */
	size_t len;			/* the raw markup's length */
	struct svg_attr *attrs, *last_attr;
	struct svg_node *kids, *last_kid, *next;
};

struct svg_doc {
	struct block *blocks;
	struct svg_node *root;
};

/* n bytes of d's arena, aligned for any of its structures. */
static void *
arena(struct svg_doc *d, size_t n)
{
	struct block *b = d->blocks;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (b == NULL || b->size - b->used < n) {
		size_t size = n > BLOCK ? n : BLOCK;
		b = xmalloc(sizeof *b + size);
		b->size = size;
		b->used = 0;
		/* A block made for one large request goes behind the current one. */
		if (n > BLOCK && d->blocks) {
			b->next = d->blocks->next;
			d->blocks->next = b;
		} else {
			b->next = d->blocks;
			d->blocks = b;
		}
	}
	p = b->mem + b->used;
	b->used += n;
	return p;
}

static const char *
copy(struct svg_doc *d, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(arena(d, n), s, n);
}

struct svg_node *
svg_new(struct svg_doc *d, const char *name)
{
	struct svg_node *n = arena(d, sizeof *n);

	memset(n, 0, sizeof *n);
	n->doc = d;
	n->name = name;
	return n;
}

struct svg_doc *
svg_doc_new(const char *root)
{
	struct svg_doc *d = xcalloc(1, sizeof *d);

	d->root = svg_new(d, root);
	return d;
}

void
svg_doc_free(struct svg_doc *d)
{
	struct block *b, *next;

	if (d == NULL)
		return;
	for (b = d->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(d);
}

struct svg_node *
svg_doc_root(struct svg_doc *d)
{
	return d->root;
}

void
svg_append(struct svg_node *parent, struct svg_node *child)
{
	if (parent->last_kid)
		parent->last_kid->next = child;
	else
		parent->kids = child;
	parent->last_kid = child;
}

struct svg_node *
svg_el(struct svg_node *parent, const char *name)
{
	struct svg_node *n = svg_new(parent->doc, name);

	svg_append(parent, n);
	return n;
}

struct svg_node *
svg_el_text(struct svg_node *parent, const char *name, const char *text)
{
	struct svg_node *n = svg_el(parent, name);

	n->text = text ? copy(n->doc, text) : NULL;
	return n;
}

void
svg_raw(struct svg_node *parent, const char *markup, size_t len)
{
	struct svg_node *n = svg_el(parent, NULL);

	n->text = markup;
	n->len = len;
}

void
svg_set_kept(struct svg_node *n, const char *name, const char *value)
{
	struct svg_attr *a = arena(n->doc, sizeof *a);

	a->name = name;
	a->value = value ? value : "";
	a->next = NULL;
	if (n->last_attr)
		n->last_attr->next = a;
	else
		n->attrs = a;
	n->last_attr = a;
}

void
svg_set(struct svg_node *n, const char *name, const char *value)
{
	svg_set_kept(n, name, value ? copy(n->doc, value) : NULL);
}

/* --- output ------------------------------------------------------------------ */

struct sink {
	struct buf *out;
	bool full;
	size_t n;
	char stage[STAGE];
};

static void
flush(struct sink *s)
{
	if (!s->full && s->n > 0 && buf_append(s->out, s->stage, s->n) < 0)
		s->full = true;
	s->n = 0;
}

static void
put(struct sink *s, const char *p, size_t n)
{
	if (n > sizeof s->stage - s->n) {
		flush(s);
		if (n >= sizeof s->stage) {
			if (!s->full && buf_append(s->out, p, n) < 0)
				s->full = true;
			return;
		}
	}
	memcpy(s->stage + s->n, p, n);
	s->n += n;
}

static void
puts_(struct sink *s, const char *p)
{
	put(s, p, strlen(p));
}

static void
putc_(struct sink *s, char c)
{
	if (s->n == sizeof s->stage)
		flush(s);
	s->stage[s->n++] = c;
}

/* c, name and then the two characters of after: " name=\"", "</name>". */
static void
put_framed(struct sink *s, char c, const char *name, const char *after)
{
	size_t n = strlen(name);
	char *d;

	if (n + 3 > sizeof s->stage - s->n) {
		flush(s);
		if (n + 3 > sizeof s->stage) {
			putc_(s, c);
			put(s, name, n);
			put(s, after, 2);
			return;
		}
	}
	d = s->stage + s->n;
	d[0] = c;
	memcpy(d + 1, name, n);
	d[n + 1] = after[0];
	d[n + 2] = after[1];
	s->n += n + 3;
}

/* p with the characters that XML reserves as references; in an attribute
 * value also the quote and the white space a parser would normalise. */
static void
put_escaped(struct sink *s, const char *p, bool attr)
{
	static const char special[] = "<>&\"\n\r\t";
	static const char *const ref[] = { "&lt;", "&gt;", "&amp;", "&quot;", "&#10;", "&#13;",
		"&#9;" };

	for (;;) {
		size_t n = strcspn(p, attr ? special : "<>&\r");
		put(s, p, n);
		p += n;
		if (*p == '\0')
			return;
		puts_(s, ref[strchr(special, *p) - special]);
		p++;
	}
}

static void
put_node(struct sink *s, const struct svg_node *n)
{
	const struct svg_attr *a;
	const struct svg_node *k;

	if (n->name == NULL) {
		put(s, n->text, n->len);
		return;
	}
	putc_(s, '<');
	puts_(s, n->name);
	for (a = n->attrs; a; a = a->next) {
		put_framed(s, ' ', a->name, "=\"");
		put_escaped(s, a->value, true);
		putc_(s, '"');
	}
	if (n->kids == NULL && n->text == NULL) {
		put(s, "/>", 2);
		return;
	}
	putc_(s, '>');
	if (n->text)
		put_escaped(s, n->text, false);
	for (k = n->kids; k; k = k->next)
		put_node(s, k);
	put(s, "</", 2);
	puts_(s, n->name);
	putc_(s, '>');
}

int
svg_write(const struct svg_node *n, struct buf *out)
{
	struct sink s;

	s.out = out;
	s.full = false;
	s.n = 0;
	put_node(&s, n);
	flush(&s);
	return s.full ? -1 : 0;
}

void
svg_escape(const char *text, bool attr, struct buf *out)
{
	struct sink s;

	s.out = out;
	s.full = false;
	s.n = 0;
	put_escaped(&s, text, attr);
	flush(&s);
}
