#!/bin/sh
# run.sh — a whole game by mail through local Maildirs, on the embedded
# default configuration (no mail server).
#
# The game master creates a game for seven school delegations; each turn
# the delegations mail their orders (from contrib/demo/game.txt, written
# the way players write them) into the judge's Maildir, `pouch run` reads
# them and, once every order is in or the deadline has passed, adjudicates
# and mails the results, with a link to the map, into every delegation's
# Maildir. Time is moved on with `pouch run --now`.
#
# Usage: contrib/demo/run.sh [DATA_DIR]   (default build/demo; emptied first)
set -eu
cd "$(dirname "$0")/../.."
POUCH=${POUCH:-build/pouch}
DATA=${1:-build/demo}
GAME=contrib/demo/game.txt

rm -rf "$DATA"
mkdir -p "$DATA"
DATA=$(cd "$DATA" && pwd)
cat >"$DATA/pouch.conf" <<EOF
# The demo judge: mail in from $DATA/mail/inbox, out to $DATA/mail/out/ADDRESS.
judge.address = judge@demo.example
judge.base_url = file://$DATA/pages
EOF
pouch() { "$POUCH" --data "$DATA" "$@"; }
inbox=$DATA/mail/inbox   # made by pouch game new
# Deliver a message into the judge's Maildir: $1 a unique name, $2 sender,
# $3 subject, body on stdin.
deliver() {
	f="demo.$1"
	{
		printf 'From: %s\nTo: judge@demo.example\nSubject: %s\n' "$2" "$3"
		printf 'Message-ID: <%s@demo.example>\nContent-Type: text/plain; charset=utf-8\n\n' "$f"
		cat
	} >"$inbox/tmp/$f"
	mv "$inbox/tmp/$f" "$inbox/new/$f"
}
lower() { printf '%s' "$1" | tr 'A-Z' 'a-z'; }
# The newest message in a mailbox, as the judge's decoder reads it.
newest() { ls -t "$DATA/mail/out/$1/new/"* | head -n 1; }

echo "== The game master creates the game (pouch game new, pouch game demo ...)"
pouch game new demo --gm teacher@demo.example --password teacher-secret --zone Europe/Amsterdam
for p in Austria England France Germany Italy Russia Turkey; do
	l=$(lower "$p")
	pouch game demo DELEGATION "$p" "$l@school-$l.example" PASSWORD "$l-password" >/dev/null
done
pouch game demo START >/dev/null
echo "Seven delegations added; the game has started."

now=$(date +%s)
phases=$(sed -n 's/^ORDERS //p' "$GAME")
echo "$phases" | while read -r season year; do
	now=$((now + 3600))
	# Every delegation mails its orders for this phase.
	for p in Austria England France Germany Italy Russia Turkey; do
		orders=$(awk -v want="ORDERS $season $year" -v p="$p: " '
			/^ORDERS / { on = ($0 == want); next }
			on && index($0, p) == 1 { print substr($0, length(p) + 1) }' "$GAME")
		[ -n "$orders" ] || continue
		l=$(lower "$p")
		printf 'GAME demo %s %s-password\n%s\n-- \n%s delegation\n' "$p" "$l" "$orders" "$p" |
			deliver "$now.$l" "$l@school-$l.example" "$season $year orders"
	done
	pouch run --now "$now"
	# A phase nobody had to order for (no builds) waits for its deadline.
	while ! grep -l "Subject: .*$season $year .*results" "$DATA"/mail/out/teacher@demo.example/new/* \
	    >/dev/null 2>&1; do
		now=$((now + 3 * 24 * 3600))
		pouch run --now "$now"
	done
	echo
	echo "== $season $year: the game master's copy of the results"
	pouch read-mail "$(newest teacher@demo.example)" | sed -n '/^$/,$p' | sed 1d
done

echo
echo "== What every delegation received (one Maildir per address under $DATA/mail/out)"
for d in "$DATA"/mail/out/*/; do
	printf '  %-32s %3d messages\n' "$(basename "$d")" "$(ls "$d/new" | wc -l)"
done
echo
echo "== The first reply France's delegation got (every order line with its verdict)"
reply=$(ls -tr $(grep -l '^Subject: Re:' "$DATA/mail/out/france@school-france.example/new/"*) | head -n 1)
pouch read-mail "$reply" | sed -n '/^$/,$p' | sed 1d | head -n 20
echo
echo "The spool keeps every message: $(pouch spool list | grep -c "^in") in, $(pouch spool list | grep -c "^out") out."
echo "Rebuilding the game from the spool alone and comparing:"
rm -rf "$DATA.replay"
pouch replay --into "$DATA.replay" --verify
rm -rf "$DATA.replay"
