/*
 * oauth.c — access tokens from refresh tokens, kept with their expiry;
 * the device flow; the SASL messages (oauth.h).
 *
 * Every request is an HTTPS POST of a form (RFC 6749 appendix B) to an
 * endpoint whose certificate libcurl verifies; the answer is a JSON
 * object, read flat (oauth_json_get). Nothing of a request or an answer
 * is logged: libcurl runs without its debug output, and errors quote only
 * the endpoint's "error" code and its description, cleaned and capped.
 */
#define _DEFAULT_SOURCE	/* explicit_bzero */
#include "oauth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "../lib/fsio.h"
#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "charset.h"

#define OAUTH_REPLY_MAX (64 * 1024)	/* an endpoint's answer */
#define OAUTH_TOKEN_MAX 8192		/* an access or refresh token */
#define OAUTH_TIMEOUT 30L		/* seconds for one request */

/* ---- JSON, flat ---------------------------------------------------------- */

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* Read the string at *pp (at its opening quote) into o when o is not NULL.
 * Moves *pp past the closing quote. Returns 0, or -1 (malformed or full). */
static int
json_string(const char **pp, const char *end, struct buf *o)
{
	const char *p = *pp + 1;

	while (p < end && *p != '"') {
		char c = *p++;
		unsigned long u;
		int i, h;

		if ((unsigned char)c < 0x20)
			return -1;
		if (c != '\\') {
			if (o != NULL && buf_putc(o, c) < 0)
				return -1;
			continue;
		}
		if (p >= end)
			return -1;
		c = *p++;
		switch (c) {
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case '"': case '\\': case '/': break;
		case 'u':
			if (end - p < 4)
				return -1;
			for (u = 0, i = 0; i < 4; i++) {
				if ((h = str_hexval(p[i])) < 0)
					return -1;
				u = u * 16 + (unsigned long)h;
			}
			p += 4;
			if (u >= 0xd800 && u < 0xdc00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
				unsigned long lo = 0;
				for (i = 0; i < 4; i++) {
					if ((h = str_hexval(p[2 + i])) < 0)
						return -1;
					lo = lo * 16 + (unsigned long)h;
				}
				if (lo >= 0xdc00 && lo < 0xe000) {
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
			}
			if (o != NULL && utf8_put(o, (unsigned)u) < 0)
				return -1;
			continue;
		default:
			return -1;
		}
		if (o != NULL && buf_putc(o, c) < 0)
			return -1;
	}
	if (p >= end)
		return -1;
	*pp = p + 1;
	return 0;
}

/* Skip the value at *pp; a scalar's text (number, literal) is put in o
 * when o is not NULL; objects and arrays are skipped (nesting capped).
 * Returns 0, 1 when the value was an object or array, or -1. */
static int
json_value(const char **pp, const char *end, struct buf *o)
{
	const char *p = *pp;
	int depth = 0;

	if (p >= end)
		return -1;
	if (*p == '"')
		return json_string(pp, end, o);
	if (*p != '{' && *p != '[') {
		while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' &&
		    *p != '\r' && *p != '\n')
			p++;
		if (p == *pp)
			return -1;
		if (o != NULL && buf_append(o, *pp, (size_t)(p - *pp)) < 0)
			return -1;
		*pp = p;
		return 0;
	}
	while (p < end) {
		if (*p == '"') {
			if (json_string(&p, end, NULL) < 0)
				return -1;
			continue;
		}
		if (*p == '{' || *p == '[') {
			if (++depth > 64)
				return -1;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0) {
				*pp = p + 1;
				return 1;
			}
		}
		p++;
	}
	return -1;
}

int
oauth_json_get(const char *json, size_t len, const char *key, char *out, size_t size)
{
	const char *p = json, *end = json + len;
	struct buf k, v;
	int r = -1;

	buf_init(&k, 256);
	buf_init(&v, size > 0 ? size - 1 : 0);
	p = skip_ws(p, end);
	if (p >= end || *p != '{')
		goto done;
	p = skip_ws(p + 1, end);
	if (p < end && *p == '}')
		goto done;
	while (p < end) {
		int kind, match;

		if (*p != '"')
			goto done;
		buf_reset(&k);
		if (json_string(&p, end, &k) < 0) {
			/* a key too long for k is not the key asked for: skip it */
			if (json_string(&p, end, NULL) < 0)
				goto done;
			buf_reset(&k);
			buf_puts(&k, "\001");
		}
		p = skip_ws(p, end);
		if (p >= end || *p != ':')
			goto done;
		p = skip_ws(p + 1, end);
		match = strcmp(buf_str(&k), key) == 0;
		buf_reset(&v);
		kind = json_value(&p, end, match ? &v : NULL);
		if (kind < 0)
			goto done;
		if (match) {
			if (kind == 0 && size > 0) {
				str_copy(out, buf_str(&v), size);
				r = 0;
			}
			goto done;
		}
		p = skip_ws(p, end);
		if (p < end && *p == ',')
			p = skip_ws(p + 1, end);
		else
			goto done;
	}
done:
	if (v.data != NULL)
		explicit_bzero(v.data, v.cap);
	buf_free(&k);
	buf_free(&v);
	return r;
}

