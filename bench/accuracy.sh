#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/accuracy.sh - libgmon's accuracy on real programs against perf (not
# part of make check; the method is shared/reference/accuracy-method.md).
# For each program it fetches the Debian source (apt-get source, into
# $ACC_DIR/src, never into the tree), builds it with -pg -O2 -g linked
# with src/libgmon/libgmon.a, runs one workload under
#   perf record -e cpu-clock -F 999 --call-graph dwarf,STACK -- /usr/bin/time
#     env GMON_STACKS=1 GMON_SHLIBS=1 PROG ...
# so that perf and libgmon see the same run, and prints with
# bench/accuracy.py: the inclusive share of main and of the ten functions
# perf ranks highest, perf's and ours (`gprof --stacks`), and how many of
# perf's stacks stop short of their thread's root (perf's unwinding gives
# up inside glibc's malloc: a fifth of jq's samples), so that a share
# lies between perf's and perf's plus that fraction; the hook's
# share on both sides; and the samples recorded (the flat total plus the
# hook's and those outside every function) as a fraction of the
# process's CPU time (the side file's PTIMES, and /usr/bin/time), then
# per thread (TTIMES against the thread's own samples).
#
#   sh bench/accuracy.sh            xz and jq
#   ACC_PROGRAMS="jq" sh bench/accuracy.sh
#
# The programs: xz (xz-utils; liblzma built in statically, `xz -T2`: two
# worker threads that block every signal) and jq (a JSON processor that
# calls the regex library libonig.so and malloc heavily).  ACC_DIR
# (default bench/out/accuracy) keeps sources, builds and runs; a build
# is reused while libgmon.a is older than it.  Needs: linux-perf,
# libc6-dbg (the C library's names), dpkg-dev (apt-get source),
# libonig-dev, autoconf, automake and libtool (jq), python3; installed
# with apt-get when missing and run as root, else named and exit 1.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${ACC_DIR:-$top/bench/out/accuracy}
programs=${ACC_PROGRAMS:-xz jq}
# Bytes of stack perf copies per sample (ACC_PERF_STACK).  perf's
# default, 8192, cuts jq's deeper stacks (jq_next's recursion, the
# mcount frames beneath): perf then found main in 80% of jq's samples,
# where everything jq computes runs under main; 65528 is perf's most.
perf_stack=${ACC_PERF_STACK:-65528}
gprof=$top/src/gprof
lib=$top/src/libgmon

say() { echo "accuracy: $*" >&2; }

# ---- what it needs ----

deps() {
	missing=
	command -v perf >/dev/null 2>&1 || missing="$missing linux-perf"
	[ -d /usr/lib/debug/.build-id ] && dpkg -s libc6-dbg >/dev/null 2>&1 ||
		missing="$missing libc6-dbg"
	command -v dpkg-source >/dev/null 2>&1 || missing="$missing dpkg-dev"
	command -v autoreconf >/dev/null 2>&1 || missing="$missing autoconf"
	command -v aclocal >/dev/null 2>&1 || missing="$missing automake"
	command -v libtoolize >/dev/null 2>&1 || missing="$missing libtool"
	[ -f /usr/include/oniguruma.h ] || missing="$missing libonig-dev"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	[ -x /usr/bin/time ] || missing="$missing time"
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		say "missing:$missing (apt-get install$missing)"
		exit 1
	fi
	say "installing$missing"
	# shellcheck disable=SC2086 # a list of package names
	apt-get install -y -qq $missing >/dev/null
}

# ---- sources and builds ----

# fetch PKG: its unpacked source folder under $dir/src, printed.  The
# newest version may not be downloadable yet (a security update's
# source lags its binaries): then the older versions apt-cache knows.
fetch() {
	mkdir -p "$dir/src"
	found=$(find "$dir/src" -maxdepth 1 -type d -name "$1-*" | head -n 1)
	if [ -z "$found" ]; then
		(cd "$dir/src" && apt-get source -qq "$1" >/dev/null 2>&1) ||
		for v in $(apt-cache showsrc "$1" | sed -n 's/^Version: //p'); do
			(cd "$dir/src" && apt-get source -qq "$1=$v" >/dev/null 2>&1) && break
		done
		found=$(find "$dir/src" -maxdepth 1 -type d -name "$1-*" | head -n 1)
	fi
	[ -n "$found" ] || { say "cannot fetch the source of $1"; exit 1; }
	echo "$found"
}

# fresh FILE: FILE exists and is newer than libgmon.a (find -newer, as
# test's -nt is not POSIX).
fresh() { [ -f "$1" ] && [ -n "$(find "$1" -newer "$lib/libgmon.a")" ]; }

PG_CFLAGS="-pg -O2 -g"
PG_LIBS="-L$lib -lgmon -pthread"

