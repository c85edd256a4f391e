/*
 * test_verify.c — passwords checked ahead on worker threads (the shell's
 * judge/shell/verify.h): every verdict is secret_check's, whether the
 * check was queued and made by a worker, taken over by the caller, or
 * never queued; with no worker, or several.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <string.h>

#include "../../judge/secret.h"
#include "../../judge/shell/verify.h"

#define NPW 24

static char hashes[NPW][SECRET_HASH_MAX];

static int
group_setup(void **state)
{
	unsigned char salt[16];
	char pw[32];
	int i;

	(void)state;
	for (i = 0; i < NPW; i++) {
		memset(salt, i + 1, sizeof salt);
		snprintf(pw, sizeof pw, "pw-%d", i);
		if (secret_hash(pw, salt, hashes[i], sizeof hashes[i]) < 0)
			return -1;
	}
	return 0;
}

/* Password i's right one, or a wrong one. */
static void
password(int i, bool right, char *out, size_t size)
{
	snprintf(out, size, right ? "pw-%d" : "pw-%d-not", i);
}

static void
check_all(int nthreads, bool ahead, bool backwards)
{
	struct verifier *v = verifier_new(nthreads);
	char pw[32];
	int i, k, round;

	if (ahead)
		for (i = 0; i < NPW; i++) {
			password(i, i % 3 != 0, pw, sizeof pw);
			/* with no worker nothing is queued: the caller checks */
			assert_int_equal(verifier_add(v, pw, hashes[i]), nthreads > 0);
			assert_true(verifier_add(v, pw, hashes[i]) || nthreads == 0);	/* once */
		}
	for (round = 0; round < 2; round++)	/* the second: the verdicts kept */
		for (k = 0; k < NPW; k++) {
			i = backwards ? NPW - 1 - k : k;
			password(i, i % 3 != 0, pw, sizeof pw);
			assert_int_equal(verifier_check(v, pw, hashes[i]), i % 3 != 0);
			/* the other verdict, never queued */
			password(i, i % 3 == 0, pw, sizeof pw);
			assert_int_equal(verifier_check(v, pw, hashes[i]), i % 3 == 0);
		}
	assert_int_equal(verifier_queued(v), 0);
	verifier_free(v);
}

static void
test_no_worker(void **state)
{
	(void)state;
	check_all(0, true, false);
}

static void
test_one_worker(void **state)
{
	(void)state;
	check_all(1, true, false);
	check_all(1, true, true);	/* the last first: most taken over */
	check_all(1, false, false);
}

static void
test_workers(void **state)
{
	(void)state;
	check_all(3, true, false);
	check_all(3, true, true);
}

/* Freed with checks still queued: the workers stop, nothing leaks
 * (the sanitized build's leak check). */
static void
test_free_queued(void **state)
{
	struct verifier *v = verifier_new(1);
	char pw[32];
	int i;

	(void)state;
	for (i = 0; i < NPW; i++) {
		password(i, true, pw, sizeof pw);
		verifier_add(v, pw, hashes[i]);
	}
	verifier_free(v);
	verifier_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_worker),
		cmocka_unit_test(test_one_worker),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_free_queued),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
