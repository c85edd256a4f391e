/*
 * source_imap.c — reading an IMAP folder with libetpan's mailimap_* API.
 *
 * One run is a fixed number of round trips whatever the number of
 * messages: connect (+ STARTTLS), LOGIN, AUTHENTICATE PLAIN, XOAUTH2 or
 * OAUTHBEARER (with an access token from oauth.h), SELECT,
 * one UID SEARCH, one UID FETCH (UID INTERNALDATE BODY.PEEK[]) of every
 * new message, and after the caller stored them one UID STORE +FLAGS
 * (\Seen, or \Seen \Deleted then UID EXPUNGE) for the whole batch.
 * BODY.PEEK leaves \Seen alone, so nothing changes on the server before
 * the commit.
 *
 * What is new: with a cursor "UIDVALIDITY:LASTUID" from the previous run
 * and the same UIDVALIDITY, the UIDs above LASTUID (so people reading the
 * mailbox cannot hide mail from the judge); otherwise (first run, or the
 * server renumbered the folder) the UNSEEN messages. The new cursor stops
 * below the first message the caller left, so that one is asked for again.
 *
 * A batch is at most IMAP_MAX_BATCH messages (they are all in memory at
 * once); when more are new, s->more asks the caller for another fetch
 * after the commit, over the same connection, from the new cursor.
 *
 * TLS: libetpan does the handshake but verifies nothing, so tlsverify.c
 * checks the chain and the host name before any password is sent.
 *
 * OAuth 2.0: XOAUTH2 is libetpan's mailimap_oauth2_authenticate; libetpan
 * has no OAUTHBEARER, so that one is sent here with the initial response
 * (SASL-IR) through libetpan's public tag, stream and response calls. A
 * token the server refuses is renewed once and tried again on the same
 * connection.
 *
 * Hostile servers: libetpan waits imap.timeout for each read, but has no
 * limit on a whole session nor on how much a server sends (an endless
 * answer grows its buffer until memory runs out), and it spins forever
 * when the connection ends inside a literal (end of stream is not an
 * error to its literal reader). So the connection is ours (connect with
 * imap.timeout) and every byte read goes through a guard, a stream driver
 * wrapped around libetpan's socket or TLS one: end of stream, a wait past
 * imap.timeout, a session past IMAP_SESSION_TIMEOUTS times imap.timeout,
 * or more than IMAP_MAX_BYTES received make that read and every later one
 * fail, and the reason is what the error says.
 */
#define _DEFAULT_SOURCE	/* timegm, explicit_bzero */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>

#include <libetpan/libetpan.h>

#include "../lib/log.h"
#include "../lib/str.h"
#include "../lib/xalloc.h"
#include "codec.h"
#include "oauth.h"
#include "source.h"
#include "tlsverify.h"

#define IMAP_MAX_BATCH 2000
#define IMAP_MAX_BYTES (256u * 1024 * 1024)	/* received in one session */
#define IMAP_SESSION_TIMEOUTS 10		/* a session: 10 x imap.timeout */

struct imapsrc {
	char *host, *user, *password_file, *folder, *cafile, *data_dir;
	struct oauth_settings oauth;
	int port;
	enum mail_tls tls;
	enum imap_after after;
	enum imap_auth auth;
	int timeout;

	mailimap *imap;
	time_t deadline;	/* the session ends by then */
	size_t received;	/* bytes read in this session */
	const char *broken;	/* the guard stopped the connection: why */
	char why[96];
	uint32_t uidvalidity, uidnext;
	uint32_t prev_last;	/* from the cursor, when it applies */
	int have_cursor;
	uint32_t max_fetched;	/* 0: nothing fetched */
	uint32_t min_left;	/* UINT32_MAX: nothing left */
	uint32_t *accepted;
	size_t naccepted;
};

static const char *
imap_errstr(int r)
{
	switch (r) {
	case MAILIMAP_ERROR_CONNECTION_REFUSED:
		return "connection refused";
	case MAILIMAP_ERROR_STREAM:
		return "the connection failed or was closed";
	case MAILIMAP_ERROR_SSL:
		return "TLS handshake failed";
	case MAILIMAP_ERROR_STARTTLS:
		return "STARTTLS refused";
	case MAILIMAP_ERROR_LOGIN:
		return "login refused";
	case MAILIMAP_ERROR_SASL:
		return "authentication refused";
	case MAILIMAP_ERROR_SELECT:
		return "cannot select the folder";
	case MAILIMAP_ERROR_PARSE:
		return "cannot parse the server's answer";
	case MAILIMAP_ERROR_MEMORY:
		return "out of memory";
	default:
		return "command failed";
	}
}

