# check.sh — sourced by the shell tests: ok/not_ok/expect count checks in
# PASS and FAIL; a failure shows the end of $OUT and $ERR (the output files
# of the last command run).

PASS=0 FAIL=0
ok() { PASS=$((PASS + 1)); echo "  ok - $1"; }
not_ok() {
	FAIL=$((FAIL + 1))
	echo "  not ok - $1"
	for f in "$OUT" "$ERR"; do
		[ -s "$f" ] && sed 's/^/      | /' "$f" | tail -n 30
	done
	return 0
}
# expect DESC CONDITION...: record the outcome of a test(1) or grep condition.
expect() {
	desc=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$desc"; else not_ok "$desc"; fi
}

# pouch_of [BUILD]: the pouch of BUILD (default build; a path relative to
# the tree's root, or absolute), in POUCH; stops the test when there is
# none, so that no check expecting a failure passes for want of a program.
pouch_of() {
	case ${1:-build} in
	/*) POUCH=$1/pouch ;;
	*) POUCH=$(pwd)/${1:-build}/pouch ;;
	esac
	[ -x "$POUCH" ] || { echo "$0: $POUCH: no such program (make, or give the build directory)"; exit 1; }
}
