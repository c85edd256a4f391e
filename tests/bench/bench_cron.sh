#!/bin/sh
# bench_cron.sh — the cron run on the embedded default, measured: LOAD order
# mails (default 10,000) for GAMES games (default LOAD / 200) delivered to
# the judge's own Maildir, applied, answered, adjudicated and sent (replies
# to the local Maildir) in one `pouch run`; beside it, on the same file
# system and in the same minute, what the disk allows for that many
# messages (tests/bench/floor disk: one file appended and synced once; as
# many files created and synced once).
#
#	tests/bench/bench_cron.sh [BUILD]	(default build)
#	LOAD=100000 GAMES=500 tests/bench/bench_cron.sh
#	BENCH_DIR=/dev/shm/x ...		(where the judge's data goes;
#						 default BUILD/bench-cron)
#
# Prints wall time, messages per second, CPU ms per message and the run's
# maximum resident memory. No speed is asserted; every order mail must be
# applied (exit 1 otherwise).
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${1:-build}
POUCH=$ROOT/$BUILD/pouch
LOAD=${LOAD:-10000}
GAMES=${GAMES:-$((LOAD / 200))}
[ "$GAMES" -ge 1 ] || GAMES=1
DIR=${BENCH_DIR:-$ROOT/$BUILD/bench-cron}
rm -rf "$DIR"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
D=$DIR/judge
. tests/bench/load.sh
new_judge "$D"
make_games
box=$D/mail/inbox
mkdir -p "$box/tmp" "$box/new" "$box/cur"
order_mails 0 "$LOAD" bench | write_mails "$box/new"
bytes=$(find "$box/new" -type f -exec cat {} + | wc -c)
sync
figures=$(timed_run "$DIR") || { echo "$figures"; exit 1; }
echo "cron run: $LOAD order mails for $GAMES games (Maildir): $figures"
grep -q "applied $LOAD," "$DIR/run.out" || { echo "bench_cron: not every order mail applied"; exit 1; }
"$ROOT/$BUILD/tests/bench/floor" disk "$DIR/floor" "$LOAD" $((bytes / LOAD))
