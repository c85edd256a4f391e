/*
 * sink_smtp.c — sending through an SMTP server, the connection libcurl's.
 *
 * libcurl opens the connection once per batch (CURLOPT_CONNECT_ONLY): the
 * greeting, EHLO, STARTTLS, the certificate check and AUTH are its own.
 * The transactions are then ours, over that connection (curl_easy_send,
 * curl_easy_recv), one after another: libcurl sends each message's
 * commands one at a time and waits for each reply, and a batch of many
 * small messages is mostly waiting. When the server announces PIPELINING
 * (RFC 2920) in its answer to the last EHLO, MAIL FROM, every RCPT TO and
 * DATA go out together and their replies are read after, in order; the
 * message follows a 354 and its final reply ends the transaction: two
 * round trips a message, whatever the number of recipients. A server
 * without PIPELINING gets the same commands one by one.
 *
 * TLS: smtps:// is implicit TLS; smtp:// with smtp.tls = starttls
 * requires STARTTLS (CURLUSESSL_ALL), so a server or a man in the middle
 * that does not offer it gets nothing. libcurl verifies the certificate
 * and host name (against smtp.cafile when set).
 *
 * Per-recipient outcomes: each RCPT TO has its own reply, kept; a refused
 * recipient neither fails nor delays the others. When no recipient was
 * accepted, or DATA was refused, the transaction is reset (RSET) and the
 * next message goes on the same connection.
 *
 * While libcurl connects, the exchange is read from its debug callback:
 * the command last sent (CURLINFO_HEADER_OUT) and whether it had its final
 * reply (CURLINFO_HEADER_IN) name the step when something fails, and the
 * EHLO reply says whether PIPELINING is offered. Nothing from the exchange
 * is logged (AUTH lines carry the password).
 *
 * The message is given CRLF line ends and dot-stuffed here.
 *
 * OAuth 2.0 (smtp.auth = xoauth2 | oauthbearer): the access token
 * (oauth.h) goes to CURLOPT_XOAUTH2_BEARER and CURLOPT_LOGIN_OPTIONS
 * "AUTH=XOAUTH2" or "AUTH=OAUTHBEARER" holds libcurl to that mechanism
 * (left to itself it takes OAUTHBEARER when the server offers both). When
 * the server refuses the token (CURLE_LOGIN_DENIED) a new one is asked for
 * once per batch and the connection tried again.
 *
 * Time-outs (smtp.timeout, T): the connection, greeting, EHLO, STARTTLS
 * and AUTH within T (CURLOPT_CONNECTTIMEOUT), each later reply within T,
 * a whole message within 4 T. A connection that breaks or stalls in the
 * middle of a transaction defers that message and the rest of the batch
 * (the server is not to be trusted with more this run); the error names
 * the step: the reply waited for, never a command's argument. A server
 * that closed an idle connection between two messages (end of stream or
 * 421 in answer to MAIL FROM, before any message data was sent) is
 * connected to again once, and the message sent over the new connection.
 */
#define _DEFAULT_SOURCE	/* explicit_bzero */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "oauth.h"
#include "sink.h"

#define SMTP_MAX_REPLY_LINES 1000	/* lines of one reply */

/* What libcurl's debug callback saw of the exchange while connecting. */
struct transcript {
	char line[1024];	/* a reply line being assembled */
	size_t linelen;
	char last[16];		/* the verb of the command last sent ("" before any) */
	int answered;		/* it had its final reply */
	int in_ehlo;		/* the command last sent was EHLO */
	int pipelining;		/* the last EHLO reply offered PIPELINING */
};

struct smtp {
	char *url, *user, *password_file, *cafile, *data_dir;
	char *password;		/* or the OAuth access token */
	struct oauth_settings oauth;
	int renewed;		/* a refused token was renewed in this batch */
	enum mail_tls tls;
	long timeout;
	CURL *curl;
	int global;		/* curl_global_init done */

