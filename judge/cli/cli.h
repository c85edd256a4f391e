/*
 * cli.h — the pouch command line: one function per subcommand.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status: 0 success, 1 a failure
 * the command reports (a failing test case, a game that could not be
 * processed), 2 a usage error.
 */
#ifndef POUCH_CLI_H
#define POUCH_CLI_H

#define POUCH_DEFAULT_DATA "/var/lib/pouch"	/* without --data or POUCH_DATA */

struct cli_opts {
	const char *data_dir;	/* --data */
	const char *config;	/* --config */
	const char *maps_dir;	/* --maps */
	int verbose;		/* -v */
};

#include <stdio.h>
#include <time.h>

struct buf;
/* Print the usage of command name (its forms, "usage: pouch ...") on f.
 * Returns 2, the exit status of a usage error. */
int cli_usage(const char *name, FILE *f);
/* Print err, each line prefixed with "pouch CMD: ", on stderr. */
void cli_print_err(const char *cmd, const struct buf *err);
/* "pouch" and the global options the user gave (--data, --config,
 * --maps), each quoted for the shell when it needs it: the start of a
 * command printed for the user to type. Made once; lives until exit. */
const char *cli_invocation(const struct cli_opts *o);
/* Append s to out as one shell word (in single quotes when needed). */
void cli_shell_word(const char *s, struct buf *out);
/* The data directory: --data, POUCH_DATA, else POUCH_DEFAULT_DATA. */
const char *cli_data_dir(const struct cli_opts *o);
/* Whether the data directory is there; if not, say so on stderr as
 * "pouch CMD: ..." (what makes one, how to name another) and return 0. */
int cli_data_exists(const struct cli_opts *o, const char *cmd);

/* A --now: "2026-11-22T18:00:00Z", "2026-11-22 18:00" (UTC) or seconds
 * since 1970, into *t. Returns 0, or -1 when it is none of them. */
int cli_parse_now(const char *s, time_t *t);
int cli_datc(const struct cli_opts *o, int argc, char **argv);
int cli_check_game(const struct cli_opts *o, int argc, char **argv);
int cli_map(const struct cli_opts *o, int argc, char **argv);
int cli_play(const struct cli_opts *o, int argc, char **argv);
int cli_transcript(const struct cli_opts *o, int argc, char **argv);
int cli_run(const struct cli_opts *o, int argc, char **argv);
int cli_game(const struct cli_opts *o, int argc, char **argv);
int cli_replay(const struct cli_opts *o, int argc, char **argv);
int cli_fetch(const struct cli_opts *o, int argc, char **argv);	/* judge/cli/cli_mail.c */
int cli_read_mail(const struct cli_opts *o, int argc, char **argv);	/* judge/cli/cli_mail.c */
int cli_send(const struct cli_opts *o, int argc, char **argv);	/* judge/cli/cli_mail.c */
/* pouch spool: list the spool's messages, or write some out as stored. */
int cli_spool(const struct cli_opts *o, int argc, char **argv);	/* judge/cli/cli_mail.c */
int cli_oauth(const struct cli_opts *o, int argc, char **argv);	/* cli_oauth.c */
int cli_render(const struct cli_opts *o, int argc, char **argv);
int cli_render_game(const struct cli_opts *o, int argc, char **argv);
int cli_doctor(const struct cli_opts *o, int argc, char **argv);	/* judge/cli/doctor.c */

#endif
