/*
 * setup.c — setting a game up: creating it (NEWGAME), its delegations
 * and their passwords, and its start. Every action is written to the
 * game's audit log, without secrets.
 */
#define _DEFAULT_SOURCE
#include "setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/str.h"
#include "../lib/tz.h"
#include "../lib/xalloc.h"
#include "../maps/pages.h"
#include "outbound.h"
#include "status.h"
#include "system_words.h"
#include "turn.h"

#define TEXT_MAX (1u << 20)

static int
hash_password(struct judge *j, const char *pw, char *out)
{
	unsigned char r[16];

	if (outbound_random(j, r) < 0)
		return -1;
	return secret_hash(pw, r, out, SECRET_HASH_MAX);
}

/* A new readable password from the shell's randomness. */
static int
new_password(struct judge *j, char *out, size_t size)
{
	unsigned char r[16];

	if (outbound_random(j, r) < 0)
		return -1;
	secret_words(r, out, size);
	return 0;
}

/* What g is, as its welcome mails name it, into out: "the Diplomacy
 * game g1 (Standard)", with rules "(Standard, 2023 rules)" (a system's
 * own rules, its words' instead of the edition: "(Title, its rules)"). A
 * system's own game of orders names no title nor rules: "the Realpolitik
 * game rp1". A game that is no board is named before its kind, whose
 * words its variant's title only repeats: "w1, a World Game war". */
static void
put_game(const struct game *g, bool rules, struct buf *out)
{
	if (system_serves(g->sys, SYS_BOARDLESS)) {
		buf_printf(out, "%s, a %s", g->name, system_words(g)->kind);
		return;
	}
	if (system_serves(g->sys, SYS_OWN_GAME)) {
		buf_printf(out, "the %s %s", system_words(g)->called, g->name);
		return;
	}
	buf_printf(out, "the Diplomacy game %s (", g->name);
	if (rules)
		status_put_title_rules(g, out);
	else
		buf_puts(out, g->map->title);
	buf_putc(out, ')');
}

/* Tell the GM of the new game g its password pw, made up by the judge. */
static void
tell_gm(struct judge *j, const struct game *g, const char *pw)
{
	struct buf text;
	char subject[128];
	const char *to[1] = { g->gms[0] };

	buf_init(&text, OUTBOUND_NOTICE_MAX);
	buf_puts(&text, "You are the game master of ");
	put_game(g, false, &text);
	buf_printf(&text, ", run by mail\n"
	    "by the judge %s.\n\nYour password is: %s\nKeep it secret.\n\n"
	    "Send your commands to %s, starting with the line\n  GAME %s GM <password>\n"
	    "then for example DELEGATION %s alice@example.org, and START.\n"
	    "Send HELP for all commands.\n", j->conf->address, pw, j->conf->address, g->name,
	    system_serves(g->sys, SYS_BOARDLESS) ? system_words(g)->example_side : "England");
	if (judge_address_placeholder(j->conf)) {
		buf_putc(&text, '\n');
		judge_address_warning(j->conf, "", &text);
	}
	snprintf(subject, sizeof subject, "[%s] you are its game master", g->name);
	outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&text), NULL, NULL, OUT_GENERATED);
	buf_free(&text);
}

/* The variant of a new game called name with settings s, or NULL with
 * the reason in why (a bad name, zone or variant, a name taken). */
static const struct map *
new_game_variant(struct judge *j, const char *name, const struct game_settings *s,
    const struct names **nm, struct buf *why)
{
	const struct map *m;

	if (!game_name_valid(name)) {
		buf_puts(why, "a game name has 1 to 23 letters, digits, '-' or '_'");
		return NULL;
	}
	if (judge_find_game(j, name)) {
		buf_printf(why, "there is already a game called %s", name);
		return NULL;
	}
	if (!tz_valid(&j->io.zones, s->zone)) {
		buf_printf(why, "unknown time zone \"%s\"", s->zone);
		return NULL;
	}
	m = j->io.variant(j->io.ctx, s->variant, nm);
	if (m == NULL)
		buf_printf(why, "no variant called \"%s\"", s->variant);
	return m;
}

