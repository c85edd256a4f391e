#!/bin/sh
# badmail.sh — every kind of broken mail gets a sensible outcome: a clear
# reply, or a deliberate silence (logged) for automatic mail and loops;
# and every raw message stays in the spool, byte for byte.
#
#	tests/cli/badmail.sh [BUILD]   (default build)
#
# Runs on the embedded default (local Maildirs): the messages are put in
# the judge's Maildir, one `pouch run` reads them. Prints "ok - ..." or
# "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/pouch-badmail.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
D=$WORK/data
IN=$D/mail/inbox
OUT=$WORK/out
ERR=$WORK/err
. tests/support/check.sh
pouch_of "${1:-build}"
p() { "$POUCH" --data "$D" "$@" >"$OUT" 2>"$ERR"; }
mkdir -p "$IN/new" "$IN/tmp" "$IN/cur" "$WORK/sent"
# put NAME: the message on stdin, into the Maildir (a copy kept to compare).
put() {
	cat >"$WORK/sent/$1"
	cp "$WORK/sent/$1" "$IN/new/$1"
}
# The decoded text of the reply to ADDRESS about SUBJECT, or nothing.
reply_to() {
	f=$(grep -l "^Subject: Re: $2" "$D/mail/out/$1/new/"* 2>/dev/null | head -n 1)
	[ -n "$f" ] && "$POUCH" read-mail "$f"
}

p game new g1 --gm gm@school.example --password gm-password
p game g1 DELEGATION France carol@school.example PASSWORD france-pw
p game g1 START

put html <<'E'
From: Carol <carol@school.example>
Subject: orders in HTML
Message-ID: <html@school.example>
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8

<html><body><p>GAME g1 France france-pw</p><p>A Par&nbsp;-&nbsp;Bur</p><div>F Bre - Mid</div></body></html>
E
printf 'From: Carol <carol2@school.example>\nSubject: charset\nMessage-ID: <cs@school.example>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=x-no-such-charset\n\nGAME g1 France france-pw\nA Mar - Gas \351t\351\n' |
	put charset
{
	printf 'From: Carol <carol3@school.example>\nSubject: huge\nMessage-ID: <huge@school.example>\n\nGAME g1 France france-pw\nA Par H\n'
	i=0
	while [ $i -lt 40000 ]; do
		echo "this line goes on and on to make the message two megabytes long ............"
		i=$((i + 1))
	done
} | put huge
# A message over mail.max_size (1 MB) whose limit falls inside an order:
# the line cut in two is not read (it would be another order).
{
	printf 'From: Carol <carol8@school.example>\nSubject: cut\nMessage-ID: <cut@school.example>\n\nGAME g1 France france-pw\nA Par H\n'
	i=0
	while [ $i -lt 200 ]; do	# 200 lines of 5,000 bytes, not 1,000 lines
		head -c 4999 /dev/zero | tr '\0' 'y'
		echo
		i=$((i + 1))
	done
} >"$WORK/cut"
# then a line of x up to 5 bytes before the limit: "F Bre - Mid" crosses it
pad=$((1048576 - $(wc -c <"$WORK/cut") - 6))
[ "$pad" -gt 0 ] && [ "$pad" -lt 60000 ] || pad=1
{
	cat "$WORK/cut"
	head -c "$pad" /dev/zero | tr '\0' 'x'
	printf '\nF Bre - Mid\nA Mar - Spa\n'
} | put cut
# Junk that used to be echoed whole: a 6.7 MB mail of words too long to be
# names, 2,000 lines of the same unknown word, one line of 10,000 letters.
{
	printf 'From: Carol <carol4@school.example>\nSubject: junk\nMessage-ID: <junk@school.example>\n\nGAME g1 France france-pw\nA Par H\n'
	awk 'BEGIN { w = "x"; while (length(w) < 6700) w = w w; w = substr(w, 1, 6700)
		for (i = 0; i < 1000; i++) print w }'
} | put junk
{
	printf 'From: Carol <carol5@school.example>\nSubject: repeats\nMessage-ID: <rep@school.example>\n\nGAME g1 France france-pw\n'
	awk 'BEGIN { for (i = 0; i < 2000; i++) print "Xyzzy - Bur" }'
} | put repeats
{
	printf 'From: Carol <carol6@school.example>\nSubject: long line\nMessage-ID: <long@school.example>\n\nGAME g1 France france-pw\n'
	awk 'BEGIN { w = "y"; while (length(w) < 10000) w = w w; print substr(w, 1, 10000) }'
} | put longline
{
	printf 'From: Carol <carol7@school.example>\nSubject: many\nMessage-ID: <many@school.example>\n\nGAME g1 France france-pw\n'
	awk 'BEGIN { for (i = 0; i < 900; i++) printf "Qx%dq - Bur\n", i; print "A Mar - Spa" }'
} | put many
put forged <<'E'
From: Carol <carol@school.example>
Subject: forged
Message-ID: <forged@school.example>

