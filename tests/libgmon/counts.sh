# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/counts.sh: exact call counts of the native (glibc) build
# with gcc and clang across optimisation levels and link modes, the same
# program under glibc's own runtime, and counts from several threads.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

for opt in -O0 -O2; do
	exact "gcc$opt-pie" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -fPIE -pie
	exact "gcc$opt-nopie" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -fno-pie -no-pie
	exact "gcc$opt-mfentry" calls.c calls.expected 8 "$GLIBC_LIBS" $CC $opt -pg -mfentry
done
exact gcc-O2-static calls.c calls.expected 8 "$GLIBC_LIBS" $CC -O2 -pg -static
exact gcc-O2-static-pie calls.c calls.expected 8 "$GLIBC_LIBS" $CC -O2 -pg -static-pie

if [ -n "$CLANG" ]; then
	for opt in -O0 -O2; do
		exact "clang$opt-pie" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -fPIE -pie
		exact "clang$opt-nopie" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -fno-pie -no-pie
		exact "clang$opt-mfentry" calls.c calls.expected 8 "$GLIBC_LIBS" clang $opt -pg -mfentry
	done
else
	skip clang "clang is not installed"
fi

# The same program under glibc's runtime must record the same arcs as
# under libgmon (gcc-O2-pie above).
n=glibc-vs-libgmon
if build "$n" calls.c "" $CC -O2 -pg; then
	run "$n" --
	if [ "$(rc_of "$n")" != 0 ]; then
		fail "$n" "the glibc -pg build exited with $(rc_of "$n")"
	elif ! arcs "$n" 8 >"$W/$n/arcs.glibc" 2>"$W/$n/dump.err"; then
		fail "$n" "unreadable glibc profile" "$(cat "$W/$n/dump.err")"
	elif [ ! -f "$W/gcc-O2-pie/arcs.all" ]; then
		fail "$n" "no libgmon profile to compare with (gcc-O2-pie failed)"
	elif ! diff "$W/$n/arcs.glibc" "$W/gcc-O2-pie/arcs.all" >"$W/$n/diff"; then
		fail "$n" "arcs differ (< glibc, > libgmon):" "$(cat "$W/$n/diff")"
	else
		pass "$n"
	fi
fi

# Threads counting the same functions at once lose no call.
exact threads-gcc threads.c threads.expected 8 "$GLIBC_LIBS" $CC -O2 -pg
[ -n "$CLANG" ] && exact threads-clang threads.c threads.expected 8 "$GLIBC_LIBS" clang -O2 -pg
