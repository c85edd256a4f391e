/*
 * main.c — pouch: a play-by-mail Diplomacy judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include <gnutls/gnutls.h>
#include <libetpan/libetpan_version.h>

#include "../../lib/buf.h"
#include "../../lib/lazylib.h"
#include "../../lib/log.h"
#include "../../lib/str.h"
#include "cli.h"

#define POUCH_VERSION "0.1"

/* One table for dispatch, --help and the usage errors. usage: the forms
 * of the command, one a line, without "pouch "; pouch(1)'s SYNOPSIS has
 * each of them (tests/cli/cli.sh compares). */
struct command {
	const char *name;
	int (*fn)(const struct cli_opts *, int, char **);
	const char *usage;
	const char *help;
};

static const struct command commands[] = {
	{ "run", cli_run, "run [--now time] [--no-fetch] [--no-send]",
	    "the cron job: fetch mail, apply it, act on deadlines, send the replies and reports" },
	{ "game", cli_game,
	    "game new name --gm address [--variant v] [--password p] [--players n] [--setting value ...]\n"
	    "game name [command [argument ...]]\n"
	    "game list\n"
	    "game show name\n"
	    "game process name [--preview]\n"
	    "game rollback name phase\n"
	    "game -\n"
	    "game --now time ...",
	    "create a game, give a game master's command as the host (none: read them from\n"
	    "standard input; -: a whole message of them), list or show games; --now sets the\n"
	    "command's clock, for rehearsals and tests" },
	{ "replay", cli_replay, "replay [--spool dir] --into out [--verify]\n"
	    "replay [--spool dir] --verify\n"
	    "replay --game name",
	    "rebuild every game from the spool alone into out; --verify compares with the live\n"
	    "judge (without --into, in a directory of its own, removed when nothing differs);\n"
	    "--game repairs a game set aside as damaged" },
	{ "doctor", cli_doctor, "doctor",
	    "check the data directory and its settings before the first game: the judge's\n"
	    "address, the mailbox and the outgoing server, the map pages, cron, the clock" },
	{ "datc", cli_datc, "datc [--reasons] [--edition e] [--variant v] [--verbose] file ...",
	    "run DATC case files (jDip format); ends with \"N passed, M failed\";\n"
	    "--reasons prints each phase's results with the reason of every failed order" },
	{ "check-game", cli_check_game, "check-game [--reasons] [--edition e] path ...",
	    "replay droidippy game records and compare every phase; --reasons also\n"
	    "checks that every failed order has a reason that fits" },
	{ "play", cli_play, "play [--edition e] [--variant v] [--pages dir [--base-url url] [--name n]] file",
	    "play a game from a file of orders and print every phase's results" },
	{ "transcript", cli_transcript, "transcript file",
	    "play a script of mail and clock ticks through the judge and print what it sends" },
	{ "render", cli_render, "render [--variant v] [--board file] [--title t] [--out file.svg]",
	    "draw a position as an SVG map (the starting position without --board)" },
	{ "render-game", cli_render_game,
	    "render-game [--edition e] [--variant v] [--base-url url] [--name n] record outdir",
	    "replay a recorded game and write its map pages" },
	{ "map", cli_map, "map check file ...\nmap show name",
	    "validate variant files, or describe a variant" },
	{ "fetch", cli_fetch, "fetch", "fetch new mail into the spool (IMAP or Maildir, per the configuration)" },
	{ "send", cli_send, "send [--now time]\nsend --drop id", "send what waits in the outbox (SMTP or Maildir)" },
	{ "oauth", cli_oauth,
	    "oauth login --provider google|microsoft|custom --client-id id [option ...]\n"
	    "oauth token [imap|smtp] [--renew]",
	    "sign the judge in to a Google or Microsoft mailbox (OAuth 2.0), or check its sign-in" },
	{ "spool", cli_spool, "spool [--spool dir] list\nspool [--spool dir] show id ...",
	    "list the messages the spool keeps (in or out, id, time, bytes, Message-ID), or\n"
	    "write messages out byte for byte, as received or sent" },
	{ "read-mail", cli_read_mail, "read-mail file ...",
	    "show a message file as the judge reads it (decoded text)" },
};

