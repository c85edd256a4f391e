#define _DEFAULT_SOURCE
#include "transcript.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/str.h"
#include "../../lib/strset.h"
#include "../../lib/tz.h"
#include "../../lib/xalloc.h"
#include "../judge.h"
#include "../shell/store.h"
#include "../shell/varcache.h"
#include "../shell/zones.h"

#define MAX_HISTORY 2000

/* History records kept in memory, per game. */
struct history {
	int n;
	struct {
		char game[GAME_NAME_MAX];
		int index;
		char *text;
	} r[MAX_HISTORY];
};

struct tctx {
	struct varcache vc;
	struct zones *zones;
	struct history h;
	struct strset ids;	/* the Message-IDs made so far */
	int failed;		/* a game did not read back */
};

static int
t_history(void *ctx, const char *game, int index, struct buf *out)
{
	struct tctx *t = ctx;
	int i;

	for (i = t->h.n - 1; i >= 0; i--)
		if (t->h.r[i].index == index && str_eq_nocase(t->h.r[i].game, game)) {
			buf_puts(out, t->h.r[i].text);
			return 0;
		}
	return -1;
}

/* The transcript's randomness: the judge's own derivation with a key of
 * 32 zero bytes, so that a run of the same script through pouch with that
 * key (tests/cli/mailpath.sh) makes the same passwords and salts. */
static int
t_random(void *ctx, const char *label, unsigned char out[16])
{
	static const unsigned char zero_key[32];

	(void)ctx;
	return store_derive(zero_key, label, out);
}

static void
put_list(struct buf *out, const char *label, char **v, int n)
{
	int i;

	if (n == 0)
		return;
	buf_printf(out, "%s:", label);
	for (i = 0; i < n; i++)
		buf_printf(out, " %s", v[i]);
	buf_putc(out, '\n');
}

/*
 * Save and reload every game, as the live judge does between runs: the
 * script goes on with what a game file says, so that nothing can depend on
 * state a game file does not keep. A game that does not read back the
 * same is a script error.
 */
static int
reload_games(struct judge *j, struct tctx *t, struct buf *out)
{
	struct game_lookup lk = { &t->vc, varcache_get, varcache_system, varcache_setting };
	struct buf a, b, why;
	int i, rc = 0;

	buf_init(&a, 8u << 20);
	buf_init(&b, 8u << 20);
	buf_init(&why, BUF_ERRORS_MAX);
	for (i = 0; i < j->ngames && rc == 0; i++) {
		struct game *g = xcalloc(1, sizeof *g);
		buf_reset(&a);
		buf_reset(&b);
		game_write(j->games[i], &a);
		if (game_read(g, buf_str(&a), a.len, &lk, &why) < 0) {
			buf_printf(out, "game %s does not read back: %s", j->games[i]->name, buf_str(&why));
			rc = -1;
		} else {
			game_write(g, &b);
			if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
				buf_printf(out, "game %s reads back differently\n", j->games[i]->name);
				rc = -1;
			}
		}
		if (rc == 0) {
			game_free(j->games[i]);
			j->games[i] = g;
		} else {
			game_free(g);
		}
	}
	buf_free(&a);
	buf_free(&b);
	buf_free(&why);
	return rc;
}

