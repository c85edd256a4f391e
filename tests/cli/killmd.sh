#!/bin/sh
# killmd.sh — kill -9 aimed into each step of a run, on the embedded default
# (a Maildir in, a Maildir per recipient out; no mail server, no root).
#
#	tests/cli/killmd.sh [STEP...]   (default: counts leftover logs fetch apply commit pages
#	                                 send fetch-batch commit-batch send-batch full)
#
# For each step, in a data directory of its own: a game of three
# delegations; each round three order mails (one per delegation, so that
# every round completes a phase) go into the judge's Maildir and
# `pouch run` is started with POUCH_CRASH_AT=STEP:N (lib/crash.h), which
# makes it raise SIGKILL at its Nth durable operation (write, fsync, link,
# rename) of that step. N is drawn at random from 1 to one and a half
# times the number of such operations the last run that finished reported
# for the step (so that some runs finish, and say again how many there
# were). The first run is not killed, and neither is the run after three
# kills in a row: it finishes what they left (a killed run leaves more
# work to the next one) and counts again. STEP-batch (fetch-batch,
# commit-batch, send-batch) is STEP with 30 order mails a round (ten per
# delegation, a phase a round): batches large enough for the group commit
# (one syncfs for a batch's files, lib/fsio.h), so that the kills land
# inside a batch's commit: before, between and after its syncs and links,
# inside the spool's pack (its creation, each message's write into it,
# its fsync and its directory's, before the ledger's), inside the outbox's
# (the replies appended to its pack in apply; in commit its fsync, its
# directory's, the journal records written after them and their sync) and
# inside delivery (the recipients' copies, the ledger's out records, the
# outbox's gone records and their sync, the old journals removed). Rounds go on until KILLS
# (default 50) runs were killed in the step; then two clean runs.
# Checked, and counted per step:
#
#   lost          order mails not stored in the spool, or stored and not
#                 applied, or without a reply in the sender's Maildir
#                 (new/ or cur/; a reply only in tmp/ is lost); must be 0
#   applied twice  `applied` ledger records for one message; must be 0
#   delivered twice  a Message-ID twice in one recipient's Maildir; reported
#   sent, not delivered  an `out` ledger record whose message is in no
#                 recipient's Maildir; must be 0
#   replay        pouch replay --verify: the games and the mail the spool
#                 alone rebuilds; must be 0 differences
#
# full (as root, which may mount a size-limited tmpfs; else skipped with a
# notice): a data directory on a full disk. 100 order mails fetched, the
# disk filled up, `pouch run` fails: one warning line says how many replies
# could not be queued and why, and nothing is marked applied; with room
# again, the next run answers all 100.
#
# logs: a game master's PROCESS and a player's press mailed in one run,
# killed at each durable operation of its commit step in turn, each time
# from the same start, then a clean run: the game's audit.log says PROCESS
# once and its press.log holds the press once, as after an unbroken run.
#
# A failing step keeps its directory (build/killmd/STEP) and prints what
# differed. KILLMD_DIR moves the work directory; POUCH the program.
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
. tests/support/check.sh
POUCH=${POUCH:-$ROOT/build/pouch}
KILLS=${KILLS:-50}
WORK=${KILLMD_DIR:-$ROOT/build/killmd}
STEPS=${*:-counts leftover logs fetch apply commit pages send fetch-batch commit-batch send-batch full}
OUT=$WORK/out
ERR=$WORK/err
umount "$WORK/full" 2>/dev/null
rm -rf "$WORK"
mkdir -p "$WORK"

# A number from 1 to $1.
random_to() {
	awk -v r="$(od -An -N4 -tu4 /dev/urandom)" -v m="$1" 'BEGIN { printf "%d", r % m + 1 }'
}

