# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/flame.sh: --output-format=flame (sourced by
# tests/formats.sh, which gives $GPROF, $FIXTURES, $WORK and the helpers).
# From side files of random call stacks of the cycle-O0 program
# (tests/formats/stacks_gen.py): the SVG parses as XML, is
# self-contained, its frames hold the generated samples (the root all of
# them, each leaf-most frame what the folded truth gives)
# (tests/formats/flame_check.py); then headless Chromium opens it with
# no console error, a click zooms and the search box highlights
# (tests/tools/cdp.py --flame).  A profile without stacks: status 1.

FL=$WORK/flame
mkdir -p "$FL"

flame_main() {
	need python3 python3 || return
	_l_prog=$STACKS_PROG
	if ! stacks_setup "$FL"; then
		fail "flame: gmsl-gen builds"
		return
	fi
	for _l_seed in 4 5; do
		stacks_seed "$FL" "$_l_seed" || {
			fail "flame: seed $_l_seed generated"; continue; }
		_l_total=$(awk '{ n += $NF } END { print n }' "$FL/want")
		# main is every stack's outermost frame: it holds every sample.
		if ! "$GPROF" --output-format=flame "$_l_prog" "$FL/gmon.out" \
		        > "$FL/$_l_seed.svg" 2> "$FL/err" ||
		   grep -v ': diagnosis: ' "$FL/err" | grep -q .; then
			fail "flame: seed $_l_seed written" "$(head -5 "$FL/err")"
			continue
		fi
		check "flame: seed $_l_seed is well-formed with the samples" \
			python3 "$TESTS_DIR/formats/flame_check.py" "$FL/$_l_seed.svg" \
			--total "$_l_total" --samples "main=$_l_total"
	done
	if need chromium chromium; then
		if _l_out=$(python3 "$TESTS_DIR/tools/cdp.py" "$FL/5.svg" \
		        --flame main --screenshot "$FL/5.png" 2>&1); then
			pass "flame: in Chromium ($(printf '%s\n' "$_l_out" |
				grep -c '^ok: ') steps)"
		else
			fail "flame: in Chromium" "$(printf '%s\n' "$_l_out" | tail -12)"
		fi
	fi
	rm -f "$FL/gmon.out.shlibs"
	"$GPROF" --output-format=flame "$_l_prog" "$FL/gmon.out" \
		> "$FL/out" 2> "$FL/err"
	_l_rc=$?
	if [ $_l_rc -eq 1 ] && [ ! -s "$FL/out" ] && grep -q GMON_STACKS=1 "$FL/err"
	then
		pass "flame: no stacks is status 1"
	else
		fail "flame: no stacks is status 1" "status $_l_rc"
	fi
}
flame_main
