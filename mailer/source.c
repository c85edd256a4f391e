/*
 * source.c — the generic part of mail sources.
 */
#include "source.h"

#include <stdlib.h>

int
source_open(struct mail_source *s, struct buf *err)
{
	if (s->ops->open(s, err) < 0)
		return -1;
	s->open = 1;
	return 0;
}

int
source_fetch(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg,
    struct buf *err)
{
	return s->ops->fetch(s, cursor, fn, arg, err);
}

int
source_commit(struct mail_source *s, char **cursor, struct buf *err)
{
	*cursor = NULL;
	return s->ops->commit(s, cursor, err);
}

struct mail_source *
source_from_config(const struct mail_config *cfg)
{
	if (cfg->imap_host != NULL && *cfg->imap_host != '\0')
		return source_imap_new(cfg);
	return source_maildir_new(cfg->maildir_in);
}

void
source_free(struct mail_source *s)
{
	if (s == NULL)
		return;
	s->ops->close(s);	/* also frees priv */
	free(s->name);
	free(s);
}
