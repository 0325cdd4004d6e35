# SPDX-License-Identifier: GPL-3.0-or-later
# badinput.sh: bad-input and error-path tests.  The cases live in
# tests/badinput/, one file per kind (files.sh: missing, damaged and garbage
# files; options.sh: command-line errors; records.sh: profiles whose records
# do not combine or lack what a report needs; bsd.sh: the BSD formats;
# sum.sh: -s), with the byte writers they use in inputs.sh.  Each case
# builds its inputs in a fresh scratch directory (with printf, head, dd and
# od only, from the committed fixture tests/fixtures/cycle-O0), runs
# GPROF_BINARY there and compares exit status, stdout and stderr with GNU
# gprof (run live when /usr/bin/gprof exists, else the committed files in
# tests/badinput/expected).
# In stderr, each binary's path is replaced by "gprof", a usage text after a
# bad option is masked (our wording differs on purpose) and a missing final
# newline is ignored.  A file tests/badinput/deliberate/CASE.out, .err or .rc
# replaces GNU's stdout, stderr or exit status for a documented
# deliberate difference.  Also checks that our stderr has at most one line
# (not counting a usage text) unless GNU's has more, that no sanitizer
# report appears, that no file is left behind in the working directory, and
# case-specific conditions (an existing gmon.sum left untouched).  One
# PASS:/FAIL: line per case ("badinput:CASE").
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
REF=${GPROF_REF:-$(gnu_x86_gprof)}
PRECIOUS='precious gmon.sum contents: must survive a failed -s run'

# The cases, in the order they run: each file adds its IDs to CASES and
# defines a function case_ID for each.
CASES=
. "$TESTS_DIR/badinput/inputs.sh"
for part in files options records bsd sum; do
	# shellcheck source=/dev/null
	. "$TESTS_DIR/badinput/$part.sh"
done

# Create the inputs of case $1 in the current directory and set ARGS (the
# command-line arguments) and CHECK (an extra check, or empty).
# shellcheck disable=SC2034
setup_case() {
	CHECK=
	cp "$FIXTURE/prog" prog
	g=$FIXTURE/gmon.out
	# Fields of the fixture's histogram record (header 20, tag 1).
	low=$(field "$g" 21 8)
	high=$(field "$g" 29 8)
	nb=$(field "$g" 37 4)
	histlen=$((61 + nb * 2))
	fn=case_$(printf '%s\n' "$1" | sed 's/-/_/g')
	command -v "$fn" > /dev/null 2>&1 || return 1
	"$fn"
}

# Run binary $1 with ARGS in directory $2/run (already set up); results go
# to $2/out, $2/err (raw), $2/err.norm (binary path -> "gprof") and $2/rc.
run_side() {
	bin=$1 dir=$2
	rc=0
	(
		cd "$dir/run" || exit 125
		sanitizer_env "$bin"
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
