#!/bin/sh
# oauth.sh — the judge signing in with OAuth 2.0 to real servers.
#
#	tests/e2e/oauth.sh [plain] [valgrind] [asan]   (default: all three)
#
# The mail stack with OAUTH=1 (tests/e2e/mailstack/start.sh): Dovecot's oauth2
# passdb checks tokens at tests/e2e/oauthserver.py (token
# introspection over HTTPS), Postfix's submission port authenticates
# through Dovecot's SASL. The teacher signs the judge in with
# `pouch oauth login` (the device flow; the test approves the code at the
# server as the teacher would in a browser); a game is then played by
# mail with IMAP and SMTP signed in with XOAUTH2, then with OAUTHBEARER.
# Then: every access token withdrawn at the server (pouch renews and signs
# in again), short-lived tokens (renewed before use, never refused), a
# refresh token replaced by the endpoint (written over the old), secret
# files that others may read (refused), the refresh token revoked (a clear
# error naming `pouch oauth login`), and no token in any log, reply, page
# or spool file.
#
# Prints "ok - ..." or "not ok - ..." per check; exits 1 when any failed.
# Needs root (Postfix), python3, and the built programs.
set -u
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
MODES=${*:-plain valgrind asan}
export OAUTH=1
. tests/e2e/mailstack/testlib.sh
stack_up pouch-oauth
OUT=$WORK/out
ERR=$WORK/err
LOGS=$WORK/logs
: >"$LOGS"
TOTAL_FAILED=0

# Every pouch command's output is also kept in LOGS, to look for tokens.
pouch() {
	run "$BIN/pouch" "$@"
	rc=$?
	cat "$OUT" "$ERR" >>"$LOGS"
	return $rc
}

# admin PATH: a test control of the OAuth server (POST).
admin() { curl -s --cacert "$CA_FILE" -X POST "$OAUTH_URL/admin/$1" >/dev/null; }
# ostat NAME: a counter of the OAuth server.
ostat() {
	curl -s --cacert "$CA_FILE" "$OAUTH_URL/admin/stats" |
		python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"
}
mode_of() { stat -c %a "$1"; }
# logins MECH: Dovecot's IMAP logins with MECH; submissions: Postfix's.
logins() { grep -c "imap-login: Info: Login: user=<judge>, method=$1" "$MAILSTACK_DIR/dovecot/dovecot.log"; }
submissions() { grep -c "sasl_method=$1, sasl_username=judge" "$MAILSTACK_DIR/postfix/postfix.log"; }

