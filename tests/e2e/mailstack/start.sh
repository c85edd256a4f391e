#!/bin/sh
# start.sh DIR — a real mail stack for the tests, on loopback, inside DIR.
#
# Dovecot: IMAP, IMAPS and LMTP; Maildirs under DIR/mail/USER/Maildir.
# Postfix: SMTP (STARTTLS offered) and submission (STARTTLS and AUTH
# required, authenticated by Dovecot), delivering example.test to Dovecot
# by LMTP; nothing ever leaves the machine (default_transport = error).
# A second submission port presents a certificate for another name
# (wrong.example.test, DIR/tls/wrongname.pem): connecting to it with that
# certificate as CA must fail on the host name alone.
# Users judge, alice, bob, carol, dave and gm, password USERpw (DIR/users, and one
# file per user in DIR/pw/); Postfix also accepts ghost@example.test, which
# Dovecot refuses, so mail to it bounces. A self-signed certificate for localhost and
# 127.0.0.1 (DIR/tls/cert.pem is also the CA file).
#
# OAUTH=1 adds OAuth 2.0: tests/e2e/oauthserver.py on BASE+443 (HTTPS,
# the same certificate) issues tokens (client id pouch-test, the secret in
# DIR/oauth/client_secret) and checks them for Dovecot, whose oauth2 passdb
# (token introspection, POST) takes AUTHENTICATE XOAUTH2 and OAUTHBEARER for
# IMAP and, through Dovecot's SASL, for Postfix's submission port.
#
# Ports are 127.0.0.1:BASE+{143,993,24,25,587,588}; BASE is $MAILSTACK_BASE or
# the first free one of 20000, 21000, ... DIR/env records ports and paths
# (shell syntax). Stop with stop.sh DIR. Needs root (Postfix).
set -eu
DIR=${1:?usage: start.sh DIR}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
chmod 755 "$DIR"	# Postfix and Dovecot's users must traverse it

. "$(dirname "$0")/ports.sh"
free_base() {
	for b in $(seq 20000 1000 60000); do
		busy=0
		for off in 143 993 24 25 587 588; do
			if listening $((b + off)); then busy=1; fi
		done
		[ $busy -eq 0 ] && { echo "$b"; return 0; }
	done
	return 1
}
BASE=${MAILSTACK_BASE:-$(free_base)}
IMAP_PORT=$((BASE + 143))
IMAPS_PORT=$((BASE + 993))
LMTP_PORT=$((BASE + 24))
SMTP_PORT=$((BASE + 25))
SUBMISSION_PORT=$((BASE + 587))
WRONGNAME_PORT=$((BASE + 588))
OAUTH_PORT=$((BASE + 443))
OAUTH=${OAUTH:-0}

# --- certificate ------------------------------------------------------------
mkdir -p "$DIR/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=localhost \
	-addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
	-keyout "$DIR/tls/key.pem" -out "$DIR/tls/cert.pem" >/dev/null 2>&1
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=wrong.example.test \
	-addext "subjectAltName=DNS:wrong.example.test" \
	-keyout "$DIR/tls/wrongname.key" -out "$DIR/tls/wrongname.pem" >/dev/null 2>&1
chmod 644 "$DIR/tls/cert.pem" "$DIR/tls/wrongname.pem"
chmod 600 "$DIR/tls/key.pem" "$DIR/tls/wrongname.key"

# --- users and Maildirs -------------------------------------------------------
mkdir -p "$DIR/mail" "$DIR/pw"
: >"$DIR/users"
: >"$DIR/vmailbox"
for u in judge alice bob carol dave gm; do
	mkdir -p "$DIR/mail/$u"
	chown 65534:65534 "$DIR/mail/$u"
	echo "$u:{PLAIN}${u}pw:65534:65534::$DIR/mail/$u::" >>"$DIR/users"
	echo "$u@example.test $u" >>"$DIR/vmailbox"
	printf '%spw\n' "$u" >"$DIR/pw/$u"
	chmod 600 "$DIR/pw/$u"
done
# Postfix accepts ghost@, Dovecot does not know it: a real bounce (DSN) comes back.
echo "ghost@example.test ghost" >>"$DIR/vmailbox"
chmod 644 "$DIR/users" "$DIR/vmailbox"

# --- OAuth 2.0 ------------------------------------------------------------------
D="$DIR/dovecot"
mkdir -p "$D/run" "$D/state"
MECHS="plain login"
OAUTH_PASSDB=
if [ "$OAUTH" = 1 ]; then
	mkdir -p "$DIR/oauth"
	chmod 700 "$DIR/oauth"
	printf 'pouch-test-secret-%s\n' "$(od -An -N8 -tx8 /dev/urandom | tr -d ' ')" \
		>"$DIR/oauth/client_secret"
	chmod 600 "$DIR/oauth/client_secret"
	python3 "$(dirname "$0")/../oauthserver.py" --port "$OAUTH_PORT" \
		--cert "$DIR/tls/cert.pem" --key "$DIR/tls/key.pem" --client-id pouch-test \
		--client-secret-file "$DIR/oauth/client_secret" --log "$DIR/oauth/server.log" \
		${OAUTH_ROTATE:+--rotate} </dev/null >"$DIR/oauth/stdout.log" 2>&1 &
	echo $! >"$DIR/oauth/pid"
	cat >"$D/oauth2.conf.ext" <<CONF
