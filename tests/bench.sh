#!/bin/sh
# bench.sh — run every benchmark program and print its figures (make bench).
# No timing is asserted: the figures are for people to read.
#   tests/bench.sh [BUILD]   (default build)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
found=0
for b in "$BUILD"/tests/bench_*; do
	[ -x "$b" ] || continue
	found=1
	printf '== %s\n' "$(basename "$b")"
	"$b"
done
[ "$found" = 1 ] || echo "no benchmark programs in $BUILD/tests"