# xz with liblzma linked in statically, so that its code is profiled.
build_xz() {
	s=$(fetch xz-utils)
	fresh "$s/src/xz/xz" && { echo "$s/src/xz/xz"; return; }
	say "building xz in $s"
	# The program's make knows nothing of libgmon.a: relink by hand.
	rm -f "$s/src/xz/xz"
	(cd "$s" && ./configure -q --disable-shared --enable-static --disable-nls \
		--disable-doc --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-scripts --disable-lzma-links \
		CFLAGS="$PG_CFLAGS" LIBS="$PG_LIBS" && make -s -j2) >"$dir/xz-build.log" 2>&1 ||
		{ say "xz build failed: $dir/xz-build.log"; exit 1; }
	echo "$s/src/xz/xz"
}

# jq with libjq linked in statically; libonig stays a shared library.
build_jq() {
	s=$(fetch jq)
	fresh "$s/jq" && { echo "$s/jq"; return; }
	say "building jq in $s"
	rm -f "$s/jq"
	(cd "$s" && autoreconf -fi && ./configure -q --disable-shared --enable-static \
		--disable-docs --disable-maintainer-mode --with-oniguruma=yes \
		CFLAGS="$PG_CFLAGS" LIBS="$PG_LIBS" && make -s -j2) >"$dir/jq-build.log" 2>&1 ||
		{ say "jq build failed: $dir/jq-build.log"; exit 1; }
	echo "$s/jq"
}

# ---- inputs (deterministic) and workloads ----

inputs() {
	[ -f "$dir/in/jq.json" ] && [ -f "$dir/in/xz.txt" ] && return 0
	mkdir -p "$dir/in"
	python3 - "$dir/in" <<'EOF'
import json, random, sys
r = random.Random(30)
words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 9)))
         for _ in range(5000)]
with open(sys.argv[1] + "/xz.txt", "w") as f:
    n = 0
    while n < 6000000:
        line = " ".join(r.choice(words) for _ in range(12)) + " %d\n" % r.randint(0, 10**6)
        f.write(line)
        n += len(line)
recs = [{"id": i, "name": " ".join(r.choice(words) for _ in range(4)),
         "tags": [r.choice(words) for _ in range(3)], "v": r.random()}
        for i in range(250000)]
json.dump(recs, open(sys.argv[1] + "/jq.json", "w"))
EOF
}

JQ_FILTER='[.[] | select(.name | test("a[bc]+d|x.*y")) | .name |= sub("e";"E";"g") | .tags |= map(ascii_upcase)] | length'

# measure NAME PROG ARGS...: one run under perf and libgmon, then the
# reports bench/accuracy.py reads.
measure() {
	name=$1 prog=$2
	shift 2
	r=$dir/run/$name
	rm -rf "$r"
	mkdir -p "$r"
	say "running $name"
	(cd "$r" && perf record -q -e cpu-clock -F 999 --call-graph "dwarf,$perf_stack" -o perf.data -- \
		/usr/bin/time -f "%U %S %e" -o time.txt \
		env GMON_STACKS=1 GMON_SHLIBS=1 "$prog" "$@" >out 2>err) ||
		{ say "$name failed: $(cat "$r/err")"; return 1; }
	perf script -i "$r/perf.data" --no-inline -F comm,tid,ip,sym,dso \
		>"$r/perf.script" 2>/dev/null
	(cd "$r" && "$gprof" -b -q --stacks "$prog" gmon.out >stacks.txt 2>gprof.err &&
	 "$gprof" -b -p "$prog" gmon.out >flat.txt 2>>gprof.err &&
	 "$gprof" --output-format=folded "$prog" gmon.out >folded.txt 2>>gprof.err) ||
		{ say "gprof failed on $name: $(cat "$r/gprof.err")"; return 1; }
	python3 "$top/bench/accuracy.py" "$r" "$prog" "$(basename "$prog")" "$dir/hooks.txt"
}

# ---- the run ----

if [ ! -f "$lib/libgmon.a" ] || [ ! -x "$gprof" ]; then
	say "run make first"
	exit 1
fi
deps
mkdir -p "$dir"
nm --defined-only "$lib/libgmon.a" 2>/dev/null |
	awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$dir/hooks.txt"
inputs
echo "libgmon against perf (cpu-clock, 999 Hz, DWARF stacks), $(date -u +%Y-%m-%d), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for p in $programs; do
	case $p in
	xz) prog=$(build_xz)
	    measure xz "$prog" -T2 -6 --block-size=1MiB -c "$dir/in/xz.txt" ;;
	jq) prog=$(build_jq)
	    measure jq "$prog" "$JQ_FILTER" "$dir/in/jq.json" ;;
	*) say "unknown program $p (xz, jq)"; exit 1 ;;
	esac
	echo
done
