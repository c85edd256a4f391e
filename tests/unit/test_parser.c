/*
 * test_parser.c — the order parser (parser/orders.c) and its name index
 * (parser/names.c).
 *
 * The bulk of the parser's tests is the golden file tests/data/parser/orders.golden
 * (its format is described in parser/README.md): every line is an input, the
 * verdict expected and the canonical order or a phrase of the note. Each
 * failing line is printed with what was expected and what came out.
 *
 *	build/tests/unit/test_parser                      run everything
 *	build/tests/unit/test_parser --print FILE         print FILE's cases with the
 *	                                             parser's actual results, in
 *	                                             the golden format
 */
#include "../support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../judge/engine/adjudicate.h"
#include "../../judge/engine/board.h"
#include "../../judge/engine/order.h"
#include "../../judge/engine/rules.h"
#include "../../lib/str.h"
#include "../../parser/names.h"
#include "../../parser/orders.h"

#define GOLDEN "tests/data/parser/orders.golden"

/* ------------------------------------------------------- golden runner -- */

struct golden {
	struct map *m;
	struct names *names;
	struct board b;
	int use_board;		/* 0: "@board none" */
	power_id power;
	uint32_t held;		/* @delegation: the sender's other powers */
	const char *fname;
	int lineno;
	int print;		/* --print: echo cases with actual results */
	int cases, passed;
	struct buf out;		/* failures (or the printed file) */
	int chatter;		/* each order case also written with chatter */
	int gen_cases, gen_good;
};

static void chatter_case(struct golden *g, const struct parse_ctx *c, const char *input,
    const char *want);

/* Undo the golden file's escapes (\| \\ \t \r \xHH) into out; returns its length. */
static size_t
unescape(const char *s, size_t n, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < n && o + 1 < size; i++) {
		if (s[i] != '\\' || i + 1 == n) {
			out[o++] = s[i];
			continue;
		}
		i++;
		switch (s[i]) {
		case 't':
			out[o++] = '\t';
			break;
		case 'r':
			out[o++] = '\r';
			break;
		case 'x':
			if (i + 2 < n) {
				char hex[3] = { s[i + 1], s[i + 2], '\0' };
				out[o++] = (char)strtol(hex, NULL, 16);
				i += 2;
			}
			break;
		default:
			out[o++] = s[i];	/* \| \\ */
			break;
		}
	}
	out[o] = '\0';
	return o;
}

/* Split a case line at unescaped " | " bars into at most 4 trimmed fields. */
static int
split_fields(char *line, char *f[4])
{
	int nf = 0;
	char *p = line, *start = line;

	for (; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '|' && nf < 3) {
			*p = '\0';
			f[nf++] = start;
			start = p + 1;
		}
	}
	f[nf++] = start;
	for (int i = 0; i < nf; i++) {
		char *e;
		while (*f[i] == ' ' || *f[i] == '\t')
			f[i]++;
		e = f[i] + strlen(f[i]);
		/* keep an escaped trailing blank ("\ ") */
		while (e > f[i] && (e[-1] == ' ' || e[-1] == '\t') && !(e - 1 > f[i] && e[-2] == '\\'))
			*--e = '\0';
	}
	return nf;
}

static void
golden_error(struct golden *g, const char *what)
{
	buf_printf(&g->out, "%s:%d: %s\n", g->fname, g->lineno, what);
	g->cases++;
}

/* Apply one board line ("unit England F nth", "owner ...", ...) to g->b. */
static void
golden_board_line(struct golden *g, const char *text)
{
	struct board t;
	struct buf err;
	int i;

	buf_init(&err, 4096);
	if (board_read(&t, g->m, text, strlen(text), &err) < 0) {
		golden_error(g, buf_str(&err));
		buf_free(&err);
		return;
	}
	buf_free(&err);
	g->b.year = t.year;
	g->b.season = t.season;
	g->b.phase = t.phase;
	for (i = 0; i < t.nunits; i++)
		board_add_unit(&g->b, (enum unit_type)t.units[i].type, t.units[i].power, t.units[i].loc);
	for (i = 0; i < t.ndislodged && g->b.ndislodged < BOARD_MAX_UNITS; i++)
		g->b.dislodged[g->b.ndislodged++] = t.dislodged[i];
	for (i = 0; i < g->m->nprovs; i++)
		if (t.owner[i] != POWER_NONE)
			g->b.owner[i] = t.owner[i];
	for (i = 0; i < MAP_WORDS(MAP_MAX_PROVS); i++)
		g->b.contested[i] |= t.contested[i];
}

