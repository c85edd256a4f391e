/*
 * resolver.c — the rule systems' resolvers, found by the map's system
 * (resolver.h). Adding one is adding a line here.
 */
#include "resolver.h"

#include <stddef.h>

#include "../../lib/str.h"
#include "realpolitik_rules.h"

static const struct resolver *const resolvers[] = {
	&realpolitik_resolver,
};

const struct resolver *
resolver_for(const struct map *m)
{
	size_t i;

	for (i = 0; i < sizeof resolvers / sizeof resolvers[0]; i++)
		if (str_eq_nocase(resolvers[i]->system, m->system))
			return resolvers[i];
	return NULL;
}

unsigned
map_caps(const struct map *m)
{
	const struct resolver *rv = resolver_for(m);

	return rv != NULL ? rv->caps : 0;
}
