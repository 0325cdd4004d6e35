# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/html.sh: --output-format=html (sourced by tests/formats.sh,
# which gives $GPROF, $FIXTURES, $WORK and the helpers).  Every fixture's
# report (and crafted ones: arcs only, a rate of 0, no samples, odd names)
# is well-formed and self-contained (tests/tools/html_check.py); on three
# fixtures its flat profile and call graph equal the text reports, figure
# for figure; on cycle-O0 and cxx headless Chromium (tests/tools/cdp.py)
# loads it without a console error or any request beyond the file, a real
# click on a flat-profile name lands on its call-graph entry, a header
# click sorts, the filter box filters, the page reads with JavaScript off,
# and a screenshot is taken.  Chromium costs ~2 s a page.  Then what the
# page keeps (tests/formats/html_page.py): the picture of a wide graph
# fits 1280 px with main on top, per-call times are non-zero, and the
# page of a big generated profile stays under 10 MB and says what it
# left out.

HT=$WORK/html
mkdir -p "$HT"
HTML_CHECK=$TESTS_DIR/tools/html_check.py
CDP=$TESTS_DIR/tools/cdp.py

html_files() {	# NAME: the fixture's program and profiles, one per line
	printf '%s\n' "$FIXTURES/$1/prog"
	fixture_profiles "$1"
}

# html_run NAME ARGS...: the report into $HT/NAME.html, then checked.
html_run() {
	_h_name=$1
	shift
	if ! "$GPROF" --output-format=html "$@" >"$HT/$_h_name.html" \
	        2>"$HT/$_h_name.err" ||
	   grep -v -e 'warning: ' -e ': diagnosis: ' "$HT/$_h_name.err" | grep -q .; then
		fail "html: $_h_name written" "$(head -5 "$HT/$_h_name.err")"
		return
	fi
	check "html: $_h_name is well-formed and self-contained" \
		python3 "$HTML_CHECK" "$HT/$_h_name.html"
}

html_numbers() {	# NAME FIXTURE [GPROF-OPTIONS]
	_h_name=$1
	_h_fx=$2
	shift 2
	# shellcheck disable=SC2046
	if _h_out=$(python3 "$HTML_CHECK" --numbers "$GPROF" \
	        $(html_files "$_h_fx") -- "$@" 2>&1); then
		pass "html: $_h_name equals the text reports ($(printf '%s' \
			"$_h_out" | head -1))"
	else
		fail "html: $_h_name equals the text reports" \
			"$(printf '%s\n' "$_h_out" | head -10)"
	fi
}

html_browser() {	# NAME FUNCTION: the whole check in Chromium
	if _h_out=$(python3 "$CDP" "$HT/$1.html" --function "$2" \
	        --screenshot "$HT/$1.png" 2>&1); then
		pass "html: $1 in Chromium ($(printf '%s\n' "$_h_out" |
			grep -c '^ok: ') steps)"
	else
		fail "html: $1 in Chromium" "$(printf '%s\n' "$_h_out" | tail -12)"
	fi
}

html_main() {
	need python3 python3 || return
	need chromium chromium || return

	for _h_fx in $(fixture_names); do
		# shellcheck disable=SC2046
		html_run "$_h_fx" $(html_files "$_h_fx")
	done
	# shellcheck disable=SC2046
	html_run callgraph-all --node-threshold=0 --edge-threshold=0 \
		$(html_files callgraph)

	# Crafted profiles of the cycle-O0 program (addresses of the gen-arcs
	# spec) and names that need escaping (an external symbol table).
	_h_prog=$FIXTURES/cycle-O0/prog
	if ${CC:-cc} -O -o "$HT/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c"; then
		grep '^arc' "$FIXTURES/gen-arcs/gmon.out.spec" >"$HT/arcs.spec"
		{ cat "$HT/arcs.spec"
		  echo 'hist 0x1090 0x14c6 539 0 seconds s 180=420 188=77'
		} >"$HT/rate0.spec"
		echo 'hist 0x1090 0x14c6 539 100 seconds s' >"$HT/empty.spec"
		for _h_p in arcs rate0 empty; do
			"$HT/gmon-gen" "$HT/$_h_p.gmon" <"$HT/$_h_p.spec" &&
				html_run "crafted-$_h_p" "$_h_prog" "$HT/$_h_p.gmon"
		done
	else
		fail "html: gmon-gen builds"
	fi
	printf '%s\n' '00000000000011d9 T spin"quote\back' \
		'0000000000001258 T leaf<a&b>' \
		"000000000000126f T ping'</script>" \
		'00000000000012a0 T pong'"$(printf '\377\376')"'x' \
		'0000000000001306 T gr'"$(printf '\303\274')"'n' \
		'0000000000001337 T green' '0000000000001363 T blue' \
		'000000000000138a T fib' '00000000000013cf T main' \
		>"$HT/odd.syms"
	html_run odd-names -S "$HT/odd.syms" "$_h_prog" \
		"$FIXTURES/cycle-O0/gmon.out"
	html_numbers "odd names" cycle-O0 -S "$HT/odd.syms"

	# Figure for figure.
	html_numbers cycle-O0 cycle-O0
	html_numbers cxx cxx
	html_numbers callgraph callgraph
	html_numbers "callgraph -f apply -k fact/fact" callgraph -f apply \
		-k fact/fact

	html_browser cycle-O0 spin
	html_browser cxx 'geometry::Shape::area(double) const'

	html_fit
	html_big
}

