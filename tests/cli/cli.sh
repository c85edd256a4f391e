#!/bin/sh
# cli.sh — the pouch command line as a host uses it, on the embedded
# default (local Maildirs): pouch game new|NAME COMMAND|list|show|process|
# rollback, pouch run, pouch replay --verify, the lock, exit statuses.
#
#	tests/cli/cli.sh [BUILD]   (default build)
#
# Prints "ok - ..." or "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/pouch-cli.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
D=$WORK/data
OUT=$WORK/out
ERR=$WORK/err
. tests/support/check.sh
pouch_of "${1:-build}"
p() { "$POUCH" --data "$D" "$@" >"$OUT" 2>"$ERR"; }

"$POUCH" --version >"$OUT" 2>"$ERR"
expect "--version: pouch's and its libraries', the ones loaded on demand among them" sh -c \
	"[ $? -eq 0 ] && grep -q '^pouch ' '$OUT' && grep -q 'libxml2 [0-9]* (libxml2' '$OUT' && grep -q 'libcurl [0-9.]* (libcurl' '$OUT'"

p game new g1 --gm gm@school.example --password gm-password --zone Europe/Paris --grace 1h
expect "game new: exit 0" test $? -eq 0
expect "game new: the GM is named" grep -q "game master is gm@school.example" "$OUT"
expect "game new without judge.address: a warning on stderr" \
	grep -q "^pouch game: warning: the judge's address is judge@localhost, a placeholder" "$ERR"
expect "... naming the file to set it in" \
	grep -q "^pouch game: set judge.address in $D/pouch.conf (see pouch.conf(5)) before the game starts" "$ERR"
expect "game new: says where mail to the judge goes" \
	grep -q "is read from the Maildir $D/mail/inbox (its new/)" "$OUT"
expect "... and that Maildir is there" test -d "$D/mail/inbox/new" -a -d "$D/mail/inbox/cur" -a -d "$D/mail/inbox/tmp"
p game new g1 --gm gm@school.example --press grey --zone Europe/London
rc=$?
expect "game new, a name taken: refused" grep -q "there is already a game called g1" "$OUT"
expect "... with exit status 1" test $rc -eq 1
expect "... the reply says once that the game was not created, and why" sh -c \
	"[ \$(grep -c REFUSED '$OUT') -eq 1 ] &&
	 grep -q '^  REFUSED: the game was not created: there is already a game called g1' '$OUT'"
expect "... and that its settings were not read, in no words meant for players" sh -c \
	"grep -q '^  The 2 lines after it were not read.\$' '$OUT' && ! grep -q 'GAME line' '$OUT' &&
	 [ \$(wc -l <'$OUT') -eq 3 ]"
p game show g1
expect "... and the game it names keeps its settings" sh -c \
	"grep -q 'Europe/Paris' '$OUT' && ! grep -q 'Europe/London' '$OUT'"
p game new
expect "game new without a name: usage, exit 2" test $? -eq 2
# Fewer delegations (a data directory of their own): the arrangement printed
# is what the GM types.
pf() { "$POUCH" --data "$WORK/fewer" "$@" >"$OUT" 2>"$ERR"; }
pf game new g3 --gm gm@school.example --password gm-password --players 3
expect "game new --players 3: exit 0" test $? -eq 0
expect "... prints the three delegations' commands, with the --data given" sh -c \
	"grep -q '^  pouch --data $WORK/fewer game g3 DELEGATION England,Germany,Austria ADDRESSES' '$OUT' &&
	 grep -q '^  pouch --data $WORK/fewer game g3 DELEGATION Russia,Italy ADDRESSES' '$OUT' &&
	 grep -q '^  pouch --data $WORK/fewer game g3 DELEGATION France,Turkey ADDRESSES' '$OUT'"
pf game g3 DELEGATION England,Germany,Austria ann@school.example PASSWORD ega-pw
expect "a delegation of three powers, as printed: accepted" \
	grep -q "England, Germany and Austria: one delegation" "$OUT"
pf game g3 DELEGATION England,Narnia ann@school.example
expect "a delegation naming no power: refused" grep -q "REFUSED" "$OUT"
# A data directory whose name the shell splits: the printed commands are
# quoted, and run as printed (ADDRESSES filled in) they make the delegations.
SP="$WORK/x y"
mkdir -p "$WORK/bin"
ln -sf "$POUCH" "$WORK/bin/pouch"
"$POUCH" --data "$SP" game new g3 --gm gm@school.example --password gm-password --players 3 >"$OUT" 2>"$ERR"
expect "game new --players 3 --data 'DIR WITH A BLANK': the commands carry --data, quoted" \
	grep -qF "  pouch --data '$SP' game g3 DELEGATION Russia,Italy ADDRESSES" "$OUT"
expect "... and so does the run it names" grep -qF "then pouch --data '$SP' run reads it." "$OUT"
n=0 ran=0
for cmd in $(sed -n 's/^  \(pouch .* DELEGATION .*\) ADDRESSES$/\1/p' "$OUT" | tr ' ' '\001'); do
	n=$((n + 1))
	cmd=$(printf '%s' "$cmd" | tr '\001' ' ')
	(cd "$WORK" && PATH="$WORK/bin:$PATH" sh -c "$cmd d$n@school.example") >>"$WORK/ran" 2>&1 && ran=$((ran + 1))
done
OUT=$WORK/ran
expect "... each of the three, run as printed, makes its delegation" sh -c \
	"[ $n -eq 3 ] && [ $ran -eq 3 ] && [ \$(grep -c ': one delegation (password mailed' '$WORK/ran') -eq 3 ]"
OUT=$WORK/out
# --config and --maps given: carried too, and the commands still run.
printf 'judge.address = judge@school.test\n' >"$WORK/my settings.conf"
"$POUCH" --data "$WORK/cm" --config "$WORK/my settings.conf" --maps "$(pwd)/maps" \
	game new g2 --gm gm@school.example --password gm-password --players 2 >"$OUT" 2>"$ERR"
expect "game new --players 2 --config FILE --maps DIR: the commands carry all three" \
	grep -qF "  pouch --data $WORK/cm --config '$WORK/my settings.conf' --maps $(pwd)/maps game g2 DELEGATION England,France,Russia ADDRESSES" "$OUT"
