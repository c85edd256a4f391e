/*
 * cli_run.c — pouch run, pouch game, pouch replay (see run.h, pouch(1)).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/strv.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "cli.h"
#include "../shell/replay.h"
#include "../shell/run.h"

/* After the judge's headers: <unistd.h> defines R_OK. */
#include <unistd.h>

#define LOCK_WAIT_MS 10000
/* A command the host gives as mail (game new, process, rollback), with its settings. */
#define HOST_MAIL_MAX (1u << 16)

static int
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether the data directory has game name; if not, say so on stderr in
 * the host's words (which data directory, how to see its games, how to
 * name another) and return 0. Nothing is made or opened. */
static int
game_exists(const struct cli_opts *o, const char *cmd, const char *name)
{
	if (is_dir(cli_data_dir(o)) && store_has_game(cli_data_dir(o), name))
		return 1;
	if (!is_dir(cli_data_dir(o)))
		fprintf(stderr, "pouch %s: no game %s: there is no data directory %s (%s game new "
		    "makes one; --data DIR chooses another)\n", cmd, name, cli_data_dir(o), cli_invocation(o));
	else
		fprintf(stderr, "pouch %s: no game %s in %s (%s game list shows its games; --data DIR "
		    "chooses another data directory)\n", cmd, name, cli_data_dir(o), cli_invocation(o));
	return 0;
}

/* Whether every game a host message names on a GAME line is there, or
 * made by a NEWGAME line before it; if not, said as game_exists does. */
static int
message_games_exist(const struct cli_opts *o, const char *body)
{
	const char *p = body, *end = body + strlen(body), *line;
	char made[64][GAME_NAME_MAX], word[16], name[GAME_NAME_MAX];
	size_t n, k, nmade = 0;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		size_t w, m;
		while (n > 0 && (*line == ' ' || *line == '\t'))
			line++, n--;
		w = strcspn(line, " \t\r\n");
		if (w > n || w >= sizeof word)
			continue;
		memcpy(word, line, w);
		word[w] = '\0';
		line += w;
		n -= w;
		while (n > 0 && (*line == ' ' || *line == '\t'))
			line++, n--;
		m = strcspn(line, " \t\r\n");
		if (m > n || m == 0 || m >= sizeof name)
			continue;
		memcpy(name, line, m);
		name[m] = '\0';
		if (str_eq_nocase(word, "NEWGAME") && nmade < sizeof made / sizeof made[0])
			str_copy(made[nmade++], name, sizeof made[0]);
		else if (str_eq_nocase(word, "GAME")) {
			for (k = 0; k < nmade && !str_eq_nocase(made[k], name); k++)
				;
			if (k == nmade && !game_exists(o, "game", name))
				return 0;
		}
	}
	return 1;
}

int
cli_parse_now(const char *s, time_t *t)
{
	long v;

	if (time_parse_utc(s, t) == 0)
		return 0;
	if (str_to_long(s, 0, LONG_MAX, &v) == 0) {
		*t = (time_t)v;
		return 0;
	}
	return -1;
}

static void
run_opts_init(struct run_opts *ro, const struct cli_opts *o)
{
	memset(ro, 0, sizeof *ro);
	ro->invocation = cli_invocation(o);
	ro->data = cli_data_dir(o);
	ro->config = o->config;
	ro->maps = o->maps_dir;
	ro->now = time(NULL);
	ro->wait_ms = LOCK_WAIT_MS;
	ro->host_out = stdout;
}

/* The time asked for was before the last busy run's clock, which the run
 * keeps: one line on stderr (a minute's difference and more: a clock's
 * small corrections pass unsaid; and commands that only look, unsaid). */
static void
clock_behind_warning(const struct runner *r, const char *cmd)
{
	char asked[32], kept[32];

	fprintf(stderr, "pouch %s: the clock, %s, is before the last run's, %s: this one works at "
	    "the last run's clock (a judge's clock never goes back)\n", cmd,
	    time_rfc3339(r->asked_now, asked, sizeof asked), time_rfc3339(r->o.now, kept, sizeof kept));
}

