# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/clones.sh (sourced by tests/formats.sh): --clones on
# tests/programs/clones, built -pg -O2 with the flags that give it GCC's
# clones (split_work.part.0, sra_work.isra.0, cp_work.constprop.0,
# cold_check.cold; nm checks each is there).  GNU's text stays GNU's by
# default, on a real run and on a crafted profile with exact samples in
# each clone; merge (the documents' default) credits each clone to its
# origin and leaves out the call into a function's own split part;
# separate lists each clone; the diagnosis counts what GNU's rule moved.

cl=$WORK/clones
mkdir -p "$cl"
gnu=/usr/bin/x86_64-linux-gnu-gprof.single
clone_flags="-pg -O2 -g -fipa-sra -fpartial-inlining -fipa-cp -fipa-cp-clone
	-freorder-blocks-and-partition -fisolate-erroneous-paths-dereference"
# shellcheck disable=SC2086
if ! ${CC:-cc} $clone_flags -o "$cl/prog" \
	"$TESTS_DIR/programs/clones/clones.c"; then
	fail "clones: build tests/programs/clones with $clone_flags"
fi
${CC:-cc} -O -o "$cl/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" ||
	fail "clones: build tests/tools/gmon-gen"
${CC:-cc} -O -o "$cl/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c" ||
	fail "clones: build tests/tools/gmsl-gen"
nm "$cl/prog" > "$cl/nm"
missing=
for c in split_work.part.0 sra_work.isra.0 cp_work.constprop.0 \
	cold_check.cold split_work cp_work cold_check main; do
	grep -q " [tT] $c\$" "$cl/nm" || missing="$missing $c"
done
if [ -z "$missing" ]; then
	pass "clones: the -O2 build has .part, .isra, .constprop and .cold clones"
else
	fail "clones: the -O2 build has .part, .isra, .constprop and .cold clones" \
		"missing:$missing" "$(${CC:-cc} --version | head -1)"
fi
addr() { awk -v n="$1" '$3 == n { print "0x" $1 }' "$cl/nm"; }

# A real run: 2000 rounds, every call counted exactly.
rounds=2000
(cd "$cl" && ./prog $rounds > /dev/null) ||
	fail "clones: run the test program"
cp "$cl/gmon.out" "$cl/real.out"

# The text report is GNU's, byte for byte, unless asked otherwise.
same_as_gnu() {	# NAME PROFILE OPTIONS... ($ours: ours only)
	_n=$1 _p=$2
	shift 2
	# shellcheck disable=SC2086
	"$GPROF" ${ours:-} "$@" "$cl/prog" "$_p" > "$cl/ours" 2> /dev/null
	MALLOC_PERTURB_=255 "$gnu" "$@" "$cl/prog" "$_p" > "$cl/gnu" 2> /dev/null
	if cmp -s "$cl/ours" "$cl/gnu"; then
		pass "clones: $_n"
	else
		fail "clones: $_n" "$(diff "$cl/ours" "$cl/gnu" | head -10)"
	fi
}
for opts in "-b" "-b -z" "-b -p -z" "-b -q -c" "-b -T" "-b -r" "-b -a"; do
	# shellcheck disable=SC2086
	same_as_gnu "real run, $opts: GNU's text" "$cl/real.out" $opts
done
ours=--clones=gnu same_as_gnu "real run, --clones=gnu -b: GNU's text" \
	"$cl/real.out" -b
ours=

# JSON's rows: NAME CALLS SAMPLES, one a line.
rows() {	# OUT OPTIONS... (after the program and profile)
	_o=$1
	shift
	"$GPROF" --output-format=json "$@" > "$cl/json" 2> /dev/null &&
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["flat_profile"]:
    print(r["name"], r["calls"] or 0, r["self_samples"] or 0)
for e in d["call_graph"]["entries"]:
    for c in e["callees"]:
        print("arc", e["name"], c["name"], c["count"])
for c in d["diagnosis"]:
    if c["check"] == "compiler clones":
        print("diag", c["status"], c["message"])
' "$cl/json" > "$_o"
}
# expect NAME FILE PATTERN...: every PATTERN (grep -E, whole line) in FILE
expect() {
	_n=$1 _f=$2
	shift 2
	_miss=
	for _p in "$@"; do
		grep -Eqx -- "$_p" "$_f" || _miss="$_miss|$_p"
	done
	if [ -z "$_miss" ]; then
		pass "clones: $_n"
	else
		fail "clones: $_n" "missing: $_miss" "$(head -40 "$_f")"
	fi
}
# refuse NAME FILE PATTERN: no line of FILE matches PATTERN
refuse() {
	if grep -Eq -- "$3" "$2"; then
		fail "clones: $1" "$(grep -E -- "$3" "$2" | head -5)"
	else
		pass "clones: $1"
	fi
}

