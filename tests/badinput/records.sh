# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/records.sh: bad-input cases about how the records of several
# GNU profiles combine: histograms of another scale, of overlapping ranges,
# or with another dimension or abbreviation (errors), of disjoint ranges
# (valid); and profiles that lack the record a report needs (no histogram
# for -p, no arcs for -q).
# Sourced by tests/badinput.sh.  Each case ID has a function case_ID (with
# "_" for "-") that runs in a fresh directory holding a copy of the
# fixture's prog, writes the case's inputs there and sets ARGS (gprof's
# arguments) and, for a check of its own, CHECK; the fixture's profile is
# $g, its histogram range $low..$high in $nb bins, its histogram record
# $histlen bytes long (see setup_case).  The byte writers are in inputs.sh.

# (ARGS and CHECK are read, g, low, high, nb and histlen set, by badinput.sh.)
# shellcheck disable=SC2034,SC2154
CASES="$CASES
merge-diff-scale
merge-overlap
merge-dimension
merge-abbrev
merge-disjoint
arcs-only-flat
hist-only-graph
"

# The same range, another bin count.
case_merge_diff_scale() {
	cp "$g" gmon.out
	{ head -c 37 "$g"; le32 1000; dd if="$g" bs=1 skip=41 count=20 2>/dev/null; zeros 2000; } > scale.out
	ARGS="prog gmon.out scale.out"
}

# The same scale, the range shifted by 16.
case_merge_overlap() {
	cp "$g" gmon.out
	{ head -c 21 "$g"; le64 $((low + 16)); le64 $((high + 16))
	  dd if="$g" bs=1 skip=37 count=24 2>/dev/null; zeros $((nb * 2)); } > overlap.out
	ARGS="prog gmon.out overlap.out"
}

case_merge_dimension() {
	cp "$g" gmon.out
	{ head -c 45 "$g"; printf 'milliseconds'; zeros 3; printf 's'; zeros $((nb * 2)); } > dim.out
	ARGS="prog gmon.out dim.out"
}

case_merge_abbrev() {
	cp "$g" gmon.out
	{ head -c 60 "$g"; printf 'm'; zeros $((nb * 2)); } > abbrev.out
	ARGS="prog gmon.out abbrev.out"
}

# Valid: a second, non-overlapping range, the same scale.
case_merge_disjoint() {
	cp "$g" gmon.out
	{ head -c 21 "$g"; le64 $((high + 64)); le64 $((high + 64 + high - low))
	  dd if="$g" bs=1 skip=37 count=24 2>/dev/null; zeros $((nb * 2)); } > disjoint.out
	poke16 disjoint.out 61 5
	ARGS="-b -p prog gmon.out disjoint.out"
}

# No histogram record, -p asked.
case_arcs_only_flat() {
	{ head -c 20 "$g"; tail -c +$((histlen + 1)) "$g"; } > arcs.out
	ARGS="-b -p prog arcs.out"
}

# No arc records, -q asked.
case_hist_only_graph() {
	head -c "$histlen" "$g" > hist.out
	ARGS="-b -q prog hist.out"
}
