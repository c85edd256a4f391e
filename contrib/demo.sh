#!/bin/sh
# demo.sh — install what pouch needs (Debian 12, idempotent), build it, and
# play a demo game by mail through local Maildirs (contrib/demo/run.sh):
# the game master creates a game, the delegations mail their orders, the
# deadlines pass, and the results with their map links land in every
# delegation's Maildir under build/demo/mail/out/.
set -eu
cd "$(dirname "$0")/.."
contrib/deps.sh build
make -s
exec contrib/demo/run.sh build/demo
