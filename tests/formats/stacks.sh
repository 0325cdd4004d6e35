# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/stacks.sh: --stacks, the call graph's times from the call
# stacks (sourced by tests/formats.sh, which gives $GPROF, $FIXTURES,
# $WORK and the helpers).
# The accuracy case gprof's call-count shares get wrong: work (spin of
# the cycle-O0 program) called 1000 times from cheap (fib) and 1000 times
# from costly (leaf), with 10% of its samples under cheap and 90% under
# costly.  A profile (tests/tools/gmon-gen.c) and a side file
# (tests/tools/gmsl-gen.c) give exactly that; without --stacks the call
# graph splits work's time 50/50 as GNU's does, with it 10/90.  Recursion
# counts once per sample: one stack main;red;red;red;green gives red 1
# sample, not 3.  Without stacks: one message naming GMON_STACKS=1,
# status 1.

SK=$WORK/stacks
mkdir -p "$SK"

# sk_parents FILE FUNC: "caller self children" for each caller line of
# FUNC's entry in the call graph of FILE.
sk_parents() {
	awk -v f="$2" '
		/^-+$/ { n = 0; next }
		/^\[[0-9]+\]/ {
			if ($(NF - 1) == f)
				for (i = 1; i <= n; i++)
					print line[i]
			n = -1000000
			next
		}
		/^ / && NF >= 5 { line[++n] = $(NF - 1) " " $1 " " $2 }
	' "$1"
}

# sk_entry FILE FUNC: "self children" of FUNC's own line.
sk_entry() {
	awk -v f="$2" '/^\[[0-9]+\]/ && $(NF - 1) == f { print $3, $4 }' "$1"
}

# pprof: the real stacks are the samples, so go tool pprof's cum column
# is the inclusive time and its flat column the self time.
sk_pprof() {
	if ! command -v go >/dev/null 2>&1; then
		fail "stacks: pprof (go is not installed: sh tests/deps.sh)"
		return
	fi
	mkdir -p "$SK/go/home" "$SK/go/cache" "$SK/go/tmp"
	if ! "$GPROF" --output-format=pprof --output="$SK/p.pb.gz" "$_s_prog" \
	        "$SK/gmon.out" 2>"$SK/err" ||
	   ! env HOME="$SK/go/home" GOCACHE="$SK/go/cache" GOTOOLCHAIN=local \
	        GOPROXY=off GOFLAGS= PPROF_TMPDIR="$SK/go/tmp" go tool pprof \
	        -top -unit=ms -nodefraction=0 "$SK/p.pb.gz" > "$SK/top" 2>&1; then
		fail "stacks: pprof reads the stack samples" "$(head -5 "$SK/top")"
		return
	fi
	awk '/^ *flat +flat%/ { on = 1; next }
	     on && NF == 6 { sub(/ms$/, "", $1); sub(/ms$/, "", $4)
	                     print $6, $1 + 0, $4 + 0 }' "$SK/top" | sort > "$SK/got"
	printf '%s\n' "fib 0 100" "green 10 10" "leaf 0 900" "main 0 1010" \
		"red 0 10" "spin 1000 1000" > "$SK/want"
	check "stacks: pprof's flat and cum are the stacks' self and inclusive" \
		diff "$SK/want" "$SK/got"
}

