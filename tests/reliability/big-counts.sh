# SPDX-License-Identifier: GPL-3.0-or-later
# reliability/big-counts.sh: counts that outgrow their fields when -s sums
# them.  GNU gprof adds histogram records of the same range and arc records
# of the same pair, so our gmon.sum spreads a bin past 16 bits or an arc
# count past 32 bits over several records, and reading it back (with GNU
# gprof too) must give the report of the inputs read directly: bins near
# 65535 and arcs near 2^32 over three files, billions of samples, one bin
# past 2^32, a 64-bit BSD count that cannot be split (refused), and the
# usual gmon.sum accumulation loop.  Sourced by tests/reliability.sh after
# common.sh.
# (rc is set by the runners of common.sh.)
# shellcheck disable=SC2154

# Bins near 65535 and arcs near 2^32, summed over three files.
for i in 1 2 3; do
	printf '%s\n' 'hist 0x1000 0x1468 16 100 seconds s 3=65535 9=65534 12=1' \
		'arc 0x1323 0x1222 4294967295' 'arc 0x1222 0x126a 4000000000' \
		'arc 0x13c5 0x1323 1' | gen "$T/n$i.gmon"
done
ours sum-over-16-32-bits -s -b "$PROG" n1.gmon n2.gmon n3.gmon
if [ "$rc" != 0 ] || [ ! -f "$T/gmon.sum" ]; then
	fail sum-over-16-32-bits "status $rc"
else
	mv "$T/gmon.sum" "$T/n.sum"
	ours n-direct -b "$PROG" n1.gmon n2.gmon n3.gmon
	ours n-viasum -b "$PROG" n.sum
	same_output sum-over-16-32-bits "$T/n-direct.out" "$T/n-viasum.out"
	if grep -q '12884901885 *even' "$T/n-viasum.out" &&
	   grep -q '12000000000 *odd' "$T/n-viasum.out"; then
		pass sum-arc-counts-exact
	else
		fail sum-arc-counts-exact "call counts of even/odd lost: see $T/n-viasum.out"
	fi
	if [ -n "$REF" ]; then
		(cd "$T" && "$REF" -b "$PROG" n1.gmon n2.gmon n3.gmon > n-gnu-direct.out 2>&1)
		(cd "$T" && "$REF" -b "$PROG" n.sum > n-gnu-viasum.out 2>&1)
		same_output sum-read-back-by-gnu "$T/n-gnu-direct.out" "$T/n-gnu-viasum.out"
		same_output sum-same-as-gnu "$T/n-gnu-direct.out" "$T/n-direct.out"
	else
		skip sum-read-back-by-gnu "no GNU gprof"
	fi
fi

# Billions of samples: two files of 65536 bins at 65535 each (8.6e9).
mkhist "$T/b1.gmon" 65536 255
cp "$T/b1.gmon" "$T/b2.gmon"
like_gnu billions-of-samples -b -p "$PROG" b1.gmon b2.gmon
ours billions-sum -s "$PROG" b1.gmon b2.gmon
if [ "$rc" = 0 ]; then
	ours billions-viasum -b -p "$PROG" gmon.sum
	same_output billions-of-samples-sum "$T/billions-of-samples.out" "$T/billions-viasum.out"
	if [ -n "$REF" ]; then
		(cd "$T" && "$REF" -b -p "$PROG" gmon.sum > billions-gnu-viasum.out 2>&1)
		same_output billions-sum-read-back-by-gnu "$T/billions-of-samples.out" \
			"$T/billions-gnu-viasum.out"
	fi
else
	fail billions-sum "status $rc"
fi
rm -f "$T/gmon.sum"

# One bin summed past 2^32: 65538 full records of the same range (GNU's
# int counters overflow there; ours widen), read directly and via -s.
{ printf '\0'; le 4096 8; le 5224 8; le 1 4; le 100 4
  printf 'seconds\0\0\0\0\0\0\0\0s'; le 65535 2; } > "$T/rec"
i=0
while [ $i -lt 16 ]; do cat "$T/rec" "$T/rec" > "$T/rec2"; mv "$T/rec2" "$T/rec"; i=$((i + 1)); done
{ printf gmon; le 1 4; le 0 12; cat "$T/rec"; head -c 86 "$T/rec"; } > "$T/wide.gmon"
rm -f "$T/rec"
ours wide-direct -b -p "$PROG" wide.gmon
ours wide-sum -s "$PROG" wide.gmon
if [ "$rc" = 0 ]; then
	ours wide-viasum -b -p "$PROG" gmon.sum
	if grep -q '42950' "$T/wide-direct.out"; then
		same_output bin-past-2e32 "$T/wide-direct.out" "$T/wide-viasum.out"
	else
		fail bin-past-2e32 "the 4295032830 samples are not all there"
	fi
else
	fail bin-past-2e32 "-s: status $rc"
fi
rm -f "$T/gmon.sum" "$T/wide.gmon"

# A 64-bit BSD arc count near 2^64 would need 2^32 records of 32 bits:
# refused with a message, and no gmon.sum appears.
{ le 4096 8; le 5224 8; le 24 4; le 1 2; le 0 2
  le 4899 8; le 4642 8; le -1 8; } > "$T/bsdhuge.gmon"
ours huge-bsd-count -s "$PROG" bsdhuge.gmon
if [ "$rc" = 1 ] && grep -q 'too large' "$T/huge-bsd-count.err" &&
   [ ! -e "$T/gmon.sum" ]; then
	pass huge-bsd-count-refused
else
	fail huge-bsd-count-refused "status $rc, $(head -c 200 "$T/huge-bsd-count.err")"
fi
rm -f "$T"/gmon.sum*

# The usual loop: gmon.sum accumulates run after run.
mkdir -p "$T/loop"
cp "$GMON" "$T/loop/gmon.sum"
for i in 1 2 3; do
	(cd "$T/loop" && "$GPROF" -s -b "$PROG" "$GMON" gmon.sum > /dev/null 2>&1) ||
		fail accumulate-loop "run $i failed"
done
ours loop-direct -b "$PROG" "$GMON" "$GMON" "$GMON" "$GMON"
ours loop-sum -b "$PROG" loop/gmon.sum
same_output accumulate-loop "$T/loop-direct.out" "$T/loop-sum.out"