static int
fail(struct imapsrc *p, struct buf *err, const char *what, int r)
{
	const char *resp = p->imap ? p->imap->imap_response : NULL;

	if (p->broken != NULL)	/* the guard knows better than libetpan */
		resp = NULL;
	buf_printf(err, "IMAP %s:%d: %s: %s%s%s%s\n", p->host, p->port, what,
	    p->broken ? p->broken : imap_errstr(r),
	    resp && *resp ? " (server: \"" : "", resp && *resp ? resp : "", resp && *resp ? "\")" : "");
	return -1;
}

/* The guard's stream driver: data is a struct guard. */
struct guard {
	mailstream_low *inner;	/* libetpan's socket or TLS stream */
	struct imapsrc *p;
};

static void
guard_break(struct imapsrc *p, const char *why)
{
	if (p->broken == NULL) {
		snprintf(p->why, sizeof p->why, "%s", why);
		p->broken = p->why;
	}
}

static ssize_t
guard_read(mailstream_low *s, void *buf, size_t count)
{
	struct guard *g = s->data;
	struct imapsrc *p = g->p;
	time_t now = time(NULL), wait;
	ssize_t r;
	char why[96];

	if (p->broken != NULL)
		return -1;
	if (now >= p->deadline) {
		snprintf(why, sizeof why, "the session took longer than %d s",
		    IMAP_SESSION_TIMEOUTS * p->timeout);
		guard_break(p, why);
		return -1;
	}
	wait = p->deadline - now < p->timeout ? p->deadline - now : p->timeout;
	mailstream_low_set_timeout(g->inner, wait);
	r = mailstream_low_read(g->inner, buf, count);
	if (r == 0) {
		guard_break(p, "the server closed the connection");
		return -1;
	}
	if (r < 0) {
		if (time(NULL) - now >= wait)
			snprintf(why, sizeof why, "no answer within %lld s", (long long)wait);
		else
			snprintf(why, sizeof why, "the connection failed or was closed");
		guard_break(p, why);
		return -1;
	}
	p->received += (size_t)r;
	if (p->received > IMAP_MAX_BYTES) {
		snprintf(why, sizeof why, "the server sent more than %u MiB in one session",
		    IMAP_MAX_BYTES >> 20);
		guard_break(p, why);
		return -1;
	}
	return r;
}

static ssize_t
guard_write(mailstream_low *s, const void *buf, size_t count)
{
	struct guard *g = s->data;

	if (g->p->broken != NULL)
		return -1;
	return mailstream_low_write(g->inner, buf, count);
}

static int
guard_close(mailstream_low *s)
{
	return mailstream_low_close(((struct guard *)s->data)->inner);
}

static int
guard_get_fd(mailstream_low *s)
{
	return mailstream_low_get_fd(((struct guard *)s->data)->inner);
}

/* Like libetpan's own drivers: frees the inner stream (not closed), then s. */
static void
guard_free(mailstream_low *s)
{
	struct guard *g = s->data;

	mailstream_low_free(g->inner);
	free(g);
	s->data = NULL;
	free(s);
}

static void
guard_cancel(mailstream_low *s)
{
	mailstream_low_cancel(((struct guard *)s->data)->inner);
}

static struct mailstream_cancel *
guard_get_cancel(mailstream_low *s)
{
	return mailstream_low_get_cancel(((struct guard *)s->data)->inner);
}

static carray *
guard_certificates(mailstream_low *s)
{
	return mailstream_low_get_certificate_chain(((struct guard *)s->data)->inner);
}

static mailstream_low_driver guard_driver = {
	guard_read, guard_write, guard_close, guard_get_fd, guard_free, guard_cancel,
	guard_get_cancel, guard_certificates, NULL, NULL, NULL,
};

/* inner behind a guard; NULL (inner freed) when out of memory. */
static mailstream_low *
guard_new(struct imapsrc *p, mailstream_low *inner)
{
	struct guard *g = malloc(sizeof *g);
	mailstream_low *s = g ? mailstream_low_new(g, &guard_driver) : NULL;

	if (s == NULL) {
		free(g);
		mailstream_low_free(inner);
		return NULL;
	}
	g->inner = inner;
	g->p = p;
	return s;
}

