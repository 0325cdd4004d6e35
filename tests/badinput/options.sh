# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/options.sh: bad-input cases about the command line: -O with an
# unknown or partial format name or one that does not fit the file, unknown
# and ambiguous options, a missing option argument, an unknown demangling
# style, and -r with -R.
# Sourced by tests/badinput.sh.  Each case ID has a function case_ID (with
# "_" for "-") that runs in a fresh directory holding a copy of the
# fixture's prog, writes the case's inputs there and sets ARGS (gprof's
# arguments) and, for a check of its own, CHECK; the fixture's profile is
# $g, its histogram range $low..$high in $nb bins, its histogram record
# $histlen bytes long (see setup_case).  The byte writers are in inputs.sh.

# (ARGS and CHECK are read, g, low, high, nb and histlen set, by badinput.sh.)
# shellcheck disable=SC2034,SC2154
CASES="$CASES
opt-O-bogus
opt-O-unknown
opt-Op
opt-O4-on-gnu
opt-unknown-long
opt-unknown-short
opt-ambiguous-long
opt-missing-arg
demangle-bogus
r-and-R
"

# Only the first letter counts: "bogus" = BSD.
case_opt_O_bogus() {
	bsd_file "$low" "$high" "$nb" > bsd.out
	poke16 bsd.out $((20 + 1150 * 2)) 7
	ARGS="-b -p -O bogus prog bsd.out"
}

case_opt_O_unknown() {
	cp "$g" gmon.out
	ARGS="-O xyz prog gmon.out"
}

case_opt_Op() {
	cp "$g" gmon.out
	ARGS="-Op prog gmon.out"
}

case_opt_O4_on_gnu() {
	cp "$g" gmon.out
	ARGS="-O4 prog gmon.out"
}

case_opt_unknown_long() {
	cp "$g" gmon.out
	ARGS="--bogus prog gmon.out"
}

case_opt_unknown_short() {
	cp "$g" gmon.out
	ARGS="-j prog gmon.out"
}

case_opt_ambiguous_long() {
	cp "$g" gmon.out
	ARGS="--no prog gmon.out"
}

case_opt_missing_arg() {
	cp "$g" gmon.out
	ARGS="prog gmon.out -O"
}

case_demangle_bogus() {
	cp "$g" gmon.out
	ARGS="--demangle=bogus prog gmon.out"
}

case_r_and_R() {
	cp "$g" gmon.out
	ARGS="-r -R x prog gmon.out"
}
