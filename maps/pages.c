/*
 * pages.c — a game's web pages (what and where: pages.h).
 *
 * The order lists reuse the judge's report text (judge/engine/report.h), line by
 * line, so that the pages say exactly what the mailed results say: a line
 * "England: Fleet London -> North Sea.  (*bounce*)" becomes a table row
 * with the power, the order and its result.
 */
#include "pages.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../judge/engine/report.h"
#include "../judge/engine/resolver.h"
#include "../lib/fsio.h"
#include "../lib/str.h"
#include "render.h"

#define HTML_MAX (8u << 20)
#define SVG_MAX (16u << 20)
/* A map's text for those who cannot see it (its alt text). */
#define PAGES_ALT_MAX (1u << 16)

static const char STYLE_CSS[] =
    "/* pouch game pages */\n"
    "body{font:16px/1.45 'DejaVu Sans',Verdana,Arial,sans-serif;margin:0 auto;"
    "max-width:1240px;padding:0 12px 2em;color:#1b1b1b;background:#fafaf7}\n"
    "nav{display:flex;flex-wrap:wrap;gap:.3em 1.2em;padding:.6em 0;border-bottom:1px solid #ddd}\n"
    "a{color:#0b57a4}\n"
    "h1{font-size:1.45em;margin:.6em 0 .3em}\n"
    "h2{font-size:1.15em;margin:1.4em 0 .4em}\n"
    "p.deadline{font-weight:bold}\n"
    "figure{margin:1em 0}\n"
    "img.map{display:block;width:100%;height:auto;border:1px solid #bbb;background:#aec4d6}\n"
    "figcaption{font-size:.9em;color:#444;margin-top:.3em}\n"
    "table{border-collapse:collapse;width:100%;max-width:820px}\n"
    "th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid #e4e4e4;vertical-align:top}\n"
    "th{font-size:.85em;color:#555;font-weight:normal}\n"
    "@media (min-width:600px){td:first-child{white-space:nowrap}}\n"
    ".num{text-align:right}\n"
    ".sw{display:inline-block;width:.8em;height:.8em;border:1px solid #333;margin-right:.4em;"
    "vertical-align:-.05em}\n"
    ".ok{color:#1d6b2a}.fail{color:#b00018}.none{color:#555}\n"
    "ul.phases{padding-left:1.2em}\n"
    ".key{font-size:.9em;margin:.6em 0;max-width:820px}.key ul{margin:.3em 0;padding-left:1.2em}"
    ".key .pr{display:none}\n"
    /* A phase's two maps: one at a time, the full width, switched by two
     * radio buttons drawn as tabs (no script). */
    ".views>input{position:absolute;opacity:0;width:1px;height:1px;margin:0}\n"
    ".views>label{display:inline-block;padding:.4em 1.1em;margin:0 .3em 0 0;cursor:pointer;"
    "border:1px solid #bbb;border-bottom:none;border-radius:6px 6px 0 0;background:#eceae2}\n"
    ".views>input:checked+label{background:#fff;font-weight:bold;color:#111}\n"
    ".views>input:focus-visible+label{outline:2px solid #0b57a4;outline-offset:1px}\n"
    ".views>.view{display:none}.views>.view figure{margin-top:0}\n"
    "#v-orders:checked~.vo,#v-after:checked~.va{display:block}\n"
    /* Printed: one A4 page, the map of the orders and the results under
     * it, in colour where the printer has it and readable in grey (failed
     * orders by their dashes and marks, the table naming every order's
     * power, as a line of the key says in print only). */
    "@page{size:A4;margin:10mm}\n"
    "@media print{body{font-size:8pt;line-height:1.15;max-width:none;margin:0;padding:0;"
    "background:#fff;color:#000;print-color-adjust:exact;-webkit-print-color-adjust:exact}\n"
    "nav,.views>input,.views>label,.views>.va,figcaption,.key summary{display:none}\n"
    ".views>.vo{display:block}figure{margin:0;break-inside:avoid}\n"
    "img.map{width:auto;max-width:100%;max-height:80mm;margin:0 auto;border:none}\n"
    "p{margin:0}\n"
    "h1{font-size:12pt;margin:0 0 2mm}h2{font-size:9pt;margin:2mm 0 1mm}\n"
    "table{max-width:none;font-size:7.5pt}th,td{padding:0 .4em;border-color:#aaa}\n"
    /* The orders in two columns, each row whole, so that a board of fifty
     * units and more still fits the page; the standings too. */
    "table.orders,table.standings{display:block;columns:2;column-gap:5mm}\n"
    "table.orders tbody,table.standings tbody{display:block}\n"
    "table.orders tr,table.standings tr{display:table;width:100%;table-layout:fixed;"
    "break-inside:avoid}\n"
    "table.orders td:first-child,table.orders th:first-child{width:22%}\n"
    "table.orders td:last-child,table.orders th:last-child{width:24%}\n"
    "table.orders tr.why td:first-child{width:0;padding:0}\n"
    ".key{font-size:7pt;margin:1mm 0}.key ul{columns:2;margin:0}\n"
    "a,.ok,.fail,.none{color:#000}.fail{font-weight:bold}\n"
    ".key .pr{display:list-item}}\n";

