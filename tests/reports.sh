# SPDX-License-Identifier: GPL-3.0-or-later
# reports.sh - printers only read the model: for each fixture and option
# set, tests/reports/print_twice (built with the sanitizers) analyses once
# and prints every requested report twice and in reverse order, and
# compares the bytes.  Run from the repository root after
# `make tests/reports/print_twice`.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$PWD
bin=$top/tests/reports/print_twice
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

run_fixture() {
	fx=$1
	dir=$top/tests/fixtures/$fx
	[ -d "$dir" ] || { echo "FAIL: print-twice [$fx]: fixture missing"; return; }
	gmons=$(ls "$dir"/gmon.out "$dir"/gmon.[0-9] 2>/dev/null)
	map=$dir/map.txt
	[ -f "$map" ] || map=$work/map-$fx.txt
	[ -f "$map" ] || nm --extern-only --defined-only -v --print-file-name \
		"$dir/prog" > "$map" 2>/dev/null
	option_sets | while IFS= read -r set; do
		set=$(echo "$set" | sed "s|MAP|$map|; s|SRC|$dir/src|")
		# shellcheck disable=SC2086
		(cd "$work" && "$bin" $set "$dir/prog" $gmons 2>"$work/err") |
			grep -E '^(PASS|FAIL): ' | sed "s|$top/||g; s|\\[|[$fx: |"
		if [ -s "$work/err" ] && grep -q 'Sanitizer\|runtime error' "$work/err"; then
			echo "FAIL: print-twice [$fx: $set]: sanitizer report"
			sed -n 1,5p "$work/err"
		fi
	done
}

for fx in callgraph cycle-O2 cxx symspec lines-O2 bb merge statics-O2; do
	run_fixture "$fx"
done