/* ---- HTTPS ----------------------------------------------------------------- */

static size_t
write_cb(char *data, size_t size, size_t nmemb, void *arg)
{
	struct buf *b = arg;
	size_t n = size * nmemb;

	if (buf_append(b, data, n) < 0)
		return 0;	/* too big: libcurl stops with CURLE_WRITE_ERROR */
	return n;
}

/* Append name=value, form-encoded, to f ('&' first unless f is empty). */
static void
form_add(struct buf *f, const char *name, const char *value)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s;

	if (f->len > 0)
		buf_putc(f, '&');
	buf_puts(f, name);
	buf_putc(f, '=');
	for (s = (const unsigned char *)value; *s; s++) {
		if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-' || *s == '.' || *s == '_' || *s == '~') {
			buf_putc(f, (char)*s);
		} else {
			buf_putc(f, '%');
			buf_putc(f, hex[*s >> 4]);
			buf_putc(f, hex[*s & 15]);
		}
	}
}

/* POST form to url; the answer's body into body, its status into *status.
 * Returns 0 when an answer came (any status), or -1 with a reason in err. */
static int
http_post(const char *url, const char *cafile, const struct buf *form, long *status,
    struct buf *body, struct buf *err)
{
	char errbuf[CURL_ERROR_SIZE];
	struct curl_slist *hdr = NULL;
	CURL *h;
	CURLcode rc;

	if (!str_prefix_nocase(url, "https://")) {
		buf_printf(err, "OAuth endpoint %s: only https:// is allowed\n", url);
		return -1;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || (h = curl_easy_init()) == NULL) {
		buf_puts(err, "OAuth: libcurl cannot be initialised\n");
		return -1;
	}
	errbuf[0] = '\0';
	hdr = curl_slist_append(hdr, "Accept: application/json");
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https");
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, buf_str(form));
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)form->len);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, body);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, OAUTH_TIMEOUT);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, OAUTH_TIMEOUT);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "pouch");
	if (cafile != NULL)
		curl_easy_setopt(h, CURLOPT_CAINFO, cafile);
	rc = curl_easy_perform(h);
	*status = 0;
	if (rc == CURLE_OK)
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
	else
		buf_printf(err, "OAuth endpoint %s: %s%s\n", url, errbuf[0] ? errbuf : curl_easy_strerror(rc),
		    rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ?
		    " (the server's certificate is not trusted)" : "");
	curl_easy_cleanup(h);
	curl_slist_free_all(hdr);
	curl_global_cleanup();
	return rc == CURLE_OK ? 0 : -1;
}

/* The endpoint's "error" and "error_description", printable and capped, as
 * " (error: description)" into out. */
