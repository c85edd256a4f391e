#!/bin/sh
# bench_run.sh — the cron run, measured: 1,000 order mails for 50 games
# fetched from a real IMAP server (Dovecot on loopback, tests/mailstack),
# applied, answered and adjudicated; then an idle run with nothing new.
#
#	tests/bench_run.sh [BUILD]   (default build; needs root for the stack)
#
# The replies and reports go to a local Maildir (no smtp.url), so that the
# figure is the judge's own work and not a mail server's queue. Prints
# messages per second end to end (wall clock of `pouch run`), CPU ms per
# message (user + system) and the idle run's wall time (against Dovecot as
# installed, and in its high-performance login mode). Asserts nothing.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${1:-build}
POUCH=$ROOT/$BUILD/pouch
if [ "$(id -u)" -ne 0 ] || ! command -v dovecot >/dev/null 2>&1; then
	echo "bench_run: skipped (needs root and Dovecot: contrib/deps.sh test)"
	exit 0
fi
MODE=plain OUT=/dev/null ERR=/dev/null
. tests/mailstack/testlib.sh
stack_up pouch-bench
D=$WORK/judge
mkdir -p "$D"
cat >"$D/pouch.conf" <<EOF
judge.address = judge@example.test
judge.base_url = https://maps.example.test
judge.reply_limit = 100000
imap.host = 127.0.0.1
imap.port = $IMAP_PORT
imap.user = judge
imap.password_file = $PASSWORD_DIR/judge
imap.cafile = $CA_FILE
EOF
P="$POUCH --data $D"
POWERS="Austria England France Germany Italy Russia Turkey"

# 50 games of seven delegations each.
g=1
while [ $g -le 50 ]; do
	$P game new "bench$g" --gm "gm$g@example.test" --password "gm-password-$g" --zone UTC >/dev/null
	for p in $POWERS; do
		echo "DELEGATION $p $p$g@example.test PASSWORD $p-pw-$g"
	done | { cat; echo START; } | $P game "bench$g" >/dev/null
	g=$((g + 1))
done

# 1,000 order mails, straight into the judge's Maildir (Dovecot serves
# them over IMAP): each delegation holds with all its units, so a game's
# phase is adjudicated when its seventh delegation has written.
units() {
	case $1 in
	Austria) echo "A bud H|F tri H|A vie H" ;;
	England) echo "F edi H|F lon H|A lvp H" ;;
	France) echo "F bre H|A mar H|A par H" ;;
	Germany) echo "A ber H|F kie H|A mun H" ;;
	Italy) echo "F nap H|A rom H|A ven H" ;;
	Russia) echo "A mos H|F sev H|F stp/sc H|A war H" ;;
	Turkey) echo "F ank H|A con H|A smy H" ;;
	esac
}
box=$MAIL_DIR/judge/Maildir
mkdir -p "$box/tmp" "$box/new" "$box/cur"
i=0
while [ $i -lt 1000 ]; do
	g=$((i % 50 + 1))
	k=$((i / 50 % 7 + 1))
	p=$(echo $POWERS | cut -d' ' -f$k)
	f=$box/new/bench.$i.$$
	{
		printf 'From: %s <%s%s@example.test>\r\nTo: judge@example.test\r\n' "$p" "$p" "$g"
		printf 'Subject: orders\r\nMessage-ID: <bench.%s@example.test>\r\n\r\n' "$i"
		printf 'GAME bench%s %s %s-pw-%s\r\n' "$g" "$p" "$p" "$g"
		units "$p" | tr '|' '\n' | sed 's/$/\r/'
	} >"$f"
	i=$((i + 1))
done
chown -R 65534:65534 "$box"

t0=$(date +%s%N)
/usr/bin/time -f "%U %S" -o "$WORK/cpu" ${BENCH_RUN_WRAP:-} $P -v run ${BENCH_RUN_ARGS:-} >"$WORK/run.out" 2>"$WORK/run.err" || {
	cat "$WORK/run.err"
	exit 1
}
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
cpu=$(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$WORK/cpu")
echo "run: $(cat "$WORK/run.out")"
echo "1000 order mails for 50 games from IMAP: $ms ms wall, $((1000000 / (ms > 0 ? ms : 1))) messages/s end to end, $(awk -v c="$cpu" 'BEGIN { printf "%.2f", c / 1000 }') CPU ms per message"
# idle: 20 idle runs, timed from fork to exit by tests/support/timeit.
idle() {
	$P run >/dev/null 2>&1	# the first after a change of setting, untimed
	"$ROOT/$BUILD/tests/support/timeit" 20 $P run
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
# The same judge reading a local Maildir instead: the judge's own share.
sed -i '/^imap\./d' "$D/pouch.conf"
echo "idle run (local Maildir, nothing new): $(idle)"
if [ -n "${BENCH_KEEP:-}" ]; then
	echo "kept: $D (the stack is stopped)"
	trap - EXIT
	tests/mailstack/stop.sh "$STACK" >/dev/null
fi
