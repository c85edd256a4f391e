#!/bin/sh
# check.sh — every test of pouch. `make check` runs this; so does CI.
#
# Stages (each prints what it ran and its result; any failure fails the run):
#   build     warnings as errors
#   includes  the house's rules over every #include (tests/includes.sh): each
#             folder includes only what ARCHITECTURE.md allows it, no two
#             folders include each other, the rules engine is pure, no
#             rule system named outside its module (tests/names.sh)
#   unit      cmocka test programs
#   sanitize  the same programs built with AddressSanitizer + UBSan
#   datc      DATC v3.0 cases (tests/data/datc), and DATC v2.4 with --edition 2000;
#             the reason of every failed order in them (tests/data/datc/reasons.out);
#             webDiplomacy's records (tests/data/games/webdiplomacy)
#   fuzz      every libFuzzer target (make fuzz: clang, ASan + UBSan) for
#             FUZZ_SECONDS from its seeds in tests/fuzz/seeds/NAME/; any crash,
#             leak or sanitizer report fails (clang: contrib/deps.sh test)
#   games     4,488 recorded games (needs ../shared; skipped with a notice),
#             and the reason of every failed order in them (check-game --reasons)
#   maps      the geometry is what contrib/mapgen makes; the MUNA variant
#             checked; the demo games' pages (standard and MUNA) and every
#             phase of a full recorded game rendered, each SVG
#             checked with xmllint, PNGs made with rsvg-convert, every page
#             opened in headless Chromium (tests/e2e/browser_check.py)
#   transcripts  scripts of mail through the judge, compared with golden files,
#             and played again through pouch run and Maildirs (tests/cli/mailpath.sh:
#             the same games, replay, map pages, Chromium);
#             the host's command line (tests/cli/cli.sh); broken mail of every
#             kind answered or deliberately ignored, and kept (tests/cli/badmail.sh);
#             a run's memory bounded against its mail and the spool's history
#             (tests/cli/memory.sh);
#             a damaged game set aside, the others served, and repaired,
#             and a data directory from before the end line upgraded
#             (tests/cli/damaged.sh); whole games of generated orders by mail
#             on the standard, MUNA and Realpolitik boards (tests/league/test_boardgen.py)
#   league    a simulated league (tests/league/league.py): 52 games of the four
#             rule systems played by mail through pouch run on a simulated
#             clock, part of them under the sanitized pouch, invariants checked
#             after every run (LEAGUE_SEED, LEAGUE_GAMES, LEAGUE_KNOWN)
#   kill      the embedded default (Maildir in and out) killed with SIGKILL
#             at aimed points (POUCH_CRASH_AT) in each step of a run, 50
#             kills per step; and a data directory on a full disk (a tmpfs,
#             as root) (tests/cli/killmd.sh)
#   mail      the mail layer against real Dovecot and Postfix on loopback
#             (tests/e2e/mail/run.sh): plain, under valgrind, under ASan; needs
#             root (skipped with a notice otherwise)
#   hostile   the mail layer against misbehaving servers on loopback
#             (tests/e2e/hostile.sh, tests/e2e/badserver.py): dropped at every
#             step, silent, cut short, endless; plain and under ASan
#   e2e       the judge by mail end to end with real servers: a game over
#             SMTP and IMAP, faults, replay --verify, under valgrind and
#             ASan, and 50 kill -9s during runs (tests/e2e/judge.sh); OAuth 2.0
#             sign-in with Dovecot's oauth2 passdb (tests/e2e/oauth.sh); root
#   faults    real file systems failing under pouch run: a tmpfs that fills
#             up in each step, ext4 turned read-only in each step, and the
#             order of syncs in a traced run (tests/cli/faults.sh); root
#
# Usage: tests/check.sh [STAGE...]   (default: all)
# Environment: POUCH_SHARED (default ../shared), JOBS (default: CPU count),
# CHECK_STAGES (default: all), e.g. CHECK_STAGES="unit datc",
# FUZZ_SECONDS (default 60), FUZZ_CC (default clang).
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SHARED=${POUCH_SHARED:-$ROOT/../shared}
export POUCH_SHARED="$SHARED"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
ALL_STAGES="build includes unit sanitize datc fuzz games maps transcripts league kill mail hostile e2e faults"
STAGES=${*:-${CHECK_STAGES:-$ALL_STAGES}}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FAILED=""

