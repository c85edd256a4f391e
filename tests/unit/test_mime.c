/*
 * test_mime.c — raw mail to struct inmsg: transfer encodings, charsets,
 * header fields and encoded words, HTML to text, MIME structure, caps,
 * classification; and every file of the seed corpus tests/fuzz/seeds/mime/.
 */
#include "../support/testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../mailer/charset.h"
#include "../../mailer/codec.h"
#include "../../mailer/header.h"
#include "../../mailer/html.h"
#include "../../mailer/mime.h"

#define CORPUS "tests/fuzz/seeds/mime"

static void
parse(const char *raw, struct inmsg *m)
{
	struct mime_opts o;

	mime_opts_init(&o);
	o.own_address = "judge@example.test";
	mime_parse(raw, strlen(raw), &o, m);
}

static void
parse_file(const char *name, struct inmsg *m)
{
	char path[512];
	struct buf b;
	struct mime_opts o;

	snprintf(path, sizeof path, "%s/%s", CORPUS, name);
	test_read_file(path, &b);
	mime_opts_init(&o);
	o.own_address = "judge@example.test";
	mime_parse(buf_str(&b), b.len, &o, m);
	buf_free(&b);
}

/* --- codec ------------------------------------------------------------- */

static void
test_qp_decode(void **state)
{
	struct buf b;
	const char *qp = "caf=C3=A9 soft=\r\nbreak =ZZ =3d end=";

	(void)state;
	buf_init(&b, 1024);
	codec_qp_decode(qp, strlen(qp), false, &b);
	assert_string_equal(buf_str(&b), "caf\xc3\xa9 softbreak =ZZ = end");
	buf_reset(&b);
	codec_qp_decode("a_b=5F", 6, true, &b);
	assert_string_equal(buf_str(&b), "a b_");
	buf_free(&b);
}

static void
test_base64(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 1024);
	codec_base64_decode("SGVs\nbG8g\r\nd29y bGQ", 20, &b);	/* missing padding, junk */
	assert_string_equal(buf_str(&b), "Hello world");
	buf_reset(&b);
	codec_base64_encode("Hello world", 11, &b);
	assert_string_equal(buf_str(&b), "SGVsbG8gd29ybGQ=");
	buf_free(&b);
}

static void
test_qp_encode(void **state)
{
	struct buf b, d;
	char line[200];
	const char *src = "From here\n.\nend with blank \ncaf\xc3\xa9 = x\n";

	(void)state;
	buf_init(&b, 4096);
	codec_qp_encode(src, strlen(src), &b);
	assert_string_equal(buf_str(&b), "=46rom here\n=2E\nend with blank=20\ncaf=C3=A9 =3D x\n");
	/* long lines are cut with soft breaks at 76 and come back whole */
	memset(line, 'x', 150);
	line[150] = '\n';
	line[151] = '\0';
	buf_reset(&b);
	codec_qp_encode(line, strlen(line), &b);
	assert_true(strchr(buf_str(&b), '\n') - buf_str(&b) <= 76);
	buf_init(&d, 4096);
	codec_qp_decode(b.data, b.len, false, &d);
	assert_string_equal(buf_str(&d), line);
	buf_free(&d);
	buf_free(&b);
}

/* --- charsets ---------------------------------------------------------- */

