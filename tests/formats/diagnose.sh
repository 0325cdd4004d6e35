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
# Older than the program, and nothing else to tell the build by (no
# arcs, no side file): the files' times decide.
cp "$dg/noarcs" "$dg/old"
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
expect_warning "no call arcs (code compiled without -pg)" noarcs \
	'diagnosis: .*noarcs: no call arcs: .*compiled without -pg: linking with -pg or -lgmon alone counts no call'
expect_warning "arcs between no functions" strayarcs \
	'diagnosis: .*strayarcs: 1 call-arc records, none between functions'
expect_warning "a profile older than the executable" old \
	'diagnosis: .*old is older than .*prog: the program was rebuilt.*by the files. times alone'
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

# ---- issue 31: another program's profile, whatever the address ranges ----

# A copied program is newer than its profile, but the arcs show it is the
# same build: no age problem.
mkdir -p "$dg/copy"
cp "$FIXTURES/cycle-O2/prog" "$FIXTURES/cycle-O2/gmon.out" "$dg/copy/"
touch -d '2000-01-01 00:00' "$dg/copy/gmon.out"
"$GPROF" --diagnose "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/out" 2>&1
if grep -q '^  profile age  *ok .*older than .*but its call arcs fit the executable.s code' "$dg/out" &&
   grep -q '^  program  *ok ' "$dg/out"; then
	pass "diagnose: a copied program (new time, same code) is not called rebuilt"
else
	fail "diagnose: a copied program (new time, same code) is not called rebuilt" "$(cat "$dg/out")"
fi

# -s prints no report, so no diagnosis either (the profile has a
# problem: 24 samples).
(cd "$dg/copy" && "$GPROF" -s prog gmon.out > out 2> err)
if [ $? = 0 ] && [ ! -s "$dg/copy/err" ] && [ ! -s "$dg/copy/out" ] &&
   [ -f "$dg/copy/gmon.sum" ]; then
	pass "diagnose: -s alone prints no diagnosis line"
else
	fail "diagnose: -s alone prints no diagnosis line" "$(cat "$dg/copy/err")"
fi
rm -f "$dg/copy/gmon.sum"

# The side file's build-id: the executable's own passes; another one is
# another build, even when the arcs fit.
${CC:-cc} -O -o "$dg/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c" ||
	fail "diagnose: build tests/tools/gmsl-gen"
bid=$(readelf -n "$dg/copy/prog" | sed -n 's/.*Build ID: *//p')
printf 'header 100 0\nobject 0 0 0 0 prog %s\nptimes 1000 0 2000\n' "$bid" |
	"$dg/gmsl-gen" "$dg/copy/gmon.out.shlibs"
"$GPROF" --diagnose "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/out" 2>&1
if grep -q "^  program  *ok .*the side file's build-id is the executable's" "$dg/out"; then
	pass "diagnose: the side file's build-id is the executable's"
else
	fail "diagnose: the side file's build-id is the executable's" "$(cat "$dg/out")"
fi
printf 'header 100 0\nobject 0 0 0 0 prog 0123456789abcdef\n' |
	"$dg/gmsl-gen" "$dg/copy/gmon.out.shlibs"
"$GPROF" -b -p "$dg/copy/prog" "$dg/copy/gmon.out" > /dev/null 2> "$dg/err"
if grep -q 'diagnosis: .*gmon.out was not written by .*prog: its side file .*gmon.out.shlibs names another build' "$dg/err" &&
   [ "$(wc -l < "$dg/err")" = 1 ]; then
	pass "diagnose: another build-id in the side file"
else
	fail "diagnose: another build-id in the side file" "$(cat "$dg/err")"
fi

# -i: GNU's lines, byte for byte, without a side file; with one, the side
# file described after them.
rm -f "$dg/copy/gmon.out.shlibs"
"$GPROF" -i "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/ours" 2>/dev/null
"$gnu" -i "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/gnu" 2>/dev/null
if cmp -s "$dg/ours" "$dg/gnu"; then
	pass "diagnose: -i without a side file is GNU's"
