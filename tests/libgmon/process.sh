# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/process.sh: the runtime across a process's life: signal
# handlers that interrupt the recorder, moncontrol, fork (the child's own
# profile) and exec (no timer left behind).
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# A SIGALRM handler compiled with -pg interrupts the recorder over and
# over: main's calls are all counted, the handler's at most once per run.
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

# Calls made under moncontrol(0) are not counted; a second monstartup()
# is ignored.
exact moncontrol control.c control.expected 8 "$GLIBC_LIBS" $CC -O2 -pg

# A fork child writes its own profile, gmon.out.PID, with its own counts
# and samples; the parent's gmon.out is left alone.
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
