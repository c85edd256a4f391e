#!/bin/sh
# manpages.sh — pouch(1) and pouch.conf(5) render clean: groff (-mandoc
# -Tutf8 -ww, 80 columns) gives no warning, no word is rendered with a
# hyphen its source does not give it (a flag macro running on into the
# prose: "-that -the -system"), and every word of the source is in the
# rendered text (a text line read as a request, or eaten by a macro, is
# lost).
#
#	tests/cli/manpages.sh [PAGE ...]   (default the two pages)
#
# Prints "ok - ..." or "not ok - ..." per check; exits 1 when any failed.
set -u
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d /tmp/pouch-man.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
OUT=$WORK/out
ERR=$WORK/warnings
. tests/support/check.sh
export LC_ALL=C

if ! command -v groff >/dev/null 2>&1; then
	echo "  skipped: groff is not installed"
	exit 0
fi
[ $# -gt 0 ] || set -- judge/cli/pouch.1 judge/shell/pouch.conf.5

# The source's words: text lines and the arguments of macro lines (not the
# macro names, not the options of the list and display macros), escapes
# taken out, words of three ASCII letters or more (a word joined with Ns,
# n Ns th, renders as one), one a line, lower case.
source_words() {
	awk '
	/^\.\\"/ { next }
	/^\.(Dd|Dt|Os|Bl|Bd|Ed|El)( |$)/ { next }
	{
		line = $0
		gsub(/\\\(../, " ", line); gsub(/\\\[[^]]*\]/, " ", line)
		gsub(/\\f[BIRP]/, "", line); gsub(/\\[&-]/, "", line); gsub(/\\e/, " ", line)
		if (line ~ /^\./) {
			sub(/^\.[A-Za-z]+/, "", line)
			n = split(line, t, /[ \t]+/)
			line = ""
			for (i = 1; i <= n; i++)
				if (t[i] !~ /^[A-Z][a-z][a-z]?$/) line = line " " t[i]
		}
		while (match(line, /[A-Za-z][A-Za-z][A-Za-z]+/)) {
			print tolower(substr(line, RSTART, RLENGTH))
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1" | sort -u
}

# The words the source marks as flags or writes with a leading hyphen:
# the arguments of .Fl (Fl a b -> -a -b), past a delimiter only those
# written as flags (Fl \-a , \-b -> --a, --b: a bare word there is prose
# the macro swallowed), and every -word or \-word in the text.
source_flags() {
	awk '
	{
		line = $0
		gsub(/\\-/, "-", line)
		if (line ~ /^\.Fl / || line ~ / Fl /) {
			n = split(line, t, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (t[i] != "Fl" && t[i] != ".Fl") continue
				after = 0
				for (k = i + 1; k <= n && t[k] !~ /^[A-Z][a-z][a-z]?$/; k++) {
					if (t[k] ~ /^[][(),.;:|]$/)
						after = 1
					else if (!after || t[k] ~ /^-/)
						print "-" t[k]
				}
			}
		}
		while (match(line, /(^|[^A-Za-z0-9])-[-A-Za-z0-9]+/)) {
			w = substr(line, RSTART, RLENGTH)
			sub(/^[^-]/, "", w)
			print w
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1" | sed 's/[],.;:)]*$//' | sort -u
}

for page in "$@"; do
	name=$(basename "$page")
	groff -mandoc -Tutf8 -ww -rLL=78n -P-cbou "$page" >"$WORK/text" 2>"$ERR"
	expect "$name: groff -mandoc -Tutf8 -ww renders it without a warning" sh -c "[ -s '$WORK/text' ] && [ ! -s '$ERR' ]"
	# Words broken at a line's end ("ev-" "ery") joined again; both forms kept.
	awk -v hy="$(printf '\342\200\220')" '
	{
		line = $0
		while (substr(line, length(line) - 2) == hy && (getline nxt) > 0) {
			sub(/^[ \t]+/, "", nxt)
			line = substr(line, 1, length(line) - 3) nxt
		}
		print line
	}' "$WORK/text" >"$WORK/joined"
	cat "$WORK/text" "$WORK/joined" | tr -c 'A-Za-z\n' '\n' | tr 'A-Z' 'a-z' | grep -E '^..' | sort -u >"$WORK/rendered"
	source_words "$page" >"$WORK/source"
	comm -23 "$WORK/source" "$WORK/rendered" >"$WORK/lost"
	cp "$WORK/lost" "$OUT"
	: >"$ERR"
	expect "$name: every word of the source is rendered" test ! -s "$WORK/lost"
	# Rendered words with a leading hyphen the source does not give them.
	source_flags "$page" >"$WORK/flags"
	tr -s ' \t(["' '\n' <"$WORK/joined" | grep -E '^-+[A-Za-z]' | sed 's/[],.;:)]*$//' | sort -u >"$WORK/hyphened"
	comm -23 "$WORK/hyphened" "$WORK/flags" >"$OUT"
	expect "$name: no word rendered with a stray leading hyphen" test ! -s "$OUT"
done

echo "== man pages: $PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
