#!/bin/sh
# faults.sh — the judge on real file systems that fail under it: the disk
# fills up, the file system turns read-only, the power goes out. Runs on
# the embedded default (Maildir in and out, no pouch.conf).
#
#	tests/cli/faults.sh [enospc] [readonly] [order]   (default: all three)
#
# enospc: a size-limited tmpfs as the data directory. First 400 order
#   mails on 3 MB; then, for each step of a run (fetch, apply, commit,
#   pages, send), the file system sized from a reference run so that the
#   space runs out inside that step. Each time: the run fails with a short
#   error naming the file it could not write, in that step; after the
#   file system is grown (mount -o remount,size=...) the next run
#   completes: every order mail stored, applied and answered exactly once,
#   nothing sent twice, the map pages all there, and pouch replay --verify
#   finds no difference. Last, a write that fails while smaller ones still
#   succeed: the ledger over the file size limit (ulimit -f), the games
#   not; the games must not be committed with mail the ledger lacks.
# readonly: the data directory on ext4 (a loop device, errors=remount-ro)
#   turns read-only while pouch run works in each step (the kernel's own
#   emergency remount, through /sys/fs/ext4/DEV/trigger_fs_error; a plain
#   mount -o remount,ro is refused while pouch holds a file open for
#   writing), at a chosen durable operation: the run stops itself there
#   (POUCH_PAUSE_AT, lib/crash.h), the file system is broken, the run goes
#   on. The journal is aborted too, so what was not committed is lost, as
#   in a crash. Then e2fsck, mount again, and the same promises; a last
#   case stops the commit before the games' rename, leaving their synced
#   temporary files, which the next run must remove.
# order: one run of 60 order mails under strace (batches large enough for
#   the group commit); tests/cli/faults-order.awk checks from the trace
#   that every file is synced, and its directory, before anything relies
#   on it (spool/README.md, "Durability, step by step"); and the run syncs
#   (fsync, fdatasync, syncfs) at most 40 times: a few syncs per batch and
#   step, not a few per message.
#
# Prints "ok - ..." / "not ok - ..."; exits 1 when any check failed. A
# failed scenario's data directory is copied to the work directory, which
# is then kept and named. Needs root (mount) and build/pouch.
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
POUCH=${POUCH:-$ROOT/build/pouch}
PARTS=${*:-enospc readonly order}
if [ "$(id -u)" -ne 0 ]; then
	echo "skipped: tests/cli/faults.sh needs root (mount)"
	exit 0
fi
WORK=$(mktemp -d /tmp/pouch-faults.XXXXXX)
MNT=$WORK/mnt
OUT=$WORK/out
ERR=$WORK/err
LOOP=""
. tests/support/check.sh
mkdir -p "$MNT"

unmount() {
	while mountpoint -q "$MNT"; do
		umount "$MNT" 2>/dev/null || { sleep 0.2; umount -l "$MNT"; }
	done
	if [ -n "$LOOP" ]; then
		losetup -d "$LOOP" 2>/dev/null
		LOOP=""
	fi
}
cleanup() {
	unmount
	if [ "$FAIL" -gt 0 ] || [ -n "${KEEP:-}" ]; then
		echo "kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

T0=1767225600		# 2026-01-01 00:00 UTC: the game's clock
D=$MNT/data
p() { "$POUCH" --data "$D" "$@" >"$OUT" 2>"$ERR"; }

# new_game: a game of three delegations (the others in civil disorder).
new_game() {
	p game --now $T0 new g1 --gm gm@example.test --password gm-password-1 --zone UTC \
		--nmr civil-disorder &&
	p game --now $T0 g1 DELEGATION England alice@example.test PASSWORD england-pw &&
	p game --now $T0 g1 DELEGATION France bob@example.test PASSWORD france-pw &&
	p game --now $T0 g1 DELEGATION Germany carol@example.test PASSWORD germany-pw &&
	p game --now $T0 g1 START
}

# order_mails N: N order mails in the judge's Maildir, a minute apart (so
# that no sender reaches the judge's 30 replies an hour), the three
# delegations holding in turn: every third mail completes a phase.
# (order_mails N FIRST: mails FIRST to FIRST+N-1.)
order_mails() {
	mkdir -p "$D/mail/inbox/tmp" "$D/mail/inbox/new" "$D/mail/inbox/cur"
	i=${2:-0}
	while [ $i -lt $((${2:-0} + $1)) ]; do
		case $((i % 3)) in
		0) f=alice b='GAME g1 England england-pw\nORDERS REPLACE\nA lvp H\nF edi H\nF lon H' ;;
		1) f=bob b='GAME g1 France france-pw\nORDERS REPLACE\nA par H\nA mar H\nF bre H' ;;
		2) f=carol b='GAME g1 Germany germany-pw\nORDERS REPLACE\nA ber H\nA mun H\nF kie H' ;;
		esac
		t=$D/mail/inbox/tmp/o$i
		printf 'From: %s@example.test\nTo: judge@localhost\nSubject: orders %s\nMessage-ID: <o%s@example.test>\nContent-Type: text/plain; charset=utf-8\n\n%b\n' \
			$f $i $i "$b" >"$t"
		touch -d @$((T0 + 60 + i * 60)) "$t"
		mv "$t" "$D/mail/inbox/new/o$i"
		i=$((i + 1))
	done
}