static bool
name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '_' || c == '.';
}

bool
pages_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > 64 || name[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!name_char(name[i]))
			return false;
	return true;
}

void
pages_name_from(const char *s, size_t n, char *out, size_t size)
{
	size_t i;

	if (n > 64)
		n = 64;
	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++)
		out[i] = name_char(s[i]) ? s[i] : '-';
	out[n] = '\0';
	if (!pages_name_ok(out))
		snprintf(out, size, "game");
}

char *
pages_phase_code(const struct board *b, char *out, size_t size)
{
	static const char season[] = "SFW", phase[] = "MRA";

	snprintf(out, size, "%c%d%c", season[b->season % 3], b->year, phase[b->phase % 3]);
	return out;
}

/* BASE/GAME/FILE, one '/' between the parts. */
static void
page_url(const char *base_url, const char *game, const char *file, struct buf *out)
{
	if (base_url && *base_url) {
		size_t n = strlen(base_url);
		buf_append(out, base_url, n);
		if (base_url[n - 1] != '/')
			buf_putc(out, '/');
	}
	buf_printf(out, "%s/%s", game, file);
}

void
pages_phase_url(const char *base_url, const char *game, const struct board *b, struct buf *out)
{
	char code[16], file[24];

	snprintf(file, sizeof file, "%s.html", pages_phase_code(b, code, sizeof code));
	page_url(base_url, game, file, out);
}

void
pages_start_url(const char *base_url, const char *game, struct buf *out)
{
	page_url(base_url, game, "start.html", out);
}

/* The names of the provinces q where pick(q) is p, "A, B and C"; how many. */
static int
name_list(const struct map *m, power_id p, int what, struct buf *out)
{
	int q, n = 0, k = 0;

	for (q = 0; q < m->nprovs; q++) {
		const struct province *pv = &m->provs[q];
		n += (what == 0 ? pv->supply && pv->home == p : what == 1 ? pv->capital == p :
		    pv->naval_base == p);
	}
	for (q = 0; q < m->nprovs; q++) {
		const struct province *pv = &m->provs[q];
		if (!(what == 0 ? pv->supply && pv->home == p : what == 1 ? pv->capital == p :
		    pv->naval_base == p))
			continue;
		buf_puts(out, k == 0 ? "" : k == n - 1 ? " and " : ", ");
		buf_puts(out, pv->name);
		k++;
	}
	return n;
}

void
pages_home_centres(const struct map *m, power_id p, struct buf *out)
{
	struct buf tmp;
	int n, q, seats = 0;

	for (q = 0; q < m->nprovs; q++)
		seats += m->provs[q].capital != POWER_NONE || m->provs[q].naval_base != POWER_NONE;
	if (seats == 0) {
		if (name_list(m, p, 0, out) == 0)
			buf_puts(out, "none");
		return;
	}
	buf_init(&tmp, 4096);
	n = name_list(m, p, 1, &tmp);
	buf_printf(out, "%s %s", n == 1 ? "capital" : "capitals", n ? buf_str(&tmp) : "none");
	buf_reset(&tmp);
	n = name_list(m, p, 2, &tmp);
	buf_printf(out, "; %s %s", n == 1 ? "naval base" : "naval bases", n ? buf_str(&tmp) : "none");
	buf_free(&tmp);
}

/* --- HTML helpers ------------------------------------------------------------ */

/* Append s[0..n) with HTML's special characters escaped. */
static void
esc_n(struct buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': buf_puts(out, "&amp;"); break;
		case '<': buf_puts(out, "&lt;"); break;
		case '>': buf_puts(out, "&gt;"); break;
		case '"': buf_puts(out, "&quot;"); break;
		default: buf_putc(out, s[i]); break;
		}
	}
}

static void
esc(struct buf *out, const char *s)
{
	esc_n(out, s, strlen(s));
}

static const char PAGE_END[] = "</main>\n</body>\n</html>\n";

/* 0 when the page was appended whole, -1 when out was too small for it. */
static int
page_done(struct buf *out)
{
	size_t n = sizeof PAGE_END - 1;

	buf_puts(out, PAGE_END);
	return out->len >= n && memcmp(out->data + out->len - n, PAGE_END, n) == 0 ? 0 : -1;
}

static const char *
game_title(const struct page_game *pg)
{
	return pg->title && *pg->title ? pg->title : pg->name;
}

static void
head(struct buf *out, const struct page_game *pg, const char *what)
{
	buf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	esc(out, game_title(pg));
	if (what) {
		buf_puts(out, " — ");
		esc(out, what);
	}
	buf_puts(out, "</title>\n<link rel=\"icon\" href=\"data:,\">\n"
		      "<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n");
}