static void
golden_directive(struct golden *g, char *s)
{
	char *arg = s + strcspn(s, " \t");

	if (*arg)
		*arg++ = '\0';
	arg = str_trim(arg);
	if (strcmp(s, "board") == 0) {
		g->use_board = 1;
		if (strcmp(arg, "start") == 0)
			board_init_start(&g->b, g->m);
		else if (strcmp(arg, "empty") == 0)
			board_init_empty(&g->b, g->m->start_year, SEASON_SPRING, PHASE_MOVEMENT);
		else if (strcmp(arg, "none") == 0)
			g->use_board = 0;
		else
			golden_error(g, "@board takes start, empty or none");
	} else if (strcmp(s, "phase") == 0 || strcmp(s, "unit") == 0 ||
	    strcmp(s, "dislodged") == 0 || strcmp(s, "owner") == 0 ||
	    strcmp(s, "contested") == 0) {
		char line[256], ph[48];
		snprintf(line, sizeof line, "phase %s\n%s %s\n", phase_format(&g->b, ph, sizeof ph), s,
		    arg);
		golden_board_line(g, line);
	} else if (strcmp(s, "vacate") == 0) {
		prov_id p = map_find_province(g->m, arg);
		int i;
		if (p == PROV_NONE)
			golden_error(g, "@vacate: unknown province");
		while ((i = board_unit_in(&g->b, g->m, p)) >= 0)
			board_remove_unit(&g->b, i);
	} else if (strcmp(s, "power") == 0) {
		g->power = strcmp(arg, "none") == 0 ? POWER_NONE : map_find_power(g->m, arg);
		g->held = 0;
		if (g->power == POWER_NONE && strcmp(arg, "none") != 0)
			golden_error(g, "@power: unknown power");
	} else if (strcmp(s, "delegation") == 0) {
		/* "@delegation England Germany Austria": the first sends, holding all */
		char *w = arg;
		g->power = POWER_NONE;
		g->held = 0;
		while (*w) {
			size_t k = strcspn(w, " \t");
			char end = w[k];
			power_id p;
			w[k] = '\0';
			p = map_find_power(g->m, w);
			if (p == POWER_NONE)
				golden_error(g, "@delegation: unknown power");
			else if (g->power == POWER_NONE)
				g->power = p;
			else
				g->held |= 1u << p;
			w += k + (end != '\0');
			while (*w == ' ' || *w == '\t')
				w++;
		}
	} else if (strcmp(s, "option") == 0) {
		char *val = arg + strcspn(arg, " \t");
		if (*val)
			*val++ = '\0';
		if (strcmp(arg, "realpolitik") == 0) {
			/* The golden file's older form: the Realpolitik system
			 * on or off (its grammar goes with it). */
			str_copy(g->m->system, !*val || strcmp(str_trim(val), "yes") == 0 ?
			    "realpolitik" : "", sizeof g->m->system);
		} else {
			map_set_option(g->m, arg, *val ? str_trim(val) : "yes");
		}
	} else {
		golden_error(g, "unknown directive");
	}
}

static void
golden_case(struct golden *g, char *line)
{
	char *f[4] = { NULL, NULL, NULL, NULL };
	char input[PARSE_MAX_LINE * 4];
	struct parse_ctx c = { g->m, g->names, g->use_board ? &g->b : NULL, g->power };
	struct parse_result r;
	struct buf canon;
	const char *verdict;
	int nf, ok;
	size_t n;

	nf = split_fields(line, f);
	n = unescape(f[0], strlen(f[0]), input, sizeof input);
	order_parse_held(&c, g->held, input, n, &r);
	/* A refused line that is plainly not an order: "ignored" (the judge
	 * lists it as such instead of refusing it). A power's name alone: a
	 * "heading", its power the expected text. Several whole orders: "split",
	 * each one's canonical text, joined by " ; ". */
	verdict = r.verdict == VERDICT_REFUSED && r.chat ? "ignored" : verdict_name(r.verdict);
	buf_init(&canon, 4096);
	order_format_result(g->m, &r, &canon);
	if (r.verdict == VERDICT_BLANK && r.heading != POWER_NONE) {
		verdict = "heading";
		buf_puts(&canon, g->m->powers[r.heading].name);
	}
	if (r.verdict == VERDICT_REFUSED && r.nparts > 0) {
		verdict = "split";
		for (int k = 0; k < r.nparts; k++) {
			struct parse_result pr;
			order_parse_held(&c, g->held, input + r.part[k].off, r.part[k].len, &pr);
			if (k > 0)
				buf_puts(&canon, " ; ");
			order_format_result(g->m, &pr, &canon);
		}
	}
	g->cases++;
	if (g->print) {
		buf_printf(&g->out, "%s | %s", f[0], verdict);
		if (r.verdict == VERDICT_CORRECTED)
			buf_printf(&g->out, " | %s | %s", buf_str(&canon), r.note);
		else if (r.verdict == VERDICT_ACCEPTED || canon.len > 0)
			buf_printf(&g->out, " | %s", buf_str(&canon));
		else if (r.verdict == VERDICT_REFUSED && !r.chat)
			buf_printf(&g->out, " | %s", r.note);
		buf_putc(&g->out, '\n');
		buf_free(&canon);
		return;
	}
	if (nf < 2) {
		golden_error(g, "expected: INPUT | VERDICT [| ...]");
		buf_free(&canon);
		return;
	}
	ok = strcmp(f[1], verdict) == 0;
	if (ok && (r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED ||
	    r.heading != POWER_NONE || r.nparts > 0))
		ok = nf >= 3 && strcmp(f[2], buf_str(&canon)) == 0;
	if (ok && g->chatter && !r.bare && strchr(f[0], '\\') == NULL &&
	    (r.verdict == VERDICT_ACCEPTED || r.verdict == VERDICT_CORRECTED))
		chatter_case(g, &c, input, buf_str(&canon));
	if (ok && r.verdict == VERDICT_CORRECTED && nf >= 4)
		ok = strstr(r.note, f[3]) != NULL;
	if (ok && r.verdict == VERDICT_REFUSED && nf >= 3 && !r.chat && r.nparts == 0)
		ok = strstr(r.note, f[2]) != NULL;
	if (ok) {
		g->passed++;
	} else {
		buf_printf(&g->out, "%s:%d: %s\n  expected: %s", g->fname, g->lineno, f[0], f[1]);
		if (nf >= 3)
			buf_printf(&g->out, " | %s", f[2]);
		if (nf >= 4)
			buf_printf(&g->out, " | %s", f[3]);
		buf_printf(&g->out, "\n  actual:   %s", verdict);
		if (canon.len)
			buf_printf(&g->out, " | %s", buf_str(&canon));
		if (r.note[0])
			buf_printf(&g->out, " | %s", r.note);
		buf_putc(&g->out, '\n');
	}
	buf_free(&canon);
}

