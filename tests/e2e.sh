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
#
# usage: sh tests/e2e.sh GPROF_BINARY
# Environment: GPROF_REF (default /usr/bin/gprof), GPROF_CG_TESTS=1 (run the
# call-graph cases), E2E_JOBS (parallel jobs, default 2).
set -u

TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
FIXTURES_DIR=$TESTS_DIR/fixtures

# Compare one side's results in directory $2 with the reference in $3
# (files out, rc, optional gmon.sum and optional ann/*-ann) for the test
# named $1.  $4 names the reference in messages.  Prints the PASS:/FAIL: line.
compare_result() {
	name=$1 got=$2 want=$3 what=$4
	why=
	cmp -s "$want/out" "$got/out" || why="stdout differs from $what"
	if ! cmp -s "$want/rc" "$got/rc"; then
		why="${why:+$why; }exit status $(cat "$got/rc"), $what $(cat "$want/rc")"
	fi
	if [ -f "$want/gmon.sum" ] && [ ! -f "$got/gmon.sum" ]; then
		why="${why:+$why; }no gmon.sum written"
	elif [ ! -f "$want/gmon.sum" ] && [ -f "$got/gmon.sum" ]; then
		why="${why:+$why; }gmon.sum written but $what wrote none"
	elif [ -f "$want/gmon.sum" ] && ! cmp -s "$want/gmon.sum" "$got/gmon.sum"; then
		why="${why:+$why; }gmon.sum differs from $what"
	fi
	annwhy=$(compare_ann "$want/ann" "$got/ann" "$what")
	if [ -n "$annwhy" ]; then
		why="${why:+$why; }$annwhy"
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$got/err" 2>/dev/null; then
		why="${why:+$why; }sanitizer report on stderr"
	fi
	if [ -s "$got/newfiles" ]; then
		why="${why:+$why; }left files behind: $(tr '\n' ' ' < "$got/newfiles")"
	fi
	if [ -z "$why" ]; then
		echo "PASS: $name"
		return 0
	fi
	echo "FAIL: $name ($why)"
	{
		if ! cmp -s "$want/out" "$got/out"; then
			diff -u "$want/out" "$got/out" | sed -e '1,2d'
		elif [ -f "$want/gmon.sum" ] && [ -f "$got/gmon.sum" ] &&
		     ! cmp -s "$want/gmon.sum" "$got/gmon.sum"; then
			echo "gmon.sum: first differing bytes (offset, $what, candidate; octal):"
			cmp -l "$want/gmon.sum" "$got/gmon.sum" 2>&1
		elif [ -n "$annwhy" ] && [ -d "$want/ann" ] && [ -d "$got/ann" ]; then
			diff -r -u "$want/ann" "$got/ann"
		fi
		if [ -s "$got/err" ]; then
			echo "candidate stderr:"
			cat "$got/err"
		fi
	} | indent_head 15
	return 1
}

# Compare the annotated-source files in directories $1 (reference, named
# $3 in messages) and $2 (candidate), either of which may be missing; print
# what differs, or nothing.
compare_ann() {
	_a=$(cd "$1" 2>/dev/null && ls -A)
	_b=$(cd "$2" 2>/dev/null && ls -A)
	if [ "$_a" != "$_b" ]; then
		printf 'wrote annotation files [%s], %s wrote [%s]\n' \
			"$(printf '%s' "$_b" | tr '\n' ' ' | sed 's/ $//')" "$3" \
			"$(printf '%s' "$_a" | tr '\n' ' ' | sed 's/ $//')"
		return
	fi
	printf '%s\n' "$_a" | while read -r _f; do
		[ -n "$_f" ] || continue
		if ! cmp -s "$1/$_f" "$2/$_f"; then
			printf '%s differs from %s\n' "$_f" "$3"
			break
		fi
	done
}

# Run binary $1 on fixture $2 with options $3 in a fresh directory $4/run;
# the results go to $4/out, $4/err, $4/rc, (masked) $4/gmon.sum and
# $4/ann/*-ann.
run_side() {
	bin=$1 fdir=$2 opts=$3 dir=$4
	mkdir -p "$dir/run"
	profiles=$(fixture_profiles "$fdir")
	cp "$fdir/prog" "$dir/run/"
	for p in $profiles; do cp "$fdir/$p" "$dir/run/"; done
	ls -A "$dir/run" > "$dir/before.ls"
	rc=0
	(
		cd "$dir/run" || exit 125
		case $bin in
		*build-san*)
			ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
			UBSAN_OPTIONS=print_stacktrace=1
			export ASAN_OPTIONS UBSAN_OPTIONS ;;
		esac
		# shellcheck disable=SC2086
		LC_ALL=C with_timeout 120 "$bin" $opts prog $profiles
	) > "$dir/out.raw" 2> "$dir/err" < /dev/null || rc=$?
	echo "$rc" > "$dir/rc"
	collect_ann "$dir/run" "$dir/ann"
	ls -A "$dir/run" | grep -v -x 'gmon\.sum' | comm -13 "$dir/before.ls" - > "$dir/newfiles"
	strip_blurbs "$dir/out.raw" "$dir/out"
	if [ -f "$dir/run/gmon.sum" ]; then
		mask_sum "$dir/run/gmon.sum" "$dir/gmon.sum"
	fi
}

# One job: fixture $2, case $3, working in directory $4.
job_body() {
	fixture=$2 id=$3 jd=$4
	fdir=$FIXTURES_DIR/$fixture
	# shellcheck disable=SC2046
	if ! opts=$(set -f; case_options "$id" $(fixture_case_files "$fdir") $(case_files)); then
		echo "FAIL: e2e:$fixture:$id (case not found)"
		return
	fi
	opts=$(expand_options "$opts" "$fdir")
	set -f
	if [ ! -f "$fdir/expected/$id.out" ] || [ ! -f "$fdir/expected/$id.rc" ]; then
		echo "FAIL: e2e:$fixture:$id (no expected output: run sh tests/make-fixtures.sh --expected-only)"
	else
		run_side "$CAND" "$fdir" "$opts" "$jd/cand"
		mkdir -p "$jd/want"
		cp "$fdir/expected/$id.out" "$jd/want/out"
		cp "$fdir/expected/$id.rc" "$jd/want/rc"
		if [ -f "$fdir/expected/$id.sum" ]; then
			cp "$fdir/expected/$id.sum" "$jd/want/gmon.sum"
		fi
		if [ -d "$fdir/expected/$id.ann" ]; then
			cp -R "$fdir/expected/$id.ann" "$jd/want/ann"
		fi
		compare_result "e2e:$fixture:$id" "$jd/cand" "$jd/want" "expected"
	fi
	if [ -n "$LIVE_REF" ]; then
		[ -f "$jd/cand/rc" ] || run_side "$CAND" "$fdir" "$opts" "$jd/cand"
		run_side "$LIVE_REF" "$fdir" "$opts" "$jd/ref"
		compare_result "live:$fixture:$id" "$jd/cand" "$jd/ref" "GNU gprof"
	else
		echo "SKIP: live:$fixture:$id (no GNU gprof at $REF)"
	fi
	set +f
}

# Run one job; its report goes to $WORK/res/$1.
run_job() {
	mkdir -p "$WORK/job/$1"
	job_body "$1" "$2" "$3" "$WORK/job/$1" > "$WORK/res/$1" 2>&1
	rm -rf "$WORK/job/$1"
}

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
REF=${GPROF_REF:-/usr/bin/gprof}
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
