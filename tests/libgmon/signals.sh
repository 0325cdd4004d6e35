# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/signals.sh: profiles written on signals and on request:
# GMON_EXIT_SIGNALS (the profile of a program killed by SIGTERM, and the
# status the shell sees), GMON_DUMP_SIGNAL (numbered snapshots of a
# running program), the C API of include/libgmon.h with exact counts, the
# GMON_OUT name patterns and its empty value, and bad values.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# start_bg NAME [VAR=VALUE...] -- [ARGS...]: start $W/NAME/prog in the
# background (launch bg, common.sh); its pid goes to $bg.  Then wait_file
# waits for the file "ready" it writes once running.
start_bg() { launch bg "$@"; }

# wait_file FILE: up to 10 s (scaled with the load, timeout_scale) for
# FILE to appear; status 1 if it does not.
wait_file() {
	_i=0 _max=$((200 * $(timeout_scale)))
	while [ ! -e "$1" ]; do
		_i=$((_i + 1))
		[ $_i -le $_max ] || return 1
		sleep 0.05
	done
}

# finish PID: wait for it (killed if it runs on after 10 s, scaled with
# the load); sets $status.
finish() {
	_i=0 _max=$((200 * $(timeout_scale)))
	while kill -0 "$1" 2>/dev/null && [ $_i -lt $_max ]; do
		_i=$((_i + 1))
		sleep 0.05
	done
	kill -KILL "$1" 2>/dev/null
	wait "$1"
	status=$?
}

# count NAME FILE CALLER CALLEE: that arc's count in $W/NAME/FILE (0 if
# none); addresses are $width bytes wide.
width=8
count() {
	arcs "$1" $width "$2" 2>/dev/null | awk -v a="$3" -v b="$4" \
		'$1 == a && $2 == b { n = $3 } END { print n + 0 }'
}

# agree NAME FILE: src/gprof and GNU gprof give the same reports for FILE.
agree() {
	[ "$2" = gmon.out ] || cp "$W/$1/$2" "$W/$1/gmon.out"
	reports_agree "$1"
}

# Killed by SIGTERM: the profile is written, both gprofs read it alike,
# and the shell still sees "killed by SIGTERM" (status 143).  Names with
# and without SIG, in any case, and numbers are accepted.
n=exit-signal
if build "$n" server.c "$GLIBC_LIBS" $CC -O2 -pg; then
	start_bg "$n" GMON_EXIT_SIGNALS=int,SIGTERM,1 --
	if wait_file "$W/$n/ready"; then
		sleep 0.1
		kill -TERM $bg
	fi
	finish $bg
	c=$(count "$n" gmon.out main work)
	if [ "$status" != 143 ] || [ -s "$W/$n/err" ] || [ "$c" -lt 1000 ]; then
		fail "$n" "status $status (want 143), main->work $c" "$(cat "$W/$n/err")"
	elif ! why=$(agree "$n" gmon.out); then
		fail "$n" "$why"
	else
		pass "$n"
	fi

	# Without GMON_EXIT_SIGNALS a SIGTERM leaves no profile.
	n2=exit-signal-unset
	start_bg "$n" --
	wait_file "$W/$n/ready" && kill -TERM $bg
	finish $bg
	if [ "$status" = 143 ] && [ ! -e "$W/$n/gmon.out" ]; then pass "$n2"
	else fail "$n2" "status $status, files: $(cd "$W/$n" && echo gmon.out*)"; fi

	# A SIGINT handler of the program's own wins: it ends main normally,
	# and the profile is written at exit as usual.
	n2=exit-signal-own-handler
	start_bg "$n" GMON_EXIT_SIGNALS=INT -- handle
	wait_file "$W/$n/ready" && kill -INT $bg
	finish $bg
	made=$(cat "$W/$n/out")
	c=$(count "$n" gmon.out main work)
	if [ "$status" = 0 ] && [ "$c" = "${made:-none}" ]; then pass "$n2"
	else fail "$n2" "status $status, main->work $c for ${made:-no} calls" "$(cat "$W/$n/err")"; fi
