# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/sigmask.sh: no thread escapes the sampler, whatever
# signal mask the program sets (src/libgmon/sigmask.c), with glibc and
# musl, dynamic and static, on x86-64, i386 (-m32) and aarch64 under
# qemu-user.  Per variant:
#   sigmask-pool-*     two workers that block every signal (one itself,
#                      one by inheriting its creator's full mask,
#                      sig_pool.c) are sampled: each function's share of
#                      the workers' samples within 5 points of the share
#                      of CPU time the program measured, and each worker
#                      sampled for at least half its CPU time
#   sigmask-libpool-*  the same pool inside a shared library built
#                      without -pg (sig_lib.c, liblzma's way), with
#                      GMON_SHLIBS=1 (dynamic variants): the library's
#                      calls reach libgmon's, and its threads, which run
#                      library code only, are sampled
#   sigmask-view-*     the masks the program sets read back exactly
#                      (sig_view.c masks: old sets, a new thread's
#                      inherited mask, a bad how, a fork child)
#   sigmask-handler-*  a SIGPROF handler the program installs is refused
#                      with one line, reads back as set, never sees
#                      libgmon's ticks and is installed by moncontrol(0)
#   sigmask-raw-*      threads that block SIGPROF with the system call
#                      itself are counted and named in the exit line
#                      (sig_raw.c); one that did so before its first
#                      profiled call is sampled
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# sm_seconds NAME FILE: "function seconds" lines of NAME's profile, from
# gmondump (FILE hist; addresses SM_WIDTH bytes wide) or from src/gprof's
# flat profile with the side file (FILE flat, for library functions).
SM_WIDTH=8
sm_seconds() {
	if [ "$2" = hist ]; then
		hist "$1" "$SM_WIDTH" 2>"$W/$1/dump.err" |
			awk '$1 == "rate" { r = $2 } $1 != "total" && $1 != "records" && $1 != "rate" { s[$1] = $2 }
			     END { if (r > 0) for (f in s) print f, s[f] / r }'
	else
		(cd "$W/$1" && "$OUR_GPROF" -b -p prog gmon.out 2>"$W/$1/dump.err") |
			awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+/ { print $NF, $3 }'
	fi
}

# Shares of sampled data (tests/README, "Checks on sampled data"): each
# worker alternates alpha and beta blocks whose lengths are drawn at
# random, 45 to 135 ms and 15 to 45 ms of CPU, until it has used 0.8 s,
# so a block's count is off by at most a tick at each end, at a random
# phase: some 7 blocks of each function in 1.6 s of CPU (400 ticks at
# 250 Hz) put a standard error of about 0.35 point on a share, twice
# that where a loaded machine credits two ticks at once, and 5 points
# are more than 7 of those (seen under a load of 5.6 on 2 cores: at most
# 0.6 point in 8 runs).  The binomial model, which does not apply to
# blocks this long, would say 2.2 points.  Run again once on a miss.
# The coverage (half the CPU time) is no random count: it fails when a
# worker is not sampled at all; a shortfall under load is the runtime's
# known fault (histogram.sh, thread-sampling).
# sm_pool_verdict NAME PREFIX SOURCE
sm_pool_verdict() {
	sm_seconds "$1" "$3" >"$W/$1/secs"
	awk -v p="$2" -v hz="$(kernel_hz)" '
		NR == FNR { got[$1] = $2; next }
		$1 == "mask" && $2 == "ok" { ok[$3] = 1; next }
		NF == 3 { m[$1 "_alpha"] = $2; m[$1 "_beta"] = $3; w[++nw] = $1 }
		END {
			if (nw != 2) { print "bad program output"; exit }
			for (i = 1; i <= 2; i++) {
				if (!ok[w[i]]) { print "bad: worker " w[i] " does not read its mask as full"; exit }
				for (k = 0; k < 2; k++) {
					f = w[i] (k ? "_beta" : "_alpha")
					ms += m[f]; gs += got[p f]
				}
			}
			if (gs * hz < 100) { printf "bad: %.3f s sampled in the workers for %.3f s of CPU\n", gs, ms; exit }
			v = "ok"; line = ""
			for (i = 1; i <= 2; i++) {
				wm = m[w[i] "_alpha"] + m[w[i] "_beta"]
				wg = got[p w[i] "_alpha"] + got[p w[i] "_beta"]
				if (wg < 0.5 * wm) v = "bad"
				line = line sprintf(" %s sampled %.2f s of %.2f s;", w[i], wg, wm)
				for (k = 0; k < 2; k++) {
					f = w[i] (k ? "_beta" : "_alpha")
					a = 100 * got[p f] / gs; b = 100 * m[f] / ms
					if (a - b > 5 || b - a > 5) v = "bad"
					line = line sprintf(" %s %.1f%% (measured %.1f%%)", f, a, b)
				}
			}
			print v line
		}' "$W/$1/secs" "$W/$1/out"
}

