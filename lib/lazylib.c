#include "lazylib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void
load(struct lazylib *lib)
{
	lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (lib->handle == NULL) {
		fprintf(stderr, "pouch: cannot load %s, which pouch needs %s: %s\n", lib->soname,
		    lib->what, dlerror());
		exit(1);
	}
}

void *
lazylib_sym(struct lazylib *lib, const char *name)
{
	void *p;

	if (lib->handle == NULL)
		load(lib);
	dlerror();
	p = dlsym(lib->handle, name);
	if (p == NULL) {
		const char *e = dlerror();

		fprintf(stderr, "pouch: %s has no %s: %s\n", lib->soname, name,
		    e ? e : "the symbol is null");
		exit(1);
	}
	return p;
}

int
lazylib_loaded(const struct lazylib *lib)
{
	return lib->handle != NULL;
}
