#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/preload.sh - the preloaded runtime (libgmon-preload.so through
# gprof-run, issue 32) on real programs that were not built for
# profiling: its cost and its accuracy against perf (not part of make
# check).  For each workload it
#   (a) runs the program plain, under `gprof-run` and under
#       `gprof-run --stacks` (1000 samples per second of CPU time, the
#       default), PRE_RUNS times each (default 7), the three interleaved
#       so that the machine's other load falls on all of them alike, and
#       takes the process's CPU time (user + system, /usr/bin/time, every
#       thread) of each run: the overhead is the median under gprof-run
#       over the plain median, less one;
#   (b) runs it once more as
#         perf record -e cpu-clock -F 999 --call-graph dwarf,STACK --
#           gprof-run --stacks PROG ...
#       so that perf and libgmon see the same run, and compares the ten
#       functions perf ranks highest by self time, and the ten it ranks
#       highest by inclusive time, with `gprof` (flat profile, and
#       `--stacks` call graph) on the same run (bench/preload.py);
#   (c) runs it under perf alone and under perf and `gprof-run` (no
#       stacks) too: the share of perf's samples in the runtime (its
#       frames, the kernel's signal delivery) and in the kernel, with and
#       without it, estimate the overhead from within each run, which
#       the machine's other load does not move as it moves CPU times.
# The workloads: xz (xz-utils, liblzma linked in statically, `xz -T2`:
# two worker threads) and jq (libjq static, libonig shared), built from
# their Debian sources with -O2 -g and neither -pg nor libgmon, not
# stripped; and the system's own /usr/bin/xz as installed (stripped,
# liblzma.so.5 with only its exported symbols unless a debug package
# is installed) on the same input.
#
#   sh bench/preload.sh               all three
#   PRE_PROGRAMS="jq" sh bench/preload.sh
#
# PRE_DIR (default bench/out/preload) keeps sources, builds, inputs and
# runs, never in git.  Sources: apt-get source, unless bench/accuracy.sh
# already fetched them (ACC_DIR, default bench/out/accuracy: copied from
# there, with its inputs).  Needs what bench/accuracy.sh needs: installed
# with apt-get when missing and run as root, else named and exit 1.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${PRE_DIR:-$top/bench/out/preload}
acc=${ACC_DIR:-$top/bench/out/accuracy}
programs=${PRE_PROGRAMS:-xz jq sysxz}
runs=${PRE_RUNS:-7}
perf_stack=${PRE_PERF_STACK:-65528}
gprof=$top/src/gprof
run=$top/src/libgmon/gprof-run

say() { echo "preload: $*" >&2; }

# ---- what it needs ----

deps() {
	missing=
	command -v perf >/dev/null 2>&1 || missing="$missing linux-perf"
	dpkg -s libc6-dbg >/dev/null 2>&1 || missing="$missing libc6-dbg"
	command -v dpkg-source >/dev/null 2>&1 || missing="$missing dpkg-dev"
	command -v autoreconf >/dev/null 2>&1 || missing="$missing autoconf"
	command -v aclocal >/dev/null 2>&1 || missing="$missing automake"
	command -v libtoolize >/dev/null 2>&1 || missing="$missing libtool"
	[ -f /usr/include/oniguruma.h ] || missing="$missing libonig-dev"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	[ -x /usr/bin/time ] || missing="$missing time"
	[ -x /usr/bin/xz ] || missing="$missing xz-utils"
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" != 0 ]; then
		say "missing:$missing (apt-get install$missing)"
		exit 1
	fi
	say "installing$missing"
	# shellcheck disable=SC2086 # a list of package names
	apt-get install -y -qq $missing >/dev/null
}

# ---- sources, builds and inputs ----

