/*
 * orders.c — the order parser.
 *
 * Three stages, all on fixed-size arrays:
 *
 * 1. Lexing: fold the line to lower-case ASCII and cut it into words and
 *    symbols (dash/arrow, colon, brackets, slash, comma). '#' starts a
 *    comment. A dash between two words without blanks is "tight", so
 *    "Mid-Atlantic" can still be read as one name.
 *
 * 2. Grammar: a small recursive-descent reader produces a "reading": the
 *    kind of order, the unit type and power words as written, and up to
 *    three place slots (unit, supported/convoyed unit, destination), each
 *    with its candidate provinces and any coast written after it.
 *
 * 3. Interpretation: every combination of candidates is checked against
 *    the board; the one plausible combination with the best name match
 *    wins. None or several: the order is refused with the reason.
 */
#include "orders.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../lib/str.h"

#define MAXTOK 64
#define TOKLEN 40

enum tk { TK_WORD, TK_DASH, TK_COLON, TK_LPAREN, TK_RPAREN, TK_SLASH, TK_COMMA };

struct tok {
	uint8_t kind;
	uint8_t tight;		/* no blank before this token */
	char s[TOKLEN];		/* TK_WORD: the word, dots and apostrophes dropped */
};

/* Keywords. */
enum kw {
	KW_NONE = 0,
	KW_ARMY,
	KW_FLEET,
	KW_HOLD,
	KW_MOVE,	/* move, moves, to, into, attack(s), m ... */
	KW_SUPPORT,
	KW_CONVOY,
	KW_VIA,
	KW_RETREAT,
	KW_DISBAND,
	KW_BUILD,
	KW_REMOVE,
	KW_WAIVE,
	KW_FILLER,	/* in, at, the, from, unit */
	KW_COAST,	/* "coast", after a direction word */
	KW_FOLLOW,	/* on, of, towards: words that may follow a move word */
};

static const struct {
	const char *w;
	uint8_t kw;
} keywords[] = {
	{ "a", KW_ARMY }, { "army", KW_ARMY }, { "armies", KW_ARMY },
	{ "f", KW_FLEET }, { "fleet", KW_FLEET }, { "fleets", KW_FLEET },
	{ "h", KW_HOLD }, { "hold", KW_HOLD }, { "holds", KW_HOLD }, { "holding", KW_HOLD },
	{ "stand", KW_HOLD }, { "stands", KW_HOLD }, { "stay", KW_HOLD }, { "stays", KW_HOLD },
	{ "m", KW_MOVE }, { "mv", KW_MOVE }, { "move", KW_MOVE }, { "moves", KW_MOVE },
	{ "moving", KW_MOVE }, { "to", KW_MOVE }, { "into", KW_MOVE }, { "attack", KW_MOVE },
	{ "attacks", KW_MOVE }, { "attacking", KW_MOVE }, { "go", KW_MOVE }, { "goes", KW_MOVE },
	{ "s", KW_SUPPORT }, { "sp", KW_SUPPORT }, { "sup", KW_SUPPORT }, { "supp", KW_SUPPORT },
	{ "support", KW_SUPPORT }, { "supports", KW_SUPPORT }, { "supporting", KW_SUPPORT },
	{ "c", KW_CONVOY }, { "cvy", KW_CONVOY }, { "con", KW_CONVOY }, { "conv", KW_CONVOY },
	{ "convoy", KW_CONVOY }, { "convoys", KW_CONVOY }, { "convoying", KW_CONVOY },
	{ "transport", KW_CONVOY }, { "transports", KW_CONVOY },
	{ "via", KW_VIA }, { "by", KW_VIA },
	{ "r", KW_RETREAT }, { "ret", KW_RETREAT }, { "retreat", KW_RETREAT },
	{ "retreats", KW_RETREAT }, { "retreating", KW_RETREAT },
	{ "d", KW_DISBAND }, { "disband", KW_DISBAND }, { "disbands", KW_DISBAND },
	{ "destroy", KW_DISBAND },
	{ "b", KW_BUILD }, { "build", KW_BUILD }, { "builds", KW_BUILD }, { "bld", KW_BUILD },
	{ "remove", KW_REMOVE }, { "removes", KW_REMOVE }, { "rem", KW_REMOVE },
	{ "waive", KW_WAIVE }, { "waives", KW_WAIVE }, { "waived", KW_WAIVE },
	{ "in", KW_FILLER }, { "at", KW_FILLER }, { "the", KW_FILLER }, { "from", KW_FILLER },
	{ "unit", KW_FILLER },
	{ "coast", KW_COAST },
	{ "on", KW_FOLLOW }, { "of", KW_FOLLOW }, { "towards", KW_FOLLOW },
};

