# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/stacks.sh: GMON_STACKS=1, call stacks per SIGPROF tick in
# the side file (x86-64 glibc; the accuracy case also i386, musl and
# aarch64 under qemu-user): the stacks through a caller carry its
# share of a callee's time; a recursion deeper than the limit gives
# truncated stacks, flagged and counted in SLOSS; named threads get their
# own stacks and exact per-thread TARCS that add up to gmon.out's arcs;
# a program's own signal handler, siglongjmp and code without frame
# pointers do not upset the walk; gmon.out stays what GNU gprof reads,
# the same as without the switch.  The side file is read with
# tests/tools/gmsl_stacks.py.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

GMSL_STACKS=$ROOT/tests/tools/gmsl_stacks.py

# stk_dump NAME: the side file of $W/NAME as gmsl_stacks.py prints it,
# into $W/NAME/dump (status 1 if it cannot be read).
stk_dump() {
	$NM -n -S --defined-only "$W/$1/prog" >"$W/$1/syms" 2>/dev/null
	python3 "$GMSL_STACKS" "$W/$1/gmon.out.shlibs" "$W/$1/syms" dump \
		>"$W/$1/dump" 2>"$W/$1/dump.err"
}

# stk_clean NAME: ran to status 0 with nothing on stderr, the side file
# reads back, and GNU gprof reads the gmon.out written with stacks on
# without a word; otherwise reports NAME as failed (status 1).
stk_clean() {
	if [ "$(rc_of "$1")" != 0 ] || [ -s "$W/$1/err" ] || ! stk_dump "$1"; then
		fail "$1" "status $(rc_of "$1")" "$(cat "$W/$1/err" "$W/$1/dump.err" 2>/dev/null)"
		return 1
	fi
	if [ -x "$GNU_GPROF" ] &&
	   ! (cd "$W/$1" && "$GNU_GPROF" -b prog gmon.out >gnu.out 2>gnu.err &&
	      [ ! -s gnu.err ]); then
		fail "$1" "GNU gprof ($GNU_GPROF) cannot read gmon.out" "$(cat "$W/$1/gnu.err")"
		return 1
	fi
	return 0
}

if [ "$(uname -m)" != x86_64 ] || ! have python3; then
	skip stacks "x86-64 and python3 only"
else

# work's callers in a call graph FILE: "cheap-self costly-self" seconds.
stk_callers() {
	awk '/^-+$/ { n = 0; next }
	     /^\[[0-9]+\]/ { if ($(NF - 1) == "work") { print c, x; exit } n = -1e9; next }
	     /^ / && NF >= 5 { if ($(NF - 1) == "cheap") c = $1; if ($(NF - 1) == "costly") x = $1 }' "$1"
}

# stk_accuracy NAME "LIBS" COMPILER [FLAGS...]: work(n) called 1000
# times from cheap (small n) and 1000 times from costly (large n, about
# 90% of the work), which the program measures itself.  (1) costly's
# share of work's ticks in the side file's stacks, and (1g) of work's
# time in `src/gprof --stacks`'s call graph, within 5 points of what the
# program measured, where the call graph without --stacks (GNU's
# method) splits it 50/50.  Run again once on a miss (shares are
# sampled).
stk_accuracy() {
	_an=$1 _al=$2
	shift 2
	build "$_an" stk_acc.c "$_al" "$@" || return 1
	for try in 1 2; do
		run "$_an" GMON_STACKS=1 GMON_RATE=1000 --
		stk_clean "$_an" || return 1
		got=$(awk '$1 == "stack" && $5 ~ /^work;/ {
				all += $3; if ($5 ~ /^work;costly;/) c += $3 }
			END { printf "%.1f %d\n", all ? 100 * c / all : -1, all }' "$W/$_an/dump")
		want=$(sed -n 's/^share costly //p' "$W/$_an/out")
		(cd "$W/$_an" && "$OUR_GPROF" -b -q --stacks prog gmon.out >stk.txt 2>stk.err &&
		 "$OUR_GPROF" -b -q prog gmon.out >cg.txt 2>cg.err)
		rep=$(stk_callers "$W/$_an/stk.txt")
		gnu=$(stk_callers "$W/$_an/cg.txt")
		verdict=$(echo "$got $want $rep $gnu" | awk '{
			d = $1 - $3; if (d < 0) d = -d
			r = ($4 + $5) > 0 ? 100 * $5 / ($4 + $5) : -1
			e = r - $3; if (e < 0) e = -e
			print (d <= 5 && $2 >= 100 && e <= 5 && $6 == $7) ? "ok" : "bad", r }')
		[ "${verdict%% *}" = ok ] && break
	done
	if [ "${verdict%% *}" = ok ]; then
		pass "$_an (costly: measured $want%, stacks ${got%% *}%, --stacks ${verdict#* }%)"
	else
		fail "$_an" "measured costly share $want%; stacks: $got (share, ticks);" \
			"--stacks call graph: cheap/costly self $rep (${verdict#* }%);" \
			"by call counts: $gnu (want equal)" "$(head -8 "$W/$_an/dump")"
	fi
}

