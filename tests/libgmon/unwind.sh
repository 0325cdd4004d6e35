# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/unwind.sh: GMON_STACKS=1 stacks through code without frame
# pointers, unwound from the call-frame information (src/libgmon/unwind.c,
# unwalk.c, ehobjs.c), on x86-64 glibc (dynamic and static), i386, musl
# (static) and aarch64 under qemu-user:
#   (1) unw_chain.c: each function's inclusive share of the stacks (the
#       folded output of src/gprof) within 5 points of what the program
#       measured of itself per phase with CLOCK_THREAD_CPUTIME_ID: the C
#       library's qsort with a comparator doing the work, and a library of
#       our own built -O2 -fomit-frame-pointer (unw_lib.c, its frame
#       register full of junk) working itself and calling back; every
#       comparator stack runs through qsort's frames to phase_qsort and
#       main; and the share of stacks that reach main, near 100%, checked
#       with a binomial window; also with the library dlopen'ed after the
#       profile started (the walk learns of it at the next profiled call);
#   (3) unw_sig.c: ticks in a signal handler's work go on past the
#       kernel's signal frame into the interrupted code and main;
#   (2) unw_hook.c: ticks landing in libgmon's hook (the mcount stub, the
#       recorder) are recorded as the hook's PC followed by the profiled
#       function that called the hook, then its caller.
# Checks on sampled data: tests/README, "Checks on sampled data".
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154,SC2034

UNW_GMSL=$ROOT/tests/tools/gmsl_stacks.py
UNW_HZ=$(kernel_hz)

# unw_verdict NAME QSORT: "ok ..." or "bad ..." from NAME's folded stacks
# and the program's own figures (QSORT=no: no qsort phase).
unw_verdict() {
	awk -v sig="$SIGMAS" -v q="$2" -v out="$(cat "$W/$1/out")" '
	{
		c = $NF; s = $0; sub(/ [0-9]+$/, "", s); n = split(s, f, ";")
		total += c
		split("", seen)
		for (i = 1; i <= n; i++)
			if (!(f[i] in seen)) { seen[f[i]] = 1; inc[f[i]] += c }
		if (f[n] == "unw_lib_run") libself += c
		if (f[n] == "cmp_work") {
			cmp += c
			# comparator, at least one frame of qsort, phase_qsort, main
			if (n >= 4 && f[n - 1] != "phase_qsort" && s ~ /(^|;)main;phase_qsort;.+;cmp_work$/)
				chain += c
		}
	}
	function check(name, got, want) {
		d = got - want; if (d < 0) d = -d
		msg = msg sprintf(" %s %.1f/%.1f", name, got, want)
		if (d > 5) bad = 1
	}
	END {
		split(out, m, " ")  # total T qsort Q lib L cb C main M libcal K
		T = m[2]; Q = m[4]; L = m[6]; C = m[8]; K = m[12]
		if (total == 0 || T <= 0) { print "bad no samples or no figures"; exit }
		pc = 100 / total; pt = 100 / T
		if (q != "no") {
			check("phase_qsort", inc["phase_qsort"] * pc, Q * pt)
			check("cmp_work", inc["cmp_work"] * pc, Q * pt)
			if (cmp == 0 || chain < 0.99 * cmp) bad = 1
			msg = msg sprintf(" qsort-chain %d/%d", chain, cmp)
		}
		check("phase_lib", inc["phase_lib"] * pc, L * pt)
		check("unw_lib_run", inc["unw_lib_run"] * pc, (L + K) * pt)
		check("lib_cb", inc["lib_cb"] * pc, C * pt)
		check("unw_lib_run-self", libself * pc, (L - C + K) * pt)
		# main: p0 = 99% of the ticks reach it (the rest: start-up and
		# exit), SIGMAS binomial errors below that
		p0 = 0.99; lo = p0 - sig * sqrt(p0 * (1 - p0) / total)
		if (inc["main"] < lo * total) bad = 1
		msg = msg sprintf(" main %d/%d (>= %.1f%%)", inc["main"], total, 100 * lo)
		print (bad ? "bad" : "ok") msg " (got/want %)"
	}' "$W/$1/folded"
}

# unw_lib NAME MODE CC: build unw_lib.c -O2 -fomit-frame-pointer for
# MODE (shared: a shared object; dlopen: one the program dlopens after
# the profile started, path in $UNW_LIB; static: an object linked in);
# sets _lib (what the program links with) and _env (what it runs with).
unw_lib() {
	mkdir -p "$W/$1"
	_env=
	case $2 in
	shared) _lib="$W/$1/libunw.so -Wl,-rpath,$W/$1"
		_lf="-fPIC -shared -o $W/$1/libunw.so" ;;
	dlopen) _lib="-DUNW_DLOPEN -ldl"
		_lf="-fPIC -shared -o $W/$1/libunw.so"
		_env="UNW_LIB=$W/$1/libunw.so" ;;
	*) _lib=$W/$1/unw_lib.o
		_lf="-c -o $W/$1/unw_lib.o" ;;
	esac
	if ! $3 -O2 -fomit-frame-pointer $_lf "$T/unw_lib.c" >"$W/$1/lib.log" 2>&1; then
		fail "$1" "cannot build unw_lib.c" "$(cat "$W/$1/lib.log")"
		return 1
	fi
}

