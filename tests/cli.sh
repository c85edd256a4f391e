#!/bin/sh
# cli.sh — the pouch command line as a host uses it, on the embedded
# default (local Maildirs): pouch game new|NAME COMMAND|list|show|process|
# rollback, pouch run, pouch replay --verify, the lock, exit statuses.
#
#	tests/cli.sh [BUILD]   (default build)
#
# Prints "ok - ..." or "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/.."
POUCH=$(pwd)/${1:-build}/pouch
WORK=$(mktemp -d /tmp/pouch-cli.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
D=$WORK/data
OUT=$WORK/out
ERR=$WORK/err
. tests/support/check.sh
p() { "$POUCH" --data "$D" "$@" >"$OUT" 2>"$ERR"; }

"$POUCH" --version >"$OUT" 2>"$ERR"
expect "--version: pouch's and its libraries', the ones loaded on demand among them" sh -c \
	"[ $? -eq 0 ] && grep -q '^pouch ' '$OUT' && grep -q 'libxml2 [0-9]* (libxml2' '$OUT' && grep -q 'libcurl [0-9.]* (libcurl' '$OUT'"

p game new g1 --gm gm@school.example --password gm-password --zone Europe/Paris --grace 1h
expect "game new: exit 0" test $? -eq 0
expect "game new: the GM is named" grep -q "game master is gm@school.example" "$OUT"
p game new g1 --gm gm@school.example
rc=$?
expect "game new, a name taken: refused" grep -q "there is already a game called g1" "$OUT"
expect "... with exit status 1" test $rc -eq 1
p game new
expect "game new without a name: usage, exit 2" test $? -eq 2
p game g1 DELEGATION France carol@school.example PASSWORD france-pw
p game g1 DELEGATION Germany dave@school.example PASSWORD germany-pw
p game g1 START
expect "START: the game has started" grep -q "the game has started" "$OUT"
p game list
expect "game list: one line, active, Spring 1901" grep -q "^g1 .*active .*Spring 1901 Movement" "$OUT"
p game show g1
expect "game show: the game file" grep -q "^zone Europe/Paris" "$OUT"
expect "game show: no password hashes" sh -c "! grep -q '\\\$y\\\$' '$OUT'"
p game show nosuch
expect "game show of an unknown game: exit 1" test $? -eq 1
p game g1 NOSUCHCOMMAND
expect "an unknown GM command is answered" grep -q "REFUSED\|not a place or a command" "$OUT"

# Orders by mail, into the judge's Maildir.
mkdir -p "$D/mail/inbox/new" "$D/mail/inbox/tmp" "$D/mail/inbox/cur"
printf 'From: carol@school.example\nSubject: orders\nMessage-ID: <c1@school.example>\n\nGAME g1 France france-pw\nA Par - Bur\n' \
	>"$D/mail/inbox/new/c1"
LD_DEBUG=files "$POUCH" --data "$D" -v run >"$OUT" 2>"$ERR"
expect "run: one message fetched and applied" grep -q "fetched 1 (1 new), applied 1" "$OUT"
expect "carol's reply is in her Maildir" sh -c "ls '$D/mail/out/carol@school.example/new/' | grep -q ."
expect "a run with work loads libxml2 (the game's map)" grep -q "file=libxml2" "$ERR"
# A cron run with nothing to do loads neither libxml2 nor libcurl (lib/lazylib.h).
LD_DEBUG=files "$POUCH" --data "$D" -v run >"$OUT" 2>"$ERR"
expect "an idle run: nothing fetched" grep -q "fetched 0 (0 new), applied 0" "$OUT"
expect "... and neither libxml2 nor libcurl loaded" sh -c "! grep -q 'file=libxml2\|file=libcurl' '$ERR'"
p game process g1 --preview
expect "game process --preview shows the results" grep -q "PREVIEW" "$OUT"
p game process g1
expect "game process: processed" grep -q "processed" "$OUT"
p game list
expect "now in Fall 1901" grep -q "Fall 1901 Movement" "$OUT"
p game rollback g1 S1901M
expect "game rollback: back to Spring 1901" grep -q "rolled back to S1901M" "$OUT"
p game list
expect "game list after the rollback: Spring 1901" grep -q "Spring 1901 Movement" "$OUT"

# One run at a time: a second one waits, then gives up cleanly.
(
	exec 9>"$D/pouch.lock"
	flock 9
	sleep 12
) &
holder=$!
sleep 0.5
p run
rc=$?
expect "a run while another holds the lock: exit 0" test $rc -eq 0
expect "... and says nothing was done" grep -q "another pouch is working" "$ERR"
kill $holder 2>/dev/null
wait $holder 2>/dev/null

p replay --into "$WORK/replay" --verify
expect "replay --verify: no difference" grep -q ", 0 differences" "$OUT"
p replay --into "$WORK/replay" --verify
expect "replay into a directory that has games: refused" test $? -ne 0
# --verify alone: a directory of its own under TMPDIR, gone afterwards.
mkdir "$WORK/tmp"
TMPDIR=$WORK/tmp "$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
rc=$?
expect "replay --verify without OUT: no difference, exit 0" sh -c "[ $rc -eq 0 ] && grep -q ', 0 differences' '$OUT'"
expect "... and its directory removed" sh -c "[ -z \"\$(ls -A '$WORK/tmp')\" ]"
# A difference keeps it, and says where.
cp "$D/games/g1/game.txt" "$WORK/game.txt.saved"
echo "# edited by hand" >>"$D/games/g1/game.txt"
TMPDIR=$WORK/tmp "$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
rc=$?
expect "a live game edited by hand: a difference, exit 1" sh -c "[ $rc -eq 1 ] && grep -q ', 1 difference$' '$OUT'"
expect "... and the replay kept, its directory named" sh -c "grep -q 'the replay is kept in $WORK/tmp/pouch-replay' '$OUT'"
cp "$WORK/game.txt.saved" "$D/games/g1/game.txt"
# An archive's spool into a new directory, as "--spool DIR --data OUT".
cp -R "$D/spool" "$WORK/archive"
"$POUCH" replay --spool "$WORK/archive" --data "$WORK/from-archive" >"$OUT" 2>"$ERR"
expect "replay --spool DIR --data OUT: the games rebuilt" sh -c "grep -q '^replayed ' '$OUT' && cmp -s '$D/games/g1/game.txt' '$WORK/from-archive/games/g1/game.txt'"

# Runs killed at chosen steps (POUCH_CRASH_AT, lib/crashpoint.h), all in
# one second (--now, and the mail's delivery time): the first dies when the
# fetched mail's files are in the spool and the ledger does not name them
# yet; the second, the same for the copies of the mail it sent; then a
# clean run. Ids are taken again by the runs that follow, in the same
# second: each must still name one message, in/ or out/, or the replay
# compares the wrong files.
K=$WORK/killed
kp() { "$POUCH" --data "$K" "$@" >"$OUT" 2>"$ERR"; }
kp game new k1 --gm gm@school.example --password gm-password
kp game k1 DELEGATION England eve@school.example PASSWORD england-pw
kp game k1 START
at=$(($(date +%s) + 5))
mkdir -p "$K/mail/inbox/new" "$K/mail/inbox/tmp" "$K/mail/inbox/cur"
for n in 1 2 3 4; do
	printf 'From: eve@school.example\nSubject: orders %s\nMessage-ID: <k%s@school.example>\n\nGAME k1 England england-pw\nORDERS REPLACE\nA lvp H\nF edi H\nF lon H\n' \
		$n $n >"$K/mail/inbox/new/k$n"
	touch -d "@$at" "$K/mail/inbox/new/k$n"
done
POUCH_CRASH_AT=spool-files:1 kp run --now $at
expect "POUCH_CRASH_AT=spool-files: killed (SIGKILL) where asked" test $? -eq 137
POUCH_CRASH_AT=spool-files:3 kp run --now $at
expect "... and at the third ledger write, archiving what it sent" test $? -eq 137
kp -v run --now $at
expect "the clean run after them sends the rest" grep -q "sent [1-9]" "$OUT"
awk '$1 == "in" || $1 == "out" { print $2 }' "$K/spool/ledger" | sort | uniq -d >"$WORK/ids.twice"
expect "every id in the ledger names one message (in or out, not both)" test ! -s "$WORK/ids.twice"
kp replay --into "$WORK/killed-replay" --verify
expect "replay --verify after the killed runs: no difference" grep -q ", 0 differences" "$OUT"

# A run that fails part way (the history record of the phase the second
# message completes cannot be written) marks nothing applied: the first
# message's effects were not saved either. Once the fault is gone, the
# next run applies both.
mv "$K/games/k1/history" "$WORK/history.saved"
echo "not a folder" >"$K/games/k1/history"
printf 'From: eve@school.example\nSubject: one\nMessage-ID: <k5@school.example>\n\nGAME k1 England england-pw\nORDERS REPLACE\nA lvp H\n' \
	>"$K/mail/inbox/new/k5"
printf 'From: eve@school.example\nSubject: all\nMessage-ID: <k6@school.example>\n\nGAME k1 England england-pw\nF edi H\nF lon H\n' \
	>"$K/mail/inbox/new/k6"
marks=$(grep -c '^applied' "$K/spool/ledger")
kp -v run
expect "a run whose history record cannot be written fails" test $? -eq 1
expect "... and marks no message applied" test "$(grep -c '^applied' "$K/spool/ledger")" -eq "$marks"
rm "$K/games/k1/history"
mv "$WORK/history.saved" "$K/games/k1/history"
kp -v run
expect "the next run applies both messages" grep -q "applied 2," "$OUT"
kp replay --into "$WORK/failed-replay" --verify
expect "... and the replay finds no difference" grep -q ", 0 differences" "$OUT"

echo "== cli: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