/*
 * A TCP connection to host:port within timeout seconds: the socket, or -1
 * with a reason in why.
 */
static int
tcp_connect(const char *host, int port, int timeout, char *why, size_t whysize)
{
	struct addrinfo hints, *res, *ai;
	char serv[16];
	int fd = -1, e, soerr = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(serv, sizeof serv, "%d", port);
	e = getaddrinfo(host, serv, &hints, &res);
	if (e != 0) {
		snprintf(why, whysize, "%s", gai_strerror(e));
		return -1;
	}
	snprintf(why, whysize, "no address");
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		struct pollfd pfd;
		socklen_t len = sizeof soerr;
		int flags;

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0)
			continue;
		flags = fcntl(fd, F_GETFL);
		fcntl(fd, F_SETFL, flags | O_NONBLOCK);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
			soerr = errno;
		} else {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			e = poll(&pfd, 1, timeout * 1000);
			if (e == 0)
				soerr = ETIMEDOUT;
			else if (e < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0)
				soerr = errno;
		}
		if (soerr == 0) {
			fcntl(fd, F_SETFL, flags);
			break;
		}
		snprintf(why, whysize, "%s", soerr == ETIMEDOUT ? "no answer within the time-out" :
		    soerr == ECONNREFUSED ? "connection refused" : strerror(soerr));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

/* Connect (TLS from the start for imaps) and read the greeting. */
static int
im_connect(struct imapsrc *p, struct buf *err)
{
	mailstream_low *low, *g;
	mailstream *stream;
	char why[128];
	int fd, r;

	fd = tcp_connect(p->host, p->port, p->timeout, why, sizeof why);
	if (fd < 0) {
		buf_printf(err, "IMAP %s:%d: cannot connect: %s\n", p->host, p->port, why);
		return -1;
	}
	if (p->tls == MAIL_TLS_IMPLICIT)
		low = mailstream_low_ssl_open_timeout(fd, p->timeout);
	else
		low = mailstream_low_socket_open(fd);
	if (low == NULL) {
		close(fd);
		return fail(p, err, "cannot connect", p->tls == MAIL_TLS_IMPLICIT ?
		    MAILIMAP_ERROR_SSL : MAILIMAP_ERROR_MEMORY);
	}
	g = guard_new(p, low);
	stream = g ? mailstream_new(g, 8192) : NULL;
	if (stream == NULL) {
		if (g != NULL)
			mailstream_low_free(g);
		close(fd);
		return fail(p, err, "cannot connect", MAILIMAP_ERROR_MEMORY);
	}
	r = mailimap_connect(p->imap, stream);	/* the session owns the stream */
	if (r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED && r != MAILIMAP_NO_ERROR_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR)
		return fail(p, err, "cannot connect", r);
	return 0;
}

/* After STARTTLS libetpan reads through a new TLS stream: guard it too. */
static int
guard_again(struct imapsrc *p, struct buf *err)
{
	mailstream_low *low = mailstream_get_low(p->imap->imap_stream);
	mailstream_low *g;

	if (low->driver == &guard_driver)
		return 0;
	g = guard_new(p, low);
	if (g == NULL) {
		mailstream_set_low(p->imap->imap_stream, NULL);
		return fail(p, err, "STARTTLS", MAILIMAP_ERROR_MEMORY);
	}
	mailstream_set_low(p->imap->imap_stream, g);
	return 0;
}

/*
 * AUTHENTICATE PLAIN with an initial response (RFC 4616, RFC 4959). Not
 * libetpan's mailimap_authenticate: that goes through Cyrus SASL, whose
 * plugins stay loaded (and allocated) for the life of the process. Returns
 * a MAILIMAP_* code, or -1 with a reason in err.
 */
