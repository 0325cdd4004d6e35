#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/lines.sh: -l (line symbols) and -A (annotated source) on one big
# compilation unit, ours beside GNU gprof in the same run (after `make`;
# part of `make bench`).  bench/lines-gen.c writes a C program of NFUNCS
# functions (default 1400: about 1.3 MB of .text) with inlined helpers and
# .cold parts; it is built with gcc -g -O2 -pg into bench/out/lines/ (kept
# between runs) and run once for its gmon.out.  Prints, for `-b -l -p` and
# `-b -A`: median wall and CPU seconds, GNU's CPU time over ours, and
# whether the two outputs are identical.  With LINES_BYTES=1 also times
# ours with GPROF_LINE_SCAN=bytes (the scan of every byte).
#
# Environment: NFUNCS, RUNS (default 3; a run over 10 s is not repeated),
# GNU_GPROF (default as tests/lib.sh's gnu_x86_gprof), CC (default cc).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
ours=$top/src/gprof
gnu=${GNU_GPROF:-$(gnu_x86_gprof)}
out=$top/bench/out/lines
cc=${CC:-cc}
nfuncs=${NFUNCS:-1400}
runs=${RUNS:-3}

[ -x "$ours" ] || { echo "bench/lines.sh: $ours not built (run make)" >&2; exit 1; }
mkdir -p "$out"
for t in lines-gen runstat; do
	if [ ! -x "$out/$t" ] || [ "$top/bench/$t.c" -nt "$out/$t" ]; then
		$cc -O2 -o "$out/$t" "$top/bench/$t.c"
	fi
done

# The program, rebuilt only when the generator or its size changed.
"$out/lines-gen" "$nfuncs" 1 > "$out/big.c.new"
if [ ! -f "$out/gmon.out" ] || ! cmp -s "$out/big.c.new" "$out/big.c"; then
	mv "$out/big.c.new" "$out/big.c"
	echo "(building a $nfuncs-function program with -g -O2 -pg: a minute or two...)" >&2
	(cd "$out" && rm -f gmon.out && $cc -g -O2 -pg -o big big.c && ./big 20 > /dev/null)
else
	rm -f "$out/big.c.new"
fi
text=$(size -A "$out/big" | awk '$1 == ".text" { print $2 }')

# measure VAR OUTFILE RUNS -- CMD...: sets VAR_wall, VAR_cpu, VAR_rc.
measure() {
	m_var=$1 m_out=$2 m_runs=$3
	shift 4
	set -- $("$out/runstat" -n "$m_runs" -s 10 -o "$m_out" -d "$out" -- "$@")
	eval "${m_var}_wall=$1 ${m_var}_cpu=$2 ${m_var}_rc=$5"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

row() {	# options, same
	printf '%-10s %8s %8s %8s %8s %8s  %s\n' "$1" "$o_wall" "$o_cpu" \
	       "$g_wall" "$g_cpu" "$(ratio "$g_cpu" "$o_cpu")" "$2"
}

echo "-l and -A on one compilation unit: $nfuncs functions, .text $text bytes (gcc -g -O2 -pg)"
echo "ours: $ours   GNU: $gnu"
echo "load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %8s %8s %8s %8s  %s\n' options "ours s" "ours cpu" "GNU s" "GNU cpu" \
       ratio output
for opts in "-b -l -p" "-b -A"; do
	# shellcheck disable=SC2086
	measure o "$out/ours.txt" "$runs" -- "$ours" $opts big gmon.out
	if [ -x "$gnu" ]; then
		# shellcheck disable=SC2086
		measure g "$out/gnu.txt" "$runs" -- "$gnu" $opts big gmon.out
		if cmp -s "$out/ours.txt" "$out/gnu.txt"; then same=identical; else same=DIFFERS; fi
	else
		g_wall=- g_cpu=0 same="(no GNU gprof)"
	fi
	row "$opts" "$same"
	if [ "$opts" = "-b -l -p" ] && [ "${LINES_BYTES:-0}" = 1 ]; then
		measure b "$out/bytes.txt" 1 -- env GPROF_LINE_SCAN=bytes "$ours" $opts big gmon.out
		if cmp -s "$out/ours.txt" "$out/bytes.txt"; then same=identical; else same=DIFFERS; fi
		printf '%-10s %8s %8s %8s %8s %8s  %s\n' "bytes -l" "$b_wall" "$b_cpu" - - \
		       "$(ratio "$b_cpu" "$o_cpu")" "$same (ours, GPROF_LINE_SCAN=bytes: ratio over ours)"
	fi
done
echo "ratio: GNU's CPU seconds over ours; output: our stdout against GNU's."
echo "load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