# (1) on x86-64 glibc, then (6) gmon.out with the switch: GNU gprof
# reads it, and it has the same arcs and the same size as a run without.
n=stacks-accuracy
if stk_accuracy "$n" "$GLIBC_LIBS" $CC -O1 -pg; then
	n6=stacks-gmon-out
	cp "$W/$n/gmon.out" "$W/$n/gmon.stacks"
	run "$n" --
	if [ -e "$W/$n/gmon.out.shlibs" ]; then
		fail "$n6" "a side file without GMON_STACKS"
	elif [ "$(wc -c <"$W/$n/gmon.out")" != "$(wc -c <"$W/$n/gmon.stacks")" ] ||
	     [ "$(arcs "$n" 8 gmon.out)" != "$(arcs "$n" 8 gmon.stacks)" ]; then
		fail "$n6" "gmon.out differs in size or arcs with GMON_STACKS=1"
	elif [ -x "$GNU_GPROF" ] &&
	     ! (cd "$W/$n" && "$GNU_GPROF" -b prog gmon.stacks >gnu.txt 2>gnu.err &&
	        [ ! -s gnu.err ] && grep -q costly gnu.txt); then
		fail "$n6" "GNU gprof cannot read it" "$(cat "$W/$n/gnu.err")"
	else
		pass "$n6"
	fi
fi
# ... and on i386 (gcc -m32) and musl: the same walk, other frames.
if [ -n "$M32" ]; then
	stk_accuracy stacks-accuracy-m32 "$M32_LIBS" $CC -m32 -O1 -pg
else
	skip stacks-accuracy-m32 "no src/libgmon/32/libgmon.a: apt-get install gcc-12-multilib libc6-dev-i386"
fi
if [ -n "$MUSL" ]; then
	stk_accuracy stacks-accuracy-musl "$MUSL_LIBS" musl-gcc -O1 -pg
else
	skip stacks-accuracy-musl "no musl-gcc: apt-get install musl-tools"
fi

# ... and on aarch64 under qemu-user (frame records like x86's; the
# other targets record frame 0 only: doc/libgmon.md, "Call stacks").
. "$ROOT/tests/targets.sh"
xt=aarch64-linux-gnu
if have "$xt-gcc" && have "$(target_qemu "$xt")" && [ -f "$L/cross/$xt/libgmon.a" ]; then
	# (binutils-multiarch's gprof reads aarch64 files; the x86 one not)
	RUNNER="$(target_qemu "$xt") -L /usr/$xt" NM=$xt-nm GNU_GPROF=/usr/bin/gprof
	[ -x /usr/bin/x86_64-linux-gnu-gprof.single ] || GNU_GPROF=/usr/bin/$xt-gprof
	stk_accuracy stacks-accuracy-aarch64 "-L$L/cross/$xt -lgmon" $xt-gcc -O1 -pg
	RUNNER= NM=nm GNU_GPROF=$(gnu_x86_gprof)