/* Run (or print) a golden file. Returns the number of failures. */
static int
golden_run(struct golden *g, const char *path)
{
	struct buf file;
	const char *p, *end, *line;
	size_t n;

	test_read_file(path, &file);
	g->fname = path;
	g->lineno = 0;
	g->use_board = 1;
	g->power = POWER_NONE;
	board_init_start(&g->b, g->m);
	p = buf_str(&file);
	end = p + file.len;
	while ((line = str_next_line(&p, end, &n)) != NULL) {
		char s[PARSE_MAX_LINE * 4];
		char *t;

		g->lineno++;
		if (n >= sizeof s) {
			golden_error(g, "line too long for the golden file");
			continue;
		}
		memcpy(s, line, n);
		s[n] = '\0';
		t = s;
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '\0' || *t == '#') {
			if (g->print)
				buf_printf(&g->out, "%s\n", s);
			continue;
		}
		if (*t == '@') {
			if (g->print)
				buf_printf(&g->out, "%s\n", s);
			golden_directive(g, t + 1);
			continue;
		}
		golden_case(g, t);
	}
	buf_free(&file);
	return g->cases - g->passed;
}

static void
test_golden(void **state)
{
	struct golden g;
	int failed;

	(void)state;
	memset(&g, 0, sizeof g);
	g.m = test_load_standard_map();
	g.names = names_new(g.m);
	buf_init(&g.out, 1 << 22);
	failed = golden_run(&g, GOLDEN);
	printf("golden file %s: %d cases, %d passed\n", GOLDEN, g.cases, g.passed);
	if (failed)
		printf("%s", buf_str(&g.out));
	buf_free(&g.out);
	names_free(g.names);
	map_free(g.m);
	assert_int_equal(failed, 0);
	assert_true(g.cases >= 400);
}

/* ------------------------------------------------- generated wording -- */

/* name with one typing slip: two neighbouring letters swapped in its
 * longest word, past the first letter ("Bugrundy"), into out. */
static void
slip(const char *name, char *out, size_t size)
{
	size_t i, best = 0, bestlen = 0, n = strlen(name), k;

	snprintf(out, size, "%s", name);
	for (i = 0; i < n; i = k + 1) {
		k = i + strcspn(name + i, " ");
		if (k - i > bestlen) {
			best = i;
			bestlen = k - i;
		}
	}
	for (i = best + 1; i + 1 < best + bestlen; i++)
		if (out[i] != out[i + 1]) {
			char c = out[i];
			out[i] = out[i + 1];
			out[i + 1] = c;
			return;
		}
}

/* The delegations of a school game: the first of each sends. */
static const char *const school[][3] = {
	{ "England", "Germany", "Austria" }, { "Russia", "Italy", NULL },
	{ "France", "Turkey", NULL },
};

/* The delegation holding pw: its sender into *sender, the others as a set. */
static uint32_t
school_held(const struct map *m, power_id pw, power_id *sender)
{
	uint32_t held = 0;
	int d, k;

	for (d = 0; d < 3; d++) {
		for (k = 0; k < 3 && school[d][k] && map_find_power(m, school[d][k]) != pw; k++)
			;
		if (k == 3 || school[d][k] == NULL)
			continue;
		*sender = map_find_power(m, school[d][0]);
		for (k = 1; k < 3 && school[d][k]; k++)
			held |= 1u << map_find_power(m, school[d][k]);
		return held;
	}
	*sender = pw;
	return 0;
}

