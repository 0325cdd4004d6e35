# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/pprof.sh: --output-format=pprof, read by `go tool pprof`
# (sourced by tests/formats.sh, which gives $GPROF, $FIXTURES, $WORK and
# the helpers).  For every fixture: the file is gzip; `-top` lists the
# functions of the flat profile with its self times; `-traces` of the
# calls sample type shows the call graph's arcs with their counts, and
# each function's sampling_error label matches the text's --sampling-error
# column.  Then profiles with no samples, no records at all and a rate of
# 0 must still load.  Each fixture costs two runs of pprof (~0.05 s each).

PP=$WORK/pprof
mkdir -p "$PP/home" "$PP/gocache" "$PP/gopath" "$PP/tmp"

# go tool pprof, kept away from the user's home, caches and the network.
pprof_go() {
	env HOME="$PP/home" GOCACHE="$PP/gocache" GOPATH="$PP/gopath" \
	    GOTOOLCHAIN=local GOPROXY=off GOFLAGS= PPROF_TMPDIR="$PP/tmp" \
	    go tool pprof "$@"
}

# The text flat profile (-b -p --sampling-error) as "name<TAB>self<TAB>err"
# lines, self and err in seconds as printed.
pprof_text_flat() {
	awk '
	started && match($0, /^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ /) {
		split(substr($0, 1, RLENGTH), f, " ")
		rest = substr($0, RLENGTH + 1)
		# the calls and per-call columns, when the function was called
		if (match(rest, /^ *[0-9]+ +[0-9.]+ +[0-9.]+  /))
			rest = substr(rest, RLENGTH + 1)
		sub(/^ +/, "", rest)
		printf "%s\t%s\t%s\n", rest, f[3], f[4]
		next
	}
	/^ *time +seconds/ { started = 1 }'
}

# go tool pprof -top -unit=ns as "name<TAB>flat nanoseconds" lines.
pprof_top_rows() {
	awk '
	started && match($0, /^ *[^ ]+ +[0-9.]+% +[0-9.]+% +[^ ]+ +[0-9.]+% +/) {
		v = $1
		sub(/ns$/, "", v)
		printf "%s\t%s\n", substr($0, RLENGTH + 1), v
		next
	}
	/^ *flat +flat%/ { started = 1 }'
}

# Every pprof row is a flat-profile row of the same name and self time
# (to the text'"'"'s 0.01 s rounding); every flat row with time is in pprof.
# Rows of one name (static functions) pair up in any order.
pprof_cmp_flat() {	# TEXT_ROWS TOP_ROWS
	awk -F '\t' '
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR { n++; name[n] = $1; t[n] = $2 + 0; next }
	{
		s = $2 / 1e9
		for (i = 1; i <= n; i++)
			if (!used[i] && name[i] == $1 && abs(t[i] - s) <= 0.0050001)
				break
		if (i > n) { print "pprof only: " $1 " " s " s"; bad = 1; next }
		used[i] = 1
	}
	END {
		for (i = 1; i <= n; i++)
			if (!used[i] && t[i] != 0) {
				print "text only: " name[i] " " t[i] " s"; bad = 1
			}
		exit bad
	}' "$1" "$2"
}

# The text call graph (-b -q): its arcs as "caller<TAB>callee<TAB>count",
# read from the caller lines above each function'"'"'s own line (every arc
# with calls is there: a called function always has an entry).  Cycles
# as a whole are skipped: their lines are members, not arcs.  Arcs with a
# count of 0 are left out: pprof drops samples whose values are all 0.
pprof_text_arcs() {
	awk '
	function bare(s) {
		sub(/ [[(][0-9]+[])]$/, "", s)
		sub(/ <cycle [0-9]+>$/, "", s)
		return s
	}
	/^-----/ { np = 0; next }
	/^\[[0-9]+\]/ {
		if ($0 ~ /as a whole>/) { np = 0; next }
		match($0, /^\[[0-9]+\] +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9]+(\+[0-9]+)? +)?/)
		callee = bare(substr($0, RLENGTH + 1))
		for (i = 1; i <= np; i++)
			if (cnt[i] > 0)
				printf "%s\t%s\t%s\n", caller[i], callee, cnt[i]
		np = 0
		next
	}
	match($0, /^ +([0-9.]+ +[0-9.]+ +)?[0-9]+(\/[0-9]+)? +/) {
		k = split(substr($0, 1, RLENGTH), f, " ")
		c = f[k]
		sub(/\/.*/, "", c)
		np++
		caller[np] = bare(substr($0, RLENGTH + 1))
		cnt[np] = c
	}'
}

