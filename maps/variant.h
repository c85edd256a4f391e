/*
 * variant.h — load a variant file (XML, see maps/FORMAT.md) into a struct map.
 *
 * Loading validates everything a map must satisfy and reports each problem
 * as "FILE:LINE: message" (one per line in err): unknown names, asymmetric
 * edges, terrain that does not fit a unit or an edge, duplicate names,
 * impossible starting units, home centres that are not centres. A file with
 * any error yields no map.
 */
#ifndef POUCH_VARIANT_H
#define POUCH_VARIANT_H

#include <stddef.h>

#include "../judge/engine/map.h"
#include "../lib/buf.h"

/* Parse a variant from memory; fname is used in messages. Returns the map
 * (caller frees with map_free) or NULL with the reasons appended to err. */
struct map *variant_parse(const char *data, size_t len, const char *fname, struct buf *err);
/* Load a variant file. Returns the map or NULL with reasons in err. */
struct map *variant_load(const char *path, struct buf *err);
/*
 * Resolve a variant by name or path: a name containing '/' or ending in
 * ".xml" is a path; otherwise DIR/NAME/variant.xml where DIR is maps_dir,
 * else $POUCH_MAPS, else the directory compiled in (POUCH_MAPS_DIR).
 * Returns the map or NULL with reasons in err.
 */
struct map *variant_open(const char *name_or_path, const char *maps_dir, struct buf *err);
/* The maps directory variant_open uses when maps_dir is NULL (borrowed). */
const char *variant_default_dir(void);

#endif
