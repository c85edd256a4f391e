#!/bin/sh
# demo.sh — install what pouch needs (Debian 12, idempotent), build it, and
# play the demo game, printing every phase's results.
set -eu
cd "$(dirname "$0")/.."
contrib/deps.sh build
make -s
exec build/pouch play contrib/demo/game.txt