stage() { printf '\n== %s\n' "$1"; }
want() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
fail() { FAILED="$FAILED $1"; printf 'FAILED: %s\n' "$1"; }
# tail_of N WHAT COMMAND...: runs COMMAND, shows the last N lines of what it
# printed, and fails WHAT when COMMAND fails (a pipe into tail would hide it).
tail_of() {
	_n=$1 _what=$2
	shift 2
	mkdir -p build
	if "$@" >build/tail_of.log 2>&1; then _rc=0; else _rc=$?; fi
	tail -n "$_n" build/tail_of.log
	[ "$_rc" -eq 0 ] || fail "$_what (exit $_rc)"
}
have_shared() { [ -d "$SHARED/testdata" ]; }
# Unpack the recorded games once into build/games (again when the tarball changes).
games_dir() {
	tarball="$SHARED/testdata/games/droidippy_public.tar.xz"
	if [ ! -f build/games/.stamp ] || [ "$tarball" -nt build/games/.stamp ]; then
		rm -rf build/games && mkdir -p build/games
		tar -xJf "$tarball" -C build/games && touch build/games/.stamp
	fi
}

if want build; then
	stage "build (warnings are errors)"
	make -s -j"$JOBS" WERROR=1 tests || { echo "build failed"; exit 1; }
fi

if want includes; then
	stage "includes: what each folder may include (tests/includes.sh)"
	tests/includes.sh || fail "includes (tests/includes.sh)"
fi

run_units() { # $1 = build dir
	for t in "$1"/tests/unit/test_*; do
		[ -x "$t" ] || continue
		if "$t" >"$1/$(basename "$t").log" 2>&1; then
			printf '  %-28s %s\n' "$(basename "$t")" "$(grep -E '^\[  PASSED  \]' "$1/$(basename "$t").log" | tail -1 | sed 's/.*PASSED  \] *//')"
			# data-driven suites say how many cases they ran ("golden file ...: N cases, M passed",
			# "generated wording: N orders, M read as meant")
			grep -E '^(golden file .*cases|generated wording: )' "$1/$(basename "$t").log" |
				sed 's/^/    /' || true
		else
			cat "$1/$(basename "$t").log"
			fail "$(basename "$t") ($1)"
		fi
	done
}

if want unit; then
	stage "unit tests (cmocka)"
	run_units build
fi

