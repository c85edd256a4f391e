/*
 * test_lib.c — lib/: bounded buffers, strings, string vectors, the cursor
 * scanner, durable files, locks, libraries loaded on first use.
 */
#include "../support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>
#include <libxml/tree.h>

#include "../../lib/buf.h"
#include "../../lib/fsio.h"
#include "../../lib/lazylib.h"
#include "../../lib/scan.h"
#include "../../lib/sha256.h"
#include "../../lib/str.h"
#include "../../lib/strset.h"
#include "../../lib/strv.h"

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
	assert_int_equal(buf_puts(&b, "ab"), 0);
	assert_int_equal((int)b.len, 10);
	/* One byte more than the cap is refused and leaves the buffer as it was. */
	assert_int_equal(buf_putc(&b, 'x'), -1);
	assert_string_equal(buf_str(&b), "hello 42ab");
	buf_truncate(&b, 5);
	assert_string_equal(buf_str(&b), "hello");
	s = buf_take(&b);
	assert_string_equal(s, "hello");
	assert_int_equal((int)b.len, 0);
	free(s);
	buf_free(&b);
	buf_free(&b);	/* freeing twice is harmless */

	/* buf_printf within the room there is, past it (the buffer grows), and
	 * past the cap: refused, the buffer as it was. */
	buf_init(&b, 100);
	assert_int_equal(buf_puts(&b, "ab"), 0);	/* 64 bytes allocated */
	assert_int_equal(buf_printf(&b, "%060d", 7), 0);
	assert_int_equal((int)b.len, 62);
	assert_int_equal(buf_printf(&b, "%s", "cdefg"), 0);	/* does not fit in 64 */
	assert_int_equal((int)b.len, 67);
	assert_string_equal(buf_str(&b) + 60, "07cdefg");
	assert_int_equal(buf_printf(&b, "%040d", 1), -1);	/* 107 > 100 */
	assert_int_equal((int)b.len, 67);
	assert_string_equal(buf_str(&b) + 60, "07cdefg");
	buf_truncate(&b, 67);	/* back to before the refusal */
	assert_int_equal(buf_printf(&b, "%033d", 1), 0);	/* exactly 100 */
	assert_int_equal((int)b.len, 100);
	assert_int_equal(buf_printf(&b, "%s", ""), 0);
	assert_int_equal(buf_printf(&b, "x"), -1);
	assert_int_equal((int)strlen(buf_str(&b)), 100);
	buf_free(&b);
}

/* A refused append is not followed by a smaller one that fits: the text
 * would lose a piece from its middle and read as whole. */
