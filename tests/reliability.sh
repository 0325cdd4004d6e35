#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# reliability.sh: numeric edge cases, the no-data-loss guarantees of -s,
# and damaged executables.  Run from the repository root after `make`;
# prints one PASS:/FAIL:/SKIP: line per check, exits non-zero on failure.
#
# usage: sh tests/reliability.sh [GPROF]     (default src/gprof)
# Environment: GPROF_REF (default /usr/bin/gprof; outputs and exit statuses
# are compared with it when it is there), CC (default cc, for gmon-gen).
#
# Numeric cases: histograms over the whole address space, with 0 bins,
# with rate 0, billions of samples; bins and arc counts that no longer fit
# their 16- and 32-bit fields once summed by -s: GNU gprof sums histogram
# records of the same range and arc records of the same pair, so our
# gmon.sum splits such counts over several records, and reading it back
# (with GNU gprof too) must give the totals of reading the inputs directly.
# Data loss: an existing gmon.sum must survive gprof -s being killed while
# writing, a full file system (tmpfs of 64 KiB), a corrupt input, and a
# read-only folder (tmpfs remounted read-only); the mounts need root and
# are skipped otherwise.  Executables: truncated, stripped, without .text,
# with bogus symbol sizes/values/names, sections past the end of the file:
# the same exit status and output as GNU gprof, never a crash; and inputs
# on which GNU gprof hangs (tests/fuzz/gnu-crashes/exec/) give a clear
# error here.
set -u

cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
GPROF=${1:-src/gprof}
case $GPROF in /*) ;; *) GPROF=$ROOT/$GPROF ;; esac
REF=${GPROF_REF:-/usr/bin/gprof}
[ -x "$REF" ] || REF=
CC=${CC:-cc}
command -v "$CC" > /dev/null 2>&1 || CC=gcc
PROG=$ROOT/tests/fuzz/prog
GMON=$ROOT/tests/fuzz/gmon.out

if [ ! -x "$GPROF" ]; then
	echo "FAIL: reliability: $GPROF not built"
	exit 1
fi
mkdir -p tests/tmp
T=$(mktemp -d "$ROOT/tests/tmp/reliability.XXXXXX") || exit 1
MOUNTS=
failed=0
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
	if [ "$failed" = 0 ]; then rm -rf "$T"; else echo "reliability: files kept in $T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

failed=0
pass() { echo "PASS: reliability:$1"; }
fail() { echo "FAIL: reliability:$1${2:+ ($2)}"; failed=1; }
skip() { echo "SKIP: reliability:$1${2:+ ($2)}"; }

if command -v timeout >/dev/null 2>&1; then TO="timeout 60"; else TO=; fi

if ! $CC -O1 -o "$T/gmon-gen" tests/tools/gmon-gen.c; then
	fail setup "cannot build tests/tools/gmon-gen.c"
	exit 1
fi
gen() { "$T/gmon-gen" "$@"; }

# ---- helpers ----

# Little-endian field of $2 bytes.
le() {
	v=$1 n=$2 i=0
	while [ $i -lt "$n" ]; do
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) i=$((i + 1))
	done
}

# mkhist FILE NBINS BYTE: a GNU file with one histogram of NBINS bins over
# 0x1000.., every bin byte BYTE (so each bin is BYTE*257).
mkhist() {
	{ printf gmon; le 1 4; le 0 12; le 0 1; le 4096 8
	  le $((4096 + 2 * $2)) 8; le "$2" 4; le 100 4
	  printf 'seconds\0\0\0\0\0\0\0\0s'
	  head -c $(($2 * 2)) /dev/zero | tr '\0' "\\$(printf %03o "$3")"; } > "$1"
}

# ours NAME ARGS...: runs our gprof in $T; sets $rc; out in $T/NAME.out/.err.
ours() {
	_n=$1; shift
	(cd "$T" && $TO "$GPROF" "$@" > "$_n.out" 2> "$_n.err")
	rc=$?
}

# crashed NAME: our run NAME died (signal, time-out, sanitizer report).
crashed() {
	[ "$rc" -ge 124 ] && return 0
	grep -q 'Sanitizer\|runtime error' "$T/$1.err"
}

# like_gnu NAME ARGS...: our exit status and stdout equal GNU's (or, with
# no GNU gprof, we exit 0 or 1 without crashing).
like_gnu() {
	_name=$1; shift
	ours "$_name" "$@"
	if crashed "$_name"; then
		fail "$_name" "crashed: status $rc, $(grep -m1 -i 'error' "$T/$_name.err")"
		return
	fi
	if [ -z "$REF" ]; then
		if [ "$rc" -le 1 ]; then pass "$_name"; else fail "$_name" "status $rc"; fi
		return
	fi
	(cd "$T" && $TO "$REF" "$@" > "$_name.ref" 2> "$_name.referr")
	_ref=$?
	if [ "$_ref" != "$rc" ]; then
		fail "$_name" "status $rc, GNU $_ref"
	elif ! cmp -s "$T/$_name.out" "$T/$_name.ref"; then
		fail "$_name" "output differs from GNU's: diff $T/$_name.out $T/$_name.ref"
	else
		pass "$_name"
	fi
}

# like_gnu_status NAME ARGS...: as like_gnu, comparing exit statuses only.
like_gnu_status() {
	_name=$1; shift
	ours "$_name" "$@"
	if crashed "$_name"; then
		fail "$_name" "crashed: status $rc"
		return
	fi
	_ref=$rc
	if [ -n "$REF" ]; then
		(cd "$T" && $TO "$REF" "$@" > "$_name.ref" 2> "$_name.referr")
		_ref=$?
	fi
	if [ "$_ref" = "$rc" ] && [ "$rc" -le 1 ]; then pass "$_name"
	else fail "$_name" "status $rc, GNU $_ref"; fi
}

# same_output NAME FILE1 FILE2: two report files agree.
same_output() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$2 and $3 differ"; fi
}

# sum_roundtrip NAME PROFILE...: the gmon.sum of the profiles reads back
# (with ours, and with GNU's when there) to the report of the profiles.
sum_roundtrip() {
	_name=$1; shift
	rm -f "$T/gmon.sum"
	ours "$_name-sum" -s "$PROG" "$@"
	if [ "$rc" != 0 ] || [ ! -f "$T/gmon.sum" ]; then
		fail "$_name" "-s: status $rc"
		return
	fi
	mv "$T/gmon.sum" "$T/$_name.sum"
	ours "$_name-direct" -b "$PROG" "$@"
	ours "$_name-viasum" -b "$PROG" "$_name.sum"
	if ! cmp -s "$T/$_name-direct.out" "$T/$_name-viasum.out"; then
		fail "$_name" "sum reads back differently"
	elif [ -n "$REF" ]; then
		(cd "$T" && "$REF" -b "$PROG" "$@" > "$_name-gd.out" 2>&1)
		(cd "$T" && "$REF" -b "$PROG" "$_name.sum" > "$_name-gs.out" 2>&1)
		same_output "$_name" "$T/$_name-gd.out" "$T/$_name-gs.out"
	else
		pass "$_name"
	fi
}

# ---- numeric edge cases ----

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

# ---- no data loss ----

# sum_ok DIR: gmon.sum in DIR is still the original.
cp "$GMON" "$T/old.sum"
sum_ok() { cmp -s "$1/gmon.sum" "$T/old.sum"; }
no_temps() { ! ls "$1"/gmon.sum.?????? >/dev/null 2>&1; }

# Killed while writing: a 20 MB sum, killed as soon as its temporary file
# appears, then with fixed delays.
mkhist "$T/big.gmon" 10000000 1
mkdir -p "$T/kill"
cp "$T/old.sum" "$T/kill/gmon.sum"
(cd "$T/kill" && exec "$GPROF" -s -b "$PROG" ../big.gmon > /dev/null 2>&1) &
pid=$!
seen=0
while kill -0 $pid 2>/dev/null; do
	if ls "$T/kill"/gmon.sum.?????? >/dev/null 2>&1; then
		kill -KILL $pid 2>/dev/null && seen=1
		break
	fi
done
wait $pid 2>/dev/null
if [ $seen = 0 ]; then
	skip killed-mid-write "the write ended before it could be interrupted"
elif sum_ok "$T/kill"; then
	pass killed-mid-write
else
	fail killed-mid-write "gmon.sum changed"
fi
rm -f "$T/kill"/gmon.sum.??????
if command -v timeout >/dev/null 2>&1; then
	ok=1
	for d in 0.05 0.1 0.2 0.4; do
		cp "$T/old.sum" "$T/kill/gmon.sum"
		# (an inner shell, so that its "Killed" notice goes to /dev/null)
		(cd "$T/kill" && sh -c 'timeout -s KILL "$@" > /dev/null; :' sh \
			$d "$GPROF" -s -b "$PROG" ../big.gmon 2>/dev/null)
		# Either the old file, or the whole new one.
		if ! sum_ok "$T/kill" &&
		   [ "$(wc -c < "$T/kill/gmon.sum")" != "$(wc -c < "$T/big.gmon")" ]; then
			ok=0
		fi
		rm -f "$T/kill"/gmon.sum.??????
	done
	if [ $ok = 1 ]; then pass killed-by-timeout; else fail killed-by-timeout "gmon.sum damaged"; fi
fi

# A corrupt input: nothing is written.
mkdir -p "$T/corrupt"
cp "$T/old.sum" "$T/corrupt/gmon.sum"
head -c 100 "$GMON" > "$T/corrupt.gmon"
(cd "$T/corrupt" && "$GPROF" -s -b "$PROG" "$GMON" ../corrupt.gmon > /dev/null 2>&1)
rc=$?
if [ $rc = 1 ] && sum_ok "$T/corrupt" && no_temps "$T/corrupt"; then
	pass corrupt-input-keeps-sum
else
	fail corrupt-input-keeps-sum "status $rc"
fi

# A full file system and a read-only one (tmpfs mounts: root only).
mkdir -p "$T/full" "$T/ro"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/full"
	cp "$T/old.sum" "$T/full/gmon.sum"
	mkhist "$T/mid.gmon" 40000 1      # an 80 KB sum
	(cd "$T/full" && "$GPROF" -s -b "$PROG" ../mid.gmon > /dev/null 2> ../full.err)
	rc=$?
	if [ $rc = 1 ] && sum_ok "$T/full" && no_temps "$T/full" &&
	   grep -q 'No space left' "$T/full.err"; then
		pass disk-full-keeps-sum
	else
		fail disk-full-keeps-sum "status $rc, $(head -c 200 "$T/full.err")"
	fi
	umount "$T/full"
else
	skip disk-full-keeps-sum "cannot mount a tmpfs (needs root)"
fi
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$T/ro" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/ro"
	cp "$T/old.sum" "$T/ro/gmon.sum"
	if mount -o remount,ro "$T/ro" 2>/dev/null; then
		(cd "$T/ro" && "$GPROF" -s -b "$PROG" "$GMON" > /dev/null 2> ../ro.err)
		rc=$?
		if [ $rc = 1 ] && sum_ok "$T/ro" && grep -q 'Read-only' "$T/ro.err"; then
			pass read-only-folder-keeps-sum
		else
			fail read-only-folder-keeps-sum "status $rc, $(head -c 200 "$T/ro.err")"
		fi
	else
		skip read-only-folder-keeps-sum "cannot remount read-only"
	fi
	umount "$T/ro"
else
	skip read-only-folder-keeps-sum "cannot mount a tmpfs (needs root)"
fi

# ---- damaged executables ----

size=$(wc -c < "$PROG")
for n in 0 16 64 4096 $((size / 2)) $((size - 1)); do
	head -c "$n" "$PROG" > "$T/trunc$n"
	like_gnu "truncated-exe-$n" -b "trunc$n" "$GMON"
done

if command -v strip >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1 &&
   command -v readelf >/dev/null 2>&1; then
	strip -o "$T/stripped" "$PROG"
	like_gnu stripped-exe -b stripped "$GMON"
	objcopy --remove-section .text "$PROG" "$T/notext"
	like_gnu no-text-section -b notext "$GMON"

	# Byte patches at ELF offsets found with readelf.
	put() {	# file offset value nbytes
		le "$3" "$4" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	}
	fill() {	# file offset length byte
		head -c "$3" /dev/zero | tr '\0' "\\$(printf %03o "$4")" |
			dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	}
	secinfo() {	# name -> "offset size"
		readelf -SW "$PROG" | sed 's/^ *\[ *[0-9]*\]//' |
			awk -v n="$1" '$1 == n { print $4, $5 }' |
			{ read -r o s; echo $((0x$o)) $((0x$s)); }
	}
	secidx() { readelf -SW "$PROG" | sed -n "s/^ *\[ *\([0-9]*\)\] $1 .*/\1/p"; }
	shoff=$(od -A n -t u8 -j 40 -N 8 "$PROG" | tr -d ' ')

	set -- $(secinfo .symtab)
	so=$1 ssz=$2
	cp "$PROG" "$T/bigsize"; cp "$PROG" "$T/badval"; cp "$PROG" "$T/badname"
	i=1
	while [ $((i * 24)) -lt "$ssz" ]; do
		fill "$T/bigsize" $((so + i * 24 + 16)) 8 255
		[ $((i % 3)) = 1 ] && fill "$T/badval" $((so + i * 24 + 8)) 8 $((i * 37 % 256))
		[ $((i % 2)) = 1 ] && fill "$T/badname" $((so + i * 24)) 4 $((i * 91 % 256))
		i=$((i + 1))
	done
	like_gnu bogus-symbol-sizes -b bigsize "$GMON"
	like_gnu bogus-symbol-sizes-l -b -l bigsize "$GMON"
	like_gnu bogus-symbol-values -b badval "$GMON"
	like_gnu bogus-symbol-names -b badname "$GMON"
	set -- $(secinfo .strtab)
	cp "$PROG" "$T/nonul"; fill "$T/nonul" "$1" "$2" 65
	like_gnu strtab-without-nul -b nonul "$GMON"
	set -- $(secinfo .debug_info)
	cp "$PROG" "$T/baddbg"; fill "$T/baddbg" $(($1 + 12)) $(($2 - 12)) 255
	like_gnu garbage-debug-info-l -b -l baddbg "$GMON"
	like_gnu garbage-debug-info-A -b -A baddbg "$GMON"
	set -- $(secinfo .debug_line)
	cp "$PROG" "$T/badline"; fill "$T/badline" $(($1 + 8)) $(($2 - 8)) 7
	like_gnu garbage-debug-line-l -b -l badline "$GMON"
	like_gnu garbage-debug-line-C -b -l -C badline "$GMON"
	for s in .symtab .strtab .text .debug_info .debug_line; do
		h=$((shoff + $(secidx $s) * 64))
		cp "$PROG" "$T/past$s"; put "$T/past$s" $((h + 24)) $((size - 8)) 8
		like_gnu "section-past-eof$s" -b "past$s" "$GMON"
		[ $s = .text ] && continue        # GNU hangs with -l: below
		cp "$PROG" "$T/huge$s"; put "$T/huge$s" $((h + 32)) $((0x7fffffffffff)) 8
		like_gnu "section-huge-size$s" -b -l "huge$s" "$GMON"
	done
else
	skip damaged-executables "strip, objcopy or readelf missing"
fi

# Inputs on which GNU gprof 2.40 hangs or crashes: a clear error here.
for f in tests/fuzz/gnu-crashes/exec/*; do
	[ -f "$f" ] || continue
	name=gnu-crash-$(basename "$f")
	for opt in -l -s; do
		ours "$name" -b "$opt" "$ROOT/$f" "$GMON"
		if crashed "$name"; then
			fail "$name$opt" "status $rc"
		elif [ "$rc" = 1 ] && grep -q "$(basename "$f")" "$T/$name.err"; then
			pass "$name$opt"
		else
			fail "$name$opt" "status $rc, $(head -c 200 "$T/$name.err")"
		fi
	done
done

exit $failed
