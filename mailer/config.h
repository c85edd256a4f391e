/*
 * config.h — the mail settings of pouch.conf.
 *
 * The file is lines of "key = value"; blank lines and lines starting with
 * '#' are ignored; a later line overrides an earlier one. The mail keys
 * are read here; any other key goes to a callback (the judge reads the same
 * file for its own keys) or, without one, is an error. Every error names
 * FILE:LINE. Relative paths are taken relative to the data directory.
 *
 * Without any key the configuration is the embedded one: mail is read
 * from the Maildir DATA/mail/inbox and written into DATA/mail/out/ADDRESS/.
 * Setting imap.host switches the source to IMAP, smtp.url the sink to SMTP.
 *
 * Passwords live in files (imap.password_file, smtp.password_file) and are
 * read only when a connection needs them; they are never logged.
 *
 * OAuth 2.0 (imap.auth or smtp.auth = xoauth2 | oauthbearer): per server a
 * token endpoint, a client id, and files holding the client secret and the
 * refresh token (mailer/oauth.h turns them into access tokens).
 */
#ifndef POUCH_MAILCONFIG_H
#define POUCH_MAILCONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "../lib/buf.h"

enum mail_tls { MAIL_TLS_NONE, MAIL_TLS_STARTTLS, MAIL_TLS_IMPLICIT };
enum imap_after { IMAP_AFTER_SEEN, IMAP_AFTER_DELETE };
enum imap_auth { IMAP_AUTH_LOGIN, IMAP_AUTH_PLAIN };
enum oauth_mech { OAUTH_NONE, OAUTH_XOAUTH2, OAUTH_OAUTHBEARER };

/* One server's OAuth 2.0 sign-in (P.auth, P.token_url, ... with P imap or smtp). */
struct oauth_settings {
	enum oauth_mech mech;		/* P.auth = xoauth2 | oauthbearer; OAUTH_NONE: a password */
	char *token_url;		/* P.token_url, https:// */
	char *client_id;		/* P.client_id */
	char *client_secret_file;	/* P.client_secret_file; NULL: a public client */
	char *refresh_token_file;	/* P.refresh_token_file */
	char *cafile;			/* P.token_cafile; NULL: the system's CAs */
};

struct mail_config {
	char *imap_host;		/* imap.host; NULL: no IMAP (use maildir.in) */
	int imap_port;			/* imap.port; 0: 143, or 993 for imaps */
	enum mail_tls imap_tls;		/* imap.tls = none | starttls | imaps (default starttls) */
	char *imap_user;		/* imap.user */
	char *imap_password_file;	/* imap.password_file */
	char *imap_folder;		/* imap.folder (default INBOX) */
	char *imap_cafile;		/* imap.cafile; NULL: the system's CAs */
	enum imap_after imap_after;	/* imap.after = seen | delete (default seen) */
	enum imap_auth imap_auth;	/* imap.auth = login | password | plain (default login) */
	struct oauth_settings imap_oauth;	/* imap.auth = xoauth2 | oauthbearer and its keys */
	int imap_timeout;		/* imap.timeout, seconds (default 60) */

	char *smtp_url;			/* smtp.url: smtp://host:port/ehlo-name or smtps://...;
					   NULL: no SMTP (use maildir.out) */
	enum mail_tls smtp_tls;		/* smtp.tls = none | starttls (default starttls; smtps:// is implicit) */
	char *smtp_user;		/* smtp.user; NULL: no AUTH */
	char *smtp_password_file;	/* smtp.password_file */
	char *smtp_cafile;		/* smtp.cafile; NULL: the system's CAs */
	struct oauth_settings smtp_oauth;	/* smtp.auth = password | xoauth2 | oauthbearer */
	int smtp_timeout;		/* smtp.timeout, seconds (default 60) */
	int smtp_connections;		/* smtp.connections: sent over at once (default 4) */

	char *maildir_in;		/* maildir.in (default DATA/mail/inbox) */
	char *maildir_out;		/* maildir.out (default DATA/mail/out) */

	char *judge_address;		/* judge.address (default judge@localhost) */
	char *judge_name;		/* judge.name, the From display name (default "pouch judge") */
	char *judge_domain;		/* judge.domain (default: judge.address's domain) */

	size_t max_size;		/* mail.max_size, bytes of a message read (default 1 MiB) */
	int max_lines;			/* mail.max_lines, lines of text kept (default 1000) */

	char *data_dir;			/* what relative paths are relative to (not a key) */
};

/* Called for a key that is not a mail key. Returns 0 when the key is
 * accepted, -1 after appending "FILE:LINE: reason\n" to err. */
typedef int (*config_key_fn)(void *arg, const char *key, const char *value, const char *file,
    int line, struct buf *err);

/* The embedded defaults for data directory data_dir (NULL: "."). */
void mail_config_init(struct mail_config *c, const char *data_dir);
/* Release the strings. NULL-safe. */
void mail_config_free(struct mail_config *c);

/* Read path over c. Unknown keys go to fn (when fn is NULL they are
 * errors). Returns 0, or -1 with every problem appended to err, one
 * "FILE:LINE: ..." line each (values already read stay set). */
int mail_config_read(struct mail_config *c, const char *path, config_key_fn fn, void *arg,
    struct buf *err);
/* The same for text in memory; name is used in messages. */
int mail_config_parse(struct mail_config *c, const char *text, size_t len, const char *name,
    config_key_fn fn, void *arg, struct buf *err);

/* Read a password file: its first line without the line end. Returns a
 * new string (caller frees and should wipe), or NULL with a reason in err
 * that names the file, never its content. */
char *mail_read_password(const char *path, struct buf *err);
/* The same for an OAuth secret (client secret, refresh token): refused,
 * NULL with a reason in err, when group or others may read the file. */
char *mail_read_secret(const char *path, struct buf *err);

/* Deep copy of src into dst (dst is overwritten). */
void oauth_settings_copy(struct oauth_settings *dst, const struct oauth_settings *src);
/* Release the strings of o. */
void oauth_settings_free(struct oauth_settings *o);

/* The domain used in List-Id and Message-IDs (judge.domain or the address's). */
const char *mail_config_domain(const struct mail_config *c);

#endif