GAME g1 France not-the-password
A Par - Pic
E
put autoreply <<'E'
From: Carol <carol@school.example>
Subject: Out of office
Message-ID: <auto@school.example>
Auto-Submitted: auto-replied

I am away until Monday.
E
put loop <<'E'
From: pouch judge <judge@localhost>
Subject: Re: Re: Re: orders
Message-ID: <loop@localhost>
X-Pouch-Judge: judge@localhost

> > > GAME g1 France
E
put bulk <<'E'
From: news@lists.example
Subject: Weekly digest
Message-ID: <bulk@lists.example>
Precedence: bulk
List-Id: <news.lists.example>

Hello subscribers.
E
put empty <<'E'
From: dave@school.example
Subject: 
Message-ID: <empty@school.example>

E
put nofrom <<'E'
Subject: who am I
Message-ID: <nofrom@nowhere>

GAME g1 France france-pw
E
put attachment <<'E'
From: erin@school.example
Subject: see attachment
Message-ID: <att@school.example>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b1"

--b1
Content-Type: application/pdf; name="orders.pdf"
Content-Transfer-Encoding: base64

JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K
--b1--
E
printf 'From: frank@school.example\nSubject: binary\nMessage-ID: <bin@school.example>\n\n\000\001\002GAME\377\376 g1\000\n\033[1mHLEP\n' |
	put binary
# A bounce for a member: the GM is told.
put bounce <<'E'
From: MAILER-DAEMON@mail.school.example
To: judge@localhost
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn@mail.school.example>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="r"

--r
Content-Type: text/plain

Your message could not be delivered.
--r
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.school.example

Final-Recipient: rfc822; carol@school.example
Action: failed
Status: 5.1.1
--r--
E

p -v run
expect "one run reads all 17 messages" grep -q "fetched 17 (17 new), applied 17" "$OUT"
# reply_file ADDRESS SUBJECT: the reply's file, as sent.
reply_file() { grep -l "^Subject: Re: $2" "$D/mail/out/$1/new/"* 2>/dev/null | head -n 1; }
f=$(reply_file carol4@school.example junk)
expect "6.7 MB of junk: a reply under 16 KB ($(wc -c <"$f") bytes)" test "$(wc -c <"$f")" -lt 16384
reply_to carol4@school.example junk >"$OUT"
expect "... the orders before the junk still taken" grep -q "accepted: A par H" "$OUT"
expect "... the repeated refusal said once, then counted" sh -c \
	"[ \$(grep -c 'REFUSED' '$OUT') -eq 1 ] && grep -q 'the same refusal for [0-9]* more lines' '$OUT'"
f=$(reply_file carol5@school.example repeats)
expect "2,000 lines of the same refusal: a reply under 4 KB ($(wc -c <"$f") bytes)" test "$(wc -c <"$f")" -lt 4096
reply_to carol5@school.example repeats >"$OUT"
expect "... the refusal said once, the rest counted" sh -c \
	"[ \$(grep -c 'REFUSED' '$OUT') -eq 1 ] && grep -q 'the same refusal for 998 more lines' '$OUT'"
f=$(reply_file carol7@school.example many)
expect "900 different refusals: a reply under 16 KB ($(wc -c <"$f") bytes)" test "$(wc -c <"$f")" -lt 16384
reply_to carol7@school.example many >"$OUT"
expect "... the last of them counted, not shown" grep -q "more lines read but not repeated here: a reply is kept under 16 KB" "$OUT"
expect "... the order after them still taken and shown" grep -q "accepted: A mar - spa" "$OUT"
reply_to carol6@school.example "long line" >"$OUT"
expect "a 10,000-character line: quoted to 100 characters and an ellipsis" sh -c \
	"grep -q '^> y\\{100\\}…\$' '$OUT' && ! grep -q 'y\\{101\\}' '$OUT'"
reply_to carol@school.example forged >"$OUT"
expect "forged: a clear refusal" grep -q "does not match a game, power and password" "$OUT"
reply_to carol@school.example "orders in HTML" >"$OUT"
expect "HTML only: read, and said so" grep -q "no plain-text part" "$OUT"
expect "HTML only: the orders in it are taken" grep -q "accepted: A par - bur" "$OUT"
reply_to carol2@school.example charset >"$OUT"
expect "unknown charset: answered, and said so" grep -q "character set was not recognised" "$OUT"
reply_to carol3@school.example huge >"$OUT"
expect "huge: only its beginning read, and said so" \
	grep -q "larger than the judge reads ([0-9]* KB): only its first 1024 KB were read" "$OUT"
expect "huge: its orders still taken" grep -q "accepted: A par H" "$OUT"
reply_to carol8@school.example cut >"$OUT"
expect "over the limit inside an order: the orders before it taken" grep -q "accepted: A par H" "$OUT"
expect "... the order the limit cuts in two not read at all" sh -c "! grep -q '^> F Bre' '$OUT'"
expect "... and the reply says what was read and what was not" sh -c \
	"grep -q 'which held [0-9]* lines of text; the orders and commands in them were taken' '$OUT' &&
	grep -q 'Nothing after them was read' '$OUT'"