else
	skip stacks-accuracy-aarch64 "no $xt-gcc, qemu-user or its libgmon: sh tests/deps.sh; make libgmon-cross"
fi

# (2) deeper than the limit: every stack of spin is truncated at the
# limit and flagged, and SLOSS counts them; a smaller GMON_STACK_DEPTH
# is obeyed.
n=stacks-depth
if build "$n" stk_deep.c "$GLIBC_LIBS" $CC -O1 -pg; then
	for depth in 128 16; do
		run "$n" GMON_STACKS=1 GMON_STACK_DEPTH=$depth --
		stk_clean "$n" || break
		v=$(awk -v d="$depth" '
			$1 == "stack" { n = split($5, f, ";"); all += $3
				if (n == d && $4 == 1) cut += $3 }
			$1 == "sloss" { lt = $2; lim = $4 }
			END { print (all > 50 && cut >= all * 0.95 && lt >= cut && lim == d) ? "ok" : "bad",
			      "ticks", all, "truncated", cut, "sloss", lt, "limit", lim }' "$W/$n/dump")
		case $v in
		ok*) pass "$n-$depth" ;;
		*) fail "$n-$depth" "$v" "$(head -5 "$W/$n/dump")" ;;
		esac
	done
fi

# (2t) a table too small (GMON_STACK_TABLE=4): at most 4 distinct stacks
# kept, the rest counted in SLOSS and named in the one exit line; a bad
# value is one line and the default.
n=stacks-table
if build "$n" stk_acc.c "$GLIBC_LIBS" $CC -O1 -pg &&
   run "$n" GMON_STACKS=1 GMON_STACK_TABLE=4 -- &&
   [ "$(rc_of "$n")" = 0 ] && stk_dump "$n"; then
	v=$(awk '$1 == "stack" { n++ } $1 == "sloss" { lost = $3 }
		END { print (n >= 1 && n <= 4 && lost > 0) ? "ok" : "bad", n, "stacks, lost", lost }' \
		"$W/$n/dump")
	if [ "${v%% *}" = ok ] && [ "$(wc -l <"$W/$n/err")" = 1 ] &&
	   grep -q "^libgmon: not recorded: [0-9]* call stacks .*GMON_STACK_TABLE" "$W/$n/err"; then
		pass "$n"
	else
		fail "$n" "$v" "$(cat "$W/$n/err")"
	fi
	run "$n" GMON_STACKS=1 GMON_STACK_TABLE=lots --
	if [ "$(rc_of "$n")" = 0 ] && [ "$(cat "$W/$n/err")" = \
	     "libgmon: ignoring GMON_STACK_TABLE=lots (expected 1 to 8388608)" ] &&
	   stk_dump "$n"; then
		pass "$n-bad-value"
	else
		fail "$n-bad-value" "$(cat "$W/$n/err")"
	fi
fi

# (2g) a table that grows: more distinct stacks than the 48 a thread's
# table starts with, all kept (nothing lost, nothing said).  A check on
# sampled data: distinct stacks come from distinct ticks, at most one per
# kernel tick of CPU (kernel_hz) however high GMON_RATE is, so the program
# runs for 250 ticks' worth of its own CPU time (1 s at 250 Hz).  250
# draws among some 1600 nearly equally likely stacks repeat about 20
# times; 48 or fewer distinct would take over 200 repeats, a chance far
# below one in a million.
n=stacks-growth
if build "$n" stk_many.c "$GLIBC_LIBS" $CC -O1 -pg &&
   run "$n" GMON_STACKS=1 GMON_RATE=10000 -- "$(awk -v hz="$(kernel_hz)" 'BEGIN { print 250 / hz }')" &&
   stk_clean "$n"; then
	v=$(awk '$1 == "stack" { n++ } $1 == "sloss" { lost = $3 }
		END { print (n > 48 && lost == 0) ? "ok" : "bad", n, "stacks, lost", lost }' \
		"$W/$n/dump")
	case $v in
	ok*) pass "$n (${v#ok })" ;;
	*) fail "$n" "$v" ;;
	esac
