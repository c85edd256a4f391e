/*
 * json.h — a small JSON reader for the test suite (reads the external test
 * material in ../shared/testdata). Not used by pouch itself.
 *
 * json_parse() builds a tree owned by the returned root; json_free() frees
 * it. Strings are decoded (\uXXXX to UTF-8). Objects keep their key order.
 */
#ifndef POUCH_TEST_JSON_H
#define POUCH_TEST_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double number;
	int boolean;
	char *string;		/* JSON_STRING */
	char *key;		/* member name when inside an object */
	struct json **items;	/* JSON_ARRAY / JSON_OBJECT members */
	size_t nitems;
};

/* Parse text; returns the root or NULL (with *err set to a static message). */
struct json *json_parse(const char *text, size_t len, const char **err);
void json_free(struct json *j);
/* Member of an object by key, or NULL. */
const struct json *json_get(const struct json *obj, const char *key);

#endif
