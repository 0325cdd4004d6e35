# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/common.sh: what the libgmon test parts share (sourced by
# tests/libgmon.sh, after tests/lib.sh): the paths, the PASS/FAIL/SKIP
# reporting, building and running a test program, reading its profile
# with gmondump, and the check of exact arc counts.
# $CC, option lists and library lists are word lists on purpose; the
# variables set here are used by the parts:
# shellcheck shell=sh disable=SC2086,SC2034

T=$ROOT/tests/libgmon
L=$ROOT/src/libgmon
W=${LIBGMON_TMP:-$ROOT/tests/tmp/libgmon}
CC=${CC:-gcc}
GNU_GPROF=${GNU_GPROF:-$(gnu_x86_gprof)}
OUR_GPROF=$ROOT/src/gprof
# A test program that runs longer than this has hung (the slowest takes a
# few seconds).
RUN_LIMIT=${LIBGMON_RUN_LIMIT:-120}
failures=0
# How the programs run and are read: native by default; a foreign target's
# part (cross.sh) sets them to its qemu, its nm and its byte order.
RUNNER=
NM=nm
DUMP_ORDER=

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

# Check that the runtime and src/gprof are built, build gmondump, and find
# the toolchains: sets compare_reports, GLIBC_LIBS, MUSL_LIBS, M32_LIBS,
# CLANG, MUSL and M32.  Status 1 if the tests cannot run at all.
libgmon_setup() {
	if [ ! -f "$L/libgmon.a" ] || [ ! -x "$OUR_GPROF" ]; then
		fail build "src/libgmon/libgmon.a or src/gprof is missing: run make first"
		return 1
	fi
	rm -rf "$W"
	mkdir -p "$W"
	if ! $CC -std=gnu11 -O2 -o "$W/gmondump" "$T/gmondump.c" 2>"$W/gmondump.log"; then
		fail build "cannot build tests/libgmon/gmondump.c" "$(cat "$W/gmondump.log")"
		return 1
	fi
	if [ -x "$GNU_GPROF" ]; then
		compare_reports=yes
	else
		compare_reports=no
		skip gprof-agreement "no GNU gprof at $GNU_GPROF; reports are not compared"
	fi
	GLIBC_LIBS="-L$L -lgmon"
	MUSL_LIBS="-L$L/musl -lgmon"
	M32_LIBS="-L$L/32 -lgmon"
	have clang && CLANG=clang || CLANG=
	have musl-gcc && [ -f "$L/musl/libgmon.a" ] && MUSL=musl-gcc || MUSL=
	[ -f "$L/32/libgmon.a" ] && M32=yes || M32=
	return 0
}

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

# launch fg|bg NAME [VAR=VALUE...] -- [ARGS...]: run $W/NAME/prog in
# $W/NAME with the given environment, stdout and stderr going to out and
# err.  fg waits (up to RUN_LIMIT) and writes the status to rc; bg
# returns at once with the pid in $bg (see signals.sh).
launch() {
	_mode=$1 _dir=$W/$2
	shift 2
	_env=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_env="$_env $1"
		shift
	done
	[ $# -gt 0 ] && shift
	rm -f "$_dir"/gmon.out* "$_dir/ready"
	if [ "$_mode" = bg ]; then
		(cd "$_dir" && exec env $_env $RUNNER ./prog "$@" >out 2>err) &
		bg=$!
	else
		(cd "$_dir" && with_timeout "$RUN_LIMIT" env $_env $RUNNER ./prog "$@" >out 2>err; echo $? >rc)
	fi
}

# run NAME [VAR=VALUE...] -- [ARGS...]: run to the end (launch fg).
run() { launch fg "$@"; }

rc_of() { cat "$W/$1/rc"; }

# arcs NAME WIDTH [FILE]: "caller callee count" lines of a profile.
arcs() {
	$NM -n -S --defined-only "$W/$1/prog" >"$W/$1/syms" 2>/dev/null
	"$W/gmondump" -w "$2" $DUMP_ORDER -s "$W/$1/syms" "$W/$1/${3:-gmon.out}" arcs
}

# hist NAME WIDTH [FILE]: per-function samples, total, rate, records.
hist() {
	$NM -n -S --defined-only "$W/$1/prog" >"$W/$1/syms" 2>/dev/null
	"$W/gmondump" -w "$2" $DUMP_ORDER -s "$W/$1/syms" "$W/$1/${3:-gmon.out}" hist
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
		(cd "$_d" && "$OUR_GPROF" -b $_opt prog gmon.out >ours$_opt 2>&1;
		 strip_diagnosis ours$_opt)
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

# growth.c: 6144 call sites of leaf, 3 calls each, and main's 18 calls
# of the sitesN (6 sites, or more where gcc unrolls main's loop, as on
# ppc64le).  With the default cap every call must be in the profile, the
# 6144 leaf arcs with count 3 each, and nothing said; the first chunk holds 2048 (64-bit), 3276
# (i386) or 2730 (arm) arcs, so the table grew.
# growth NAME WIDTH "LIBS" COMPILER [FLAGS...]
growth_verdict() {
	_gn=$1 _gw=$2
	if [ "$(rc_of "$_gn")" != 0 ] || [ -s "$W/$_gn/err" ]; then
		echo "status $(rc_of "$_gn"), stderr: $(cat "$W/$_gn/err")"
		return
	fi
	"$W/gmondump" -w "$_gw" $DUMP_ORDER "$W/$_gn/gmon.out" arcs 2>&1 |
		awk '{ n++; s += $3; if ($3 == 3) ok++ }
		     END { printf "%s%d arcs, %d with count 3, %d calls (want 6144 x 3 + 18 = 18450)\n",
		                  (ok >= 6144 && s == 18450) ? "ok " : "", n, ok, s }'
}

growth() {
	_n=$1 _w=$2 _libs=$3
	shift 3
	build "$_n" growth.c "$_libs" "$@" || return
	run "$_n" --
	_v=$(growth_verdict "$_n" "$_w")
	case $_v in
	ok*) pass "$_n" ;;
	*) fail "$_n" "$_v" ;;
	esac
}

# Checks on sampled data (tests/README, "Checks on sampled data") allow
# SIGMAS standard errors: a normal deviate beyond 5.5 has a two-sided
# probability of 3.8e-8, so a false failure stays below one in a million
# per check even with the normal approximation's error and the small
# systematic ones (clock reads, the hook's entry) taken out of the room.
SIGMAS=5.5

# kernel_hz: the kernel's tick rate.  The kernel checks CPU timers only
# at its ticks, so a thread gets at most HZ signals a second of CPU
# whatever GMON_RATE says; samples past that are overruns credited to the
# same PC, not independent draws.  From the kernel's configuration where
# it can be read, else 100, the lowest rate Linux is built with: fewer
# independent samples, a wider window, the safe side.
kernel_hz() {
	_hz=$( { cat "/boot/config-$(uname -r)" 2>/dev/null ||
		zcat /proc/config.gz 2>/dev/null; } | sed -n 's/^CONFIG_HZ=//p')
	case $_hz in
	[1-9][0-9]*) echo "$_hz" ;;
	*) echo 100 ;;
	esac
}
