# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/files.sh: bad-input cases about the files themselves: an
# executable or profile that is missing (named, or the default a.out and
# gmon.out), an executable that is not an object file, and profiles that
# are empty, shorter than a header, truncated inside a histogram or arc
# record, with an unknown record tag or version, or plain garbage; and -S
# symbol listings that are missing, empty, hold no text symbol, or are
# binary garbage.
# Sourced by tests/badinput.sh.  Each case ID has a function case_ID (with
# "_" for "-") that runs in a fresh directory holding a copy of the
# fixture's prog, writes the case's inputs there and sets ARGS (gprof's
# arguments) and, for a check of its own, CHECK; the fixture's profile is
# $g, its histogram range $low..$high in $nb bins, its histogram record
# $histlen bytes long (see setup_case).  The byte writers are in inputs.sh.

# (ARGS and CHECK are read, g, low, high, nb and histlen set, by badinput.sh.)
# shellcheck disable=SC2034,SC2154
CASES="$CASES
missing-profile
missing-exec
missing-default-profile
missing-default-exec
empty-profile
short-profile
header-only
trunc-hist-header
trunc-hist-bins
trunc-arc
bad-tag
bad-version
garbage-binary
garbage-text
exec-not-object
ext-syms-missing
ext-syms-empty
ext-syms-no-text
ext-syms-garbage
"

case_missing_profile() {
	ARGS="prog nothere.out"
}

case_missing_exec() {
	cp "$g" gmon.out
	ARGS="nothere gmon.out"
}

case_missing_default_profile() {
	ARGS="prog"
}

case_missing_default_exec() {
	rm -f prog
	ARGS=""
}

case_empty_profile() {
	: > empty.out
	ARGS="prog empty.out"
}

case_short_profile() {
	head -c 12 "$g" > short.out
	ARGS="prog short.out"
}

case_header_only() {
	gnu_header 1 > hdr.out
	ARGS="prog hdr.out"
}

case_trunc_hist_header() {
	head -c 33 "$g" > th.out
	ARGS="prog th.out"
}

case_trunc_hist_bins() {
	head -c 100 "$g" > tb.out
	ARGS="prog tb.out"
}

case_trunc_arc() {
	size=$(wc -c < "$g")
	head -c $((size - 5)) "$g" > ta.out
	ARGS="prog ta.out"
}

case_bad_tag() {
	{ head -c "$histlen" "$g"; byte 9; zeros 20; } > tag.out
	ARGS="prog tag.out"
}

case_bad_version() {
	{ gnu_header 7; tail -c +21 "$g"; } > ver.out
	ARGS="prog ver.out"
}

case_garbage_binary() {
	# Pseudo-random bytes, read as an old-BSD file.  Bytes 16..19
	# (the BSD byte count) are kept small: GNU allocates the bins
	# before validating, and a huge count costs it seconds and GBs.
	i=0
	while [ $i -lt 64 ]; do
		if [ $i = 16 ]; then le32 320; i=20; fi
		byte $((i * 73 + 29))
		i=$((i + 1))
	done > garbage.out
	ARGS="prog garbage.out"
}

case_garbage_text() {
	# A short text file (a long one makes GNU allocate GBs, see above).
	printf 'not a profile\n' > garbage.txt
	ARGS="prog garbage.txt"
}

case_exec_not_object() {
	printf 'not an executable\n' > notobj
	cp "$g" gmon.out
	ARGS="notobj gmon.out"
}

case_ext_syms_missing() {
	cp "$g" gmon.out
	ARGS="-b -p -S nothere.txt prog gmon.out"
}

case_ext_syms_empty() {
	cp "$g" gmon.out
	: > syms.txt
	ARGS="-b -p -S syms.txt prog gmon.out"
}

# Undefined symbols (no address) and data symbols only.
case_ext_syms_no_text() {
	cp "$g" gmon.out
	printf '                 U puts\n0000000000004010 D data\n' > syms.txt
	ARGS="-b -p -S syms.txt prog gmon.out"
}

# The profile given as the listing: bytes with no line structure.
case_ext_syms_garbage() {
	cp "$g" gmon.out
	cp "$g" syms.txt
	ARGS="-b -p -S syms.txt prog gmon.out"
}
