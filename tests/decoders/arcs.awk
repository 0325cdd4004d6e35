# SPDX-License-Identifier: GPL-3.0-or-later
# arcs.awk: the arcs of a call graph printed by `gprof -b -q`, one
# "PARENT CHILD" line each, read from every entry's child lines; with
# -v names=1 the names of the function index instead (with -z, every
# symbol gprof knows), with -v names=2 those of its names whose entries
# are not printed ("(N)" in the index: -E symbols such as mcount).  Cycle-as-a-whole
# entries are skipped (their lines list members, not calls).
function name_of(l, w, n) {
	sub(/ \[[0-9]+\]$/, "", l)
	sub(/ \([0-9]+\)$/, "", l)
	sub(/ <cycle [0-9]+( as a whole)?>$/, "", l)
	n = split(l, w, " ")
	return w[n]
}
/^Index by function name$/ { index_part = 1; next }
index_part {
	l = $0
	while (match(l, /[[(][0-9]+[])] +[^ []+/)) {
		e = substr(l, RSTART, RLENGTH)
		l = substr(l, RSTART + RLENGTH)
		hid = e ~ /^\(/
		sub(/^[^ ]+ +/, "", e)
		if (e !~ /^</ && (names == 1 || (names == 2 && hid)))
			print e
	}
	next
}
/^-+$/ { primary = ""; next }
/^\[[0-9]+\]/ {
	primary = name_of($0)
	whole = $0 ~ /as a whole>/
	next
}
!names && primary != "" && !whole && NF { print primary " " name_of($0) }
