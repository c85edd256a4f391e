/*
 * test_commands.c — the structure of a mail body: identification, orders,
 * commands, press blocks, quoted text and signatures; misspelt commands.
 */
#include "../support/testutil.h"

#include <string.h>

#include "../../parser/commands.h"

#define MAXL 64

static int
split(const char *text, struct body_line *out)
{
	return body_split(text, strlen(text), out, MAXL);
}

static void
assert_args(const struct body_line *bl, const char *want)
{
	assert_int_equal((int)bl->args_len, (int)strlen(want));
	assert_memory_equal(bl->args, want, strlen(want));
}

/* "Orders for Austria:" heads a power's orders; it is not the ORDERS
 * command, which "ORDERS REPLACE" and "Orders" alone still are. */
static void
test_orders_heading(void **state)
{
	static const char body[] = "ORDERS REPLACE\nOrders for Austria:\norders of Germany\nOrders\n";
	struct body_line l[MAXL];

	(void)state;
	assert_int_equal(body_split(body, strlen(body), l, MAXL), 4);
	assert_int_equal(l[0].kind, LINE_COMMAND);
	assert_int_equal(l[0].cmd, CMD_ORDERS);
	assert_int_equal(l[1].kind, LINE_TEXT);
	assert_int_equal(l[2].kind, LINE_TEXT);
	assert_int_equal(l[3].kind, LINE_COMMAND);
	assert_int_equal(l[3].cmd, CMD_ORDERS);
}

static void
test_whole_body(void **state)
{
	static const char body[] =
	    "GAME school1 England cedar-willow\r\n"
	    "  F Lon - Nth\r\n"
	    "Remove A Mun\n"
	    "REMOVE OBSERVER x@example.org\n"
	    "add observer y@example.org\n"
	    "PRESS TO France\n"
	    "Shall we talk?\n"
	    "\n"
	    "ORDERS are below\n"
	    "end press\n"
	    "> A Par - Bur\n"
	    "| quoted too\n"
	    "no wait\n"
	    "Vote: draw\n"
	    "-- \n"
	    "Alice\n"
	    "A Lvp - Yor\n";
	struct body_line l[MAXL];
	int n;

	/* Per line: its kind and, for commands, which. Inside a press block
	 * everything is press, commands included; REMOVE is a command only
	 * with OBSERVER after it; after "-- " nothing counts. */
	static const struct {
		enum line_kind kind;
		enum command cmd;
	} want[] = {
		{ LINE_IDENT, CMD_NONE }, { LINE_TEXT, CMD_NONE }, { LINE_TEXT, CMD_NONE },
		{ LINE_COMMAND, CMD_REMOVE_OBSERVER }, { LINE_COMMAND, CMD_ADD_OBSERVER },
		{ LINE_COMMAND, CMD_PRESS }, { LINE_PRESS, CMD_NONE }, { LINE_PRESS, CMD_NONE },
		{ LINE_PRESS, CMD_NONE }, { LINE_COMMAND, CMD_ENDPRESS }, { LINE_QUOTED, CMD_NONE },
		{ LINE_QUOTED, CMD_NONE }, { LINE_COMMAND, CMD_NOWAIT }, { LINE_COMMAND, CMD_VOTE },
		{ LINE_SIGNATURE, CMD_NONE }, { LINE_SIGNATURE, CMD_NONE }, { LINE_SIGNATURE, CMD_NONE },
	};
	int i;

	(void)state;
	n = split(body, l);
	assert_int_equal(n, (int)(sizeof want / sizeof want[0]));
	for (i = 0; i < n; i++) {
		assert_int_equal(l[i].kind, want[i].kind);
		assert_int_equal(l[i].cmd, want[i].cmd);
		assert_int_equal(l[i].lineno, i + 1);
	}
	assert_args(&l[0], "school1 England cedar-willow");
	assert_int_equal((int)l[1].len, 11);	/* trimmed, without the \r */
	assert_args(&l[3], "x@example.org");
	assert_args(&l[5], "TO France");
	assert_args(&l[13], "draw");
}

/* body's lines are of the kinds in kinds, one letter a line: T text, S
 * signature (the end of the mail), Q quoted. */
static void
assert_endings(const char *body, const char *kinds)
{
	struct body_line l[MAXL];
	int n = split(body, l), i;

	assert_int_equal(n, (int)strlen(kinds));
	for (i = 0; i < n; i++)
		assert_int_equal(l[i].kind, kinds[i] == 'T' ? LINE_TEXT :
		    kinds[i] == 'S' ? LINE_SIGNATURE : LINE_QUOTED);
}

