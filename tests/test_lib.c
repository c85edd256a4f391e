/*
 * test_lib.c — lib/: bounded buffers, strings, durable files, locks.
 */
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/buf.h"
#include "../lib/fsio.h"
#include "../lib/str.h"
#include "../lib/strset.h"

static void
test_buf_cap(void **state)
{
	struct buf b;
	char *s;

	(void)state;
	buf_init(&b, 10);
	assert_string_equal(buf_str(&b), "");
	assert_int_equal(buf_puts(&b, "hello"), 0);
	assert_int_equal(buf_printf(&b, " %d", 42), 0);
	assert_string_equal(buf_str(&b), "hello 42");
	/* One byte more than the cap is refused and leaves the buffer as it was. */
	assert_int_equal(buf_puts(&b, "abc"), -1);
	assert_string_equal(buf_str(&b), "hello 42");
	assert_int_equal(buf_puts(&b, "ab"), 0);
	assert_int_equal((int)b.len, 10);
	assert_int_equal(buf_putc(&b, 'x'), -1);
	buf_truncate(&b, 5);
	assert_string_equal(buf_str(&b), "hello");
	s = buf_take(&b);
	assert_string_equal(s, "hello");
	assert_int_equal((int)b.len, 0);
	free(s);
	buf_free(&b);
	buf_free(&b);	/* freeing twice is harmless */
}

static void
test_strings(void **state)
{
	char t[32] = "  Spring 1901 \t\n";
	long v;

	(void)state;
	assert_true(str_eq_nocase("Burgundy", "BURGUNDY"));
	assert_false(str_eq_nocase("Burgundy", "Burgund"));
	assert_true(str_prefix_nocase("Norwegian Sea", "nor"));
	assert_string_equal(str_trim(t), "Spring 1901");
	assert_int_equal(str_to_long(" 42 ", 0, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(str_to_long("42x", 0, 100, &v), -1);
	assert_int_equal(str_to_long("101", 0, 100, &v), -1);
	assert_int_equal(str_to_long("", 0, 100, &v), -1);
	/* Edit distance: substitutions, insertions, transpositions, the limit. */
	assert_int_equal(str_edit_distance("burgandy", 8, "burgundy", 8, 3), 1);
	assert_int_equal(str_edit_distance("germnay", 7, "germany", 7, 3), 1);
	assert_int_equal(str_edit_distance("lon", 3, "london", 6, 5), 3);
	assert_int_equal(str_edit_distance("abc", 3, "xyz", 3, 1), 2);	/* limit + 1 */
	assert_int_equal(str_edit_distance("ABC", 3, "abc", 3, 0), 0);
}

static void
test_lines(void **state)
{
	const char text[] = "one\r\ntwo\n\nfour";
	const char *p = text, *end = text + sizeof text - 1, *l;
	size_t n;
	int count = 0;

	(void)state;
	while ((l = str_next_line(&p, end, &n)) != NULL) {
		count++;
		if (count == 1)
			assert_true(n == 3 && strncmp(l, "one", 3) == 0);
		if (count == 3)
			assert_int_equal((int)n, 0);
		if (count == 4)
			assert_true(n == 4 && strncmp(l, "four", 4) == 0);
	}
	assert_int_equal(count, 4);
}

static void
test_atomic_write(void **state)
{
	char dir[] = "/tmp/pouch-test-XXXXXX", path[256];
	struct buf b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a/b/state.txt", dir);
	assert_int_equal(fs_mkdir_p(strrchr(path, '/') ? dir : dir, 0755), 0);
	{
		char sub[256];
		snprintf(sub, sizeof sub, "%s/a/b", dir);
		assert_int_equal(fs_mkdir_p(sub, 0755), 0);
	}
	assert_int_equal(fs_write_atomic(path, "first\n", 6), 0);
	assert_int_equal(fs_write_atomic(path, "second\n", 7), 0);
	buf_init(&b, 100);
	assert_int_equal(fs_read_file(path, &b), 0);
	assert_string_equal(buf_str(&b), "second\n");
	buf_free(&b);
	/* A file larger than the buffer's cap is refused with EFBIG. */
	buf_init(&b, 3);
	assert_int_equal(fs_read_file(path, &b), -1);
	assert_int_equal(errno, EFBIG);
	buf_free(&b);
	assert_int_equal(fs_append_sync(path, "third\n", 6), 0);
	buf_init(&b, 100);
	assert_int_equal(fs_read_file(path, &b), 0);
	assert_string_equal(buf_str(&b), "second\nthird\n");
	buf_free(&b);
}

static void
test_lock(void **state)
{
	char dir[] = "/tmp/pouch-lock-XXXXXX", path[256];
	int fd;
	pid_t pid;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lock", dir);
	fd = fs_lock(path, 0);
	assert_true(fd >= 0);
	/* Another process cannot take it, and gives up after waiting. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd2 = fs_lock(path, 100);
		_exit(fd2 < 0 && errno == EWOULDBLOCK ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	fs_unlock(fd);
	fd = fs_lock(path, 0);
	assert_true(fd >= 0);
	fs_unlock(fd);
}

static void
test_strset(void **state)
{
	struct strset s;
	char key[32];
	int i;

	(void)state;
	strset_init(&s);
	assert_false(strset_has(&s, "a"));
	/* Enough keys to grow the table several times. */
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "pouch.m%d.1@example.org", i);
		assert_int_equal(strset_add(&s, key), 1);
	}
	for (i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "pouch.m%d.1@example.org", i);
		assert_true(strset_has(&s, key));
		assert_int_equal(strset_add(&s, key), 0);
	}
	assert_false(strset_has(&s, "pouch.m5000.1@example.org"));
	assert_int_equal((int)s.n, 5000);
	strset_free(&s);
	strset_free(&s);	/* harmless twice */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_cap),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_strset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
