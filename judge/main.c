/*
 * main.c — pouch: a play-by-mail Diplomacy judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gnutls/gnutls.h>
#include <libetpan/libetpan_version.h>

#include "../lib/buf.h"
#include "../lib/lazylib.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "cli.h"

#define POUCH_VERSION "0.1"

struct command {
	const char *name;
	int (*fn)(const struct cli_opts *, int, char **);
	const char *args;
	const char *help;
};

static const struct command commands[] = {
	{ "run", cli_run, "[--now TIME] [--no-fetch] [--no-send]",
	    "the cron job: fetch mail, apply it, act on deadlines, send the replies and reports" },
	{ "game", cli_game, "new NAME --gm ADDRESS ... | NAME COMMAND... | list | show NAME",
	    "create a game, give a game master's command as the host, list or show games" },
	{ "replay", cli_replay, "[--spool DIR] [--into OUT] [--verify]",
	    "rebuild every game from the spool alone into OUT; --verify compares with the live "
	    "judge (without OUT, in a directory of its own, removed when nothing differs)" },
	{ "datc", cli_datc, "[--edition E] [--verbose] FILE...",
	    "run DATC case files (jDip format); ends with \"N passed, M failed\"" },
	{ "check-game", cli_check_game, "[--edition E] PATH...",
	    "replay droidippy game records and compare every phase" },
	{ "play", cli_play, "[--edition E] [--pages DIR [--base-url URL]] FILE",
	    "play a game from a file of orders and print every phase's results" },
	{ "transcript", cli_transcript, "FILE",
	    "play a script of mail and clock ticks through the judge and print what it sends" },
	{ "render", cli_render, "[--variant V] [--board FILE] [--title T] [--out FILE.svg]",
	    "draw a position as an SVG map (the starting position without --board)" },
	{ "render-game", cli_render_game, "[--edition E] [--base-url URL] [--name N] RECORD OUTDIR",
	    "replay a recorded game and write its map pages" },
	{ "map", cli_map, "check FILE... | show NAME",
	    "validate variant files, or describe a variant" },
	{ "fetch", cli_fetch, "", "fetch new mail into the spool (IMAP or Maildir, per the configuration)" },
	{ "send", cli_send, "[--now SECONDS]", "send what waits in the outbox (SMTP or Maildir)" },
	{ "oauth", cli_oauth, "login --provider google|microsoft|custom --client-id ID ... | token",
	    "sign the judge in to a Google or Microsoft mailbox (OAuth 2.0), or check its sign-in" },
	{ "read-mail", cli_read_mail, "FILE...", "show a message file as the judge reads it (decoded text)" },
};

void
cli_print_err(const char *cmd, const struct buf *err)
{
	const char *p = buf_str(err), *end = p + err->len, *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL)
		if (n > 0)
			fprintf(stderr, "pouch %s: %.*s\n", cmd, (int)n, line);
}

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

/* pouch's version and its libraries', loading those loaded on demand: a
 * check that they are all there. */
static void
print_version(void)
{
	printf("pouch %s\n", POUCH_VERSION);
	printf("libetpan %d.%d, GnuTLS %s, libxml2 %s (%s), libcurl %s (%s)\n",
	    libetpan_get_version_major(), libetpan_get_version_minor(), gnutls_check_version(NULL),
	    lazy_xml2_version(), lazy_xml2.soname, lazy_curl_version(), lazy_curl.soname);
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
			print_version();
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
