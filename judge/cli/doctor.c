/*
 * doctor.c — `pouch doctor`: what a teacher wants checked before the first
 * game. One line per finding:
 *
 *	ok: the judge's address is judge@school.test
 *	problem: the judge's address is judge@localhost, a placeholder: ...
 *	warning: no cron entry or systemd timer runs pouch run ...
 *
 * The exit status is 1 when any problem was found (warnings do not
 * count), 0 otherwise. The checks are a table of (name, function), run in
 * order; each looks at the data directory and settings the runner opened
 * and reports through say(). Mail is neither fetched nor sent (the
 * outgoing server is asked NOOP).
 */
#define _DEFAULT_SOURCE	/* explicit_bzero */
#include <dirent.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <curl/curl.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/tz.h"
#include "../../mailer/oauth.h"
#include "../../mailer/sink.h"
#include "../../mailer/source.h"
#include "../../spool/spool.h"
#include "cli.h"
#include "../shell/run.h"

#include <unistd.h>	/* after order.h: its R_OK macro is a reason code there */

struct doctor {
	const char *data;
	char conf[1100];	/* the settings file: --config, else DATA/pouch.conf */
	struct runner r;
	int problems, warnings;
};

enum finding { FOUND_OK, FOUND_PROBLEM, FOUND_WARNING };

/* One line: "ok: ...", "problem: ..." or "warning: ...", counted. */
static void __attribute__((format(printf, 3, 4)))
say(struct doctor *d, enum finding f, const char *fmt, ...)
{
	static const char *const word[] = { "ok", "problem", "warning" };
	va_list ap;

	d->problems += f == FOUND_PROBLEM;
	d->warnings += f == FOUND_WARNING;
	printf("%s: ", word[f]);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The first line of err, without its end (for one-line findings). */
static const char *
first_line(struct buf *err)
{
	char *s = err->data;

	if (s == NULL)
		return "";
	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* dir exists and this user may write in it (0); else -1 with why. */
static int
writable_dir(const char *dir, const char **why)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		*why = "does not exist";
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*why = "is not a directory";
		return -1;
	}
	if (access(dir, W_OK | X_OK) < 0) {
		*why = "is not writable by this user";
		return -1;
	}
	return 0;
}

/* A Maildir: DIR with new, cur and tmp, writable. */
static int
maildir_ok(const char *dir, const char **why)
{
	static const char *const sub[] = { "new", "cur", "tmp" };
	char p[1200];
	size_t i;

	if (writable_dir(dir, why) < 0)
		return -1;
	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, sub[i]);
		if (writable_dir(p, why) < 0) {
			*why = "is not a Maildir (new, cur and tmp, writable)";
			return -1;
		}
	}
	return 0;
}

/* Each line of err as a problem (the settings file's errors name FILE:LINE). */
static void
print_problems(const struct buf *err)
{
	const char *p = buf_str(err), *end = p + err->len, *line;
	size_t n;

	while ((line = str_next_line(&p, end, &n)) != NULL)
		if (n > 0)
			printf("problem: %.*s\n", (int)n, line);
}

/* The nearest directory that exists on the way to path (to create it). */
static void
nearest_existing(const char *path, char *out, size_t size)
{
	char *slash;

	str_copy(out, path, size);
	while (!fs_exists(out) && (slash = strrchr(out, '/')) != NULL) {
		if (slash == out) {
			out[1] = '\0';
			break;
		}
		*slash = '\0';
	}
}

/* A directory the judge writes in (a Maildir when maildir): ok when it is
 * there and writable, or missing and makeable by the first run (the
 * nearest existing directory above it writable); else a problem with how
 * to put it right (fix). */
static void
dir_ready(struct doctor *d, const char *what, const char *dir, int maildir, const char *fix)
{
	char up[1100];
	const char *why;

	if ((maildir ? maildir_ok(dir, &why) : writable_dir(dir, &why)) == 0) {
		say(d, FOUND_OK, "%s %s is there and writable", what, dir);
		return;
	}
	nearest_existing(dir, up, sizeof up);
	if (!fs_exists(dir) && writable_dir(up, &why) == 0)
		say(d, FOUND_OK, "%s %s will be made by the first run", what, dir);
	else
		say(d, FOUND_PROBLEM, "%s %s: %s %s (%s)", what, dir, fs_exists(dir) ? dir : up, why, fix);
}