reply_to dave@school.example "your message" >"$OUT"
expect "empty: told so" grep -q "Your message was empty" "$OUT"
reply_to erin@school.example "see attachment" >"$OUT"
expect "an attachment: told it is not read" grep -q "Attachments are not read" "$OUT"
reply_to frank@school.example binary >"$OUT"
expect "binary garbage: answered" grep -q "Subject: Re: binary" "$OUT"
expect "no reply to the auto-reply, the loop, the list, the bounce" \
	test ! -e "$D/mail/out/judge@localhost" -a ! -e "$D/mail/out/news@lists.example" \
	-a ! -e "$D/mail/out/mailer-daemon@mail.school.example"
expect "the silences are logged" sh -c "grep -q 'ignored an automatic reply' '$D/judge.log' &&
	grep -q 'ignored mail sent by this judge' '$D/judge.log' &&
	grep -q 'ignored list or bulk mail' '$D/judge.log' &&
	grep -q 'without a usable sender' '$D/judge.log' &&
	grep -q 'delivery to carol@school.example failed' '$D/judge.log'"
expect "the bounce reaches the GM" sh -c "grep -l 'bounced' '$D/mail/out/gm@school.example/new/'* >/dev/null"
# A copy of a message (the same Message-ID and text) is not applied nor
# answered: judge.log names it, once, though later runs read the spool.
# It is dated at its arrival, as a refused GAME line read in the same run
# is: an hour and half an hour before the run's clock.
t=$(date +%s)
utc() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
cp "$WORK/sent/charset" "$IN/new/charset-again"
touch -d "@$((t + 3600))" "$IN/new/charset-again"
printf 'From: carol9@school.example\nSubject: wrong\nMessage-ID: <wrong@school.example>\n\nGAME g1 France not-the-pw\nA Par H\n' >"$IN/new/wrong"
touch -d "@$((t + 5400))" "$IN/new/wrong"
before=$(ls "$D/mail/out/carol2@school.example/new" | wc -l)
p -v run --now $((t + 7200))
expect "a copy: stored, not applied" grep -q "fetched 2 (2 new), applied 1" "$OUT"
expect "... not answered" test "$(ls "$D/mail/out/carol2@school.example/new" | wc -l)" -eq "$before"
printf 'From: dave@school.example\nSubject: hello\nMessage-ID: <later@school.example>\n\nHELP\n' >"$IN/new/later"
p run --now $((t + 10800))
expect "... judge.log says why, naming it and the message it repeats, once" sh -c \
	"[ \$(grep -c 'Message-ID <cs@school.example>) is a copy of message [^ ]*, the same Message-ID and text' '$D/judge.log') -eq 1 ]"
expect "... dated at its arrival, not at the run's clock, as the refused GAME line is" sh -c \
	"grep -q '^$(utc $((t + 3600))) not applied nor answered: message [^ ]* (Message-ID <cs@school.example>)' '$D/judge.log' &&
	 grep -q '^$(utc $((t + 5400))) not recorded: a message from carol9@school.example' '$D/judge.log'"
expect "the silences are logged with their Message-IDs" sh -c \
	"grep -q 'ignored an automatic reply from .* (message <' '$D/judge.log' &&
	grep -q 'ignored list or bulk mail from .* (message <' '$D/judge.log'"
# read-mail on a file that is not mail: said so, nothing of it printed.
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\033[2J' >"$WORK/picture.png"
"$POUCH" read-mail "$WORK/picture.png" >"$OUT" 2>"$ERR"
rc=$?
expect "read-mail of a file that is not mail: exit 1, said so, nothing printed" sh -c \
	"[ $rc -eq 1 ] && grep -q 'picture.png: not a mail message' '$ERR' && [ ! -s '$OUT' ]"
printf 'From: eve@school.example\nSubject: =?utf-8?q?=C2=9B2Jhello?=\n\nA Par H \302\2332J\n' >"$WORK/escape.eml"
"$POUCH" read-mail "$WORK/escape.eml" >"$OUT" 2>"$ERR"
expect "read-mail: a C1 control (a terminal's CSI) of the message shown as ?" sh -c \
	"grep -q '^Subject: ?2Jhello' '$OUT' && grep -q '^A Par H ?2J' '$OUT'"
# Every raw message is in the spool exactly as it came (pouch spool show
# writes each out as stored).
mkdir -p "$WORK/stored"
"$POUCH" --data "$D" spool list | awk '$1 == "in" { print $2 }' | while read -r id; do
	"$POUCH" --data "$D" spool show "$id" >"$WORK/stored/$id"
done
n=0 same=0
for f in "$WORK"/sent/*; do
	n=$((n + 1))
	for s in "$WORK"/stored/*; do
		[ -f "$s" ] && cmp -s "$f" "$s" && { same=$((same + 1)); break; }
	done
done
expect "all $n raw messages are in the spool, byte for byte ($same found)" test "$same" -eq "$n"

echo "== badmail: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
