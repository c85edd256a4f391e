/*
 * lazylib.h — libraries loaded the first time they are called.
 *
 * libxml2 (variant files, maps, HTML mail) and libcurl (SMTP) bring 25 of
 * the 43 shared libraries a fully linked pouch would map at every start,
 * and most of its start-up time; a cron run with nothing to do needs
 * neither. So pouch does not link them. lazy_xml2.c and lazy_curl.c define
 * the functions pouch calls, with the libraries' own names and prototypes
 * (the compiler checks them against the libraries' headers); each loads its
 * library and looks up its symbol when it is first called. Callers use
 * libxml2 and libcurl as usual, except that libxml2's xmlFree, a variable,
 * is xml_free here.
 *
 * A library that cannot be loaded is fatal: pouch says which and exits
 * with status 1 (a run stopped there is taken up by the next one, like a
 * crash). What is loaded stays until the process ends, as a linked library
 * would: unloading libcurl could pull its code from under a resolver
 * thread it left running after a timeout.
 */
#ifndef POUCH_LAZYLIB_H
#define POUCH_LAZYLIB_H

#include <string.h>	/* memcpy, for LAZYLIB_RESOLVE */

struct lazylib {
	const char *soname;	/* e.g. "libxml2.so.2" */
	const char *what;	/* what pouch needs it for, for the error */
	void *handle;		/* NULL until loaded */
};

/*
 * The address of name in lib, loading lib first if need be. Never NULL:
 * a missing library or symbol ends the program.
 */
void *lazylib_sym(struct lazylib *lib, const char *name);

/* Whether lib has been loaded (for tests). */
int lazylib_loaded(const struct lazylib *lib);

/*
 * LAZYLIB_FN(lib, ret, name, params, args) defines the function name, of
 * type ret name params, as a call with args of lib's name; LAZYLIB_VOID the
 * same for a function returning nothing. LAZYLIB_RESOLVE(lib, fn, name)
 * sets the function pointer fn, when still NULL, to lib's name.
 */
#define LAZYLIB_RESOLVE(lib, fn, name) \
	do { \
		if (fn == NULL) { \
			void *p_ = lazylib_sym(&(lib), name); \
			memcpy(&fn, &p_, sizeof fn); \
		} \
	} while (0)
#define LAZYLIB_FN(lib, ret, name, params, args) \
	ret name params \
	{ \
		static ret (*fn) params; \
		LAZYLIB_RESOLVE(lib, fn, #name); \
		return fn args; \
	}
#define LAZYLIB_VOID(lib, name, params, args) \
	void name params \
	{ \
		static void (*fn) params; \
		LAZYLIB_RESOLVE(lib, fn, #name); \
		fn args; \
	}

/* The two libraries (lazy_xml2.c, lazy_curl.c). */
extern struct lazylib lazy_xml2, lazy_curl;

/* libxml2's xmlFree(p). */
void xml_free(void *p);

/* The version of the library loaded (loading it): libxml2's "20914",
 * libcurl's "7.88.1". */
const char *lazy_xml2_version(void);
const char *lazy_curl_version(void);

#endif
