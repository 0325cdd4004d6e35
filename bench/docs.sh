#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/docs.sh: the document formats at scale (issue 31): on the
# synthetic profile of 100,000 functions and 1,000,000 arcs (bench/gen.c,
# the one of bench/graph.sh), the time and size of each --output-format
# beside the text report's, in the same run, as ratios to it.  Each
# document should take at most twice the text report's time, and the HTML
# page stay well under 10 MB (it keeps the rows a person reads and says
# what it left out).  After `make`; part of `make bench`, or alone:
# `sh bench/docs.sh`.
#
# Prints one row per format: median wall and CPU seconds (user + system)
# of RUNS runs, the output's size, and CPU time and size over the text
# report's.  The outputs go to files in bench/out/docs/ (a pipe to
# /dev/null would leave out what writing them costs).  folded needs call
# stacks, which the synthetic profile has not: its row says so.
#
# Environment: GPROF (default src/gprof; another build, to compare),
# RUNS (default 5), CC (default cc), DOCS_N (default 100000 functions),
# DOCS_M (default 1000000 arcs).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${GPROF:-$top/src/gprof}
out=$top/bench/out
cc=${CC:-cc}
runs=${RUNS:-5}
n=${DOCS_N:-100000}
m=${DOCS_M:-1000000}

[ -x "$ours" ] || { echo "bench/docs.sh: $ours not built (run make)" >&2; exit 1; }
mkdir -p "$out/docs"
for t in gen runstat; do
	if [ ! -x "$out/$t" ] || [ "$top/bench/$t.c" -nt "$out/$t" ]; then
		$cc -O2 -o "$out/$t" "$top/bench/$t.c"
	fi
done

# The program and profile, as bench/run.sh makes them (shared with it).
d=$out/synth-$n
if [ ! -f "$d/prog.nm" ] || [ "$out/gen" -nt "$d/prog.nm" ]; then
	echo "(generating a $n-function program...)" >&2
	mkdir -p "$d"
	"$out/gen" asm "$n" 1 > "$d/prog.s"
	$cc -no-pie -o "$d/prog" "$d/prog.s"
	nm -n -S --defined-only "$d/prog" > "$d/prog.nm"
fi
g=$d/gmon-$m.out
if [ ! -f "$g" ] || [ "$out/gen" -nt "$g" ]; then
	"$out/gen" gmon "$d/prog.nm" "$m" 1 "$g"
fi

div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mbytes() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
row() {
	printf '%-10s %8s %8s %9s %9s %8s  %s\n' "$@"
}

echo "document formats at scale: $n functions, $m arcs (bench/gen.c), median of $runs runs;"
echo "cpu: user + system seconds; x text: over the text report's cpu time and size, same run."
echo "Targets: cpu at most 2.00 x text; the HTML page well under 10 MB."
row format "wall s" "cpu s" "MB" "cpu x" "MB x" verdict
text_cpu= text_bytes=
for f in text html json dot callgrind pprof folded flame; do
	if [ "$f" = text ]; then opt=; else opt=--output-format=$f; fi
	file=$out/docs/out.$f
	# shellcheck disable=SC2086
	set -- $("$out/runstat" -n "$runs" -o "$file" -d "$d" -- "$ours" $opt \
		prog "$g" 2>/dev/null)
	wall=$1 cpu=$2 rc=$5
	if [ "$rc" != 0 ]; then
		row "$f" - - - - - "no output (status $rc: $("$ours" $opt \
			"$d/prog" "$g" 2>&1 >/dev/null | head -n 1 |
			sed 's/^[^:]*: //' | cut -c1-60))"
		continue
	fi
	bytes=$(wc -c < "$file")
	if [ "$f" = text ]; then
		text_cpu=$cpu text_bytes=$bytes
	fi
	rc=$(div "$cpu" "$text_cpu")
	verdict=$(awk -v r="$rc" 'BEGIN { print (r + 0 <= 2.0) ? "ok" : "MISSED" }')
	if [ "$f" = html ]; then
		verdict="$verdict$(awk -v b="$bytes" 'BEGIN {
			if (b > 10 * 1048576) print ", over 10 MB" }')"
	fi
	row "$f" "$wall" "$cpu" "$(mbytes "$bytes")" "$rc" \
	    "$(div "$bytes" "$text_bytes")" "$verdict"
done
rm -f "$out"/docs/out.*
