# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/folded.sh: --output-format=folded (sourced by
# tests/formats.sh, which gives $GPROF, $FIXTURES, $WORK and the helpers).
# Side files with random call stacks of the cycle-O0 program in two threads
# (tests/formats/stacks_gen.py, written by tests/tools/gmsl-gen.c) must
# give exactly the stacks and counts generated, lines sorted and distinct,
# counts summing to the samples; the same with the stacks of two runs
# summed; speedscope (from npm) shows each function's total and self
# samples as the folded lines imply.  A profile without stacks: one message naming GMON_STACKS=1,
# status 1, nothing on standard output.

FO=$WORK/folded
mkdir -p "$FO"

folded_main() {
	need python3 python3 || return
	_f_prog=$STACKS_PROG
	if ! stacks_setup "$FO"; then
		fail "folded: gmsl-gen builds"
		return
	fi
	cp "$FO/gmon.out" "$FO/gmon.2"
	for _f_seed in 1 2 3; do
		stacks_seed "$FO" "$_f_seed" || {
			fail "folded: seed $_f_seed generated"; continue; }
		_f_total=$(awk '{ n += $NF } END { print n }' "$FO/want")
		if ! "$GPROF" --output-format=folded "$_f_prog" "$FO/gmon.out" \
		        > "$FO/out" 2> "$FO/err" ||
		   grep -v ': diagnosis: ' "$FO/err" | grep -q .; then
			fail "folded: seed $_f_seed written" "$(head -5 "$FO/err")"
			continue
		fi
		check "folded: seed $_f_seed gives the generated stacks" \
			python3 "$TESTS_DIR/formats/folded_check.py" "$FO/out" \
			--total "$_f_total" --expect "$FO/want"
	done
	# A real consumer: speedscope (npm) reads the last seed's stacks.
	if _f_out=$(python3 "$TESTS_DIR/tools/speedscope_check.py" "$FO/out" 2>&1); then
		pass "folded: read by speedscope ($(printf '%s\n' "$_f_out" | tail -1))"
	else
		fail "folded: read by speedscope" "$(printf '%s\n' "$_f_out" | tail -8)"
	fi
	# Two runs summed: every count doubles (gmon.2 has the same stacks).
	cp "$FO/gmon.out.shlibs" "$FO/gmon.2.shlibs"
	awk '{ $NF = 2 * $NF; print }' "$FO/want" > "$FO/want2"
	if "$GPROF" --output-format=folded "$_f_prog" "$FO/gmon.out" \
	        "$FO/gmon.2" > "$FO/out2" 2> "$FO/err"; then
		check "folded: two runs sum" python3 \
			"$TESTS_DIR/formats/folded_check.py" "$FO/out2" \
			--expect "$FO/want2"
	else
		fail "folded: two runs sum" "$(head -5 "$FO/err")"
	fi
	# No stacks: the reason, once.
	rm -f "$FO/gmon.out.shlibs"
	refused "folded: no stacks is one message and status 1" "$FO" \
		'GMON_STACKS=1' "$GPROF" --output-format=folded "$_f_prog" "$FO/gmon.out"
}
folded_main
