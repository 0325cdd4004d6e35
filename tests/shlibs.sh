# SPDX-License-Identifier: GPL-3.0-or-later
# shlibs.sh - tests of GMON_SHLIBS side files (PROFILE.shlibs, read by
# src/reading/shlibs_io.c and src/reading/shlibs.c): a real shared
# library and a program using it, both built with -pg here, and side files written by
# tests/tools/gmsl-gen.c with synthetic samples and arcs at the library
# functions' link-time addresses (read with nm).  Checks the flat profile
# and call graph, --no-shlibs against GNU gprof, damaged side files (one
# stderr line, status 1, nothing on stdout), a build-id mismatch, -s and
# its gmon.sum.shlibs, call stacks and threads (read, damaged, summed), a
# stripped library (dynamic symbols), a debug file found by build-id, side files named as profiles, and a rate mismatch.
# One PASS:/FAIL:/SKIP: line per test ("shlibs:NAME").
#
# usage: sh tests/shlibs.sh GPROF_BINARY
# Environment: GPROF_REF (default GNU gprof for x86), CC (default cc),
# KEEP=1 to keep the scratch folder tests/tmp/shlibs.PID.
set -u

TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
[ $# -eq 1 ] || { echo "usage: sh tests/shlibs.sh GPROF_BINARY" >&2; exit 2; }
GPROF=$(abspath "$1")
sanitizer_env "$1"
REF=${GPROF_REF:-$(gnu_x86_gprof)}
CC=${CC:-cc}
T=$TESTS_DIR/tmp/shlibs.$$
status=0

mkdir -p "$T" || exit 1
trap '[ -n "${KEEP-}" ] || rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
cd "$T" || exit 1
LC_ALL=C
export LC_ALL
# No debug files but those a test puts there.
GPROF_DEBUG_DIR=$T/debug
export GPROF_DEBUG_DIR

pass() { echo "PASS: shlibs:$1"; }
fail() {
	echo "FAIL: shlibs:$1 ($2)"
	[ -n "${3-}" ] && [ -f "$3" ] && head -n 20 "$3" | sed 's/^/    /'
	status=1
}

# ---- the program, the library and the profile ----

cat > lib.c <<'EOF'
static volatile unsigned long sink;
__attribute__((noinline)) void helper(unsigned long i) { sink += i * 3; }
__attribute__((noinline)) static void inner(unsigned long i) { sink ^= i; }
__attribute__((noinline)) void hot_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		helper(i);
		inner(i);
	}
}
EOF
cat > main.c <<'EOF'
void hot_loop(unsigned long n);
__attribute__((noinline)) static int local_work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}
int main(void)
{
	hot_loop(1000);
	return local_work(10) == 45 ? 0 : 1;
}
EOF
if ! "$CC" -O1 -o gmsl-gen "$TESTS_DIR/tools/gmsl-gen.c" 2> build.err ||
   ! "$CC" -shared -fPIC -pg -O1 -g -Wl,--build-id -o libhot.so lib.c \
	2>> build.err ||
   ! "$CC" -pg -O1 -Wl,--build-id -o prog main.c -L. -lhot \
	-Wl,-rpath,"$T" 2>> build.err ||
   ! ./prog 2>> build.err || [ ! -s gmon.out ]; then
	echo "SKIP: shlibs (cannot build and run a -pg program with a shared library)"
	exit 0
fi

addr() { nm "$1" | awk -v n="$2" '$3 == n { print "0x" $1 }'; }
HOT=$(addr libhot.so hot_loop)
HELPER=$(addr libhot.so helper)
INNER=$(addr libhot.so inner)
MAIN=$(addr prog main)
BID=$(readelf -n libhot.so | awk '/Build ID/ { print $3 }')
# The histogram record's rate: header 20 bytes, tag, two addresses, bins.
RATE=$(od -An -tu4 -j41 -N4 gmon.out | tr -d ' ')
if [ -z "$HOT" ] || [ -z "$HELPER" ] || [ -z "$MAIN" ] || [ -z "$BID" ]; then
	echo "SKIP: shlibs (no symbols or build-id in the test library)"
	exit 0
fi

