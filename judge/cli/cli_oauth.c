/*
 * cli_oauth.c — pouch oauth: signing the judge in to a Google or Microsoft
 * mailbox (mailer/oauth.h).
 *
 *	pouch [--data DIR] oauth login --provider google|microsoft|custom
 *	    --client-id ID [--client-secret-file FILE] [--tenant T]
 *	    [--device-url URL] [--token-url URL] [--scope S] [--cafile FILE]
 *	    [--user ADDRESS] [--mech xoauth2|oauthbearer] [--out FILE]
 *	pouch [--data DIR] [--config FILE] oauth token [imap|smtp] [--renew]
 *
 * login runs the device flow (RFC 8628): it prints a URL and a code, the
 * teacher opens the URL on any device, signs in and types the code, and
 * pouch, polling the token endpoint meanwhile, stores the refresh token
 * (mode 0600) and prints the pouch.conf lines. token signs in at the token
 * endpoint as pouch.conf says and prints how long the access token is
 * valid, never the token.
 */
#define _DEFAULT_SOURCE	/* explicit_bzero */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../lib/buf.h"
#include "../../lib/str.h"
#include "../../lib/xalloc.h"
#include "../../mailer/oauth.h"
#include "cli.h"
#include "../shell/conf.h"

#include <unistd.h>	/* after order.h (via conf.h): unistd's R_OK is a reason code there */

/* The endpoints are BASE TENANT DEVICE and BASE TENANT TOKEN (with the
 * tenant only where tenant is set). */
struct provider {
	const char *name;
	const char *base;
	bool tenant;
	const char *device, *token;
	const char *scope;
};

static const struct provider providers[] = {
	{ "google", "https://oauth2.googleapis.com", false, "/device/code", "/token",
	    "https://mail.google.com/" },
	{ "microsoft", "https://login.microsoftonline.com/", true, "/oauth2/v2.0/devicecode",
	    "/oauth2/v2.0/token",
	    "https://outlook.office.com/IMAP.AccessAsUser.All https://outlook.office.com/SMTP.Send "
	    "offline_access" },
	{ "custom", NULL, false, NULL, NULL, NULL },
};

static int
usage(void)
{
	return cli_usage("oauth", stderr);
}

/* path made absolute against the working directory. New string. */
static char *
absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || getcwd(cwd, sizeof cwd) == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

/* Poll until the teacher signed in, the code expired or the endpoint
 * refused. Returns 0 with g set, or -1 (reason in err). */
static int
wait_for_sign_in(const struct oauth_client *c, const struct oauth_device *d,
    struct oauth_grant *g, struct buf *err)
{
	time_t until = time(NULL) + d->expires_in;
	long interval = d->interval;

	while (time(NULL) < until) {
		sleep((unsigned)interval);
		switch (oauth_device_poll(c, d, g, err)) {
		case OAUTH_POLL_DONE:
			return 0;
		case OAUTH_POLL_PENDING:
			break;
		case OAUTH_POLL_SLOW_DOWN:
			interval += 5;	/* RFC 8628 3.5 */
			break;
		case OAUTH_POLL_FAILED:
			return -1;
		}
	}
	buf_puts(err, "the code expired before the sign-in was done: start again\n");
	return -1;
}

static void
print_conf(const char *server, const char *mech, const char *user, const char *token_url,
    const char *client_id, const char *secret_file, const char *refresh_file, const char *cafile)
{
	printf("%s.auth = %s\n", server, mech);
	printf("%s.user = %s\n", server, user ? user : "ADDRESS-OF-THE-MAILBOX");
	printf("%s.token_url = %s\n", server, token_url);
	printf("%s.client_id = %s\n", server, client_id);
	if (secret_file != NULL)
		printf("%s.client_secret_file = %s\n", server, secret_file);
	printf("%s.refresh_token_file = %s\n", server, refresh_file);
	if (cafile != NULL)
		printf("%s.token_cafile = %s\n", server, cafile);
}