/* Open, with the usual messages. Returns 0, 1 (busy: said so), -1 (said why). */
static int
open_runner(struct runner *r, const struct run_opts *ro, const char *cmd)
{
	struct buf err;
	int rc;

	buf_init(&err, BUF_ERRORS_MAX);
	if (fs_exists(ro->data) && !is_dir(ro->data)) {
		fprintf(stderr, "pouch %s: %s is not a directory (--data DIR chooses the data "
		    "directory)\n", cmd, ro->data);
		buf_free(&err);
		return -1;
	}
	if (fs_mkdir_p(ro->data, 0750) < 0) {
		fprintf(stderr, "pouch %s: %s: %s\n", cmd, ro->data, strerror(errno));
		buf_free(&err);
		return -1;
	}
	rc = runner_open(r, ro, &err);
	if (rc == 0 && !ro->look_only && r->asked_now != 0 && r->o.now - r->asked_now >= 60)
		clock_behind_warning(r, cmd);
	if (rc == 1)
		fprintf(stderr, "pouch %s: another pouch is working on %s; nothing done\n", cmd,
		    ro->data);
	else if (rc < 0)
		cli_print_err(cmd, &err);
	buf_free(&err);
	if (rc != 0)
		runner_close(r);
	return rc;
}

/* Apply, commit and (unless no_send) send; prints what failed. Returns the
 * exit status. */
static int
finish(struct runner *r, const char *cmd, int no_send, int status)
{
	struct buf err;

	buf_init(&err, BUF_ERRORS_MAX);
	if (runner_apply(r, &err) < 0 || runner_commit(r, &err) < 0) {
		cli_print_err(cmd, &err);
		buf_free(&err);
		return 1;	/* nothing committed: the next run does it all again */
	}
	if (!no_send && runner_send(r, &err) < 0) {
		cli_print_err(cmd, &err);
		status = 1;	/* the outbox keeps it for the next run */
	}
	runner_pages_wait(r);	/* drawn while the run sent */
	if (r->stats.pages_left > 0) {
		fprintf(stderr, "pouch %s: the map pages of %d game%s could not all be written (the "
		    "warnings above say why); the next run draws them again\n", cmd,
		    r->stats.pages_left, r->stats.pages_left == 1 ? "" : "s");
		status = 1;
	}
	buf_free(&err);
	return status;
}

static void
summary(const struct runner *r, FILE *f)
{
	const struct run_stats *s = &r->stats;

	fprintf(f, "fetched %d (%d new), applied %d, %d phase%s adjudicated, %d phase page%s",
	    s->fetched, s->stored, s->applied, s->phases, s->phases == 1 ? "" : "s", s->pages,
	    s->pages == 1 ? "" : "s");
	if (s->record_pages > 0)
		fprintf(f, " and %d record page%s", s->record_pages, s->record_pages == 1 ? "" : "s");
	fprintf(f, " drawn for %d game%s, queued %d; sent %d, deferred %d, waiting %d\n",
	    s->paged_games, s->paged_games == 1 ? "" : "s", s->queued, s->out.sent, s->out.deferred,
	    s->out.waiting);
	if (s->held > 0)
		fprintf(f, "kept for games set aside: %d message%s\n", s->held, s->held == 1 ? "" : "s");
	if (s->checks > 0)
		fprintf(f, "passwords: %zu checked ahead, %zu of them queued while fetching; "
		    "%zu made by the other threads when applying began, %zu when it ended\n",
		    s->checks, s->checks_fetch, s->made_fetch, s->made);
	fprintf(f, "time: fetch %.0f ms, apply %.0f ms, commit %.0f ms, send %.0f ms "
	    "(and the map pages %.0f ms, alongside)\n", s->ms_fetch, s->ms_apply, s->ms_commit,
	    s->ms_send, s->ms_pages);
}

/* A run with --now read mail delivered before the last busy run's clock:
 * a rehearsal whose mail files have today's time, or a clock set wrong.
 * One line on stderr; the mail is applied as arriving at that clock. */
static void
early_mail_warning(const struct runner *r)
{
	char when[32];

	fprintf(stderr, "pouch run: %d message%s delivered before the last run's clock (%s), taken "
	    "as arriving then: with --now, give mail files the time they arrive (touch -d)\n",
	    r->stats.early, r->stats.early == 1 ? " was" : "s were",
	    time_rfc3339(spool_clock(r->sp), when, sizeof when));
}

