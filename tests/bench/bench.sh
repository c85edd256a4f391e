#!/bin/sh
# bench.sh — run every benchmark program and print its figures. `make bench`
# runs this after building them. No timing is asserted: machines differ.
#
# Usage: tests/bench/bench.sh [BUILD_DIR]   (default build)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
SHARED=${POUCH_SHARED:-../shared}
# The recorded games, for the archive replay figure.
if [ -d "$SHARED/testdata/games" ] && [ ! -f build/games/.stamp ]; then
	mkdir -p build/games
	tar -xJf "$SHARED/testdata/games/droidippy_public.tar.xz" -C build/games && touch build/games/.stamp
fi
status=0
found=0
for b in "$BUILD"/tests/bench/bench_*; do
	[ -x "$b" ] || continue
	found=1
	printf '== %s\n' "$(basename "$b")"
	"$b" || { echo "FAILED: $(basename "$b")"; status=1; }
done
[ "$found" = 1 ] || echo "no benchmarks in $BUILD/tests/bench"
# The cron run against a real IMAP server (needs root; says so otherwise).
printf '== bench_run\n'
tests/bench/bench_run.sh "$BUILD" || { echo "FAILED: bench_run"; status=1; }
exit $status