# side FILE [LIB [BUILD-ID [RATE]]]: the usual side file: hot_loop 30
# samples, helper 20, inner 10, the vDSO 5; main -> hot_loop once,
# hot_loop -> helper 1000 times.
side() {
	./gmsl-gen "$1" <<EOF
header ${4:-$RATE} 0
object 0 0 0x1000 0x2000 $T/prog -
object 1 0x7f0000000000 0x1000 0x2000 ${2:-$T/libhot.so} ${3:-$BID}
object 2 0x7fff0000 0 0x1000 [vdso] -
samples 1 $((HOT + 4)) 30 $((HELPER + 2)) 20 $((INNER + 1)) 10
samples 2 0x100 5
arcs 0 $((MAIN + 8)) 1 $HOT 1 1 $((HOT + 8)) 1 $HELPER 1000
EOF
}

run() { # OUT ERR ARGS...: our gprof; status in $rc
	o=$1 e=$2
	shift 2
	"$GPROF" "$@" > "$o" 2> "$e"
	rc=$?
	sed "s|$GPROF|gprof|g" "$e" > "$e.m" && mv "$e.m" "$e"
	strip_diagnosis "$e"
}

# The flat-profile row of a function: "SECONDS CALLS".
row() { awk -v n="$2" '$NF == n && NF >= 4 { print $3, (NF >= 7 ? $4 : "-"); exit }' "$1"; }

side gmon.out.shlibs

# ---- reports ----

run out err -b prog gmon.out
if [ $rc -ne 0 ] || [ -s err ]; then
	fail flat "status $rc" err
elif [ "$(row out hot_loop)" != "0.30 1" ] ||
     [ "$(row out helper)" != "0.20 1000" ]; then
	fail flat "hot_loop/helper rows wrong" out
elif ! grep -q '^ *46\.15 .* hot_loop$' out; then
	fail flat "vDSO samples not in the total time" out
else
	pass flat
fi

if grep -Eq '^ +0\.30 +0\.20 +1/1 +main \[' out &&
   grep -Eq '^ +0\.30 +0\.20 +1/1 +hot_loop \[' out &&
   grep -Eq '^ +0\.20 +0\.00 +1000/1000 +helper \[' out &&
   grep -Eq '^ +0\.20 +0\.00 +1000/1000 +hot_loop \[' out; then
	pass call-graph
else
	fail call-graph "main -> hot_loop -> helper missing" out
fi

# Without the side file, or with --no-shlibs: GNU's output.
mv gmon.out.shlibs keep.shlibs
run plain err -b prog gmon.out
mv keep.shlibs gmon.out.shlibs
run noshl err2 -b --no-shlibs prog gmon.out
if [ -x "$REF" ]; then
	"$REF" -b prog gmon.out > gnu 2> /dev/null
else
	cp plain gnu
fi
if cmp -s plain gnu && cmp -s noshl gnu && [ ! -s err2 ]; then
	pass no-shlibs
else
	fail no-shlibs "differs from GNU gprof" noshl
fi

# Printers only read the model, library symbols included.
pt=$TESTS_DIR/reports/print_twice
if [ -x "$pt" ]; then
	for opts in "-b" "-z -r"; do
		# shellcheck disable=SC2086
		ASAN_OPTIONS=detect_leaks=0 "$pt" $opts prog gmon.out > o 2>&1 ||
			{ fail print-twice "print_twice $opts" o; continue; }
		pass "print-twice $opts"
	done
fi

ok=1
for opts in "-l -b" "-z -b" "-T -b" "-c -b" "-i" "-r" "-A -b" "-C"; do
	# shellcheck disable=SC2086
	run o e $opts prog gmon.out
	if [ $rc -ne 0 ] || [ -s e ]; then
		fail "options" "gprof $opts: status $rc" e
		ok=0
	fi
done
[ $ok = 1 ] && pass options

# ---- damaged side files ----

good=$(wc -c < gmon.out.shlibs)
cp gmon.out.shlibs good.shlibs
run good.out e -b prog gmon.out
damaged() { # NAME: gmon.out.shlibs is damaged
	run o e -b prog gmon.out
	if [ $rc -ne 1 ] || [ -s o ] || [ "$(wc -l < e)" -ne 1 ] ||
	   ! grep -q '^gprof: gmon.out.shlibs: ' e; then
		fail "bad-$1" "status $rc, $(wc -l < o) stdout lines" e
	else
		pass "bad-$1"
	fi
}
for cut in 2 10 18 25 40 70 $((good - 30)) $((good - 1)); do
	head -c "$cut" good.shlibs > gmon.out.shlibs
	damaged "truncated-$cut"
