# SPDX-License-Identifier: GPL-3.0-or-later
# reliability/common.sh: what the parts of tests/reliability.sh share
# (sourced by it, not run): the PASS:/FAIL:/SKIP: reporters, a little-endian
# byte writer, a maker of histogram-only profiles, and the runners that
# compare our gprof with GNU gprof (exit status and stdout) or with itself
# (a gmon.sum read back).  Uses what reliability.sh sets: ROOT, GPROF, REF
# (empty without GNU gprof), PROG, GMON, T (the scratch folder) and failed.

pass() { echo "PASS: reliability:$1"; }
fail() { echo "FAIL: reliability:$1${2:+ ($2)}"; failed=1; }
skip() { echo "SKIP: reliability:$1${2:+ ($2)}"; }

# 60 s on a quiet machine, scaled with the load when the part starts
# (timeout_scale, tests/lib.sh).
if command -v timeout >/dev/null 2>&1; then TO="timeout $(scaled 60)"; else TO=; fi

# gen OUT < SPEC: tests/tools/gmon-gen, built by reliability.sh into $T.
gen() { "$T/gmon-gen" "$@"; }

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
