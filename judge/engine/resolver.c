/*
 * resolver.c — the rule systems' resolvers, found by the map's system
 * (resolver.h). Adding one is adding a line here.
 */
#include "resolver.h"

#include <stddef.h>

#include "../../lib/str.h"
#include "muna_rules.h"
#include "realpolitik_rules.h"

static const struct resolver *const resolvers[] = {
	&realpolitik_resolver,
};

/* The capabilities a variant's options switch on, by the systems they
 * belong to. */
static unsigned (*const option_caps[])(const struct map *m) = {
	muna_caps,
};

const struct resolver *
resolver_for(const struct map *m)
{
	size_t i;

	if (m->system[0] == '\0')
		return NULL;	/* no system named: the standard rules */
	for (i = 0; i < sizeof resolvers / sizeof resolvers[0]; i++)
		if (str_eq_nocase(resolvers[i]->system, m->system))
			return resolvers[i];
	return NULL;
}

unsigned
map_caps(const struct map *m)
{
	const struct resolver *rv = resolver_for(m);
	unsigned caps = rv != NULL ? rv->caps : 0;
	size_t i;

	for (i = 0; i < sizeof option_caps / sizeof option_caps[0]; i++)
		caps |= option_caps[i](m);
	return caps;
}

void
rules_for_map(struct rules *r, const struct map *m, enum edition e)
{
	rules_init(r, e);
	r->build_anywhere = map_option_on(m, "build-anywhere");
	r->caps = map_caps(m);
	r->resolver = resolver_for(m);
}