int
cli_run(const struct cli_opts *o, int argc, char **argv)
{
	struct run_opts ro;
	struct runner r;
	struct buf err;
	int i, no_fetch = 0, no_send = 0, now_given = 0, status = 0, rc;

	run_opts_init(&ro, o);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--now") == 0 && i + 1 < argc && cli_parse_now(argv[i + 1], &ro.now) == 0)
			i++, now_given = 1;
		else if (strcmp(argv[i], "--no-fetch") == 0)
			no_fetch = 1;
		else if (strcmp(argv[i], "--no-send") == 0)
			no_send = 1;
		else {
			return cli_usage("run", stderr);
		}
	}
	rc = open_runner(&r, &ro, "run");
	if (rc != 0)
		return rc == 1 ? 0 : 1;
	buf_init(&err, BUF_ERRORS_MAX);
	if (!no_fetch && runner_fetch(&r, &err) < 0) {
		/* The mailbox is down: what is stored is still applied, deadlines
		 * still pass, the outbox still goes out. */
		cli_print_err("run", &err);
		status = 1;
	}
	buf_free(&err);
	if (now_given && r.stats.early > 0)
		early_mail_warning(&r);
	if (runner_idle(&r)) {
		/* Nothing new and no game due: only the outbox may have work. */
		buf_init(&err, BUF_ERRORS_MAX);
		if (!no_send && runner_send(&r, &err) < 0) {
			cli_print_err("run", &err);
			status = 1;
		}
		buf_free(&err);
	} else {
		status = finish(&r, "run", no_send, status);
	}
	if (o->verbose)
		summary(&r, stdout);
	runner_close(&r);
	return status;
}

/* ------------------------------------------------------------- game -- */

static int
game_usage(void)
{
	return cli_usage("game", stderr);
}

/* File body as the host's message, apply it and everything before it. */
/* The clock of `pouch game --now TIME` (0: the system's). */
static time_t game_now;

/* On standard error: the judge's address is the placeholder (a game
 * created or started with it cannot be played by mail). */
static void
warn_address(const struct runner *r, const char *body)
{
	struct buf w;
	const char *p = body, *end = body + strlen(body), *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		if ((n >= 7 && str_prefix_nocase(line, "NEWGAME")) ||
		    (n >= 5 && str_prefix_nocase(line, "START")))
			break;
	}
	if (line == NULL || !judge_address_placeholder(&r->conf.judge))
		return;
	buf_init(&w, 1 << 14);
	if (r->o.config)
		buf_puts(&w, r->o.config);
	else
		buf_printf(&w, "%s/pouch.conf", r->o.data);
	fprintf(stderr, "pouch game: warning: the judge's address is %s, a placeholder nobody can "
	    "write to:\npouch game: the judge's mail comes from it and nobody can answer it;\n"
	    "pouch game: set judge.address in %s (see pouch.conf(5)) before the game starts.\n",
	    r->conf.judge.address, buf_str(&w));
	buf_free(&w);
}

/* After game new: where mail to the judge goes. */
static void
say_mailbox(const struct cli_opts *o, const struct runner *r)
{
	const struct mail_config *c = &r->conf.mail;

	if (c->imap_host)
		printf("Mail to %s is read from the IMAP mailbox %s on %s.\n", r->conf.judge.address,
		    c->imap_folder ? c->imap_folder : "INBOX", c->imap_host);
	else
		printf("Mail to %s is read from the Maildir %s (its new/): deliver it there,\n"
		    "then %s run reads it.\n", r->conf.judge.address, c->maildir_in, cli_invocation(o));
}

static int
host_command(const struct cli_opts *o, const char *body)
{
	struct run_opts ro;
	struct runner r;
	struct buf err;
	int rc;

	run_opts_init(&ro, o);
	if (game_now)
		ro.now = game_now;
	rc = open_runner(&r, &ro, "game");
	if (rc != 0)
		return 1;
	buf_init(&err, BUF_ERRORS_MAX);
	rc = runner_host(&r, body, &err);
	if (rc < 0)
		cli_print_err("game", &err);
	buf_free(&err);
	rc = rc < 0 ? 1 : finish(&r, "game", 0, 0);
	if (rc == 0 && r.host_refused)
		rc = 1;		/* a command was refused (the answer says why) */
	if (rc == 0) {
		warn_address(&r, body);
		if (str_prefix_nocase(body, "NEWGAME"))
			say_mailbox(o, &r);
	}
	runner_close(&r);
	return rc;
}

