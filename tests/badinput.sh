# SPDX-License-Identifier: GPL-3.0-or-later
# badinput.sh: bad-input and error-path tests.  Each case builds its inputs
# in a fresh scratch directory (with printf, head, dd and od only, from the
# committed fixture tests/fixtures/cycle-O0), runs GPROF_BINARY there and
# compares exit status, stdout and stderr with GNU gprof (run live when
# /usr/bin/gprof exists, else the committed files in tests/badinput/expected).
# In stderr, each binary's path is replaced by "gprof", a usage text after a
# bad option is masked (our wording differs on purpose) and a missing final
# newline is ignored.  A file tests/badinput/deliberate/CASE.out, .err or .rc
# (none yet) replaces GNU's stdout, stderr or exit status for a documented
# deliberate difference.  Also checks that our stderr has at most one line
# (not counting a usage text) unless GNU's has more, that no sanitizer
# report appears, that no file is left behind in the working directory, and
# case-specific conditions (an existing gmon.sum left untouched).  One
# PASS:/FAIL: line per case.
#
# usage: sh tests/badinput.sh GPROF_BINARY
#        sh tests/badinput.sh --regen   (rewrite tests/badinput/expected with GNU)
# Environment: GPROF_REF (default /usr/bin/gprof).
set -u

TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
FIXTURE=$TESTS_DIR/fixtures/cycle-O0
EXPECTED=$TESTS_DIR/badinput/expected
DELIBERATE=$TESTS_DIR/badinput/deliberate
REF=${GPROF_REF:-/usr/bin/gprof}
PRECIOUS='precious gmon.sum contents: must survive a failed -s run'

CASES="
missing-profile
missing-exec
missing-default-profile
missing-default-exec
empty-profile
short-profile
header-only
trunc-hist-header
trunc-hist-bins
trunc-arc
bad-tag
bad-version
garbage-binary
garbage-text
exec-not-object
opt-O-bogus
opt-O-unknown
opt-Op
opt-O4-on-gnu
opt-unknown-long
opt-unknown-short
opt-ambiguous-long
opt-missing-arg
demangle-bogus
r-and-R
merge-diff-scale
merge-overlap
merge-dimension
merge-abbrev
merge-disjoint
arcs-only-flat
hist-only-graph
bsd-valid
bsd-incompatible
bsd-truncated
bsd44-rate
sum-corrupt-second
sum-unwritable
"

