# reasons.awk — every order that failed in a phase's results has its
# reason on the next line (four spaces in), and the reason fits the
# result's tag: a bounce a bounce's words, a cut a cut's, a dislodged unit
# the move that dislodged it, a unit destroyed in a retreat (two retreats
# to one place, or none ordered) what destroyed it, a failed adjustment
# why, a unit removed in civil disorder the removals ordered and due.
#
#	awk -f tests/cli/reasons.awk FILE...
#
# Prints the lines that have no fitting reason and a count; exits 1 when
# there are any.

function flush() {
	if (want != "") {
		bad++
		print FILENAME ": " (reason == "" ? "no reason" : "a reason that does not fit") ": " last
		if (reason != "")
			print "    " reason
	}
	want = ""
	reason = ""
}

# Does reason r fit result line l?
function fits(l, r) {
	if (inadj)
		return r ~ (l ~ /\(\*civil disorder\*\)/ ? "^removed: " : "^failed: ")
	if (inrt)
		return r ~ (l ~ /destroyed\*\)/ ? "^destroyed: .* also retreated to " : "^destroyed: ")
	if (l ~ /\(\*bounce/ && r !~ /^(bounced|failed|did not land|did not board|lost): /)
		return 0
	if (l ~ /\(\*cut/ && r !~ /^support cut: /)
		return 0
	if (l ~ /\(\*void/ && r !~ /^(support void|convoy void|did not land): /)
		return 0
	if (l ~ /\(\*no convoy/ && r !~ /^(no convoy|convoy paradox): /)
		return 0
	if (l ~ /\(\*convoy paradox/ && r !~ /^convoy paradox: /)
		return 0
	if (l ~ /dislodged\*\)/ && r !~ /dislodged by |^lost: /)
		return 0
	return 1
}

/^Movement results/ { flush(); inmv = 1; inrt = 0; inadj = 0; next }
/^Retreat results/ { flush(); inmv = 1; inrt = 1; inadj = 0; next }
/^Adjustment results/ { flush(); inmv = 1; inrt = 0; inadj = 1; next }
/^(=== |Next phase)/ { flush(); inmv = 0; inrt = 0; inadj = 0; next }
inmv && want != "" && /^    [a-z]/ {
	reason = substr($0, 5)
	checked++
	if (fits(want, reason))
		want = ""
	flush()
	next
}
{ flush() }
inmv && /^[A-Z][A-Za-z .'-]*: .*  \(\*/ && !/\(\*illegal/ && !/\(\*disbanded\*\)/ &&
    (inrt || !/\(\*no order\*\)/) {
	want = $0
	last = $0
}
END {
	flush()
	printf "  %d reason lines read; %d failed orders or dislodged units without one that fits\n", checked, bad
	exit bad > 0
}
