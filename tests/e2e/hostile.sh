#!/bin/sh
# hostile.sh — the mail layer against servers that misbehave on purpose.
#
#	tests/e2e/hostile.sh [imap] [smtp] [run]	(default: all three)
#
# tests/e2e/badserver.py plays an IMAP or SMTP server on loopback
# (STARTTLS with a self-signed certificate given as imap.cafile /
# smtp.cafile: verification stays on) that breaks in one way per mode: the
# connection dropped at each step, silence, answers cut short, garbage,
# answers without end, one byte at a time. For each mode: pouch fetch or
# pouch send ends within its documented time-out (imap.timeout and
# smtp.timeout are 1 s here; pouch.conf(5)), exits with a clear error that
# names the step, does not crash (no sanitizer report when BIN is a
# sanitized build), and loses nothing: the next run against a working
# server gets every message exactly once. The SMTP modes are played twice:
# by a server without PIPELINING (one command at a time) and by one that
# offers it (MAIL FROM, RCPT TO and DATA sent together); both also refuse a
# recipient (the others still get the message, the same connection goes
# on) and close an idle connection (connected again, nothing sent twice).
# Then pouch run with both servers
# failing, then working: every message applied once and answered once.
#
# Needs python3, openssl and the built programs (make tests); not root.
# BIN selects the build (default build; build/san for ASan + UBSan).
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BIN=${BIN:-build}
PARTS=${*:-imap smtp run}
. tests/support/check.sh

WORK=$(mktemp -d /tmp/pouch-hostile.XXXXXX)
SERVER_PID=
PIPE=	# "--pipelining": the SMTP server offers PIPELINING
trap 'stop_server; [ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM
OUT=$WORK/out
ERR=$WORK/err
CERT=$WORK/cert.pem
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
	-addext "basicConstraints=critical,CA:TRUE" \
	-keyout "$WORK/key.pem" -out "$CERT" >/dev/null 2>&1 || { echo "openssl failed"; exit 1; }
printf 'secret\n' >"$WORK/pw"
chmod 600 "$WORK/pw"
TIMEOUT=1	# imap.timeout and smtp.timeout
TIME=$(command -v /usr/bin/time)

# start_server imap|smtp DIR MODES [MORE OPTIONS]: badserver.py in the
# background; PORT.
start_server() {
	stop_server
	rm -f "$2/port" "$2/log"
	mkdir -p "$2"
	python3 tests/e2e/badserver.py "$1" --dir "$2" --modes "$3" ${4:-} \
		--cert "$CERT" --key "$WORK/key.pem" 2>>"$2/stderr" &
	SERVER_PID=$!
	i=0
	while [ ! -s "$2/port" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "badserver did not start"; cat "$2/stderr"; exit 1; }
		sleep 0.05
	done
	PORT=$(cat "$2/port")
}
stop_server() {
	if [ -n "$SERVER_PID" ]; then
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
		SERVER_PID=
	fi
}

# timed LIMIT PROG ARGS...: run with a watchdog (a hang is a failure, not a
# hung suite); stdout in OUT, stderr in ERR, seconds in SECS, max RSS in
# RSS_KB (when /usr/bin/time exists). Returns the program's status (124
# when the watchdog ended it).
timed() {
	limit=$1
	shift
	t0=$(date +%s%N)
	if [ -n "$TIME" ]; then
		"$TIME" -o "$WORK/rss" -f %M timeout -k 5 "$limit" "$@" >"$OUT" 2>"$ERR"
	else
		timeout -k 5 "$limit" "$@" >"$OUT" 2>"$ERR"
	fi
	rc=$?
	t1=$(date +%s%N)
	SECS=$(((t1 - t0) / 1000000000))
	RSS_KB=$(tail -n 1 "$WORK/rss" 2>/dev/null | grep -E '^[0-9]+$' || echo 0)
	if grep -q "ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:" "$ERR"; then
		not_ok "no sanitizer report: $*"
	fi
	return $rc
}
counts() { "$BIN/tests/e2e/mail/mailit" counts "$1"; }

