/*
 * test_verify.c — passwords checked ahead on worker threads (the shell's
 * judge/shell/verify.h): every verdict is secret_check's, whether the
 * check was queued and made by a worker, taken over by the caller, or
 * never queued; with no worker, or several.
 */
#define _GNU_SOURCE
#include "../support/testutil.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../judge/secret.h"
#include "../../judge/shell/scratch.h"
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

/* A verifier whose one worker runs at the lowest priority: made by a
 * thread of that priority, which the worker inherits. */
static void *
idle_verifier(void *arg)
{
	(void)arg;
	return verifier_new(1);
}

/* Checks the caller took over are not counted as queued, though their
 * copies wait in the ring until a worker passes them: the worker is made
 * to wait (one processor, the lowest priority, the caller keeping it
 * busy), so the caller takes over every check. */
static void
test_taken_over_not_queued(void **state)
{
	struct sched_param idle = { 0 };
	pthread_attr_t at;
	pthread_t maker;
	struct verifier *v;
	cpu_set_t one, old;
	void *made;
	char pw[32];
	int i;

	(void)state;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	assert_int_equal(sched_getaffinity(0, sizeof old, &old), 0);
	assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
	pthread_attr_init(&at);
	pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&at, SCHED_IDLE);
	pthread_attr_setschedparam(&at, &idle);
	assert_int_equal(pthread_create(&maker, &at, idle_verifier, NULL), 0);
	assert_int_equal(pthread_join(maker, &made), 0);
	pthread_attr_destroy(&at);
	v = made;
	for (i = 0; i < NPW; i++) {
		password(i, true, pw, sizeof pw);
		assert_true(verifier_add(v, pw, hashes[i]));
	}
	for (i = NPW - 1; i >= 0; i--) {
		password(i, true, pw, sizeof pw);
		assert_true(verifier_check(v, pw, hashes[i]));
		assert_true(verifier_queued(v) <= (size_t)i);
	}
	assert_int_equal(verifier_queued(v), 0);
	verifier_free(v);
	assert_int_equal(sched_setaffinity(0, sizeof old, &old), 0);
}

/* What the counts say: checks queued anew (not one known or queued
 * already), and those the workers made (not the caller's): left alone,
 * the one worker makes every check queued; the verdicts then asked for
 * are known, and no check is queued or made again. */
static void
test_counts(void **state)
{
	struct verifier *v = verifier_new(1);
	size_t added, made;
	char pw[32];
	int i, waited;

	(void)state;
	for (i = 0; i < NPW; i++) {
		password(i, i % 2 == 0, pw, sizeof pw);
		assert_true(verifier_add(v, pw, hashes[i]));
		assert_true(verifier_add(v, pw, hashes[i]));	/* queued already */
	}
	verifier_counts(v, &added, &made);
	assert_int_equal(added, NPW);
	for (waited = 0; made < NPW && waited < 10000; waited++) {
		usleep(1000);
		verifier_counts(v, &added, &made);
	}
	assert_int_equal(made, NPW);
	for (i = 0; i < NPW; i++) {
		password(i, i % 2 == 0, pw, sizeof pw);
		assert_true(verifier_add(v, pw, hashes[i]));	/* known */
		assert_int_equal(verifier_check(v, pw, hashes[i]), i % 2 == 0);
	}
	verifier_counts(v, &added, &made);
	assert_int_equal(added, NPW);
	assert_int_equal(made, NPW);
	verifier_free(v);
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

/* The caller's checks, one after another on one thread, work in the
 * memory the first was given (scratch.h): the second is given it again;
 * the verdicts are secret_check's own. A map of the same size outside a
 * check is the C library's, not the kept region; after scratch_release
 * the next check maps anew. */
static void
test_scratch_kept(void **state)
{
	struct verifier *v = verifier_new(0);
	size_t before = scratch_reused();
	char pw[32];
	void *p;

	(void)state;
	password(0, true, pw, sizeof pw);
	assert_true(verifier_check(v, pw, hashes[0]));
	assert_int_equal(scratch_reused(), before);	/* the first maps it */
	password(1, false, pw, sizeof pw);
	assert_false(verifier_check(v, pw, hashes[1]));
	assert_int_equal(scratch_reused(), before + 1);
	assert_false(secret_check(pw, hashes[1]));
	password(2, true, pw, sizeof pw);
	assert_true(verifier_check(v, pw, hashes[2]));
	assert_true(secret_check(pw, hashes[2]));
	assert_int_equal(scratch_reused(), before + 2);
	p = mmap(NULL, (size_t)1 << 20, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	assert_true(p != MAP_FAILED);
	assert_int_equal(scratch_reused(), before + 2);
	assert_int_equal(munmap(p, (size_t)1 << 20), 0);
	verifier_free(v);	/* releases the caller's region */
	v = verifier_new(0);
	password(3, true, pw, sizeof pw);
	assert_true(verifier_check(v, pw, hashes[3]));
	assert_int_equal(scratch_reused(), before + 2);
	verifier_free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_worker),
		cmocka_unit_test(test_one_worker),
		cmocka_unit_test(test_workers),
		cmocka_unit_test(test_taken_over_not_queued),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_free_queued),
		cmocka_unit_test(test_scratch_kept),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