cmd=$(sed -n 's/^  \(pouch .* DELEGATION Germany,Austria,Turkey\) ADDRESSES$/\1/p' "$OUT")
(cd "$WORK" && PATH="$WORK/bin:$PATH" sh -c "$cmd g@school.example") >"$OUT" 2>"$ERR"
expect "... and one of them, run as printed, makes its delegation" \
	grep -q "Germany, Austria and Turkey: one delegation" "$OUT"
pf game new g5 --gm gm@school.example --password gm-password --players 5
expect "game new --players 5: Italy and Germany left out" \
	grep -q "^Left out, in civil disorder from the start: Italy, Germany" "$OUT"
pf game new g9 --gm gm@school.example --players 9
expect "game new --players 9: usage, exit 2" test $? -eq 2
pf game g3 CONFERENCE Tyrolia England Germany Austria
expect "a MUNA command in a standard game: refused, naming the game's rules" \
	grep -q "REFUSED: CONFERENCE is not a command of this game's rules (standard)" "$OUT"
p game g1 DELEGATION France carol@school.example PASSWORD france-pw
p game g1 DELEGATION Germany dave@school.example PASSWORD germany-pw
p game g1 START
expect "START: the game has started" grep -q "the game has started" "$OUT"
expect "START without judge.address: a warning on stderr" grep -q "^pouch game: warning: the judge's address" "$ERR"
expect "... and the GM is told by mail" sh -c \
	"grep -l '^Subject: \\[g1\\] players cannot write to the judge' '$D'/mail/out/gm@school.example/new/* >/dev/null"
p game list
expect "game list: one line, active, Spring 1901" grep -q "^g1 .*active .*Spring 1901 Movement" "$OUT"
# game list sorts the games by name, whatever order the folder gives
L=$WORK/listing
for g in kilo echo zulu alpha mike Bravo delta; do
	"$POUCH" --data "$L" game new $g --gm gm@school.example --password gm-password >/dev/null 2>&1
done
"$POUCH" --data "$L" game list >"$OUT" 2>"$ERR"
expect "game list: sorted by name, case aside" \
	test "$(awk '{ printf "%s ", $1 }' "$OUT")" = "alpha Bravo delta echo kilo mike zulu "
p game show g1
expect "game show: the game file" grep -q "^zone Europe/Paris" "$OUT"
expect "game show: no password hashes" sh -c "! grep -q '\\\$y\\\$' '$OUT'"
p game show nosuch
expect "game show of an unknown game: exit 1" test $? -eq 1

