#!/bin/sh
# run.sh — the mail layer against real servers (Dovecot and Postfix).
#
#	tests/e2e/mail/run.sh [plain] [valgrind] [asan]	(default: all three)
#
# Starts the test mail stack (tests/e2e/mailstack/start.sh) in a temporary
# directory, runs the scenario below once per mode, and stops the stack.
#   plain     build/pouch and build/tests/e2e/mail/mailit
#   valgrind  the same under valgrind: any error, any leak, any block still
#             reachable except GnuTLS's global state (valgrind.supp) fails
#             (libxml2 and libcurl preloaded: see run() in testlib.sh)
#   asan      build/san/...: AddressSanitizer + UndefinedBehaviorSanitizer
#
# The scenario: mail sent through Postfix with plain curl and with our SMTP
# sink (STARTTLS, AUTH, one connection per batch, a refused recipient);
# fetched by our IMAP source with STARTTLS, IMAPS + AUTH PLAIN and no TLS,
# each time fetched again to find nothing new; a Maildir Dovecot delivered,
# read by the Maildir source; a real bounce read as a DSN; a wrong CA and a
# wrong host name refused for IMAP and SMTP; IMAP down (nothing lost); SMTP
# down (the mail waits in the outbox and goes on the next run); a batch of
# 200 messages fetched in one round trip; imap.after = delete.
#
# Prints "ok - ..." or "not ok - ..." per check and a count per mode; exits
# 1 when any check failed. Needs root (Postfix) and the built programs
# (make tests; make SAN=1 BUILD=build/san tests for asan).
set -u
cd "$(dirname "$0")/../../.."
ROOT=$(pwd)
MODES=${*:-plain valgrind asan}
. tests/e2e/mailstack/testlib.sh
stack_up pouch-mailtest
PLOG=$STACK/postfix/postfix.log
OTHER_CA=$WORK/other.pem
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other \
	-keyout "$WORK/other.key" -out "$OTHER_CA" >/dev/null 2>&1

TOTAL_FAILED=0
OUT=$WORK/out
ERR=$WORK/err

purge() {
	for u in judge alice bob carol; do
		doveadm -c "$DOVECOT_CONF" expunge -u "$u" mailbox INBOX all >/dev/null 2>&1
	done
}
curl_send() {	# curl_send TO SUBJECT [BODY]
	printf 'From: Alice <alice@example.test>\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s.%s@example.test>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n' \
		"$1" "$2" "$(date +%s%N)" "$MODE" "${3:-A Par-Bur}" >"$WORK/curl.eml"
	curl -s --url "smtp://127.0.0.1:$SMTP_PORT/client.example.test" \
		--mail-from alice@example.test --mail-rcpt "$1" --upload-file "$WORK/curl.eml"
}
# Send one message to the judge with curl and wait for it; $before is
# how many the judge had.
mail_judge() {
	before=$(count_mail judge)
	curl_send judge@example.test "$1"
	wait_mail judge $((before + 1))
}
# imap_conf DATA TLS PORT [MORE LINES...]
imap_conf() {
	d=$1 tls=$2 port=$3
	shift 3
	mkdir -p "$d"
	{
		echo "imap.host = 127.0.0.1"
		echo "imap.port = $port"
		echo "imap.tls = $tls"
		echo "imap.user = judge"
		echo "imap.password_file = $PASSWORD_DIR/judge"
		echo "imap.cafile = $CA_FILE"
		echo "judge.address = judge@example.test"
		for l in "$@"; do echo "$l"; done
	} >"$d/pouch.conf"
}
# smtp_conf DATA URL [MORE LINES...]
smtp_conf() {
	d=$1 url=$2
	shift 2
	mkdir -p "$d"
	{
		echo "smtp.url = $url"
		echo "smtp.tls = starttls"
		echo "smtp.user = judge"
		echo "smtp.password_file = $PASSWORD_DIR/judge"
		echo "smtp.cafile = $CA_FILE"
		echo "judge.address = judge@example.test"
		for l in "$@"; do echo "$l"; done
	} >"$d/pouch.conf"
}
connections() { grep -c "postfix/submission/smtpd\[[0-9]*\]: connect from" "$PLOG"; }