/* A case that did not read as meant: printed, counted. */
static int
gen_check(const struct parse_ctx *c, uint32_t held, const char *line, const char *want,
    int split)
{
	struct parse_result r;
	struct buf got;
	int ok, k;

	buf_init(&got, 1024);
	order_parse_held(c, held, line, strlen(line), &r);
	if (split && r.verdict == VERDICT_REFUSED && r.nparts > 0) {
		for (k = 0; k < r.nparts; k++) {
			struct parse_result pr;
			order_parse_held(c, held, line + r.part[k].off, r.part[k].len, &pr);
			if (k > 0)
				buf_puts(&got, " ; ");
			order_format_result(c->m, &pr, &got);
		}
	} else if (!split) {
		order_format_result(c->m, &r, &got);
	}
	ok = strcmp(buf_str(&got), want) == 0;
	if (!ok)
		printf("generated: %s\n  want: %s\n  got:  %s %s\n", line, want,
		    verdict_name(r.verdict), r.verdict == VERDICT_REFUSED ? r.note : buf_str(&got));
	buf_free(&got);
	return ok;
}

/* A generator's end: its count printed ("generated wording: N what, M
 * read as meant"), its buffers, names and map freed; every case must have
 * been read as meant, and there must be more than min. */
static void
gen_end(struct buf *bf, struct names *nm, struct map *m, const char *what, int cases, int good,
    int min)
{
	int i;

	printf("generated wording: %d %s, %d read as meant\n", cases, what, good);
	for (i = 0; i < 3; i++)
		buf_free(&bf[i]);
	names_free(nm);
	map_free(m);
	assert_int_equal(good, cases);
	assert_true(cases > min);
}

/* The three buffers of a generator. */
static void
gen_bufs(struct buf *bf)
{
	int i;

	for (i = 0; i < 3; i++)
		buf_init(&bf[i], 1024);
}

/*
 * Every move of every unit on the standard board at the start, written
 * the ways pupils write it (abbreviations, full names, a typing slip in
 * either place; "instead", "please", a full stop, "our army in X moves to
 * Y", "move A X to Y", a remark, two orders joined by "and"), read for the
 * school game's delegation holding the unit's power (the GAME line naming
 * the delegation's first power), must be that move of that power.
 */
static void
test_generated_wording(void **state)
{
	/* Before the unit, between the places, after the destination. */
	static const char *const wraps[][3] = {
		{ "", " - ", "" }, { "", " - ", " instead" }, { "", " - ", " please" },
		{ "", " - ", "." }, { "", " to ", " pls" }, { "ok, ", " - ", "" },
		{ "move ", " to ", "" }, { "", " moves to ", "!" },
		{ "", " - ", " (changed my mind)" }, { "then ", " - ", "" },
		{ "", " - ", " instead of holding" },
	};
	struct map *m = test_load_standard_map();
	struct names *nm = names_new(m);
	struct buf bf[3], *line = &bf[0], *want = &bf[1], *both = &bf[2];
	struct board b;
	int i, j, k, p, su, sd, w, cases = 0, good = 0;

	(void)state;
	board_init_start(&b, m);
	gen_bufs(bf);
	for (i = 0; i < b.nunits; i++) {
		const struct unit *u = &b.units[i], *other = NULL;
		prov_id up = m->locs[u->loc].prov;
		power_id sender;
		uint32_t held = school_held(m, u->power, &sender);
		struct parse_ctx c = { m, nm, &b, sender };
		const char *uw = u->type == UNIT_ARMY ? "army" : "fleet";
		char ul = unit_letter((enum unit_type)u->type);
		char uname[3][64], dname[3][64];

		/* Another power's unit in the same delegation, for two orders on a line. */
		for (j = 0; j < b.nunits && other == NULL; j++)
			if (b.units[j].power != u->power && (b.units[j].power == sender ||
			    (held >> b.units[j].power & 1u)))
				other = &b.units[j];
		snprintf(uname[0], sizeof uname[0], "%s", m->provs[up].abbr);
		snprintf(uname[1], sizeof uname[1], "%s", m->provs[up].name);
		slip(m->provs[up].name, uname[2], sizeof uname[2]);
		for (p = 0; p < m->nprovs; p++) {
			struct order o;
			loc_id dest = m->provs[p].loc;
			int ncoast = 0;
			if (p == up || !map_reaches(m, (enum unit_type)u->type, u->loc, (prov_id)p))
				continue;
			for (k = 0; u->type == UNIT_FLEET && k < m->provs[p].ncoasts; k++)
				if (map_adjacent(m, UNIT_FLEET, u->loc, m->provs[p].coast[k])) {
					dest = m->provs[p].coast[k];
					ncoast++;
				}
			if (ncoast > 1)
				continue;	/* two coasts: the coast must be written */
			memset(&o, 0, sizeof o);
			o.kind = ORDER_MOVE;
			o.power = u->power;
			o.type = u->type;
			o.loc = u->loc;
			o.dest = dest;
			o.target = LOC_NONE;
			o.target_power = POWER_NONE;
			buf_truncate(want, 0);
			buf_printf(want, "%s: ", m->powers[u->power].name);
			order_format(m, &o, ORDER_SHORT, want);
			snprintf(dname[0], sizeof dname[0], "%s", m->provs[p].abbr);
			snprintf(dname[1], sizeof dname[1], "%s", m->provs[p].name);
			slip(m->provs[p].name, dname[2], sizeof dname[2]);
			for (su = 0; su < 3; su++) {
				for (sd = 0; sd < 3; sd++) {
					for (w = 0; w < (int)(sizeof wraps / sizeof wraps[0]); w++) {
						buf_truncate(line, 0);
						buf_printf(line, "%s%c %s%s%s%s", wraps[w][0], ul, uname[su],
						    wraps[w][1], dname[sd], wraps[w][2]);
						cases++;
						good += gen_check(&c, held, buf_str(line), buf_str(want), 0);
					}
					buf_truncate(line, 0);
					buf_printf(line, "our %s in %s moves to %s", uw, uname[su], dname[sd]);
					cases++;
					good += gen_check(&c, held, buf_str(line), buf_str(want), 0);
					if (other == NULL)
						continue;
					/* This move and another power's hold, on one line. */
					buf_truncate(line, 0);
					buf_printf(line, "%c %s - %s and %c %s H", ul, uname[su], dname[sd],
					    unit_letter((enum unit_type)other->type),
					    m->provs[m->locs[other->loc].prov].abbr);
					buf_truncate(both, 0);
					buf_printf(both, "%s ; %s: %c %s H", buf_str(want),
					    m->powers[other->power].name,
					    unit_letter((enum unit_type)other->type), m->locs[other->loc].name);
					cases++;
					good += gen_check(&c, held, buf_str(line), buf_str(both), 1);
				}
			}
		}
	}
	gen_end(bf, nm, m, "orders", cases, good, 5000);
}

