# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/dot.sh: --output-format=dot, read by Graphviz's dot (sourced
# by tests/formats.sh, which gives $GPROF, $FIXTURES, $WORK and the
# helpers).  Every fixture's DOT (with the default thresholds and with
# none) renders to SVG and PNG with nothing on dot's stderr; so do crafted
# profiles (arcs only, a rate of 0, no samples) and names full of quotes,
# backslashes, <, >, & and bytes that are not UTF-8.  tests/tools/dot_check.py
# then compares the labels, as dot reads them, with the text call graph
# (gprof -b -q): on cycle-O0 (its cycles as clusters), cxx and callgraph,
# with the thresholds, and with the symspecs -f, -e, -E, -F and -k.

DT=$WORK/dot
mkdir -p "$DT"
DOT_CHECK=$TESTS_DIR/tools/dot_check.py

dot_files() {	# NAME: the fixture's program and profiles, one per line
	printf '%s\n' "$FIXTURES/$1/prog"
	fixture_profiles "$1"
}

dot_is_png() {	# FILE
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# dot_render NAME DOTFILE: SVG and PNG, dot silent, outputs sane.
dot_render() {
	_d_err=$DT/$1.err
	if ! dot -Tsvg "$2" -o "$DT/$1.svg" 2>"$_d_err" || [ -s "$_d_err" ]; then
		fail "dot: $1 renders to SVG" "$(head -5 "$_d_err")"
		return
	fi
	if ! dot -Tpng "$2" -o "$DT/$1.png" 2>"$_d_err" || [ -s "$_d_err" ]; then
		fail "dot: $1 renders to PNG" "$(head -5 "$_d_err")"
		return
	fi
	if ! grep -q '<svg' "$DT/$1.svg" || ! dot_is_png "$DT/$1.png"; then
		fail "dot: $1 renders to SVG and PNG" "not an SVG or not a PNG"
		return
	fi
	pass "dot: $1 renders to SVG and PNG"
}

# dot_run NAME ARGS...: gprof's DOT into $DT/NAME.dot, then rendered.
dot_run() {
	_d_name=$1
	shift
	if ! "$GPROF" --output-format=dot "$@" >"$DT/$_d_name.dot" \
	        2>"$DT/$_d_name.gprof-err"; then
		fail "dot: $_d_name written" "$(head -5 "$DT/$_d_name.gprof-err")"
		return
	fi
	if grep -v -e 'warning: ' -e ': diagnosis: ' "$DT/$_d_name.gprof-err" | grep -q .; then
		fail "dot: $_d_name written" "$(head -5 "$DT/$_d_name.gprof-err")"
		return
	fi
	dot_render "$_d_name" "$DT/$_d_name.dot"
}

# dot_check NAME FIXTURE [CHECK-FLAGS] [-- GPROF-OPTIONS]: labels against
# the text call graph.
dot_check() {
	_d_name=$1
	_d_fx=$2
	shift 2
	_d_flags=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_d_flags="$_d_flags $1"
		shift
	done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2046,SC2086
	if _d_out=$(python3 "$DOT_CHECK" $_d_flags "$GPROF" \
	        $(dot_files "$_d_fx") -- "$@" 2>&1); then
		pass "dot: $_d_name ($(printf '%s' "$_d_out" | head -1))"
	else
		fail "dot: $_d_name" "$(printf '%s\n' "$_d_out" | head -12)"
	fi
	printf '%s\n' "$_d_out" | head -1 >"$DT/$(dot_slug "$_d_name").count"
}

dot_slug() {	# NAME: a file name for it
	printf '%s' "$1" | tr -c 'A-Za-z0-9.-' '_'
}

dot_count() {	# NAME WHAT: nodes or edges that dot_check counted
	sed -n "s/.*$2=\([0-9]*\).*/\1/p" "$DT/$(dot_slug "$1").count"
}

dot_main() {
	need dot graphviz || return
	need python3 python3 || return

	# Every fixture, as drawn by default and with nothing pruned.
	for _d_fx in $(fixture_names); do
		# shellcheck disable=SC2046
		dot_run "$_d_fx" $(dot_files "$_d_fx")
		# shellcheck disable=SC2046
		dot_run "$_d_fx-all" --node-threshold=0 --edge-threshold=0 \
			$(dot_files "$_d_fx")
	done

	# Crafted profiles of the cycle-O0 program (its addresses are those
	# of the gen-arcs spec): arcs only, a rate of 0, no sample at all.
	_d_prog=$FIXTURES/cycle-O0/prog
	if ${CC:-cc} -O -o "$DT/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c"; then
		grep '^arc' "$FIXTURES/gen-arcs/gmon.out.spec" >"$DT/arcs.spec"
		{ cat "$DT/arcs.spec"
		  echo 'hist 0x1090 0x14c6 539 0 seconds s 180=420 188=77'
		} >"$DT/rate0.spec"
		echo 'hist 0x1090 0x14c6 539 100 seconds s' >"$DT/empty.spec"
		for _d_p in arcs rate0 empty; do
			"$DT/gmon-gen" "$DT/$_d_p.gmon" <"$DT/$_d_p.spec" &&
				dot_run "crafted-$_d_p" "$_d_prog" "$DT/$_d_p.gmon"
		done
	else
		fail "dot: gmon-gen builds"
	fi

	# Names that need escaping, through an external symbol table (-S):
	# quotes, backslashes, <, >, &, bytes that are not UTF-8, UTF-8, and
	# one longer than a label holds.
	printf '%s\n' '00000000000011d9 T spin"quote\back' \
		'0000000000001258 T leaf<a&b>' \
		'000000000000126f T ping\n\"' \
		'00000000000012a0 T pong'"$(printf '\377\376')"'x' \
		'0000000000001306 T gr'"$(printf '\303\274')"'n' \
		'0000000000001337 T green_with_a_name_much_longer_than_any_label_can_hold_0123456789' \
		'0000000000001363 T blue' '000000000000138a T fib' \
		'00000000000013cf T main' '00000000000014a0 t atexit' \
		>"$DT/odd.syms"
	dot_run odd-names -S "$DT/odd.syms" "$_d_prog" \
		"$FIXTURES/cycle-O0/gmon.out"
	dot_check "odd names as drawn" cycle-O0 --complete -- -S "$DT/odd.syms" \
		--node-threshold=0 --edge-threshold=0

	# Labels equal to the text call graph's.
	for _d_fx in cycle-O0 cxx callgraph; do
		dot_check "$_d_fx labels" "$_d_fx"
		dot_check "$_d_fx labels, nothing pruned" "$_d_fx" --complete -- \
			--node-threshold=0 --edge-threshold=0
	done
	if grep -q 'subgraph cluster_cycle1 ' "$DT/cycle-O0.dot" &&
	   grep -q 'subgraph cluster_cycle2 ' "$DT/cycle-O0.dot"; then
		pass "dot: cycle-O0 draws its two cycles as clusters"
	else
		fail "dot: cycle-O0 draws its two cycles as clusters"
	fi

	# Thresholds prune, and what stays is over them.
	dot_check "node threshold 50" cycle-O0 --min-node 50 -- \
		--node-threshold=50
	if [ "$(dot_count "node threshold 50" nodes)" -lt \
	     "$(dot_count "cycle-O0 labels" nodes)" ]; then
		pass "dot: --node-threshold=50 draws fewer functions"
	else
		fail "dot: --node-threshold=50 draws fewer functions" \
			"$(cat "$DT/$(dot_slug "node threshold 50").count")"
	fi
	dot_check "edge threshold 20" callgraph --min-edge 20 -- \
		--edge-threshold=20
	if [ "$(dot_count "edge threshold 20" edges)" -lt \
	     "$(dot_count "callgraph labels" edges)" ]; then
		pass "dot: --edge-threshold=20 draws fewer calls"
	else
		fail "dot: --edge-threshold=20 draws fewer calls" \
			"$(cat "$DT/$(dot_slug "edge threshold 20").count")"
	fi

	# Symspecs: the drawing follows the text call graph.
	for _d_spec in "-f apply" "-e burn" "-E fact" "-F ping" "-k main/fact"; do
		# shellcheck disable=SC2086
		dot_check "symspec $_d_spec" callgraph --complete -- $_d_spec \
			--node-threshold=0 --edge-threshold=0
	done
	# shellcheck disable=SC2046
	"$GPROF" --output-format=dot -k main/fact $(dot_files callgraph) \
		>"$DT/k.dot" 2>/dev/null
	if grep -q 'tooltip="main -> fact\\n' "$DT/callgraph.dot" &&
	   ! grep -q 'tooltip="main -> fact\\n' "$DT/k.dot"; then
		pass "dot: -k main/fact removes that call"
	else
		fail "dot: -k main/fact removes that call"
	fi
	# shellcheck disable=SC2046
	"$GPROF" --output-format=dot -f apply $(dot_files callgraph) \
		>"$DT/f.dot" 2>/dev/null
	if ! grep -q 'label="main \[' "$DT/f.dot" &&
	   grep -q 'label="apply \[' "$DT/f.dot"; then
		pass "dot: -f apply draws apply and not main"
	else
		fail "dot: -f apply draws apply and not main"
	fi
}

dot_main
