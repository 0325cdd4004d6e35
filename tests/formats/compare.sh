# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/compare.sh (sourced by tests/formats.sh): --compare on two
# builds of one program, the second with a function made six times as
# slow (tests/formats/compare-prog.c): that function comes first, flagged
# significant, in text, JSON and HTML; one build against itself shows no
# change; misuse gives one line.  Then sides of several runs (synthetic
# runs of the same program, below): the spread between runs in the
# error, identical workloads not significant, a function twice as slow
# significant, the note on a side of one run, and the runs of a side
# that do not belong together.
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
# threshold (3.3 times an error it computes from 1000 Hz counts, under
# 0.06 s, so under 0.2 s): a false failure well below one in a million.
# The programs print what each function used (their thread's CPU clock),
# shown when a check fails, and the test first checks that the change
# really was beta's and at least a factor of four.

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
cmp_error "two operands are too few" "needs IMAGE OLD-PROFILE NEW-PROFILE.*commas" \
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

# ---- sides of several runs ----
# Runs of the old build with chosen samples: compare-gen copies the real
# run's gmon.out (its histogram's range and rate, its arcs) and sets the
# samples of alpha, beta and gamma_ (1000 a second), so that every figure
# is known and nothing depends on timing.  The runs vary as a loaded
# machine makes them (alpha by 7%, the others by 3%), more than sampling
# alone explains:
#                 alpha             beta              gamma_
#   old       1600 1850 1700    1300 1340 1270     870  900  850
#   same      1900 1650 1780    1310 1285 1330     880  860  895
#   slower    1900 1650 1780    2600 2690 2550     880  860  895
# Old against same, three runs a side: every change is under 0.6 of its
# error (alpha +0.060 s, error 0.108 s, 4.9 degrees of freedom: p = 0.60;
# beta p = 0.90, gamma_ p = 0.87, the total p = 0.64), far from p < 0.001
# (t over 6.8 at those degrees of freedom).  Old against slower: beta
# +1.31 s, error 0.058 s, t = 22.5 (p = 3e-8).  One run a side, old's
# first against same's first, alpha's +0.30 s is 5.1 sampling errors of
# 0.059 s (p = 4e-7): significant, which is why the report then says that
# the program's own variation is not in the errors.
cm_gen=$cm/compare-gen
if ${CC:-cc} -O -o "$cm_gen" "$TESTS_DIR/formats/compare-gen.c"; then
	cm_addr() {	# FUNCTION: an address well inside it
		nm "$cm/old" | awk -v f="$1" '$3 == f { print "0x" $1 }' |
			{ read -r _a && echo $((_a + 16)); }
	}
	cm_a=$(cm_addr alpha) cm_b=$(cm_addr beta) cm_c=$(cm_addr gamma_)
	cm_run() {	# NAME ALPHA BETA GAMMA [GEN-OPTIONS]
		"$cm_gen" ${5:-} "$cm/old.gmon" "$cm/$1" "$cm_a=$2" "$cm_b=$3" \
			"$cm_c=$4" || fail "compare: compare-gen $1"
	}
	cm_run o1 1600 1300 870
	cm_run o2 1850 1340 900
	cm_run o3 1700 1270 850
	cm_run s1 1900 1310 880
	cm_run s2 1650 1285 860
	cm_run s3 1780 1330 895
	cm_run w1 1900 2600 880
	cm_run w2 1650 2690 860
	cm_run w3 1780 2550 895
	cm_run r1 1600 1300 870 "-r 100"
else
	fail "compare: build tests/formats/compare-gen.c"
fi
old3=$cm/o1,$cm/o2,$cm/o3
same3=$cm/s1,$cm/s2,$cm/s3
slow3=$cm/w1,$cm/w2,$cm/w3

# Identical workloads, three runs a side: nothing significant, no note.
"$GPROF" -b --compare "$cm/old" "$old3" "$same3" > "$cm/m-same" 2> "$cm/m-err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$cm/m-err" ] &&
   grep -q '^0 of 3 functions changed significantly' "$cm/m-same" &&
   grep -q '^change: .*, within its error$' "$cm/m-same" &&
   grep -q '^old: .*o1,.*o2,.*o3:$' "$cm/m-same" &&
   grep -q '^     3 runs, ' "$cm/m-same" &&
   ! grep -q '^Note' "$cm/m-same" && ! grep -q ' \* ' "$cm/m-same"; then
	pass "compare: three runs a side of one workload: nothing significant"