/*
 * The customary arrangements of the standard game for fewer than seven
 * delegations: the powers each delegation holds, and those left out (in
 * civil disorder from the start). They are the rulebook's own, from its
 * section on fewer than seven players (Games Research 1971, kept in the
 * later editions' "alternate way to play"); the rulebook excerpt in the
 * project's seeds does not reach that section.
 */
static const struct {
	int players;
	const char *held[6];
	const char *out;
} arrangements[] = {
	{ 6, { "England", "France", "Germany", "Austria", "Russia", "Turkey" }, "Italy" },
	{ 5, { "England", "France", "Austria", "Russia", "Turkey" }, "Italy, Germany" },
	{ 4, { "England", "Austria,France", "Germany,Turkey", "Italy,Russia" }, NULL },
	{ 3, { "England,Germany,Austria", "Russia,Italy", "France,Turkey" }, NULL },
	{ 2, { "England,France,Russia", "Germany,Austria,Turkey" }, "Italy" },
};

/* Print the arrangement for n delegations in game name and what to type;
 * returns -1 when there is none. */
static int
say_arrangement(const struct cli_opts *o, const char *name, int n)
{
	size_t a;
	int k;

	for (a = 0; a < sizeof arrangements / sizeof arrangements[0]; a++) {
		if (arrangements[a].players != n)
			continue;
		printf("The usual arrangement for %d delegations:\n", n);
		for (k = 0; k < n; k++)
			printf("  %s game %s DELEGATION %s ADDRESSES\n", cli_invocation(o), name,
			    arrangements[a].held[k]);
		printf("Left out, in civil disorder from the start: %s.\n"
		    "Another arrangement is the game master's choice.\n",
		    arrangements[a].out ? arrangements[a].out : "none");
		return 0;
	}
	return -1;
}

static int
game_new(const struct cli_opts *o, int argc, char **argv)
{
	const char *name = NULL, *gm = NULL, *variant = "standard", *pw = NULL;
	struct buf body, sets;
	int i, rc, players = 7;

	buf_init(&sets, HOST_MAIL_MAX);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "--", 2) != 0) {
			if (name != NULL)
				goto usage;
			name = a;
			continue;
		}
		if (i + 1 >= argc || strchr(argv[i + 1], '\n'))
			goto usage;
		if (strcmp(a, "--gm") == 0)
			gm = argv[++i];
		else if (strcmp(a, "--variant") == 0)
			variant = argv[++i];
		else if (strcmp(a, "--password") == 0)
			pw = argv[++i];
		else if (strcmp(a, "--players") == 0) {
			players = argv[i + 1][0] >= '2' && argv[i + 1][0] <= '7' &&
			    argv[i + 1][1] == '\0' ? argv[i + 1][0] - '0' : -1;
			i++;
			if (players < 0)
				goto usage;
		} else
			buf_printf(&sets, "SET %s %s\n", a + 2, argv[++i]);
	}
	if (name == NULL || gm == NULL || strpbrk(name, " \t\n") || strpbrk(gm, " \t\n") ||
	    strpbrk(variant, " \t\n") || (pw && strpbrk(pw, " \t\n")))
		goto usage;
	if (players < 7 && strcmp(variant, "standard") != 0) {
		fprintf(stderr, "pouch game: --players is for the standard game; give the variant's "
		    "delegations with DELEGATION\n");
		buf_free(&sets);
		return 1;
	}
	buf_init(&body, HOST_MAIL_MAX);
	buf_printf(&body, "NEWGAME %s %s GM %s", name, variant, gm);
	if (pw)
		buf_printf(&body, " PASSWORD %s", pw);
	buf_printf(&body, "\n%s", buf_str(&sets));
	rc = host_command(o, buf_str(&body));
	if (rc == 0 && players < 7)
		(void)say_arrangement(o, name, players);
	buf_free(&body);
	buf_free(&sets);
	return rc;
usage:
	buf_free(&sets);
	return game_usage();
}

/* qsort: lines of game list by the game's name, their first word. */
static int
by_game_name(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t nx = strcspn(x, " "), ny = strcspn(y, " ");
	int c = strncasecmp(x, y, nx < ny ? nx : ny);

	return c != 0 ? c : (nx > ny) - (nx < ny);
}

