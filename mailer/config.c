/*
 * config.c — reading the mail keys of pouch.conf.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "address.h"
#include "mime.h"

#define CONFIG_MAX (1024 * 1024)

/* path, or dir/path when path is relative. New string. */
static char *
join(const char *dir, const char *path)
{
	if (path[0] == '/' || dir == NULL || strcmp(dir, ".") == 0)
		return xstrdup(path);
	return xasprintf("%s/%s", dir, path);
}

static void
set(char **field, const char *value)
{
	free(*field);
	*field = value ? xstrdup(value) : NULL;
}

void
mail_config_init(struct mail_config *c, const char *data_dir)
{
	memset(c, 0, sizeof *c);
	c->imap_tls = MAIL_TLS_STARTTLS;
	c->imap_folder = xstrdup("INBOX");
	c->imap_after = IMAP_AFTER_SEEN;
	c->imap_auth = IMAP_AUTH_LOGIN;
	c->imap_timeout = 60;
	c->smtp_tls = MAIL_TLS_STARTTLS;
	c->smtp_timeout = 60;
	c->smtp_connections = 4;
	c->maildir_in = join(data_dir, "mail/inbox");
	c->maildir_out = join(data_dir, "mail/out");
	c->judge_address = xstrdup("judge@localhost");
	c->judge_name = xstrdup("pouch judge");
	c->max_size = MIME_DEFAULT_MAX_RAW;
	c->max_lines = MIME_DEFAULT_MAX_LINES;
	c->data_dir = xstrdup(data_dir ? data_dir : ".");
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void
oauth_settings_copy(struct oauth_settings *dst, const struct oauth_settings *src)
{
	dst->mech = src->mech;
	dst->token_url = dup_or_null(src->token_url);
	dst->client_id = dup_or_null(src->client_id);
	dst->client_secret_file = dup_or_null(src->client_secret_file);
	dst->refresh_token_file = dup_or_null(src->refresh_token_file);
	dst->cafile = dup_or_null(src->cafile);
}

void
oauth_settings_free(struct oauth_settings *o)
{
	free(o->token_url);
	free(o->client_id);
	free(o->client_secret_file);
	free(o->refresh_token_file);
	free(o->cafile);
	memset(o, 0, sizeof *o);
}

void
mail_config_free(struct mail_config *c)
{
	if (c == NULL)
		return;
	oauth_settings_free(&c->imap_oauth);
	oauth_settings_free(&c->smtp_oauth);
	free(c->imap_host);
	free(c->imap_user);
	free(c->imap_password_file);
	free(c->imap_folder);
	free(c->imap_cafile);
	free(c->smtp_url);
	free(c->smtp_user);
	free(c->smtp_password_file);
	free(c->smtp_cafile);
	free(c->maildir_in);
	free(c->maildir_out);
	free(c->judge_address);
	free(c->judge_name);
	free(c->judge_domain);
	free(c->data_dir);
	memset(c, 0, sizeof *c);
}

const char *
mail_config_domain(const struct mail_config *c)
{
	const char *at;

	if (c->judge_domain && *c->judge_domain)
		return c->judge_domain;
	at = c->judge_address ? strrchr(c->judge_address, '@') : NULL;
	return at ? at + 1 : "localhost";
}

enum kind { K_STR, K_PATH, K_INT, K_SIZE, K_TLS, K_AFTER, K_AUTH, K_SMTP_AUTH, K_ADDR };

struct key {
	const char *name;
	enum kind kind;
	size_t off;		/* offset of the field in struct mail_config */
	long min, max;		/* K_INT / K_SIZE */
};

#define F(field) offsetof(struct mail_config, field)
static const struct key keys[] = {
	{ "imap.host", K_STR, F(imap_host), 0, 0 },
	{ "imap.port", K_INT, F(imap_port), 1, 65535 },
	{ "imap.tls", K_TLS, F(imap_tls), 0, 0 },
	{ "imap.user", K_STR, F(imap_user), 0, 0 },
	{ "imap.password_file", K_PATH, F(imap_password_file), 0, 0 },
	{ "imap.folder", K_STR, F(imap_folder), 0, 0 },
	{ "imap.cafile", K_PATH, F(imap_cafile), 0, 0 },
	{ "imap.after", K_AFTER, F(imap_after), 0, 0 },
	{ "imap.auth", K_AUTH, F(imap_auth), 0, 0 },
	{ "imap.timeout", K_INT, F(imap_timeout), 1, 3600 },
	{ "imap.token_url", K_STR, F(imap_oauth.token_url), 0, 0 },
	{ "imap.client_id", K_STR, F(imap_oauth.client_id), 0, 0 },
	{ "imap.client_secret_file", K_PATH, F(imap_oauth.client_secret_file), 0, 0 },
	{ "imap.refresh_token_file", K_PATH, F(imap_oauth.refresh_token_file), 0, 0 },
	{ "imap.token_cafile", K_PATH, F(imap_oauth.cafile), 0, 0 },
	{ "smtp.url", K_STR, F(smtp_url), 0, 0 },
	{ "smtp.tls", K_TLS, F(smtp_tls), 0, 0 },
	{ "smtp.user", K_STR, F(smtp_user), 0, 0 },
	{ "smtp.password_file", K_PATH, F(smtp_password_file), 0, 0 },
	{ "smtp.cafile", K_PATH, F(smtp_cafile), 0, 0 },
	{ "smtp.timeout", K_INT, F(smtp_timeout), 1, 3600 },
	{ "smtp.connections", K_INT, F(smtp_connections), 1, 16 },
	{ "smtp.auth", K_SMTP_AUTH, F(smtp_oauth.mech), 0, 0 },
	{ "smtp.token_url", K_STR, F(smtp_oauth.token_url), 0, 0 },
	{ "smtp.client_id", K_STR, F(smtp_oauth.client_id), 0, 0 },
	{ "smtp.client_secret_file", K_PATH, F(smtp_oauth.client_secret_file), 0, 0 },
	{ "smtp.refresh_token_file", K_PATH, F(smtp_oauth.refresh_token_file), 0, 0 },
	{ "smtp.token_cafile", K_PATH, F(smtp_oauth.cafile), 0, 0 },
	{ "maildir.in", K_PATH, F(maildir_in), 0, 0 },
	{ "maildir.out", K_PATH, F(maildir_out), 0, 0 },
	{ "judge.address", K_ADDR, F(judge_address), 0, 0 },
	{ "judge.name", K_STR, F(judge_name), 0, 0 },
	{ "judge.domain", K_STR, F(judge_domain), 0, 0 },
	{ "mail.max_size", K_SIZE, F(max_size), 1024, 256L * 1024 * 1024 },
	{ "mail.max_lines", K_INT, F(max_lines), 1, 1000000 },
};
#undef F

/* Apply one mail key. Returns 0, or -1 with the reason in why. */
static int
apply(struct mail_config *c, const struct key *k, const char *v, const char **why)
{
	char *base = (char *)c + k->off;
	long n;

	switch (k->kind) {
	case K_STR:
		set((char **)(void *)base, *v ? v : NULL);
		return 0;
	case K_PATH:
		free(*(char **)(void *)base);
		*(char **)(void *)base = *v ? join(c->data_dir, v) : NULL;
		return 0;
	case K_ADDR:
		if (!addr_valid(v)) {
			*why = "is not a valid address (local@domain)";
			return -1;
		}
		set((char **)(void *)base, v);
		str_lower(*(char **)(void *)base);
		return 0;
	case K_INT:
	case K_SIZE:
		if (str_to_long(v, k->min, k->max, &n) < 0) {
			*why = "is not a number in range";
			return -1;
		}
		if (k->kind == K_INT)
			*(int *)(void *)base = (int)n;
		else
			*(size_t *)(void *)base = (size_t)n;
		return 0;
	case K_TLS:
		if (strcmp(v, "none") == 0)
			*(enum mail_tls *)(void *)base = MAIL_TLS_NONE;
		else if (strcmp(v, "starttls") == 0)
			*(enum mail_tls *)(void *)base = MAIL_TLS_STARTTLS;
		else if (strcmp(v, "imaps") == 0 && k->off == offsetof(struct mail_config, imap_tls))
			*(enum mail_tls *)(void *)base = MAIL_TLS_IMPLICIT;
		else {
			*why = k->off == offsetof(struct mail_config, imap_tls) ?
			    "must be none, starttls or imaps" :
			    "must be none or starttls (use an smtps:// URL for implicit TLS)";
			return -1;
		}
		return 0;
	case K_AFTER:
		if (strcmp(v, "seen") == 0)
			c->imap_after = IMAP_AFTER_SEEN;
		else if (strcmp(v, "delete") == 0)
			c->imap_after = IMAP_AFTER_DELETE;
		else {
			*why = "must be seen or delete";
			return -1;
		}
		return 0;
	case K_AUTH:
		c->imap_oauth.mech = OAUTH_NONE;
		if (strcmp(v, "login") == 0 || strcmp(v, "password") == 0)
			c->imap_auth = IMAP_AUTH_LOGIN;
		else if (strcmp(v, "plain") == 0)
			c->imap_auth = IMAP_AUTH_PLAIN;
		else if (strcmp(v, "xoauth2") == 0)
			c->imap_oauth.mech = OAUTH_XOAUTH2;
		else if (strcmp(v, "oauthbearer") == 0)
			c->imap_oauth.mech = OAUTH_OAUTHBEARER;
		else {
			*why = "must be login, password, plain, xoauth2 or oauthbearer";
			return -1;
		}
		return 0;
	case K_SMTP_AUTH:
		if (strcmp(v, "password") == 0)
			c->smtp_oauth.mech = OAUTH_NONE;
		else if (strcmp(v, "xoauth2") == 0)
			c->smtp_oauth.mech = OAUTH_XOAUTH2;
		else if (strcmp(v, "oauthbearer") == 0)
			c->smtp_oauth.mech = OAUTH_OAUTHBEARER;
		else {
			*why = "must be password, xoauth2 or oauthbearer";
			return -1;
		}
		return 0;
	}
	return -1;
}

/* What an OAuth sign-in needs, once the whole file is read. Returns the
 * number of problems (each appended to err). */
static int
check_oauth(const struct oauth_settings *o, const char *p, const char *user, const char *name,
    struct buf *err)
{
	int bad = 0;

	if (o->mech == OAUTH_NONE)
		return 0;
	if (user == NULL || o->token_url == NULL || o->client_id == NULL ||
	    o->refresh_token_file == NULL) {
		buf_printf(err, "%s: %s.auth = %s needs %s.user, %s.token_url, %s.client_id and "
		    "%s.refresh_token_file (pouch oauth login prints them)\n", name, p,
		    o->mech == OAUTH_XOAUTH2 ? "xoauth2" : "oauthbearer", p, p, p, p);
		bad++;
	}
	if (o->token_url != NULL && !str_prefix_nocase(o->token_url, "https://")) {
		buf_printf(err, "%s: %s.token_url must be an https:// URL\n", name, p);
		bad++;
	}
	return bad;
}

int
mail_config_parse(struct mail_config *c, const char *text, size_t len, const char *name,
    config_key_fn fn, void *arg, struct buf *err)
{
	const char *p = text, *end = text + len, *line;
	size_t n;
	int lineno = 0, bad = 0;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char *copy = xstrndup(line, n), *t = str_trim(copy), *eq, *key, *val;
		size_t i;

		lineno++;
		if (*t == '\0' || *t == '#') {
			free(copy);
			continue;
		}
		eq = strchr(t, '=');
		if (eq == NULL) {
			buf_printf(err, "%s:%d: expected \"key = value\"\n", name, lineno);
			bad++;
			free(copy);
			continue;
		}
		*eq = '\0';
		key = str_trim(t);
		val = str_trim(eq + 1);
		for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
			if (strcmp(keys[i].name, key) == 0)
				break;
		if (i < sizeof keys / sizeof keys[0]) {
			const char *why = NULL;
			if (apply(c, &keys[i], val, &why) < 0) {
				/* the value itself is not echoed: it might be a secret typed in the wrong key */
				buf_printf(err, "%s:%d: %s %s\n", name, lineno, key, why);
				bad++;
			}
		} else if (fn != NULL) {
			if (fn(arg, key, val, name, lineno, err) < 0)
				bad++;
		} else {
			buf_printf(err, "%s:%d: unknown key \"%s\"\n", name, lineno, key);
			bad++;
		}
		free(copy);
	}
	bad += check_oauth(&c->imap_oauth, "imap", c->imap_user, name, err);
	bad += check_oauth(&c->smtp_oauth, "smtp", c->smtp_user, name, err);
	return bad ? -1 : 0;
}

