#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon.sh: the runtime tests of libgmon (src/libgmon).  Run from
# the top of the tree after `make`: it builds the programs in
# tests/libgmon/ with each toolchain present (gcc, clang, musl-gcc, -m32),
# runs them in tests/tmp/libgmon/ (or $LIBGMON_TMP), and checks the
# gmon.out they write: exact arc counts, identical reports from src/gprof
# and GNU gprof, the histogram, threads, fork, exec and failure handling.
# It takes about 20 seconds.  One line per test:
# "PASS: name", "FAIL: name" plus indented details, or "SKIP: name (why)".
# Exit status 1 if anything failed.
# $CC, option lists and library lists are word lists on purpose:
# shellcheck disable=SC2086
set -u

ROOT=$(pwd)
T=$ROOT/tests/libgmon
L=$ROOT/src/libgmon
W=${LIBGMON_TMP:-$ROOT/tests/tmp/libgmon}
CC=${CC:-gcc}
GNU_GPROF=${GNU_GPROF:-/usr/bin/gprof}
OUR_GPROF=$ROOT/src/gprof
failures=0

pass() { echo "PASS: $1"; }
skip() { echo "SKIP: $1 ($2)"; }

# fail NAME [DETAIL...]: each detail may span lines; all are indented.
fail() {
	echo "FAIL: $1"
	shift
	for _d in "$@"; do
		printf '%s\n' "$_d" | sed -n '1,8s/^/    /p'
	done
	failures=$((failures + 1))
}

have() { command -v "$1" >/dev/null 2>&1; }

# ---- set-up ----

if [ ! -f "$L/libgmon.a" ] || [ ! -x "$OUR_GPROF" ]; then
	fail build "src/libgmon/libgmon.a or src/gprof is missing: run make first"
	exit 1
fi
rm -rf "$W"
mkdir -p "$W"
if ! $CC -std=gnu11 -O2 -o "$W/gmondump" "$T/gmondump.c" 2>"$W/gmondump.log"; then
	fail build "cannot build tests/libgmon/gmondump.c" "$(cat "$W/gmondump.log")"
	exit 1
fi
if [ -x "$GNU_GPROF" ]; then
	compare_reports=yes
else
	compare_reports=no
	skip gprof-agreement "no GNU gprof at $GNU_GPROF; reports are not compared"
fi

# build NAME SRC "LIBS" COMPILER [FLAGS...]: compile tests/libgmon/SRC into
# $W/NAME/prog; on failure report NAME as failed and return 1.
build() {
	_name=$1 _src=$2 _libs=$3
	shift 3
	mkdir -p "$W/$_name"
	if "$@" -I"$T" "$T/$_src" -o "$W/$_name/prog" $_libs -pthread \
		>"$W/$_name/build.log" 2>&1; then
		return 0
	fi
	fail "$_name" "build failed: $* $T/$_src $_libs" "$(cat "$W/$_name/build.log")"
	return 1
}