/* Write down and forget the judge's effects. */
static void
drain(struct judge *j, struct tctx *t, struct buf *out)
{
	struct judge_effects *fx = &j->fx;
	int i, k;

	for (i = 0; i < fx->nlog; i++)
		buf_printf(out, "LOG %s%s%s\n", fx->log[i].game, fx->log[i].game[0] ? ": " : "",
		    fx->log[i].text);
	for (i = 0; i < fx->naudit; i++)
		buf_printf(out, "AUDIT %s: %s\n", fx->audit[i].game, fx->audit[i].text);
	for (i = 0; i < fx->nrollbacks; i++) {
		/* Records from that index on are retired. */
		long from = 0;
		str_to_long(fx->rollbacks[i].text, 0, 1000000, &from);
		for (k = 0; k < t->h.n; k++)
			if (str_eq_nocase(t->h.r[k].game, fx->rollbacks[i].game) && t->h.r[k].index >= from)
				t->h.r[k].index = -1;
		buf_printf(out, "ROLLBACK %s: history from record %ld retired\n", fx->rollbacks[i].game,
		    from);
	}
	for (i = 0; i < fx->nphases; i++) {
		char ph[48];
		if (t->h.n < MAX_HISTORY) {
			str_copy(t->h.r[t->h.n].game, fx->phases[i].game, GAME_NAME_MAX);
			t->h.r[t->h.n].index = fx->phases[i].index;
			t->h.r[t->h.n].text = xstrdup(fx->phases[i].text);
			t->h.n++;
		}
		buf_printf(out, "PHASE %s %d: %s\n", fx->phases[i].game, fx->phases[i].index,
		    phase_format(&fx->phases[i].before, ph, sizeof ph));
	}
	for (i = 0; i < fx->npress; i++)
		buf_printf(out, "PRESS-ARCHIVE %s: %.60s...\n", fx->press[i].game, fx->press[i].text);
	for (i = 0; i < fx->nout; i++) {
		const struct outmsg *o = &fx->out[i];
		char date[32];
		buf_puts(out, "----------------------------------------------------------------\n");
		if (!strset_add(&t->ids, o->message_id)) {
			/* What pouch run does with it: a Message-ID it sent
			 * before is a repeat of that message. */
			buf_printf(out, "NOT SENT: Message-ID <%s> was used before\n", o->message_id);
			put_list(out, "To", o->to, o->nto);
			buf_printf(out, "Subject: %s\n", o->subject);
			continue;
		}
		put_list(out, "To", o->to, o->nto);
		put_list(out, "Cc", o->cc, o->ncc);
		buf_printf(out, "Subject: %s\n", o->subject);
		buf_printf(out, "Date: %s\n", time_rfc3339(o->date, date, sizeof date));
		buf_printf(out, "Message-ID: <%s>\n", o->message_id);
		if (o->in_reply_to)
			buf_printf(out, "In-Reply-To: <%s>\n", o->in_reply_to);
		if (o->game)
			buf_printf(out, "List: %s\n", o->game);
		buf_printf(out, "Auto-Submitted: %s\n\n%s", o->autosub == OUT_REPLY ? "auto-replied" :
		    "auto-generated", o->text);
		if (o->text[0] && o->text[strlen(o->text) - 1] != '\n')
			buf_putc(out, '\n');
	}
	if (fx->nout)
		buf_puts(out, "----------------------------------------------------------------\n");
	judge_effects_clear(j);
	if (reload_games(j, t, out) < 0)
		t->failed = 1;
}

__attribute__((format(printf, 4, 5))) static int
script_error(struct buf *out, const char *fname, int line, const char *fmt, ...)
{
	va_list ap;

	buf_printf(out, "%s:%d: ", fname, line);
	va_start(ap, fmt);
	buf_vprintf(out, fmt, ap);
	va_end(ap);
	buf_putc(out, '\n');
	return -1;
}

int
transcript_run(const char *text, size_t len, const char *fname, const char *maps_dir,
    struct buf *out)
{
	struct judge_conf conf;
	struct judge_io io = { 0 };
	struct judge j;
	struct tctx *t = xcalloc(1, sizeof *t);
	const char *p = text, *end = text + len, *line;
	time_t now = 0;
	long seq = 0;
	size_t n;
	int lineno = 0, rc = 0, i;

	memset(&conf, 0, sizeof conf);
	str_copy(conf.address, "judge@example.test", sizeof conf.address);
	str_copy(conf.domain, "example.test", sizeof conf.domain);
	str_copy(conf.name, "pouch", sizeof conf.name);
	conf.reply_limit = 30;
	varcache_init(&t->vc, maps_dir);
	io.ctx = t;
	io.variant = varcache_get;
	io.history = t_history;
	io.random = t_random;
	io.system = varcache_system;
	strset_init(&t->ids);
	t->zones = zones_new(NULL);
	io.zones = zones_lookup(t->zones);
	judge_init(&j, &conf, &io);