struct game *
judge_new_game(struct judge *j, const char *name, const struct game_settings *s,
    const char *gm, const char *gm_password, time_t now, struct buf *why)
{
	const struct names *nm;
	const struct map *m;
	struct game *g;
	char pw[64];

	if ((m = new_game_variant(j, name, s, &nm, why)) == NULL)
		return NULL;
	j->now = now;
	if (gm_password != NULL && strlen(gm_password) < 6) {
		buf_puts(why, "the GM password needs at least 6 characters");
		return NULL;
	}
	if (j->seq == 0)
		judge_event(j, "%s.new", name);
	if (gm_password == NULL) {
		if (new_password(j, pw, sizeof pw) < 0) {
			buf_puts(why, "no randomness for a password");
			return NULL;
		}
	} else {
		str_copy(pw, gm_password, sizeof pw);
	}
	g = xcalloc(1, sizeof *g);
	game_init(g, name, s, m, nm, now);
	/* The variant's own defaults: its system's; its press. */
	game_set_system(g, j->io.system(j->io.ctx, g->map));
	system_new_game(g);
	if (map_option(m, "press") && strcmp(map_option(m, "press"), "private") == 0)
		g->set.press = PRESS_PRIVATE;
	str_copy(g->gms[0], gm, ADDR_MAX);
	g->ngms = 1;
	if (hash_password(j, pw, g->gm_secret) < 0) {
		buf_puts(why, "could not hash the password");
		game_free(g);
		explicit_bzero(pw, sizeof pw);
		return NULL;
	}
	judge_add_game(j, g);
	judge_touch(j, g);
	judge_audit(j, g, "game created by %s: variant %s, edition %s", gm, s->variant,
	    edition_name(s->edition));
	/* Made up here: the GM learns it by mail, and only the GM. */
	if (gm_password == NULL)
		tell_gm(j, g, pw);
	explicit_bzero(pw, sizeof pw);
	return g;
}

/* Split "a@x, b@y c@z" into at most max addresses; returns how many the
 * list names (more than max when it names too many), -1 for a word that is
 * not an address. */
static int
split_addrs(const char *list, char out[][ADDR_MAX], int max)
{
	char *buf = xstrdup(list), *save, *tok;
	int n = 0;

	for (tok = strtok_r(buf, " ,;\t", &save); tok; tok = strtok_r(NULL, " ,;\t", &save)) {
		if (strchr(tok, '@') == NULL || strlen(tok) >= ADDR_MAX) {
			n = -1;
			break;
		}
		if (n < max)
			str_copy(out[n], str_lower(tok), ADDR_MAX);
		n++;
	}
	free(buf);
	return n;
}

int
judge_add_delegation(struct judge *j, struct game *g, power_id p, const char *members,
    const char *password, time_t now, struct buf *why)
{
	return judge_add_delegations(j, g, &p, 1, members, password, now, why);
}

/* "England", "England and Germany", "England, Germany and Turkey". */
void
setup_powers_named(const struct game *g, const power_id *ps, int np, struct buf *out)
{
	int k;

	for (k = 0; k < np; k++)
		buf_printf(out, "%s%s", k == 0 ? "" : k == np - 1 ? " and " : ", ",
		    g->map->powers[ps[k]].name);
}

int
setup_partners(const struct game *g, const power_id *ps, int np, power_id *out)
{
	int q, k, n = 0;

	for (q = 0; q < g->map->npowers; q++) {
		for (k = 0; k < np && ps[k] != q; k++)
			;
		if (k == np && game_held_together(g, ps[0], (power_id)q))
			out[n++] = (power_id)q;
	}
	return n;
}

/* The password of a new delegation into pw (size 64): password when the
 * GM gave one, else one made up. Returns 1 when made up, 0 when given,
 * -1 with the reason in why. */
static int
delegation_password(struct judge *j, const char *password, char *pw, size_t size,
    struct buf *why)
{
	if (password && *password) {
		if (strlen(password) < 6) {
			buf_puts(why, "a password needs at least 6 characters");
			return -1;
		}
		str_copy(pw, password, size);
		return 0;
	}
	if (new_password(j, pw, size) < 0) {
		buf_puts(why, "no randomness for a password");
		return -1;
	}
	return 1;
}

/* The n members addrs for each of the np powers ps, with the password hash
 * of the first: the same members and hash are what makes powers held
 * together. */
static void
set_members(struct game *g, const power_id *ps, int np, char addrs[][ADDR_MAX], int n)
{
	const struct delegation *d = &g->del[ps[0]];
	int i, k;

	for (k = 0; k < np; k++) {
		struct delegation *dk = &g->del[ps[k]];
		if (k > 0)
			str_copy(dk->secret, d->secret, sizeof dk->secret);
		game_member_room(dk, n);
		dk->nmembers = n;
		for (i = 0; i < n; i++) {
			str_copy(dk->members[i].addr, addrs[i], ADDR_MAX);
			dk->members[i].zone[0] = '\0';
		}
		dk->resigned = false;
	}
}

/* Tell the old members of power p (nold addresses in old) that are no
 * longer among its members that they no longer play it. */
