/*
 * main.c — pouch: a play-by-mail Diplomacy judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/log.h"
#include "cli.h"

#define POUCH_VERSION "0.1"

struct command {
	const char *name;
	int (*fn)(const struct cli_opts *, int, char **);
	const char *args;
	const char *help;
};

static const struct command commands[] = {
	{ "datc", cli_datc, "[--edition E] [--verbose] FILE...",
	    "run DATC case files (jDip format); ends with \"N passed, M failed\"" },
	{ "check-game", cli_check_game, "[--edition E] PATH...",
	    "replay droidippy game records and compare every phase" },
	{ "play", cli_play, "[--edition E] [--pages DIR [--base-url URL]] FILE",
	    "play a game from a file of orders and print every phase's results" },
	{ "render", cli_render, "[--variant V] [--board FILE] [--title T] [--out FILE.svg]",
	    "draw a position as an SVG map (the starting position without --board)" },
	{ "render-game", cli_render_game, "[--edition E] [--base-url URL] [--name N] RECORD OUTDIR",
	    "replay a recorded game and write its map pages" },
	{ "map", cli_map, "check FILE... | show NAME",
	    "validate variant files, or describe a variant" },
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: pouch [--data DIR] [--config FILE] [--maps DIR] [-v] COMMAND [ARGS]\n\n");
	fprintf(f, "commands:\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-11s %s\n  %-11s   %s\n", commands[i].name, commands[i].args, "",
		    commands[i].help);
	fprintf(f, "\nSee pouch(1).\n");
}

int
main(int argc, char **argv)
{
	struct cli_opts o = { NULL, NULL, NULL, 0 };
	int i = 1;
	size_t c;

	o.data_dir = getenv("POUCH_DATA");
	while (i < argc && argv[i][0] == '-') {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("pouch %s\n", POUCH_VERSION);
			return 0;
		} else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
			o.verbose++;
			log_set_level(o.verbose > 1 ? LOG_DEBUG : LOG_INFO);
			i++;
		} else if ((strcmp(a, "--data") == 0 || strcmp(a, "--config") == 0 ||
		    strcmp(a, "--maps") == 0) && i + 1 < argc) {
			if (strcmp(a, "--data") == 0)
				o.data_dir = argv[i + 1];
			else if (strcmp(a, "--config") == 0)
				o.config = argv[i + 1];
			else
				o.maps_dir = argv[i + 1];
			i += 2;
		} else {
			fprintf(stderr, "pouch: unknown option %s\n", a);
			usage(stderr);
			return 2;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[i], "help") == 0) {
		usage(stdout);
		return 0;
	}
	for (c = 0; c < sizeof commands / sizeof commands[0]; c++)
		if (strcmp(argv[i], commands[c].name) == 0)
			return commands[c].fn(&o, argc - i, argv + i);
	fprintf(stderr, "pouch: unknown command \"%s\" (try pouch --help)\n", argv[i]);
	return 2;
}
