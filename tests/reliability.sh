#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# reliability.sh: robustness tests beyond the byte-for-byte reports of
# e2e.sh: the parts under tests/reliability/, run in this order in one
# scratch folder (tests/tmp/reliability.XXXXXX, kept when a test failed):
#   numeric.sh        numeric edge cases of the histogram header
#   big-counts.sh     -s sums of counts that outgrow their 16/32-bit fields
#   output-safety.sh  an existing gmon.sum survives a -s that cannot finish
#   executables.sh    truncated and damaged executables
# common.sh holds the helpers they share.  Run from the repository root
# after `make`; prints one PASS:/FAIL:/SKIP: line per check ("reliability:
# NAME"), exits non-zero on failure.
#
# usage: sh tests/reliability.sh [GPROF]     (default src/gprof)
# Environment: GPROF_REF (default /usr/bin/gprof; outputs and exit statuses
# are compared with it when it is there), CC (default cc, for gmon-gen),
# RELIABILITY_PARTS (the parts to run, default all four, e.g.
# RELIABILITY_PARTS="numeric executables").
set -u

cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
GPROF=${1:-src/gprof}
case $GPROF in /*) ;; *) GPROF=$ROOT/$GPROF ;; esac
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
REF=${GPROF_REF:-$(gnu_x86_gprof)}
[ -x "$REF" ] || REF=
CC=${CC:-cc}
command -v "$CC" > /dev/null 2>&1 || CC=gcc
PROG=$ROOT/tests/fuzz/prog
GMON=$ROOT/tests/fuzz/gmon.out
PARTS=${RELIABILITY_PARTS:-numeric big-counts output-safety executables}

if [ ! -x "$GPROF" ]; then
	echo "FAIL: reliability: $GPROF not built"
	exit 1
fi
for part in $PARTS; do
	if [ ! -f "tests/reliability/$part.sh" ]; then
		echo "FAIL: reliability: no part tests/reliability/$part.sh"
		exit 1
	fi
done
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

. tests/reliability/common.sh

if ! $CC -O1 -o "$T/gmon-gen" tests/tools/gmon-gen.c; then
	fail setup "cannot build tests/tools/gmon-gen.c"
	exit 1
fi

for part in $PARTS; do
	# shellcheck source=/dev/null
	. "tests/reliability/$part.sh"
done

exit $failed
