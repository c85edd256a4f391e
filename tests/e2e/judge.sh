#!/bin/sh
# judge.sh — the judge end to end against real servers (Dovecot, Postfix).
#
#	tests/e2e/judge.sh [plain] [valgrind] [asan] [kill]   (default: all four)
#
# A game is run by mail: the host creates it with `pouch game`, players
# send their orders by SMTP (curl) to the judge's address, `pouch run`
# polls the judge's mailbox over IMAP, replies and reports go out by SMTP,
# and the players' mailboxes, read over IMAP (curl), hold the replies and
# the reports with the map link. The deadline passes on an injected clock
# (pouch run --now). Faults: IMAP down (the run still sends), SMTP down
# (mail waits in the outbox and goes on the next run), a wrong TLS
# certificate (refused). At the end pouch replay --verify finds the live
# state and mail equal to what the spool alone rebuilds.
#
# plain, valgrind, asan: that scenario with build/pouch, under valgrind,
# with build/san/pouch.
# kill: 200 order mails; `pouch run` killed with SIGKILL at 50 random
# moments, then one clean run: every message applied exactly once, no
# reply lost, the state identical to pouch replay. Prints the counts.
#
# Prints "ok - ..." or "not ok - ..." per check; exits 1 when any failed.
# Needs root (Postfix) and the built programs (make tests; make SAN=1
# BUILD=build/san tests for asan).
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
MODES=${*:-plain valgrind asan kill}
. tests/e2e/mailstack/testlib.sh
stack_up pouch-e2e
OUT=$WORK/out
ERR=$WORK/err
TOTAL_FAILED=0
# judge_conf DATA [MORE LINES...]: the judge on the test stack.
judge_conf() {
	d=$1
	shift
	mkdir -p "$d"
	{
		echo "judge.address = judge@example.test"
		echo "judge.base_url = https://maps.example.test"
		echo "imap.host = 127.0.0.1"
		echo "imap.port = $IMAP_PORT"
		echo "imap.user = judge"
		echo "imap.password_file = $PASSWORD_DIR/judge"
		echo "imap.cafile = $CA_FILE"
		echo "smtp.url = smtp://127.0.0.1:$SUBMISSION_PORT/judge.example.test"
		echo "smtp.user = judge"
		echo "smtp.password_file = $PASSWORD_DIR/judge"
		echo "smtp.cafile = $CA_FILE"
		for l in "$@"; do echo "$l"; done
	} >"$d/pouch.conf"
}

# wait_judge N: the judge's mailbox holds N messages (delivery is asynchronous).
wait_judge() { wait_mail judge "$1"; }

# verify_replay OUT CHECK: pouch replay --verify into OUT finds no difference;
# when it finds some, the first of them are shown as diffs between the
# live file or message and the replayed one, so that a failure says what
# differs.
verify_replay() {
	pouch $P replay --into "$1" --verify
	expect "$2" grep -q ", 0 differences" "$OUT"
	grep -q ", 0 differences" "$OUT" && return
	grep '^differs:\|^verify:' "$OUT" | head -n 20 | sed 's/^/  # /'
	sed -n 's/^differs: .* (\([^ ,]*\), \([^ ,]*\))$/\1 \2/p' "$OUT" | head -n 6 |
	while read -r live replayed; do
		echo "  # diff LIVE REPLAYED: $live $replayed"
		diff -u "$live" "$replayed" | tr -d '\r' | sed -n '3,$p' | grep -v '^ ' |
			head -n 12 | cut -c1-150 | sed 's/^/  #   /'
	done
}