static int
auth_plain(struct mail_source *s, const char *pw, struct buf *err)
{
	struct imapsrc *p = s->priv;
	struct mailimap_capability_data *cap = NULL;
	struct buf raw, cmd;
	int r;

	s->commands++;
	if (mailimap_capability(p->imap, &cap) == MAILIMAP_NO_ERROR)
		mailimap_capability_data_free(cap);
	if (!mailimap_has_extension(p->imap, "SASL-IR")) {
		buf_printf(err, "IMAP %s:%d: the server does not offer SASL-IR, which imap.auth = plain "
		    "needs; use imap.auth = login\n", p->host, p->port);
		return -1;
	}
	buf_init(&raw, 2048);
	buf_init(&cmd, 4096);
	/* authorization identity (empty), NUL, user, NUL, password */
	if (buf_putc(&raw, '\0') < 0 || buf_puts(&raw, p->user) < 0 || buf_putc(&raw, '\0') < 0 ||
	    buf_puts(&raw, pw) < 0 || buf_puts(&cmd, "AUTHENTICATE PLAIN ") < 0 ||
	    codec_base64_encode(raw.data, raw.len, &cmd) < 0) {
		buf_printf(err, "IMAP %s:%d: user name or password too long\n", p->host, p->port);
		r = -1;
	} else {
		r = mailimap_custom_command(p->imap, cmd.data);
		if (r == MAILIMAP_NO_ERROR)	/* libetpan does not know what the command did */
			p->imap->imap_state = MAILIMAP_STATE_AUTHENTICATED;
		else if (r == MAILIMAP_ERROR_CUSTOM_COMMAND)
			r = MAILIMAP_ERROR_LOGIN;
	}
	explicit_bzero(raw.data, raw.cap);
	explicit_bzero(cmd.data, cmd.cap);
	buf_free(&raw);
	buf_free(&cmd);
	return r;
}

/*
 * AUTHENTICATE MECH with the initial response raw (base64-encoded here). An
 * error challenge ("+ ...", RFC 7628 3.2.2) is answered with the dummy
 * response %x01, after which the server sends its tagged NO. Returns a
 * MAILIMAP_* code (MAILIMAP_ERROR_LOGIN when refused).
 */
static int
auth_sasl_ir(struct imapsrc *p, const char *mech, const struct buf *raw)
{
	mailstream *st = p->imap->imap_stream;
	struct mailimap_response *resp = NULL;
	struct buf cmd;
	const char *line;
	int r, state = -1;

	buf_init(&cmd, 64 * 1024);
	if (buf_printf(&cmd, "AUTHENTICATE %s ", mech) < 0 ||
	    codec_base64_encode(raw->data, raw->len, &cmd) < 0 || buf_puts(&cmd, "\r\n") < 0) {
		buf_free(&cmd);
		return MAILIMAP_ERROR_MEMORY;
	}
	mailstream_set_privacy(st, 0);	/* keep the token out of libetpan's logger */
	r = mailimap_send_current_tag(p->imap);
	if (r == MAILIMAP_NO_ERROR && (mailstream_write(st, cmd.data, cmd.len) != (ssize_t)cmd.len ||
	    mailstream_flush(st) == -1))
		r = MAILIMAP_ERROR_STREAM;
	mailstream_set_privacy(st, 1);
	explicit_bzero(cmd.data, cmd.cap);
	buf_free(&cmd);
	if (r != MAILIMAP_NO_ERROR)
		return r;
	if ((line = mailimap_read_line(p->imap)) == NULL)
		return MAILIMAP_ERROR_STREAM;
	if (line[0] == '+' && (mailstream_write(st, "AQ==\r\n", 6) != 6 || mailstream_flush(st) == -1))
		return MAILIMAP_ERROR_STREAM;
	r = mailimap_parse_response(p->imap, &resp);
	if (r != MAILIMAP_NO_ERROR)
		return r;
	if (resp->rsp_resp_done->rsp_type == MAILIMAP_RESP_DONE_TYPE_TAGGED)
		state = resp->rsp_resp_done->rsp_data.rsp_tagged->rsp_cond_state->rsp_type;
	mailimap_response_free(resp);
	if (state != MAILIMAP_RESP_COND_STATE_OK)
		return MAILIMAP_ERROR_LOGIN;
	p->imap->imap_state = MAILIMAP_STATE_AUTHENTICATED;
	return MAILIMAP_NO_ERROR;
}

/*
 * Sign in with an OAuth 2.0 access token; a refused token is renewed and
 * tried once more. Returns a MAILIMAP_* code, or -1 with a reason in err.
 */