if want sanitize; then
	stage "unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
	make -s -j"$JOBS" WERROR=1 SAN=1 BUILD=build/san CC=${SAN_CC:-cc} tests || fail "sanitizer build"
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	run_units build/san
	echo "  DATC and recorded games with the sanitized pouch:"
	tail_of 1 "datc (sanitized)" build/san/pouch datc tests/data/datc/*.txt
	if have_shared; then
		games_dir
		tail_of 1 "recorded games (sanitized)" build/san/pouch check-game build/games
	fi
fi

if want datc; then
	stage "DATC v3.0 (tests/data/datc, each case under its own edition)"
	tail_of 20 "datc v3.0" build/pouch datc tests/data/datc/*.txt
	stage "the reason of every failed order in the DATC cases (tests/data/datc/reasons.out)"
	mkdir -p build/datc
	build/pouch datc --reasons tests/data/datc/*.txt >build/datc/reasons.out ||
		fail "a DATC case's reasons do not fit its results (build/datc/reasons.out)"
	if [ "${REGEN:-0}" = 1 ]; then
		cp build/datc/reasons.out tests/data/datc/reasons.out
		echo "  reasons.out: golden file rewritten"
	elif diff -u tests/data/datc/reasons.out build/datc/reasons.out >build/datc/reasons.diff; then
		echo "  the reasons match tests/data/datc/reasons.out"
	else
		head -n 60 build/datc/reasons.diff
		fail "the DATC reasons differ from tests/data/datc/reasons.out (see build/datc/reasons.diff)"
	fi
	awk -f tests/cli/reasons.awk build/datc/reasons.out || fail "a failed DATC order without its reason"
	stage "webDiplomacy's records (tests/data/games/webdiplomacy, --edition webdiplomacy)"
	tail_of 1 "webDiplomacy's records" \
	    build/pouch check-game --edition webdiplomacy tests/data/games/webdiplomacy
	# Each record tells webdiplomacy from the edition named with it.
	for pair in 2000:convoy_unmarked dptg:convoy_marked; do
		if build/pouch check-game --edition "${pair%%:*}" \
		    "tests/data/games/webdiplomacy/${pair#*:}.txt" >/dev/null 2>&1; then
			fail "tests/data/games/webdiplomacy/${pair#*:}.txt passes under ${pair%%:*} too"
		else
			echo "  ${pair#*:}.txt differs under --edition ${pair%%:*}, as it should"
		fi
	done
	if have_shared; then
		stage "DATC v3.0 conversion is up to date with ../shared"
		python3 contrib/tools/datc_json2txt.py "$SHARED/testdata/datc/datc_v3.0.json" |
			cmp -s - tests/data/datc/datc_v3.0.txt && echo "tests/data/datc/datc_v3.0.txt matches its source" ||
			fail "tests/data/datc/datc_v3.0.txt differs from contrib/tools/datc_json2txt.py output"
		stage "DATC v2.4 (jDip case file, --edition 2000)"
		tail_of 20 "datc v2.4" build/pouch datc --edition 2000 "$SHARED/testdata/datc/datc_v2.4.txt"
	else
		echo "skipped the DATC v2.4 file and the conversion check: $SHARED not present"
	fi
fi

if want fuzz; then
	stage "fuzzing (libFuzzer, ASan + UBSan, ${FUZZ_SECONDS} s per target)"
	if ! command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1; then
		fail "fuzzing: ${FUZZ_CC:-clang} is not installed (contrib/deps.sh test installs it)"
	elif ! make -s -j"$JOBS" fuzz FUZZ_CC="${FUZZ_CC:-clang}"; then
		fail "fuzz build"
	else
		for f in build/fuzz/fuzz_*; do
			[ -x "$f" ] || continue
			name=$(basename "$f")
			seeds=tests/fuzz/seeds/${name#fuzz_}
			corpus=build/fuzz/corpus/${name#fuzz_}
			dict=tests/fuzz/${name#fuzz_}.dict
			log=build/fuzz/$name.log
			mkdir -p "$corpus" "$seeds"
			# New inputs go to build/fuzz/corpus; the committed seeds are only read.
			if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
			    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			    "$f" -max_total_time="$FUZZ_SECONDS" -print_final_stats=1 \
			    -artifact_prefix=build/fuzz/"$name"- \
			    $( [ -f "$dict" ] && echo "-dict=$dict" ) \
			    "$corpus" "$seeds" >"$log" 2>&1; then
				printf '  %-16s %s; %s executions, %s new inputs, peak %s MB\n' "$name" \
				    "$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)" \
				    "$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")" \
				    "$(sed -n 's/^stat::new_units_added: *//p' "$log")" \
				    "$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")"
			else
				tail -n 60 "$log"
				fail "$name (log: $log; the failing input is build/fuzz/$name-*)"
			fi
		done
	fi
fi