# ---------------------------------------------------------------- IMAP
imap_conf() {	# imap_conf DATA
	mkdir -p "$1"
	cat >"$1/pouch.conf" <<EOF
imap.host = 127.0.0.1
imap.port = $PORT
imap.tls = ${IMAP_TLS:-starttls}
imap.cafile = $CERT
imap.user = judge
imap.password_file = $WORK/pw
imap.timeout = $TIMEOUT
judge.address = judge@example.test
EOF
}
imap_folder() {	# four messages in the server's folder
	mkdir -p "$1/imap"
	for i in 1 2 3 4; do
		printf 'From: Player %s <p%s@example.test>\r\nTo: judge@example.test\r\nSubject: orders %s\r\nMessage-ID: <m%s@example.test>\r\nDate: Wed, 25 Nov 2026 03:00:00 +0000\r\n\r\nhelp\r\n' \
			"$i" "$i" "$i" "$i" >"$1/imap/$i.eml"
	done
}

# imap_case MODE STATUS PATTERN [LIMIT]: the first fetch meets MODE and
# exits with STATUS (and, when failing, an error matching PATTERN) within
# LIMIT seconds; the folder's flags change only after a commit; a second
# fetch from a working server leaves all four messages in the spool, once.
imap_case() {
	mode=$1 want=$2 pattern=$3 limit=${4:-$((TIMEOUT * 3 + 2))}
	d=$WORK/imap/$mode${IMAP_TLS:-}
	srv=$d.srv
	imap_folder "$srv"
	start_server imap "$srv" "$mode,ok"
	imap_conf "$d"
	timed 60 "$BIN/pouch" --data "$d" fetch
	rc=$?
	expect "$mode: exit status $want (got $rc)" test "$rc" -eq "$want"
	expect "$mode: within $limit s (took $SECS s)" test "$SECS" -le "$limit"
	if [ "$want" -ne 0 ]; then
		# A server that drops the line may be slower to do it than the
		# timeout on a loaded machine: that step timing out says what
		# happened too.
		late=$pattern
		case $mode in drop-*) late="${pattern%%:*}: no answer within" ;; esac
		expect "$mode: the error says what happened" sh -c \
		    'grep -q "$1" "$3" || grep -q "$2" "$3"' sh \
		    "IMAP 127.0.0.1:$PORT: $pattern" "IMAP 127.0.0.1:$PORT: $late" "$ERR"
	fi
	[ "$RSS_KB" -gt 0 ] && echo "  # $mode: $SECS s, max RSS $((RSS_KB / 1024)) MB"
	case $BIN in
	*san*) ;;	# AddressSanitizer's own memory is not pouch's
	*) expect "$mode: memory bounded: at most 1 GB (${RSS_KB} KB)" test "$RSS_KB" -le 1048576 ;;
	esac
	case $mode in
	drop-store | no-store) ;;	# stored, then the commit failed
	*) expect "$mode: no flags changed on the server before a commit" \
		sh -c "! grep -q 'stored flags' '$srv/log' || [ $rc -eq 0 ]" ;;
	esac
	timed 30 "$BIN/pouch" --data "$d" fetch
	expect "$mode: the next fetch works" test $? -eq 0
	"$BIN/tests/e2e/mail/mailit" inbound "$d" | sed 's/.*subject=//' | sort | tr '\n' , >"$OUT"
	expect "$mode: the four messages in the spool, each once" \
		test "$(cat "$OUT")" = "orders 1,orders 2,orders 3,orders 4,"
	timed 30 "$BIN/pouch" --data "$d" fetch
	expect "$mode: then nothing new" grep -q " 0 new messages" "$OUT"
	stop_server
}

