/*
 * orders.c — the order parser.
 *
 * Three stages, all on fixed-size arrays on the stack (nothing is
 * allocated):
 *
 * 1. Lexing: fold the line to lower-case ASCII (names_fold) and cut it into
 *    words and symbols (dash/arrow, colon, brackets, slash, comma). '#'
 *    starts a comment; "please" is dropped; a dot separates words.
 *    Politeness ("ok", "thanks", "instead") is passed over at the order's
 *    ends, "instead of ..." cut off with a note, and a power's name alone
 *    is a heading. Each
 *    word's keyword is looked up once, here. A dash between two words
 *    without blanks is "tight", so "Mid-Atlantic" can still be one name.
 *
 * 2. Grammar: a small recursive-descent reader produces a "reading": the
 *    kind of order, the unit type and power words as written, and up to
 *    three place slots (unit, supported/convoyed unit, destination), each
 *    with its candidate provinces (names.h tiers) and any coast written
 *    after it. A place is the longest run of words that is exactly a name;
 *    failing that, the longest run of up to three words that begins a name
 *    or is close to one; failing that (for the ordered unit only), a word
 *    close to a place where the sender has a unit (NAME_SITE).
 *
 * 3. Interpretation: every combination of candidates is checked against
 *    the board (plausible()). Each candidate costs by its tier and edit
 *    distance; the cheapest combination that fits the board wins. Two that
 *    fit at the same cost: the order "admits of two meanings" and is
 *    refused, naming them. None fits: an order written with exact names is
 *    taken as written (the adjudicator explains why it fails); a corrected
 *    reading that does not fit is a guess, and is refused with the reason.
 *
 * A line refused is read again (reread_chatter) without the chatter at
 * its ends ("sorry i meant", "as well") and with misspelt command words
 * put right ("bild"), and taken when that is one whole order; lines that
 * parse as written never get there.
 */
#include "orders.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../lib/str.h"
#include "../judge/engine/resolver.h"

#define MAXTOK 48	/* tokens in one order */
#define TOKLEN 32	/* a longer word is not a name */

enum tk { TK_WORD, TK_DASH, TK_COLON, TK_LPAREN, TK_RPAREN, TK_SLASH, TK_COMMA };

struct tok {
	uint8_t kind;		/* enum tk */
	uint8_t tight;		/* no blank before this token */
	uint8_t kw;		/* enum kw of a word */
	uint8_t wd;		/* enum wd bits of a word */
	uint8_t len;		/* length of s */
	char s[TOKLEN];		/* the word, or the punctuation as written */
};

enum kw {
	KW_NONE = 0,
	KW_ARMY,
	KW_FLEET,
	KW_ARTICLE,	/* "an" ("a" before "army"/"fleet" too) */
	KW_HOLD,
	KW_MOVE,	/* move, moves, to, into, attack(s), m, ... */
	KW_SUPPORT,
	KW_CONVOY,
	KW_VIA,
	KW_RETREAT,
	KW_DISBAND,
	KW_BUILD,
	KW_REMOVE,
	KW_WAIVE,
	KW_FILLER,	/* in, at, the, from, unit, will, shall */
	KW_COAST,	/* "coast", after a direction word */
	KW_FOLLOW,	/* on, of, towards: words that may follow a move word */
	KW_AND,		/* and, then: between the places of a revival order */
	KW_NUMBER,	/* a word of digits */
	KW_REVIVE,	/* MUNA */
	KW_INSURRECTION,
	KW_EMBARK,	/* Realpolitik */
	KW_LAND,
	KW_POLITE,	/* ok, pls, thanks, instead, also: nothing to the order,
			   read only at its beginning or end */
};

/* Words the tolerant wording looks for, as bits: a word may be several
 * ("of": WD_FOR and WD_OF; "instead": WD_INSTEAD and WD_LEAD). */
enum wd {
	WD_ORDERS = 1,		/* order, orders: "Orders for Austria" */
	WD_FOR = 2,		/* for, of: "Orders for Austria" */
	WD_OF = 4,		/* of: "instead of holding" */
	WD_INSTEAD = 8,		/* instead */
	WD_LEAD = 16,		/* ok, okay, also, instead: dropped before an order */
	WD_POSS = 32,		/* his, her, their, its: whose unit is not said */
	WD_AND = 64,		/* and, then: dropped before an order */
};

struct kwent {
	const char *w;
	uint8_t len;
	uint8_t kw;
	uint8_t wd;
};

#define K(w, kw) { w, sizeof w - 1, kw, 0 }
#define KD(w, kw, wd) { w, sizeof w - 1, kw, wd }

/* Keywords by first letter, each table in alphabetical order (kw_of stops
 * at a later second letter): a lookup compares a handful of strings. */
static const struct kwent kw_a[] = {
	K("a", KW_ARMY), K("aboard", KW_EMBARK), K("advance", KW_MOVE),
	K("advances", KW_MOVE), KD("also", KW_POLITE, WD_LEAD), K("an", KW_ARTICLE),
	KD("and", KW_AND, WD_AND), K("armies", KW_ARMY), K("army", KW_ARMY), K("ashore", KW_LAND),
	K("at", KW_FILLER), K("attack", KW_MOVE), K("attacking", KW_MOVE), K("attacks", KW_MOVE),
	{ NULL, 0, 0, 0 } };
static const struct kwent kw_b[] = {
	K("b", KW_BUILD), K("bld", KW_BUILD), K("board", KW_EMBARK), K("boarding", KW_EMBARK),
	K("boards", KW_EMBARK), K("build", KW_BUILD), K("builds", KW_BUILD), K("by", KW_VIA),
	{ NULL, 0, 0, 0 } };
static const struct kwent kw_c[] = {
	K("c", KW_CONVOY), K("coast", KW_COAST), K("conv", KW_CONVOY), K("convoy", KW_CONVOY),
	K("convoying", KW_CONVOY), K("convoys", KW_CONVOY), K("cvy", KW_CONVOY), { NULL, 0, 0, 0 } };
static const struct kwent kw_d[] = {
	K("d", KW_DISBAND), K("destroy", KW_DISBAND), K("disband", KW_DISBAND),
	K("disbands", KW_DISBAND), K("disembark", KW_LAND), K("disembarks", KW_LAND),
	{ NULL, 0, 0, 0 } };
static const struct kwent kw_e[] = {
	K("embark", KW_EMBARK), K("embarks", KW_EMBARK), K("enter", KW_MOVE),
	K("enters", KW_MOVE), { NULL, 0, 0, 0 } };
static const struct kwent kw_f[] = {
	K("f", KW_FLEET), K("fleet", KW_FLEET), K("fleets", KW_FLEET), KD("for", KW_NONE, WD_FOR),
	K("from", KW_FILLER), { NULL, 0, 0, 0 } };
static const struct kwent kw_g[] = { K("go", KW_MOVE), K("goes", KW_MOVE), { NULL, 0, 0, 0 } };
static const struct kwent kw_h[] = {
	K("h", KW_HOLD), KD("her", KW_NONE, WD_POSS), KD("his", KW_NONE, WD_POSS),
	K("hld", KW_HOLD), K("hold", KW_HOLD), K("holding", KW_HOLD), K("holds", KW_HOLD),
	{ NULL, 0, 0, 0 } };
static const struct kwent kw_i[] = {
	K("in", KW_FILLER), KD("instead", KW_POLITE, WD_INSTEAD | WD_LEAD),
	K("insurrection", KW_INSURRECTION), K("into", KW_MOVE), K("invade", KW_MOVE),
	K("invades", KW_MOVE), KD("its", KW_NONE, WD_POSS), { NULL, 0, 0, 0 } };
static const struct kwent kw_l[] = {
	K("land", KW_LAND), K("landing", KW_LAND), K("lands", KW_LAND), { NULL, 0, 0, 0 } };
static const struct kwent kw_m[] = {
	K("m", KW_MOVE), K("move", KW_MOVE), K("moves", KW_MOVE), K("moving", KW_MOVE),
	K("mv", KW_MOVE), K("my", KW_FILLER), { NULL, 0, 0, 0 } };
static const struct kwent kw_o[] = {
	KD("of", KW_FOLLOW, WD_FOR | WD_OF), KD("ok", KW_POLITE, WD_LEAD),
	KD("okay", KW_POLITE, WD_LEAD), K("on", KW_FOLLOW), KD("order", KW_NONE, WD_ORDERS),
	KD("orders", KW_NONE, WD_ORDERS), K("our", KW_FILLER), { NULL, 0, 0, 0 } };
static const struct kwent kw_p[] = { K("pls", KW_POLITE), K("plz", KW_POLITE), { NULL, 0, 0, 0 } };
static const struct kwent kw_r[] = {
	K("r", KW_RETREAT), K("reclaim", KW_REVIVE), K("rem", KW_REMOVE),
	K("remove", KW_REMOVE), K("removes", KW_REMOVE), K("ret", KW_RETREAT),
	K("retreat", KW_RETREAT), K("retreating", KW_RETREAT), K("retreats", KW_RETREAT),
	K("revival", KW_REVIVE), K("revive", KW_REVIVE), K("revives", KW_REVIVE), { NULL, 0, 0, 0 } };
static const struct kwent kw_s[] = {
	K("s", KW_SUPPORT), K("shall", KW_FILLER), K("sp", KW_SUPPORT), K("stand", KW_HOLD),
	K("stands", KW_HOLD), K("stay", KW_HOLD), K("stays", KW_HOLD), K("sup", KW_SUPPORT),
	K("supp", KW_SUPPORT), K("support", KW_SUPPORT), K("supporting", KW_SUPPORT),
	K("supports", KW_SUPPORT), { NULL, 0, 0, 0 } };
static const struct kwent kw_t[] = {
	K("thank", KW_POLITE), K("thanks", KW_POLITE), K("the", KW_FILLER), KD("their", KW_NONE, WD_POSS),
	KD("then", KW_AND, WD_AND),
	K("thx", KW_POLITE), K("to", KW_MOVE), K("towards", KW_FOLLOW),
	K("transport", KW_CONVOY), K("transports", KW_CONVOY), { NULL, 0, 0, 0 } };
static const struct kwent kw_u[] = { K("unit", KW_FILLER), { NULL, 0, 0, 0 } };
static const struct kwent kw_v[] = { K("via", KW_VIA), { NULL, 0, 0, 0 } };
static const struct kwent kw_w[] = {
	K("waive", KW_WAIVE), K("waived", KW_WAIVE), K("waives", KW_WAIVE),
	K("will", KW_FILLER), { NULL, 0, 0, 0 } };
static const struct kwent kw_y[] = { K("you", KW_POLITE), { NULL, 0, 0, 0 } };

static const struct kwent *const keywords[26] = {
	kw_a, kw_b, kw_c, kw_d, kw_e, kw_f, kw_g, kw_h, kw_i, NULL, NULL, kw_l, kw_m,
	NULL, kw_o, kw_p, NULL, kw_r, kw_s, kw_t, kw_u, kw_v, kw_w, NULL, kw_y, NULL,
};

/* The keyword of word w (len bytes), and its enum wd bits into *wd. */
static uint8_t
kw_of(const char *w, size_t len, uint8_t *wd)
{
	const struct kwent *k;

	*wd = 0;
	if (w[0] >= '0' && w[0] <= '9')
		return KW_NUMBER;
	if (w[0] < 'a' || w[0] > 'z' || len > 12 || (k = keywords[w[0] - 'a']) == NULL)
		return KW_NONE;
	for (; k->w; k++) {
		unsigned char second = (unsigned char)k->w[1];
		if (second > (unsigned char)w[1])
			break;	/* the table is in alphabetical order */
		if (second == (unsigned char)w[1] && k->len == len &&
		    (len < 3 || memcmp(k->w + 2, w + 2, len - 2) == 0)) {
			*wd = k->wd;
			return k->kw;
		}
	}
	return KW_NONE;
}

/* ---------------------------------------------------------------- lexer -- */

enum lex_status { LEX_OK = 0, LEX_LONG, LEX_WORD };

struct lex {
	int n;
	uint8_t wds;		/* the enum wd bits of all its words */
	struct tok t[MAXTOK];
};

/* Character classes of the folded line (upper case too: an ASCII line is
 * not folded first); everything else separates words (blanks, dots,
 * quotes, '*', '!', '?', control bytes). */
enum { C_BLANK = 0, C_ALNUM, C_ARROW, C_SYM, C_APOS, C_HASH };

static const uint8_t cclass[256] = {
	['A'] = C_ALNUM, ['B'] = C_ALNUM, ['C'] = C_ALNUM, ['D'] = C_ALNUM,
	['E'] = C_ALNUM, ['F'] = C_ALNUM, ['G'] = C_ALNUM, ['H'] = C_ALNUM,
	['I'] = C_ALNUM, ['J'] = C_ALNUM, ['K'] = C_ALNUM, ['L'] = C_ALNUM,
	['M'] = C_ALNUM, ['N'] = C_ALNUM, ['O'] = C_ALNUM, ['P'] = C_ALNUM,
	['Q'] = C_ALNUM, ['R'] = C_ALNUM, ['S'] = C_ALNUM, ['T'] = C_ALNUM,
	['U'] = C_ALNUM, ['V'] = C_ALNUM, ['W'] = C_ALNUM, ['X'] = C_ALNUM,
	['Y'] = C_ALNUM, ['Z'] = C_ALNUM,
	['a'] = C_ALNUM, ['b'] = C_ALNUM, ['c'] = C_ALNUM, ['d'] = C_ALNUM,
	['e'] = C_ALNUM, ['f'] = C_ALNUM, ['g'] = C_ALNUM, ['h'] = C_ALNUM,
	['i'] = C_ALNUM, ['j'] = C_ALNUM, ['k'] = C_ALNUM, ['l'] = C_ALNUM,
	['m'] = C_ALNUM, ['n'] = C_ALNUM, ['o'] = C_ALNUM, ['p'] = C_ALNUM,
	['q'] = C_ALNUM, ['r'] = C_ALNUM, ['s'] = C_ALNUM, ['t'] = C_ALNUM,
	['u'] = C_ALNUM, ['v'] = C_ALNUM, ['w'] = C_ALNUM, ['x'] = C_ALNUM,
	['y'] = C_ALNUM, ['z'] = C_ALNUM, ['0'] = C_ALNUM, ['1'] = C_ALNUM,
	['2'] = C_ALNUM, ['3'] = C_ALNUM, ['4'] = C_ALNUM, ['5'] = C_ALNUM,
	['6'] = C_ALNUM, ['7'] = C_ALNUM, ['8'] = C_ALNUM, ['9'] = C_ALNUM,
	['-'] = C_ARROW, ['='] = C_ARROW, ['>'] = C_ARROW, ['~'] = C_ARROW, [':'] = C_SYM,
	['('] = C_SYM, ['['] = C_SYM, ['{'] = C_SYM, [')'] = C_SYM, [']'] = C_SYM,
	['}'] = C_SYM, ['/'] = C_SYM, [','] = C_SYM, [';'] = C_SYM, ['\\'] = C_SYM,
	['\''] = C_APOS, ['#'] = C_HASH,
};

#define CLASS(c) cclass[(unsigned char)(c)]