/*
 * Every build of every power in its home centres, in a Winter with all
 * of them owned and empty, written as pupils write it ("Build A X",
 * "build an army in X", "B F X", a typing slip, "please", "ok,", two
 * builds on one line), read for the school game's delegation holding the
 * power, must be that power's build.
 */
static void
test_generated_builds(void **state)
{
	static const char *const wraps[][2] = {
		{ "Build ", "" }, { "build ", " please" }, { "B ", "" }, { "ok, build ", "" },
		{ "build ", "." }, { "then build ", "" },
	};
	struct map *m = test_load_standard_map();
	struct names *nm = names_new(m);
	struct buf bf[3], *line = &bf[0], *want = &bf[1], *both = &bf[2];
	struct board b;
	int p, t, sn, w, q, cases = 0, good = 0;

	(void)state;
	board_init_empty(&b, m->start_year, SEASON_WINTER, PHASE_ADJUSTMENT);
	for (p = 0; p < m->nprovs; p++)
		if (m->provs[p].supply && m->provs[p].home != POWER_NONE)
			b.owner[p] = m->provs[p].home;
	gen_bufs(bf);
	for (p = 0; p < m->nprovs; p++) {
		power_id home = m->provs[p].home, sender;
		uint32_t held;
		struct parse_ctx c = { m, nm, &b, POWER_NONE };
		char name[3][64];
		if (!m->provs[p].supply || home == POWER_NONE)
			continue;
		held = school_held(m, home, &sender);
		c.power = sender;
		snprintf(name[0], sizeof name[0], "%s", m->provs[p].abbr);
		snprintf(name[1], sizeof name[1], "%s", m->provs[p].name);
		slip(m->provs[p].name, name[2], sizeof name[2]);
		/* Another home centre of the delegation, not this one's power. */
		for (q = 0; q < m->nprovs; q++)
			if (m->provs[q].supply && m->provs[q].home != POWER_NONE &&
			    m->provs[q].home != home && m->provs[q].terrain == TERRAIN_LAND &&
			    (m->provs[q].home == sender || (held >> m->provs[q].home & 1u)))
				break;
		for (t = UNIT_ARMY; t <= UNIT_FLEET; t++) {
			const char *tw = t == UNIT_ARMY ? "A" : "F";
			if (t == UNIT_FLEET && (m->provs[p].terrain == TERRAIN_LAND ||
			    m->provs[p].ncoasts > 1))
				continue;	/* inland, or two coasts: the coast must be written */
			buf_truncate(want, 0);
			buf_printf(want, "%s: Build %s %s", m->powers[home].name, tw, m->provs[p].abbr);
			for (sn = 0; sn < 3; sn++) {
				for (w = 0; w < (int)(sizeof wraps / sizeof wraps[0]); w++) {
					buf_truncate(line, 0);
					buf_printf(line, "%s%s %s%s", wraps[w][0], tw, name[sn], wraps[w][1]);
					cases++;
					good += gen_check(&c, held, buf_str(line), buf_str(want), 0);
				}
				buf_truncate(line, 0);
				buf_printf(line, "build %s in %s", t == UNIT_ARMY ? "an army" : "a fleet",
				    name[sn]);
				cases++;
				good += gen_check(&c, held, buf_str(line), buf_str(want), 0);
				if (q == m->nprovs)
					continue;
				buf_truncate(line, 0);
				buf_printf(line, "build %s %s, build a %s", tw, name[sn], m->provs[q].name);
				buf_truncate(both, 0);
				buf_printf(both, "%s ; %s: Build A %s", buf_str(want),
				    m->powers[m->provs[q].home].name, m->provs[q].abbr);
				cases++;
				good += gen_check(&c, held, buf_str(line), buf_str(both), 1);
			}
		}
	}
	gen_end(bf, nm, m, "builds", cases, good, 500);
}