static const struct command *
command_find(const char *name)
{
	size_t c;

	for (c = 0; c < sizeof commands / sizeof commands[0]; c++)
		if (strcmp(name, commands[c].name) == 0)
			return &commands[c];
	return NULL;
}

/* "usage: pouch FORM" for each form of usage, indented as usage(1) does. */
static void
put_forms(FILE *f, const char *usage)
{
	const char *p = usage;
	int first = 1;

	while (*p) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%s pouch %.*s\n", first ? "usage:" : "      ", (int)n, p);
		first = 0;
		p += n;
		if (*p == '\n')
			p++;
	}
}

int
cli_usage(const char *name, FILE *f)
{
	const struct command *c = command_find(name);

	if (c)
		put_forms(f, c->usage);
	return 2;
}

/* "pouch COMMAND --help": the usage and what the command does, on stdout. */
static int
command_help(const struct command *c)
{
	put_forms(stdout, c->usage);
	printf("\n%s.\n\nGlobal options before the command: [--data dir] [--config file] "
	    "[--maps dir] [-v]. See pouch(1).\n", c->help);
	return 0;
}

void
cli_print_err(const char *cmd, const struct buf *err)
{
	const char *p = buf_str(err), *end = p + err->len, *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL)
		if (n > 0)
			fprintf(stderr, "pouch %s: %.*s\n", cmd, (int)n, line);
}

const char *
cli_data_dir(const struct cli_opts *o)
{
	return o->data_dir ? o->data_dir : POUCH_DEFAULT_DATA;
}

void
cli_shell_word(const char *s, struct buf *out)
{
	const char *p;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789@%+=:,./_-") == strlen(s)) {
		buf_puts(out, s);
		return;
	}
	buf_putc(out, '\'');
	for (p = s; *p; p++) {
		if (*p == '\'')
			buf_puts(out, "'\\''");
		else
			buf_putc(out, *p);
	}
	buf_putc(out, '\'');
}

const char *
cli_invocation(const struct cli_opts *o)
{
	static const char *const names[] = { "--data", "--config", "--maps" };
	static char inv[3 * (4 * PATH_MAX + 16) + 8];
	const char *values[] = { o->data_dir, o->config, o->maps_dir };
	struct buf b;
	size_t k;

	if (inv[0] != '\0')
		return inv;
	buf_init(&b, 256);
	buf_puts(&b, "pouch");
	for (k = 0; k < 3; k++) {
		if (values[k] == NULL)
			continue;
		buf_printf(&b, " %s ", names[k]);
		cli_shell_word(values[k], &b);
	}
	/* kept in static storage, not on the heap: nothing to free at exit */
	snprintf(inv, sizeof inv, "%s", b.len < sizeof inv ? buf_str(&b) : "pouch");
	buf_free(&b);
	return inv;
}

int
cli_data_exists(const struct cli_opts *o, const char *cmd)
{
	struct stat st;

	if (stat(cli_data_dir(o), &st) == 0 && S_ISDIR(st.st_mode))
		return 1;
	fprintf(stderr, "pouch %s: there is no data directory %s (%s game new makes one; "
	    "--data DIR chooses another)\n", cmd, cli_data_dir(o), cli_invocation(o));
	return 0;
}

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: pouch [--data DIR] [--config FILE] [--maps DIR] [-v] COMMAND [ARGS]\n\n");
	fprintf(f, "commands:\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		const char *u = commands[i].usage;
		while (*u) {
			size_t n = strcspn(u, "\n");
			fprintf(f, "  pouch %.*s\n", (int)n, u);
			u += n + (u[n] == '\n');
		}
	}
	fprintf(f, "\npouch COMMAND --help: its usage and what it does.\n");
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
	const struct command *cmd;
	int i = 1;

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
	if ((cmd = command_find(argv[i])) != NULL) {
		int k;
		for (k = i + 1; k < argc; k++)
			if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0)
				return command_help(cmd);
		return cmd->fn(&o, argc - i, argv + i);
	}
	fprintf(stderr, "pouch: unknown command \"%s\" (try pouch --help)\n", argv[i]);
	return 2;
}
