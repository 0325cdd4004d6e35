# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/diagnose.sh (sourced by tests/formats.sh): each cause of an
# empty or misleading report, crafted, gives its one warning line on
# stderr while standard output stays GNU gprof's; --diagnose lists every
# check with its result.

dg=$WORK/diagnose
mkdir -p "$dg"
prog=$FIXTURES/cycle-O0/prog          # .text from 0x1090 to 0x14c6
gnu=/usr/bin/x86_64-linux-gnu-gprof.single
${CC:-cc} -O -o "$dg/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" ||
	fail "diagnose: build tests/tools/gmon-gen"

gen() {	# NAME: a profile from the spec on standard input
	"$dg/gmon-gen" "$dg/$1" || fail "diagnose: gmon-gen $1"
}
# 3000 samples in spin, and the cycle-O0 program's arcs.
arcs='arc 0x13ff 0x126f 130
arc 0x141f 0x1306 130
arc 0x142f 0x138a 3'
printf 'hist 0x1090 0x14c6 539 100 seconds s 180=3000 272=20\n%s\n' "$arcs" | gen healthy
printf 'hist 0x1090 0x14c6 539 0 seconds s 180=300\n%s\n' "$arcs" | gen rate0
printf 'hist 0x400000 0x400436 539 100 seconds s 180=3000\n%s\n' "$arcs" | gen range
printf 'hist 0x1090 0x14c6 539 100 seconds s\n%s\n' "$arcs" | gen zero
printf 'hist 0x1090 0x14c6 539 100 seconds s 180=20\n%s\n' "$arcs" | gen few
printf 'hist 0x1090 0x14c6 539 100 seconds s 180=3000\n' | gen noarcs
printf 'hist 0x1090 0x14c6 539 100 seconds s 180=3000\narc 0x10 0x20 5\n' | gen strayarcs
cp "$dg/healthy" "$dg/old"
touch -d '2000-01-01 00:00' "$dg/old"
touch "$dg/healthy" "$dg/rate0" "$dg/range" "$dg/zero" "$dg/few" "$dg/noarcs" \
	"$dg/strayarcs"

# NAME PROFILE PATTERN [IMAGE]: exactly one stderr line, matching PATTERN
# (empty: no line at all), and standard output (brief: the explanations
# are our own words) byte-identical to GNU's.
expect_warning() {
	_name=$1 _prof=$dg/$2 _pat=$3 _img=${4:-$prog}
	"$GPROF" -b "$_img" "$_prof" > "$dg/ours" 2> "$dg/err"
	_rc=$?
	MALLOC_PERTURB_=255 "$gnu" -b "$_img" "$_prof" > "$dg/gnu" 2>/dev/null
	_grc=$?
	_n=$(wc -l < "$dg/err")
	if [ -z "$_pat" ]; then
		_ok=$([ "$_n" = 0 ] && echo y)
	else
		_ok=$([ "$_n" = 1 ] && grep -q -- "$_pat" "$dg/err" && echo y)
	fi
	if [ "$_ok" = y ] && [ $_rc = $_grc ] && cmp -s "$dg/ours" "$dg/gnu"; then
		pass "diagnose: $_name"
	else
		fail "diagnose: $_name" "status $_rc (GNU $_grc), stderr:" \
			"$(cat "$dg/err")" "$(cmp "$dg/ours" "$dg/gnu" 2>&1)"
	fi
}
expect_warning "a healthy profile: no warning" healthy ''
expect_warning "sampling rate 0" rate0 'diagnosis: .*rate0: the sampling rate is 0'
expect_warning "histogram over no function (wrong executable or PIE)" range \
	'diagnosis: .*range: the histogram covers 0x400000-0x400436, where .* has no function'
expect_warning "no samples at all" zero 'diagnosis: .*zero: no samples'
expect_warning "too few samples, with the expected error" few \
	'diagnosis: .*few: only 20 samples: .*the total by 22%'
expect_warning "no call arcs (-pg missing at link time)" noarcs \
	'diagnosis: .*noarcs: no call arcs'
expect_warning "arcs between no functions" strayarcs \
	'diagnosis: .*strayarcs: 1 call-arc records, none between functions'
expect_warning "a profile older than the executable" old \
	'diagnosis: .*old is older than .*prog: the program was rebuilt'
# A real profile read against another program: nopie's profile is at
# 0x401000 and up, the cycle-O0 program's text far below.
"$GPROF" "$prog" "$FIXTURES/nopie/gmon.out" > /dev/null 2> "$dg/err"
if grep -q 'diagnosis: .*has no function' "$dg/err" && [ "$(wc -l < "$dg/err")" = 1 ]; then
	pass "diagnose: another program's profile"
else
	fail "diagnose: another program's profile" "$(cat "$dg/err")"
fi

# Symspecs that leave the busy functions out (-p NAME, -e, -E) are no
# reason to think the samples lie outside every function (a bug fixed:
# the left-out samples counted as outside).
for _dopt in "-pleaf" "-p -e spin" "-E spin"; do
	# shellcheck disable=SC2086
	"$GPROF" -b $_dopt "$prog" "$FIXTURES/cycle-O0/gmon.out" >/dev/null 2>"$dg/err"
	if grep -q 'outside every function' "$dg/err"; then
		fail "diagnose: $_dopt leaves the range alone" "$(cat "$dg/err")"
	else
		pass "diagnose: $_dopt leaves the range alone"
	fi
done

# --diagnose: one line per check with its result.
"$GPROF" --diagnose "$prog" "$dg/few" > "$dg/out" 2> "$dg/err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$dg/err" ] &&
   grep -q '^  sampling rate  *ok  *100 Hz' "$dg/out" &&
   grep -q '^  histogram range  *ok ' "$dg/out" &&
   grep -q '^  samples  *PROBLEM  .*only 20 samples' "$dg/out" &&
   grep -q '^  call arcs  *ok  *3 arcs' "$dg/out" &&
   grep -q '^  profile age  *ok ' "$dg/out" &&
   grep -q '^1 problem found' "$dg/out"; then
	pass "diagnose: --diagnose lists every check"
else
	fail "diagnose: --diagnose lists every check" "status $rc" "$(cat "$dg/out" "$dg/err")"
fi
"$GPROF" --diagnose "$prog" "$dg/healthy" 2>&1 | grep -q '^No problem found' &&
	pass "diagnose: --diagnose on a healthy profile" ||
	fail "diagnose: --diagnose on a healthy profile"
"$GPROF" --diagnose --output="$dg/report" "$prog" "$dg/rate0" 2>/dev/null
grep -q 'sampling rate  *PROBLEM' "$dg/report" &&
	pass "diagnose: --diagnose honours --output" ||
	fail "diagnose: --diagnose honours --output"
