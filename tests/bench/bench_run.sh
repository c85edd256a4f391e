#!/bin/sh
# bench_run.sh — the cron run, measured: LOAD order mails (default 1,000)
# for GAMES games (default LOAD / 20) fetched from a real IMAP server
# (Dovecot on loopback, tests/e2e/mailstack), applied, answered and adjudicated
# in one run; then an idle run with nothing new; then, with RUNS=N, N runs
# back to back while mail keeps arriving over SMTP.
#
#	tests/bench/bench_run.sh [BUILD]   (default build; needs root for the stack)
#	LOAD=10000 tests/bench/bench_run.sh	(make bench-load: 10,000 for 500 games,
#					 then 100 runs back to back)
#	REPLIES=smtp tests/bench/bench_run.sh	(the replies through Postfix)
#
# The replies and reports go to a local Maildir (no smtp.url), so that the
# figure is the judge's own work and not a mail server's queue; with
# REPLIES=smtp they go through the stack's Postfix instead (submission
# port, STARTTLS and AUTH, one connection, pipelined), which takes the
# players' and game masters' mail and discards it (a transport of its
# own for those addresses), so what is measured is the judge's sending
# and Postfix's queueing, not the delivery; every reply must then be in
# Postfix's log once. After the run, Dovecot's own fetch rate, the floor
# of the fetch: one UID FETCH of every message, read and dropped
# (tests/bench/imap_floor.py); with REPLIES=smtp also Postfix's own rate
# (its smtp-source, over one and over four sessions) and what it allows
# end to end for the replies the run queued. Prints
# messages per second end to end (wall clock of `pouch run`), CPU ms per
# message (user + system), the run's maximum resident memory, and the idle
# run's wall time (against Dovecot as installed, and in its
# high-performance login mode). No speed is asserted; what is checked is
# that nothing is lost or doubled: every order mail applied once and
# answered once (a reply whose In-Reply-To names it), else exit 1.
#
# RUNS=N: a sender delivers order mails through Postfix (SMTP, then LMTP
# into Dovecot) one after another while N `pouch run`s follow each other;
# after the sender stops, one more run; every mail it sent must be applied
# once and answered once.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
BUILD=${1:-build}
POUCH=$ROOT/$BUILD/pouch
if [ "$(id -u)" -ne 0 ] || ! command -v dovecot >/dev/null 2>&1; then
	echo "bench_run: skipped (needs root and Dovecot: contrib/deps.sh test)"
	exit 0
fi
# mailit counts what the spool applied: without it every mail would look lost.
if [ ! -x "$ROOT/$BUILD/tests/e2e/mail/mailit" ]; then
	echo "bench_run: $BUILD/tests/e2e/mail/mailit is missing (make bench builds it)"
	exit 1
fi
MODE=plain OUT=/dev/null ERR=/dev/null
. tests/e2e/mailstack/testlib.sh
stack_up pouch-bench
D=$WORK/judge
LOAD=${LOAD:-1000}
GAMES=${GAMES:-$((LOAD / 20))}
[ "$GAMES" -ge 1 ] || GAMES=1
. tests/bench/load.sh
new_judge "$D"
cat >>"$D/pouch.conf" <<EOF
imap.host = 127.0.0.1
imap.port = $IMAP_PORT
imap.user = judge
imap.password_file = $PASSWORD_DIR/judge
imap.cafile = $CA_FILE
EOF
make_games
REPLIES=${REPLIES:-maildir}
if [ "$REPLIES" = smtp ]; then
	# players and game masters: accepted and discarded; the judge's own
	# address is delivered to Dovecot as before
	printf '%s\n' '/^(Austria|England|France|Germany|Italy|Russia|Turkey|gm)[0-9]+@example\.test$/ discard:' \
		>"$STACK/postfix/etc/bench_transport"
	postconf -c "$STACK/postfix/etc" -e "smtpd_reject_unlisted_recipient = no" \
		"transport_maps = regexp:$STACK/postfix/etc/bench_transport"
	postfix -c "$STACK/postfix/etc" reload >/dev/null 2>&1
	cat >>"$D/pouch.conf" <<EOF
