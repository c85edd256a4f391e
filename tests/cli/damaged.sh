#!/bin/sh
# damaged.sh — a damaged game is set aside, never used, and the others go
# on: two games on one judge, one game's file cut short (as a bad disk or a
# machine crash leaves it); mail for both arrives. The host is told on
# stderr every run, the game's master by mail once; the mail for the game
# waits in the spool, unapplied; `pouch replay --game` rebuilds the game and
# the next run reads that mail, so that the result is what the judge would
# have done without the damage (`pouch replay --verify`). Then the game
# file and a history record are cut at every 100 bytes, and bytes changed:
# never a crash, never loaded. Last, the upgrade of a data directory from
# before the end line.
#
#	tests/cli/damaged.sh [BUILD]   (default build)
#
# Runs on the embedded default (local Maildirs). Prints "ok - ..." or
# "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/pouch-damaged.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
D=$WORK/data
OUT=$WORK/out
ERR=$WORK/err
. tests/support/check.sh
pouch_of "${1:-build}"
T0=1893931200 # 2030-01-06T12:00:00Z, a Sunday
H=3600
# p TIME ARGS: pouch at a given clock.
p() {
	t=$1
	shift
	case $1 in
	game) shift && "$POUCH" --data "$D" game --now "$t" "$@" >"$OUT" 2>"$ERR" ;;
	run) shift && "$POUCH" --data "$D" run --now "$t" "$@" >"$OUT" 2>"$ERR" ;;
	esac
}
# mail NAME TIME FROM TEXT: a message delivered into the judge's Maildir at TIME.
mail() {
	mkdir -p "$D/mail/inbox/new" "$D/mail/inbox/tmp" "$D/mail/inbox/cur"
	printf 'From: %s\nSubject: orders\nMessage-ID: <%s@school.example>\n\n%b\n' "$3" "$1" "$4" \
		>"$D/mail/inbox/new/$1"
	touch -d "@$2" "$D/mail/inbox/new/$1"
}
# count ADDRESS SUBJECT: the judge's messages to ADDRESS with that subject.
count() { grep -l "^Subject: $2" "$D/mail/out/$1/new/"* 2>/dev/null | wc -l; }

for g in g1 g2; do
	p $T0 game new $g --gm "gm-$g@school.example" --password gm-password --movement 24h --grace 0 --remind 0
	p $T0 game $g DELEGATION France "france-$g@school.example" PASSWORD france-pw
	p $T0 game $g DELEGATION Germany "germany-$g@school.example" PASSWORD germany-pw
	p $T0 game $g START
done
mail a1 $((T0 + H)) france-g1@school.example 'GAME g1 France france-pw\nA Par - Bur'
p $((T0 + H)) run
expect "two games, one order: applied" grep -q "^order France A par - bur" "$D/games/g1/game.txt"

# The damage: g1's file cut to its first 700 bytes; mail for both games.
head -c 700 "$D/games/g1/game.txt" >"$WORK/cut" && cat "$WORK/cut" >"$D/games/g1/game.txt"
mail b1 $((T0 + 2 * H)) germany-g1@school.example 'GAME g1 Germany germany-pw\nA Mun - Ruh'
mail b2 $((T0 + 2 * H)) germany-g2@school.example 'GAME g2 Germany germany-pw\nA Mun - Ruh'
p $((T0 + 2 * H)) run
rc=$?
expect "a run with a damaged game: exit 0" test $rc -eq 0
expect "... the host told in one line on stderr, naming the file and line, and the repair with its --data" \
	sh -c "[ \$(wc -l <'$ERR') -eq 1 ] && grep -q 'game g1 set aside: .*games/g1/game.txt:[0-9]*: .*(repair: pouch --data $D replay --game g1)' '$ERR'"
"$POUCH" --data "$D" game list >"$OUT" 2>"$ERR"
expect "... game list names it, with the repair and its --data" \
	grep -q "^g1 .*set aside: its file is damaged (pouch --data $D replay --game g1)" "$OUT"
expect "... the other game served: its order applied and answered" \
	sh -c "grep -q '^order Germany A mun - ruh' '$D/games/g2/game.txt' && [ $(count germany-g2@school.example 'Re: orders') -eq 1 ]"
