/*
 * webpages.h — the public map pages of the judge's games, kept up to date
 * after every adjudicated phase (shell: reads history, writes files).
 *
 *	struct webpages w;
 *	webpages_init(&w, "/var/www/maps", "https://example.org/maps", NULL);
 *	webpages_game(&w, &store, g, first_new, &err);  // after new phases
 *	webpages_free(&w);
 *
 * A game's pages (maps/pages.h) are made from its history records: each
 * holds the position before the phase and the orders, which are played
 * again to draw the results. After new phases the judge writes their
 * pages, the page of the phase before them (which now links forward) and
 * the index. A variant without a drawing (maps/NAME/map.svg) gets no pages.
 */
#ifndef POUCH_WEBPAGES_H
#define POUCH_WEBPAGES_H

#include "../../lib/buf.h"
#include "../../maps/geometry.h"
#include "../game.h"
#include "store.h"

#define WEBPAGES_MAX_VARIANTS 16

struct webpages {
	const char *dir;		/* where the pages go */
	const char *base_url;		/* their public address; NULL or "": relative links */
	const char *maps_dir;		/* variants; NULL: the default */
	int n;
	struct {
		char *variant;
		struct geometry *g;	/* NULL: the variant has no drawing */
	} geo[WEBPAGES_MAX_VARIANTS];
	/* For the run's summary: */
	int phases;			/* phase pages drawn (a new phase's, and the page
					   of the phase before it, for its link) */
	int records;			/* public record pages drawn (no board) */
	int games;			/* games whose pages were drawn (their index,
					   start page and current map not counted above) */
};

void webpages_init(struct webpages *w, const char *dir, const char *base_url, const char *maps_dir);
void webpages_free(struct webpages *w);
/* Make ready to draw on a thread other than the one that calls this
 * (the main thread, before it starts that thread). */
void webpages_threads(void);
/* Write the pages of phases first..g->nphases (1-based history records),
 * the page of phase first - 1, and the index. Returns 0, or -1 (err). */
int webpages_game(struct webpages *w, struct store *st, const struct game *g, int first,
    struct buf *err);

#endif