static void
tell_removed(struct judge *j, const struct game *g, power_id p, char old[][ADDR_MAX], int nold)
{
	const struct delegation *d = &g->del[p];
	const char *to[GAME_MAX_MEMBERS];
	char subject[128];
	struct buf text;
	int i, k, n = 0;

	for (i = 0; i < nold; i++) {
		for (k = 0; k < d->nmembers && !str_eq_nocase(d->members[k].addr, old[i]); k++)
			;
		if (k == d->nmembers)
			to[n++] = old[i];
	}
	if (n == 0)
		return;
	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "The game master of %s gave %s to other players:\nyou no longer play "
	    "it, and its old password no longer works.\n", g->name, g->map->powers[p].name);
	snprintf(subject, sizeof subject, "[%s] you no longer play %s", g->name,
	    g->map->powers[p].name);
	outbound_send(j, g, to, n, NULL, 0, subject, buf_text(&text), NULL, NULL, OUT_GENERATED);
	buf_free(&text);
}

/* Tell the members of the delegation of the np powers ps (called names)
 * what they play. The password pw is sent once, to its members only, and
 * only when the judge made it up (generated). */
static void
tell_delegation(struct judge *j, const struct game *g, const power_id *ps, int np,
    const char *names, const char *pw, bool generated, bool replaced, const power_id *apart,
    int napart)
{
	const struct delegation *d = &g->del[ps[0]];
	const char *to[GAME_MAX_MEMBERS];
	char subject[128];
	struct buf text;
	int i;

	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "You play %s in ", names);
	put_game(g, true, &text);
	buf_printf(&text, ", run by mail\nby the judge %s. Your delegation:", j->conf->address);
	for (i = 0; i < d->nmembers; i++)
		buf_printf(&text, " %s", d->members[i].addr);
	buf_puts(&text, ".\n\n");
	if (generated)
		buf_printf(&text, "Your password is: %s\nKeep it secret: anyone who knows it can give your "
		    "orders.\n\n", pw);
	else
		buf_puts(&text, "Your game master will give you your password.\n\n");
	if (replaced)
		buf_printf(&text, "The earlier password of %s no longer works.\n\n", names);
	if (napart > 0) {
		buf_printf(&text, "%s %s now a delegation apart from ", names, np > 1 ? "are" : "is");
		setup_powers_named(g, apart, napart, &text);
		buf_printf(&text, ":\nthe new password serves %s only; ", names);
		setup_powers_named(g, apart, napart, &text);
		buf_printf(&text, " keep%s the old one.\n\n", napart > 1 ? "" : "s");
	}
	buf_printf(&text, "Send your %s to %s, starting with the line\n  GAME %s %s <password>\n"
	    "Send HELP for instructions.\n", system_serves(g->sys, SYS_BOARDLESS) ? "commands" : "orders",
	    j->conf->address, g->name, g->map->powers[ps[0]].name);
	if (np > 1)
		buf_puts(&text, "One password and one mail serve all your powers: the GAME line may name\n"
		    "any of them, and each order goes to the power whose unit (or home centre)\n"
		    "it names.\n");
	snprintf(subject, sizeof subject, "[%s] you play %s", g->name, names);
	for (i = 0; i < d->nmembers; i++)
		to[i] = d->members[i].addr;
	outbound_send(j, g, to, d->nmembers, NULL, 0, subject, buf_text(&text), NULL, NULL,
	    OUT_GENERATED);
	buf_free(&text);
}

int
judge_add_delegations(struct judge *j, struct game *g, const power_id *ps, int np,
    const char *members, const char *password, time_t now, struct buf *why)
{
	char addrs[GAME_MAX_MEMBERS][ADDR_MAX], old[GAME_MAX_MEMBERS][ADDR_MAX], pw[64];
	power_id apart[MAP_MAX_POWERS];
	struct buf names;
	int n, generated, nold, napart, i;

	if (np < 1 || np > MAP_MAX_POWERS) {
		buf_puts(why, "name the powers the delegation holds");
		return -1;
	}
	j->now = now;
	if (j->seq == 0) {
		/* A host's command: named after the game, power and time. */
		judge_event(j, "%s.d%s.%lld", g->name, g->map->powers[ps[0]].abbr, (long long)now);
	}
	n = split_addrs(members, addrs, GAME_MAX_MEMBERS);
	if (n <= 0) {
		buf_puts(why, "give the members' mail addresses, separated by commas");
		return -1;
	}
	if (n > system_delegates(g) || n > GAME_MAX_MEMBERS) {
		buf_printf(why, "a delegation has at most %d members in this game (%s): give %d "
		    "addresses or fewer", system_delegates(g), system_words(g)->rules ?
		    system_words(g)->rules : "its rules", system_delegates(g));
		return -1;
	}
	if ((generated = delegation_password(j, password, pw, sizeof pw, why)) < 0)
		return -1;
	napart = setup_partners(g, ps, np, apart);	/* before its password changes */
	if (hash_password(j, pw, g->del[ps[0]].secret) < 0) {
		buf_puts(why, "could not hash the password");
		return -1;
	}
	nold = g->del[ps[0]].nmembers;
	for (i = 0; i < nold; i++)
		str_copy(old[i], g->del[ps[0]].members[i].addr, ADDR_MAX);
	set_members(g, ps, np, addrs, n);
	judge_touch(j, g);
	buf_init(&names, 256);
	setup_powers_named(g, ps, np, &names);
	judge_audit(j, g, "delegation %s: %d member%s, password %s", buf_str(&names), n,
	    n == 1 ? "" : "s", generated ? "generated and mailed to them" : "set by the GM");
	tell_removed(j, g, ps[0], old, nold);
	tell_delegation(j, g, ps, np, buf_str(&names), pw, generated, nold > 0, apart, napart);
	explicit_bzero(pw, sizeof pw);
	buf_free(&names);
	return 0;
}