expect "... the damaged game's mail kept in the spool" grep -q "maildir:b1" "$D/spool/ledger"
id=$(awk -F'\t' '$1 == "in" && $5 == "maildir:b1" { print $2 }' "$D/spool/ledger")
expect "... and not applied, not answered" sh -c "! grep -q '^applied	$id	' '$D/spool/ledger' && [ $(count germany-g1@school.example 'Re: orders') -eq 0 ]"
expect "... the damaged file not replaced" cmp -s "$WORK/cut" "$D/games/g1/game.txt"
expect "... its master told by mail" test "$(count gm-g1@school.example '\[g1\] the game is set aside')" -eq 1
expect "... the other master not" test "$(count gm-g2@school.example '.* set aside')" -eq 0
"$POUCH" --data "$D" -v run --now $((T0 + 3 * H)) >"$OUT" 2>"$ERR"
expect "the next run: the host told again, one line" sh -c "[ \$(wc -l <'$ERR') -eq 1 ] && grep -q 'game g1 set aside' '$ERR'"
expect "... and -v counts the message kept" grep -q "^kept for games set aside: 1 message$" "$OUT"
expect "... the master not mailed again" test "$(count gm-g1@school.example '\[g1\] the game is set aside')" -eq 1
"$POUCH" --data "$D" game list >"$OUT" 2>"$ERR"
expect "game list: the other game, and the damaged one as set aside" sh -c "grep -q '^g2 .*active' '$OUT' && grep -q '^g1 .*set aside' '$OUT'"
"$POUCH" --data "$D" game show g1 >"$OUT" 2>"$ERR"
expect "game show of the damaged game: exit 1, set aside, with the file and line" \
	sh -c "[ $? -eq 1 ] && grep -q 'game g1 is set aside' '$ERR' && grep -q 'games/g1/game.txt:[0-9]*: ' '$ERR'"
p $((T0 + 3 * H)) game g1 PAUSE
rc=$?
expect "a host command for the damaged game: exit 1, kept for after the repair" \
	sh -c "[ $rc -eq 1 ] && grep -q 'set aside' '$OUT'"
p $((T0 + 3 * H)) game g1 RESUME
# The deadline passes while g1 is set aside: g2 moves on, g1 waits.
p $((T0 + 25 * H)) run
expect "the deadline passes: the other game adjudicated" grep -q "^phase Fall 1901" "$D/games/g2/game.txt"
expect "... the damaged one not" test ! -e "$D/games/g1/history/0001.txt"

# The repair.
"$POUCH" --data "$D" replay --game g1 >"$OUT" 2>"$ERR"
rc=$?
expect "replay --game g1: exit 0" test $rc -eq 0
expect "... the game in place, the damaged file kept beside it, the note gone" \
	sh -c "ls '$D/games/g1/' | grep -q '^game.txt.damaged-' && [ ! -e '$D/games/g1/set-aside' ] && tail -n 1 '$D/games/g1/game.txt' | grep -q '^end '"
