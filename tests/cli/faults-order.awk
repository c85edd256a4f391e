# faults-order.awk — the order of syncs in one `pouch run`, from its trace:
#
#	strace -f -y -qq -s 12 -o TRACE -e trace=fsync,fdatasync,syncfs,rename,
#	    renameat,renameat2,link,linkat,unlink,unlinkat,openat,write,pwrite64 pouch --data DATA run
#	awk -v data=DATA -f tests/cli/faults-order.awk TRACE
#
# DATA must be an absolute path (the trace then names every file by it).
# What a machine crash may lose is what was not synced; so each step may
# rely only on what is synced (spool/README.md, "Durability, step by
# step"). A file or a name is synced by an fsync of it after it was made,
# or by a syncfs after it was made (a batch's group commit makes every
# file and name of the file system durable at once; DATA is on one file
# system). Checked, each at every place it applies:
#
#   1. a spool pack's bytes are synced (after its last write) before a
#      ledger record is written; an outbox or Maildir file before it is
#      linked into new/ (a sent message's copy is the outbox's file, linked
#      into spool/out/new once the outbox holds it for good);
#   2. a ledger record is written only once the names it lists are synced
#      (an fsync of spool/pack after the last pack was made in it, of
#      spool/out/new after the last link into it);
#   3. a message leaves the judge's inbox (new/ to cur/) only once its
#      ledger record is synced;
#   4. a game state file is synced before it is renamed over the old one,
#      the history records it names are synced before it, and its directory
#      is synced before the ledger marks the messages applied;
#   5. nothing is delivered before the outbox holds it for good: a queued
#      message's bytes (appended to the outbox's pack, spool/pack/outbox.*)
#      synced, and the pack's name, before a journal record names them;
#      the journal synced before the first delivery (an older pouch's
#      queued file: synced, linked into outbox/new, that directory synced);
#   6. a delivered message is synced and published (linked into the
#      recipient's new/, the directory synced) before the ledger records it
#      sent, and it leaves the outbox (its "gone" record in the journal, or
#      an older pouch's file unlinked from outbox/new) only after that
#      record is synced;
#   7. the spool makes no file in in/ (its messages go into packs), and
#      its next-seq is removed, and the spool directory synced, before the
#      first sent message is linked into out/new (a run killed after it
#      must leave none);
#   8. the spool's index (a cache of the ledger, trusted when its header
#      says it is whole for the ledger as it is) has its header written
#      only when every page written into it is synced and the ledger is
#      synced: "whole" never on disk before what it vouches for
#      (spool/README.md, "When the index is trusted").
#
# Prints "ok - ..." / "not ok - ..." per rule with how often it was
# checked (a rule never checked fails: the run did not do what the rule is
# about); exits 1 when any failed.

function q(s, k,    i, n, rest) {	# the k-th quoted string of s
	rest = s
	for (i = 1; i <= k; i++) {
		n = index(rest, "\"")
		if (n == 0)
			return ""
		rest = substr(rest, n + 1)
		n = index(rest, "\"")
		if (i == k)
			return substr(rest, 1, n - 1)
		rest = substr(rest, n + 1)
	}
	return ""
}
function fdpath(s,    a, b) {	# the path of the first fd<path> in s
	a = index(s, "</")
	if (a == 0)
		return ""
	s = substr(s, a + 1)
	b = index(s, ">")
	return substr(s, 1, b - 1)
}
function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
function under(p, sub_) { return index(p, data "/" sub_) == 1 }
function bad(rule, what) {
	if (!(rule in failed))
		failed[rule] = what
	nbad[rule]++
}
function check(rule) { checked[rule]++ }
function synced(p) { lastsync[p] = n }
# Is p durable as it stood at line t: an fsync of it, or a syncfs, since?
function durable(p, t) { return (p in lastsync && lastsync[p] > t) || lastfs > t }

BEGIN {
	if (data == "" || substr(data, 1, 1) != "/") {
		print "not ok - faults-order.awk: give -v data=ABSOLUTE-DATA-DIRECTORY"
		exit 2
	}
	rules[1] = "a spool pack is synced before the ledger is written, a file before it is linked into new/"
	rules[2] = "a ledger record is written only once the names it lists are synced"
	rules[3] = "a message leaves the inbox only once its ledger record is synced"
	rules[4] = "a game state file is synced, with the history it names, before it replaces the old; its directory before the applied marks"
	rules[5] = "nothing is delivered before the outbox holds it for good"
	rules[6] = "a delivery is synced and published before the ledger records it, and leaves the outbox after"
	rules[7] = "the spool makes no file in in/; next-seq is gone for good before it links one into out/"
	rules[8] = "the spool's index header is written only once its pages and the ledger are synced"
	ledger = data "/spool/ledger"
	index_file = data "/spool/index"
}