static void
swatch(struct buf *out, const struct map *m, power_id p)
{
	char colour[8];

	render_power_colour(m, p, colour);
	buf_printf(out, "<span class=\"sw\" style=\"background:%s\"></span>", colour);
}

static void
map_figure(struct buf *out, const char *file, const char *alt, const char *caption)
{
	buf_printf(out, "<figure><a href=\"%s\"><img class=\"map\" src=\"%s\" alt=\"", file, file);
	esc(out, alt);
	buf_puts(out, "\"></a><figcaption>");
	esc(out, caption);
	buf_puts(out, "</figcaption></figure>\n");
}

/* "Map of Spring 1901 Movement ...: Austria 3 centres, 3 units; ..." */
static void
map_alt(struct buf *out, const struct map *m, const struct board *b, const char *what)
{
	char ph[48];

	buf_printf(out, "Map of %s, %s: ", phase_format(b, ph, sizeof ph), what);
	render_summary(m, b, out);
}

static void
standings(struct buf *out, const struct map *m, const struct board *b, const struct board *prev)
{
	int p;

	buf_puts(out, "<table class=\"standings\">\n<tr><th>Power</th><th class=\"num\">Centres</th>");
	if (prev)
		buf_puts(out, "<th class=\"num\">Change</th>");
	buf_puts(out, "<th class=\"num\">Units</th></tr>\n");
	for (p = 0; p < m->npowers; p++) {
		int c = board_count_centres(b, m, (power_id)p);
		buf_puts(out, "<tr><td>");
		swatch(out, m, (power_id)p);
		esc(out, m->powers[p].name);
		buf_printf(out, "</td><td class=\"num\">%d</td>", c);
		if (prev) {
			int d = c - board_count_centres(prev, m, (power_id)p);
			if (d)
				buf_printf(out, "<td class=\"num\">%+d</td>", d);
			else
				buf_puts(out, "<td class=\"num\"></td>");
		}
		buf_printf(out, "<td class=\"num\">%d</td></tr>\n", board_count_units(b, (power_id)p));
	}
	buf_puts(out, "</table>\n");
}

/* The power whose name starts line[0..n) followed by ": ", or -1 ("?" too). */
static int
line_power(const struct map *m, const char *line, size_t n, size_t *skip)
{
	int p;

	for (p = 0; p < m->npowers; p++) {
		size_t k = strlen(m->powers[p].name);
		if (n > k + 2 && memcmp(line, m->powers[p].name, k) == 0 && line[k] == ':' &&
		    line[k + 1] == ' ') {
			*skip = k + 2;
			return p;
		}
	}
	if (n > 3 && memcmp(line, "?: ", 3) == 0) {
		*skip = 3;
		return m->npowers;
	}
	return -1;
}

/* The judge's results as a table (orders) and paragraphs (the rest), in
 * the results mail's words: a line about a power as a whole (it gave no
 * orders, it left builds unused) spans the order and result columns. */
static void
results(struct buf *out, const struct map *m, const struct page_phase *ph)
{
	struct buf txt;
	const char *s, *end, *line;
	size_t n, unused;
	int in_table = 0, first = 1;

	buf_init(&txt, HTML_MAX);
	report_results(m, ph->before, ph->orders, ph->res, ph->why, &txt);
	unused = txt.len;
	if (ph->raisable != NULL && ph->before->phase == PHASE_ADJUSTMENT)
		report_unused(m, ph->orders, ph->res, ph->raisable, &txt);
	s = buf_str(&txt);
	end = s + txt.len;
	while ((line = str_next_line(&s, end, &n)) != NULL) {
		size_t skip = 0;
		int p;
		if (first) {	/* "Movement results for Spring of 1901.": the page's heading says it */
			first = 0;
			continue;
		}
		if (n == 0)
			continue;
		if (in_table && n > 4 && memcmp(line, "    ", 4) == 0) {
			/* The reason of the order above it (report_why). */
			buf_puts(out, "<tr class=\"why\"><td></td><td colspan=\"2\">");
			esc_n(out, line + 4, n - 4);
			buf_puts(out, "</td></tr>\n");
			continue;
		}
		p = line_power(m, line, n, &skip);
		if (p >= 0) {
			const char *text = line + skip, *tag = NULL;
			size_t tn = n - skip, k;
			for (k = 0; k + 3 < tn; k++)
				if (memcmp(text + k, "  (*", 4) == 0) {
					tag = text + k + 4;
					break;
				}
			if (!in_table) {
				buf_puts(out, "<table class=\"orders\">\n<tr><th>Power</th><th>Order</th>"
					      "<th>Result</th></tr>\n");
				in_table = 1;
			}
			buf_puts(out, "<tr><td>");
			if (p < m->npowers) {
				swatch(out, m, (power_id)p);
				esc(out, m->powers[p].name);
			} else {
				buf_puts(out, "?");
			}
			if ((size_t)(line - buf_str(&txt)) >= unused ||
			    (tn > 11 && memcmp(text, "no orders; ", 11) == 0)) {
				/* "no orders; all units hold.", "1 build not used.":
				 * nothing succeeded or failed */
				buf_puts(out, "</td><td colspan=\"2\" class=\"none\">");
				esc_n(out, text, tn);
				buf_puts(out, "</td></tr>\n");
				continue;
			}
			buf_puts(out, "</td><td>");
			esc_n(out, text, tag ? (size_t)(tag - 4 - text) : tn);
			if (tag) {
				size_t tl = (size_t)(text + tn - tag);
				if (tl >= 2 && memcmp(tag + tl - 2, "*)", 2) == 0)
					tl -= 2;
				buf_puts(out, "</td><td class=\"fail\">");
				esc_n(out, tag, tl);
			} else {
				buf_puts(out, "</td><td class=\"ok\">succeeded");
			}
			buf_puts(out, "</td></tr>\n");
			continue;
		}
		if (in_table) {
			buf_puts(out, "</table>\n");
			in_table = 0;
		}
		buf_puts(out, "<p>");
		esc_n(out, line, n);
		buf_puts(out, "</p>\n");
	}
	if (in_table)
		buf_puts(out, "</table>\n");
	buf_free(&txt);
}