# setup N: a fresh game and N order mails in $D.
setup() {
	new_game || { not_ok "the game is set up"; return 1; }
	order_mails "$1"
}

# run N: pouch run at the time the last of N order mails arrived; later:
# the next cron run, ten minutes later (mail that could not be delivered
# waits a minute before it is tried again).
run() { p run --now $((T0 + 60 * ($1 + 1))); }
later() { p run --now $((T0 + 60 * ($1 + 11))); }

# keep LABEL: after a failed check, a copy of the data directory.
keep() { cp -a "$D" "$WORK/kept-$1" 2>/dev/null; echo "  # the data directory is kept in $WORK/kept-$1"; }

# the_error WORDS STEP PATTERN: the failed run's first line saying WORDS
# (its error; a basic regular expression) names a file of STEP (an extended regular expression for
# its paths); every line of the run's error output is short.
the_error() {
	first=$(grep -m1 -- "$1" "$ERR")
	printf '  # %s\n  # (%d lines of errors in all)\n' "$first" "$(wc -l <"$ERR")"
	if printf '%s\n' "$first" | grep -Eq -- "$3"; then
		ok "$2: the first error names a file of that step"
	else
		not_ok "$2: the first error names a file of that step (wanted $3)"
	fi
	long=$(awk 'length($0) > 240' "$ERR" | wc -l)
	expect "$2: no error line longer than 240 characters ($long)" test "$long" -eq 0
}

