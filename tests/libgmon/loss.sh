# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/loss.sh: nothing is lost silently.  Arc tables grow past
# their first committed chunk and keep every arc; beyond GMON_MAXARCS the
# one summary line at exit counts the dropped calls exactly; calls that
# a signal handler loses to the busy recorder are counted too; and code
# outside plain .text (.text.startup, .text.hot, .text.unlikely, a
# segment of its own beyond etext) is sampled and its calls recorded.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# growth.c with each native toolchain (growth is in common.sh; cross.sh
# runs it on the foreign targets).
growth arc-growth 8 "$GLIBC_LIBS" $CC -O2 -pg
if [ -n "$M32" ]; then
	growth arc-growth-m32 4 "$M32_LIBS" $CC -m32 -O2 -pg
else
	skip arc-growth-m32 "no -m32 build of libgmon"
fi
if [ -n "$MUSL" ]; then
	growth arc-growth-musl 8 "$MUSL_LIBS" musl-gcc -O2 -pg
else
	skip arc-growth-musl "musl-gcc is not installed"
fi

# With room for 1000 arcs, the first 1000 (main -> sites0, then sites0's
# first 999 sites) keep their 3 calls each and the other 5150 arcs'
# 15450 calls are dropped: the summary line must say exactly that, and
# the profile must hold the 3000 recorded calls.
n=arc-cap-summary
if build "$n" growth.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_MAXARCS=1000 --
	want='libgmon: not recorded: 15450 calls beyond the arc cap (GMON_MAXARCS=1000)'
	got=$(cat "$W/$n/err")
	sum=$("$W/gmondump" -w 8 "$W/$n/gmon.out" arcs 2>&1 | awk '{ s += $3 } END { print s + 0 }')
	if [ "$(rc_of "$n")" = 0 ] && [ "$got" = "$want" ] && [ "$sum" = 3000 ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), $sum calls recorded (want 3000); stderr (want: $want):" "$got"
	fi
fi

# Memory refused: RLIMIT_DATA (ulimit -d) counts committed private
# memory, so a table that cannot grow under it drops calls, and the
# summary must count exactly those (recorded + lost = 18450).  How much
# of the limit the C library uses differs between systems, so a range of
# limits is tried; at least one must have made the table stop growing.
nomem_run() {
	rm -f "$W/$1/gmon.out"
	# ulimit -d is not POSIX, but dash, bash and busybox sh have it (and
	# the test is skipped where it fails).
	# shellcheck disable=SC3045
	(cd "$W/$1" && ulimit -d "$2" && ./prog >out 2>err; echo $? >rc)
	case $(cat "$W/$1/err") in
	*"profiling disabled"*) echo skip; return ;;
	esac
	_rec=$("$W/gmondump" -w 8 "$W/$1/gmon.out" arcs 2>/dev/null | awk '{ s += $3 } END { print s + 0 }')
	_lost=$(sed -n 's/.*not recorded: \([0-9]*\) calls for lack of memory.*/\1/p' "$W/$1/err")
	echo "$(rc_of "$1") ${_rec} ${_lost:-0}"
}

n=arc-nomem-summary
# shellcheck disable=SC3045
if ! (ulimit -d 100000) 2>/dev/null; then
	skip "$n" "this shell has no ulimit -d"
elif build "$n" growth.c "$GLIBC_LIBS" $CC -O2 -pg; then
	bad='' hit=0
	for kb in 300 400 500 600 700 800 900 1000 1200 1500; do
		read -r st rec lost <<-END
		$(nomem_run "$n" $kb)
		END
		[ "$st" = skip ] && continue
		[ "$st" = 0 ] && [ $((rec + lost)) = 18450 ] ||
			bad="$bad ulimit -d $kb: status $st, $rec recorded + $lost lost;"
		[ "$lost" -gt 0 ] && hit=$((hit + 1))
	done
	echo "$hit" >"$W/$n/hits"
	if [ -z "$bad" ] && [ "$hit" -gt 0 ]; then
		pass "$n"
	else
		fail "$n" "${bad:-no limit made the table stop growing}" "$(cat "$W/$n/err")"
	fi
fi

# sigs.c: every handler run calls in_handler once; the calls the profile
# lacks are the ones that interrupted the recorder, and the summary must
# count exactly those (no line at all when there are none).
n=busy-summary
if build "$n" sigs.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" --
	handled=$(cat "$W/$n/out")
	inh=$(arcs "$n" 8 2>/dev/null | awk '$1 == "on_alarm" && $2 == "in_handler" { print $3 }')
	lost=$((${handled:-0} - ${inh:-0}))
	if [ "$lost" = 0 ]; then
		want=
	else
		want="libgmon: not recorded: $lost calls from signal handlers that interrupted the recorder"
	fi
	got=$(cat "$W/$n/err")
	if [ "$(rc_of "$n")" = 0 ] && [ "$got" = "$want" ] && [ "${handled:-0}" -gt 0 ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), $handled handler runs, ${inh:-no} counted; stderr (want: ${want:-nothing}):" "$got"
	fi
fi

# sections.c: main, hotf, coldf and farf each spin for the same CPU time
# (0.3 s, some 75 ticks each); each must get at least an eighth of the
# samples (a quarter expected: 5 binomial errors of 300 ticks below it), main's three calls
# must be recorded, nothing may be reported lost, and both gprofs must
# agree.  Once as a default (PIE) link, once with farcode in a segment of
# its own 512 KiB beyond the rest, outside __executable_start..etext,
# which the start-up code passes as the text range.
sections_verdict() {
	_sn=$1
	if [ "$(rc_of "$_sn")" != 0 ] || [ -s "$W/$_sn/err" ]; then
		echo "status $(rc_of "$_sn"), stderr: $(cat "$W/$_sn/err")"
		return
	fi
	_arcs=$(arcs "$_sn" 8 2>&1 | tr '\n' ' ')
	if [ "$_arcs" != "main coldf 1 main farf 1 main hotf 1 " ]; then
		echo "arcs: $_arcs"
		return
	fi
	hist "$_sn" 8 2>&1 | awk '
		$1 == "total" { t = $2 } { s[$1] = $2 }
		END {
			ok = t > 0
			split("main hotf coldf farf", w, " ")
			msg = ""
			for (i = 1; i <= 4; i++) {
				if (8 * s[w[i]] < t) ok = 0
				msg = msg " " w[i] " " s[w[i]] + 0
			}
			printf "%ssamples:%s of %d\n", ok ? "ok " : "", msg, t
		}'
}

sections() {
	_n=$1
	shift
	build "$_n" sections.c "$GLIBC_LIBS" "$@" || return
	run "$_n" -- 0.3
	_v=$(sections_verdict "$_n")
	case $_v in
	ok*) ;;
	*) fail "$_n" "$_v"; return ;;
	esac
	if ! _why=$(reports_agree "$_n"); then
		fail "$_n" "$_why"
		return
	fi
	pass "$_n"
}

sections text-sections $CC -O2 -pg
sections text-far-segment $CC -O2 -pg -no-pie -Wl,--section-start=farcode=0x480000