# ---- byte writers (little-endian, the fixture's byte order) ----
# shellcheck disable=SC2059
byte() { printf "\\$(printf %o $(($1 & 255)))"; }
le16() { byte "$1"; byte $(($1 >> 8)); }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
le64() { le32 $(($1 & 4294967295)); le32 $((($1 >> 32) & 4294967295)); }
# Unsigned integer of $3 bytes at offset $2 of file $1.
field() { od -A n -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' \n'; }
# Overwrite 2 bytes of file $1 at offset $2 with the value $3.
poke16() { le16 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# $1 zero bytes.
zeros() { head -c "$1" /dev/zero; }
# GNU gmon header, version $1.
gnu_header() { printf 'gmon'; le32 "$1"; zeros 12; }
# Old-BSD file (64-bit): lowpc $1, highpc $2, $3 bins, a few of them set.
bsd_file() {
	le64 "$1"; le64 "$2"; le32 $((20 + $3 * 2)); zeros $(($3 * 2))
}
bsd44_file() {
	le64 "$1"; le64 "$2"; le32 $((40 + $3 * 2)); le32 $((0x51879)); le32 "$4"
	zeros 12; zeros $(($3 * 2))
}

# Create the inputs of case $1 in the current directory and set ARGS (the
# command-line arguments) and CHECK (an extra check, or empty).
setup_case() {
	CHECK=
	cp "$FIXTURE/prog" prog
	g=$FIXTURE/gmon.out
	# Fields of the fixture's histogram record (header 20, tag 1).
	low=$(field "$g" 21 8)
	high=$(field "$g" 29 8)
	nb=$(field "$g" 37 4)
	histlen=$((61 + nb * 2))
	case $1 in
	missing-profile)
		ARGS="prog nothere.out" ;;
	missing-exec)
		cp "$g" gmon.out
		ARGS="nothere gmon.out" ;;
	missing-default-profile)
		ARGS="prog" ;;
	missing-default-exec)
		rm -f prog
		ARGS="" ;;
	empty-profile)
		: > empty.out
		ARGS="prog empty.out" ;;
	short-profile)
		head -c 12 "$g" > short.out
		ARGS="prog short.out" ;;
	header-only)
		gnu_header 1 > hdr.out
		ARGS="prog hdr.out" ;;
	trunc-hist-header)
		head -c 33 "$g" > th.out
		ARGS="prog th.out" ;;
	trunc-hist-bins)
		head -c 100 "$g" > tb.out
		ARGS="prog tb.out" ;;
	trunc-arc)
		size=$(wc -c < "$g")
		head -c $((size - 5)) "$g" > ta.out
		ARGS="prog ta.out" ;;
	bad-tag)
		{ head -c "$histlen" "$g"; byte 9; zeros 20; } > tag.out
		ARGS="prog tag.out" ;;
	bad-version)
		{ gnu_header 7; tail -c +21 "$g"; } > ver.out
		ARGS="prog ver.out" ;;
	garbage-binary)
		# Pseudo-random bytes, read as an old-BSD file.  Bytes 16..19
		# (the BSD byte count) are kept small: GNU allocates the bins
		# before validating, and a huge count costs it seconds and GBs.
		i=0
		while [ $i -lt 64 ]; do
			if [ $i = 16 ]; then le32 320; i=20; fi
			byte $((i * 73 + 29))
			i=$((i + 1))
		done > garbage.out
		ARGS="prog garbage.out" ;;
	garbage-text)
		# A short text file (a long one makes GNU allocate GBs, see above).
		printf 'not a profile\n' > garbage.txt
		ARGS="prog garbage.txt" ;;
	exec-not-object)
		printf 'not an executable\n' > notobj
		cp "$g" gmon.out
		ARGS="notobj gmon.out" ;;
	opt-O-bogus)	# only the first letter counts: "bogus" = BSD
		bsd_file "$low" "$high" "$nb" > bsd.out
		poke16 bsd.out $((20 + 1150 * 2)) 7
		ARGS="-b -p -O bogus prog bsd.out" ;;
	opt-O-unknown)
		cp "$g" gmon.out
		ARGS="-O xyz prog gmon.out" ;;
	opt-Op)
		cp "$g" gmon.out
		ARGS="-Op prog gmon.out" ;;
	opt-O4-on-gnu)
		cp "$g" gmon.out
		ARGS="-O4 prog gmon.out" ;;
	opt-unknown-long)
		cp "$g" gmon.out
		ARGS="--bogus prog gmon.out" ;;
	opt-unknown-short)
		cp "$g" gmon.out
		ARGS="-j prog gmon.out" ;;
	opt-ambiguous-long)
		cp "$g" gmon.out
		ARGS="--no prog gmon.out" ;;
	opt-missing-arg)
		cp "$g" gmon.out
		ARGS="prog gmon.out -O" ;;
	demangle-bogus)
		cp "$g" gmon.out
		ARGS="--demangle=bogus prog gmon.out" ;;
	r-and-R)
		cp "$g" gmon.out
		ARGS="-r -R x prog gmon.out" ;;
	merge-diff-scale)	# same range, other bin count
		cp "$g" gmon.out
		{ head -c 37 "$g"; le32 1000; dd if="$g" bs=1 skip=41 count=20 2>/dev/null; zeros 2000; } > scale.out
		ARGS="prog gmon.out scale.out" ;;
	merge-overlap)		# same scale, range shifted by 16
		cp "$g" gmon.out
		{ head -c 21 "$g"; le64 $((low + 16)); le64 $((high + 16))
		  dd if="$g" bs=1 skip=37 count=24 2>/dev/null; zeros $((nb * 2)); } > overlap.out
		ARGS="prog gmon.out overlap.out" ;;
	merge-dimension)
		cp "$g" gmon.out
		{ head -c 45 "$g"; printf 'milliseconds'; zeros 3; printf 's'; zeros $((nb * 2)); } > dim.out
		ARGS="prog gmon.out dim.out" ;;
	merge-abbrev)
		cp "$g" gmon.out
		{ head -c 60 "$g"; printf 'm'; zeros $((nb * 2)); } > abbrev.out
		ARGS="prog gmon.out abbrev.out" ;;
	merge-disjoint)		# valid: a second, non-overlapping range, same scale
		cp "$g" gmon.out
		{ head -c 21 "$g"; le64 $((high + 64)); le64 $((high + 64 + high - low))
		  dd if="$g" bs=1 skip=37 count=24 2>/dev/null; zeros $((nb * 2)); } > disjoint.out
		poke16 disjoint.out 61 5
		ARGS="-b -p prog gmon.out disjoint.out" ;;
	arcs-only-flat)		# no histogram record, -p asked
		{ head -c 20 "$g"; tail -c +$((histlen + 1)) "$g"; } > arcs.out
		ARGS="-b -p prog arcs.out" ;;
	hist-only-graph)	# no arc records, -q asked
		head -c "$histlen" "$g" > hist.out
		ARGS="-b -q prog hist.out" ;;
	bsd-valid)
		bsd_file "$low" "$high" "$nb" > bsd.out
		poke16 bsd.out $((20 + 1150 * 2)) 7
		poke16 bsd.out $((20 + 1200 * 2)) 3
		poke16 bsd.out $((20 + 1260 * 2)) 11
		ARGS="-b -p prog bsd.out" ;;
	bsd-incompatible)	# second BSD file with another bin count
		bsd_file "$low" "$high" "$nb" > bsd1.out
		bsd_file "$low" "$high" 1000 > bsd2.out
		ARGS="prog bsd1.out bsd2.out" ;;
	bsd-truncated)
		bsd_file "$low" "$high" "$nb" | head -c 120 > bsdt.out
		ARGS="prog bsdt.out" ;;
	bsd44-rate)		# two 4.4BSD files, profiling rates 1000 and 60
		bsd44_file "$low" "$high" "$nb" 1000 > b44a.out
		bsd44_file "$low" "$high" "$nb" 60 > b44b.out
		ARGS="-b -p prog b44a.out b44b.out" ;;
	sum-corrupt-second)	# -s must not touch an existing gmon.sum
		cp "$g" gmon.out
		head -c 100 "$g" > tb.out
		printf '%s\n' "$PRECIOUS" > gmon.sum
		ARGS="-s prog gmon.out tb.out"
		CHECK=sum-preserved ;;
	sum-unwritable)
		cp "$g" gmon.out
		mkdir gmon.sum
		ARGS="-s prog gmon.out" ;;
	*)
		return 1 ;;
	esac
}