static void
nav(struct buf *out, const struct page_game *pg, int i)
{
	char code[16], ph[48];

	buf_puts(out, "<nav><a href=\"index.html\">");
	esc(out, game_title(pg));
	buf_puts(out, "</a>");
	if (i > 0) {
		const struct board *b = pg->phases[i - 1].before;
		buf_printf(out, "<a href=\"%s.html\" rel=\"prev\">&larr; %s</a>",
		    pages_phase_code(b, code, sizeof code), phase_format(b, ph, sizeof ph));
	} else {	/* the first phase: the page of the position it started from */
		buf_puts(out, "<a href=\"start.html\" rel=\"prev\">&larr; The starting position</a>");
	}
	if (i + 1 < pg->nphases) {
		const struct board *b = pg->phases[i + 1].before;
		buf_printf(out, "<a href=\"%s.html\" rel=\"next\">%s &rarr;</a>",
		    pages_phase_code(b, code, sizeof code), phase_format(b, ph, sizeof ph));
	}
	buf_puts(out, "</nav>\n");
}

/* What the marks on a phase's maps of board m mean, in words (the maps
 * carry the same key): convoys, or armies going on board fleets, as the
 * board's rules have them; stacks, capitals and naval bases where it has
 * them. */
static void
key(struct buf *out, const struct map *m)
{
	unsigned caps = map_caps(m);

	buf_puts(out, "<details class=\"key\" open><summary>Key to the maps</summary><ul>"
		      "<li><b>Move</b>: an arrow in the power's colour.</li>"
		      "<li><b>Support</b>: a dashed line to the middle of the move it supports "
		      "(ending in a dot), or to a ring round the unit it supports in place.</li>");
	if (caps & RULES_BOARDING)
		buf_puts(out, "<li><b>On board</b>: an army carried by a fleet, drawn small on the "
			      "fleet; an arrow from an army to the fleet it boards, and from a fleet "
			      "to where its army lands.</li>");
	else
		buf_puts(out, "<li><b>Convoy</b>: a dotted line to the middle of the convoyed "
			      "move.</li>");
	buf_puts(out, "<li><b>Hold</b>: a ring round the unit.</li>"
		      "<li><b>Failed</b>: the order dashed, with a dark cross where it ends; "
		      "the results below say why.</li>"
		      "<li><b>Dislodged</b>: the unit on a white patch outlined in red (set off beside its place "
		      "on the map afterwards).</li>"
		      "<li><b>Built</b>: the unit built, army or fleet, in a dashed ring with a plus.</li>"
		      "<li><b>Removed</b>, disbanded or destroyed in a retreat: the unit crossed out in "
		      "black on white.</li>"
		      "<li><b>May retreat</b>: thin orange arrows and rings to the places a "
		      "dislodged unit may go.</li>"
		      "<li><b>Supply centres</b>: a ring, with a dot in the owner's colour; "
		      "empty when neutral.</li>");
	if (caps & RULES_STACKS)
		buf_puts(out, "<li><b>\u00d72</b>, <b>\u00d73</b> beside a unit: that many units of "
			      "one power in the province.</li>");
	if (render_has_seats(m))
		buf_puts(out, "<li><b>Capitals and naval bases</b>: a star where a power raises "
			      "armies (its capital), a diamond where it raises fleets (its naval "
			      "base).</li>");
	buf_puts(out, "<li class=\"pr\">Printed in grey: the table below names the power of "
		      "every order and unit.</li>"
		      "</ul></details>\n");
}

/* The province whose capital of power p it is by capital (NULL: the
 * variant's), from province from on; PROV_NONE when none. */
static prov_id
capital_of(const struct map *m, const power_id *capital, power_id p, int from)
{
	int q;

	for (q = from; q < m->nprovs; q++)
		if ((capital ? capital[q] : m->provs[q].capital) == p)
			return (prov_id)q;
	return PROV_NONE;
}

