# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/bsd.sh: bad-input cases in the old-BSD and 4.4BSD formats: a
# valid file, two files of different bin counts, a truncated file, and two
# 4.4BSD files of different profiling rates.
# Sourced by tests/badinput.sh.  Each case ID has a function case_ID (with
# "_" for "-") that runs in a fresh directory holding a copy of the
# fixture's prog, writes the case's inputs there and sets ARGS (gprof's
# arguments) and, for a check of its own, CHECK; the fixture's profile is
# $g, its histogram range $low..$high in $nb bins, its histogram record
# $histlen bytes long (see setup_case).  The byte writers are in inputs.sh.

# (ARGS and CHECK are read, g, low, high, nb and histlen set, by badinput.sh.)
# shellcheck disable=SC2034,SC2154
CASES="$CASES
bsd-valid
bsd-incompatible
bsd-truncated
bsd44-rate
"

case_bsd_valid() {
	bsd_file "$low" "$high" "$nb" > bsd.out
	poke16 bsd.out $((20 + 1150 * 2)) 7
	poke16 bsd.out $((20 + 1200 * 2)) 3
	poke16 bsd.out $((20 + 1260 * 2)) 11
	ARGS="-b -p prog bsd.out"
}

# A second BSD file with another bin count.
case_bsd_incompatible() {
	bsd_file "$low" "$high" "$nb" > bsd1.out
	bsd_file "$low" "$high" 1000 > bsd2.out
	ARGS="prog bsd1.out bsd2.out"
}

case_bsd_truncated() {
	bsd_file "$low" "$high" "$nb" | head -c 120 > bsdt.out
	ARGS="prog bsdt.out"
}

# Two 4.4BSD files, profiling rates 1000 and 60.
case_bsd44_rate() {
	bsd44_file "$low" "$high" "$nb" 1000 > b44a.out
	bsd44_file "$low" "$high" "$nb" 60 > b44b.out
	ARGS="-b -p prog b44a.out b44b.out"
}