# A host command for a game that is not there: said in the host's words
# (which data directory, how to list its games), exit 1, and nothing made:
# not the data directory, not a spool, not a key, not a message filed.
NONE=$WORK/none EMPTY=$WORK/empty
mkdir "$EMPTY"
for c in "game school3 DELEGATION England a@school.example" "game school3 START" \
	"game show school3" "game process school3" "game process school3 --preview" \
	"game rollback school3 S1901M" "replay --game school3"; do
	cmd=${c%% *}
	"$POUCH" --data "$NONE" $c >"$OUT" 2>"$ERR"
	rc=$?
	expect "pouch $c, no data directory: exit 1, said so, nothing made" sh -c \
		"[ $rc -eq 1 ] && grep -q '^pouch $cmd: no game school3: there is no data directory $NONE (pouch --data $NONE game new makes one' '$ERR' &&
		 ! grep -q 'your game master' '$OUT' && [ ! -e '$NONE' ]"
	"$POUCH" --data "$EMPTY" $c >"$OUT" 2>"$ERR"
	rc=$?
	expect "pouch $c, a data directory without it: exit 1, said so, nothing made" sh -c \
		"[ $rc -eq 1 ] && grep -q '^pouch $cmd: no game school3 in $EMPTY (pouch --data $EMPTY game list shows its games' '$ERR' &&
		 ! grep -q 'your game master' '$OUT' && [ -z \"\$(ls -A '$EMPTY')\" ]"
done
for c in "game list" "doctor" "fetch" "send" "replay --verify" "oauth token"; do
	"$POUCH" --data "$NONE" $c >"$OUT" 2>"$ERR"
	rc=$?
	expect "pouch $c, no data directory: exit 1, said so, nothing made" sh -c \
		"[ $rc -eq 1 ] && grep -q 'the data directory $NONE does not exist\\|there is no data directory $NONE' '$OUT' '$ERR' &&
		 [ ! -e '$NONE' ]"
done
# The README's order: a data directory with its settings, doctor, then the
# game. doctor makes nothing there (the spool, its key: the first run's).
mkdir "$WORK/fresh"
echo "judge.address = judge@school.test" >"$WORK/fresh/pouch.conf"
"$POUCH" --data "$WORK/fresh" doctor >"$OUT" 2>"$ERR"
expect "doctor in a new data directory with its settings: the address ok, nothing made" sh -c \
	"grep -q '^ok: the judge.s address is judge@school.test' '$OUT' &&
	 grep -q '^ok: the inbox Maildir $WORK/fresh/mail/inbox will be made by the first run' '$OUT' &&
	 [ \"\$(ls -A '$WORK/fresh')\" = pouch.conf ]"
echo "not a directory" >"$WORK/afile"
"$POUCH" --data "$WORK/afile" game new g9 --gm gm@school.example >"$OUT" 2>"$ERR"
expect "game new with --data naming a file: exit 1, said so" sh -c \
	"[ $? -eq 1 ] && grep -q '^pouch game: $WORK/afile is not a directory (--data DIR chooses the data directory)' '$ERR'"
"$POUCH" --data "$EMPTY" game list >"$OUT" 2>"$ERR"
expect "game list in an empty data directory: no games, exit 0, nothing made" sh -c \
	"[ $? -eq 0 ] && grep -q '^no games in $EMPTY' '$OUT' && [ -z \"\$(ls -A '$EMPTY')\" ]"
printf 'GAME school3 GM\nSTART\n' | "$POUCH" --data "$NONE" game - >"$OUT" 2>"$ERR"
expect "game - naming a game that is not there: exit 1, said so, nothing made" sh -c \
	"[ $? -eq 1 ] && grep -q '^pouch game: no game school3: there is no data directory' '$ERR' && [ ! -e '$NONE' ]"
# A judge with games: nothing filed in its spool for the missing one.
ledger=$(wc -c <"$D/spool/ledger")
p game school3 DELEGATION England a@school.example
rc=$?
expect "a game not in a judge's data directory: exit 1, the host told which directory" sh -c \
	"[ $rc -eq 1 ] && grep -q '^pouch game: no game school3 in $D (pouch --data $D game list shows its games; --data DIR chooses another data directory)' '$ERR'"
expect "... and nothing filed in its spool" test "$(wc -c <"$D/spool/ledger")" -eq "$ledger"
sugg=$(sed -n 's/.*(\(pouch .* game list\) shows.*/\1/p' "$ERR")
(PATH="$WORK/bin:$PATH" sh -c "$sugg") >"$OUT" 2>"$ERR"
expect "... the command it suggests lists the judge's games" grep -q "^g1 " "$OUT"
p game G1 LIST
expect "a game's name in other capitals is the game" sh -c "! grep -q 'no game' '$ERR'"
# Without --data: the default, /var/lib/pouch, named, and not made. In a
# mount namespace of its own with an empty /var/lib (root only): the
# machine's /var/lib is not touched, whatever the command does.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
	unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs none /var/lib &&
		env -u POUCH_DATA '$POUCH' game school3 DELEGATION England a@school.example >'$OUT' 2>'$ERR'
		echo \$? >'$WORK/rc'; [ -e /var/lib/pouch ] && echo made >>'$WORK/rc'"
	expect "without --data: the default named, exit 1, /var/lib/pouch not made" sh -c \
		"[ \"\$(cat '$WORK/rc')\" = 1 ] &&
		 grep -q '^pouch game: no game school3: there is no data directory /var/lib/pouch (pouch game new makes one' '$ERR'"
else
	echo "  skipped: the default data directory (needs root and unshare)"
fi
# A game's name alone reads its commands from standard input: at a
# terminal the host is told so, not left waiting in silence.
if command -v script >/dev/null 2>&1; then
	script -qc "'$POUCH' --data '$D' game g1 </dev/tty" /dev/null </dev/null >"$OUT" 2>&1
	expect "game NAME at a terminal: says it reads the commands, and how to end" \
		grep -q "^pouch game: type g1's commands, one a line, then Ctrl-D (or give one after the name: pouch --data $D game g1 START)" "$OUT"
else
	echo "  skipped: game NAME at a terminal (needs script(1))"
fi
echo LIST | "$POUCH" --data "$D" game g1 >"$OUT" 2>"$ERR"
expect "... and from a pipe, says nothing of it" sh -c "[ ! -s '$ERR' ]"
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
# Nor does a run whose mail is only a copy of a message applied (the same
# Message-ID and text): nothing of it is applied, so the games stay unread.
cp "$D/mail/inbox/cur/c1"* "$D/mail/inbox/new/c1-again"
LD_DEBUG=files "$POUCH" --data "$D" -v run >"$OUT" 2>"$ERR"
expect "a run that fetches a copy alone: stored, nothing applied" grep -q "fetched 1 (1 new), applied 0" "$OUT"
expect "... and the games not loaded (no libxml2)" sh -c "! grep -q 'file=libxml2' '$ERR'"
# The passwords of the mail a run fetches are checked on a thread of its
# own while the fetch goes on (on a machine with a processor to spare);
# the verdicts are the judge's: a wrong password is refused.
printf 'From: carol@school.example\nSubject: orders\nMessage-ID: <c2@school.example>\n\nGAME g1 France france-pw\nA Mar - Spa\n' \
	>"$D/mail/inbox/new/c2"
printf 'From: dave@school.example\nSubject: orders\nMessage-ID: <d1@school.example>\n\nGAME g1 Germany france-pw\nA Ber - Kie\n' \
	>"$D/mail/inbox/new/d1"
p -v run
if [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -gt 1 ]; then
	expect "run: both mails' passwords queued for checking while the mail was fetched" \
		grep -q "^passwords: 2 checked ahead, 2 of them queued while fetching; " "$OUT"
else
	echo "  skipped: passwords checked while fetching (one processor)"
fi
expect "... the right one: the orders accepted" sh -c \
	"grep -l 'In-Reply-To: <c2@school.example>' '$D'/mail/out/carol@school.example/new/* | xargs grep -q 'accepted: A mar - spa'"
expect "... the wrong one: refused" sh -c \
	"grep -l 'In-Reply-To: <d1@school.example>' '$D'/mail/out/dave@school.example/new/* | xargs grep -q 'REFUSED: this GAME line does not match'"
# A fetch that fails once the mail is stored (a name too long to be moved
# to cur/, once seen): what it stored is applied all the same, its
# passwords checked ahead as the fetch went on.
long=$(printf '%0253d' 3)
printf 'From: carol@school.example\nSubject: orders\nMessage-ID: <c3@school.example>\n\nGAME g1 France france-pw\nF Bre - Mao\n' \
	>"$D/mail/inbox/new/$long"
printf 'From: dave@school.example\nSubject: orders\nMessage-ID: <d2@school.example>\n\nGAME g1 Germany germany-pw\nA Ber - Kie\n' \
	>"$D/mail/inbox/new/d2"
p -v run
expect "a fetch that fails after storing: exit 1, saying why" sh -c \
	"[ $? -eq 1 ] && grep -q '1 messages could not be marked seen' '$ERR'"
expect "... both messages applied" grep -q "fetched 2 (2 new), applied 2" "$OUT"
if [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" -gt 1 ]; then
	expect "... their passwords queued for checking while fetching" \
		grep -q "^passwords: 2 checked ahead, 2 of them queued while fetching; " "$OUT"
fi
expect "... and answered: France's orders accepted" sh -c \
	"grep -l 'In-Reply-To: <c3@school.example>' '$D'/mail/out/carol@school.example/new/* | xargs grep -q 'accepted: F bre - mao'"
expect "... Germany's too" sh -c \
	"grep -l 'In-Reply-To: <d2@school.example>' '$D'/mail/out/dave@school.example/new/* | xargs grep -q 'accepted: A ber - kie'"
rm "$D/mail/inbox/new/$long"
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
expect "... the record it retired kept only as its rolled-back copy" sh -c \
	"[ ! -e '$D/games/g1/history/0001.txt' ] && ls '$D/games/g1/history/' | grep -q '^0001\.rolled-back-[0-9]*\.txt\$'"
"$POUCH" --data "$D" replay --verify >"$OUT" 2>"$ERR"
expect "... and replay --verify agrees" grep -q ", 0 differences" "$OUT"
# A rollback past the first phase: the index, the current map and the page
# of the last phase kept are drawn again at once, as a replay draws them;
# the rolled-back phase's own pages stay, unlinked.
p game process g1
p game process g1
p game rollback g1 F1901M
expect "game rollback to Fall 1901: the index is now at Fall 1901" \
	grep -q "now at <strong>Fall 1901 Movement" "$D/pages/g1/index.html"
expect "... and neither it nor Spring 1901's page links the phase rolled back" \
	sh -c "! grep -q 'F1901M\.html' '$D/pages/g1/index.html' '$D/pages/g1/S1901M.html'"
rm -rf "$WORK/rolled"
"$POUCH" --data "$D" replay --into "$WORK/rolled" >"$OUT" 2>"$ERR"
expect "... the pages as the replay draws them, but the rolled-back phase's ($(diff -rq "$D/pages/g1" "$WORK/rolled/pages/g1" | tr '\n' ' '))" \
	sh -c "diff -rq '$D/pages/g1' '$WORK/rolled/pages/g1' | grep -v '^Only in $D/pages/g1: F1901M\(\.html\|\.svg\|-after\.svg\)\$' | (! grep -q .)"

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

# Unix conventions: COMMAND --help (or -h) prints its usage on standard
# output and exits 0; a wrong usage goes to standard error with status 2;
# every usage line of --help is in pouch(1)'s SYNOPSIS (rendered, blanks
# squeezed).
COMMANDS="run game replay doctor datc check-game play transcript render render-game map fetch send oauth spool read-mail"
# ... and that is every command pouch --help lists
listed=$("$POUCH" --help | sed -n 's/^  pouch \([a-z-]*\).*/\1/p' | sort -u | tr '\n' ' ')
unlisted=""
for c in $listed; do
	case " $COMMANDS " in *" $c "*) ;; *) unlisted="$unlisted $c" ;; esac
done
expect "every command of pouch --help is checked against the SYNOPSIS${unlisted:+ (not:$unlisted)}" \
	test -z "$unlisted"
SYNOPSIS=$WORK/synopsis
MANWIDTH=1000 MANPAGER=cat man -l judge/cli/pouch.1 2>/dev/null | col -b |
	sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | tr -s ' \t' ' ' >"$SYNOPSIS"
expect "the man page renders, with a SYNOPSIS" grep -q "pouch run" "$SYNOPSIS"
for c in $COMMANDS; do
	for h in --help -h; do
		"$POUCH" --data "$D" $c $h >"$OUT" 2>"$ERR"
		rc=$?
		expect "pouch $c $h: usage on stdout, nothing on stderr, exit 0" sh -c \
			"[ $rc -eq 0 ] && grep -q '^usage: pouch $c' '$OUT' && [ ! -s '$ERR' ]"
	done
	"$POUCH" --data "$D" $c --help | sed -n 's/^\(usage:\|      \) pouch /pouch /p' |
		tr -s ' \t' ' ' >"$WORK/forms"
	missing=""
	while IFS= read -r form; do
		grep -qF -- "$form" "$SYNOPSIS" || missing="$missing [$form]"
	done <"$WORK/forms"
	expect "pouch $c --help: each usage line is in pouch(1)'s SYNOPSIS${missing:+ (missing:$missing)}" \
		sh -c "[ -s '$WORK/forms' ] && [ -z '$missing' ]"
done
# send --now takes the times run --now takes, and seconds as before
for t in "2030-01-06T12:00:00Z" "2030-01-06 12:00" 1893931200; do
	"$POUCH" --data "$D" send --now "$t" >"$OUT" 2>"$ERR"
	rc=$?
	expect "send --now '$t': the clock taken, exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^sent ' '$OUT'"
done
for c in "run --bogus" "game --bogus" "replay --bogus" "render --bogus" "send --bogus" "doctor extra"; do
	"$POUCH" --data "$D" $c >"$OUT" 2>"$ERR"
	rc=$?
	expect "pouch $c: usage on stderr, nothing on stdout, exit 2" sh -c \
		"[ $rc -eq 2 ] && grep -q '^usage: pouch ' '$ERR' && [ ! -s '$OUT' ]"
done

# pouch doctor on the embedded default: the placeholder address is a
# problem (exit 1); with a real address and nothing else wrong, exit 0.
p doctor
rc=$?
expect "doctor, judge@localhost: a problem, exit 1" sh -c \
	"[ $rc -eq 1 ] && grep -q '^problem: the judge.s address is judge@localhost, a placeholder' '$OUT'"
expect "... and says which file sets it" grep -q "(set judge.address in $D/pouch.conf)" "$OUT"
expect "... the inbox Maildir checked" grep -q "^ok: the inbox Maildir $D/mail/inbox is there and writable" "$OUT"
expect "... the outgoing Maildirs checked" grep -q "^ok: the outgoing mail directory $D/mail/out" "$OUT"
expect "... cron looked for (ok or a warning)" grep -q "^\(ok\|warning\): .*\(pouch run\|pouch.timer\)" "$OUT"
expect "... every game's zone checked" grep -q "^ok: 1 game, every zone known to tzdata" "$OUT"
echo "judge.address = judge@school.test" >"$D/pouch.conf"
p doctor
rc=$?
expect "doctor, a real address, nothing wrong: exit 0" sh -c \
	"[ $rc -eq 0 ] && grep -q '^ok: the judge.s address is judge@school.test' '$OUT' && ! grep -q '^problem' '$OUT'"
echo "judge.pages = $WORK/www" >>"$D/pouch.conf"
p doctor
expect "doctor, judge.pages without judge.base_url: a problem" sh -c \
	"[ $? -eq 1 ] && grep -q '^problem: judge.pages is .* but judge.base_url is not set' '$OUT'"
# judge.base_url alone: the pages go to their default, DATA/pages
# (pouch.conf(5)), as in contrib/demo/run.sh; no problem when it serves them.
mkdir -p "$D/pages"
printf 'judge.address = judge@school.test\njudge.base_url = file://%s/pages\n' "$D" >"$D/pouch.conf"
p doctor
expect "doctor, judge.base_url without judge.pages (the default): ok, exit 0" sh -c \
	"[ $? -eq 0 ] && grep -q '^ok: file://$D/pages serves $D/pages' '$OUT' && ! grep -q '^problem' '$OUT'"
# Pages written where the base URL points: a test file is read back there.
mkdir -p "$WORK/www" "$WORK/elsewhere"
printf 'judge.address = judge@school.test\njudge.pages = %s\njudge.base_url = file://%s\n' \
	"$WORK/www" "$WORK/www" >"$D/pouch.conf"
p doctor
expect "doctor, the base URL serves the pages directory: ok, exit 0" sh -c \
	"[ $? -eq 0 ] && grep -q '^ok: file://$WORK/www serves $WORK/www (a test file written there was read back)' '$OUT'"
expect "... and the test file is gone" sh -c "[ -z \"\$(ls -A '$WORK/www')\" ]"
printf 'judge.address = judge@school.test\njudge.pages = %s\njudge.base_url = file://%s\n' \
	"$WORK/elsewhere" "$WORK/www" >"$D/pouch.conf"
p doctor
expect "doctor, the base URL serves another directory: a problem" sh -c \
	"[ $? -eq 1 ] && grep -q '^problem: file://$WORK/www does not serve $WORK/elsewhere: a test file written there was not found' '$OUT'"
echo "judge.address = judge@school.test" >"$D/pouch.conf"
mv "$D/mail/inbox" "$WORK/inbox.saved"
echo "not a directory" >"$D/mail/inbox"
p doctor
expect "doctor, the inbox is a file: a problem" sh -c \
	"[ $? -eq 1 ] && grep -q '^problem: the inbox Maildir $D/mail/inbox: .* is not a directory' '$OUT'"
rm "$D/mail/inbox"
mv "$WORK/inbox.saved" "$D/mail/inbox"
# Cron: an /etc/cron.d entry, in a mount namespace of its own (root only;
# the machine's /etc/cron.d is not touched).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
	unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs none /etc/cron.d &&
		echo '*/5 * * * * root $POUCH --data $D run' >/etc/cron.d/pouch &&
		'$POUCH' --data '$D' doctor >'$OUT' 2>'$ERR'
		echo '*/5 * * * * root $POUCH --data /elsewhere run' >/etc/cron.d/pouch &&
		'$POUCH' --data '$D' doctor >'$OUT.other' 2>>'$ERR'
		echo '*/5 * * * * root $POUCH --config /etc/pouch-nosuch.conf --data $D run' >/etc/cron.d/pouch &&
		'$POUCH' --data '$D' doctor >'$OUT.config' 2>>'$ERR'
		echo '*/5 * * * * nobody $POUCH --data $D run' >/etc/cron.d/pouch &&
		'$POUCH' --data '$D' doctor >'$OUT.user' 2>>'$ERR'
		echo '@hourly pouch-nosuch-user $POUCH --data $D run' >/etc/cron.d/pouch &&
		'$POUCH' --data '$D' doctor >'$OUT.nouser' 2>>'$ERR'"
	expect "doctor, an /etc/cron.d entry that runs pouch run here: ok" grep -q "^ok: /etc/cron.d/pouch runs pouch run$" "$OUT"
	expect "... one that runs it on another data directory: a warning" \
		grep -q "^warning: /etc/cron.d/pouch runs pouch run on /elsewhere, not on $D" "$OUT.other"
	expect "... one with other settings (contrib/cron/pouch's --config, not there): a warning" \
		grep -q "^warning: /etc/cron.d/pouch runs pouch run with the settings /etc/pouch-nosuch.conf (not there: every run fails), not $D/pouch.conf" "$OUT.config"
	expect "... one run as a user who does not own the data directory: a warning" \
		grep -q "^warning: /etc/cron.d/pouch runs pouch run as nobody, but $D is not theirs" "$OUT.user"
	expect "... one run as a user the machine does not have: a warning" \
		grep -q "^warning: /etc/cron.d/pouch runs pouch run as pouch-nosuch-user, a user this machine does not have" "$OUT.nouser"
	# contrib/cron/pouch as README sets it up (its data directory and path
	# here): the data directory's own settings, run as pouch, who owns it
	# (a user of the namespace's own when the machine has none).
	CD=$WORK/cron-data
	mkdir -p "$CD"
	echo 'judge.address = diplomacy@school.example' >"$CD/pouch.conf"
	sed "s#/var/lib/pouch#$CD#g; s#/usr/local/bin/pouch#$POUCH#" contrib/cron/pouch >"$WORK/cron.pouch"
	unshare -m sh -c "mount --make-rprivate / && mount -t tmpfs none /etc/cron.d &&
		if ! getent passwd pouch >/dev/null; then
			cp /etc/passwd '$WORK/passwd' && echo 'pouch:x:64999:64999::/nonexistent:/bin/false' >>'$WORK/passwd' &&
			mount --bind '$WORK/passwd' /etc/passwd
		fi &&
		chown -R pouch '$CD' && cp '$WORK/cron.pouch' /etc/cron.d/pouch &&
		'$POUCH' --data '$CD' doctor >'$OUT.contrib' 2>>'$ERR'"
	expect "doctor, contrib/cron/pouch as README sets it up: ok" \
		grep -q "^ok: /etc/cron.d/pouch runs pouch run$" "$OUT.contrib"
else
	echo "  skipped: doctor's cron check (needs root and unshare)"
fi
cron_cmd=$(sed -n 's/^[^#].*  pouch  //p' contrib/cron/pouch)
expect "contrib/systemd/pouch.service runs what contrib/cron/pouch runs, as pouch" sh -c \
	"[ -n '$cron_cmd' ] && grep -qx 'ExecStart=$cron_cmd' contrib/systemd/pouch.service && grep -qx 'User=pouch' contrib/systemd/pouch.service"
"$POUCH" --data "$D" run --now 2099-01-01T00:00:00Z >/dev/null 2>&1
p doctor
expect "doctor, the clock behind the last run: a problem" sh -c \
	"[ $? -eq 1 ] && grep -q '^problem: the system clock (.*) is before the judge.s last run (2099-01-01' '$OUT'"
rm "$D/pouch.conf"

# france_game FN GAME TIME [OPTION...]: through FN (q, r3, ...: pouch on a
# data directory), game GAME made at TIME with France its one delegation,
# and started.
france_game() {
	fn=$1 g=$2 t=$3
	shift 3
	$fn game --now "$t" new "$g" --gm gm@school.example --password gm-password "$@"
	$fn game --now "$t" "$g" DELEGATION France carol@school.example PASSWORD france-pw
	$fn game --now "$t" "$g" START
}
# carol_mail DIR GAME ID SUBJECT ORDER: France's order for GAME in the
# inbox of the data directory DIR, Message-ID <ID@school.example>.
carol_mail() {
	mkdir -p "$1/mail/inbox/new"
	printf 'From: carol@school.example\nSubject: %s\nMessage-ID: <%s@school.example>\n\nGAME %s France france-pw\n%s\n' \
		"$4" "$3" "$2" "$5" >"$1/mail/inbox/new/$3"
}

# The deadline passes with orders missing: the late delegation and the GM
# are told of the grace period, and game list and game show give its end.
D2=$WORK/data2
q() { "$POUCH" --data "$D2" "$@" >"$OUT" 2>"$ERR"; }
france_game q g2 "2026-11-20 09:00" --grace 24h
q game --now "2026-11-22 10:00" list
expect "game list after the deadline, orders missing: the grace period's end" \
	grep -q "^g2 .*grace until Monday 23 November 2026, 09:00 UTC" "$OUT"
q game --now "2026-11-22 10:00" show g2
expect "game show: the grace period's end" grep -q "^# the deadline passed with orders missing: grace period until Monday 23 November 2026, 09:00 UTC" "$OUT"
q run --now "2026-11-22 09:10"
expect "at the deadline the late delegation is told" sh -c \
	"grep -l 'deadline passed' '$D2'/mail/out/carol@school.example/new/* | xargs grep -q 'You have until Monday 23 November 2026, 09:00 UTC'"
expect "... and the GM, with who is late and in which phase" sh -c \
	"grep -l 'deadline passed: orders missing for Spring 1901 Movement' '$D2'/mail/out/gm@school.example/new/* | xargs grep -q 'Orders are missing from: France'"
LD_DEBUG=files "$POUCH" --data "$D2" run --now "2026-11-22 09:20" >"$OUT" 2>"$ERR"
expect "a run in the grace period, once it was announced, is idle (no game loaded)" \
	sh -c "! grep -q 'file=libxml2' '$ERR'"
# Once the judge told the late delegation, game list and game show give the
# grace period's end, as its notice did, whatever the clock they read (a
# rehearsal's runs ahead of it, or a clock set back).
q game --now "2026-11-21 12:00" list
expect "game list, the notice sent, a clock before the deadline: the grace period's end" \
	grep -q "^g2 .*grace until Monday 23 November 2026, 09:00 UTC" "$OUT"
q game --now "2026-11-21 12:00" show g2
expect "... and game show" grep -q "^# the deadline passed with orders missing: grace period until Monday 23 November 2026, 09:00 UTC" "$OUT"
# The index of the game's map pages gives the grace period's end too, in
# game list's words, drawn by the run that told the late delegation: g2
# before its first phase is decided, and g6 after it (a game whose pages
# are otherwise drawn again only when a phase is decided); the other pages
# as they were.
expect "the map pages' index in the grace period: its end" \
	grep -q "Deadline passed; grace until Monday 23 November 2026, 09:00 UTC" "$D2/pages/g2/index.html"
D6=$WORK/data6
r6() { "$POUCH" --data "$D6" "$@" >"$OUT" 2>"$ERR"; }
france_game r6 g6 "2026-11-20 09:00" --grace 24h
carol_mail "$D6" g6 c6a orders "$(printf 'A Par - Bur\nA Mar H\nF Bre H')"
r6 run --now "2026-11-20 10:00"
expect "a phase decided: the index gives the next deadline" \
	grep -q "Next deadline: Sunday 22 November 2026, 10:00 UTC" "$D6/pages/g6/index.html"
ls -i "$D6/pages/g6" | grep -v index.html >"$WORK/pages6.before"
r6 run --now "2026-11-22 10:10"
expect "the deadline passed, orders missing: that run draws the index with the grace period's end" \
	grep -q "Deadline passed; grace until Monday 23 November 2026, 10:00 UTC" "$D6/pages/g6/index.html"
ls -i "$D6/pages/g6" | grep -v index.html >"$WORK/pages6.after"
expect "... and no other page" cmp -s "$WORK/pages6.before" "$WORK/pages6.after"
# The game master's new deadline and PAUSE: the index follows them.
r6 game --now "2026-11-22 11:00" g6 SET DEADLINE 2026-11-25 18:00
expect "a new deadline set by the game master: the index gives it" \
	grep -q "Next deadline: Wednesday 25 November 2026, 18:00 UTC" "$D6/pages/g6/index.html"
r6 game --now "2026-11-22 11:10" g6 PAUSE
expect "... the game paused: the index says it waits for the game master, not a deadline" \
	sh -c "grep -q '<p class=\"deadline\">Paused; waiting for the game master</p>' '$D6/pages/g6/index.html' &&
	 ! grep -q 'Next deadline' '$D6/pages/g6/index.html'"
r6 game --now "2026-11-22 11:20" list
expect "... and game list, in the same words" grep -q "^g6 .* paused .*Paused; waiting for the game master\$" "$OUT"
# A game that waits for its game master (SET nmr wait) once its deadline
# passed with orders missing: the index and game list say so, not the
# deadline that passed.
D8=$WORK/data8
r8() { "$POUCH" --data "$D8" "$@" >"$OUT" 2>"$ERR"; }
france_game r8 g8 "2026-11-20 09:00"
r8 game --now "2026-11-20 09:00" g8 SET nmr wait
r8 game --now "2026-11-22 09:30" list
expect "nmr wait, the deadline passed with orders missing: game list says the game waits for its master" \
	grep -q "^g8 .* active .*Deadline passed; waiting for the game master\$" "$OUT"
r8 run --now "2026-11-22 09:30"
expect "... and so does the index, in the same words" \
	sh -c "grep -q '<p class=\"deadline\">Deadline passed; waiting for the game master</p>' '$D8/pages/g8/index.html' &&
	 ! grep -q 'Next deadline' '$D8/pages/g8/index.html'"

# The phase pages say what the results mail says, in its words: a power
# that gave no orders, and the builds a power left unused (France takes
# Spain and Portugal and builds one army of two).
D7=$WORK/data7
r7() { "$POUCH" --data "$D7" "$@" >"$OUT" 2>"$ERR"; }
france_game r7 g7 "2026-11-20 09:00"
carol_mail "$D7" g7 c7a spring "$(printf 'A Par - Bur\nA Mar - Spa\nF Bre - Mid')"
r7 run --now "2026-11-20 10:00"
carol_mail "$D7" g7 c7b fall "$(printf 'F Mid - Por\nA Spa H\nA Bur H')"
r7 run --now "2026-11-20 11:00"
carol_mail "$D7" g7 c7c winter "Build A Par"
r7 run --now "2026-11-20 12:00"
r7 run --now "2026-11-23 12:00"
expect "the Winter's results mail: France's build not used" sh -c \
	"grep -l 'Adjustment results for Winter of 1901' '$D7'/mail/out/carol@school.example/new/* | xargs grep -q '^France: 1 build not used\.\$'"
expect "... and its page, in the same words" \
	grep -q '>France</td><td colspan="2" class="none">1 build not used\.</td>' "$D7/pages/g7/W1901A.html"
expect "a power without orders: the mail's words on the page" sh -c \
	"grep -q '^England: no orders; all units hold\.\$' '$D7'/mail/out/carol@school.example/new/* &&
	 grep -q '>England</td><td colspan=\"2\" class=\"none\">no orders; all units hold\.</td>' '$D7/pages/g7/S1901M.html'"
expect "the first phase's page leads back to the starting position" \
	grep -q '<a href="start.html" rel="prev">' "$D7/pages/g7/S1901M.html"
expect "... and the starting position's page on to it" \
	grep -q '<a href="S1901M.html" rel="next">Spring 1901 Movement &rarr;</a>' "$D7/pages/g7/start.html"

# An order changes nothing on a game's map pages (they show no orders
# before the phase is decided): a run that reads one draws none, at the
# first phase (index and start page) as later; pages altered on disk are
# left as they are. The deadline's passing with orders missing draws the
# index again.
D9=$WORK/data9
r9() { "$POUCH" --data "$D9" "$@" >"$OUT" 2>"$ERR"; }
france_game r9 g9 "2026-11-20 09:00"
for f in index.html start.html current.svg start.svg; do echo "<!-- kept -->" >>"$D9/pages/g9/$f"; done
carol_mail "$D9" g9 c9a some "A Par H"
r9 run --now "2026-11-20 10:00"
expect "an order at the first phase: the run applies it" sh -c \
	"grep -q '^  accepted: A par H' '$D9'/mail/out/carol@school.example/new/*"
expect "... and draws no page" sh -c \
	"for f in index.html start.html current.svg start.svg; do tail -n 1 '$D9/pages/g9/'\$f | grep -q '^<!-- kept -->\$' || exit 1; done"
r9 run --now "2026-11-22 09:30"
expect "the deadline passed with orders missing: the index is drawn again, with the grace period's end" sh -c \
	"grep -q 'Deadline passed; grace until' '$D9/pages/g9/index.html' && ! grep -q 'kept' '$D9/pages/g9/index.html'"

# A rehearsal days ahead with --now: mail files with today's time were
# delivered before the last run's clock; the run says so in one line on
# stderr. Files given the time they arrive (touch -d) are not warned of.
D4=$WORK/data4
r4() { "$POUCH" --data "$D4" "$@" >"$OUT" 2>"$ERR"; }
france_game r4 g4 "2030-01-07 09:00"
carol_mail "$D4" g4 c4a orders "A Par - Bur"
touch -d "2030-01-07 09:30Z" "$D4/mail/inbox/new/c4a"
r4 run --now "2030-01-07 10:00"
expect "run --now, mail given the time it arrived: no warning" test ! -s "$ERR"
carol_mail "$D4" g4 c4b more "A Mar - Spa"
r4 run --now "2030-01-07 11:00"
expect "run --now, a fresh mail file from before the last run's clock: one line on stderr" sh -c \
	"[ \$(wc -l <'$ERR') -eq 1 ] && grep -q '^pouch run: 1 message was delivered before the last run.s clock (2030-01-07T10:00:00Z), taken as arriving then: with --now, give mail files the time they arrive (touch -d)$' '$ERR'"
expect "... and the mail is applied, arriving at that clock" sh -c \
	"grep -l 'Re: more' '$D4'/mail/out/carol@school.example/new/* | xargs grep -q '^Date: Mon, 7 Jan 2030 10:00:00'"
# A --now before the last run's clock: the run says so and works at that
# clock, so that its replies, deadlines and phase stamps never go back.
carol_mail "$D4" g4 c4c late "$(printf 'A Par - Bur\nA Mar H\nF Bre H')"
touch -d "2030-01-07 11:00Z" "$D4/mail/inbox/new/c4c"
r4 run --now "2030-01-07 09:30"
expect "run --now before the last run's clock: one line on stderr, the last run's clock kept" sh -c \
	"[ \$(wc -l <'$ERR') -eq 1 ] && grep -q '^pouch run: the clock, 2030-01-07T09:30:00Z, is before the last run.s, 2030-01-07T11:00:00Z: this one works at the last run.s clock (a judge.s clock never goes back)$' '$ERR'"
expect "... and the phase its orders complete is decided then: the next deadline counts from it" \
	grep -q "Next deadline: Wednesday 9 January 2030, 11:00 UTC" "$D4/pages/g4/index.html"
r4 replay --into "$WORK/replay4" --verify
expect "... replay --verify: no difference" grep -q ", 0 differences" "$OUT"

# --now at the end of a game command is the clock, not a setting or a
# command's word.
DN=$WORK/data-now
rn() { "$POUCH" --data "$DN" "$@" >"$OUT" 2>"$ERR"; }
rn game new gn --gm gm@school.example --password gm-password --now "2030-01-07 09:00"
expect "game new NAME ... --now TIME: no setting called now" sh -c "! grep -q 'setting \"now\"' '$OUT'"
rn game gn DELEGATION France carol@school.example PASSWORD france-pw --now "2030-01-07 09:00"
rn game gn START --now "2030-01-07 09:00"
rn game --now "2030-01-07 09:30" list
expect "... game NAME START --now TIME starts the game then: the deadline counts from it" \
	grep -q "^gn .*Wednesday 9 January 2030, 09:00 UTC" "$OUT"

# The judge's address set after the game was made: a replay uses the
# settings in force when each message was made, and finds no difference.
D3=$WORK/data3
r3() { "$POUCH" --data "$D3" "$@" >"$OUT" 2>"$ERR"; }
france_game r3 g3 "2026-11-20 09:00"
carol_mail "$D3" g3 c3a orders "A Par - Bur"
r3 run --now "2026-11-20 10:00"
printf 'judge.address = judge@school.example\n' >"$D3/pouch.conf"
carol_mail "$D3" g3 c3b "more orders" "A Mar - Spa"
r3 run --now "2026-11-20 11:00"
expect "messages made before and after judge.address was set" sh -c \
	"grep -q '^Message-ID: <pouch.*@localhost>' '$D3'/mail/out/carol@school.example/new/* &&
	grep -q '^Message-ID: <pouch.*@school.example>' '$D3'/mail/out/carol@school.example/new/*"
r3 replay --into "$WORK/replay3" --verify
expect "replay --verify after a change of settings: no difference" grep -q ", 0 differences" "$OUT"
r3 game --now "2026-11-20 11:00" new g4 --gm gm@school.example --password gm-password
expect "game new with judge.address set: no warning" sh -c "! grep -q warning '$ERR'"
# pouch run on a fresh data directory makes the Maildir it reads.
"$POUCH" --data "$WORK/fresh" run >"$OUT" 2>"$ERR"
expect "pouch run on a fresh data directory: exit 0, and the inbox Maildir made" \
	test $? -eq 0 -a -d "$WORK/fresh/mail/inbox/new" -a -d "$WORK/fresh/mail/inbox/cur" -a -d "$WORK/fresh/mail/inbox/tmp"

# A run that fails part way (the history record of the phase the second
# message completes cannot be written) marks nothing applied: the first
# message's effects were not saved either. Once the fault is gone, the
# next run applies both.
K=$WORK/killed
kp() { "$POUCH" --data "$K" "$@" >"$OUT" 2>"$ERR"; }
kp game new k1 --gm gm@school.example --password gm-password
kp game k1 DELEGATION England eve@school.example PASSWORD england-pw
kp game k1 START
# No phase was played: the history folder is not there yet; a file
# takes its place.
test ! -e "$K/games/k1/history" || { echo "history of k1 already there"; exit 1; }
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
kp -v run
expect "the next run applies both messages" grep -q "applied 2," "$OUT"
kp replay --into "$WORK/failed-replay" --verify
expect "... and the replay finds no difference" grep -q ", 0 differences" "$OUT"

# pouch play: each rule system's game adjudicated and carried on by its own
# rules (judge/system.h), as the judge plays it by mail.
cat >"$WORK/rp.txt" <<'EOF'
ORDERS Spring 1901
Germany: A ber - mun
Germany: A mun H
ORDERS Fall 1901
Germany: F kie - hol
EOF
"$POUCH" play --variant realpolitik "$WORK/rp.txt" >"$OUT" 2>"$ERR"
expect "play, Realpolitik: exit 0, the game under Calhamer's rules" sh -c \
	"[ $? -eq 0 ] && grep -q \"^Realpolitik (1958), Calhamer's rules, starting Spring 1901\" '$OUT'"
expect "... an army moves onto a stack in its own capital" sh -c \
	"grep -q '^Germany: Army Berlin -> Munich\.\$' '$OUT' && grep -q '^Germany: fleet in Holland, 2 armies in Munich\.' '$OUT'"
expect "... a centre entered on the Fall move is not occupied (occupation on the even move)" \
	grep -q '^Germany     3: Berlin, Kiel, Munich$' "$OUT"
"$POUCH" play contrib/demo/game.txt >"$OUT" 2>"$ERR"
expect "play, the standard game: exit 0, the 2023 rules" sh -c \
	"[ $? -eq 0 ] && grep -q '^Standard, 2023 rules, starting Spring 1901' '$OUT'"
expect "... the Winter's builds left unused are told" sh -c \
	"grep -q '^Russia: 1 build not used\.' '$OUT'"
"$POUCH" play --variant muna contrib/demo/muna.txt >"$OUT" 2>"$ERR"
expect "play, MUNA: exit 0, the committee's rules and its victory point standings" sh -c \
	"[ $? -eq 0 ] && grep -q '^MUN Alfrink 1935 Historical Committee, MUNA rules' '$OUT' &&
	 grep -q '^Victory points:' '$OUT'"
printf 'ORDERS Spring 1901\n' >"$WORK/wg.txt"
"$POUCH" play --variant worldgame "$WORK/wg.txt" >"$OUT" 2>"$ERR"
expect "play, the World Game: refused with exit 1, it has no board" sh -c \
	"[ $? -eq 1 ] && cat '$OUT' '$ERR' | grep -q 'has no board: pouch play plays orders on a map'"

# pouch -v run's summary says what it counts of the map pages: the phase
# pages drawn (a new phase's, and the page of the phase before it, drawn
# again for its link) and for how many games, not their index or current
# map. Two games, England alone played in each: each deadline decides
# both games' phase.
S=$WORK/summary
ps() { "$POUCH" --data "$S" "$@" >"$OUT" 2>"$ERR"; }
t=1795996800
for g in s1 s2; do
	ps game --now $t new $g --gm gm@school.example --password gm-password --movement 1h \
		--grace 0h --nmr civil-disorder
	ps game --now $t $g DELEGATION England e@school.example PASSWORD england-pw
	ps game --now $t $g START
done
ps -v run --now $((t + 4000))
expect "run -v, the first phase of two games: 2 phase pages drawn for 2 games" sh -c \
	"grep -q '^fetched 0 (0 new), applied 0, 2 phases adjudicated, 2 phase pages drawn for 2 games, queued ' '$OUT' &&
	 [ \$(ls '$S/pages/s1' '$S/pages/s2' | grep -c '^S1901M\\.html\$') -eq 2 ]"
ps -v run --now $((t + 8000))
expect "... the second: 4 phase pages (the first phase's drawn again, for its link) for 2 games" \
	grep -q '^fetched 0 (0 new), applied 0, 2 phases adjudicated, 4 phase pages drawn for 2 games, queued ' "$OUT"
ps -v run --now $((t + 8100))
expect "... a run with nothing to draw: 0 phase pages drawn for 0 games" \
	grep -q ', 0 phase pages drawn for 0 games, ' "$OUT"

echo "== cli: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
