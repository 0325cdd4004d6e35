# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/wall.sh: GMON_CLOCK: time spent waiting is charged under
# the wall clock and not under the CPU clock; threads blocked on a pipe or
# a condition variable; the file's "wall-sec" label as GNU gprof prints
# it; a fork child; musl, i386 and -fno-plt; a bad value; and a foreign target under
# qemu-user, whose /proc cannot tell where a thread waits; the split of
# wall time by napspin.c, quiet and loaded, and blocked stacks (issue 30).
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# wall_hist NAME [FILE]: "napper N cruncher C rate R share S", S being
# napper's percentage of the two functions' samples (-1 if none).
# WIDTH is the address width (8 unless set).
WIDTH=8
wall_hist() {
	hist "$1" "$WIDTH" ${2:-} >"$W/$1/hist" 2>"$W/$1/dump.err"
	awk '$1 == "napper" { n = $2 } $1 == "cruncher" { c = $2 }
	     $1 == "rate" { r = $2 }
	     END { printf "napper %d cruncher %d rate %d share %.1f\n",
	                  n, c, r, n + c ? 100 * n / (n + c) : -1 }' "$W/$1/hist"
}

# split_ok VERDICT LOW HIGH: napper's share within [LOW, HIGH] percent.
split_ok() {
	printf '%s\n' "$1" | awk -v lo="$2" -v hi="$3" \
		'{ exit !($NF >= lo && $NF <= hi && $6 > 0) }'
}

# window NAME LOW HIGH: "LOW HIGH", or with LOW "near" the share NAME's
# program measured (its "share napper" line) plus or minus HIGH.
window() {
	if [ "$2" = near ]; then
		sed -n 's/^share napper //p' "$W/$1/out" |
			awk -v d="$3" '{ printf "%.2f %.2f\n", $1 - d, $1 + d; f = 1 }
			               END { if (!f) print "-1 -1" }'
	else
		echo "$2 $3"
	fi
}

# wall_split NAME ROUNDS LOW HIGH [VAR=VALUE...]: run sleeper (ROUNDS
# rounds of 50 ms asleep and 50 ms of CPU) and check napper's share
# (LOW and HIGH as window's); a miss is run again once (the shares are
# sampled).
wall_split() {
	_n=$1 _r=$2 _wl=$3 _wh=$4
	shift 4
	run "$_n" "$@" -- "$_r"
	_v1=$(wall_hist "$_n")
	set -- "$@" -- "$_r"
	read -r _lo _hi <<EOW
$(window "$_n" "$_wl" "$_wh")
EOW
	if ! split_ok "$_v1" "$_lo" "$_hi"; then
		run "$_n" "$@"
		_v2=$(wall_hist "$_n")
		read -r _lo _hi <<EOW
$(window "$_n" "$_wl" "$_wh")
EOW
		if ! split_ok "$_v2" "$_lo" "$_hi"; then
			fail "$_n" "$_v1" "$_v2 (want a share of $_lo-$_hi%)" \
				"$(cat "$W/$_n/err" "$W/$_n/dump.err")"
			return 1
		fi
	fi
	if [ "$(rc_of "$_n")" != 0 ] || [ -s "$W/$_n/err" ]; then
		fail "$_n" "status $(rc_of "$_n")" "$(cat "$W/$_n/err")"
		return 1
	fi
	pass "$_n"
}

# Half the run asleep in nanosleep: about half the samples under the wall
# clock, almost none under the CPU clock (the default, and said so).
n=wall-clock-split
if build "$n" sleeper.c "$GLIBC_LIBS" $CC -O2 -pg; then
	wall_split "$n" 10 near 15 GMON_CLOCK=wall &&
		if ! reports_agree "$n" >"$W/$n/agree"; then
			fail wall-gnu-gprof "$(cat "$W/$n/agree")"
		elif [ "$compare_reports" = yes ] &&
			! grep -q 'Each sample counts as 0.001 wall-sec\.' "$W/$n/gnu-p"; then
			fail wall-gnu-gprof "GNU gprof's flat profile does not say wall-sec:" \
				"$(head -6 "$W/$n/gnu-p")"
		else
			pass wall-gnu-gprof
		fi
	mkdir -p "$W/cpu-clock-split"
	cp "$W/$n/prog" "$W/cpu-clock-split/prog"
	wall_split cpu-clock-split 4 0 5 GMON_CLOCK=cpu
	mkdir -p "$W/default-clock-split"
	cp "$W/$n/prog" "$W/default-clock-split/prog"
	wall_split default-clock-split 6 0 5 &&
		(cd "$W/default-clock-split" && "$OUR_GPROF" -b -p prog gmon.out) |
		grep -q 'Each sample counts as 0.001 seconds\.' ||
		fail default-clock-label "the CPU clock's profile does not say seconds"
