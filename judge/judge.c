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
	free(j->names);
	free(j->dirty);
	free(j->rates);
	free(j->okcache);
	memset(j, 0, sizeof *j);
}

/* The slot of j's name index where name is, or the empty one it would take. */
static size_t
name_slot(const struct judge *j, const char *name)
{
	uint64_t h = 14695981039346656037ull;
	size_t mask = j->capnames - 1, k;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)str_lc(*c)) * 1099511628211ull;
	for (k = (size_t)h & mask; j->names[k] != 0; k = (k + 1) & mask)
		if (str_eq_nocase(j->games[j->names[k] - 1]->name, name))
			break;
	return k;
}

/* Index games [from, to) of j by their names (the first of a name keeps it). */
static void
name_index(struct judge *j, int from, int to)
{
	for (int i = from; i < to; i++) {
		size_t k = name_slot(j, j->games[i]->name);
		if (j->names[k] == 0)
			j->names[k] = i + 1;
	}
}

struct game *
judge_find_game(struct judge *j, const char *name)
{
	size_t k;

	if (j->capnames == 0)
		return NULL;
	k = name_slot(j, name);
	return j->names[k] ? j->games[j->names[k] - 1] : NULL;
}

int
judge_game_index(const struct judge *j, const struct game *g)
{
	int i;

	if (j->capnames > 0) {
		size_t k = name_slot(j, g->name);
		if (j->names[k] != 0 && j->games[j->names[k] - 1] == g)
			return j->names[k] - 1;
	}
	for (i = 0; i < j->ngames; i++)	/* a second game of the same name */
		if (j->games[i] == g)
			return i;
	return -1;
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
	if (2 * (size_t)(j->ngames + 1) > j->capnames) {	/* at most half full */
		j->capnames = j->capnames ? 2 * j->capnames : 64;
		free(j->names);
		j->names = xcalloc(j->capnames, sizeof *j->names);
		name_index(j, 0, j->ngames);
	}
	name_index(j, j->ngames, j->ngames + 1);
	return j->ngames++;
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
