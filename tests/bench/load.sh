# load.sh — the load the cron-run benchmarks play, sourced by bench_run.sh
# (over IMAP) and bench_cron.sh (the Maildir default). Needs POUCH (the
# program), GAMES and LOAD.

POWERS="Austria England France Germany Italy Russia Turkey"

# new_judge D: data directory D for a judge at judge@example.test that may
# answer every mail; P is then the pouch command for it.
new_judge() {
	mkdir -p "$1"
	printf '%s\n' "judge.address = judge@example.test" "judge.base_url = https://maps.example.test" \
		"judge.reply_limit = 100000" >"$1/pouch.conf"
	P="$POUCH --data $1"
}

# make_games: GAMES games of seven delegations each, started.
make_games() {
	g=1
	while [ $g -le "$GAMES" ]; do
		$P game new "bench$g" --gm "gm$g@example.test" --password "gm-password-$g" --zone UTC >/dev/null
		for p in $POWERS; do
			echo "DELEGATION $p $p$g@example.test PASSWORD $p-pw-$g"
		done | { cat; echo START; } | $P game "bench$g" >/dev/null
		g=$((g + 1))
	done
}

# order_mails FIRST COUNT PREFIX: order mail number FIRST.. on stdout as
# records "NAME<TAB>MESSAGE" for write_mails, NAME PREFIX.N. Each delegation
# holds with all its units, so a game's phase is adjudicated when its
# seventh delegation has written.
order_mails() {
	awk -v first="$1" -v count="$2" -v prefix="$3" -v games="$GAMES" 'BEGIN {
		split("Austria England France Germany Italy Russia Turkey", pw, " ")
		u["Austria"] = "A bud H|F tri H|A vie H"
		u["England"] = "F edi H|F lon H|A lvp H"
		u["France"] = "F bre H|A mar H|A par H"
		u["Germany"] = "A ber H|F kie H|A mun H"
		u["Italy"] = "F nap H|A rom H|A ven H"
		u["Russia"] = "A mos H|F sev H|F stp/sc H|A war H"
		u["Turkey"] = "F ank H|A con H|A smy H"
		for (i = first; i < first + count; i++) {
			g = i % games + 1
			p = pw[int(i / games) % 7 + 1]
			o = u[p]
			gsub(/\|/, "\r\n", o)
			printf "%s.%d\tFrom: %s <%s%d@example.test>\r\nTo: judge@example.test\r\n" \
			    "Subject: orders\r\nMessage-ID: <%s.%d@example.test>\r\n\r\n" \
			    "GAME bench%d %s %s-pw-%d\r\n%s\r\n\f", prefix, i, p, p, g, prefix, i, g, p, p, g, o
		}
	}'
}

# write_mails DIR: the records of order_mails on stdin, one file each in DIR
# (a Maildir's new/).
write_mails() {
	awk -v dir="$1" 'BEGIN { RS = "\f" }
		NF { t = index($0, "\t"); f = dir "/" substr($0, 1, t - 1) ".load"
		     printf "%s", substr($0, t + 1) > f; close(f) }'
}

# timed_run DIR: one `pouch -v run` (with BENCH_RUN_WRAP before it and
# BENCH_RUN_ARGS after), its output in DIR/run.out; prints "run: ..." and
# "N ms wall, R messages/s, C CPU ms per message, max RSS M MB" for LOAD
# messages. Exits 1 when the run fails.
timed_run() {
	t0=$(date +%s%N)
	/usr/bin/time -f "%U %S %M" -o "$1/cpu" ${BENCH_RUN_WRAP:-} $P -v run ${BENCH_RUN_ARGS:-} \
		>"$1/run.out" 2>"$1/run.err" || {
		cat "$1/run.err"
		exit 1
	}
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	cpu=$(awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$1/cpu")
	rss=$(awk '{ printf "%.1f", $3 / 1024 }' "$1/cpu")
	echo "run: $(cat "$1/run.out")" >&2
	echo "$ms ms wall, $((LOAD * 1000 / (ms > 0 ? ms : 1))) messages/s end to end," \
		"$(awk -v c="$cpu" -v n="$LOAD" 'BEGIN { printf "%.2f", c / n }') CPU ms per message, max RSS $rss MB"
}