fi

# Threads blocked in read() on a pipe and in pthread_cond_wait while the
# main thread computes for 0.4 s: each waiting function shows most of it.
n=wall-blocked-threads
if build "$n" waiter.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_CLOCK=wall -- 0.4
	hist "$n" 8 >"$W/$n/hist" 2>"$W/$n/dump.err"
	verdict=$(awk '$1 == "reader" { a = $2 } $1 == "cond_waiter" { b = $2 }
		$1 == "spinner" { s = $2 } $1 == "rate" { r = $2 }
		END {
			if (r == 0) { print "no profile"; exit }
			ok = a / r >= 0.3 && b / r >= 0.3 && a / r <= 0.6 && b / r <= 0.6
			printf "%s reader %.2f s, cond_waiter %.2f s, spinner %.2f s (want 0.3-0.6 s each waiting)\n",
				ok ? "ok" : "bad", a / r, b / r, s / r
		}' "$W/$n/hist")
	case $verdict in
	ok*) if [ "$(rc_of "$n")" = 0 ] && [ ! -s "$W/$n/err" ]; then pass "$n"
	     else fail "$n" "status $(rc_of "$n")" "$(cat "$W/$n/err")"; fi ;;
	*) fail "$n" "$verdict" "$(cat "$W/$n/err" "$W/$n/dump.err")" ;;
	esac
fi

