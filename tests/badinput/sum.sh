# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/sum.sh: bad-input cases of -s: a corrupt second profile must
# leave an existing gmon.sum untouched (CHECK=sum-preserved), and a
# gmon.sum that is a folder cannot be written.
# Sourced by tests/badinput.sh.  Each case ID has a function case_ID (with
# "_" for "-") that runs in a fresh directory holding a copy of the
# fixture's prog, writes the case's inputs there and sets ARGS (gprof's
# arguments) and, for a check of its own, CHECK; the fixture's profile is
# $g, its histogram range $low..$high in $nb bins, its histogram record
# $histlen bytes long (see setup_case).  The byte writers are in inputs.sh.

# (ARGS and CHECK are read, g, low, high, nb and histlen set, by badinput.sh.)
# shellcheck disable=SC2034,SC2154
CASES="$CASES
sum-corrupt-second
sum-unwritable
"

# -s must not touch an existing gmon.sum.
case_sum_corrupt_second() {
	cp "$g" gmon.out
	head -c 100 "$g" > tb.out
	printf '%s\n' "$PRECIOUS" > gmon.sum
	ARGS="-s prog gmon.out tb.out"
	CHECK=sum-preserved
}

case_sum_unwritable() {
	cp "$g" gmon.out
	mkdir gmon.sum
	ARGS="-s prog gmon.out"
}
