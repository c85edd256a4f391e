#!/bin/sh
# memory.sh — what a run holds does not grow with the mail it reads, nor
# with the spool's history, beyond a few hundred bytes a message: two
# judges of the same games, one given SMALL order mails and the other
# BIG, their most memory (max RSS) compared: the mail fetched alone
# (`pouch fetch`: the spool's index of its ledger, no more), then a
# `pouch run` over what was fetched (the mail applied and answered), then
# one `pouch run` each from the start; then each given the same few mails
# more, a run over a spool of BIG records against one over SMALL, and one
# over a spool of HISTORY records more (made cheaply: records written into
# the ledger, their index made again from it) against one over BIG: no
# more than the index's cache and the slack, however long the history.
#
#	tests/cli/memory.sh [BUILD]   (default build)
#
# The bounds are bytes a message (RUN_BYTES in a run, HISTORY_BYTES of
# history) past a slack for the noise of malloc: a structure that keeps a
# string a message (a Message-ID, a path: 100 bytes and its malloc header)
# or a batch's records until the end of the run shows past them. Needs GNU
# time (/usr/bin/time); without it, says so and passes. Prints "ok - ..."
# or "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
SMALL=${SMALL:-500} BIG=${BIG:-5000} GAMES=5
# The spool's index of its ledger is a file read through a cache of at
# most CACHE_KB, reached once the index is bigger (some 5,000 messages):
# every bound below allows it. Past it, today's slopes are some 100 bytes
# a message held in a run and none of history; fetching, some 100 besides
# the 1 MB a batch's records may take; applying and answering what was
# fetched, some 50 to 120 (where an outbox that held each queued reply
# until the send took 200 to 310 in all). The bounds leave room above
# them. The allocator is told to give blocks of 64 KB and more back at
# once (GLIBC_TUNABLES: a fixed mmap threshold, where glibc raises it as a
# run frees big blocks), so that max RSS follows what a run holds more
# than the history of its heap. An older pouch, whose fetch held every
# name and every record until the end of the batch, held 2.1 MB more
# fetching 4,500 mails more; one that held the index in memory, some 100
# bytes a record of history (10 MB for 100,000).
RUN_BYTES=${RUN_BYTES:-300} APPLY_BYTES=${APPLY_BYTES:-100} HISTORY_BYTES=${HISTORY_BYTES:-60}
INDEX_BYTES=${INDEX_BYTES:-120}
SLACK_KB=${SLACK_KB:-300} CACHE_KB=${CACHE_KB:-1024} HISTORY=${HISTORY:-100000}
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
	echo "memory: no GNU time (/usr/bin/time): not measured"
	exit 0
fi
WORK=$(mktemp -d /tmp/pouch-memory.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
OUT=$WORK/out ERR=$WORK/err
. tests/support/check.sh
pouch_of "${1:-build}"
. tests/bench/load.sh

# judge D COUNT: a judge in D with the games and COUNT order mails waiting.
judge() {
	new_judge "$1"
	make_games
	$P run >/dev/null 2>&1
	mkdir -p "$1/mail/inbox/new" "$1/mail/inbox/tmp" "$1/mail/inbox/cur"
	order_mails 0 "$2" mem | write_mails "$1/mail/inbox/new"
}

# rss D [COMMAND]: one run (or COMMAND) in D; prints its most memory in KB.
rss() {
	GLIBC_TUNABLES=glibc.malloc.mmap_threshold=65536:glibc.malloc.trim_threshold=65536 \
		/usr/bin/time -o "$WORK/time" -f %M "$POUCH" --data "$1" "${2:-run}" >"$OUT" 2>"$ERR" ||
		{ echo 0; return; }
	tail -n 1 "$WORK/time"
}

# at_most WHAT EXTRA_KB BYTES S B: B KB (the BIG judge's) is at most
# EXTRA_KB and BYTES a message more than S KB (the SMALL one's), past the
# slack; both measured.
at_most() {
	limit=$((SLACK_KB + $2 + (BIG - SMALL) * $3 / 1024))
	expect "$((BIG - SMALL)) $1 hold at most $limit KB more ($(($5 - $4)) KB)" \
		[ "$4" -gt 0 -a "$5" -gt 0 -a $(($5 - $4)) -le "$limit" ]
}

judge "$WORK/small" "$SMALL"
judge "$WORK/big" "$BIG"
# The mail fetched alone first: into the spool, nothing applied.
cp -a "$WORK/small" "$WORK/small-fetch"
cp -a "$WORK/big" "$WORK/big-fetch"
s0=$(rss "$WORK/small-fetch" fetch)
b0=$(rss "$WORK/big-fetch" fetch)
echo "  # fetched alone: $SMALL mails ${s0} KB, $BIG mails ${b0} KB"
# the index's cache, and records waiting to be written: a batch's, at most 1 MB
at_most "mails more fetched" $((CACHE_KB + 1024)) "$INDEX_BYTES" "$s0" "$b0"
# Then the same mail applied and answered, already in the spool: what
# the run holds past the spool's index (the outbox's queue, the replies'
# records) shows more plainly.
s3=$(rss "$WORK/small-fetch")
b3=$(rss "$WORK/big-fetch")
echo "  # run after the fetch: $SMALL mails ${s3} KB, $BIG mails ${b3} KB"
at_most "mails more applied and answered" "$CACHE_KB" "$APPLY_BYTES" "$s3" "$b3"
s1=$(rss "$WORK/small")
b1=$(rss "$WORK/big")
echo "  # one run: $SMALL mails ${s1} KB, $BIG mails ${b1} KB"
at_most "mails more in a run" "$CACHE_KB" "$RUN_BYTES" "$s1" "$b1"

# The same 50 mails more for each: the run differs only in the history.
for d in small big; do
	order_mails "$BIG" 50 late | write_mails "$WORK/$d/mail/inbox/new"
done
# The big judge with HISTORY messages more in its ledger, received and
# applied long ago (records a host could have mended by hand: "~edited"
# for their checksums), and no index: the run makes it from the ledger.
cp -a "$WORK/big" "$WORK/huge"
awk -v n="$HISTORY" 'BEGIN {
	for (k = 1; k <= n; k++) {
		id = "1700000000." (9000000 + k) ".pouch"
		printf "in\t%s\t1700000000\t2\tmaildir:history-%d\thistory-%d@x\t-\tnone.pack:0\t~edited\n", id, k, k
		printf "applied\t%s\t1700000000\t~edited\n", id
	}
}' >>"$WORK/huge/spool/ledger"
rm -f "$WORK/huge/spool/index"
s2=$(rss "$WORK/small")
b2=$(rss "$WORK/big")
h2=$(rss "$WORK/huge")
echo "  # 50 mails over a spool of $SMALL records ${s2} KB, of $BIG records ${b2} KB," \
	"of $HISTORY more ${h2} KB"
at_most "records more in the spool's history" "$CACHE_KB" "$HISTORY_BYTES" "$s2" "$b2"
limit=$((SLACK_KB + CACHE_KB))
expect "$HISTORY records more hold at most $limit KB more ($((h2 - b2)) KB), whatever their number" \
	[ "$h2" -gt 0 -a $((h2 - b2)) -le "$limit" ]
expect "... and all 50 mails applied over them" \
	sh -c "[ \$(grep -c '^applied' '$WORK/huge/spool/ledger') -eq \$(( \$(grep -c '^applied' '$WORK/big/spool/ledger') + $HISTORY )) ]"

echo "memory: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
