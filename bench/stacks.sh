#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/stacks.sh: what GMON_STACKS=1 (a call stack per sampling tick)
# costs, beside glibc's runtime in the same run (after `make`; not part of
# make check; `make bench` runs it).
#
# fib(N) (bench/runtime/fib.c, -O2, one thread: about 2*fib(N+1) calls)
# built without -pg, with -pg and glibc's runtime, and with -pg and
# libgmon, run with stacks off and on, at the default rate (1000 samples
# per second) and at RATE (10000): RUNS interleaved runs, median CPU time
# of the computation.  Per call: the extra over no -pg divided by the
# calls.  Per sample: the extra of stacks on over stacks off divided by
# the samples taken (CPU seconds x rate); the stacks are fib's recursion,
# about N frames deep.
# Then the tick routine alone, timed directly (bench/runtime/stack_tick.c).
# Environment: FIB_N (default 36), RUNS (default 5), RATE (default 10000),
# CC.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out/stacks
RUNS=${RUNS:-5} N=${FIB_N:-36} RATE=${RATE:-10000} CC=${CC:-gcc}
LIB=$ROOT/src/libgmon
if [ ! -f "$LIB/libgmon.a" ]; then
	echo "stacks.sh: $LIB/libgmon.a is missing; run make first" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT"
$CC -O2 -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/plain"
$CC -O2 -pg -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/glibc"
$CC -O2 -pg -pthread "$ROOT/bench/runtime/fib.c" -o "$OUT/libgmon" -L"$LIB" -lgmon

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The runs: NAME PROGRAM ENV...
set -- \
	"plain plain" \
	"glibc glibc" \
	"off libgmon" \
	"on libgmon GMON_STACKS=1" \
	"off-rate libgmon GMON_RATE=$RATE" \
	"on-rate libgmon GMON_STACKS=1 GMON_RATE=$RATE"
for r in "$@"; do : > "$OUT/${r%% *}.times"; done
i=0
while [ $i -lt "$RUNS" ]; do
	for r in "$@"; do
		# shellcheck disable=SC2086
		(cd "$OUT" && set -- $r && name=$1 prog=$2 && shift 2 &&
		 env "$@" "./$prog" "$N" 1 | cut -d' ' -f2 >> "$name.times")
	done
	i=$((i + 1))
done

calls=$(awk -v n="$N" 'BEGIN { a = 0; b = 1; for (i = 0; i < n + 1; i++) { t = a + b; a = b; b = t }
	print 2 * a - 1 }')
cpu() { median < "$OUT/$1.times"; }
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "fib($N): $calls calls, $RUNS interleaved runs, median CPU ms; per call: extra over no -pg"
printf '%-34s %9s %12s\n' build "CPU ms" "ns/call"
plain=$(cpu plain)
for r in "no -pg:plain" "-pg, glibc's runtime:glibc" "libgmon, stacks off:off" \
	"libgmon, GMON_STACKS=1:on" "libgmon, off, $RATE/s:off-rate" \
	"libgmon, GMON_STACKS=1, $RATE/s:on-rate"; do
	c=$(cpu "${r##*:}")
	awk -v l="${r%:*}" -v c="$c" -v p="$plain" -v k="$calls" 'BEGIN {
		printf "%-34s %9.1f %12.2f\n", l, c / 1e6, (c - p) / k }'
done
for pair in "off on 1000" "off-rate on-rate $RATE"; do
	set -- $pair
	awk -v a="$(cpu "$1")" -v b="$(cpu "$2")" -v hz="$3" 'BEGIN {
		s = b / 1e9 * hz
		printf "stacks at %d samples/s: %+.1f ms CPU over %d samples: %.2f us per sample\n",
			hz, (b - a) / 1e6, s, (s > 0 ? (b - a) / 1e3 / s : 0) }'
done

# The per-sample cost without the sampling noise: libgmon's tick routine
# run a million times on one signal context, at the bottom of stacks 4,
# 32 and 128 frames deep (bench/runtime/stack_tick.c).  The signal's
# own delivery is the same with stacks on or off and is not included.
# Twice: the frames unwound from their call-frame information (the
# default), and built without it (-fno-asynchronous-unwind-tables), so
# that the walk follows their frame pointers instead, as it does in code
# that has no CFI.
$CC -O2 -pg -pthread "$ROOT/bench/runtime/stack_tick.c" -o "$OUT/stack_tick" -L"$LIB" -lgmon
$CC -O2 -pg -pthread -fno-asynchronous-unwind-tables -fno-unwind-tables \
	"$ROOT/bench/runtime/stack_tick.c" -o "$OUT/stack_tick_fp" -L"$LIB" -lgmon
for d in 4 32 128; do
	(cd "$OUT" && GMON_STACKS=1 GMON_RATE=1 ./stack_tick "$d" 1000000 |
		sed 's/^/stacks, direct, call-frame information: /')
	(cd "$OUT" && GMON_STACKS=1 GMON_RATE=1 ./stack_tick_fp "$d" 1000000 |
		sed 's/^/stacks, direct, frame pointers: /')
done