static enum lex_status
lex_line(const char *line, size_t len, struct lex *lx)
{
	char folded[PARSE_MAX_LINE * 2 + 8];
	const char *buf = line;
	size_t n = len, i = 0;
	int blank = 1;
	uint8_t wds = 0;

	lx->n = 0;
	lx->wds = 0;
	if (len > PARSE_MAX_LINE)
		return LEX_LONG;
	while (i < n) {
		char c = buf[i];
		struct tok *t;

		uint8_t cl = CLASS(c);

		if (cl == C_HASH)
			break;
		if (cl == C_APOS) {	/* apostrophes join: "d'Artagnan" */
			i++;
			continue;
		}
		if (cl == C_BLANK) {
			if ((unsigned char)c >= 0x80 && buf == line) {
				/* accents, dashes, ...: fold the line and start again (the
				 * words so far are the same folded) */
				n = names_fold(line, len, folded, sizeof folded);
				buf = folded;
				i = 0;
				lx->n = 0;
				wds = 0;
				blank = 1;
				continue;
			}
			blank = 1;
			i++;
			continue;
		}
		if (lx->n >= MAXTOK)
			return LEX_LONG;
		t = &lx->t[lx->n];
		t->tight = !blank;
		t->kw = KW_NONE;
		t->wd = 0;
		blank = 0;
		if (cl == C_ALNUM) {
			size_t k = 0;
			while (i < n && (CLASS(buf[i]) == C_ALNUM || buf[i] == '\'')) {
				if (buf[i] != '\'') {
					if (k + 1 >= TOKLEN)
						return LEX_WORD;
					t->s[k++] = (char)(buf[i] | 0x20);	/* A-Z lowered; a-z, 0-9 kept */
				}
				i++;
			}
			t->s[k] = '\0';
			t->len = (uint8_t)k;
			if (k == 6 && memcmp(t->s, "please", 6) == 0)
				continue;
			t->kind = TK_WORD;
			t->kw = kw_of(t->s, k, &t->wd);
			wds |= t->wd;
		} else {
			t->s[0] = c;
			t->s[1] = '\0';
			t->len = 1;
			i++;
			if (cl == C_ARROW) {
				t->kind = TK_DASH;
				while (i < n && CLASS(buf[i]) == C_ARROW)
					i++;
				t->s[0] = '-';
			} else if (c == ':') {
				t->kind = TK_COLON;
			} else if (c == '(' || c == '[' || c == '{') {
				t->kind = TK_LPAREN;
			} else if (c == ')' || c == ']' || c == '}') {
				t->kind = TK_RPAREN;
			} else if (c == '/' || c == '\\') {
				t->kind = TK_SLASH;
			} else {
				t->kind = TK_COMMA;
			}
		}
		lx->n++;
	}
	lx->wds = wds;
	return LEX_OK;
}

/* -------------------------------------------------------------- grammar -- */

struct slot {
	uint8_t used;
	uint8_t n;			/* candidates */
	uint8_t from, to;		/* the words read, as tokens [from, to) */
	char coast[16];			/* coast as written, "" when none */
	struct name_cand c[NAMES_MAX_CAND];
};

#define SLOT_TEXT 64

struct reading {
	uint8_t kind;			/* enum order_kind */
	uint8_t explicit_power;		/* a power prefix was given */
	power_id power;
	uint8_t type;			/* unit type as written */
	uint8_t target_type;
	power_id target_power;
	power_id dest_power;		/* insurrection: the power written as destination */
	uint8_t via;
	uint8_t route;			/* places between unit and destination */
	uint8_t support_hold;		/* support of a hold (no destination) */
	uint8_t bare;			/* a hold written as the unit alone ("A Par") */
	uint8_t heading;		/* the power alone ("Austria:"): whose orders follow */
	uint8_t nprefs;
	char power_note[96];
	struct slot unit, target, dest;
	struct slot *prefs;		/* revival: ORDER_MAX_PREFS slots */
	const struct lex *lx;		/* the tokens the slots point into */
};

struct gp {
	const struct parse_ctx *c;
	uint32_t held;			/* the sender's other powers (order_parse_held) */
	const struct lex *lx;
	struct reading *rd;
	int i;
	int first_unknown;		/* the first word of the line is unknown */
	char err[PARSE_NOTE];
};

static const struct tok *
peek(const struct gp *g, int ahead)
{
	int k = g->i + ahead;

	return k < g->lx->n ? &g->lx->t[k] : NULL;
}

static enum kw
kw_at(const struct gp *g, int ahead)
{
	const struct tok *t = peek(g, ahead);

	return t && t->kind == TK_WORD ? (enum kw)t->kw : KW_NONE;
}

static int
kind_at(const struct gp *g, int ahead, enum tk kind)
{
	const struct tok *t = peek(g, ahead);

	return t != NULL && t->kind == kind;
}

/* Are the tokens from k on only words of politeness and commas ("ok",
 * "thanks", "instead")? */
static int
polite_from(const struct lex *lx, int k)
{
	for (; k < lx->n; k++)
		if (lx->t[k].kind != TK_COMMA && lx->t[k].kw != KW_POLITE)
			return 0;
	return 1;
}

/* Is t the word "orders" or "order"? */
static int
orders_word(const struct tok *t)
{
	return (t->wd & WD_ORDERS) != 0;
}

