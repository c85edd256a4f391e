/*
 * test_tlsverify.c — our own certificate verification (libetpan does
 * none): a chain is accepted only for the right CA and the right host
 * name or IP address. The certificates are made with openssl at run time.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../mailer/tlsverify.h"

static char dir[64];

/* Run a shell command in dir. */
static int
sh(const char *cmd)
{
	char full[2048];

	snprintf(full, sizeof full, "cd %s && %s", dir, cmd);
	return system(full);
}

static int
setup(void **state)
{
	(void)state;
	if (test_mkdtemp(dir, sizeof dir, "tls") < 0)
		return -1;
	/* a self-signed server certificate (as the test mail stack has), and another CA */
	if (sh("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
	    "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout key.pem -out cert.pem "
	    ">/dev/null 2>&1 && openssl x509 -in cert.pem -outform DER -out cert.der") != 0)
		return -1;
	if (sh("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other "
	    "-keyout other.key -out other.pem >/dev/null 2>&1") != 0)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return test_rm_rf(dir);
}

static int
verify(const char *host, const char *ca, struct buf *err)
{
	char p[256], cap[256];
	struct buf der;
	struct tls_der chain[1];
	int r;

	snprintf(p, sizeof p, "%s/cert.der", dir);
	snprintf(cap, sizeof cap, "%s/%s", dir, ca);
	test_read_file(p, &der);
	chain[0].data = (const unsigned char *)der.data;
	chain[0].len = der.len;
	buf_reset(err);
	r = tls_verify_chain(chain, 1, host, cap, err);
	buf_free(&der);
	return r;
}

static void
test_verify(void **state)
{
	struct buf err;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(verify("localhost", "cert.pem", &err), 0);
	assert_int_equal(verify("127.0.0.1", "cert.pem", &err), 0);
	assert_int_equal(verify("mail.example.org", "cert.pem", &err), -1);
	assert_non_null(strstr(buf_str(&err), "mail.example.org: the server's certificate is refused"));
	assert_int_equal(verify("127.0.0.2", "cert.pem", &err), -1);
	assert_int_equal(verify("localhost", "other.pem", &err), -1);
	assert_non_null(strstr(buf_str(&err), "refused"));
	assert_int_equal(verify("localhost", "missing.pem", &err), -1);
	assert_non_null(strstr(buf_str(&err), "no CA certificate could be read"));
	buf_reset(&err);
	assert_int_equal(tls_verify_chain(NULL, 0, "localhost", NULL, &err), -1);
	assert_non_null(strstr(buf_str(&err), "no certificate"));
	buf_free(&err);
}

static void
test_garbage(void **state)
{
	struct tls_der chain[1] = { { (const unsigned char *)"not DER", 7 } };
	struct buf err;

	(void)state;
	buf_init(&err, 4096);
	assert_int_equal(tls_verify_chain(chain, 1, "localhost", NULL, &err), -1);
	assert_non_null(strstr(buf_str(&err), "cannot be read"));
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verify),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