done
{ printf gmsx; tail -c +5 good.shlibs; } > gmon.out.shlibs
damaged magic
head -c 300 prog > gmon.out.shlibs
damaged garbage
{ head -c 16 good.shlibs; head -c 300 prog; } > gmon.out.shlibs
damaged garbage-records
gen() { ./gmsl-gen gmon.out.shlibs; }
printf 'header 100 0\nobject 1 0 0 0 lib -\nsamples 9 0x10 1\n' | gen
damaged unknown-id
printf 'header 100 0\nobject 1 0 0 0 lib -\narcs 1 0 7 0 1\n' | gen
damaged unknown-arc-id
printf 'header 100 0\nobject 1 0 0 0 a -\nobject 1 0 0 0 b -\n' | gen
damaged duplicate-id
printf 'header 100 0\nobject 1 0 0 0 %s -\n' "$(head -c 5000 /dev/zero | tr '\0' x)" | gen
damaged overlong-path
printf 'header 100 0\nobject 1 0 0 0 lib 00\nraw 1 60 %s\n' \
	010000000000000000000000000000000000000000000000000000000000 | gen
damaged object-length
printf 'header 100 0\nobject 1 0 0 0 lib -\nraw 2 20 01000000ffffffff0000000000000000000000\n' | gen
damaged n-overflow
printf 'header 100 0\nraw 3 8 ffffffff00000000\n' | gen
damaged arcs-n-overflow
printf 'header 100 0 2\n' | gen
damaged version
printf 'header 100 0\nraw 1 5000 00\n' | gen
damaged record-past-end
# Call stacks and threads (THREAD, STACKS, TSAMPLES, TARCS, SLOSS).
printf 'header 100 0\nobject 0 0 0 0 p -\nstacks 3 1 0 0:0x10\n' | gen
damaged stacks-unknown-thread
printf 'header 100 0\nthread 0 1 a\nthread 0 2 b\n' | gen
damaged thread-twice
printf 'header 100 0\nobject 0 0 0 0 p -\nthread 0 1 a\nstacks 0 1 0 7:0x10\n' | gen
damaged stacks-unknown-object
printf 'header 100 0\nthread 0 1 a\nraw 5 20 0000000001000000010000000000000000000000\n' | gen
damaged stacks-depth-0
printf 'header 100 0\nthread 0 1 a\nraw 5 20 0000000001000000010000000000000001040000\n' | gen
damaged stacks-too-deep
printf 'header 100 0\nobject 0 0 0 0 p -\nthread 0 1 a\nraw 5 32 0000000001000000010000000000000002000000000000000000000000000000\n' | gen
damaged stacks-frames-past-record
printf 'header 100 0\nthread 0 1 a\nraw 5 8 0000000005000000\n' | gen
damaged stacks-n-past-record
printf 'header 100 0\nobject 0 0 0 0 p -\nthread 0 1 a\nraw 6 13 00000000000000000100000000\n' | gen
damaged tsamples-length
printf 'header 100 0\nthread 0 1 a\nraw 7 8 0000000002000000\n' | gen
damaged tarcs-length
printf 'header 100 0\nraw 8 1 00\n' | gen
damaged sloss-length
printf 'header 100 0\nraw 4 12 000000000100000005006162\n' | gen
damaged thread-name-length
# CPU times (PTIMES, TTIMES): exact lengths, a known thread.
zeros() { head -c "$1" /dev/zero | od -An -tx1 | tr -d ' \n'; }
printf 'header 100 0\nraw 9 23 %s\n' "$(zeros 23)" | gen
damaged ptimes-length
printf 'header 100 0\nthread 0 1 a\nraw 10 33 %s\n' "$(zeros 33)" | gen
damaged ttimes-length
printf 'header 100 0\nthread 0 1 a\nttimes 1 0 1 2 3\n' | gen
damaged ttimes-unknown-thread
printf 'header 100 0\nttimes 0 1 1 2 3\nthread 0 1 a\n' | gen
damaged ttimes-before-thread
# Good records of every kind read without a word and leave the text
# reports as they were; the stacks come out in the folded format.
side stacks.shlibs
./gmsl-gen extra.shlibs <<EOF
header $RATE 0
thread 0 4242 main
thread 1 4243 worker
stacks 0 5 0 1:$((HELPER + 1)),1:$((HOT + 9)),0:$((MAIN + 9)) 2 1 1:$((INNER + 1))
stacks 1 3 0 1:$((HOT + 1)),0:$((MAIN + 9))
tsamples 0 1 $((HOT + 4)) 30
tarcs 1 1 $((HOT + 8)) 1 $HELPER 1000
sloss 2 1 64
EOF
# The extra records, without their 16-byte header, after the usual ones.
{ cat stacks.shlibs; tail -c +17 extra.shlibs; } > gmon.out.shlibs
run o e -b prog gmon.out
run f fe --output-format=folded prog gmon.out
printf '%s\n' '[truncated];inner 2' 'main;hot_loop 3' \
	'main;hot_loop;helper 5' > folded.want