	while (rc == 0 && !t->failed && (line = str_next_line(&p, end, &n)) != NULL) {
		char buf[1024], *cmd, *args;

		lineno++;
		if (n >= sizeof buf) {
			rc = script_error(out, fname, lineno, "line too long");
			break;
		}
		memcpy(buf, line, n);
		buf[n] = '\0';
		cmd = str_trim(buf);
		if (*cmd == '\0' || *cmd == '#')
			continue;
		args = cmd + strcspn(cmd, " \t");
		if (*args)
			*args++ = '\0';
		args = str_trim(args);

		if (strcmp(cmd, "CONFIG") == 0) {
			char *v = args + strcspn(args, " \t");
			if (*v)
				*v++ = '\0';
			v = str_trim(v);
			if (strcmp(args, "address") == 0)
				str_copy(conf.address, v, sizeof conf.address);
			else if (strcmp(args, "domain") == 0)
				str_copy(conf.domain, v, sizeof conf.domain);
			else if (strcmp(args, "base-url") == 0)
				str_copy(conf.base_url, v, sizeof conf.base_url);
			else if (strcmp(args, "reply-limit") == 0) {
				long lim;
				if (str_to_long(v, 0, 100000, &lim) < 0)
					rc = script_error(out, fname, lineno, "bad number");
				conf.reply_limit = (int)lim;
			}
			else if (strcmp(args, "create-key") == 0) {
				unsigned char r[16];
				t_random(t, "create-key", r);
				secret_hash(v, r, conf.create_key, sizeof conf.create_key);
			} else
				rc = script_error(out, fname, lineno, "unknown CONFIG %s", args);
		} else if (strcmp(cmd, "AT") == 0 || strcmp(cmd, "TICK") == 0) {
			if (time_parse_utc(args, &now) < 0) {
				rc = script_error(out, fname, lineno, "bad time \"%s\"", args);
				break;
			}
			buf_printf(out, "\n=== %s %s\n", cmd, args);
			if (strcmp(cmd, "TICK") == 0) {
				judge_tick(&j, now);
				drain(&j, t, out);
			}
		} else if (strcmp(cmd, "BOUNCE") == 0) {
			/* A delivery status notification for args. */
			struct inmsg m;
			char *b[1];
			memset(&m, 0, sizeof m);
			b[0] = str_lower(xstrdup(args));
			m.from_addr = xstrdup("mailer-daemon@mail.example");
			m.subject = xstrdup("Undelivered Mail Returned to Sender");
			m.text = xstrdup("");
			m.kind = INMSG_BOUNCE;
			m.bounced = xcalloc(1, sizeof *m.bounced);
			m.bounced[0] = b[0];
			m.nbounced = 1;
			buf_printf(out, "\n=== BOUNCE %ld for %s\n", seq + 1, args);
			judge_mail(&j, &m, ++seq, now);
			drain(&j, t, out);
			inmsg_free(&m);
		} else if (strcmp(cmd, "STATE") == 0) {
			struct game *g = judge_find_game(&j, args);

			if (g == NULL) {
				rc = script_error(out, fname, lineno, "no game \"%s\"", args);
				break;
			}
			buf_printf(out, "\n=== STATE %s\n", args);
			game_write(g, out);
		} else if (strcmp(cmd, "MAIL") == 0 || strcmp(cmd, "MAIL!") == 0 ||
		    strcmp(cmd, "MAIL+") == 0 || strcmp(cmd, "HOST") == 0) {
			struct inmsg m;
			struct buf body;
			char *from = args, *subject = args + strcspn(args, " \t");

			if (*subject)
				*subject++ = '\0';
			memset(&m, 0, sizeof m);
			buf_init(&body, 1 << 20);
			while ((line = str_next_line(&p, end, &n)) != NULL) {
				lineno++;
				if (n == 1 && line[0] == '.')
					break;
				buf_append(&body, line, n);
				buf_putc(&body, '\n');
			}
			m.from_addr = str_lower(xstrdup(cmd[0] == 'H' ? "host@localhost" : from));
			m.subject = xstrdup(str_trim(subject));
			m.text = buf_take(&body);
			m.arrival = now;
			m.kind = strcmp(cmd, "MAIL!") == 0 ? INMSG_AUTO : INMSG_NORMAL;
			{
				char id[64];
				snprintf(id, sizeof id, "m%ld@players.example", seq + 1);
				m.message_id = xstrdup(id);
			}
			buf_printf(out, "\n=== %s %ld from %s: %s\n", cmd[0] == 'H' ? "HOST" : "MAIL", seq + 1,
			    m.from_addr, m.subject);
			/* As `pouch run` does: time first, then the message, then
			 * time again; what the message completed once the run has
			 * read all its mail (MAIL+: more comes in the same run). */
			judge_tick_due(&j, now);
			drain(&j, t, out);
			if (cmd[0] == 'H')
				judge_host_mail(&j, &m, ++seq, now);
			else
				judge_mail(&j, &m, ++seq, now);
			if (j.fx.host_reply)
				buf_printf(out, "HOST-REPLY\n%s", j.fx.host_reply);
			drain(&j, t, out);
			judge_tick_due(&j, now);
			if (strcmp(cmd, "MAIL+") != 0)
				judge_tick(&j, now);
			drain(&j, t, out);
			inmsg_free(&m);
		} else {
			rc = script_error(out, fname, lineno, "unknown step %s", cmd);
		}
	}
	if (t->failed)
		rc = script_error(out, fname, lineno, "a game did not read back the same (above)");
	judge_free(&j);
	strset_free(&t->ids);
	varcache_free(&t->vc);
	zones_free(t->zones);
	for (i = 0; i < t->h.n; i++)
		free(t->h.r[i].text);
	free(t);
	return rc;
}
