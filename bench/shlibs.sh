#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/shlibs.sh: what GMON_SHLIBS and libgmon-audit.so cost, beside
# glibc's runtime, in the same run (after `make`; part of `make bench`).
#
#   lib calls   +ns per call made inside a -pg shared library (recursive
#               fib): without -pg; glibc's runtime (which ignores such
#               calls); libgmon without the switch (also ignores them);
#               libgmon with GMON_SHLIBS=1 (counts them)
#   PLT calls   +ns per call from the program into the C library
#               (getppid): libgmon alone, and with
#               LD_AUDIT=libgmon-audit.so (counts them)
#
# Each build runs RUNS times (default 5), interleaved; medians of the CPU
# time the program measures itself (start-up and the write excluded).
# Environment: FIB_N (default 32), PLT_N (default 2000000), RUNS, CC.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out/shlibs
RUNS=${RUNS:-5}
CC=${CC:-gcc}
FIB_N=${FIB_N:-30}
PLT_N=${PLT_N:-2000000}
LIB=$ROOT/src/libgmon
S=$ROOT/bench/shlibs
rm -rf "$OUT"
mkdir -p "$OUT/plain" "$OUT/pg"
cd "$OUT"

$CC -O2 -fPIC -shared "$S/lib.c" -o plain/libfib.so
$CC -O2 -pg -fPIC -shared "$S/lib.c" -o pg/libfib.so
link() {	# name, lib folder, extra flags...
	name=$1 dir=$2
	shift 2
	$CC -O2 "$@" "$S/main.c" -L"$dir" -lfib -Wl,-rpath,"$OUT/$dir" -o "$name"
}
link nopg plain
link glibc pg -pg
link gmon pg -pg -L"$LIB" -lgmon
AUDIT=$LIB/libgmon-audit.so

# run MODE N PROGRAM ENV...: prints "calls seconds"
run() {
	mode=$1 n=$2 prog=$3
	shift 3
	env GMON_OUT_PREFIX="$OUT/gmon" "$@" "./$prog" "$mode" "$n"
}

# One configuration per line: label|mode|n|program|env...
cat > configs <<CFG
lib nopg|fib|$FIB_N|nopg
lib glibc|fib|$FIB_N|glibc
lib libgmon|fib|$FIB_N|gmon
lib libgmon GMON_SHLIBS=1|fib|$FIB_N|gmon|GMON_SHLIBS=1
plt nopg|plt|$PLT_N|nopg
plt libgmon|plt|$PLT_N|gmon
plt libgmon + audit|plt|$PLT_N|gmon|LD_AUDIT=$AUDIT
CFG

: > results
i=0
while [ "$i" -lt "$RUNS" ]; do
	while IFS='|' read -r label mode n prog envs; do
		# shellcheck disable=SC2086
		set -- $envs
		printf '%s|%s\n' "$label" "$(run "$mode" "$n" "$prog" "$@")" >> results
	done < configs
	i=$((i + 1))
done
rm -f "$OUT"/gmon.*

awk -F'|' '
	{ split($2, f, " "); calls[$1] = f[1]; t[$1, ++k[$1]] = f[2]; order[$1] = NR }
	function median(l,   n, i, j, v, tmp) {
		n = k[l]
		for (i = 1; i <= n; i++) v[i] = t[l, i]
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (v[j] < v[i]) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
		return v[int((n + 1) / 2)]
	}
	END {
		printf "%-28s %10s %12s %12s\n", "build", "calls", "ns/call", "+ns/call"
		for (l in order) m[l] = median(l)
		n = split("lib nopg|lib glibc|lib libgmon|lib libgmon GMON_SHLIBS=1|plt nopg|plt libgmon|plt libgmon + audit", ls, "|")
		for (i = 1; i <= n; i++) {
			l = ls[i]; base = (substr(l, 1, 3) == "lib") ? "lib nopg" : "plt nopg"
			per = m[l] / calls[l] * 1e9
			printf "%-28s %10d %12.2f %12.2f\n", l, calls[l], per, per - m[base] / calls[base] * 1e9
		}
		printf "GMON_SHLIBS=1 against glibc, per call in the library: %.2fx\n",
			(m["lib libgmon GMON_SHLIBS=1"] - m["lib nopg"]) / (m["lib glibc"] - m["lib nopg"])
	}' results | tee summary
