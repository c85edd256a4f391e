#!/bin/sh
# bench.sh — run every benchmark and print its figures, then one table:
# each figure beside its floor, measured in the same run (a read-and-
# tokenise pass over the record files for the replay; one file appended
# and synced, and as many files created with one sync, for the cron run;
# Dovecot's own fetch and Postfix's own rate (and the most it allows end to end) for the
# runs over IMAP, the replies to a Maildir and through Postfix).
# `make bench` builds everything this runs. No timing is asserted:
# machines differ.
#
# Usage: tests/bench/bench.sh [BUILD_DIR]   (default build)
#	BENCH_IMAP=no	leave out the run over IMAP (it starts its own Dovecot)
#	LOAD=N		order mails of the cron runs (default 10,000 on the
#			Maildir default, 1,000 over IMAP)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
SHARED=${POUCH_SHARED:-../shared}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# The recorded games, for the archive replay figure.
if [ -d "$SHARED/testdata/games" ] && [ ! -f build/games/.stamp ]; then
	mkdir -p build/games
	tar -xJf "$SHARED/testdata/games/droidippy_public.tar.xz" -C build/games && touch build/games/.stamp
fi
status=0
found=0
# run NAME COMMAND...: print its output and keep it as OUT/NAME
run() {
	name=$1
	shift
	printf '== %s\n' "$name"
	"$@" >"$OUT/$name" 2>&1 || { echo "FAILED: $name" >>"$OUT/$name"; status=1; }
	cat "$OUT/$name"
}
for b in "$BUILD"/tests/bench/bench_*; do
	[ -x "$b" ] || continue
	found=1
	run "$(basename "$b")" "$b"
done
[ "$found" = 1 ] || echo "no benchmarks in $BUILD/tests/bench"
run floor_read "$BUILD/tests/bench/floor" read build/games
# The cron run on the embedded default (a Maildir), and against a real IMAP
# server (needs root and Dovecot; says so otherwise).
run bench_cron env LOAD="${LOAD:-10000}" tests/bench/bench_cron.sh "$BUILD"
if [ "${BENCH_IMAP:-yes}" = no ]; then
	echo "bench_run: skipped (BENCH_IMAP=no)" >"$OUT/bench_run"
	echo "bench_run: skipped (BENCH_IMAP=no)" >"$OUT/bench_run_smtp"
else
	run bench_run tests/bench/bench_run.sh "$BUILD"
	run bench_run_smtp env REPLIES=smtp tests/bench/bench_run.sh "$BUILD"
fi

# figure FILE SED: the part of OUT/FILE that SED's s///p prints ("-" when none)
figure() {
	v=$(sed -n "$2" "$OUT/$1" 2>/dev/null | head -1)
	echo "${v:--}"
}
imap=$(figure bench_run 's/.*from IMAP[^:]*: \([0-9]* ms wall, [0-9]* messages\/s\).*max RSS \(.*\)/\1, \2/p')
[ "$imap" != - ] || imap=$(figure bench_run 's/^bench_run: \(skipped.*\)/\1/p')
printf '\n== figures and their floors (this machine, this run)\n'
printf '| work | figure | floor |\n|---|---|---|\n'
printf '| opening adjudication | %s µs | — |\n' \
	"$(figure bench_adjudicate 's/^opening adjudication: \([0-9.]*\) us.*/\1/p')"
printf '| replay of the recorded games | %s | read and tokenise: %s |\n' \
	"$(figure bench_adjudicate 's/^recorded games replay ([^)]*): \(.*\), [a-z ]*$/\1/p')" \
	"$(figure floor_read 's/^read and tokenise: \([0-9.]* s, [0-9]* files\).*/\1/p')"
printf '| cron run, Maildir default | %s | %s; %s |\n' \
	"$(figure bench_cron 's/^cron run: \([0-9]*\) order mails.*: \([0-9]* ms wall, [0-9]* messages\/s\).*max RSS \(.*\)/\1 mails: \2, \3/p')" \
	"$(figure bench_cron 's/^append [0-9]* records.*one fsync: \(.*\)/append + one fsync \1/p')" \
	"$(figure bench_cron 's/^create \([0-9]*\) files.*one sync: \(.*\)/\1 files + one sync \2/p')"
printf '| cron run over IMAP | %s | %s |\n' "$imap" \
	"$(figure bench_run 's/^Dovecot.s own fetch (floor): \([0-9]* messages in [0-9]* ms, [0-9]* messages\/s\).*/Dovecot alone, one UID FETCH: \1/p')"
smtp=$(figure bench_run_smtp 's/.*from IMAP[^:]*: \([0-9]* ms wall, [0-9]* messages\/s\).*max RSS \(.*\)/\1, \2/p')
[ "$smtp" != - ] || smtp=$(figure bench_run_smtp 's/^bench_run: \(skipped.*\)/\1/p')
printf '| cron run over IMAP, replies over SMTP | %s | %s; %s |\n' "$smtp" \
	"$(figure bench_run_smtp 's/^Postfix.s own rate (floor): smtp-source, \(.*\)/Postfix alone: \1/p')" \
	"$(figure bench_run_smtp 's/^at Postfix.s best rate .*: \(at most [0-9]* order mails\/s\) end to end.*/\1 end to end through it/p')"
printf '| parser | %s | — |\n' "$(figure bench_parser 's/^parser: \([0-9]* simple orders\/s\).*/\1/p')"
exit $status
