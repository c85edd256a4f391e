#!/bin/sh
# deps.sh — install what pouch needs on Debian 12, idempotently.
#
#   contrib/deps.sh build    compiler, libraries (enough to build and run pouch)
#   contrib/deps.sh test     build + everything the test suite uses (mail servers,
#                            browser, valgrind, clang for sanitizers and fuzzing,
#                            the map generator's data)
#   contrib/deps.sh mapgen   what contrib/mapgen/mapgen.py needs
#
# Packages already installed are not touched; apt-get runs only when something
# is missing. Must run as root (or with sudo available).
set -eu

build_pkgs="build-essential pkg-config ca-certificates
  libetpan-dev libcurl4-gnutls-dev libxml2-dev libcrypt-dev libgnutls28-dev tzdata"
mapgen_pkgs="python3 python3-shapely python3-netcdf4 gmt-dcw"
test_pkgs="libcmocka-dev valgrind clang libclang-rt-dev xz-utils libxml2-utils
  dovecot-imapd dovecot-lmtpd postfix openssl curl iproute2 librsvg2-bin
  chromium fonts-dejavu-core time $mapgen_pkgs"

case "${1:-build}" in
build) want="$build_pkgs" ;;
test) want="$build_pkgs $test_pkgs" ;;
mapgen) want="$mapgen_pkgs" ;;
*) echo "usage: $0 build|test|mapgen" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "deps.sh: need root to install:$missing" >&2; exit 1; }
	SUDO=sudo
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Keep postfix from configuring a system MTA: the tests run their own instance.
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