static void
test_signatures_and_limits(void **state)
{
	struct body_line l[MAXL];
	char big[4 * MAXL + 8];
	int i;

	(void)state;
	/* A mobile footer ends the orders, and so does "--" without its blank;
	 * so does a reply header wrapped over two lines, at its first line,
	 * and an Outlook block ("Van:" with two header lines under it). */
	assert_endings("A Par H\nSent from my phone\nA Mar H\n", "TSS");
	assert_endings("A Par H\n--\nA Mar H\n", "TSS");
	assert_endings("A Par H\nOn Sat, Nov 28, 2026 at 11:00 AM pouch judge "
	    "<judge@example.test>\nwrote:\nA Mar H\n", "TSSS");
	assert_endings("A Par H\nVan: pouch judge\nVerzonden: zaterdag 28 november\n"
	    "Aan: eva\nA Mar H\n", "TSSSS");
	/* Not endings: a heading between dashes, a pupil's "wrote:" with no
	 * date or address, a line "From:" alone, a header line quoted. */
	assert_endings("--- Spring orders ---\nAs I wrote:\nFrom: Eva\nA Par H\n"
	    "> On Sat, 28 Nov 2026 at 11:00, pouch judge <judge@example.test> wrote:\nA Mar H\n",
	    "TTTTQT");
	/* A pupil's "confidential" is no notice, in press or not; a school's is. */
	assert_endings("Keep this confidential\nA Par H\n", "TT");
	assert_endings("This e-mail is confidential and intended for the addressee only.\nA Par H\n",
	    "SS");
	split("PRESS TO France\nThis is confidential: we attack Munich in the spring, ok?\n"
	    "ENDPRESS\nA Par H\n", l);
	assert_int_equal(l[1].kind, LINE_PRESS);
	assert_int_equal(l[2].cmd, CMD_ENDPRESS);
	assert_int_equal(l[3].kind, LINE_TEXT);
	/* A press message set out as a memo is no Outlook block. */
	split("PRESS TO France\nFrom: England\nTo: France\nSubject: Belgium\nENDPRESS\n", l);
	assert_int_equal(l[1].kind, LINE_PRESS);
	assert_int_equal(l[4].cmd, CMD_ENDPRESS);
	/* A press block left open runs to the end. */
	split("BROADCAST\nHello all\nA Par H\n", l);
	assert_int_equal(l[0].cmd, CMD_BROADCAST);
	assert_int_equal(l[2].kind, LINE_PRESS);
	/* Too many lines: the count says so. */
	for (i = 0; i < MAXL + 2; i++)
		memcpy(big + 2 * i, "x\n", 2);
	big[2 * (MAXL + 2)] = '\0';
	assert_int_equal(split(big, l), MAXL + 1);
	/* Empty text: no lines. */
	assert_int_equal(split("", l), 0);
	assert_int_equal(command_is_gm(CMD_PROCESS), 1);
	assert_int_equal(command_is_gm(CMD_LIST), 0);
	assert_string_equal(command_name(CMD_ADD_OBSERVER), "ADD OBSERVER");
}

static void
test_suggest(void **state)
{
	(void)state;
	assert_string_equal(command_suggest("HLEP", 4), "HELP");
	assert_string_equal(command_suggest("ordres", 6), "ORDERS");
	assert_string_equal(command_suggest("sumary", 6), "SUMMARY");
	assert_string_equal(command_suggest("proccess", 8), "PROCESS");
	/* Commands as written, and words far from any, are not misspellings. */
	assert_null(command_suggest("help", 4));
	assert_null(command_suggest("hello", 5));
	assert_null(command_suggest("Thanks", 6));
	assert_null(command_suggest("ab", 2));
}

/* The first line of a message whose first word misspells GAME by one
 * letter, with three or four words after it, may be the GAME line (the
 * judge checks the game, the power and the password); not below another
 * line, not with more words, not a command word, not where the message
 * has a GAME line of its own. */
static void
test_misspelt_game(void **state)
{
	struct body_line l[MAXL];

	(void)state;
	assert_int_equal(split("\n> quoted\nGAEM g3 France pw-123\nA par - bur\n", l), 4);
	assert_int_equal(l[2].kind, LINE_IDENT);
	assert_true(l[2].misspelt);
	assert_args(&l[2], "g3 France pw-123");
	assert_int_equal(split("gam school1 United Kingdom pw-123\n", l), 1);
	assert_int_equal(l[0].kind, LINE_IDENT);
	assert_true(l[0].misspelt);
	assert_int_equal(split("GAME g3 France pw-123\n", l), 1);
	assert_false(l[0].misspelt);
	assert_int_equal(split("Hello,\nGAEM g3 France pw-123\n", l), 2);
	assert_int_equal(l[1].kind, LINE_TEXT);
	assert_int_equal(split("Same as last time, all hold\n", l), 1);
	assert_int_equal(l[0].kind, LINE_TEXT);
	assert_int_equal(split("GAEM g3 France\n", l), 1);
	assert_int_equal(l[0].kind, LINE_TEXT);
	assert_int_equal(split("Gaem g3 France pw-123\nGAME g3 France pw-123\n", l), 2);
	assert_int_equal(l[0].kind, LINE_TEXT);
	assert_false(l[0].misspelt);
	assert_int_equal(l[1].kind, LINE_IDENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_body),
		cmocka_unit_test(test_orders_heading),
		cmocka_unit_test(test_signatures_and_limits),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_misspelt_game),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
