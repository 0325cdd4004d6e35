# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/shlibs.sh: GMON_SHLIBS=1 and libgmon-audit.so.  A program
# (shlibs.c) spends a third of its time in a -pg shared library it is
# linked with, a third in a -pg module it dlopen's and closes, and a third
# in itself: src/gprof, reading gmon.out.shlibs beside gmon.out, shows the
# library functions with their calls counted exactly and their share of
# the time within 5 points of what the program measured; GNU gprof reads
# gmon.out to the same call counts as a run without the switch; a run
# without the switch removes a stale side file.  Under
# LD_AUDIT=libgmon-audit.so the program's calls into the C library are
# counted exactly.  Snapshots taken while threads run read back whole.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# The hooks a dlopen'ed -pg module must find in the executable.
SL_EXPORT="-Wl,--export-dynamic-symbol=mcount -Wl,--export-dynamic-symbol=_mcount -Wl,--export-dynamic-symbol=__fentry__"

# shlibs_build NAME: the two libraries and the program in $W/NAME.
shlibs_build() {
	_d=$W/$1
	mkdir -p "$_d"
	if ! $CC -O2 -pg -fPIC -shared "$T/shlib_hot.c" -o "$_d/libslhot.so" >"$_d/lib.log" 2>&1 ||
	   ! $CC -O2 -pg -fPIC -shared "$T/shlib_plug.c" -o "$_d/libslplug.so" >>"$_d/lib.log" 2>&1; then
		fail "$1" "cannot build the libraries" "$(cat "$_d/lib.log")"
		return 1
	fi
	build "$1" shlibs.c "-L$_d -lslhot -Wl,-rpath,$_d -ldl $SL_EXPORT $GLIBC_LIBS" $CC -O2 -pg -I"$ROOT/include"
}