static void
test_charsets(void **state)
{
	struct buf b;
	bool bad = false;

	(void)state;
	buf_init(&b, 1024);
	charset_to_utf8("ISO-8859-1", "caf\xe9", 4, &b, &bad);
	assert_string_equal(buf_str(&b), "caf\xc3\xa9");
	assert_false(bad);
	buf_reset(&b);
	charset_to_utf8("windows-1252", "\x93q\x94 \x80", 5, &b, &bad);
	assert_string_equal(buf_str(&b), "\xe2\x80\x9cq\xe2\x80\x9d \xe2\x82\xac");
	buf_reset(&b);
	charset_to_utf8("koi8-r", "\xf0\xd2\xc9", 3, &b, &bad);	/* iconv */
	assert_string_equal(buf_str(&b), "\xd0\x9f\xd1\x80\xd0\xb8");
	assert_false(bad);
	buf_reset(&b);
	charset_to_utf8("x-klingon", "caf\xe9", 4, &b, &bad);	/* unknown: Windows-1252 */
	assert_string_equal(buf_str(&b), "caf\xc3\xa9");
	assert_true(bad);
	bad = false;
	buf_reset(&b);
	charset_to_utf8("utf-8", "a\xc3\x28z\xff", 5, &b, &bad);	/* repaired */
	assert_string_equal(buf_str(&b), "a\xef\xbf\xbd(z\xef\xbf\xbd");
	assert_true(bad);
	bad = false;
	buf_reset(&b);
	charset_to_utf8(NULL, "\xc3\xa9t\xc3\xa9", 5, &b, &bad);	/* undeclared but UTF-8 */
	assert_string_equal(buf_str(&b), "\xc3\xa9t\xc3\xa9");
	assert_false(bad);
	buf_reset(&b);
	charset_to_utf8("../../etc/passwd", "x", 1, &b, &bad);	/* refused name */
	assert_true(bad);
	assert_true(utf8_valid("\xf0\x9f\x8f\xb6", 4));
	assert_false(utf8_valid("\xc0\xaf", 2));	/* overlong */
	assert_false(utf8_valid("\xed\xa0\x80", 3));	/* surrogate */
	buf_free(&b);
}

/* --- headers ----------------------------------------------------------- */

static void
test_header_parse(void **state)
{
	const char *raw = "From alice Tue Nov 14\r\nSubject: one\r\n two\r\nX-Empty:\r\nTo : a@b\r\n\r\nbody";
	struct hdr_list h;
	size_t off;

	(void)state;
	off = hdr_parse(raw, strlen(raw), &h);
	assert_string_equal(raw + off, "body");
	assert_int_equal(h.n, 3);
	assert_string_equal(hdr_get(&h, "subject"), "one two");
	assert_string_equal(hdr_get(&h, "X-EMPTY"), "");
	assert_string_equal(hdr_get(&h, "To"), "a@b");
	hdr_list_free(&h);
	/* a non-header line ends the section */
	off = hdr_parse("A: 1\nnot a header\nB: 2\n", 23, &h);
	assert_int_equal(h.n, 1);
	assert_int_equal(off, 5);
	hdr_list_free(&h);
}

static void
test_header_caps(void **state)
{
	struct buf raw;
	struct hdr_list h;
	int i;

	(void)state;
	buf_init(&raw, 1 << 24);
	for (i = 0; i < HDR_MAX_FIELDS + 10; i++)
		buf_printf(&raw, "X-%d: v\n", i);
	buf_puts(&raw, "Long: ");
	for (i = 0; i < HDR_MAX_VALUE / 10 + 10; i++)
		buf_puts(&raw, "0123456789");
	buf_puts(&raw, "\n\nbody\n");
	hdr_parse(raw.data, raw.len, &h);
	assert_int_equal(h.n, HDR_MAX_FIELDS);
	assert_true(h.truncated);
	hdr_list_free(&h);
	buf_free(&raw);
}

static void
test_rfc2047(void **state)
{
	bool bad = false;
	char *s;

	(void)state;
	s = hdr_decode("=?UTF-8?B?8J+Ptg==?= =?UTF-8?Q?_split_=E2=82?=  =?UTF-8?Q?=AC?= end", &bad);
	assert_string_equal(s, "\xf0\x9f\x8f\xb6 split \xe2\x82\xac end");
	free(s);
	s = hdr_decode("a =?iso-8859-1?q?=E9?= b =?utf-8*fr?Q?=C3=A7?=", &bad);
	assert_string_equal(s, "a \xc3\xa9 b \xc3\xa7");
	free(s);
	s = hdr_decode("=?bogus =?utf-8?x?abc?= =?", &bad);	/* not encoded words */
	assert_string_equal(s, "=?bogus =?utf-8?x?abc?= =?");
	free(s);
	{	/* a value full of "=?" stays linear */
		struct buf big;
		int i;
		buf_init(&big, 1 << 20);
		for (i = 0; i < 20000; i++)
			buf_puts(&big, "=?a?q?x ");	/* each looks like a word that never ends */
		s = hdr_decode(buf_str(&big), &bad);
		assert_int_equal(strlen(s), big.len);
		free(s);
		buf_free(&big);
	}
	s = hdr_decode("raw caf\xe9 and =?utf-8?q?line=0Abreak?=", &bad);
	assert_string_equal(s, "raw caf\xc3\xa9 and line break");
	assert_true(bad);
	free(s);
}