introspection_mode = post
introspection_url = https://127.0.0.1:$OAUTH_PORT/introspect
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
tls_ca_cert_file = $DIR/tls/cert.pem
CONF
	MECHS="plain login xoauth2 oauthbearer"
	OAUTH_PASSDB="passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = $D/oauth2.conf.ext
}"
fi

# --- Dovecot ------------------------------------------------------------------
cat >"$D/dovecot.conf" <<CONF
instance_name = pouch-test-$BASE
base_dir = $D/run
state_dir = $D/state
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$DIR/tls/cert.pem
ssl_key = <$DIR/tls/key.pem
disable_plaintext_auth = no
auth_mechanisms = $MECHS
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
mail_location = maildir:~/Maildir
recipient_delimiter = +
lda_mailbox_autocreate = yes
$OAUTH_PASSDB
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n $DIR/users
}
userdb {
  driver = passwd-file
  args = username_format=%n $DIR/users
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
service auth {
  unix_listener auth-mta {
    mode = 0666
  }
}
CONF
dovecot -c "$D/dovecot.conf"

# --- Postfix ------------------------------------------------------------------
P="$DIR/postfix"
mkdir -p "$P/etc" "$P/queue" "$P/data"
chown postfix "$P/data"
cat >"$P/etc/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $P/queue
data_directory = $P/data
meta_directory = /etc/postfix
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.example.test
mydomain = example.test
mydestination =
alias_maps =
alias_database =
biff = no
mynetworks = 127.0.0.0/8
recipient_delimiter = +
virtual_mailbox_domains = example.test, localhost
virtual_mailbox_maps = texthash:$DIR/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
default_transport = error:no mail leaves the test sandbox
relay_transport = error:no mail leaves the test sandbox
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_tls_cert_file = $DIR/tls/cert.pem
smtpd_tls_key_file = $DIR/tls/key.pem
smtpd_tls_security_level = may
smtpd_sasl_type = dovecot
smtpd_sasl_path = $D/run/auth-mta
maillog_file = $P/postfix.log
maillog_file_prefixes = $DIR
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
smtputf8_enable = no
message_size_limit = 52428800
CONF
cat >"$P/etc/master.cf" <<CONF
127.0.0.1:$SMTP_PORT inet n - n - - smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_tls_auth_only=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$WRONGNAME_PORT inet n - n - - smtpd
  -o syslog_name=postfix/wrongname
  -o smtpd_tls_cert_file=$DIR/tls/wrongname.pem
  -o smtpd_tls_key_file=$DIR/tls/wrongname.key
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
pickup unix n - n 60 1 pickup
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
tlsmgr unix - - n 1000? 1 tlsmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
local unix - n n - - local
virtual unix - n n - - virtual
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
CONF
# Postfix waits ~2 s when its configuration changed in the last seconds.
touch -d '-1 min' "$P/etc/main.cf" "$P/etc/master.cf"
if ! postfix -c "$P/etc" start >"$P/start.log" 2>&1; then
	cat "$P/start.log" "$P/postfix.log" >&2
	kill "$(cat "$D/run/master.pid")" 2>/dev/null
	exit 1
fi

cat >"$DIR/env" <<ENV
MAILSTACK_DIR=$DIR
MAILSTACK_BASE=$BASE
IMAP_PORT=$IMAP_PORT
IMAPS_PORT=$IMAPS_PORT
LMTP_PORT=$LMTP_PORT
SMTP_PORT=$SMTP_PORT
SUBMISSION_PORT=$SUBMISSION_PORT
WRONGNAME_PORT=$WRONGNAME_PORT
CA_FILE=$DIR/tls/cert.pem
WRONGNAME_CA=$DIR/tls/wrongname.pem
OAUTH=$OAUTH
OAUTH_PORT=$OAUTH_PORT
OAUTH_URL=https://127.0.0.1:$OAUTH_PORT
OAUTH_CLIENT_ID=pouch-test
OAUTH_SECRET_FILE=$DIR/oauth/client_secret
OAUTH_LOG=$DIR/oauth/server.log
PASSWORD_DIR=$DIR/pw
MAIL_DIR=$DIR/mail
DOVECOT_CONF=$D/dovecot.conf
POSTFIX_CONF=$P/etc
ENV

if ! wait_ports up $IMAP_PORT $IMAPS_PORT $LMTP_PORT $SMTP_PORT $SUBMISSION_PORT $WRONGNAME_PORT \
	$([ "$OAUTH" = 1 ] && echo $OAUTH_PORT); then
	echo "start.sh: logs in $D/dovecot.log, $P/postfix.log and $DIR/oauth/" >&2
	exit 1
fi
echo "mail stack up in $DIR (IMAP $IMAP_PORT, IMAPS $IMAPS_PORT, SMTP $SMTP_PORT, submission $SUBMISSION_PORT)"
