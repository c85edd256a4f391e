/*
 * ident.c — who sent a message (ident.h): the GAME line read, and the
 * password checked against the game's secrets, a success remembered for
 * the rest of the run (checking a hash is slow on purpose).
 */
#define _DEFAULT_SOURCE
#include "ident.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/xalloc.h"
#include "../lib/str.h"

/* The slot of j's verified passwords where digest d is, or the empty one
 * it would take. */
static size_t
ok_slot(const struct judge *j, const unsigned char d[SHA256_SIZE])
{
	size_t mask = j->capok - 1, k;

	memcpy(&k, d, sizeof k);
	for (k &= mask; memcmp(j->okcache[k], d, SHA256_SIZE) != 0; k = (k + 1) & mask) {
		size_t b = 0;
		while (b < SHA256_SIZE && j->okcache[k][b] == 0)
			b++;
		if (b == SHA256_SIZE)
			break;	/* empty */
	}
	return k;
}

/* Remember digest d as a verified password. */
static void
ok_add(struct judge *j, const unsigned char d[SHA256_SIZE])
{
	if (2 * (j->nok + 1) > j->capok) {	/* at most half full */
		unsigned char (*old)[SHA256_SIZE] = j->okcache;
		size_t oldcap = j->capok, i;

		j->capok = oldcap ? 2 * oldcap : 64;
		j->okcache = xcalloc(j->capok, SHA256_SIZE);
		for (i = 0; i < oldcap; i++)
			memcpy(j->okcache[ok_slot(j, old[i])], old[i], SHA256_SIZE);
		free(old);
	}
	memcpy(j->okcache[ok_slot(j, d)], d, SHA256_SIZE);
	j->nok++;
}

/* Check a password against a stored hash. A success is remembered for the
 * rest of the run by the SHA-256 of the hash and the password, so that the
 * slow hash runs once per delegation and run; the password itself is not
 * kept. The shell may know the verdict (checked ahead, on another thread):
 * it is asked before the hash is. */
static bool
check_secret(struct judge *j, const char *secret, const char *hash)
{
	unsigned char d[SHA256_SIZE];
	struct sha256 c;
	bool ok;

	if (hash[0] == '\0' || strlen(secret) > 256)
		return false;
	sha256_init(&c);
	sha256_add(&c, hash, strlen(hash) + 1);	/* the NUL parts the two */
	sha256_add(&c, secret, strlen(secret));
	sha256_end(&c, d);
	if (j->capok > 0 && memcmp(j->okcache[ok_slot(j, d)], d, SHA256_SIZE) == 0) {
		explicit_bzero(d, sizeof d);
		return true;
	}
	ok = j->io.secret_check ? j->io.secret_check(j->io.secret_arg, secret, hash) :
	    secret_check(secret, hash);
	if (ok)
		ok_add(j, d);
	explicit_bzero(d, sizeof d);
	return ok;
}

/* Game name w without the punctuation a writer may put after it ("GAME
 * chatter, France, pw"): a game's name has none (letters, digits, '-',
 * '_'). Returns w. */
static char *
game_word(char *w)
{
	size_t n = w ? strlen(w) : 0;

	while (n > 1 && (w[n - 1] == ',' || w[n - 1] == ';' || w[n - 1] == ':'))
		w[--n] = '\0';
	return w;
}

int
ident_parse(struct judge *j, const struct body_line *bl, struct ident *id, char *pwout,
    size_t pwsize, const char **hash, struct buf *why)
{
	char args[400], *save, *name, *role, *pw, *after;
	struct game *g;
	int p;

	*hash = NULL;
	pwout[0] = '\0';
	str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
	name = game_word(strtok_r(args, " \t", &save));
	after = name && save ? save : NULL;	/* the role and the password */
	role = name ? strtok_r(NULL, " \t", &save) : NULL;
	pw = role && save ? str_trim(save) : NULL;
	if (!name || !role || ((!pw || !*pw) && !j->host)) {
		buf_puts(why, "write the first line as GAME <game> <power> <password> "
		    "(or GAME <game> GM <password>)");
		return -2;
	}
	g = judge_find_game(j, name);
	if (g == NULL) {
		buf_printf(why, "there is no game called \"%s\" on this judge", name);
		return -1;
	}
	if (str_eq_nocase(role, "gm") || str_eq_nocase(role, "master")) {
		/* The host is every game's master. */
		if (!j->host) {
			*hash = g->gm_secret;
			str_copy(pwout, pw, pwsize);
		}
		id->g = g;
		id->gm = true;
		id->power = POWER_NONE;
		return 0;
	}
	/* A power named in several words ("United Kingdom") takes them all. */
	if (after) {
		char *rest = after;
		str_ncopy_trim(args, sizeof args, bl->args, bl->args_len);
		rest = args + (after - args);
		id->power = map_take_power(g->map, &rest);
		pw = str_trim(rest);
		if (id->power != POWER_NONE && *pw == '\0' && !j->host) {
			buf_puts(why, "write the first line as GAME <game> <power> <password>");
			return -2;
		}
	} else {
		id->power = POWER_NONE;
	}
	if (id->power == POWER_NONE) {
		buf_printf(why, "game %s has no power \"%s\" (its powers:", g->name, role);
		for (p = 0; p < g->map->npowers; p++)
			buf_printf(why, "%s %s", p ? "," : "", g->map->powers[p].name);
		buf_puts(why, "; or GM)");
		return -1;
	}
	if (g->del[id->power].resigned) {
		buf_printf(why, "%s has left game %s", g->map->powers[id->power].name, g->name);
		return -1;
	}
	*hash = g->del[id->power].secret;
	str_copy(pwout, pw, pwsize);
	id->g = g;
	id->gm = false;
	return 0;
}