fi

# The same under musl, by number (15 is SIGTERM on every Linux port).
n=exit-signal-musl
if [ -n "$MUSL" ] && build "$n" server.c "$MUSL_LIBS" $MUSL -O2 -pg; then
	start_bg "$n" GMON_EXIT_SIGNALS=15 GMON_OUT=%e.out --
	wait_file "$W/$n/ready" && kill -TERM $bg
	finish $bg
	c=$(count "$n" prog.out main work)
	if [ "$status" = 143 ] && [ ! -s "$W/$n/err" ] && [ "$c" -ge 1000 ]; then pass "$n"
	else fail "$n" "status $status (want 143), main->work $c" "$(cat "$W/$n/err")"; fi
fi

# The exit race: SIGTERM sent RACE_RUNS times (half as many in the musl
# and -m32 builds, to keep the part short) at stepped moments from
# "ready" to past the end of exitrace.c's exit, whose profile takes a few
# ms to write (racer.c, not profiled, drives the runs; see both).
# Whenever the signal lands, every run must end with a whole profile
# (src/gprof reads it, with as many arcs as a run left alone) and no
# temporary file.  That holds whatever the timing; how many signals were
# sent during the write is only reported, as are the statuses.
RACE_RUNS=${RACE_RUNS:-200}

# race_verdict NAME RUNS: "ok NOTES" or what went wrong, for $W/NAME's
# RUNS runs.
# Every run.I must be as long as the undisturbed calib; src/gprof reads
# each distinct content once (they differ only in the odd sample), and
# gmondump finds calib's number of arcs in it.
race_verdict() {
	_d=$W/$1 _runs=$2
	_arcs=$("$W/gmondump" -w $width "$_d/calib" arcs 2>/dev/null | wc -l)
	_tmp=$(cd "$_d" && find . -name '*.tmp' | wc -l)
	_bad= _list=
	_i=0
	while [ $_i -lt "$_runs" ]; do
		if [ -f "$_d/run.$_i" ]; then _list="$_list run.$_i"
		else _bad="$_bad run.$_i:missing"; fi
		_i=$((_i + 1))
	done
	_size=$(wc -c <"$_d/calib")
	_bad="$_bad$(cd "$_d" && cksum $_list |
		awk -v want="$_size" '$2 != want { printf " %s:%d bytes", $3, $2 }')"
	for _f in $(cd "$_d" && cksum $_list | awk '!seen[$1]++ { print $3 }'); do
		if ! (cd "$_d" && "$OUR_GPROF" -b -p prog "$_f" >/dev/null 2>&1); then
			_bad="$_bad $_f:unreadable"
		elif [ "$("$W/gmondump" -w $width "$_d/$_f" arcs 2>/dev/null | wc -l)" != "$_arcs" ]; then
			_bad="$_bad $_f:arcs"
		fi
	done
	awk -v runs="$_runs" -v tmp="$_tmp" -v bad="$_bad" -v arcs="$_arcs" '
		$4 == "signal" && $5 == 15 { sig++; during += $6 }
		$4 == "exit" && $5 == 0 { ok++ }
		END {
			n = sig + ok
			if (n != runs || tmp != 0 || bad != "" || arcs < 2048)
				printf "%d of %d runs ended by SIGTERM or exit 0, %d temporary files, calib has %d arcs; bad:%s\n",
				       n, runs, tmp, arcs, substr(bad, 1, 300)
			else
				printf "ok %d runs: %d ended by the signal (%d sent during the write), %d exited first\n",
				       runs, sig, during, ok
		}' "$_d/runs"
}