# unw_chain NAME MODE "CC" "LIBS" [noqsort]: unw_lib.c built with CC
# (MODE shared: a shared object; dlopen: one the program dlopens after
# the profile started; static: an object linked in), then
# unw_chain.c with CC -O1 -pg, run for 2 s of CPU at one tick per kernel
# tick, checked by unw_verdict; run again once on a miss.
unw_chain() {
	_n=$1 _m=$2 _cc=$3 _l=$4 _q=${5:-}
	unw_lib "$_n" "$_m" "$_cc" || return
	build "$_n" unw_chain.c "$_lib $_l" $_cc -O1 -pg || return
	for _try in 1 2; do
		run "$_n" GMON_STACKS=1 GMON_RATE=$UNW_HZ $_env -- 2 $_q
		if [ "$(rc_of "$_n")" != 0 ] || [ -s "$W/$_n/err" ] ||
		   ! (cd "$W/$_n" && "$OUR_GPROF" --output-format=folded prog gmon.out \
		      >folded 2>folded.err); then
			fail "$_n" "status $(rc_of "$_n")" "$(cat "$W/$_n/err" "$W/$_n/folded.err" 2>/dev/null)"
			return
		fi
		_v=$(unw_verdict "$_n" "${_q:+no}")
		[ "${_v%% *}" = ok ] && break
	done
	case $_v in
	ok*) pass "$_n (${_v#ok })" ;;
	*) fail "$_n" "$_v" "$(sort -t' ' -k2 -nr "$W/$_n/folded" | head -6)" ;;
	esac
}

# unw_hook NAME VARIANT "LIBS" COMPILER [FLAGS...]: unw_hook.c; the
# stacks whose frame 0 lies in the hook (mcount, _mcount, __fentry__,
# or a function of record.o of libgmon's build VARIANT) must all go on
# with tiny then hot, or with hot or main (their own entries), and
# there must be some (the hook takes a good part of this program).
unw_hook() {
	_n=$1 _var=$2 _l=$3
	shift 3
	build "$_n" unw_hook.c "$_l" "$@" || return
	run "$_n" GMON_STACKS=1 -- 1
	$NM -n -S --defined-only "$W/$_n/prog" >"$W/$_n/syms" 2>/dev/null
	if [ "$(rc_of "$_n")" != 0 ] || [ -s "$W/$_n/err" ] ||
	   ! python3 "$UNW_GMSL" "$W/$_n/gmon.out.shlibs" "$W/$_n/syms" dump \
	     >"$W/$_n/dump" 2>"$W/$_n/dump.err"; then
		fail "$_n" "status $(rc_of "$_n")" "$(cat "$W/$_n/err" "$W/$_n/dump.err" 2>/dev/null)"
		return
	fi
	$NM --defined-only "$ROOT/build/libgmon/$_var/record.o" |
		awk '$2 ~ /^[tT]$/ { print $3 }' >"$W/$_n/hooknames"
	_v=$(awk '
		FILENAME == ARGV[1] { hook[$1] = 1; next }
		$1 == "stack" { all += $3; n = split($5, f, ";")
			if (!(f[1] in hook) && f[1] != "mcount" && f[1] != "_mcount" &&
			    f[1] != "__fentry__") next
			in_hook += $3
			if (n >= 3 && f[2] == "tiny" && f[3] == "hot" ||
			    n >= 2 && (f[2] == "hot" || f[2] == "main")) good += $3
			else if (bad++ < 3) eg = eg " " $5 }
		END { print (in_hook >= 20 && good == in_hook) ? "ok" : "bad",
		      in_hook + 0, "of", all + 0, "ticks in the hook,", good + 0,
		      "with its caller next" eg }' "$W/$_n/hooknames" "$W/$_n/dump")
	case $_v in
	ok*) pass "$_n (${_v#ok })" ;;
	*) fail "$_n" "$_v" ;;
	esac
}

# unw_sig NAME MODE "CC" "LIBS": unw_sig.c with unw_lib.c (as in
# unw_chain): every tick in in_handler (the program's own signal
# handler's work) must go on with on_sig, then past the signal frame to
# the interrupted code (work, the frameless unw_lib_run, the C library's
# clock_gettime, the hook...) and main; at least 20 of them (a fifth or
# more of the program's CPU is the handler's: some 75 of 375 ticks).
# MODE as unw_chain's; dlopen makes libgmon refresh its objects during
# the run, after which the trampoline (qemu's page) must still be known.
unw_sig() {
	_n=$1 _m=$2 _cc=$3 _l=$4
	unw_lib "$_n" "$_m" "$_cc" || return
	build "$_n" unw_sig.c "$_lib $_l" $_cc -O1 -pg || return
	# Too few handler ticks (all good) is no verdict: under qemu on a
	# loaded machine the handler's share can fall to a tenth of its
	# usual, and lower (2 in a 5 s run at load 9); then once more, for
	# longer, where any handler tick will do: what the test guards
	# against (a frame it cannot pass) fails every one of them.
	for _secs in 1.5 5; do
		_v=$(unw_sig_run "$_n" "$_secs")
		case $_v in
		few*) ;;
		*) break ;;
		esac
	done
	case $_v in
	ok*) pass "$_n (${_v#ok })" ;;
	"few 0 "*) fail "$_n" "$_v" ;;
	few*) pass "$_n (${_v#few }, in the longer run)" ;;
	*) fail "$_n" "$_v" ;;
	esac
}