smtp.url = smtp://127.0.0.1:$SUBMISSION_PORT/judge.example.test
smtp.tls = starttls
smtp.user = judge
smtp.password_file = $PASSWORD_DIR/judge
smtp.cafile = $CA_FILE
EOF
fi

# LOAD order mails, straight into the judge's Maildir (Dovecot serves
# them over IMAP).
box=$MAIL_DIR/judge/Maildir
mkdir -p "$box/tmp" "$box/new" "$box/cur"
order_mails 0 "$LOAD" bench | write_mails "$box/new"
[ "$(ls "$box/new" | wc -l)" -eq "$LOAD" ] || { echo "bench_run: wrote $(ls "$box/new" | wc -l) of $LOAD mails"; exit 1; }
chown -R 65534:65534 "$box"

# check_answered PREFIX N: every order mail PREFIX.0 .. PREFIX.N-1 applied
# once and answered once; prints the counts, returns 1 otherwise.
check_answered() {
	answered=$(find "$D/mail/out" -type f -print0 | xargs -0 grep -h "^In-Reply-To: <$1\." |
		sort | uniq -c | awk '$1 == 1 { once++ } $1 > 1 { more++ } END { printf "%d %d", once, more }')
	once=${answered% *} more=${answered#* }
	applied=$("$ROOT/$BUILD/tests/e2e/mail/mailit" inbound "$D" | grep -c "^[^ ]* applied normal from=.*subject=orders")
	dup=$("$ROOT/$BUILD/tests/e2e/mail/mailit" counts "$D" | sed -n 's/.* duplicate=\([0-9]*\) .*/\1/p')
	echo "  $1: $2 sent; $once answered once, $more answered more than once; spool: $applied applied in all, $dup duplicates"
	[ "$once" -eq "$2" ] && [ "$more" -eq 0 ] && [ "$dup" -eq 0 ]
}

# check_smtp: the run sent every reply it queued, and Postfix's log has
# each message it took once.
check_smtp() {
	queued=$(sed -n 's/.*queued \([0-9]*\);.*/\1/p' "$WORK/run.out")
	sent=$(sed -n 's/.*; sent \([0-9]*\), deferred \([0-9]*\),.*/\1 \2/p' "$WORK/run.out")
	log=$STACK/postfix/postfix.log
	i=0
	while [ "$(grep -c 'postfix/cleanup.*message-id=<' "$log")" -lt "${queued:-0}" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	took=$(grep 'postfix/cleanup.*message-id=<' "$log" | sed 's/.*message-id=<\([^>]*\)>.*/\1/' |
		sort | uniq -c | awk '$1 == 1 { once++ } $1 > 1 { more++ } END { printf "%d %d", once, more }')
	echo "  replies over SMTP: $queued queued; sent and deferred: $sent; Postfix took ${took% *} once, ${took#* } more than once"
	[ "$sent" = "$queued 0" ] && [ "${took% *}" -ge "$queued" ] && [ "${took#* }" -eq 0 ]
}

# The set-up's own writes (the mail, the games) on disk first: the run is
# measured alone, not with the kernel still writing what came before it.
sync
figures=$(timed_run "$WORK") || { echo "$figures"; exit 1; }
echo "$LOAD order mails for $GAMES games from IMAP, replies to $REPLIES: $figures"
if [ "$REPLIES" = smtp ]; then
	check_smtp || { echo "bench_run: replies lost or sent twice"; exit 1; }
else
	check_answered bench "$LOAD" || { echo "bench_run: order mails lost or answered twice"; exit 1; }
fi
echo "Dovecot's own fetch (floor): $(python3 tests/bench/imap_floor.py 127.0.0.1 "$IMAP_PORT" judge \
	"$PASSWORD_DIR/judge" "$CA_FILE" || echo failed)"
# Postfix's own rate, the floor of the sending: Postfix's smtp-source,
# 1,000 messages to a discarded player over one session, then 2,000 over
# as many sessions as the judge opens (smtp.connections, default 4). At the
# better of the two, the replies this run queued alone would take so long:
# the most order mails a second any client could reach end to end here.
if [ "$REPLIES" = smtp ] && command -v smtp-source >/dev/null 2>&1; then
	best=0
	for s in "1 1000" "4 2000"; do
		t0=$(date +%s%N)
		smtp-source -s "${s% *}" -m "${s#* }" -c -f judge@example.test -t Austria1@example.test \
			"127.0.0.1:$SMTP_PORT" >/dev/null 2>&1 || echo "smtp-source failed"
		t1=$(date +%s%N)
		rate=$((${s#* } * 1000000000 / (t1 - t0)))
		[ "$rate" -gt "$best" ] && best=$rate
		echo "Postfix's own rate (floor): smtp-source, ${s% *} connection(s), ${s#* } messages in" \
			"$(((t1 - t0) / 1000000)) ms, $rate messages/s"
	done
	queued=$(sed -n 's/.*queued \([0-9]*\);.*/\1/p' "$WORK/run.out")
	if [ "$best" -gt 0 ] && [ "${queued:-0}" -gt 0 ]; then
		echo "at Postfix's best rate the $queued replies alone take $((queued * 1000 / best)) ms:" \
			"at most $((LOAD * best / queued)) order mails/s end to end through this Postfix"
	fi
fi
# idle: 20 idle runs, timed from fork to exit by tests/bench/timeit.
idle() {
	$P run >/dev/null 2>&1	# the first after a change of setting, untimed
	"$ROOT/$BUILD/tests/bench/timeit" 20 $P run
}
echo "idle run (IMAP, nothing new): $(idle)"
$P -v run | sed -n 's/^time: /idle run, by step: /p'
# Dovecot forks a login process for each connection by default; in its
# high-performance mode (login processes kept and reused) the server's part
# of the greeting is gone. The same idle run against that server:
sed -i 's/^service imap-login {/service imap-login {\n  service_count = 0\n  process_min_avail = 1/' \
	"$DOVECOT_CONF"
if doveadm -c "$DOVECOT_CONF" reload >/dev/null 2>&1; then
	sleep 1
	echo "idle run (IMAP, nothing new; Dovecot with login processes kept): $(idle)"
fi
# RUNS runs back to back while a sender delivers order mails over SMTP.
if [ "${RUNS:-0}" -gt 0 ]; then
	LIVE=${LIVE:-$((RUNS * 5))}
	order_mails 0 "$LIVE" live >"$WORK/live.txt"
	(
		awk -v dir="$WORK/live" 'BEGIN { RS = "\f" }
			NF { t = index($0, "\t"); f = dir "." substr($0, 1, t - 1)
			     printf "%s", substr($0, t + 1) > f; close(f); print f }' "$WORK/live.txt" |
		while read -r f; do
			curl -s --url "smtp://127.0.0.1:$SMTP_PORT/sender.example.test" \
				--mail-from sender@example.test --mail-rcpt judge@example.test \
				--upload-file "$f" || echo "curl failed: $f"
		done
	) >"$WORK/sender.log" 2>&1 &
	sender=$!
	t0=$(date +%s%N)
	n=0 failed=0 busy=0
	while [ $n -lt "$RUNS" ]; do
		$P -v run >"$WORK/one.out" 2>>"$WORK/runs.err" || failed=$((failed + 1))
		grep -q "^fetched [1-9]" "$WORK/one.out" && busy=$((busy + 1))
		n=$((n + 1))
	done
	t1=$(date +%s%N)
	wait $sender
	# the sender is done: wait for Postfix to deliver the last, then one more run
	i=0
	while [ "$(find "$box/new" "$box/cur" -name '*' -type f | wc -l)" -lt $((LOAD + LIVE)) ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	$P run >/dev/null 2>>"$WORK/runs.err" || failed=$((failed + 1))
	echo "$RUNS runs back to back while $LIVE order mails arrived over SMTP: $(((t1 - t0) / 1000000)) ms, $busy runs fetched mail, $failed failed"
	grep -v '^$' "$WORK/sender.log" | head -5
	check_answered live "$LIVE" || { head -20 "$WORK/runs.err"; echo "bench_run: live mail lost or doubled"; exit 1; }
fi
# The same judge reading a local Maildir instead: the judge's own share.
sed -i '/^imap\./d' "$D/pouch.conf"
echo "idle run (local Maildir, nothing new): $(idle)"
if [ -n "${BENCH_KEEP:-}" ]; then
	echo "kept: $D (the stack is stopped)"
	trap - EXIT
	tests/e2e/mailstack/stop.sh "$STACK" >/dev/null
fi