int
mail_config_read(struct mail_config *c, const char *path, config_key_fn fn, void *arg,
    struct buf *err)
{
	struct buf text;
	int r;

	buf_init(&text, CONFIG_MAX);
	if (fs_read_file(path, &text) < 0) {
		buf_printf(err, "%s: cannot read: %s\n", path, strerror(errno));
		buf_free(&text);
		return -1;
	}
	r = mail_config_parse(c, buf_str(&text), text.len, path, fn, arg, err);
	buf_free(&text);
	return r;
}

/* The first line of the file path ("password file", "secret file"); with
 * strict, refused when group or others have any access to it. */
static char *
read_first_line(const char *path, const char *what, bool strict, struct buf *err)
{
	struct buf b;
	struct stat st;
	char *nl, *pw;

	if (path == NULL) {
		buf_printf(err, "no %s configured\n", what);
		return NULL;
	}
	if (strict && stat(path, &st) == 0 && (st.st_mode & 0077) != 0) {
		buf_printf(err, "%s %s: other users may read it: refused (chmod 600 %s)\n", what, path,
		    path);
		return NULL;
	}
	buf_init(&b, 16384);
	if (fs_read_file(path, &b) < 0) {
		buf_printf(err, "%s %s: cannot read: %s\n", what, path, strerror(errno));
		buf_free(&b);
		return NULL;
	}
	if (!strict && stat(path, &st) == 0 && (st.st_mode & 0077) != 0)
		log_warn("%s %s can be read by other users (chmod 600 it)", what, path);
	pw = buf_take(&b);
	nl = strpbrk(pw, "\r\n");
	if (nl != NULL)
		*nl = '\0';
	if (*pw == '\0') {
		buf_printf(err, "%s %s: empty first line\n", what, path);
		free(pw);
		return NULL;
	}
	return pw;
}

char *
mail_read_password(const char *path, struct buf *err)
{
	return read_first_line(path, "password file", false, err);
}

char *
mail_read_secret(const char *path, struct buf *err)
{
	return read_first_line(path, "secret file", true, err);
}
