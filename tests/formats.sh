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
#   diagnose   --diagnose and the one-line warnings, on crafted profiles,
#              and another program's profile over the tree's programs
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
#   objects    each function's object (executable or shared library) in
#              every format; a -pg -g library's lines (json, -l, -A)
#   totals     one 100% in every format, the profiling hook's share said
#              everywhere, on a real run with stacks (libgmon)
#   clones     --clones, on a test program built -pg -O2 with GCC's clones
#   nocounts   a program not built with -pg (stacks, no arcs): flat
#              profile without calls, --stacks call graph and every
#              format's edges from the stacks, --diagnose; stripped
#              executables (.dynsym, build-id debug file) and libraries
#   vdso       samples in the kernel's vDSO: named from gprof's own vDSO
#              when the build-id is this kernel's, else one [vdso] row
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
# refused NAME DIR PATTERN COMMAND...: COMMAND writes nothing on standard
# output, exits 1 and says why in one line of stderr (diagnosis lines
# aside) matching PATTERN.  Its output goes to DIR/out, DIR/err.
refused() {
	_r_name=$1 _r_dir=$2 _r_pat=$3
	shift 3
	"$@" > "$_r_dir/out" 2> "$_r_dir/err"
	_r_rc=$?
	grep -v ': diagnosis: ' "$_r_dir/err" > "$_r_dir/err2"
	if [ $_r_rc -eq 1 ] && [ ! -s "$_r_dir/out" ] &&
	   [ "$(wc -l < "$_r_dir/err2")" -eq 1 ] &&
	   grep -q "$_r_pat" "$_r_dir/err2"; then
		pass "$_r_name"
	else
		fail "$_r_name" "status $_r_rc" "$(cat "$_r_dir/err2")"
	fi
}
# Generated call stacks of the cycle-O0 program (folded.sh, flame.sh):
# stacks_setup DIR builds DIR/gmsl-gen, lists the functions the stacks
# use in DIR/names and copies the program's gmon.out into DIR; then each
# stacks_seed DIR SEED writes random stacks beside it (DIR/gmon.out.shlibs,
# at the profile's rate, or it is ignored) and what they must give
# (DIR/want, folded lines).
STACKS_PROG=$FIXTURES/cycle-O0/prog
stacks_setup() {
	${CC:-cc} -O -o "$1/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c" || return 1
	nm "$STACKS_PROG" | awk '$2 ~ /^[Tt]$/ &&
		$3 ~ /^(main|fib|leaf|ping|pong|red|green|blue)$/ { print $3, $1 }' \
		> "$1/names"
	cp "$FIXTURES/cycle-O0/gmon.out" "$1/gmon.out"
}
stacks_seed() {
	_g_rate=$(od -An -tu4 -j41 -N4 "$1/gmon.out" | tr -d ' ')
	python3 "$TESTS_DIR/formats/stacks_gen.py" "$2" "$_g_rate" \
		"$1/desc" "$1/want" < "$1/names" &&
	"$1/gmsl-gen" "$1/gmon.out.shlibs" < "$1/desc"
}

parts=${*:-"output diagnose dot json callgrind pprof html compare folded flame narrow stacks threads objects totals clones nocounts vdso"}
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
