/*
 * test_config.c — the mail keys of pouch.conf, defaults, errors with
 * FILE:LINE, the callback for the judge's keys, password files.
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/fsio.h"
#include "../../mailer/config.h"

static void
test_defaults(void **state)
{
	struct mail_config c;

	(void)state;
	mail_config_init(&c, "/var/pouch");
	assert_null(c.imap_host);
	assert_null(c.smtp_url);
	assert_string_equal(c.maildir_in, "/var/pouch/mail/inbox");
	assert_string_equal(c.maildir_out, "/var/pouch/mail/out");
	assert_string_equal(c.imap_folder, "INBOX");
	assert_int_equal(c.imap_tls, MAIL_TLS_STARTTLS);
	assert_int_equal(c.imap_after, IMAP_AFTER_SEEN);
	assert_int_equal(c.max_size, 1024 * 1024);
	assert_int_equal(c.max_lines, 1000);
	assert_string_equal(mail_config_domain(&c), "localhost");
	mail_config_free(&c);
	mail_config_free(NULL);
}

static void
test_keys(void **state)
{
	const char *text =
	    "# pouch.conf\n"
	    "\n"
	    "imap.host = mail.example.org\n"
	    "imap.port=10993\n"
	    "  imap.tls = imaps  \n"
	    "imap.user = judge\n"
	    "imap.password_file = secrets/imap\n"
	    "imap.folder = Judge Orders\n"
	    "imap.cafile = /etc/ssl/ca.pem\n"
	    "imap.after = delete\n"
	    "imap.auth = plain\n"
	    "smtp.url = smtps://mail.example.org:465/judge.example.org\n"
	    "smtp.user = judge\n"
	    "smtp.password_file = /etc/pouch/smtp\n"
	    "smtp.tls = none\n"
	    "maildir.in = /srv/in\n"
	    "maildir.out = out\n"
	    "judge.address = Judge@Example.ORG\n"
	    "judge.domain = dip.example.org\n"
	    "judge.name = The Judge\n"
	    "mail.max_size = 2048\n"
	    "mail.max_lines = 50\n";
	struct mail_config c;
	struct buf err;

	(void)state;
	mail_config_init(&c, "/data");
	buf_init(&err, 4096);
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "pouch.conf", NULL, NULL, &err), 0);
	assert_string_equal(c.imap_host, "mail.example.org");
	assert_int_equal(c.imap_port, 10993);
	assert_int_equal(c.imap_tls, MAIL_TLS_IMPLICIT);
	assert_string_equal(c.imap_user, "judge");
	assert_string_equal(c.imap_password_file, "/data/secrets/imap");
	assert_string_equal(c.imap_folder, "Judge Orders");
	assert_string_equal(c.imap_cafile, "/etc/ssl/ca.pem");
	assert_int_equal(c.imap_after, IMAP_AFTER_DELETE);
	assert_int_equal(c.imap_auth, IMAP_AUTH_PLAIN);
	assert_string_equal(c.smtp_url, "smtps://mail.example.org:465/judge.example.org");
	assert_int_equal(c.smtp_tls, MAIL_TLS_NONE);
	assert_string_equal(c.maildir_in, "/srv/in");
	assert_string_equal(c.maildir_out, "/data/out");
	assert_string_equal(c.judge_address, "judge@example.org");
	assert_string_equal(mail_config_domain(&c), "dip.example.org");
	assert_string_equal(c.judge_name, "The Judge");
	assert_int_equal(c.max_size, 2048);
	assert_int_equal(c.max_lines, 50);
	assert_string_equal(buf_str(&err), "");
	mail_config_free(&c);
	buf_free(&err);
}

static void
test_errors(void **state)
{
	const char *text =
	    "imap.port = seventy\n"
	    "imap.tls = maybe\n"
	    "smtp.tls = imaps\n"
	    "no equals sign here\n"
	    "judge.address = not an address\n"
	    "imap.after = never\n"
	    "mail.max_size = 10\n"
	    "game.deadline = 48h\n"
	    "imap.host = still read\n";
	struct mail_config c;
	struct buf err;

	(void)state;
	mail_config_init(&c, NULL);
	buf_init(&err, 4096);
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "p.conf", NULL, NULL, &err), -1);
	assert_string_equal(buf_str(&err),
	    "p.conf:1: imap.port is not a number in range\n"
	    "p.conf:2: imap.tls must be none, starttls or imaps\n"
	    "p.conf:3: smtp.tls must be none or starttls (use an smtps:// URL for implicit TLS)\n"
	    "p.conf:4: expected \"key = value\"\n"
	    "p.conf:5: judge.address is not a valid address (local@domain)\n"
	    "p.conf:6: imap.after must be seen or delete\n"
	    "p.conf:7: mail.max_size is not a number in range\n"
	    "p.conf:8: unknown key \"game.deadline\"\n");
	assert_string_equal(c.imap_host, "still read");
	assert_string_equal(c.maildir_in, "mail/inbox");
	mail_config_free(&c);
	buf_free(&err);
}

struct seen {
	int count;
	char last[64];
};

static int
judge_key(void *arg, const char *key, const char *value, const char *file, int line,
    struct buf *err)
{
	struct seen *s = arg;

	s->count++;
	snprintf(s->last, sizeof s->last, "%s=%s", key, value);
	if (strcmp(key, "game.bad") == 0) {
		buf_printf(err, "%s:%d: game.bad is bad\n", file, line);
		return -1;
	}
	return 0;
}

static void
test_callback(void **state)
{
	const char *text = "game.deadline = 48h\nimap.host = h\ngame.bad = 1\n";
	struct mail_config c;
	struct seen s = { 0, "" };
	struct buf err;

	(void)state;
	mail_config_init(&c, ".");
	buf_init(&err, 4096);
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "f", judge_key, &s, &err), -1);
	assert_int_equal(s.count, 2);
	assert_string_equal(s.last, "game.bad=1");
	assert_string_equal(buf_str(&err), "f:3: game.bad is bad\n");
	mail_config_free(&c);
	buf_free(&err);
}

static void
test_files(void **state)
{
	char dir[64], path[256], pw[256];
	struct mail_config c;
	struct buf err;
	char *p;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "config"), 0);
	snprintf(path, sizeof path, "%s/pouch.conf", dir);
	snprintf(pw, sizeof pw, "%s/pw", dir);
	assert_int_equal(fs_write_atomic(path, "imap.host = x\n", 14), 0);
	assert_int_equal(fs_write_atomic_mode(pw, "s3cret\nsecond line\n", 19, 0600), 0);
	mail_config_init(&c, dir);
	buf_init(&err, 4096);
	assert_int_equal(mail_config_read(&c, path, NULL, NULL, &err), 0);
	assert_string_equal(c.imap_host, "x");
	p = mail_read_password(pw, &err);
	assert_string_equal(p, "s3cret");
	free(p);
	assert_int_equal(fs_write_atomic_mode(pw, "\n", 1, 0600), 0);
	assert_null(mail_read_password(pw, &err));
	assert_null(strstr(buf_str(&err), "s3cret"));
	assert_non_null(strstr(buf_str(&err), "empty first line"));
	unlink(pw);
	assert_null(mail_read_password(pw, &err));
	unlink(path);
	assert_int_equal(mail_config_read(&c, path, NULL, NULL, &err), -1);
	assert_non_null(strstr(buf_str(&err), "cannot read"));
	test_rm_rf(dir);
	mail_config_free(&c);
	buf_free(&err);
}

static void
test_oauth_keys(void **state)
{
	const char *text =
	    "imap.user = judge@school.example\n"
	    "imap.auth = xoauth2\n"
	    "imap.token_url = https://oauth2.googleapis.com/token\n"
	    "imap.client_id = 123.apps.example\n"
	    "imap.client_secret_file = oauth/secret\n"
	    "imap.refresh_token_file = /etc/pouch/refresh\n"
	    "imap.token_cafile = ca.pem\n"
	    "smtp.user = judge@school.example\n"
	    "smtp.auth = oauthbearer\n"
	    "smtp.token_url = https://login.microsoftonline.com/common/oauth2/v2.0/token\n"
	    "smtp.client_id = abc\n"
	    "smtp.refresh_token_file = oauth/refresh_token\n";
	struct mail_config c;
	struct buf err;

	(void)state;
	mail_config_init(&c, "/data");
	buf_init(&err, 4096);
	assert_int_equal(c.imap_oauth.mech, OAUTH_NONE);
	assert_int_equal(c.smtp_oauth.mech, OAUTH_NONE);
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "p.conf", NULL, NULL, &err), 0);
	assert_string_equal(buf_str(&err), "");
	assert_int_equal(c.imap_oauth.mech, OAUTH_XOAUTH2);
	assert_string_equal(c.imap_oauth.token_url, "https://oauth2.googleapis.com/token");
	assert_string_equal(c.imap_oauth.client_id, "123.apps.example");
	assert_string_equal(c.imap_oauth.client_secret_file, "/data/oauth/secret");
	assert_string_equal(c.imap_oauth.refresh_token_file, "/etc/pouch/refresh");
	assert_string_equal(c.imap_oauth.cafile, "/data/ca.pem");
	assert_int_equal(c.smtp_oauth.mech, OAUTH_OAUTHBEARER);
	assert_null(c.smtp_oauth.client_secret_file);
	assert_string_equal(c.smtp_oauth.refresh_token_file, "/data/oauth/refresh_token");
	mail_config_free(&c);

	/* password and login are the same; back to a password */
	mail_config_init(&c, "/data");
	text = "imap.auth = xoauth2\nimap.auth = password\nsmtp.auth = password\n";
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "p.conf", NULL, NULL, &err), 0);
	assert_int_equal(c.imap_oauth.mech, OAUTH_NONE);
	assert_int_equal(c.imap_auth, IMAP_AUTH_LOGIN);
	mail_config_free(&c);
	buf_free(&err);
}