# unw_sig_run NAME SECONDS: run, then "ok", "few" or "bad" and the counts.
unw_sig_run() {
	run "$1" GMON_STACKS=1 $_env -- "$2"
	if [ "$(rc_of "$1")" != 0 ] || [ -s "$W/$1/err" ] ||
	   ! (cd "$W/$1" && "$OUR_GPROF" --output-format=folded prog gmon.out \
	      >folded 2>folded.err); then
		echo "bad: status $(rc_of "$1")" "$(cat "$W/$1/err" "$W/$1/folded.err" 2>/dev/null)"
		return
	fi
	awk '{ c = $NF; s = $0; sub(/ [0-9]+$/, "", s); n = split(s, f, ";")
		if (f[n] != "in_handler") next
		all += c
		# (main itself may be what the signal interrupted: the
		# frame the test guards against, one the walk cannot pass,
		# leaves main out of the stack altogether)
		if (n >= 3 && f[n - 1] == "on_sig" && s ~ /(^|;)main;(.+;)?on_sig;in_handler$/)
			good += c
		else if (bad++ < 2) eg = eg " " s }
		END { v = good != all ? "bad" : (all >= 20 ? "ok" : "few")
		print v, good + 0, "of", all + 0,
		      "handler ticks through the signal frame to main" eg }' "$W/$1/folded"
}

if [ "$(uname -m)" != x86_64 ] || ! have python3; then
	skip unwind "x86-64 and python3 only"
else
	unw_chain unwind-chain shared "$CC" "$GLIBC_LIBS"
	unw_chain unwind-chain-dlopen dlopen "$CC" "$GLIBC_LIBS"
	unw_chain unwind-chain-static static "$CC -static" "$GLIBC_LIBS"
	unw_hook unwind-hook native "$GLIBC_LIBS" $CC -O2 -pg
	unw_sig unwind-signal shared "$CC" "$GLIBC_LIBS"
	unw_sig unwind-signal-dlopen dlopen "$CC" "$GLIBC_LIBS"
	unw_hook unwind-hook-fentry native "$GLIBC_LIBS" $CC -O2 -pg -mfentry
	if [ -n "$M32" ]; then
		unw_chain unwind-chain-m32 shared "$CC -m32" "$M32_LIBS"
		unw_hook unwind-hook-m32 m32 "$M32_LIBS" $CC -m32 -O2 -pg
		unw_sig unwind-signal-m32 shared "$CC -m32" "$M32_LIBS"
	else
		skip unwind-chain-m32 "no src/libgmon/32/libgmon.a"
	fi
	if [ -n "$MUSL" ]; then
		# musl's C library carries no call-frame information (built
		# without unwind tables), so its qsort cannot be passed: the
		# musl chain leaves the qsort phase out (doc/libgmon.md says
		# so), and no line pretends to test it.
		unw_chain unwind-chain-musl static "musl-gcc -static" "$MUSL_LIBS" noqsort
		unw_hook unwind-hook-musl musl "$MUSL_LIBS" musl-gcc -static -O2 -pg
		unw_sig unwind-signal-musl static "musl-gcc -static" "$MUSL_LIBS"
	else
		skip unwind-chain-musl "no musl-gcc: apt-get install musl-tools"
	fi
	. "$ROOT/tests/targets.sh"
	xt=aarch64-linux-gnu
	if have "$xt-gcc" && have "$(target_qemu "$xt")" && [ -f "$L/cross/$xt/libgmon.a" ]; then
		RUNNER="$(target_qemu "$xt") -L /usr/$xt" NM=$xt-nm
		unw_chain unwind-chain-aarch64 shared "$xt-gcc" "-L$L/cross/$xt -lgmon"
		unw_hook unwind-hook-aarch64 "cross-$xt" "-L$L/cross/$xt -lgmon" $xt-gcc -O2 -pg
		unw_sig unwind-signal-aarch64 shared "$xt-gcc" "-L$L/cross/$xt -lgmon"
		unw_sig unwind-signal-dlopen-aarch64 dlopen "$xt-gcc" "-L$L/cross/$xt -lgmon"
		RUNNER="" NM=nm
	else
		skip unwind-aarch64 "no $xt-gcc, qemu-user or its libgmon: sh tests/deps.sh; make libgmon-cross"
	fi
fi
