#define _DEFAULT_SOURCE
#include "secret.h"

#include <crypt.h>
#include <stdio.h>
#include <string.h>

#include "../lib/str.h"

int
secret_hash(const char *secret, const unsigned char rbytes[16], char *out, size_t size)
{
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data cd;
	const char *h;

	if (crypt_gensalt_rn("$y$", 1, (const char *)rbytes, 16, salt, sizeof salt) == NULL)
		return -1;
	memset(&cd, 0, sizeof cd);
	h = crypt_rn(secret, salt, &cd, sizeof cd);
	if (h == NULL || h[0] == '*' || strlen(h) >= size)
		return -1;
	str_copy(out, h, size);
	explicit_bzero(&cd, sizeof cd);
	return 0;
}

bool
secret_check(const char *secret, const char *hash)
{
	struct crypt_data cd;
	const char *h;
	size_t i, n;
	unsigned char diff = 0;

	if (secret == NULL || hash == NULL || hash[0] != '$')
		return false;
	memset(&cd, 0, sizeof cd);
	h = crypt_rn(secret, hash, &cd, sizeof cd);
	if (h == NULL || h[0] == '*') {
		explicit_bzero(&cd, sizeof cd);
		return false;
	}
	n = strlen(hash);
	if (strlen(h) != n) {
		explicit_bzero(&cd, sizeof cd);
		return false;
	}
	for (i = 0; i < n; i++)
		diff |= (unsigned char)(h[i] ^ hash[i]);
	explicit_bzero(&cd, sizeof cd);
	return diff == 0;
}

void
secret_words(const unsigned char r[16], char *out, size_t size)
{
	static const char *const words[] = {
		"amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron",
		"ivory", "jasper", "kestrel", "lagoon", "maple", "nectar", "orbit", "pebble",
		"quartz", "raven", "saffron", "tundra", "umber", "velvet", "willow", "zephyr",
		"anchor", "beacon", "comet", "dune", "falcon", "harbor", "lantern", "meadow",
	};

	snprintf(out, size, "%s-%s-%s-%u", words[r[0] % 32], words[r[1] % 32], words[r[4] % 32],
	    (unsigned)(r[2] | (r[3] << 8)) % 900 + 100);
}
