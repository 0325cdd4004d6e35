#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/libcp.sh: the per-call cost of a profiled C library call with
# libc_p.a (musl built with -pg, `make libc_p`): memcpy of LEN bytes N
# times from main (bench/libcp/memcpy.c), static musl, four builds:
#   plain   musl-gcc -O2 -static                 (musl's assembly memcpy)
#   plain-c the same with musl's C memcpy, no -pg (libc_p's build of it
#           for the TLS set-up, renamed back to memcpy)
#   pg      ... -pg -lgmon                       (memcpy not profiled)
#   libc_p  ... -pg -lgmon -lc_p                 (memcpy in C, with its hook)
# libc_p's memcpy is the C one, so its hook costs libc_p minus plain-c.
# Each runs RUNS times (default 7), round robin; medians.  ns/call is the
# loop's CPU time divided by N (the wall time is printed too, but is the
# noisier on a shared machine); "+ns/call" and "x" compare with plain-c;
# "counted" the main -> memcpy calls the profile holds.  Also prints the
# time `make libc_p` took to build the archive (recorded by libc_p.sh).
# Environment: N (default 50000000), LEN (default 16), RUNS.
#
#   sh bench/libcp.sh        (after make libc_p; make bench runs it too)
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out/libcp
LIB=$ROOT/src/libgmon/musl
RUNS=${RUNS:-7}
N=${N:-50000000}
LEN=${LEN:-16}
SRC=$ROOT/bench/libcp/memcpy.c

if [ ! -f "$LIB/libc_p.a" ] || [ ! -f "$LIB/libgmon.a" ]; then
	echo "libcp.sh: $LIB/libc_p.a or libgmon.a is missing; run make libc_p first" >&2
	exit 1
fi
rm -rf "$OUT"
BUILDS="plain plain-c pg libc_p"
for b in $BUILDS; do mkdir -p "$OUT/$b"; done
musl-gcc -O2 -static "$SRC" -o "$OUT/plain/prog"
early=$ROOT/build/libgmon/libc_p/obj/src/string/libc_p_memcpy_early
for f in "$early".lo "$early".o; do
	[ -f "$f" ] && early=$f && break
done
objcopy --redefine-sym __libc_p_memcpy_early=memcpy "$early" "$OUT/plain-c/memcpy.o"
musl-gcc -O2 -static "$SRC" "$OUT/plain-c/memcpy.o" -o "$OUT/plain-c/prog"
musl-gcc -O2 -pg -static "$SRC" -o "$OUT/pg/prog" -L"$LIB" -lgmon
musl-gcc -O2 -pg -static "$SRC" -o "$OUT/libc_p/prog" -L"$LIB" -lgmon -lc_p
cc -O2 -o "$OUT/gmondump" "$ROOT/tests/libgmon/gmondump.c"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
	"Linux $(uname -r); musl $(dpkg-query -W -f '${Version}' musl-dev 2>/dev/null)"
built=$ROOT/build/libgmon/libc_p/build-time
[ -f "$built" ] && echo "libc_p.a: built by make libc_p in $(cat "$built")"
echo "memcpy of $LEN bytes, $N calls from main; $RUNS runs per build, medians"
echo
printf '%-8s %10s %10s %10s %10s %7s %10s\n' build "wall ms" "CPU ms" ns/call +ns/call x counted
for b in $BUILDS; do : >"$OUT/$b/times"; done
i=0
while [ $i -lt "$RUNS" ]; do
	for b in $BUILDS; do
		(cd "$OUT/$b" && ./prog "$N" "$LEN" >>"$OUT/$b/times")
	done
	i=$((i + 1))
done
pc=$(cut -d' ' -f2 "$OUT/plain-c/times" | median)
for b in $BUILDS; do
	w=$(cut -d' ' -f1 "$OUT/$b/times" | median)
	c=$(cut -d' ' -f2 "$OUT/$b/times" | median)
	counted=-
	if [ "$b" = libc_p ]; then
		nm -n -S --defined-only "$OUT/$b/prog" >"$OUT/$b/syms"
		counted=$("$OUT/gmondump" -w 8 -s "$OUT/$b/syms" "$OUT/$b/gmon.out" arcs |
			awk '$1 == "main" && $2 == "memcpy" { n += $3 } END { print n + 0 }')
	fi
	awk -v b="$b" -v w="$w" -v c="$c" -v pc="$pc" -v n="$N" -v k="$counted" 'BEGIN {
		printf "%-8s %10.1f %10.1f %10.2f %10.2f %7.2f %10s\n", b, w / 1e6, c / 1e6,
			c / n, (c - pc) / n, c / pc, k
	}'
done