# deliver D I: the I-th order mail into D's inbox (delegations in turn).
deliver() {
	case $(($2 % 3)) in
	0) from=alice pw=england-pw orders='A lvp H\nF edi H\nF lon H' power=England ;;
	1) from=bob pw=france-pw orders='A par H\nA mar H\nF bre H' power=France ;;
	2) from=carol pw=germany-pw orders='A ber H\nA mun H\nF kie H' power=Germany ;;
	esac
	f=order.$2
	printf 'From: %s@example.test\nTo: judge@example.test\nSubject: orders %s\nMessage-ID: <%s@kill.example>\nContent-Type: text/plain; charset=utf-8\n\nGAME g1 %s %s\nORDERS REPLACE\n%b\n' \
		"$from" "$2" "$f" "$power" "$pw" "$orders" >"$1/mail/inbox/tmp/$f"
	mv "$1/mail/inbox/tmp/$f" "$1/mail/inbox/new/$f"
}

# The header H (Message-ID, In-Reply-To) of every message in the Maildirs
# of DIR (new/ and cur/), as "BOX VALUE" lines: headers DIR H.
headers() {
	for b in "$1"/*/; do
		for f in "$b"new/* "$b"cur/*; do
			[ -f "$f" ] || continue
			v=$(grep -i -m1 "^$2:" "$f" | tr -d '\r' | sed 's/^[^<]*<//; s/>.*//')
			[ -n "$v" ] && echo "$(basename "$b") $v"
		done
	done
}

