/*
 * testutil.h — helpers shared by the cmocka test programs.
 */
#ifndef POUCH_TESTUTIL_H
#define POUCH_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../judge/engine/map.h"
#include "../../lib/buf.h"

/* Directory of the external test material ($POUCH_SHARED, else ../shared). */
const char *test_shared_dir(void);
/* Path of a file in it, or NULL when the material is absent (static buffer). */
const char *test_shared_path(const char *rel);
/* Load a variant file; fails the test when it cannot. Caller map_free()s. */
struct map *test_load_map(const char *path);
/* The standard map (loaded once, never freed). */
const struct map *test_standard_map(void);
struct names;
/* The name index of the standard map (built once, never freed). */
const struct names *test_standard_names(void);
/* A fresh copy of the standard map, for tests that change it (rule
 * options); the caller map_free()s it. Fails the test when it cannot. */
struct map *test_load_standard_map(void);
struct geometry;
/* Load map m's drawing from path; fails the test when it cannot. Caller
 * geometry_free()s. */
struct geometry *test_load_geometry(const struct map *m, const char *path);
/* The standard map's geometry, maps/standard/map.svg (loaded once, never freed). */
const struct geometry *test_standard_geometry(void);
/* Read a whole file; fails the test when it cannot. Caller buf_free()s. */
void test_read_file(const char *path, struct buf *out);
/* Create a fresh directory /tmp/pouch-NAME-XXXXXX and write its path into
 * dir (size at least 64). Returns 0 or -1. */
int test_mkdtemp(char *dir, size_t size, const char *name);
/* Remove dir and everything below it. Returns 0 or -1. */
int test_rm_rf(const char *dir);
/* The entries of directory dir/sub but "." ones, or -1 when it cannot be read. */
int test_count_files(const char *dir, const char *sub);

#endif