# exit_race NAME RUNS "LIBS" COMPILER [FLAGS...] -- [ARGS]: build and race.
exit_race() {
	_rn=$1 _rr=$2 _rl=$3
	shift 3
	_cc=
	while [ "$1" != -- ]; do _cc="$_cc $1"; shift; done
	shift
	build "$_rn" exitrace.c "$_rl" $_cc || return
	rm -f "$W/$_rn"/run.* "$W/$_rn"/calib*
	if ! (cd "$W/$_rn" && with_timeout "$RUN_LIMIT" env GMON_EXIT_SIGNALS=TERM \
	      RACER_HANG_SCALE="$(timeout_scale)" \
	      "$W/racer/prog" "$_rr" 15 ./prog "$@" >runs 2>err); then
		fail "$_rn" "racer failed" "$(cat "$W/$_rn/err")" "$(grep hung "$W/$_rn/runs")"
		return
	fi
	_v=$(race_verdict "$_rn" "$_rr")
	case $_v in
	ok*) pass "$_rn (${_v#ok })" ;;
	*) fail "$_rn" "$_v" ;;
	esac
}

if build racer racer.c "" $CC -O2; then
	exit_race exit-race "$RACE_RUNS" "$GLIBC_LIBS" $CC -O2 -pg --
	# An idle thread beside main: the signal may go to it mid-write.
	exit_race exit-race-thread "$RACE_RUNS" "$GLIBC_LIBS" $CC -O2 -pg -- thread
	[ -z "$MUSL" ] || exit_race exit-race-musl $((RACE_RUNS / 2)) "$MUSL_LIBS" $MUSL -O2 -pg --
	if [ -n "$M32" ]; then
		width=4
		exit_race exit-race-m32 $((RACE_RUNS / 2)) "$M32_LIBS" $CC -m32 -O2 -pg --
		width=8
	fi
fi

# Two dumps while running: gmon.out.PID.1 and .2, readable, counts that
# do not decrease, and the program runs on until SIGTERM ends it.
n=dump-signal
if build "$n" server.c "$GLIBC_LIBS" $CC -O2 -pg; then
	start_bg "$n" GMON_DUMP_SIGNAL=USR2 GMON_EXIT_SIGNALS=TERM --
	d=$W/$n/gmon.out.$bg
	ok=no
	if wait_file "$W/$n/ready" && kill -USR2 $bg && wait_file "$d.1" &&
	   sleep 0.1 && kill -USR2 $bg && wait_file "$d.2" && sleep 0.1 &&
	   kill -0 $bg; then
		ok=yes
	fi
	kill -TERM $bg
	finish $bg
	c1=$(count "$n" "gmon.out.$bg.1" main work)
	c2=$(count "$n" "gmon.out.$bg.2" main work)
	c3=$(count "$n" gmon.out main work)
	if [ $ok != yes ] || [ "$status" != 143 ] || [ -s "$W/$n/err" ] ||
	   [ "$c1" -lt 1000 ] || [ "$c2" -lt "$c1" ] || [ "$c3" -lt "$c2" ]; then
		fail "$n" "alive after dumps: $ok, status $status, main->work $c1, $c2, $c3" \
			"files: $(cd "$W/$n" && echo gmon.out*)" "$(cat "$W/$n/err")"
	elif ! why=$(agree "$n" "gmon.out.$bg.2"); then
		fail "$n" "$why"
	else
		pass "$n"
	fi
fi