/* Read-only: the games, without taking part in a run. */
static int
with_games(const struct cli_opts *o, const char *show)
{
	struct run_opts ro;
	struct runner r;
	struct buf text;
	char path[1100], **lines = NULL;
	int i, found = 0, nlines = 0;

	if (!cli_data_exists(o, "game"))
		return 1;
	run_opts_init(&ro, o);
	if (game_now)
		ro.now = game_now;
	ro.look_only = 1;
	snprintf(path, sizeof path, "%s/games", ro.data);
	if (show == NULL && !fs_exists(path)) {
		printf("no games in %s\n", ro.data);	/* and nothing made there */
		return 0;
	}
	if (open_runner(&r, &ro, "game") != 0)
		return 1;
	buf_init(&text, 8u << 20);
	if (runner_load(&r, &text) < 0) {
		cli_print_err("game", &text);
		buf_free(&text);
		runner_close(&r);
		return 1;
	}
	for (i = 0; i < r.j.ngames; i++) {
		const struct game *g = r.j.games[i];
		char ph[48], when[96];
		time_t grace = judge_grace_end(g, r.o.now);
		const char *wait = judge_master_wait(g, r.o.now);
		if (show == NULL) {
			char line[600];
			snprintf(line, sizeof line, "%-16s %-10s %-8s %-28s %s%s", g->name, g->set.variant,
			    game_status_name(g->status), game_stage(g, ph, sizeof ph),
			    grace ? "grace until " : "", wait ? wait : g->status == GAME_ACTIVE &&
			    g->deadline ? time_human(&r.j.io.zones, g->set.zone, grace ? grace :
			    g->deadline, when, sizeof when) : g->result);
			strv_push(&lines, &nlines, line);
			found++;
		} else if (str_eq_nocase(g->name, show)) {
			/* The game file, secrets left out. */
			const char *p, *end, *line;
			size_t n;
			buf_reset(&text);
			game_write(g, &text);
			p = buf_str(&text);
			end = p + text.len;
			while ((line = str_next_line(&p, end, &n)) != NULL) {
				if (n > 7 && (memcmp(line, "secret ", 7) == 0 || memcmp(line, "gm-secret ", 10) == 0))
					printf("%.*s (password set)\n", (int)strcspn(line, "$"), line);
				else
					printf("%.*s\n", (int)n, line);
				if (grace && n > 9 && memcmp(line, "deadline ", 9) == 0)
					printf("# the deadline passed with orders missing: grace period until %s\n",
					    time_human(&r.j.io.zones, g->set.zone, grace, when, sizeof when));
			}
			found++;
		}
	}
	for (i = 0; show == NULL && i < r.st.naside; i++, found++) {
		char line[1400];
		snprintf(line, sizeof line, "%-16s set aside: its file is damaged (%s replay --game %s)",
		    r.st.aside[i].game, cli_invocation(o), r.st.aside[i].game);
		strv_push(&lines, &nlines, line);
	}
	/* by name, whatever order the folder lists them in */
	if (nlines > 1)
		qsort(lines, (size_t)nlines, sizeof *lines, by_game_name);
	for (i = 0; i < nlines; i++)
		printf("%s\n", lines[i]);
	strv_free(lines, nlines);
	if (show == NULL && found == 0)
		printf("no games in %s\n", ro.data);
	buf_free(&text);
	if (show && !found) {
		const struct store_aside *a = store_find_aside(&r.st, show);
		if (a)
			fprintf(stderr, "pouch game: game %s is set aside, its file damaged:\n%s"
			    "(%s replay --game %s repairs it)\n", a->game, a->why, cli_invocation(o), a->game);
		else
			fprintf(stderr, "pouch game: no game %s in %s (%s game list shows its games)\n",
			    show, ro.data, cli_invocation(o));
	}
	runner_close(&r);
	return show && !found ? 1 : 0;
}