# run NAME [VAR=VALUE...] -- [ARGS...]: run $W/NAME/prog in $W/NAME with
# the given environment; stdout, stderr and the status go to out, err, rc.
run() {
	_dir=$W/$1
	shift
	_env=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_env="$_env $1"
		shift
	done
	[ $# -gt 0 ] && shift
	rm -f "$_dir"/gmon.out*
	(cd "$_dir" && env $_env ./prog "$@" >out 2>err; echo $? >rc)
}

rc_of() { cat "$W/$1/rc"; }

# arcs NAME WIDTH [FILE]: "caller callee count" lines of a profile.
arcs() {
	nm -n -S --defined-only "$W/$1/prog" >"$W/$1/syms" 2>/dev/null
	"$W/gmondump" -w "$2" -s "$W/$1/syms" "$W/$1/${3:-gmon.out}" arcs
}

# hist NAME WIDTH [FILE]: per-function samples, total, rate, records.
hist() {
	nm -n -S --defined-only "$W/$1/prog" >"$W/$1/syms" 2>/dev/null
	"$W/gmondump" -w "$2" -s "$W/$1/syms" "$W/$1/${3:-gmon.out}" hist
}

# Only the arcs between functions named in EXPECTED (a static program
# also has arcs among C library functions, which are not ours to check).
only_expected() {
	awk 'NR == FNR { want[$1] = 1; want[$2] = 1; next }
	     ($1 in want) && ($2 in want)' "$1" -
}

# reports_agree NAME: src/gprof and GNU gprof print the same call graph
# and flat profile for NAME's profile.  Prints the difference if not.
reports_agree() {
	[ "$compare_reports" = yes ] || return 0
	_d=$W/$1
	for _opt in -q -p; do
		(cd "$_d" && "$OUR_GPROF" -b $_opt prog gmon.out >ours$_opt 2>&1)
		(cd "$_d" && "$GNU_GPROF" -b $_opt prog gmon.out >gnu$_opt 2>&1)
		if ! cmp -s "$_d/ours$_opt" "$_d/gnu$_opt"; then
			echo "src/gprof and GNU gprof differ (-b $_opt):"
			diff "$_d/gnu$_opt" "$_d/ours$_opt" | head -6
			return 1
		fi
	done
	return 0
}

# check_exact NAME WIDTH EXPECTED: the program ran cleanly, its profile
# has exactly the expected arcs, and both gprofs agree on it.  EXPECTED
# holds "caller callee count" lines and # comments.
check_exact() {
	_n=$1 _w=$2
	_exp=$W/$_n/expected
	grep -v '^#' "$3" >"$_exp"
	if [ "$(rc_of "$_n")" != 0 ] || [ -s "$W/$_n/err" ]; then
		fail "$_n" "exit status $(rc_of "$_n")" "$(cat "$W/$_n/err")"
		return
	fi
	if ! arcs "$_n" "$_w" >"$W/$_n/arcs.all" 2>"$W/$_n/dump.err"; then
		fail "$_n" "unreadable profile" "$(cat "$W/$_n/dump.err")"
		return
	fi
	only_expected "$_exp" <"$W/$_n/arcs.all" >"$W/$_n/arcs"
	if ! diff "$_exp" "$W/$_n/arcs" >"$W/$_n/arcs.diff"; then
		fail "$_n" "arc counts differ from $(basename "$3") (< expected, > got):" \
			"$(cat "$W/$_n/arcs.diff")"
		return
	fi
	if ! _why=$(reports_agree "$_n"); then
		fail "$_n" "$_why"
		return
	fi
	pass "$_n"
}

# exact NAME SRC EXPECTED WIDTH "LIBS" COMPILER [FLAGS...]
exact() {
	_en=$1 _es=$2 _ee=$3 _ew=$4 _el=$5
	shift 5
	build "$_en" "$_es" "$_el" "$@" || return
	run "$_en" --
	check_exact "$_en" "$_ew" "$T/$_ee"
}

# ---- toolchains ----

GLIBC_LIBS="-L$L -lgmon"
MUSL_LIBS="-L$L/musl -lgmon"
M32_LIBS="-L$L/32 -lgmon"
have clang && CLANG=clang || CLANG=
have musl-gcc && [ -f "$L/musl/libgmon.a" ] && MUSL=musl-gcc || MUSL=
[ -f "$L/32/libgmon.a" ] && M32=yes || M32=

# ---- exact call counts across compilers and options ----

for opt in -O0 -O2; do
	exact "gcc$opt-pie" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -fPIE -pie
	exact "gcc$opt-nopie" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -fno-pie -no-pie
	exact "gcc$opt-mfentry" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -mfentry
done
exact gcc-O2-static calls.c calls.expected 8 "$GLIBC_LIBS" $CC -O2 -pg -static
exact gcc-O2-static-pie calls.c calls.expected 8 "$GLIBC_LIBS" $CC -O2 -pg -static-pie

if [ -n "$CLANG" ]; then
	for opt in -O0 -O2; do
		exact "clang$opt-pie" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -fPIE -pie
		exact "clang$opt-nopie" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -fno-pie -no-pie
		exact "clang$opt-mfentry" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -mfentry
	done
else
	skip clang "clang is not installed"
fi

if [ -n "$MUSL" ]; then
	for opt in -O0 -O2; do
		exact "musl$opt" calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc $opt -pg
		exact "musl$opt-static" calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc $opt -pg -static
	done
	exact musl-O2-mfentry calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc -O2 -pg -mfentry
else
	skip musl "musl-gcc or src/libgmon/musl/libgmon.a is missing; apt-get install musl-tools"
fi

if [ -n "$M32" ]; then
	for opt in -O0 -O2; do
		exact "m32$opt-pie" calls.c calls.expected 4 "$M32_LIBS" $CC -m32 $opt -pg -fPIE -pie
		exact "m32$opt-nopie" calls.c calls.expected 4 "$M32_LIBS" $CC -m32 $opt -pg -fno-pie -no-pie
	done
	exact m32-O2-mfentry calls.c calls.expected 4 "$M32_LIBS" $CC -m32 -O2 -pg -mfentry -fno-pie -no-pie
	if [ -n "$CLANG" ]; then
		exact clang-m32-O2 calls.c calls.expected 4 "$M32_LIBS" clang -m32 -O2 -pg
	fi
else
	skip m32 "no src/libgmon/32/libgmon.a: $CC -m32 cannot link; apt-get install gcc-multilib"
fi

# ---- start-up paths ----

# Compiled with -pg but linked without it: no gcrt1.o calls __monstartup,
# so the runtime's own constructor must start it.
n=link-without-pg
mkdir -p "$W/$n"
if $CC -O2 -pg -I"$T" -c "$T/calls.c" -o "$W/$n/calls.o" >"$W/$n/build.log" 2>&1 &&
   $CC "$W/$n/calls.o" -o "$W/$n/prog" $GLIBC_LIBS -pthread >>"$W/$n/build.log" 2>&1; then
	run "$n" --
	check_exact "$n" 8 "$T/calls.expected"
else
	fail "$n" "build failed" "$(cat "$W/$n/build.log")"
fi

# A musl toolchain whose driver wants gcrt1.o for -pg (clang, static).
n=clang-musl-gcrt1
if [ -n "$CLANG" ] && [ -n "$MUSL" ]; then
	# Where musl-gcc finds musl's start files and headers.
	musl_v=$(echo 'int main(void){return 0;}' |
		musl-gcc -v -x c - -o "$W/musl-probe" 2>&1 | tr ' ' '\n')
	musl_lib=$(printf '%s\n' "$musl_v" | sed -n 's|/crti\.o$||p' | head -1)
	musl_inc=$(printf '%s\n' "$musl_v" | grep '^/.*include.*musl$' | head -1)
	sys=$W/$n/sysroot
	mkdir -p "$sys/usr/lib"
	for f in "$musl_lib"/*.o "$musl_lib"/*.a; do
		ln -sf "$f" "$sys/usr/lib/"
	done
	ln -sf "$L/musl/gcrt1.o" "$sys/usr/lib/gcrt1.o"
	exact "$n" calls.c calls.expected 8 "$MUSL_LIBS" clang --target=x86_64-linux-musl \
		--sysroot="$sys" -nostdinc -isystem "$musl_inc" -static -O2 -pg
else
	skip "$n" "needs clang and musl-gcc"
fi

# ---- the same program under glibc's runtime and under libgmon ----

n=glibc-vs-libgmon
if build "$n" calls.c "" $CC -O2 -pg; then
	run "$n" --
	if [ "$(rc_of "$n")" != 0 ]; then
		fail "$n" "the glibc -pg build exited with $(rc_of "$n")"
	elif ! arcs "$n" 8 >"$W/$n/arcs.glibc" 2>"$W/$n/dump.err"; then
		fail "$n" "unreadable glibc profile" "$(cat "$W/$n/dump.err")"
	elif [ ! -f "$W/gcc-O2-pie/arcs.all" ]; then
		fail "$n" "no libgmon profile to compare with (gcc-O2-pie failed)"
	elif ! diff "$W/$n/arcs.glibc" "$W/gcc-O2-pie/arcs.all" >"$W/$n/diff"; then
		fail "$n" "arcs differ (< glibc, > libgmon):" "$(cat "$W/$n/diff")"
	else
		pass "$n"
	fi
fi

# ---- threads ----

exact threads-gcc threads.c threads.expected 8 "$GLIBC_LIBS" $CC -O2 -pg
[ -n "$CLANG" ] && exact threads-clang threads.c threads.expected 8 "$GLIBC_LIBS" clang -O2 -pg
[ -n "$MUSL" ] && exact threads-musl threads.c threads.expected 8 "$MUSL_LIBS" musl-gcc -O2 -pg
[ -n "$M32" ] && exact threads-m32 threads.c threads.expected 4 "$M32_LIBS" $CC -m32 -O2 -pg

# ---- signals, moncontrol ----

n=signals
if build "$n" sigs.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" --
	handled=$(cat "$W/$n/out")
	arcs "$n" 8 >"$W/$n/arcs" 2>"$W/$n/dump.err"
	work=$(awk '$1 == "main" && $2 == "work" { print $3 }' "$W/$n/arcs")
	inh=$(awk '$1 == "on_alarm" && $2 == "in_handler" { print $3 }' "$W/$n/arcs")
	if [ "$(rc_of "$n")" != 0 ] || [ "${work:-}" != 3000000 ] ||
	   [ "${inh:-0}" -gt "${handled:-0}" ] || [ "${handled:-0}" -lt 1 ]; then
		fail "$n" "status $(rc_of "$n"), main->work ${work:-none} (want 3000000)," \
			"on_alarm->in_handler ${inh:-none} for $handled handler runs" "$(cat "$W/$n/err")"
	else
		pass "$n"
	fi
fi

exact moncontrol control.c control.expected 8 "$GLIBC_LIBS" $CC -O2 -pg

# ---- histogram ----

# A 3:1 split of about 2 s of CPU must show within 5 points of 75%, and
# the samples must add up to the CPU time the program measured (10%).
# The kernel delivers at most one sample per tick (250-300 a second is
# common), so the share has a standard error near 2 points: a run that
# misses is repeated once before the test fails.
split_verdict() {
	hist "$1" 8 >"$W/$1/hist" 2>"$W/$1/dump.err"
	awk -v cpu="$(cat "$W/$1/out")" '
		$1 == "heavy" { h = $2 } $1 == "light" { l = $2 }
		$1 == "total" { t = $2 } $1 == "rate" { r = $2 }
		END {
			if (h + l == 0 || r == 0 || cpu == 0) { print "no samples"; exit }
			share = 100 * h / (h + l); secs = t / r
			ok = share >= 70 && share <= 80 && secs >= 0.9 * cpu && secs <= 1.1 * cpu
			printf "%s heavy share %.1f%%, %.2f s sampled at %d Hz for %.2f s of CPU\n",
				ok ? "ok" : "bad", share, secs, r, cpu
		}' "$W/$1/hist"
}
n=time-split
if build "$n" split.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" -- 2
	first=$(split_verdict "$n")
	verdict=$first
	case $first in
	ok*) ;;
	*) run "$n" -- 2; verdict=$(split_verdict "$n") ;;
	esac
	case $verdict in
	ok*) pass "$n" ;;
	*) fail "$n" "$first" "$verdict (want 70-80%, samples within 10% of CPU time)" \
		"$(cat "$W/$n/err" "$W/$n/dump.err")" ;;
	esac
fi

# Threads are sampled too, not only the main thread (which here only
# waits), even threads whose only profiled function is their start
# routine: the samples in worker() must match the CPU time within 15%.
n=thread-sampling
if build "$n" tsample.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" -- 0.5
	hist "$n" 8 >"$W/$n/hist" 2>"$W/$n/dump.err"
	verdict=$(awk -v cpu="$(cat "$W/$n/out")" '
		$1 == "worker" { s = $2 } $1 == "rate" { r = $2 }
		END {
			if (r == 0 || cpu == 0) { print "no profile"; exit }
			secs = s / r
			ok = secs >= 0.85 * cpu && secs <= 1.15 * cpu
			printf "%s %.2f s sampled in worker for %.2f s of CPU\n",
				ok ? "ok" : "bad", secs, cpu
		}' "$W/$n/hist")
	case $verdict in
	ok*) pass "$n" ;;
	*) fail "$n" "$verdict" "$(cat "$W/$n/err" "$W/$n/dump.err")" ;;
	esac
fi

# GMON_RATE sets the sampling rate written to the file; a bad value is
# reported once and the default (1000) used.
n=rate-setting
if build "$n" control.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_RATE=250 --
	r1=$(hist "$n" 8 2>/dev/null | awk '$1 == "rate" { print $2 }')
	run "$n" GMON_RATE=fast --
	r2=$(hist "$n" 8 2>/dev/null | awk '$1 == "rate" { print $2 }')
	msgs=$(grep -c 'ignoring GMON_RATE=fast' "$W/$n/err")
	if [ "${r1:-}" = 250 ] && [ "${r2:-}" = 1000 ] && [ "$msgs" = 1 ]; then
		pass "$n"
	else
		fail "$n" "rate ${r1:-none} for GMON_RATE=250, ${r2:-none} for a bad value" \
			"$msgs warnings" "$(cat "$W/$n/err")"
	fi
fi

# A bin over 65535 samples goes into several records over the same range;
# GNU gprof must add them up (the seconds it prints match the samples).
n=bin-over-65535
if build "$n" bigbin.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_RATE=200000 -- 1.2
	hist "$n" 8 >"$W/$n/hist" 2>"$W/$n/dump.err"
	spin=$(awk '$1 == "spin" { print $2 }' "$W/$n/hist")
	recs=$(awk '$1 == "records" { print $2 }' "$W/$n/hist")
	want=$(awk -v s="${spin:-0}" 'BEGIN { printf "%.2f", s / 200000 }')
	got=$want
	if [ -x "$GNU_GPROF" ]; then
		got=$(cd "$W/$n" && "$GNU_GPROF" -b -p prog gmon.out 2>&1 |
			awk '$NF == "spin" { print $3 }')
	fi
	if [ "${spin:-0}" -le 65535 ] || [ "${recs:-0}" -lt 2 ]; then
		fail "$n" "spin has ${spin:-no} samples in ${recs:-no} records (want > 65535, >= 2)"
	elif [ -z "$got" ] || ! awk -v a="$got" -v b="$want" \
		'BEGIN { exit !(a - b <= 0.011 && b - a <= 0.011) }'; then
		fail "$n" "GNU gprof shows ${got:-nothing} for spin, the samples make $want s"
	elif ! why=$(reports_agree "$n"); then
		fail "$n" "$why"
	else
		pass "$n"
	fi
fi

# ---- fork and exec ----

n=fork
if build "$n" forker.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" --
	read -r parent child <"$W/$n/out"
	pa=$(arcs "$n" 8 2>&1)
	ca=$(arcs "$n" 8 "gmon.out.$child" 2>&1)
	burn=$(hist "$n" 8 "gmon.out.$child" 2>/dev/null | awk '$1 == "burn" { print $2 }')
	if [ "$(rc_of "$n")" != 0 ] ||
	   [ "$(printf '%s\n' "$pa" | grep -c '^main f 150$')" != 1 ] ||
	   [ "$(printf '%s\n' "$ca" | grep -c -e '^main f 30$' -e '^main burn 1$')" != 2 ] ||
	   [ "${burn:-0}" -lt 1 ]; then
		fail "$n" "status $(rc_of "$n"); parent $parent arcs:" "$pa" \
			"child $child arcs:" "$ca" "child samples in burn: ${burn:-none}"
	else
		pass "$n"
	fi
	# With GMON_OUT_PREFIX each process writes PREFIX.PID, no gmon.out.
	n2=fork-prefix
	run "$n" GMON_OUT_PREFIX=prof --
	read -r parent child <"$W/$n/out"
	if [ "$(rc_of "$n")" = 0 ] && [ -f "$W/$n/prof.$parent" ] &&
	   [ -f "$W/$n/prof.$child" ] && [ ! -e "$W/$n/gmon.out" ] &&
	   "$W/gmondump" -w 8 "$W/$n/prof.$parent" check &&
	   "$W/gmondump" -w 8 "$W/$n/prof.$child" check; then
		pass "$n2"
	else
		fail "$n2" "status $(rc_of "$n"), files: $(cd "$W/$n" && echo prof.* gmon.out*)"
	fi
fi

# exec must not leave a timer behind that kills the new program.
n="exec"
if build busy busy.c "" $CC -O2 && build "$n" execer.c "$GLIBC_LIBS" $CC -O2 -pg; then
	bad=
	for i in 1 2 3; do
		run "$n" GMON_RATE=100000 -- "$W/busy/prog" 0.3
		[ "$(rc_of "$n")" = 0 ] || bad="$bad run $i: status $(rc_of "$n")"
	done
	if [ -z "$bad" ]; then pass "$n"; else fail "$n" "$bad" "$(cat "$W/$n/err")"; fi
fi

# ---- failures: a clear message, the exit status kept, no stray files ----

n=readonly-cwd
if build "$n" calls.c "$GLIBC_LIBS" $CC -O2 -pg; then
	ro=$W/$n/ro
	mkdir -p "$ro"
	chmod 555 "$ro"
	if touch "$ro/probe" 2>/dev/null; then
		# Running as root: permissions do not stop us; /proc refuses files.
		rm -f "$ro/probe"
		ro=/proc
	fi
	(cd "$ro" && "$W/$n/prog" 7 >/dev/null 2>"$W/$n/err"; echo $? >"$W/$n/rc")
	lines=$(wc -l <"$W/$n/err")
	if [ "$(rc_of "$n")" = 7 ] && [ "$lines" = 1 ] &&
	   grep -q '^libgmon: cannot write the profile gmon.out: ' "$W/$n/err" &&
	   [ -z "$(ls -A "$W/$n/ro")" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n") (want 7), $lines message lines:" "$(cat "$W/$n/err")"
	fi
	chmod 755 "$W/$n/ro"
fi

n=prefix-missing-folder
if build "$n" calls.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_OUT_PREFIX="$W/$n/no/such/dir/prof" -- 7
	if [ "$(rc_of "$n")" = 7 ] && [ "$(wc -l <"$W/$n/err")" = 1 ] &&
	   grep -q "^libgmon: cannot write the profile $W/$n/no/such/dir/prof\.[0-9]*: No such file" \
		"$W/$n/err"; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n") (want 7), messages:" "$(cat "$W/$n/err")"
	fi
fi

n=arc-table-overflow
if build "$n" many.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_MAXARCS=16 --
	msgs=$(grep -c 'arc table full' "$W/$n/err")
	if [ "$(rc_of "$n")" = 0 ] && [ "$msgs" = 1 ] &&
	   "$W/gmondump" -w 8 "$W/$n/gmon.out" check; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), $msgs overflow messages:" "$(cat "$W/$n/err")"
	fi
fi

# ---- CET: linking libgmon never drops IBT/SHSTK from a program ----

# The linker ANDs the CET property of all inputs; it names every input
# that lacks it with -z cet-report.  (The C library's own start files may
# lack it; only libgmon's members matter here.)
n=cet-property
if readelf -n "$L/libgmon.a" 2>/dev/null | grep -q 'IBT'; then
	if build "$n" calls.c "$GLIBC_LIBS -Wl,-z,cet-report=warning" \
		$CC -O2 -pg -fcf-protection=full; then
		if grep 'libgmon' "$W/$n/build.log" >"$W/$n/cet"; then
			fail "$n" "libgmon objects lack the CET property:" "$(cat "$W/$n/cet")"
		else
			run "$n" --
			check_exact "$n" 8 "$T/calls.expected"
		fi
	fi
else
	skip "$n" "libgmon was built without -fcf-protection"
fi

[ "$failures" = 0 ]