# api_exact NAME: gmon_stop/gmon_start/gmon_reset/gmon_dump with exact
# counts (see tests/libgmon/api.c), $W/NAME/prog already built; a dump
# into a missing folder fails with ENOENT, no temporary file is left.
api_exact() {
	n=$1
	mkdir -p "$W/$n/snap"
	rm -f "$W/$n"/*.out "$W/$n"/snap/*
	run "$n" --
	pid=$(head -n 1 "$W/$n/out")
	got="$(count "$n" snap/one.out calls f) $(count "$n" two.out calls f)"
	got="$got $(count "$n" gmon.out calls f)"
	rest=$(sed 1d "$W/$n/out")
	if [ "$(rc_of "$n")" != 0 ] || [ -s "$W/$n/err" ] || [ "$got" != "40 5 12" ] ||
	   [ "$rest" != "dump nodir failed: ENOENT" ] ||
	   [ -n "$(cd "$W/$n" && find . -name '*.tmp')" ]; then
		fail "$n" "status $(rc_of "$n"), calls->f $got (want 40 5 12)" \
			"output: $rest" "$(cat "$W/$n/err")" "$(cd "$W/$n" && find . -name '*.tmp')"
	elif ! why=$(agree "$n" two.out); then
		fail "$n" "$why"
	else
		pass "$n"
	fi
}

if [ -n "$MUSL" ] &&
   build api-musl api.c "$MUSL_LIBS" $MUSL -O2 -pg -I"$ROOT/include"; then
	api_exact api-musl
fi
if [ -n "$M32" ] &&
   build api-m32 api.c "$M32_LIBS" $CC -m32 -O2 -pg -I"$ROOT/include"; then
	width=4
	api_exact api-m32
	width=8
fi

n=api
if build "$n" api.c "$GLIBC_LIBS" $CC -O2 -pg -I"$ROOT/include"; then
	api_exact "$n"

	# GMON_OUT patterns: %e %p %% and %t; it wins over GMON_OUT_PREFIX.
	n2=out-pattern
	rm -f "$W/$n"/prog.* "$W/$n"/t* "$W/$n"/pre.*
	run "$n" GMON_OUT=%e.%p.%% GMON_OUT_PREFIX=pre --
	pid=$(head -n 1 "$W/$n/out")
	f1=$(cd "$W/$n" && echo prog.*)
	before=$(date +%s)
	run "$n" GMON_OUT=t%t --
	f2=$(cd "$W/$n" && echo t[0-9]*)
	t=${f2#t}
	if [ "$f1" = "prog.$pid.%" ] && [ ! -e "$W/$n/pre.$pid" ] &&
	   [ "$t" -ge $((before - 1)) ] 2>/dev/null && [ "$t" -le $((before + 5)) ] &&
	   [ "$(count "$n" "$f1" calls f)" = 12 ]; then
		pass "$n2"
	else
		fail "$n2" "got $f1 (want prog.$pid.%) and $f2 (want t$before or so)"
	fi

	# GMON_OUT set and empty: no profile at all, not even from gmon_dump.
	n2=out-empty
	rm -f "$W/$n"/*.out "$W/$n"/snap/*
	run "$n" GMON_OUT= --
	if [ "$(rc_of "$n")" = 0 ] && [ ! -s "$W/$n/err" ] &&
	   [ -z "$(cd "$W/$n" && find . -name '*.out')" ]; then
		pass "$n2"
	else
		fail "$n2" "status $(rc_of "$n"), files: $(cd "$W/$n" && ls)" "$(cat "$W/$n/err")"
	fi

	# Bad values: one line each on stderr, the variable ignored, the
	# program and its profile as usual.
	n2=signal-bad-values
	bad=
	for v in GMON_EXIT_SIGNALS=INT,NOPE GMON_EXIT_SIGNALS=CHLD GMON_EXIT_SIGNALS=KILL \
	         GMON_EXIT_SIGNALS=INT,,TERM GMON_DUMP_SIGNAL=PROF GMON_DUMP_SIGNAL=99999 \
	         "GMON_DUMP_SIGNAL=TERM GMON_EXIT_SIGNALS=TERM"; do
		run "$n" $v --
		lines=$(wc -l <"$W/$n/err")
		if [ "$(rc_of "$n")" != 0 ] || [ "$lines" != 1 ] ||
		   ! grep -q '^libgmon: ignoring GMON_[A-Z_]*=.*(.*)$' "$W/$n/err" ||
		   [ "$(count "$n" gmon.out calls f)" != 12 ]; then
			bad="$bad [$v: status $(rc_of "$n"), $lines lines: $(cat "$W/$n/err")]"
		fi
	done
	if [ -z "$bad" ]; then pass "$n2"; else fail "$n2" "$bad"; fi
fi