int
cli_game(const struct cli_opts *o, int argc, char **argv)
{
	struct buf body;
	int i, rc;

	/* --now TIME wherever it stands (before the game's name, as pouch(1)
	 * writes it, or after a command's words): never a command's word. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--now") != 0)
			continue;
		if (i + 1 >= argc || cli_parse_now(argv[i + 1], &game_now) < 0)
			return game_usage();
		memmove(&argv[i], &argv[i + 2], (size_t)(argc - i - 2 + 1) * sizeof *argv);
		argc -= 2;
		i--;
	}
	if (argc < 2)
		return game_usage();
	if (strcmp(argv[1], "-") == 0 && argc == 2) {
		/* A whole host message on standard input (NEWGAME or GAME lines
		 * and commands, as a GM would mail them). */
		char line[4096];
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "pouch game: type the message (NEWGAME or GAME lines, each "
			    "followed by its commands), then Ctrl-D\n");
		buf_init(&body, 1 << 20);
		while (fgets(line, sizeof line, stdin) != NULL)
			buf_puts(&body, line);
		rc = message_games_exist(o, buf_str(&body)) ? host_command(o, buf_str(&body)) : 1;
		buf_free(&body);
		return rc;
	}
	if (strcmp(argv[1], "new") == 0)
		return game_new(o, argc - 2, argv + 2);
	if (strcmp(argv[1], "list") == 0)
		return argc == 2 ? with_games(o, NULL) : game_usage();
	if (strcmp(argv[1], "show") == 0) {
		if (argc != 3)
			return game_usage();
		return game_exists(o, "game", argv[2]) ? with_games(o, argv[2]) : 1;
	}
	if (strcmp(argv[1], "process") == 0 || strcmp(argv[1], "rollback") == 0) {
		/* Shorthands for the GM's PROCESS, PREVIEW and ROLLBACK. */
		int preview = argc == 4 && strcmp(argv[3], "--preview") == 0;
		if (argc < 3 || !game_name_valid(argv[2]) || (argv[1][0] == 'p' && argc > 3 && !preview) ||
		    (argv[1][0] == 'r' && argc < 4))
			return game_usage();
		if (!game_exists(o, "game", argv[2]))
			return 1;
		buf_init(&body, HOST_MAIL_MAX);
		buf_printf(&body, "GAME %s GM\n%s", argv[2], argv[1][0] == 'r' ? "ROLLBACK" :
		    preview ? "PREVIEW" : "PROCESS");
		for (i = 3; argv[1][0] == 'r' && i < argc; i++)
			buf_printf(&body, " %s", argv[i]);
		buf_putc(&body, '\n');
		rc = host_command(o, buf_str(&body));
		buf_free(&body);
		return rc;
	}
	if (!game_name_valid(argv[1]) || argv[1][0] == '-')
		return game_usage();
	if (!game_exists(o, "game", argv[1]))
		return 1;
	buf_init(&body, 1 << 20);
	buf_printf(&body, "GAME %s GM\n", argv[1]);
	if (argc == 2) {
		/* The commands on standard input, one per line, as in a mail. */
		char line[4096];
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "pouch game: type %s's commands, one a line, then Ctrl-D "
			    "(or give one after the name: %s game %s START)\n", argv[1],
			    cli_invocation(o), argv[1]);
		while (fgets(line, sizeof line, stdin) != NULL)
			buf_puts(&body, line);
	} else {
		for (i = 2; i < argc; i++)
			buf_printf(&body, "%s%s", i > 2 ? " " : "", argv[i]);
		buf_putc(&body, '\n');
	}
	rc = host_command(o, buf_str(&body));
	buf_free(&body);
	return rc;
}

/* ----------------------------------------------------------- replay -- */

/* pouch replay --game NAME: rebuild one game of the live judge from its
 * spool, as it stood when it was set aside, and put it in place. */
static int
repair_game(const struct cli_opts *o, struct run_opts *ro, const char *game)
{
	const char *live = cli_data_dir(o);
	struct replay_repaired done;
	enum replay_repair rc;
	struct buf err;

	if (!game_name_valid(game)) {
		fprintf(stderr, "pouch replay: \"%s\" is not a game name\n", game);
		return 2;
	}
	buf_init(&err, BUF_ERRORS_MAX);
	rc = replay_repair_game(live, ro, game, &done, &err);
	if (rc == REPAIR_NO_GAME)
		fprintf(stderr, "pouch replay: the spool of %s makes no game %s (up to message %zu; "
		    "%s game list shows the games)\n", live, game, done.upto, cli_invocation(o));
	if (rc == REPAIR_DONE || rc == REPAIR_NOT_PUT)
		printf("replayed %d messages (%d from the host), up to where game %s was %s\n",
		    done.applied, done.host, game, done.set_aside ? "set aside" : "last saved");
	cli_print_err("replay", &err);
	if (rc == REPAIR_DONE)
		printf("game %s rebuilt from the spool and put in place; the next run reads the "
		    "mail kept for it\n", game);
	buf_free(&err);
	return rc == REPAIR_DONE ? 0 : 1;
}