/* ------------------------------------------------------------- checks -- */

static void
check_address(struct doctor *d)
{
	const char *a = d->r.conf.mail.judge_address;
	const char *at = a ? strrchr(a, '@') : NULL;
	const char *dom = at ? at + 1 : "";
	size_t n = strlen(dom);

	if (at == NULL || at == a || n == 0) {
		say(d, FOUND_PROBLEM, "the judge's address \"%s\" is not a mail address: set judge.address in "
		    "%s", a ? a : "", d->conf);
	} else if (str_eq_nocase(dom, "localhost") || strchr(dom, '.') == NULL ||
	    str_eq_nocase(dom, "example.org") || str_eq_nocase(dom, "example.com") ||
	    str_eq_nocase(dom, "example.net") || (n > 8 && str_eq_nocase(dom + n - 8, ".example")) ||
	    (n > 8 && str_eq_nocase(dom + n - 8, ".invalid"))) {
		say(d, FOUND_PROBLEM, "the judge's address is %s, a placeholder: players cannot write to it "
		    "(set judge.address in %s)", a, d->conf);
	} else {
		say(d, FOUND_OK, "the judge's address is %s", a);
	}
}

static void
check_mailbox(struct doctor *d)
{
	const struct mail_config *c = &d->r.conf.mail;
	struct mail_source *s;
	struct buf err;

	if (c->imap_host == NULL) {
		dir_ready(d, "the inbox Maildir", c->maildir_in, 1, "or set imap.host");
		return;
	}
	buf_init(&err, 4096);
	s = source_imap_new(c);
	if (source_open(s, &err) < 0)
		say(d, FOUND_PROBLEM, "the mailbox %s: %s", s->name, first_line(&err));
	else
		say(d, FOUND_OK, "the mailbox %s answers and accepts the login%s", s->name,
		    c->imap_tls == MAIL_TLS_NONE ? "" : " (TLS, certificate verified)");
	source_free(s);
	buf_free(&err);
	if (c->imap_tls == MAIL_TLS_NONE)
		say(d, FOUND_WARNING, "imap.tls = none: the password crosses the network unencrypted");
}

static void
check_outgoing(struct doctor *d)
{
	const struct mail_config *c = &d->r.conf.mail;
	struct buf err;

	if (c->smtp_url == NULL) {
		dir_ready(d, "the outgoing mail directory", c->maildir_out, 0, "or set smtp.url");
		return;
	}
	buf_init(&err, 4096);
	if (sink_smtp_check(c, &err) < 0)
		say(d, FOUND_PROBLEM, "the outgoing server: %s", first_line(&err));
	else
		say(d, FOUND_OK, "the outgoing server %s answers%s%s", c->smtp_url,
		    c->smtp_user ? " and accepts the login" : "",
		    c->smtp_tls == MAIL_TLS_NONE && strncmp(c->smtp_url, "smtps:", 6) != 0 ? "" :
		    " (TLS, certificate verified)");
	buf_free(&err);
	if (c->smtp_tls == MAIL_TLS_NONE && strncmp(c->smtp_url, "smtps:", 6) != 0)
		say(d, FOUND_WARNING, "smtp.tls = none: mail and password cross the network unencrypted");
}

/* One server's OAuth 2.0 sign-in: a new access token from the refresh
 * token (so a revoked or expired one is found now, not at a deadline). */
static void
oauth_signin(struct doctor *d, const char *server, const struct oauth_settings *o)
{
	struct buf err;
	char *tok;
	long left = 0;

	if (o->mech == OAUTH_NONE)
		return;
	buf_init(&err, 4096);
	tok = oauth_access_token(o, d->r.conf.mail.data_dir, true, &left, &err);
	if (tok == NULL) {
		say(d, FOUND_PROBLEM, "the %s sign-in (OAuth 2.0): %s", server, first_line(&err));
	} else {
		say(d, FOUND_OK, "the %s sign-in (OAuth 2.0): the refresh token gives an access "
		    "token for %ld minutes", server, left / 60);
		explicit_bzero(tok, strlen(tok));
		free(tok);
	}
	buf_free(&err);
}

static void
check_signin(struct doctor *d)
{
	oauth_signin(d, "mailbox", &d->r.conf.mail.imap_oauth);
	oauth_signin(d, "outgoing server", &d->r.conf.mail.smtp_oauth);
}

