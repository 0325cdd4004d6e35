# SPDX-License-Identifier: GPL-3.0-or-later
# compact.sh: the text flat profile alone (-p) is analysed without making
# the arcs (src/arc_bulk.c, arcs_unread()); it must print exactly what the
# same flat profile prints when the arcs are made for a call graph beside
# it (-p -q): the first bytes of that output.  Every fixture with arcs,
# with options that change the analysis, and profiles whose counts are
# too wide for the arrays (those make the arcs after all).
# usage: sh tests/compact.sh GPROF_BINARY
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
CAND=$(abspath "$1")
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/compact.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS=detect_leaks=0 LC_ALL=C
failed=0

# same_flat NAME OPTS PROG GMON...: -p OPTS against -p -q OPTS's start,
# stderr and status included.
same_flat() {
	name=$1 opts=$2
	shift 2
	# shellcheck disable=SC2086
	"$CAND" -p $opts "$@" > "$WORK/p.out" 2> "$WORK/p.err"
	echo "status $?" >> "$WORK/p.err"
	# shellcheck disable=SC2086
	"$CAND" -p -q $opts "$@" > "$WORK/pq.out" 2> "$WORK/pq.err"
	echo "status $?" >> "$WORK/pq.err"
	head -c "$(wc -c < "$WORK/p.out")" "$WORK/pq.out" > "$WORK/pq.head"
	cmp -s "$WORK/p.out" "$WORK/pq.head" && cmp -s "$WORK/p.err" "$WORK/pq.err"
	same=$?
	check_result compact "$name" $same
	return $same
}

for dir in "$TESTS_DIR"/fixtures/*/; do
	fx=$(basename "$dir")
	[ -f "$dir/prog" ] || continue
	gmons=
	for f in gmon.out gmon.1 gmon.2 gmon.3; do
		[ -f "$dir/$f" ] && gmons="$gmons $f"
	done
	[ -n "$gmons" ] || continue
	for opts in "-b" "" "-b -z" "-b -a" "-b -e main" "-b -E main" \
	            "-b -f main" "-b -F main" "-b -k main/main" "-b -l"; do
		# shellcheck disable=SC2086
		(cd "$dir" && same_flat "${fx}[$opts]" "$opts" prog $gmons) ||
			failed=1
	done
done

# The cycle-O0 profile with more records of its first arc, whose counts
# then sum to 2^32 - 1 (the arrays hold it), to 2^32 (the arcs are made
# after all), or come in one record too wide for the pending records.
F=$TESTS_DIR/fixtures/cycle-O0
cd "$WORK" || exit 1
python3 - "$F/gmon.out" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at, first = 20, None
while at < len(data):
    tag = data[at]
    if tag == 0:
        nbins = struct.unpack_from("<I", data, at + 17)[0]
        at += 1 + 8 + 8 + 4 + 4 + 15 + 1 + 2 * nbins
    elif tag == 1:
        if first is None:
            first = struct.unpack_from("<QQI", data, at + 1)
        at += 21
    else:
        sys.exit("unexpected record %d" % tag)
frm, to, count = first
rec = lambda c: b"\x01" + struct.pack("<QQI", frm, to, c)
rest = 0xffffffff - count
for name, recs in (("fits", [rec(rest // 2), rec(rest - rest // 2)]),
                   ("edge", [rec(rest // 2), rec(rest - rest // 2 + 1)]),
                   ("wide", [rec(0xffffffff)])):
    open(name + ".out", "wb").write(data + b"".join(recs))
PY
for p in fits edge wide; do
	same_flat "counts-$p" "-b" "$F/prog" "$p.out" || failed=1
	same_flat "counts-$p-cycle" "-b -z" "$F/prog" "$p.out" "$F/gmon.out" ||
		failed=1
done
exit $failed
