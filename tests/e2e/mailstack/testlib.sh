# testlib.sh — sourced by the tests that use the mail stack (tests/e2e/mail,
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
	if ! tests/e2e/mailstack/start.sh "$STACK" >"$WORK/start.log" 2>&1; then
		cat "$WORK/start.log"
		echo "cannot start the mail stack"
		rm -rf "$WORK"
		exit 1
	fi
	trap 'tests/e2e/mailstack/stop.sh "$STACK" >/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
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
		--suppressions="$ROOT/tests/e2e/mail/valgrind.supp" "$prog" "$@" ;;
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

# mode_bin MODE: BIN is the build MODE runs: build/ (plain, valgrind, kill)
# or build/san/ (asan, with the sanitizers' options). Exits 2 on another.
mode_bin() {
	case $1 in
	plain | valgrind | kill) BIN=$ROOT/build ;;
	asan)
		BIN=$ROOT/build/san
		export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
		export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
		;;
	*) echo "unknown mode $1"; exit 2 ;;
	esac
}
mailit() { run "$BIN/tests/e2e/mail/mailit" "$@"; }

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

# The e2e tests' players and their mail (tests/e2e).
USERS="judge alice bob carol dave gm"

purge() {
	for u in $USERS; do
		doveadm -c "$DOVECOT_CONF" expunge -u "$u" mailbox INBOX all >/dev/null 2>&1
	done
}

# send FROM SUBJECT BODY: a player's mail to the judge, by SMTP (curl).
SENT=0
send() {
	SENT=$((SENT + 1))
	printf 'From: %s <%s@example.test>\r\nTo: judge@example.test\r\nSubject: %s\r\nMessage-ID: <e2e.%s.%s@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%b\r\n' \
		"$1" "$1" "$2" "$SENT" "$$" "$3" >"$WORK/send.eml"
	curl -s --url "smtp://127.0.0.1:$SMTP_PORT/player.example.test" \
		--mail-from "$1@example.test" --mail-rcpt judge@example.test --upload-file "$WORK/send.eml"
}

# imap_grep USER TEXT: a message in USER's INBOX, read over IMAP with
# STARTTLS by curl and decoded by pouch read-mail, contains TEXT.
imap_grep() {
	url="imap://127.0.0.1:$IMAP_PORT/INBOX"
	uids=$(curl -s --ssl-reqd --cacert "$CA_FILE" --user "$1:${1}pw" "$url" -X "UID SEARCH ALL" |
		tr -d '\r' | sed -n 's/^\* SEARCH//p')
	for uid in $uids; do
		curl -s --ssl-reqd --cacert "$CA_FILE" --user "$1:${1}pw" "$url;UID=$uid" >"$WORK/got.eml"
		"$ROOT/build/pouch" read-mail "$WORK/got.eml" | grep -qF -- "$2" && return 0
	done
	return 1
}

