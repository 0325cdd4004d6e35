# SPDX-License-Identifier: GPL-3.0-or-later
# compact.sh: the text flat profile alone (-p) is analysed without making
# the arcs (src/arc_bulk.c, arcs_unread()); it must print exactly what the
# same flat profile prints when the arcs are made for a call graph beside
# it (-p -q).  The -p -q output is cut where its call graph starts (the
# form-feed line before the "Call graph" heading), and the part before the
# cut must equal the whole -p output, byte for byte; stderr and the exit
# status must be equal too.  Every fixture with arcs, with options that
# change the analysis, and profiles whose counts are too wide for the
# arrays (those make the arcs after all).
#
# It cannot pass without comparing: an empty -p output is a FAIL (except
# where gprof is known to stop before printing, below), and a missing tool
# (python3, which writes the wide-count profiles, or cmp) is a FAIL, not a
# SKIP.
# usage: sh tests/compact.sh GPROF_BINARY
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
failed=0
if [ $# != 1 ] || [ ! -x "$1" ]; then
	echo "FAIL: compact (usage: sh tests/compact.sh GPROF_BINARY; got '${1:-}')"
	exit 1
fi
CAND=$(abspath "$1")
for tool in cmp python3; do
	command -v "$tool" > /dev/null 2>&1 ||
		check_result compact "tool:$tool" 1 "$tool not found: the check needs it"
done
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/compact.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export ASAN_OPTIONS=detect_leaks=0 LC_ALL=C

# Cases where gprof stops before printing, so that both outputs are
# empty: the cxx fixture's -l (GNU's "somebody miscounted" failure,
# doc/gprof.md difference 10; the fixture's expected/cxx-l-*.rc is 1).
# Such a case passes when both runs stop with the same status and stderr
# and that stderr names the failure; any other empty output fails.
known_stop() {
	case $1 in
	"cxx[-b -l]") grep -q 'somebody miscounted' "$WORK/p.err" ;;
	*) return 1 ;;
	esac
}

# flat_part FILE: the bytes of FILE before the form-feed line that starts
# its call graph (a line "\f" followed by a heading with "Call graph");
# all of FILE when it has no call graph.
flat_part() {
	awk -v ff="$(printf '\f')" '
		prev_ff && /Call graph/ { print at - 2; found = 1; exit }
		{ prev_ff = ($0 == ff); at += length($0) + 1 }
		END { if (!found) print -1 }' "$1" > "$WORK/cut"
	graph_at=$(cat "$WORK/cut")
	if [ "$graph_at" = -1 ]; then
		cat "$1"
	else
		head -c "$graph_at" "$1"
	fi
}

# same_flat NAME OPTS PROG GMON...: the whole of -p OPTS's stdout against
# the flat part of -p -q OPTS's, stderr and status included.
same_flat() {
	name=$1 opts=$2
	shift 2
	# shellcheck disable=SC2086
	"$CAND" -p $opts "$@" > "$WORK/p.out" 2> "$WORK/p.err"
	echo "status $?" >> "$WORK/p.err"
	# shellcheck disable=SC2086
	"$CAND" -p -q $opts "$@" > "$WORK/pq.out" 2> "$WORK/pq.err"
	echo "status $?" >> "$WORK/pq.err"
	flat_part "$WORK/pq.out" > "$WORK/pq.flat"
	why=
	if ! cmp -s "$WORK/p.out" "$WORK/pq.flat"; then
		why="-p differs from the flat profile of -p -q"
	elif ! cmp -s "$WORK/p.err" "$WORK/pq.err"; then
		why="stderr or status differ"
	elif [ ! -s "$WORK/p.out" ]; then
		if [ -s "$WORK/pq.out" ]; then
			why="-p printed nothing, -p -q a call graph only"
		elif grep -q '^status 0$' "$WORK/p.err" || ! known_stop "$name"; then
			why="both printed nothing ($(tail -n 1 "$WORK/p.err"))"
		fi
	fi
	if [ -z "$why" ]; then
		check_result compact "$name" 0
	else
		check_result compact "$name" 1 "$why"
		return 1
	fi
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
rm -f fits.out edge.out wide.out
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
rc=$?
for p in fits edge wide; do
	if [ "$rc" != 0 ] || [ ! -s "$p.out" ]; then
		for n in "counts-$p" "counts-$p-cycle"; do
			check_result compact "$n" 1 "python3 did not write $p.out (status $rc)"
		done
		continue
	fi
	same_flat "counts-$p" "-b" "$F/prog" "$p.out" || failed=1
	same_flat "counts-$p-cycle" "-b -z" "$F/prog" "$p.out" "$F/gmon.out" ||
		failed=1
done
exit $failed
