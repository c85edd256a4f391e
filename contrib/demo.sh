#!/bin/sh
# demo.sh — install what pouch needs (Debian 12, idempotent), build it, and
# play the demo game, printing every phase's results and writing its map
# pages into build/demo/demo/ (open index.html in a browser).
set -eu
cd "$(dirname "$0")/.."
contrib/deps.sh build
make -s
exec build/pouch play --pages build/demo --name demo contrib/demo/game.txt