imap_part() {
	echo "# IMAP (pouch fetch, imap.timeout = $TIMEOUT s, a session at most $((TIMEOUT * 10)) s)"
	imap_case close-at-greeting 1 "cannot connect: the server closed the connection"
	imap_case silent 1 "cannot connect: no answer within $TIMEOUT s"
	imap_case garbage-greeting 1 "cannot connect: cannot parse the server's answer"
	imap_case drop-starttls 1 "STARTTLS: the server closed the connection"
	imap_case drop-login 1 "LOGIN: the "
	imap_case drop-select 1 "SELECT: the "
	imap_case drop-search 1 "UID SEARCH: the "
	imap_case drop-fetch 1 "UID FETCH: the "
	imap_case truncated-fetch 1 "UID FETCH: the "
	imap_case garbage-fetch 1 "UID FETCH: cannot parse the server's answer"
	imap_case stall-fetch 1 "UID FETCH: no answer within $TIMEOUT s"
	imap_case trickle 1 "UID FETCH: the session took longer than $((TIMEOUT * 10)) s" $((TIMEOUT * 10 + 3))
	imap_case huge-literal 1 "UID FETCH: the server sent more than 256 MiB in one session" 30
	# (under ASan the session's time may run out before the bytes)
	imap_case flood 1 "SELECT: the \(server sent more than 256 MiB in one session\|session took longer\)" 30
	# Without TLS, a connection that ends inside a literal is a read of
	# 0 bytes, which libetpan's literal reader alone takes for "try again".
	IMAP_TLS=none
	imap_case truncated-fetch 1 "UID FETCH: the server closed the connection"
	imap_case drop-fetch 1 "UID FETCH: the server closed the connection"
	IMAP_TLS=
	imap_case drop-store 1 "UID STORE: the "
	imap_case no-store 1 "UID STORE: command failed (server: \"cannot store\")"
	# Answers for UIDs never asked for must not move the cursor past
	# message 4, which arrives after this run.
	imap_case bad-fetch 0 ""

	echo "# a backlog bigger than a batch (2,000): all of it in one run, batch by batch"
	d=$WORK/imap/backlog
	start_server imap "$d.srv" ok "--messages 4100"
	imap_conf "$d"
	timed 120 "$BIN/pouch" --data "$d" fetch
	expect "backlog: one fetch stores all 4,100" grep -q "4100 new messages: 4100 stored" "$OUT"
	expect "backlog: three batches over one connection (3 + 3 x 3 IMAP commands)" \
		grep -q "(12 IMAP commands)" "$OUT"
	expect "backlog: one connection" test "$(grep -c '^conn' "$d.srv/log")" -eq 1
	timed 30 "$BIN/pouch" --data "$d" fetch
	expect "backlog: then nothing new" grep -q " 0 new messages" "$OUT"
	stop_server
}

# ---------------------------------------------------------------- SMTP
smtp_conf() {	# smtp_conf DATA
	mkdir -p "$1"
	cat >"$1/pouch.conf" <<EOF
smtp.url = smtp://127.0.0.1:$PORT/judge.example.test
smtp.tls = starttls
smtp.cafile = $CERT
smtp.user = judge
smtp.password_file = $WORK/pw
smtp.timeout = $TIMEOUT
judge.address = judge@example.test
EOF
}
stored_mail() { find "$1/smtp" -name '*.eml' 2>/dev/null | wc -l; }

# smtp_case MODE PATTERN [LIMIT]: two queued messages; the first send
# meets MODE over one connection, defers both with an error matching
# PATTERN (naming the step) within LIMIT seconds; the next send, after the
# back-off, delivers both, once.
smtp_case() {
	mode=$1 pattern=$2 limit=${3:-$((TIMEOUT * 2 + 2))}
	d=$WORK/smtp/$mode$PIPE
	srv=$WORK/smtp/$mode$PIPE.srv
	start_server smtp "$srv" "$mode,ok" "$PIPE"
	smtp_conf "$d"
	"$BIN/tests/e2e/mail/mailit" queue "$d" 2 alice@example.test >/dev/null
	timed 60 "$BIN/pouch" --data "$d" send
	rc=$?
	expect "$mode: within $limit s (took $SECS s)" test "$SECS" -le "$limit"
	expect "$mode: exit status 0 (got $rc): deferring is not failing" test "$rc" -eq 0
	if [ "$mode" = drop-quit ] || [ "$mode" = stall-quit ]; then
		expect "$mode: both sent (the server took them before QUIT)" grep -q "^sent 2, deferred 0" "$OUT"
	else
		expect "$mode: both deferred, still in the outbox" grep -q "deferred 2, .* 2 left in the outbox" "$OUT"
		expect "$mode: the error names the step" \
			grep -q "warning: SMTP smtp://127.0.0.1:$PORT: $pattern.*(the outbox keeps the mail)" "$ERR"
		expect "$mode: one connection: the rest of the batch waits" test "$(grep -c '^conn' "$srv/log")" -eq 1
	fi
	timed 60 "$BIN/pouch" --data "$d" send --now $(($(date +%s) + 600))
	expect "$mode: the next send works" test $? -eq 0
	expect "$mode: the outbox is empty" grep -q " 0 left in the outbox" "$OUT"
	expect "$mode: the server has each message once (2)" test "$(stored_mail "$srv")" -eq 2
	stop_server
}

