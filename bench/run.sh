#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/run.sh - `make bench`: times src/gprof and GNU gprof side by side on
# the same inputs and prints one table (median wall time of several runs,
# median CPU time, peak resident memory, and whether the outputs agree).
# Inputs are generated into bench/out/ (kept between runs) by bench/gen.c.
# A full run that succeeds writes its whole standard output into
# doc/bench.md, below the page's hand-written part (bench/record.sh).
#
# Environment: BENCH_QUICK=1 runs a reduced set; BENCH_RUNS (default 3)
# runs per measurement (GNU runs once where one run takes over 10 s);
# GNU_GPROF (default /usr/bin/gprof); CC (default cc).  Quick runs,
# BENCH_GRAPH_ONLY=1 runs and failed runs leave doc/bench.md as it was;
# BENCH_DOC=FILE records into FILE instead.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ours=$top/src/gprof
# shellcheck source=tests/lib.sh
. "$top/tests/lib.sh"
gnu=${GNU_GPROF:-$(gnu_x86_gprof)}
out=$top/bench/out
cc=${CC:-cc}
quick=${BENCH_QUICK:-0}
runs=${BENCH_RUNS:-3}
gnu_max_n=40000     # GNU gprof is quadratic: above this it takes minutes
slow=10             # a GNU run longer than this is not repeated
jobs=$(nproc 2>/dev/null || echo 1)

# The run itself is this script again, its output shown and kept in a log
# that a full, successful run then records in doc/bench.md.
if [ -z "${BENCH_RECORDING:-}" ]; then
	BENCH_RECORDING=1
	export BENCH_RECORDING
	mkdir -p "$out"
	{
		rc=0
		sh "$0" "$@" || rc=$?
		echo "$rc" > "$out/run.rc"
	} | tee "$out/run.log"
	rc=$(cat "$out/run.rc" 2>/dev/null || echo 1)
	if [ "$rc" != 0 ]; then
		echo "bench: the run failed (status $rc): doc/bench.md left as it was" >&2
	elif [ "$quick" = 1 ] || [ "${BENCH_GRAPH_ONLY:-0}" = 1 ]; then
		echo "bench: a partial run: doc/bench.md left as it was" >&2
	else
		sh "$top/bench/record.sh" "$out/run.log" "${BENCH_DOC:-$top/doc/bench.md}" ||
			rc=1
	fi
	exit "$rc"
fi

[ -x "$ours" ] || { echo "bench: $ours not built (run make)" >&2; exit 1; }
have_gnu=1
[ -x "$gnu" ] || { echo "bench: no GNU gprof at $gnu: ours only" >&2; have_gnu=0; }

mkdir -p "$out"
for t in gen runstat; do
	if [ ! -x "$out/$t" ] || [ "$top/bench/$t.c" -nt "$out/$t" ]; then
		$cc -O2 -o "$out/$t" "$top/bench/$t.c"
	fi
done
gen=$out/gen
results=$out/results.txt

# ---- inputs ---------------------------------------------------------------

# synth N: a program of N generated functions, and its nm listing.
synth() {
	d=$out/synth-$1
	if [ ! -f "$d/prog.nm" ] || [ "$gen" -nt "$d/prog.nm" ]; then
		mkdir -p "$d"
		"$gen" asm "$1" 1 > "$d/prog.s"
		$cc -no-pie -o "$d/prog" "$d/prog.s"
		nm -n -S --defined-only "$d/prog" > "$d/prog.nm"
	fi
}

# synth_gmon N M: a profile of that program with M arcs.
synth_gmon() {
	f=$out/synth-$1/gmon-$2.out
	if [ ! -f "$f" ] || [ "$gen" -nt "$f" ]; then
		"$gen" gmon "$out/synth-$1/prog.nm" "$2" 1 "$f"
	fi
}