kill_step() {
	name=$1
	step=${1%-batch}
	round=3
	[ "$step" = "$name" ] || round=30
	D=$WORK/$name
	mkdir -p "$D/mail/inbox/tmp" "$D/mail/inbox/new" "$D/mail/inbox/cur"
	cat >"$D/pouch.conf" <<-EOF
	judge.address = judge@example.test
	judge.base_url = https://maps.example.test
	judge.reply_limit = 100000
	EOF
	p() { "$POUCH" --data "$D" "$@"; }
	{
		p game new g1 --gm gm@example.test --password gm-password --zone UTC --nmr civil-disorder
		p game g1 DELEGATION England alice@example.test PASSWORD england-pw
		p game g1 DELEGATION France bob@example.test PASSWORD france-pw
		p game g1 DELEGATION Germany carol@example.test PASSWORD germany-pw
		p game g1 START
	} >"$OUT" 2>"$ERR" || { not_ok "$name: the game is set up"; return; }
	now=$(date -u +%s)
	k=0 kills=0 finished=0 runs=0 points=0 lo=0 hi=0 streak=0 log=$D/runs.log
	: >"$log"
	while [ $kills -lt "$KILLS" ] && [ $runs -lt $((KILLS * 8)) ]; do
		m=0
		while [ $m -lt $round ]; do
			deliver "$D" $((k + m))
			m=$((m + 1))
		done
		k=$((k + round))
		now=$((now + 60))
		n=1000000000	# this run only counts
		[ $points -gt 0 ] && [ $streak -lt 3 ] && n=$(random_to $((points * 3 / 2 + 1)))
		runs=$((runs + 1))
		POUCH_CRASH_AT=$step:$n "$POUCH" --data "$D" run --now "$now" >"$OUT" 2>"$ERR"
		rc=$?
		if [ $rc -eq 137 ]; then
			kills=$((kills + 1))
			streak=$((streak + 1))
			[ $lo -eq 0 ] || [ $n -lt $lo ] && lo=$n
			[ $n -gt $hi ] && hi=$n
			echo "run $runs: killed at $step:$n" >>"$log"
		else
			finished=$((finished + 1))
			streak=0
			c=$(sed -n "s/^pouch: crash points:.* $step \([0-9]*\).*/\1/p" "$ERR")
			echo "run $runs: finished (status $rc) before $step:$n; $step had ${c:-?}" >>"$log"
			[ "${c:-0}" -gt 0 ] && points=$c
		fi
	done
	# Two clean runs: the second after the outbox's first retry delay.
	p run --now $((now + 60)) >"$OUT" 2>"$ERR"
	rc1=$?
	p -v run --now $((now + 600)) >"$OUT" 2>>"$ERR"
	rc2=$?
	total=$k
	ledger=$D/spool/ledger
	stored=$(awk '$1 == "in" && $6 ~ /@kill\.example$/ { print $6 }' "$ledger" | sort -u | wc -l)
	applied=$(awk '$1 == "applied"' "$ledger" | wc -l)
	uniq_applied=$(awk '$1 == "applied" { print $2 }' "$ledger" | sort -u | wc -l)
	ins=$(awk '$1 == "in"' "$ledger" | wc -l)
	headers "$D/mail/out" In-Reply-To | awk '{ print $2 }' | grep '@kill\.example$' | sort -u >"$D/replied"
	replied=$(wc -l <"$D/replied")
	headers "$D/mail/out" Message-ID | sort >"$D/delivered"
	twice=$(($(wc -l <"$D/delivered") - $(sort -u "$D/delivered" | wc -l)))
	awk '{ print $2 }' "$D/delivered" | sort -u >"$D/delivered.ids"
	awk '$1 == "out" { print $6 }' "$ledger" | sort -u >"$D/sent.ids"
	undelivered=$(comm -23 "$D/sent.ids" "$D/delivered.ids" | wc -l)
	in_tmp=$(find "$D/mail/out" -mindepth 3 -path "$D/mail/out/*/tmp/*" -type f | wc -l)
	# queued: an older pouch's files in outbox/new, and journals (which go
	# once the outbox holds nothing)
	queued=$(find "$D/outbox/new" "$D/outbox/meta" -type f | wc -l)
	left=$(find "$D/mail/inbox/new" -type f | wc -l)
	lost=$((total - stored + total - replied))
	[ "$ins" -gt "$uniq_applied" ] && lost=$((lost + ins - uniq_applied))
	tmps=$(find "$D" -name '*.tmp.*' -type f | wc -l)
	p replay --into "$D/replay" --verify >"$D/replay.out" 2>&1
	diffs=$(sed -n 's/.*, \([0-9]*\) differences.*/\1/p' "$D/replay.out")
	bad=$FAIL
	expect "$name: $kills runs killed in the step ($runs runs, $finished finished first)" \
		test $kills -ge "$KILLS"
	expect "$name: the clean runs after the kills succeed" test $rc1 -eq 0 -a $rc2 -eq 0
	expect "$name: all $total order mails stored, each once ($stored)" test "$stored" -eq $total
	expect "$name: the judge's Maildir has nothing left in new/ ($left)" test "$left" -eq 0
	expect "$name: every stored message applied ($uniq_applied of $ins)" test "$uniq_applied" -eq "$ins"
	expect "$name: no message applied twice ($applied records, $uniq_applied messages)" \
		test "$applied" -eq "$uniq_applied"
	expect "$name: every order mail got its reply in new/ or cur/ ($replied of $total)" \
		test "$replied" -eq $total
	expect "$name: every message the ledger says was sent is in a Maildir ($undelivered not)" \
		test "$undelivered" -eq 0
	expect "$name: no delivery left in a recipient's tmp/ ($in_tmp)" test "$in_tmp" -eq 0
	expect "$name: the outbox is empty ($queued)" test "$queued" -eq 0
	expect "$name: no temporary file NAME.tmp.PID left by a killed run ($tmps)" test "$tmps" -eq 0
	expect "$name: pouch replay --verify: ${diffs:-?} differences" test "${diffs:-1}" -eq 0
	echo "  # $name: $kills kills in $runs runs (at operations $lo to $hi of the step; the last run to finish had $points); $total mails; lost $lost, applied twice $((applied - uniq_applied)), delivered twice $twice, sent not delivered $undelivered, replay differences ${diffs:-?}"
	if [ "$FAIL" -ne "$bad" ]; then
		echo "  # $name: kept in $D; the runs (and where each was killed) in $D/runs.log"
		comm -23 "$D/sent.ids" "$D/delivered.ids" | head -n 5 | sed 's/^/  #   sent, not delivered: /'
		awk '$1 == "in" && $6 ~ /@kill\.example$/ { print $6 }' "$ledger" | sort -u |
			comm -23 - "$D/replied" | head -n 5 | sed 's/^/  #   no reply: /'
		grep -iE 'differ|missing|extra|only in' "$D/replay.out" | head -n 20 | sed 's/^/  #   replay: /'
		tail -n 3 "$log" | sed 's/^/  #   /'
	else
		rm -rf "$D"
	fi
}