static int
auth_oauth(struct mail_source *s, struct buf *err)
{
	struct imapsrc *p = s->priv;
	struct mailimap_capability_data *cap = NULL;
	const char *mech = p->oauth.mech == OAUTH_XOAUTH2 ? "XOAUTH2" : "OAUTHBEARER";
	int attempt, r = MAILIMAP_ERROR_LOGIN;

	s->commands++;
	if (mailimap_capability(p->imap, &cap) == MAILIMAP_NO_ERROR)
		mailimap_capability_data_free(cap);
	if (!mailimap_has_authentication(p->imap, mech) ||
	    !mailimap_has_extension(p->imap, "SASL-IR")) {
		buf_printf(err, "IMAP %s:%d: the server does not offer AUTHENTICATE %s with an initial "
		    "response (AUTH=%s, SASL-IR), which imap.auth = %s needs\n", p->host, p->port, mech,
		    mech, p->oauth.mech == OAUTH_XOAUTH2 ? "xoauth2" : "oauthbearer");
		return -1;
	}
	for (attempt = 0; attempt < 2; attempt++) {
		char *tok = oauth_access_token(&p->oauth, p->data_dir, attempt > 0, NULL, err);

		if (tok == NULL)
			return -1;
		s->commands++;
		if (p->oauth.mech == OAUTH_XOAUTH2) {
			r = mailimap_oauth2_authenticate(p->imap, p->user, tok);
		} else {
			struct buf raw;

			buf_init(&raw, 32 * 1024);
			r = oauth_sasl_oauthbearer(p->user, p->host, p->port, tok, &raw) < 0 ?
			    MAILIMAP_ERROR_MEMORY : auth_sasl_ir(p, mech, &raw);
			explicit_bzero(raw.data, raw.cap);
			buf_free(&raw);
		}
		explicit_bzero(tok, strlen(tok));
		free(tok);
		if (r != MAILIMAP_ERROR_LOGIN || attempt > 0)
			break;
		log_info("IMAP %s:%d: the access token was refused; asking for a new one", p->host,
		    p->port);
	}
	return r;
}

static int
im_open(struct mail_source *s, struct buf *err)
{
	struct imapsrc *p = s->priv;
	char *pw;
	int r;

	p->imap = mailimap_new(0, NULL);
	if (p->imap == NULL)
		return fail(p, err, "setup", MAILIMAP_ERROR_MEMORY);
	mailimap_set_timeout(p->imap, p->timeout);
	p->deadline = time(NULL) + (time_t)IMAP_SESSION_TIMEOUTS * p->timeout;
	if (im_connect(p, err) < 0)
		return -1;
	if (p->tls == MAIL_TLS_STARTTLS) {
		s->commands++;
		r = mailimap_socket_starttls(p->imap);
		if (r != MAILIMAP_NO_ERROR)
			return fail(p, err, "STARTTLS", r);
		if (guard_again(p, err) < 0)
			return -1;
	}
	if (p->tls != MAIL_TLS_NONE &&
	    tls_verify_mailstream(p->imap->imap_stream, p->host, p->cafile, err) < 0) {
		buf_printf(err, "IMAP %s:%d: connection refused: the server's certificate is not trusted\n",
		    p->host, p->port);
		return -1;
	}
	if (p->oauth.mech != OAUTH_NONE) {
		r = auth_oauth(s, err);
		if (r == -1)
			return -1;	/* auth_oauth explained */
		if (r != MAILIMAP_NO_ERROR)
			return fail(p, err, p->oauth.mech == OAUTH_XOAUTH2 ? "AUTHENTICATE XOAUTH2" :
			    "AUTHENTICATE OAUTHBEARER", r);
	} else {
		pw = mail_read_password(p->password_file, err);
		if (pw == NULL)
			return -1;
		s->commands++;
		if (p->auth == IMAP_AUTH_PLAIN)
			r = auth_plain(s, pw, err);
		else
			r = mailimap_login(p->imap, p->user, pw);
		explicit_bzero(pw, strlen(pw));
		free(pw);
		if (r == -1)
			return -1;	/* auth_plain explained */
		if (r != MAILIMAP_NO_ERROR)
			return fail(p, err, p->auth == IMAP_AUTH_PLAIN ? "AUTHENTICATE PLAIN" : "LOGIN", r);
	}
	s->commands++;
	r = mailimap_select(p->imap, p->folder);
	if (r != MAILIMAP_NO_ERROR)
		return fail(p, err, "SELECT", r);
	p->uidvalidity = p->imap->imap_selection_info ? p->imap->imap_selection_info->sel_uidvalidity : 0;
	p->uidnext = p->imap->imap_selection_info ? p->imap->imap_selection_info->sel_uidnext : 0;
	return 0;
}

