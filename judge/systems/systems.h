/*
 * systems.h — the rule systems pouch knows, by the names variant files
 * give them (maps/FORMAT.md). The shell hands the judge a game's system
 * through judge_io.system (judge/system.h).
 */
#ifndef POUCH_SYSTEMS_H
#define POUCH_SYSTEMS_H

#include "../../lib/buf.h"
#include "../engine/map.h"
#include "../system.h"

/* The system called name, or NULL. */
const struct rule_system *systems_find(const char *name);
/* The system variant m plays: the one its file names, or, for a file
 * naming none, the first whose serves_variant says it plays it (MUNA's:
 * the file sets one of its options), else standard. NULL when it names
 * an unknown one. */
const struct rule_system *systems_for_map(const struct map *m);
/* Is key a setting of some system's own (struct system_setting)? */
bool systems_setting(const char *key);
/* "standard, muna": the names, for an error message. */
void systems_names(struct buf *out);

#endif