static enum kw
kw_of(const char *w)
{
	size_t i;

	if (strlen(w) > 10)
		return KW_NONE;
	for (i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (keywords[i].w[0] == w[0] && strcmp(keywords[i].w, w) == 0)
			return (enum kw)keywords[i].kw;
	return KW_NONE;
}

/* ---------------------------------------------------------------- lexer -- */

struct lex {
	int n;
	struct tok t[MAXTOK];
	int overflow;
};

static void
lex_line(const char *line, size_t len, struct lex *lx)
{
	char buf[PARSE_MAX_LINE * 2 + 8];
	size_t n = names_fold(line, len < PARSE_MAX_LINE ? len : PARSE_MAX_LINE, buf, sizeof buf);
	size_t i = 0;
	int blank = 1;

	lx->n = 0;
	lx->overflow = len > PARSE_MAX_LINE;
	while (i < n) {
		char c = buf[i];
		struct tok *t;

		if (c == '#')
			break;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '*' ||
		    c == '!' || c == '?') {
			blank = 1;
			i++;
			continue;
		}
		if (lx->n >= MAXTOK) {
			lx->overflow = 1;
			return;
		}
		t = &lx->t[lx->n];
		t->tight = !blank;
		t->s[0] = '\0';
		blank = 0;
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80) {
			size_t k = 0;
			while (i < n) {
				c = buf[i];
				if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
					if (k + 1 < TOKLEN)
						t->s[k++] = c;
					i++;
				} else if (c == '.' || c == '\'') {
					i++;
				} else {
					break;
				}
			}
			t->s[k] = '\0';
			if (k == 0)
				continue;	/* lone dots */
			t->kind = TK_WORD;
		} else if (c == '-' || c == '=' || c == '>' || c == '~') {
			while (i < n && (buf[i] == '-' || buf[i] == '=' || buf[i] == '>' || buf[i] == '~'))
				i++;
			t->kind = TK_DASH;
		} else if (c == ':') {
			t->kind = TK_COLON;
			i++;
		} else if (c == '(' || c == '[' || c == '{') {
			t->kind = TK_LPAREN;
			i++;
		} else if (c == ')' || c == ']' || c == '}') {
			t->kind = TK_RPAREN;
			i++;
		} else if (c == '/' || c == '\\') {
			t->kind = TK_SLASH;
			i++;
		} else if (c == ',' || c == ';') {
			t->kind = TK_COMMA;
			i++;
		} else if (c == '.' || c == '\'') {
			i++;	/* stray punctuation */
			continue;
		} else {
			blank = 1;
			i++;
			continue;
		}
		lx->n++;
	}
}

/* -------------------------------------------------------------- grammar -- */

struct slot {
	int used;
	int n;				/* candidates */
	struct name_cand c[NAMES_MAX_CAND];
	char text[64];			/* as written (normalised) */
	char coast[16];			/* coast as written, "" when none */
};

struct reading {
	enum order_kind kind;
	int explicit_power;		/* a power prefix was given */
	power_id power;
	char power_note[96];
	uint8_t type;			/* unit type as written */
	uint8_t target_type;
	power_id target_power;
	uint8_t via;
	int route;			/* places between unit and destination */
	int support_hold;		/* support of a hold (no destination) */
	struct slot unit, target, dest;
};

struct gp {
	const struct parse_ctx *c;
	const struct lex *lx;
	int i;
	char err[PARSE_NOTE];
};

static const struct tok *
peek(const struct gp *g, int ahead)
{
	int k = g->i + ahead;

	return k < g->lx->n ? &g->lx->t[k] : NULL;
}

static enum kw
peek_kw(const struct gp *g, int ahead)
{
	const struct tok *t = peek(g, ahead);

	return t && t->kind == TK_WORD ? kw_of(t->s) : KW_NONE;
}

static int
at_end(const struct gp *g)
{
	const struct tok *t = peek(g, 0);

	return t == NULL || t->kind == TK_COMMA;
}