static void
test_oauth_errors(void **state)
{
	const char *text =
	    "imap.auth = kerberos\n"
	    "smtp.auth = plain\n"
	    "imap.auth = oauthbearer\n"
	    "imap.token_url = http://example.org/token\n"
	    "smtp.auth = xoauth2\n"
	    "smtp.user = judge\n"
	    "smtp.token_url = https://example.org/token\n"
	    "smtp.refresh_token_file = rt\n";
	struct mail_config c;
	struct buf err;

	(void)state;
	mail_config_init(&c, NULL);
	buf_init(&err, 4096);
	assert_int_equal(mail_config_parse(&c, text, strlen(text), "p.conf", NULL, NULL, &err), -1);
	assert_string_equal(buf_str(&err),
	    "p.conf:1: imap.auth must be login, password, plain, xoauth2 or oauthbearer\n"
	    "p.conf:2: smtp.auth must be password, xoauth2 or oauthbearer\n"
	    "p.conf: imap.auth = oauthbearer needs imap.user, imap.token_url, imap.client_id and "
	    "imap.refresh_token_file (pouch oauth login prints them)\n"
	    "p.conf: imap.token_url must be an https:// URL\n"
	    "p.conf: smtp.auth = xoauth2 needs smtp.user, smtp.token_url, smtp.client_id and "
	    "smtp.refresh_token_file (pouch oauth login prints them)\n");
	mail_config_free(&c);
	buf_free(&err);
}