# smtp_more: what a working server may refuse or end, over one batch.
smtp_more() {
	d=$WORK/smtp/refuse$PIPE
	srv=$d.srv
	start_server smtp "$srv" refuse-nobody "$PIPE"
	smtp_conf "$d"
	"$BIN/tests/e2e/mail/mailit" queue "$d" 1 alice@example.test nobody@example.test bob@example.test >/dev/null
	"$BIN/tests/e2e/mail/mailit" queue "$d" 1 nobody@example.test >/dev/null
	"$BIN/tests/e2e/mail/mailit" queue "$d" 1 carol@example.test >/dev/null
	timed 60 "$BIN/pouch" --data "$d" send
	expect "refused recipients: all three finished" grep -q "^sent 3, deferred 0" "$OUT"
	expect "refused recipients: the 550 is recorded" grep -q "failed: .* to nobody@example.test: 550 5.1.1" "$OUT"
	expect "refused recipients: a message with nobody left is not sent; the next one is" \
		test "$(stored_mail "$srv")" -eq 2
	expect "refused recipients: one connection" test "$(grep -c '^conn' "$srv/log")" -eq 1
	if [ -n "$PIPE" ]; then
		expect "PIPELINING: each envelope went in one piece" test "$(grep -c '^pipelined' "$srv/log")" -eq 3
	else
		expect "no PIPELINING offered: one command at a time" test "$(grep -c '^pipelined' "$srv/log")" -eq 0
	fi
	stop_server
	d=$WORK/smtp/idle$PIPE
	srv=$d.srv
	start_server smtp "$srv" close-after-one,ok "$PIPE"
	smtp_conf "$d"
	"$BIN/tests/e2e/mail/mailit" queue "$d" 2 alice@example.test >/dev/null
	timed 60 "$BIN/pouch" --data "$d" send
	expect "server closes after one message: both sent" grep -q "^sent 2, deferred 0" "$OUT"
	expect "server closes after one message: connected again once" test "$(grep -c '^conn' "$srv/log")" -eq 2
	expect "server closes after one message: each stored once" test "$(stored_mail "$srv")" -eq 2
	stop_server
}

# smtp_parallel: a batch sent over smtp.connections = 4 connections, one
# of which breaks in the middle of it (the server drops whichever gets
# the batch's 50th DATA): the message it broke on waits in the outbox,
# the other connections deliver the rest, once; the next send delivers
# the one left, once. Then connections that cannot be made while one
# can: all sent over the one that works.
# send_hundred NAME MODES: 100 messages queued in DATA WORK/smtp/NAME,
# sent by pouch send over four connections to a server playing MODES.
send_hundred() {
	d=$WORK/smtp/$1$PIPE
	srv=$d.srv
	start_server smtp "$srv" "$2" "$PIPE"
	smtp_conf "$d"
	echo "smtp.connections = 4" >>"$d/pouch.conf"
	"$BIN/tests/e2e/mail/mailit" queue "$d" 100 alice@example.test >/dev/null
	timed 60 "$BIN/pouch" --data "$d" send
}
smtp_parallel() {
	send_hundred parallel drop-fiftieth-data
	expect "parallel: exit status 0: deferring is not failing" test $? -eq 0
	# smtp.cafile names the one CA: no connection reads the system's as well
	case $BIN in
	*san*) ;;
	*) expect "parallel: four connections hold at most 24 MB (${RSS_KB} KB)" test "$RSS_KB" -le 24576 ;;
	esac
	expect "parallel: four connections" test "$(grep -c '^conn' "$srv/log")" -eq 4
	expect "parallel: the broken connection says why" \
		grep -q "warning: SMTP smtp://127.0.0.1:$PORT: waiting for the answer to DATA: .*(the outbox keeps the mail)" "$ERR"
	expect "parallel: its message waits, the others carried the rest" \
		grep -q "^sent 99, deferred 1, .* 1 left in the outbox" "$OUT"
	expect "parallel: the server has the 99, each once" \
		test "$(stored_mail "$srv")" -eq 99 -a \
		"$(cat "$srv"/smtp/*.eml | grep -i '^Message-ID:' | sort -u | wc -l)" -eq 99
	timed 60 "$BIN/pouch" --data "$d" send --now $(($(date +%s) + 600))
	expect "parallel: the next send works" test $? -eq 0
	expect "parallel: the outbox is empty" grep -q " 0 left in the outbox" "$OUT"
	expect "parallel: the server has each of the 100 once" \
		test "$(cat "$srv"/smtp/*.eml | grep -i '^Message-ID:' | sort -u | wc -l)" -eq 100 -a \
		"$(stored_mail "$srv")" -eq 100
	stop_server
	send_hundred fewer "ok,drop-greeting"
	expect "fewer connections: exit status 0" test $? -eq 0
	expect "fewer connections: all sent over the one made" grep -q "^sent 100, deferred 0" "$OUT"
	expect "fewer connections: each stored once" test "$(stored_mail "$srv")" -eq 100
	stop_server
}

