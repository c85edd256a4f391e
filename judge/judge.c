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
	free_notes(fx->pages, fx->npages);
	fx->nout = fx->nphases = fx->naudit = fx->npress = fx->nrollbacks = fx->nlog = 0;
	fx->npages = 0;
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
	free(j->news_text);
	free(j->fx.pages);
	for (i = 0; i < j->ngames; i++)
		game_free(j->games[i]);
	free(j->games);
	free(j->names.slot);
	free(j->rate_index.slot);
	free(j->dirty);
	free(j->touched);
	free(j->is_touched);
	free(j->due);
	free(j->due_at);
	free(j->retick);
	free(j->is_retick);
	free(j->cand);
	free(j->is_cand);
	free(j->rates);
	free(j->okcache);
	memset(j, 0, sizeof *j);
}

/* The slot of x where s is, or the empty one it would take. */
static size_t
fold_slot(const struct fold_index *x, const struct judge *j, fold_key_fn *key, const char *s)
{
	uint64_t h = 14695981039346656037ull;
	size_t mask = x->cap - 1, k;

	for (const char *c = s; *c; c++)
		h = (h ^ (unsigned char)str_lc(*c)) * 1099511628211ull;
	for (k = (size_t)h & mask; x->slot[k] != 0; k = (k + 1) & mask)
		if (str_eq_nocase(key(j, x->slot[k] - 1), s))
			break;
	return k;
}

int
fold_index_find(const struct fold_index *x, const struct judge *j, fold_key_fn *key,
    const char *s)
{
	size_t k;

	if (x->cap == 0)
		return -1;
	k = fold_slot(x, j, key, s);
	return x->slot[k] - 1;
}

void
fold_index_put(struct fold_index *x, const struct judge *j, fold_key_fn *key, int i, int n,
    bool last)
{
	size_t k;

	if (2 * (size_t)n > x->cap) {
		free(x->slot);
		x->cap = x->cap ? 2 * x->cap : 64;
		while (2 * (size_t)n > x->cap)
			x->cap *= 2;
		x->slot = xcalloc(x->cap, sizeof *x->slot);
		for (int e = 0; e < n; e++)
			if (e != i)
				fold_index_put(x, j, key, e, n, last);
	}
	k = fold_slot(x, j, key, key(j, i));
	if (x->slot[k] == 0 || last)
		x->slot[k] = i + 1;
}

static const char *
game_name(const struct judge *j, int i)
{
	return j->games[i]->name;
}

struct game *
judge_find_game(struct judge *j, const char *name)
{
	int i = fold_index_find(&j->names, j, game_name, name);

	return i >= 0 ? j->games[i] : NULL;
}

int
judge_game_index(const struct judge *j, const struct game *g)
{
	int i = fold_index_find(&j->names, j, game_name, g->name);

	if (i >= 0 && j->games[i] == g)
		return i;
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
		j->touched = xreallocarray(j->touched, (size_t)j->capgames, sizeof *j->touched);
		j->is_touched = xreallocarray(j->is_touched, (size_t)j->capgames,
		    sizeof *j->is_touched);
		j->due_at = xreallocarray(j->due_at, (size_t)j->capgames, sizeof *j->due_at);
		j->retick = xreallocarray(j->retick, (size_t)j->capgames, sizeof *j->retick);
		j->is_retick = xreallocarray(j->is_retick, (size_t)j->capgames,
		    sizeof *j->is_retick);
		j->cand = xreallocarray(j->cand, (size_t)j->capgames, sizeof *j->cand);
		j->is_cand = xreallocarray(j->is_cand, (size_t)j->capgames, sizeof *j->is_cand);
	}
	if (g->sys == NULL)
		game_set_system(g, j->io.system(j->io.ctx, g->map));
	j->games[j->ngames] = g;
	j->dirty[j->ngames] = false;
	j->is_touched[j->ngames] = true;	/* a new game: as if touched */
	j->touched[j->ntouched++] = j->ngames;
	j->due_at[j->ngames] = DUE_NONE;
	j->is_cand[j->ngames] = false;
	j->is_retick[j->ngames] = true;
	j->retick[j->nretick++] = j->ngames;
	fold_index_put(&j->names, j, game_name, j->ngames, j->ngames + 1, false);
	return j->ngames++;
}

void
judge_touch(struct judge *j, const struct game *g)
{
	int i = judge_game_index(j, g);

	if (i < 0)
		return;
	j->dirty[i] = true;
	if (!j->is_touched[i]) {
		j->is_touched[i] = true;
		j->touched[j->ntouched++] = i;
	}
	if (!j->is_retick[i]) {
		j->is_retick[i] = true;
		j->retick[j->nretick++] = i;
	}
}

int
judge_cmp_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int
judge_touched(struct judge *j, const int **idx)
{
	int n = j->ntouched;

	if (n > 1)	/* qsort wants a list even for none: touched is NULL until the first */
		qsort(j->touched, (size_t)n, sizeof *j->touched, judge_cmp_index);
	for (int k = 0; k < n; k++)
		j->is_touched[j->touched[k]] = false;
	j->ntouched = 0;
	*idx = j->touched;
	return n;
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
