/*
 * oauth.h — OAuth 2.0 sign-in for IMAP and SMTP.
 *
 * API: a server set to xoauth2 or oauthbearer (config.h, struct
 * oauth_settings) signs in with an access token instead of a password.
 * The teacher signs in once with `pouch oauth login` (the device flow of
 * RFC 8628: a URL and a code to type on any device); that leaves a refresh
 * token in a file of mode 0600. oauth_access_token() turns the refresh
 * token into an access token at the token endpoint (RFC 6749 section 6,
 * HTTPS with the certificate verified, through libcurl) and keeps it with
 * its expiry in DATA/oauth/ID.token (0600, written atomically), where ID
 * names the account (a hash of endpoint, client id and refresh token), so
 * IMAP and SMTP signing in as the same account share one token. A kept
 * token is used while it has more than OAUTH_MARGIN seconds left; a server
 * that refuses it gets one fresh token more (renew). A token endpoint that
 * sends a new refresh token (Microsoft does) has it written over the old.
 *
 * Secrets (client secret, refresh token) are read from files that group
 * and others cannot read (mail_read_secret); no token or secret is ever
 * logged, echoed or put in an error message.
 *
 * The SASL messages: XOAUTH2 (Google's and Microsoft's) and OAUTHBEARER
 * (RFC 7628), before base64.
 */
#ifndef POUCH_OAUTH_H
#define POUCH_OAUTH_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"
#include "config.h"

#define OAUTH_MARGIN 60		/* seconds: a token with less left is renewed first */

/* The value of key in the JSON object json (top level only): a string
 * decoded, a number or literal as written. Returns 0 with the value in out
 * (NUL-terminated), or -1 when json is not an object, key is absent or
 * its value (an object, an array, or longer than size - 1) does not fit. */
int oauth_json_get(const char *json, size_t len, const char *key, char *out, size_t size);

/* An access token for s: the kept one when it has more than OAUTH_MARGIN
 * seconds left and renew is false, else a new one from s->token_url
 * (kept in data_dir/oauth). *left, when not NULL, gets its seconds left.
 * Returns a new string (caller wipes and frees), or NULL with a reason in
 * err, never a secret; a refused refresh token says to run
 * `pouch oauth login` again. */
char *oauth_access_token(const struct oauth_settings *s, const char *data_dir, bool renew,
    long *left, struct buf *err);

/* The XOAUTH2 client response "user=U^Aauth=Bearer T^A^A" appended to
 * out. Returns 0, or -1 when out is full. */
int oauth_sasl_xoauth2(const char *user, const char *token, struct buf *out);
/* The OAUTHBEARER client response (RFC 7628 3.1) for user at host:port
 * appended to out. Returns 0 or -1 (full). */
int oauth_sasl_oauthbearer(const char *user, const char *host, int port, const char *token,
    struct buf *out);

/* What a token endpoint granted. */
struct oauth_grant {
	char *access_token;	/* NULL when none */
	char *refresh_token;	/* NULL when none */
	long expires_in;	/* seconds */
};
/* Wipe and free the tokens; g stays usable (NULLs). */
void oauth_grant_clear(struct oauth_grant *g);

/* A device authorization (RFC 8628 3.2). */
struct oauth_device {
	char device_code[2048];
	char user_code[128];
	char verification_uri[1024];
	long interval;		/* seconds between polls */
	long expires_in;	/* seconds the code is valid */
};

/* One OAuth client: where to ask and who asks. */
struct oauth_client {
	const char *device_url;	/* device authorization endpoint (login only) */
	const char *token_url;
	const char *client_id;
	const char *client_secret;	/* NULL: a public client */
	const char *cafile;	/* NULL: the system's CAs */
};

/* Ask c->device_url for a device code for scope. Returns 0 with d set,
 * or -1 with a reason in err. */
int oauth_device_start(const struct oauth_client *c, const char *scope, struct oauth_device *d,
    struct buf *err);

enum oauth_poll { OAUTH_POLL_DONE, OAUTH_POLL_PENDING, OAUTH_POLL_SLOW_DOWN, OAUTH_POLL_FAILED };
/* Ask c->token_url once whether d was approved: DONE (g set, with a
 * refresh token), PENDING, SLOW_DOWN (wait 5 s more between polls), or
 * FAILED (denied, expired, refused; reason in err). */
enum oauth_poll oauth_device_poll(const struct oauth_client *c, const struct oauth_device *d,
    struct oauth_grant *g, struct buf *err);

/* After a login: write the refresh token to refresh_file (0600,
 * atomically, directories made 0700) and keep the access token for the
 * account s (whose refresh_token_file is refresh_file) in data_dir/oauth.
 * Returns 0 or -1 (reason in err). */
int oauth_save_login(const struct oauth_settings *s, const char *data_dir,
    const struct oauth_grant *g, struct buf *err);

#endif