static size_t
probe_write(char *data, size_t size, size_t nmemb, void *arg)
{
	struct buf *b = arg;

	buf_append(b, data, size * nmemb);	/* capped: the rest is dropped */
	return size * nmemb;
}

/*
 * Are the pages in dir what url serves? A test file written into dir is
 * read back from url (libcurl, TLS verified, 10 seconds) and removed. Not
 * found there, or not the same: a problem; the server not reached: a
 * warning (it may answer only outside this machine).
 */
static void
probe_pages(struct doctor *d, const char *url, const char *dir)
{
	char name[64], path[1200], link[1200], token[64], errbuf[CURL_ERROR_SIZE] = "";
	struct buf got;
	CURLcode rc;
	CURL *h;

	snprintf(name, sizeof name, "pouch-doctor-%ld.txt", (long)getpid());
	snprintf(path, sizeof path, "%s/%s", dir, name);
	snprintf(link, sizeof link, "%s/%s", url, name);
	snprintf(token, sizeof token, "pouch doctor %ld %ld\n", (long)getpid(), (long)time(NULL));
	if (fs_write_atomic(path, token, strlen(token)) < 0) {
		say(d, FOUND_PROBLEM, "cannot write a test file into the pages directory %s", dir);
		return;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || (h = curl_easy_init()) == NULL) {
		say(d, FOUND_WARNING, "libcurl cannot be initialised: %s not tried", url);
		remove(path);
		return;
	}
	buf_init(&got, 4096);
	curl_easy_setopt(h, CURLOPT_URL, link);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 10L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, probe_write);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &got);
	rc = curl_easy_perform(h);
	if (rc == CURLE_OK && strcmp(buf_str(&got), token) == 0)
		say(d, FOUND_OK, "%s serves %s (a test file written there was read back)", url, dir);
	else if (rc == CURLE_OK || rc == CURLE_HTTP_RETURNED_ERROR ||
	    rc == CURLE_FILE_COULDNT_READ_FILE || rc == CURLE_REMOTE_FILE_NOT_FOUND)
		say(d, FOUND_PROBLEM, "%s does not serve %s: a test file written there was %s at %s",
		    url, dir, rc == CURLE_OK ? "something else" : "not found", link);
	else
		say(d, FOUND_WARNING, "could not read %s back (%s): check that the web server "
		    "serves %s there", link, errbuf[0] ? errbuf : curl_easy_strerror(rc), dir);
	curl_easy_cleanup(h);
	curl_global_cleanup();
	buf_free(&got);
	remove(path);
}

static void
check_pages(struct doctor *d)
{
	const char *url = d->r.conf.judge.base_url, *dir = d->r.conf.pages, *why;
	int set_dir = d->r.conf.pages_set, set_url = url[0] != '\0';

	/* judge.pages has a default (pouch.conf(5)): a base URL alone is
	 * right when it serves that directory, which the probe finds out. */
	if (set_url && !set_dir)
		say(d, FOUND_OK, "the map pages are written to %s (judge.pages not set: the default), "
		    "linked at %s", dir, url);
	else if (!set_url && set_dir)
		say(d, FOUND_PROBLEM, "judge.pages is %s but judge.base_url is not set: reports "
		    "carry no link to the maps (set judge.base_url to the address that serves %s)",
		    dir, dir);
	else if (!set_url)
		say(d, FOUND_OK, "the map pages are written to %s; reports carry no link "
		    "(judge.base_url and judge.pages not set)", dir);
	dir_ready(d, "the pages directory", dir, 0, "or set judge.pages");
	if (set_url && writable_dir(dir, &why) == 0)
		probe_pages(d, url, dir);
}

/* A line of a crontab that runs pouch run (not a comment). */
static int
cron_line(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return *line != '#' && strstr(line, "pouch") != NULL && strstr(line, " run") != NULL;
}

/* What a cron line that runs pouch run names: its --data and --config
 * ("" when it gives none) and, in /etc/cron.d, the user it runs as. */
struct cron_entry {
	char data[1024], config[1024], user[64];
};

/* The word after option opt in line ("" when none), into out. */
static void
cron_option(const char *line, const char *opt, char *out, size_t size)
{
	const char *p = strstr(line, opt);
	size_t n;

	out[0] = '\0';
	if (p == NULL)
		return;
	p += strlen(opt);
	p += strspn(p, " \t=");
	n = strcspn(p, " \t\r\n");
	if (n < size) {
		memcpy(out, p, n);
		out[n] = '\0';
	}
}