/* The end of the order: the line's, a comma, or only politeness left. */
static inline int
at_end(const struct gp *g)
{
	const struct tok *t = peek(g, 0);

	return t == NULL || t->kind == TK_COMMA || (t->kw == KW_POLITE && polite_from(g->lx, g->i));
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

/* What the map's rules do beyond the standard ones (enum rules_cap). */
static unsigned
rules_caps(const struct gp *g)
{
	return map_caps(g->c->m);
}

/* The powers whose units and centres are the sender's, as a set (bit q
 * for power q; 0: anyone's): the power written, else the sender's power
 * and the others it holds, else (the sender unknown) any. */
static uint32_t
own_set(const struct parse_ctx *c, uint32_t held, const struct reading *rd)
{
	if (rd->explicit_power)
		return rd->power == POWER_NONE ? 0 : 1u << rd->power;
	return c->power == POWER_NONE ? 0 : held | 1u << c->power;
}

/* Is pw in the set own (0: anyone)? */
static int
own_has(uint32_t own, power_id pw)
{
	return own == 0 || (pw != POWER_NONE && pw < 32 && (own >> pw & 1u));
}

static enum phase_type
ctx_phase(const struct parse_ctx *c)
{
	return c->b ? (enum phase_type)c->b->phase : PHASE_MOVEMENT;
}

/* Unit i of the board, or dislodged unit i. */
static inline const struct unit *
nth_unit(const struct board *b, int dislodged, int i)
{
	return dislodged ? &b->dislodged[i].unit : &b->units[i];
}

/* find_unit's search, written once for the cases it inlines apart. */
static inline const struct unit *
scan_units(const struct parse_ctx *c, prov_id p, uint8_t t, int dislodged, int coasts)
{
	const struct board *b = c->b;
	const struct unit *first = NULL;
	loc_id main = c->m->provs[p].loc;
	int i, n = dislodged ? b->ndislodged : b->nunits;

	for (i = 0; i < n; i++) {
		const struct unit *u = nth_unit(b, dislodged, i);
		if (u->loc != main && (!coasts || c->m->locs[u->loc].prov != p))
			continue;
		if (t == UNIT_NONE || u->type == t)
			return u;
		if (first == NULL)
			first = u;
	}
	return first;
}

/*
 * A unit in province p (among the dislodged units when dislodged is set);
 * where several share the province (Realpolitik) one of type t if any.
 */
static const struct unit *
find_unit(const struct parse_ctx *c, prov_id p, uint8_t t, int dislodged)
{
	int coasts;

	if (c->b == NULL)
		return NULL;
	coasts = c->m->provs[p].ncoasts > 0;	/* else every unit there is at main */
	if (!dislodged && !coasts)
		return scan_units(c, p, t, 0, 0);	/* the usual case, in a loop of its own */
	return scan_units(c, p, t, dislodged, coasts);
}

/* The unit an order of this phase addresses in p (dislodged units in a retreat phase). */
static const struct unit *
unit_in(const struct parse_ctx *c, prov_id p, uint8_t t)
{
	return find_unit(c, p, t, ctx_phase(c) == PHASE_RETREAT);
}

/* Could one of the powers own build in p now (an owned, empty home
 * centre)? own 0: any power. */
static int
build_site(const struct parse_ctx *c, prov_id p, uint32_t own)
{
	const struct province *pr = &c->m->provs[p];
	power_id home = pr->home;

	return pr->supply && home != POWER_NONE && own_has(own, home) &&
	    c->b->owner[p] == home && find_unit(c, p, UNIT_NONE, 0) == NULL;
}

/* NAME_SITE tier: places where the sender has a unit (or can build) whose
 * names are close to key. Returns the number of candidates. */
static int
site_candidates(struct gp *g, const char *key, int build, struct slot *s)
{
	const struct parse_ctx *c = g->c;
	const struct board *b = c->b;
	uint32_t own = own_set(c, g->held, g->rd);
	size_t len = strlen(key);
	int limit = len < 3 ? 0 : (int)len / 2, i, n, dislodged;

	s->n = 0;
	if (b == NULL || len < 2)
		return 0;
	if (build) {
		for (i = 0; i < c->m->nprovs; i++) {
			int d;
			if (!build_site(c, (prov_id)i, own))
				continue;
			d = names_province_distance(c->names, (prov_id)i, key, limit);
			if (d <= limit)
				s->n = (uint8_t)names_cand_add(s->c, s->n, (uint16_t)i, NAME_SITE,
				    (uint8_t)d, NULL);
		}
		return s->n;
	}
	dislodged = ctx_phase(c) == PHASE_RETREAT;
	n = dislodged ? b->ndislodged : b->nunits;
	for (i = 0; i < n; i++) {
		const struct unit *u = nth_unit(b, dislodged, i);
		prov_id p = c->m->locs[u->loc].prov;
		int d;
		if (!own_has(own, u->power))
			continue;
		d = names_province_distance(c->names, p, key, limit);
		if (d <= limit)
			s->n = (uint8_t)names_cand_add(s->c, s->n, p, NAME_SITE, (uint8_t)d, NULL);
	}
	return s->n;
}

/* Join the words of tokens [from, to) with single blanks into key. */
static size_t
join_words(const struct lex *lx, int from, int to, char *key, size_t size)
{
	size_t o = 0;
	int q;

	for (q = from; q < to; q++) {
		const struct tok *t = &lx->t[q];
		size_t n;
		if (t->kind != TK_WORD)
			continue;
		if (o > 0 && o + 1 < size)
			key[o++] = ' ';
		n = t->len < size - 1 - o ? t->len : size - 1 - o;
		memcpy(key + o, t->s, n);
		o += n;
	}
	key[o] = '\0';
	return o;
}

/* The words of a slot as written (normalised), in buf (SLOT_TEXT bytes). */
static const char *
slot_text(const struct lex *lx, const struct slot *s, char *buf)
{
	join_words(lx, s->from, s->to, buf, SLOT_TEXT);
	return buf;
}

/* slot_text into a temporary, for one message. */
#define lx_text(lx, s) slot_text((lx), (s), (char[SLOT_TEXT]){ 0 })

static int
is_direction(const char *w)
{
	return strcmp(w, "north") == 0 || strcmp(w, "south") == 0 || strcmp(w, "east") == 0 ||
	    strcmp(w, "west") == 0;
}

/* A coast word: "nc", a direction, or (after '/' or in brackets) "n". */
static int
is_coast_word(const struct gp *g, const struct tok *t, int marked)
{
	const char *w = t->s;
	int nsew = w[0] == 'n' || w[0] == 's' || w[0] == 'e' || w[0] == 'w';

	if (t->kind != TK_WORD)
		return 0;
	if ((t->len == 2 && w[1] == 'c' && nsew) || (marked && t->len == 1 && nsew))
		return 1;
	if ((t->len == 4 || t->len == 5) && nsew && is_direction(w))
		return 1;
	return names_is_coast(g->c->names, w);
}

/* "coast" or "c" after a coast word. */
static int
is_coast_tail(const struct gp *g, int ahead)
{
	const struct tok *t = peek(g, ahead);

	return t && t->kind == TK_WORD && (t->kw == KW_COAST || strcmp(t->s, "c") == 0);
}

/* Optional coast after a place: "/nc", "/north coast", "(nc)", "(north
 * coast)", "-nc", "nc", "north coast", and "north" at the end of a place. */
static void
parse_coast(struct gp *g, struct slot *s)
{
	const struct tok *t = peek(g, 0), *u = peek(g, 1), *v;

	if (t == NULL)
		return;
	if ((t->kind == TK_SLASH || t->kind == TK_LPAREN || (t->kind == TK_DASH && t->tight)) &&
	    u && u->tight == (t->kind == TK_DASH ? 1 : u->tight) && is_coast_word(g, u, 1)) {
		int k = 2;
		if (t->kind == TK_DASH && !(u->len == 2 && u->s[1] == 'c'))
			return;	/* "Spa-North...": a move, not a coast */
		if (is_coast_tail(g, 2))
			k++;
		if (t->kind == TK_LPAREN) {
			v = peek(g, k);
			if (v == NULL || v->kind != TK_RPAREN)
				return;
			k++;
		}
		str_copy(s->coast, u->s, sizeof s->coast);
		g->i += k;
		return;
	}
	if (!is_coast_word(g, t, 0))
		return;
	if (is_coast_tail(g, 1)) {
		str_copy(s->coast, t->s, sizeof s->coast);
		g->i += 2;
		return;
	}
	if (is_direction(t->s) && u && u->kind == TK_WORD && u->kw == KW_NONE)
		return;	/* "north" begins another name */
	str_copy(s->coast, t->s, sizeof s->coast);
	g->i++;
}

enum { PL_UNIT = 1, PL_BUILD = 2, PL_DEST = 4 };

/* parse_place found a power where the destination should be. */
#define PLACE_POWER 1

static power_id power_word(const struct gp *g, int *nw);

/* Append name, item i of n, to the list "A, B or C" in out (size bytes,
 * *o used so far; out[0] is '\0' before the first). */
static void
list_add(char *out, size_t size, size_t *o, int i, int n, const char *name)
{
	if (*o < size)
		*o += (size_t)snprintf(out + *o, size - *o, "%s%s",
		    i == 0 ? "" : i == n - 1 ? " or " : ", ", name);
}

/*
 * The order word an unknown word may stand for: after the first word, a
 * word players use for it ("carry" for convoy, "help" for support);
 * anywhere, a misspelling of an order word or unit type ("suport",
 * "flet"). NULL when none. Such words are not read as the order: the
 * player is asked.
 */
static const char *
verb_suggest(const char *word, int first)
{
	static const struct { const char *w, *verb; } like[] = {
		{ "carry", "convoy" }, { "carries", "convoy" }, { "carrying", "convoy" },
		{ "ferry", "convoy" }, { "ferries", "convoy" }, { "ship", "convoy" },
		{ "ships", "convoy" }, { "escort", "convoy" }, { "escorts", "convoy" },
		{ "help", "support" }, { "helps", "support" }, { "helping", "support" },
		{ "assist", "support" }, { "assists", "support" }, { "backs", "support" },
		{ "aid", "support" }, { "aids", "support" },
		{ "march", "move" }, { "marches", "move" }, { "sail", "move" }, { "sails", "move" },
		{ "travel", "move" }, { "travels", "move" }, { "heads", "move" },
		{ "defend", "hold" }, { "defends", "hold" }, { "guard", "hold" },
		{ "guards", "hold" }, { "remain", "hold" }, { "remains", "hold" },
		{ "flee", "retreat" }, { "flees", "retreat" }, { "withdraw", "retreat" },
		{ "withdraws", "retreat" },
	};
	static const char *const verbs[] = { "army", "fleet", "convoy", "support", "move", "hold",
		"retreat", "disband", "build", "remove", "waive" };
	size_t i, n = strlen(word);

	for (i = 0; i < sizeof like / sizeof like[0] && !first; i++)
		if (strcmp(word, like[i].w) == 0)
			return like[i].verb;
	if (n < 4)
		return NULL;
	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
		if (str_edit_distance(word, n, verbs[i], strlen(verbs[i]), 1) <= 1 ||
		    (word[n - 1] == 's' && str_edit_distance(word, n - 1, verbs[i],
		    strlen(verbs[i]), 1) <= 1))
			return verbs[i];
	return NULL;
}

/* "unknown place "xyz"; did you mean A, B or C?" for the word at token
 * k, or where the order word goes (first, or after a place: not after an
 * arrow or an order word) "unknown word "carry"; did you mean convoy?" */
static int
fail_unknown(struct gp *g, int k)
{
	const struct tok *prev = k > 0 ? &g->lx->t[k - 1] : NULL;
	const char *word = g->lx->t[k].s, *verb = NULL;
	struct name_cand sg[3];
	char list[160];
	size_t o = 0;
	int n, i;

	if (prev == NULL || (prev->kind == TK_WORD && prev->kw == KW_NONE))
		verb = verb_suggest(word, prev == NULL);

	if (verb) {
		g->first_unknown = 0;	/* an order, misspelt */
		return gfail(g, "unknown word \"%s\"; did you mean %s?", word, verb);
	}
	n = names_suggest(g->c->names, word, sg, 3);

	if (n == 0)
		return gfail(g, "unknown place \"%s\"", word);
	list[0] = '\0';
	for (i = 0; i < n; i++)
		list_add(list, sizeof list, &o, i, n, g->c->m->provs[sg[i].id].name);
	return gfail(g, "unknown place \"%s\"; did you mean %s?", word, list);
}

/*
 * A place (see the top of the file). Up to four words are looked at; the
 * first may be anything, later ones not order keywords.
 */
static int
parse_place(struct gp *g, struct slot *s, int flags)
{
	const struct lex *lx = g->lx;
	int widx[5], ends[5], nw = 0, p, k, kk, start;
	char key[128];
	size_t klen;

	while (kw_at(g, 0) == KW_FILLER || kw_at(g, 0) == KW_ARTICLE)
		g->i++;
	start = p = g->i;
	s->used = 1;
	s->n = 0;
	s->coast[0] = '\0';
	s->from = s->to = (uint8_t)start;
	while (p < lx->n && lx->t[p].kind == TK_WORD && nw < 4) {
		uint8_t kw = lx->t[p].kw;
		if (nw > 0 && kw != KW_NONE && kw != KW_FOLLOW && kw != KW_FILLER)
			break;
		widx[nw] = p;
		ends[nw++] = p + 1;
		if (p + 2 < lx->n && lx->t[p + 1].kind == TK_DASH && lx->t[p + 1].tight &&
		    lx->t[p + 2].kind == TK_WORD && lx->t[p + 2].tight)
			p += 2;
		else
			p += 1;
	}
	if (nw == 0) {
		const struct tok *t = peek(g, 0);
		if (t == NULL || t->kind == TK_COMMA)
			return gfail(g, "a place is missing at the end");
		return gfail(g, "expected a place, not \"%s\"", t->s);
	}
	/* Exact names, longest first. */
	for (k = nw; k >= 1; k--) {
		klen = join_words(lx, start, ends[k - 1], key, sizeof key);
		s->n = (uint8_t)names_province_exactn(g->c->names, key, klen, s->c);
		if (s->n > 0)
			break;
	}
	if (k >= 1) {
		g->i = ends[k - 1];
		if (k < nw) {
			const struct tok *nx = &lx->t[widx[k]];
			struct name_cand one[1];
			int apart;
			/* "Mid Atlantc": a longer name misspelt after a short exact one. */
			if (nx->kw == KW_NONE && !is_coast_word(g, nx, 0) &&
			    names_province_exactn(g->c->names, nx->s, nx->len, one) == 0) {
				for (kk = nw < 3 ? nw : 3; kk > k; kk--) {
					struct name_cand c[NAMES_MAX_CAND];
					int n;
					join_words(lx, start, ends[kk - 1], key, sizeof key);
					n = names_provinces(g->c->names, key, c);
					if (n > 0) {
						memcpy(s->c, c, (size_t)n * sizeof *c);
						s->n = (uint8_t)n;
						g->i = ends[kk - 1];
						break;
					}
				}
			}
			/* "Eng Channel": the same place named twice (not "Yor-Yor"). */
			apart = widx[k] == ends[k - 1] && strcmp(nx->s, lx->t[widx[k - 1]].s) != 0;
			for (kk = nw; kk > k && apart && s->c[0].tier == NAME_EXACT; kk--) {
				klen = join_words(lx, widx[k], ends[kk - 1], key, sizeof key);
				if (names_province_exactn(g->c->names, key, klen, one) == 1 &&
				    one[0].id == s->c[0].id) {
					g->i = ends[kk - 1];
					break;
				}
			}
		}
		s->to = (uint8_t)g->i;
		parse_coast(g, s);
		return 0;
	}
	/* A power in a variant without insurrection orders ("F Lon - Russia"). */
	if (flags & PL_DEST) {
		int pnw;
		if (power_word(g, &pnw) != POWER_NONE &&
		    !(kind_at(g, pnw, TK_WORD) && kw_at(g, pnw) == KW_NONE))
			return PLACE_POWER;
	}
	/* Beginnings and misspellings, longest run first. */
	for (k = nw < 3 ? nw : 3; k >= 1; k--) {
		join_words(lx, start, ends[k - 1], key, sizeof key);
		s->n = (uint8_t)names_provinces(g->c->names, key, s->c);
		if (s->n > 0) {
			g->i = ends[k - 1];
			s->to = (uint8_t)g->i;
			parse_coast(g, s);
			return 0;
		}
	}
	/* The ordered unit: close to a place where the sender has one. */
	if ((flags & (PL_UNIT | PL_BUILD)) &&
	    site_candidates(g, lx->t[start].s, flags & PL_BUILD, s) > 0) {
		g->i = start + 1;
		s->to = (uint8_t)g->i;
		parse_coast(g, s);
		return 0;
	}
	if (lx->t[start].kw != KW_NONE && lx->t[start].kw != KW_NUMBER)
		return gfail(g, "expected a place, not \"%s\"", lx->t[start].s);
	if (lx->t[start].wd & WD_POSS)
		return gfail(g, "\"%s\" does not say whose unit it is: write the unit itself, "
		    "as \"A Vie - Tri\"", lx->t[start].s);
	if (start == 0 && g->err[0] == '\0')
		g->first_unknown = 1;
	return fail_unknown(g, start);
}

static void
skip_fillers(struct gp *g)
{
	while (kw_at(g, 0) == KW_FILLER)
		g->i++;
}

/* Optional unit type ("A", "fleet", "an army"); UNIT_NONE when absent. */
static uint8_t
parse_type(struct gp *g)
{
	enum kw k = kw_at(g, 0), k1 = kw_at(g, 1);
	const struct tok *nx;

	if ((k == KW_ARTICLE || (k == KW_ARMY && peek(g, 0)->len == 1)) &&
	    (k1 == KW_ARMY || k1 == KW_FLEET)) {
		g->i++;		/* "a fleet": an article */
		k = k1;
	}
	if (k != KW_ARMY && k != KW_FLEET)
		return UNIT_NONE;
	nx = peek(g, 1);
	if (nx == NULL || nx->kind == TK_COLON || nx->kind == TK_COMMA)
		return UNIT_NONE;
	g->i++;
	return k == KW_ARMY ? UNIT_ARMY : UNIT_FLEET;
}

/* A unit: [the] [type] [in|at] place, or type(place). */
static int
parse_unit(struct gp *g, uint8_t *type, struct slot *s, int flags)
{
	while (kw_at(g, 0) == KW_FILLER || kw_at(g, 0) == KW_ARTICLE)
		g->i++;
	*type = parse_type(g);
	skip_fillers(g);
	if (kind_at(g, 0, TK_LPAREN)) {
		g->i++;
		if (parse_place(g, s, flags) < 0)
			return -1;
		if (!kind_at(g, 0, TK_RPAREN))
			return gfail(g, "missing \")\" after %s", lx_text(g->lx, s));
		g->i++;
		return 0;
	}
	if (at_end(g) && *type == UNIT_NONE && g->i > 0 &&
	    (g->lx->t[g->i - 1].kw == KW_ARMY || g->lx->t[g->i - 1].kw == KW_FLEET))
		return gfail(g, "a place is missing after \"%s\"", g->lx->t[g->i - 1].s);
	return parse_place(g, s, flags);
}

/* A move word: '-', '->', "to", "moves (to)", "attacks (on)". Returns 1 when consumed. */
static int
parse_move_word(struct gp *g)
{
	if (kind_at(g, 0, TK_DASH)) {
		g->i++;
		while (kw_at(g, 0) == KW_MOVE || kw_at(g, 0) == KW_FOLLOW)
			g->i++;
		return 1;
	}
	if (kw_at(g, 0) == KW_MOVE ||
	    (kw_at(g, 0) == KW_FOLLOW && strcmp(peek(g, 0)->s, "towards") == 0)) {
		g->i++;
		while (kw_at(g, 0) == KW_MOVE || kw_at(g, 0) == KW_FOLLOW || kind_at(g, 0, TK_DASH))
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

	if (kw_at(g, 0) == KW_VIA && t && t->kind == TK_WORD &&
	    (t->kw == KW_CONVOY || strcmp(t->s, "sea") == 0)) {
		g->i += 2;
		return 1;
	}
	return 0;
}

/* A power written as one or two words ("Russia", "Great Britain") at the
 * cursor, not a place; *nw gets the number of words. */
static power_id
power_word(const struct gp *g, int *nw)
{
	const struct tok *t = peek(g, 0), *u = peek(g, 1);
	char key[2 * TOKLEN + 2];
	struct name_cand one[1];
	power_id pw;
	size_t n;

	if (t == NULL || t->kind != TK_WORD || t->kw != KW_NONE)
		return POWER_NONE;
	if (u && u->kind == TK_WORD && u->kw == KW_NONE) {
		n = join_words(g->lx, g->i, g->i + 2, key, sizeof key);
		pw = names_power_exact(g->c->names, key);
		if (pw != POWER_NONE && names_province_exactn(g->c->names, key, n, one) == 0) {
			*nw = 2;
			return pw;
		}
	}
	pw = names_power_exact(g->c->names, t->s);
	*nw = 1;
	return pw;
}

/*
 * MUNA's insurrection: a power where the destination should be
 * ("F Lon-Russia"). Returns 1 when read (rd->dest_power set, and the kind
 * when the word is not also a place), 0 when not a power, -1 on error.
 */
static int
parse_insurrection_power(struct gp *g, struct reading *rd)
{
	const struct tok *t = peek(g, 0);
	struct name_cand one[1];
	power_id pw;
	int nw;

	pw = power_word(g, &nw);
	if (pw == POWER_NONE || (kind_at(g, nw, TK_WORD) && kw_at(g, nw) == KW_NONE))
		return 0;	/* "English Chanel": a place */
	if (nw == 1 && names_province_exactn(g->c->names, t->s, t->len, one) == 1) {
		if (rules_caps(g) & RULES_REVIVAL)
			rd->dest_power = pw;	/* a place too: the board decides */
		return 0;
	}
	if (!(rules_caps(g) & RULES_REVIVAL))
		return gfail(g, "%s is a power, not a place (insurrection orders are not part of "
		    "this variant)", g->c->m->powers[pw].name);
	rd->dest_power = pw;
	rd->kind = ORDER_INSURRECTION;
	rd->dest.used = 0;	/* a power, not a place (parse_place may have begun one) */
	g->i += nw;
	return 1;
}

/* Does some candidate of the slot name a sea? (the steps of a route) */
static int
slot_has_sea(const struct map *m, const struct slot *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (m->provs[s->c[i].id].terrain == TERRAIN_SEA)
			return 1;
	return 0;
}

static int parse_embark(struct gp *g, struct reading *rd);

/*
 * After a move word: the destination, or a route whose last place is the
 * destination (accepted, never needed), then "via convoy".
 */
static int
parse_move_rest(struct gp *g, struct reading *rd)
{
	int rc;

	rd->kind = ORDER_MOVE;
	if (rules_caps(g) & RULES_REVIVAL) {
		rc = parse_insurrection_power(g, rd);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	rc = parse_place(g, &rd->dest, PL_DEST);
	if (rc < 0)
		return -1;
	if (rc == PLACE_POWER)
		return parse_insurrection_power(g, rd) < 0 ? -1 : 0;
	while (!at_end(g) && (kind_at(g, 0, TK_DASH) || kw_at(g, 0) == KW_MOVE)) {
		prov_id step = rd->dest.c[0].id;
		int sea = slot_has_sea(g->c->m, &rd->dest);
		parse_move_word(g);
		if (parse_place(g, &rd->dest, 0) < 0)
			return -1;
		if (!sea)
			return gfail(g, "%s is not a sea: a route names the seas of a convoy "
			    "(\"A Lon - Nth - Nwy\")", g->c->m->provs[step].name);
		rd->route++;
	}
	if (parse_via(g)) {
		rd->via = 1;
	} else if (kind_at(g, 0, TK_LPAREN) && kw_at(g, 1) == KW_VIA) {
		g->i++;		/* "(via convoy)" */
		if (!parse_via(g) || !kind_at(g, 0, TK_RPAREN))
			return gfail(g, "did not understand the brackets after %s",
			    lx_text(g->lx, &rd->dest));
		g->i++;
		rd->via = 1;
	}
	if (kw_at(g, 0) == KW_EMBARK || (kw_at(g, 0) == KW_FOLLOW && kw_at(g, 1) == KW_EMBARK))
		return parse_embark(g, rd);
	return 0;
}

/* Realpolitik: "A Bel embarks F Bel", "A Hol - Bel on board F Bel". */
static int
parse_embark(struct gp *g, struct reading *rd)
{
	if (!(rules_caps(g) & RULES_BOARDING))
		return gfail(g, "armies go on board fleets only in Realpolitik; here a fleet "
		    "convoys them: \"F Nth C A Lon - Nwy\"");
	if (kw_at(g, 0) == KW_FOLLOW)
		g->i++;		/* "on board" */
	g->i++;
	while (kw_at(g, 0) == KW_FOLLOW || kw_at(g, 0) == KW_FILLER)
		g->i++;
	rd->kind = ORDER_EMBARK;
	if (at_end(g))
		return 0;
	if (parse_unit(g, &rd->target_type, &rd->target, 0) < 0)
		return -1;
	if (rd->target_type == UNIT_ARMY)
		return gfail(g, "an army goes on board a fleet, not an army");
	return 0;
}

/* Realpolitik: "A Bel lands", "A Bel goes ashore", "A Bel disembarks in Bel". */
static int
parse_land(struct gp *g, struct reading *rd)
{
	if (!(rules_caps(g) & RULES_BOARDING))
		return gfail(g, "armies land from fleets only in Realpolitik");
	while (kw_at(g, 0) == KW_MOVE)
		g->i++;		/* "goes ashore" */
	g->i++;
	rd->kind = ORDER_LAND;
	while (kw_at(g, 0) == KW_FOLLOW || kw_at(g, 0) == KW_FILLER || kw_at(g, 0) == KW_MOVE)
		g->i++;
	if (at_end(g))
		return 0;
	return parse_place(g, &rd->dest, 0);
}

/* After "supports"/"convoys": [power] unit, then a destination or a hold. */
static int
parse_support(struct gp *g, struct reading *rd, enum kw k)
{
	power_id pw;
	int nw;

	g->i++;
	rd->kind = k == KW_SUPPORT ? ORDER_SUPPORT : ORDER_CONVOY;
	while (kw_at(g, 0) == KW_FILLER || kw_at(g, 0) == KW_ARTICLE)
		g->i++;
	/* "RUSSIAN A War-Pru": a power word before the other unit. */
	pw = power_word(g, &nw);
	if (pw != POWER_NONE && kind_at(g, nw, TK_WORD)) {
		struct name_cand one[1];
		const struct tok *t = peek(g, 0);
		if (nw == 2 || names_province_exactn(g->c->names, t->s, t->len, one) == 0) {
			rd->target_power = pw;
			g->i += nw;
		}
	}
	if (parse_unit(g, &rd->target_type, &rd->target, 0) < 0)
		return -1;
	skip_fillers(g);
	if (kw_at(g, 0) == KW_MOVE && kw_at(g, 1) == KW_HOLD)
		g->i++;		/* "to hold" */
	if (kw_at(g, 0) == KW_HOLD) {
		if (rd->kind == ORDER_CONVOY)
			return gfail(g, "a convoy needs a destination: F Nth C A Lon - Nwy");
		g->i++;
		rd->support_hold = 1;
		return 0;
	}
	if (parse_move_word(g) || (kind_at(g, 0, TK_WORD) && kw_at(g, 0) == KW_NONE)) {
		if (at_end(g) || kind_at(g, 0, TK_LPAREN))
			return gfail(g, "a destination is missing after %s", lx_text(g->lx, &rd->target));
		if (parse_place(g, &rd->dest, 0) < 0)
			return -1;
		if (rd->kind == ORDER_CONVOY)
			parse_via(g);
		return 0;
	}
	if (rd->kind == ORDER_CONVOY)
		return gfail(g, "a convoy needs a destination: F Nth C A Lon - Nwy");
	rd->support_hold = 1;
	return 0;
}

/* After the unit: what it does. */
static int
parse_action(struct gp *g, struct reading *rd)
{
	enum kw k;
	const struct tok *t;

	skip_fillers(g);	/* "will" */
	k = kw_at(g, 0);
	if (at_end(g) || kind_at(g, 0, TK_LPAREN)) {
		rd->kind = ORDER_HOLD;
		rd->bare = 1;
		return 0;
	}
	switch (k) {
	case KW_HOLD:
		g->i++;
		rd->kind = ORDER_HOLD;
		return 0;
	case KW_DISBAND:
		g->i++;
		rd->kind = ORDER_DISBAND;
		return 0;
	case KW_RETREAT:
		g->i++;
		parse_move_word(g);
		rd->kind = ORDER_RETREAT;
		return parse_place(g, &rd->dest, 0);
	case KW_SUPPORT:
	case KW_CONVOY:
		return parse_support(g, rd, k);
	case KW_EMBARK:
		return parse_embark(g, rd);
	case KW_LAND:
		return parse_land(g, rd);
	case KW_INSURRECTION:
		g->i++;
		while (kw_at(g, 0) == KW_FOLLOW || kw_at(g, 0) == KW_FILLER)
			g->i++;	/* "insurrection in Russia" */
		rd->kind = ORDER_MOVE;
		if (parse_insurrection_power(g, rd) <= 0)
			return gfail(g, "an insurrection names the power to revive: "
			    "F Lon - Russia");
		return 0;
	case KW_FOLLOW:
		if (kw_at(g, 1) == KW_EMBARK)
			return parse_embark(g, rd);	/* "on board" */
		break;
	case KW_MOVE:
		if (kw_at(g, 1) == KW_LAND)
			return parse_land(g, rd);	/* "goes ashore" */
		break;
	default:
		break;
	}
	/* "F Lon-Holds" (MUNA's rulebook writes the hold so): a dash, then a
	 * hold word that begins no place's name ("hold" may be Holland). */
	if (kind_at(g, 0, TK_DASH) && kw_at(g, 1) == KW_HOLD && g->i + 2 == g->lx->n &&
	    strcmp(peek(g, 1)->s, "hold") != 0 && strcmp(peek(g, 1)->s, "h") != 0) {
		g->i += 2;
		rd->kind = ORDER_HOLD;
		return 0;
	}
	if (parse_move_word(g))
		return parse_move_rest(g, rd);
	if (parse_via(g))
		return gfail(g, "\"via convoy\" needs a destination: A Lon - Nwy via convoy");
	t = peek(g, 0);
	if (t == NULL)
		return gfail(g, "did not understand the order");
	if (t->kind == TK_WORD && t->kw == KW_NONE)
		return parse_move_rest(g, rd);	/* "Par Bur" */
	return gfail(g, "did not understand \"%s\" after %s", t->s, lx_text(g->lx, &rd->unit));
}

/* Optional power prefix: "England:", "Great Britain:", "E:", or a whole
 * power name without the colon ("England F Lon H"). */
static int
parse_power(struct gp *g, struct reading *rd)
{
	const struct map *m = g->c->m;
	struct name_cand pc[NAMES_MAX_CAND], one[1];
	const struct tok *t = peek(g, 0);
	char key[3 * TOKLEN + 3];
	int np, w, nw;
	power_id pw;

	if (t == NULL || t->kind != TK_WORD)
		return 0;
	/* Up to three words (joined by tight dashes or blanks) and a colon. */
	for (w = 1; w <= 5; w++) {
		if (w == 1 && t->len > 1 && t->kw != KW_NONE) {
			w = 6;	/* "Revive:" is no power; letters are ("B:") */
			break;
		}
		if (kind_at(g, w, TK_COLON))
			break;
		if (kind_at(g, w, TK_DASH) && peek(g, w)->tight && kind_at(g, w + 1, TK_WORD) &&
		    peek(g, w + 1)->tight && t->kw == KW_NONE)
			continue;	/* "Austria-Hungary:" */
		if (!kind_at(g, w, TK_WORD) || kw_at(g, w - 1) != KW_NONE ||
		    kw_at(g, w) != KW_NONE) {
			w = 6;	/* "A Par: Bur" is no power */
			break;
		}
	}
	if (w <= 5) {
		int b = g->i, e = g->i + w;
		size_t kl;
		if (e - b > 2 && orders_word(&g->lx->t[b]) && (g->lx->t[b + 1].wd & WD_FOR))
			b += 2;	/* "Orders for Austria:" */
		if (e - b > 1 && orders_word(&g->lx->t[e - 1]))
			e--;	/* "Austria orders:" */
		kl = join_words(g->lx, b, e, key, sizeof key);
		np = names_powers(g->c->names, key, pc);
		if (np == 0 && e - b == 1 && kl > 3 && key[kl - 1] == 's') {
			key[kl - 1] = '\0';	/* "Austria's orders:" */
			np = names_powers(g->c->names, key, pc);
			key[kl - 1] = 's';
		}
		if (np == 0)
			np = names_powers_prefix(g->c->names, key, pc);
		if (np == 0) {
			char list[160] = "";
			size_t o = 0;
			int i;
			for (i = 0; i < m->npowers; i++)
				list_add(list, sizeof list, &o, i, m->npowers, m->powers[i].name);
			return gfail(g, "unknown power \"%s\": %s?", key, list);
		}
		if (np > 1)
			return gfail(g, "power \"%s\" could be %s or %s", key,
			    m->powers[pc[0].id].name, m->powers[pc[1].id].name);
		rd->power = (power_id)pc[0].id;
		rd->explicit_power = 1;
		if (pc[0].tier != NAME_EXACT)
			snprintf(rd->power_note, sizeof rd->power_note, "\"%.40s\" read as %s", key,
			    m->powers[rd->power].name);
		g->i += w + 1;
		return 0;
	}
	/* Without a colon: a whole power name that is neither a keyword nor a place. */
	pw = power_word(g, &nw);
	if (pw == POWER_NONE || !kind_at(g, nw, TK_WORD))
		return 0;
	if (nw == 1 && names_province_exactn(g->c->names, t->s, t->len, one))
		return 0;
	rd->power = pw;
	rd->explicit_power = 1;
	g->i += nw;
	return 0;
}

/* List markers before an order: "-", "1.", "1)", "(1)", "a)". */
static void
skip_list_marker(struct gp *g)
{
	while (kind_at(g, 0, TK_DASH) && peek(g, 1) != NULL)
		g->i++;
	if (kind_at(g, 0, TK_LPAREN) && kw_at(g, 1) == KW_NUMBER && kind_at(g, 2, TK_RPAREN) &&
	    peek(g, 3) != NULL) {
		g->i += 3;
	} else if (kw_at(g, 0) == KW_NUMBER && peek(g, 1) != NULL) {
		g->i++;
		if ((kind_at(g, 0, TK_RPAREN) || kind_at(g, 0, TK_COLON)) && peek(g, 1) != NULL)
			g->i++;
	} else if (kind_at(g, 0, TK_WORD) && peek(g, 0)->len == 1 && kind_at(g, 1, TK_RPAREN) &&
	    peek(g, 2) != NULL) {
		g->i += 2;
	}
}

/* MUNA's revival order: "Revive: Moscow, St Petersburg, Warsaw". */
static int
parse_revival(struct gp *g, struct reading *rd)
{
	power_id pw;
	int nw;

	if (!(rules_caps(g) & RULES_REVIVAL))
		return gfail(g, "revival orders are not part of this variant");
	g->i++;
	if (kind_at(g, 0, TK_COLON))
		g->i++;
	pw = power_word(g, &nw);	/* "Revive Russia: ..." */
	if (pw != POWER_NONE && (kind_at(g, nw, TK_COLON) || kw_at(g, nw) == KW_FOLLOW ||
	    kw_at(g, nw) == KW_FILLER || kind_at(g, nw, TK_WORD))) {
		if (rd->explicit_power && rd->power != pw)
			return gfail(g, "%s cannot file %s's revival",
			    g->c->m->powers[rd->power].name, g->c->m->powers[pw].name);
		rd->power = pw;
		rd->explicit_power = 1;
		g->i += nw;
		if (kind_at(g, 0, TK_COLON))
			g->i++;
		while (kw_at(g, 0) == KW_FOLLOW || kw_at(g, 0) == KW_FILLER)
			g->i++;	/* "with", "in" */
	}
	rd->kind = ORDER_REVIVE;
	rd->nprefs = 0;
	for (;;) {
		struct slot *s;
		int i;
		while (kind_at(g, 0, TK_COMMA) || kind_at(g, 0, TK_DASH) || kind_at(g, 0, TK_SLASH) ||
		    kind_at(g, 0, TK_RPAREN) || kw_at(g, 0) == KW_AND || kw_at(g, 0) == KW_NUMBER)
			g->i++;	/* separators and ranks: "1) Moscow, 2) Warsaw" */
		if (peek(g, 0) == NULL)
			break;
		if (rd->nprefs >= ORDER_MAX_PREFS)
			return gfail(g, "a revival order names at most %d centres", ORDER_MAX_PREFS);
		s = &rd->prefs[rd->nprefs];
		if (parse_place(g, s, 0) < 0)
			return -1;
		for (i = 0; i < rd->nprefs; i++)
			if (s->n == 1 && rd->prefs[i].n == 1 && s->c[0].id == rd->prefs[i].c[0].id)
				return gfail(g, "%s is named twice: list each centre once, most "
				    "wanted first", g->c->m->provs[s->c[0].id].name);
		rd->nprefs++;
	}
	if (rd->nprefs == 0)
		return gfail(g, "name the home centres to take back, most wanted first: "
		    "Revive: Moscow, Warsaw, St Petersburg");
	return 0;
}

static int
parse_reading(struct gp *g, struct reading *rd)
{
	enum kw k;

	skip_list_marker(g);
	if (parse_power(g, rd) < 0)
		return -1;
	if (rd->explicit_power && at_end(g) && polite_from(g->lx, g->i)) {
		rd->heading = 1;	/* "Austria:" above Austria's orders */
		return 0;
	}
	if (at_end(g))
		return gfail(g, "no order after the power name");
	k = kw_at(g, 0);
	switch (k) {
	case KW_WAIVE:
		g->i = g->lx->n;	/* "waive", "waive build", "waive Paris" */
		rd->kind = ORDER_WAIVE;
		return 0;
	case KW_BUILD:
		g->i++;
		rd->kind = ORDER_BUILD;
		if (kw_at(g, 0) == KW_WAIVE) {
			g->i = g->lx->n;	/* "build waived" */
			rd->kind = ORDER_WAIVE;
			return 0;
		}
		return parse_unit(g, &rd->type, &rd->unit, PL_BUILD);
	case KW_REMOVE:
	case KW_DISBAND:
		if (k == KW_DISBAND && peek(g, 1) == NULL)
			break;
		g->i++;
		rd->kind = ORDER_REMOVE;
		return parse_unit(g, &rd->type, &rd->unit, PL_UNIT);
	case KW_REVIVE:
		return parse_revival(g, rd);
	case KW_RETREAT:
		if (!kind_at(g, 1, TK_WORD))
			break;
		/* Command first: "retreat army bur to par", "R A Mun - Boh". */
		g->i++;
		if (parse_unit(g, &rd->type, &rd->unit, PL_UNIT) < 0)
			return -1;
		if (at_end(g))
			return gfail(g, "retreat from %s to which place? Or disband it",
			    lx_text(g->lx, &rd->unit));
		parse_move_word(g);
		rd->kind = ORDER_RETREAT;
		return parse_place(g, &rd->dest, 0);
	case KW_MOVE:
		if (!kind_at(g, 1, TK_WORD))
			break;
		/* Command first: "move army lvp to edi", "m lvp-edi". */
		g->i++;
		if (parse_unit(g, &rd->type, &rd->unit, PL_UNIT) < 0)
			return -1;
		if (!parse_move_word(g) && kw_at(g, 0) != KW_NONE)
			return gfail(g, "expected where to move to after %s", lx_text(g->lx, &rd->unit));
		return parse_move_rest(g, rd);
	default:
		break;
	}
	if (parse_unit(g, &rd->type, &rd->unit, PL_UNIT) < 0)
		return -1;
	return parse_action(g, rd);
}

/* -------------------------------------------------------- interpretation -- */

/* Why a reading does not fit the board. */
enum fit {
	FIT_OK = 0,
	FIT_NO_UNIT,		/* no unit there */
	FIT_FOREIGN,		/* the unit is another power's */
	FIT_SAME,		/* to its own province */
	FIT_UNREACHABLE,	/* cannot reach the destination */
	FIT_NO_TARGET,		/* no unit to support or convoy there */
	FIT_TARGET_UNREACHABLE,	/* the other unit cannot reach the destination */
	FIT_CANNOT_CONVOY,	/* not a fleet at sea, or not an army to convoy */
	FIT_NOT_HOME,		/* not a home centre of the power */
	FIT_NOT_OWNED,		/* home centre owned by another power */
	FIT_OCCUPIED,		/* a unit stands there */
	FIT_NO_FLEET,		/* no fleet there to go on board */
	FIT_NOT_ARMY,		/* only armies go on board and land */
	FIT_ALIVE,		/* insurrection: that power is still in the game */
};

struct interp {
	const struct parse_ctx *c;
	const struct reading *rd;
	enum phase_type phase;
	power_id power;		/* the sender's (or the written) power */
	uint32_t own;		/* the powers whose units are the sender's (own_set) */
};

/* Is there a chain of fleets at sea from coastal province a to coastal b? */
static bool
fleet_path(const struct parse_ctx *c, prov_id a, prov_id b)
{
	const struct map *m = c->m;
	prov_id sea[BOARD_MAX_UNITS], queue[BOARD_MAX_UNITS];
	uint8_t seen[BOARD_MAX_UNITS];
	int ns = 0, head = 0, tail = 0, i;

	for (i = 0; i < c->b->nunits; i++) {
		const struct unit *u = &c->b->units[i];
		prov_id p = m->locs[u->loc].prov;
		if (u->type == UNIT_FLEET && m->provs[p].terrain == TERRAIN_SEA) {
			seen[ns] = 0;
			sea[ns++] = p;
		}
	}
	for (i = 0; i < ns; i++)
		if (map_fleet_link(m, a, sea[i])) {
			seen[i] = 1;
			queue[tail++] = (prov_id)i;
		}
	while (head < tail) {
		prov_id s = sea[queue[head++]];
		if (map_fleet_link(m, s, b))
			return true;
		for (i = 0; i < ns; i++)
			if (!seen[i] && map_fleet_link(m, s, sea[i])) {
				seen[i] = 1;
				queue[tail++] = (prov_id)i;
			}
	}
	return false;
}

/* Could unit u move to province p (armies: by land, or by a convoy the
 * fleets on the board could make; no convoys in a retreat)? */
static bool
can_reach(const struct interp *in, const struct unit *u, prov_id p)
{
	const struct map *m = in->c->m;
	prov_id from = m->locs[u->loc].prov;

	if (map_reaches(m, (enum unit_type)u->type, u->loc, p))
		return true;
	return u->type == UNIT_ARMY && in->phase == PHASE_MOVEMENT &&
	    map_convoy_reach(m, from, p) && fleet_path(in->c, from, p);
}

/* Has power pw neither units nor centres? */
static bool
power_eliminated(const struct parse_ctx *c, power_id pw)
{
	int i;

	for (i = 0; i < c->b->nunits; i++)
		if (c->b->units[i].power == pw)
			return false;
	for (i = 0; i < c->m->nprovs; i++)
		if (c->m->provs[i].supply && c->b->owner[i] == pw)
			return false;
	return true;
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
		if (lc->coast_abbr[0] == coast[0] && (coast[1] == '\0' || coast[1] == 'c' ||
		    is_direction(coast)))
			return pr->coast[i];
	}
	return LOC_NONE;
}

/*
 * A unit of type t in p (among the dislodged units when dislodged is set):
 * on the coast written when one stands there (a Realpolitik stack of
 * fleets on both coasts of St Petersburg), else find_unit's.
 */
static const struct unit *
unit_written_coast(const struct parse_ctx *c, prov_id p, uint8_t t, const char *coast,
    int dislodged)
{
	const struct board *b = c->b;
	int i, n;
	loc_id want;

	if (b != NULL && (want = coast_loc(c->m, p, coast)) != LOC_NONE) {
		n = dislodged ? b->ndislodged : b->nunits;
		for (i = 0; i < n; i++) {
			const struct unit *u = nth_unit(b, dislodged, i);
			if (u->loc == want && (t == UNIT_NONE || u->type == t))
				return u;
		}
	}
	return find_unit(c, p, t, dislodged);
}

/* unit_written_coast, and find_unit's when no coast is written. */
static inline const struct unit *
unit_on_coast(const struct parse_ctx *c, prov_id p, uint8_t t, const char *coast, int dislodged)
{
	return coast[0] ? unit_written_coast(c, p, t, coast, dislodged) : find_unit(c, p, t, dislodged);
}

/*
 * Does this combination of provinces make a sensible order on the board?
 * *unit gets the board's unit in up that the order addresses, or NULL.
 */
static enum fit
plausible(const struct interp *in, prov_id up, prov_id tp, prov_id dp, const struct unit **unit)
{
	const struct parse_ctx *c = in->c;
	const struct map *m = c->m;
	const struct reading *rd = in->rd;
	const struct unit *u, *t;

	*unit = NULL;
	if (c->b == NULL)
		return FIT_OK;
	switch (rd->kind) {
	case ORDER_WAIVE:
	case ORDER_REVIVE:
		return FIT_OK;
	case ORDER_BUILD:
		if (!m->provs[up].supply || m->provs[up].home == POWER_NONE ||
		    !own_has(in->own, m->provs[up].home))
			return FIT_NOT_HOME;
		if (c->b->owner[up] != m->provs[up].home)
			return FIT_NOT_OWNED;
		return find_unit(c, up, UNIT_NONE, 0) ? FIT_OCCUPIED : FIT_OK;
	default:
		u = unit_on_coast(c, up, rd->type, rd->unit.coast, ctx_phase(c) == PHASE_RETREAT);
		break;
	}
	*unit = u;
	if (u == NULL)
		return FIT_NO_UNIT;
	if (!own_has(in->own, u->power))
		return FIT_FOREIGN;
	switch (rd->kind) {
	case ORDER_MOVE:
	case ORDER_RETREAT:
		if (dp == up)
			return FIT_SAME;
		return can_reach(in, u, dp) ? FIT_OK : FIT_UNREACHABLE;
	case ORDER_SUPPORT:
		t = unit_on_coast(c, tp, rd->target_type, rd->target.coast, 0);
		if (t == NULL)
			return FIT_NO_TARGET;
		if (tp == up)
			return FIT_SAME;
		if (rd->support_hold)
			return map_reaches(m, (enum unit_type)u->type, u->loc, tp) ? FIT_OK :
										   FIT_UNREACHABLE;
		if (dp == up)
			return FIT_SAME;
		if (!map_reaches(m, (enum unit_type)u->type, u->loc, dp))
			return FIT_UNREACHABLE;
		return dp != tp && can_reach(in, t, dp) ? FIT_OK : FIT_TARGET_UNREACHABLE;
	case ORDER_CONVOY:
		t = find_unit(c, tp, UNIT_ARMY, 0);
		if (t == NULL)
			return FIT_NO_TARGET;
		if (t->type != UNIT_ARMY || u->type != UNIT_FLEET ||
		    m->provs[up].terrain != TERRAIN_SEA)
			return FIT_CANNOT_CONVOY;
		return tp != dp && map_convoy_reach(m, tp, dp) ? FIT_OK : FIT_TARGET_UNREACHABLE;
	case ORDER_INSURRECTION:
		return rd->dest_power != u->power && power_eliminated(c, rd->dest_power) ? FIT_OK :
											   FIT_ALIVE;
	case ORDER_EMBARK:
		if (u->type != UNIT_ARMY)
			return FIT_NOT_ARMY;
		t = tp != PROV_NONE ? find_unit(c, tp, UNIT_FLEET, 0) : NULL;
		if (tp != PROV_NONE && (t == NULL || t->type != UNIT_FLEET))
			return FIT_NO_FLEET;
		if (dp != PROV_NONE && dp != up && !map_reaches(m, UNIT_ARMY, u->loc, dp))
			return FIT_UNREACHABLE;
		return FIT_OK;
	case ORDER_LAND:
		return u->type == UNIT_ARMY ? FIT_OK : FIT_NOT_ARMY;
	default:
		return FIT_OK;
	}
}

/* Append "; " separated text to a note. */
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

__attribute__((format(printf, 2, 3))) static void
refuse(struct parse_result *r, const char *fmt, ...)
{
	va_list ap;

	r->verdict = VERDICT_REFUSED;
	va_start(ap, fmt);
	vsnprintf(r->note, sizeof r->note, fmt, ap);
	va_end(ap);
}

/* "Norway, Norwegian Sea or North Sea" for a list of provinces. */
static void
list_provs(const struct map *m, const prov_id *p, int n, char *out, size_t size)
{
	prov_id s[NAMES_MAX_CAND];
	size_t o = 0;
	int i, j;

	if (n > NAMES_MAX_CAND)
		n = NAMES_MAX_CAND;
	for (i = 0; i < n; i++) {	/* alphabetical */
		for (j = i; j > 0 && strcmp(m->provs[s[j - 1]].name, m->provs[p[i]].name) > 0; j--)
			s[j] = s[j - 1];
		s[j] = p[i];
	}
	out[0] = '\0';
	for (i = 0; i < n; i++)
		list_add(out, size, &o, i, n, m->provs[s[i]].name);
}

static const char *
an(uint8_t type)
{
	return type == UNIT_ARMY ? "an army" : type == UNIT_FLEET ? "a fleet" : "a unit";
}

/* Say in words why a reading does not fit: "no unit in Burgundy". */
static void
fit_explain(const struct interp *in, enum fit f, prov_id up, prov_id tp, prov_id dp, char *out,
    size_t size)
{
	const struct map *m = in->c->m;
	const struct unit *u = up != PROV_NONE ? unit_in(in->c, up, in->rd->type) : NULL;
	const char *un = up != PROV_NONE ? m->provs[up].name : "?";
	int several;

	switch (f) {
	case FIT_NO_UNIT:
		snprintf(out, size, "%sno %sunit in %s", in->power != POWER_NONE ? "you have " : "",
		    in->phase == PHASE_RETREAT ? "dislodged " : "", un);
		break;
	case FIT_FOREIGN:
		snprintf(out, size, "the unit in %s is %s", un,
		    u ? m->powers[u->power].adjective : "another power's");
		break;
	case FIT_SAME:
		snprintf(out, size, "that is the unit's own province");
		break;
	case FIT_UNREACHABLE:
		snprintf(out, size, "%s in %s cannot reach %s", u ? an(u->type) : "the unit", un,
		    dp != PROV_NONE ? m->provs[dp].name : tp != PROV_NONE ? m->provs[tp].name : "it");
		break;
	case FIT_NO_TARGET:
		snprintf(out, size, "no unit in %s", tp != PROV_NONE ? m->provs[tp].name : "?");
		break;
	case FIT_TARGET_UNREACHABLE:
		snprintf(out, size, "the unit in %s cannot reach %s",
		    tp != PROV_NONE ? m->provs[tp].name : "?", dp != PROV_NONE ? m->provs[dp].name : "?");
		break;
	case FIT_CANNOT_CONVOY:
		snprintf(out, size, "only a fleet at sea convoys, and only armies");
		break;
	case FIT_NOT_HOME:
		several = (in->own & (in->own - 1)) != 0;
		snprintf(out, size, "%s is not a home centre%s%s", un,
		    in->power == POWER_NONE ? "" : several ? " of your powers" : " of ",
		    in->power == POWER_NONE || several ? "" : m->powers[in->power].name);
		break;
	case FIT_NOT_OWNED:
		snprintf(out, size, "%s is not owned by its home power", un);
		break;
	case FIT_OCCUPIED:
		snprintf(out, size, "%s is occupied", un);
		break;
	case FIT_NO_FLEET:
		snprintf(out, size, "no fleet in %s", tp != PROV_NONE ? m->provs[tp].name : "?");
		break;
	case FIT_NOT_ARMY:
		snprintf(out, size, "only armies go on board fleets and land");
		break;
	case FIT_ALIVE:
		snprintf(out, size, "%s is still in the game",
		    in->rd->dest_power != POWER_NONE ? m->powers[in->rd->dest_power].name : "?");
		break;
	default:
		snprintf(out, size, "it does not fit the board");
		break;
	}
}

static int
cand_cost(const struct slot *s, int i)
{
	return s->used ? s->c[i].tier * 10 + s->c[i].dist : 0;
}

/* Add id to a small set; returns the new size. */
static int
set_add(prov_id *set, int n, int max, prov_id id)
{
	int i;

	for (i = 0; i < n; i++)
		if (set[i] == id)
			return n;
	if (n < max)
		set[n++] = id;
	return n;
}

/* Note a name read differently from what was written. */
static void
note_name(struct parse_result *r, const struct map *m, const struct lex *lx, const struct slot *s,
    int i)
{
	char text[SLOT_TEXT];

	if (s->used && s->c[i].tier != NAME_EXACT)
		note_add(r->note, "\"%s\" read as %s", slot_text(lx, s, text), m->provs[s->c[i].id].name);
}

/* A revival order: each place must be a home centre of the power. */
static int
interpret_revival(const struct parse_ctx *c, const struct reading *rd, struct parse_result *r)
{
	const struct map *m = c->m;
	power_id pw = rd->explicit_power ? rd->power : c->power;
	char text[SLOT_TEXT];
	int i, j;

	r->prefs.n = 0;
	for (i = 0; i < rd->nprefs; i++) {
		const struct slot *s = &rd->prefs[i];
		int best = 1 << 30, nbest = 0, bi = 0;
		prov_id amb[NAMES_MAX_CAND];
		for (j = 0; j < s->n; j++) {
			const struct province *pr = &m->provs[s->c[j].id];
			int cost = cand_cost(s, j);
			if (!pr->supply || pr->home == POWER_NONE || (pw != POWER_NONE && pr->home != pw))
				continue;
			if (cost < best) {
				best = cost;
				nbest = 0;
			}
			if (cost == best) {
				amb[nbest++] = s->c[j].id;
				if (nbest == 1)
					bi = j;
			}
		}
		if (nbest > 1) {
			char names[160];
			list_provs(m, amb, nbest, names, sizeof names);
			refuse(r, "\"%s\" is ambiguous: did you mean %s?", slot_text(rd->lx, s, text),
			    names);
			return -1;
		}
		if (nbest == 0) {
			if (s->n == 1 && s->c[0].tier == NAME_EXACT) {
				bi = 0;	/* as written: the adjudicator says why not */
			} else {
				refuse(r, "\"%s\" is not a home centre%s%s", slot_text(rd->lx, s, text),
				    pw != POWER_NONE ? " of " : "", pw != POWER_NONE ? m->powers[pw].name : "");
				return -1;
			}
		}
		for (j = 0; j < r->prefs.n; j++)
			if (r->prefs.prov[j] == s->c[bi].id) {
				refuse(r, "%s is named twice: list each centre once, most wanted first",
				    m->provs[s->c[bi].id].name);
				return -1;
			}
		r->prefs.prov[r->prefs.n++] = s->c[bi].id;
		note_name(r, m, rd->lx, s, bi);
	}
	if (pw == POWER_NONE)
		pw = m->provs[r->prefs.prov[0]].home;
	r->order.kind = ORDER_REVIVE;
	r->order.power = pw;
	r->order.loc = m->provs[r->prefs.prov[0]].loc;
	return 0;
}

/* Fill in the destination's coast for a fleet; returns -1 having refused. */
static int
fleet_coast(const struct parse_ctx *c, const struct slot *sd, prov_id dp, struct parse_result *r)
{
	const struct map *m = c->m;
	const struct province *pr = &m->provs[dp];
	struct order *o = &r->order;
	loc_id only = LOC_NONE;
	int i, k = 0;

	if (pr->ncoasts == 0 || m->locs[o->dest].coast != 0 || c->b == NULL || o->loc == LOC_NONE)
		return 0;
	for (i = 0; i < pr->ncoasts; i++)
		if (map_adjacent(m, UNIT_FLEET, o->loc, pr->coast[i])) {
			only = pr->coast[i];
			k++;
		}
	if (k == 1 && pr->coast_named) {
		refuse(r, "a fleet ordered to %s must name the coast (the rules): %s", pr->name,
		    m->locs[only].name);
		return -1;
	} else if (k == 1) {
		o->dest = only;
		note_add(r->note, "coast added: %s", m->locs[only].name);
	} else if (k > 1) {
		char coasts[96] = "";
		size_t n = 0;
		for (i = 0; i < pr->ncoasts; i++)
			list_add(coasts, sizeof coasts, &n, i, pr->ncoasts, m->locs[pr->coast[i]].name);
		if (sd->coast[0])
			refuse(r, "%s has no coast \"%s\", and the fleet can reach two: say which (%s)",
			    pr->name, sd->coast, coasts);
		else
			refuse(r, "%s has two coasts the fleet can reach: say which (%s)", pr->name,
			    coasts);
		return -1;
	}
	return 0;
}

/* The readings of an order's three places (unit, target, destination)
 * weighed against the board: the cheapest that fits it, and the cheapest
 * of all (the literal one) with why it does not fit. */
struct choice {
	int best, nbest, bu, bt, bd;		/* the cheapest fitting; how many tie */
	const struct unit *bunit;
	prov_id amb[3][NAMES_MAX_CAND];		/* the places of the tying readings */
	int namb[3];
	int lit, nlit, lu, lt, ld;		/* the cheapest of all; how many tie */
	const struct unit *lunit;
	enum fit litfit;
};

/* Weigh every combination of the places' candidates against the board
 * (plausible) into ch. */
static void
choose_reading(const struct interp *in, struct choice *ch)
{
	const struct reading *rd = in->rd;
	const struct slot *su = &rd->unit, *st = &rd->target, *sd = &rd->dest;
	int nu = su->used ? su->n : 1, nt = st->used ? st->n : 1, nd = sd->used ? sd->n : 1;
	const struct unit *u;
	prov_id up, tp, dp;
	int iu, it, id;

	ch->best = ch->lit = 1 << 30;
	ch->nbest = ch->nlit = ch->bu = ch->bt = ch->bd = ch->lu = ch->lt = ch->ld = 0;
	ch->bunit = ch->lunit = NULL;
	ch->namb[0] = ch->namb[1] = ch->namb[2] = 0;
	ch->litfit = FIT_OK;
	for (iu = 0; iu < nu; iu++) {
		for (it = 0; it < nt; it++) {
			for (id = 0; id < nd; id++) {
				int cost = cand_cost(su, iu) + cand_cost(st, it) + cand_cost(sd, id);
				enum fit f;
				up = su->used ? su->c[iu].id : PROV_NONE;
				tp = st->used ? st->c[it].id : PROV_NONE;
				dp = sd->used ? sd->c[id].id : PROV_NONE;
				f = plausible(in, up, tp, dp, &u);
				if (cost < ch->lit) {
					ch->lit = cost;
					ch->nlit = 0;
				}
				if (cost == ch->lit && ch->nlit++ == 0) {
					ch->lu = iu;
					ch->lt = it;
					ch->ld = id;
					ch->litfit = f;
					ch->lunit = u;
				}
				if (f != FIT_OK)
					continue;
				if (cost < ch->best) {
					ch->best = cost;
					ch->nbest = 0;
					ch->namb[0] = ch->namb[1] = ch->namb[2] = 0;
				}
				if (cost == ch->best) {
					if (ch->nbest++ == 0) {
						ch->bu = iu;
						ch->bt = it;
						ch->bd = id;
						ch->bunit = u;
					}
					ch->namb[0] = set_add(ch->amb[0], ch->namb[0], NAMES_MAX_CAND, up);
					ch->namb[1] = set_add(ch->amb[1], ch->namb[1], NAMES_MAX_CAND, tp);
					ch->namb[2] = set_add(ch->amb[2], ch->namb[2], NAMES_MAX_CAND, dp);
				}
			}
		}
	}
}

/* The reading to take when none or several fit the board: refuse (-1)
 * when the names are ambiguous or a corrected reading does not fit, else
 * take the literal one (0; exact names are taken as written). */
static int
settle_reading(const struct interp *in, struct choice *ch, struct parse_result *r)
{
	const struct parse_ctx *c = in->c;
	const struct map *m = c->m;
	const struct reading *rd = in->rd;
	const struct slot *su = &rd->unit, *st = &rd->target, *sd = &rd->dest;
	char why[160], text[SLOT_TEXT];

	if (ch->nbest > 1) {
		/* Say which place is ambiguous, naming only the readings that fit. */
		int w = ch->namb[2] > 1 ? 2 : ch->namb[0] > 1 ? 0 : 1;
		const struct slot *s = w == 0 ? su : w == 1 ? st : sd;
		list_provs(m, ch->amb[w], ch->namb[w], why, sizeof why);
		refuse(r, "\"%s\" is ambiguous: did you mean %s?", slot_text(rd->lx, s, text), why);
		return -1;
	}
	if (ch->nbest == 1)
		return 0;
	/* Nothing fits the board. Exact names are taken as written (the
	 * adjudicator explains why the order fails); a corrected reading
	 * that does not fit is a guess, and we do not guess. */
	if (ch->lit > 0 && su->used && su->n == 1 && (ch->nlit > 1 || su->c[0].tier == NAME_EXACT) &&
	    rd->kind != ORDER_BUILD &&
	    rd->kind != ORDER_WAIVE && rd->kind != ORDER_REVIVE &&
	    find_unit(c, su->c[0].id, UNIT_NONE, ctx_phase(c) == PHASE_RETREAT) == NULL) {
		/* The unit is plain (or written exactly) and missing: that
		 * settles it, whatever the other names could mean ("A mar -
		 * piemont" with Marseilles empty: no unit, not a spelling). */
		fit_explain(in, FIT_NO_UNIT, su->c[0].id, PROV_NONE, PROV_NONE, why, sizeof why);
		refuse(r, "%s", why);
		return -1;
	}
	if (ch->lit > 0 && ch->nlit > 1) {
		const struct slot *s = su->used && su->n > 1 && su->c[0].tier ? su :
		    sd->used && sd->n > 1 && sd->c[0].tier ? sd : st;
		prov_id ids[NAMES_MAX_CAND];
		int i;
		for (i = 0; i < s->n; i++)
			ids[i] = s->c[i].id;
		list_provs(m, ids, s->n, why, sizeof why);
		refuse(r, "\"%s\" could be %s, and none of them fits the board",
		    slot_text(rd->lx, s, text), why);
		return -1;
	}
	if (ch->lit > 0) {
		const struct slot *s = su->used && su->c[ch->lu].tier ? su :
		    sd->used && sd->c[ch->ld].tier ? sd : st;
		int i = s == su ? ch->lu : s == sd ? ch->ld : ch->lt;
		fit_explain(in, ch->litfit, su->used ? su->c[ch->lu].id : PROV_NONE,
		    st->used ? st->c[ch->lt].id : PROV_NONE, sd->used ? sd->c[ch->ld].id : PROV_NONE,
		    why, sizeof why);
		refuse(r, "\"%s\" would be %s, but %s", slot_text(rd->lx, s, text),
		    m->provs[s->c[i].id].name, why);
		return -1;
	}
	ch->bu = ch->lu;
	ch->bt = ch->lt;
	ch->bd = ch->ld;
	ch->bunit = ch->lunit;
	return 0;
}

/* The unit of the order: the board's when there is one (un, which
 * plausible() found), else the place written in province up. */
static void
fill_unit(const struct interp *in, const struct unit *un, prov_id up, struct parse_result *r)
{
	const struct map *m = in->c->m;
	const struct reading *rd = in->rd;
	const struct slot *su = &rd->unit;
	struct order *o = &r->order;

	if (un == NULL) {
		o->loc = m->provs[up].loc;
		if (su->coast[0]) {
			loc_id cl = coast_loc(m, up, su->coast);
			if (cl != LOC_NONE)
				o->loc = cl;
		}
		return;
	}
	o->loc = un->loc;
	if (rd->type == UNIT_NONE) {
		note_add(r->note, "%s assumed", unit_word((enum unit_type)un->type));
	} else if (rd->type != un->type) {
		note_add(r->note, "the unit in %s is %s, not %s", m->provs[up].name,
		    an(un->type), an(rd->type));
	}
	if (su->coast[0] && m->locs[un->loc].coast && coast_loc(m, up, su->coast) != un->loc)
		note_add(r->note, "the fleet in %s is on the %s", m->provs[up].name,
		    m->locs[un->loc].coast_name);
	o->type = un->type;
	if (own_has(in->own, un->power))
		o->power = un->power;	/* a delegation's: the unit decides */
}

/* The order's places from the reading chosen (unit up, target tp,
 * destination dp), with what was read differently noted. */
static void
fill_places(const struct interp *in, const struct choice *ch, prov_id up, prov_id tp,
    prov_id dp, struct parse_result *r)
{
	const struct parse_ctx *c = in->c;
	const struct map *m = c->m;
	const struct reading *rd = in->rd;
	const struct slot *su = &rd->unit, *st = &rd->target, *sd = &rd->dest;
	struct order *o = &r->order;
	const struct unit *un;

	o->kind = rd->kind;
	o->power = in->power;
	o->type = rd->type;
	o->via_convoy = rd->via || rd->route > 0;
	o->loc = o->target = o->dest = LOC_NONE;
	o->target_type = rd->target_type;
	o->target_power = rd->kind == ORDER_INSURRECTION ? rd->dest_power : rd->target_power;
	if (rd->power_note[0])
		note_add(r->note, "%s", rd->power_note);
	note_name(r, m, rd->lx, su, ch->bu);
	note_name(r, m, rd->lx, st, ch->bt);
	note_name(r, m, rd->lx, sd, ch->bd);
	if (up != PROV_NONE)
		fill_unit(in, ch->bunit, up, r);
	if (tp != PROV_NONE) {
		un = unit_on_coast(c, tp, rd->kind == ORDER_CONVOY ? UNIT_ARMY : rd->target_type,
		    st->coast, 0);
		o->target = un ? un->loc : m->provs[tp].loc;
		if (un && rd->target_type != UNIT_NONE && rd->target_type != un->type)
			note_add(r->note, "the unit in %s is %s", m->provs[tp].name, an(un->type));
		if (un)
			o->target_type = un->type;
	}
	if (dp != PROV_NONE) {
		o->dest = m->provs[dp].loc;
		if (sd->coast[0]) {
			loc_id cl = coast_loc(m, dp, sd->coast);
			if (cl != LOC_NONE)
				o->dest = cl;
			else
				note_add(r->note, "%s has no coast \"%s\"", m->provs[dp].name, sd->coast);
		}
	}
}

/* A build in province up: its power (the home power builds there), its
 * unit type when not written (DATC 4.C.3 (c)), its coast. Returns 0, or -1
 * having refused. */
static int
fit_build(const struct interp *in, prov_id up, struct parse_result *r)
{
	const struct map *m = in->c->m;
	const struct province *pr = &m->provs[up];
	struct order *o = &r->order;

	if (o->power == POWER_NONE || own_has(in->own, pr->home))
		o->power = pr->home;	/* only its home power builds there */
	if (o->type == UNIT_NONE) {
		/* DATC 4.C.3 (c): army inland, fleet when a coast is named;
		 * a map whose rules want the type written assumes none. */
		if (pr->terrain != TERRAIN_LAND && (map_caps(m) & RULES_BUILD_TYPE)) {
			refuse(r, "a build in %s must say Army or Fleet (the rules): \"Build A %s\" "
			    "or \"Build F %s%s%s\"", pr->name, pr->abbr, pr->abbr,
			    pr->ncoasts > 1 ? "/" : "",
			    pr->ncoasts > 1 ? m->locs[pr->coast[0]].coast_abbr : "");
			return -1;
		} else if (pr->terrain == TERRAIN_LAND) {
			o->type = UNIT_ARMY;
			note_add(r->note, "army assumed (inland)");
		} else if (in->rd->unit.coast[0] || m->locs[o->loc].coast) {
			o->type = UNIT_FLEET;
			note_add(r->note, "fleet assumed (a coast was named)");
		} else {
			refuse(r, "build an army or a fleet in %s? Say \"Build A %s\" or "
			    "\"Build F %s\"", pr->name, pr->abbr, pr->abbr);
			return -1;
		}
	}
	if (o->type == UNIT_ARMY && m->locs[o->loc].coast) {
		o->loc = pr->loc;
		note_add(r->note, "coast ignored for an army");
	}
	if (o->type == UNIT_FLEET && pr->ncoasts > 1 && m->locs[o->loc].coast == 0) {
		refuse(r, "%s has two coasts: say which coast to build the fleet on (%s/%s or "
		    "%s/%s)", pr->name, pr->abbr, m->locs[pr->coast[0]].coast_abbr, pr->abbr,
		    m->locs[pr->coast[1]].coast_abbr);
		return -1;
	}
	return 0;
}

/* What each kind of order needs beyond its places, in the phase: a move
 * in a retreat phase is a retreat, a removal a disband, a fleet's coast,
 * a build's unit. Returns 0, or -1 having refused. */
static int
fit_kind(const struct interp *in, prov_id up, prov_id dp, struct parse_result *r)
{
	const struct map *m = in->c->m;
	const struct reading *rd = in->rd;
	struct order *o = &r->order;

	switch (rd->kind) {
	case ORDER_MOVE:
	case ORDER_RETREAT:
		if (in->phase == PHASE_RETREAT && rd->kind == ORDER_MOVE)
			o->kind = ORDER_RETREAT;
		if (o->type == UNIT_ARMY && o->dest != LOC_NONE && m->locs[o->dest].coast) {
			note_add(r->note, "coast ignored for an army");
			o->dest = m->provs[dp].loc;
		}
		if (o->type == UNIT_FLEET && dp != PROV_NONE && fleet_coast(in->c, &rd->dest, dp, r) < 0)
			return -1;
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
		if (in->phase == PHASE_RETREAT)
			o->kind = ORDER_DISBAND;
		break;
	case ORDER_DISBAND:
		if (in->phase == PHASE_ADJUSTMENT)
			o->kind = ORDER_REMOVE;
		break;
	case ORDER_LAND:
		if (o->dest == LOC_NONE && up != PROV_NONE)
			o->dest = m->provs[up].loc;
		break;
	case ORDER_BUILD:
		return fit_build(in, up, r);
	default:
		break;
	}
	return 0;
}

/*
 * Is du, the unit dislodged from p, another power's while the sender's own
 * unit stands in p undislodged? Then an order there is for that unit, and
 * the judge refuses it as the order of a unit not dislodged.
 */
static bool
own_unit_not_dislodged(const struct interp *in, prov_id p, const struct unit *du)
{
	const struct unit *u;

	if (in->own == 0 || own_has(in->own, du->power))
		return false;
	u = find_unit(in->c, p, in->rd->type, 0);
	return u != NULL && own_has(in->own, u->power);
}

/*
 * Fill r->order from the reading: choose the reading of its places that
 * fits the board, settle the case of none or several, fill the order's
 * places, then what its kind needs. A dislodged unit in a retreat phase
 * may only retreat or disband. Returns 0, or -1 having set a refusal.
 */
static int
interpret(const struct parse_ctx *c, uint32_t held, const struct reading *rd,
    struct parse_result *r)
{
	const struct map *m = c->m;
	struct interp in = { c, rd, ctx_phase(c), rd->explicit_power ? rd->power : c->power,
		own_set(c, held, rd) };
	const struct slot *su = &rd->unit, *st = &rd->target, *sd = &rd->dest;
	struct order *o = &r->order;
	const struct unit *du;
	struct choice ch;
	prov_id up, tp, dp;

	if (rd->kind == ORDER_REVIVE)
		return interpret_revival(c, rd, r);
	choose_reading(&in, &ch);
	if (settle_reading(&in, &ch, r) < 0)
		return -1;
	up = su->used ? su->c[ch.bu].id : PROV_NONE;
	tp = st->used ? st->c[ch.bt].id : PROV_NONE;
	dp = sd->used ? sd->c[ch.bd].id : PROV_NONE;
	fill_places(&in, &ch, up, tp, dp, r);
	if (fit_kind(&in, up, dp, r) < 0)
		return -1;
	if (in.phase == PHASE_RETREAT && c->b != NULL && up != PROV_NONE &&
	    (rd->kind == ORDER_HOLD || rd->kind == ORDER_SUPPORT || rd->kind == ORDER_CONVOY) &&
	    (du = unit_in(c, up, rd->type)) != NULL && !own_unit_not_dislodged(&in, up, du)) {
		refuse(r, "a dislodged unit must retreat or disband: \"%c %s - ...\" or \"%c %s D\"",
		    unit_letter((enum unit_type)o->type), m->provs[up].abbr,
		    unit_letter((enum unit_type)o->type), m->provs[up].abbr);
		return -1;
	}
	return 0;
}

static int place_word(const struct parse_ctx *c, const struct tok *t);

/* The tokens [from, to) of lx as written (normalised) into text (size
 * bytes), cut short with "..." past 40 characters. */
static void
tokens_text(const struct lex *lx, int from, int to, char *text, size_t size)
{
	size_t o = 0, n;
	int k;

	text[0] = '\0';
	for (k = from; k < to; k++) {
		const struct tok *t = &lx->t[k];
		bool gap = o > 0 && !t->tight;

		n = strlen(t->s);
		if (o + gap + n > 40 || o + gap + n + 4 > size) {
			if (o + 4 <= size)
				memcpy(text + o, "...", 4);
			return;
		}
		if (gap)
			text[o++] = ' ';
		memcpy(text + o, t->s, n + 1);
		o += n;
	}
}

/* Words left after an order: another order (at once, or later in the
 * words: "A Yor - Lon is wrong, we want A Yor - Edi"), a second meaning
 * (a place, or "not" or "or" and a place: "army munich to ruhr not bur"),
 * or words not understood; the refusal quotes the order read and the
 * words after it. Never inlined: a refusal's words stay out of the code
 * every order goes through. */
static void __attribute__((noinline))
refuse_trailing(const struct gp *g, struct parse_result *r)
{
	const struct lex *lx = g->lx;
	const struct tok *t = &lx->t[g->i], *u = g->i + 1 < lx->n ? t + 1 : NULL;
	char order[64], rest[64];
	int k, end = g->i, second = 0;

	if (u && u->kind == TK_WORD && (t->kw == KW_ARMY || t->kw == KW_FLEET ||
	    (t->kind == TK_WORD && t->kw == KW_NONE && u->kind == TK_DASH))) {
		refuse(r, "one order per line, please: \"%s %s ...\" looks like a second order", t->s,
		    u->s);
		return;
	}
	while (end > 0 && (lx->t[end - 1].kind == TK_COMMA || lx->t[end - 1].kw == KW_POLITE))
		end--;	/* "A Paris, Burgundy": the order without its comma */
	tokens_text(lx, 0, end, order, sizeof order);
	tokens_text(lx, g->i, lx->n, rest, sizeof rest);
	for (k = g->i; k < lx->n; k++)
		second |= lx->t[k].kind == TK_DASH;
	if (second)
		refuse(r, "two orders on one line? \"%s\", then \"%s\": write only the order you "
		    "mean, alone on its line", order, rest);
	else if (t->kind == TK_WORD && ((t->kw == KW_NONE && place_word(g->c, t)) ||
	    ((strcmp(t->s, "not") == 0 || strcmp(t->s, "or") == 0) && u && u->kind == TK_WORD &&
	    u->kw == KW_NONE && place_word(g->c, u))))
		refuse(r, "two meanings? \"%s\", then \"%s\": write only the order you mean, alone "
		    "on its line", order, rest);
	else
		refuse(r, "did not understand \"%s\" after \"%s\"", rest, order);
}

/*
 * A bracketed remark after the order, at g->i: "(please)" is dropped by the
 * lexer, "(as agreed)" is ignored with a note; "(Bur)" or "(S A Mun)" look
 * like part of the order and are refused. Returns 0 or -1 having refused.
 */
static int
remark(const struct gp *g, struct parse_result *r)
{
	const struct lex *lx = g->lx;
	const struct tok *t = g->i + 1 < lx->n ? &lx->t[g->i + 1] : NULL;
	struct name_cand one[1];
	char text[64];
	int k, depth = 0;

	if (t && t->kind == TK_WORD && (t->kw != KW_NONE ||
	    names_province_exactn(g->c->names, t->s, t->len, one))) {
		refuse(r, "did not understand \"(%s\": write the whole order without brackets",
		    t->s);
		return -1;
	}
	for (k = g->i; k < lx->n; k++) {
		depth += lx->t[k].kind == TK_LPAREN ? 1 : lx->t[k].kind == TK_RPAREN ? -1 : 0;
		if (depth == 0)
			break;
	}
	if (k + 1 < lx->n && !polite_from(lx, k + 1)) {
		/* "A Par - Bur (as agreed), A Mar - Spa": more after the remark */
		refuse(r, "did not understand \"%s\" after the brackets", lx->t[k + 1].s);
		return -1;
	}
	join_words(lx, g->i, lx->n, text, sizeof text);
	if (text[0])
		note_add(r->note, "remark \"(%s)\" ignored", text);
	return 0;
}

/* Words that make a line look like an order although nothing else does:
 * the whole order words and unit types (not "a", "to", "by", "in"). */
static int
order_word(const struct tok *t)
{
	switch (t->kw) {
	case KW_ARMY: case KW_FLEET: case KW_HOLD: case KW_MOVE: case KW_SUPPORT:
	case KW_CONVOY: case KW_VIA: case KW_RETREAT: case KW_DISBAND: case KW_BUILD:
	case KW_REMOVE: case KW_WAIVE: case KW_REVIVE: case KW_INSURRECTION:
	case KW_EMBARK: case KW_LAND:
		return t->len >= 3;
	default:
		return 0;
	}
}

/* Does t end as an English verb form does ("changed", "thinking")? */
static int
verb_ending(const struct tok *t)
{
	return (t->len > 4 && strcmp(t->s + t->len - 2, "ed") == 0) ||
	    (t->len > 5 && strcmp(t->s + t->len - 3, "ing") == 0);
}

/* A word read as a place with some confidence: a name, a beginning of one,
 * or a misspelling of a word of five letters or more ("Burgandy", not
 * "best" for Brest) that does not end as a verb ("changed" is not a
 * misspelt Channel). */
static int
place_word(const struct parse_ctx *c, const struct tok *t)
{
	struct name_cand cand[NAMES_MAX_CAND];
	int k, n;

	if (names_province_exactn(c->names, t->s, t->len, cand) > 0)
		return 1;
	n = names_provinces(c->names, t->s, cand);
	for (k = 0; k < n; k++)
		if (cand[k].tier != NAME_FUZZY ||
		    (t->len >= 5 && cand[k].dist <= 2 && !verb_ending(t)))
			return 1;
	return 0;
}

/* A line that is plainly not an order: no arrow, no order word or unit
 * type, and no word read as a place ("hi mr judge", "Thanks!", "Alice").
 * A misspelt order has at least one of them, or a number, or is one short
 * word ("Xyz"). */
static int
chat_line(const struct parse_ctx *c, const char *line, size_t len)
{
	struct lex lx;
	int i;

	if (lex_line(line, len, &lx) != LEX_OK || lx.n == 0)
		return 0;
	if (lx.t[0].kind == TK_WORD && polite_from(&lx, 0))
		return 1;	/* "ok", "thanks" */
	/* "Xyz": a word alone as short as an abbreviation. */
	if (lx.n == 1 && lx.t[0].kind == TK_WORD && lx.t[0].len <= 3)
		return 0;
	/* "A Qqq H", "France: hello": a unit letter or a power prefix first. */
	if (lx.t[0].kind == TK_WORD && (lx.t[0].kw == KW_ARMY || lx.t[0].kw == KW_FLEET))
		return 0;
	if (lx.n > 1 && lx.t[1].kind == TK_COLON && lx.t[0].kind == TK_WORD &&
	    names_power_exact(c->names, lx.t[0].s) != POWER_NONE)
		return 0;
	for (i = 0; i < lx.n; i++) {
		const struct tok *t = &lx.t[i];
		if (t->kind == TK_DASH || (t->kind == TK_WORD && (order_word(t) ||
		    t->kw == KW_NUMBER)))
			return 0;
		if (t->kind == TK_WORD && t->kw == KW_NONE && place_word(c, t))
			return 0;
	}
	return 1;
}

static void parse_line(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r);

/* Could the line (lx->n > 0) be a heading? Cheap tests that most orders fail. */
static inline int
heading_possible(const struct lex *lx)
{
	if (lx->t[0].kind != TK_WORD || lx->t[0].kw != KW_NONE)
		return 0;	/* "A Par - Bur": a heading begins with a name or "orders" */
	return !(lx->n >= 3 && (lx->t[1].kind == TK_COLON || lx->t[1].kind == TK_DASH) &&
	    lx->t[lx->n - 1].kind == TK_WORD);	/* "England: F Nth - Pic" */
}

/*
 * A heading without a colon, the whole line: "Austria", "AUSTRIA -",
 * "Austria's orders:", "Austrian orders", "Orders for Austria". The power,
 * or POWER_NONE when the line is something else (a one-word power that is
 * also a place is the place). Only for a line heading_possible lets by.
 */
static power_id
heading_words(const struct parse_ctx *c, const struct lex *lx)
{
	int i = 0, n = lx->n, k;
	char key[3 * TOKLEN + 3];
	struct name_cand one[1];
	power_id pw = POWER_NONE;
	size_t kl;

	while (n > 0 && (lx->t[n - 1].kind == TK_COLON || lx->t[n - 1].kind == TK_DASH))
		n--;
	if (n > 0 && orders_word(&lx->t[n - 1]))
		n--;
	if (i < n && orders_word(&lx->t[i])) {
		i++;
		if (i < n && (lx->t[i].wd & WD_FOR))
			i++;
	}
	if (n - i < 1 || n - i > 3)
		return POWER_NONE;
	for (k = i; k < n; k++)
		if (lx->t[k].kind != TK_WORD || lx->t[k].kw != KW_NONE)
			return POWER_NONE;
	kl = join_words(lx, i, n, key, sizeof key);
	if (names_province_exactn(c->names, key, kl, one) > 0)
		return POWER_NONE;
	pw = names_power_exact(c->names, key);
	if (pw == POWER_NONE && kl > 3 && key[kl - 1] == 's') {
		key[kl - 1] = '\0';	/* "Austria's", the apostrophe dropped */
		pw = names_power_exact(c->names, key);
	}
	return pw;
}

/*
 * Words that say nothing about the order, at its beginning ("ok, A Par -
 * Bur", "then A Par - Bur", "and ...") are dropped; "instead of holding"
 * at its end is cut off, its words into cut (size bytes) for the note.
 */
static void
trim_words(struct lex *lx, char *cut, size_t size)
{
	int k = 0, i;

	cut[0] = '\0';
	for (i = (lx->wds & WD_INSTEAD) ? 1 : lx->n; i + 1 < lx->n; i++)
		if ((lx->t[i].wd & WD_INSTEAD) && (lx->t[i + 1].wd & WD_OF)) {
			join_words(lx, i, lx->n, cut, size);
			lx->n = i;
			break;
		}
	while (k < lx->n && lx->t[k].kind == TK_WORD &&
	    (lx->t[k].kw == KW_AND || (lx->t[k].wd & WD_LEAD))) {
		k++;
		while (k < lx->n && (lx->t[k].kind == TK_COMMA || lx->t[k].kind == TK_COLON))
			k++;
	}
	if (k == 0 || k >= lx->n || polite_from(lx, k))
		return;	/* "ok" alone: not an order at all */
	for (i = k; i < lx->n && lx->t[i].kind != TK_DASH && !order_word(&lx->t[i]) &&
	    lx->t[i].kw != KW_ARMY && lx->t[i].kw != KW_FLEET; i++)
		;
	if (i == lx->n)
		return;	/* "ok a lot": an order word or an arrow must follow */
	memmove(lx->t, lx->t + k, (size_t)(lx->n - k) * sizeof lx->t[0]);
	lx->n -= k;
}

/* ------------------------------------------------------------ chatter -- */

/* Words and phrases pupils put before an order ("sorry i meant A Par -
 * Bur") and after it ("A Mun R Ruh as well"): nothing to the order. None
 * is "or", "if", "not", "no" or "unless": those change what is meant ("no
 * A Par - Bur" may be "not that"); nor "wait", a mail command. */
static const char *const chatter_lead[] = {
	"sorry", "oh", "ok", "okay", "so", "hey", "hi", "hello", "well", "um", "umm", "uh", "er",
	"erm", "hmm", "oops", "right", "yes", "yeah", "yep", "actually", "now",
	"then", "and", "also", "but", "pls", "plz", "thanks", "thank you", "instead", "ps",
	"i meant", "i mean", "meant", "i want to", "i wanna", "i want", "i would like to",
	"id like to", "i will", "i think", "i guess", "we want to", "we will", "we", "lets", "let",
	"can you", "could you", "sir", "miss", "mr", "mrs", "ms", "dear judge", "judge",
	"my order is", "my new order is", "correction", "change", "first", "next", "finally",
};
static const char *const chatter_tail[] = {
	"then", "too", "as well", "aswell", "also", "thanks", "thank you", "thx", "ty", "ok",
	"okay", "now", "again", "instead", "this time", "this turn", "for now", "i think",
	"i guess", "sorry", "lol", "haha", "cheers", "pls", "plz", "as i said",
};

#define NCHATTER(list) (sizeof (list) / sizeof (list)[0])

/* The number of words of phrase p. */
static int
phrase_words(const char *p)
{
	int n = 1;

	while ((p = strchr(p, ' ')) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* Are the words of phrase p at tokens [k, k + its words) of lx? */
static int
phrase_at(const struct lex *lx, int k, const char *p)
{
	for (; *p; k++) {
		size_t w = strcspn(p, " ");
		const struct tok *t = k >= 0 && k < lx->n ? &lx->t[k] : NULL;
		if (t == NULL || t->kind != TK_WORD || t->len != w || memcmp(t->s, p, w) != 0)
			return 0;
		p += w;
		p += *p == ' ';
	}
	return 1;
}

/* The words of the longest phrase of list (n of them) beginning at token
 * k, or ending at token k when tail; 0 when none is there. A word that is
 * a place's name is no chatter. */
static int
chatter_at(const struct parse_ctx *c, const struct lex *lx, int k, const char *const *list,
    size_t n, int tail)
{
	struct name_cand one[1];
	int best = 0, w;
	size_t i;

	for (i = 0; i < n; i++) {
		w = phrase_words(list[i]);
		if (w > best && phrase_at(lx, tail ? k - w + 1 : k, list[i]))
			best = w;
	}
	if (best > 0 && names_province_exactn(c->names, lx->t[tail ? k - best + 1 : k].s,
	    lx->t[tail ? k - best + 1 : k].len, one) > 0)
		return 0;
	return best;
}

/*
 * The command a misspelt word stands for when only one is near ("bild"
 * build, "movs" moves, "armee" army), NULL when none or two: a word of
 * four letters or more, one slip from the forms of one command.
 */
static const char *
command_near(const char *w, size_t n)
{
	static const struct { const char *form; uint8_t kw; } forms[] = {
		{ "army", KW_ARMY }, { "armee", KW_ARMY }, { "fleet", KW_FLEET },
		{ "move", KW_MOVE }, { "moves", KW_MOVE }, { "hold", KW_HOLD }, { "holds", KW_HOLD },
		{ "support", KW_SUPPORT }, { "supports", KW_SUPPORT }, { "convoy", KW_CONVOY },
		{ "convoys", KW_CONVOY }, { "retreat", KW_RETREAT }, { "retreats", KW_RETREAT },
		{ "disband", KW_DISBAND }, { "disbands", KW_DISBAND }, { "build", KW_BUILD },
		{ "builds", KW_BUILD }, { "remove", KW_REMOVE }, { "removes", KW_REMOVE },
		{ "waive", KW_WAIVE },
	};
	const char *best = NULL;
	int bestd = 2, kw = KW_NONE;
	size_t i;

	if (n < 4)
		return NULL;
	for (i = 0; i < NCHATTER(forms); i++) {
		int d = str_edit_distance(w, n, forms[i].form, strlen(forms[i].form), 1);
		if (d > 1)
			continue;
		if (kw != KW_NONE && kw != forms[i].kw)
			return NULL;	/* near two commands: two meanings */
		kw = forms[i].kw;
		if (d < bestd || (d == bestd &&
		    forms[i].form[strlen(forms[i].form) - 1] == w[n - 1])) {
			bestd = d;	/* "movs": moves rather than move */
			best = forms[i].form;
		}
	}
	return kw == KW_ARMY ? "army" : best;
}

/* Could the words from token k begin an order: a unit type, a command, a
 * place or a power ("go to the Black Sea" cannot)? */
static int
order_start(const struct parse_ctx *c, const struct lex *lx, int k)
{
	const struct tok *t = &lx->t[k];

	if (t->kind != TK_WORD)
		return t->kind == TK_LPAREN || t->kind == TK_DASH;
	switch (t->kw) {
	case KW_ARMY: case KW_FLEET: case KW_ARTICLE: case KW_HOLD: case KW_SUPPORT:
	case KW_CONVOY: case KW_RETREAT: case KW_DISBAND: case KW_BUILD: case KW_REMOVE:
	case KW_WAIVE: case KW_REVIVE: case KW_NUMBER:
		return 1;
	case KW_MOVE:	/* "move A Par to Bur", not "go to" */
		return k + 1 < lx->n && lx->t[k + 1].kind == TK_WORD &&
		    lx->t[k + 1].kw != KW_MOVE && lx->t[k + 1].kw != KW_FILLER;
	case KW_NONE:
		return place_word(c, t) || names_power_exact(c->names, t->s) != POWER_NONE;
	default:
		return 0;
	}
}

/* The tokens [from, to) of lx as a line into text (size bytes), the
 * words of fix (NULL: as written) put right as far as mode says (0: none,
 * 1: not those also read as a place, 2: all); its length, or 0 when it
 * does not fit. */
static size_t
chatter_text(const struct lex *lx, int from, int to, const char *const *fix,
    const unsigned char *place, int mode, char *text, size_t size)
{
	size_t o = 0;
	int k;

	for (k = from; k < to; k++) {
		const struct tok *t = &lx->t[k];
		if (k > from && !t->tight && o + 1 < size)
			text[o++] = ' ';
		o += (size_t)snprintf(text + o, size - o, "%s",
		    fix[k] && (mode == 2 || (mode == 1 && !place[k])) ? fix[k] : t->s);
		if (o >= size)
			return 0;
	}
	return o;
}

/* The words of tokens [from, to) but those of politeness ("ok", "pls",
 * "thanks": the parser passes them over quietly), as join_words. */
static size_t
chatter_words(const struct lex *lx, int from, int to, char *out, size_t size)
{
	struct lex said;
	int k;

	said.n = 0;
	for (k = from; k < to; k++)
		if (lx->t[k].kw != KW_POLITE)
			said.t[said.n++] = lx->t[k];
	return join_words(&said, 0, said.n, out, size);
}

/* Is r one whole order? */
static int
whole_order(const struct parse_result *r)
{
	return (r->verdict == VERDICT_ACCEPTED || r->verdict == VERDICT_CORRECTED) && !r->bare;
}

/*
 * A line parse_line refused, read again without the chatter at its ends
 * ("sorry i meant", "as well") and with a misspelt command word put right
 * when only one command is near: when that is one whole order, r is that
 * order, what was dropped or put right in its note, and 1 is returned.
 * Else 0, and r refused; unless reword, with the reason it had; else as
 * two meanings when a word put right also reads as a place in an order
 * ("hols": holds, or Holland), with the reason of the rest when it begins
 * as an order does, plainly "no order found" when chatter came first and
 * no order after it.
 */
static int
reread_chatter(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r, int reword)
{
	struct parse_result pr, alt;
	struct name_cand cand[NAMES_MAX_CAND];
	char text[PARSE_MAX_LINE * 2 + 8], said[PARSE_NOTE], words[64];
	const char *fix[MAXTOK];
	unsigned char place[MAXTOK];
	int from = 0, to, k, w, fixed = 0, doubt = -1;
	size_t n;
	struct lex lx;

	if (lex_line(line, len, &lx) != LEX_OK || lx.n == 0)
		return 0;
	to = lx.n;
	while (from < to && (w = chatter_at(c, &lx, from, chatter_lead, NCHATTER(chatter_lead),
	    0)) > 0)
		for (from += w; from < to && (lx.t[from].kind == TK_COMMA ||
		    lx.t[from].kind == TK_COLON || lx.t[from].kind == TK_DASH); from++)
			;
	while (to > from) {
		while (to > from && lx.t[to - 1].kind == TK_COMMA)
			to--;
		if (to == from ||
		    (w = chatter_at(c, &lx, to - 1, chatter_tail, NCHATTER(chatter_tail), 1)) == 0)
			break;
		to -= w;
	}
	if (from >= to)
		return 0;	/* chatter alone */
	for (k = from; k < to; k++) {
		const struct tok *t = &lx.t[k];
		fix[k] = t->kind == TK_WORD && t->kw == KW_NONE ? command_near(t->s, t->len) : NULL;
		place[k] = fix[k] && (names_provinces(c->names, t->s, cand) > 0 ||
		    names_power_exact(c->names, t->s) != POWER_NONE);
		fixed += fix[k] != NULL;
		if (place[k])
			doubt = 0;	/* "movs": moves, or Moscow misspelt */
	}
	if (from == 0 && to == lx.n && fixed == 0)
		return 0;	/* nothing to drop or put right */
	if ((n = chatter_text(&lx, from, to, fix, place, 2, text, sizeof text)) == 0)
		return 0;
	parse_line(c, held, text, n, &pr);
	if (whole_order(&pr) && fix[from] && pr.order.type != UNIT_NONE &&
	    (fix[from][0] == 'a' ? UNIT_ARMY : fix[from][0] == 'f' ? UNIT_FLEET :
	    pr.order.type) != pr.order.type)
		return 0;	/* "Flet Par - Bur" for the army in Paris: a guess on a guess */
	if (whole_order(&pr) && doubt == 0 &&
	    (n = chatter_text(&lx, from, to, fix, place, 1, text, sizeof text)) > 0) {
		parse_line(c, held, text, n, &alt);
		doubt = whole_order(&alt);
	}
	if (whole_order(&pr) && doubt == 1 && reword) {
		for (k = from; k < to && !place[k]; k++)
			;
		refuse(r, "\"%s\" may be %s or a place: two meanings, so write the order again",
		    lx.t[k].s, fix[k]);
		r->not_order = 0;
		return 0;
	}
	if (whole_order(&pr) && doubt != 1) {
		said[0] = '\0';
		if (chatter_words(&lx, 0, from, words, sizeof words))
			note_add(said, "\"%s\" ignored", words);
		for (k = from; k < to; k++)
			if (fix[k])
				note_add(said, "\"%s\" read as %s", lx.t[k].s, fix[k]);
		if (chatter_words(&lx, to, lx.n, words, sizeof words))
			note_add(said, "\"%s\" ignored", words);
		if (pr.note[0])
			note_add(said, "%s", pr.note);
		if (said[0] == '\0')	/* words dropped that have no text to quote */
			note_add(said, "the words around the order ignored");
		memcpy(pr.note, said, sizeof pr.note);
		pr.verdict = VERDICT_CORRECTED;
		pr.chat = 0;
		*r = pr;
		return 1;
	}
	if ((from == 0 && to == lx.n) || !reword)
		return 0;	/* only words put right: the first refusal says why */
	if (pr.bare) {
		join_words(&lx, from, to, words, sizeof words);
		refuse(r, "\"%s\" alone is no order: say what the unit does (\"A Par H\", "
		    "\"A Par - Bur\")", words);
		r->not_order = 0;
		return 0;
	}
	if (from > 0 && !order_start(c, &lx, from)) {
		refuse(r, "no order found in this line: an order names the unit and where it is, "
		    "as \"A Par - Bur\"");
		r->not_order = 0;
		return 0;
	}
	/* The reason of the rest as written, the chatter left out. */
	if ((n = chatter_text(&lx, from, to, fix, place, 0, text, sizeof text)) == 0)
		return 0;
	parse_line(c, held, text, n, &pr);
	if (pr.verdict == VERDICT_REFUSED) {
		memcpy(r->note, pr.note, sizeof r->note);
		r->not_order = pr.not_order;
	}
	return 0;
}

/* Is line[i] the start of the separating word w (blanks or punctuation
 * around it)? */
static int
sep_word(const char *line, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w), k;

	if (i + n > len || (i > 0 && CLASS(line[i - 1]) == C_ALNUM) ||
	    (i + n < len && CLASS(line[i + n]) == C_ALNUM))
		return 0;
	for (k = 0; k < n; k++)
		if (str_lc(line[i + k]) != w[k])
			return 0;
	return 1;
}

/*
 * A line refused as one order that is several, separated by commas,
 * semicolons, "and" or "then" outside brackets: when each part reads as
 * a whole order, r->nparts and r->part say where they are; when two or
 * more parts read as orders and one does not, the refusal names it.
 */
static void
split_line(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r)
{
	size_t from[PARSE_MAX_PARTS], to[PARSE_MAX_PARTS], i, start = 0, sep;
	int n = 0, k, orders = 0, whole = 0, bad = -1, depth = 0, w;
	struct parse_result pr, bp;
	struct lex lx;

	for (i = 0; i <= len; i++) {
		char ch = i < len ? line[i] : '\0';
		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if ((ch == ')' || ch == ']' || ch == '}') && depth > 0)
			depth--;
		sep = i == len || ch == '#' ? 1 : depth > 0 ? 0 : ch == ',' || ch == ';' ? 1 :
		    sep_word(line, len, i, "and") ? 3 : sep_word(line, len, i, "then") ? 4 : 0;
		if (sep == 0)
			continue;
		while (start < i && (line[start] == ' ' || line[start] == '\t'))
			start++;
		if (start < i) {
			if (n == PARSE_MAX_PARTS)
				return;
			from[n] = start;
			to[n++] = i;
		}
		if (i == len || ch == '#')
			break;
		start = i + sep;
		i += sep - 1;
	}
	if (n < 2 || lex_line(line, len, &lx) != LEX_OK)
		return;
	for (k = 0; k < lx.n; k++)
		if (lx.t[k].kw == KW_REVIVE)
			return;	/* "Revive: Moscow, Warsaw": one order */
	for (k = 0; k < n; k++) {
		parse_line(c, held, line + from[k], to[k] - from[k], &pr);
		if (pr.verdict == VERDICT_REFUSED)
			reread_chatter(c, held, line + from[k], to[k] - from[k], &pr, 1);
		if (pr.verdict == VERDICT_ACCEPTED || pr.verdict == VERDICT_CORRECTED) {
			orders++;
			whole += !pr.bare;
		}
		if (bad < 0 && (pr.bare || (pr.verdict != VERDICT_ACCEPTED &&
		    pr.verdict != VERDICT_CORRECTED))) {
			bad = k;
			bp = pr;
		}
	}
	if (bad < 0) {
		r->nparts = (uint8_t)n;
		for (k = 0; k < n; k++) {
			r->part[k].off = (uint16_t)from[k];
			r->part[k].len = (uint16_t)(to[k] - from[k]);
		}
		refuse(r, "%d orders on one line", n);
		return;
	}
	if (whole == 0 || (orders < 2 && (bp.verdict != VERDICT_REFUSED ||
	    chat_line(c, line + from[bad], to[bad] - from[bad]))))
		return;	/* one order and words after it: the first refusal says which */
	while (to[bad] > from[bad] && (line[to[bad] - 1] == ' ' || line[to[bad] - 1] == '\t'))
		to[bad]--;
	w = (int)(to[bad] - from[bad] > 60 ? 60 : to[bad] - from[bad]);
	if (bp.verdict == VERDICT_ACCEPTED || bp.verdict == VERDICT_CORRECTED)
		refuse(r, "two orders on one line? \"%.*s\" is not a whole order: write each order "
		    "whole, one per line", w, line + from[bad]);
	else
		refuse(r, "two orders on one line? \"%.*s\" was not understood (%s)", w,
		    line + from[bad], bp.verdict == VERDICT_BLANK ? "nothing there" : bp.note);
}

/* A line parse_line refused: is it chat, or several orders on one line? */
static void
reread_refused(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r)
{
	r->chat = (unsigned char)chat_line(c, line, len);
	if (len > PARSE_MAX_LINE || reread_chatter(c, held, line, len, r, !r->chat) || r->chat)
		return;	/* "bild a pa" looks like chat, and is an order */
	split_line(c, held, line, len, r);
}

bool
order_word_in(const char *line, size_t len)
{
	struct lex lx;
	int i;

	if (lex_line(line, len, &lx) != LEX_OK)
		return false;
	for (i = 0; i < lx.n; i++)
		if (lx.t[i].kind == TK_WORD && order_word(&lx.t[i]) && lx.t[i].kw != KW_ARMY &&
		    lx.t[i].kw != KW_FLEET)
			return true;
	return false;
}

bool
order_all_hold(const char *line, size_t len)
{
	static const char *const all[] = { "all", "others", "rest", "everyone", "everybody",
		"everything", "remaining" };
	static const char *const with[] = { "other", "the", "units", "unit", "else", "my", "our",
		"of", "armies", "fleets", "we", "i", "just", "should", "can", "will", "then", "too",
		"them" };
	struct lex lx;
	int i, holds = 0, alls = 0;
	size_t k;

	if (lex_line(line, len, &lx) != LEX_OK)
		return false;
	for (i = 0; i < lx.n; i++) {
		const struct tok *t = &lx.t[i];
		if (t->kind == TK_COMMA || (t->kind == TK_WORD && t->kw == KW_POLITE))
			continue;
		if (t->kind != TK_WORD)
			return false;
		if (t->kw == KW_HOLD && t->len >= 4) {
			holds++;
			continue;
		}
		for (k = 0; k < sizeof all / sizeof all[0] && strcmp(t->s, all[k]) != 0; k++)
			;
		if (k < sizeof all / sizeof all[0]) {
			alls++;
			continue;
		}
		for (k = 0; k < sizeof with / sizeof with[0] && strcmp(t->s, with[k]) != 0; k++)
			;
		if (k == sizeof with / sizeof with[0])
			return false;	/* "all hold but A Par": more than that */
	}
	return holds == 1 && alls > 0;
}

void
order_parse(const struct parse_ctx *c, const char *line, size_t len, struct parse_result *r)
{
	parse_line(c, 0, line, len, r);
	r->chat = 0;
	if (r->verdict == VERDICT_REFUSED)
		reread_refused(c, 0, line, len, r);
}

void
order_parse_held(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r)
{
	parse_line(c, held, line, len, r);
	r->chat = 0;
	if (r->verdict == VERDICT_REFUSED)
		reread_refused(c, held, line, len, r);
}

static void
parse_line(const struct parse_ctx *c, uint32_t held, const char *line, size_t len,
    struct parse_result *r)
{
	struct slot prefs[ORDER_MAX_PREFS];
	enum lex_status ls;
	struct reading rd;
	struct lex lx;
	struct gp g;
	char cut[SLOT_TEXT];

	r->verdict = VERDICT_BLANK;
	r->note[0] = '\0';
	r->not_order = 0;
	r->bare = 0;
	r->nparts = 0;
	r->heading = POWER_NONE;
	r->prefs.n = 0;
	memset(&r->order, 0, sizeof r->order);
	r->order.power = r->order.target_power = POWER_NONE;
	r->order.loc = r->order.target = r->order.dest = LOC_NONE;
	ls = lex_line(line, len, &lx);
	if (ls != LEX_OK) {
		refuse(r, ls == LEX_LONG ? "too long for an order: one order per line, please" :
					   "a word is too long to be a name");
		return;
	}
	if (lx.n == 0)
		return;
	r->heading = heading_possible(&lx) ? heading_words(c, &lx) : POWER_NONE;
	if (r->heading != POWER_NONE)
		return;
	cut[0] = '\0';
	if (lx.wds & (WD_LEAD | WD_AND))
		trim_words(&lx, cut, sizeof cut);	/* "ok, A Par - Bur", "A Par - Bur instead of ..." */
	g.c = c;
	g.held = held;
	g.lx = &lx;
	g.rd = &rd;
	g.i = 0;
	g.first_unknown = 0;
	g.err[0] = '\0';
	rd.kind = ORDER_NONE;
	rd.explicit_power = 0;
	rd.power = rd.target_power = rd.dest_power = POWER_NONE;
	rd.type = rd.target_type = UNIT_NONE;
	rd.via = rd.route = rd.support_hold = rd.nprefs = rd.bare = rd.heading = 0;
	rd.power_note[0] = '\0';
	rd.unit.used = rd.target.used = rd.dest.used = 0;
	rd.prefs = prefs;
	rd.lx = &lx;
	if (parse_reading(&g, &rd) < 0) {
		refuse(r, "%s", g.err);
		r->not_order = (unsigned char)g.first_unknown;
		return;
	}
	if (rd.heading) {
		r->heading = rd.power;	/* "Austria:": BLANK, and whose orders follow */
		return;
	}
	/* Trailing matter: commas and politeness are fine; a bracketed remark
	 * is ignored, and the note says so, unless it looks like part of the
	 * order. */
	while (g.i < lx.n && (lx.t[g.i].kind == TK_COMMA || lx.t[g.i].kw == KW_POLITE))
		g.i++;
	if (g.i < lx.n && lx.t[g.i].kind != TK_LPAREN) {
		refuse_trailing(&g, r);
		return;
	}
	if (g.i < lx.n && remark(&g, r) < 0)
		return;
	if (rd.dest_power != POWER_NONE && rd.dest.used) {
		/* A word that is both a place and a power: the board decides. */
		struct interp in = { c, &rd, ctx_phase(c), rd.explicit_power ? rd.power : c->power,
			own_set(c, held, &rd) };
		struct reading ins = rd;
		const struct unit *u;
		int i, j, move_fits = 0, ins_fits = 0;
		ins.kind = ORDER_INSURRECTION;
		ins.dest.used = 0;
		for (i = 0; i < rd.unit.n; i++) {
			in.rd = &ins;
			ins_fits |= plausible(&in, rd.unit.c[i].id, PROV_NONE, PROV_NONE, &u) == FIT_OK;
			in.rd = &rd;
			for (j = 0; j < rd.dest.n; j++)
				move_fits |= plausible(&in, rd.unit.c[i].id, PROV_NONE,
				    rd.dest.c[j].id, &u) == FIT_OK;
		}
		if (ins_fits == move_fits) {
			refuse(r, "\"%s\" is both a place and a power: a move to %s or an "
			    "insurrection for %s?", lx_text(&lx, &rd.dest), c->m->provs[rd.dest.c[0].id].name,
			    c->m->powers[rd.dest_power].name);
			return;
		}
		if (ins_fits) {
			rd.kind = ORDER_INSURRECTION;
			rd.dest.used = 0;
		}
	}
	if (interpret(c, held, &rd, r) < 0)
		return;
	if (cut[0])
		note_add(r->note, "\"%s\" ignored", cut);
	r->bare = rd.bare;
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

void
order_format_result(const struct map *m, const struct parse_result *r, struct buf *out)
{
	if (r->verdict != VERDICT_ACCEPTED && r->verdict != VERDICT_CORRECTED)
		return;
	if (r->order.power != POWER_NONE)
		buf_printf(out, "%s: ", m->powers[r->order.power].name);
	if (r->order.kind == ORDER_REVIVE)
		order_format_prefs(m, &r->prefs, ORDER_SHORT, out);
	else
		order_format(m, &r->order, ORDER_SHORT, out);
}