scenario() {
	D=$WORK/$MODE/judge
	purge
	judge_conf "$D"
	P="--data $D"
	start=$(date +%s)

	echo "# the host creates a game; the delegations are told by mail"
	pouch $P game new g1 --gm gm@example.test --password gm-password-1 --zone UTC
	expect "game new: created" grep -q "game g1 created" "$OUT"
	pouch $P game g1 DELEGATION England alice@example.test PASSWORD england-pw
	pouch $P game g1 DELEGATION France bob@example.test PASSWORD france-pw
	pouch $P game g1 DELEGATION Germany carol@example.test,dave@example.test PASSWORD germany-pw
	pouch $P game g1 START
	expect "game START: started" grep -q "the game has started" "$OUT"
	expect "alice (England) is told, over IMAP" imap_grep alice "You play England in the Diplomacy game g1"
	expect "both members of Germany are told" imap_grep dave "You play Germany"
	expect "the GM gets the start announcement" imap_grep gm "Game g1 has started"

	echo "# orders by SMTP; pouch run reads them over IMAP and replies by SMTP"
	send alice "Spring orders" 'GAME g1 England england-pw\nF Lon - Nth\nF edi - nwg\nlvp yor'
	send bob "orders" 'GAME g1 France france-pw\narmy paris moves to burgundy\nF Bre - Mid\nA Mar S A Par - Bur'
	send bob "England's orders" 'GAME g1 England guessed-pw\nF Lon - Eng'
	send carol "hello" '<html>not really</html>'
	expect "the judge's mailbox has the 4 messages" wait_judge 4
	pouch $P -v run
	expect "pouch run: succeeds" test $? -eq 0
	expect "pouch run: 4 fetched and applied" grep -q "fetched 4 (4 new), applied 4" "$OUT"
	expect "alice's reply: her orders accepted" imap_grep alice "accepted: F lon - nth"
	expect "alice's reply: the army filled in" imap_grep alice "corrected: A lvp - yor"
	expect "bob's reply: natural language read" imap_grep bob "accepted: A par - bur"
	expect "bob's forged England orders refused" imap_grep bob "does not match a game, power and password"
	expect "carol's message answered with help" imap_grep carol "start with a line GAME"

	if [ "$MODE" = plain ]; then
		echo "# pouch doctor against the real servers (before the clock is moved on)"
		other=$WORK/other.pem
		[ -f "$other" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other \
			-keyout "$WORK/other.key" -out "$other" >/dev/null 2>&1
		judge_conf "$D" "judge.pages = $D/pages"
		pouch $P doctor
		rc=$?
		expect "doctor, the right passwords: no problem, exit 0" sh -c \
			"[ $rc -eq 0 ] && ! grep -q '^problem' '$OUT'"
		expect "... the mailbox answers and takes the login, TLS verified" grep -q \
			"^ok: the mailbox imap://judge@127.0.0.1.* answers and accepts the login (TLS, certificate verified)" "$OUT"
		expect "... the outgoing server too" grep -q \
			"^ok: the outgoing server smtp://127.0.0.1:$SUBMISSION_PORT/.* answers and accepts the login (TLS, certificate verified)" "$OUT"
		echo wrong-password >"$WORK/wrong-pw"
		judge_conf "$D" "judge.pages = $D/pages" "imap.password_file = $WORK/wrong-pw" \
			"smtp.password_file = $WORK/wrong-pw"
		pouch $P doctor
		rc=$?
		expect "doctor, a wrong password: exit 1" test $rc -eq 1
		expect "... the mailbox refuses the login, said so" grep -q "^problem: the mailbox .*login refused" "$OUT"
		expect "... the outgoing server too" grep -q "^problem: the outgoing server: .*refused the user name or password" "$OUT"
		judge_conf "$D" "judge.pages = $D/pages" "imap.cafile = $other" "smtp.cafile = $other"
		pouch $P doctor
		rc=$?
		expect "doctor, a certificate we do not trust: exit 1" test $rc -eq 1
		expect "... the mailbox's certificate refused" grep -q "^problem: the mailbox .*certificate" "$OUT"
		expect "... the outgoing server's too" grep -q "^problem: the outgoing server: .*certificate is not trusted" "$OUT"
		judge_conf "$D"
	fi

	echo "# the deadline passes (injected clock): results and map links by mail"
	pouch $P -v run --now $((start + 3 * 86400 + 60))
	expect "pouch run --now: one phase adjudicated" grep -q "1 phase adjudicated" "$OUT"
	expect "alice gets the results" imap_grep alice "Movement results for Spring of 1901"
	expect "the report links the map" imap_grep alice "Map: https://maps.example.test/g1/S1901M.html"
	expect "Germany (no orders) gets the results too" imap_grep dave "Germany: no orders; all units hold"
	expect "the GM gets the results" imap_grep gm "France: Army Paris -> Burgundy."
	expect "the phase's map page is written" test -s "$D/pages/g1/S1901M.html" -a -s "$D/pages/g1/S1901M.svg"
	if [ "$MODE" = plain ]; then
		python3 tests/e2e/browser_check.py --maps maps/standard "$D/pages/g1" "$WORK/shots" >"$OUT" 2>&1
		expect "the judge's map pages load cleanly in headless Chromium" test $? -eq 0
	fi

	echo "# IMAP down: the run fails to fetch but still acts on deadlines and sends"
	judge_conf "$D" "imap.port = $((IMAP_PORT + 1))"
	pouch $P -v run --now $((start + 6 * 86400 + 60))
	expect "run with IMAP down: exit status 1" test $? -eq 1
	expect "run with IMAP down: says why" grep -q "cannot connect" "$ERR"
	expect "run with IMAP down: the Fall deadline is acted on" grep -q "1 phase adjudicated" "$OUT"
	expect "and its results arrive" imap_grep alice "Movement results for Fall of 1901"
	judge_conf "$D"

	echo "# SMTP down: the mail waits in the outbox and goes on the next run"
	judge_conf "$D" "smtp.url = smtp://127.0.0.1:$((SUBMISSION_PORT + 10))/judge.example.test"
	send alice "list" 'GAME g1 England england-pw\nLIST'
	expect "the judge's mailbox has it" wait_judge 5
	pouch $P -v run --now $((start + 6 * 86400 + 180))
	expect "run with SMTP down: the reply is deferred" grep -q "deferred 1" "$OUT"
	expect "run with SMTP down: a warning says why" grep -q "the outbox keeps the mail" "$ERR"
	judge_conf "$D"
	pouch $P -v run --now $((start + 6 * 86400 + 600))
	expect "SMTP back: the reply goes" grep -q "sent 1," "$OUT"
	expect "alice gets her LIST" imap_grep alice "> LIST"

	echo "# a wrong TLS certificate is refused"
	other=$WORK/other.pem
	[ -f "$other" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other \
		-keyout "$WORK/other.key" -out "$other" >/dev/null 2>&1
	judge_conf "$D" "imap.cafile = $other"
	pouch $P run --now $((start + 6 * 86400 + 700))
	expect "IMAP with a certificate we do not trust: refused" grep -q "certificate is refused" "$ERR"
	judge_conf "$D"

	echo "# replay: the spool alone rebuilds the same games and mail"
	verify_replay "$WORK/$MODE/replay" "pouch replay --verify: no difference"
}

# ------------------------------------------------------------------ kill --

# The values of header H (Message-ID, In-Reply-To) of the messages in
# USER's Maildir, one per line: mailbox_ids USER H.
mailbox_ids() {
	find "$MAIL_DIR/$1/Maildir/new" "$MAIL_DIR/$1/Maildir/cur" -type f -exec \
		grep -hi -m1 "^$2:" {} + 2>/dev/null | tr -d '\r' | sed 's/^[^<]*<//; s/>.*//'
}

# order_mail I: the I-th order mail of the kill test (three delegations
# holding in turn, so that every third mail completes a phase).
order_mail() {
	case $(($1 % 3)) in
	0) send alice "orders $1" 'GAME g2 England england-pw\nORDERS REPLACE\nA lvp H\nF edi H\nF lon H' ;;
	1) send bob "orders $1" 'GAME g2 France france-pw\nORDERS REPLACE\nA par H\nA mar H\nF bre H' ;;
	2) send carol "orders $1" 'GAME g2 Germany germany-pw\nORDERS REPLACE\nA ber H\nA mun H\nF kie H' ;;
	esac
}

