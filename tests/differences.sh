# SPDX-License-Identifier: GPL-3.0-or-later
# differences.sh: tests of the deliberate differences from GNU gprof listed
# in doc/gprof.md ("Differences from GNU gprof").  Each checks our behaviour
# and, where GNU gprof is installed, that GNU still behaves as documented.
# usage: sh tests/differences.sh GPROF_BINARY
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
CAND=$(abspath "$1")
REF=${GPROF_REF:-$(gnu_x86_gprof)}
D=$TESTS_DIR/differences
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/diff.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS=detect_leaks=0 LC_ALL=C

failed=0
result() {  # NAME CONDITION-STATUS [DETAIL]
	if [ "$2" = 0 ]; then echo "PASS: $1"; else echo "FAIL: $1${3:+ ($3)}"; failed=1; fi
}

# 9. -c lists a backward call that never ran; GNU 2.40 does not.
cd "$D/backcall" || exit 1
"$CAND" -b -c -q prog gmon.out > "$WORK/c.out" 2> "$WORK/c.err"
cmp -s "$WORK/c.out" expected-c-q.out
result "diff:static-cg-backward-call" $?
if [ -x "$REF" ]; then
	"$REF" -b -c -q prog gmon.out > "$WORK/g.out" 2>/dev/null
	cmp -s "$WORK/g.out" gnu-c-q.out
	result "diff:static-cg-backward-call-gnu-misses-it" $?
fi

# 1. gmon.sum's spare header bytes are zeros.
F=$TESTS_DIR/fixtures/cycle-O0
mkdir -p "$WORK/sum" && cd "$WORK/sum" || exit 1
"$CAND" -s "$F/prog" "$F/gmon.out" 2>/dev/null
spare=$(dd if=gmon.sum bs=1 skip=8 count=12 2>/dev/null | od -An -tx1 | tr -d ' \n')
[ "$spare" = 000000000000000000000000 ]
result "diff:sum-spare-bytes-zero" $? "$spare"

# 8. A map with one object names it once with -R.
nm --extern-only --defined-only -v --print-file-name "$F/prog" > map.txt 2>/dev/null
if [ -s map.txt ]; then
	n=$("$CAND" -b -R map.txt "$F/prog" "$F/gmon.out" | grep -c -x -F "$F/prog")
	[ "$n" = 1 ]
	result "diff:file-ordering-object-once" $? "printed $n times"
fi

# 6. The scale message ends with a newline.
cp "$F/gmon.out" a.out.gmon
# A second file with the same range but twice the bins: different scale.
"$CAND" -b -p "$F/prog" "$F/gmon.out" "$D/scale2.gmon" > /dev/null 2> err.txt
tail -c 1 err.txt | od -An -c | grep -q '\\n'
result "diff:scale-message-newline" $?

# 2. Merged arc counts beyond 2^32-1 survive in gmon.sum (the gen-merge
# fixture: two hand-made profiles whose counts add up past 2^32).  Reading
# our gmon.sum back gives the same report as reading the two files; GNU's
# own gmon.sum truncates them, so it does not.
G=$TESTS_DIR/fixtures/gen-merge
mkdir -p "$WORK/big" && cd "$WORK/big" || exit 1
"$CAND" -s "$G/prog" "$G/gmon.1" "$G/gmon.2" > /dev/null 2>&1
"$CAND" -b -q "$G/prog" "$G/gmon.1" "$G/gmon.2" > two.out 2>/dev/null
"$CAND" -b -q "$G/prog" gmon.sum > sum.out 2>/dev/null
cmp -s two.out sum.out
result "diff:sum-keeps-big-arc-counts" $?
if [ -x "$REF" ]; then
	"$REF" -b -q "$G/prog" gmon.sum > gnu-reads-ours.out 2>/dev/null
	"$REF" -b -q "$G/prog" "$G/gmon.1" "$G/gmon.2" > gnu-two.out 2>/dev/null
	cmp -s gnu-two.out gnu-reads-ours.out
	result "diff:sum-keeps-big-arc-counts-gnu-reads-it" $?
	mkdir gnu && (cd gnu && "$REF" -s "$G/prog" "$G/gmon.1" "$G/gmon.2" > /dev/null 2>&1)
	"$REF" -b -q "$G/prog" gnu/gmon.sum > gnu-sum.out 2>/dev/null
	! cmp -s gnu-two.out gnu-sum.out
	result "diff:sum-keeps-big-arc-counts-gnu-truncates" $?
fi
# Summing many records of few arcs: past a million records the pending
# ones are merged as they come (src/arc_bulk.c), a wide sum included.  A
# profile of 1.2 million records must read as one with each arc's total
# in a few records, and sum (-s) to the same gmon.sum.
cd "$WORK/big" || exit 1
addr() { nm "$G/prog" | awk -v f="$1" '$3 == f { print $1 }'; }
python3 - "$(addr main)" "$(addr spin)" "$(addr red)" "$(addr green)" \
	"$(addr leaf)" <<'PY'
import struct, sys
main, spin, red, green, leaf = (int(a, 16) for a in sys.argv[1:6])
arcs = [(main + 1, spin), (spin + 1, leaf), (red + 1, green), (green + 1, red)]
hdr = b"gmon" + struct.pack("<I", 1) + bytes(12)
rec = lambda f, s, c: b"\x01" + struct.pack("<QQI", f, s, c)
one = b"".join(rec(f, s, 1) for f, s in arcs)
wide = rec(*arcs[0], 4000000000)
with open("many.out", "wb") as out:
    out.write(hdr + one + wide + one * 299998 + wide + one)
totals = [300000 + 8000000000, 300000, 300000, 300000]
with open("few.out", "wb") as out:
    out.write(hdr)
    for (f, s), t in zip(arcs, totals):
        while t:
            c = min(t, 0xffffffff)
            out.write(rec(f, s, c))
            t -= c
PY
"$CAND" -b -q "$G/prog" many.out > many.txt 2>/dev/null
"$CAND" -b -q "$G/prog" few.out > few.txt 2>/dev/null
grep -q 8000300000 many.txt && cmp -s many.txt few.txt
result "diff:many-records-merged-as-read" $?
mkdir -p m f
(cd m && "$CAND" -s "$G/prog" ../many.out > /dev/null 2>&1)
(cd f && "$CAND" -s "$G/prog" ../few.out > /dev/null 2>&1)
cmp -s m/gmon.sum f/gmon.sum
result "diff:many-records-sum" $?

# -d NUM: traces of each area (their text is our own), then the report.
cd "$WORK" || exit 1
F=$TESTS_DIR/fixtures/cycle-O0
for area in 2 4 16 64 128 1024 4096; do
	"$CAND" -d$area -b -q "$F/prog" "$F/gmon.out" > dbg.out 2>&1
	grep -q '^\[main\] debug-level=' dbg.out && grep -q '^\[[a-z_]*\] ' dbg.out &&
		[ "$(grep -c '^\[' dbg.out)" -gt 1 ]
	result "diff:debug-traces-$area" $?
done
"$CAND" -d -b -q "$F/prog" "$F/gmon.out" > dbg.raw
dbg_rc=$?
grep -v '^\[[a-z_]*\]' dbg.raw > dbg.out
"$CAND" -b -q "$F/prog" "$F/gmon.out" > plain.out
plain_rc=$?
[ "$dbg_rc" = 0 ] && [ "$plain_rc" = 0 ] && [ -s plain.out ] && cmp -s dbg.out plain.out
result "diff:debug-report-unchanged" $? "status $dbg_rc with -d, $plain_rc without"
exit $failed