/* A line for each power whose capitals moved in phase ph: "Germany's
 * capitals now: Berlin, Kiel (before: Berlin, Munich)." */
static void
capitals_moved(struct buf *out, const struct map *m, const struct page_phase *ph)
{
	int p, k, q, any = 0;

	if (ph->capital_before == NULL && ph->capital_after == NULL)
		return;
	for (p = 0; p < m->npowers; p++) {
		bool same = true;
		for (q = 0; q < m->nprovs; q++) {
			power_id a = ph->capital_before ? ph->capital_before[q] : m->provs[q].capital;
			power_id b = ph->capital_after ? ph->capital_after[q] : m->provs[q].capital;
			same = same && ((a == p) == (b == p));
		}
		if (same)
			continue;
		buf_puts(out, any++ ? "<br>" : "<p class=\"capitals\">");
		esc(out, m->powers[p].name);
		buf_puts(out, "&rsquo;s capitals now:");
		for (k = 0, q = capital_of(m, ph->capital_after, (power_id)p, 0); q != PROV_NONE;
		     q = capital_of(m, ph->capital_after, (power_id)p, q + 1), k++) {
			buf_puts(out, k ? ", " : " ");
			esc(out, m->provs[q].name);
		}
		if (k == 0)
			buf_puts(out, " none");
		for (k = 0, q = capital_of(m, ph->capital_before, (power_id)p, 0); q != PROV_NONE;
		     q = capital_of(m, ph->capital_before, (power_id)p, q + 1), k++) {
			buf_puts(out, k ? ", " : " (before: ");
			esc(out, m->provs[q].name);
		}
		buf_puts(out, k ? ")." : ".");
	}
	if (any)
		buf_puts(out, "</p>\n");
}

int
pages_phase_html(const struct map *m, const struct page_game *pg, int i, struct buf *out)
{
	const struct page_phase *ph = &pg->phases[i];
	char code[16], file[40], name[48], next[48], caption[160];
	struct buf alt;

	pages_phase_code(ph->before, code, sizeof code);
	phase_format(ph->before, name, sizeof name);
	phase_format(ph->after, next, sizeof next);
	head(out, pg, name);
	nav(out, pg, i);
	buf_puts(out, "<main>\n<h1>");
	esc(out, name);
	buf_puts(out, "</h1>\n<div class=\"views\">\n"
		      "<input type=\"radio\" name=\"view\" id=\"v-orders\" checked>"
		      "<label for=\"v-orders\">Orders</label>\n"
		      "<input type=\"radio\" name=\"view\" id=\"v-after\">"
		      "<label for=\"v-after\">Afterwards</label>\n<div class=\"view vo\">\n");
	buf_init(&alt, PAGES_ALT_MAX);
	map_alt(&alt, m, ph->before,
	    "the orders drawn as arrows in each power's colour, failed ones dashed with a cross at "
	    "their end");
	snprintf(file, sizeof file, "%s.svg", code);
	snprintf(caption, sizeof caption, "%s: the orders and their results", name);
	map_figure(out, file, buf_str(&alt), caption);
	buf_puts(out, "</div>\n<div class=\"view va\">\n");
	buf_reset(&alt);
	map_alt(&alt, m, ph->after, "the position after the orders");
	snprintf(file, sizeof file, "%s-after.svg", code);
	snprintf(caption, sizeof caption, "Afterwards: %s", next);
	map_figure(out, file, buf_str(&alt), caption);
	buf_free(&alt);
	buf_puts(out, "</div>\n</div>\n");
	key(out, m);
	buf_puts(out, "<h2>Orders and results</h2>\n");
	results(out, m, ph);
	if (ph->after->phase == PHASE_RETREAT) {
		/* Centres change hands, and dislodged units come back or go, only
		 * after the retreats. */
		buf_puts(out, "<h2>Supply centres before the retreats</h2>\n<p>");
		if (ph->after->season == SEASON_FALL)
			buf_puts(out, "Centres change hands once the retreats are done. ");
		buf_puts(out, "Units: those not dislodged.</p>\n");
	} else {
		buf_puts(out, "<h2>Supply centres afterwards</h2>\n");
	}
	standings(out, m, ph->after, ph->before);
	capitals_moved(out, m, ph);
	return page_done(out);
}

/* The position before the first phase of pg. */
static const struct board *
start_board(const struct page_game *pg)
{
	return pg->nphases > 0 ? pg->phases[0].before : pg->current;
}