/* "V:U" for this folder's UIDVALIDITY. */
static void
read_cursor(struct imapsrc *p, const char *cursor)
{
	const char *colon = cursor ? strchr(cursor, ':') : NULL;
	char v[16];
	long vv, uu;

	p->have_cursor = 0;
	if (colon == NULL || (size_t)(colon - cursor) >= sizeof v)
		return;
	memcpy(v, cursor, (size_t)(colon - cursor));
	v[colon - cursor] = '\0';
	if (str_to_long(v, 0, UINT32_MAX, &vv) < 0 || str_to_long(colon + 1, 0, UINT32_MAX, &uu) < 0)
		return;
	if ((uint32_t)vv != p->uidvalidity || p->uidvalidity == 0) {
		log_info("IMAP %s: UIDVALIDITY changed (%ld -> %u): asking for unseen mail", p->folder, vv,
		    p->uidvalidity);
		return;
	}
	p->have_cursor = 1;
	p->prev_last = (uint32_t)uu;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A set of sorted UIDs as ranges: "1:5,9,12:13". */
static struct mailimap_set *
uid_set(const uint32_t *uids, size_t n)
{
	struct mailimap_set *set = mailimap_set_new_empty();
	size_t i = 0;

	while (i < n) {
		size_t j = i;
		while (j + 1 < n && uids[j + 1] == uids[j] + 1)
			j++;
		mailimap_set_add_interval(set, uids[i], uids[j]);
		i = j + 1;
	}
	return set;
}

static struct mailimap_search_key *
unseen_key(void)
{
	return mailimap_search_key_new(MAILIMAP_SEARCH_KEY_UNSEEN, NULL, NULL, NULL, NULL, NULL,
	    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL,
	    NULL, 0, NULL, NULL, NULL);
}

static time_t
imap_time(const struct mailimap_date_time *d)
{
	struct tm tm;
	time_t t;
	int zone;

	if (d == NULL)
		return 0;
	memset(&tm, 0, sizeof tm);
	tm.tm_mday = d->dt_day;
	tm.tm_mon = d->dt_month - 1;
	tm.tm_year = d->dt_year - 1900;
	tm.tm_hour = d->dt_hour;
	tm.tm_min = d->dt_min;
	tm.tm_sec = d->dt_sec;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return 0;
	zone = d->dt_zone;	/* +0100 is 100 */
	return t - (time_t)((zone / 100) * 3600 + (zone % 100) * 60);
}

struct fetched {
	uint32_t uid;
	const char *data;
	size_t len;
	time_t date;
};

static int
fetched_cmp(const void *a, const void *b)
{
	return u32_cmp(&((const struct fetched *)a)->uid, &((const struct fetched *)b)->uid);
}

/*
 * Collect (uid, body, date) from a UID FETCH answer, only for the UIDs
 * asked for (sorted, n of them): a server that answers with others must
 * not move the cursor past mail it never sent.
 */
static size_t
collect(clist *result, const uint32_t *asked, size_t nasked, struct fetched *out, size_t max)
{
	clistiter *it, *it2;
	size_t n = 0;

	for (it = clist_begin(result); it != NULL && n < max; it = clist_next(it)) {
		struct mailimap_msg_att *att = clist_content(it);
		struct fetched f = { 0, NULL, 0, 0 };

		for (it2 = clist_begin(att->att_list); it2 != NULL; it2 = clist_next(it2)) {
			struct mailimap_msg_att_item *item = clist_content(it2);
			struct mailimap_msg_att_static *st;

			if (item->att_type != MAILIMAP_MSG_ATT_ITEM_STATIC)
				continue;
			st = item->att_data.att_static;
			if (st->att_type == MAILIMAP_MSG_ATT_UID) {
				f.uid = st->att_data.att_uid;
			} else if (st->att_type == MAILIMAP_MSG_ATT_BODY_SECTION &&
			    st->att_data.att_body_section != NULL) {
				f.data = st->att_data.att_body_section->sec_body_part;
				f.len = st->att_data.att_body_section->sec_length;
			} else if (st->att_type == MAILIMAP_MSG_ATT_INTERNALDATE) {
				f.date = imap_time(st->att_data.att_internal_date);
			}
		}
		if (f.uid != 0 && f.data != NULL &&
		    bsearch(&f.uid, asked, nasked, sizeof *asked, u32_cmp) != NULL)
			out[n++] = f;
	}
	return n;
}

static int
im_fetch(struct mail_source *s, const char *cursor, source_msg_fn fn, void *arg, struct buf *err)
{
	struct imapsrc *p = s->priv;
	struct mailimap_search_key *key;
	struct mailimap_fetch_type *ft;
	struct mailimap_set *set;
	clist *found = NULL, *result = NULL;
	clistiter *it;
	uint32_t *uids;
	struct fetched *msgs;
	size_t n = 0, nmsgs, i;
	struct buf keybuf;
	int r, res = 0;

	assert(p->accepted == NULL);	/* one fetch per open or commit */
	s->more = 0;
	read_cursor(p, cursor);
	if (p->have_cursor)
		key = mailimap_search_key_new_uid(mailimap_set_new_interval(p->prev_last + 1, 0));
	else
		key = unseen_key();
	s->commands++;
	r = mailimap_uid_search(p->imap, NULL, key, &found);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR)
		return fail(p, err, "UID SEARCH", r);
	uids = xcalloc((size_t)clist_count(found) + 1, sizeof *uids);
	for (it = clist_begin(found); it != NULL; it = clist_next(it)) {
		uint32_t u = *(uint32_t *)clist_content(it);
		/* "N:*" always matches the last message, even below N */
		if (!p->have_cursor || u > p->prev_last)
			uids[n++] = u;
	}
	mailimap_search_result_free(found);
	if (n == 0) {
		free(uids);
		return 0;
	}
	qsort(uids, n, sizeof *uids, u32_cmp);
	if (n > IMAP_MAX_BATCH) {	/* the rest in another batch: the cursor stops before them */
		log_info("IMAP %s: %zu new messages, taking the first %d", p->folder, n, IMAP_MAX_BATCH);
		p->min_left = uids[IMAP_MAX_BATCH];
		n = IMAP_MAX_BATCH;
		s->more = 1;
	}
	set = uid_set(uids, n);
	ft = mailimap_fetch_type_new_fetch_att_list_empty();
	mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_uid());
	mailimap_fetch_type_new_fetch_att_list_add(ft, mailimap_fetch_att_new_internaldate());
	mailimap_fetch_type_new_fetch_att_list_add(ft,
	    mailimap_fetch_att_new_body_peek_section(mailimap_section_new(NULL)));
	s->commands++;
	r = mailimap_uid_fetch(p->imap, set, ft, &result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR) {
		free(uids);
		return fail(p, err, "UID FETCH", r);
	}

	msgs = xcalloc((size_t)clist_count(result) + 1, sizeof *msgs);
	nmsgs = collect(result, uids, n, msgs, (size_t)clist_count(result));
	free(uids);
	qsort(msgs, nmsgs, sizeof *msgs, fetched_cmp);
	for (i = 0, n = 0; i < nmsgs; i++)	/* a UID answered twice: the first answer */
		if (n == 0 || msgs[i].uid != msgs[n - 1].uid)
			msgs[n++] = msgs[i];
	nmsgs = n;
	p->accepted = xcalloc(nmsgs + 1, sizeof *p->accepted);
	buf_init(&keybuf, 4096);
	for (i = 0; i < nmsgs; i++) {
		struct source_msg m;

		if (msgs[i].uid > p->max_fetched)
			p->max_fetched = msgs[i].uid;
		if (msgs[i].len > SOURCE_MAX_MESSAGE) {
			log_warn("IMAP %s: UID %u has %zu bytes, more than pouch reads: left on the server",
			    p->folder, msgs[i].uid, msgs[i].len);
			r = SOURCE_LEAVE;
		} else {
			buf_reset(&keybuf);
			buf_printf(&keybuf, "imap://%s@%s/%s;UIDVALIDITY=%u/;UID=%u", p->user, p->host,
			    p->folder, p->uidvalidity, msgs[i].uid);
			m.key = buf_str(&keybuf);
			m.data = msgs[i].data;
			m.len = msgs[i].len;
			m.delivered = msgs[i].date;
			s->fetched++;
			r = fn(arg, &m, err);
		}
		if (r < 0) {
			res = -1;
			break;
		}
		if (r == SOURCE_ACCEPT) {
			p->accepted[p->naccepted++] = msgs[i].uid;
			s->accepted++;
		} else if (msgs[i].uid < p->min_left) {
			p->min_left = msgs[i].uid;
		}
	}
	if (res < 0 && i < nmsgs && msgs[i].uid < p->min_left)
		p->min_left = msgs[i].uid;	/* stopped: nothing from here on is done */
	buf_free(&keybuf);
	free(msgs);
	mailimap_fetch_list_free(result);
	return res;
}