else
	fail "compare: three runs a side of one workload: nothing significant" \
		"status $rc" "$(cat "$cm/m-same" "$cm/m-err")"
fi

# One function twice as slow, three runs a side: it alone, first.
"$GPROF" -b --compare "$cm/old" "$old3" "$slow3" > "$cm/m-slow" 2>&1
first=$(awk '/^ +old +new +change/ { getline; print; exit }' "$cm/m-slow")
if grep -q '^1 of 3 functions changed significantly' "$cm/m-slow"; then
	case $first in
	*' * '*' beta') pass "compare: three runs a side, beta twice as slow: significant" ;;
	*) fail "compare: three runs a side, beta twice as slow: significant" \
		"$(cat "$cm/m-slow")" ;;
	esac
else
	fail "compare: three runs a side, beta twice as slow: significant" \
		"$(cat "$cm/m-slow")"
fi

# One run a side: alpha's spread between runs is called significant by
# sampling errors alone, and the report says what they leave out.
"$GPROF" -b --compare "$cm/old" "$cm/o1" "$cm/s1" > "$cm/m-one" 2>&1
first=$(awk '/^ +old +new +change/ { getline; print; exit }' "$cm/m-one")
case $first in
*' * '*' alpha')
	if grep -q "^Note: one run on each side: the errors are sampling errors only; the program's$" "$cm/m-one" &&
	   grep -q "^own run-to-run variation is not included" "$cm/m-one"; then
		pass "compare: one run a side: the note that run-to-run variation is left out"
	else
		fail "compare: one run a side: the note that run-to-run variation is left out" \
			"$(cat "$cm/m-one")"
	fi ;;
*)	fail "compare: one run a side: the note that run-to-run variation is left out" \
		"alpha should be significant by sampling errors: $first" "$(cat "$cm/m-one")" ;;
esac
"$GPROF" -b --compare "$cm/old" "$old3" "$cm/s1" > "$cm/m-mixed" 2>&1
if grep -q '^Note: one run on the new side: its errors are sampling errors only' \
	"$cm/m-mixed"; then
	pass "compare: one run on one side: the note names that side"
else
	fail "compare: one run on one side: the note names that side" "$(cat "$cm/m-mixed")"
fi

# JSON: valid against the schema, and every error, degrees of freedom
# and p-value as computed here from the runs' samples (the p-value by
# integrating Student's density numerically, not as gprof does).
for cm_case in "same $same3" "slow $slow3" "one $cm/s1"; do
	set -- $cm_case
	case $1 in one) cm_old=$cm/o1 ;; *) cm_old=$old3 ;; esac
	"$GPROF" --compare --output-format=json "$cm/old" "$cm_old" "$2" \
		> "$cm/m-$1.json" 2>/dev/null
	check "compare: JSON of several runs ($1): valid, figures from the runs' samples" \
		python3 - "$ROOT/doc/gprof-compare.schema.json" "$cm/m-$1.json" "$1" <<'PY'
import json, math, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validate(doc, schema, format_checker=jsonschema.FormatChecker())
case = sys.argv[3]
old = {"alpha": [1600, 1850, 1700], "beta": [1300, 1340, 1270],
       "gamma_": [870, 900, 850]}
new = {"alpha": [1900, 1650, 1780], "beta": [1310, 1285, 1330],
       "gamma_": [880, 860, 895]}
if case == "slow":
    new["beta"] = [2600, 2690, 2550]
if case == "one":
    old = {f: v[:1] for f, v in old.items()}
    new = {f: v[:1] for f, v in new.items()}
old["total"] = [sum(v) for v in zip(*old.values())]
new["total"] = [sum(v) for v in zip(*new.values())]

def side(counts):
    k = len(counts)
    x = [c / 1000 for c in counts]
    m = sum(x) / k
    sampling = sum(c / 1e6 for c in counts) / k / k
    spread = sum((v - m) ** 2 for v in x) / (k - 1) / k if k > 1 else 0
    return m, sampling + spread, spread, k