# login DATA: pouch oauth login, the teacher approving the code; the
# output in $WORK/login.out. Returns pouch's status.
login() {
	"$BIN/pouch" --data "$1" oauth login --provider custom --device-url "$OAUTH_URL/device" \
		--token-url "$OAUTH_URL/token" --client-id "$OAUTH_CLIENT_ID" \
		--client-secret-file "$WORK/client_secret" --cafile "$CA_FILE" --user judge \
		>"$WORK/login.out" 2>&1 &
	lpid=$!
	i=0
	code=
	while [ -z "$code" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
		code=$(sed -n 's/.*enter the code: //p' "$WORK/login.out")
	done
	i=0
	while [ -n "$code" ] && [ $i -lt 20 ] && ! curl -s --max-time 5 --cacert "$CA_FILE" \
		-d "user_code=$code&user=judge" "$OAUTH_URL/verify" | grep -q approved; do
		sleep 0.2
		i=$((i + 1))
	done
	wait $lpid
	rc=$?
	cat "$WORK/login.out" >>"$LOGS"
	return $rc
}

# withdrawn MECH: every access token withdrawn at the server, then a run
# that needs IMAP first (an order to fetch) and a command that needs SMTP
# only (a new game, its GM told): each time pouch is refused, renews the
# token and signs in again with MECH.
withdrawn() {
	mech=$1
	n=$((n + 1))
	admin expire
	refresh0=$(ostat refresh)
	refused0=$(ostat introspect_refused)
	send alice "orders $n" "GAME g1 England england-pw\nF Lon - Eng"
	expect "$mech, IMAP, withdrawn token: the judge's mailbox has the message" wait_mail judge "$n"
	pouch $P -v run
	expect "$mech, IMAP, withdrawn token: pouch run succeeds" test $? -eq 0
	expect "$mech, IMAP, withdrawn token: the mail was applied" grep -q "fetched 1 (1 new), applied 1" "$OUT"
	expect "$mech, IMAP, withdrawn token: the server refused the old one" test "$(ostat introspect_refused)" -gt "$refused0"
	expect "$mech, IMAP, withdrawn token: pouch asked for a new one" test "$(ostat refresh)" -gt "$refresh0"
	expect "$mech, IMAP, withdrawn token: and said so" grep -q "IMAP.*access token was refused; asking for a new one" "$ERR"
	expect "$mech, IMAP, withdrawn token: alice's reply came" imap_grep alice "Subject: Re: orders $n"
	admin expire
	refresh0=$(ostat refresh)
	refused0=$(ostat introspect_refused)
	smtp0=$(submissions "$mech")
	pouch -v $P game new "smtp$n" --gm gm@example.test --zone UTC
	expect "$mech, SMTP, withdrawn token: the game is made" test $? -eq 0
	expect "$mech, SMTP, withdrawn token: the GM is told by SMTP" imap_grep gm "You are the game master of the Diplomacy game smtp$n"
	expect "$mech, SMTP, withdrawn token: the server refused the old one" test "$(ostat introspect_refused)" -gt "$refused0"
	expect "$mech, SMTP, withdrawn token: pouch asked for a new one" test "$(ostat refresh)" -gt "$refresh0"
	expect "$mech, SMTP, withdrawn token: and said so" grep -q "SMTP.*access token was refused; asking for a new one" "$ERR"
	expect "$mech, SMTP, withdrawn token: Postfix took it with $mech" test "$(submissions "$mech")" -gt "$smtp0"
}

scenario() {
	D=$WORK/$MODE/judge
	mkdir -p "$D"
	purge
	admin "lifetime?s=3600"
	P="--data $D"
	cp "$OAUTH_SECRET_FILE" "$WORK/client_secret"

	echo "# the teacher signs the judge in (device flow)"
	chmod 644 "$WORK/client_secret"
	login "$D"
	expect "login: a client secret file others may read is refused" test $? -eq 1
	expect "login: and says how to fix it" grep -q "chmod 600" "$WORK/login.out"
	chmod 600 "$WORK/client_secret"
	device0=$(ostat device_ok)
	login "$D"
	expect "login: succeeds" test $? -eq 0
	expect "login: the server granted one device code" test "$(ostat device_ok)" -eq $((device0 + 1))
	expect "login: the refresh token file has mode 600" test "$(mode_of "$D/oauth/refresh_token")" = 600
	expect "login: the token directory has mode 700" test "$(mode_of "$D/oauth")" = 700
	expect "login: it prints the pouch.conf lines" grep -q "^imap.auth = xoauth2" "$WORK/login.out"
	{
		echo "judge.address = judge@example.test"
		echo "judge.base_url = https://maps.example.test"
		echo "judge.pages = $D/pages"
		echo "imap.host = 127.0.0.1"
		echo "imap.port = $IMAP_PORT"
		echo "imap.cafile = $CA_FILE"
		echo "smtp.url = smtp://127.0.0.1:$SUBMISSION_PORT/judge.example.test"
		echo "smtp.cafile = $CA_FILE"
		grep '^imap\.\|^smtp\.' "$WORK/login.out"
	} >"$D/pouch.conf"
	pouch $P oauth token
	expect "oauth token: both servers sign in, no token printed" grep -q "^smtp: xoauth2: an access token" "$OUT"
	pouch $P doctor
	expect "doctor: the mailbox's sign-in checked with the refresh token" grep -q "^ok: the mailbox sign-in (OAuth 2.0): the refresh token gives an access token" "$OUT"
	expect "doctor: the outgoing server's too" grep -q "^ok: the outgoing server sign-in (OAuth 2.0)" "$OUT"

	echo "# a game by mail with XOAUTH2 (IMAP and SMTP)"
	imap0=$(logins XOAUTH2)
	smtp0=$(submissions XOAUTH2)
	pouch $P game new g1 --gm gm@example.test --password gm-password-1 --zone UTC
	pouch $P game g1 DELEGATION England alice@example.test PASSWORD england-pw
	pouch $P game g1 DELEGATION France bob@example.test PASSWORD france-pw
	pouch $P game g1 START
	expect "XOAUTH2: alice is told by SMTP" imap_grep alice "You play England in the Diplomacy game g1"
	expect "XOAUTH2: Postfix took the mail from judge with XOAUTH2" test "$(submissions XOAUTH2)" -gt "$smtp0"
	send alice "Spring orders" 'GAME g1 England england-pw\nF Lon - Nth\nF edi - nwg\nA lvp - yor'
	expect "the judge's mailbox has alice's orders" wait_mail judge 1
	pouch $P -v run
	expect "XOAUTH2: pouch run succeeds" test $? -eq 0
	expect "XOAUTH2: it fetched and applied the orders" grep -q "fetched 1 (1 new), applied 1" "$OUT"
	expect "XOAUTH2: Dovecot logged the judge in with XOAUTH2" test "$(logins XOAUTH2)" -gt "$imap0"
	expect "XOAUTH2: alice's reply came" imap_grep alice "accepted: F lon - nth"

	echo "# the same with OAUTHBEARER"
	sed -i 's/^imap.auth = .*/imap.auth = oauthbearer/; s/^smtp.auth = .*/smtp.auth = oauthbearer/' "$D/pouch.conf"
	imap0=$(logins OAUTHBEARER)
	smtp0=$(submissions OAUTHBEARER)
	send bob "orders" 'GAME g1 France france-pw\nA par - bur\nF bre - mao'
	expect "the judge's mailbox has bob's orders" wait_mail judge 2
	pouch $P -v run
	expect "OAUTHBEARER: pouch run succeeds" test $? -eq 0
	expect "OAUTHBEARER: it fetched and applied the orders" grep -q "fetched 1 (1 new), applied 1" "$OUT"
	expect "OAUTHBEARER: Dovecot logged the judge in with OAUTHBEARER" test "$(logins OAUTHBEARER)" -gt "$imap0"
	expect "OAUTHBEARER: Postfix took the reply with OAUTHBEARER" test "$(submissions OAUTHBEARER)" -gt "$smtp0"
	expect "OAUTHBEARER: bob's reply came" imap_grep bob "accepted: A par - bur"

	echo "# the server withdraws every access token: pouch renews it and signs in again"
	n=2
	withdrawn OAUTHBEARER
	sed -i 's/^imap.auth = .*/imap.auth = xoauth2/; s/^smtp.auth = .*/smtp.auth = xoauth2/' "$D/pouch.conf"
	withdrawn XOAUTH2

	echo "# short-lived tokens are renewed before they run out, never presented stale"
	admin "lifetime?s=30"
	admin expire
	pouch $P run	# takes a 30-second token
	admin "lifetime?s=3600"
	refresh0=$(ostat refresh)
	refused0=$(ostat introspect_refused)
	pouch $P -v run
	expect "short-lived token: pouch run succeeds" test $? -eq 0
	expect "short-lived token: renewed before use" test "$(ostat refresh)" -gt "$refresh0"
	expect "short-lived token: the server refused nothing" test "$(ostat introspect_refused)" -eq "$refused0"
	refresh0=$(ostat refresh)
	pouch $P run
	expect "a token with an hour left is used as it is" test "$(ostat refresh)" -eq "$refresh0"
	expect "the kept token has mode 600" sh -c 'for f in "$1"/oauth/*.token; do
		[ "$(stat -c %a "$f")" = 600 ] || exit 1; done' - "$D"

	echo "# a token endpoint that sends a new refresh token (as Microsoft's does)"
	admin "rotate?on=1"
	cp "$D/oauth/refresh_token" "$WORK/old_refresh_token"
	pouch $P oauth token --renew imap
	expect "rotation: oauth token --renew succeeds" test $? -eq 0
	expect "rotation: the new refresh token replaced the old" sh -c '! cmp -s "$1" "$2"' - \
		"$D/oauth/refresh_token" "$WORK/old_refresh_token"
	expect "rotation: still mode 600" test "$(mode_of "$D/oauth/refresh_token")" = 600
	expect "rotation: one kept access token, the new account's" test "$(ls "$D/oauth" | grep -c '\.token$')" -eq 1
	admin "rotate?on=0"
	refresh0=$(ostat refresh)
	pouch $P run
	expect "rotation: the next run signs in" test $? -eq 0
	expect "rotation: with the kept token" test "$(ostat refresh)" -eq "$refresh0"
	rm -f "$WORK/old_refresh_token"

	echo "# secret files others may read are refused"
	chmod 644 "$D/oauth/refresh_token"
	pouch $P run
	expect "refresh token readable by others: pouch run fails" test $? -eq 1
	expect "refresh token readable by others: refused, with the fix" grep -q "refresh_token: other users may read it: refused (chmod 600" "$ERR"
	chmod 600 "$D/oauth/refresh_token"
	chmod 640 "$WORK/client_secret"
	pouch $P run
	expect "client secret readable by the group: pouch run fails" test $? -eq 1
	expect "client secret readable by the group: refused" grep -q "client_secret: other users may read it" "$ERR"
	chmod 600 "$WORK/client_secret"

	echo "# the refresh token is revoked: a clear error"
	admin revoke
	n=$((n + 1))
	send alice "after revocation" 'GAME g1 England england-pw\nF Lon H'
	expect "the judge's mailbox has the message" wait_mail judge "$n"
	pouch $P run
	expect "revoked: pouch run fails" test $? -eq 1
	expect "revoked: the teacher is told to sign in again" grep -q "invalid_grant.*sign in again with .pouch oauth login" "$ERR"
	pouch $P oauth token --renew
	expect "revoked: pouch oauth token --renew says so too" grep -q "pouch oauth login" "$ERR"
	pouch $P doctor
	rc=$?
	expect "revoked: pouch doctor finds it (a problem, exit 1)" sh -c \
		"[ $rc -eq 1 ] && grep -q '^problem: the mailbox sign-in (OAuth 2.0): .*pouch oauth login' '$OUT'"

	echo "# no token anywhere but in the token files"
	curl -s --cacert "$CA_FILE" "$OAUTH_URL/admin/tokens" >"$WORK/tokens"
	expect "the server issued tokens" test "$(wc -l <"$WORK/tokens")" -ge 4
	expect "the teacher's token files hold some of them" grep -qrFf "$WORK/tokens" "$D/oauth"
	expect "no token in the data directory outside DATA/oauth" sh -c '! grep -rqFf "$1" --exclude-dir=oauth "$2"' - "$WORK/tokens" "$D"
	expect "no token in pouch's output" sh -c '! grep -qFf "$1" "$2"' - "$WORK/tokens" "$LOGS"
	expect "no token in the mailboxes (replies, reports)" sh -c '! grep -rqFf "$1" "$2"' - "$WORK/tokens" "$MAIL_DIR"
	expect "no token in the servers' logs" sh -c '! grep -qFf "$1" "$2" "$3" "$4"' - "$WORK/tokens" \
		"$MAILSTACK_DIR/dovecot/dovecot.log" "$MAILSTACK_DIR/postfix/postfix.log" "$OAUTH_LOG"
	expect "the control itself works: a token is found where it is" grep -qFf "$WORK/tokens" "$D/oauth/refresh_token"
}

for MODE in $MODES; do
	PASS=0 FAIL=0
	mode_bin "$MODE"
	if [ ! -x "$BIN/pouch" ]; then
		echo "== $MODE: $BIN/pouch missing (make, or make SAN=1 BUILD=build/san)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		continue
	fi
	echo "== OAuth 2.0 sign-in end to end ($MODE)"
	scenario
	echo "== $MODE: $PASS passed, $FAIL failed"
	TOTAL_FAILED=$((TOTAL_FAILED + FAIL))
done
[ $TOTAL_FAILED -eq 0 ]
