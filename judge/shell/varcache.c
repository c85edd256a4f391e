#include "varcache.h"

#include <stdlib.h>
#include <string.h>

#include "../../lib/buf.h"
#include "../../lib/log.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../maps/variant.h"
#include "../systems/systems.h"

void
varcache_init(struct varcache *vc, const char *maps_dir)
{
	memset(vc, 0, sizeof *vc);
	vc->maps_dir = maps_dir;
}

void
varcache_free(struct varcache *vc)
{
	int i;

	for (i = 0; i < vc->n; i++) {
		free(vc->e[i].name);
		names_free(vc->e[i].nm);
		map_free(vc->e[i].m);
	}
	vc->n = 0;
}

const struct map *
varcache_get(void *ctx, const char *name, const struct names **nm)
{
	struct varcache *vc = ctx;
	struct buf err;
	struct map *m;
	int i;

	for (i = 0; i < vc->n; i++) {
		if (str_eq_nocase(vc->e[i].name, name)) {
			*nm = vc->e[i].nm;
			return vc->e[i].m;
		}
	}
	if (vc->n >= VARCACHE_MAX)
		return NULL;
	buf_init(&err, BUF_ERRORS_MAX);
	m = variant_open(name, vc->maps_dir, &err);
	if (m != NULL && systems_for_map(m) == NULL) {
		buf_printf(&err, "it plays the rule system \"%s\"; pouch knows ", m->system);
		systems_names(&err);
		map_free(m);
		m = NULL;
	}
	if (m == NULL) {
		log_error("variant %s: %s", name, buf_str(&err));
		buf_free(&err);
		return NULL;
	}
	buf_free(&err);
	vc->e[vc->n].name = xstrdup(name);
	vc->e[vc->n].m = m;
	vc->e[vc->n].nm = names_new(m);
	*nm = vc->e[vc->n].nm;
	return vc->e[vc->n++].m;
}

const struct rule_system *
varcache_system(void *ctx, const struct map *m)
{
	(void)ctx;
	return systems_for_map(m);
}

bool
varcache_setting(void *ctx, const char *key)
{
	(void)ctx;
	return systems_setting(key);
}