/* Read "GAME name role password". Returns 0 when it matches; -2 when the
 * line is not written as it should be; -1 when it names no game, power and
 * password of this judge. why says which, for the judge's log: the sender
 * is told only that it does not match, which reveals nothing about any
 * game. */
int
ident_read(struct judge *j, const struct body_line *bl, struct ident *id, struct buf *why)
{
	char pw[400];
	const char *hash;
	struct ident got = *id;
	int r = ident_parse(j, bl, &got, pw, sizeof pw, &hash, why);

	id->power = got.power;
	if (r == 0 && hash != NULL && !check_secret(j, pw, hash)) {
		if (got.gm)
			buf_printf(why, "that is not the game master's password for %s", got.g->name);
		else
			buf_printf(why, "that is not %s's password in game %s (your game master can "
			    "send a new one)", got.g->map->powers[got.power].name, got.g->name);
		r = -1;
	}
	explicit_bzero(pw, sizeof pw);
	if (r == 0) {
		id->g = got.g;
		id->gm = got.gm;
	}
	return r;
}

void
ident_echo(struct judge *j, const struct body_line *bl, struct buf *reply)
{
	char a[400], *save, *w1, *w2, *rest;
	const struct game *eg;
	power_id ep;

	str_ncopy_trim(a, sizeof a, bl->args, bl->args_len);
	w1 = game_word(strtok_r(a, " \t", &save));
	rest = w1 && save ? save : NULL;
	/* A power of several words is shown whole. */
	eg = w1 ? judge_find_game(j, w1) : NULL;
	ep = eg && rest ? map_take_power(eg->map, &rest) : POWER_NONE;
	w2 = ep != POWER_NONE ? eg->map->powers[ep].name :
	    w1 ? strtok_r(NULL, " \t", &save) : NULL;
	/* The keyword as written when it misspells GAME ("GAEM"). */
	buf_printf(reply, "> %.*s %s %s (password not shown)\n", bl->misspelt ?
	    (int)strcspn(bl->text, " \t:") : 4, bl->misspelt ? bl->text : "GAME", w1 ? w1 : "",
	    w2 ? w2 : "");
}
/* The game named by the message's GAME line, wherever it is (NULL: none),
 * to read the lines before it by. */
struct game *
ident_game_ahead(struct judge *j, const struct body_line *lines, int n)
{
	char a[400], *w;
	int i;

	for (i = 0; i < n; i++) {
		if (lines[i].kind != LINE_IDENT)
			continue;
		str_ncopy_trim(a, sizeof a, lines[i].args, lines[i].args_len);
		w = a + strspn(a, " \t");
		w[strcspn(w, " \t")] = '\0';
		return *w ? judge_find_game(j, game_word(w)) : NULL;
	}
	return NULL;
}

void
ident_secret_ahead(struct judge *j, const struct body_line *lines, int n,
    void (*fn)(void *arg, const char *secret, const char *hash), void *arg)
{
	struct ident id;
	struct buf why;
	const char *hash;
	char pw[400];
	int i;

	for (i = 0; i < n && lines[i].kind != LINE_IDENT; i++)
		;
	if (i == n)
		return;
	memset(&id, 0, sizeof id);
	buf_init(&why, 1024);
	if (ident_parse(j, &lines[i], &id, pw, sizeof pw, &hash, &why) == 0 && hash != NULL &&
	    hash[0] != '\0' && strlen(pw) <= 256)
		fn(arg, pw, hash);
	buf_free(&why);
	explicit_bzero(pw, sizeof pw);
}

/* The zone member addr of p's delegation sees times in ("" = the game's). */
const char *
ident_zone(const struct game *g, power_id p, const char *addr)
{
	const struct delegation *d = &g->del[p];
	int k;

	for (k = 0; k < d->nmembers; k++)
		if (str_eq_nocase(d->members[k].addr, addr))
			return d->members[k].zone;
	return "";
}
