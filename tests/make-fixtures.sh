# SPDX-License-Identifier: GPL-3.0-or-later
# make-fixtures.sh: builds the test programs of tests/programs with -pg, runs
# them to get profile data (or, for the gen-* and bb fixtures, writes
# hand-made profile data with tests/tools/gmon-gen from the spec templates in
# tests/programs/NAME/*.spec), and records what GNU gprof prints for every
# case of tests/cases.txt and tests/cases-callgraph.txt (but those listed in
# the fixture's skip-cases.txt) and of the fixture's own cases.txt, into
# tests/fixtures/NAME/:
#   prog, gmon.out (or gmon.1, gmon.2, ...), expected/ID.out (stdout, with the
#   explanatory blurbs replaced by marker lines), ID.rc, ID.sum, ID.ann/
#   (ID.sum only when the case writes gmon.sum; ID.ann/ holds the NAME-ann
#   files that -y writes; ID.err only when GNU wrote to stderr, kept for
#   reference, with the fixture's directory shown as {FIXTURE});
#   for some fixtures also src/ (the program's sources, for -A with -I),
#   map.txt (an nm map of the object files, for --file-ordering) and
#   gmon.*.spec (the resolved profile specs).
# The hand-written cases.txt and skip-cases.txt of a fixture are kept.
# Programs whose sources are annotated (-A) are built from a copy of their
# sources under /tmp/gproftk-fixture/NAME, removed afterwards, so that the
# debug info records the same absolute paths on every regeneration, paths
# that do not exist when the tests run (GNU gprof then looks the sources up
# by base name in the -I directories).
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
REF=${GPROF_REF:-$(gnu_x86_gprof)}
CC=${CC:-gcc}
CXX=${CXX:-g++}

# Order matters: gen-arcs and gen-merge copy cycle-O0's prog, bb copies
# lines-O0's.
ALL_FIXTURES="statics-O0 statics-O2 cycle-O0 cycle-O2 cxx pie nopie merge nopg
callgraph symspec lines-O0 lines-O2 gen-arcs gen-merge bb"
FIXED_ROOT=/tmp/gproftk-fixture

expected_only=0
if [ "${1:-}" = --expected-only ]; then
	expected_only=1
	shift
fi
names=${*:-$ALL_FIXTURES}

[ -x "$REF" ] || { echo "make-fixtures: reference gprof $REF not found" >&2; exit 1; }

mkdir -p "$TESTS_DIR/tmp"
work=$(mktemp -d "$TESTS_DIR/tmp/fixtures.XXXXXX")
trap 'rm -rf "$work" "$FIXED_ROOT"' EXIT
trap 'exit 130' INT TERM HUP PIPE

# Build tests/tools/gmon-gen once.
gmon_gen() {
	if [ ! -x "$work/gmon-gen" ]; then
		$CC -O -o "$work/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c"
	fi
	printf '%s\n' "$work/gmon-gen"
}

