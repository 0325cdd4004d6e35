# SPDX-License-Identifier: GPL-3.0-or-later
# reports.sh - printers only read the model: for each fixture and option
# set, tests/reports/print_twice (built with the sanitizers) analyses once
# and prints every requested report twice and in reverse order, and
# compares the bytes.  Run from the repository root after
# `make tests/reports/print_twice`.
#
# Every fixture x option set gives exactly one PASS: or FAIL: line, and a
# count closes the run.  Where gprof itself stops before printing (the
# cxx fixture's -l sets end in GNU's "somebody miscounted" failure,
# doc/gprof.md difference 10), there is nothing to print twice: the set
# passes only if print_twice stops the same way as build-san/gprof, the
# build whose objects it links (same exit status, same stderr once the
# program's name is masked), and the line says so.  Anything else a run
# does without its own PASS: line (a crash, a status it did not promise,
# no line at all, a sanitizer report) is a FAIL.  Exit status 1 when any
# set failed.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$PWD
bin=$top/tests/reports/print_twice
ref=$top/build-san/gprof
# gprof, like this check, leaves the model to the exit.
export ASAN_OPTIONS=detect_leaks=0
if [ ! -x "$bin" ]; then
	echo "FAIL: print-twice (tests/reports/print_twice not built)"
	exit 1
fi
mkdir -p tests/tmp
work=$(mktemp -d "$top/tests/tmp/reports.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Option sets; MAP and SRC are filled in per fixture.
option_sets() {
	cat <<'SETS'
-b
-z
-T
-T -z -q -p
-b -q --function-ordering
-b -q --file-ordering MAP
-b -q -z --function-ordering
-z --file-ordering MAP
-b -l -q -p
-b -l -C -x
-b -C --inline-file-names
-b -q --inline-file-names
-b -A -C -q -p -I SRC
-b -c -q
-b -k main/main -q
SETS
}

runs=0 compared=0 stopped=0 failures=0

# fail NAME REASON [FILE]: a FAIL: line, the first lines of FILE indented.
fail() {
	echo "FAIL: print-twice [$1] ($2)"
	[ -z "${3:-}" ] || sed -n '1,5s/^/    /p' "$3"
	failures=$((failures + 1))
}

# One option set on one fixture: print_twice, judged by its status and
# its line; when it stops without a line, build-san/gprof is asked
# whether it stops the same way.
run_set() {
	fx=$1 set=$2 dir=$3
	shift 3
	name="$fx: $set"
	runs=$((runs + 1))
	# shellcheck disable=SC2086
	(cd "$work" && exec "$bin" $set "$dir/prog" "$@") \
		> "$work/out" 2> "$work/err"
	rc=$?
	grep -E '^(PASS|FAIL): ' "$work/out" |
		sed "s|$top/||g; s|\\[|[$fx: |" > "$work/lines"
	if grep -q 'Sanitizer\|runtime error' "$work/err"; then
		fail "$name" "sanitizer report" "$work/err"
		return
	fi
	nlines=$(wc -l < "$work/lines")
	if [ "$rc" = 0 ] && [ "$nlines" = 1 ] && grep -q '^PASS: ' "$work/lines"; then
		cat "$work/lines"
		compared=$((compared + 1))
		return
	fi
	if [ "$rc" = 1 ] && [ "$nlines" = 1 ] && grep -q '^FAIL: ' "$work/lines"; then
		cat "$work/lines"
		failures=$((failures + 1))
		return
	fi
	if [ "$nlines" != 0 ]; then
		fail "$name" "status $rc with $nlines PASS/FAIL lines" "$work/lines"
		return
	fi
	# No line: print_twice stopped before it compared anything.
	if [ "$rc" = 0 ]; then
		fail "$name" "status 0 and no PASS/FAIL line" "$work/out"
		return
	fi
	if [ ! -x "$ref" ]; then
		fail "$name" "print_twice stopped with status $rc, and build-san/gprof is not built to say whether gprof stops too" "$work/err"
		return
	fi
	# shellcheck disable=SC2086
	(cd "$work" && exec "$ref" $set "$dir/prog" "$@") \
		> "$work/ref.out" 2> "$work/ref.err"
	ref_rc=$?
	sed "s|^$bin: |PROG: |" "$work/err" > "$work/err.masked"
	sed "s|^$ref: |PROG: |" "$work/ref.err" > "$work/ref.err.masked"
	if [ "$ref_rc" = "$rc" ] && [ ! -s "$work/ref.out" ] &&
	   cmp -s "$work/err.masked" "$work/ref.err.masked"; then
		echo "PASS: print-twice [$name] (nothing to print: gprof stops here too, status $rc: $(sed -n '1s/^PROG: //p' "$work/err.masked"))" |
			sed "s|$top/||g"
		stopped=$((stopped + 1))
	else
		fail "$name" "print_twice stopped with status $rc, build-san/gprof gave status $ref_rc and $(wc -c < "$work/ref.out") bytes of stdout" "$work/err"
		diff "$work/err.masked" "$work/ref.err.masked" | sed -n '1,6s/^/    /p'
	fi
}

run_fixture() {
	fx=$1
	dir=$top/tests/fixtures/$fx
	if [ ! -d "$dir" ]; then
		runs=$((runs + 1))
		fail "$fx" "fixture missing"
		return
	fi
	gmons=$(ls "$dir"/gmon.out "$dir"/gmon.[0-9] 2>/dev/null)
	map=$dir/map.txt
	[ -f "$map" ] || map=$work/map-$fx.txt
	[ -f "$map" ] || nm --extern-only --defined-only -v --print-file-name \
		"$dir/prog" > "$map" 2>/dev/null
	# A file, not a pipe into the loop: the counts must outlive it.
	option_sets | sed "s|MAP|$map|; s|SRC|$dir/src|" > "$work/sets-$fx"
	while IFS= read -r set; do
		# shellcheck disable=SC2086
		run_set "$fx" "$set" "$dir" $gmons
	done < "$work/sets-$fx"
}

for fx in callgraph cycle-O2 cxx symspec lines-O2 bb merge statics-O2; do
	run_fixture "$fx"
done
echo "print-twice: $runs option sets run: $compared compared," \
     "$stopped where gprof stops before printing, $failures failed"
[ "$failures" = 0 ] && [ $((compared + stopped)) = "$runs" ]