	int connected;		/* the connection is up and between transactions */
	int dropped;		/* a connection was given up: the handle still has it */
	int pipelining;		/* and the server takes pipelined commands */
	int sent;		/* messages carried by this connection */
	curl_socket_t sock;
	struct timespec deadline;	/* the current message ends by then */
	char in[4096];		/* received, not yet read as reply lines */
	size_t inlen;
	char why[256];		/* why the connection failed */
};

/* One complete reply line from the server while libcurl connects. */
static void
reply_line(struct transcript *t, const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	if (n < 3 || s[0] < '1' || s[0] > '5' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
		return;
	if (t->in_ehlo && s[0] == '2' && n >= 14 && (s[3] == '-' || s[3] == ' ') &&
	    str_prefix_nocase(s + 4, "PIPELINING") && (n == 14 || s[14] == ' '))
		t->pipelining = 1;
	if (n > 3 && s[3] == '-')
		return;	/* a continuation: wait for the final line */
	t->answered = 1;
}

static int
debug_cb(CURL *h, curl_infotype type, char *data, size_t size, void *arg)
{
	struct transcript *t = arg;
	size_t i;

	(void)h;
	if (type == CURLINFO_HEADER_OUT) {
		for (i = 0; i < size && i + 1 < sizeof t->last && data[i] >= 'A' && data[i] <= 'Z'; i++)
			t->last[i] = data[i];	/* the verb only: AUTH carries the password */
		t->last[i] = '\0';
		t->answered = 0;
		t->in_ehlo = strcmp(t->last, "EHLO") == 0;
		if (t->in_ehlo)
			t->pipelining = 0;	/* only the last EHLO's reply counts */
		t->linelen = 0;
	} else if (type == CURLINFO_HEADER_IN) {
		for (i = 0; i < size; i++) {
			if (t->linelen < sizeof t->line)
				t->line[t->linelen++] = data[i];
			if (data[i] == '\n') {
				reply_line(t, t->line, t->linelen);
				t->linelen = 0;
			}
		}
	}
	return 0;
}

static int
smtp_open(struct mail_sink *k, struct buf *err)
{
	struct smtp *p = k->priv;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		buf_puts(err, "SMTP: libcurl cannot be initialised\n");
		return -1;
	}
	p->global = 1;
	if (p->user != NULL) {
		if (p->oauth.mech != OAUTH_NONE)
			p->password = oauth_access_token(&p->oauth, p->data_dir, false, NULL, err);
		else
			p->password = mail_read_password(p->password_file, err);
		if (p->password == NULL)
			return -1;
	}
	p->curl = curl_easy_init();
	if (p->curl == NULL) {
		buf_puts(err, "SMTP: libcurl cannot be initialised\n");
		return -1;
	}
	return 0;
}

/* data with every line ending in CRLF, a line that starts with a dot given
 * one more (RFC 5321 4.5.2), and the end of data line: what follows DATA. */
static char *
to_wire(const char *data, size_t len, size_t *outlen)
{
	size_t i, n = 0, extra = 0;
	char *o;

	for (i = 0; i < len; i++) {
		if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))
			extra++;
		if (data[i] == '.' && (i == 0 || data[i - 1] == '\n'))
			extra++;
	}
	o = xmalloc(len + extra + 8);
	for (i = 0; i < len; i++) {
		if (data[i] == '.' && (i == 0 || data[i - 1] == '\n'))
			o[n++] = '.';
		if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))
			o[n++] = '\r';
		o[n++] = data[i];
	}
	if (n > 0 && o[n - 1] != '\n') {
		o[n++] = '\r';
		o[n++] = '\n';
	}
	memcpy(o + n, ".\r\n", 3);
	*outlen = n + 3;
	return o;
}

/* Where the exchange stood when libcurl's part stopped, for the error. */
static void
step(const struct transcript *t, char *out, size_t size)
{
	if (t->last[0] == '\0')
		snprintf(out, size, "waiting for the greeting");
	else
		snprintf(out, size, "%s %s", t->answered ? "after" : "waiting for the answer to",
		    t->last);
}