full_disk() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "  # full: skipped (mounting a tmpfs needs root)"
		return
	fi
	F=$WORK/full
	D=$F/data
	mkdir -p "$F"
	mount -t tmpfs -o size=8m pouch-killmd "$F" || { not_ok "full: a tmpfs is mounted"; return; }
	mkdir -p "$D/mail/inbox/tmp" "$D/mail/inbox/new" "$D/mail/inbox/cur"
	echo "judge.address = judge@example.test" >"$D/pouch.conf"
	p() { "$POUCH" --data "$D" "$@"; }
	{
		p game new g1 --gm gm@example.test --password gm-password --zone UTC
		p game g1 DELEGATION England alice@example.test PASSWORD england-pw
		p game g1 START
	} >"$OUT" 2>"$ERR"
	i=1
	while [ $i -le 100 ]; do
		printf 'From: s%d@example.test\nTo: judge@example.test\nSubject: orders\nMessage-ID: <full.%d@kill.example>\n\nGAME g1 England england-pw\nF nth - hel\n' \
			$i $i >"$D/mail/inbox/new/m$i"
		i=$((i + 1))
	done
	p fetch >"$OUT" 2>"$ERR"
	dd if=/dev/zero of="$D/filler" bs=64k 2>/dev/null
	p run >"$OUT" 2>"$ERR"
	rc=$?
	expect "full: pouch run on a full disk fails" test $rc -ne 0
	expect "full: one warning line for the replies not queued ($(grep -c 'not queued' "$ERR"))" \
		test "$(grep -c 'not queued' "$ERR")" -eq 1
	expect "full: it says how many, and why" \
		grep -q 'not queued: 100 messages; the first: .*No space left on device' "$ERR"
	grep 'not queued' "$ERR" | sed 's/^/  #   /'
	rm -f "$D/filler"
	p run >"$OUT" 2>"$ERR"
	expect "full: with room again, the next run succeeds" test $? -eq 0
	n=$(find "$D/mail/out" -mindepth 3 -path "$D/mail/out/s*/new/*" -type f | wc -l)
	expect "full: and all 100 senders have their reply ($n)" test "$n" -eq 100
	umount "$F"
}

# A run killed as it replaced the spool's summary, its last write, leaves
# DATA/spool/ledger.sum.tmp.PID; the runs after it may have nothing to do.
# The next run, idle or not, removes it (a dead PID's file only).
leftover() {
	D=$WORK/leftover
	mkdir -p "$D"
	echo "judge.address = judge@example.test" >"$D/pouch.conf"
	p() { "$POUCH" --data "$D" "$@"; }
	{
		p game new g1 --gm gm@example.test --password gm-password --zone UTC
		p run
	} >"$OUT" 2>"$ERR"
	sh -c 'exit 0' &
	dead=$!
	wait "$dead"
	: >"$D/spool/ledger.sum.tmp.$dead"
	: >"$D/spool/ledger.sum.tmp.$$"	# a live process's: kept
	p -v run >"$OUT" 2>"$ERR"
	expect "leftover: an idle run succeeds" test $? -eq 0
	expect "leftover: ... and removes a killed run's temporary file from the spool" \
		test ! -e "$D/spool/ledger.sum.tmp.$dead"
	expect "leftover: ... but not a running process's" test -e "$D/spool/ledger.sum.tmp.$$"
	rm -f "$D/spool/ledger.sum.tmp.$$"
}