p $((T0 + 26 * H)) run
rc=$?
expect "the run after the repair: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$ERR' ]"
expect "... the kept mail applied" grep -q "^applied	$id	" "$D/spool/ledger"
expect "... and answered" test "$(count germany-g1@school.example 'Re: orders')" -eq 1
expect "... the kept orders counted at the deadline they came before" grep -q "Mun.*Ruh" "$D/games/g1/history/0001.txt"
expect "... the host's command done" sh -c "grep -q 'PAUSE\|paused' '$D/games/g1/audit.log'"
# A note left by a repair that stopped before removing it goes.
printf 'upto 1\nclock 1\n' >"$D/games/g1/set-aside"
mail n1 $((T0 + 26 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Pic'
p $((T0 + 26 * H)) run
expect "a note beside a whole game (a repair stopped short): removed" test ! -e "$D/games/g1/set-aside"
"$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
rc=$?
expect "replay --verify: the games and mail as if nothing was damaged" sh -c "[ $rc -eq 0 ] && grep -q ', 0 differences' '$OUT'"
"$POUCH" --data "$D" replay --game nosuch >"$OUT" 2>"$ERR"
expect "replay --game of a game the spool never made: exit 1" test $? -eq 1
expect "... said in one line naming the data directory, and no replay reported" sh -c \
	"[ \$(wc -l <'$ERR') -eq 1 ] && grep -q '^pouch replay: the spool of $D makes no game nosuch (up to message [0-9]*; pouch --data $D game list shows the games)' '$ERR' && ! grep -q replayed '$OUT'"

# Cut short or changed anywhere: set aside (never a crash, never loaded),
# and the other game still served.
cp -R "$D" "$WORK/base"
n=0 bad=0
try() { # FILE: a run on the damaged copy; counts what went wrong
	mail c$n $((T0 + 27 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Bur'
	p $((T0 + 27 * H)) run --no-send
	rc=$?
	if [ $rc -ge 2 ] || ! grep -q "game g1 set aside: .*$1:[0-9]*: " "$ERR" ||
		[ "$(grep -c '^applied' "$D/spool/ledger")" -ne "$applied" ]; then
		bad=$((bad + 1))
		echo "    $1 cut at $off: exit $rc, $(head -c 200 "$ERR")"
	fi
	n=$((n + 1))
}
applied=$(($(grep -c '^applied' "$D/spool/ledger") + 1))
for f in game.txt history/0001.txt; do
	size=$(wc -c <"$WORK/base/games/g1/$f")
	off=0
	while [ $off -lt "$size" ]; do
		rm -rf "$D" && cp -R "$WORK/base" "$D"
		head -c $off "$WORK/base/games/g1/$f" >"$D/games/g1/$f"
		try "$f"
		off=$((off + 100))
	done
	# Whole lines lost at the end (a cut at a line boundary).
	for k in 1 2 10; do
		rm -rf "$D" && cp -R "$WORK/base" "$D"
		head -n -$k "$WORK/base/games/g1/$f" >"$D/games/g1/$f"
		off="-$k lines"
		try "$f"
	done
	for off in 50 $((size / 2)) $((size - 30)); do
		rm -rf "$D" && cp -R "$WORK/base" "$D"
		# One byte changed (a letter for another), the length kept.
		{ head -c $off "$WORK/base/games/g1/$f"; printf '#'; tail -c +$((off + 2)) "$WORK/base/games/g1/$f"; } >"$D/games/g1/$f"
		try "$f"
	done
done
expect "$n damaged copies (game.txt and history/0001.txt cut at every 100 bytes and at line ends, a byte changed): each set aside with its file and line, the other game served, no crash" test $bad -eq 0

# A history record cut short: set aside, repaired, and the same game as a
# replay of the whole spool makes.
rm -rf "$D" && cp -R "$WORK/base" "$D"
head -c 120 "$WORK/base/games/g1/history/0001.txt" >"$D/games/g1/history/0001.txt"
mail h1 $((T0 + 27 * H)) germany-g1@school.example 'GAME g1 Germany germany-pw\nA Ruh - Bel'
p $((T0 + 27 * H)) run
expect "a history record cut short: the game set aside, naming the record" grep -q "game g1 set aside: .*history/0001.txt:[0-9]*: " "$ERR"
"$POUCH" --data "$D" replay --game g1 >"$OUT" 2>"$ERR"
rc=$?
p $((T0 + 28 * H)) run
expect "... repaired: the record whole again, the kept orders applied" \
	sh -c "[ $rc -eq 0 ] && cmp -s '$WORK/base/games/g1/history/0001.txt' '$D/games/g1/history/0001.txt' && grep -q '^order Germany A ruh - bel' '$D/games/g1/game.txt'"
"$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
expect "... and replay --verify finds no difference" grep -q ', 0 differences' "$OUT"

# A byte changed in a record of the spool's ledger (the whole judge's
# archive, not a game's): every run stops, naming the file and line,
# and nothing is applied from a ledger that cannot be trusted.
rm -rf "$D" && cp -R "$WORK/base" "$D"
line=$(grep -n '^applied' "$D/spool/ledger" | head -n 1 | cut -d: -f1)
# Its time one second later: a record that still reads.
awk -F'\t' -v OFS='\t' -v n="$line" 'NR == n { $3 = $3 + 1 } 1' "$D/spool/ledger" >"$WORK/ledger"
cat "$WORK/ledger" >"$D/spool/ledger"
mail d1 $((T0 + 27 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Bur'
cp "$D/games/g2/game.txt" "$WORK/g2.before"
p $((T0 + 27 * H)) run
rc=$?
expect "a ledger record changed: the run stops (exit 1), naming the ledger and line $line" \
	sh -c "[ $rc -eq 1 ] && grep -q 'spool/ledger:$line: damaged record' '$ERR'"
expect "... and nothing applied" cmp -s "$WORK/g2.before" "$D/games/g2/game.txt"

# The ledger cut at the end of a line (whole records lost): the games
# have applied messages it no longer names; every run stops.
rm -rf "$D" && cp -R "$WORK/base" "$D"
head -n 4 "$WORK/base/spool/ledger" >"$D/spool/ledger"
mail f1 $((T0 + 27 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Bur'
p $((T0 + 27 * H)) run
rc=$?
expect "a ledger cut at a line's end: the run stops (exit 1), saying so" \
	sh -c "[ $rc -eq 1 ] && grep -q 'spool/ledger: cut short: it names [0-9]* inbound messages, but game g[12] applied message' '$ERR'"
expect "... and nothing applied" cmp -s "$WORK/base/games/g2/game.txt" "$D/games/g2/game.txt"

# An outbox entry changed on disk (a byte of it in the pack that holds
# it): never sent; the rest of the outbox goes; the host drops it.
rm -rf "$D" && cp -R "$WORK/base" "$D"
mail e1 $((T0 + 27 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Bur'
mail e2 $((T0 + 27 * H)) germany-g2@school.example 'GAME g2 Germany germany-pw\nA Mun - Ruh'
p $((T0 + 27 * H)) run --no-send
f=$(ls "$D"/spool/pack/outbox.*.pack | tail -n 1)
at=$(grep -abo '^To: france-g2@school.example' "$f" | tail -n 1 | cut -d: -f1)
printf 't' | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null
before=$(count france-g2@school.example 'Re: orders')
other=$(count germany-g2@school.example 'Re: orders')
"$POUCH" --data "$D" send --now $((T0 + 27 * H)) >"$OUT" 2>"$ERR"
rc=$?
expect "an outbox message changed: not sent, the host told where it is" \
	sh -c "[ $rc -eq 0 ] && grep -q 'spool/pack/outbox\..*\.pack:[0-9]*: damaged' '$ERR' && [ $(count france-g2@school.example 'Re: orders') -eq $before ]"
expect "... the other message sent" test "$(count germany-g2@school.example 'Re: orders')" -eq $((other + 1))
id=$(sed -n 's/.*outbox message \([^ ]*\) not sent.*/\1/p' "$ERR" | head -n 1)
"$POUCH" --data "$D" send --drop "$id" --now $((T0 + 27 * H)) >"$OUT" 2>"$ERR"
rc=$?
"$POUCH" --data "$D" send --now $((T0 + 27 * H)) >"$OUT" 2>"$ERR"
expect "... dropped by the host (send --drop $id), it is gone" \
	sh -c "[ $rc -eq 0 ] && grep -q '0 left in the outbox' '$OUT' && ! grep -q damaged '$ERR'"
expect "... judge.log says once that it waits for the host, though two sends found it" \
	test "$(grep -c "outbox message $id not sent: .*damaged.*pouch send --drop $id" "$D/judge.log")" -eq 1
expect "... and that the host dropped it, and what replay --verify then says" \
	grep -q "outbox message $id dropped unsent by the host .*replay --verify .* made by the replay only" "$D/judge.log"
"$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
expect "... which it does" grep -q "differs: mail .* was made by the replay only" "$OUT"

# One recipient's Maildir cannot take mail (its new/ is gone): the other
# member of the delegation gets the reply, only the broken Maildir's
# delivery waits, and the warning and judge.log name that Maildir.
rm -rf "$D" && cp -R "$WORK/base" "$D"
p $((T0 + 27 * H)) game g2 REPLACE France MEMBERS france-g2@school.example,second-g2@school.example PASSWORD france-pw
p $((T0 + 27 * H)) run
box=$D/mail/out/second-g2@school.example
rm -rf "$box/new" && ln -s "$WORK/nowhere" "$box/new"
mail m1 $((T0 + 28 * H)) france-g2@school.example 'GAME g2 France france-pw\nA Par - Bur'
before=$(count france-g2@school.example 'Re: orders')
p $((T0 + 28 * H)) run
rc=$?
expect "a recipient's Maildir broken: the run succeeds" test $rc -eq 0
expect "... the other member has the reply" test "$(count france-g2@school.example 'Re: orders')" -eq $((before + 1))
expect "... the warning names the broken Maildir, not mail/out" \
	grep -q "cannot deliver into the Maildir $box: .*(1 of [0-9]* deliveries not made)" "$ERR"
expect "... judge.log names the recipient, its Maildir and the Message-ID" \
	grep -q "delivery to second-g2@school.example deferred, tried again .*: cannot deliver into the Maildir $box: .*(pouch\.m" "$D/judge.log"
expect "... only that recipient waits" \
	sh -c "grep -q '^rcpt sent france-g2@school.example' '$D'/outbox/meta/* && grep -q '^rcpt pending second-g2@school.example' '$D'/outbox/meta/*"
rm "$box/new" && mkdir "$box/new"
p $((T0 + 29 * H)) run
expect "... mended, the next run delivers it there" test "$(count second-g2@school.example 'Re: orders')" -eq 1
expect "... and not again to the other member" test "$(count france-g2@school.example 'Re: orders')" -eq $((before + 1))
expect "... judge.log has the deferral once" test "$(grep -c 'deferred' "$D/judge.log")" -eq 1

# The upgrade: a data directory from before the end line (the release of
# 17812e3 wrote game files and history records without one). The first
# run seals every file that reads whole, once, and writes games/.sealed:
# no game set aside, no master mailed. A file of that directory cut in the
# middle of a line is still set aside.
# sealed DIR: every game file and history record in DIR ends with an end
# line, and the marker says so.
sealed() {
	for f in "$1"/games/*/game.txt "$1"/games/*/history/*.txt; do
		tail -n 1 "$f" | grep -q '^end [0-9a-f]\{16\}$' || return 1
	done
	[ -s "$1/games/.sealed" ]
}
# up DATA TIME: one run of this release on DATA, with a message for each game.
up() {
	D=$1
	mail u1$2 "$2" france-g1@school.example 'GAME g1 France france-pw\nA Par - Pic'
	mail u2$2 "$2" france-g2@school.example 'GAME g2 France france-pw\nA Par - Pic'
	p "$2" run
}
# applied DATA TIME: both messages of up DATA TIME applied.
applied() {
	for m in u1$2 u2$2; do
		id=$(awk -F'\t' -v m="maildir:$m" '$1 == "in" && $5 == m { print $2 }' "$1/spool/ledger")
		[ -n "$id" ] && grep -q "^applied	$id	" "$1/spool/ledger" || return 1
	done
}
OLD=$WORK/old
if git cat-file -e 17812e3 2>/dev/null && mkdir "$OLD" &&
	git archive 17812e3 | tar -x -C "$OLD" && make -s -C "$OLD" -j2 >"$WORK/old.log" 2>&1; then
	D=$WORK/olddata
	for g in g1 g2; do
		"$OLD/build/pouch" --data "$D" game --now $T0 new $g --gm "gm-$g@school.example" \
			--password gm-password --movement 24h --grace 0 --remind 0 >"$OUT" 2>"$ERR"
		"$OLD/build/pouch" --data "$D" game --now $T0 $g DELEGATION France "france-$g@school.example" PASSWORD france-pw >"$OUT" 2>"$ERR"
		"$OLD/build/pouch" --data "$D" game --now $T0 $g START >"$OUT" 2>"$ERR"
	done
	mail o1 $((T0 + H)) france-g1@school.example 'GAME g1 France france-pw\nA Par - Bur'
	"$OLD/build/pouch" --data "$D" run --now $((T0 + 25 * H)) >"$OUT" 2>"$ERR"
	expect "the release of 17812e3: a data directory without end lines" \
		sh -c "[ -s '$D/games/g1/history/0001.txt' ] && ! tail -n 1 '$D/games/g1/game.txt' | grep -q '^end ' && [ ! -e '$D/games/.sealed' ]"
	cp -R "$D" "$WORK/olddamaged"
	mkdir "$WORK/oldfull" && cp -R "$D/games" "$D/spool" "$WORK/oldfull/"
	up "$WORK/olddata" $((T0 + 26 * H))
	rc=$?
	expect "... upgraded by one run: exit 0, nothing on stderr" sh -c "[ $rc -eq 0 ] && [ ! -s '$ERR' ]"
	expect "... every game file and history record sealed, the marker written" sealed "$D"
	expect "... no master told of a game set aside" \
		sh -c "! grep -rq 'set aside' '$D/mail/out' && ! grep -q 'set aside' '$D/games/'*/audit.log"
	expect "... both games served: their messages applied" applied "$D" $((T0 + 26 * H))
	# An old file cut in the middle of a line: set aside, never sealed.
	D=$WORK/olddamaged
	size=$(wc -c <"$D/games/g1/game.txt")
	head -c $((size / 2)) "$D/games/g1/game.txt" | sed '$s/.$//' >"$WORK/cut"
	head -c $(($(wc -c <"$WORK/cut") - 1)) "$WORK/cut" >"$D/games/g1/game.txt"
	up "$D" $((T0 + 26 * H))
	expect "... an old game file cut in the middle of a line: still set aside" \
		sh -c "grep -q 'game g1 set aside: .*games/g1/game.txt:[0-9]*: ' '$ERR' && [ $(count gm-g1@school.example '\[g1\] the game is set aside') -eq 1 ]"
	expect "... the other game sealed and served" \
		sh -c "tail -n 1 '$D/games/g2/game.txt' | grep -q '^end ' && grep -q '^order France A par - pic' '$D/games/g2/game.txt' && [ -e '$D/games/.sealed' ]"
	# The upgrade on a full disk (a tmpfs, in a mount namespace of its
	# own): the command stops naming the file, the game files as they were;
	# with room again, the next one seals them all.
	if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
		F=$WORK/full
		mkdir "$F"
		unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs -o size=4m pouch-damaged '$F' &&
			cp -R '$WORK/oldfull' '$F/d' && { dd if=/dev/zero of='$F/fill' bs=4k 2>/dev/null; true; } &&
			{ '$POUCH' --data '$F/d' game list >'$OUT' 2>'$ERR'; echo \$? >'$WORK/full.rc1'; } &&
			ls -aR '$F/d/games' >'$WORK/full.ls' &&
			cat '$F/d/games'/*/game.txt >'$WORK/full.games' && rm '$F/fill' &&
			{ '$POUCH' --data '$F/d' game list >'$WORK/full.out' 2>'$WORK/full.err'; echo \$? >'$WORK/full.rc2'; } &&
			cp -R '$F/d' '$WORK/full.d'"
		expect "... on a full disk: the command stops (exit 1), naming the file it could not write" \
			sh -c "[ \"\$(cat '$WORK/full.rc1')\" = 1 ] && grep -q 'games/g[12]/.*: No space left on device' '$ERR'"
		expect "... the game files as they were, nothing half written, no marker" \
			sh -c "cat '$WORK/oldfull/games'/*/game.txt | cmp -s - '$WORK/full.games' && ! grep -q '[.]tmp[.]\|^[.]sealed' '$WORK/full.ls'"
		expect "... with room again, the next command seals them all" \
			sh -c "[ \"\$(cat '$WORK/full.rc2')\" = 0 ] && [ ! -s '$WORK/full.err' ] && grep -q '^g1 ' '$WORK/full.out'"
		expect "... every file sealed, the marker written" sealed "$WORK/full.d"
	else
		echo "  skipped: the upgrade on a full disk (needs root and unshare)"
	fi
else
	echo "  skipped: the upgrade from the release of 17812e3 (it could not be built: no git history?)"
fi
# The same upgrade on this release's own files with their end lines and
# the marker taken away (what the old release wrote, for the same games):
# sealed again byte for byte, and replay --verify finds no difference.
D=$WORK/stripped
rm -rf "$D" && cp -R "$WORK/base" "$D"
rm -f "$D/games/.sealed"
for f in "$D"/games/*/game.txt "$D"/games/*/history/*.txt; do
	head -n -1 "$f" >"$WORK/strip" && cat "$WORK/strip" >"$f"
done
"$POUCH" --data "$D" game list >"$OUT" 2>"$ERR"
same=0
for f in "$WORK"/base/games/*/game.txt "$WORK"/base/games/*/history/*.txt; do
	cmp -s "$f" "$D${f#"$WORK/base"}" || same=1
done
expect "files stripped of their end lines and the marker: sealed again as they were" \
	sh -c "[ $same -eq 0 ] && [ ! -s '$ERR' ] && [ -e '$D/games/.sealed' ]"
up "$D" $((T0 + 27 * H))
expect "... the run after: nothing on stderr" test ! -s "$ERR"
expect "... both games' messages applied" applied "$D" $((T0 + 27 * H))
"$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
expect "... and replay --verify finds no difference" grep -q ', 0 differences' "$OUT"

echo "== damaged: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
