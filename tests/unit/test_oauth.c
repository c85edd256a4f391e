/*
 * test_oauth.c — the flat JSON reader of token endpoint answers, the SASL
 * messages (XOAUTH2, OAUTHBEARER), and the kept access token: used while
 * it has more than OAUTH_MARGIN seconds left, renewed otherwise (here at
 * an endpoint that does not answer, so renewal shows as an error).
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../lib/fsio.h"
#include "../../mailer/oauth.h"

static void
test_json(void **state)
{
	const char *j = "{ \"access_token\" : \"ya29.a0\\u00e9\\/x\", \"expires_in\": 3599,"
	    "\"scope\": [\"a\", \"b\"], \"nested\": {\"error\": \"no\"}, \"error\":\"invalid_grant\","
	    "\"t\": true, \"q\": \"say \\\"hi\\\"\\n\", \"e\": \"\\ud83d\\ude00\" }";
	char out[64];

	(void)state;
	assert_int_equal(oauth_json_get(j, strlen(j), "access_token", out, sizeof out), 0);
	assert_string_equal(out, "ya29.a0\xc3\xa9/x");
	assert_int_equal(oauth_json_get(j, strlen(j), "expires_in", out, sizeof out), 0);
	assert_string_equal(out, "3599");
	/* the top-level key, not the one nested in an object */
	assert_int_equal(oauth_json_get(j, strlen(j), "error", out, sizeof out), 0);
	assert_string_equal(out, "invalid_grant");
	assert_int_equal(oauth_json_get(j, strlen(j), "t", out, sizeof out), 0);
	assert_string_equal(out, "true");
	assert_int_equal(oauth_json_get(j, strlen(j), "q", out, sizeof out), 0);
	assert_string_equal(out, "say \"hi\"\n");
	assert_int_equal(oauth_json_get(j, strlen(j), "e", out, sizeof out), 0);
	assert_string_equal(out, "\xf0\x9f\x98\x80");
	/* arrays and objects are not values here; absent keys */
	assert_int_equal(oauth_json_get(j, strlen(j), "scope", out, sizeof out), -1);
	assert_int_equal(oauth_json_get(j, strlen(j), "nested", out, sizeof out), -1);
	assert_int_equal(oauth_json_get(j, strlen(j), "refresh_token", out, sizeof out), -1);
	/* too long for out: refused, not cut */
	assert_int_equal(oauth_json_get(j, strlen(j), "access_token", out, 8), -1);
	/* broken answers */
	assert_int_equal(oauth_json_get("[1]", 3, "a", out, sizeof out), -1);
	assert_int_equal(oauth_json_get("{\"a\": \"x", 8, "a", out, sizeof out), -1);
	assert_int_equal(oauth_json_get("{\"a\" 1}", 7, "a", out, sizeof out), -1);
	assert_int_equal(oauth_json_get("{}", 2, "a", out, sizeof out), -1);
	assert_int_equal(oauth_json_get("<html>", 6, "a", out, sizeof out), -1);
	/* only len bytes are read */
	assert_int_equal(oauth_json_get("{\"a\": 12345}", 9, "a", out, sizeof out), 0);
	assert_string_equal(out, "123");
}

static void
test_sasl(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 4096);
	assert_int_equal(oauth_sasl_xoauth2("judge@school.example", "tok", &b), 0);
	assert_int_equal(b.len, strlen("user=judge@school.example\001auth=Bearer tok\001\001"));
	assert_memory_equal(b.data, "user=judge@school.example\001auth=Bearer tok\001\001", b.len);
	buf_reset(&b);
	/* RFC 7628 3.1: ',' and '=' in the authorization identity escaped */
	assert_int_equal(oauth_sasl_oauthbearer("a,b=c@x", "imap.example", 993, "tok", &b), 0);
	assert_string_equal(buf_str(&b),
	    "n,a=a=2Cb=3Dc@x,\001host=imap.example\001port=993\001auth=Bearer tok\001\001");
	buf_free(&b);
	buf_init(&b, 10);
	assert_int_equal(oauth_sasl_xoauth2("judge", "a-long-token", &b), -1);
	buf_free(&b);
}

/* An account whose token endpoint does not answer (port 9 on loopback). */
static void
settings(struct oauth_settings *s, const char *dir, char *rt, size_t size)
{
	memset(s, 0, sizeof *s);
	snprintf(rt, size, "%s/secrets/refresh_token", dir);
	s->mech = OAUTH_XOAUTH2;
	s->token_url = (char *)(uintptr_t)"https://127.0.0.1:9/token";
	s->client_id = (char *)(uintptr_t)"pouch-test";
	s->refresh_token_file = rt;
}

static void
test_kept_token(void **state)
{
	char dir[64], rt[256];
	struct oauth_settings s;
	struct oauth_grant g;
	struct buf err;
	struct stat st;
	long left = 0;
	char *t;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "oauth"), 0);
	settings(&s, dir, rt, sizeof rt);
	buf_init(&err, 4096);
	g.access_token = strdup("at-hour");
	g.refresh_token = strdup("rt-1");
	g.expires_in = 3600;
	assert_int_equal(oauth_save_login(&s, dir, &g, &err), 0);
	assert_int_equal(stat(rt, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	/* an hour left: used as it is, no endpoint asked */
	t = oauth_access_token(&s, dir, false, &left, &err);
	assert_non_null(t);
	assert_string_equal(t, "at-hour");
	assert_true(left > 3500 && left <= 3600);
	free(t);
	assert_string_equal(buf_str(&err), "");

	/* renew: the endpoint is asked (and does not answer) */
	assert_null(oauth_access_token(&s, dir, true, NULL, &err));
	assert_non_null(strstr(buf_str(&err), "OAuth endpoint https://127.0.0.1:9/token"));
	buf_reset(&err);

	/* less than the margin left: renewed before use */
	oauth_grant_clear(&g);
	g.access_token = strdup("at-short");
	g.refresh_token = strdup("rt-1");
	g.expires_in = OAUTH_MARGIN - 5;
	assert_int_equal(oauth_save_login(&s, dir, &g, &err), 0);
	assert_null(oauth_access_token(&s, dir, false, NULL, &err));
	assert_non_null(strstr(buf_str(&err), "OAuth endpoint"));
	assert_null(strstr(buf_str(&err), "at-short"));
	buf_reset(&err);

	/* another refresh token (a new login): the old account's token is not used */
	oauth_grant_clear(&g);
	g.access_token = strdup("at-other");
	g.refresh_token = strdup("rt-2");
	g.expires_in = 3600;
	assert_int_equal(oauth_save_login(&s, dir, &g, &err), 0);
	t = oauth_access_token(&s, dir, false, NULL, &err);
	assert_string_equal(t, "at-other");
	free(t);

	/* a refresh token file others may read: refused */
	assert_int_equal(chmod(rt, 0644), 0);
	assert_null(oauth_access_token(&s, dir, false, NULL, &err));
	assert_non_null(strstr(buf_str(&err), "chmod 600"));
	assert_null(strstr(buf_str(&err), "rt-2"));

	oauth_grant_clear(&g);
	buf_free(&err);
	test_rm_rf(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_sasl),
		cmocka_unit_test(test_kept_token),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