# sm_pool NAME PREFIX SOURCE [VAR=VALUE...]: run NAME (built) and judge.
sm_pool() {
	_pn=$1 _pp=$2 _ps=$3
	shift 3
	for try in 1 2; do
		run "$_pn" "$@" --
		if [ "$(rc_of "$_pn")" != 0 ] || [ -s "$W/$_pn/err" ]; then
			_pv="bad: status $(rc_of "$_pn"): $(cat "$W/$_pn/err")"
		else
			_pv=$(sm_pool_verdict "$_pn" "$_pp" "$_ps")
		fi
		case $_pv in ok*) break ;; esac
	done
	case $_pv in
	ok*) pass "$_pn"; echo "   ${_pv#ok}" ;;
	*) fail "$_pn" "$_pv" "$(cat "$W/$_pn/dump.err" 2>/dev/null)" ;;
	esac
}

# sm_libpool NAME "LIBS" COMPILER [FLAGS...]: sig_lib.c as a shared
# library (no -pg) of sig_libmain.c, with GMON_SHLIBS=1.
sm_libpool() {
	_ln=$1 _ll=$2
	shift 2
	mkdir -p "$W/$_ln"
	if ! "$@" -O2 -fPIC -shared "$T/sig_lib.c" -o "$W/$_ln/libsiglib.so" \
		>"$W/$_ln/lib.log" 2>&1; then
		fail "$_ln" "cannot build sig_lib.c" "$(cat "$W/$_ln/lib.log")"
		return
	fi
	build "$_ln" sig_libmain.c "-L$W/$_ln -lsiglib -Wl,-rpath,$W/$_ln $_ll" "$@" -O2 -pg || return
	sm_pool "$_ln" lib_ flat GMON_SHLIBS=1
}

# sm_view NAME: sig_view masks ran cleanly and said "ok".
sm_view() {
	run "$1" --
	if [ "$(rc_of "$1")" = 0 ] && [ ! -s "$W/$1/err" ] && grep -q '^ok ' "$W/$1/out"; then
		pass "$1"
	else
		fail "$1" "status $(rc_of "$1")" "$(cat "$W/$1/out" "$W/$1/err")"
	fi
}

# sm_handler NAME: sig_view handler said "ok", stderr holds exactly the
# one refusal line, and spin() was sampled (at least half its 0.3 s:
# libgmon kept its ticks).
SM_REFUSED="libgmon: the program's SIGPROF handler is not installed: libgmon samples with SIGPROF (it is installed when profiling stops)"
sm_handler() {
	run "$1" -- handler
	_spin=$(sm_seconds "$1" hist | awk '$1 == "spin" { print $2 }')
	_lo=0.15
	# qemu-user merges timer signals on a busy machine (see sm_raw):
	# there, that libgmon kept its ticks at all is what can be checked.
	case $1 in *aarch64*) _lo=0.001 ;; esac
	if [ "$(rc_of "$1")" = 0 ] && grep -q '^ok ' "$W/$1/out" &&
	   [ "$(cat "$W/$1/err")" = "$SM_REFUSED" ] &&
	   awk -v s="${_spin:-0}" -v lo="$_lo" 'BEGIN { exit !(s >= lo) }'; then
		pass "$1"
	else
		fail "$1" "status $(rc_of "$1"), spin sampled ${_spin:-0} s" \
			"$(cat "$W/$1/out" "$W/$1/err")"
	fi
}