# fetch PKG: its unpacked source folder under $dir/src, printed: a copy
# of bench/accuracy.sh's when it has one, else apt-get source (the
# older versions apt-cache knows when the newest cannot be fetched).
fetch() {
	mkdir -p "$dir/src"
	found=$(find "$dir/src" -maxdepth 1 -type d -name "$1-*" | head -n 1)
	if [ -z "$found" ]; then
		from=$(find "$acc/src" -maxdepth 1 -type d -name "$1-*" 2>/dev/null | head -n 1)
		if [ -n "$from" ]; then
			cp -a "$from" "$dir/src/"
		else
			(cd "$dir/src" && apt-get source -qq "$1" >/dev/null 2>&1) ||
			for v in $(apt-cache showsrc "$1" | sed -n 's/^Version: //p'); do
				(cd "$dir/src" && apt-get source -qq "$1=$v" >/dev/null 2>&1) && break
			done
		fi
		found=$(find "$dir/src" -maxdepth 1 -type d -name "$1-*" | head -n 1)
	fi
	[ -n "$found" ] || { say "cannot fetch the source of $1"; exit 1; }
	echo "$found"
}

CFLAGS_PLAIN="-O2 -g"

# Built once: the stamp says it was built here without -pg.
build_xz() {
	s=$(fetch xz-utils)
	[ -f "$s/.preload-built" ] && [ -x "$s/src/xz/xz" ] && { echo "$s/src/xz/xz"; return; }
	say "building xz in $s (-O2 -g, no -pg)"
	(cd "$s" && ./configure -q --disable-shared --enable-static --disable-nls \
		--disable-doc --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-scripts --disable-lzma-links CFLAGS="$CFLAGS_PLAIN" LIBS= &&
	 make -s clean && make -s -j2) >"$dir/xz-build.log" 2>&1 ||
		{ say "xz build failed: $dir/xz-build.log"; exit 1; }
	touch "$s/.preload-built"
	echo "$s/src/xz/xz"
}

build_jq() {
	s=$(fetch jq)
	[ -f "$s/.preload-built" ] && [ -x "$s/jq" ] && { echo "$s/jq"; return; }
	say "building jq in $s (-O2 -g, no -pg)"
	(cd "$s" && autoreconf -fi && ./configure -q --disable-shared --enable-static \
		--disable-docs --disable-maintainer-mode --with-oniguruma=yes \
		CFLAGS="$CFLAGS_PLAIN" LIBS= && make -s clean && make -s -j2) \
		>"$dir/jq-build.log" 2>&1 ||
		{ say "jq build failed: $dir/jq-build.log"; exit 1; }
	touch "$s/.preload-built"
	echo "$s/jq"
}

# Not -pg, not stripped: what the benchmark is about.
check_plain() {
	if nm "$1" 2>/dev/null | grep -Eq ' (mcount|_mcount|__fentry__)$'; then
		say "$1 was built with -pg: remove $dir/src to rebuild it"
		exit 1
	fi
	nm "$1" >/dev/null 2>&1 || { say "$1 has no symbols"; exit 1; }
}

# The inputs of bench/accuracy.sh (the same generator, seed 30).
inputs() {
	[ -f "$dir/in/jq.json" ] && [ -f "$dir/in/xz.txt" ] && return 0
	mkdir -p "$dir/in"
	if [ -f "$acc/in/jq.json" ] && [ -f "$acc/in/xz.txt" ]; then
		cp "$acc/in/jq.json" "$acc/in/xz.txt" "$dir/in/"
		return 0
	fi
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

# ---- the runs ----

# cpu_runs NAME PROG ARGS...: PRE_RUNS rounds of plain, gprof-run and
# gprof-run --stacks; each run's "MODE USER SYSTEM WALL" appended to
# $r/cpu.txt.
cpu_runs() {
	name=$1
	shift
	r=$dir/run/$name
	rm -rf "$r"
	mkdir -p "$r/plain" "$r/flat" "$r/stacks"
	say "$name: $runs rounds of plain, gprof-run, gprof-run --stacks"
	i=0
	while [ "$i" -lt "$runs" ]; do
		for mode in plain flat stacks; do
			case $mode in
			plain) pre= ;;
			flat) pre=$run ;;
			stacks) pre="$run --stacks" ;;
			esac
			# shellcheck disable=SC2086 # gprof-run and its option
			(cd "$r/$mode" && rm -f gmon.out gmon.out.shlibs &&
			 /usr/bin/time -f "%U %S %e" -o t.txt $pre "$@" >/dev/null 2>err) ||
				{ say "$name ($mode) failed: $(cat "$r/$mode/err")"; exit 1; }
			echo "$mode $(tail -n 1 "$r/$mode/t.txt")" >>"$r/cpu.txt"
		done
		i=$((i + 1))
	done
}