static int
login(const struct cli_opts *o, int argc, char **argv)
{
	const char *prov = NULL, *tenant = "organizations", *device_url = NULL, *token_url = NULL;
	const char *scope = NULL, *cafile = NULL, *user = NULL, *mech = "xoauth2", *out = NULL;
	const char *client_id = NULL, *secret_file = NULL;
	char *dev = NULL, *tok = NULL, *secret = NULL, *outpath = NULL, *secret_abs = NULL;
	char *cafile_abs = NULL;
	const struct provider *p = NULL;
	struct oauth_client c;
	struct oauth_device d;
	struct oauth_grant g = { NULL, NULL, 0 };
	struct oauth_settings s;
	struct buf err;
	size_t k;
	int i, rc = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], **to = NULL;

		if (i + 1 >= argc)
			return usage();
		if (strcmp(a, "--provider") == 0) to = &prov;
		else if (strcmp(a, "--tenant") == 0) to = &tenant;
		else if (strcmp(a, "--client-id") == 0) to = &client_id;
		else if (strcmp(a, "--client-secret-file") == 0) to = &secret_file;
		else if (strcmp(a, "--device-url") == 0) to = &device_url;
		else if (strcmp(a, "--token-url") == 0) to = &token_url;
		else if (strcmp(a, "--scope") == 0) to = &scope;
		else if (strcmp(a, "--cafile") == 0) to = &cafile;
		else if (strcmp(a, "--user") == 0) to = &user;
		else if (strcmp(a, "--mech") == 0) to = &mech;
		else if (strcmp(a, "--out") == 0) to = &out;
		else
			return usage();
		*to = argv[++i];
	}
	for (k = 0; prov != NULL && k < sizeof providers / sizeof providers[0]; k++)
		if (strcmp(providers[k].name, prov) == 0)
			p = &providers[k];
	if (p == NULL || client_id == NULL ||
	    (strcmp(mech, "xoauth2") != 0 && strcmp(mech, "oauthbearer") != 0))
		return usage();
	if (strpbrk(tenant, "/?#%& ") != NULL) {
		fprintf(stderr, "pouch oauth: --tenant: a tenant id or domain name\n");
		return 2;
	}
	if (p->base != NULL) {
		const char *t = p->tenant ? tenant : "";

		if (device_url == NULL)
			device_url = dev = xasprintf("%s%s%s", p->base, t, p->device);
		if (token_url == NULL)
			token_url = tok = xasprintf("%s%s%s", p->base, t, p->token);
		if (scope == NULL)
			scope = p->scope;
	}
	if (device_url == NULL || token_url == NULL) {
		fprintf(stderr, "pouch oauth: --provider custom needs --device-url and --token-url\n");
		free(dev);
		free(tok);
		return 2;
	}
	if (out == NULL && o->data_dir == NULL) {
		fprintf(stderr, "pouch oauth: where should the refresh token go? (--out FILE, or --data DIR "
		    "for DIR/oauth/refresh_token)\n");
		free(dev);
		free(tok);
		return 2;
	}
	outpath = out ? absolute(out) : absolute(o->data_dir);
	if (out == NULL) {
		char *t = xasprintf("%s/oauth/refresh_token", outpath);
		free(outpath);
		outpath = t;
	}
	buf_init(&err, BUF_ERRORS_MAX);
	if (secret_file != NULL) {
		secret_abs = absolute(secret_file);
		if ((secret = mail_read_secret(secret_abs, &err)) == NULL)
			goto done;
	}
	if (cafile != NULL)
		cafile_abs = absolute(cafile);
	c.device_url = device_url;
	c.token_url = token_url;
	c.client_id = client_id;
	c.client_secret = secret;
	c.cafile = cafile_abs;
	if (oauth_device_start(&c, scope, &d, &err) < 0) {
		if (strstr(buf_str(&err), "invalid_scope") != NULL && strcmp(p->name, "google") == 0)
			buf_puts(&err, "Google does not grant the mail scope to the device flow: see "
			    "\"Google\" in pouch(1) for signing in another way\n");
		goto done;
	}
	printf("To sign the judge in, open %s on any device, sign in as the judge's mailbox and enter "
	    "the code: %s\n(the code is valid %ld minutes; waiting)\n", d.verification_uri, d.user_code,
	    (d.expires_in + 59) / 60);
	fflush(stdout);
	if (wait_for_sign_in(&c, &d, &g, &err) < 0)
		goto done;
	memset(&s, 0, sizeof s);
	s.token_url = xstrdup(token_url);
	s.client_id = xstrdup(client_id);
	s.refresh_token_file = xstrdup(outpath);
	i = oauth_save_login(&s, o->data_dir, &g, &err);
	oauth_settings_free(&s);
	if (i < 0)
		goto done;
	printf("Signed in. The refresh token is in %s (mode 0600: keep it so).\n"
	    "Put these lines in pouch.conf:\n\n", outpath);
	print_conf("imap", mech, user, token_url, client_id, secret_abs, outpath, cafile_abs);
	print_conf("smtp", mech, user, token_url, client_id, secret_abs, outpath, cafile_abs);
	rc = 0;
