# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/i386.sh: the i386 build of libgmon (src/libgmon/32): exact
# counts with gcc -m32 and clang -m32, and threads.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

if [ -n "$M32" ]; then
	for opt in -O0 -O2; do
		exact "m32$opt-pie" calls.c calls.expected 4 "$M32_LIBS" $CC -m32 $opt -pg -fPIE -pie
		exact "m32$opt-nopie" calls.c calls.expected 4 "$M32_LIBS" $CC -m32 $opt -pg -fno-pie -no-pie
	done
	exact m32-O2-mfentry calls.c calls.expected 4 "$M32_LIBS" $CC -m32 -O2 -pg -mfentry -fno-pie -no-pie
	if [ -n "$CLANG" ]; then
		exact clang-m32-O2 calls.c calls.expected 4 "$M32_LIBS" clang -m32 -O2 -pg
	fi
	exact threads-m32 threads.c threads.expected 4 "$M32_LIBS" $CC -m32 -O2 -pg
else
	skip m32 "no src/libgmon/32/libgmon.a: $CC -m32 cannot link; apt-get install gcc-multilib"
fi