# go tool pprof -sample_index=calls -traces: two-frame samples (callee,
# then caller) to "caller<TAB>callee<TAB>count" on stdout, one-frame
# samples to "name<TAB>sampling_error seconds" in file $1.
pprof_traces() {	# ERRORS_FILE
	awk -v errs="$1" '
	function flush() {
		if (nf == 2 && val > 0)
			printf "%s\t%s\t%s\n", fr[2], fr[1], val
		if (nf == 1 && err != "")
			printf "%s\t%s\n", fr[1], err > errs
		nf = 0; err = ""
	}
	function seconds(v,   u) {
		u = v
		sub(/^[0-9.]+/, "", u)
		v += 0
		if (u == "ns") return v / 1e9
		if (u == "us" || u == "µs") return v / 1e6
		if (u == "ms") return v / 1e3
		if (u == "s" || u == "") return v
		return "unit?" u
	}
	/^-----------\+/ { flush(); next }
	/^ *sampling_error: / { err = seconds($2); next }
	nf == 0 && match($0, /^ *[0-9]+   /) {
		val = $1; nf = 1; fr[1] = substr($0, RLENGTH + 1); next
	}
	nf > 0 && /^             / {
		s = $0; sub(/^ +/, "", s); fr[++nf] = s
	}
	END { flush(); close(errs) }'
}

# Each one-frame sample's error is a flat row's (same name) within the
# text's rounding.
pprof_cmp_errors() {	# TEXT_ROWS ERRORS
	awk -F '\t' '
	function abs(x) { return x < 0 ? -x : x }
	NR == FNR { n++; name[n] = $1; e[n] = $3 + 0; next }
	{
		for (i = 1; i <= n; i++)
			if (!used[i] && name[i] == $1 && abs(e[i] - $2) <= 0.0050001)
				break
		if (i > n) { print "error " $2 " s of " $1 ": no such row"; bad = 1; next }
		used[i] = 1
	}
	END { exit bad }' "$1" "$2"
}

# pprof adds up functions of one name, so the profile qualifies names
# that several functions share: "helper (a.c)", or "helper (0x1247)"
# without debug information.  This takes the qualifier off the names in
# tab-separated columns COLS of stdin that file NAMES (the text's, in its
# first column) does not have.
pprof_unqualify() {	# NAMES COLS
	awk -F '\t' -v OFS='\t' -v cols="$2" '
	NR == FNR { known[$1] = 1; next }
	{
		for (k = 1; k <= length(cols); k++) {
			c = substr(cols, k, 1)
			if (!($c in known) &&
			    $c ~ / \(([^ ()]+\.[A-Za-z0-9+]+|0x[0-9a-f]+)\)$/)
				sub(/ \([^ ()]+\)$/, "", $c)
		}
		print
	}' "$1" -
}

# One fixture: write, gzip -t, -top against the flat profile.
pprof_check_flat() {	# NAME PROFILES...
	_n=$1
	shift
	_p=$PP/$_n.pb.gz
	"$GPROF" --output-format=pprof --output="$_p" \
	    "$FIXTURES/$_n/prog" "$@" 2>"$PP/$_n.err" ||
		{ cat "$PP/$_n.err"; return 1; }
	gzip -t "$_p" || return 1
	"$GPROF" -b -p --sampling-error --clones=merge "$FIXTURES/$_n/prog" \
	    "$@" 2>/dev/null |
		pprof_text_flat >"$PP/$_n.flat"
	pprof_go -top -nodecount=100000 -nodefraction=0 -edgefraction=0 \
	    -unit=ns "$_p" >"$PP/$_n.top" 2>&1 ||
		{ cat "$PP/$_n.top"; return 1; }
	pprof_top_rows <"$PP/$_n.top" |
		pprof_unqualify "$PP/$_n.flat" 1 >"$PP/$_n.toprows"
	[ -s "$PP/$_n.flat" ] || { echo "no flat profile rows"; return 1; }
	pprof_cmp_flat "$PP/$_n.flat" "$PP/$_n.toprows"
}

