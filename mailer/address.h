/*
 * address.h — mail addresses: parsing address lists (RFC 5322 3.4),
 * validating, and plus-addressing (judge+game@example.org).
 *
 * pouch is deliberately stricter than RFC 5322 about what it calls a valid
 * address: dot-atom local part (no quoted strings), a domain of letters,
 * digits, '-' and '_' labels, at most 254 bytes. Everything pouch sends to
 * or compares is in that form and in lower case.
 */
#ifndef POUCH_ADDRESS_H
#define POUCH_ADDRESS_H

#include <stdbool.h>

struct addr {
	char *name;	/* display name, UTF-8 (RFC 2047 decoded); NULL when none */
	char *addr;	/* lower case; NULL when the entry was not a valid address */
};

/* Parse an address-list header value (From, To, Cc, Reply-To): groups
 * are flattened, comments used as names for "addr (Name)". Appends at most
 * max entries to *v (growing it; *v may be NULL at first) and returns how
 * many were added. Sets *bad (never clears it) on charset problems in
 * names. Free with addr_list_free. */
int addr_parse_list(const char *value, struct addr **v, int max, bool *bad);
/* Free n entries and the array. NULL-safe. */
void addr_list_free(struct addr *v, int n);

/* True when a is a valid address in pouch's sense (see above; any case). */
bool addr_valid(const char *a);

/* When a is base with a "+tag" after the local part (ignoring case), return
 * the tag (new string, caller frees); NULL otherwise (also for a == base). */
char *addr_plus_tag(const char *a, const char *base);
/* True when a is base or base with a +tag (ignoring case). */
bool addr_same_mailbox(const char *a, const char *base);
/* "local+tag@domain" from base "local@domain"; new string, caller frees.
 * Returns NULL when base is not valid or the result would not be. */
char *addr_with_tag(const char *base, const char *tag);

#endif
