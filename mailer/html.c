/*
 * html.c — HTML to text.
 *
 * libxml2 parses (recovering from anything, never touching the network)
 * into a tree; an iterative walk (no recursion, so deep nesting cannot
 * exhaust the stack) writes the text. Line structure is tracked with a
 * pending-newline count so that nested blocks produce one break, not many.
 */
#include "html.h"

#include <limits.h>
#include <string.h>

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include "../lib/str.h"

struct writer {
	struct buf *out;
	int pending_nl;		/* line breaks owed before the next text */
	bool at_line_start;
	bool space;		/* a blank is owed before the next word */
	int pre;		/* inside <pre> */
	bool full;
	size_t start;		/* out->len when the document began */
};

static bool
name_in(const xmlChar *name, const char *const *list)
{
	for (; *list; list++)
		if (str_eq_nocase((const char *)name, *list))
			return true;
	return false;
}

static const char *const skipped[] = { "script", "style", "head", "title", "template",
	"noscript", "object", "iframe", "svg", "math", NULL };
static const char *const blocks[] = { "p", "div", "ul", "ol", "dl", "dt", "dd", "table", "tr",
	"blockquote", "pre", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
	"header", "footer", "address", "form", "fieldset", "center", "main", "nav", "aside",
	"figure", "figcaption", "caption", "tbody", "thead", "tfoot", "html", "body", NULL };
static const char *const paragraphs[] = { "p", "h1", "h2", "h3", "h4", "h5", "h6",
	"blockquote", "pre", "table", NULL };

static void
put(struct writer *w, const char *s, size_t n)
{
	if (!w->full && buf_append(w->out, s, n) < 0)
		w->full = true;
}

static void
want_breaks(struct writer *w, int n)
{
	if (w->out->len == w->start)
		return;	/* nothing written yet: no leading blank lines */
	if (n > w->pending_nl)
		w->pending_nl = n;
	w->space = false;
}

static void
flush_breaks(struct writer *w)
{
	int n = w->pending_nl > 2 ? 2 : w->pending_nl;

	if (n > 0 && !w->at_line_start) {
		put(w, "\n", 1);
		n--;
		w->at_line_start = true;
	}
	while (n-- > 0)
		put(w, "\n", 1);
	w->pending_nl = 0;
}

static void
text(struct writer *w, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* U+00A0 no-break space: a plain blank */
		if (c == 0xc2 && (unsigned char)s[1] == 0xa0) {
			s++;
			c = ' ';
		}
		if (w->pre) {
			if (c == '\n') {
				put(w, "\n", 1);
				w->at_line_start = true;
				continue;
			}
		} else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			if (!w->at_line_start)
				w->space = true;
			continue;
		}
		flush_breaks(w);
		if (w->space && !w->at_line_start)
			put(w, " ", 1);
		w->space = false;
		put(w, (const char *)&c, 1);
		w->at_line_start = false;
	}
}

static void
enter(struct writer *w, xmlNode *n)
{
	const xmlChar *name = n->name;

	if (str_eq_nocase((const char *)name, "br")) {
		flush_breaks(w);
		put(w, "\n", 1);
		w->at_line_start = true;
		w->space = false;
		return;
	}
	if (str_eq_nocase((const char *)name, "li")) {
		want_breaks(w, 1);
		flush_breaks(w);
		put(w, "- ", 2);
		w->at_line_start = false;
		w->space = false;
		return;
	}
	if (str_eq_nocase((const char *)name, "td") || str_eq_nocase((const char *)name, "th")) {
		if (!w->at_line_start)
			w->space = true;
		return;
	}
	if (str_eq_nocase((const char *)name, "pre"))
		w->pre++;
	if (name_in(name, blocks))
		want_breaks(w, name_in(name, paragraphs) ? 2 : 1);
}

static void
leave(struct writer *w, xmlNode *n)
{
	const xmlChar *name = n->name;

	if (str_eq_nocase((const char *)name, "pre") && w->pre > 0)
		w->pre--;
	if (str_eq_nocase((const char *)name, "li"))
		want_breaks(w, 1);
	else if (name_in(name, blocks))
		want_breaks(w, name_in(name, paragraphs) ? 2 : 1);
}

int
html_to_text(const char *html, size_t n, struct buf *out)
{
	struct writer w = { out, 0, true, false, 0, false, out->len };
	htmlDocPtr doc;
	xmlNode *node;

	if (n > INT_MAX)
		n = INT_MAX;
	doc = htmlReadMemory(html, (int)n, NULL, "UTF-8",
	    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	if (doc == NULL)
		return 0;	/* nothing readable */
	node = xmlDocGetRootElement(doc);
	while (node != NULL && !w.full) {
		bool descend = false;

		if (node->type == XML_ELEMENT_NODE) {
			if (!name_in(node->name, skipped)) {
				enter(&w, node);
				descend = node->children != NULL;
				if (!descend)
					leave(&w, node);
			}
		} else if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE) {
			if (node->content)
				text(&w, (const char *)node->content);
		}
		if (descend) {
			node = node->children;
			continue;
		}
		/* next sibling, or climb and close the parents */
		while (node != NULL && node->next == NULL) {
			node = node->parent;
			if (node == NULL || node->type != XML_ELEMENT_NODE)
				node = NULL;
			else
				leave(&w, node);
		}
		if (node != NULL)
			node = node->next;
	}
	xmlFreeDoc(doc);
	if (!w.full && out->len > w.start && !w.at_line_start)
		put(&w, "\n", 1);
	return w.full ? -1 : 0;
}