void
setup_tell_observer(struct judge *j, const struct game *g, const char *addr)
{
	const char *to[1] = { addr };
	char subject[128];
	struct buf text;

	buf_init(&text, TEXT_MAX);
	buf_puts(&text, "You observe ");
	put_game(g, true, &text);
	buf_printf(&text, ", run by mail\nby the judge %s: its game master added you.\n\n"
	    "You receive its results, its announcements and the press sent to everyone;\n"
	    "you give no orders. To be taken off, ask the game master.\n", j->conf->address);
	snprintf(subject, sizeof subject, "[%s] you observe the game", g->name);
	outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&text), NULL, NULL, OUT_GENERATED);
	buf_free(&text);
}

/* Every power's home centres in words (its capitals and naval bases on a
 * board that has them), and the address of the starting position's map. */
static void
start_homes(const struct judge *j, const struct game *g, struct buf *out)
{
	int p;

	if (system_serves(g->sys, SYS_BOARDLESS))
		return;
	buf_puts(out, "\nHome centres:\n");
	for (p = 0; p < g->map->npowers; p++) {
		buf_printf(out, "  %s: ", g->map->powers[p].name);
		pages_home_centres(g->map, (power_id)p, out);
		buf_puts(out, ".\n");
	}
	if (j->conf->base_url[0] != '\0') {
		buf_puts(out, "\nMap of the starting position: ");
		pages_start_url(j->conf->base_url, g->name, out);
		buf_putc(out, '\n');
	}
}

int
judge_start(struct judge *j, struct game *g, time_t now, struct buf *why)
{
	struct buf text;
	char subject[128];
	int p, n = 0;

	if (g->status != GAME_FORMING) {
		buf_printf(why, "the game is %s", game_status_name(g->status));
		return -1;
	}
	for (p = 0; p < g->map->npowers; p++)
		n += g->del[p].nmembers > 0;
	if (n == 0) {
		buf_puts(why, "no delegation yet: DELEGATION England alice@example.org, ...");
		return -1;
	}
	g->status = GAME_ACTIVE;
	j->now = now;
	if (j->seq == 0)
		judge_event(j, "%s.start", g->name);
	turn_start_phase(j, g, now);
	judge_touch(j, g);
	judge_audit(j, g, "game started");
	buf_init(&text, TEXT_MAX);
	buf_printf(&text, "Game %s has started: ", g->name);
	status_put_title_rules(g, &text);
	buf_puts(&text, ".\n\n");
	/* The powers nobody plays, in a paragraph of their own (none when all
	 * are played: no empty paragraph). */
	for (p = 0; p < g->map->npowers; p++) {
		if (g->del[p].nmembers == 0)
			buf_printf(&text, "%s has no players: its units hold (civil disorder).\n",
			    g->map->powers[p].name);
	}
	if (n < g->map->npowers)
		buf_puts(&text, "\n");
	status_position(g, &text);
	start_homes(j, g, &text);
	if (judge_speech_open(g, now)) {
		buf_putc(&text, '\n');
		status_speech_line(j, g, "", now, &text);
	}
	snprintf(subject, sizeof subject, "[%s] the game has started", g->name);
	outbound_news(j, g, subject, buf_text(&text), false);	/* a deadline set after START in it */
	if (judge_address_placeholder(j->conf)) {
		/* The players were told to write to it: the GMs must know. */
		buf_reset(&text);
		buf_printf(&text, "Game %s has started, but the players were told to write to %s.\n\n",
		    g->name, j->conf->address);
		judge_address_warning(j->conf, "", &text);
		snprintf(subject, sizeof subject, "[%s] players cannot write to the judge's address",
		    g->name);
		for (p = 0; p < g->ngms; p++) {
			const char *to[1] = { g->gms[p] };
			outbound_send(j, g, to, 1, NULL, 0, subject, buf_text(&text), NULL, NULL, OUT_GENERATED);
		}
	}
	buf_free(&text);
	return 0;
}
