/*
 * fuzz_mime.c — libFuzzer target: any bytes through the MIME parser.
 *
 * Built by the fuzz stage of tests/check.sh (clang -fsanitize=fuzzer,
 * address,undefined) and run from the seed corpus tests/fuzz/seeds/mime/.
 * Besides "no crash, no leak", it checks the promises of mime.h: the text
 * is never NULL, is valid UTF-8 without NUL or control characters other
 * than tab and newline, and keeps the line cap; so does every header
 * string.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../mailer/charset.h"
#include "../../mailer/mime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_string(const char *s, int allow_newline)
{
	const char *p;

	if (s == NULL)
		return;
	if (!utf8_valid(s, strlen(s)))
		abort();
	for (p = s; *p; p++)
		if ((unsigned char)*p < 32 && *p != '\t' && !(allow_newline && *p == '\n'))
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mime_opts o;
	struct inmsg m;
	const char *p;
	int lines = 0, i;

	mime_opts_init(&o);
	o.max_raw = 64 * 1024;	/* small caps: the fuzzer reaches them */
	o.max_lines = 50;
	o.own_address = "judge@example.test";
	mime_parse((const char *)data, size, &o, &m);
	if (m.text == NULL)
		abort();
	check_string(m.text, 1);
	for (p = m.text; *p; p++)
		lines += *p == '\n';
	if (lines > o.max_lines)
		abort();
	check_string(m.subject, 0);
	check_string(m.from_name, 0);
	check_string(m.references, 0);
	for (i = 0; i < m.nbounced; i++)
		if (m.bounced[i] == NULL)
			abort();
	inmsg_free(&m);
	free(mime_message_id((const char *)data, size));
	return 0;
}