{
	n = NR
	pid = $1
	line = $0
	if (line ~ /<unfinished \.\.\.>$/) {
		if (line ~ / f(data)?sync\(/)
			pending[pid] = fdpath(line)
		if (line ~ / syncfs\(/)
			pending[pid] = "\001syncfs"
		next
	}
	if (line ~ /<\.\.\. (f(data)?sync|syncfs) resumed>/) {
		if (line ~ /= 0$/ && (pid in pending)) {
			if (pending[pid] == "\001syncfs")
				whole_fs()
			else
				synced(pending[pid])
		}
		delete pending[pid]
		next
	}
	if (line !~ /= 0$/ && line !~ /= [0-9]+(<.*>)?$/)
		next			# failed calls change nothing
}

/ syncfs\(/ {
	whole_fs()
	next
}

/ f(data)?sync\(/ {
	synced(fdpath(line))
	if (fdpath(line) == ledger)
		ledger_dirty = 0
	if (fdpath(line) == index_file)
		index_dirty = 0
	if (fdpath(line) ~ /\/outbox\/meta\/journal\./)
		jdirty[fdpath(line)] = 0
	next
}

/ pwrite64\(/ {
	if (fdpath(line) != index_file)
		next
	at = line
	sub(/\) *= [0-9]+$/, "", at)
	sub(/.*, /, "", at)
	if (at + 0 != 0) {
		index_dirty = 1		# a page
		next
	}
	# 8: the header, whole or not, with nothing unsynced under it
	check(8)
	if (index_dirty)
		bad(8, "index header written at line " n " before its pages were synced")
	if (ledger_dirty)
		bad(8, "index header written at line " n " before the ledger was synced")
	next
}

/ write\(/ {
	p = fdpath(line)
	if (p ~ /\/outbox\/meta\/journal\./) {
		jdirty[p] = 1
		# 5: the bytes a record may name are durable, and their pack's name
		for (f in opackw) {
			check(5)
			if (!durable(f, opackw[f]) || !durable(dir(f), made[f] + 0))
				bad(5, "journal write at line " n " before " f " was synced")
		}
		# 6: a message leaves the outbox once the ledger says it was sent
		if (q(line, 1) ~ /^gone /) {
			check(6)
			if (!out_written || ledger_dirty)
				bad(6, "gone record at line " n " before the ledger's sent record was synced")
		}
	}
	if (under(p, "spool/pack/outbox.") || under(p, "outbox/pack/"))
		opackw[p] = n
	if (under(p, "spool/pack/"))
		packw[p] = n
	if (p != ledger)
		next
	ledger_dirty = 1
	ledger_written = n
	rec = q(line, 1)
	# 1: every pack's bytes are durable
	for (f in packw) {
		check(1)
		if (!durable(f, packw[f]))
			bad(1, "ledger write at line " n " before " f " was synced")
	}
	# 2: the names in spool/pack and spool/out/new are durable
	for (d in lastlink)
		if (d == data "/spool/pack" || d == data "/spool/out/new") {
			check(2)
			if (!durable(d, lastlink[d]))
				bad(2, "ledger write at line " n " before " d " was synced")
		}
	if (rec ~ /^applied/) {
		# 4: the games' directories synced after their state was renamed
		for (d in game_renamed) {
			check(4)
			if (!durable(d, game_renamed[d]))
				bad(4, "applied marks at line " n " before " d " was synced")
		}
		applied_written = 1
	}
	if (rec ~ /^out/) {
		# 6: every delivery published for good
		for (d in lastlink)
			if (index(d, data "/mail/out/") == 1) {
				check(6)
				if (!durable(d, lastlink[d]))
					bad(6, "sent record at line " n " before " d " was synced")
			}
		out_written = n
	}
	next
}

/ link(at)?\(/ {
	from = q(line, 1)
	to = q(line, 2)
	if (under(from, "spool/in/tmp/") || under(from, "spool/out/tmp/") ||
	    under(from, "outbox/tmp/") || (under(from, "mail/out/") && from ~ /\/tmp\//)) {
		check(1)
		if (!durable(from, made[from] + 0))
			bad(1, from " linked at line " n " without a sync")
	}
	# the spool's copy of a sent message: the outbox's file, held for good
	if (under(to, "spool/out/")) {
		check(1)
		if (!under(from, "outbox/new/") || !under(to, "spool/out/new/"))
			bad(1, to " linked at line " n " from " from ", not the outbox's")
		else if (!durable(from, made[from] + 0))
			bad(1, from " linked into the spool at line " n " before the outbox held it for good")
		if (!published) {
			check(7)
			if (!floor_gone || !durable(data "/spool", floor_gone))
				bad(7, to " published at line " n " while next-seq was there")
			published = 1
		}
	}
	if (under(to, "spool/in/")) {
		check(7)
		bad(7, to " linked at line " n)
	}
	lastlink[dir(to)] = n
	made[to] = n
	if (under(to, "outbox/new/"))
		linked_outbox[to] = n
	if (under(from, "mail/inbox/new/"))
		inbox_moved(from)
	next
}

/ rename(at2?)?\(/ {
	from = q(line, 1)
	to = q(line, 2)
	if (under(from, "mail/inbox/new/"))
		inbox_moved(from)
	# a Maildir's tmp/ to new/ (a rename that does not overwrite): as a link
	if (under(from, "outbox/tmp/") || (under(from, "mail/out/") && from ~ /\/tmp\//)) {
		check(1)
		if (!durable(from, made[from] + 0))
			bad(1, from " moved at line " n " without a sync")
		lastlink[dir(to)] = n
		made[to] = n
		if (under(to, "outbox/new/"))
			linked_outbox[to] = n
		next
	}
	if (under(to, "games/") && to ~ /\/history\/[0-9]+\.txt$/) {
		history[to] = n
		lastlink[dir(to)] = n
	}
	if (under(to, "games/") && to ~ /\/game\.txt$/ || to == data "/rates.txt") {
		check(4)
		if (!durable(from, made[from] + 0))
			bad(4, to " replaced at line " n " by an unsynced file")
		if (to ~ /\/game\.txt$/)
			for (h in history)
				if (index(h, dir(to) "/history/") == 1 &&
				    (!durable(h, history[h]) || !durable(dir(h), history[h])))
					bad(4, to " replaced at line " n " before " h " was synced")
		game_renamed[dir(to)] = n
	}
	next
}

/ unlink(at)?\(/ {
	p = q(line, 1)
	if (p == data "/spool/next-seq")
		floor_gone = n
	if (under(p, "mail/inbox/new/"))
		inbox_moved(p)
	if (under(p, "outbox/new/")) {
		check(6)
		if (!out_written || ledger_dirty)
			bad(6, p " left the outbox at line " n " before the ledger's sent record was synced")
	}
	next
}

/ openat\(/ && /O_CREAT/ {
	p = fdpath(substr(line, index(line, ") = ")))
	made[p] = n
	if (under(p, "outbox/tmp/"))
		queued[p] = n
	if (under(p, "spool/pack/")) {
		lastlink[data "/spool/pack"] = n
		check(7)
	}
	if (under(p, "spool/in/") || under(p, "spool/out/")) {
		check(7)
		bad(7, p " made at line " n)
	}
	if (under(p, "mail/out/") && p ~ /\/tmp\//) {
		# 5: a delivery begins; everything queued is durable
		for (f in queued) {
			check(5)
			name = f
			sub(/.*\//, "", name)
			o = data "/outbox/new/" name
			if (!durable(f, queued[f]) || !(o in linked_outbox) ||
			    !durable(data "/outbox/new", lastlink[data "/outbox/new"]))
				bad(5, "delivery at line " n " before " f " was queued for good")
		}
		# the queued bytes and the journals, at the first delivery (then
		# the flush appends what it did, synced at the end of the batch)
		for (f in opackw) {
			if (delivered)
				break
			check(5)
			if (!durable(f, opackw[f]))
				bad(5, "delivery at line " n " before " f " was synced")
		}
		for (j in jdirty) {
			if (delivered)
				break
			check(5)
			if (jdirty[j])
				bad(5, "delivery at line " n " before the journal " j " was synced")
		}
		delivered = 1
	}
	next
}

# A syncfs: everything written so far is durable (the ledger, the journals).
function whole_fs(    j) {
	lastfs = n
	ledger_dirty = 0
	for (j in jdirty)
		jdirty[j] = 0
}

# A message leaves the judge's Maildir inbox: its ledger record is synced.
function inbox_moved(p) {
	check(3)
	if (ledger_dirty || !durable(ledger, ledger_written + 0))
		bad(3, p " moved at line " n " before the ledger was synced")
}

END {
	if (data == "" || substr(data, 1, 1) != "/")
		exit 2
	status = 0
	for (r = 1; r <= 8; r++) {
		if (!(r in checked)) {
			printf "not ok - %d. %s (never checked: the run did not do it)\n", r, rules[r]
			status = 1
		} else if (r in failed) {
			printf "not ok - %d. %s: %d of %d wrong, e.g. %s\n", r, rules[r], nbad[r],
			    checked[r], failed[r]
			status = 1
		} else {
			printf "ok - %d. %s (%d checks)\n", r, rules[r], checked[r]
		}
	}
	exit status
}