# sm_raw NAME: the exit line names rawexit and rawlive and nothing else;
# spin() has the samples of plain and early only (0.2 s of CPU: not
# under 0.1, which would leave early out, nor over 0.3, which would
# take in a thread that blocked it).  Not random: timer totals.
SM_RAW="libgmon: not recorded: 2 threads' CPU time (blocking SIGPROF where libgmon cannot see it: rawexit, rawlive)"
# Under qemu-user the totals are not exact: qemu turns the host's timer
# signals into the guest's, and on a busy machine two that come before
# the guest takes the first become one (seen: 0.094 s of 0.2 in a loaded
# make check, 0.13 to 0.19 s with six spinners, every thread sampled).
# There only the exit line is checked; the totals are checked natively.
sm_raw() {
	run "$1" --
	_spin=$(sm_seconds "$1" hist | awk '$1 == "spin" { print $2 }')
	_lo=0.1 _hi=0.3
	case $1 in *aarch64*) _lo=0 _hi=1e9 ;; esac
	if [ "$(rc_of "$1")" = 0 ] && [ "$(cat "$W/$1/err")" = "$SM_RAW" ] &&
	   awk -v s="${_spin:-0}" -v lo="$_lo" -v hi="$_hi" \
	       'BEGIN { exit !(s >= lo && s <= hi) }'; then
		pass "$1"
	else
		fail "$1" "status $(rc_of "$1"), spin sampled ${_spin:-0} s (want 0.2)" \
			"$(cat "$W/$1/err")"
	fi
}

# sm_variant TAG DYNAMIC "LIBS" COMPILER [FLAGS...]: every check for
# one toolchain and link; the library pool only where DYNAMIC is yes.
sm_variant() {
	_vt=$1 _vd=$2 _vl=$3
	shift 3
	build "sigmask-pool-$_vt" sig_pool.c "$_vl" "$@" -O2 -pg &&
		sm_pool "sigmask-pool-$_vt" "" hist
	[ "$_vd" = yes ] && sm_libpool "sigmask-libpool-$_vt" "$_vl" "$@"
	if build "sigmask-view-$_vt" sig_view.c "$_vl" "$@" -O2 -pg; then
		sm_view "sigmask-view-$_vt"
		mkdir -p "$W/sigmask-handler-$_vt"
		cp "$W/sigmask-view-$_vt/prog" "$W/sigmask-handler-$_vt/prog"
		sm_handler "sigmask-handler-$_vt"
	fi
	build "sigmask-raw-$_vt" sig_raw.c "$_vl" "$@" -O2 -pg && sm_raw "sigmask-raw-$_vt"
}

sm_variant glibc yes "$GLIBC_LIBS" $CC
sm_variant glibc-static no "$GLIBC_LIBS" $CC -static
if [ -n "$MUSL" ]; then
	sm_variant musl yes "$MUSL_LIBS" musl-gcc
	sm_variant musl-static no "$MUSL_LIBS" musl-gcc -static
else
	skip sigmask-musl "no musl-gcc: apt-get install musl-tools"
fi
if [ -n "$M32" ]; then
	SM_WIDTH=4
	sm_variant m32 yes "$M32_LIBS" $CC -m32
	sm_variant m32-static no "$M32_LIBS" $CC -m32 -static
	SM_WIDTH=8
else
	skip sigmask-m32 "no src/libgmon/32/libgmon.a: apt-get install gcc-12-multilib libc6-dev-i386"
fi

. "$ROOT/tests/targets.sh"
xt=aarch64-linux-gnu
if have "$xt-gcc" && have "$(target_qemu "$xt")" && [ -f "$L/cross/$xt/libgmon.a" ]; then
	RUNNER="$(target_qemu "$xt") -L /usr/$xt" NM=$xt-nm
	sm_variant aarch64 yes "-L$L/cross/$xt -lgmon" $xt-gcc
	sm_variant aarch64-static no "-L$L/cross/$xt -lgmon" $xt-gcc -static
	RUNNER= NM=nm
else
	skip sigmask-aarch64 "no $xt-gcc, qemu-user or its libgmon: sh tests/deps.sh; make libgmon-cross"
fi
