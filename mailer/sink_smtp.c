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
#include <pthread.h>
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

/* One connection to the server, and what is known of it. */
struct conn {
	CURL *curl;
	long timeout;		/* smtp.timeout */
	int connected;		/* the connection is up and between transactions */
	int dropped;		/* a connection was given up: the handle still has it */
	int dead;		/* could not be made, or broke: not used again this run */
	int pipelining;		/* and the server takes pipelined commands */
	int sent;		/* messages carried by this connection */
	curl_socket_t sock;
	struct timespec deadline;	/* the current message ends by then */
	char in[4096];		/* received, not yet read as reply lines */
	size_t inlen;
	char why[256];		/* why the connection failed */
};

struct smtp {
	char *url, *user, *password_file, *cafile, *data_dir;
	char *password;		/* or the OAuth access token */
	struct oauth_settings oauth;
	int renewed;		/* a refused token was renewed in this batch */
	enum mail_tls tls;
	long timeout;
	int global;		/* curl_global_init done */
	struct conn *c;		/* nconn connections (smtp.connections); c[0] for sink_send */
	int nconn;
	pthread_mutex_t mu;	/* held while a connection is made (the password, the token) */
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
	char byte[1];
	size_t none;
	int i;

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
	for (i = 0; i < p->nconn; i++) {
		p->c[i].curl = curl_easy_init();
		p->c[i].timeout = p->timeout;
		if (p->c[i].curl == NULL) {
			buf_puts(err, "SMTP: libcurl cannot be initialised\n");
			return -1;
		}
	}
	/* libcurl's functions are looked up when first called (lib/lazylib.h):
	 * those the sending threads call, looked up here, before there are any
	 * (a handle without CONNECT_ONLY sends and receives nothing). */
	(void)curl_easy_send(p->c[0].curl, "", 0, &none);
	(void)curl_easy_recv(p->c[0].curl, byte, 0, &none);
	(void)curl_easy_strerror(CURLE_OK);
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
connection_opts(struct smtp *p, CURL *h, char *errbuf, struct transcript *t)
{
	curl_easy_setopt(h, CURLOPT_URL, p->url);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, p->timeout);
	curl_easy_setopt(h, CURLOPT_SERVER_RESPONSE_TIMEOUT, p->timeout);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, p->timeout * 4);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);	/* feeds debug_cb only */
	curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, t);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (p->cafile != NULL) {
		/* that file alone: not also the system's CA directory, which
		 * libcurl would read again for every connection (some 7 MB) */
		curl_easy_setopt(h, CURLOPT_CAINFO, p->cafile);
		curl_easy_setopt(h, CURLOPT_CAPATH, NULL);
	}
	if (str_prefix_nocase(p->url, "smtp://"))
		curl_easy_setopt(h, CURLOPT_USE_SSL,
		    p->tls == MAIL_TLS_STARTTLS ? (long)CURLUSESSL_ALL : (long)CURLUSESSL_NONE);
	if (p->user != NULL && p->oauth.mech != OAUTH_NONE) {
		curl_easy_setopt(h, CURLOPT_USERNAME, p->user);
		curl_easy_setopt(h, CURLOPT_XOAUTH2_BEARER, p->password);
		curl_easy_setopt(h, CURLOPT_LOGIN_OPTIONS,
		    p->oauth.mech == OAUTH_XOAUTH2 ? "AUTH=XOAUTH2" : "AUTH=OAUTHBEARER");
	} else if (p->user != NULL) {
		curl_easy_setopt(h, CURLOPT_USERNAME, p->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD, p->password);
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
	CURL *h;
	int r = 0;

	if (sink_open(k, err) < 0) {
		sink_free(k);
		return -1;
	}
	memset(&t, 0, sizeof t);
	errbuf[0] = '\0';
	h = p->c[0].curl;
	connection_opts(p, h, errbuf, &t);
	/* No envelope: after the greeting, EHLO, STARTTLS and AUTH, one NOOP. */
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "NOOP");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard_cb);
	rc = curl_easy_perform(h);
	if (rc != CURLE_OK) {
		connection_error(k, NULL, rc, errbuf[0] ? errbuf : curl_easy_strerror(rc), err);
		r = -1;
	}
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, NULL);
	sink_free(k);
	return r;
}

/*
 * libcurl makes connection c: greeting, EHLO, STARTTLS, AUTH, and no
 * transaction (CURLOPT_CONNECT_ONLY). A refused OAuth token is renewed
 * once per batch. Connections are made on several threads at once: the
 * settings, the password and its renewal are read and changed under p->mu.
 * Returns 0, or -1 with the error (naming the step) in err.
 */