stacks_main() {
	_s_prog=$FIXTURES/cycle-O0/prog
	if ! ${CC:-cc} -O -o "$SK/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" ||
	   ! ${CC:-cc} -O -o "$SK/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c"; then
		fail "stacks: gmon-gen and gmsl-gen build"
		return
	fi
	# cheap = fib, costly = leaf, work = spin; red recurses into itself
	# and calls green.
	nm "$_s_prog" | awk '$2 ~ /^[Tt]$/ &&
		$3 ~ /^(main|fib|leaf|spin|red|green)$/ { print $3, $1 }' \
		> "$SK/names"
	for _s_n in main fib leaf spin red green; do
		_s_a=$(awk -v n="$_s_n" '$1 == n { print "0x" $2 }' "$SK/names")
		if [ -z "$_s_a" ]; then
			fail "stacks: $_s_n is in the fixture program"
			return
		fi
		eval "_s_$_s_n=\$((_s_a))"
	done
	# 2-byte bins from 0: the bin of address a is a / 2.  Call sites and
	# return addresses are a few bytes into the caller.
	{
		echo "hist 0 0x4000 8192 100 seconds s" \
			"$(( (_s_spin + 1) / 2 ))=100 $(( (_s_green + 1) / 2 ))=1"
		echo "arc $((_s_main + 5)) $_s_fib 1"
		echo "arc $((_s_main + 5)) $_s_leaf 1"
		echo "arc $((_s_fib + 5)) $_s_spin 1000"
		echo "arc $((_s_leaf + 5)) $_s_spin 1000"
		echo "arc $((_s_main + 5)) $_s_red 1"
		echo "arc $((_s_red + 5)) $_s_red 3"
		echo "arc $((_s_red + 5)) $_s_green 1"
	} > "$SK/spec"
	_s_r=$((_s_red + 2))
	{
		echo "header 100 0"
		echo "object 0 0 0x1000 0x2000 prog -"
		echo "thread 0 100 main"
		echo "stacks 0" \
			"10 0 0:$((_s_spin + 1)),0:$((_s_fib + 2)),0:$((_s_main + 2))" \
			"90 0 0:$((_s_spin + 1)),0:$((_s_leaf + 2)),0:$((_s_main + 2))" \
			"1 0 0:$((_s_green + 1)),0:$_s_r,0:$_s_r,0:$_s_r,0:$((_s_main + 2))"
	} > "$SK/desc"
	if ! "$SK/gmon-gen" "$SK/gmon.out" < "$SK/spec" ||
	   ! "$SK/gmsl-gen" "$SK/gmon.out.shlibs" < "$SK/desc"; then
		fail "stacks: profile and side file generated"
		return
	fi
	if ! "$GPROF" -b -q "$_s_prog" "$SK/gmon.out" > "$SK/def" 2> "$SK/err" ||
	   ! "$GPROF" -b -q --stacks "$_s_prog" "$SK/gmon.out" > "$SK/stk" \
	        2> "$SK/err"; then
		fail "stacks: call graphs written" "$(head -5 "$SK/err")"
		return
	fi
	sk_parents "$SK/def" spin | sort > "$SK/got"
	printf '%s\n' "fib 0.50 0.00" "leaf 0.50 0.00" > "$SK/want"
	check "stacks: without --stacks, work's time split 50/50 by calls" \
		diff "$SK/want" "$SK/got"
	sk_parents "$SK/stk" spin | sort > "$SK/got"
	printf '%s\n' "fib 0.10 0.00" "leaf 0.90 0.00" > "$SK/want"
	check "stacks: --stacks gives cheap 10% and costly 90% of work's time" \
		diff "$SK/want" "$SK/got"
	_s_got="$(sk_entry "$SK/stk" fib) / $(sk_entry "$SK/stk" leaf)"
	check "stacks: --stacks callers' totals (got $_s_got)" \
		test "$_s_got" = "0.00 0.10 / 0.00 0.90"
	_s_got=$(sk_entry "$SK/stk" red)
	check "stacks: recursion counted once per sample (red: $_s_got)" \
		test "$_s_got" = "0.00 0.01"
	_s_got=$(sk_parents "$SK/stk" red | grep '^main ')
	check "stacks: main's call of red is 1 sample ($_s_got)" \
		test "$_s_got" = "main 0.00 0.01"
	check "stacks: the header says the times come from call stacks" \
		grep -q '^times from sampled call stacks' "$SK/stk"
	if grep -q 'sampled call stacks' "$SK/def" ||
	   ! grep -q '^granularity: each sample hit covers' "$SK/def"; then
		fail "stacks: the default header is GNU's"
	else
		pass "stacks: the default header is GNU's"
	fi
	# The flat profile's self times stay the histogram's.
	"$GPROF" -b -p "$_s_prog" "$SK/gmon.out" > "$SK/flat1" 2>/dev/null
	"$GPROF" -b -p --stacks "$_s_prog" "$SK/gmon.out" > "$SK/flat2" 2>/dev/null
	awk '{ print $3, $NF }' "$SK/flat1" > "$SK/f1"
	# (rows only --stacks lists, with inclusive time alone, left out)
	awk 'NR == FNR { keep[$NF] = 1; next } $NF in keep { print $3, $NF }' \
		"$SK/flat1" "$SK/flat2" > "$SK/f2"
	check "stacks: flat self times unchanged" diff "$SK/f1" "$SK/f2"
	# ... and an inclusive column joins them: each stack once per function.
	awk 'NF >= 5 && $1 ~ /^[0-9.]+$/ { print $NF, $4 }' "$SK/flat2" |
		sort > "$SK/got"
	printf '%s\n' "fib 0.10" "green 0.01" "leaf 0.90" "main 1.01" \
		"red 0.01" "spin 1.00" > "$SK/want"
	check "stacks: flat inclusive seconds (main 1.01, red once)" \
		diff "$SK/want" "$SK/got"
	check "stacks: flat header names the inclusive column" \
		grep -q 'inclusive' "$SK/flat2"
	if grep -q 'inclusive' "$SK/flat1"; then
		fail "stacks: no inclusive column without --stacks"
	else
		pass "stacks: no inclusive column without --stacks"
	fi
	"$GPROF" -q --stacks "$_s_prog" "$SK/gmon.out" > "$SK/full" 2>/dev/null
	check "stacks: the call graph's explanation says what --stacks changes" \
		grep -q 'With --stacks, every time above' "$SK/full"
	# The documents say so too: JSON (schema-checked) and DOT.
	if "$GPROF" --stacks --output-format=json "$_s_prog" "$SK/gmon.out" \
	        > "$SK/j.json" 2>/dev/null; then
		check "stacks: JSON has stack times and inclusive seconds" \
			python3 - "$ROOT/doc/gprof-json.schema.json" "$SK/j.json" <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(f, encoding="utf-8")) for f in sys.argv[1:3])
