# ports.sh — sourced by start.sh and stop.sh.

# True when something listens on 127.0.0.1:PORT (or any address).
listening() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }

# wait_ports up|down PORT...: wait (up to 15 s) until every port listens,
# or until none does. Returns 1, naming the port, when it does not happen.
wait_ports() {
	want=$1
	shift
	tries=0
	for port in "$@"; do
		while if [ "$want" = up ]; then ! listening "$port"; else listening "$port"; fi; do
			tries=$((tries + 1))
			if [ $tries -gt 300 ]; then
				echo "port $port is $([ "$want" = up ] && echo "not listening" || echo "still in use")" >&2
				return 1
			fi
			sleep 0.05
		done
	done
	return 0
}
