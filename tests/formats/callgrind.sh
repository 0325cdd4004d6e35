# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/callgrind.sh: --output-format=callgrind, sourced by
# tests/formats.sh.  valgrind's callgrind_annotate reads every fixture's
# file, without a warning; its totals and each function's self time and
# sampling error must agree with the flat profile (gprof -b -p
# --sampling-error), and its inclusive costs with the call graph
# (callgrind_check.py).  Then a sampling rate of 0 and an empty profile.

CG_CHECK=$TESTS_DIR/formats/callgrind_check.py

# cg_annotate FILE OUT OPTIONS...: callgrind_annotate, failing on any
# warning (a line it could not read).  It runs from / because it shortens
# source paths under its working folder, which the fixtures' may be.
cg_annotate() {
	_in=$1 _to=$2
	shift 2
	(cd / && callgrind_annotate --threshold=100 --auto=no "$@" "$_in") \
		>"$_to" 2>"$WORK/cga.err" || return 1
	! grep -q . "$WORK/cga.err"
}

# cg_case TEST PROG OPTIONS PROFILE...
cg_case() {
	_t=$1 _p=$2 _o=$3
	shift 3
	# shellcheck disable=SC2086
	if ! "$GPROF" --output-format=callgrind $_o "$_p" "$@" >"$WORK/c.out" \
	    2>"$WORK/c.err"; then
		fail "$_t" "gprof --output-format=callgrind failed:" \
			"$(head -5 "$WORK/c.err")"
		return
	fi
	if ! cg_annotate "$WORK/c.out" "$WORK/c.self" --inclusive=no ||
	   ! cg_annotate "$WORK/c.out" "$WORK/c.incl" --inclusive=yes; then
		fail "$_t" "callgrind_annotate could not read it:" \
			"$(head -5 "$WORK/cga.err")"
		return
	fi
	_flat=$WORK/c.flat
	# shellcheck disable=SC2086
	"$GPROF" -b -p --sampling-error --clones=merge $_o "$_p" "$@" \
		>"$_flat" 2>/dev/null ||
		_flat=-
	# shellcheck disable=SC2086
	"$GPROF" --output-format=json $_o "$_p" "$@" >"$WORK/c.json" 2>/dev/null
	check "$_t" python3 "$CG_CHECK" "$WORK/c.out" "$WORK/c.self" \
		"$WORK/c.incl" "$_flat" "$WORK/c.json"
}

callgrind_tests() {
	for _cf in $(fixture_names); do
		# shellcheck disable=SC2046
		cg_case "callgrind: $_cf read by callgrind_annotate, as the text" \
			"$FIXTURES/$_cf/prog" "" $(fixture_profiles "$_cf")
	done
	cg_case "callgrind: -z and symspecs as the text" \
		"$FIXTURES/callgraph/prog" "-z -Pburn -Qapply" \
		"$FIXTURES/callgraph/gmon.out"

	# A sampling rate of 0: costs are samples, still readable.
	cp "$FIXTURES/cycle-O2/gmon.out" "$WORK/hz0.out"
	printf '\000\000\000\000' |
		dd of="$WORK/hz0.out" bs=1 seek=41 conv=notrunc 2>/dev/null
	cg_case "callgrind: rate 0 gives samples" "$FIXTURES/cycle-O2/prog" "" \
		"$WORK/hz0.out"
	check "callgrind: rate 0: events Samples, total 24" \
		grep -qx 'summary: 24' "$WORK/c.out"

	# Neither histogram nor arcs.
	head -c 20 "$FIXTURES/cycle-O2/gmon.out" >"$WORK/empty.out"
	cg_case "callgrind: empty profile" "$FIXTURES/cycle-O2/prog" "" \
		"$WORK/empty.out"

	# Calls: the arc counts of the call graph.
	"$GPROF" --output-format=callgrind "$FIXTURES/cycle-O2/prog" \
		"$FIXTURES/cycle-O2/gmon.out" >"$WORK/c.out" 2>/dev/null
	# shellcheck disable=SC2016
	check "callgrind: calls are the arcs' counts" awk '
		/^fn=/ { fn = substr($0, 4) }
		/^cfn=/ { cfn = substr($0, 5) }
		/^calls=/ { sub(/^calls=/, ""); n[fn "->" cfn] = $1 }
		END { exit !(n["main->spin"] == 131 && n["fib->fib"] == 364176 &&
		             n["green->leaf"] == 390) }' "$WORK/c.out"
}

if need callgrind_annotate valgrind && need python3 python3; then
	callgrind_tests
fi
