/*
 * systems.c — the table of rule systems. Adding a system is adding its
 * module and a line here (ARCHITECTURE.md).
 */
#include "systems.h"

#include "../../lib/str.h"
#include "muna.h"
#include "realpolitik.h"
#include "standard.h"
#include "worldgame.h"

static const struct rule_system *const systems[] = {
	&standard_system,
	&muna_system,
	&worldgame_system,
	&realpolitik_system,
};

#define NSYSTEMS (sizeof systems / sizeof systems[0])

const struct rule_system *
systems_find(const char *name)
{
	size_t i;

	for (i = 0; i < NSYSTEMS; i++)
		if (str_eq_nocase(systems[i]->name, name))
			return systems[i];
	return NULL;
}

const struct rule_system *
systems_for_map(const struct map *m)
{
	size_t i;

	if (m->system[0])
		return systems_find(m->system);
	for (i = 0; i < NSYSTEMS; i++)
		if (systems[i]->serves_variant != NULL && systems[i]->serves_variant(m))
			return systems[i];
	return systems_find("standard");
}

bool
systems_setting(const char *key)
{
	size_t i;
	int k;

	for (i = 0; i < NSYSTEMS; i++)
		for (k = 0; k < systems[i]->nsettings; k++)
			if (str_eq_nocase(systems[i]->settings[k].key, key))
				return true;
	return false;
}

void
systems_names(struct buf *out)
{
	size_t i;

	for (i = 0; i < NSYSTEMS; i++)
		buf_printf(out, "%s%s", i ? ", " : "", systems[i]->name);
}