# A fork child samples its own waits (its own sampler thread, its own
# thread id); the parent's wait for it is charged to parent_waits.
n=wall-fork
if build "$n" sleeper.c "$GLIBC_LIBS" $CC -O2 -pg; then
	# 10 rounds, 250 wall ticks: the window of 15 points either side of
	# the measured share is 4.7 binomial errors, and a miss is run again
	# once (tests/README, "Checks on sampled data").
	for try in 1 2; do
		run "$n" GMON_CLOCK=wall -- 10 fork
		child=$(sed -n '/^[0-9][0-9]*$/p' "$W/$n/out")
		cv=$(wall_hist "$n" "gmon.out.$child")
		pw=$(hist "$n" 8 2>/dev/null | awk '$1 == "parent_waits" { w = $2 }
			$1 == "rate" { r = $2 } END { printf "%.2f", r ? w / r : 0 }')
		read -r lo hi <<EOW
$(window "$n" near 15)
EOW
		split_ok "$cv" "$lo" "$hi" && break
	done
	if [ "$(rc_of "$n")" != 0 ] || [ -s "$W/$n/err" ] || ! split_ok "$cv" "$lo" "$hi" ||
		! awk -v s="$pw" 'BEGIN { exit !(s >= 0.5) }'; then
		fail "$n" "status $(rc_of "$n"); child: $cv (want $lo-$hi%)" \
			"parent_waits: $pw s (want >= 0.5)" "$(cat "$W/$n/err")"
	else
		pass "$n"
	fi
fi

# The musl build: process_vm_readv and the futex from musl's libc.
n=wall-musl
if [ -n "$MUSL" ]; then
	build "$n" sleeper.c "$MUSL_LIBS" musl-gcc -O2 -pg &&
		wall_split "$n" 6 near 15 GMON_CLOCK=wall
else
	skip "$n" "no musl-gcc or src/libgmon/musl/libgmon.a"
fi

# i386: 4-byte words on the stack; and -fno-plt's indirect calls
# (ff 15) as the calls that precede a return address.
n=wall-i386
if [ -n "$M32" ]; then
	WIDTH=4
	build "$n" sleeper.c "$M32_LIBS" $CC -m32 -O2 -pg &&
		wall_split "$n" 6 near 15 GMON_CLOCK=wall
	WIDTH=8
else
	skip "$n" "no -m32 build of libgmon"
fi
n=wall-no-plt
if build "$n" sleeper.c "$GLIBC_LIBS" $CC -O2 -pg -fno-plt; then
	wall_split "$n" 6 near 15 GMON_CLOCK=wall
fi

# A bad value: one line, and the CPU clock (labelled seconds).
n=wall-bad-value
if build "$n" sleeper.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_CLOCK=foo -- 2
	msgs=$(grep -c 'ignoring GMON_CLOCK=foo (expected cpu or wall)' "$W/$n/err")
	lines=$(wc -l <"$W/$n/err")
	label=$( (cd "$W/$n" && "$OUR_GPROF" -b -p prog gmon.out) |
		sed -n 's/^Each sample counts as [0-9.]* \(.*\)\.$/\1/p')
	if [ "$msgs" = 1 ] && [ "$lines" = 1 ] && [ "$label" = seconds ]; then
		pass "$n"
	else
		fail "$n" "$msgs matching lines of $lines; label '${label:-none}' (want seconds)" \
			"$(cat "$W/$n/err")"
	fi
fi

# Under qemu-user /proc describes the emulator: said once, CPU clock.
n=wall-qemu
triple=aarch64-linux-gnu
if have "$triple-gcc" && have qemu-aarch64 && [ -f "$L/cross/$triple/libgmon.a" ]; then
	mkdir -p "$W/$n"
	if "$triple-gcc" -O2 -pg -I"$T" "$T/sleeper.c" -o "$W/$n/prog" \
		-L"$L/cross/$triple" -lgmon -pthread >"$W/$n/build.log" 2>&1; then
		RUNNER="qemu-aarch64 -L /usr/$triple"
		run "$n" GMON_CLOCK=wall -- 2
		RUNNER=
		label=$( (cd "$W/$n" && "$OUR_GPROF" -b -p prog gmon.out 2>/dev/null) |
			sed -n 's/^Each sample counts as [0-9.]* \(.*\)\.$/\1/p')
		if [ "$(rc_of "$n")" = 0 ] && [ "$(wc -l <"$W/$n/err")" = 1 ] &&
			grep -q 'GMON_CLOCK=wall: .*sampling CPU time only' "$W/$n/err" &&
			[ "$label" = seconds ]; then
			pass "$n"
		else
			fail "$n" "status $(rc_of "$n"), label '${label:-none}' (want one message, seconds)" \
				"$(cat "$W/$n/err")"
		fi
	else
		fail "$n" "build failed" "$(cat "$W/$n/build.log")"
	fi
else
	skip "$n" "needs $triple-gcc, qemu-aarch64 and src/libgmon/cross/$triple"
fi

# ---- wall time split as really spent (issue 30) ----
# napspin.c: napper sleeps, cruncher spins, each for random 8-24 ms, 120
# rounds (about 3.8 s); napper's share of the two functions' samples must
# be within 5 points of what the program measured with CLOCK_MONOTONIC,
# on a quiet machine and with both cores loaded (cruncher then waits for a
# CPU for much of its time: wall time in cruncher all the same).  Error
# model in tests/README, section 5 (wall-napspin); one retry.

# napspin_verdict NAME: "ok|bad measured M got G (napper N cruncher C)".
napspin_verdict() {
	_want=$(sed -n 's/^share napper //p' "$W/$1/out")
	wall_hist "$1" | awk -v m="${_want:--100}" '{
		d = $NF - m; if (d < 0) d = -d
		printf "%s measured %.1f got %.1f (napper %d cruncher %d)\n",
			(d <= 5 && $2 + $4 > 0) ? "ok" : "bad", m, $NF, $2, $4 }'
}

# napspin_report NAME VERDICT: pass or fail.  (Under loads above 2
# runnable tasks per core napper once fell up to 15 points short and
# that passed with a note: the owed wall time was credited at SIGPROFs
# that POSIX CPU timers delivered late and in lumps.  With perf ticks,
# ticks.c, runs at loads 4.5 to 9.5 on 2 cores came within 2.2 points.)
napspin_report() {
	case $2 in
	ok*) pass "$1 (${2#ok })" ;;
	*) fail "$1" "napper's share: ${2#bad } (want within 5 points)" ;;
	esac
}

# napspin NAME [VAR=VALUE...]: run napspin (built) and check the split.
napspin() {
	_nn=$1
	shift
	for try in 1 2; do
		run "$_nn" GMON_CLOCK=wall "$@" --
		_nv=$(napspin_verdict "$_nn")
		case $_nv in ok*) break ;; esac
	done
	if [ "$(rc_of "$_nn")" != 0 ] || [ -s "$W/$_nn/err" ]; then
		fail "$_nn" "status $(rc_of "$_nn")" "$(cat "$W/$_nn/err")"
	else
		napspin_report "$_nn" "$_nv"
	fi
}

