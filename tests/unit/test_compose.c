/*
 * test_compose.c — outgoing messages: the exact bytes of a reference
 * message, determinism, encodings, header injection, and that what we
 * compose reads back through our own MIME parser as our own mail.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../mailer/compose.h"
#include "../../mailer/mime.h"

static char alice[] = "alice@example.test", bob[] = "bob@example.test";
static char carol[] = "carol@example.test";
static char *to1[] = { alice, bob };
static char *cc1[] = { carol };

static void
sample(struct outmsg *m)
{
	memset(m, 0, sizeof *m);
	m->to = to1;
	m->nto = 2;
	m->cc = cc1;
	m->ncc = 1;
	m->subject = (char *)(uintptr_t)"Spring 1901: results";
	m->text = (char *)(uintptr_t)"Orders of France:\nA Par-Bur succeeds.\n= done\n";
	m->in_reply_to = (char *)(uintptr_t)"orders-1@example.test";
	m->references = (char *)(uintptr_t)"<start@example.test>";
	m->game = (char *)(uintptr_t)"Spring";
	m->autosub = OUT_REPLY;
	m->date = 1700000000;
	m->message_id = (char *)(uintptr_t)"spring.1901.1@judge.example.test";
}

static const struct compose_opts opts = { "judge@example.test", "Pouch Judge", NULL };

static void
test_reference(void **state)
{
	struct outmsg m;
	struct buf out, err;

	(void)state;
	sample(&m);
	buf_init(&out, 1 << 20);
	buf_init(&err, 1024);
	assert_int_equal(compose_message(&m, &opts, &out, &err), 0);
	assert_string_equal(buf_str(&out),
	    "Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
	    "From: Pouch Judge <judge@example.test>\n"
	    "To: alice@example.test, bob@example.test\n"
	    "Cc: carol@example.test\n"
	    "Subject: Spring 1901: results\n"
	    "Message-ID: <spring.1901.1@judge.example.test>\n"
	    "In-Reply-To: <orders-1@example.test>\n"
	    "References: <start@example.test>\n <orders-1@example.test>\n"
	    "Reply-To: judge+spring@example.test\n"
	    "List-Id: <spring.example.test>\n"
	    "Auto-Submitted: auto-replied\n"
	    "X-Auto-Response-Suppress: All\n"
	    "X-Pouch-Judge: judge@example.test\n"
	    "MIME-Version: 1.0\n"
	    "Content-Type: text/plain; charset=utf-8\n"
	    "Content-Transfer-Encoding: quoted-printable\n"
	    "\n"
	    "Orders of France:\n"
	    "A Par-Bur succeeds.\n"
	    "=3D done\n");
	buf_free(&out);
	buf_free(&err);
}

static void
test_deterministic(void **state)
{
	struct outmsg m;
	struct buf a, b, err;

	(void)state;
	sample(&m);
	m.message_id = NULL;	/* derived from the content */
	m.subject = (char *)(uintptr_t)"R\xc3\xa9sultats \xe2\x80\x94 printemps";
	m.autosub = OUT_GENERATED;
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	buf_init(&err, 1024);
	assert_int_equal(compose_message(&m, &opts, &a, &err), 0);
	assert_int_equal(compose_message(&m, &opts, &b, &err), 0);
	assert_string_equal(buf_str(&a), buf_str(&b));
	assert_non_null(strstr(buf_str(&a), "Message-ID: <1700000000."));
	assert_non_null(strstr(buf_str(&a), "@example.test>\n"));
	assert_non_null(strstr(buf_str(&a), "Auto-Submitted: auto-generated\n"));
	assert_non_null(strstr(buf_str(&a), "Subject: =?UTF-8?Q?R=C3=A9sultats_=E2=80=94_printemps?=\n"));
	m.date++;
	buf_reset(&b);
	assert_int_equal(compose_message(&m, &opts, &b, &err), 0);
	assert_string_not_equal(buf_str(&a), buf_str(&b));
	buf_free(&a);
	buf_free(&b);
	buf_free(&err);
}

