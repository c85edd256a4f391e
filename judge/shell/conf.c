#define _DEFAULT_SOURCE
#include "conf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fsio.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../secret.h"
#include "entropy.h"

/* dir/path when path is relative. */
static void
data_path(const char *data, const char *path, char *out, size_t size)
{
	if (path[0] == '/')
		str_copy(out, path, size);
	else
		snprintf(out, size, "%s/%s", data, path);
}

static int
judge_key(void *arg, const char *key, const char *value, const char *file, int line,
    struct buf *err)
{
	struct pouch_conf *c = arg;
	const char *data = c->mail.data_dir;
	long n;

	if (strcmp(key, "judge.base_url") == 0) {
		size_t k = strlen(value);
		if (k >= sizeof c->judge.base_url || strstr(value, "://") == NULL ||
		    strpbrk(value, " \t\"<>") != NULL) {
			buf_printf(err, "%s:%d: judge.base_url: give a URL such as "
			    "https://example.org/maps\n", file, line);
			return -1;
		}
		str_copy(c->judge.base_url, value, sizeof c->judge.base_url);
		/* Without the trailing slash: links are BASE/GAME/NNNN.html. */
		while (k > 0 && c->judge.base_url[k - 1] == '/')
			c->judge.base_url[--k] = '\0';
	} else if (strcmp(key, "judge.pages") == 0) {
		data_path(data, value, c->pages, sizeof c->pages);
		c->pages_set = true;
	} else if (strcmp(key, "judge.create_key_file") == 0) {
		data_path(data, value, c->create_key_file, sizeof c->create_key_file);
	} else if (strcmp(key, "judge.reply_limit") == 0) {
		if (str_to_long(value, 1, 100000, &n) < 0) {
			buf_printf(err, "%s:%d: judge.reply_limit: a number from 1 to 100000\n", file, line);
			return -1;
		}
		c->judge.reply_limit = (int)n;
	} else {
		buf_printf(err, "%s:%d: unknown setting \"%s\" (see pouch.conf(5))\n", file, line, key);
		return -1;
	}
	return 0;
}

/* Hash the creation key so that the judge keeps no copy of it. */
static int
load_create_key(struct pouch_conf *c, struct buf *err)
{
	unsigned char r[16];
	char *key;
	int rc = 0;

	if (c->create_key_file[0] == '\0')
		return 0;
	key = mail_read_password(c->create_key_file, err);
	if (key == NULL)
		return -1;
	if (strlen(key) < 8) {
		buf_printf(err, "%s: a creation key needs at least 8 characters\n", c->create_key_file);
		rc = -1;
	} else if (entropy_read(r) < 0 ||
	    secret_hash(key, r, c->judge.create_key, sizeof c->judge.create_key) < 0) {
		buf_printf(err, "%s: cannot hash the creation key\n", c->create_key_file);
		rc = -1;
	}
	explicit_bzero(key, strlen(key));
	free(key);
	return rc;
}

int
conf_load(struct pouch_conf *c, const char *path, const char *data, struct buf *err)
{
	int rc = 0;

	memset(c, 0, sizeof *c);
	mail_config_init(&c->mail, data);
	c->judge.reply_limit = 30;
	data_path(data, "pages", c->pages, sizeof c->pages);
	if (path == NULL) {
		char def[1100];
		snprintf(def, sizeof def, "%s/pouch.conf", data);
		if (fs_exists(def))
			rc = mail_config_read(&c->mail, def, judge_key, c, err);
	} else {
		rc = mail_config_read(&c->mail, path, judge_key, c, err);
	}
	str_copy(c->judge.address, c->mail.judge_address, sizeof c->judge.address);
	str_copy(c->judge.name, c->mail.judge_name, sizeof c->judge.name);
	str_copy(c->judge.domain, mail_config_domain(&c->mail), sizeof c->judge.domain);
	if (rc == 0)
		rc = load_create_key(c, err);
	return rc;
}

void
conf_free(struct pouch_conf *c)
{
	mail_config_free(&c->mail);
	explicit_bzero(c->judge.create_key, sizeof c->judge.create_key);
}

void
conf_settings_write(const struct pouch_conf *c, struct buf *out)
{
	buf_printf(out, "address=%s\nname=%s\ndomain=%s\nbase_url=%s\nreply_limit=%d\n",
	    c->judge.address, c->judge.name, c->judge.domain, c->judge.base_url,
	    c->judge.reply_limit);
}

void
conf_settings_apply(struct pouch_conf *c, const char *text)
{
	const char *p = text, *end = text + strlen(text), *line;
	size_t n;
	long v;

	while ((line = str_next_line(&p, end, &n)) != NULL) {
		const char *eq = memchr(line, '=', n);
		char key[16], val[1024];
		if (eq == NULL || (size_t)(eq - line) >= sizeof key)
			continue;
		snprintf(key, sizeof key, "%.*s", (int)(eq - line), line);
		snprintf(val, sizeof val, "%.*s", (int)(line + n - eq - 1), eq + 1);
		if (strcmp(key, "address") == 0) {
			free(c->mail.judge_address);
			c->mail.judge_address = xstrdup(val);
			str_copy(c->judge.address, val, sizeof c->judge.address);
		} else if (strcmp(key, "name") == 0) {
			free(c->mail.judge_name);
			c->mail.judge_name = xstrdup(val);
			str_copy(c->judge.name, val, sizeof c->judge.name);
		} else if (strcmp(key, "domain") == 0) {
			free(c->mail.judge_domain);
			c->mail.judge_domain = xstrdup(val);
			str_copy(c->judge.domain, val, sizeof c->judge.domain);
		} else if (strcmp(key, "base_url") == 0) {
			str_copy(c->judge.base_url, val, sizeof c->judge.base_url);
		} else if (strcmp(key, "reply_limit") == 0 && str_to_long(val, 1, 100000, &v) == 0) {
			c->judge.reply_limit = (int)v;
		}
	}
}