smtp_part() {
	for PIPE in "" --pipelining; do
		echo "# SMTP (pouch send, STARTTLS + AUTH, smtp.timeout = $TIMEOUT s${PIPE:+, PIPELINING})"
		smtp_case drop-greeting "waiting for the greeting: "
		smtp_case silent "waiting for the greeting: .*time"
		smtp_case trickle "waiting for the greeting: .*time"
		smtp_case drop-ehlo "waiting for the answer to EHLO: "
		smtp_case drop-starttls "waiting for the answer to STARTTLS: "
		smtp_case drop-auth "waiting for the answer to AUTH: "
		smtp_case drop-mail "waiting for the answer to MAIL: "
		smtp_case drop-rcpt "waiting for the answer to RCPT: "
		smtp_case drop-data "waiting for the answer to DATA: "
		smtp_case drop-eod "waiting for the answer to the message: "
		smtp_case stall-eod "waiting for the answer to the message: .*timeout"
		smtp_case drop-quit ""
		smtp_case stall-quit ""
		smtp_more
		smtp_parallel
	done
	PIPE=
}

# ---------------------------------------------------------------- pouch run
run_part() {
	echo "# pouch run: both servers failing, then working"
	d=$WORK/run
	isrv=$WORK/run.imap
	ssrv=$WORK/run.smtp
	imap_folder "$isrv"
	start_server smtp "$ssrv" "drop-data,drop-eod,ok" --pipelining
	SERVER_SMTP=$SERVER_PID SMTP_PORT=$PORT
	SERVER_PID=
	start_server imap "$isrv" "truncated-fetch,ok"
	mkdir -p "$d"
	imap_conf "$d"
	PORT=$SMTP_PORT smtp_conf "$d.smtp"
	cat "$d.smtp/pouch.conf" >>"$d/pouch.conf"
	timed 60 "$BIN/pouch" --data "$d" run
	expect "run 1 (IMAP cut short): exit status 1" test $? -eq 1
	expect "run 1: says why" grep -q "UID FETCH: the " "$ERR"
	counts "$d" >"$OUT"
	expect "run 1: nothing in the spool, nothing to send" grep -q "^in=0 .* outbox=0 " "$OUT"
	timed 60 "$BIN/pouch" --data "$d" run
	expect "run 2 (IMAP works, SMTP drops at DATA): exit status 0" test $? -eq 0
	counts "$d" >"$OUT"
	expect "run 2: four applied, four answers in the outbox" grep -q "^in=4 stored=0 applied=4 .* out=0 outbox=4 " "$OUT"
	timed 60 "$BIN/pouch" --data "$d" run --now $(($(date +%s) + 600))
	counts "$d" >"$OUT"
	expect "run 3 (SMTP drops after the final dot): the answers still wait" grep -q "out=0 outbox=4 " "$OUT"
	timed 60 "$BIN/pouch" --data "$d" run --now $(($(date +%s) + 1800))
	expect "run 4 (both work): exit status 0" test $? -eq 0
	counts "$d" >"$OUT"
	expect "run 4: every message applied once, answered once" \
		grep -q "^in=4 stored=0 applied=4 duplicate=0 out=4 outbox=0 failed=0" "$OUT"
	expect "run 4: the SMTP server has the four answers" test "$(stored_mail "$ssrv")" -eq 4
	n=0
	for i in 1 2 3 4; do grep -lq "^To:.*p$i@example.test" "$ssrv"/smtp/*.eml && n=$((n + 1)); done
	expect "run 4: one answer to each of the four senders" test "$n" -eq 4
	kill "$SERVER_SMTP" 2>/dev/null
	wait "$SERVER_SMTP" 2>/dev/null
	stop_server
}

for part in $PARTS; do
	"${part}_part"
done
echo "== hostile servers: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
