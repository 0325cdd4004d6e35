# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/compare.sh (sourced by tests/formats.sh): --compare on two
# builds of one program, the second with a function made six times as
# slow (tests/formats/compare-prog.c): that function comes first, flagged
# significant, in text, JSON and HTML; one build against itself shows no
# change; misuse gives one line.
#
# A check on sampled data (tests/README): the builds link libgmon, whose
# per-thread CPU timers give one sample per kernel tick (250 a second
# here; at glibc's 100 Hz the old design's 18 and 29 samples made
# "significant" a coin toss), and each function runs in ten calls many
# ticks long, so that the even ticks cannot fall into step with them.
# beta() uses about 0.13 s of CPU, then 0.76 s: a change of 0.63 s whose sampling error at 250 Hz is
# sqrt(32 + 190) / 250 = 0.06 s, while an unchanged alpha() (0.17 s)
# moves by at most 5.5 x sqrt(42 + 42) / 250 = 0.2 s.  So even 5.5 errors
# off, beta's change (>= 0.3 s) stays the largest and above gprof's own
# threshold (twice an error it computes from 1000 Hz counts, under
# 0.06 s): a false failure well below one in a million.  The programs
# print what each function used (their thread's CPU clock), shown when a
# check fails, and the test first checks that the change really was
# beta's and at least a factor of four.

cm=$WORK/compare
mkdir -p "$cm"
src=$TESTS_DIR/formats/compare-prog.c
lgm="-L$ROOT/src/libgmon -lgmon -pthread"
if ${CC:-cc} -pg -O1 -o "$cm/old" "$src" $lgm &&
   ${CC:-cc} -pg -O1 -DSLOWER -o "$cm/new" "$src" $lgm; then
	(cd "$cm" && ./old > old.cpu && mv gmon.out old.gmon &&
	 ./new > new.cpu && mv gmon.out new.gmon) ||
		fail "compare: run the two builds"
else
	fail "compare: build the two programs"
fi
measured="measured CPU seconds alpha beta gamma: old $(cat "$cm/old.cpu" 2>/dev/null), new $(cat "$cm/new.cpu" 2>/dev/null)"
if awk '{ getline n < ARGV[2]; split(n, b, " ")
	 db = b[2] - $2; da = b[1] - $1; dg = b[3] - $3
	 if (da < 0) da = -da; if (dg < 0) dg = -dg
	 exit !(db > 0.3 && db > 4 * da && db > 4 * dg) }' 	"$cm/old.cpu" "$cm/new.cpu" 2>/dev/null; then
	pass "compare: the slower build's change is beta's, as measured by the program"
else
	fail "compare: the slower build's change is beta's, as measured by the program" "$measured"
fi

"$GPROF" -b --compare "$cm/old" "$cm/old.gmon" "$cm/new" "$cm/new.gmon" \
	> "$cm/text" 2> "$cm/err"
rc=$?
first=$(awk '/^ +old +new +change/ { getline; print; exit }' "$cm/text")
case $rc:$first in
0:*' * '*' beta')
	pass "compare: text puts the slower function first, significant" ;;
*)	fail "compare: text puts the slower function first, significant" \
		"status $rc; first row: $first" "$measured" "$(cat "$cm/text" "$cm/err")" ;;
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

# JSON: valid against doc/gprof-compare.schema.json, the slower function
# first and significant, its figures the text's.
"$GPROF" --compare --output-format=json "$cm/old" "$cm/old.gmon" "$cm/new" \
	"$cm/new.gmon" > "$cm/json" 2>/dev/null
check "compare: JSON valid, the slower function first, as the text" \
	python3 - "$ROOT/doc/gprof-compare.schema.json" "$cm/json" "$cm/text" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
first = doc["rows"][0]
assert first["name"] == "beta" and first["significant"], first
# The text's first row: old self, new self, change.
text = open(sys.argv[3]).read().splitlines()
row = next(l for i, l in enumerate(text)
           if i and text[i - 1].split()[:3] == ["old", "new", "change"])
old, new, change = row.split()[:3]
for want, got in ((old, first["old"]["self_seconds"]),
                  (new, first["new"]["self_seconds"]),
                  (change, first["delta_self_seconds"])):
    assert "%.2f" % float(want) == "%.2f" % got or \
        "%+.2f" % float(want) == "%+.2f" % got, (want, got)
PY

# HTML: a well-formed self-contained page whose first row is the slower
# function, marked significant.
"$GPROF" --compare --output-format=html "$cm/old" "$cm/old.gmon" "$cm/new" \
	"$cm/new.gmon" > "$cm/html" 2>/dev/null
check "compare: HTML well-formed and self-contained" \
	python3 "$TESTS_DIR/tools/html_check.py" "$cm/html"
check "compare: HTML puts the slower function first" \
	python3 - "$TESTS_DIR/tools" "$cm/html" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import html_check
page = html_check.Page()
page.feed(open(sys.argv[2], encoding="utf-8").read())
rows = page.rows["compare-table"]
first = [c.strip() for c in rows[1]]
assert first[0] == "beta", first
assert "yes" in first or "*" in first or "significant" in " ".join(first), first
PY