# start_dir NAME: S is WORK/NAME, D its start/, a judge with an empty
# Maildir; p runs pouch on D.
start_dir() {
	S=$WORK/$1
	D=$S/start
	mkdir -p "$D/mail/inbox/tmp" "$D/mail/inbox/new" "$D/mail/inbox/cur"
	echo "judge.address = judge@example.test" >"$D/pouch.conf"
}
p() { "$POUCH" --data "$D" "$@"; }

# The game logs after a kill at every operation of the commit step.
logs() {
	start_dir logs
	{
		p game new g1 --gm gm@example.test --password gm-password --zone UTC
		p game g1 DELEGATION France bob@example.test PASSWORD france-pw
		p game g1 DELEGATION Germany carol@example.test PASSWORD germany-pw
		p game g1 START
	} >"$OUT" 2>"$ERR"
	printf 'From: gm@example.test\nSubject: now\nMessage-ID: <gm.1@kill.example>\n\nGAME g1 GM gm-password\nPROCESS\n' \
		>"$D/mail/inbox/new/gm.1"
	printf 'From: bob@example.test\nSubject: hi\nMessage-ID: <press.1@kill.example>\n\nGAME g1 France france-pw\nPRESS TO Germany\nkill-test press\nENDPRESS\n' \
		>"$D/mail/inbox/new/press.1"
	now=$(date -u +%s)
	cp -a "$D" "$S/clean"
	POUCH_CRASH_AT=commit:1000000 "$POUCH" --data "$S/clean" run --now "$now" >"$OUT" 2>"$ERR"
	points=$(sed -n 's/^pouch: crash points:.* commit \([0-9]*\).*/\1/p' "$ERR")
	n=1 twice=0 missing=0 tmps=0
	while [ "$n" -le "${points:-0}" ]; do
		rm -rf "$S/run"
		cp -a "$D" "$S/run"
		POUCH_CRASH_AT=commit:$n "$POUCH" --data "$S/run" run --now "$now" >"$OUT" 2>"$ERR"
		"$POUCH" --data "$S/run" run --now $((now + 60)) >"$OUT" 2>"$ERR"
		a=$(grep -c ' PROCESS$' "$S/run/games/g1/audit.log")
		b=$(grep -c '^kill-test press$' "$S/run/games/g1/press.log")
		tmps=$((tmps + $(find "$S/run" -name '*.tmp.*' | wc -l)))
		if [ "$a" -ne 1 ] || [ "$b" -ne 1 ]; then
			[ "$a" -gt 1 ] || [ "$b" -gt 1 ] && twice=$((twice + 1))
			[ "$a" -lt 1 ] || [ "$b" -lt 1 ] && missing=$((missing + 1))
			echo "  # logs: killed at commit:$n: PROCESS $a times in audit.log, the press $b times in press.log"
		fi
		n=$((n + 1))
	done
	expect "logs: the commit step counted (${points:-?} operations)" test "${points:-0}" -gt 5
	expect "logs: a kill at any of them, then a run: no line twice in audit.log or press.log ($twice)" \
		test "$twice" -eq 0
	expect "logs: ... and none missing ($missing)" test "$missing" -eq 0
	expect "logs: no temporary file left after the run that follows a kill ($tmps)" test "$tmps" -eq 0
	# A rollback killed the same way: the record it retires is left as its
	# rolled-back copy alone, and replay --verify agrees.
	rm -rf "$D"
	cp -a "$S/run" "$D"
	printf 'From: gm@example.test\nSubject: back\nMessage-ID: <gm.2@kill.example>\n\nGAME g1 GM gm-password\nROLLBACK S1901M\n' \
		>"$D/mail/inbox/new/gm.2"
	rm -rf "$S/clean"
	cp -a "$D" "$S/clean"
	POUCH_CRASH_AT=commit:1000000 "$POUCH" --data "$S/clean" run --now $((now + 120)) >"$OUT" 2>"$ERR"
	points=$(sed -n 's/^pouch: crash points:.* commit \([0-9]*\).*/\1/p' "$ERR")
	n=1 bad=0
	while [ "$n" -le "${points:-0}" ]; do
		rm -rf "$S/run"
		cp -a "$D" "$S/run"
		POUCH_CRASH_AT=commit:$n "$POUCH" --data "$S/run" run --now $((now + 120)) >"$OUT" 2>"$ERR"
		"$POUCH" --data "$S/run" run --now $((now + 180)) >"$OUT" 2>"$ERR"
		"$POUCH" --data "$S/run" replay --verify >"$OUT" 2>&1
		h=$(ls "$S/run/games/g1/history" | tr '\n' ' ')
		if [ "$(ls "$S/run/games/g1/history" | wc -l)" -eq 1 ] &&
			ls "$S/run/games/g1/history" | grep -q '^0001\.rolled-back-[0-9]*\.txt$'; then
			grep -q ', 0 differences' "$OUT" || bad=$((bad + 1))
		else
			bad=$((bad + 1))
			echo "  # logs: killed at commit:$n in a rollback: history holds $h"
		fi
		n=$((n + 1))
	done
	expect "logs: a rollback killed at any of its ${points:-?} operations: its record left as the rolled-back copy alone, replay --verify clean ($bad not)" \
		test "${points:-0}" -gt 5 -a "$bad" -eq 0
	[ "$FAIL" -eq 0 ] && rm -rf "$S"
}

