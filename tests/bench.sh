#!/bin/sh
# bench.sh — run every benchmark program and print its figures. `make bench`
# runs this after building them. Benchmarks measure; they never fail on time.
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
SHARED=${POUCH_SHARED:-../shared}
if [ -d "$SHARED/testdata/games" ] && [ ! -f build/games/.stamp ]; then
	mkdir -p build/games
	tar -xJf "$SHARED/testdata/games/droidippy_public.tar.xz" -C build/games && touch build/games/.stamp
fi
for b in "$BUILD"/tests/bench_*; do
	[ -x "$b" ] || continue
	printf '== %s\n' "$(basename "$b")"
	"$b"
done