# perf_run NAME MODE PROG ARGS...: one run under perf (and, MODE flat or
# stacks, gprof-run), into $dir/run/NAME/perf-MODE; with stacks also the
# reports bench/preload.py reads.
perf_run() {
	name=$1 mode=$2 prog=$3
	shift 3
	r=$dir/run/$name/perf-$mode
	rm -rf "$r"
	mkdir -p "$r"
	case $mode in
	plain) pre= ;;
	flat) pre=$run ;;
	stacks) pre="$run --stacks" ;;
	esac
	say "$name: under perf ($mode)"
	# shellcheck disable=SC2086 # gprof-run and its option
	(cd "$r" && perf record -q -e cpu-clock -F 999 --call-graph "dwarf,$perf_stack" \
		-o perf.data -- /usr/bin/time -f "%U %S %e" -o time.txt \
		$pre "$prog" "$@" >/dev/null 2>err) ||
		{ say "$name under perf failed: $(cat "$r/err")"; exit 1; }
	perf script -i "$r/perf.data" --no-inline -F comm,tid,ip,sym,dso \
		>"$r/perf.script" 2>/dev/null
	rm -f "$r/perf.data"
	[ "$mode" = stacks ] || return 0
	(cd "$r" && "$gprof" -b -q --stacks "$prog" gmon.out >stacks.txt 2>gprof.err &&
	 "$gprof" -b -p "$prog" gmon.out >flat.txt 2>>gprof.err &&
	 "$gprof" --output-format=folded "$prog" gmon.out >folded.txt 2>>gprof.err &&
	 "$gprof" --output-format=json "$prog" gmon.out >flat.json 2>>gprof.err) ||
		{ say "gprof failed on $name: $(cat "$r/gprof.err")"; exit 1; }
}

measure() {
	name=$1 prog=$2
	shift 2
	cpu_runs "$name" "$prog" "$@"
	for mode in plain flat stacks; do
		perf_run "$name" "$mode" "$prog" "$@"
	done
	python3 "$top/bench/preload.py" "$dir/run/$name" "$prog" "$(basename "$prog")"
	echo
}

if [ ! -x "$run" ] || [ ! -f "$top/src/libgmon/libgmon-preload.so" ] || [ ! -x "$gprof" ]; then
	say "run make first"
	exit 1
fi
deps
mkdir -p "$dir"
inputs
echo "gprof-run against plain runs and perf (cpu-clock, 999 Hz, DWARF stacks),"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg),"
echo "$runs runs of each mode, $(uname -r)"
echo
for p in $programs; do
	case $p in
	xz) prog=$(build_xz)
	    check_plain "$prog"
	    measure xz "$prog" -T2 -6 --block-size=1MiB -c "$dir/in/xz.txt" ;;
	jq) prog=$(build_jq)
	    check_plain "$prog"
	    measure jq "$prog" "$JQ_FILTER" "$dir/in/jq.json" ;;
	sysxz) measure sysxz /usr/bin/xz -T2 -6 --block-size=1MiB -c "$dir/in/xz.txt" ;;
	*) say "unknown program $p (xz, jq, sysxz)"; exit 1 ;;
	esac
done