/* Whether file (or a command's output, when cmd) has a line that runs
 * pouch run: 1, with what it names in *ce, else 0. A file of
 * /etc/cron.d (with_user) names the user after the time (five fields, or
 * one @word). */
static int
cron_in(const char *path, int cmd, int with_user, struct cron_entry *ce)
{
	char line[2048];
	FILE *f = cmd ? popen(path, "r") : fopen(path, "r");
	int found = 0;

	if (f == NULL)
		return 0;
	while (!found && fgets(line, sizeof line, f) != NULL)
		found = cron_line(line);
	if (cmd)
		pclose(f);
	else
		fclose(f);
	memset(ce, 0, sizeof *ce);
	if (!found)
		return 0;
	cron_option(line, "--data", ce->data, sizeof ce->data);
	cron_option(line, "--config", ce->config, sizeof ce->config);
	if (with_user) {
		const char *p = line + strspn(line, " \t");
		int skip = *p == '@' ? 1 : 5;
		size_t n;
		while (skip-- > 0) {
			p += strcspn(p, " \t");
			p += strspn(p, " \t");
		}
		n = strcspn(p, " \t\r\n");
		if (n < sizeof ce->user) {
			memcpy(ce->user, p, n);
			ce->user[n] = '\0';
		}
	}
	return 1;
}

/* Whether paths a and b name the same file (both resolved when there). */
static int
same_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (realpath(a, ra) && realpath(b, rb))
		return strcmp(ra, rb) == 0;
	return strcmp(a, b) == 0;
}

/* A cron entry found in where: ok, or a warning when it runs the judge on
 * another data directory, with other settings, or as a user who does not
 * own the data directory. */
static void
cron_found(struct doctor *d, const char *where, const struct cron_entry *ce)
{
	char conf[1100];
	struct passwd *pw;
	struct stat st;

	if (ce->data[0] && !same_path(ce->data, d->data)) {
		say(d, FOUND_WARNING, "%s runs pouch run on %s, not on %s", where, ce->data, d->data);
		return;
	}
	if (ce->config[0])
		str_copy(conf, ce->config, sizeof conf);
	else
		snprintf(conf, sizeof conf, "%s/pouch.conf", d->data);
	if (!same_path(conf, d->conf)) {
		say(d, FOUND_WARNING, "%s runs pouch run with the settings %s%s, not %s: give it "
		    "the same --config as the commands you type", where, conf,
		    fs_exists(conf) ? "" : " (not there: every run fails)", d->conf);
		return;
	}
	if (ce->user[0] && strcmp(ce->user, "root") != 0 && stat(d->data, &st) == 0) {
		pw = getpwnam(ce->user);
		if (pw == NULL) {
			say(d, FOUND_WARNING, "%s runs pouch run as %s, a user this machine does not have",
			    where, ce->user);
			return;
		}
		if (pw->pw_uid != st.st_uid) {
			say(d, FOUND_WARNING, "%s runs pouch run as %s, but %s is not theirs: the runs "
			    "cannot write there (chown -R %s %s)", where, ce->user, d->data, ce->user,
			    d->data);
			return;
		}
	}
	say(d, FOUND_OK, "%s runs pouch run", where);
}

static void
check_cron(struct doctor *d)
{
	char path[1200], line[64] = "";
	struct cron_entry ce;
	struct dirent *e;
	DIR *dir;
	FILE *f;

	if ((dir = opendir("/etc/cron.d")) != NULL) {
		while ((e = readdir(dir)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "/etc/cron.d/%s", e->d_name);
			if (cron_in(path, 0, 1, &ce)) {
				closedir(dir);
				cron_found(d, path, &ce);
				return;
			}
		}
		closedir(dir);
	}
	if (cron_in("crontab -l 2>/dev/null", 1, 0, &ce)) {
		cron_found(d, "this user's crontab", &ce);
		return;
	}
	if ((f = popen("systemctl is-enabled pouch.timer 2>/dev/null", "r")) != NULL) {
		if (fgets(line, sizeof line, f) == NULL)
			line[0] = '\0';
		pclose(f);
	}
	if (strncmp(line, "enabled", 7) == 0) {
		say(d, FOUND_OK, "the systemd timer pouch.timer is enabled");
		return;
	}
	say(d, FOUND_WARNING, "found no cron entry (/etc/cron.d, crontab -l) or enabled pouch.timer that "
	    "runs pouch run: without one no mail is read and no deadline passes (see "
	    "contrib/cron/pouch and contrib/systemd/)");
}