kill_test() {
	D=$WORK/kill/judge
	purge
	judge_conf "$D" "judge.reply_limit = 1000"
	P="--data $D"
	pouch $P game new g2 --gm gm@example.test --password gm-password-2 --zone UTC \
		--nmr civil-disorder
	pouch $P game g2 DELEGATION England alice@example.test PASSWORD england-pw
	pouch $P game g2 DELEGATION France bob@example.test PASSWORD france-pw
	pouch $P game g2 DELEGATION Germany carol@example.test PASSWORD germany-pw
	pouch $P game g2 START
	n0=$(count_mail judge)
	echo "# 200 order mails, four at a time; pouch run killed (SIGKILL) at random moments"
	k=0 kills=0 finished=0 attempts=0 span=300	# ms: how long a run took, last we saw
	while [ $kills -lt 50 ] && [ $attempts -lt 600 ]; do
		if [ $k -lt 200 ]; then
			for m in 0 1 2 3; do order_mail $((k + m)); done
			k=$((k + 4))
			wait_judge $((n0 + k)) || break
		fi
		attempts=$((attempts + 1))
		t0=$(date +%s%N)
		"$BIN/pouch" $P run >/dev/null 2>&1 &
		pid=$!
		# a random moment within a run as long as the last one seen
		sleep "$(awk -v r="$(od -An -N2 -tu2 /dev/urandom)" -v s="$span" \
			'BEGIN { printf "%.3f", (r % (s + 1)) / 1000 }')"
		if kill -9 $pid 2>/dev/null; then
			kills=$((kills + 1))
			wait $pid 2>/dev/null
		else
			wait $pid 2>/dev/null
			finished=$((finished + 1))
			span=$((($(date +%s%N) - t0) / 1000000))
		fi
	done
	while [ $k -lt 200 ]; do	# (only when the kills came before the mail ran out)
		order_mail $k
		k=$((k + 1))
	done
	expect "200 messages delivered to the judge" wait_judge $((n0 + 200))
	expect "50 runs killed mid-run ($kills of $attempts; $finished finished first)" test $kills -ge 50
	pouch $P -v run
	expect "the clean run after the kills succeeds" test $? -eq 0
	applied=$(awk '$1 == "applied"' "$D/spool/ledger" | wc -l)
	ins=$(awk '$1 == "in" && $6 ~ /^e2e\./' "$D/spool/ledger" | wc -l)
	dups=$(awk '$1 == "in" && $7 != "-"' "$D/spool/ledger" | wc -l)
	uniq_applied=$(awk '$1 == "applied" { print $2 }' "$D/spool/ledger" | sort -u | wc -l)
	expect "all 200 player messages are in the spool, each once" test "$ins" -eq 200
	expect "no message marked applied twice" test "$applied" -eq "$uniq_applied"
	expect "every inbound message applied" test "$uniq_applied" -eq "$(awk '$1 == "in"' "$D/spool/ledger" | wc -l)"
	# One reply per player message; mail sent twice is counted (a kill
	# between the server's acceptance and the outbox noting it makes the
	# next run send it again: at least once, by design). The clean run may
	# send hundreds: wait (up to a minute) until every Message-ID the
	# ledger says was sent is in a mailbox, then a little for late copies.
	sent=$(awk '$1 == "out" { print $6 }' "$D/spool/ledger" | sort -u | wc -l)
	i=0
	while [ $i -lt 120 ]; do
		for u in alice bob carol gm; do mailbox_ids $u Message-ID; done | sort -u >"$WORK/kill.ids"
		[ "$(wc -l <"$WORK/kill.ids")" -ge "$sent" ] && break
		i=$((i + 1))
		sleep 0.5
	done
	sleep 1
	for u in alice bob carol; do mailbox_ids $u In-Reply-To; done | grep '^e2e\.' >"$WORK/kill.replies"
	for u in alice bob carol gm; do mailbox_ids $u Message-ID; done >"$WORK/kill.ids"
	uniq_replies=$(sort -u "$WORK/kill.replies" | wc -l)
	all=$(wc -l <"$WORK/kill.ids")
	uniq_all=$(sort -u "$WORK/kill.ids" | wc -l)
	expect "every player message got its reply (200 replies)" test "$uniq_replies" -eq 200
	expect "every message the judge sent arrived" test "$uniq_all" -eq "$sent"
	verify_replay "$WORK/kill/replay" "the state and mail are identical to pouch replay"
	phases=$(ls "$D/games/g2/history" | grep -c '^[0-9]*\.txt$')
	echo "  # kills: $kills of $attempts runs ($finished finished before their kill)"
	echo "  # messages: 200 in, $uniq_applied applied (each once), $dups duplicates by Message-ID, $((200 - uniq_replies)) replies lost"
	echo "  # delivered: $uniq_all distinct messages in the players' and GM's mailboxes, $((all - uniq_all)) delivered twice; $phases phases adjudicated"
}

for MODE in $MODES; do
	PASS=0 FAIL=0
	mode_bin "$MODE"
	if [ ! -x "$BIN/pouch" ]; then
		echo "== $MODE: $BIN/pouch missing (make, or make SAN=1 BUILD=build/san)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		continue
	fi
	echo "== judge end to end ($MODE)"
	if [ "$MODE" = kill ]; then
		MODE=plain
		kill_test
		MODE=kill
	else
		scenario
	fi
	echo "== $MODE: $PASS passed, $FAIL failed"
	TOTAL_FAILED=$((TOTAL_FAILED + FAIL))
done
[ $TOTAL_FAILED -eq 0 ]
