# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/failures.sh: failures are reported in one clear line, the
# program's exit status is kept and no stray file is left: an unwritable
# folder, a GMON_OUT_PREFIX in a missing folder, an arc table at its cap
# (the exit summary counts the calls it dropped).
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