# html_page TEST FILE CHECK...: tests/formats/html_page.py's checks.
html_page() {
	_h_t=$1
	shift
	check "html: $_h_t" python3 "$TESTS_DIR/formats/html_page.py" "$@"
}

# The picture fits a screen and opens at main: main calling 50 functions
# (symbols of the cycle-O0 program renamed by -S, a crafted profile) was
# a row of 50 boxes, 9,000 px wide.  And per-call times in a unit of
# their own: the fixtures' functions take microseconds, which the text's
# columns print as 0.00.
html_fit() {
	_h_i=0
	: >"$HT/fan.syms"
	{ echo 'hist 0x1090 0x14c6 539 100 seconds s 416=5'; } >"$HT/fan.spec"
	while [ $_h_i -lt 50 ]; do
		_h_a=$(printf '0x%x' $((0x1090 + 16 * _h_i)))
		printf '%016x T f%02d\n' $((_h_a)) $_h_i >>"$HT/fan.syms"
		echo "hist 0x1090 0x14c6 539 100 seconds s $((8 * _h_i))=20" \
			>>"$HT/fan.spec"
		echo "arc 0x13d5 $_h_a $((_h_i + 1))" >>"$HT/fan.spec"
		_h_i=$((_h_i + 1))
	done
	echo '00000000000013cf T main' >>"$HT/fan.syms"
	if "$HT/gmon-gen" "$HT/fan.gmon" <"$HT/fan.spec"; then
		html_run fan -S "$HT/fan.syms" "$FIXTURES/cycle-O0/prog" \
			"$HT/fan.gmon"
		html_page "a wide call graph's picture fits 1280 px, main on top" \
			"$HT/fan.html" width=1280 main
	else
		fail "html: the fan-out profile is made"
	fi
	for _h_fx in cycle-O0 cxx; do
		html_page "$_h_fx: whole, per-call times non-zero, main on top" \
			"$HT/$_h_fx.html" whole per-call main width=1280
	done
	html_page "callgraph: per-call times non-zero, main on top" \
		"$HT/callgraph.html" per-call main width=1280
}

# A big generated profile (bench/gen.c: 4,000 functions, 60,000 calls,
# one cycle of most of them): the page keeps what a person reads, stays
# under 10 MB (every row made 18 MB) and says what it left out.
html_big() {
	if ! { ${CC:-cc} -O2 -o "$HT/gen" "$ROOT/bench/gen.c" &&
	       "$HT/gen" asm 4000 1 >"$HT/big.s" &&
	       ${CC:-cc} -no-pie -o "$HT/big" "$HT/big.s" &&
	       nm -n -S --defined-only "$HT/big" >"$HT/big.nm" &&
	       "$HT/gen" gmon "$HT/big.nm" 60000 1 "$HT/big.gmon"; }; then
		fail "html: the big generated profile is made"
		return
	fi
	html_run big "$HT/big" "$HT/big.gmon"
	html_page "a big profile's page stays under 10 MB and says what it left out" \
		"$HT/big.html" size=10000000 left-out width=1280
}

html_main