# Run binary $1 with ARGS in directory $2/run (already set up); results go
# to $2/out, $2/err (raw), $2/err.norm (binary path -> "gprof") and $2/rc.
run_side() {
	bin=$1 dir=$2
	rc=0
	(
		cd "$dir/run" || exit 125
		case $bin in
		*build-san*)
			ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
			UBSAN_OPTIONS=print_stacktrace=1
			export ASAN_OPTIONS UBSAN_OPTIONS ;;
		esac
		set -f
		# shellcheck disable=SC2086
		LC_ALL=C with_timeout 60 "$bin" $ARGS
	) > "$dir/out" 2> "$dir/err" < /dev/null || rc=$?
	echo "$rc" > "$dir/rc"
	# The usage text printed after a bad option is this project's own
	# wording (like the blurbs): only getopt's diagnostic line before it
	# is compared.  awk also ends the last line with a newline, so a
	# missing final newline (GNU's "different scales" message) is ignored.
	sed -e "s|$(sed_literal "$bin")|gprof|g" "$dir/err" |
		awk '/^Usage: gprof / { print "[usage text]"; exit } { print }' > "$dir/err.norm"
}

# Set up case $1 in $2/run and run binary $3 there.
run_case() {
	mkdir -p "$2/run"
	(cd "$2/run" && setup_case "$1" &&
	 printf '%s\n' "$ARGS" > ../args && printf '%s\n' "$CHECK" > ../check) || return 1
	ARGS=$(cat "$2/args")
	ls -A "$2/run" > "$2/before.ls"
	run_side "$3" "$2"
	ls -A "$2/run" > "$2/after.ls"
}