static void
check_clock(struct doctor *d)
{
	time_t now = time(NULL), last = d->r.sp ? spool_clock(d->r.sp) : 0;
	char a[40], b[40];

	if (last > now + 60)
		say(d, FOUND_PROBLEM, "the system clock (%s) is before the judge's last run (%s): set the clock "
		    "right (NTP) before the next run", time_rfc3339(now, a, sizeof a),
		    time_rfc3339(last, b, sizeof b));
	else
		say(d, FOUND_OK, "the system clock (%s) is after the judge's last run%s",
		    time_rfc3339(now, a, sizeof a), last ? "" : " (none yet)");
}

static void
check_zones(struct doctor *d)
{
	int k, bad = 0;

	for (k = 0; k < d->r.j.ngames; k++) {
		const struct game *g = d->r.j.games[k];
		if (!tz_valid(&d->r.j.io.zones, g->set.zone)) {
			say(d, FOUND_PROBLEM, "game %s: its zone \"%s\" is not known to this machine's tzdata",
			    g->name, g->set.zone);
			bad++;
		}
	}
	if (!bad)
		say(d, FOUND_OK, "%d game%s, every zone known to tzdata", d->r.j.ngames,
		    d->r.j.ngames == 1 ? "" : "s");
}

/* The checks, in order. One can be added with a name and a function. */
static const struct check {
	const char *name;
	void (*fn)(struct doctor *d);
} checks[] = {
	{ "address", check_address },
	{ "signin", check_signin },
	{ "mailbox", check_mailbox },
	{ "outgoing", check_outgoing },
	{ "pages", check_pages },
	{ "cron", check_cron },
	{ "clock", check_clock },
	{ "zones", check_zones },
};

int
cli_doctor(const struct cli_opts *o, int argc, char **argv)
{
	struct run_opts ro;
	struct doctor d;
	struct buf err;
	char spool[1100];
	size_t i;
	int rc, fresh = 0;

	(void)argv;
	if (argc != 1)
		return cli_usage("doctor", stderr);
	memset(&d, 0, sizeof d);
	d.data = cli_data_dir(o);
	if (o->config)
		str_copy(d.conf, o->config, sizeof d.conf);
	else
		snprintf(d.conf, sizeof d.conf, "%s/pouch.conf", d.data);
	if (!fs_exists(d.data)) {
		printf("problem: the data directory %s does not exist (%s game new makes it; "
		    "--data DIR chooses another)\n", d.data, cli_invocation(o));
		return 1;
	}
	memset(&ro, 0, sizeof ro);
	ro.data = d.data;
	ro.config = o->config;
	ro.maps = o->maps_dir;
	ro.now = time(NULL);
	ro.wait_ms = 10000;
	ro.look_only = 1;
	buf_init(&err, BUF_ERRORS_MAX);
	snprintf(spool, sizeof spool, "%s/spool", d.data);
	if (!fs_exists(spool)) {
		/* No run or game yet: the settings alone, and nothing made
		 * (the runner would make the spool, its key, the outbox). */
		fresh = 1;
		rc = conf_load(&d.r.conf, o->config, d.data, &err) < 0 ? -1 : 0;
	} else {
		rc = runner_open(&d.r, &ro, &err);
		if (rc == 0)
			rc = runner_load(&d.r, &err);
	}
	if (rc != 0) {
		if (rc == 1)
			printf("problem: another pouch is working on %s; try again\n", d.data);
		else
			print_problems(&err);
		buf_free(&err);
		if (fresh)
			conf_free(&d.r.conf);
		else
			runner_close(&d.r);
		return 1;
	}
	buf_free(&err);
	for (i = 0; i < sizeof checks / sizeof checks[0]; i++)
		checks[i].fn(&d);
	if (fresh)
		conf_free(&d.r.conf);
	else
		runner_close(&d.r);
	printf("%d problem%s, %d warning%s\n", d.problems, d.problems == 1 ? "" : "s", d.warnings,
	    d.warnings == 1 ? "" : "s");
	return d.problems ? 1 : 0;
}