/*
 * Chatter around every order of the golden file (each accepted or
 * corrected case, in its context, but a unit alone: "sorry, A Par" is no
 * order): words before it ("sorry i meant", "oh ok."), after it ("then",
 * "as well"), both, and each command word misspelt ("bild", "movs",
 * "armee"), must read as the same order.
 */
static void
chatter_case(struct golden *g, const struct parse_ctx *c, const char *input, const char *want)
{
	static const char *const lead[] = { "sorry i meant ", "oh ok. ", "hey, ", "so ",
		"well, ", "i want to ", "sorry, " };
	static const char *const tail[] = { " then", " too", " as well", " aswell", " thanks",
		" thank you", " now" };
	static const char *const slips[][2] = { { "army", "armee" }, { "fleet", "flet" },
		{ "build", "bild" }, { "moves", "movs" }, { "move", "mvoe" }, { "holds", "holsd" },
		{ "supports", "suports" }, { "support", "suport" }, { "convoys", "convois" },
		{ "convoy", "convoi" }, { "retreat", "retret" }, { "disband", "disbnd" },
		{ "remove", "remvoe" } };
	enum { NL = sizeof lead / sizeof lead[0], NT = sizeof tail / sizeof tail[0] };
	char line[PARSE_MAX_LINE * 4 + 64], word[32];
	size_t i, n;
	const char *p;

	if (strchr(input, '#') != NULL)
		return;	/* a comment: what follows it is not read */
	/* Each word before it, each after it, and the first of each together. */
	for (i = 0; i < NL + NT + 1; i++) {
		snprintf(line, sizeof line, "%s%s%s", i < NL ? lead[i] : i == NL + NT ? lead[0] : "",
		    input, i >= NL && i < NL + NT ? tail[i - NL] : i == NL + NT ? tail[0] : "");
		g->gen_cases++;
		g->gen_good += gen_check(c, g->held, line, want, 0);
	}
	/* Each command word misspelt, alone. */
	for (p = input; *p; p += n) {
		n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
		if (n == 0) {
			n = 1;
			continue;
		}
		if (n >= sizeof word || (p > input && p[-1] == '-'))
			continue;	/* "A Par-holds": after an arrow, a place */
		memcpy(word, p, n);
		word[n] = '\0';
		str_lower(word);
		for (i = 0; i < sizeof slips / sizeof slips[0]; i++)
			if (strcmp(word, slips[i][0]) == 0) {
				snprintf(line, sizeof line, "%.*s%s%s", (int)(p - input), input,
				    slips[i][1], p + n);
				g->gen_cases++;
				g->gen_good += gen_check(c, g->held, line, want, 0);
			}
	}
}

/* The golden file's orders written with chatter (chatter_case): every
 * one must read as the order the golden file expects. */
static void
test_generated_chatter(void **state)
{
	struct golden g;

	(void)state;
	memset(&g, 0, sizeof g);
	g.m = test_load_standard_map();
	g.names = names_new(g.m);
	g.chatter = 1;
	buf_init(&g.out, 1 << 22);
	golden_run(&g, GOLDEN);
	printf("generated wording: %d orders with chatter, %d read as meant\n", g.gen_cases,
	    g.gen_good);
	buf_free(&g.out);
	names_free(g.names);
	map_free(g.m);
	assert_int_equal(g.gen_good, g.gen_cases);
	assert_true(g.gen_cases > 5000);
}

/* ------------------------------------------------------ names.c tests -- */