if [ "${1:-}" = --regen ]; then
	[ -x "$REF" ] || { echo "badinput: --regen needs GNU gprof at $REF" >&2; exit 1; }
	mkdir -p "$TESTS_DIR/tmp" "$EXPECTED"
	WORK=$(mktemp -d "$TESTS_DIR/tmp/badinput.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	rm -f "$EXPECTED"/*.out "$EXPECTED"/*.err "$EXPECTED"/*.rc
	for id in $CASES; do
		run_case "$id" "$WORK/$id" "$REF" || { echo "badinput: setup of $id failed" >&2; exit 1; }
		cp "$WORK/$id/out" "$EXPECTED/$id.out"
		cp "$WORK/$id/err.norm" "$EXPECTED/$id.err"
		cp "$WORK/$id/rc" "$EXPECTED/$id.rc"
		echo "badinput: recorded $id (exit $(cat "$WORK/$id/rc"))"
	done
	exit 0
fi

if [ $# -ne 1 ]; then
	echo "usage: sh tests/badinput.sh GPROF_BINARY | --regen" >&2
	exit 2
fi
CAND=$(abspath "$1")
if [ ! -x "$CAND" ]; then
	echo "FAIL: badinput($1): candidate $CAND is missing or not executable"
	exit 1
fi
if [ ! -f "$FIXTURE/prog" ] || [ ! -f "$FIXTURE/gmon.out" ]; then
	echo "FAIL: badinput($1): fixture $FIXTURE is missing"
	exit 1
fi
LIVE=0
[ -x "$REF" ] && LIVE=1
[ $LIVE = 1 ] || echo "badinput: $REF not found: comparing with tests/badinput/expected"

mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/badinput.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP PIPE

failed=0
for id in $CASES; do
	d=$WORK/$id
	name=badinput:$id
	if ! run_case "$id" "$d/cand" "$CAND"; then
		echo "FAIL: $name (setup failed)"
		failed=1
		continue
	fi
	mkdir -p "$d/want"
	if [ $LIVE = 1 ]; then
		run_case "$id" "$d/ref" "$REF"
		cp "$d/ref/out" "$d/want/out"
		cp "$d/ref/err.norm" "$d/want/err"
		cp "$d/ref/rc" "$d/want/rc"
		# The committed files are what machines without GNU compare with.
		if ! cmp -s "$d/want/out" "$EXPECTED/$id.out" 2>/dev/null ||
		   ! cmp -s "$d/want/err" "$EXPECTED/$id.err" 2>/dev/null ||
		   ! cmp -s "$d/want/rc" "$EXPECTED/$id.rc" 2>/dev/null; then
			echo "badinput: note: tests/badinput/expected/$id.* differ from GNU gprof's current output (sh tests/badinput.sh --regen)"
		fi
	else
		if [ ! -f "$EXPECTED/$id.rc" ]; then
			echo "FAIL: $name (no expected files; run sh tests/badinput.sh --regen where GNU gprof exists)"
			failed=1
			continue
		fi
		cp "$EXPECTED/$id.out" "$d/want/out"
		cp "$EXPECTED/$id.err" "$d/want/err"
		cp "$EXPECTED/$id.rc" "$d/want/rc"
	fi
	# Documented deliberate differences from GNU (doc/gprof.md) replace
	# the corresponding part of GNU's behaviour.
	for part in out err rc; do
		if [ -f "$DELIBERATE/$id.$part" ]; then
			cp "$DELIBERATE/$id.$part" "$d/want/$part"
		fi
	done
	got=$d/cand
	why=
	cmp -s "$d/want/rc" "$got/rc" || why="exit status $(cat "$got/rc"), GNU $(cat "$d/want/rc")"
	cmp -s "$d/want/out" "$got/out" || why="${why:+$why; }stdout differs"
	cmp -s "$d/want/err" "$got/err.norm" || why="${why:+$why; }stderr differs"
	want_lines=$(count_lines "$d/want/err")
	got_lines=$(count_lines "$got/err.norm")
	limit=$want_lines
	[ "$limit" -ge 1 ] || limit=1
	if [ "$got_lines" -gt "$limit" ]; then
		why="${why:+$why; }$got_lines stderr lines, at most $limit allowed"
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$got/err"; then
		why="${why:+$why; }sanitizer report on stderr"
	fi
	# None of these runs may leave a file behind (GNU leaves none).
	if ! cmp -s "$got/before.ls" "$got/after.ls"; then
		why="${why:+$why; }new files in the working directory: $(comm -13 "$got/before.ls" "$got/after.ls" | tr '\n' ' ')"
	fi
	case $(cat "$got/check") in
	sum-preserved)
		if ! printf '%s\n' "$PRECIOUS" | cmp -s - "$got/run/gmon.sum"; then
			why="${why:+$why; }existing gmon.sum was changed"
		fi ;;
	esac
	if [ -z "$why" ]; then
		echo "PASS: $name"
		continue
	fi
	failed=1
	echo "FAIL: $name ($why)"
	{
		echo "args: $(cat "$got/args")"
		if ! cmp -s "$d/want/err" "$got/err.norm"; then
			diff -u "$d/want/err" "$got/err.norm" | sed -e '1,2d'
		fi
		if ! cmp -s "$d/want/out" "$got/out"; then
			diff -u "$d/want/out" "$got/out" | sed -e '1,2d'
		fi
	} | indent_head 15
done
exit $failed