int
cli_replay(const struct cli_opts *o, int argc, char **argv)
{
	const char *spool = NULL, *out = NULL, *game = NULL;
	char spool_default[1100], scratch[1100] = "";
	struct run_opts ro;
	struct runner r;
	int i, verify = 0, status = 0, diffs = 0, checked = 0, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--spool") == 0 && i + 1 < argc)
			spool = argv[++i];
		else if ((strcmp(argv[i], "--into") == 0 || strcmp(argv[i], "--out") == 0 ||
		    strcmp(argv[i], "--data") == 0) && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--verify") == 0)
			verify = 1;
		else if (strcmp(argv[i], "--game") == 0 && i + 1 < argc)
			game = argv[++i];
		else {
			return cli_usage("replay", stderr);
		}
	}
	if ((out == NULL && !verify && game == NULL) || (game && (out || verify || spool))) {
		return cli_usage("replay", stderr);
	}
	/* The live judge's data directory is read, never made: a replay
	 * of a directory that is not there would replay nothing. */
	if (game) {
		/* Repaired from the spool, whether its folder is there or not. */
		snprintf(spool_default, sizeof spool_default, "%s/spool", cli_data_dir(o));
		if (!fs_exists(spool_default) && !game_exists(o, "replay", game))
			return 1;
	} else if ((spool == NULL || verify) && !cli_data_exists(o, "replay"))
		return 1;
	if (spool == NULL) {
		snprintf(spool_default, sizeof spool_default, "%s/spool", cli_data_dir(o));
		spool = spool_default;
	}
	if (!fs_exists(spool)) {
		fprintf(stderr, "pouch replay: there is no spool %s%s\n", spool,
		    spool == spool_default ? " (the judge has read no mail there yet)" : "");
		return 1;
	}
	run_opts_init(&ro, o);
	ro.spool = spool;
	ro.replay = 1;
	ro.now = 0;		/* the spool's clock */
	ro.host_out = NULL;
	if (o->config == NULL) {
		/* The live judge's settings, when it has them in its folder. */
		static char conf[1100];
		snprintf(conf, sizeof conf, "%s/pouch.conf", cli_data_dir(o));
		if (fs_exists(conf)) {
			ro.config = conf;
			ro.conf_dir = cli_data_dir(o);	/* its relative paths are the live judge's */
		}
	}
	if (game)
		return repair_game(o, &ro, game);
	if (out == NULL) {	/* a check only: into a directory of its own */
		struct buf err;
		buf_init(&err, BUF_ERRORS_MAX);
		rc = replay_scratch(scratch, sizeof scratch, &err);
		cli_print_err("replay", &err);
		buf_free(&err);
		if (rc < 0)
			return 1;
		out = scratch;
	}
	ro.data = out;
	rc = open_runner(&r, &ro, "replay");
	if (rc != 0) {
		if (*scratch)
			fs_rm_rf(scratch);
		return 1;
	}
	status = finish(&r, "replay", 1, 0);
	printf("replayed %d messages (%d from the host): %d phase(s) adjudicated, %d messages made\n",
	    r.stats.applied, r.stats.host, r.stats.phases, r.stats.queued);
	if (status == 0 && verify) {
		diffs += replay_verify_games(cli_data_dir(o), out, stdout, &checked);
		diffs += replay_verify_mail(&r, cli_data_dir(o), stdout, &checked);
		printf("verify: %d files and messages compared, %d difference%s\n", checked, diffs,
		    diffs == 1 ? "" : "s");
		if (diffs)
			status = 1;
	}
	runner_close(&r);
	if (*scratch) {
		if (status == 0)
			fs_rm_rf(scratch);
		else
			printf("the replay is kept in %s\n", scratch);
	}
	return status;
}