static void
test_normalise(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(names_normalise("St. Petersburg", 14, out, sizeof out), 13);
	assert_string_equal(out, "st petersburg");
	names_normalise("  Mid-Atlantic   Ocean ", 23, out, sizeof out);
	assert_string_equal(out, "mid atlantic ocean");
	names_normalise("Gulf_of_Lyon", 12, out, sizeof out);
	assert_string_equal(out, "gulf of lyon");
	names_normalise("D'Artagnan", 10, out, sizeof out);
	assert_string_equal(out, "dartagnan");
	/* truncation keeps a terminated string */
	assert_int_equal(names_normalise("Burgundy", 8, out, 4), 3);
	assert_string_equal(out, "bur");
	assert_int_equal(names_normalise("", 0, out, sizeof out), 0);
	assert_string_equal(out, "");
}

static void
test_fold_utf8(void **state)
{
	char out[64];
	const char *s;

	(void)state;
	s = "M\xc3\xbcnchen";	/* München */
	names_normalise(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "munchen");
	s = "Stra\xc3\x9f" "e";	/* Straße */
	names_normalise(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "strasse");
	s = "\xc5\x81\xc3\xb3\x64\xc5\xba";	/* Łódź */
	names_normalise(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "lodz");
	s = "A Par\xe2\x80\x93" "Bur";	/* en dash */
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "a par-bur");
	s = "A Par \xe2\x86\x92 Bur";	/* arrow */
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "a par -> bur");
	s = "A\xc2\xa0Par";	/* no-break space */
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "a par");
	/* invalid and truncated sequences are dropped, never read past the end */
	s = "a\xff\xfe" "b\xc3";
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "ab");
	s = "\xe2\x80";
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "");
	/* characters outside the BMP are dropped */
	s = "x\xf0\x9f\x98\x80y";
	names_fold(s, strlen(s), out, sizeof out);
	assert_string_equal(out, "xy");
	/* a full buffer is terminated */
	assert_int_equal(names_fold("ABCDEF", 6, out, 4), 3);
	assert_string_equal(out, "abc");
}

static void
test_tiers(void **state)
{
	const struct map *m = test_standard_map();
	struct names *n = names_new(m);
	struct name_cand c[NAMES_MAX_CAND];
	int k;

	(void)state;
	k = names_provinces(n, "par", c);
	assert_int_equal(k, 1);
	assert_int_equal(c[0].tier, NAME_EXACT);
	assert_int_equal(c[0].id, map_find_province(m, "par"));
	k = names_provinces(n, "north atlantic ocean", c);
	assert_int_equal(k, 1);
	assert_int_equal(c[0].tier, NAME_EXACT);
	assert_int_equal(names_province_exact(n, "nat"), map_find_province(m, "nao"));
	assert_int_equal(names_province_exact(n, "nowhere"), PROV_NONE);
	/* "nor": a beginning of Norway and of the Norwegian Sea */
	k = names_provinces(n, "nor", c);
	assert_true(k >= 2);
	assert_int_equal(c[0].tier, NAME_PREFIX);
	/* "burgandy": one letter wrong */
	k = names_provinces(n, "burgandy", c);
	assert_int_equal(k, 1);
	assert_int_equal(c[0].tier, NAME_FUZZY);
	assert_int_equal(c[0].dist, 1);
	assert_int_equal(c[0].id, map_find_province(m, "bur"));
	/* short words are never fuzzy */
	assert_int_equal(names_provinces(n, "xyz", c), 0);
	/* powers: names, adjectives, letters, aliases */
	assert_int_equal(names_powers(n, "russian", c), 1);
	assert_int_equal(c[0].id, map_find_power(m, "Russia"));
	assert_int_equal(names_powers(n, "e", c), 1);
	assert_int_equal(c[0].id, map_find_power(m, "England"));
	assert_int_equal(names_powers(n, "britain", c), 1);
	assert_int_equal(names_powers(n, "ingland", c), 1);
	assert_int_equal(c[0].tier, NAME_FUZZY);
	assert_true(names_is_name_start(n, "north"));
	assert_false(names_is_name_start(n, "burgundy"));
	names_free(n);
}

static void
test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(str_edit_distance("burgundy", 8, "burgundy", 8, 3), 0);
	assert_int_equal(str_edit_distance("burgandy", 8, "burgundy", 8, 3), 1);
	assert_int_equal(str_edit_distance("bugrundy", 8, "burgundy", 8, 3), 1); /* transposition */
	assert_int_equal(str_edit_distance("bargandy", 8, "burgundy", 8, 3), 2);
	assert_int_equal(str_edit_distance("burgundy", 8, "bur", 3, 2), 3); /* over the limit */
	assert_int_equal(str_edit_distance("BURGUNDY", 8, "burgundy", 8, 0), 0);
	assert_int_equal(str_edit_distance("", 0, "abc", 3, 5), 3);
}

/* Parse text on board b with a fresh map whose rule option is on; the
 * order must be accepted. */
static struct order
parse_variant(struct map *m, const struct names *n, const struct board *b, const char *text,
    struct order_prefs *prefs)
{
	struct parse_ctx c = { m, n, b, POWER_NONE };
	struct parse_result r;

