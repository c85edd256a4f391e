#include "message.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/strv.h"

void
inmsg_free(struct inmsg *m)
{
	if (m == NULL)
		return;
	free(m->spool_id);
	free(m->message_id);
	free(m->from_addr);
	free(m->from_name);
	free(m->reply_to);
	free(m->to);
	free(m->subject);
	free(m->in_reply_to);
	free(m->references);
	free(m->text);
	strv_free(m->bounced, m->nbounced);
	free(m->to_tag);
	free(m->kind_reason);
	memset(m, 0, sizeof *m);
}

void
outmsg_free(struct outmsg *m)
{
	if (m == NULL)
		return;
	strv_free(m->to, m->nto);
	strv_free(m->cc, m->ncc);
	free(m->subject);
	free(m->text);
	free(m->in_reply_to);
	free(m->references);
	free(m->game);
	free(m->message_id);
	memset(m, 0, sizeof *m);
}