/* Secret files: refused when group or others have any access, never quoted. */
static void
test_secret_files(void **state)
{
	char dir[64], path[256];
	struct buf err;
	char *p;

	(void)state;
	assert_int_equal(test_mkdtemp(dir, sizeof dir, "secret"), 0);
	snprintf(path, sizeof path, "%s/rt", dir);
	buf_init(&err, 4096);
	assert_int_equal(fs_write_atomic_mode(path, "rt-s3cret\n", 10, 0600), 0);
	p = mail_read_secret(path, &err);
	assert_string_equal(p, "rt-s3cret");
	free(p);
	assert_int_equal(chmod(path, 0640), 0);
	assert_null(mail_read_secret(path, &err));
	assert_non_null(strstr(buf_str(&err), "other users may read it: refused (chmod 600"));
	buf_reset(&err);
	assert_int_equal(chmod(path, 0604), 0);
	assert_null(mail_read_secret(path, &err));
	assert_int_equal(chmod(path, 0644), 0);
	assert_null(mail_read_secret(path, &err));
	assert_null(strstr(buf_str(&err), "s3cret"));
	/* a password file is only warned about */
	p = mail_read_password(path, &err);
	assert_string_equal(p, "rt-s3cret");
	free(p);
	test_rm_rf(dir);
	buf_free(&err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_callback),
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_oauth_keys),
		cmocka_unit_test(test_oauth_errors),
		cmocka_unit_test(test_secret_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
