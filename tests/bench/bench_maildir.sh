#!/bin/sh
# bench_maildir.sh — the cron run on the embedded default, measured: LOAD
# order mails (default 10,000) for GAMES games (default LOAD / 200) in the
# judge's local Maildir (DATA/mail/inbox), fetched, applied, answered and
# adjudicated in one `pouch run`, replies to the local Maildirs
# (DATA/mail/out). No mail server, no port: the figure is the judge's own
# work and its disk's.
#
#	tests/bench/bench_maildir.sh prepare TEMPLATE [BUILD]
#		makes a data directory with the games and the mails
#	tests/bench/bench_maildir.sh run TEMPLATE WORK [POUCH]
#		copies TEMPLATE to a new directory WORK.N (on the disk being
#		measured), syncs, and times one run of POUCH (default
#		build/pouch) there; prints "ms MS applied N" and checks that
#		every mail was applied once and answered once (exit 1
#		otherwise)
#	tests/bench/bench_maildir.sh clean WORK
#		removes every WORK.N
#
# A run deletes nothing: on ext4 without a journal, creating a file scans
# past every inode freed in the last one to six minutes (the kernel's
# recently_deleted), so a run just after the previous copy's 30,000 files
# were removed took 5 to 10 s of system time where the same run with no
# removal before it took 1.6 s. The copies are removed by `clean`, after
# the runs.
#
# A paired comparison of two builds, the copy included in both:
#	farm-bench -n 5 --vs 'tests/bench/bench_maildir.sh run T /disk/w OLD/pouch' \
#	    -- tests/bench/bench_maildir.sh run T /disk/w build/pouch
#	tests/bench/bench_maildir.sh clean /disk/w
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
what=$1
T=$2
case $what in
prepare)
	BUILD=${3:-build}
	POUCH=$ROOT/$BUILD/pouch
	LOAD=${LOAD:-10000}
	GAMES=${GAMES:-$((LOAD / 200))}
	[ "$GAMES" -ge 1 ] || GAMES=1
	rm -rf "$T"
	. tests/bench/load.sh
	new_judge "$T"
	make_games
	$P run >/dev/null	# the first run: settings recorded, nothing to read
	box=$T/mail/inbox
	mkdir -p "$box/tmp" "$box/new" "$box/cur"
	order_mails 0 "$LOAD" bench | write_mails "$box/new"
	echo "prepared $T: $LOAD order mails for $GAMES games"
	;;
run)
	n=1
	while [ -e "$3.$n" ]; do n=$((n + 1)); done
	W=$3.$n
	POUCH=${4:-$ROOT/build/pouch}
	cp -a "$T" "$W"
	sync -f "$W"
	t0=$(date +%s%N)
	"$POUCH" --data "$W" run >"$W.out" 2>&1 || { cat "$W.out"; exit 1; }
	t1=$(date +%s%N)
	n=$(ls "$T/mail/inbox/new" | wc -l)
	answered=$(find "$W/mail/out" -type f -print0 | xargs -0 grep -h "^In-Reply-To: <bench\." |
		sort | uniq -c | awk '$1 == 1 { once++ } $1 > 1 { more++ } END { printf "%d %d", once, more }')
	once=${answered% *} more=${answered#* }
	applied=$(($(grep -c "^applied" "$W/spool/ledger") - $(grep -c "^applied" "$T/spool/ledger")))
	echo "ms $(((t1 - t0) / 1000000)) applied $applied answered $once twice $more" | tee -a "${BENCH_LOG:-/dev/null}"
	[ "$once" -eq "$n" ] && [ "$more" -eq 0 ] && [ "$applied" -eq "$n" ]
	;;
clean)
	rm -rf "$T".[0-9]*
	;;
*)
	echo "usage: $0 prepare|run|clean ..." >&2
	exit 2
	;;
esac
