#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/wall.sh: what GMON_CLOCK=wall costs, beside glibc's runtime in the
# same run (after `make`; not part of make check; `make bench` runs it).
#
#   1. A CPU-bound program (bench/runtime/fib.c, fib(N) in 1 and in 4
#      threads, -O2): no -pg, -pg with glibc's runtime, -pg with libgmon
#      under GMON_CLOCK=cpu and under GMON_CLOCK=wall.  Median wall and
#      CPU time of RUNS interleaved runs; "+%" is the extra over no -pg.
#      With 4 threads the main thread waits in pthread_join, so the wall
#      clock's sampler has one blocked thread to follow.
#   2. Threads that only wait (bench/runtime/blocked.c: T threads blocked
#      in read(), the main one asleep, for SECS): the process's CPU time
#      under each clock.  The difference is the sampler thread's, shown
#      as a share of one CPU and per blocked thread per tick.
# Environment: FIB_N (default 32), RUNS (default 5), SECS (default 1),
# BLOCKED (default "1 10 100"), CC.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out/wall
RUNS=${RUNS:-5} N=${FIB_N:-32} SECS=${SECS:-1} CC=${CC:-gcc}
BLOCKED=${BLOCKED:-1 10 100}
LIB=$ROOT/src/libgmon
if [ ! -f "$LIB/libgmon.a" ]; then
	echo "wall.sh: $LIB/libgmon.a is missing; run make first" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT/plain" "$OUT/glibc" "$OUT/cpu" "$OUT/wall" "$OUT/blocked"
$CC -O2 -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/plain/prog"
$CC -O2 -pg -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/glibc/prog"
$CC -O2 -pg -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/cpu/prog" -L"$LIB" -lgmon
cp "$OUT/cpu/prog" "$OUT/wall/prog"
$CC -O2 -pg -pthread "$ROOT/bench/runtime/blocked.c" -o "$OUT/blocked/prog" -L"$LIB" -lgmon

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# one BUILD ARGS...: run BUILD's program once, appending "wall cpu".
one() {
	_b=$1
	shift
	case $_b in
	cpu|wall) _env="GMON_CLOCK=$_b" ;;
	*) _env= ;;
	esac
	(cd "$OUT/$_b" && env $_env ./prog "$@" >>times)
}

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"Linux $(uname -r); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "toolchain: $($CC --version | head -1); $(ldd --version 2>&1 | head -1)"
echo "1. fib($N), $RUNS interleaved runs per build, medians"
printf '%-8s %-10s %9s %9s %8s %8s\n' threads build "wall ms" "CPU ms" "wall +%" "CPU +%"
for threads in 1 4; do
	for b in plain glibc cpu wall; do : >"$OUT/$b/times"; done
	i=0
	while [ $i -lt "$RUNS" ]; do
		for b in plain glibc cpu wall; do one "$b" "$N" "$threads"; done
		i=$((i + 1))
	done
	pw=$(cut -d' ' -f1 "$OUT/plain/times" | median)
	pc=$(cut -d' ' -f2 "$OUT/plain/times" | median)
	for b in plain glibc cpu wall; do
		w=$(cut -d' ' -f1 "$OUT/$b/times" | median)
		c=$(cut -d' ' -f2 "$OUT/$b/times" | median)
		awk -v t="$threads" -v b="$b" -v w="$w" -v c="$c" -v pw="$pw" -v pc="$pc" 'BEGIN {
			name = b == "cpu" ? "libgmon-cpu" : b == "wall" ? "libgmon-wall" : b
			printf "%-8s %-12s %7.1f %9.1f %8.1f %8.1f\n", t, name, w / 1e6, c / 1e6,
				100 * (w - pw) / pw, 100 * (c - pc) / pc }'
	done
done

echo
echo "2. T threads blocked in read() plus main asleep, ${SECS} s, 1000 samples/s, $RUNS runs, medians"
printf '%-8s %12s %12s %14s %16s\n' blocked "CPU ms cpu" "CPU ms wall" "sampler % CPU" "us/thread/tick"
for t in $BLOCKED; do
	for clock in cpu wall; do
		: >"$OUT/blocked/times.$clock"
	done
	i=0
	while [ $i -lt "$RUNS" ]; do
		for clock in cpu wall; do
			(cd "$OUT/blocked" && GMON_CLOCK=$clock ./prog "$t" "$SECS" >>"times.$clock")
		done
		i=$((i + 1))
	done
	cc=$(cut -d' ' -f2 "$OUT/blocked/times.cpu" | median)
	cw=$(cut -d' ' -f2 "$OUT/blocked/times.wall" | median)
	ww=$(cut -d' ' -f1 "$OUT/blocked/times.wall" | median)
	awk -v t="$t" -v cc="$cc" -v cw="$cw" -v w="$ww" 'BEGIN {
		d = cw - cc; ticks = w / 1e6
		printf "%-8d %12.2f %12.2f %14.2f %16.2f\n", t + 1, cc / 1e6, cw / 1e6,
			100 * d / w, d / 1e3 / ticks / (t + 1) }'
done
