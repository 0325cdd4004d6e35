# SPDX-License-Identifier: GPL-3.0-or-later
# e2e.sh: end-to-end tests.  Runs GPROF_BINARY on every fixture of
# tests/fixtures with every option set of tests/cases.txt (and of
# tests/cases-callgraph.txt when enabled) but those listed in the fixture's
# skip-cases.txt, plus those of the fixture's own cases.txt (see lib.sh), each
# in a fresh scratch directory under LC_ALL=C, and compares stdout (with the
# explanatory blurbs masked on both sides, see strip_blurbs in lib.sh), exit
# status, any gmon.sum and any annotated-source files NAME-ann (-y) with the
# committed expected files ("e2e:FIXTURE:CASE") and, when /usr/bin/gprof
# exists, with GNU gprof run live on the same inputs ("live:FIXTURE:CASE").
# Also fails a run that leaves files other than gmon.sum and *-ann in its
# directory.
# Prints one PASS:/FAIL:/SKIP: line per test, with a short diff under a FAIL.
# The parts: e2e/run.sh runs one job (a fixture and a case), e2e/compare.sh
# judges its results; this file lists the jobs, runs them E2E_JOBS at a
# time (each as `sh tests/e2e.sh --job SEQ FIXTURE CASE`) and prints their
# reports in order.
#
# usage: sh tests/e2e.sh GPROF_BINARY
# Environment: GPROF_REF (default /usr/bin/gprof), GPROF_CG_TESTS=1 (run the
# call-graph cases), E2E_JOBS (parallel jobs, default 2).
set -u

TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
FIXTURES_DIR=$TESTS_DIR/fixtures
. "$TESTS_DIR/e2e/compare.sh"
. "$TESTS_DIR/e2e/run.sh"

if [ "${1:-}" = --job ]; then
	shift
	run_job "$@"
	exit 0
fi

if [ $# -ne 1 ]; then
	echo "usage: sh tests/e2e.sh GPROF_BINARY" >&2
	exit 2
fi
CAND=$(abspath "$1")
REF=${GPROF_REF:-$(gnu_x86_gprof)}
LIVE_REF=
[ -x "$REF" ] && LIVE_REF=$REF
label="e2e($1)"

if [ ! -x "$CAND" ]; then
	echo "FAIL: $label: candidate $CAND is missing or not executable"
	exit 1
fi

mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP PIPE
mkdir -p "$WORK/res" "$WORK/job"
export CAND LIVE_REF REF WORK

# Case ids must be unique (in the global files, and in each fixture's
# cases.txt together with them): they name the expected files.
# shellcheck disable=SC2046
dups=$(list_cases $(case_files all) | awk '{ print $1 }' | sort | uniq -d)
for fdir in "$FIXTURES_DIR"/*/; do
	fdir=${fdir%/}
	[ -f "$fdir/cases.txt" ] || continue
	# shellcheck disable=SC2046
	d=$(list_cases $(case_files all) "$fdir/cases.txt" | awk '{ print $1 }' | sort | uniq -d)
	[ -z "$d" ] || dups="$dups $d ($(basename "$fdir"))"
done
if [ -n "$dups" ]; then
	echo "FAIL: $label: duplicate case ids: $dups"
	exit 1
fi
if ! [ -f "$TESTS_DIR/cases-callgraph.enabled" ] && [ "${GPROF_CG_TESTS:-}" != 1 ]; then
	echo "e2e: call-graph cases off (set GPROF_CG_TESTS=1 or create tests/cases-callgraph.enabled)"
fi

# The job list: one line "SEQ FIXTURE CASE" per test pair.
seq=0
for fdir in "$FIXTURES_DIR"/*/; do
	fdir=${fdir%/}
	fixture=$(basename "$fdir")
	[ -f "$fdir/prog" ] || continue
	for id in $(fixture_case_ids "$fdir"); do
		seq=$((seq + 1))
		printf '%05d %s %s\n' "$seq" "$fixture" "$id"
	done
done > "$WORK/jobs"

if [ "$seq" = 0 ]; then
	echo "FAIL: $label: no fixtures found in $FIXTURES_DIR"
	exit 1
fi

jobs=${E2E_JOBS:-2}
if ! xargs -P "$jobs" -L 1 sh "$0" --job < "$WORK/jobs" 2>/dev/null; then
	# xargs without -P support (or an interrupted run): run what is missing.
	while read -r s f i; do
		[ -f "$WORK/res/$s" ] || run_job "$s" "$f" "$i"
	done < "$WORK/jobs"
fi

for r in "$WORK"/res/*; do cat "$r"; done
if [ -z "$LIVE_REF" ]; then
	echo "e2e: $REF not found: compared with the committed expected output only"
fi
if cat "$WORK"/res/* | grep -q '^FAIL: '; then
	exit 1
fi
exit 0