static void
test_params(void **state)
{
	char *v;

	(void)state;
	v = hdr_main_value(" Text/Plain (comment) ; charset=\"UTF-8\"");
	assert_string_equal(v, "text/plain");
	free(v);
	v = hdr_param("text/plain; charset=\"UTF-8\"; format=flowed", "charset");
	assert_string_equal(v, "UTF-8");
	free(v);
	v = hdr_param("multipart/mixed; boundary=\"a;b \\\"c\\\"\"", "boundary");
	assert_string_equal(v, "a;b \"c\"");
	free(v);
	v = hdr_param("attachment; filename*=utf-8''caf%C3%A9.txt", "filename");
	assert_string_equal(v, "caf\xc3\xa9.txt");
	free(v);
	v = hdr_param("attachment; filename*0=\"long\"; filename*1*=%41B", "filename");
	assert_string_equal(v, "longAB");
	free(v);
	assert_null(hdr_param("text/plain", "charset"));
}

static void
test_dates(void **state)
{
	(void)state;
	assert_int_equal(mime_parse_date("Tue, 14 Nov 2023 22:13:20 +0000"), 1700000000);
	assert_int_equal(mime_parse_date("14 Nov 2023 23:13:20 +0100 (CET)"), 1700000000);
	assert_int_equal(mime_parse_date("Tue, 14 Nov 23 17:13:20 EST"), 1700000000);
	assert_int_equal(mime_parse_date("Tue, 14 Nov 2023 22:13 GMT"), 1699999980);
	assert_int_equal(mime_parse_date("yesterday"), 0);
	assert_int_equal(mime_parse_date(""), 0);
}

/* --- HTML -------------------------------------------------------------- */

static void
test_html(void **state)
{
	const char *html = "<html><head><title>T</title><style>p{}</style></head><body>"
	    "<script>alert(1)</script><h1>Orders</h1><p>A&nbsp;Par &amp;\n  Bur</p>"
	    "<ul><li>one</li><li>two<br>three</li></ul><table><tr><td>a</td><td>b</td></tr></table>"
	    "<pre>  keep\n  this</pre>&lt;tag&gt; &eacute;</body></html>";
	struct buf b;

	(void)state;
	buf_init(&b, 4096);
	assert_int_equal(html_to_text(html, strlen(html), &b), 0);
	assert_string_equal(buf_str(&b),
	    "Orders\n\nA Par & Bur\n\n- one\n- two\nthree\n\na b\n\n  keep\n  this\n\n<tag> \xc3\xa9\n");
	buf_free(&b);
}

/* --- whole messages ---------------------------------------------------- */

static void
test_plain(void **state)
{
	struct inmsg m;

	(void)state;
	parse_file("normal.eml", &m);
	assert_string_equal(m.from_addr, "alice@example.test");
	assert_string_equal(m.from_name, "Alice Smith");
	assert_string_equal(m.subject, "Orders for France");
	assert_string_equal(m.message_id, "orders-1@example.test");
	assert_string_equal(m.to, "judge+spring@example.test");
	assert_string_equal(m.to_tag, "spring");
	assert_int_equal(m.date, 1699996400);
	assert_int_equal(m.kind, INMSG_NORMAL);
	assert_null(m.kind_reason);
	/* whole, CRLF made LF, quoted lines and signature kept */
	assert_string_equal(m.text, "SIGNON france secret\nA Par-Bur\nF Bre-Mid\nA Mar S A Par-Bur\n\n"
	    "> quoted line\n-- \nAlice\n");
	assert_false(m.truncated || m.bad_charset || m.html_only || m.had_attachments);
	inmsg_free(&m);
}