# load_start / load_stop: two CPU spinners, the test's own, ended by pid.
load_start() {
	sh -c 'while :; do :; done' &
	load1=$!
	sh -c 'while :; do :; done' &
	load2=$!
}
load_stop() {
	kill "$load1" "$load2" 2>/dev/null
	wait "$load1" "$load2" 2>/dev/null
}

n=wall-napspin
if build "$n" napspin.c "$GLIBC_LIBS" $CC -O2 -pg; then
	napspin "$n"
	n=wall-napspin-loaded
	mkdir -p "$W/$n"
	cp "$W/wall-napspin/prog" "$W/$n/prog"
	load_start
	napspin "$n"
	load_stop
fi
n=wall-napspin-musl
if [ -n "$MUSL" ]; then
	build "$n" napspin.c "$MUSL_LIBS" musl-gcc -O2 -pg && napspin "$n"
else
	skip "$n" "no musl-gcc or src/libgmon/musl/libgmon.a"
fi
n=wall-napspin-i386
if [ -n "$M32" ]; then
	WIDTH=4
	build "$n" napspin.c "$M32_LIBS" $CC -m32 -O2 -pg && napspin "$n"
	WIDTH=8
else
	skip "$n" "no -m32 build of libgmon"
fi

# A wall-clock wait under a call chain (main -> outer -> inner -> napper
# in nanosleep) with GMON_STACKS=1: the blocked thread's stacks carry the
# chain, so outer's and inner's inclusive shares in the folded stacks and
# in --stacks's call graph are napper's, within 5 points of the share the
# program measured (as wall-napspin; 60 rounds, one retry); and
# --per-thread gives napper the seconds the whole profile does.
# chain_verdict NAME: "ok|bad measured M folded F --stacks S".
chain_verdict() {
	_want=$(sed -n 's/^share napper //p' "$W/$1/out")
	(cd "$W/$1" && "$OUR_GPROF" --output-format=folded prog gmon.out >folded 2>folded.err &&
	 "$OUR_GPROF" -b -q --stacks prog gmon.out >stk.txt 2>stk.err)
	_fold=$(awk '{ n = $NF; all += n; if ($1 ~ /(^|;)main;outer;inner;napper$/) c += n }
		END { printf "%.1f", all ? 100 * c / all : -1 }' "$W/$1/folded")
	_stk=$(awk '/^\[[0-9]+\]/ && $NF ~ /^\[/ && $(NF - 1) == "outer" { print $2; exit }' "$W/$1/stk.txt")
	# --per-thread's napper (the blocked samples' TSAMPLES) as the whole
	# program's: the same samples.
	_pt=$(cd "$W/$1" && { "$OUR_GPROF" -b -p prog gmon.out; echo =;
		"$OUR_GPROF" --per-thread -b -p prog gmon.out; } 2>/dev/null |
		awk 'BEGIN { p = 0 } $1 == "=" { p = 1 } $NF == "napper" { v[p] = $3 }
		     END { print (v[0] != "" && v[0] == v[1]) ? "same" : v[0] "/" v[1] }')
	echo "${_want:--100} $_fold ${_stk:--100} $_pt" | awk '{
		a = $2 - $1; if (a < 0) a = -a; b = $3 - $1; if (b < 0) b = -b
		printf "%s measured %.1f folded %.1f --stacks %.1f per-thread %s\n",
			(a <= 5 && b <= 5 && $4 == "same") ? "ok" : "bad", $1, $2, $3, $4 }'
}
n=wall-stacks-chain
if build "$n" napspin.c "$GLIBC_LIBS" $CC -O2 -pg; then
	for try in 1 2; do
		run "$n" GMON_CLOCK=wall GMON_STACKS=1 -- 60 chain
		v=$(chain_verdict "$n")
		case $v in ok*) break ;; esac
	done
	if [ "$(rc_of "$n")" != 0 ] || [ -s "$W/$n/err" ]; then
		fail "$n" "status $(rc_of "$n")" "$(cat "$W/$n/err")"
	else
		case $v in
		*"per-thread same") napspin_report "$n" "$v" ;;
		*) fail "$n" "outer;inner;napper: ${v#bad } (want within 5 points)" \
			"$(head -5 "$W/$n/folded")" ;;
		esac
	fi
fi
