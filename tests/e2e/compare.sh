# SPDX-License-Identifier: GPL-3.0-or-later
# e2e/compare.sh: how tests/e2e.sh judges one run (sourced by it): the
# candidate's stdout, exit status, gmon.sum and annotated-source files
# against a reference (the committed expected files, or GNU gprof run
# live), plus no sanitizer report and no stray files; prints the
# PASS:/FAIL: line and, under a FAIL, the start of the difference.

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
