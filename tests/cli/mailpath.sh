#!/bin/sh
# mailpath.sh — play a transcript script (judge/casefiles/transcript.h) through the
# real mail path: each MAIL is a message in the judge's Maildir and a
# `pouch run --now` at the script's time reads it (with the MAIL+ before
# it); HOST blocks go through
# `pouch game -`; TICK is `pouch run --now`. Then check that what the real
# path did is what the transcript did:
#
#   * at each STATE step the game file is byte for byte the transcript's
#     STATE (the judge's key is the transcript runner's, so even the
#     password hashes agree);
#   * pouch replay --verify finds no difference;
#   * every phase has its map page, and (with --browser) the pages open in
#     headless Chromium without a problem.
#
#	tests/cli/mailpath.sh [--browser] SCRIPT [BUILD]
#
# Prints "ok - ..." / "not ok - ..."; exits 1 when any check failed.
set -u
cd "$(dirname "$0")/../.."
BROWSER=0
[ "${1:-}" = --browser ] && { BROWSER=1; shift; }
SCRIPT=${1:?usage: tests/cli/mailpath.sh [--browser] SCRIPT [BUILD]}
POUCH=$(pwd)/${2:-build}/pouch
WORK=$(mktemp -d /tmp/pouch-mailpath.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
D=$WORK/data
OUT=$WORK/out
ERR=$WORK/err
. tests/support/check.sh
mkdir -p "$D/mail/inbox/new" "$D/mail/inbox/tmp" "$D/mail/inbox/cur" "$D/spool"
# The transcript runner's key (32 zero bytes): the same passwords and salts.
printf '%064d\n' 0 >"$D/spool/judge.key"
CONF=$D/pouch.conf
: >"$CONF"
now=0 n=0

epoch() { date -u -d "$1" +%s; }
run() { "$POUCH" --data "$D" run --now "$now" >>"$WORK/run.log" 2>&1 || echo "pouch run failed at $now" >>"$WORK/problems"; }
# deliver KIND FROM SUBJECT: the body on stdin, into the judge's Maildir.
deliver() {
	n=$((n + 1))
	# Numbered to sort in delivery order among messages of the same second.
	f="$D/mail/inbox/tmp/m$(printf %06d $n)"
	{
		case $1 in
		bounce)
			printf 'From: MAILER-DAEMON@mail.example\nSubject: Undelivered Mail Returned to Sender\n'
			printf 'Message-ID: <m%s@players.example>\nMIME-Version: 1.0\n' "$n"
			printf 'Content-Type: multipart/report; report-type=delivery-status; boundary="r"\n\n'
			printf -- '--r\nContent-Type: text/plain\n\nUndelivered.\n--r\n'
			printf 'Content-Type: message/delivery-status\n\nReporting-MTA: dns; mail.example\n\n'
			printf 'Final-Recipient: rfc822; %s\nAction: failed\nStatus: 5.1.1\n--r--\n' "$2"
			;;
		*)
			printf 'From: %s\nSubject: %s\nMessage-ID: <m%s@players.example>\n' "$2" "$3" "$n"
			[ "$1" = auto ] && printf 'Auto-Submitted: auto-replied\n'
			printf 'Content-Type: text/plain; charset=utf-8\n\n'
			cat
			;;
		esac
	} >"$f"
	# Delivered at the script's time: the Maildir's file time is when the
	# judge's source says the message arrived.
	touch -d "@$now" "$f"
	mv "$f" "$D/mail/inbox/new/"
	# MAIL+: it waits in the inbox for the next message's run.
	[ "${WAIT:-0}" = 1 ] || run
}
body() {
	: >"$WORK/body"
	while IFS= read -r l; do
		[ "$l" = "." ] && break
		printf '%s\n' "$l" >>"$WORK/body"
	done
}

: >"$WORK/problems"
while IFS= read -r line; do
	set -f
	# shellcheck disable=SC2086
	set -- $line
	set +f
	case ${1:-} in
	"" | "#"*) ;;
	CONFIG)
		case $2 in
		address) echo "judge.address = $3" >>"$CONF" ;;
		domain) echo "judge.domain = $3" >>"$CONF" ;;
		base-url) echo "judge.base_url = $3" >>"$CONF" ;;
		reply-limit) echo "judge.reply_limit = $3" >>"$CONF" ;;
		create-key) echo "$3" >"$D/create.key"; echo "judge.create_key_file = create.key" >>"$CONF" ;;
		esac
		;;
	AT) shift; now=$(epoch "$*") ;;
	TICK) shift; now=$(epoch "$*"); run ;;
	HOST)
		body
		n=$((n + 1))
		"$POUCH" --data "$D" game --now "$now" - <"$WORK/body" >>"$WORK/run.log" 2>&1
		;;
	MAIL | MAIL! | MAIL+)
		from=$2
		shift 2
		body
		if [ "$line" != "${line#MAIL!}" ]; then kind=auto; else kind=mail; fi
		wait=0
		[ "$line" != "${line#MAIL+}" ] && wait=1
		WAIT=$wait deliver $kind "$from" "$*" <"$WORK/body"
		;;
	BOUNCE) deliver bounce "$2" </dev/null ;;
	STATE)
		# What the game file says now, against the transcript's STATE here.
		echo "$2" >>"$WORK/states"
		k=$(grep -c "^$2\$" "$WORK/states")
		cp "$D/games/$2/game.txt" "$WORK/got.$2.$k" 2>/dev/null || : >"$WORK/got.$2.$k"
		;;
	*) echo "unknown step: $line" >>"$WORK/problems" ;;
	esac