int
pages_start_html(const struct map *m, const struct page_game *pg, struct buf *out)
{
	const struct board *b = start_board(pg);
	char name[48];
	struct buf alt, words;
	int p;

	phase_format(b, name, sizeof name);
	head(out, pg, "the start");
	buf_puts(out, "<nav><a href=\"index.html\">");
	esc(out, game_title(pg));
	buf_puts(out, "</a>");
	if (pg->nphases > 0) {	/* the first phase, once it is played */
		char code[16];
		buf_printf(out, "<a href=\"%s.html\" rel=\"next\">%s &rarr;</a>",
		    pages_phase_code(b, code, sizeof code), name);
	}
	buf_puts(out, "</nav>\n<main>\n<h1>The starting position</h1>\n<p>");
	esc(out, m->title);
	buf_puts(out, " game: the first orders are for <strong>");
	esc(out, name);
	buf_puts(out, "</strong>.</p>\n");
	buf_init(&alt, PAGES_ALT_MAX);
	map_alt(&alt, m, b, "the starting position");
	map_figure(out, "start.svg", buf_str(&alt), name);
	buf_free(&alt);
	buf_puts(out, "<h2>Home centres</h2>\n<ul class=\"homes\">\n");
	buf_init(&words, 4096);
	for (p = 0; p < m->npowers; p++) {
		buf_reset(&words);
		pages_home_centres(m, (power_id)p, &words);
		buf_puts(out, "<li><strong>");
		esc(out, m->powers[p].name);
		buf_puts(out, "</strong>: ");
		esc(out, buf_str(&words));
		buf_puts(out, "</li>\n");
	}
	buf_free(&words);
	buf_puts(out, "</ul>\n<h2>Standings</h2>\n");
	standings(out, m, b, NULL);
	return page_done(out);
}

int
pages_index_html(const struct map *m, const struct page_game *pg, struct buf *out)
{
	char name[48], code[16];
	struct buf alt;
	int i;

	head(out, pg, NULL);
	buf_puts(out, "<main>\n<h1>");
	esc(out, game_title(pg));
	buf_puts(out, "</h1>\n<p>");
	esc(out, m->title);
	buf_printf(out, " game, now at <strong>%s</strong>.</p>\n",
	    phase_format(pg->current, name, sizeof name));
	if (pg->deadline && *pg->deadline) {
		buf_puts(out, "<p class=\"deadline\">");
		esc(out, pg->deadline);
		buf_puts(out, "</p>\n");
	}
	if (pg->nphases > 0) {
		const struct board *b = pg->phases[pg->nphases - 1].before;
		buf_printf(out, "<p>Latest results: <a href=\"%s.html\">%s</a></p>\n",
		    pages_phase_code(b, code, sizeof code), phase_format(b, name, sizeof name));
	}
	buf_init(&alt, PAGES_ALT_MAX);
	map_alt(&alt, m, pg->current, "the position now");
	phase_format(pg->current, name, sizeof name);
	map_figure(out, "current.svg", buf_str(&alt), name);
	buf_free(&alt);
	buf_puts(out, "<h2>Standings</h2>\n");
	standings(out, m, pg->current, NULL);
	buf_puts(out, "<h2>Phases</h2>\n<p><a href=\"start.html\">The starting position</a>, "
		      "with every power&rsquo;s home centres.</p>\n");
	if (pg->nphases == 0)
		buf_puts(out, "<p>No phase has been played yet.</p>\n");
	else
		buf_puts(out, "<ul class=\"phases\">\n");
	for (i = pg->nphases - 1; i >= 0; i--) {
		const struct board *b = pg->phases[i].before;
		buf_printf(out, "<li><a href=\"%s.html\">%s</a></li>\n",
		    pages_phase_code(b, code, sizeof code), phase_format(b, name, sizeof name));
	}
	if (pg->nphases > 0)
		buf_puts(out, "</ul>\n");
	return page_done(out);
}

/* One paragraph of a record page: a first line ending in ':' heads a
 * list of the others; else each line is a sentence of the paragraph. */
static void
record_paragraph(struct buf *out, const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));
	size_t n = (size_t)((e ? e : end) - p);

	if (n > 1 && p[n - 1] == ':') {
		buf_puts(out, "<h2>");
		esc_n(out, p, n - 1);
		buf_puts(out, "</h2>\n<ol class=\"record\">\n");
		for (p = e ? e + 1 : end; p < end; p = e ? e + 1 : end) {
			e = memchr(p, '\n', (size_t)(end - p));
			buf_puts(out, "<li>");
			esc_n(out, p, (size_t)((e ? e : end) - p));
			buf_puts(out, "</li>\n");
		}
		buf_puts(out, "</ol>\n");
		return;
	}
	buf_puts(out, "<p>");
	for (; p < end; p = e ? e + 1 : end) {
		e = memchr(p, '\n', (size_t)(end - p));
		esc_n(out, p, (size_t)((e ? e : end) - p));
		if (e && e + 1 < end)
			buf_puts(out, "<br>\n");
	}
	buf_puts(out, "</p>\n");
}

int
pages_record_html(const struct page_game *pg, const char *kind, const char *text,
    struct buf *out)
{
	const char *p = text, *end = text + strlen(text), *blank;

