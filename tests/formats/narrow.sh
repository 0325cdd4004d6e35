# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/narrow.sh (sourced by tests/formats.sh): the stack
# formats at scale.  A side file of 20,000 generated stacks
# (narrow_gen.py) of a program whose function names are prefixes of
# others (f1, f10, f1a: the folded lines do not sort as the names do):
# folded equals the slow reference byte for byte (every stack, summed,
# sorted bytewise); the flame graph merges the frames under 1/12000 of
# the samples into "[N narrow frames]" boxes, stays under 1 MB (every
# frame drawn, it was 4.8 MB), says what it merged, and every drawn
# frame's samples are the truth's (flame_check.py --folded).

NW=$WORK/narrow
mkdir -p "$NW"

narrow_main() {
	need python3 python3 || return
	cat > "$NW/prog.c" <<'C'
#define F(n) __attribute__((noinline)) int n(int x) { return x + 1; }
F(f1) F(f10) F(f11) F(f1a) F(f2) F(f20) F(g)
int main(int argc, char **argv)
{
	(void)argv;
	return f1(argc) + f10(argc) + f11(argc) + f1a(argc) + f2(argc) +
	       f20(argc) + g(argc);
}
C
	if ! ${CC:-cc} -O0 -o "$NW/prog" "$NW/prog.c" ||
	   ! ${CC:-cc} -O -o "$NW/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" ||
	   ! ${CC:-cc} -O -o "$NW/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c"; then
		fail "narrow: the program and generators build"
		return
	fi
	nm "$NW/prog" | awk '$2 ~ /^[Tt]$/ &&
		$3 ~ /^(main|f1|f10|f11|f1a|f2|f20|g)$/ { print $3, $1 }' \
		> "$NW/names"
	_w_main=$(awk '$1 == "main" { print "0x" $2 }' "$NW/names")
	echo "hist $_w_main $((_w_main + 64)) 8 100 seconds s 0=10" > "$NW/spec"
	if ! python3 "$TESTS_DIR/formats/narrow_gen.py" 7 20000 "$NW/desc" \
	        "$NW/want" < "$NW/names" ||
	   ! "$NW/gmon-gen" "$NW/gmon.out" < "$NW/spec" ||
	   ! "$NW/gmsl-gen" "$NW/gmon.out.shlibs" < "$NW/desc"; then
		fail "narrow: stacks generated"
		return
	fi
	_w_total=$(awk '{ n += $NF } END { print n }' "$NW/want")
	"$GPROF" --output-format=folded "$NW/prog" "$NW/gmon.out" \
		> "$NW/folded" 2> "$NW/err"
	if cmp -s "$NW/folded" "$NW/want" &&
	   ! grep -v ': diagnosis: ' "$NW/err" | grep -q .; then
		pass "narrow: folded is the slow reference, byte for byte"
	else
		fail "narrow: folded is the slow reference, byte for byte" \
			"$(head -3 "$NW/err")" "$(diff "$NW/want" "$NW/folded" | head -6)"
	fi
	"$GPROF" --output-format=flame "$NW/prog" "$NW/gmon.out" \
		> "$NW/flame.svg" 2> "$NW/err"
	check "narrow: flame under 1 MB, narrow frames merged, samples exact" \
		python3 "$TESTS_DIR/formats/flame_check.py" "$NW/flame.svg" \
		--total "$_w_total" --folded "$NW/want" --max-bytes 1000000 \
		--samples "main=$_w_total"
	if grep -q 'id="narrow"' "$NW/flame.svg" &&
	   grep -q 'data-n="\[[0-9]* narrow frames\]"' "$NW/flame.svg"; then
		pass "narrow: flame says what it merged"
	else
		fail "narrow: flame says what it merged"
	fi
}
narrow_main
