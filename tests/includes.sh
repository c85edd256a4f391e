#!/bin/sh
# includes.sh — the house's rules, checked over the #include lines of every
# source file (ARCHITECTURE.md, "What each folder may include"):
#   * a folder includes only the folders (or single headers) its row allows;
#   * no two folders include each other;
#   * the rules engine (judge/engine/) includes only the pure helpers of
#     lib/ and the C library's pure headers, and calls nothing that reads
#     or writes files, the clock, the environment or random numbers;
#   * the mail judge (judge/, judge/systems/) reads no clock, environment
#     or random numbers itself: they come through struct judge_io;
#   * no source calls what STYLE.md bans (strcpy, strcat, sprintf, strtok,
#     atoi, sscanf, gets).
#   * no rule system or option of one is named outside its module
#     (tests/names.sh).
# Prints every breach with its file and line; exits 1 when there is one.
#
# Usage: tests/includes.sh
set -euf
cd "$(dirname "$0")/.."

# The pure helpers of lib/: no I/O, no clock, no process state.
PURE="lib/buf.h lib/grow.h lib/scan.h lib/sha256.h lib/str.h lib/strset.h lib/strv.h lib/tz.h lib/xalloc.h"

# FOLDER: what its files may include besides their own folder. A word
# ending in .h allows that header alone; "pure" stands for $PURE; "*"
# allows anything.
RULES="
lib: lib
judge/engine: pure
parser: judge/engine pure
maps: judge/engine lib
spool: lib
mailer: spool lib
judge: judge/engine parser mailer/message.h maps/pages.h pure
judge/systems: judge judge/engine parser pure
judge/shell: judge judge/systems judge/engine parser maps mailer spool lib
judge/casefiles: judge/shell judge judge/systems judge/engine parser maps lib
judge/cli: *
"

# C library headers the engine may include.
ENGINE_STD="assert.h ctype.h limits.h stdarg.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h"
# Calls the engine may not make (I/O, clock, environment, randomness).
ENGINE_CALLS='\<(fopen|fdopen|freopen|fclose|fread|fwrite|fgets|fputs|fprintf|printf|puts|putchar|getchar|perror|open|openat|close|read|write|unlink|rename|stat|fstat|time|clock|clock_gettime|gettimeofday|localtime|localtime_r|gmtime|mktime|rand|srand|random|arc4random|getrandom|getenv|setenv|putenv|tzset|system|exit)[[:space:]]*\('

# Calls the mail judge (judge/, judge/systems/) may not make: the clock, the
# environment and randomness come through struct judge_io from the shell.
JUDGE_CALLS='(^|[^.>_[:alnum:]])(time|clock|clock_gettime|gettimeofday|rand|srand|random|arc4random|getrandom|getentropy|getenv)[[:space:]]*\('

# Calls no source makes (STYLE.md): each has a bounded or checked form.
BANNED_CALLS='(^|[^.>_[:alnum:]])(strcpy|strcat|sprintf|strtok|atoi|sscanf|gets)[[:space:]]*\('

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every project include as "FILE LINE FROMDIR TARGET" (TARGET relative to
# the top), and every system include of the engine as "FILE LINE HEADER".
git ls-files '*.c' '*.h' | grep -v '^tests/\|^contrib/' | while read -r f; do
	d=$(dirname "$f")
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
	    sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' | while read -r n inc; do
		t=$(realpath -m --relative-to=. "$d/$inc")
		echo "$f $n $d $t"
	done
	case $d in judge/engine)
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' "$f" |
		    sed 's/^\([0-9]*\):.*<\(.*\)>.*/\1 \2/' | while read -r n h; do
			echo "$f $n $h"
		done >>"$tmp/std"
	esac
done >"$tmp/incs"

fail=0
breach() { echo "  not allowed: $*"; fail=1; }

# 1. Each include against its folder's row.
while read -r f n d t; do
	td=$(dirname "$t")
	[ "$td" = "$d" ] && continue
	row=$(printf '%s\n' "$RULES" | sed -n "s|^$d: ||p")
	if [ -z "$row" ]; then
		breach "$f:$n: folder $d has no row in the rules (tests/includes.sh)"
		continue
	fi
	ok=0
	for a in $row; do
		case $a in
		'*') ok=1 ;;
		pure) case " $PURE " in *" $t "*) ok=1 ;; esac ;;
		*.h) [ "$a" = "$t" ] && ok=1 ;;
		*) [ "$a" = "$td" ] && ok=1 ;;
		esac
	done
	[ $ok = 1 ] || breach "$f:$n: $d includes $t"
done <"$tmp/incs"

# 2. No two folders include each other.
awk '{ d = $4; sub("/[^/]*$", "", d); if ($3 != d) print $3, d }' "$tmp/incs" |
    sort -u >"$tmp/pairs"
while read -r a b; do
	if grep -qx "$b $a" "$tmp/pairs"; then
		[ "$a" \< "$b" ] && breach "$a and $b include each other"
	fi
done <"$tmp/pairs"

# 3. The engine's C library headers and calls.
touch "$tmp/std"
while read -r f n h; do
	case " $ENGINE_STD " in *" $h "*) ;; *) breach "$f:$n: the engine includes <$h>" ;; esac
done <"$tmp/std"
for f in $(git ls-files 'judge/engine/*.[ch]'); do
	# Comments and strings are not calls.
	sed 's|/\*.*\*/||g; s|"[^"]*"|""|g' "$f" | grep -nE "$ENGINE_CALLS" |
	    sed "s|^|$f:|" | while read -r hit; do
		echo "  not allowed: $hit (the engine is pure)"
	done
done >"$tmp/calls"
# 4. The mail judge's clock and randomness come from the shell.
for f in $(git ls-files 'judge/*.[ch]' 'judge/systems/*.[ch]'); do
	case $f in judge/engine/* | judge/shell/* | judge/cli/* | judge/casefiles/*) continue ;; esac
	sed 's|/\*.*\*/||g; s|"[^"]*"|""|g; s|^[[:space:]]*\*.*||' "$f" | grep -nE "$JUDGE_CALLS" |
	    sed "s|^|$f:|" | while read -r hit; do
		echo "  not allowed: $hit (the judge's clock and randomness come from the shell)"
	done
done >>"$tmp/calls"
# 5. No banned calls.
git ls-files '*.c' '*.h' | grep -v '^tests/\|^contrib/' | while read -r f; do
	sed 's|/\*.*\*/||g; s|"[^"]*"|""|g; s|^[[:space:]]*\*.*||' "$f" | grep -nE "$BANNED_CALLS" |
	    sed "s|^|$f:|" | while read -r hit; do
		echo "  not allowed: $hit (a banned call, STYLE.md)"
	done
done >>"$tmp/calls"
if [ -s "$tmp/calls" ]; then
	cat "$tmp/calls"
	fail=1
fi

nf=$(cut -d' ' -f1 "$tmp/incs" | sort -u | wc -l)
ni=$(wc -l <"$tmp/incs")
if [ $fail = 0 ]; then
	echo "includes: $ni project includes in $nf files follow the rules; no two folders include each other; the engine is pure; the judge takes its clock and randomness from the shell; no banned calls"
fi
# No rule system named outside its module.
tests/names.sh || fail=1
exit $fail