if [ $rc -eq 0 ] && [ ! -s e ] && [ ! -s fe ] && cmp -s o good.out &&
   cmp -s f folded.want; then
	pass stacks-read
else
	fail stacks-read "status $rc" f
fi
# -s keeps them: the sum of two runs has every count doubled.
cp gmon.out gmon.3
cp gmon.out.shlibs gmon.3.shlibs
run o e -s prog gmon.out gmon.3
run f fe --output-format=folded prog gmon.sum
awk '{ $NF = 2 * $NF; print }' folded.want > folded2.want
if [ $rc -eq 0 ] && cmp -s f folded2.want; then
	pass stacks-sum
else
	fail stacks-sum "status $rc" f
fi
# The sum summed again keeps the stacks.
mv gmon.sum gmon.s1
mv gmon.sum.shlibs gmon.s1.shlibs
run o e -s prog gmon.s1
run f fe --output-format=folded prog gmon.sum
if [ $rc -eq 0 ] && cmp -s f folded2.want; then
	pass stacks-sum-again
else
	fail stacks-sum-again "status $rc" f
fi
rm -f gmon.3 gmon.3.shlibs gmon.s1 gmon.s1.shlibs gmon.sum gmon.sum.shlibs
# CPU times: the text reports stay GNU's, --diagnose and the JSON summary
# give them; -s adds them up (a thread's by id and name, as its stacks)
# and writes them last in gmon.sum.shlibs (PTIMES and two TTIMES: 103
# bytes).
./gmsl-gen times.shlibs <<EOF
header $RATE 0
thread 0 4242 main
thread 1 4243 worker
ptimes 3000000000 1000000000 5000000000
ttimes 0 0 1000000000 250000000 5000000000
ttimes 1 3 2000000000 750000000 4000000000
EOF
{ cat stacks.shlibs; tail -c +17 times.shlibs; } > gmon.out.shlibs
run o e -b prog gmon.out
run d de --diagnose prog gmon.out
run j je --output-format=json prog gmon.out
if [ $rc -eq 0 ] && [ ! -s e ] && cmp -s o good.out &&
   grep -q '^  CPU time  *info  *4.00 s (user 3.00 s, system 1.00 s = 25.0%), wall 5.00 s' d &&
   grep -q '"run_times": {"user_seconds": 3, "system_seconds": 1, "wall_seconds": 5}' j; then
	pass times-read
else
	fail times-read "status $rc" d
fi
cp gmon.out gmon.3
cp gmon.out.shlibs gmon.3.shlibs
run o e -s prog gmon.out gmon.3
run d de --diagnose prog gmon.sum
./gmsl-gen times2.want <<EOF
header $RATE 0
ptimes 6000000000 2000000000 10000000000
ttimes 0 0 2000000000 500000000 10000000000
ttimes 1 3 4000000000 1500000000 8000000000
EOF
tail -c 103 gmon.sum.shlibs > got.tail 2>/dev/null
tail -c 103 times2.want > want.tail
if [ $rc -eq 0 ] && cmp -s got.tail want.tail &&
   grep -q 'CPU time  *info  *8.00 s (user 6.00 s, system 2.00 s = 25.0%), wall 10.00 s' d; then
	pass times-sum
else
	fail times-sum "status $rc" d
fi
rm -f gmon.3 gmon.3.shlibs gmon.sum gmon.sum.shlibs
cp good.shlibs gmon.out.shlibs
# Unknown tags are skipped by their length.
printf 'header %s 0\nraw 77 auto 0011223344\n' "$RATE" | gen
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ ! -s e ] && cmp -s o plain; then
	pass unknown-tag
else
	fail unknown-tag "status $rc" e
fi
# --no-shlibs does not even read a damaged one.
printf 'gmsx' > gmon.out.shlibs
run o e -b --no-shlibs prog gmon.out
if [ $rc -eq 0 ] && [ ! -s e ] && cmp -s o plain; then
	pass no-shlibs-damaged
