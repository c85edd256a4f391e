#!/bin/sh
# names.sh — no rule system is named outside its own module: the names of a
# system and of its variant options ("realpolitik", "insurrection", ...) as
# strings in the code, and fields named after them (rules.realpolitik), are
# tested only in the system's own files (judge/systems/NAME*,
# judge/engine/NAME*, maps/NAME*). Everyone else asks what the rules do
# (judge/engine/resolver.h: RULES_STACKS, RULES_BOARDING, RULES_REVIVAL,
# RULES_POINTS) or what a system serves; which system plays a variant
# naming none is for each system's module to say (serves_variant). Tests,
# tools and documents may name anything. Comments are not read, nor the
# words of the order grammar (parser/: K("insurrection", KW_...)), which
# are what players write, not options tested. Prints every breach with its
# file and line; exits 1 when there is one. Run by tests/includes.sh.
#
# Usage: tests/names.sh
set -euf
cd "$(dirname "$0")/.."

# SYSTEM: the names only its files may test | the globs of its files.
OWNERS="
realpolitik: realpolitik | judge/systems/realpolitik* judge/engine/realpolitik* maps/realpolitik/*
muna: muna insurrection victory-points control-bonus speech silent-phases | judge/systems/muna* judge/engine/muna* maps/muna*/*
worldgame: worldgame war | judge/systems/worldgame* judge/engine/war* maps/worldgame/*
"

# Hits allowed for now, each "FILE NAME MOST": FILE may name NAME on at
# most MOST lines. None is left (a rule system's settings are its own,
# struct system_setting): the table only shrinks.
ALLOWED="
"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every C source outside tests/ and contrib/ as "FILE:LINE:TEXT", its
# comments removed.
git ls-files '*.c' '*.h' | grep -v '^tests/\|^contrib/' | while read -r f; do
	awk -v f="$f" '{
		out = ""; s = $0
		while (s != "") {
			if (inc) {
				i = index(s, "*/")
				if (i == 0) { s = ""; break }
				s = substr(s, i + 2); inc = 0
			} else {
				i = index(s, "/*"); j = index(s, "//")
				if (j > 0 && (i == 0 || j < i)) { out = out substr(s, 1, j - 1); s = ""; break }
				if (i == 0) { out = out s; s = ""; break }
				out = out substr(s, 1, i - 1); s = substr(s, i + 2); inc = 1
			}
		}
		if (f ~ /^parser\//)
			gsub(/(^|[^A-Za-z0-9_])KD?\("[^"]*",/, " K(", out)
		if (out ~ /[^ \t]/) print f ":" NR ":" out
	}' "$f"
done >"$tmp/code"

fail=0
printf '%s\n' "$OWNERS" | grep . | while IFS='|' read -r names globs; do
	sys=${names%%:*}
	names=${names#*:}
	for n in $names; do
		field=$(printf '%s' "$n" | tr '-' '_')
		grep -E "\"$n\"|(\.|->)$field([^A-Za-z0-9_]|$)" "$tmp/code" | while IFS=: read -r f l text; do
			own=0
			for g in $globs; do
				case $f in $g) own=1 ;; esac
			done
			[ $own = 1 ] || echo "$f $n $l $sys"
		done
	done
done >"$tmp/hits"

# Count each FILE NAME against the allowed table.
cut -d' ' -f1,2 "$tmp/hits" | sort | uniq -c | while read -r count f n; do
	most=$(printf '%s\n' "$ALLOWED" | awk -v f="$f" -v n="$n" '$1 == f && $2 == n { print $3 }')
	if [ -z "$most" ] || [ "$count" -gt "$most" ]; then
		grep "^$f $n " "$tmp/hits" | while read -r hf hn hl hs; do
			echo "  not allowed: $hf:$hl: names \"$hn\" (rule system $hs) outside its module"
		done
	fi
done >"$tmp/breach"

if [ -s "$tmp/breach" ]; then
	cat "$tmp/breach"
	exit 1
fi
echo "names: no rule system or option of one named outside its module ($(wc -l <"$tmp/hits") allowed for now)"
