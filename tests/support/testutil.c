#define _XOPEN_SOURCE 700	/* mkdtemp */
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../maps/geometry.h"
#include "../../maps/variant.h"
#include "../../parser/names.h"

const char *
test_shared_dir(void)
{
	const char *env = getenv("POUCH_SHARED");

	return env && *env ? env : "../shared";
}

const char *
test_shared_path(const char *rel)
{
	static char path[4096];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", test_shared_dir(), rel);
	return stat(path, &st) == 0 ? path : NULL;
}

struct map *
test_load_map(const char *path)
{
	struct buf err;
	struct map *m;

	buf_init(&err, 1 << 16);
	m = variant_load(path, &err);
	if (m == NULL) {
		fprintf(stderr, "%s", buf_str(&err));
		fail_msg("cannot load %s", path);
	}
	buf_free(&err);
	return m;
}

struct map *
test_load_standard_map(void)
{
	return test_load_map("maps/standard/variant.xml");
}

const struct map *
test_standard_map(void)
{
	static struct map *m;

	if (m == NULL)
		m = test_load_standard_map();
	return m;
}

const struct names *
test_standard_names(void)
{
	static struct names *nm;

	if (nm == NULL)
		nm = names_new(test_standard_map());
	return nm;
}

struct geometry *
test_load_geometry(const struct map *m, const char *path)
{
	struct geometry *g;
	struct buf err;

	buf_init(&err, 1 << 16);
	g = geometry_load(m, path, &err);
	if (g == NULL) {
		fprintf(stderr, "%s", buf_str(&err));
		fail_msg("cannot load %s", path);
	}
	buf_free(&err);
	return g;
}

const struct geometry *
test_standard_geometry(void)
{
	static struct geometry *g;

	if (g == NULL)
		g = test_load_geometry(test_standard_map(), "maps/standard/map.svg");
	return g;
}

void
test_read_file(const char *path, struct buf *out)
{
	buf_init(out, 64u << 20);
	if (fs_read_file(path, out) < 0)
		fail_msg("cannot read %s", path);
}

int
test_mkdtemp(char *dir, size_t size, const char *name)
{
	if ((size_t)snprintf(dir, size, "/tmp/pouch-%s-XXXXXX", name) >= size)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

int
test_rm_rf(const char *dir)
{
	return fs_rm_rf(dir);
}

int
test_count_files(const char *dir, const char *sub)
{
	char p[512];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(p, sizeof p, "%s/%s", dir, sub);
	if ((d = opendir(p)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}