static void
test_buf_no_middle_loss(void **state)
{
	struct buf b;

	(void)state;
	buf_init(&b, 24);
	assert_int_equal(buf_puts(&b, "A Vie - Bud.\n"), 0);
	assert_int_equal(buf_puts(&b, "F Tri - Adriatic Sea.\n"), -1);
	assert_int_equal(buf_puts(&b, "A Bud H.\n"), -1);
	assert_int_equal(buf_putc(&b, 'x'), -1);
	assert_int_equal(buf_printf(&b, "%d", 1), -1);
	assert_int_equal(buf_append(&b, "", 0), -1);
	assert_string_equal(buf_str(&b), "A Vie - Bud.\n");
	/* The place that uses the text is told. */
	assert_true(buf_failed(&b));
	assert_null(buf_text(&b));
	/* Cut back to a mark before the refusal, the writer starts clean. */
	buf_truncate(&b, 6);
	assert_false(buf_failed(&b));
	assert_int_equal(buf_puts(&b, "Bud.\n"), 0);
	assert_string_equal(buf_text(&b), "A Vie Bud.\n");
	/* Refused in buf_printf's first pass, then a string that fits. */
	assert_int_equal(buf_printf(&b, "%30s", "x"), -1);
	assert_int_equal(buf_puts(&b, "y"), -1);
	assert_true(buf_failed(&b));
	buf_reset(&b);
	assert_false(buf_failed(&b));
	assert_string_equal(buf_text(&b), "");
	buf_free(&b);
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

/* A page written again with the same bytes is left as it was (the same
 * file); with other bytes, or other length, it is replaced. A page made a
 * hard link to another is that file, and a second link leaves nothing
 * behind; the other's later replacement does not change it. */
static void
test_replace_changed_and_link(void **state)
{
	char dir[] = "/tmp/pouch-test-XXXXXX", a[256], c[256], tmp[300];
	struct stat s1, s2;
	struct buf b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a.svg", dir);
	snprintf(c, sizeof c, "%s/current.svg", dir);
	assert_int_equal(fs_replace_changed(a, "<svg/>", 6), 0);
	assert_int_equal(stat(a, &s1), 0);
	assert_int_equal(fs_replace_changed(a, "<svg/>", 6), 0);
	assert_int_equal(stat(a, &s2), 0);
	assert_true(s1.st_ino == s2.st_ino);	/* not written again */
	assert_int_equal(fs_replace_changed(a, "<svg/ >", 7), 0);
	assert_int_equal(fs_replace_changed(a, "<svG/ >", 7), 0);
	buf_init(&b, 100);
	assert_int_equal(fs_read_file(a, &b), 0);
	assert_string_equal(buf_str(&b), "<svG/ >");
	buf_free(&b);
	assert_int_equal(fs_replace(c, "old", 3), 0);
	assert_int_equal(fs_replace_link(c, a), 0);
	assert_int_equal(fs_replace_link(c, a), 0);
	assert_int_equal(stat(a, &s1), 0);
	assert_int_equal(stat(c, &s2), 0);
	assert_true(s1.st_ino == s2.st_ino);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", c, (long)getpid());
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(fs_replace_changed(a, "next", 4), 0);
	buf_init(&b, 100);
	assert_int_equal(fs_read_file(c, &b), 0);
	assert_string_equal(buf_str(&b), "<svG/ >");
	buf_free(&b);
	assert_int_equal(fs_rm_rf(dir), 0);
}

/* A file read with the size it had when looked at is read whole however
 * that size compares with what it holds now: grown (bigger than a read
 * takes at once), shrunk, or the same; also into a buffer with room. */
static void
test_read_sized(void **state)
{
	char dir[] = "/tmp/pouch-sized-XXXXXX", path[256];
	static char big[200000];
	struct buf b;
	size_t i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f", dir);
	for (i = 0; i < sizeof big; i++)
		big[i] = (char)('a' + i % 26);
	assert_int_equal(fs_write_atomic(path, big, sizeof big), 0);
	for (int k = 0; k < 2; k++) {
		size_t sizes[] = { 0, 10, 65536, sizeof big, sizeof big + 5 };
		for (i = 0; i < sizeof sizes / sizeof *sizes; i++) {
			buf_init(&b, 1 << 20);
			if (k == 1) {	/* room for it all in the buffer */
				assert_int_equal(buf_append(&b, big, sizeof big), 0);
				buf_reset(&b);
			}
			assert_int_equal(fs_read_file_sized(path, sizes[i], &b), 0);
			assert_int_equal(b.len, sizeof big);
			assert_memory_equal(b.data, big, sizeof big);
			buf_free(&b);
		}
	}
	unlink(path);
	rmdir(dir);
}

/* Make dir/name with a line in it. */
static void
touch_in(const char *dir, const char *name)
{
	char path[300];

	assert_true((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) < sizeof path);
	assert_int_equal(fs_write_atomic(path, "x\n", 2), 0);
}

static void
test_sweep_tmp(void **state)
{
	char dir[] = "/tmp/pouch-sweep-XXXXXX", sub[64], deep[64], name[64], path[200];
	pid_t gone;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A process that has ended: its PID names no running process. */
	gone = fork();
	assert_true(gone >= 0);
	if (gone == 0)
		_exit(0);
	assert_int_equal(waitpid(gone, &status, 0), gone);
	snprintf(sub, sizeof sub, "%s/g1", dir);
	snprintf(deep, sizeof deep, "%s/g1/history", dir);
	assert_int_equal(fs_mkdir_p(deep, 0755), 0);
	snprintf(name, sizeof name, "game.txt.tmp.%ld", (long)gone);
	touch_in(dir, name);
	touch_in(sub, name);
	touch_in(deep, name);
	snprintf(name, sizeof name, "mine.tmp.%ld", (long)getpid());
	touch_in(dir, name);			/* this process's own: kept */
	touch_in(dir, "a.tmp.12x");		/* not a PID: kept */
	touch_in(dir, "game.txt");		/* not temporary: kept */
	touch_in(dir, "a.tmp.1");		/* init is running: kept */
	/* Only the folder asked for (depth 0), then one level below. */
	assert_int_equal(fs_sweep_tmp(dir, 0), 1);
	assert_int_equal(fs_sweep_tmp(dir, 1), 1);
	snprintf(path, sizeof path, "%s/game.txt.tmp.%ld", deep, (long)gone);
	assert_true(fs_exists(path));
	assert_int_equal(fs_sweep_tmp(dir, 2), 1);
	assert_false(fs_exists(path));
	assert_int_equal(fs_sweep_tmp(dir, 2), 0);
	snprintf(path, sizeof path, "%s/mine.tmp.%ld", dir, (long)getpid());
	assert_true(fs_exists(path));
	snprintf(path, sizeof path, "%s/a.tmp.12x", dir);
	assert_true(fs_exists(path));
	snprintf(path, sizeof path, "%s/a.tmp.1", dir);
	assert_true(fs_exists(path));
	snprintf(path, sizeof path, "%s/game.txt", dir);
	assert_true(fs_exists(path));
	assert_int_equal(fs_rm_rf(dir), 0);
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

static void
test_strv(void **state)
{
	char **v = NULL, word[16];
	int n = 0, i;

	(void)state;
	strv_free(NULL, 0);	/* nothing to free */
	/* Copies are pushed: the caller's buffer may change after. */
	for (i = 0; i < 100; i++) {
		snprintf(word, sizeof word, "w%d", i);
		strv_push(&v, &n, word);
	}
	assert_int_equal(n, 100);
	assert_string_equal(v[0], "w0");
	assert_string_equal(v[57], "w57");
	assert_string_equal(v[99], "w99");
	assert_ptr_not_equal(v[99], word);
	strv_free(v, n);	/* the sanitizer build sees a leak if one is left */
}

static size_t
no_data(char *out, size_t size, size_t n, void *arg)
{
	(void)out;
	(void)size;
	(void)n;
	(void)arg;
	return 0;
}

/* Run lazylib_sym(lib, name) in a child: its exit status and stderr. */
static int
sym_in_child(struct lazylib *lib, const char *name, char *err, size_t errlen)
{
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		lazylib_sym(lib, name);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], err, errlen - 1);
	err[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_lazylib(void **state)
{
	struct lazylib missing = { "libpouch-no-such-library.so.9", "for this test", NULL };
	CURL *h;
	xmlDocPtr doc;
	char err[512];

	(void)state;
	/* Nothing so far needed them: neither is loaded. */
	assert_false(lazylib_loaded(&lazy_xml2));
	assert_false(lazylib_loaded(&lazy_curl));

	doc = xmlNewDoc((const xmlChar *)"1.0");
	assert_true(lazylib_loaded(&lazy_xml2));
	assert_false(lazylib_loaded(&lazy_curl));
	assert_non_null(doc);
	assert_string_equal((const char *)doc->version, "1.0");
	xmlDocSetRootElement(doc, xmlNewNode(NULL, (const xmlChar *)"pouch"));
	assert_string_equal((const char *)xmlDocGetRootElement(doc)->name, "pouch");
	xmlFreeDoc(doc);

	/* Each kind of curl_easy_setopt argument reaches libcurl as itself. */
	assert_string_equal(curl_easy_strerror(CURLE_OK), "No error");
	assert_true(lazylib_loaded(&lazy_curl));
	assert_int_equal(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	h = curl_easy_init();
	assert_non_null(h);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL), CURLE_OK);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_USE_SSL, 99L), CURLE_BAD_FUNCTION_ARGUMENT);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_URL, "smtp://127.0.0.1"), CURLE_OK);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_READFUNCTION, no_data), CURLE_OK);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)1 << 40), CURLE_OK);
	assert_int_equal(curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)-2),
	    CURLE_BAD_FUNCTION_ARGUMENT);
	curl_easy_cleanup(h);
	curl_global_cleanup();

	/* A library or a symbol that is not there: said, and the end. */
	assert_int_equal(sym_in_child(&missing, "f", err, sizeof err), 1);
	assert_non_null(strstr(err, "cannot load libpouch-no-such-library.so.9, which pouch needs for "
	    "this test"));
	assert_int_equal(sym_in_child(&lazy_xml2, "xmlNoSuchFunction", err, sizeof err), 1);
	assert_non_null(strstr(err, "has no xmlNoSuchFunction"));
}