# flat_share NAME FUNCTIONS...: the percentage of the flat profile's time in
# those functions (their % time column, which has more digits than their
# self seconds, over the column's sum).
flat_share() {
	_f=$W/$1/flat
	shift
	awk -v names="$*" '
		BEGIN { n = split(names, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
		/^ *[0-9.]+ +[0-9.]+ +[0-9.]+/ { all += $1; if ($NF in want) part += $1 }
		END { printf "%.1f\n", (all > 0 ? 100 * part / all : -1) }' "$_f"
}

# graph_calls NAME CALLER CALLEE: "count/total" of the parent line naming
# CALLER in CALLEE's entry of src/gprof's call graph ($W/NAME/graph).
graph_calls() {
	awk -v caller="$2" -v callee="$3" '
		/^-+$/ { np = 0; next }
		/^\[[0-9]+\]/ {
			if ($(NF - 1) == callee)
				for (i = 1; i <= np; i++) if (pn[i] == caller) print pc[i]
			np = -1000; next }
		np >= 0 && NF >= 3 { np++; pn[np] = $(NF - 1); pc[np] = $(NF - 2) }
		' "$W/$1/graph" | head -1
}

# Each part's share of the flat profile within 5 points of what the
# program measured of its own thread's CPU clock.  A check on sampled data
# (tests/README): each part runs in contiguous blocks many ticks long (60000
# calls, about 0.3 s of CPU a part), and ticks come at even intervals of
# CPU time, so a part's count is off by at most one tick at each of its
# block boundaries (its ten library blocks run back to back: about four
# boundaries in all), some 4 of 700 ticks: under a point, with the % time
# column's rounding (0.01 a row).  The binomial model would give 1.8
# points; the window is over twice that too.
n=shlibs-time
if shlibs_build "$n"; then
	d=$W/$n
	run "$n" GMON_SHLIBS=1 -- "$d/libslplug.so" 60000
	(cd "$d" && "$OUR_GPROF" -b -p prog gmon.out >flat 2>flat.err && "$OUR_GPROF" -b -q prog gmon.out >graph 2>>flat.err)
	hot=$(flat_share "$n" hot_loop hot_step)
	plug=$(flat_share "$n" plug_work plug_step)
	t_hot=$(sed -n 's/^share hot //p' "$d/out")
	t_plug=$(sed -n 's/^share plug //p' "$d/out")
	verdict=$(awk -v a="$hot" -v b="$t_hot" -v c="$plug" -v e="$t_plug" 'BEGIN {
		d1 = a - b; d2 = c - e; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
		print (d1 <= 5 && d2 <= 5 && b > 10 && e > 10) ? "ok" : "bad" }')
	if [ "$(rc_of "$n")" = 0 ] && [ -s "$d/gmon.out.shlibs" ] && [ "$verdict" = ok ] &&
	   [ ! -s "$d/flat.err" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"); library $hot% (measured $t_hot%), module $plug% (measured $t_plug%)" \
			"$(cat "$d/err" "$d/flat.err")" "$(head -12 "$d/flat")"
	fi

	n2=shlibs-calls
	got="$(graph_calls "$n" main hot_loop) $(graph_calls "$n" hot_loop hot_step) $(graph_calls "$n" main plug_work) $(graph_calls "$n" plug_work plug_step)"
	if [ "$got" = "10/10 60000/60000 5/5 60000/60000" ]; then
		pass "$n2"
	else
		fail "$n2" "calls main->hot_loop, hot_loop->hot_step, main->plug_work, plug_work->plug_step: $got (want 10/10 60000/60000 5/5 60000/60000)" "$(head -40 "$d/graph")"
	fi

	# GNU gprof reads gmon.out; its arcs are those of a run without the
	# switch (the executable's own calls only), and that run removes the
	# side file the first one left.
	n3=shlibs-gnu-main
	arcs "$n" 8 >"$d/arcs-with"
	(cd "$d" && "$GNU_GPROF" -b -q prog gmon.out >gnu-graph 2>gnu.err)
	gnu_rc=$?
	run "$n" GMON_SHLIBS=1 -- "$d/libslplug.so" 2000
	run "$n" -- "$d/libslplug.so" 60000
	arcs "$n" 8 >"$d/arcs-without"
	if [ "$gnu_rc" = 0 ] && [ ! -s "$d/gnu.err" ] && cmp -s "$d/arcs-with" "$d/arcs-without" &&
	   [ ! -e "$d/gmon.out.shlibs" ] && grep -q main_step "$d/gnu-graph"; then
		pass "$n3"
	else
		fail "$n3" "GNU gprof status $gnu_rc; arcs with and without the switch:" \
			"$(diff "$d/arcs-with" "$d/arcs-without" | head -5)" "$(ls "$d")"
	fi
fi

# Snapshots written while another thread keeps adding samples and arcs:
# every side file must read back whole.
n=shlibs-dumps
if shlibs_build "$n"; then
	d=$W/$n
	run "$n" GMON_SHLIBS=1 -- dumps 20
	bad=
	for i in $(seq 1 20); do
		(cd "$d" && "$OUR_GPROF" -b -p prog "dump.$i" >/dev/null 2>"dump.$i.err" &&
		 strip_diagnosis "dump.$i.err") &&
			[ -s "$d/dump.$i.shlibs" ] && [ ! -s "$d/dump.$i.err" ] ||
			bad="$bad dump.$i"
	done
	if [ "$(rc_of "$n")" = 0 ] && [ -z "$bad" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"); unreadable:$bad" "$(cat "$d/err" "$d"/dump.*.err 2>/dev/null | head -5)"
	fi
fi

n=shlibs-bad-value
if shlibs_build "$n"; then
	run "$n" GMON_SHLIBS=yes -- "$W/$n/libslplug.so" 100
	want='libgmon: ignoring GMON_SHLIBS=yes (expected 0 or 1)'
	if [ "$(rc_of "$n")" = 0 ] && [ "$(cat "$W/$n/err")" = "$want" ] &&
	   [ ! -e "$W/$n/gmon.out.shlibs" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), stderr (want: $want):" "$(cat "$W/$n/err")"
	fi
fi

n=shlibs-audit
if [ ! -f "$L/libgmon-audit.so" ]; then
	fail "$n" "src/libgmon/libgmon-audit.so is not built"
elif shlibs_build "$n"; then
	d=$W/$n
	run "$n" LD_AUDIT="$L/libgmon-audit.so" -- getppid 1234
	(cd "$d" && "$OUR_GPROF" -b -q prog gmon.out >graph 2>graph.err)
	got=$(graph_calls "$n" ppid_caller getppid)
	if [ "$(rc_of "$n")" = 0 ] && [ "$got" = 1234/1234 ] && [ ! -s "$d/err" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), ppid_caller -> getppid: '$got' (want 1234/1234)" \
			"$(cat "$d/err" "$d/graph.err")" "$(grep -B2 -A2 getppid "$d/graph" | head -20)"
	fi
fi

# The audit module in a program without libgmon (no port): it counts
# nothing and the program runs as without it.
n=shlibs-audit-no-libgmon
mkdir -p "$W/$n"
if $CC -O2 "$T/busy.c" -o "$W/$n/prog" >"$W/$n/build.log" 2>&1; then
	run "$n" LD_AUDIT="$L/libgmon-audit.so" -- 0.1
	if [ "$(rc_of "$n")" = 0 ] && [ ! -s "$W/$n/err" ] && [ ! -e "$W/$n/gmon.out" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"); stderr:" "$(cat "$W/$n/err")"
	fi
else
	fail "$n" "build failed" "$(cat "$W/$n/build.log")"
fi
