# mails.sh — the order mails of the cron-run benchmarks (bench_run.sh,
# bench_maildir.sh), sourced by them; GAMES is the number of games, P the
# judge's command (pouch --data DIR).

# new_games: GAMES games of seven delegations each, started.
new_games() {
	POWERS="Austria England France Germany Italy Russia Turkey"
	g=1
	while [ "$g" -le "$GAMES" ]; do
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

# write_mails DIR: order_mails' records as files DIR/NAME.load.
write_mails() {
	awk -v dir="$1" 'BEGIN { RS = "\f" }
		NF { t = index($0, "\t"); f = dir "/" substr($0, 1, t - 1) ".load"
		     printf "%s", substr($0, t + 1) > f; close(f) }'
}
