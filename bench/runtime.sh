#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/runtime.sh: the per-call cost of profiling with glibc's runtime and
# with libgmon, measured in the same run on a call-heavy program (recursive
# fib, -O2, bench/runtime/fib.c), single-threaded and with 4 threads.
#
#   sh bench/runtime.sh            (after `make`; not part of make check)
#   sh bench/runtime.sh -m32       the same for i386 (src/libgmon/32)
#   sh bench/runtime.sh --cross TRIPLE
#                                  the same for a foreign target, built with
#                                  TRIPLE-gcc and src/libgmon/cross/TRIPLE,
#                                  run under qemu-user (see below)
#
# Three builds of the same source: no -pg, -pg with glibc's runtime, and
# -pg with libgmon.  Each runs RUNS times (default 7), interleaved round
# robin so that drifts in machine speed hit every build alike; the medians
# are compared.  The program times only the computation (start-up and the
# profile write are excluded).  "+ns/call" is the extra time per call over
# the build without -pg: CPU time (all threads' CPU, divided by all calls)
# and wall-clock time.  "counted" is the share of calls the profile
# recorded.  Environment: FIB_N (default 34; 30 under qemu), RUNS, CC.
#
# Under qemu-user the figures measure the emulator as much as the code:
# they compare glibc's runtime with libgmon on the same target in the same
# run, and nothing else (not one target with another, nor with the host).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out/runtime
RUNS=${RUNS:-7}
CC=${CC:-gcc}
SRC=$ROOT/bench/runtime/fib.c
ARCH='' LIB=$ROOT/src/libgmon WIDTH=8 RUN= ENDIAN=little NM=nm
case ${1:-} in
-m32)
	ARCH=-m32 LIB=$ROOT/src/libgmon/32 WIDTH=4 ;;
--cross)
	# shellcheck source=tests/targets.sh
	. "$ROOT/tests/targets.sh"
	triple=${2:?usage: runtime.sh --cross TRIPLE}
	CC=$triple-gcc LIB=$ROOT/src/libgmon/cross/$triple OUT=$OUT-$triple
	RUN="$(target_qemu "$triple") -L /usr/$triple"
	NM=$triple-nm
	case $triple in arm-*) WIDTH=4 ;; esac
	case $triple in s390x-*) ENDIAN=big ;; esac
	LIBC="target glibc $(dpkg-query -W -f '${Version}' \
		"libc6-$(target_debarch "$triple")-cross" 2>/dev/null)"
	N=${FIB_N:-30} ;;
esac
N=${N:-${FIB_N:-34}}

if [ ! -f "$LIB/libgmon.a" ]; then
	echo "runtime.sh: $LIB/libgmon.a is missing; run make first" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT/plain" "$OUT/glibc" "$OUT/libgmon"
$CC $ARCH -O2 -pthread "$SRC" -o "$OUT/plain/prog"
$CC $ARCH -O2 -pg -pthread "$SRC" -o "$OUT/glibc/prog"
$CC $ARCH -O2 -pg -pthread "$SRC" -o "$OUT/libgmon/prog" -L"$LIB" -lgmon
cc -O2 -o "$OUT/gmondump" "$ROOT/tests/libgmon/gmondump.c"

# Calls into fib recorded in a build's last profile.
fib_calls() {
	$NM -n -S --defined-only "$OUT/$1/prog" >"$OUT/$1/syms"
	"$OUT/gmondump" -w "$WIDTH" -e "$ENDIAN" -s "$OUT/$1/syms" "$OUT/$1/gmon.out" arcs |
		awk '$2 == "fib" { n += $3 } END { print n + 0 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"Linux $(uname -r)"
echo "toolchain: $($CC --version | head -1); ${LIBC:-$(ldd --version 2>&1 | head -1)}${ARCH:+; $ARCH}${RUN:+; run with $RUN}"

# Every libgmon run counts every call, so one single-threaded profile
# gives the number of calls fib(N) makes in all three builds.
(cd "$OUT/libgmon" && $RUN ./prog "$N" 1 >/dev/null)
calls=$(fib_calls libgmon)
echo "fib($N): $calls calls per thread; $RUNS runs per build, medians"
echo
printf '%-8s %-8s %10s %10s %14s %15s %8s\n' threads build "wall ms" "CPU ms" \
	"+ns/call CPU" "+ns/call wall" counted

for threads in 1 4; do
	for b in plain glibc libgmon; do
		: >"$OUT/$b/times.$threads"
	done
	i=0
	while [ $i -lt "$RUNS" ]; do
		for b in plain glibc libgmon; do
			(cd "$OUT/$b" && $RUN ./prog "$N" "$threads" >>"times.$threads")
		done
		i=$((i + 1))
	done
	total=$((calls * threads))
	pw=$(cut -d' ' -f1 "$OUT/plain/times.$threads" | median)
	pc=$(cut -d' ' -f2 "$OUT/plain/times.$threads" | median)
	for b in plain glibc libgmon; do
		w=$(cut -d' ' -f1 "$OUT/$b/times.$threads" | median)
		c=$(cut -d' ' -f2 "$OUT/$b/times.$threads" | median)
		counted=-
		if [ "$b" != plain ]; then
			counted=$(awk -v got="$(fib_calls "$b")" -v want="$total" \
				'BEGIN { printf "%.0f%%", 100 * got / want }')
		fi
		awk -v t="$threads" -v b="$b" -v w="$w" -v c="$c" -v pw="$pw" -v pc="$pc" \
			-v n="$total" -v k="$counted" 'BEGIN {
			if (b == "plain")
				printf "%-8s %-8s %10.1f %10.1f %14s %15s %8s\n", t, b, w / 1e6, c / 1e6, "-", "-", k
			else
				printf "%-8s %-8s %10.1f %10.1f %14.2f %15.2f %8s\n", t, b, w / 1e6, c / 1e6,
					(c - pc) / n, (w - pw) / n, k
		}'
	done
done
