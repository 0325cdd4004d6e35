# SPDX-License-Identifier: GPL-3.0-or-later
# reliability/numeric.sh: numeric edge cases of the histogram header, each
# compared with GNU gprof: a histogram over the whole 64-bit address space
# (GNU and 4.4BSD files), histograms with 0 bins or an empty range, a
# profiling rate of 0; and the gmon.sum of each read back.  Sourced by
# tests/reliability.sh after common.sh.
# (rc is set by the runners of common.sh.)
# shellcheck disable=SC2154

printf 'hist 0 0xffffffffffffffff 1000 100 seconds s 0=5 1=2 999=3\narc 0x1323 0x1222 5\n' |
	gen "$T/whole.gmon"
like_gnu whole-address-space -b "$PROG" whole.gmon
like_gnu whole-address-space-bsd -b -T "$PROG" whole.gmon
sum_roundtrip whole-address-space-sum whole.gmon whole.gmon
printf 'hist 0 0xfffffffffffffffe 65536 100 seconds s 0=5 65535=3\n' |
	gen "$T/whole2.gmon"
like_gnu whole-address-space-65536-bins -b "$PROG" whole2.gmon

# The same in a 4.4BSD file (lowpc, highpc, ncnt, version, rate, spare).
{ le 0 8; le -1 8; le $((40 + 8)) 4; le $((0x51879)) 4; le 100 4; le 0 12
  le 1 2; le 2 2; le 3 2; le 4 2; le 4899 8; le 4642 8; le 7 8; } > "$T/wholebsd.gmon"
# (one bin's share of a call is below 1e-18 s: GNU reads past its table of
# unit prefixes there, a documented difference, so only statuses compare)
like_gnu_status whole-address-space-bsd-file -b "$PROG" wholebsd.gmon
# and a BSD file with no bins at all
{ le 4096 8; le 5224 8; le 40 4; le $((0x51879)) 4; le 100 4; le 0 12
  le 4899 8; le 4642 8; le 7 8; } > "$T/zerobsd.gmon"
like_gnu zero-bins-bsd-file -b "$PROG" zerobsd.gmon

printf 'hist 0x1000 0x1468 0 100 seconds s\narc 0x1323 0x1222 5\n' | gen "$T/zero.gmon"
like_gnu zero-bins -b "$PROG" zero.gmon
like_gnu zero-bins-bsd -b -T "$PROG" zero.gmon
printf 'hist 0x1000 0x1000 0 100 seconds s\n' | gen "$T/zero2.gmon"
like_gnu zero-bins-empty-range -b "$PROG" zero2.gmon
ours zero-bins-sum -s "$PROG" zero.gmon
if [ "$rc" = 0 ] && [ -f "$T/gmon.sum" ]; then
	like_gnu zero-bins-sum-readback -b "$PROG" gmon.sum
else
	fail zero-bins-sum "status $rc"
fi
rm -f "$T/gmon.sum"

printf 'hist 0x1000 0x1468 16 0 seconds s 3=7 9=100\narc 0x1323 0x1222 5\n' | gen "$T/rate0.gmon"
like_gnu rate-0 -b "$PROG" rate0.gmon
sum_roundtrip rate-0-sum rate0.gmon rate0.gmon
like_gnu rate-0-bsd -b -T "$PROG" rate0.gmon
