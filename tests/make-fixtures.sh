# SPDX-License-Identifier: GPL-3.0-or-later
# make-fixtures.sh: builds the test programs of tests/programs with -pg, runs
# them to get profile data, and records what GNU gprof prints for every case
# of tests/cases.txt and tests/cases-callgraph.txt, into tests/fixtures/NAME/:
#   prog, gmon.out (or gmon.1, gmon.2, ...), expected/ID.out (stdout, with the
#   explanatory blurbs replaced by marker lines), ID.rc, ID.sum
#   (ID.sum only when the case writes gmon.sum; ID.err only when GNU wrote
#   to stderr, kept for reference)
# The fixtures are committed; `make check` never regenerates them, because
# profile data depends on timing.
#
# usage: sh tests/make-fixtures.sh [--expected-only] [NAME...]
#   --expected-only  keep the committed prog and profiles, only redo expected/
#                    (use this after adding a case line)
#   NAME...          only these fixtures (default: all)
# At the end it also rewrites tests/badinput/expected (badinput.sh --regen),
# whose inputs come from the cycle-O0 fixture.
# Environment: GPROF_REF (default /usr/bin/gprof), CC (gcc), CXX (g++).
set -eu

TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
PROGS=$TESTS_DIR/programs
FIXTURES_DIR=$TESTS_DIR/fixtures
REF=${GPROF_REF:-/usr/bin/gprof}
CC=${CC:-gcc}
CXX=${CXX:-g++}

ALL_FIXTURES="statics-O0 statics-O2 cycle-O0 cycle-O2 cxx pie nopie merge nopg"

expected_only=0
if [ "${1:-}" = --expected-only ]; then
	expected_only=1
	shift
fi
names=${*:-$ALL_FIXTURES}

[ -x "$REF" ] || { echo "make-fixtures: reference gprof $REF not found" >&2; exit 1; }

mkdir -p "$TESTS_DIR/tmp"
work=$(mktemp -d "$TESTS_DIR/tmp/fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP PIPE

# Build fixture $1 into ./prog in the current directory and run it, leaving
# gmon.out (or gmon.1, gmon.2) there.  Each program runs ~0.2-0.6 s of CPU.
build_and_run() {
	s=$PROGS
	case $1 in
	statics-O0)	# no debug info
		$CC -pg -O0 -o prog "$s/statics/main.c" "$s/statics/statics_a.c" "$s/statics/statics_b.c"
		./prog > /dev/null ;;
	statics-O2)	# .constprop.0 / .isra.0 clones, with debug info
		$CC -pg -O2 -g -o prog "$s/statics/main.c" "$s/statics/statics_a.c" "$s/statics/statics_b.c"
		./prog > /dev/null ;;
	cycle-O0)
		$CC -pg -O0 -g -o prog "$s/cycle/cycle.c"
		./prog > /dev/null ;;
	cycle-O2)	# no debug info
		$CC -pg -O2 -o prog "$s/cycle/cycle.c"
		./prog > /dev/null ;;
	cxx)
		$CXX -pg -O1 -g -o prog "$s/cxx/cxx.cpp"
		./prog > /dev/null ;;
	pie)
		$CC -pg -O0 -g -fPIE -pie -o prog "$s/pie/pie.c"
		./prog > /dev/null ;;
	nopie)
		$CC -pg -O0 -g -fno-pie -no-pie -o prog "$s/pie/pie.c"
		./prog > /dev/null ;;
	merge)		# two runs, two profiles
		$CC -pg -O0 -g -o prog "$s/merge/main.c" "$s/merge/work.c"
		./prog crunch > /dev/null
		mv gmon.out gmon.1
		./prog digest > /dev/null
		mv gmon.out gmon.2 ;;
	nopg)		# hot.c without -pg: samples but no call counts
		$CC -O0 -c -o hot.o "$s/nopg/hot.c"
		$CC -pg -O0 -o prog "$s/nopg/main.c" hot.o
		./prog > /dev/null ;;
	*)
		echo "make-fixtures: unknown fixture $1" >&2
		return 1 ;;
	esac
}

# Record GNU gprof's output for every case on fixture directory $1.
record_expected() {
	fdir=$1
	profiles=$(fixture_profiles "$fdir")
	rm -rf "$fdir/expected"
	mkdir -p "$fdir/expected"
	set -f
	# shellcheck disable=SC2046,SC2086
	list_cases $(case_files all) | while read -r id opts; do
		run=$work/run
		rm -rf "$run"
		mkdir -p "$run"
		cp "$fdir/prog" "$run/"
		for p in $profiles; do cp "$fdir/$p" "$run/"; done
		rc=0
		(cd "$run" && LC_ALL=C "$REF" $opts prog $profiles) \
			> "$work/out" 2> "$work/err" || rc=$?
		# The explanatory blurbs are masked (see strip_blurbs in lib.sh):
		# they are GNU's prose, and ours differ on purpose.
		strip_blurbs "$work/out" "$fdir/expected/$id.out"
		echo "$rc" > "$fdir/expected/$id.rc"
		if [ -f "$run/gmon.sum" ]; then
			mask_sum "$run/gmon.sum" "$fdir/expected/$id.sum"
		fi
		# GNU's stderr is kept for reference (program path replaced by
		# "gprof"); e2e.sh does not compare it.
		if [ -s "$work/err" ]; then
			sed -e "s|$(sed_literal "$REF")|gprof|g" "$work/err" > "$fdir/expected/$id.err"
			echo "make-fixtures: note: $(basename "$fdir") $id: GNU wrote to stderr:" >&2
			sed 's/^/    /' "$fdir/expected/$id.err" >&2
		fi
	done
	set +f
}

for name in $names; do
	fdir=$FIXTURES_DIR/$name
	if [ $expected_only = 0 ]; then
		echo "make-fixtures: building and running $name"
		b=$work/build-$name
		rm -rf "$b"
		mkdir -p "$b"
		(cd "$b" && build_and_run "$name")
		rm -rf "$fdir"
		mkdir -p "$fdir"
		cp "$b/prog" "$fdir/prog"
		for f in "$b"/gmon.out "$b"/gmon.[0-9]*; do
			if [ -f "$f" ]; then cp "$f" "$fdir/"; fi
		done
	fi
	[ -f "$fdir/prog" ] || { echo "make-fixtures: $fdir/prog missing (run without --expected-only)" >&2; exit 1; }
	echo "make-fixtures: recording GNU output for $name"
	record_expected "$fdir"
done
# The bad-input tests derive their inputs from the cycle-O0 fixture.
echo "make-fixtures: recording GNU output for the bad-input tests"
sh "$TESTS_DIR/badinput.sh" --regen > /dev/null
echo "make-fixtures: done ($(find "$FIXTURES_DIR" -type f | wc -l) files, $(cat $(find "$FIXTURES_DIR" -type f) | wc -c) bytes in tests/fixtures)"