else
	fail "diagnose: -i without a side file is GNU's" "$(diff "$dg/ours" "$dg/gnu")"
fi
printf 'header 100 0\nobject 0 0 0 0 prog %s\nobject 1 0 0 0x100 /lib/libx.so -\nthread 0 77 main\nthread 1 78 worker\nstacks 0 5 0 0:0x1290,0:0x1090 2 1 0:0x1290\nsloss 2 1 64\nptimes 1500000000 500000000 3000000000\n' "$bid" |
	"$dg/gmsl-gen" "$dg/copy/gmon.out.shlibs"
"$GPROF" -i "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/ours" 2> "$dg/err"
if head -4 "$dg/ours" | cmp -s - "$dg/gnu" &&
   grep -q "^Side file \`.*gmon.out.shlibs' (version 1, 100 Hz, CPU time) contains:" "$dg/ours" &&
   grep -q '^	2 objects:' "$dg/ours" &&
   grep -q "^		.*prog (the executable): 0 samples, 0 call arcs, build-id $bid" "$dg/ours" &&
   grep -q '^		/lib/libx.so: .*build-id none' "$dg/ours" &&
   grep -q '^	2 threads' "$dg/ours" &&
   grep -q '^		thread 1 (system id 78): worker' "$dg/ours" &&
   grep -q '^	2 call stacks (7 ticks, up to 2 frames deep)' "$dg/ours" &&
   grep -q '^	2 ticks with a stack cut at 64 frames, 1 without a stack' "$dg/ours" &&
   grep -q '^	process times: user 1.50 s, system 0.50 s, wall 3.00 s' "$dg/ours"; then
	pass "diagnose: -i describes the side file"
else
	fail "diagnose: -i describes the side file" "$(cat "$dg/ours" "$dg/err")"
fi

# A damaged side file: one line naming it, the damage and --no-shlibs;
# with --no-shlibs, GNU's report.
head -c 40 "$dg/copy/gmon.out.shlibs" > "$dg/copy/cut" &&
	mv "$dg/copy/cut" "$dg/copy/gmon.out.shlibs"
"$GPROF" -b -p "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/ours" 2> "$dg/err"
rc=$?
"$GPROF" -b -p --no-shlibs "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/ours2" 2>/dev/null
"$gnu" -b -p "$dg/copy/prog" "$dg/copy/gmon.out" > "$dg/gnu" 2>/dev/null
if [ $rc = 1 ] && [ ! -s "$dg/ours" ] && [ "$(wc -l < "$dg/err")" = 1 ] &&
   grep -q 'gmon.out.shlibs: .*: a damaged side file (--no-shlibs reads .*copy/gmon.out without it)' "$dg/err" &&
   cmp -s "$dg/ours2" "$dg/gnu"; then
	pass "diagnose: a damaged side file names --no-shlibs"
else
	fail "diagnose: a damaged side file names --no-shlibs" "status $rc" "$(cat "$dg/err")"
fi
rm -f "$dg/copy/gmon.out.shlibs"

# The matrix: every program of the tree against every profile.  A
# program's own profile raises no alarm; another program's is named
# ("was not written by"), PIE against PIE included.  Programs: the
# fixtures' real runs (x86-64 PIE and not, -O0 to -O2, C++) and, built
# here with libgmon, cycle.c and calls.c at -O0 to -O3, static, with
# -mfentry, for i386 and with musl where those libgmon builds exist.
# Pairs whose .text is byte-identical are one program; a profile the
# reader cannot read for that executable (32 against 64 bits) is left
# out, as GNU's reader refuses it too.
mx=$dg/matrix
mkdir -p "$mx"
: > "$mx/list"
for n in callgraph cxx cycle-O0 cycle-O2 lines-O0 lines-O2 nopie pie \
         statics-O0 statics-O2 symspec; do
	echo "$n $FIXTURES/$n/prog $FIXTURES/$n/gmon.out" >> "$mx/list"