if want games; then
	stage "recorded games (droidippy, --edition 2000)"
	if have_shared; then
		games_dir
		build/pouch check-game --edition 2000 build/games || fail "recorded games"
		echo "  the reason of every failed order and dislodged unit:"
		if build/pouch check-game --reasons --edition 2000 build/games >build/games-reasons.txt; then
			tail -n 4 build/games-reasons.txt | sed 's/^/  /'
			# The adjustment phases are checked too: failed builds and
			# removals and civil disorder, every one with its reason.
			grep -Eq '^([1-9][0-9]*) failed builds and removals and units removed in civil disorder, \1 with a reason that fits$' \
				build/games-reasons.txt ||
				fail "the recorded games' adjustment phases without their reasons checked (build/games-reasons.txt)"
		else
			grep -v '^[0-9]' build/games-reasons.txt | head -n 20
			fail "a failed order in the recorded games without a reason that fits (build/games-reasons.txt)"
		fi
	else
		echo "skipped the recorded games: $SHARED not present"
	fi
fi

if want maps; then
	stage "maps: geometry, rendered games, PNG, browser"
	if /usr/bin/python3 -c 'import shapely, netCDF4' 2>/dev/null && [ -f /usr/share/gmt-dcw/dcw-gmt.nc ]; then
		for board in standard muna; do
			contrib/mapgen/mapgen.py --check "$board" ||
				fail "maps/$board/map.svg is not what contrib/mapgen/mapgen.py makes"
		done
	else
		fail "the geometry check: the map generator's packages are missing (contrib/deps.sh test installs them)"
	fi
	rm -rf build/maps && mkdir -p build/maps/png
	build/pouch play --pages build/maps --name demo --base-url https://example.org/pouch \
		contrib/demo/game.txt >build/maps/demo.txt || fail "pouch play --pages"
	grep -c '^Map: https://example.org/pouch/demo/' build/maps/demo.txt | sed 's/^/  map links in the demo report: /'
	# The MUNA board: its variant file, its start and a short game's pages.
	if out=$(build/pouch map check maps/muna/variant.xml); then
		echo "  $out"
	else
		fail "pouch map check maps/muna/variant.xml"
	fi
	mkdir -p build/maps/muna-start
	build/pouch render --variant muna --out build/maps/muna-start/start.svg ||
		fail "pouch render --variant muna"
	# Realpolitik on the standard board: its capitals and naval bases marked.
	mkdir -p build/maps/realpolitik-start
	build/pouch render --variant realpolitik --out build/maps/realpolitik-start/start.svg ||
		fail "pouch render --variant realpolitik"
	build/pouch play --variant muna --pages build/maps --name muna --base-url https://example.org/pouch \
		contrib/demo/muna.txt >build/maps/muna.txt || fail "pouch play --variant muna --pages"
	grep -c '^Map: https://example.org/pouch/muna/' build/maps/muna.txt | sed 's/^/  map links in the MUNA report: /'
	record=""
	if have_shared; then
		games_dir
		record=build/games/game_10070.txt	# 39 phases, Austria wins
		build/pouch render-game --base-url https://example.org/pouch "$record" build/maps ||
			fail "pouch render-game $record"
	else
		echo "skipped the recorded game: $SHARED not present"
	fi
	n=0 bad=0
	for f in build/maps/*/*.svg; do
		n=$((n + 1))
		xmllint --noout "$f" || bad=$((bad + 1))
	done
	echo "  xmllint: $n SVG maps, $bad not valid"
	[ "$bad" = 0 ] && [ "$n" -gt 0 ] || fail "SVG maps that xmllint rejects"
	n=0
	for f in build/maps/*/S1901M.svg build/maps/*/*-after.svg build/maps/*/current.svg \
	    build/maps/muna-start/start.svg build/maps/realpolitik-start/start.svg; do
		[ -f "$f" ] || continue
		out=build/maps/png/$(basename "$(dirname "$f")")-$(basename "$f" .svg).png
		if rsvg-convert "$f" -o "$out" && [ "$(head -c 8 "$out" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]; then
			n=$((n + 1))
		else
			fail "rsvg-convert $f"
		fi
	done
	echo "  rsvg-convert: $n PNG maps"
	python3 tests/e2e/browser_check.py --maps maps/standard build/maps/demo build/maps/shots/demo ||
		fail "the demo game's pages in Chromium"
	# The MUNA start against the seed's own table of starting positions.
	table=$SHARED/notes/muna-starting-table.md
	if [ -f "$table" ]; then
		set -- --start build/maps/muna-start/start.svg --start-table "$table" \
			--start-cell "United Kingdom=Iran" --rsvg build/maps/png/muna-start-checked.png
	else
		echo "skipped the MUNA start's pixels: $table not present"
		set --
	fi
	python3 tests/e2e/browser_check.py --maps maps/muna "$@" build/maps/muna build/maps/shots/muna ||
		fail "the MUNA game's pages (and its start) in Chromium"
	if [ -n "$record" ]; then
		python3 tests/e2e/browser_check.py --record "$record" --maps maps/standard \
			--rsvg build/maps/png/current-checked.png build/maps/game_10070 build/maps/shots/game ||
			fail "the recorded game's pages in Chromium"
	fi
fi

if want transcripts; then
	stage "judge transcripts (tests/data/transcripts: mail in, replies and reports out); the command line"
	tests/cli/cli.sh || fail "the command line (tests/cli/cli.sh)"
	tests/cli/manpages.sh || fail "the man pages render clean (tests/cli/manpages.sh)"
	tests/cli/badmail.sh || fail "broken mail (tests/cli/badmail.sh)"
	tests/cli/memory.sh || fail "a run's memory against its mail and the spool's history (tests/cli/memory.sh)"
	tests/cli/damaged.sh || fail "damaged game files set aside and repaired, old ones sealed (tests/cli/damaged.sh)"
	for t in tests/data/transcripts/*.txt; do
		golden="${t%.txt}.out"
		mkdir -p build/transcripts
		actual="build/transcripts/$(basename "${t%.txt}").out"
		build/pouch transcript "$t" >"$actual" || { fail "transcript $t (script error)"; continue; }
		if [ "${REGEN:-0}" = 1 ]; then
			cp "$actual" "$golden"
			echo "  $(basename "$t"): golden file rewritten"
		elif diff -u "$golden" "$actual" >"$actual.diff"; then
			echo "  $(basename "$t"): $(grep -cE '^=== (MAIL|HOST|BOUNCE) ' "$actual") messages, output matches $(basename "$golden")"
		else
			head -n 60 "$actual.diff"
			fail "transcript $t differs from its golden file (see $actual.diff)"
		fi
		# The same script through pouch run and Maildirs: the same games.
		browser=""
		case $t in *full-game.txt | *muna-game.txt | *worldgame-six.txt | *realpolitik-game.txt) browser=--browser ;; esac
		if tests/cli/mailpath.sh $browser "$t" >"$actual.mailpath" 2>&1; then
			tail -n 1 "$actual.mailpath" | sed 's/^== /  /'
		else
			grep -A 20 "not ok" "$actual.mailpath" | head -n 40
			fail "transcript $t through the mail path (tests/cli/mailpath.sh $browser $t)"
		fi
	done
	awk -f tests/cli/reasons.awk tests/data/transcripts/*.out ||
		fail "a failed order in a transcript without its reason (tests/cli/reasons.awk)"
	# Whole games of generated orders by mail, on each board system.
	if nice python3 tests/league/test_boardgen.py >build/boardgen.log 2>&1; then
		grep -E '^(# |ok)' build/boardgen.log | sed 's/^/  /'
	else
		grep -E '^(#|not ok)' build/boardgen.log | head -n 40
		fail "generated orders by mail (tests/league/test_boardgen.py; log: build/boardgen.log)"
	fi
fi

if want league; then
	stage "league: schools play whole games by mail through pouch run, invariants after every run (tests/league)"
	# Kinds of failure known and not yet fixed, reported but not failing
	# the stage (LEAGUE_KNOWN=kind,kind); none today.
	LEAGUE_KNOWN=${LEAGUE_KNOWN-}
	make -s -j"$JOBS" WERROR=1 SAN=1 BUILD=build/san CC=${SAN_CC:-cc} build/san/pouch ||
		fail "sanitizer build of pouch"
	if nice python3 tests/league/league.py --seed "${LEAGUE_SEED:-1}" --games "${LEAGUE_GAMES:-52}" \
		--san-bin build/san/pouch --san-games "${LEAGUE_SAN_GAMES:-8}" --known "$LEAGUE_KNOWN" \
		--jobs "$JOBS" --keep build/league --show 3 >build/league.log 2>&1; then
		grep '^league:' build/league.log
	else
		grep -E '^(league|FAIL)' build/league.log | head -n 80
		fail "the league (tests/league/league.py; log: build/league.log, data: build/league)"
	fi
fi

if want kill; then
	stage "kill: kill -9 aimed into each step of a run, Maildir in and out; a full disk (tests/cli/killmd.sh)"
	mkdir -p build
	if tests/cli/killmd.sh >build/killmd.log 2>&1; then
		grep -E '^  #|^killmd:' build/killmd.log
	else
		grep -E '^  (#|not ok)|^      \||^killmd:' build/killmd.log
		fail "kills on the Maildir default (tests/cli/killmd.sh; log: build/killmd.log)"
	fi
fi

# with_stack NAME SCRIPT: a test that runs real mail servers (root only).
with_stack() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "skipped: $1 needs root (Postfix)"
	elif ! command -v postfix >/dev/null 2>&1 || ! command -v dovecot >/dev/null 2>&1; then
		fail "$1: Postfix or Dovecot is not installed (contrib/deps.sh test installs them)"
	else
		make -s -j"$JOBS" WERROR=1 SAN=1 BUILD=build/san CC=${SAN_CC:-cc} tests ||
			fail "sanitizer build"
		"$2" || fail "$1"
	fi
}

if want mail; then
	stage "mail: real servers (Dovecot, Postfix), plain, under valgrind, under ASan"
	with_stack mail tests/e2e/mail/run.sh
fi

if want hostile; then
	stage "hostile servers: IMAP and SMTP that break at every step (tests/e2e/hostile.sh), plain and under ASan"
	tests/e2e/hostile.sh || fail "hostile servers (tests/e2e/hostile.sh)"
	if make -s -j"$JOBS" WERROR=1 SAN=1 BUILD=build/san CC=${SAN_CC:-cc} tests; then
		BIN=build/san tests/e2e/hostile.sh || fail "hostile servers under ASan (BIN=build/san tests/e2e/hostile.sh)"
	else
		fail "sanitizer build"
	fi
fi

if want e2e; then
	stage "e2e: the judge by mail with real servers; faults; 50 kills (tests/e2e/judge.sh)"
	with_stack e2e tests/e2e/judge.sh
	stage "e2e: OAuth 2.0 sign-in (XOAUTH2, OAUTHBEARER) with Dovecot's oauth2 passdb (tests/e2e/oauth.sh)"
	with_stack "e2e oauth" tests/e2e/oauth.sh
fi

if want faults; then
	stage "faults: a full disk, a read-only file system, the order of syncs (tests/cli/faults.sh)"
	if [ "$(id -u)" -ne 0 ]; then
		echo "skipped: faults needs root (mount)"
	else
		tests/cli/faults.sh || fail "faults (tests/cli/faults.sh)"
	fi
fi

if [ -n "$FAILED" ]; then
	printf '\nFAILED:%s\n' "$FAILED"
	exit 1
fi
printf '\nall checks passed\n'