done <"$SCRIPT"

expect "the script ran through pouch without a failed run" test ! -s "$WORK/problems"
# The same script through the transcript runner, for its STATE output.
"$POUCH" transcript "$SCRIPT" >"$WORK/transcript.out" 2>&1
for g in $(sort -u "$WORK/states" 2>/dev/null); do
	k=1
	while [ -f "$WORK/got.$g.$k" ]; do
		# The transcript's k-th STATE of g.
		awk -v g="$g" -v k="$k" '/^=== STATE / { on = ($3 == g && ++seen == k); next }
			/^=== / { on = 0 } on' "$WORK/transcript.out" | grep -v '^$' \
			>"$WORK/want"
		# The file's end line (its checksum) is the data directory's.
		grep -v '^$' "$WORK/got.$g.$k" | sed '${/^end /d;}' >"$WORK/got"
		diff -u "$WORK/want" "$WORK/got" >"$OUT" 2>&1
		expect "game $g (STATE $k) through the mail path is the transcript's game" test ! -s "$OUT"
		k=$((k + 1))
	done
done
# Each decision of a phase mails its results once to each recipient: as
# many "[GAME] PHASE results" in the Maildir of everyone the transcript
# mails them to as the transcript decided that phase (its PHASE lines),
# however it was decided, and again after a rollback.
awk '/^PHASE / { g = $2; sub(/^PHASE [^ ]* [0-9]*: /, ""); n["[" g "] " $0 " results"]++ }
	/^To: / { to = $2 }
	/^Subject: \[[^]]*\] .* results$/ {
		s = substr($0, 10)
		if (!seen[to "\t" s]++) pairs[++np] = to "\t" s
	}
	END { for (i = 1; i <= np; i++) { split(pairs[i], a, "\t"); print a[1] "\t" n[a[2]] + 0 "\t" a[2] } }' \
	"$WORK/transcript.out" >"$WORK/results"
: >"$OUT"
decided=0
while IFS="$(printf '\t')" read -r to want subject; do
	got=$(cat "$D/mail/out/$to/new/"* "$D/mail/out/$to/cur/"* 2>/dev/null | grep -cxF "Subject: $subject")
	decided=$((decided + want))
	[ "$got" = "$want" ] || echo "$to: $got \"$subject\" for $want decisions" >>"$OUT"
done <"$WORK/results"
expect "every decision's results reach each recipient once ($decided results mails)" test ! -s "$OUT"
[ -s "$OUT" ] && sed 's/^/  # /' "$OUT"
"$POUCH" --data "$D" replay --into "$WORK/replay" --verify >"$OUT" 2>"$ERR"
expect "pouch replay --verify: no difference" grep -q ", 0 differences" "$OUT"
for g in $(sort -u "$WORK/states" 2>/dev/null); do
	variant=$(sed -n 's/^variant //p' "$D/games/$g/game.txt")
	if grep -qs 'board="none"' "maps/$variant/variant.xml"; then
		# No board (the World Game's war): one page, the public record.
		expect "game $g: its page of the public record" test -f "$D/pages/$g/index.html"
		if [ $BROWSER = 1 ] && [ -f "$D/pages/$g/index.html" ]; then
			python3 tests/e2e/browser_check.py --maps "maps/$variant" "$D/pages/$g" \
				"$WORK/shots/$g" >"$OUT" 2>"$ERR"
			expect "game $g: its page opens cleanly in headless Chromium" test $? -eq 0
			grep -h "pages opened" "$OUT" | sed 's/^/  # /'
		fi
		continue
	fi
	[ -f "maps/$variant/map.svg" ] || continue	# a variant without a drawing has no pages
	phases=$(ls "$D/games/$g/history" 2>/dev/null | grep -c '^[0-9]*\.txt$')
	pages=$(ls "$D/pages/$g" 2>/dev/null | grep -c '^[SFW][0-9]*[MRA]\.html$')
	expect "game $g: a map page for each of its $phases phases ($pages)" test "$pages" -ge "$phases"
	# Each page shows the orders as the judge decided them: as many failed
	# as the phase's results in its history record mark so.
	: >"$OUT"
	for h in "$D/games/$g/history/"*.txt; do
		echo "${h##*/}" | grep -q '^[0-9]*\.txt$' || continue	# not one rolled back
		ph=$(sed -n '1s/^phase \(.\)[a-z]* \([0-9]*\) \(.\).*/\1\2\3/p' "$h")
		[ -f "$D/pages/$g/$ph.html" ] || continue
		rec=$(sed -n '/results for/,/^Units now:/p' "$h" | grep -c '(\*')
		page=$(grep -c 'class="fail"' "$D/pages/$g/$ph.html")
		[ "$rec" = "$page" ] || echo "$ph: $page failed on the page, $rec in the results" >>"$OUT"
	done
	expect "game $g: every map page's orders failed as the results say" test ! -s "$OUT"
	[ -s "$OUT" ] && sed 's/^/  # /' "$OUT"
	if [ $BROWSER = 1 ] && [ "$pages" -gt 0 ]; then
		python3 tests/e2e/browser_check.py --maps "maps/$variant" "$D/pages/$g" "$WORK/shots/$g" \
			>"$OUT" 2>"$ERR"
		expect "game $g: every page opens cleanly in headless Chromium" test $? -eq 0
		grep -h "pages opened" "$OUT" | sed 's/^/  # /'
	fi
done
echo "== mailpath $(basename "$SCRIPT"): $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