def p_value(t, dof):
    if dof == math.inf:
        return math.erfc(t / math.sqrt(2))
    c = math.exp(math.lgamma((dof + 1) / 2) - math.lgamma(dof / 2)) / \
        math.sqrt(dof * math.pi)
    n = 20000                 # Simpson's rule over [0, t]
    h = t / n
    s = sum((1 if i in (0, n) else 4 if i % 2 else 2) *
            (1 + (i * h) ** 2 / dof) ** (-(dof + 1) / 2) for i in range(n + 1))
    return 1 - 2 * c * s * h / 3

def expect(f):
    mo, vo, so, ko = side(old[f])
    mn, vn, sn, kn = side(new[f])
    v = vo + vn
    den = (so * so / (ko - 1) if ko > 1 else 0) + \
          (sn * sn / (kn - 1) if kn > 1 else 0)
    dof = v * v / den if den > 0 else math.inf
    return mn - mo, math.sqrt(v), dof, p_value(abs(mn - mo) / math.sqrt(v), dof)

def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)

rows = {r["name"]: r for r in doc["rows"]}
got = {f: (rows[f]["delta_self_seconds"], rows[f]["delta_self_error"],
           rows[f]["degrees_of_freedom"], rows[f]["p_value"],
           rows[f]["significant"]) for f in ("alpha", "beta", "gamma_")}
got["total"] = (doc["delta_total_seconds"], doc["delta_total_error"],
                doc["total_degrees_of_freedom"], doc["total_p_value"],
                doc["total_significant"])
for f, (d, err, dof, p, sig) in got.items():
    wd, werr, wdof, wp = expect(f)
    assert close(d, wd) and close(err, werr), (f, d, err, wd, werr)
    assert (dof is None) == (wdof == math.inf), (f, dof, wdof)
    assert dof is None or close(dof, wdof), (f, dof, wdof)
    assert abs(p - wp) <= 1e-6 + 1e-4 * wp, (f, p, wp)
    assert sig == (wp < 0.001), (f, p, wp, sig)
want_sig = {"same": set(), "slow": {"beta", "total"},
            "one": {"alpha", "total"}}[case]
assert {f for f in got if got[f][4]} == want_sig, got
several = case != "one"
assert doc["run_variation_included"] == several, doc
assert (doc["note"] is None) == several, doc
assert doc["old"]["runs"] == doc["new"]["runs"] == (3 if several else 1)
assert len(doc["old"]["profiles"]) == doc["old"]["runs"]
assert (doc["old"]["total_seconds_spread"] is None) == (not several)
PY
done

# HTML: the note on a page of one run a side, none with three.
"$GPROF" --compare --output-format=html "$cm/old" "$cm/o1" "$cm/s1" \
	> "$cm/m-one.html" 2>/dev/null
"$GPROF" --compare --output-format=html "$cm/old" "$old3" "$same3" \
	> "$cm/m-same.html" 2>/dev/null
if python3 "$TESTS_DIR/tools/html_check.py" "$cm/m-same.html" >/dev/null 2>&1 &&
   grep -q "the program&#39;s own run-to-run variation is not included\|the program's own run-to-run variation is not included" "$cm/m-one.html" &&
   ! grep -q "run-to-run variation is not included" "$cm/m-same.html"; then
	pass "compare: HTML notes a side of one run"
else
	fail "compare: HTML notes a side of one run" "$(grep -i note "$cm/m-one.html" | head -3)"
fi

# Runs that do not belong on one side: one line each.
cmp_error "a side with another program's run" \
	"--compare: .*/gmon.out: not a run of the same program as .*/o1" \
	--compare "$cm/old" "$cm/o1,$FIXTURES/cycle-O0/gmon.out" "$same3"
cmp_error "a side with runs at two rates" \
	"--compare: .*/r1: sampled at 100 Hz .*, but .*/s1 at 1000 Hz .*must share their rate" \
	--compare "$cm/old" "$old3" "$cm/s1,$cm/r1"
cmp_error "an empty name between commas" "an empty profile name" \
	--compare "$cm/old" "$cm/o1,,$cm/o2" "$same3"
# A name with a comma that names a file is that one file.
cp "$cm/o1" "$cm/o,1"
"$GPROF" -b --compare "$cm/old" "$cm/o,1" "$cm/s1" > "$cm/m-comma" 2>&1
if grep -q "^old: .*/o,1: .* from 3770 samples" "$cm/m-comma"; then
	pass "compare: a profile whose name has a comma"
else
	fail "compare: a profile whose name has a comma" "$(cat "$cm/m-comma")"
fi