static enum rcpt_status
status_of(int code)
{
	if (code >= 200 && code < 300)
		return RCPT_OK;
	if (code >= 500 && code < 600)
		return RCPT_PERMFAIL;
	return RCPT_TEMPFAIL;
}

/* The connection's options: the URL's server, TLS verified (STARTTLS
 * required for smtp:// unless smtp.tls = none), AUTH when a user is set,
 * the exchange fed to debug_cb (t). */
static void
connection_opts(struct smtp *p, char *errbuf, struct transcript *t)
{
	curl_easy_setopt(p->curl, CURLOPT_URL, p->url);
	curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(p->curl, CURLOPT_CONNECTTIMEOUT, p->timeout);
	curl_easy_setopt(p->curl, CURLOPT_SERVER_RESPONSE_TIMEOUT, p->timeout);
	curl_easy_setopt(p->curl, CURLOPT_TIMEOUT, p->timeout * 4);
	curl_easy_setopt(p->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(p->curl, CURLOPT_VERBOSE, 1L);	/* feeds debug_cb only */
	curl_easy_setopt(p->curl, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(p->curl, CURLOPT_DEBUGDATA, t);
	curl_easy_setopt(p->curl, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(p->curl, CURLOPT_SSL_VERIFYHOST, 2L);
	if (p->cafile != NULL)
		curl_easy_setopt(p->curl, CURLOPT_CAINFO, p->cafile);
	if (str_prefix_nocase(p->url, "smtp://"))
		curl_easy_setopt(p->curl, CURLOPT_USE_SSL,
		    p->tls == MAIL_TLS_STARTTLS ? (long)CURLUSESSL_ALL : (long)CURLUSESSL_NONE);
	if (p->user != NULL && p->oauth.mech != OAUTH_NONE) {
		curl_easy_setopt(p->curl, CURLOPT_USERNAME, p->user);
		curl_easy_setopt(p->curl, CURLOPT_XOAUTH2_BEARER, p->password);
		curl_easy_setopt(p->curl, CURLOPT_LOGIN_OPTIONS,
		    p->oauth.mech == OAUTH_XOAUTH2 ? "AUTH=XOAUTH2" : "AUTH=OAUTHBEARER");
	} else if (p->user != NULL) {
		curl_easy_setopt(p->curl, CURLOPT_USERNAME, p->user);
		curl_easy_setopt(p->curl, CURLOPT_PASSWORD, p->password);
	}
}

/* "SMTP smtp://host:port: STEP: why" (STEP: the command last sent, when
 * known), saying so when the certificate or the login is the reason. */
static void
connection_error(const struct mail_sink *k, const char *where, CURLcode rc, const char *why,
    struct buf *err)
{
	buf_printf(err, "SMTP %s: %s%s%s%s\n", k->name, where && *where ? where : "",
	    where && *where ? ": " : "", why,
	    rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ?
	    " (the server's certificate is not trusted: connection refused)" :
	    rc == CURLE_LOGIN_DENIED ? " (the server refused the user name or password)" : "");
}

static size_t
discard_cb(char *data, size_t size, size_t nmemb, void *arg)
{
	(void)data;
	(void)arg;
	return size * nmemb;
}

int
sink_smtp_check(const struct mail_config *cfg, struct buf *err)
{
	struct mail_sink *k = sink_smtp_new(cfg);
	struct smtp *p = k->priv;
	struct transcript t;
	char errbuf[CURL_ERROR_SIZE];
	CURLcode rc;
	int r = 0;

	if (sink_open(k, err) < 0) {
		sink_free(k);
		return -1;
	}
	memset(&t, 0, sizeof t);
	errbuf[0] = '\0';
	connection_opts(p, errbuf, &t);
	/* No envelope: after the greeting, EHLO, STARTTLS and AUTH, one NOOP. */
	curl_easy_setopt(p->curl, CURLOPT_CUSTOMREQUEST, "NOOP");
	curl_easy_setopt(p->curl, CURLOPT_WRITEFUNCTION, discard_cb);
	rc = curl_easy_perform(p->curl);
	if (rc != CURLE_OK) {
		connection_error(k, NULL, rc, errbuf[0] ? errbuf : curl_easy_strerror(rc), err);
		r = -1;
	}
	curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(p->curl, CURLOPT_DEBUGDATA, NULL);
	sink_free(k);
	return r;
}

/*
 * libcurl connects: greeting, EHLO, STARTTLS, AUTH, and no transaction
 * (CURLOPT_CONNECT_ONLY). A refused OAuth token is renewed once per batch.
 * Returns 0, or -1 with the error (naming the step) in err.
 */
static int
smtp_connect(struct mail_sink *k, struct buf *err)
{
	struct smtp *p = k->priv;
	struct transcript t;
	char errbuf[CURL_ERROR_SIZE], where[64];
	curl_socket_t sock;
	CURLcode rc;

again:
	memset(&t, 0, sizeof t);
	errbuf[0] = '\0';
	if (p->dropped) {	/* a new handle: the old connection is closed */
		curl_easy_cleanup(p->curl);
		p->curl = curl_easy_init();
		p->dropped = 0;
		if (p->curl == NULL) {
			snprintf(p->why, sizeof p->why, "libcurl cannot be initialised");
			buf_printf(err, "SMTP %s: %s\n", k->name, p->why);
			return -1;
		}
	}
	connection_opts(p, errbuf, &t);
	curl_easy_setopt(p->curl, CURLOPT_CONNECT_ONLY, 1L);
	rc = curl_easy_perform(p->curl);
	if (rc == CURLE_OK && (curl_easy_getinfo(p->curl, CURLINFO_ACTIVESOCKET, &sock) != CURLE_OK ||
	    sock == CURL_SOCKET_BAD))
		rc = CURLE_COULDNT_CONNECT;
	curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(p->curl, CURLOPT_DEBUGDATA, NULL);
	curl_easy_setopt(p->curl, CURLOPT_VERBOSE, 0L);
	if (rc == CURLE_LOGIN_DENIED && p->oauth.mech != OAUTH_NONE && p->user != NULL &&
	    !p->renewed) {
		char *tok;

		p->renewed = 1;
		log_info("SMTP %s: the access token was refused; asking for a new one", k->name);
		tok = oauth_access_token(&p->oauth, p->data_dir, true, NULL, err);
		if (tok != NULL) {
			explicit_bzero(p->password, strlen(p->password));
			free(p->password);
			p->password = tok;
			goto again;
		}
	}
	if (rc != CURLE_OK) {
		step(&t, where, sizeof where);
		snprintf(p->why, sizeof p->why, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
		connection_error(k, where, rc, p->why, err);
		return -1;
	}
	p->sock = sock;
	p->pipelining = t.pipelining;
	p->connected = 1;
	p->sent = 0;
	p->inlen = 0;
	return 0;
}

/* The connection is of no more use: nothing more is sent over it (libcurl
 * closes it; its QUIT then finds the connection shut). */
static void
smtp_drop(struct smtp *p)
{
	if (p->connected)
		shutdown(p->sock, SHUT_RDWR);
	p->connected = 0;
	p->dropped = 1;
}

/* Milliseconds to wait for the next reply: T, or less when the message's
 * 4 T end sooner; 0 when they have. */
static int
wait_ms(const struct smtp *p)
{
	struct timespec now;
	long long left;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left = (long long)(p->deadline.tv_sec - now.tv_sec) * 1000 +
	    (p->deadline.tv_nsec - now.tv_nsec) / 1000000;
	if (left <= 0)
		return 0;
	return left < p->timeout * 1000 ? (int)left : (int)(p->timeout * 1000);
}

/* Wait until the socket is ready for events. 0, or -1 (p->why). */
static int
smtp_wait(struct smtp *p, short events)
{
	struct pollfd pfd = { p->sock, events, 0 };
	int ms = wait_ms(p), r;

	do
		r = poll(&pfd, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		snprintf(p->why, sizeof p->why, "no answer within %d s (server response timeout)",
		    (ms + 999) / 1000);
	else if (r < 0)
		snprintf(p->why, sizeof p->why, "%s", strerror(errno));
	return r > 0 ? 0 : -1;
}

/* Send all of data. 0, or -1 (p->why). */
static int
smtp_write(struct smtp *p, const char *data, size_t len)
{
	while (len > 0) {
		size_t n = 0;
		CURLcode rc = curl_easy_send(p->curl, data, len, &n);

		if (rc == CURLE_AGAIN) {
			if (smtp_wait(p, POLLOUT) < 0)
				return -1;
			continue;
		}
		if (rc != CURLE_OK) {
			snprintf(p->why, sizeof p->why, "the connection failed or was closed (%s)",
			    curl_easy_strerror(rc));
			return -1;
		}
		data += n;
		len -= n;
	}
	return 0;
}

/*
 * Read one reply (every line of it): its code, and its last line (without
 * CRLF, cut to size - 1) in text. Returns 0, or -1 (p->why) when the
 * connection ended, stalled or sent what is not a reply.
 */
static int
smtp_reply(struct smtp *p, int *code, char *text, size_t size)
{
	int lines = 0;

	for (;;) {
		char *nl = memchr(p->in, '\n', p->inlen);
		size_t n, m;
		CURLcode rc;

		if (nl == NULL) {
			if (p->inlen == sizeof p->in) {
				snprintf(p->why, sizeof p->why, "a reply line longer than %zu bytes",
				    sizeof p->in);
				return -1;
			}
			rc = curl_easy_recv(p->curl, p->in + p->inlen, sizeof p->in - p->inlen, &n);
			if (rc == CURLE_AGAIN) {
				if (smtp_wait(p, POLLIN) < 0)
					return -1;
				continue;
			}
			if (rc != CURLE_OK || n == 0) {
				snprintf(p->why, sizeof p->why, "%s", rc == CURLE_OK ?
				    "the server closed the connection" :
				    "the connection failed or was closed");
				return -1;
			}
			p->inlen += n;
			continue;
		}
		n = (size_t)(nl - p->in) + 1;
		m = n;
		while (m > 0 && (p->in[m - 1] == '\n' || p->in[m - 1] == '\r'))
			m--;
		if (m < 3 || p->in[0] < '2' || p->in[0] > '5' || p->in[1] < '0' || p->in[1] > '9' ||
		    p->in[2] < '0' || p->in[2] > '9' || (m > 3 && p->in[3] != '-' && p->in[3] != ' ') ||
		    ++lines > SMTP_MAX_REPLY_LINES) {
			snprintf(p->why, sizeof p->why, "cannot parse the server's answer");
			return -1;
		}
		if (m == 3 || p->in[3] == ' ') {	/* the last line */
			*code = (p->in[0] - '0') * 100 + (p->in[1] - '0') * 10 + (p->in[2] - '0');
			if (m > size - 1)
				m = size - 1;
			memcpy(text, p->in, m);
			text[m] = '\0';
		}
		memmove(p->in, p->in + n, p->inlen - n);
		p->inlen -= n;
		if (*code != 0)
			return 0;
	}
}

/* The outcome of one transaction. */
struct txn {
	int mail_code, data_code, eod_code;
	char mail_text[256], data_text[256], eod_text[256];
	int *rcpt_code;
	char (*rcpt_text)[256];
	const char *broken;	/* the reply it stopped waiting for, or NULL */
};

/* Send data; on failure note the reply that will not come. */
static int
put(struct smtp *p, struct txn *x, const char *what, const char *data, size_t len)
{
	if (smtp_write(p, data, len) < 0) {
		x->broken = what;
		return -1;
	}
	return 0;
}

/* Read one reply into code/text; on failure note what was awaited. */
static int
await(struct smtp *p, struct txn *x, const char *what, int *code, char *text)
{
	*code = 0;
	if (smtp_reply(p, code, text, 256) < 0) {
		x->broken = what;
		*code = 0;
		return -1;
	}
	return 0;
}

/*
 * One transaction: MAIL FROM, RCPT TO each of rcpts, DATA and the message
 * (wire: to_wire's), pipelined when the server allows. Fills x. Returns 0
 * when the exchange went to its end (refusals included), -1 when the
 * connection broke or stalled (x->broken says where, p->why why).
 */
static int
transaction(struct smtp *p, const char *from, char *const *rcpts, int n, const char *wire,
    size_t wirelen, struct txn *x)
{
	struct buf cmd;
	int i, ok = 0, r = -1;

	buf_init(&cmd, 4096);
	buf_printf(&cmd, "MAIL FROM:<%s>\r\n", from);
	if (!p->pipelining) {
		if (put(p, x, "MAIL", cmd.data, cmd.len) < 0 ||
		    await(p, x, "MAIL", &x->mail_code, x->mail_text) < 0)
			goto out;
		if (x->mail_code >= 300) {
			r = 0;
			goto reset;
		}
		buf_reset(&cmd);
	}
	for (i = 0; i < n; i++) {
		buf_printf(&cmd, "RCPT TO:<%s>\r\n", rcpts[i]);
		if (!p->pipelining) {
			if (put(p, x, "RCPT", cmd.data, cmd.len) < 0 ||
			    await(p, x, "RCPT", &x->rcpt_code[i], x->rcpt_text[i]) < 0)
				goto out;
			ok += status_of(x->rcpt_code[i]) == RCPT_OK;
			buf_reset(&cmd);
		}
	}
	if (!p->pipelining && ok == 0) {	/* nobody to send it to */
		r = 0;
		goto reset;
	}
	buf_puts(&cmd, "DATA\r\n");
	if (put(p, x, p->pipelining ? "MAIL" : "DATA", cmd.data, cmd.len) < 0)
		goto out;
	if (p->pipelining) {
		if (await(p, x, "MAIL", &x->mail_code, x->mail_text) < 0)
			goto out;
		for (i = 0; i < n; i++) {
			if (await(p, x, "RCPT", &x->rcpt_code[i], x->rcpt_text[i]) < 0)
				goto out;
			ok += status_of(x->rcpt_code[i]) == RCPT_OK;
		}
	}
	if (await(p, x, "DATA", &x->data_code, x->data_text) < 0)
		goto out;
	if (x->data_code != 354) {
		r = 0;
		goto reset;
	}
	/* A server that says 354 with no recipient gets an empty message. */
	if (put(p, x, "the message", ok > 0 ? wire : ".\r\n", ok > 0 ? wirelen : 3) < 0 ||
	    await(p, x, "the message", &x->eod_code, x->eod_text) < 0)
		goto out;
	if (ok == 0)
		x->eod_code = 0;
	r = 0;
	goto out;
reset: {
		int code;
		char text[256];

		if (put(p, x, "RSET", "RSET\r\n", 6) < 0 || await(p, x, "RSET", &code, text) < 0)
			r = -1;
	}
out:
	buf_free(&cmd);
	return r;
}

static void
set_deadline(struct smtp *p)
{
	clock_gettime(CLOCK_MONOTONIC, &p->deadline);
	p->deadline.tv_sec += p->timeout * 4;
}

static int
smtp_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct smtp *p = k->priv;
	struct txn x;
	char *wire;
	size_t wirelen;
	int i, r = 0, retried = 0, tr;

	(void)key;	/* a server's 250 is final: nothing to recognise later */
	memset(&x, 0, sizeof x);
	x.rcpt_code = xcalloc((size_t)n + 1, sizeof *x.rcpt_code);
	x.rcpt_text = xcalloc((size_t)n + 1, sizeof *x.rcpt_text);
	wire = to_wire(data, len, &wirelen);
again:
	if (!p->connected && smtp_connect(k, err) < 0) {
		sink_set_all(res, n, RCPT_TEMPFAIL, 0, p->why);
		r = -1;
		goto out;
	}
	set_deadline(p);
	x.broken = NULL;
	x.mail_code = x.data_code = x.eod_code = 0;
	memset(x.rcpt_code, 0, (size_t)n * sizeof *x.rcpt_code);
	tr = transaction(p, from, rcpts, n, wire, wirelen, &x);
	if (!retried && p->sent > 0 && ((tr < 0 && x.mail_code == 0 &&
	    strcmp(x.broken, "MAIL") == 0) || x.mail_code == 421)) {
		/* the server closed an idle connection: nothing of this message went */
		retried = 1;
		smtp_drop(p);
		goto again;
	}
	if (tr < 0) {
		smtp_drop(p);
		buf_printf(err, "SMTP %s: waiting for the answer to %s: %s\n", k->name, x.broken,
		    p->why);
	}
	if (x.mail_code == 0 || x.mail_code >= 300) {
		/* the envelope was never taken */
		char why[256];

		if (x.mail_code == 0)
			snprintf(why, sizeof why, "%s", p->why);
		else
			snprintf(why, sizeof why, "MAIL FROM refused: %.200s", x.mail_text);
		if (tr == 0)
			connection_error(k, "after MAIL", CURLE_OK, why, err);
		sink_set_all(res, n, RCPT_TEMPFAIL, x.mail_code, why);
		r = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		int code = x.rcpt_code[i];

		if (code == 0)
			sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0, tr < 0 ? p->why :
			    "the connection ended before the message was accepted");
		else if (status_of(code) != RCPT_OK)
			sink_set_all(&res[i], 1, status_of(code), code, x.rcpt_text[i]);
		else if (x.eod_code != 0)
			sink_set_all(&res[i], 1, status_of(x.eod_code), x.eod_code, x.eod_text);
		else if (x.data_code >= 400)
			sink_set_all(&res[i], 1, status_of(x.data_code), x.data_code, "DATA refused");
		else
			sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0, tr < 0 ? p->why :
			    "the connection ended before the message was accepted");
	}
	if (tr < 0)
		r = -1;
	else
		p->sent++;
out:
	free(wire);
	free(x.rcpt_code);
	free(x.rcpt_text);
	return r;
}

static int
smtp_sync(struct mail_sink *k, struct buf *err)
{
	(void)k;
	(void)err;
	return 0;	/* a 250 is the server's promise */
}

static void
smtp_close(struct mail_sink *k)
{
	struct smtp *p = k->priv;

	if (p == NULL)
		return;
	if (p->curl != NULL)
		curl_easy_cleanup(p->curl);	/* QUIT, when connected */
	if (p->global)
		curl_global_cleanup();
	if (p->password != NULL) {
		explicit_bzero(p->password, strlen(p->password));
		free(p->password);
	}
	free(p->url);
	free(p->user);
	free(p->password_file);
	free(p->cafile);
	free(p->data_dir);
	oauth_settings_free(&p->oauth);
	free(p);
	k->priv = NULL;
}

static const struct sink_ops smtp_ops = { smtp_open, smtp_send, smtp_sync, smtp_close, NULL };

struct mail_sink *
sink_smtp_new(const struct mail_config *cfg)
{
	struct mail_sink *k = xcalloc(1, sizeof *k);
	struct smtp *p = xcalloc(1, sizeof *p);
	const char *s, *e;

	p->url = xstrdup(cfg->smtp_url);
	p->user = cfg->smtp_user ? xstrdup(cfg->smtp_user) : NULL;
	p->password_file = cfg->smtp_password_file ? xstrdup(cfg->smtp_password_file) : NULL;
	p->cafile = cfg->smtp_cafile ? xstrdup(cfg->smtp_cafile) : NULL;
	p->data_dir = cfg->data_dir ? xstrdup(cfg->data_dir) : NULL;
	oauth_settings_copy(&p->oauth, &cfg->smtp_oauth);
	p->tls = cfg->smtp_tls;
	p->timeout = cfg->smtp_timeout > 0 ? cfg->smtp_timeout : 60;
	k->ops = &smtp_ops;
	k->priv = p;
	/* the name is the URL without its path (the EHLO name) */
	s = strstr(p->url, "://");
	e = s ? strchr(s + 3, '/') : NULL;
	k->name = e ? xstrndup(p->url, (size_t)(e - p->url)) : xstrdup(p->url);
	return k;
}
