/*
 * sink_smtp.c — sending through an SMTP server with libcurl.
 *
 * One easy handle serves the whole batch, so libcurl keeps one connection
 * open and sends every message over it (RSET between transactions is
 * libcurl's business). TLS: smtps:// is implicit TLS; smtp:// with
 * smtp.tls = starttls requires STARTTLS (CURLUSESSL_ALL), so a server or a
 * man in the middle that does not offer it gets nothing. libcurl verifies
 * the certificate and host name (against smtp.cafile when set).
 *
 * Per-recipient outcomes: CURLOPT_MAIL_RCPT_ALLLOWFAILS (sic, three Ls in
 * curl 7.88) lets the transaction go on when some RCPT TO are refused, but
 * libcurl reports only the last reply. So the protocol exchange is read
 * from the debug callback: each command we send (CURLINFO_HEADER_OUT)
 * says what the next final reply (CURLINFO_HEADER_IN) answers — MAIL,
 * each RCPT in order, DATA, then the end of the message. Nothing from the
 * exchange is logged (AUTH lines carry the password).
 *
 * libcurl adds no header fields and does not convert line ends: the
 * message is given CRLF line ends here; dot-stuffing is libcurl's.
 *
 * OAuth 2.0 (smtp.auth = xoauth2 | oauthbearer): the access token
 * (oauth.h) goes to CURLOPT_XOAUTH2_BEARER and CURLOPT_LOGIN_OPTIONS
 * "AUTH=XOAUTH2" or "AUTH=OAUTHBEARER" holds libcurl to that mechanism
 * (left to itself it takes OAUTHBEARER when the server offers both). When
 * the server refuses the token (CURLE_LOGIN_DENIED) a new one is asked for
 * once per batch and the message tried again.
 *
 * Time-outs (smtp.timeout, T): the connection, greeting, EHLO, STARTTLS
 * and AUTH within T (CURLOPT_CONNECTTIMEOUT), each later reply within T
 * (CURLOPT_SERVER_RESPONSE_TIMEOUT), a whole message within 4 T
 * (CURLOPT_TIMEOUT). A connection that breaks or stalls in the middle of
 * a transaction defers that message and the rest of the batch (the
 * server is not to be trusted with more this run); the error names the
 * step: the command last sent, never its argument.
 */
#define _DEFAULT_SOURCE	/* explicit_bzero */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "oauth.h"
#include "sink.h"

enum expect { EXP_OTHER, EXP_MAIL, EXP_RCPT, EXP_DATA, EXP_EOD };

struct transcript {
	enum expect expect;
	int rcpt_index;		/* the RCPT being answered */
	int nrcpt;
	int *rcpt_code;
	char (*rcpt_text)[256];
	int mail_code, data_code, eod_code;
	char eod_text[256];
	char line[1024];	/* a reply line being assembled */
	size_t linelen;
	char last[16];		/* the verb of the command last sent ("" before any) */
	int answered;		/* it had its final reply */
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
};

/* Forget the outcome of a previous attempt. */
static void
transcript_reset(struct transcript *t)
{
	memset(t->rcpt_code, 0, (size_t)t->nrcpt * sizeof *t->rcpt_code);
	memset(t->rcpt_text, 0, (size_t)t->nrcpt * sizeof *t->rcpt_text);
	t->expect = EXP_OTHER;
	t->rcpt_index = -1;
	t->mail_code = t->data_code = t->eod_code = 0;
	t->eod_text[0] = '\0';
	t->linelen = 0;
}

