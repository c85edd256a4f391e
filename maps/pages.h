/*
 * pages.h — the public web pages of a game: plain HTML and CSS, no
 * scripts, readable offline and on a phone.
 *
 * API
 *
 *	struct page_game pg = { .name = "spring-league", .base_url = url,
 *	    .current = &now, .phases = phases, .nphases = n };
 *	pages_write_game(dir, map, geometry, &pg, &err);  // everything
 *	pages_write_phase(dir, map, geometry, &pg, n - 1, &err);
 *	pages_write_index(dir, map, geometry, &pg, &err); // after each phase
 *	pages_phase_url(url, "spring-league", &before, &link); // for the reports
 *
 * Files, all under DIR/NAME/ and each replaced atomically:
 *
 *	index.html     the current map, standings, deadline, every phase
 *	start.html     the starting position and every power's home centres
 *	start.svg      (written with the index until the first phase is played)
 *	               (a game without a board: its public record alone)
 *	current.svg    the position now
 *	S1901M.html    one page per adjudicated phase: the map with the
 *	S1901M.svg     orders and their results, the map after it, and
 *	S1901M-after.svg  every order with its result in the judge's words
 *	style.css      shared by the pages
 *
 * Phase codes: S/F/W, the year, M/R/A (Spring 1901 Movement is S1901M, the
 * adjustments after Fall 1901 are W1901A). File names carry nothing but the
 * game's name and the phase.
 *
 * Privacy: the pages show positions and adjudicated orders, which every
 * player sees in the results anyway. Press, and orders of a phase not yet
 * adjudicated, are never passed to this module, so they cannot appear.
 */
#ifndef POUCH_PAGES_H
#define POUCH_PAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "../judge/engine/adjudicate.h"
#include "../judge/engine/board.h"
#include "../judge/engine/map.h"
#include "../judge/engine/order.h"
#include "../lib/buf.h"
#include "geometry.h"

struct page_phase {
	const struct board *before;	/* the position the orders were given in */
	const struct order *orders;	/* the orders as adjudicated (NULL when norders is 0) */
	int norders;
	const struct phase_result *res;	/* their results */
	const struct phase_why *why;	/* why orders failed (adj_resolve_why), or NULL */
	const struct board *after;	/* the position that followed (the next phase's) */
	const power_id *capital_before;	/* by province, the power whose capital it was
					   before (a Realpolitik capital moves when lost);
					   NULL: the variant's */
	const power_id *capital_after;	/* the same afterwards; NULL: the variant's */
	const int *raisable;		/* an adjustment phase: by power, how many units
					   it could raise (report_unused: the builds not
					   used); NULL: none are told */
};

struct page_game {
	const char *name;		/* the game's name, see pages_name_ok() */
	const char *title;		/* shown on the pages; NULL: the name */
	const char *base_url;		/* public address of DIR ("https://example.org/games");
					   NULL or "": the pages link to each other relatively */
	const char *deadline;		/* what the index says about the next deadline, or NULL */
	const struct board *current;	/* the position now, awaiting orders */
	const power_id *capital;	/* by province, whose capital it is now; NULL: the variant's */
	const struct page_phase *phases; /* adjudicated phases, oldest first */
	int nphases;
};

/* True when name can be a game's directory and URL component: 1 to 64 of
 * letters, digits, '-', '_' and '.', not starting with '.'. */
bool pages_name_ok(const char *name);
/* A page name made of s[0..n): what a name cannot hold turned into '-';
 * "game" when nothing usable is left. Into out (size >= 16). */
void pages_name_from(const char *s, size_t n, char *out, size_t size);

/* The phase code of b ("S1901M") into out (size >= 16). Returns out. */
char *pages_phase_code(const struct board *b, char *out, size_t size);

/*
 * Append the public address of the page of the phase b: BASE/GAME/S1901M.html
 * (one '/' between the parts), or GAME/S1901M.html when base_url is NULL or "".
 */
void pages_phase_url(const char *base_url, const char *game, const struct board *b,
    struct buf *out);

/* Append the public address of the page of the starting position:
 * BASE/GAME/start.html (GAME/start.html without a base). */
void pages_start_url(const char *base_url, const char *game, struct buf *out);

/* Append power p's home centres in words: "Budapest, Trieste and Vienna";
 * on a board with capitals and naval bases (Realpolitik) "capitals Berlin
 * and Munich; naval base Kiel". */
void pages_home_centres(const struct map *m, power_id p, struct buf *out);

/* Append the HTML of the starting position's page of pg (its position
 * before the first phase: phases[0].before, else current). Returns 0 or -1. */
int pages_start_html(const struct map *m, const struct page_game *pg, struct buf *out);

/* Append the HTML of the page of phase i of pg. Returns 0, or -1 when out is full. */
int pages_phase_html(const struct map *m, const struct page_game *pg, int i, struct buf *out);
/* Append the HTML of pg's index page. Returns 0, or -1 when out is full. */
int pages_index_html(const struct map *m, const struct page_game *pg, struct buf *out);

/*
 * Write phase i's page and its two maps under dir/NAME/ (created when
 * missing), and the style sheet. Returns 0, or -1 with the reason appended
 * to err.
 */
int pages_write_phase(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, int i, struct buf *err);
/* Write start.html and start.svg (the starting position) under dir/NAME/. Returns 0 or -1 (err). */
int pages_write_start(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err);
/* Write index.html, current.svg and the style sheet under dir/NAME/. Returns 0 or -1 (err). */
int pages_write_index(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err);
/* The page of a game without a board (its index.html): the title, kind
 * ("World Game war"), the deadline and text, which is paragraphs
 * separated by blank lines; a paragraph whose first line ends in ':' is a
 * heading over a numbered list of its other lines. Returns 0, or -1 when
 * out is full. */
int pages_record_html(const struct page_game *pg, const char *kind, const char *text,
    struct buf *out);
/* Write that page and the style sheet under dir/NAME/. Returns 0 or -1 (err). */
int pages_write_record(const char *dir, const struct page_game *pg, const char *kind,
    const char *text, struct buf *err);
/* The pages of phases from on, the start page with them when start, and
 * the index, under dir/NAME/ (created when missing) with the style sheet,
 * written once. Returns 0 or -1 (err). */
int pages_write_played(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, int from, bool start, struct buf *err);
/* Every phase page and the index. Returns 0 or -1 (err). */
int pages_write_game(const char *dir, const struct map *m, const struct geometry *g,
    const struct page_game *pg, struct buf *err);

#endif
