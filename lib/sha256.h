/*
 * sha256.h — SHA-256 (FIPS 180-4) of a few pieces of memory, for digests
 * that must not be forged: the judge remembers a password it verified by
 * such a digest, never by the password itself.
 *
 *	struct sha256 c;
 *	unsigned char d[SHA256_SIZE];
 *	sha256_init(&c);
 *	sha256_add(&c, p, n);	// as many times as needed
 *	sha256_end(&c, d);
 */
#ifndef POUCH_SHA256_H
#define POUCH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes added */
	unsigned char block[64];
	size_t fill;		/* bytes waiting in block */
};

/* Start a digest. */
void sha256_init(struct sha256 *c);
/* Add the n bytes at p. */
void sha256_add(struct sha256 *c, const void *p, size_t n);
/* Finish: the 32-byte digest into out; c is wiped and must be started again. */
void sha256_end(struct sha256 *c, unsigned char out[SHA256_SIZE]);

#endif
