#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats.sh: the reports beyond GNU's text (--output-format, --output,
# --sampling-error, --compare, --diagnose), each checked by its real
# consumer.  Run from the top of the tree after `make`:
#
#   sh tests/formats.sh GPROF            every part, in the order below
#   sh tests/formats.sh GPROF PART...    only these parts
#
# The parts are tests/formats/PART.sh, sourced one after the other with
# $GPROF (absolute path of the gprof under test), $FIXTURES (the test
# programs, tests/fixtures/NAME/{prog,gmon.out...}), $WORK (a scratch
# folder, removed at the end) and the helpers below:
#   output     --output, write errors, the text column of --sampling-error
#   diagnose   --diagnose and the one-line warnings, on crafted profiles
#   dot        Graphviz DOT, rendered by dot to SVG and PNG
#   json       JSON, validated against doc/gprof-json.schema.json
#   callgrind  callgrind format, read by callgrind_annotate
#   pprof      gzipped profile.proto, read by go tool pprof
#   html       the HTML report, opened in headless Chromium
#   compare    --compare of two builds, in text, JSON and HTML
#   folded     call stacks as folded lines, against generated side files
#   flame      the SVG flame graph, parsed and opened in headless Chromium
#   stacks     --stacks: call-graph times from generated call stacks
#   threads    --per-thread, against a generated side file with two threads
# One line per test: "PASS: name", "FAIL: name" plus indented details.
# Exit status 1 if anything failed.
set -u

ROOT=$(pwd)
TESTS_DIR=$ROOT/tests
case ${1:-} in
/*) GPROF=$1 ;;
'') echo "usage: sh tests/formats.sh GPROF [PART...]" >&2; exit 2 ;;
*) GPROF=$ROOT/$1 ;;
esac
shift
FIXTURES=$TESTS_DIR/fixtures
mkdir -p "$ROOT/tests/tmp"
WORK=$(mktemp -d "$ROOT/tests/tmp/formats.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Leaks are not bugs in a run that exits; the sanitizers' other reports are.
export ASAN_OPTIONS=detect_leaks=0

failed=0
pass() { echo "PASS: $1"; }
fail() {
	echo "FAIL: $1"
	shift
	for line in "$@"; do printf '    %s\n' "$line"; done
	failed=1
}
# check NAME COMMAND...: PASS if the command succeeds, else FAIL with its
# output.
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		pass "$_name"
	else
		fail "$_name" "$(printf '%s\n' "$_out" | head -20)"
	fi
}
# The fixtures (test programs) and their profile files.
fixture_names() {
	for d in "$FIXTURES"/*/; do
		d=${d%/}
		[ -f "$d/prog" ] && printf '%s\n' "${d##*/}"
	done
}
fixture_profiles() {	# NAME: its gmon files, absolute, one per line
	for _f in "$FIXTURES/$1"/gmon*; do
		case $_f in
		*.spec|*.shlibs|*'*') ;;
		*) printf '%s\n' "$_f" ;;
		esac
	done
}
# Needs COMMAND PACKAGE: fails (never skips) when a consumer is missing,
# naming the command that installs it.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	fail "$1 is installed" "install it with: sh tests/deps.sh (package $2)"
	return 1
}

parts=${*:-"output diagnose dot json callgrind pprof html compare folded flame stacks threads"}
for part in $parts; do
	if [ ! -f "$TESTS_DIR/formats/$part.sh" ]; then
		fail "formats part $part" "no tests/formats/$part.sh"
		continue
	fi
	echo "-- $part"
	# shellcheck disable=SC1090
	. "$TESTS_DIR/formats/$part.sh"
done
exit $failed