fi

# (3) threads: each named thread's stacks run through its own function
# only, its TARCS are exact, and the TARCS add up to gmon.out's arcs.
# A tick taken in leaf before its frame is set up (its first instructions,
# up to `mov %rsp,%rbp`) or after it is taken down (its `ret`) would make
# a frame-pointer walk skip fa, fb or fc; the walk from the call-frame
# information (unwalk.c) knows where the return address is at every
# instruction, so those ticks too must run through the thread's function
# (they are counted apart, to say so when they do not).
# stk_frameless PROG FUNCTION: FUNCTION's offsets (hex, no 0x) where its
# frame is not set up, one per line, from objdump's listing.
stk_frameless() {
	objdump -d --no-show-raw-insn "$1" | awk -v fn="<$2>:" '
		function hex(x,  i, v) {
			v = 0
			for (i = 1; i <= length(x); i++)
				v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
			return v
		}
		$2 == fn { on = 1; start = hex($1); set = 0; next }
		on && NF == 0 { exit }
		on && /^ *[0-9a-f]+:/ {
			off = hex(substr($1, 1, length($1) - 1)) - start
			if (!set || $2 ~ /^ret/) printf "%x\n", off
			if ($2 == "mov" && $3 == "%rsp,%rbp") set = 1
		}'
}
n=stacks-threads
if build "$n" stk_threads.c "$GLIBC_LIBS" $CC -O1 -pg && run "$n" GMON_STACKS=1 -- &&
   stk_clean "$n"; then
	python3 "$GMSL_STACKS" "$W/$n/gmon.out.shlibs" "$W/$n/syms" dump --offsets \
		>"$W/$n/dump.off" 2>/dev/null
	stk_frameless "$W/$n/prog" leaf >"$W/$n/frameless"
	v=$(awk '
		FILENAME == ARGV[1] { frameless["leaf+" $1] = 1; nfl++; next }
		$1 == "thread" { name[$2] = $4 }
		$1 == "stack" && $5 ~ /^leaf[+;]/ { split($5, f, ";")
			if (name[$2] == "wA" && f[2] == "fa" || name[$2] == "wB" && f[2] == "fb" ||
			    name[$2] == "wC" && f[2] == "fc") good += $3
			else if (f[1] in frameless) early += $3
			else bad += $3 }
		$1 == "tarc" { arcs[name[$2] " " $3 " " $4] += $5 }
		END { ok = good > 30 && bad == 0 && early == 0 && nfl > 0 &&
			arcs["wA fa leaf"] == 3000 && arcs["wB fb leaf"] == 5000 &&
			arcs["wC fc leaf"] == 7000 && arcs["wA start fa"] == 1 &&
			arcs["wB start fb"] == 1 && arcs["wC start fc"] == 1
		      print ok ? "ok" : "bad", "leaf ticks right", good, "wrong", bad,
			"frame not set up", early + 0,
			"fa/fb/fc->leaf", arcs["wA fa leaf"], arcs["wB fb leaf"], arcs["wC fc leaf"] }' \
		"$W/$n/frameless" "$W/$n/dump.off")
	arcs "$n" 8 >"$W/$n/arcs.gmon" 2>/dev/null
	awk '$1 == "tarc" { s[$3 " " $4] += $5 } END { for (k in s) print k, s[k] }' \
		"$W/$n/dump" | sort >"$W/$n/arcs.tarcs"
	sort "$W/$n/arcs.gmon" -o "$W/$n/arcs.gmon"
	case $v in
	ok*)
		if cmp -s "$W/$n/arcs.gmon" "$W/$n/arcs.tarcs"; then
			pass "$n"
		else
			fail "$n" "TARCS summed differ from gmon.out's arcs (< gmon.out, > TARCS):" \
				"$(diff "$W/$n/arcs.gmon" "$W/$n/arcs.tarcs")"
		fi ;;
	*) fail "$n" "$v" "$(grep -v '^stack' "$W/$n/dump" | head -12)" \
		"$(awk '$1 == "thread" { name[$2] = $4 }
		        $1 == "stack" && $5 ~ /^leaf[+;]/ { split($5, f, ";")
		          if (!(name[$2] == "wA" && f[2] == "fa" || name[$2] == "wB" && f[2] == "fb" ||
		                name[$2] == "wC" && f[2] == "fc")) print "wrong:", name[$2], $0 }' \
		   "$W/$n/dump.off" | head -8)" ;;
	esac