# One fixture: call counts and sampling errors from -traces.
pprof_check_calls() {	# NAME PROFILES...
	_n=$1
	shift
	pprof_go -sample_index=calls -traces "$PP/$_n.pb.gz" \
	    >"$PP/$_n.traces" 2>&1 || { cat "$PP/$_n.traces"; return 1; }
	: >"$PP/$_n.perrors"
	pprof_traces "$PP/$_n.perrors" <"$PP/$_n.traces" |
		pprof_unqualify "$PP/$_n.flat" 12 | sort >"$PP/$_n.parcs"
	pprof_unqualify "$PP/$_n.flat" 1 <"$PP/$_n.perrors" >"$PP/$_n.errors"
	"$GPROF" -b -q --clones=merge "$FIXTURES/$_n/prog" "$@" 2>/dev/null |
		pprof_text_arcs | sort >"$PP/$_n.tarcs"
	diff "$PP/$_n.tarcs" "$PP/$_n.parcs" || return 1
	pprof_cmp_errors "$PP/$_n.flat" "$PP/$_n.errors"
}

pprof_fixtures() {
	for _f in $(fixture_names); do
		# shellcheck disable=SC2046 # profile paths have no blanks
		check "pprof $_f: gzip; -top shows the flat profile's self times" \
		    pprof_check_flat "$_f" $(fixture_profiles "$_f")
		# shellcheck disable=SC2046
		check "pprof $_f: -traces shows the arcs' calls and the errors" \
		    pprof_check_calls "$_f" $(fixture_profiles "$_f")
	done
	# The checks must have compared something: the cycle and C++ arcs.
	for _f in cycle-O0 cxx; do
		check "pprof $_f: arcs were compared" \
		    test "$(wc -l <"$PP/$_f.parcs")" -gt 5
		check "pprof $_f: errors were compared" test -s "$PP/$_f.errors"
	done
}

# Crafted profiles (cycle-O0's program, tests/tools/gmon-gen): no sample,
# no record at all, and a rate of 0 (times unknown: cpu values are 0, the
# samples and calls still count).
pprof_check_edge() {	# NAME SPEC EXPECT_IN_TRACES
	printf '%s\n' "$2" | "$PP/gmon-gen" "$PP/$1.gmon" || return 1
	"$GPROF" --output-format=pprof "$FIXTURES/cycle-O0/prog" "$PP/$1.gmon" \
	    >"$PP/$1.pb.gz" 2>/dev/null || return 1
	gzip -t "$PP/$1.pb.gz" || return 1
	pprof_go -top "$PP/$1.pb.gz" >"$PP/$1.top" 2>&1 ||
		{ cat "$PP/$1.top"; return 1; }
	grep -q 'of 0 total' "$PP/$1.top" || { cat "$PP/$1.top"; return 1; }
	pprof_go -sample_index=calls -traces "$PP/$1.pb.gz" \
	    >"$PP/$1.traces" 2>&1 || { cat "$PP/$1.traces"; return 1; }
	[ -z "$3" ] || grep -q "$3" "$PP/$1.traces" ||
		{ cat "$PP/$1.traces"; return 1; }
}

pprof_edges() {
	if ! ${CC:-cc} -O -o "$PP/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" \
	    2>"$PP/cc.err"; then
		fail "pprof: build tests/tools/gmon-gen" "$(cat "$PP/cc.err")"
		return
	fi
	check "pprof: a profile with zero samples loads" \
	    pprof_check_edge zero 'hist 0x1090 0x14c6 539 100 seconds s' ''
	check "pprof: a profile with no records loads" \
	    pprof_check_edge empty 'version 1' ''
	check "pprof: a profile with rate 0 loads, its calls intact" \
	    pprof_check_edge hz0 "$(printf '%s\n' \
	        'hist 0x1090 0x14c6 539 0 seconds s 180=420 188=77' \
	        'arc 0x13ff 0x126f 130')" '^ *130   ping$'
}

if need go golang-go && need gzip gzip; then
	pprof_fixtures
	pprof_edges
fi