static int
smtp_connect(struct mail_sink *k, struct conn *c, struct buf *err)
{
	struct smtp *p = k->priv;
	struct transcript t;
	char errbuf[CURL_ERROR_SIZE], where[64];
	curl_socket_t sock;
	CURLcode rc;
	int gen;

again:
	memset(&t, 0, sizeof t);
	errbuf[0] = '\0';
	if (c->dropped) {	/* a new handle: the old connection is closed */
		curl_easy_cleanup(c->curl);
		c->curl = curl_easy_init();
		c->dropped = 0;
		if (c->curl == NULL) {
			snprintf(c->why, sizeof c->why, "libcurl cannot be initialised");
			buf_printf(err, "SMTP %s: %s\n", k->name, c->why);
			return -1;
		}
	}
	pthread_mutex_lock(&p->mu);
	connection_opts(p, c->curl, errbuf, &t);	/* libcurl copies the strings */
	gen = p->renewed;
	pthread_mutex_unlock(&p->mu);
	curl_easy_setopt(c->curl, CURLOPT_CONNECT_ONLY, 1L);
	rc = curl_easy_perform(c->curl);
	if (rc == CURLE_OK && (curl_easy_getinfo(c->curl, CURLINFO_ACTIVESOCKET, &sock) != CURLE_OK ||
	    sock == CURL_SOCKET_BAD))
		rc = CURLE_COULDNT_CONNECT;
	curl_easy_setopt(c->curl, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(c->curl, CURLOPT_DEBUGDATA, NULL);
	curl_easy_setopt(c->curl, CURLOPT_VERBOSE, 0L);
	if (rc == CURLE_LOGIN_DENIED && p->oauth.mech != OAUTH_NONE && p->user != NULL) {
		char *tok = NULL;
		int retry = 0;

		pthread_mutex_lock(&p->mu);
		if (p->renewed != gen) {
			retry = 1;	/* another connection renewed it meanwhile */
		} else if (!p->renewed) {
			p->renewed = 1;
			log_info("SMTP %s: the access token was refused; asking for a new one",
			    k->name);
			tok = oauth_access_token(&p->oauth, p->data_dir, true, NULL, err);
			if (tok != NULL) {
				explicit_bzero(p->password, strlen(p->password));
				free(p->password);
				p->password = tok;
				retry = 1;
			}
		}
		pthread_mutex_unlock(&p->mu);
		if (retry)
			goto again;
	}
	if (rc != CURLE_OK) {
		step(&t, where, sizeof where);
		snprintf(c->why, sizeof c->why, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
		connection_error(k, where, rc, c->why, err);
		return -1;
	}
	c->sock = sock;
	c->pipelining = t.pipelining;
	c->connected = 1;
	c->sent = 0;
	c->inlen = 0;
	return 0;
}

/* The connection is of no more use: nothing more is sent over it (libcurl
 * closes it; its QUIT then finds the connection shut). */
static void
smtp_drop(struct conn *p)
{
	if (p->connected)
		shutdown(p->sock, SHUT_RDWR);
	p->connected = 0;
	p->dropped = 1;
}

/* Milliseconds to wait for the next reply: T, or less when the message's
 * 4 T end sooner; 0 when they have. */
static int
wait_ms(const struct conn *p)
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
smtp_wait(struct conn *p, short events)
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
smtp_write(struct conn *p, const char *data, size_t len)
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
smtp_reply(struct conn *p, int *code, char *text, size_t size)
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
put(struct conn *p, struct txn *x, const char *what, const char *data, size_t len)
{
	if (smtp_write(p, data, len) < 0) {
		x->broken = what;
		return -1;
	}
	return 0;
}

/* Read one reply into code/text; on failure note what was awaited. */
static int
await(struct conn *p, struct txn *x, const char *what, int *code, char *text)
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
transaction(struct conn *p, const char *from, char *const *rcpts, int n, const char *wire,
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
set_deadline(struct conn *p)
{
	clock_gettime(CLOCK_MONOTONIC, &p->deadline);
	p->deadline.tv_sec += p->timeout * 4;
}

/* sink_send over connection p (made first when it is not up). */
static int
conn_send(struct mail_sink *k, struct conn *p, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct txn x;
	char *wire;
	size_t wirelen;
	int i, r = 0, retried = 0, tr;

	memset(&x, 0, sizeof x);
	x.rcpt_code = xcalloc((size_t)n + 1, sizeof *x.rcpt_code);
	x.rcpt_text = xcalloc((size_t)n + 1, sizeof *x.rcpt_text);
	wire = to_wire(data, len, &wirelen);
again:
	if (!p->connected && smtp_connect(k, p, err) < 0) {
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
smtp_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct smtp *p = k->priv;

	(void)key;	/* a server's 250 is final: nothing to recognise later */
	return conn_send(k, &p->c[0], from, rcpts, n, data, len, res, err);
}

/* A sink_send_many: messages shared out between connections, one thread each. */
struct many {
	struct mail_sink *k;
	struct sink_msg *v;
	int n;
	int next;		/* the next message not taken (under mu) */
	int *taken;		/* v[i] was given to a connection */
	pthread_mutex_t mu;
};

/* One connection's share of a sink_send_many. */
struct worker {
	struct many *m;
	struct conn *c;
	struct buf err;
	int up;			/* the connection was up (made, or already) */
	int threaded;		/* th runs it */
	pthread_t th;
};

/*
 * Send over w->c the messages not yet taken, one at a time, until none is
 * left. A connection that cannot be made takes none, and one that breaks
 * in a transaction no more (its message waits for a later run): the
 * others take the rest. The server is not trusted with that connection
 * again this run.
 */
static void *
worker_run(void *arg)
{
	struct worker *w = arg;
	struct many *m = w->m;

	for (;;) {
		struct sink_msg *x;
		int i, r;

		if (!w->c->connected) {
			if (w->c->dead)
				break;
			if (smtp_connect(m->k, w->c, &w->err) < 0) {
				w->c->dead = 1;
				break;
			}
		}
		w->up = 1;
		pthread_mutex_lock(&m->mu);
		i = m->next >= m->n ? -1 : m->next++;
		if (i >= 0)
			m->taken[i] = 1;
		pthread_mutex_unlock(&m->mu);
		if (i < 0)
			break;
		x = &m->v[i];
		r = conn_send(m->k, w->c, x->from, x->rcpts, x->n, x->data, x->len, x->res, &w->err);
		if (r < 0) {
			w->c->dead = 1;
			break;
		}
	}
	return NULL;
}

/* Messages a connection is worth: fewer messages than this each, fewer connections. */
#define SMTP_PER_CONNECTION 16
/* Messages given to sink_send_many at a time, per connection (sink_group). */
#define SMTP_GROUP_PER_CONNECTION 64

static int
smtp_send_many(struct mail_sink *k, struct sink_msg *v, int n, struct buf *err)
{
	struct smtp *p = k->priv;
	struct many m;
	struct worker *w;
	int i, want, nw = 0, alive = 0, r = 0;
	const char *why = NULL;

	memset(&m, 0, sizeof m);
	m.k = k;
	m.v = v;
	m.n = n;
	m.taken = xcalloc((size_t)n + 1, sizeof *m.taken);
	pthread_mutex_init(&m.mu, NULL);
	w = xcalloc((size_t)p->nconn, sizeof *w);
	/* as many connections as the messages are worth, those up first */
	want = (n + SMTP_PER_CONNECTION - 1) / SMTP_PER_CONNECTION;
	for (i = 0; i < p->nconn && nw < want; i++)
		if (p->c[i].connected && !p->c[i].dead)
			w[nw++].c = &p->c[i];
	for (i = 0; i < p->nconn && nw < want; i++)
		if (!p->c[i].connected && !p->c[i].dead)
			w[nw++].c = &p->c[i];
	for (i = 0; i < nw; i++) {
		w[i].m = &m;
		buf_init(&w[i].err, 1 << 16);
	}
	/* The first on this thread, the others on threads of their own (or
	 * on this one after it, when a thread cannot be made). */
	for (i = 1; i < nw; i++)
		w[i].threaded = pthread_create(&w[i].th, NULL, worker_run, &w[i]) == 0;
	for (i = 0; i < nw; i++)
		if (!w[i].threaded)
			worker_run(&w[i]);
	for (i = 0; i < nw; i++) {
		if (w[i].threaded)
			pthread_join(w[i].th, NULL);
		alive += !w[i].c->dead;
		if (w[i].c->dead && why == NULL)
			why = w[i].c->why;
	}
	if (alive == 0)
		r = -1;	/* every connection failed: the rest waits */
	for (i = 0; i < nw; i++) {
		struct buf *e = &w[i].err;
		if (r < 0)
			buf_puts(err, buf_str(e));
		else if (e->len > 0 && w[i].up)	/* broke; the others carried the rest */
			log_warn("%.*s (the outbox keeps the mail)", (int)e->len - 1, e->data);
		else if (e->len > 0)	/* could not be made: fewer connections */
			log_info("%.*s (sending over fewer connections)", (int)e->len - 1, e->data);
		buf_free(e);
	}
	for (i = 0; i < n; i++)
		if (!m.taken[i])
			sink_set_all(v[i].res, v[i].n, RCPT_TEMPFAIL, 0, why != NULL ? why :
			    "not tried: no connection to the server");
	pthread_mutex_destroy(&m.mu);
	free(m.taken);
	free(w);
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
	for (int i = 0; i < p->nconn; i++)
		if (p->c[i].curl != NULL)
			curl_easy_cleanup(p->c[i].curl);	/* QUIT, when connected */
	free(p->c);
	pthread_mutex_destroy(&p->mu);
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

static const struct sink_ops smtp_ops = { smtp_open, smtp_send, smtp_sync, smtp_close,
	smtp_send_many };

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
	p->nconn = cfg->smtp_connections > 0 ? cfg->smtp_connections : 1;
	p->c = xcalloc((size_t)p->nconn, sizeof *p->c);
	pthread_mutex_init(&p->mu, NULL);
	k->ops = &smtp_ops;
	k->group = p->nconn > 1 ? SMTP_GROUP_PER_CONNECTION * p->nconn : 1;
	k->priv = p;
	/* the name is the URL without its path (the EHLO name) */
	s = strstr(p->url, "://");
	e = s ? strchr(s + 3, '/') : NULL;
	k->name = e ? xstrndup(p->url, (size_t)(e - p->url)) : xstrdup(p->url);
	return k;
}