static void
endpoint_error(const struct buf *body, char *code, size_t codesize, char *out, size_t size)
{
	char desc[256], *s;

	code[0] = desc[0] = '\0';
	oauth_json_get(body->data ? body->data : "", body->len, "error", code, codesize);
	oauth_json_get(body->data ? body->data : "", body->len, "error_description", desc, sizeof desc);
	for (s = code; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = '?';
	for (s = desc; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			*s = ' ';
	if (code[0] == '\0')
		snprintf(out, size, "%s", "");
	else
		snprintf(out, size, " (%s%s%s)", code, desc[0] ? ": " : "", desc);
}

void
oauth_grant_clear(struct oauth_grant *g)
{
	if (g->access_token != NULL) {
		explicit_bzero(g->access_token, strlen(g->access_token));
		free(g->access_token);
	}
	if (g->refresh_token != NULL) {
		explicit_bzero(g->refresh_token, strlen(g->refresh_token));
		free(g->refresh_token);
	}
	memset(g, 0, sizeof *g);
}

/* A 200 answer's tokens into g. Returns 0, or -1 without an access token. */
static int
read_grant(const struct buf *body, struct oauth_grant *g)
{
	char *tok = xmalloc(OAUTH_TOKEN_MAX), n[32];
	const char *j = body->data ? body->data : "";
	long e;

	memset(g, 0, sizeof *g);
	if (oauth_json_get(j, body->len, "access_token", tok, OAUTH_TOKEN_MAX) == 0 && *tok)
		g->access_token = xstrdup(tok);
	if (oauth_json_get(j, body->len, "refresh_token", tok, OAUTH_TOKEN_MAX) == 0 && *tok)
		g->refresh_token = xstrdup(tok);
	explicit_bzero(tok, OAUTH_TOKEN_MAX);
	free(tok);
	g->expires_in = 3600;	/* RFC 6749 5.1: RECOMMENDED; an hour when absent */
	if (oauth_json_get(j, body->len, "expires_in", n, sizeof n) == 0 &&
	    str_to_long(n, 0, 10L * 365 * 86400, &e) == 0)
		g->expires_in = e;
	if (g->access_token == NULL) {
		oauth_grant_clear(g);
		return -1;
	}
	return 0;
}

/* Wipe a buffer that held secrets and free it. */
static void
buf_wipe(struct buf *b)
{
	if (b->data != NULL)
		explicit_bzero(b->data, b->cap);
	buf_free(b);
}

static void
form_client(struct buf *form, const struct oauth_client *c)
{
	form_add(form, "client_id", c->client_id);
	if (c->client_secret != NULL)
		form_add(form, "client_secret", c->client_secret);
}

/* ---- the kept access token ------------------------------------------------- */

/* DATA/oauth/ID.token for the account (endpoint, client, refresh token). */
static char *
cache_path(const char *data_dir, const char *token_url, const char *client_id,
    const char *refresh)
{
	unsigned char d[32];
	char id[17];
	struct buf b;
	int i;

	buf_init(&b, 3 * OAUTH_TOKEN_MAX);
	buf_printf(&b, "%s\n%s\n%s", token_url, client_id, refresh);
	gnutls_hash_fast(GNUTLS_DIG_SHA256, b.data, b.len, d);
	buf_wipe(&b);
	for (i = 0; i < 8; i++)
		snprintf(id + 2 * i, 3, "%02x", d[i]);
	return xasprintf("%s/oauth/%s.token", data_dir ? data_dir : ".", id);
}

/* The token kept at path with more than OAUTH_MARGIN s left, or NULL. */
static char *
cache_read(const char *path, long *left)
{
	struct buf b;
	const char *p, *end, *line;
	char *tok = NULL;
	long expires = 0;
	size_t n;

	buf_init(&b, 2 * OAUTH_TOKEN_MAX);
	if (fs_read_file(path, &b) < 0) {
		buf_free(&b);
		return NULL;
	}
	p = buf_str(&b);
	end = p + b.len;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		if (n > 8 && strncmp(line, "expires ", 8) == 0) {
			char num[32];
			str_ncopy_trim(num, sizeof num, line + 8, n - 8);
			if (str_to_long(num, 0, 0x7fffffffffffL, &expires) < 0)
				expires = 0;
		} else if (n > 7 && strncmp(line, "access ", 7) == 0 && tok == NULL) {
			tok = xstrndup(line + 7, n - 7);
		}
	}
	buf_wipe(&b);
	if (tok != NULL && expires - (long)time(NULL) > OAUTH_MARGIN) {
		if (left != NULL)
			*left = expires - (long)time(NULL);
		return tok;
	}
	if (tok != NULL) {
		explicit_bzero(tok, strlen(tok));
		free(tok);
	}
	return NULL;
}

/* Keep token at path until now + expires_in. Returns 0 or -1 (reason in err). */
static int
cache_write(const char *path, const char *token, long expires_in, struct buf *err)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct buf b;
	int r;

	if (slash != NULL)
		*slash = '\0';
	buf_init(&b, 2 * OAUTH_TOKEN_MAX);
	buf_printf(&b, "expires %ld\naccess %s\n", (long)time(NULL) + expires_in, token);
	r = fs_mkdir_p(dir, 0700);
	if (r == 0)
		r = fs_write_atomic_mode(path, b.data, b.len, 0600);
	if (r < 0)
		buf_printf(err, "cannot keep the access token in %s: %s\n", path, strerror(errno));
	buf_wipe(&b);
	free(dir);
	return r;
}

/* Replace the refresh token file with token (0600). Returns 0 or -1 (err). */
static int
write_refresh(const char *path, const char *token, struct buf *err)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	struct buf b;
	int r = 0;

	if (slash != NULL && slash != dir) {
		*slash = '\0';
		if (!fs_exists(dir))
			r = fs_mkdir_p(dir, 0700);
	}
	buf_init(&b, OAUTH_TOKEN_MAX + 2);
	buf_printf(&b, "%s\n", token);
	if (r == 0)
		r = fs_write_atomic_mode(path, b.data, b.len, 0600);
	if (r < 0)
		buf_printf(err, "cannot write the refresh token to %s: %s\n", path, strerror(errno));
	buf_wipe(&b);
	free(dir);
	return r;
}

