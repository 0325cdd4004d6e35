# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/compare.sh (sourced by tests/formats.sh): --compare on two
# builds of one program, the second with a function made three times as
# slow (tests/formats/compare-prog.c): that function comes first, flagged
# significant, in text, JSON and HTML; one build against itself shows no
# change; misuse gives one line.

cm=$WORK/compare
mkdir -p "$cm"
src=$TESTS_DIR/formats/compare-prog.c
if ${CC:-cc} -pg -O1 -o "$cm/old" "$src" &&
   ${CC:-cc} -pg -O1 -DSLOWER -o "$cm/new" "$src"; then
	(cd "$cm" && ./old > /dev/null && mv gmon.out old.gmon &&
	 ./new > /dev/null && mv gmon.out new.gmon) ||
		fail "compare: run the two builds"
else
	fail "compare: build the two programs"
fi

"$GPROF" -b --compare "$cm/old" "$cm/old.gmon" "$cm/new" "$cm/new.gmon" \
	> "$cm/text" 2> "$cm/err"
rc=$?
first=$(awk '/^ +old +new +change/ { getline; print; exit }' "$cm/text")
case $rc:$first in
0:*' * '*' beta')
	pass "compare: text puts the slower function first, significant" ;;
*)	fail "compare: text puts the slower function first, significant" \
		"status $rc; first row: $first" "$(cat "$cm/text" "$cm/err")" ;;
esac

# The same profile against itself: no change anywhere.
"$GPROF" -b --compare "$cm/old" "$cm/old.gmon" "$cm/old.gmon" > "$cm/same" 2>/dev/null
if grep -q '^0 of [0-9]* functions changed significantly' "$cm/same" &&
   grep -q '^change: +0.00 ' "$cm/same"; then
	pass "compare: one profile against itself shows no change"
else
	fail "compare: one profile against itself shows no change" "$(cat "$cm/same")"
fi

# The figures are the flat profiles' own.
"$GPROF" -b -p "$cm/new" "$cm/new.gmon" > "$cm/flat" 2>/dev/null
want=$(awk '$NF == "beta" && NF >= 7 { print $3; exit }' "$cm/flat")
got=$(awk '$NF == "beta" { print $2; exit }' "$cm/text")
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	pass "compare: new self seconds equal the flat profile's"
else
	fail "compare: new self seconds equal the flat profile's" "flat $want, compare $got"
fi

cmp_error() {	# NAME PATTERN ARGS...
	_n=$1 _p=$2
	shift 2
	"$GPROF" "$@" > "$cm/so" 2> "$cm/se"
	_rc=$?
	if [ $_rc = 1 ] && [ "$(wc -l < "$cm/se")" = 1 ] &&
	   grep -q -- "$_p" "$cm/se" && [ ! -s "$cm/so" ]; then
		pass "compare: $_n"
	else
		fail "compare: $_n" "status $_rc" "$(cat "$cm/se")"
	fi
}
cmp_error "two operands are too few" "needs IMAGE OLD-PROFILE NEW-PROFILE" \
	--compare "$cm/old" "$cm/old.gmon"
cmp_error "formats other than text, json, html" "prints text, json or html" \
	--compare --output-format=dot "$cm/old" "$cm/old.gmon" "$cm/new.gmon"
cmp_error "a missing profile" "$cm/none" \
	--compare "$cm/old" "$cm/old.gmon" "$cm/none"
