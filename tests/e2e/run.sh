# SPDX-License-Identifier: GPL-3.0-or-later
# e2e/run.sh: running one end-to-end job for tests/e2e.sh (sourced by it):
# a case's options on a fixture, in fresh scratch directories, for the
# candidate and (when there) GNU gprof, and the results handed to
# compare_result (e2e/compare.sh).  Uses CAND, LIVE_REF, REF, WORK and
# FIXTURES_DIR, set by e2e.sh.

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
		sanitizer_env "$bin"
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
