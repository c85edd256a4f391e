/*
 * test_address.c — address lists, validation and plus-addressing.
 *
 * Each case of the list parser is one line: the header value and the
 * entries expected ("name|addr", entries separated by ";", "-" for none).
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../mailer/address.h"

static const struct {
	const char *value;
	const char *expect;
} lists[] = {
	{ "alice@example.org", "-|alice@example.org" },
	{ "Alice <Alice@Example.ORG>", "Alice|alice@example.org" },
	{ "\"Smith, Alice\" <a@x.org>, bob@y.org", "Smith, Alice|a@x.org;-|bob@y.org" },
	{ "a@x.org (Alice A.)", "Alice A.|a@x.org" },
	{ "=?utf-8?q?Ren=C3=A9?= <r@x.org>", "Ren\xc3\xa9|r@x.org" },
	{ "\"=?utf-8?q?Ren=C3=A9?=\" <r@x.org>", "Ren\xc3\xa9|r@x.org" },
	{ "friends: a@x.org, \"B\" <b@x.org>;, c@x.org", "-|a@x.org;B|b@x.org;-|c@x.org" },
	{ "Undisclosed recipients:;", "" },
	{ "<@relay.org,@other.org:user@x.org>", "-|user@x.org" },
	{ "a@x.org,,  ,b@x.org", "-|a@x.org;-|b@x.org" },
	{ "Bob <bob@x.org (work)>", "Bob|bob@x.org" },
	{ "\"quoted local\"@x.org", "-|-" },
	{ "not an address", "-|-" },
	{ "Eve <eve@x.org", "Eve|eve@x.org" },	/* unterminated <: still read */
	{ "  Folded\r\n <f@x.org>", "Folded|f@x.org" },
	{ "\"a\\\"b\" <ab@x.org>", "a\"b|ab@x.org" },
};

static void
test_lists(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		struct addr *v = NULL;
		bool bad = false;
		int n = addr_parse_list(lists[i].value, &v, 100, &bad), k;
		struct buf got;

		buf_init(&got, 4096);
		for (k = 0; k < n; k++)
			buf_printf(&got, "%s%s|%s", k ? ";" : "", v[k].name ? v[k].name : "-",
			    v[k].addr ? v[k].addr : "-");
		if (strcmp(buf_str(&got), lists[i].expect) != 0)
			fail_msg("\"%s\": got \"%s\", expected \"%s\"", lists[i].value, buf_str(&got),
			    lists[i].expect);
		buf_free(&got);
		addr_list_free(v, n);
	}
}

static void
test_max(void **state)
{
	struct addr *v = NULL;
	bool bad = false;
	int n;

	(void)state;
	n = addr_parse_list("a@x.org, b@x.org, c@x.org", &v, 2, &bad);
	assert_int_equal(n, 2);
	addr_list_free(v, n);
}

static void
test_valid(void **state)
{
	static const char *const good[] = { "a@b", "a.b+c@d-e.f", "x_y@localhost", "o'neil@x.org",
		"UPPER@CASE.ORG", NULL };
	static const char *const bad[] = { "", "@x.org", "a@", "a@@x", "a..b@x.org", ".a@x.org",
		"a.@x.org", "a b@x.org", "a@x..org", "a@-x.org", "a@x.org.", "a@x\n.org",
		"\"q\"@x.org", "a@[127.0.0.1]", NULL };
	char longlocal[80];
	int i;

	(void)state;
	for (i = 0; good[i]; i++)
		if (!addr_valid(good[i]))
			fail_msg("%s should be valid", good[i]);
	for (i = 0; bad[i]; i++)
		if (addr_valid(bad[i]))
			fail_msg("%s should be invalid", bad[i]);
	memset(longlocal, 'a', 65);
	memcpy(longlocal + 65, "@x.org", 7);
	assert_false(addr_valid(longlocal));
}

static void
test_plus(void **state)
{
	char *t;

	(void)state;
	t = addr_plus_tag("judge+Spring-1901@Example.org", "judge@example.org");
	assert_string_equal(t, "spring-1901");
	free(t);
	assert_null(addr_plus_tag("judge@example.org", "judge@example.org"));
	assert_null(addr_plus_tag("judge+x@other.org", "judge@example.org"));
	assert_null(addr_plus_tag("judgex+y@example.org", "judge@example.org"));
	assert_null(addr_plus_tag("judge+@example.org", "judge@example.org"));
	assert_true(addr_same_mailbox("JUDGE@example.org", "judge@example.org"));
	assert_true(addr_same_mailbox("judge+g@example.org", "judge@example.org"));
	assert_false(addr_same_mailbox("judges@example.org", "judge@example.org"));
	t = addr_with_tag("judge@example.org", "game1");
	assert_string_equal(t, "judge+game1@example.org");
	free(t);
	assert_null(addr_with_tag("judge@example.org", "two words"));
	assert_null(addr_with_tag("not-an-address", "g"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_max),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_plus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