static void
test_encodings(void **state)
{
	struct inmsg m;

	(void)state;
	parse_file("qp_latin1.eml", &m);
	assert_string_equal(m.from_name, "Ren\xc3\xa9");
	assert_string_equal(m.subject, "Ordres fran\xc3\xa7" "ais");
	assert_string_equal(m.text, "A Par-Bur \xc3\xa0 la fa\xc3\xa7on de l'arm\xc3\xa9" "e, tr\xc3\xa8s "
	    "longue ligne\nF Bre = Mid\n");
	inmsg_free(&m);
	parse_file("utf16.eml", &m);
	assert_string_equal(m.text, "A Par-Bur\n");
	inmsg_free(&m);
	parse_file("rfc2047.eml", &m);
	assert_string_equal(m.from_name, "\xc3\x89lo\xc3\xafse");
	assert_string_equal(m.subject, "\xf0\x9f\x8f\xb6 split \xe2\x82\xac euro and plain");
	assert_string_equal(m.to, "judge@example.test");	/* the judge's, not the first */
	assert_string_equal(m.in_reply_to, "results-1901@example.test");
	assert_string_equal(m.references, "<a@x> <results-1901@example.test>");
	inmsg_free(&m);
}

static void
test_structure(void **state)
{
	struct inmsg m;

	(void)state;
	parse_file("alternative.eml", &m);	/* plain preferred over HTML */
	assert_string_equal(m.text, "A Vie-Tri\nF Tri-Adr \xe2\x80\x94 ok \xc3\xbcn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9\n");
	assert_false(m.html_only);
	assert_false(m.had_attachments);
	inmsg_free(&m);
	parse_file("html_only.eml", &m);
	assert_true(m.html_only);
	assert_string_equal(m.text, "Orders for Germany:\n\n- A Mun-Ruh\n- F Kie-Den & more\nA Ber\n-Kie\n");
	inmsg_free(&m);
	parse_file("mixed_attachment.eml", &m);
	assert_string_equal(m.text, "A Mos-Ukr\n");
	assert_true(m.had_attachments);
	assert_int_equal(m.nattachments, 2);
	inmsg_free(&m);
	parse_file("broken_mime.eml", &m);	/* no boundary: read as text, QP decoded */
	assert_non_null(strstr(m.text, "no boundary at all = still readable and an invalid escape =ZZ"));
	inmsg_free(&m);
	parse_file("broken_nested.eml", &m);	/* unterminated parts */
	assert_string_equal(m.text, "first plain\nsecond plain part, no closing delimiter anywhere\n");
	inmsg_free(&m);
	parse_file("deep_nesting.eml", &m);	/* cut at MIME_MAX_DEPTH */
	assert_string_equal(m.text, "");
	assert_true(m.had_attachments);
	inmsg_free(&m);
}

static void
test_broken_input(void **state)
{
	struct inmsg m;

	(void)state;
	parse_file("wrong_charset.eml", &m);
	assert_true(m.bad_charset);
	assert_string_equal(m.subject, "charset caf\xc3\xa9");
	assert_string_equal(m.text, "A Par-Bur caf\xc3\xa9 \xe2\x80\x9cquoted\xe2\x80\x9d\n"
	    "bad utf-8: \xef\xbf\xbd( \xef\xbf\xbd end\n");
	inmsg_free(&m);
	parse_file("empty.eml", &m);
	assert_string_equal(m.text, "");
	assert_null(m.from_addr);
	inmsg_free(&m);
	parse_file("nul_and_controls.eml", &m);
	assert_string_equal(m.text, "A Par-Bur[31m\nF Bre-Mid\nA Mar H\n");
	assert_string_equal(m.subject, "ctl  ");
	inmsg_free(&m);
	parse_file("group_addresses.eml", &m);	/* From unusable: Sender */
	assert_string_equal(m.from_addr, "weird@example.test");
	assert_string_equal(m.reply_to, "reply@example.test");
	inmsg_free(&m);
	parse("From: <not an address>\nSubject: x\n\nhi\n", &m);
	assert_null(m.from_addr);
	inmsg_free(&m);
}