static int
im_commit(struct mail_source *s, char **cursor, struct buf *err)
{
	struct imapsrc *p = s->priv;
	uint32_t last = p->have_cursor ? p->prev_last : 0;
	int r;

	if (p->naccepted > 0) {
		struct mailimap_set *set = uid_set(p->accepted, p->naccepted);
		struct mailimap_flag_list *flags = mailimap_flag_list_new_empty();
		struct mailimap_store_att_flags *store;

		mailimap_flag_list_add(flags, mailimap_flag_new_seen());
		if (p->after == IMAP_AFTER_DELETE)
			mailimap_flag_list_add(flags, mailimap_flag_new_deleted());
		store = mailimap_store_att_flags_new_add_flags_silent(flags);
		s->commands++;
		r = mailimap_uid_store(p->imap, set, store);
		mailimap_store_att_flags_free(store);
		if (r == MAILIMAP_NO_ERROR && p->after == IMAP_AFTER_DELETE) {
			struct mailimap_capability_data *cap = NULL;

			s->commands += 2;
			if (mailimap_capability(p->imap, &cap) == MAILIMAP_NO_ERROR)
				mailimap_capability_data_free(cap);
			/* without UIDPLUS, EXPUNGE also removes what others marked \Deleted */
			if (mailimap_has_extension(p->imap, "UIDPLUS"))
				r = mailimap_uid_expunge(p->imap, set);
			else
				r = mailimap_expunge(p->imap);
		}
		mailimap_set_free(set);
		if (r != MAILIMAP_NO_ERROR)
			return fail(p, err, p->after == IMAP_AFTER_DELETE ? "UID STORE / EXPUNGE" :
			    "UID STORE", r);
	}
	if (p->min_left != UINT32_MAX) {
		if (p->min_left - 1 > last)
			last = p->min_left - 1;
	} else if (p->max_fetched > last) {
		last = p->max_fetched;
	} else if (!p->have_cursor && p->max_fetched == 0 && p->uidnext > 0) {
		last = p->uidnext - 1;	/* first run, nothing unseen: all that exists is old */
	}
	if (p->uidvalidity != 0 && (p->have_cursor || last > 0)) {
		char c[32];
		snprintf(c, sizeof c, "%u:%u", p->uidvalidity, last);
		*cursor = xstrdup(c);
	}
	/* ready for the next batch */
	free(p->accepted);
	p->accepted = NULL;
	p->naccepted = 0;
	p->max_fetched = 0;
	p->min_left = UINT32_MAX;
	return 0;
}