__attribute__((format(printf, 2, 3))) static int
gfail(struct gp *g, const char *fmt, ...)
{
	va_list ap;

	if (g->err[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(g->err, sizeof g->err, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Is the word a coast word ("nc", "north", "n", ...)? */
static int
is_coast_word(const struct map *m, const char *w, int in_brackets)
{
	int l;

	if (strcmp(w, "north") == 0 || strcmp(w, "south") == 0 || strcmp(w, "east") == 0 ||
	    strcmp(w, "west") == 0)
		return 1;
	if (in_brackets && w[1] == '\0' && strchr("nsew", w[0]))
		return 1;
	if (in_brackets && (strcmp(w, "nc") == 0 || strcmp(w, "sc") == 0 ||
	    strcmp(w, "ec") == 0 || strcmp(w, "wc") == 0))
		return 1;
	for (l = 0; l < m->nlocs; l++)
		if (m->locs[l].coast_abbr && strcmp(m->locs[l].coast_abbr, w) == 0)
			return 1;
	return 0;
}

/* Optional coast after a place: "/nc", "(nc)", "(north coast)", "nc",
 * "north coast". */
static void
parse_coast(struct gp *g, struct slot *s)
{
	const struct map *m = g->c->m;
	const struct tok *t = peek(g, 0), *u = peek(g, 1), *v = peek(g, 2), *w = peek(g, 3);

	if (t == NULL)
		return;
	if (t->kind == TK_SLASH && u && u->kind == TK_WORD && is_coast_word(m, u->s, 1)) {
		str_copy(s->coast, u->s, sizeof s->coast);
		g->i += 2;
		if (peek_kw(g, 0) == KW_COAST)
			g->i++;
		return;
	}
	if (t->kind == TK_LPAREN && u && u->kind == TK_WORD && is_coast_word(m, u->s, 1)) {
		if (v && v->kind == TK_RPAREN) {
			str_copy(s->coast, u->s, sizeof s->coast);
			g->i += 3;
			return;
		}
		if (v && v->kind == TK_WORD && (kw_of(v->s) == KW_COAST || strcmp(v->s, "c") == 0) &&
		    w && w->kind == TK_RPAREN) {
			str_copy(s->coast, u->s, sizeof s->coast);
			g->i += 4;
			return;
		}
	}
	if (t->kind == TK_WORD && is_coast_word(m, t->s, 0)) {
		int dir = strlen(t->s) > 2;	/* north/south/east/west */
		if (dir && !(u && u->kind == TK_WORD &&
		    (kw_of(u->s) == KW_COAST || strcmp(u->s, "c") == 0)))
			return;
		str_copy(s->coast, t->s, sizeof s->coast);
		g->i += dir ? 2 : 1;
		if (!dir && peek_kw(g, 0) == KW_COAST)
			g->i++;
	}
}

/*
 * A place: the longest run of words (joined across tight dashes) that is
 * exactly a name; failing that, the longest run of up to three non-keyword
 * words that begins a name or is close to one.
 */
static int
parse_place(struct gp *g, struct slot *s)
{
	const struct lex *lx = g->lx;
	int ends[6], nw = 0, p = g->i, k;
	char key[96];

	s->used = 1;
	s->n = 0;
	s->coast[0] = '\0';
	while (p < lx->n && lx->t[p].kind == TK_WORD && nw < 5) {
		ends[++nw] = p + 1;
		if (p + 2 < lx->n && lx->t[p + 1].kind == TK_DASH && lx->t[p + 1].tight &&
		    lx->t[p + 2].kind == TK_WORD && lx->t[p + 2].tight)
			p += 2;
		else
			p += 1;
	}
	if (nw == 0) {
		if (p < lx->n && lx->t[p].kind == TK_LPAREN)
			return gfail(g, "expected a place, not a bracket");
		return gfail(g, "expected a place");
	}
	/* Exact names, longest first. */
	for (k = nw; k >= 1; k--) {
		size_t o = 0;
		int q;
		prov_id pr;

		key[0] = '\0';
		for (q = g->i; q < ends[k]; q++) {
			if (lx->t[q].kind != TK_WORD)
				continue;
			o += (size_t)snprintf(key + o, sizeof key - o, "%s%s", o ? " " : "", lx->t[q].s);
			if (o >= sizeof key)
				break;
		}
		pr = names_province_exact(g->c->names, key);
		if (pr != PROV_NONE) {
			s->n = names_provinces(g->c->names, key, s->c);
			str_copy(s->text, key, sizeof s->text);
			g->i = ends[k];
			parse_coast(g, s);
			return 0;
		}
	}
	/* Beginnings and misspellings over non-keyword words. */
	{
		int limit = 0;
		for (k = 1; k <= nw && k <= 3; k++) {
			const char *w = lx->t[ends[k] - 1].s;
			enum kw kk = kw_of(w);
			if (kk != KW_NONE && !(k > 1 && (kk == KW_FOLLOW || kk == KW_FILLER)))
				break;
			if (is_coast_word(g->c->m, w, 0) && k > 1)
				break;
			limit = k;
		}
		for (k = limit; k >= 1; k--) {
			size_t o = 0;
			int q;

			key[0] = '\0';
			for (q = g->i; q < ends[k]; q++)
				if (lx->t[q].kind == TK_WORD)
					o += (size_t)snprintf(key + o, sizeof key - o, "%s%s", o ? " " : "",
					    lx->t[q].s);
			s->n = names_provinces(g->c->names, key, s->c);
			if (s->n > 0) {
				str_copy(s->text, key, sizeof s->text);
				g->i = ends[k];
				parse_coast(g, s);
				return 0;
			}
		}
	}
	str_copy(s->text, lx->t[g->i].s, sizeof s->text);
	return gfail(g, "unknown place \"%s\"", lx->t[g->i].s);
}

static void
skip_fillers(struct gp *g)
{
	while (peek_kw(g, 0) == KW_FILLER)
		g->i++;
}

/* Optional unit type word; returns UNIT_NONE when absent. */
static uint8_t
parse_type(struct gp *g)
{
	enum kw k = peek_kw(g, 0);
	const struct tok *nx = peek(g, 1);

	if ((k == KW_ARMY || k == KW_FLEET) && nx != NULL && nx->kind != TK_COLON) {
		g->i++;
		return k == KW_ARMY ? UNIT_ARMY : UNIT_FLEET;
	}
	return UNIT_NONE;
}

/* A unit: [type] [in|at] place, or type(place). */
static int
parse_unit(struct gp *g, uint8_t *type, struct slot *s)
{
	*type = parse_type(g);
	skip_fillers(g);
	if (peek(g, 0) && peek(g, 0)->kind == TK_LPAREN) {
		g->i++;
		if (parse_place(g, s) < 0)
			return -1;
		if (!peek(g, 0) || peek(g, 0)->kind != TK_RPAREN)
			return gfail(g, "missing ')'");
		g->i++;
		return 0;
	}
	return parse_place(g, s);
}

/* A move word: '-', '->', "to", "moves (to)", "attacks (on)". Returns 1 when consumed. */
static int
parse_move_word(struct gp *g)
{
	const struct tok *t = peek(g, 0);

	if (t == NULL)
		return 0;
	if (t->kind == TK_DASH) {
		g->i++;
		if (peek_kw(g, 0) == KW_MOVE || peek_kw(g, 0) == KW_FOLLOW)
			g->i++;
		return 1;
	}
	if (peek_kw(g, 0) == KW_MOVE) {
		g->i++;
		while (peek_kw(g, 0) == KW_MOVE || peek_kw(g, 0) == KW_FOLLOW ||
		    (peek(g, 0) && peek(g, 0)->kind == TK_DASH))
			g->i++;
		return 1;
	}
	return 0;
}

/* "via convoy", "by convoy", "by sea". Returns 1 when consumed. */
static int
parse_via(struct gp *g)
{
	const struct tok *t = peek(g, 1);

	if (peek_kw(g, 0) == KW_VIA && t && t->kind == TK_WORD &&
	    (kw_of(t->s) == KW_CONVOY || strcmp(t->s, "sea") == 0)) {
		g->i += 2;
		return 1;
	}
	return 0;
}

/*
 * After a move word: the destination, or a route whose last place is the
 * destination (accepted, never needed), then "via convoy".
 */
static int
parse_move_rest(struct gp *g, struct reading *rd)
{
	rd->kind = ORDER_MOVE;
	if (parse_place(g, &rd->dest) < 0)
		return -1;
	while (!at_end(g) && (peek(g, 0)->kind == TK_DASH || peek_kw(g, 0) == KW_MOVE)) {
		struct slot next;
		parse_move_word(g);
		memset(&next, 0, sizeof next);
		if (parse_place(g, &next) < 0)
			return -1;
		rd->dest = next;
		rd->route++;
	}
	if (parse_via(g))
		rd->via = 1;
	return 0;
}

/* After the unit: what it does. */
static int
parse_action(struct gp *g, struct reading *rd)
{
	enum kw k = peek_kw(g, 0);

	if (at_end(g)) {
		rd->kind = ORDER_HOLD;
		return 0;
	}
	if (k == KW_HOLD) {
		g->i++;
		rd->kind = ORDER_HOLD;
		return 0;
	}
	if (k == KW_DISBAND) {
		g->i++;
		rd->kind = ORDER_DISBAND;
		return 0;
	}
	if (k == KW_RETREAT) {
		g->i++;
		parse_move_word(g);
		rd->kind = ORDER_RETREAT;
		return parse_place(g, &rd->dest);
	}
	if (k == KW_SUPPORT || k == KW_CONVOY) {
		const struct tok *t;
		g->i++;
		rd->kind = k == KW_SUPPORT ? ORDER_SUPPORT : ORDER_CONVOY;
		t = peek(g, 0);
		/* "RUSSIAN A War-Pru": a power word before the supported unit. */
		if (t && t->kind == TK_WORD && kw_of(t->s) == KW_NONE &&
		    names_province_exact(g->c->names, t->s) == PROV_NONE) {
			struct name_cand pc[NAMES_MAX_CAND];
			int np = names_powers(g->c->names, t->s, pc);
			const struct tok *nx = peek(g, 1);
			if (np == 1 && pc[0].tier == NAME_EXACT && nx && nx->kind == TK_WORD) {
				rd->target_power = (power_id)pc[0].id;
				g->i++;
			}
		}
		if (parse_unit(g, &rd->target_type, &rd->target) < 0)
			return -1;
		if (parse_move_word(g)) {
			if (parse_place(g, &rd->dest) < 0)
				return -1;
			if (rd->kind == ORDER_CONVOY)
				parse_via(g);
			return 0;
		}
		if (rd->kind == ORDER_CONVOY)
			return gfail(g, "a convoy needs a destination: F Nth C A Lon - Nwy");
		if (peek_kw(g, 0) == KW_HOLD)
			g->i++;
		rd->support_hold = 1;
		return 0;
	}
	if (parse_move_word(g))
		return parse_move_rest(g, rd);
	if (parse_via(g)) {
		rd->via = 1;
		return gfail(g, "\"via convoy\" needs a destination: A Lon - Nwy via convoy");
	}
	{
		const struct tok *t = peek(g, 0);
		return gfail(g, "did not understand \"%s\" after the unit",
		    t && t->kind == TK_WORD ? t->s : "punctuation");
	}
}

/* Optional power prefix: "England:", "E:", or a full power name. */
static int
parse_power(struct gp *g, struct reading *rd)
{
	const struct tok *t = peek(g, 0), *nx = peek(g, 1);
	struct name_cand pc[NAMES_MAX_CAND];
	int np;

	if (t == NULL || t->kind != TK_WORD)
		return 0;
	if (nx && nx->kind == TK_COLON) {
		np = names_powers(g->c->names, t->s, pc);
		if (np == 0)
			return gfail(g, "unknown power \"%s\"", t->s);
		if (np > 1)
			return gfail(g, "power \"%s\" is ambiguous", t->s);
		rd->power = (power_id)pc[0].id;
		rd->explicit_power = 1;
		if (pc[0].tier != NAME_EXACT)
			snprintf(rd->power_note, sizeof rd->power_note, "\"%s\" read as %s", t->s,
			    g->c->m->powers[rd->power].name);
		g->i += 2;
		return 0;
	}
	/* Without a colon only a whole power name of 3+ letters that is
	 * neither a keyword nor a place counts. */
	if (strlen(t->s) >= 3 && kw_of(t->s) == KW_NONE &&
	    names_province_exact(g->c->names, t->s) == PROV_NONE && nx && nx->kind == TK_WORD) {
		np = names_powers(g->c->names, t->s, pc);
		if (np == 1 && pc[0].tier == NAME_EXACT) {
			rd->power = (power_id)pc[0].id;
			rd->explicit_power = 1;
			g->i++;
		}
	}
	return 0;
}

static int
parse_reading(struct gp *g, struct reading *rd)
{
	enum kw k;

	if (parse_power(g, rd) < 0)
		return -1;
	if (at_end(g))
		return gfail(g, "no order after the power name");
	k = peek_kw(g, 0);
	if (k == KW_WAIVE) {
		g->i = g->lx->n;	/* "waive", "waive build", "waive Paris" */
		rd->kind = ORDER_WAIVE;
		return 0;
	}
	if (k == KW_BUILD) {
		g->i++;
		rd->kind = ORDER_BUILD;
		return parse_unit(g, &rd->type, &rd->unit);
	}
	if (k == KW_REMOVE || (k == KW_DISBAND && peek(g, 1) != NULL)) {
		g->i++;
		rd->kind = ORDER_REMOVE;
		return parse_unit(g, &rd->type, &rd->unit);
	}
	if (k == KW_MOVE && peek(g, 1) && peek(g, 1)->kind == TK_WORD) {
		/* Command first: "move army lvp to edi", "m lvp-edi". */
		g->i++;
		if (parse_unit(g, &rd->type, &rd->unit) < 0)
			return -1;
		if (!parse_move_word(g))
			return gfail(g, "expected where to move to");
		return parse_move_rest(g, rd);
	}
	if (parse_unit(g, &rd->type, &rd->unit) < 0)
		return -1;
	return parse_action(g, rd);
}

/* -------------------------------------------------------- interpretation -- */

struct interp {
	const struct parse_ctx *c;
	const struct reading *rd;
	enum phase_type phase;
	power_id power;
};

/* Unit of the board in province p (dislodged units in a retreat phase). */
static const struct unit *
unit_in(const struct interp *in, prov_id p)
{
	const struct board *b = in->c->b;
	const struct map *m = in->c->m;
	int i;

	if (b == NULL)
		return NULL;
	if (in->phase == PHASE_RETREAT) {
		for (i = 0; i < b->ndislodged; i++)
			if (m->locs[b->dislodged[i].unit.loc].prov == p)
				return &b->dislodged[i].unit;
		return NULL;
	}
	for (i = 0; i < b->nunits; i++)
		if (m->locs[b->units[i].loc].prov == p)
			return &b->units[i];
	return NULL;
}

/* Any unit (not dislodged) in p, for supports and convoys. */
static const struct unit *
board_unit(const struct interp *in, prov_id p)
{
	const struct board *b = in->c->b;
	int i;

	if (b == NULL)
		return NULL;
	for (i = 0; i < b->nunits; i++)
		if (in->c->m->locs[b->units[i].loc].prov == p)
			return &b->units[i];
	return NULL;
}

static bool
can_reach(const struct map *m, const struct unit *u, prov_id p)
{
	if (u->type == UNIT_ARMY)
		return map_reaches(m, UNIT_ARMY, u->loc, p) ||
		    map_convoy_reach(m, m->locs[u->loc].prov, p);
	return map_reaches(m, UNIT_FLEET, u->loc, p);
}

/* Is this combination of provinces a sensible order on the board? */
static bool
plausible(const struct interp *in, prov_id up, prov_id tp, prov_id dp)
{
	const struct map *m = in->c->m;
	const struct reading *rd = in->rd;
	const struct unit *u, *t;

	if (in->c->b == NULL)
		return true;
	switch (rd->kind) {
	case ORDER_BUILD:
		return m->provs[up].supply && (in->power == POWER_NONE ||
		    (m->provs[up].home == in->power && in->c->b->owner[up] == in->power)) &&
		    board_unit(in, up) == NULL;
	case ORDER_WAIVE:
		return true;
	default:
		break;
	}
	u = unit_in(in, up);
	if (u == NULL || (in->power != POWER_NONE && u->power != in->power))
		return false;
	switch (rd->kind) {
	case ORDER_MOVE:
	case ORDER_RETREAT:
		return dp != up && can_reach(m, u, dp);
	case ORDER_SUPPORT:
		t = board_unit(in, tp);
		if (t == NULL || tp == up)
			return false;
		if (rd->support_hold)
			return map_reaches(m, (enum unit_type)u->type, u->loc, tp);
		return dp != up && map_reaches(m, (enum unit_type)u->type, u->loc, dp) &&
		    can_reach(m, t, dp);
	case ORDER_CONVOY:
		t = board_unit(in, tp);
		return t != NULL && t->type == UNIT_ARMY && u->type == UNIT_FLEET &&
		    map_convoy_reach(m, tp, dp);
	default:
		return true;
	}
}

static int
cand_cost(const struct name_cand *c)
{
	return c->tier * 10 + c->dist;
}

/* Append ", " separated text to a note. */
__attribute__((format(printf, 2, 3))) static void
note_add(char *note, const char *fmt, ...)
{
	size_t n = strlen(note);
	va_list ap;

	if (n > 0 && n + 2 < PARSE_NOTE) {
		note[n++] = ';';
		note[n++] = ' ';
		note[n] = '\0';
	}
	va_start(ap, fmt);
	vsnprintf(note + n, PARSE_NOTE - n, fmt, ap);
	va_end(ap);
}

/* "Norway, Norwegian Sea or North Sea" for the candidates of a slot. */
static void
list_names(const struct map *m, const struct name_cand *c, int n, char *out, size_t size)
{
	size_t o = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
		    m->provs[c[i].id].name);
}

/* Resolve a written coast for province p; LOC_NONE when p has no such coast. */
static loc_id
coast_loc(const struct map *m, prov_id p, const char *coast)
{
	const struct province *pr = &m->provs[p];
	loc_id l;
	int i;

	l = map_find_coast(m, p, coast);
	if (l != LOC_NONE)
		return l;
	for (i = 0; i < pr->ncoasts; i++) {
		const struct location *lc = &m->locs[pr->coast[i]];
		if (lc->coast_abbr[0] == coast[0] ||
		    (lc->coast_name && str_lc(lc->coast_name[0]) == coast[0]))
			return pr->coast[i];
	}
	return LOC_NONE;
}

__attribute__((format(printf, 2, 3))) static void
refuse(struct parse_result *r, const char *fmt, ...)
{
	va_list ap;

	r->verdict = VERDICT_REFUSED;
	va_start(ap, fmt);
	vsnprintf(r->note, sizeof r->note, fmt, ap);
	va_end(ap);
}

/*
 * Fill r->order from the reading. Returns 0, or -1 having set a refusal.
 */
static int
interpret(const struct parse_ctx *c, const struct reading *rd, struct parse_result *r)
{
	const struct map *m = c->m;
	struct interp in = { c, rd, c->b ? (enum phase_type)c->b->phase : PHASE_MOVEMENT,
		rd->explicit_power ? rd->power : c->power };
	const struct slot *su = &rd->unit, *st = &rd->target, *sd = &rd->dest;
	int nu = su->used ? su->n : 1, nt = st->used ? st->n : 1, nd = sd->used ? sd->n : 1;
	int iu, it, id, best = 1 << 30, nbest = 0, bu = 0, bt = 0, bd = 0;
	int lit = 1 << 30, nlit = 0, lu = 0, lt = 0, ld = 0;
	struct order *o = &r->order;
	char names_a[160], names_b[160];
	const struct unit *un;
	prov_id up, tp, dp;

	for (iu = 0; iu < nu; iu++) {
		for (it = 0; it < nt; it++) {
			for (id = 0; id < nd; id++) {
				int cost = (su->used ? cand_cost(&su->c[iu]) : 0) +
				    (st->used ? cand_cost(&st->c[it]) : 0) +
				    (sd->used ? cand_cost(&sd->c[id]) : 0);
				up = su->used ? su->c[iu].id : PROV_NONE;
				tp = st->used ? st->c[it].id : PROV_NONE;
				dp = sd->used ? sd->c[id].id : PROV_NONE;
				if (cost < lit) {
					lit = cost;
					nlit = 0;
				}
				if (cost == lit) {
					nlit++;
					lu = iu;
					lt = it;
					ld = id;
				}
				if (!plausible(&in, up, tp, dp))
					continue;
				if (cost < best) {
					best = cost;
					nbest = 0;
				}
				if (cost == best) {
					nbest++;
					bu = iu;
					bt = it;
					bd = id;
				}
			}
		}
	}
	if (nbest > 1 || (nbest == 0 && nlit > 1)) {
		/* Say which slot is ambiguous. */
		const struct slot *amb = su->used && su->n > 1 ? su : sd->used && sd->n > 1 ? sd : st;
		list_names(m, amb->c, amb->n, names_a, sizeof names_a);
		refuse(r, "\"%s\" could be %s: which one?", amb->text, names_a);
		return -1;
	}
	if (nbest == 0) {
		/* Nothing fits the board. Exact names are taken as written (the
		 * adjudicator explains why the order fails); a corrected reading
		 * that does not fit is a guess, and we do not guess. */
		if (lit >= 10) {
			const struct slot *bad = su->used && su->c[lu].tier ? su :
			    sd->used && sd->c[ld].tier ? sd : st;
			const struct name_cand *bc = bad == su ? &su->c[lu] : bad == sd ? &sd->c[ld] :
										 &st->c[lt];
			snprintf(names_b, sizeof names_b, "%s", m->provs[bc->id].name);
			refuse(r, "\"%s\" is not a name here; the closest, %s, does not fit the board",
			    bad->text, names_b);
			return -1;
		}
		bu = lu;
		bt = lt;
		bd = ld;
	}

	memset(o, 0, sizeof *o);
	o->kind = (uint8_t)rd->kind;
	o->power = in.power;
	o->type = rd->type;
	o->via_convoy = rd->via || rd->route > 0;
	o->loc = o->target = o->dest = LOC_NONE;
	o->target_type = rd->target_type;
	o->target_power = rd->target_power;
	if (rd->power_note[0])
		note_add(r->note, "%s", rd->power_note);

	up = su->used ? su->c[bu].id : PROV_NONE;
	tp = st->used ? st->c[bt].id : PROV_NONE;
	dp = sd->used ? sd->c[bd].id : PROV_NONE;
	if (su->used && su->c[bu].tier != NAME_EXACT)
		note_add(r->note, "\"%s\" read as %s", su->text, m->provs[up].name);
	if (st->used && st->c[bt].tier != NAME_EXACT)
		note_add(r->note, "\"%s\" read as %s", st->text, m->provs[tp].name);
	if (sd->used && sd->c[bd].tier != NAME_EXACT)
		note_add(r->note, "\"%s\" read as %s", sd->text, m->provs[dp].name);

	/* The unit: the board's when there is one. */
	if (up != PROV_NONE) {
		un = rd->kind == ORDER_BUILD ? NULL : unit_in(&in, up);
		if (un) {
			o->loc = un->loc;
			if (rd->type == UNIT_NONE) {
				if (rd->kind != ORDER_WAIVE)
					note_add(r->note, "%s assumed", unit_word((enum unit_type)un->type));
			} else if (rd->type != un->type) {
				note_add(r->note, "the unit in %s is %s %s, not %s %s", m->provs[up].name,
				    un->type == UNIT_ARMY ? "an" : "a", unit_word((enum unit_type)un->type),
				    rd->type == UNIT_ARMY ? "an" : "a", unit_word((enum unit_type)rd->type));
			}
			o->type = un->type;
			if (in.power == POWER_NONE)
				o->power = un->power;
		} else {
			o->loc = m->provs[up].loc;
			if (su->coast[0]) {
				loc_id cl = coast_loc(m, up, su->coast);
				if (cl != LOC_NONE)
					o->loc = cl;
			}
		}
	}
	if (tp != PROV_NONE) {
		un = board_unit(&in, tp);
		o->target = un ? un->loc : m->provs[tp].loc;
		if (un && rd->target_type != UNIT_NONE && rd->target_type != un->type)
			note_add(r->note, "the unit in %s is %s %s", m->provs[tp].name,
			    un->type == UNIT_ARMY ? "an" : "a", unit_word((enum unit_type)un->type));
		if (un)
			o->target_type = un->type;
	}
	if (dp != PROV_NONE) {
		o->dest = m->provs[dp].loc;
		if (sd->coast[0]) {
			loc_id cl = coast_loc(m, dp, sd->coast);
			if (cl != LOC_NONE)
				o->dest = cl;
			else if (m->provs[dp].ncoasts > 0)
				note_add(r->note, "%s has no such coast; coast ignored", m->provs[dp].name);
		}
	}

	switch (rd->kind) {
	case ORDER_MOVE:
	case ORDER_RETREAT:
		if (in.phase == PHASE_RETREAT && rd->kind == ORDER_MOVE)
			o->kind = ORDER_RETREAT;
		if (o->type == UNIT_ARMY && o->dest != LOC_NONE && m->locs[o->dest].coast) {
			note_add(r->note, "coast ignored for an army");
			o->dest = m->provs[dp].loc;
		}
		if (o->type == UNIT_FLEET && o->loc != LOC_NONE && m->provs[dp].ncoasts > 0 &&
		    m->locs[o->dest].coast == 0 && c->b != NULL) {
			/* No coast given: fill it in when only one can be reached. */
			const struct province *pr = &m->provs[dp];
			loc_id only = LOC_NONE;
			int i, k = 0;
			for (i = 0; i < pr->ncoasts; i++)
				if (map_adjacent(m, UNIT_FLEET, o->loc, pr->coast[i])) {
					only = pr->coast[i];
					k++;
				}
			if (k == 1) {
				o->dest = only;
				note_add(r->note, "coast added: %s", m->locs[only].name);
			} else if (k > 1) {
				char coasts[96];
				snprintf(coasts, sizeof coasts, "%s or %s",
				    m->locs[pr->coast[0]].coast_name, m->locs[pr->coast[1]].coast_name);
				refuse(r, "%s has two coasts the fleet can reach: say which (%s)",
				    pr->name, coasts);
				return -1;
			}
		}
		break;
	case ORDER_SUPPORT:
		if (rd->support_hold)
			o->dest = LOC_NONE;
		break;
	case ORDER_CONVOY:
		if (o->target_type == UNIT_NONE)
			o->target_type = UNIT_ARMY;
		break;
	case ORDER_REMOVE:
		if (in.phase == PHASE_RETREAT)
			o->kind = ORDER_DISBAND;
		break;
	case ORDER_DISBAND:
		if (in.phase == PHASE_ADJUSTMENT)
			o->kind = ORDER_REMOVE;
		break;
	case ORDER_BUILD:
		if (o->type == UNIT_NONE) {
			/* DATC 4.C.3 (c): army inland, fleet when a coast is named. */
			if (m->provs[up].terrain == TERRAIN_LAND) {
				o->type = UNIT_ARMY;
				note_add(r->note, "army assumed (inland)");
			} else if (su->coast[0] || m->locs[o->loc].coast) {
				o->type = UNIT_FLEET;
				note_add(r->note, "fleet assumed (a coast was named)");
			} else {
				refuse(r, "build an army or a fleet in %s? Say \"Build A %s\" or \"Build F %s\"",
				    m->provs[up].name, m->provs[up].abbr, m->provs[up].abbr);
				return -1;
			}
		}
		if (o->type == UNIT_ARMY && m->locs[o->loc].coast) {
			o->loc = m->provs[up].loc;
			note_add(r->note, "coast ignored for an army");
		}
		if (o->type == UNIT_FLEET && m->provs[up].ncoasts > 1 && m->locs[o->loc].coast == 0) {
			refuse(r, "%s has two coasts: say which coast to build the fleet on",
			    m->provs[up].name);
			return -1;
		}
		break;
	default:
		break;
	}
	if (in.phase == PHASE_RETREAT && rd->kind == ORDER_HOLD && c->b != NULL &&
	    unit_in(&in, up) != NULL) {
		refuse(r, "a dislodged unit must retreat or disband: \"A %s - ...\" or \"A %s D\"",
		    m->provs[up].abbr, m->provs[up].abbr);
		return -1;
	}
	(void)names_b;
	return 0;
}

void
order_parse(const struct parse_ctx *c, const char *line, size_t len, struct parse_result *r)
{
	struct lex lx;
	struct gp g;
	struct reading rd;

	memset(r, 0, sizeof *r);
	r->order.loc = r->order.target = r->order.dest = LOC_NONE;
	lex_line(line, len, &lx);
	if (lx.n == 0) {
		r->verdict = VERDICT_BLANK;
		return;
	}
	if (lx.overflow) {
		r->verdict = VERDICT_REFUSED;
		str_copy(r->note, "line too long for an order", sizeof r->note);
		return;
	}
	memset(&g, 0, sizeof g);
	g.c = c;
	g.lx = &lx;
	memset(&rd, 0, sizeof rd);
	rd.power = POWER_NONE;
	rd.target_power = POWER_NONE;
	if (parse_reading(&g, &rd) < 0) {
		r->verdict = VERDICT_REFUSED;
		str_copy(r->note, g.err, sizeof r->note);
		return;
	}
	/* Trailing matter: a comma, or a bracketed remark, is fine. */
	while (g.i < lx.n && lx.t[g.i].kind == TK_COMMA)
		g.i++;
	if (g.i < lx.n && lx.t[g.i].kind != TK_LPAREN) {
		r->verdict = VERDICT_REFUSED;
		snprintf(r->note, sizeof r->note, "did not understand \"%s\" at the end",
		    lx.t[g.i].kind == TK_WORD ? lx.t[g.i].s : "punctuation");
		return;
	}
	if (interpret(c, &rd, r) < 0)
		return;
	r->verdict = r->note[0] ? VERDICT_CORRECTED : VERDICT_ACCEPTED;
}

const char *
verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_ACCEPTED: return "accepted";
	case VERDICT_CORRECTED: return "corrected";
	case VERDICT_REFUSED: return "refused";
	default: return "blank";
	}
}