# Write the profile files of every spec template $1/*.spec (gmon.out.spec,
# gmon.1.spec, ...) for executable ./prog into the current directory, with
# the resolved specs next to them.
gen_profiles() {
	gen=$(gmon_gen)
	for t in "$1"/*.spec; do
		out=$(basename "$t" .spec)
		nm -n --defined-only prog |
			awk -f "$TESTS_DIR/tools/gmon-spec.awk" - "$t" > "$out.spec"
		"$gen" "$out" < "$out.spec"
	done
}

# Copy the sources of test program $1 (tests/programs/$1/src) to
# $FIXED_ROOT/$2/src and print that directory's name; the caller builds
# there with relative paths, then copies src/ to the fixture.
fixed_copy() {
	rm -rf "${FIXED_ROOT:?}/$2"
	mkdir -p "$FIXED_ROOT/$2"
	cp -R "$PROGS/$1/src" "$FIXED_ROOT/$2/src"
	printf '%s\n' "$FIXED_ROOT/$2"
}

# The "lines" program at optimisation level $1, built in the current
# directory (a fixed copy, see fixed_copy): one object per source file under
# obj/ mirroring src/, an nm map of them (map.txt, for --file-ordering), and
# a run.
build_lines() {
	for f in main lib/stats lib/rare lib/util app/app app/util; do
		mkdir -p "obj/$(dirname "$f")"
		$CC -pg "-$1" -g -Isrc/include -Isrc -c -o "obj/$f.o" "src/$f.c"
	done
	objs="main.o lib/stats.o lib/rare.o lib/util.o app/app.o app/util.o"
	# shellcheck disable=SC2086
	(cd obj && $CC -pg -o ../prog $objs &&
		nm --extern-only --defined-only -v --print-file-name \
			$objs > ../map.txt)
	./prog > /dev/null
}

# Build fixture $1 into ./prog in the current directory and run it, leaving
# gmon.out (or gmon.1, gmon.2) there, and src/ and map.txt for the fixtures
# that have them.  Each program runs ~0.2-0.7 s of CPU.
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
	callgraph)	# cg_mid.c without -pg, in the middle of a chain
		c=$s/callgraph
		$CC -O0 -g -c -o cg_mid.o "$c/cg_mid.c"
		$CC -pg -O0 -g -o prog "$c/cg_main.c" "$c/cg_chain.c" "$c/cg_leaf.c" cg_mid.o
		./prog > /dev/null ;;
	symspec)	# "odd" has no extension: -x c
		d=$(fixed_copy symspec symspec)
		(cd "$d" &&
			$CC -pg -O0 -g -c -o odd.o -x c src/odd &&
			$CC -pg -O0 -g -o prog src/main.c src/alpha.c src/beta.c src/dotted.c odd.o &&
			./prog > /dev/null)
		mv "$d/prog" "$d/gmon.out" "$d/src" .
		rm -rf "$d" ;;
	lines-O0|lines-O2)
		d=$(fixed_copy lines "$1")
		(cd "$d" && build_lines "${1#lines-}")
		mv "$d/prog" "$d/gmon.out" "$d/map.txt" "$d/src" .
		rm -rf "$d" ;;
	gen-arcs|gen-merge)	# hand-made profiles for cycle-O0's prog
		cp "$FIXTURES_DIR/cycle-O0/prog" prog
		gen_profiles "$s/$1" ;;
	bb)		# hand-made profiles with basic-block counts for lines-O0's prog
		cp "$FIXTURES_DIR/lines-O0/prog" prog
		cp -R "$FIXTURES_DIR/lines-O0/src" src
		cp "$FIXTURES_DIR/lines-O0/map.txt" map.txt
		gen_profiles "$s/bb" ;;
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
	fixture_case_ids "$fdir" all | while read -r id; do
		opts=$(case_options "$id" $(fixture_case_files "$fdir") $(case_files all))
		opts=$(expand_options "$opts" "$fdir")
		run=$work/run
		rm -rf "$run"
		mkdir -p "$run"
		cp "$fdir/prog" "$run/"
		for p in $profiles; do cp "$fdir/$p" "$run/"; done
		rc=0
		(cd "$run" && LC_ALL=C "$REF" $opts prog $profiles) \
			> "$work/out" 2> "$work/err" < /dev/null || rc=$?
		# The explanatory blurbs are masked (see strip_blurbs in lib.sh):
		# they are GNU's prose, and ours differ on purpose.
		strip_blurbs "$work/out" "$fdir/expected/$id.out"
		echo "$rc" > "$fdir/expected/$id.rc"
		if [ -f "$run/gmon.sum" ]; then
			mask_sum "$run/gmon.sum" "$fdir/expected/$id.sum"
		fi
		collect_ann "$run" "$fdir/expected/$id.ann"
		if grep -q -F "$fdir" "$work/out"; then
			echo "make-fixtures: warning: $(basename "$fdir") $id: the output names the fixture's directory, so it cannot match elsewhere" >&2
		fi
		# GNU's stderr is kept for reference (program path replaced by
		# "gprof"); e2e.sh does not compare it.
		if [ -s "$work/err" ]; then
			sed -e "s|$(sed_literal "$REF")|gprof|g" \
			    -e "s|$(sed_literal "$fdir")|{FIXTURE}|g" "$work/err" > "$fdir/expected/$id.err"
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
		# Everything but the hand-written case lists is regenerated.
		mkdir -p "$fdir"
		for f in "$fdir"/* "$fdir"/.[!.]*; do
			case $(basename "$f") in
			cases.txt|skip-cases.txt) ;;
			*) rm -rf "$f" ;;
			esac
		done
		cp "$b/prog" "$fdir/prog"
		for f in "$b"/gmon.out "$b"/gmon.[0-9]* "$b"/gmon.*.spec "$b"/map.txt; do
			if [ -f "$f" ]; then cp "$f" "$fdir/"; fi
		done
		if [ -d "$b/src" ]; then cp -R "$b/src" "$fdir/src"; fi
	fi
	[ -f "$fdir/prog" ] || { echo "make-fixtures: $fdir/prog missing (run without --expected-only)" >&2; exit 1; }
	echo "make-fixtures: recording GNU output for $name"
	record_expected "$fdir"
done
# The bad-input tests derive their inputs from the cycle-O0 fixture.
echo "make-fixtures: recording GNU output for the bad-input tests"
sh "$TESTS_DIR/badinput.sh" --regen > /dev/null
echo "make-fixtures: done ($(find "$FIXTURES_DIR" -type f | wc -l) files, $(cat $(find "$FIXTURES_DIR" -type f) | wc -c) bytes in tests/fixtures)"