jsonschema.validate(doc, schema)
assert doc["summary"]["call_graph_times"] == "call_stacks", doc["summary"]
incl = {r["name"]: r["inclusive_seconds"] for r in doc["flat_profile"]}
assert abs(incl["main"] - 1.01) < 1e-9 and abs(incl["spin"] - 1.0) < 1e-9, incl
spin = [e for e in doc["call_graph"]["entries"] if e["name"] == "spin"][0]
got = sorted((c["name"], round(c["self_seconds"], 2)) for c in spin["callers"])
assert got == [("fib", 0.1), ("leaf", 0.9)], got
PY
	else
		fail "stacks: JSON has stack times and inclusive seconds"
	fi
	"$GPROF" --stacks --output-format=dot "$_s_prog" "$SK/gmon.out" \
		> "$SK/g.dot" 2>/dev/null
	check "stacks: DOT's title says the times come from call stacks" \
		grep -q 'times from sampled call stacks' "$SK/g.dot"
	"$GPROF" --output-format=dot "$_s_prog" "$SK/gmon.out" > "$SK/g0.dot" \
		2>/dev/null
	if grep -q 'sampled call stacks' "$SK/g0.dot"; then
		fail "stacks: DOT without --stacks does not mention stacks"
	else
		pass "stacks: DOT without --stacks does not mention stacks"
	fi
	"$GPROF" --stacks --output-format=html "$_s_prog" "$SK/gmon.out" \
		> "$SK/p.html" 2>/dev/null
	check "stacks: HTML names the stack times and the inclusive column" \
		sh -c 'grep -q "from sampled call stacks" "$1" &&
		       grep -q ">inclusive s<" "$1"' sh "$SK/p.html"
	sk_pprof
	# No stacks: the reason, once.
	rm -f "$SK/gmon.out.shlibs"
	refused "stacks: no stacks is one message and status 1" "$SK" \
		'GMON_STACKS=1' "$GPROF" --stacks "$_s_prog" "$SK/gmon.out"
}
stacks_main
