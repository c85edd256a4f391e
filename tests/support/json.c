#include "json.h"

#include <stdlib.h>
#include <string.h>

#include "../../lib/buf.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"

struct jp {
	const char *p, *end;
	const char *err;
};

static void
skip_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
		j->p++;
}

static struct json *parse_value(struct jp *j, int depth);

static void
put_utf8(struct buf *b, unsigned cp)
{
	char s[4];

	if (cp < 0x80) {
		buf_putc(b, (char)cp);
	} else if (cp < 0x800) {
		s[0] = (char)(0xc0 | (cp >> 6));
		s[1] = (char)(0x80 | (cp & 0x3f));
		buf_append(b, s, 2);
	} else if (cp < 0x10000) {
		s[0] = (char)(0xe0 | (cp >> 12));
		s[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		s[2] = (char)(0x80 | (cp & 0x3f));
		buf_append(b, s, 3);
	} else {
		s[0] = (char)(0xf0 | (cp >> 18));
		s[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		s[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		s[3] = (char)(0x80 | (cp & 0x3f));
		buf_append(b, s, 4);
	}
}

static char *
parse_string(struct jp *j)
{
	struct buf b;

	buf_init(&b, 1u << 24);
	j->p++; /* opening quote */
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;
		if (c == '\\' && j->p < j->end) {
			c = *j->p++;
			switch (c) {
			case 'n': buf_putc(&b, '\n'); break;
			case 't': buf_putc(&b, '\t'); break;
			case 'r': buf_putc(&b, '\r'); break;
			case 'b': buf_putc(&b, '\b'); break;
			case 'f': buf_putc(&b, '\f'); break;
			case 'u': {
				unsigned cp = 0;
				int i, h;
				for (i = 0; i < 4; i++) {
					if (j->p >= j->end || (h = str_hexval(*j->p++)) < 0) {
						j->err = "bad \\u escape";
						buf_free(&b);
						return NULL;
					}
					cp = cp * 16 + (unsigned)h;
				}
				put_utf8(&b, cp);
				break;
			}
			default: buf_putc(&b, c); break;
			}
		} else {
			buf_putc(&b, c);
		}
	}
	if (j->p >= j->end) {
		j->err = "unterminated string";
		buf_free(&b);
		return NULL;
	}
	j->p++;
	return buf_take(&b);
}

static void
add_item(struct json *parent, struct json *item)
{
	parent->items = xreallocarray(parent->items, parent->nitems + 1, sizeof *parent->items);
	parent->items[parent->nitems++] = item;
}

static struct json *
parse_value(struct jp *j, int depth)
{
	struct json *v;

	if (depth > 64) {
		j->err = "nested too deeply";
		return NULL;
	}
	skip_ws(j);
	if (j->p >= j->end) {
		j->err = "unexpected end";
		return NULL;
	}
	v = xcalloc(1, sizeof *v);
	switch (*j->p) {
	case '{':
	case '[': {
		char close = *j->p == '{' ? '}' : ']';
		v->type = *j->p == '{' ? JSON_OBJECT : JSON_ARRAY;
		j->p++;
		skip_ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return v;
		}
		for (;;) {
			struct json *item;
			char *key = NULL;
			skip_ws(j);
			if (v->type == JSON_OBJECT) {
				if (j->p >= j->end || *j->p != '"' || (key = parse_string(j)) == NULL) {
					j->err = j->err ? j->err : "expected a key";
					goto fail;
				}
				skip_ws(j);
				if (j->p >= j->end || *j->p != ':') {
					free(key);
					j->err = "expected ':'";
					goto fail;
				}
				j->p++;
			}
			item = parse_value(j, depth + 1);
			if (item == NULL) {
				free(key);
				goto fail;
			}
			item->key = key;
			add_item(v, item);
			skip_ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			if (j->p < j->end && *j->p == close) {
				j->p++;
				return v;
			}
			j->err = "expected ',' or a closing bracket";
			goto fail;
		}
	}
	case '"':
		v->type = JSON_STRING;
		v->string = parse_string(j);
		if (v->string == NULL)
			goto fail;
		return v;
	case 't':
	case 'f':
	case 'n':
		if ((size_t)(j->end - j->p) >= 4 && strncmp(j->p, "true", 4) == 0) {
			v->type = JSON_BOOL;
			v->boolean = 1;
			j->p += 4;
		} else if ((size_t)(j->end - j->p) >= 5 && strncmp(j->p, "false", 5) == 0) {
			v->type = JSON_BOOL;
			j->p += 5;
		} else if ((size_t)(j->end - j->p) >= 4 && strncmp(j->p, "null", 4) == 0) {
			v->type = JSON_NULL;
			j->p += 4;
		} else {
			j->err = "bad literal";
			goto fail;
		}
		return v;
	default: {
		char tmp[64];
		size_t n = 0;
		while (j->p < j->end && n < sizeof tmp - 1 && strchr("+-0123456789.eE", *j->p))
			tmp[n++] = *j->p++;
		tmp[n] = '\0';
		if (n == 0) {
			j->err = "unexpected character";
			goto fail;
		}
		v->type = JSON_NUMBER;
		v->number = strtod(tmp, NULL);
		return v;
	}
	}
fail:
	json_free(v);
	return NULL;
}

struct json *
json_parse(const char *text, size_t len, const char **err)
{
	struct jp j = { text, text + len, NULL };
	struct json *v = parse_value(&j, 0);

	if (v == NULL && err)
		*err = j.err ? j.err : "parse error";
	return v;
}

void
json_free(struct json *j)
{
	size_t i;

	if (j == NULL)
		return;
	for (i = 0; i < j->nitems; i++)
		json_free(j->items[i]);
	free(j->items);
	free(j->string);
	free(j->key);
	free(j);
}

const struct json *
json_get(const struct json *obj, const char *key)
{
	size_t i;

	if (obj == NULL || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->nitems; i++)
		if (strcmp(obj->items[i]->key, key) == 0)
			return obj->items[i];
	return NULL;
}
