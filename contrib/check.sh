#!/bin/sh
# check.sh — install what the tests need (Debian 12, idempotent) and run every test.
set -eu
cd "$(dirname "$0")/.."
contrib/deps.sh test
make check
