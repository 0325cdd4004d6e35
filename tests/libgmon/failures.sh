# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/failures.sh: failures are reported in one clear line, the
# program's exit status is kept and no stray file is left: an unwritable
# folder, a GMON_OUT_PREFIX in a missing folder, an arc table at its cap
# (the exit summary counts the calls it dropped), a bad value of every
# GMON_* setting and a GMON_OUT too long.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

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

# many.c makes 64 arcs of 10 calls each; the table holds the first 16,
# so 48 x 10 calls are dropped, and said so in the one summary line.
n=arc-table-overflow
if build "$n" many.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_MAXARCS=16 --
	want='libgmon: not recorded: 480 calls beyond the arc cap (GMON_MAXARCS=16)'
	msgs=$(wc -l <"$W/$n/err")
	if [ "$(rc_of "$n")" = 0 ] && [ "$msgs" = 1 ] &&
	   [ "$(cat "$W/$n/err")" = "$want" ] &&
	   "$W/gmondump" -w 8 "$W/$n/gmon.out" check; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n"), $msgs message lines (want: $want):" "$(cat "$W/$n/err")"
	fi
fi

# Every GMON_* setting with bad values (a newline, a terminal escape and
# glibc's reserved signals 32 and 33 among them, all found by the fuzz
# harness tests/fuzz/fuzz_env.c): one line on stderr naming the variable,
# control characters shown as '?', and the program and its profile as
# usual.  The values go through env(1) unsplit.
n=bad-values-one-line
if build "$n" calls.c "$GLIBC_LIBS" $CC -O2 -pg; then
	nl='
'
	esc=$(printf '\033[2J')
	bad=
	# bad_value VAR VALUE [VAR=VALUE]: one run; appends to $bad if wrong.
	bad_value() {
		rm -f "$W/$n/gmon.out"
		(cd "$W/$n" && with_timeout "$RUN_LIMIT" env "$1=$2" ${3:-} ./prog 7 \
			>out 2>err; echo $? >rc)
		if [ "$(rc_of "$n")" != 7 ] || [ "$(wc -l <"$W/$n/err")" != 1 ] ||
		   ! grep -q "^libgmon: ignoring $1=[ -~]*\$" "$W/$n/err" ||
		   ! "$W/gmondump" -w 8 "$W/$n/gmon.out" check >/dev/null 2>&1; then
			bad="$bad [$1=$2: status $(rc_of "$n"), $(wc -l <"$W/$n/err") lines: $(cat "$W/$n/err")]"
		fi
	}
	for v in fast 0 1000001 "1${nl}2" -1 99999999999999999999; do bad_value GMON_RATE "$v"; done
	for v in CPU "wall$nl"; do bad_value GMON_CLOCK "$v"; done
	for v in yes "1$nl"; do bad_value GMON_STACKS "$v"; done
	for v in 0 1025 "8${nl}"; do bad_value GMON_STACK_DEPTH "$v" GMON_STACKS=1; done
	for v in 0 8388609; do bad_value GMON_STACK_TABLE "$v" GMON_STACKS=1; done
	for v in 15 -18446744073709551600 100000001 "$esc"; do bad_value GMON_MAXARCS "$v"; done
	for v in 2 "$esc"; do bad_value GMON_SHLIBS "$v"; done
	for v in 32 33 "INT,${nl}TERM" CHLD STOP; do bad_value GMON_EXIT_SIGNALS "$v"; done
	for v in 32 33 "USR2$nl" KILL; do bad_value GMON_DUMP_SIGNAL "$v"; done
	if [ -z "$bad" ]; then pass "$n"; else fail "$n" "$bad"; fi
fi

# A GMON_OUT too long for a path: one line, no file, the status kept.
n=out-too-long
if build "$n" calls.c "$GLIBC_LIBS" $CC -O2 -pg; then
	long=$(printf 'p%.0s' $(seq 5000))
	run "$n" GMON_OUT="$long" -- 7
	if [ "$(rc_of "$n")" = 7 ] && [ "$(wc -l <"$W/$n/err")" = 1 ] &&
	   grep -q '^libgmon: cannot write the profile: GMON_OUT or GMON_OUT_PREFIX is too long$' \
		"$W/$n/err" && [ -z "$(cd "$W/$n" && ls | grep '^pp')" ]; then
		pass "$n"
	else
		fail "$n" "status $(rc_of "$n") (want 7):" "$(cat "$W/$n/err")"
	fi
fi