static void
wipe_free(char *s)
{
	if (s != NULL) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

char *
oauth_access_token(const struct oauth_settings *s, const char *data_dir, bool renew,
    long *left, struct buf *err)
{
	struct oauth_client c = { NULL, s->token_url, s->client_id, NULL, s->cafile };
	struct oauth_grant g = { NULL, NULL, 0 };
	char *refresh, *secret = NULL, *path, *tok = NULL, code[64], why[400];
	struct buf form, body;
	long status;

	if (s->token_url == NULL || s->client_id == NULL) {
		buf_puts(err, "OAuth: no token endpoint or client id configured\n");
		return NULL;
	}
	refresh = mail_read_secret(s->refresh_token_file, err);
	if (refresh == NULL)
		return NULL;
	if (s->client_secret_file != NULL && (secret = mail_read_secret(s->client_secret_file, err)) == NULL) {
		wipe_free(refresh);
		return NULL;
	}
	path = cache_path(data_dir, s->token_url, s->client_id, refresh);
	if (!renew && (tok = cache_read(path, left)) != NULL)
		goto done;

	c.client_secret = secret;
	buf_init(&form, 4 * OAUTH_TOKEN_MAX);
	buf_init(&body, OAUTH_REPLY_MAX);
	form_add(&form, "grant_type", "refresh_token");
	form_add(&form, "refresh_token", refresh);
	form_client(&form, &c);
	if (http_post(s->token_url, s->cafile, &form, &status, &body, err) < 0) {
		/* reason given */
	} else if (status == 200 && read_grant(&body, &g) == 0) {
		log_info("OAuth: a new access token from %s, valid %ld s", s->token_url, g.expires_in);
		if (g.refresh_token != NULL && strcmp(g.refresh_token, refresh) != 0) {
			struct buf werr;

			buf_init(&werr, 1024);
			if (write_refresh(s->refresh_token_file, g.refresh_token, &werr) == 0) {
				unlink(path);
				free(path);
				path = cache_path(data_dir, s->token_url, s->client_id, g.refresh_token);
			} else {
				log_warn("OAuth: the endpoint sent a new refresh token: %s", buf_str(&werr));
			}
			buf_free(&werr);
		}
		{
			struct buf werr;

			buf_init(&werr, 1024);
			if (cache_write(path, g.access_token, g.expires_in, &werr) < 0)
				log_warn("OAuth: %s", buf_str(&werr));
			buf_free(&werr);
		}
		tok = g.access_token;
		g.access_token = NULL;
		if (left != NULL)
			*left = g.expires_in;
	} else {
		endpoint_error(&body, code, sizeof code, why, sizeof why);
		if (strcmp(code, "invalid_grant") == 0)
			buf_printf(err, "OAuth sign-in refused by %s%s: the refresh token in %s has expired "
			    "or was revoked; sign in again with `pouch oauth login` (see pouch(1))\n",
			    s->token_url, why, s->refresh_token_file);
		else if (strcmp(code, "invalid_client") == 0 || strcmp(code, "unauthorized_client") == 0)
			buf_printf(err, "OAuth sign-in refused by %s%s: check the client id and the client "
			    "secret file\n", s->token_url, why);
		else
			buf_printf(err, "OAuth token endpoint %s: HTTP status %ld%s%s\n", s->token_url, status,
			    why, status == 200 ? " (no access token in the answer)" : "");
	}
	oauth_grant_clear(&g);
	buf_wipe(&form);
	buf_wipe(&body);
done:
	free(path);
	wipe_free(refresh);
	wipe_free(secret);
	return tok;
}

int
oauth_save_login(const struct oauth_settings *s, const char *data_dir,
    const struct oauth_grant *g, struct buf *err)
{
	char *path;
	int r;

	if (g->refresh_token == NULL) {
		buf_puts(err, "the token endpoint sent no refresh token (for Microsoft, is offline_access "
		    "among the scopes?)\n");
		return -1;
	}
	if (write_refresh(s->refresh_token_file, g->refresh_token, err) < 0)
		return -1;
	if (g->access_token == NULL)
		return 0;
	path = cache_path(data_dir, s->token_url, s->client_id, g->refresh_token);
	r = cache_write(path, g->access_token, g->expires_in, err);
	free(path);
	return r;
}

/* ---- the device flow (RFC 8628) ---------------------------------------------- */

int
oauth_device_start(const struct oauth_client *c, const char *scope, struct oauth_device *d,
    struct buf *err)
{
	struct buf form, body;
	char n[32], code[64], why[400];
	const char *j;
	long status;
	int r = -1;

	memset(d, 0, sizeof *d);
	buf_init(&form, 4 * OAUTH_TOKEN_MAX);
	buf_init(&body, OAUTH_REPLY_MAX);
	form_add(&form, "client_id", c->client_id);
	if (c->client_secret != NULL)
		form_add(&form, "client_secret", c->client_secret);
	if (scope != NULL && *scope)
		form_add(&form, "scope", scope);
	if (http_post(c->device_url, c->cafile, &form, &status, &body, err) < 0)
		goto done;
	j = body.data ? body.data : "";
	if (status != 200 ||
	    oauth_json_get(j, body.len, "device_code", d->device_code, sizeof d->device_code) < 0 ||
	    oauth_json_get(j, body.len, "user_code", d->user_code, sizeof d->user_code) < 0 ||
	    (oauth_json_get(j, body.len, "verification_uri", d->verification_uri,
	    sizeof d->verification_uri) < 0 &&
	    /* Google's name for it */
	    oauth_json_get(j, body.len, "verification_url", d->verification_uri,
	    sizeof d->verification_uri) < 0)) {
		endpoint_error(&body, code, sizeof code, why, sizeof why);
		buf_printf(err, "device authorization endpoint %s: HTTP status %ld%s\n", c->device_url,
		    status, why);
		goto done;
	}
	d->interval = 5;	/* RFC 8628 3.2: the default */
	if (oauth_json_get(j, body.len, "interval", n, sizeof n) == 0)
		str_to_long(n, 1, 600, &d->interval);
	d->expires_in = 900;
	if (oauth_json_get(j, body.len, "expires_in", n, sizeof n) == 0)
		str_to_long(n, 1, 86400, &d->expires_in);
	r = 0;
done:
	buf_wipe(&form);
	buf_wipe(&body);
	return r;
}

enum oauth_poll
oauth_device_poll(const struct oauth_client *c, const struct oauth_device *d,
    struct oauth_grant *g, struct buf *err)
{
	struct buf form, body;
	char code[64], why[400];
	enum oauth_poll r = OAUTH_POLL_FAILED;
	long status;

	memset(g, 0, sizeof *g);
	buf_init(&form, 4 * OAUTH_TOKEN_MAX);
	buf_init(&body, OAUTH_REPLY_MAX);
	form_add(&form, "grant_type", "urn:ietf:params:oauth:grant-type:device_code");
	form_add(&form, "device_code", d->device_code);
	form_client(&form, c);
	if (http_post(c->token_url, c->cafile, &form, &status, &body, err) < 0)
		goto done;
	if (status == 200 && read_grant(&body, g) == 0) {
		r = OAUTH_POLL_DONE;
		goto done;
	}
	endpoint_error(&body, code, sizeof code, why, sizeof why);
	if (strcmp(code, "authorization_pending") == 0)
		r = OAUTH_POLL_PENDING;
	else if (strcmp(code, "slow_down") == 0)
		r = OAUTH_POLL_SLOW_DOWN;
	else if (strcmp(code, "access_denied") == 0)
		buf_printf(err, "the sign-in was declined%s\n", why);
	else if (strcmp(code, "expired_token") == 0)
		buf_printf(err, "the code expired before the sign-in was done%s: start again\n", why);
	else
		buf_printf(err, "token endpoint %s: HTTP status %ld%s\n", c->token_url, status, why);
done:
	buf_wipe(&form);
	buf_wipe(&body);
	return r;
}

/* ---- SASL ------------------------------------------------------------------- */

int
oauth_sasl_xoauth2(const char *user, const char *token, struct buf *out)
{
	return buf_printf(out, "user=%s\001auth=Bearer %s\001\001", user, token);
}

int
oauth_sasl_oauthbearer(const char *user, const char *host, int port, const char *token,
    struct buf *out)
{
	const char *s;

	/* gs2 header: no channel binding, the authorization identity with ',' and '=' escaped */
	if (buf_puts(out, "n,a=") < 0)
		return -1;
	for (s = user; *s; s++)
		if ((*s == ',' ? buf_puts(out, "=2C") : *s == '=' ? buf_puts(out, "=3D") :
		    buf_putc(out, *s)) < 0)
			return -1;
	return buf_printf(out, ",\001host=%s\001port=%d\001auth=Bearer %s\001\001", host, port, token);
}