# The same run, five times from the same start: each step counts the same
# durable operations every time, though the map pages are drawn on a
# thread of their own while the run sends (each thread counts toward its
# own step), so that a kill aimed at STEP:N lands where the test means.
counts() {
	start_dir counts
	{
		for g in g1 g2 g3 g4; do
			p game new $g --gm gm@example.test --password gm-password --zone UTC
			p game $g DELEGATION France bob@example.test PASSWORD france-pw
			p game $g DELEGATION Germany carol@example.test PASSWORD germany-pw
			p game $g START
		done
	} >"$OUT" 2>"$ERR"
	for g in g1 g2 g3 g4; do
		printf 'From: gm@example.test\nSubject: now\nMessage-ID: <%s.gm@kill.example>\n\nGAME %s GM gm-password\nPROCESS\n' \
			"$g" "$g" >"$D/mail/inbox/new/$g.gm"
	done
	m=0
	while [ $m -lt 30 ]; do
		deliver "$D" $m
		m=$((m + 1))
	done
	now=$(date -u +%s)
	: >"$S/all"
	for k in 1 2 3 4 5; do
		rm -rf "$S/run"
		cp -a "$D" "$S/run"
		POUCH_CRASH_AT=send:1000000000 "$POUCH" --data "$S/run" run --now "$now" >"$OUT" 2>"$ERR"
		sed -n 's/^pouch: crash points: //p' "$ERR" >>"$S/all"
	done
	kinds=$(sort -u "$S/all" | wc -l)
	expect "counts: five runs from the same start count the same operations in each step ($(sort -u "$S/all" | head -n 1); $kinds kinds)" \
		test "$(wc -l <"$S/all")" -eq 5 -a "$kinds" -eq 1
	expect "counts: ... and the map pages count some ($(sort -u "$S/all" | head -n 1))" \
		grep -q ' pages [1-9]' "$S/all"
	[ "$FAIL" -eq 0 ] && rm -rf "$S"
}

echo "# kills aimed into each step of pouch run, Maildir in and out ($KILLS per step)"
for s in $STEPS; do
	case $s in
	full) full_disk ;;
	counts) counts ;;
	leftover) leftover ;;
	logs) logs ;;
	*) kill_step "$s" ;;
	esac
done
echo "killmd: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
