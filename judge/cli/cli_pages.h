/*
 * cli_pages.h — the map page options the play and render-game commands
 * share (cli_render.c).
 */
#ifndef POUCH_CLI_PAGES_H
#define POUCH_CLI_PAGES_H

#include <stddef.h>

#include "../../lib/buf.h"
#include "cli.h"
#include "../engine/map.h"
#include "../engine/rules.h"

struct page_opts {
	const char *dir;	/* --pages DIR: write the pages there */
	const char *base_url;	/* --base-url URL: public address of DIR */
	const char *name;	/* --name N: the game's name (default: from the file name) */
};

/* Take --pages, --base-url and --name out of argv (in place). Returns the
 * new argc, or -1 after printing what is wrong. */
int cli_page_opts(int argc, char **argv, struct page_opts *po);

/* As play_text, and writes the map pages of every phase to po->dir; each
 * phase's report gets a "Map:" line with its page's address. Returns 0, or
 * -1 (the reason is in out). */
int cli_play_pages(const struct cli_opts *o, const struct map *m, enum edition ed,
    const char *text, size_t len, const char *fname, const struct page_opts *po, struct buf *out);

#endif