done
echo "merge $FIXTURES/merge/prog $FIXTURES/merge/gmon.1" >> "$mx/list"
L=$ROOT/src/libgmon
mxbuild() {	# NAME LIBDIR CC FLAGS...: build, run, add to the list
	_n=$1 _lib=$2
	shift 2
	[ -f "$_lib/libgmon.a" ] || return 0
	mkdir -p "$mx/$_n"
	if (cd "$mx/$_n" && "$@" -o prog "$_src" -L"$_lib" -lgmon >build.log 2>&1 &&
	    ./prog > /dev/null 2>&1 && [ -f gmon.out ]); then
		echo "$_n $mx/$_n/prog $mx/$_n/gmon.out" >> "$mx/list"
	else
		fail "diagnose: matrix: build and run $_n" "$(cat "$mx/$_n/build.log")"
	fi
}
for o in O0 O1 O2 O3; do
	_src=$TESTS_DIR/programs/cycle/cycle.c
	mxbuild "lg-cycle-$o" "$L" "${CC:-cc}" -pg -$o
	_src=$TESTS_DIR/programs/decoders/calls.c
	mxbuild "lg-calls-$o" "$L" "${CC:-cc}" -pg -$o
done
_src=$TESTS_DIR/programs/cycle/cycle.c
mxbuild lg-cycle-static "$L" "${CC:-cc}" -pg -O2 -static
mxbuild lg-cycle-fentry "$L" "${CC:-cc}" -pg -O2 -mfentry
command -v gcc > /dev/null && mxbuild lg-cycle-i386 "$L/32" gcc -m32 -pg -O2
command -v musl-gcc > /dev/null && mxbuild lg-cycle-musl "$L/musl" musl-gcc -pg -O2
text_sum() { objcopy -O binary -j .text "$1" /dev/stdout 2>/dev/null | cksum; }
same=0 other=0 unread=0 bad=
while read -r na pa ga; do
	sa=$(text_sum "$pa")
	while read -r nb pb gb; do
		if ! "$GPROF" --diagnose "$pa" "$gb" > "$mx/out" 2> "$mx/err"; then
			unread=$((unread + 1))
			continue
		fi
		if [ "$na" = "$nb" ] || [ "$sa" = "$(text_sum "$pb")" ]; then
			same=$((same + 1))
			grep -q '^  program  *ok ' "$mx/out" ||
				bad="$bad
$na with $nb's profile: $(grep '^  program' "$mx/out")"
		else
			other=$((other + 1))
			grep -q '^  program  *PROBLEM .*was not written by' "$mx/out" ||
				bad="$bad
$na with $nb's profile: $(grep '^  program' "$mx/out")"
		fi
	done < "$mx/list"
done < "$mx/list"
if [ -z "$bad" ] && [ $same -ge 12 ] && [ $other -ge 100 ]; then
	pass "diagnose: another program's profile is named ($other pairs; $same matching pairs raise no alarm; $unread unreadable)"
else
	fail "diagnose: another program's profile is named" \
		"$same matching, $other other, $unread unreadable pairs; wrong:$bad"
fi
# The stderr line names it first, before the age or range it explains.
"$GPROF" -b -p "$FIXTURES/pie/prog" "$FIXTURES/cycle-O2/gmon.out" > /dev/null 2> "$dg/err"
if grep -q 'diagnosis: .*cycle-O2/gmon.out was not written by .*pie/prog: [0-9]*% of its 14 call arcs name no callee just after the profiling hook.s call' "$dg/err"; then
	pass "diagnose: PIE against PIE, the one stderr line"
else
	fail "diagnose: PIE against PIE, the one stderr line" "$(cat "$dg/err")"
fi