scenario() {
	D=$WORK/$MODE/judge
	S=$WORK/$MODE/sender
	SUBMIT="smtp://127.0.0.1:$SUBMISSION_PORT/judge.example.test"
	purge
	mkdir -p "$WORK/$MODE"

	echo "# sending: plain curl, and our SMTP sink (STARTTLS, AUTH) through Postfix"
	curl_send judge+game1@example.test "orders by curl"
	expect "curl delivers to judge+game1@" wait_mail judge 1
	smtp_conf "$S" "$SUBMIT"
	mailit queue "$S" 2 judge@example.test
	mailit queue "$S" 1 alice@example.test nobody@example.test bob@example.test
	c0=$(connections)
	pouch --data "$S" send
	expect "pouch send: 3 messages finished" grep -q "^sent 3, deferred 0" "$OUT"
	expect "one refused recipient does not stop the others (550 recorded)" \
		grep -q "failed: .* to nobody@example.test: 550 5.1.1" "$OUT"
	expect "one SMTP connection for the whole batch" test "$(connections)" -eq $((c0 + 1))
	expect "the judge gets its two messages" wait_mail judge 3
	expect "alice gets hers" wait_mail alice 1
	expect "bob gets his" wait_mail bob 1
	mailit counts "$S"
	expect "sent mail is archived in the spool, the outbox is empty" \
		grep -q "out=3 outbox=0 failed=1" "$OUT"

	echo "# fetching with IMAP: STARTTLS + LOGIN"
	imap_conf "$D" starttls "$IMAP_PORT"
	pouch --data "$D" fetch
	expect "3 new messages stored" grep -q "3 new messages: 3 stored" "$OUT"
	pouch --data "$D" fetch
	expect "fetch again: nothing new" grep -q "0 new messages" "$OUT"
	mailit inbound "$D"
	expect "curl's message: normal, plus-address tag game1" grep -q "stored normal from=alice@example.test tag=game1" "$OUT"
	expect "our own messages come back as our own" test "$(grep -c ' own from=judge@example.test' "$OUT")" -eq 2

	echo "# fetching with IMAPS + AUTHENTICATE PLAIN, then without TLS"
	mail_judge "orders over imaps"
	imap_conf "$D" imaps "$IMAPS_PORT" "imap.auth = plain"
	pouch --data "$D" fetch
	expect "IMAPS + AUTH PLAIN: 1 stored" grep -q "1 new messages: 1 stored" "$OUT"
	pouch --data "$D" fetch
	expect "IMAPS: fetch again, nothing new" grep -q "0 new messages" "$OUT"
	mail_judge "orders in the clear"
	imap_conf "$D" none "$IMAP_PORT"
	pouch --data "$D" fetch
	expect "no TLS: 1 stored" grep -q "1 new messages: 1 stored" "$OUT"
	pouch --data "$D" fetch
	expect "no TLS: fetch again, nothing new" grep -q "0 new messages" "$OUT"

	echo "# the Maildir source reads what Dovecot delivered"
	M=$WORK/$MODE/maildir
	mkdir -p "$M"
	echo "maildir.in = $MAIL_DIR/bob/Maildir" >"$M/pouch.conf"
	pouch --data "$M" fetch
	expect "Maildir: 1 stored" grep -q "1 new messages: 1 stored" "$OUT"
	pouch --data "$M" fetch
	expect "Maildir: fetch again, nothing new" grep -q "0 new messages" "$OUT"
	expect "Maildir: marked seen (cur/...:2,S)" test -n "$(find "$MAIL_DIR/bob/Maildir/cur" -name '*:2,*S*')"

	echo "# a real bounce"
	n=$(count_mail judge)
	mailit queue "$S" 1 ghost@example.test
	pouch --data "$S" send
	expect "Postfix accepts mail to ghost@" grep -q "^sent 1" "$OUT"
	expect "the bounce comes back to the judge" wait_mail judge $((n + 1))
	imap_conf "$D" starttls "$IMAP_PORT"
	pouch --data "$D" fetch
	mailit inbound "$D"
	expect "the bounce is a DSN naming ghost@" grep -q "stored bounce from=mailer-daemon@mail.example.test tag=- bounced=1" "$OUT"

	echo "# wrong certificates are refused"
	mailit counts "$D"
	before=$(cat "$OUT")
	imap_conf "$D" starttls "$IMAP_PORT" "imap.cafile = $OTHER_CA"
	pouch --data "$D" fetch
	expect "IMAP, wrong CA: refused" test $? -ne 0
	expect "IMAP, wrong CA: says why" grep -q "certificate is refused: .*issuer is unknown" "$ERR"
	sed -i "s/^imap.host = .*/imap.host = 127.1/" "$D/pouch.conf"
	sed -i "s|^imap.cafile = .*|imap.cafile = $CA_FILE|" "$D/pouch.conf"
	pouch --data "$D" fetch
	expect "IMAP, wrong host name: refused" test $? -ne 0
	expect "IMAP, wrong host name: says why" grep -q "name in the certificate does not match" "$ERR"
	mailit counts "$D"
	expect "nothing stored by a refused connection" test "$(cat "$OUT")" = "$before"
	W=$WORK/$MODE/wrongca
	smtp_conf "$W" "$SUBMIT" "smtp.cafile = $OTHER_CA"
	mailit queue "$W" 1 alice@example.test
	pouch --data "$W" send
	expect "SMTP, wrong CA: refused, the mail stays in the outbox" grep -q "deferred 1" "$OUT"
	expect "SMTP, wrong CA: says why" grep -q "certificate" "$ERR"
	smtp_conf "$W" "smtp://127.0.0.1:$WRONGNAME_PORT/judge.example.test" "smtp.cafile = $WRONGNAME_CA"
	pouch --data "$W" send --now $(($(date +%s) + 3600))
	expect "SMTP, wrong host name: refused, the mail stays in the outbox" grep -q "deferred 1" "$OUT"
	expect "SMTP, wrong host name: says why" grep -q "does not match target host name" "$ERR"

	echo "# IMAP down: a clear error, nothing lost"
	mail_judge "sent while IMAP is unreachable"
	imap_conf "$D" starttls $((IMAP_PORT + 1))
	pouch --data "$D" fetch
	expect "IMAP down: pouch fetch fails" test $? -ne 0
	expect "IMAP down: says why" grep -q "cannot connect: connection refused" "$ERR"
	imap_conf "$D" starttls "$IMAP_PORT"
	pouch --data "$D" fetch
	expect "IMAP back: the message is fetched" grep -q "1 new messages: 1 stored" "$OUT"

	echo "# SMTP down: the mail waits in the outbox and goes on the next run"
	O=$WORK/$MODE/smtpdown
	smtp_conf "$O" "smtp://127.0.0.1:$((SUBMISSION_PORT + 1))/judge.example.test"
	n=$(count_mail alice)
	mailit queue "$O" 1 alice@example.test
	pouch --data "$O" send
	expect "SMTP down: deferred" grep -q "deferred 1, .* 1 left in the outbox" "$OUT"
	expect "SMTP down: says why" grep -qi "connect" "$ERR"
	smtp_conf "$O" "$SUBMIT"
	pouch --data "$O" send
	expect "SMTP back, before the backoff: still waiting" grep -q "waiting 1" "$OUT"
	pouch --data "$O" send --now $(($(date +%s) + 600))
	expect "SMTP back, next run: sent" grep -q "^sent 1, .* 0 left in the outbox" "$OUT"
	expect "SMTP back: delivered" wait_mail alice $((n + 1))

	echo "# a batch of 200 messages: four SMTP connections at once, one IMAP round trip"
	n=$(count_mail judge)
	mailit queue "$S" 200 judge@example.test
	c0=$(connections)
	pouch --data "$S" send
	expect "200 sent" grep -q "^sent 200, deferred 0" "$OUT"
	expect "200 sent over four connections (smtp.connections)" test "$(connections)" -eq $((c0 + 4))
	expect "200 delivered" wait_mail judge $((n + 200))
	t0=$(date +%s%N)
	pouch --data "$D" fetch
	t1=$(date +%s%N)
	expect "200 fetched and stored" grep -q "200 new messages: 200 stored" "$OUT"
	expect "with 6 IMAP commands (STARTTLS LOGIN SELECT SEARCH FETCH STORE)" grep -q "(6 IMAP commands)" "$OUT"
	ms=$(((t1 - t0) / 1000000))
	rate=$((200000 / (ms > 0 ? ms : 1)))
	# A figure to read, not a check: speed is measured by make bench.
	echo "  # 200 messages fetched and stored in $ms ms: $rate messages/s"
	pouch --data "$D" fetch
	expect "fetch again: nothing new" grep -q "0 new messages" "$OUT"

	echo "# imap.after = delete"
	mail_judge "to be deleted"
	imap_conf "$D" starttls "$IMAP_PORT" "imap.after = delete"
	pouch --data "$D" fetch
	expect "after = delete: stored" grep -q "1 new messages: 1 stored" "$OUT"
	expect "after = delete: gone from the server" test "$(count_mail judge)" -eq "$before"
	mailit counts "$D"
	expect "the spool holds every message fetched (208)" grep -q "^in=208 " "$OUT"
}

for MODE in $MODES; do
	PASS=0 FAIL=0
	mode_bin "$MODE"
	if [ ! -x "$BIN/pouch" ] || [ ! -x "$BIN/tests/e2e/mail/mailit" ]; then
		echo "== $MODE: $BIN/pouch or $BIN/tests/e2e/mail/mailit missing (make tests first)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		continue
	fi
	if [ "$MODE" = valgrind ] && ! command -v valgrind >/dev/null; then
		echo "== valgrind: not installed"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		continue
	fi
	echo "== mail tests ($MODE)"
	scenario
	echo "== $MODE: $PASS passed, $FAIL failed"
	TOTAL_FAILED=$((TOTAL_FAILED + FAIL))
done
[ $TOTAL_FAILED -eq 0 ]