done:
	if (rc != 0)
		cli_print_err("oauth login", &err);
	oauth_grant_clear(&g);
	if (secret != NULL) {
		explicit_bzero(secret, strlen(secret));
		free(secret);
	}
	explicit_bzero(&d, sizeof d);
	buf_free(&err);
	free(dev);
	free(tok);
	free(outpath);
	free(secret_abs);
	free(cafile_abs);
	return rc;
}

/* Sign in at the token endpoint of one server as pouch.conf says. */
static int
check_token(const char *server, const struct oauth_settings *s, const char *data, bool renew)
{
	struct buf err;
	char *t;
	long left = 0;

	if (s->mech == OAUTH_NONE) {
		printf("%s: signs in with a password (%s.auth)\n", server, server);
		return 0;
	}
	buf_init(&err, BUF_ERRORS_MAX);
	t = oauth_access_token(s, data, renew, &left, &err);
	if (t == NULL) {
		cli_print_err("oauth token", &err);
		buf_free(&err);
		return 1;
	}
	explicit_bzero(t, strlen(t));
	free(t);
	buf_free(&err);
	printf("%s: %s: an access token from %s, valid %ld s more\n", server,
	    s->mech == OAUTH_XOAUTH2 ? "xoauth2" : "oauthbearer", s->token_url, left);
	return 0;
}

static int
token(const struct cli_opts *o, int argc, char **argv)
{
	struct pouch_conf pc;
	struct buf err;
	const char *only = NULL;
	bool renew = false;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--renew") == 0)
			renew = true;
		else if (only == NULL && (strcmp(argv[i], "imap") == 0 || strcmp(argv[i], "smtp") == 0))
			only = argv[i];
		else
			return usage();
	}
	if (!cli_data_exists(o, "oauth"))
		return 1;
	buf_init(&err, BUF_ERRORS_MAX);
	if (conf_load(&pc, o->config, cli_data_dir(o), &err) < 0) {
		cli_print_err("oauth token", &err);
		buf_free(&err);
		conf_free(&pc);
		return 1;
	}
	buf_free(&err);
	if (only == NULL || strcmp(only, "imap") == 0)
		rc |= check_token("imap", &pc.mail.imap_oauth, pc.mail.data_dir, renew);
	if (only == NULL || strcmp(only, "smtp") == 0)
		rc |= check_token("smtp", &pc.mail.smtp_oauth, pc.mail.data_dir, renew);
	conf_free(&pc);
	return rc;
}

int
cli_oauth(const struct cli_opts *o, int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "login") == 0)
		return login(o, argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "token") == 0)
		return token(o, argc - 1, argv + 1);
	return usage();
}