else
	fail no-shlibs-damaged "status $rc" e
fi
cp good.shlibs gmon.out.shlibs

# ---- libraries that do not match or cannot be read ----

side gmon.out.shlibs "$T/libhot.so" 00112233445566778899
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ "$(wc -l < e)" -eq 1 ] &&
   grep -q "libhot.so: build-id differs" e && ! grep -q hot_loop o &&
   grep -q local_work o; then
	pass build-id-mismatch
else
	fail build-id-mismatch "status $rc" e
fi
side gmon.out.shlibs "$T/missing.so"
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ "$(wc -l < e)" -eq 1 ] && grep -q "missing.so: " e; then
	pass missing-library
else
	fail missing-library "status $rc" e
fi
side gmon.out.shlibs "$T/libhot.so" "$BID" $((RATE * 10))
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ "$(wc -l < e)" -eq 1 ] && grep -q "sampling rate" e &&
   cmp -s o plain; then
	pass rate-mismatch
else
	fail rate-mismatch "status $rc" e
fi

# ---- stripped library, debug file by build-id ----

mkdir -p stripped
cp libhot.so stripped/libhot.so
strip --strip-all stripped/libhot.so
side gmon.out.shlibs "$T/stripped/libhot.so"
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ ! -s e ] && [ "$(row o helper)" = "0.20 1000" ] &&
   ! grep -q ' inner$' o; then
	pass stripped-dynamic-symbols
else
	fail stripped-dynamic-symbols "status $rc" o
fi
dbg=debug/.build-id/$(printf %s "$BID" | cut -c1-2)
mkdir -p "$dbg"
objcopy --only-keep-debug libhot.so "$dbg/$(printf %s "$BID" | cut -c3-).debug"
run o e -b prog gmon.out
if [ $rc -eq 0 ] && [ ! -s e ] && [ "$(row o inner)" = "0.10 -" ]; then
	pass debug-file-by-build-id
else
	fail debug-file-by-build-id "status $rc" o
fi
rm -rf debug
side gmon.out.shlibs

# ---- several profiles, -s ----

cp gmon.out gmon.2
cp gmon.out.shlibs gmon.2.shlibs
run two e -b prog gmon.out gmon.2
if [ $rc -eq 0 ] && [ "$(row two hot_loop)" = "0.60 2" ]; then
	pass two-profiles
else
	fail two-profiles "status $rc" two
fi
run o e -s prog gmon.out gmon.2
run sum e2 -b prog gmon.sum
if [ $rc -eq 0 ] && [ -s gmon.sum.shlibs ] && cmp -s sum two; then
	pass sum
else
	fail sum "status $rc; the sum does not read back the same" sum
fi
# A sum without side files removes the old gmon.sum.shlibs.
cp gmon.sum.shlibs old.shlibs
run o e -s --no-shlibs prog gmon.out
if [ $rc -eq 0 ] && [ ! -e gmon.sum.shlibs ]; then
	pass sum-removes-stale
else
	fail sum-removes-stale "status $rc; gmon.sum.shlibs still there" e
fi
mv old.shlibs gmon.sum.shlibs
# Written through a temporary file: none left behind.
if ls gmon.sum.shlibs.* > /dev/null 2>&1; then
	fail sum-temporary "temporary file left"
else
	pass sum-temporary
fi
# A side file named as a profile is skipped.
run o e -b prog gmon.out gmon.2.shlibs
run o2 e2 -b prog gmon.out
if [ $rc -eq 0 ] && cmp -s o o2 && [ ! -s e ]; then
	pass side-file-as-profile
else
	fail side-file-as-profile "status $rc" e
fi
# A profile read from a pipe is not taken from its reader by the look
# for side-file magic.
cat gmon.out | "$GPROF" -b prog /dev/stdin > o 2> e
strip_diagnosis e
if cmp -s o plain && [ ! -s e ]; then
	pass profile-from-pipe
else
	fail profile-from-pipe "differs from the report of the file" e
fi
mkdir -p alone
cp gmon.2.shlibs alone/x.shlibs
(cd alone && "$GPROF" ../prog x.shlibs > o 2> e; echo $? > rc
 "$GPROF" ../prog > o2 2> e2; echo $? > rc2)
if cmp -s alone/o alone/o2 && cmp -s alone/e alone/e2 &&
   cmp -s alone/rc alone/rc2; then
	pass only-side-file
else
	fail only-side-file "not as if no profile was given" alone/e
fi
exit $status
