/*
 * varcache.h — variants loaded once per run and shared by the games that
 * use them, with their name indexes (shell: reads variant files).
 */
#ifndef POUCH_VARCACHE_H
#define POUCH_VARCACHE_H

#include "../../parser/names.h"
#include "../engine/map.h"

struct rule_system;

#define VARCACHE_MAX 16

struct varcache {
	const char *maps_dir;		/* NULL: the default directory */
	int n;
	struct {
		char *name;
		struct map *m;
		struct names *nm;
	} e[VARCACHE_MAX];
};

void varcache_init(struct varcache *vc, const char *maps_dir);
void varcache_free(struct varcache *vc);
/* The variant called name (loading it the first time) and its index; NULL
 * when it cannot be loaded (the reason is logged). ctx is the cache: this
 * is the judge_io.variant callback. */
const struct map *varcache_get(void *ctx, const char *name, const struct names **nm);
/* The rule system variant m plays (judge/systems/systems.h): the
 * judge_io.system callback. */
const struct rule_system *varcache_system(void *ctx, const struct map *m);
/* Is key a setting of some rule system's own (systems_setting): the
 * game_lookup setting callback. */
bool varcache_setting(void *ctx, const char *key);

#endif
