/*
 * scratch.c — the memory a password check works in (scratch.h).
 *
 * The process defines mmap and munmap: the dynamic linker then binds
 * libxcrypt's calls (and every other library's) to these, which pass each
 * call on to the next definition (the C library's, or a sanitizer's) found
 * by dlsym(RTLD_NEXT), except on a thread between scratch_begin and
 * scratch_end, where an anonymous private read-write map of at least
 * SCRATCH_MIN bytes with no address asked for is served from the region
 * the thread keeps, and the munmap of that region only wipes it. One
 * region per thread, lent to one map at a time: a second map while it is
 * lent, or one of another size, is the C library's.
 */
#define _GNU_SOURCE
#include "scratch.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define SCRATCH_MIN ((size_t)1 << 20)

typedef void *(*mmap_fn)(void *, size_t, int, int, int, off_t);
typedef int (*munmap_fn)(void *, size_t);

/* The C library's mmap and munmap (or a sanitizer's, before it), found
 * before main; until then (a library's own start-up) the system calls. */
static mmap_fn next_mmap_fn;
static munmap_fn next_munmap_fn;

static _Thread_local struct {
	char *base;		/* the region kept, or NULL */
	size_t size;
	bool on;		/* between scratch_begin and scratch_end */
	bool lent;		/* given to a map not yet unmapped */
	size_t reused;
} sc;

__attribute__((constructor)) static void
find_next(void)
{
	union { void *p; mmap_fn f; } m = { dlsym(RTLD_NEXT, "mmap") };
	union { void *p; munmap_fn f; } u = { dlsym(RTLD_NEXT, "munmap") };

	next_mmap_fn = m.f;
	next_munmap_fn = u.f;
}

/* Not instrumented: a thread sanitizer's run-time maps memory before it is
 * ready to follow any function. */
#define SCRATCH_RAW __attribute__((no_sanitize("thread")))

SCRATCH_RAW static void *
next_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (next_mmap_fn == NULL)
		return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	return next_mmap_fn(addr, len, prot, flags, fd, off);
}

SCRATCH_RAW static int
next_munmap(void *addr, size_t len)
{
	if (next_munmap_fn == NULL)
		return (int)syscall(SYS_munmap, addr, len);
	return next_munmap_fn(addr, len);
}

/* The symbols every library's mmap and munmap bind to (named by label, so
 * that a header's renaming of mmap cannot move them). */
void *scratch_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __asm__("mmap");
int scratch_munmap(void *addr, size_t len) __asm__("munmap");

SCRATCH_RAW void *
scratch_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;

	if (!sc.on || sc.lent || addr != NULL || fd != -1 || len < SCRATCH_MIN ||
	    prot != (PROT_READ | PROT_WRITE) ||
	    (flags & (MAP_ANONYMOUS | MAP_PRIVATE | MAP_SHARED | MAP_FIXED | MAP_HUGETLB)) !=
	    (MAP_ANONYMOUS | MAP_PRIVATE))
		return next_mmap(addr, len, prot, flags, fd, off);
	if (sc.base != NULL && sc.size == len) {
		sc.lent = true;
		sc.reused++;
		return sc.base;
	}
	if ((p = next_mmap(addr, len, prot, flags, fd, off)) == MAP_FAILED)
		return p;
	if (sc.base != NULL)	/* of another size: this one is kept instead */
		next_munmap(sc.base, sc.size);
	sc.base = p;
	sc.size = len;
	sc.lent = true;
	return p;
}

SCRATCH_RAW int
scratch_munmap(void *addr, size_t len)
{
	if (sc.lent && addr == sc.base && len == sc.size) {
		explicit_bzero(sc.base, sc.size);
		sc.lent = false;
		return 0;
	}
	return next_munmap(addr, len);
}

void
scratch_begin(void)
{
	sc.on = true;
}

void
scratch_end(void)
{
	sc.on = false;
}

void
scratch_release(void)
{
	if (sc.base != NULL && !sc.lent) {
		next_munmap(sc.base, sc.size);
		sc.base = NULL;
		sc.size = 0;
	}
}

size_t
scratch_reused(void)
{
	return sc.reused;
}
