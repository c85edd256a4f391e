/*
 * judge.c — the judge itself: its games, and the effects it leaves for the
 * shell to make durable (judge.h). Handling mail is mail.c, time and turns
 * turn.c, setting games up setup.c.
 */
#define _DEFAULT_SOURCE
#include "judge.h"

#include <stdlib.h>
#include <string.h>

#include "../lib/grow.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "../maps/pages.h"

void
judge_init(struct judge *j, const struct judge_conf *conf, const struct judge_io *io)
{
	memset(j, 0, sizeof *j);
	j->conf = conf;
	j->io = *io;
}

static void
free_notes(struct judge_note *n, int count)
{
	int i;

	for (i = 0; i < count; i++)
		free(n[i].text);
}

void
judge_effects_clear(struct judge *j)
{
	struct judge_effects *fx = &j->fx;
	int i;

	for (i = 0; i < fx->nout; i++)
		outmsg_free(&fx->out[i]);
	for (i = 0; i < fx->nphases; i++) {
		free(fx->phases[i].orders);
		free(fx->phases[i].res);
		free(fx->phases[i].text);
	}
	free_notes(fx->audit, fx->naudit);
	free_notes(fx->press, fx->npress);
	free_notes(fx->rollbacks, fx->nrollbacks);
	free_notes(fx->log, fx->nlog);
	fx->nout = fx->nphases = fx->naudit = fx->npress = fx->nrollbacks = fx->nlog = 0;
	free(fx->host_reply);
	fx->host_reply = NULL;
}

void
judge_free(struct judge *j)
{
	int i;

	judge_effects_clear(j);
	free(j->fx.out);
	free(j->fx.phases);
	free(j->fx.audit);
	free(j->fx.press);
	free(j->fx.rollbacks);
	free(j->fx.log);
	for (i = 0; i < j->ngames; i++)
		game_free(j->games[i]);
	free(j->games);
	free(j->dirty);
	free(j->rates);
	for (i = 0; i < j->nok; i++) {
		explicit_bzero(j->okcache[i], strlen(j->okcache[i]));
		free(j->okcache[i]);
	}
	free(j->okcache);
	memset(j, 0, sizeof *j);
}

int
judge_add_game(struct judge *j, struct game *g)
{
	if (j->ngames == j->capgames) {	/* dirty[] beside games[], as long */
		GROW(j->games, j->ngames, j->capgames);
		j->dirty = xreallocarray(j->dirty, (size_t)j->capgames, sizeof *j->dirty);
	}
	if (g->sys == NULL)
		game_set_system(g, j->io.system(j->io.ctx, g->map));
	j->games[j->ngames] = g;
	j->dirty[j->ngames] = false;
	return j->ngames++;
}

struct game *
judge_find_game(struct judge *j, const char *name)
{
	int i;

	for (i = 0; i < j->ngames; i++)
		if (str_eq_nocase(j->games[i]->name, name))
			return j->games[i];
	return NULL;
}

int
judge_game_index(const struct judge *j, const struct game *g)
{
	int i;

	for (i = 0; i < j->ngames; i++)
		if (j->games[i] == g)
			return i;
	return -1;
}

void
judge_touch(struct judge *j, const struct game *g)
{
	int i = judge_game_index(j, g);

	if (i >= 0)
		j->dirty[i] = true;
}

bool
judge_address_placeholder(const struct judge_conf *c)
{
	const char *at = strrchr(c->address, '@');

	return at == NULL || str_eq_nocase(at + 1, "localhost");
}

void
judge_address_warning(const struct judge_conf *c, const char *indent, struct buf *out)
{
	if (judge_address_placeholder(c))
		buf_printf(out, "%swarning: the judge's address is %s, a placeholder nobody can write to:\n"
		    "%sset judge.address in pouch.conf (see pouch.conf(5)).\n", indent, c->address,
		    indent);
}

void
judge_map_url(const struct judge *j, const struct game *g, const struct board *before,
    struct buf *out)
{
	if (j->conf->base_url[0] == '\0')
		return;
	pages_phase_url(j->conf->base_url, g->name, before, out);
}