fi

# (3p) --per-thread on the same run: each thread's flat profile holds its
# own calls of leaf exactly, and the threads' self seconds add up to the
# whole program's (to the 0.01 s of each printed figure).
n3=stacks-per-thread
if [ "$(rc_of "$n")" = 0 ] &&
   (cd "$W/$n" && "$OUR_GPROF" --per-thread -b -p prog gmon.out >pt.txt 2>pt.err &&
    "$OUR_GPROF" -b -p prog gmon.out >whole.txt 2>>pt.err); then
	v=$(awk 'FNR == 1 { f++ }
		f == 1 && /^Thread / { th = $NF }
		f == 1 && $NF == "leaf" && NF == 7 { s += $3; nt++; c[th] = $4 }
		f == 2 && $NF == "leaf" && NF == 7 { w = $3; wc = $4 }
		END { d = s - w; if (d < 0) d = -d
		      ok = nt == 3 && c["\"wA\"):"] == 3000 && c["\"wB\"):"] == 5000 &&
		           c["\"wC\"):"] == 7000 && wc == 15000 && d <= 0.01 * nt + 1e-9
		      printf "%s threads %d, self %.2f s (whole %.2f s), calls %s/%s/%s\n",
		             ok ? "ok" : "bad", nt, s, w, c["\"wA\"):"], c["\"wB\"):"], c["\"wC\"):"] }' \
		"$W/$n/pt.txt" "$W/$n/whole.txt")
	case $v in
	ok*) pass "$n3 (${v#ok })" ;;
	*) fail "$n3" "$v" "$(cat "$W/$n/pt.err")" "$(head -30 "$W/$n/pt.txt")" ;;
	esac
else
	fail "$n3" "no run, or src/gprof failed" "$(cat "$W/$n/pt.err" 2>/dev/null)"
fi

# (4, 5) the program's own SIGALRM handler doing profiled work and
# leaving by siglongjmp, and code built without -pg and with
# -fomit-frame-pointer whose frame-pointer register holds garbage while
# the ticks come: the program runs to the end, the side file reads back,
# and stacks through the callback from that code stop cleanly.
n=stacks-signals
mkdir -p "$W/$n"
if ! $CC -O2 -fomit-frame-pointer -c "$T/stk_nofp.c" -o "$W/$n/nofp.o" >"$W/$n/nofp.log" 2>&1; then
	fail "$n" "cannot build stk_nofp.c" "$(cat "$W/$n/nofp.log")"
elif build "$n" stk_sig.c "$W/$n/nofp.o $GLIBC_LIBS" $CC -O1 -pg && run "$n" GMON_STACKS=1 -- &&
     stk_clean "$n"; then
	if [ "$(cat "$W/$n/out")" = done ] &&
	   grep -q '^tarc 0 on_alarm inhandler ' "$W/$n/dump" &&
	   grep -q '^stack .*;callback;nofp_call' "$W/$n/dump"; then
		pass "$n"
	else
		fail "$n" "output: $(cat "$W/$n/out")" "$(head -8 "$W/$n/dump")"
	fi
fi

fi
