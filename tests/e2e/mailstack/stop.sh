#!/bin/sh
# stop.sh DIR — stop the mail stack start.sh started in DIR and wait until
# its ports are free again (Dovecot takes about a second to let go).
set -u
DIR=${1:?usage: stop.sh DIR}
[ -f "$DIR/env" ] || { echo "stop.sh: no mail stack in $DIR" >&2; exit 1; }
. "$DIR/env"

. "$(dirname "$0")/ports.sh"

postfix -c "$POSTFIX_CONF" stop >/dev/null 2>&1 || true
pid=$(cat "$MAILSTACK_DIR/dovecot/run/master.pid" 2>/dev/null || true)
if [ -n "$pid" ]; then
	kill "$pid" 2>/dev/null || true
fi

# The OAuth server (OAUTH=1), ours by its recorded pid.
opid=$(cat "$MAILSTACK_DIR/oauth/pid" 2>/dev/null || true)
if [ -n "$opid" ]; then
	kill "$opid" 2>/dev/null || true
	wait_ports down $OAUTH_PORT || exit 1
fi

# Exited daemons may stay zombies (nobody reaps them here): kill -0 proves
# nothing, so wait for the ports, and for the master to be gone or a zombie.
wait_ports down $IMAP_PORT $IMAPS_PORT $LMTP_PORT $SMTP_PORT $SUBMISSION_PORT $WRONGNAME_PORT ||
	exit 1
i=0
if [ -n "$pid" ]; then
	while [ -r "/proc/$pid/stat" ] && ! awk '{ exit !($3 == "Z") }' "/proc/$pid/stat"; do
		i=$((i + 1))
		[ $i -gt 400 ] && { echo "stop.sh: dovecot ($pid) does not exit" >&2; exit 1; }
		sleep 0.05
	done
fi
echo "mail stack in $DIR stopped"