static void
test_caps(void **state)
{
	struct mime_opts o;
	struct inmsg m;
	struct buf raw;
	int i;

	(void)state;
	mime_opts_init(&o);
	o.max_lines = 10;
	buf_init(&raw, 1 << 24);
	buf_puts(&raw, "From: a@b.c\n\n");
	for (i = 0; i < 50; i++)
		buf_printf(&raw, "line %d\n", i);
	mime_parse(raw.data, raw.len, &o, &m);
	assert_true(m.truncated);
	assert_string_equal(m.text, "line 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n"
	    "line 8\nline 9\n");
	inmsg_free(&m);
	/* bigger than the raw cap: only the start is read */
	mime_opts_init(&o);
	o.max_raw = 1000;
	buf_reset(&raw);
	buf_puts(&raw, "From: a@b.c\n\n");
	for (i = 0; i < 1000; i++)
		buf_puts(&raw, "0123456789");
	mime_parse(raw.data, raw.len, &o, &m);
	assert_true(m.truncated);
	assert_int_equal(m.raw_size, raw.len);
	assert_true(strlen(m.text) <= 1000);
	inmsg_free(&m);
	buf_free(&raw);
}

static void
test_kinds(void **state)
{
	struct inmsg m;

	(void)state;
	parse_file("dsn.eml", &m);
	assert_int_equal(m.kind, INMSG_BOUNCE);
	assert_int_equal(m.nbounced, 2);	/* failed ones only, not the delayed */
	assert_string_equal(m.bounced[0], "nobody@example.test");
	assert_string_equal(m.bounced[1], "gone@example.test");
	assert_false(m.had_attachments);	/* the returned message is part of the report */
	inmsg_free(&m);
	parse_file("autoreply.eml", &m);
	assert_int_equal(m.kind, INMSG_AUTO);
	inmsg_free(&m);
	parse_file("list.eml", &m);
	assert_int_equal(m.kind, INMSG_BULK);
	inmsg_free(&m);
	parse_file("own.eml", &m);
	assert_int_equal(m.kind, INMSG_OWN);
	assert_string_equal(m.text, "A Par-Bur succeeds \xe2\x9c\x93\n");
	inmsg_free(&m);
	parse("From: Judge+Game@Example.test\n\nx\n", &m);	/* our address, with a tag */
	assert_int_equal(m.kind, INMSG_OWN);
	inmsg_free(&m);
	parse("From: MAILER-DAEMON\nSubject: failure\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_BOUNCE);
	inmsg_free(&m);
	parse("From: x@y.z\nX-Failed-Recipients: a@b.c, d@e.f\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_BOUNCE);
	assert_int_equal(m.nbounced, 2);
	inmsg_free(&m);
	parse("From: x@y.z\nAuto-Submitted: no\nPrecedence: first-class\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_NORMAL);
	inmsg_free(&m);
	parse("From: x@y.z\nSubject: Automatic reply: orders\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_AUTO);
	inmsg_free(&m);
	parse("From: x@y.z\nReturn-Path: <>\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_AUTO);
	inmsg_free(&m);
	parse("From: x@y.z\nPrecedence: junk\n\nx\n", &m);
	assert_int_equal(m.kind, INMSG_BULK);
	inmsg_free(&m);
	{
		struct buf raw;
		int i;
		buf_init(&raw, 1 << 16);
		for (i = 0; i < MIME_MAX_HOPS + 1; i++)
			buf_puts(&raw, "Received: from a by b\n");
		buf_puts(&raw, "From: x@y.z\n\nloop\n");
		parse(buf_str(&raw), &m);
		assert_int_equal(m.kind, INMSG_AUTO);
		inmsg_free(&m);
		buf_free(&raw);
	}
}

/* Every seed: the promises of mime.h hold. */
static void
test_corpus(void **state)
{
	DIR *d = opendir(CORPUS);
	struct dirent *e;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		struct inmsg m;
		const char *p;

		if (e->d_name[0] == '.')
			continue;
		parse_file(e->d_name, &m);
		assert_non_null(m.text);
		assert_true(utf8_valid(m.text, strlen(m.text)));
		for (p = m.text; *p; p++)
			assert_true((unsigned char)*p >= 32 || *p == '\n' || *p == '\t');
		inmsg_free(&m);
		n++;
	}
	closedir(d);
	assert_true(n >= 20);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qp_decode),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_qp_encode),
		cmocka_unit_test(test_charsets),
		cmocka_unit_test(test_header_parse),
		cmocka_unit_test(test_header_caps),
		cmocka_unit_test(test_rfc2047),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_structure),
		cmocka_unit_test(test_broken_input),
		cmocka_unit_test(test_caps),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