static void
im_close(struct mail_source *s)
{
	struct imapsrc *p = s->priv;

	if (p == NULL)
		return;
	if (p->imap != NULL) {
		if (s->open)
			mailimap_logout(p->imap);	/* not counted: the work is done */
		mailimap_free(p->imap);
	}
	free(p->host);
	free(p->user);
	free(p->password_file);
	free(p->folder);
	free(p->cafile);
	free(p->data_dir);
	oauth_settings_free(&p->oauth);
	free(p->accepted);
	free(p);
	s->priv = NULL;
}

static const struct source_ops imap_ops = { im_open, im_fetch, im_commit, im_close };

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct mail_source *
source_imap_new(const struct mail_config *cfg)
{
	struct mail_source *s = xcalloc(1, sizeof *s);
	struct imapsrc *p = xcalloc(1, sizeof *p);

	p->host = xstrdup(cfg->imap_host);
	p->user = xstrdup(cfg->imap_user ? cfg->imap_user : "");
	p->password_file = dup_or_null(cfg->imap_password_file);
	p->folder = xstrdup(cfg->imap_folder ? cfg->imap_folder : "INBOX");
	p->cafile = dup_or_null(cfg->imap_cafile);
	p->data_dir = dup_or_null(cfg->data_dir);
	oauth_settings_copy(&p->oauth, &cfg->imap_oauth);
	p->tls = cfg->imap_tls;
	p->port = cfg->imap_port ? cfg->imap_port : (cfg->imap_tls == MAIL_TLS_IMPLICIT ? 993 : 143);
	p->after = cfg->imap_after;
	p->auth = cfg->imap_auth;
	p->timeout = cfg->imap_timeout > 0 ? cfg->imap_timeout : 60;
	p->min_left = UINT32_MAX;
	s->ops = &imap_ops;
	s->priv = p;
	s->name = xasprintf("imap://%s@%s/%s", p->user, p->host, p->folder);
	return s;
}