/* One complete reply line from the server. */
static void
reply_line(struct transcript *t, const char *s, size_t n)
{
	int code;

	while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == '\n'))
		n--;
	if (n < 3 || s[0] < '1' || s[0] > '5' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
		return;
	if (n > 3 && s[3] == '-')
		return;	/* a continuation: wait for the final line */
	t->answered = 1;
	code = (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
	switch (t->expect) {
	case EXP_MAIL:
		t->mail_code = code;
		break;
	case EXP_RCPT:
		if (t->rcpt_index >= 0 && t->rcpt_index < t->nrcpt) {
			size_t m = n < 255 ? n : 255;
			t->rcpt_code[t->rcpt_index] = code;
			memcpy(t->rcpt_text[t->rcpt_index], s, m);
			t->rcpt_text[t->rcpt_index][m] = '\0';
		}
		break;
	case EXP_DATA:
		t->data_code = code;
		if (code == 354)
			t->expect = EXP_EOD;	/* the next final reply ends the message */
		return;
	case EXP_EOD: {
		size_t m = n < 255 ? n : 255;
		t->eod_code = code;
		memcpy(t->eod_text, s, m);
		t->eod_text[m] = '\0';
		break;
	}
	case EXP_OTHER:
		break;
	}
	t->expect = EXP_OTHER;
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
		if (size >= 10 && str_prefix_nocase(data, "MAIL FROM:"))
			t->expect = EXP_MAIL;
		else if (size >= 8 && str_prefix_nocase(data, "RCPT TO:")) {
			t->expect = EXP_RCPT;
			t->rcpt_index++;
		} else if (size >= 4 && str_prefix_nocase(data, "DATA"))
			t->expect = EXP_DATA;
		else
			t->expect = EXP_OTHER;
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

struct reader {
	const char *p;
	size_t left;
};

static size_t
read_cb(char *out, size_t size, size_t nmemb, void *arg)
{
	struct reader *r = arg;
	size_t n = size * nmemb;

	if (n > r->left)
		n = r->left;
	memcpy(out, r->p, n);
	r->p += n;
	r->left -= n;
	return n;
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

/* data with every line ending in CRLF. */
static char *
to_crlf(const char *data, size_t len, size_t *outlen)
{
	size_t i, n = 0, extra = 0;
	char *o;

	for (i = 0; i < len; i++)
		if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))
			extra++;
	o = xmalloc(len + extra + 3);
	for (i = 0; i < len; i++) {
		if (data[i] == '\n' && (i == 0 || data[i - 1] != '\r'))
			o[n++] = '\r';
		o[n++] = data[i];
	}
	if (n == 0 || o[n - 1] != '\n') {
		o[n++] = '\r';
		o[n++] = '\n';
	}
	*outlen = n;
	return o;
}

/* Where the exchange stood when it stopped, for the error. */
static void
step(const struct transcript *t, char *out, size_t size)
{
	if (t->expect == EXP_EOD && t->eod_code == 0)
		snprintf(out, size, "waiting for the answer to the message");
	else if (t->last[0] == '\0')
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
	t.rcpt_index = -1;
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

static int
smtp_send(struct mail_sink *k, const char *key, const char *from, char *const *rcpts, int n,
    const char *data, size_t len, struct rcpt_result *res, struct buf *err)
{
	struct smtp *p = k->priv;
	struct transcript t;
	struct curl_slist *list = NULL;
	struct reader rd;
	char errbuf[CURL_ERROR_SIZE], fromb[320], where[64];
	char *crlf;
	size_t crlflen;
	CURLcode rc;
	int i, r = 0, broken = 0;

	(void)key;	/* a server's 250 is final: nothing to recognise later */
	memset(&t, 0, sizeof t);
	t.nrcpt = n;
	t.rcpt_code = xcalloc((size_t)n + 1, sizeof *t.rcpt_code);
	t.rcpt_text = xcalloc((size_t)n + 1, sizeof *t.rcpt_text);
	for (i = 0; i < n; i++) {
		char rb[320];
		snprintf(rb, sizeof rb, "<%s>", rcpts[i]);
		list = curl_slist_append(list, rb);
	}
	snprintf(fromb, sizeof fromb, "<%s>", from);
	crlf = to_crlf(data, len, &crlflen);
again:
	transcript_reset(&t);
	rd.p = crlf;
	rd.left = crlflen;
	errbuf[0] = '\0';

	curl_easy_setopt(p->curl, CURLOPT_MAIL_FROM, fromb);
	curl_easy_setopt(p->curl, CURLOPT_MAIL_RCPT, list);
	curl_easy_setopt(p->curl, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1L);
	curl_easy_setopt(p->curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(p->curl, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(p->curl, CURLOPT_READDATA, &rd);
	curl_easy_setopt(p->curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)crlflen);
	connection_opts(p, errbuf, &t);

	rc = curl_easy_perform(p->curl);
	step(&t, where, sizeof where);
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

	if (t.mail_code == 0 || (t.mail_code >= 400 && t.rcpt_index < 0)) {
		/* never got as far as the envelope: connection, TLS, AUTH or MAIL FROM */
		char why[256];
		snprintf(why, sizeof why, "%s", errbuf[0] ? errbuf : curl_easy_strerror(rc));
		connection_error(k, where, rc, why, err);
		sink_set_all(res, n, RCPT_TEMPFAIL, t.mail_code, why);
		r = -1;
	} else {
		for (i = 0; i < n; i++) {
			int code = t.rcpt_code[i];
			if (code == 0) {
				sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0,
				    errbuf[0] ? errbuf : curl_easy_strerror(rc));
				broken = 1;
			} else if (status_of(code) != RCPT_OK) {
				sink_set_all(&res[i], 1, status_of(code), code, t.rcpt_text[i]);
			} else if (t.eod_code != 0) {
				sink_set_all(&res[i], 1, status_of(t.eod_code), t.eod_code, t.eod_text);
			} else if (t.data_code >= 400) {
				sink_set_all(&res[i], 1, status_of(t.data_code), t.data_code,
				    "DATA refused");
			} else {
				sink_set_all(&res[i], 1, RCPT_TEMPFAIL, 0,
				    errbuf[0] ? errbuf : "the connection ended before the message was accepted");
				broken = 1;
			}
		}
		if (broken && rc != CURLE_OK) {	/* not a refusal: the connection broke */
			buf_printf(err, "SMTP %s: %s: %s\n", k->name, where,
			    errbuf[0] ? errbuf : curl_easy_strerror(rc));
			r = -1;
		}
	}
	curl_easy_setopt(p->curl, CURLOPT_MAIL_RCPT, NULL);
	curl_easy_setopt(p->curl, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(p->curl, CURLOPT_DEBUGDATA, NULL);
	curl_slist_free_all(list);
	free(crlf);
	free(t.rcpt_code);
	free(t.rcpt_text);
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
		curl_easy_cleanup(p->curl);
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

static const struct sink_ops smtp_ops = { smtp_open, smtp_send, smtp_sync, smtp_close };

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