# real_prog FILES FUNCS: a generated C program built with -pg -g -O2, and
# the gmon.out of one run of it.
real_prog() {
	d=$out/real-$1x$2
	rm -rf "$d.src" && mkdir -p "$d.src"
	"$gen" csrc "$d.src" "$1" "$2" 1
	if [ -f "$d/gmon.out" ] && diff -r -q "$d.src" "$d/src" > /dev/null 2>&1; then
		rm -rf "$d.src"
		return
	fi
	rm -rf "$d" && mkdir -p "$d" && mv "$d.src" "$d/src"
	(cd "$d" && ls src/mod*.c src/main.c |
	 xargs -P "$jobs" -n 8 $cc -pg -g -O2 -c &&
	 $cc -pg -g -O2 -o prog ./*.o && ./prog 20000 > /dev/null)
}

# self_prog: this project's gprof built with -pg -g -O2, and the gmon.out
# of it reading the N = 20,000 synthetic profile.
self_prog() {
	d=$out/self
	if [ ! -f "$d/gmon.out" ] || [ "$ours" -nt "$d/gmon.out" ]; then
		rm -rf "$d" && mkdir -p "$d"
		# (config.mk's libraries, and -lm, which the Makefile adds)
		libs="$(sed -n 's/^LIBS *= *//p' "$top/config.mk") -lm"
		# the tool's sources: main.c and every file without a main(),
		# on top and in each stage's folder (not libgmon's)
		srcs="$top/src/main.c $(grep -L '^int main' "$top"/src/*.c \
			"$top"/src/util/*.c "$top"/src/symbols/*.c \
			"$top"/src/reading/*.c "$top"/src/decode/*.c \
			"$top"/src/analysis/*.c "$top"/src/print/*.c)"
		# shellcheck disable=SC2086
		(cd "$d" && $cc -pg -g -O2 -std=gnu11 -I"$top/include" -I"$top" \
		  -I"$top/src" -o gprof $srcs $libs &&
		 ./gprof "$out/synth-20000/prog" "$out/synth-20000/gmon-60000.out" \
		   > /dev/null)
	fi
}

# merge_set N COUNT: COUNT profiles of runs of the N-function program.
merge_set() {
	d=$out/merge-$1
	if [ ! -f "$d/p.$(printf %04d $(($2 - 1)))" ] || [ "$gen" -nt "$d/p.0000" ]; then
		rm -rf "$d" && mkdir -p "$d"
		"$gen" gmon "$out/synth-$1/prog.nm" $(($1 * 3)) 7 "$d/p" "$2"
	fi
}

# ---- measuring ------------------------------------------------------------

# measure VAR DIR OUTFILE RUNS -- CMD...: runs CMD in DIR, its output to
# OUTFILE; sets VAR_wall, VAR_cpu, VAR_kb and VAR_rc (exit status).
measure() {
	m_var=$1 m_dir=$2 m_out=$3 m_runs=$4
	shift 5
	set -- $("$out/runstat" -n "$m_runs" -s "$slow" -o "$m_out" -d "$m_dir" -- "$@")
	eval "${m_var}_wall=$1 ${m_var}_cpu=$2 ${m_var}_kb=$3 ${m_var}_rc=$5"
}

fmt_row() {
	printf '%-6s %7s %8s %-9s %8s %8s %7s %8s %8s %7s %7s  %s\n' "$@"
}

header() {
	fmt_row case N M options "ours s" "GNU s" "ratio" "ours cpu" "GNU cpu" \
	        "ours MB" "GNU MB" output
}

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

# row CASE N M OPTS SAME: prints and records the last measurements.
row() {
	ow=$o_wall oc=$o_cpu om=$(mb "$o_kb")
	[ "$o_rc" = 0 ] || ow="fail($o_rc)"
	if [ "$run_gnu" = 1 ]; then
		gw=$g_wall gc=$g_cpu gm=$(mb "$g_kb") r=$(ratio "$g_cpu" "$o_cpu")
		[ "$g_rc" = 0 ] || gw="fail($g_rc)"
	else
		gw=skipped gc=- gm=- r=-
	fi
	fmt_row "$1" "$2" "$3" "$4" "$ow" "$gw" "$r" "$oc" "$gc" "$om" "$gm" "$5" |
		tee -a "$results"
}

# same A B: do two output files agree?
same() {
	if [ "$run_gnu" = 1 ]; then
		if cmp -s "$1" "$2"; then echo same; else echo DIFFERS; fi
	else
		echo -
	fi
}

# ---- cases ----------------------------------------------------------------

tmp=$out/tmp
rm -rf "$tmp" && mkdir -p "$tmp"

# BENCH_GRAPH_ONLY=1: only the call graph at scale (bench/graph.sh).
if [ "${BENCH_GRAPH_ONLY:-0}" = 1 ]; then . "$top/bench/graph.sh"; exit 0; fi

if [ "$quick" = 1 ]; then
	sizes="5000 10000 20000"
	big=""
	real_files=20 real_funcs=50
	nmerge=100 nloop=50 nloop_gnu=5
else
	sizes="5000 10000 20000 40000 100000"
	big="100000:1000000"
	real_files=100 real_funcs=100
	nmerge=1000 nloop=200 nloop_gnu=20
fi

{
	echo "gprof benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)," \
	     "$(awk '/^MemTotal/ { printf "%.0f GiB RAM", $2 / 1048576 }' /proc/meminfo)," \
	     "load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "ours: $ours   GNU: $gnu ($("$gnu" --version 2>/dev/null | head -n 1))"
	echo "times: median wall seconds of $runs runs (GNU: 1 run when it takes over ${slow} s);"
	echo "cpu: median user+system seconds; ratio: GNU's cpu / ours (steadier than wall time on a"
	echo "shared machine); MB: peak resident memory (wait4 rusage)."
	echo
} | tee "$results"
header | tee -a "$results"

echo "(generating inputs...)" >&2
for n in $sizes; do
	synth "$n"
	synth_gmon "$n" $((n * 3))
done
for nm in $big; do
	synth_gmon "${nm%%:*}" "${nm##*:}"
done

# Default report and -b -q at each size.
for nm in $(for n in $sizes; do echo "$n:$((n * 3))"; done) $big; do
	n=${nm%%:*} m=${nm##*:}
	p=$out/synth-$n/prog g=$out/synth-$n/gmon-$m.out
	run_gnu=$have_gnu
	[ "$n" -le "$gnu_max_n" ] || run_gnu=0
	for opts in "" "-b -q"; do
		# shellcheck disable=SC2086
		measure o "$tmp" "$tmp/ours.txt" "$runs" -- "$ours" $opts "$p" "$g"
		if [ "$run_gnu" = 1 ]; then
			# shellcheck disable=SC2086
			measure g "$tmp" "$tmp/gnu.txt" "$runs" -- "$gnu" $opts "$p" "$g"
		fi
		if [ -n "$opts" ]; then s=$(same "$tmp/ours.txt" "$tmp/gnu.txt"); else s=-; fi
		row synth "$n" "$m" "${opts:-(none)}" "$s"
	done
done

# -l -p on real programs: the generated C program and this gprof itself.
echo "(building the real programs...)" >&2
real_prog "$real_files" "$real_funcs"
synth 20000
synth_gmon 20000 60000
self_prog
for d in "$out/real-${real_files}x$real_funcs" "$out/self"; do
	p=$d/prog label=real
	[ -x "$p" ] || p=$d/gprof label=self
	nf=$(nm --defined-only "$p" | grep -c ' [Tt] ')
	run_gnu=$have_gnu
	measure o "$d" "$tmp/ours.txt" "$runs" -- "$ours" -b -l -p "$p" gmon.out
	[ "$run_gnu" = 0 ] ||
		measure g "$d" "$tmp/gnu.txt" "$runs" -- "$gnu" -b -l -p "$p" gmon.out
	row "$label" "$nf" - "-b -l -p" "$(same "$tmp/ours.txt" "$tmp/gnu.txt")"
done

# -s merging many profiles in one invocation.
synth 5000
merge_set 5000 "$nmerge"
files=$(i=0; while [ $i -lt "$nmerge" ]; do printf '../merge-5000/p.%04d ' $i; i=$((i + 1)); done)
run_gnu=$have_gnu
mkdir -p "$out/m-ours" "$out/m-gnu"
# shellcheck disable=SC2086
measure o "$out/m-ours" "$tmp/ours.txt" "$runs" -- "$ours" -s ../synth-5000/prog $files
if [ "$run_gnu" = 1 ]; then
	# shellcheck disable=SC2086
	measure g "$out/m-gnu" "$tmp/gnu.txt" "$runs" -- "$gnu" -s ../synth-5000/prog $files
	# GNU leaves the 12 spare header bytes uninitialised.
	tail -c +21 "$out/m-ours/gmon.sum" > "$tmp/sum-ours" 2>/dev/null || :
	tail -c +21 "$out/m-gnu/gmon.sum" > "$tmp/sum-gnu" 2>/dev/null || :
fi
row merge 5000 "${nmerge}files" "-s" "$(same "$tmp/sum-ours" "$tmp/sum-gnu")"

# The shell-loop idiom: one invocation per profile, adding into gmon.sum.
cat > "$tmp/loop.sh" <<'EOF'
gprof=$1 prog=$2 first=$3 count=$4
cp "$first" gmon.sum
i=0
while [ $i -lt "$count" ]; do
	"$gprof" -s "$prog" "$(printf '../merge-5000/p.%04d' $i)" gmon.sum || exit 1
	i=$((i + 1))
done
EOF
last=$(printf '../merge-5000/p.%04d' $((nmerge - 1)))
measure o "$out/m-ours" "$tmp/ours.txt" 1 -- sh "$tmp/loop.sh" "$ours" ../synth-5000/prog "$last" "$nloop"
per() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.4f", t / n }'; }
o_wall=$(per "$o_wall" "$nloop") o_cpu=$(per "$o_cpu" "$nloop")
if [ "$run_gnu" = 1 ]; then
	# GNU's -s scans every byte of the executable each time: seconds per
	# call here, so it runs the first $nloop_gnu calls, and ours the same
	# ones again (untimed) for the comparison.
	measure g "$out/m-gnu" "$tmp/gnu.txt" 1 -- sh "$tmp/loop.sh" "$gnu" ../synth-5000/prog "$last" "$nloop_gnu"
	g_wall=$(per "$g_wall" "$nloop_gnu") g_cpu=$(per "$g_cpu" "$nloop_gnu")
	(cd "$out/m-ours" && sh "$tmp/loop.sh" "$ours" ../synth-5000/prog "$last" "$nloop_gnu")
	tail -c +21 "$out/m-ours/gmon.sum" > "$tmp/sum-ours" 2>/dev/null || :
	tail -c +21 "$out/m-gnu/gmon.sum" > "$tmp/sum-gnu" 2>/dev/null || :
fi
s=$(same "$tmp/sum-ours" "$tmp/sum-gnu")
row loop 5000 "${nloop}calls" "-s" "$s"

{
	echo
	echo "GNU is skipped above N = $gnu_max_n functions (minutes per run)."
	echo "synth: bench/gen programs of N tiny functions and profiles of M arcs (self-recursion, cycles of"
	echo "  2-60 functions, and 1% of arcs pointing back, which makes one big cycle)."
	echo "real: a generated C program, $real_files files x $real_funcs functions, gcc -pg -g -O2, run"
	echo "  for its gmon.out; self: this gprof built with -pg -g -O2, run on the N = 20,000 input;"
	echo "  N = their text symbols."
	echo "merge: one gprof -s over $nmerge profiles of the 5,000-function program; loop: $nloop"
	echo "  invocations of gprof -s prog FILE gmon.sum (GNU: the first $nloop_gnu), time per invocation."
	echo "output: same = identical stdout (or gmon.sum past its header) to GNU's."
	echo "load average at end $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$results"

. "$top/bench/graph.sh"

# Each --output-format beside the text report, on the same big profile.
echo
sh "$top/bench/docs.sh"

if [ -f "$top/bench/runtime.sh" ]; then
	echo
	sh "$top/bench/runtime.sh"
fi

# GMON_SHLIBS and libgmon-audit.so beside glibc's runtime.
echo
sh "$top/bench/shlibs.sh"
echo; sh "$top/bench/lines.sh"	# -l and -A on one big compilation unit

# What GMON_CLOCK=wall costs, beside glibc's runtime.
if [ -f "$top/bench/wall.sh" ]; then
	echo
	sh "$top/bench/wall.sh"
fi

# What GMON_STACKS=1 costs per call and per sample, beside glibc's runtime.
echo
sh "$top/bench/stacks.sh"

# A profiled C library call (libc_p.a), when make libc_p has built it.
if [ -f "$top/src/libgmon/musl/libc_p.a" ]; then
	echo
	sh "$top/bench/libcp.sh"
fi

# The per-call cost of each foreign target's hook beside its own glibc's,
# under qemu-user, for every target whose libgmon was built (make check
# builds them; or make libgmon CROSS=TRIPLE-).
. "$top/tests/targets.sh"
for triple in $CROSS_TRIPLES; do
	[ -f "$top/src/libgmon/cross/$triple/libgmon.a" ] || continue
	command -v "$(target_qemu "$triple")" >/dev/null 2>&1 || continue
	echo
	RUNS=${RUNS:-3} sh "$top/bench/runtime.sh" --cross "$triple"
done