/* What we write, we read back: subject, names, text, and kind OWN. */
static void
test_roundtrip(void **state)
{
	static const char *const subjects[] = {
		"plain", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8f\xb6", "=?utf-8?q?not_encoded?=",
		"a very long subject line that goes on and on well past the seventy-eight "
		"column limit of a header line so that it must be folded somewhere sensible",
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe4\xbb\xb6\xe5\x90\x8d\xe3\x81\xa7\xe3"
		"\x81\x99\xe3\x80\x82\xe9\x95\xb7\xe3\x81\x84\xe9\x95\xb7\xe3\x81\x84\xe4\xbb\xb6\xe5\x90"
		"\x8d\xe3\x81\xa7\xe3\x81\x99\xe3\x80\x82\xe9\x95\xb7\xe3\x81\x84\xe9\x95\xb7\xe3\x81\x84",
		NULL };
	struct compose_opts o = { "judge@example.test", "Juge \xc3\xa0 \"Paris\"", "dip.example.test" };
	const char *text = "line with trailing blank \n.\nFrom the start\n\xc3\xa9t\xc3\xa9 = "
	    "\xe2\x9c\x93 and a long line xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx end\n";
	int i;

	(void)state;
	for (i = 0; subjects[i]; i++) {
		struct outmsg m;
		struct inmsg in;
		struct mime_opts mo;
		struct buf out, err;
		const char *p, *line;

		sample(&m);
		m.subject = (char *)(uintptr_t)subjects[i];
		m.text = (char *)(uintptr_t)text;
		buf_init(&out, 1 << 20);
		buf_init(&err, 1024);
		assert_int_equal(compose_message(&m, &o, &out, &err), 0);
		/* no line longer than 78 in the header, 76 in the body */
		for (p = buf_str(&out); (line = strchr(p, '\n')) != NULL; p = line + 1)
			assert_true(line - p <= 78);
		mime_opts_init(&mo);
		mo.own_address = "someone@else.test";
		mime_parse(out.data, out.len, &mo, &in);
		assert_string_equal(in.subject, subjects[i]);
		assert_string_equal(in.from_name, "Juge \xc3\xa0 \"Paris\"");
		assert_string_equal(in.text, text);
		assert_int_equal(in.kind, INMSG_OWN);	/* X-Pouch-Judge */
		assert_non_null(strstr(buf_str(&out), "List-Id: <spring.dip.example.test>\n"));
		inmsg_free(&in);
		buf_free(&out);
		buf_free(&err);
	}
}

static void
test_injection(void **state)
{
	struct outmsg m;
	struct buf out, err;
	char bad[] = "alice@example.test\nBcc: victim@example.test";
	char *bad_to[] = { bad };

	(void)state;
	sample(&m);
	m.subject = (char *)(uintptr_t)"hi\r\nBcc: victim@example.test";
	m.message_id = (char *)(uintptr_t)"id\n@x";
	buf_init(&out, 1 << 20);
	buf_init(&err, 1024);
	assert_int_equal(compose_message(&m, &opts, &out, &err), 0);
	assert_null(strstr(buf_str(&out), "\nBcc:"));
	assert_non_null(strstr(buf_str(&out), "Subject: hi  Bcc: victim@example.test\n"));
	m.to = bad_to;
	m.nto = 1;
	buf_reset(&out);
	assert_int_equal(compose_message(&m, &opts, &out, &err), -1);
	assert_int_equal(out.len, 0);
	assert_non_null(strstr(buf_str(&err), "invalid To address"));
	m.nto = 0;
	m.ncc = 0;
	assert_int_equal(compose_message(&m, &opts, &out, &err), -1);
	buf_free(&out);
	buf_free(&err);
}

static void
test_helpers(void **state)
{
	char d[64], *t;

	(void)state;
	compose_date(0, d, sizeof d);
	assert_string_equal(d, "Thu, 1 Jan 1970 00:00:00 +0000");
	t = compose_game_tag("Spring Game/1901");
	assert_string_equal(t, "spring-game-1901");
	free(t);
}

static void
test_small_buffer(void **state)
{
	struct outmsg m;
	struct buf out, err;

	(void)state;
	sample(&m);
	buf_init(&out, 100);
	buf_init(&err, 1024);
	assert_int_equal(compose_message(&m, &opts, &out, &err), -1);
	assert_int_equal(out.len, 0);
	assert_non_null(strstr(buf_str(&err), "too big"));
	buf_free(&out);
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_injection),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_small_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
