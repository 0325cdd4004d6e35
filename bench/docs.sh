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
# /dev/null would leave out what writing them costs).  folded and flame
# need call stacks, which the profile has not: they run on it with a
# side file of generated stacks, beside the text report of the same.
#
# Environment: GPROF (default src/gprof; another build, to compare),
# RUNS (default 5), CC (default cc), DOCS_N (default 100000 functions),
# DOCS_M (default 1000000 arcs), DOCS_STACKS (default 200000 stacks).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ours=${GPROF:-$top/src/gprof}
out=$top/bench/out
cc=${CC:-cc}
runs=${RUNS:-5}
n=${DOCS_N:-100000}
m=${DOCS_M:-1000000}
nstacks=${DOCS_STACKS:-200000}

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

# The call stacks folded and flame print (the profile has none): a side
# file of NSTACKS stacks along the same call graph (bench/gen.c stacks,
# tests/tools/gmsl-gen), beside a link to the profile in its own folder,
# so that the other runs do not read it.
st=$out/docs/stacks
if [ ! -f "$st/gmon.out.shlibs" ] || [ "$out/gen" -nt "$st/gmon.out.shlibs" ] ||
   [ "$g" -nt "$st/gmon.out.shlibs" ]; then
	mkdir -p "$st"
	$cc -O2 -o "$out/gmsl-gen" "$top/tests/tools/gmsl-gen.c"
	"$out/gen" stacks "$d/prog.nm" "$m" 1 "$nstacks" > "$st/desc"
	"$out/gmsl-gen" "$st/gmon.out.shlibs" < "$st/desc"
	rm -f "$st/desc"
fi
ln -sf "$g" "$st/gmon.out"

div() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mbytes() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
row() {
	printf '%-14s %8s %8s %9s %9s %8s  %s\n' "$@"
}

# measure FORMAT NAME GMON: one row; the text rows set the base.
measure() {
	if [ "$1" = text ]; then opt=; else opt=--output-format=$1; fi
	file=$out/docs/out.$1
	# shellcheck disable=SC2086
	set -- "$1" "$2" "$3" $("$out/runstat" -n "$runs" -o "$file" -d "$d" -- \
		"$ours" $opt prog "$3" 2>/dev/null)
	if [ "$8" != 0 ]; then
		# shellcheck disable=SC2086
		row "$2" - - - - - "no output (status $8: $("$ours" $opt "$d/prog" \
			"$3" 2>&1 >/dev/null | head -n 1 | sed 's/^[^:]*: //' |
			cut -c1-60))"
		return
	fi
	bytes=$(wc -c < "$file")
	rm -f "$file"
	if [ "$1" = text ]; then
		text_cpu=$5 text_bytes=$bytes
	fi
	r=$(div "$5" "$text_cpu")
	verdict=$(awk -v r="$r" 'BEGIN { print (r + 0 <= 2.0) ? "ok" : "MISSED" }')
	if [ "$1" = html ]; then
		verdict="$verdict$(awk -v b="$bytes" 'BEGIN {
			if (b > 10 * 1048576) print ", over 10 MB" }')"
	fi
	row "$2" "$4" "$5" "$(mbytes "$bytes")" "$r" \
	    "$(div "$bytes" "$text_bytes")" "$verdict"
}

echo "document formats at scale: $n functions, $m arcs (bench/gen.c), median of $runs runs;"
echo "cpu: user + system seconds; x text: over the text report's cpu time and size, same run."
echo "Targets: cpu at most 2.00 x text; the HTML page well under 10 MB."
row format "wall s" "cpu s" "MB" "cpu x" "MB x" verdict
text_cpu= text_bytes=
for f in text html json dot callgrind pprof; do
	measure "$f" "$f" "$g"
done
echo "with a side file of $nstacks call stacks (bench/gen.c stacks); x text: over the text"
echo "report of the same two files:"
for f in text folded flame; do
	measure "$f" "$f+stacks" "$st/gmon.out"
done