/* The cursor scanner: each step moves the cursor only when it takes something. */
/* SHA-256 of FIPS 180-4's examples, and of a million bytes added in
 * pieces that straddle the 64-byte blocks. */
static void
sha_hex(const void *p, size_t n, size_t piece, char hex[2 * SHA256_SIZE + 1])
{
	unsigned char d[SHA256_SIZE];
	struct sha256 c;
	size_t i;

	sha256_init(&c);
	for (i = 0; i < n; i += piece)
		sha256_add(&c, (const char *)p + i, n - i < piece ? n - i : piece);
	sha256_end(&c, d);
	for (i = 0; i < SHA256_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void
test_sha256(void **state)
{
	char hex[2 * SHA256_SIZE + 1], *a = malloc(1000000);
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	(void)state;
	assert_non_null(a);
	sha_hex("", 0, 1, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha_hex("abc", 3, 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha_hex(two, strlen(two), strlen(two), hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	memset(a, 'a', 1000000);
	sha_hex(a, 1000000, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	sha_hex(a, 1000000, 61, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void
test_scan(void **state)
{
	const char *p = "  owner\tEngland  lon ", *q;
	struct scan_word w;
	char out[8];
	long n;

	(void)state;
	assert_int_equal(scan_literal(&p, "own"), -1);
	assert_string_equal(p, "  owner\tEngland  lon ");
	assert_int_equal(scan_literal(&p, "owner"), 0);
	assert_string_equal(p, "\tEngland  lon ");
	assert_int_equal(scan_word(&p, &w), 0);
	assert_true(scan_word_is(&w, "England"));
	assert_false(scan_word_is(&w, "Englan"));
	assert_true(scan_word_is_nocase(&w, "ENGLAND"));
	assert_int_equal(scan_word_copy(&w, out, sizeof out), 0);
	assert_string_equal(out, "England");
	assert_int_equal(scan_word_copy(&w, out, 7), -1);
	assert_string_equal(out, "");
	assert_false(scan_at_end(&p));
	q = p;
	assert_int_equal(scan_name(&q, out, 3), 0);	/* "lon" does not fit in 3 */
	assert_string_equal(out, "");
	assert_int_equal(scan_name(&q, out, sizeof out), -1);
	assert_int_equal(scan_name(&p, out, sizeof out), 0);
	assert_string_equal(out, "lon");
	assert_string_equal(p, " ");
	p = "\t lon ";
	assert_string_equal(scan_rest(&p), "lon ");
	assert_true(scan_at_end(&p));
	assert_int_equal(scan_word(&p, &w), -1);

	/* Numbers: a whole word, in range, else the cursor stays. */
	p = "1901 -3 +7 12x 99999999999999999999 5";
	assert_int_equal(scan_long(&p, 1, 99999, &n), 0);
	assert_int_equal(n, 1901);
	assert_int_equal(scan_long(&p, 0, 10, &n), -1);
	assert_string_equal(p, " -3 +7 12x 99999999999999999999 5");
	assert_int_equal(scan_long(&p, -10, 10, &n), 0);
	assert_int_equal(n, -3);
	assert_int_equal(scan_long(&p, -10, 10, &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(scan_long(&p, 0, 1000, &n), -1);
	assert_int_equal(scan_word(&p, &w), 0);
	assert_int_equal(scan_long(&p, 0, 1000, &n), -1);
	assert_int_equal(scan_word(&p, &w), 0);
	assert_int_equal(scan_long(&p, 5, 5, &n), 0);
	assert_int_equal(n, 5);
	w.ptr = "-";
	w.len = 1;
	assert_int_equal(scan_word_long(&w, -10, 10, &n), -1);

	/* Tokens between separators, as strtok reads them. */
	p = ", mon,,wed fri,";
	q = p;
	assert_int_equal(scan_token(&p, " ,", &w), 0);
	assert_true(scan_word_is(&w, "mon"));
	assert_int_equal(scan_token(&p, " ,", &w), 0);
	assert_true(scan_word_is(&w, "wed"));
	assert_int_equal(scan_token(&p, " ,", &w), 0);
	assert_true(scan_word_is(&w, "fri"));
	assert_int_equal(scan_token(&p, " ,", &w), -1);
	assert_string_equal(p, ",");
	assert_string_equal(q, ", mon,,wed fri,");	/* never written */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buf_cap),
		cmocka_unit_test(test_buf_no_middle_loss),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_atomic_write),
		cmocka_unit_test(test_replace_changed_and_link),
		cmocka_unit_test(test_read_sized),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_sweep_tmp),
		cmocka_unit_test(test_strset),
		cmocka_unit_test(test_strv),
		cmocka_unit_test(test_lazylib),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