	order_parse(&c, text, strlen(text), &r);
	if (r.verdict != VERDICT_ACCEPTED)
		fail_msg("%s: %s (%s)", text, verdict_name(r.verdict), r.note);
	if (prefs)
		*prefs = r.prefs;
	return r.order;
}

/* The standard adjudicator does not carry out variant orders: it answers
 * them with R_WRONG_PHASE and the units hold. */
static void
test_variant_orders_not_adjudicated(void **state)
{
	struct map *m = test_load_standard_map();
	struct names *n = names_new(m);
	struct phase_result *res = malloc(sizeof *res);
	struct order_prefs prefs;
	struct order o[4];
	struct rules rules;
	struct board b;

	(void)state;
	assert_non_null(res);
	map_set_option(m, "insurrection", "yes");
	str_copy(m->system, "realpolitik", sizeof m->system);	/* armies board */
	rules_init(&rules, EDITION_2023);
	board_init_start(&b, m);
	o[0] = parse_variant(m, n, &b, "England: F Lon - Turkey", NULL);
	o[1] = parse_variant(m, n, &b, "Russia: Revive: Moscow, Warsaw", &prefs);
	o[2] = parse_variant(m, n, &b, "France: A Par embarks F Bre", NULL);
	o[3] = parse_variant(m, n, &b, "Germany: A Mun lands", NULL);
	assert_int_equal(o[0].kind, ORDER_INSURRECTION);
	assert_int_equal(o[0].target_power, map_find_power(m, "Turkey"));
	assert_int_equal(o[1].kind, ORDER_REVIVE);
	assert_int_equal(prefs.n, 2);
	assert_int_equal(prefs.prov[0], map_find_province(m, "mos"));
	assert_int_equal(prefs.prov[1], map_find_province(m, "war"));
	assert_int_equal(o[2].kind, ORDER_EMBARK);
	assert_int_equal(o[3].kind, ORDER_LAND);
	adj_resolve(m, &rules, &b, o, 4, res, NULL);
	for (int i = 0; i < 4; i++)
		assert_int_equal(res->reason[i], R_WRONG_PHASE);
	assert_int_equal(res->after.nunits, b.nunits);
	b.phase = PHASE_ADJUSTMENT;
	b.season = SEASON_WINTER;
	adj_resolve(m, &rules, &b, o, 4, res, NULL);
	for (int i = 0; i < 4; i++)
		assert_int_equal(res->reason[i], R_WRONG_PHASE);
	free(res);
	names_free(n);
	map_free(m);
}

/* The order stays small: it is copied for every order of every phase. */
static void
test_order_size(void **state)
{
	(void)state;
	assert_true(sizeof(struct order) <= 12);
}

/* Each of the n lines of list gives want from is (a reader of a line). */
static void
each_line(bool (*is)(const char *, size_t), const char *const *list, size_t n, bool want,
    const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (is(list[i], strlen(list[i])) != want)
			fail_msg("'%s' %s %s", list[i], want ? "is" : "is not", what);
}

/* The lines a delegation means as orders: never taken for a signature
 * (order_word_in), and "all others hold" for every unit without an order
 * (order_all_hold), but not a hold with more in it. */
static void
test_meant_as_orders(void **state)
{
	static const char *const word[] = { "we waive this time", "all others hold",
		"ok we build one in paris", "Retreat!" };
	static const char *const none[] = { "Alice Smith", "Thanks, Bob", "Army of one",
		"Fleet Street School", "hi" };
	static const char *const all[] = { "all others hold", "all hold pls", "the rest hold",
		"all units hold", "Everyone holds, thanks", "we hold all the others" };
	static const char *const not_all[] = { "hold", "A Par H", "all hold but A Par",
		"all others hold then A Mar - Spa", "all others", "all hold and hold" };

	(void)state;
	each_line(order_word_in, word, sizeof word / sizeof *word, true, "with an order word");
	each_line(order_word_in, none, sizeof none / sizeof *none, false, "with an order word");
	each_line(order_all_hold, all, sizeof all / sizeof *all, true, "every unit holding");
	each_line(order_all_hold, not_all, sizeof not_all / sizeof *not_all, false,
	    "every unit holding");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalise),
		cmocka_unit_test(test_fold_utf8),
		cmocka_unit_test(test_tiers),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_generated_wording),
		cmocka_unit_test(test_generated_builds),
		cmocka_unit_test(test_generated_chatter),
		cmocka_unit_test(test_variant_orders_not_adjudicated),
		cmocka_unit_test(test_order_size),
		cmocka_unit_test(test_meant_as_orders),
	};

	if (argc == 3 && strcmp(argv[1], "--print") == 0) {
		struct golden g;

		memset(&g, 0, sizeof g);
		g.m = test_load_standard_map();
		g.names = names_new(g.m);
		g.print = 1;
		buf_init(&g.out, 1 << 24);
		golden_run(&g, argv[2]);
		fputs(buf_str(&g.out), stdout);
		buf_free(&g.out);
		names_free(g.names);
		map_free(g.m);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
