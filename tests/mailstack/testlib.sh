# testlib.sh — sourced by the tests that use the mail stack (tests/mail,
# tests/e2e). Expects OUT and ERR (files for a command's output), MODE
# (plain, valgrind or asan), ROOT, and, from the stack's env file, MAIL_DIR.
# Counts checks in PASS and FAIL.

# stack_up NAME: a work directory WORK (/tmp/NAME.XXXXXX) with the mail
# stack started in WORK/stack and its env loaded; both go when the script
# exits (the directory stays when KEEP is set, to look at after a failure).
stack_up() {
	WORK=$(mktemp -d "/tmp/$1.XXXXXX")
	chmod 755 "$WORK"
	STACK=$WORK/stack
	if ! tests/mailstack/start.sh "$STACK" >"$WORK/start.log" 2>&1; then
		cat "$WORK/start.log"
		echo "cannot start the mail stack"
		rm -rf "$WORK"
		exit 1
	fi
	trap 'tests/mailstack/stop.sh "$STACK" >/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
	trap 'exit 1' INT TERM
	. "$STACK/env"
}

. tests/support/check.sh

# The libraries pouch loads when first needed (lib/lazylib.h), by soname.
lazy_libs() {
	for l in libxml2.so libcurl.so; do
		objdump -p "$(${CC:-cc} -print-file-name=$l)" | sed -n 's/^ *SONAME *//p'
	done | tr '\n' ' '
}

# Run pouch or mailit in the mode's wrapper; stdout in $OUT, stderr in $ERR.
# Returns the program's status; a valgrind or sanitizer report is a failure
# of its own (status 99 or a report in $ERR).
# Under valgrind the libraries pouch loads on demand are preloaded, as if
# linked: the dynamic loader's records of a library loaded at run time are
# allocated with malloc and kept to the end, and valgrind would count them
# as pouch's memory still reachable (records of libraries mapped at
# start-up are not malloc'd). pouch's own dlopen still runs, and finds them.
run() {
	prog=$1
	shift
	case $MODE in
	valgrind) set -- env LD_PRELOAD="${LAZY_LIBS:=$(lazy_libs)}" valgrind -q --error-exitcode=99 \
		--leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
		--suppressions="$ROOT/tests/mail/valgrind.supp" "$prog" "$@" ;;
	*) set -- "$prog" "$@" ;;
	esac
	"$@" >"$OUT" 2>"$ERR"
	rc=$?
	if [ $rc -eq 99 ] || grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:\|==[0-9]*== [A-Z]" "$ERR"; then
		not_ok "no memory errors in: $prog $*"
	fi
	return $rc
}
pouch() { run "$BIN/pouch" "$@"; }
mailit() { run "$BIN/tests/mail/mailit" "$@"; }

# Messages in USER's Maildir.
count_mail() {
	find "$MAIL_DIR/$1/Maildir/new" "$MAIL_DIR/$1/Maildir/cur" -type f 2>/dev/null | wc -l
}
# Wait until USER has at least N messages (Postfix delivers asynchronously).
wait_mail() {
	i=0
	while [ "$(count_mail "$1")" -lt "$2" ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		sleep 0.1
	done
	return 0
}