	head(out, pg, NULL);
	buf_puts(out, "<main>\n<h1>");
	esc(out, game_title(pg));
	buf_puts(out, "</h1>\n<p>");
	esc(out, kind);
	buf_puts(out, "</p>\n");
	if (pg->deadline && *pg->deadline) {
		buf_puts(out, "<p class=\"deadline\">");
		esc(out, pg->deadline);
		buf_puts(out, "</p>\n");
	}
	while (p < end) {
		while (p < end && *p == '\n')
			p++;
		if (p == end)
			break;
		blank = strstr(p, "\n\n");
		if (blank == NULL || blank > end)
			blank = end;
		record_paragraph(out, p, blank < end ? blank : (end[-1] == '\n' ? end - 1 : end));
		p = blank;
	}
	return page_done(out);
}

/* --- files ------------------------------------------------------------------- */

static int
write_file(const char *dir, const struct page_game *pg, const char *file, const struct buf *data,
    struct buf *err)
{
	char path[4096];

	if ((size_t)snprintf(path, sizeof path, "%s/%s/%s", dir, pg->name, file) >= sizeof path) {
		buf_printf(err, "%s/%s: path too long\n", dir, pg->name);
		return -1;
	}
	if (buf_failed(data)) {
		buf_printf(err, "%s: too large\n", path);
		return -1;
	}
	/* Not synced: the pages are made again from the history records.
	 * A page as it was is not written again. */
	if (fs_replace_changed(path, buf_str(data), data->len) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Write data, which a function made with result made (-1: it did not fit),
 * to file. */
static int
write_made(const char *dir, const struct page_game *pg, const char *file, const struct buf *data,
    int made, struct buf *err)
{
	if (made < 0) {
		buf_printf(err, "%s: too large\n", file);
		return -1;
	}
	return write_file(dir, pg, file, data, err);
}

/* Check the name, make dir/NAME and write the style sheet (unless it is
 * there already, byte for byte). */
static int
prepare(const char *dir, const struct page_game *pg, struct buf *err)
{
	char path[4096];
	struct buf css;
	int rc;

	if (!pages_name_ok(pg->name)) {
		buf_printf(err, "\"%s\" cannot name a game's pages (letters, digits, '-', '_', '.')\n",
		    pg->name);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, pg->name) >= sizeof path) {
		buf_printf(err, "%s: path too long\n", dir);
		return -1;
	}
	if (fs_mkdir_p(path, 0755) < 0) {
		buf_printf(err, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	buf_init(&css, sizeof STYLE_CSS);
	buf_puts(&css, STYLE_CSS);
	rc = write_file(dir, pg, "style.css", &css, err);	/* (left alone when the same) */
	buf_free(&css);
	return rc;
}

/* The buffers a set of pages is made in, one for the maps and one for the
 * pages, each reused from one file to the next. */
struct scratch {
	struct buf svg, html;
};

static void
scratch_init(struct scratch *sc)
{
	buf_init(&sc->svg, SVG_MAX);
	buf_init(&sc->html, HTML_MAX);
}

static void
scratch_free(struct scratch *sc)
{
	buf_free(&sc->svg);
	buf_free(&sc->html);
}

static int
write_map(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, const char *file, const struct render_input *in,
    struct scratch *sc, struct buf *err)
{
	buf_reset(&sc->svg);
	return write_made(dir, pg, file, &sc->svg, render_svg(m, g, in, &sc->svg), err);
}

static int
write_phase(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, int i, struct scratch *sc, struct buf *err)
{
	const struct page_phase *ph = &pg->phases[i];
	struct render_input in;
	char code[16], file[40];

	pages_phase_code(ph->before, code, sizeof code);
	memset(&in, 0, sizeof in);
	in.board = ph->before;
	in.orders = ph->orders;
	in.norders = ph->norders;
	in.res = ph->res;
	in.capital = ph->capital_before;
	snprintf(file, sizeof file, "%s.svg", code);
	if (write_map(dir, m, g, pg, file, &in, sc, err) < 0)
		return -1;
	memset(&in, 0, sizeof in);
	in.board = ph->after;
	in.retreat_options = true;
	in.capital = ph->capital_after;
	snprintf(file, sizeof file, "%s-after.svg", code);
	if (write_map(dir, m, g, pg, file, &in, sc, err) < 0)
		return -1;
	buf_reset(&sc->html);
	snprintf(file, sizeof file, "%s.html", code);
	return write_made(dir, pg, file, &sc->html, pages_phase_html(m, pg, i, &sc->html), err);
}

static int
write_start(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct scratch *sc, struct buf *err)
{
	struct render_input in;

	memset(&in, 0, sizeof in);
	in.board = start_board(pg);
	in.title = "The start";
	if (write_map(dir, m, g, pg, "start.svg", &in, sc, err) < 0)
		return -1;
	buf_reset(&sc->html);
	return write_made(dir, pg, "start.html", &sc->html, pages_start_html(m, pg, &sc->html),
	    err);
}

/* Whether a and b are the same position. */
static bool
same_board(const struct board *a, const struct board *b)
{
	return a == b || (a->year == b->year && a->season == b->season && a->phase == b->phase &&
	    a->nunits == b->nunits && a->ndislodged == b->ndislodged &&
	    memcmp(a->units, b->units, a->nunits * sizeof *a->units) == 0 &&
	    memcmp(a->dislodged, b->dislodged, a->ndislodged * sizeof *a->dislodged) == 0 &&
	    memcmp(a->owner, b->owner, sizeof a->owner) == 0 &&
	    memcmp(a->contested, b->contested, sizeof a->contested) == 0);
}

/* Whether the map after the last phase of pg is the map of its position
 * now (the same board and capitals): current.svg is then the same drawing
 * as that phase's -after.svg. */
static bool
last_after_is_current(const struct map *m, const struct page_game *pg)
{
	const struct page_phase *ph;

	if (pg->nphases == 0)
		return false;
	ph = &pg->phases[pg->nphases - 1];
	if (!same_board(ph->after, pg->current))
		return false;
	if (ph->capital_after == pg->capital)
		return true;
	return ph->capital_after && pg->capital &&
	    memcmp(ph->capital_after, pg->capital, (size_t)m->nprovs * sizeof *pg->capital) == 0;
}

/* current.svg as the last phase's map afterwards, just written, whose
 * drawing sc->svg holds: the same file (a hard link), else its bytes. */
static int
link_after(const char *dir, const struct page_game *pg, struct scratch *sc, struct buf *err)
{
	char code[16], from[4096], to[4096];

	pages_phase_code(pg->phases[pg->nphases - 1].before, code, sizeof code);
	if ((size_t)snprintf(from, sizeof from, "%s/%s/%s-after.svg", dir, pg->name, code) <
	    sizeof from && (size_t)snprintf(to, sizeof to, "%s/%s/current.svg", dir, pg->name) <
	    sizeof to && fs_replace_link(to, from) == 0)
		return 0;
	return write_file(dir, pg, "current.svg", &sc->svg, err);
}

/* The index and current.svg; drawn: sc->svg holds current.svg's drawing
 * already (the last phase's map afterwards, just written). */
static int
write_index(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, bool drawn, struct scratch *sc, struct buf *err)
{
	struct render_input in;

	memset(&in, 0, sizeof in);
	in.board = pg->current;
	in.retreat_options = true;
	in.capital = pg->capital;
	if (drawn ? link_after(dir, pg, sc, err) < 0 :
	    write_map(dir, m, g, pg, "current.svg", &in, sc, err) < 0)
		return -1;
	/* The start page, until the first phase is played (then the first
	 * phase's page shows the start too, and the start page stays). */
	if (pg->nphases == 0 && write_start(dir, m, g, pg, sc, err) < 0)
		return -1;
	buf_reset(&sc->html);
	return write_made(dir, pg, "index.html", &sc->html, pages_index_html(m, pg, &sc->html),
	    err);
}

int
pages_write_phase(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, int i, struct buf *err)
{
	struct scratch sc;
	int rc;

	if (prepare(dir, pg, err) < 0)
		return -1;
	scratch_init(&sc);
	rc = write_phase(dir, m, g, pg, i, &sc, err);
	scratch_free(&sc);
	return rc;
}

int
pages_write_start(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err)
{
	struct scratch sc;
	int rc;

	if (prepare(dir, pg, err) < 0)
		return -1;
	scratch_init(&sc);
	rc = write_start(dir, m, g, pg, &sc, err);
	scratch_free(&sc);
	return rc;
}

int
pages_write_index(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err)
{
	struct scratch sc;
	int rc;

	if (prepare(dir, pg, err) < 0)
		return -1;
	scratch_init(&sc);
	rc = write_index(dir, m, g, pg, false, &sc, err);
	scratch_free(&sc);
	return rc;
}

int
pages_write_played(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, int from, bool start, struct buf *err)
{
	struct scratch sc;
	int i, rc = 0;

	if (prepare(dir, pg, err) < 0)
		return -1;
	scratch_init(&sc);
	/* The start first: the last phase's map afterwards stays in sc.svg
	 * for current.svg when it is the same drawing. */
	if (start)
		rc = write_start(dir, m, g, pg, &sc, err);
	for (i = from; i < pg->nphases && rc == 0; i++)
		rc = write_phase(dir, m, g, pg, i, &sc, err);
	if (rc == 0)
		rc = write_index(dir, m, g, pg, from < pg->nphases && last_after_is_current(m, pg),
		    &sc, err);
	scratch_free(&sc);
	return rc;
}

int
pages_write_record(const char *dir, const struct page_game *pg, const char *kind,
    const char *text, struct buf *err)
{
	struct buf html;
	int rc;

	if (prepare(dir, pg, err) < 0)
		return -1;
	buf_init(&html, HTML_MAX);
	rc = write_made(dir, pg, "index.html", &html, pages_record_html(pg, kind, text, &html), err);
	buf_free(&html);
	return rc;
}

int
pages_write_game(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err)
{
	return pages_write_played(dir, m, g, pg, 0, pg->nphases > 0, err);
}