rows "$cl/sep" --clones=separate "$cl/prog" "$cl/real.out"
# split_work's header is inlined in main, which calls the part itself;
# the call through split_ptr reaches the part from split_work (or from
# main again, when split_work jumps to it).
expect "real run, separate: each clone its own row, exact calls" "$cl/sep" \
	"cp_work.constprop.0 $rounds [0-9.]+" "cp_work 1 [0-9.]+" \
	"sra_work.isra.0 $rounds [0-9.]+" "cold_check $rounds [0-9.]+" \
	"split_work 1 [0-9.]+" "split_work.part.0 $((rounds + 1)) [0-9.]+"
# merge: split_work's own call and its part's calls but the one from
# split_work itself
split_calls=$(awk '$1 == "arc" && $3 == "split_work.part.0" &&
	$2 != "split_work" { n += $4 } END { print n + 1 }' "$cl/sep")
rows "$cl/merge" "$cl/prog" "$cl/real.out"
expect "real run, JSON's default (merge): clones credited to their origin" \
	"$cl/merge" "cp_work $((rounds + 1)) [0-9.]+" \
	"sra_work.isra.0 $rounds [0-9.]+" "cold_check $rounds [0-9.]+" \
	"split_work $split_calls [0-9.]+"
refuse "real run, merge: no row for a clone whose origin is there" \
	"$cl/merge" '^(split_work\.part|cp_work\.constprop|cold_check\.cold)'
refuse "real run, merge: no call of a function into itself" \
	"$cl/merge" '^arc ([^ ]+) \1 '

# A crafted profile over the same program: exact samples in each clone
# and its origin, and arcs into the clones, among them a call from
# split_work into its own part (left out by merge) and one of the part
# into itself (a real recursion, kept).  The arcs' callee addresses are
# the functions' entries, as hand-made profiles name them, so that the
# program check (diagnose.c) takes the profile as this program's.
lo=$(addr main)
for f in split_work.part.0 sra_work.isra.0 cp_work.constprop.0 \
	cold_check.cold split_work cp_work cold_check main; do
	a=$(addr $f)
	[ "$(printf '%d' "$a")" -lt "$(printf '%d' "$lo")" ] && lo=$a
done
hi=$(awk '$3 == "etext" { print "0x" $1 }' "$cl/nm")
nbins=$(( (hi - lo) / 2 ))
bin() { echo $(( ($(addr "$1") + 4 - lo) / 2 )); }
at() { printf '%#x' $(( $(addr "$1") + $2 )); }
{
	printf 'hist %s %s %d 100 seconds s' "$lo" "$hi" "$nbins"
	printf ' %d=%d' "$(bin split_work.part.0)" 300 "$(bin split_work)" 20 \
		"$(bin sra_work.isra.0)" 70 "$(bin cp_work.constprop.0)" 50 \
		"$(bin cp_work)" 5 "$(bin cold_check.cold)" 9 \
		"$(bin cold_check)" 40 "$(bin main)" 11
	echo
	echo "arc $(at main 20) $(at split_work.part.0 0) 100"
	echo "arc $(at split_work 8) $(at split_work.part.0 0) 7"
	echo "arc $(at split_work.part.0 30) $(at split_work.part.0 0) 5"
	echo "arc $(at main 24) $(at cp_work.constprop.0 0) 30"
	echo "arc $(at main 28) $(at cp_work 0) 2"
	echo "arc $(at main 32) $(at sra_work.isra.0 0) 40"
	echo "arc $(at main 36) $(at cold_check 0) 60"
} > "$cl/spec"
"$cl/gmon-gen" "$cl/crafted.out" < "$cl/spec" || fail "clones: gmon-gen"
for opts in "-b" "-b -z" "-b -q"; do
	# shellcheck disable=SC2086
	same_as_gnu "crafted, $opts: GNU's text" "$cl/crafted.out" $opts
done

rows "$cl/cmerge" "$cl/prog" "$cl/crafted.out"
expect "crafted, merge: each origin has its clones' samples and calls" \
	"$cl/cmerge" "split_work 100 320" "cp_work 32 55" "cold_check 60 49" \
	"sra_work.isra.0 40 70" "main 0 11" "arc main split_work 100" \
	"arc split_work split_work 5"
refuse "crafted, merge: no arc from split_work into its own part" \
	"$cl/cmerge" '^arc split_work split_work 7$'
rows "$cl/csep" --clones=separate "$cl/prog" "$cl/crafted.out"
expect "crafted, separate: each clone has its own" "$cl/csep" \
	"split_work.part.0 107 300" "split_work 0 20" "cp_work.constprop.0 30 50" \
	"cp_work 2 5" "cold_check.cold 0 9" "cold_check 60 40" \
	"arc split_work split_work.part.0 7"
"$GPROF" -b -p --clones=merge "$cl/prog" "$cl/crafted.out" > "$cl/ctext" 2>&1
expect "crafted, text with --clones=merge" "$cl/ctext" \
	" +[0-9.]+ +[0-9.]+ +3\.20 +100 .* split_work" \
	" +[0-9.]+ +[0-9.]+ +0\.55 +32 .* cp_work"

# The diagnosis: what GNU's rule moved (the clones GNU drops are those
# its -z flat profile does not list).
"$gnu" -b -p -z "$cl/prog" "$cl/crafted.out" > "$cl/gnu-z" 2> /dev/null
moved_s=0 moved_c=0
for c in split_work.part.0:300:112 sra_work.isra.0:70:40 \
	cp_work.constprop.0:50:30 cold_check.cold:9:0; do
	n=${c%%:*} rest=${c#*:}
	grep -q " $n\$" "$cl/gnu-z" && continue
	moved_s=$((moved_s + ${rest%%:*}))
	moved_c=$((moved_c + ${rest#*:}))
done
"$GPROF" --diagnose "$cl/prog" "$cl/crafted.out" > "$cl/diag" 2>&1
expect "crafted, --diagnose: the samples and calls GNU's rule moved" \
	"$cl/diag" " *compiler clones +PROBLEM +.*GNU's rule gave the $moved_s samples \([0-9.]+%\) and $moved_c calls .*most to .*"
"$GPROF" -b -p "$cl/prog" "$cl/crafted.out" > /dev/null 2> "$cl/err"
expect "crafted, text report: one diagnosis line on stderr" "$cl/err" \
	".*diagnosis: .*GNU's rule gave the $moved_s samples .*--clones=merge.*"
expect "crafted, JSON: the diagnosis says what merge did" "$cl/cmerge" \
	"diag ok [0-9]+ clones that GNU's rule drops, which would give their $moved_s samples and $moved_c calls .*7 calls from functions into their own split parts.*"
"$GPROF" -b -p --clones=separate "$cl/prog" "$cl/crafted.out" > /dev/null \
	2> "$cl/err2"
refuse "crafted, separate: no diagnosis line" "$cl/err2" 'clones'

# Folded stacks (merge, their default): the part's frame under its
# whole goes, main calling the part directly reads main;split_work.
p=$(addr split_work.part.0) w=$(addr split_work) m=$(addr main)
k=$(addr cold_check.cold) c=$(addr cold_check)
rate=$(od -An -tu4 -j41 -N4 "$cl/crafted.out" | tr -d ' ')
cat > "$cl/desc" <<EOF
header $rate 0
object 0 0 0x1000 0x2000 prog -
thread 0 100 main
stacks 0 10 0 0:$(printf '%#x' $((p + 9))),0:$(printf '%#x' $((w + 9))),0:$(printf '%#x' $((m + 21))) 20 0 0:$(printf '%#x' $((p + 9))),0:$(printf '%#x' $((m + 21))) 4 0 0:$(printf '%#x' $((k + 1))),0:$(printf '%#x' $((m + 25))) 3 0 0:$(printf '%#x' $((c + 9))),0:$(printf '%#x' $((m + 25)))
sloss 0 0 64
EOF
"$cl/gmsl-gen" "$cl/crafted.out.shlibs" < "$cl/desc" ||
	fail "clones: gmsl-gen"
"$GPROF" --output-format=folded "$cl/prog" "$cl/crafted.out" \
	> "$cl/folded" 2> /dev/null
expect "folded (merge): clones' frames are their origins', no split_work;split_work" \
	"$cl/folded" "main;split_work 30" "main;cold_check 7"
"$GPROF" --output-format=folded --clones=separate "$cl/prog" \
	"$cl/crafted.out" > "$cl/folded2" 2> /dev/null
expect "folded, separate: the clones' own frames" "$cl/folded2" \
	"main;split_work;split_work.part.0 10" "main;split_work.part.0 20" \
	"main;cold_check.cold 4" "main;cold_check 3"
rm -f "$cl/crafted.out.shlibs"

# Bad values are refused in one line.
refused "clones: --clones=bogus refused" "$cl" "unknown way" \
	"$GPROF" --clones=bogus "$cl/prog" "$cl/real.out"
refused "clones: --clones=merge with -l refused" "$cl" "not with -l" \
	"$GPROF" --clones=merge -l "$cl/prog" "$cl/real.out"
