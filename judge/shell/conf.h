/*
 * conf.h — the judge's settings from pouch.conf (shell).
 *
 * The mail layer reads the file (mailer/config.h) and hands every key it
 * does not know to conf_key(); the judge's keys are:
 *
 *	judge.base_url = https://example.org/maps   map pages, linked from reports
 *	judge.pages = /var/www/maps                 where they are written
 *	judge.create_key_file = /etc/pouch/key      enables NEWGAME by mail
 *	judge.reply_limit = 30                      replies per sender per hour
 *
 * judge.address, judge.name and judge.domain are the mail layer's, copied
 * into the judge's settings by conf_finish().
 */
#ifndef POUCH_CONF_H
#define POUCH_CONF_H

#include "../../lib/buf.h"
#include "../../mailer/config.h"
#include "../judge.h"

struct pouch_conf {
	struct mail_config mail;
	struct judge_conf judge;
	char pages[1024];		/* judge.pages (absolute) */
	bool pages_set;			/* judge.pages is in the file (not the default) */
	char create_key_file[1024];	/* judge.create_key_file ("" = none) */
};

/* Read the configuration: path, or (NULL) DATA/pouch.conf when it exists,
 * else the embedded defaults, for the data directory data. Returns 0, or
 * -1 with every problem ("FILE:LINE: ...") in err. */
int conf_load(struct pouch_conf *c, const char *path, const char *data, struct buf *err);
void conf_free(struct pouch_conf *c);
/* The settings that shape what the judge sends (judge.address, .name,
 * .domain, .base_url, .reply_limit) as one line-separated text, appended
 * to out; conf_settings_apply sets them back from such a text. */
void conf_settings_write(const struct pouch_conf *c, struct buf *out);
void conf_settings_apply(struct pouch_conf *c, const char *text);

#endif