# complete N LABEL: the run after the fault finished everything, once.
complete() {
	n=$1 l=$2
	f0=$FAIL
	later "$n"
	rc=$?
	expect "$l: the next run succeeds" test $rc -eq 0
	# The only thing it may say: a torn ledger record cut off.
	other=$(grep -v 'cutting off an incomplete last record' "$ERR" | wc -l)
	expect "$l: the next run reads nothing half-written (no warning but a torn ledger record cut)" \
		test "$other" -eq 0
	left=$(ls "$D/mail/inbox/new" | wc -l)
	expect "$l: the inbox is empty ($left left)" test "$left" -eq 0
	led=$D/spool/ledger
	ins=$(awk -F'\t' '$1 == "in" && $6 ~ /^o[0-9]+@/' "$led" | wc -l)
	uins=$(awk -F'\t' '$1 == "in" && $6 ~ /^o[0-9]+@/ { print $6 }' "$led" | sort -u | wc -l)
	dups=$(awk -F'\t' '$1 == "in" && $7 != "-"' "$led" | wc -l)
	applied=$(awk -F'\t' '$1 == "applied"' "$led" | wc -l)
	uapplied=$(awk -F'\t' '$1 == "applied" { print $2 }' "$led" | sort -u | wc -l)
	allin=$(awk -F'\t' '$1 == "in"' "$led" | wc -l)
	expect "$l: all $n order mails in the spool, each once ($ins records, $uins distinct, $dups duplicates)" \
		test "$ins" -eq "$n" -a "$uins" -eq "$n" -a "$dups" -eq 0
	expect "$l: every message applied exactly once ($applied marks, $uapplied distinct, $allin in)" \
		test "$applied" -eq "$uapplied" -a "$uapplied" -eq "$allin"
	cat "$D"/mail/out/*/new/* | tr -d '\r' | sed -n 's/^In-Reply-To: <\(o[0-9]*@[^>]*\)>.*/\1/p' \
		>"$WORK/replies"
	nrep=$(wc -l <"$WORK/replies")
	urep=$(sort -u "$WORK/replies" | wc -l)
	expect "$l: every order mail answered once ($nrep replies, $urep distinct, of $n)" \
		test "$nrep" -eq "$n" -a "$urep" -eq "$n"
	twice=0
	for box in "$D"/mail/out/*/; do
		t=$(cat "$box"new/* | tr -d '\r' | grep -i '^Message-ID:' | sort | uniq -d | wc -l)
		twice=$((twice + t))
	done
	expect "$l: no message delivered twice to a mailbox ($twice)" test "$twice" -eq 0
	waiting=$(find "$D/outbox/new" "$D/outbox/cur" -type f | wc -l)
	expect "$l: the outbox is empty ($waiting waiting)" test "$waiting" -eq 0
	rm -rf "$WORK/replay"
	p replay --into "$WORK/replay" --verify
	expect "$l: pouch replay --verify: 0 differences ($(tail -n 1 "$OUT"))" grep -q ', 0 differences' "$OUT"
	if diff -r "$D/pages" "$WORK/replay/pages" >"$WORK/pages.diff" 2>&1; then
		ok "$l: the map pages are those the replay draws ($(ls "$D/pages/g1" | wc -l) files)"
	else
		not_ok "$l: the map pages are those the replay draws"
		head -n 5 "$WORK/pages.diff" | sed 's/^/      | /'
	fi
	tmps=$(find "$D" -name '*.tmp.*' | wc -l)
	expect "$l: no temporary file left behind ($tmps)" test "$tmps" -eq 0
	[ "$FAIL" -eq "$f0" ] || keep "$l"
}

# ------------------------------------------------------------- enospc --

used() { df -B1 --output=used "$MNT" | tail -n 1 | tr -d ' '; }
bytes() { du -sB1 "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
tmpfs_up() { mount -t tmpfs -o "size=$1,mode=0755" pouch-faults "$MNT"; }

# The 400-mail probe: a 3 MB tmpfs is too small for the run; grown to
# 64 MB, the next run does it all.
probe() {
	echo "# 400 order mails on a 3 MB tmpfs"
	tmpfs_up 3m || { not_ok "mount a 3 MB tmpfs"; return; }
	setup 400 || { unmount; return; }
	run 400
	rc=$?
	expect "3 MB: the run fails ($rc)" test $rc -ne 0
	expect "3 MB: it says No space left on device" grep -q 'No space left on device' "$ERR"
	the_error 'No space left on device' "3 MB" '/data/'
	mount -o remount,size=64m "$MNT"
	complete 400 "3 MB, grown to 64 MB"
	unmount
}

# The reference run: how many bytes each step adds (N mails).
N=90
measure() {
	tmpfs_up 256m || return 1
	setup $N || { unmount; return 1; }
	U0=$(used)
	s0=$(bytes "$D/spool") o0=$(bytes "$D/outbox") h0=$(bytes "$D/games/g1/history")
	x0=$(bytes "$D/spool/index")
	g0=$(bytes "$D/games" "$D/rates.txt" "$D/next-due") w0=$(bytes "$D/pages")
	p run --no-send --now $((T0 + 60 * (N + 1))) || { unmount; return 1; }
	U1=$(used)
	# (the spool's index is written when the spool closes, at the end)
	B_FETCH=$(($(bytes "$D/spool") - s0 - $(bytes "$D/spool/index") + x0))
	B_APPLY=$(($(bytes "$D/outbox") - o0 + $(bytes "$D/games/g1/history") - h0))
	B_COMMIT=$(($(bytes "$D/games" "$D/rates.txt" "$D/next-due") - g0 - $(bytes "$D/games/g1/history") + h0))
	B_PAGES=$(($(bytes "$D/pages") - w0))
	run $N || { unmount; return 1; }
	B_SEND=$(($(used) - U1))
	unmount
	echo "  # a run of $N mails adds: fetch $B_FETCH, apply $B_APPLY, commit $B_COMMIT," \
		"pages $B_PAGES, send $B_SEND bytes (before it: $U0 used)"
}

# fill STEP FREE PATTERN: a file system with FREE bytes left after the
# set-up; the run must run out of space in STEP.
fill() {
	step=$1 free=$2 pat=$3
	echo "# the disk fills up in $step ($free bytes free)"
	tmpfs_up 256m || { not_ok "mount a tmpfs"; return; }
	setup $N || { unmount; return; }
	mount -o remount,size=$(($(used) + free)) "$MNT"
	run $N
	rc=$?
	expect "$step: the run fails ($rc)" test $rc -ne 0
	the_error 'No space left on device' "$step" "$pat"
	mount -o remount,size=256m "$MNT"
	complete $N "$step"
	unmount
}

# A write that fails while smaller ones still succeed (as on a disk that
# is nearly full): the ledger is past the file size limit, the game files
# are not. The fetch fails to record the new mail; the games must not be
# committed with it applied.
ledger_only() {
	echo "# the ledger cannot grow, smaller files still can (a file size limit)"
	tmpfs_up 256m || { not_ok "mount a tmpfs"; return; }
	setup $N || { unmount; return; }
	run $N
	order_mails 9 $N
	cp "$D/games/g1/game.txt" "$WORK/game.before"
	(trap '' XFSZ; ulimit -f 16; run $((N + 9)))
	rc=$?
	expect "ledger: the run fails ($rc)" test $rc -ne 0
	the_error 'File too large' ledger '/spool/ledger'
	expect "ledger: the games are not committed" cmp "$WORK/game.before" "$D/games/g1/game.txt"
	complete $((N + 9)) ledger
	unmount
}

enospc() {
	probe
	if ! measure; then
		not_ok "the reference run on a big tmpfs"
		return
	fi
	fill fetch $((B_FETCH / 2)) '/spool/(pack|in|ledger)'
	fill apply $((B_FETCH + B_APPLY / 2)) '/outbox[/:.]|/games/g1/history/'
	# (a page less: the run has the page of DATA/spool/next-seq too, which
	# the spool removes before it publishes and writes again at its close)
	fill commit $((B_FETCH + B_APPLY)) '/games/|/rates\.txt|/next-due|/pages-due'
	# The map pages are drawn while the run sends: either may meet the
	# full disk first (here and in the send's and the pages' read-only
	# cases below); a run whose pages could not all be written fails too.
	fill pages $((B_FETCH + B_APPLY + B_COMMIT + B_PAGES / 2)) \
		'/pages(/|-due)|/mail/out[/:]|/spool/(out|ledger)|/outbox[/:.]'
	fill send $((U1 - U0 + B_SEND / 2)) '/mail/out[/:]|/spool/(out|ledger)|/outbox[/:.]|/pages(/|-due)'
	ledger_only
}

# ----------------------------------------------------------- readonly --

R=300		# mails: long enough steps to turn the file system read-only in
IMG=$WORK/ext4.img

ext4_up() {
	rm -f "$IMG"
	truncate -s 256m "$IMG" && mkfs.ext4 -q -F "$IMG" || return 1
	LOOP=$(losetup -f --show "$IMG") || return 1
	mount -o errors=remount-ro "$LOOP" "$MNT"
}
# pstate PID: the process's state letter (R, S, D, T, Z ...; empty when
# it is gone), from /proc/PID/stat (its name, "pouch", has no space).
pstate() {
	st=""
	read -r _ _ st _ <"/proc/$1/stat" 2>/dev/null
	echo "$st"
}

# The reference run: how many durable operations each step of the run
# does (lib/crash.h, "pouch: crash points: fetch 12 apply 40 ..."), with a
# pause aimed past the end.
count_ops() {
	ext4_up || return 1
	setup $R || { unmount; return 1; }
	POUCH_PAUSE_AT=send:999999999 "$POUCH" --data "$D" run --now $((T0 + 60 * (R + 1))) \
		>"$OUT" 2>"$ERR" || { unmount; return 1; }
	OPS=$(sed -n 's/^pouch: crash points: //p' "$ERR")
	unmount
	echo "  # a run of $R mails does $OPS durable operations"
	[ -n "$OPS" ]
}
# ops STEP: the count of STEP in the reference run.
ops() { printf '%s\n' "$OPS" | awk -v s="$1" '{ for (i = 1; i < NF; i += 2) if ($i == s) print $(i + 1) }'; }

# turn_ro STEP N LABEL PATTERN: pouch run on ext4 stops itself
# (POUCH_PAUSE_AT) before the Nth durable operation of STEP; the kernel
# turns the file system read-only; the run goes on (SIGCONT) and fails,
# its first error naming a file of the step (PATTERN). Then e2fsck, mount
# again, and the next run must complete (and remove the temporary files
# the failed one could not: it lists them).
turn_ro() {
	step=$1 n=$2 l=$3
	echo "# the file system turns read-only in $l (before operation $n of $(ops "$step") of $step)"
	ext4_up || { not_ok "an ext4 file system on a loop device"; unmount; return; }
	setup $R || { unmount; return; }
	sync
	POUCH_PAUSE_AT=$step:$n "$POUCH" --data "$D" run --now $((T0 + 60 * (R + 1))) >"$OUT" 2>"$ERR" &
	pid=$!
	k=0
	while [ "$(pstate $pid)" != T ] && [ -e "/proc/$pid" ] && [ $k -lt 1200 ]; do
		sleep 0.05
		k=$((k + 1))
	done
	if [ "$(pstate $pid)" = T ]; then
		echo "$step" >"/sys/fs/ext4/$(basename "$LOOP")/trigger_fs_error"
		kill -CONT $pid
		wait $pid
		rc=$?
		expect "$l: the run fails ($rc)" test $rc -ne 0
		the_error 'Read-only file system\|Input/output error' "$l" "$4"
	else
		kill -CONT $pid 2>/dev/null
		wait $pid
		not_ok "$l: the run paused before operation $n of $step ($(tail -n 1 "$ERR"))"
	fi
	umount "$MNT"
	e2fsck -fy "$LOOP" >"$WORK/fsck.log" 2>&1
	mount -o errors=remount-ro "$LOOP" "$MNT" || { not_ok "$l: mount again"; unmount; return; }
	LEFT=$(cd "$D" && find . -name '*.tmp.*' | sed 's|^\./||' | sort | tr '\n' ' ')
	[ -z "$LEFT" ] || echo "  # temporary files the failed run could not remove: $LEFT"
	complete $R "$l (read-only)"
	unmount
}

readonly_() {
	if ! command -v mkfs.ext4 >/dev/null || ! command -v losetup >/dev/null; then
		not_ok "mkfs.ext4 and losetup are installed"
		return
	fi
	if ! count_ops; then
		not_ok "the reference run on ext4 counts the operations of each step"
		return
	fi
	# Each step at its middle operation.
	turn_ro fetch $(($(ops fetch) / 2 + 1)) fetch '/spool[/:]|/mail/inbox'
	turn_ro apply $(($(ops apply) / 2 + 1)) apply '/outbox[/:.]|/games/g1/history/'
	turn_ro commit $(($(ops commit) / 2 + 1)) commit \
		'/games/|/rates\.txt|/next-due|/pages-due|/outbox[/:.]|/data: syncing'
	turn_ro pages $(($(ops pages) / 2 + 1)) pages \
		'/pages(/|-due)|/mail/out[/:]|/spool/(out|ledger)|/outbox[/:.]'
	turn_ro send $(($(ops send) / 2 + 1)) send \
		'/mail/out[/:]|/spool/(out|ledger)|/outbox[/:.]|/pages(/|-due)'
	# The commit once more, before the game files are renamed into place
	# (synced, so they outlive the fault; the seventh operation from the
	# end of the step): the failed run cannot remove them.
	turn_ro commit $(($(ops commit) - 6)) "commit (the games' rename)" '/games/g1/game\.txt'
	expect "commit (the games' rename): the fault left game.txt.tmp.PID behind (${LEFT:-nothing})" \
		expr "$LEFT" : '.*games/g1/game\.txt\.tmp\.[0-9]'
}

# -------------------------------------------------------------- order --

order() {
	echo "# the order of syncs in one run (strace)"
	if ! command -v strace >/dev/null; then
		not_ok "strace is installed"
		return
	fi
	tmpfs_up 64m || { not_ok "mount a tmpfs"; return; }
	setup 60 || { unmount; return; }
	strace -f -y -qq -s 12 -o "$WORK/trace" \
		-e trace=fsync,fdatasync,syncfs,rename,renameat,renameat2,link,linkat,unlink,unlinkat,openat,write,pwrite64 \
		"$POUCH" --data "$D" run --now $((T0 + 60 * 61)) >"$OUT" 2>"$ERR"
	expect "the traced run succeeds" test $? -eq 0
	syncs=$(grep -cE ' (f(data)?sync|syncfs)\(' "$WORK/trace")
	expect "the run of 60 order mails syncs at most 40 times ($syncs: $(grep -cE ' f(data)?sync\(' "$WORK/trace") fsync, $(grep -c ' syncfs(' "$WORK/trace") syncfs)" \
		test "$syncs" -le 40
	if awk -v data="$D" -f tests/cli/faults-order.awk "$WORK/trace" >"$WORK/order.out"; then
		sed 's/^/  /' "$WORK/order.out"
	else
		sed 's/^/  /' "$WORK/order.out"
		keep order
		cp "$WORK/trace" "$WORK/kept-order.trace"
	fi
	PASS=$((PASS + $(grep -c '^ok' "$WORK/order.out")))
	FAIL=$((FAIL + $(grep -c '^not ok' "$WORK/order.out")))
	unmount
}

for part in $PARTS; do
	case $part in
	enospc) enospc ;;
	readonly) readonly_ ;;
	order) order ;;
	*) echo "unknown part $part (enospc, readonly, order)"; exit 2 ;;
	esac
done
echo "== faults: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
