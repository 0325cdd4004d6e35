# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/nocounts.sh: reports of a program not built with -pg, and
# symbols of stripped files (sourced by tests/formats.sh, which gives
# $GPROF, $FIXTURES, $WORK and the helpers).
# nocounts-prog.c is compiled without -pg and linked with libgmon (which
# then starts from its constructor, as the preload runtime does), with a
# thread and a shared library (nocounts-lib.c), and run with
# GMON_SHLIBS=1 GMON_STACKS=1: gmon.out has the histogram and no arcs,
# the side file the libraries and the stacks.  The run is real, so only
# the structure is checked (who calls whom, each edge with samples);
# exact figures come from a generated side file over the cycle-O0
# fixture, with a gmon.out of no arcs.
# The flat profile has no calls, and GNU gprof prints the same one
# (without the side file); --stacks makes the call graph from the stacks
# and says its counts are samples; every format names the edges; the
# diagnosis says the program was not built with -pg.  A stripped copy
# of the program gets its names from .dynsym, and from its build-id
# debug file under GPROF_DEBUG_DIR (with file and line); a stripped
# library from its .dynsym.

NC=$WORK/nocounts
mkdir -p "$NC"
GNU_GPROF=${GNU_GPROF:-/usr/bin/x86_64-linux-gnu-gprof.single}
_n_src=$TESTS_DIR/formats
# -rdynamic: the stripped copy's .dynsym has the program's functions.
if ${CC:-cc} -O2 -g -fPIC -shared -o "$NC/libnc.so" "$_n_src/nocounts-lib.c" &&
   ${CC:-cc} -O2 -g -rdynamic -o "$NC/prog" "$_n_src/nocounts-prog.c" \
	-L"$NC" -lnc -Wl,-rpath,"$NC" -Wl,-u,_mcleanup \
	-L"$ROOT/src/libgmon" -lgmon -pthread &&
   (cd "$NC" && GMON_STACKS=1 GMON_SHLIBS=1 ./prog) &&
   [ -f "$NC/gmon.out.shlibs" ]; then
	pass "nocounts: the program without -pg ran with stacks"
else
	fail "nocounts: the program without -pg ran with stacks"
fi

# nc_run NAME ARGS...: gprof ARGS on the run into $NC/NAME (stderr in
# $NC/NAME.err); status 0 if it worked.
nc_run() {
	_n_n=$1
	shift
	"$GPROF" "$@" "$NC/prog" "$NC/gmon.out" > "$NC/$_n_n" 2> "$NC/$_n_n.err"
}

# GNU reads the gmon.out alone (no side file) without a message and
# prints the same flat profile as ours.
mkdir -p "$NC/alone"
cp "$NC/gmon.out" "$NC/alone/gmon.out" 2>/dev/null
if (cd "$NC/alone" && "$GNU_GPROF" -b -p "$NC/prog" gmon.out > gnu 2> gnu.err &&
    "$GPROF" -b -p "$NC/prog" gmon.out > ours 2> ours.err) &&
   [ ! -s "$NC/alone/gnu.err" ] && cmp -s "$NC/alone/gnu" "$NC/alone/ours" &&
   grep -q ' spin$' "$NC/alone/ours"; then
	pass "nocounts: GNU gprof reads gmon.out silently, the same flat profile"
else
	fail "nocounts: GNU gprof reads gmon.out silently, the same flat profile" \
		"$(cat "$NC/alone/gnu.err" 2>/dev/null)" \
		"$(diff "$NC/alone/gnu" "$NC/alone/ours" 2>&1 | head -10)"
fi

# The flat profile (side file read): rows of 4 figures and a name, none
# with calls, the library's function among them.
if nc_run flat -b -p && grep -q ' lib_spin$' "$NC/flat" &&
   awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / { if (NF != 4) bad = 1; n++ }
        END { exit !(n > 0 && !bad) }' "$NC/flat"; then
	pass "nocounts: the flat profile has no calls"
else
	fail "nocounts: the flat profile has no calls" "$(head -12 "$NC/flat")"
fi

# nc_edge FILE CALLER CALLEE: CALLER's entry in a -b call graph lists
# CALLEE with a "n/m" count, n > 0 (callee lines follow the [N] line).
nc_edge() {
	awk -v p="$2" -v c="$3" '
		/^-+$/ { in_p = 0; next }
		/^\[[0-9]+\]/ { in_p = ($(NF - 1) == p); next }
		in_p && $(NF - 1) == c {
			split($(NF - 2), v, "/")
			if (v[1] + 0 > 0) ok = 1
		}
		END { exit !ok }' "$1"
}
if nc_run stk -b --stacks; then
	pass "nocounts: --stacks written"
else
	fail "nocounts: --stacks written" "$(head -5 "$NC/stk.err")"
fi
check "nocounts: --stacks header says the counts are stack samples" \
	grep -q '^times and counts from sampled call stacks ("called" is stack samples, not calls)' "$NC/stk"
for _n_e in "main work_a" "main work_b" "work_a spin" "work_b spin" \
            "work_b lib_spin" "thread_main work_b"; do
	# shellcheck disable=SC2086
	check "nocounts: --stacks: $_n_e (samples > 0)" nc_edge "$NC/stk" $_n_e
done
if nc_edge "$NC/stk" work_a lib_spin; then
	fail "nocounts: --stacks: work_a calls no lib_spin"
else
	pass "nocounts: --stacks: work_a calls no lib_spin"
fi
# The blurb says it too.
nc_run stkfull --stacks
check "nocounts: --stacks explanation says no call was counted" \
	grep -q 'No call was counted (the program was not built with -pg)' "$NC/stkfull"

# --diagnose: no call counts, not built with -pg, how to get them.
nc_run diag --diagnose
check "nocounts: --diagnose says not built with -pg, use --stacks" \
	grep -Eq '^  call arcs +PROBLEM .*no call counts: .*prog was not built with -pg; use --stacks.*rebuild with -pg' "$NC/diag"
nc_run sdiag --diagnose --stacks
check "nocounts: --diagnose --stacks says the counts are stack samples" \
	grep -Eq '^  call arcs +n/a .*was not built with -pg; the call graph comes from the sampled stacks' "$NC/sdiag"
nc_run plain
check "nocounts: the stderr line of a report says not built with -pg" \
	grep -q 'diagnosis: .*no call counts: .*not built with -pg' "$NC/plain.err"

# Every format: written, and its edges from the stacks, named as samples.
_n_ok=1
for _n_f in json html dot callgrind pprof folded flame; do
	if ! nc_run "f.$_n_f" --output-format=$_n_f || [ ! -s "$NC/f.$_n_f" ]; then
		fail "nocounts: --output-format=$_n_f" "$(head -5 "$NC/f.$_n_f.err")"
		_n_ok=0
	fi
done
[ $_n_ok = 1 ] && pass "nocounts: every format written"
if _n_out=$(python3 - "$NC" <<'PYEOF' 2>&1
import json, re, sys
d = sys.argv[1]
def rd(n):
    return open('%s/%s' % (d, n), encoding='utf-8', errors='replace').read()
errors = []
def ok(c, m):
    if not c:
        errors.append(m)
j = json.loads(rd('f.json'))
s = j['summary']
ok(s.get('call_counts') == 'stack_samples', 'json: call_counts %r' % s.get('call_counts'))
ok(s['call_graph_times'] == 'call_stacks', 'json: call_graph_times')
ok(all(r['calls'] is None for r in j['flat_profile']), 'json: a flat row has calls')
edges = set()
for e in j['call_graph']['entries'] if isinstance(j['call_graph'], dict) else j['call_graph']:
    for c in e.get('callees') or []:
        if (c.get('calls') or c.get('count') or 0) > 0:
            edges.add((e.get('name'), c.get('name')))
for p, c in (('main', 'work_a'), ('main', 'work_b'), ('work_b', 'lib_spin')):
    ok((p, c) in edges, 'json: no edge %s -> %s in %r' % (p, c, sorted(edges)[:20]))
dot = rd('f.dot')
names = dict(re.findall(r'\t(n\d+) \[label="([^ "\\]+)', dot))
found = set()
for a, b, n, w in re.findall(r'\t(n\d+) -> (n\d+) \[label="(\d+) ([a-z ]+)', dot):
    ok(w in ('stack sample', 'stack samples'), 'dot: edge label %r' % w)
    found.add((names.get(a), names.get(b)))
ok(('main', 'work_a') in found, 'dot: no edge main -> work_a')
cg = rd('f.callgrind')
ok('desc: Calls: none counted (not built with -pg)' in cg, 'callgrind: no desc line')
m = re.search(r'^fn=main\n(.*?)(?=^fn=|\Z)', cg, re.S | re.M)
ok(m and re.search(r'^cfn=work_a\ncalls=[1-9]', m.group(1), re.M),
   'callgrind: main calls no work_a')
html = rd('f.html')
ok('stack samples, not calls' in html and 'work_a' in html, 'html: no samples label or work_a')
ok(re.search(r'^[^\n]*main;work_a;spin \d+$', rd('f.folded'), re.M), 'folded: no main;work_a;spin')
ok('work_a' in rd('f.flame'), 'flame: no work_a')
print('\n'.join(errors))
sys.exit(1 if errors else 0)
PYEOF
); then
	pass "nocounts: json, dot, callgrind, html, folded, flame name the edges as samples"
else
	fail "nocounts: json, dot, callgrind, html, folded, flame name the edges as samples" "$_n_out"
fi
if command -v go >/dev/null 2>&1; then
	mkdir -p "$NC/go/home" "$NC/go/cache" "$NC/go/tmp"
	if env HOME="$NC/go/home" GOCACHE="$NC/go/cache" GOTOOLCHAIN=local \
	        GOPROXY=off GOFLAGS= PPROF_TMPDIR="$NC/go/tmp" go tool pprof \
	        -top -cum -nodefraction=0 "$NC/f.pprof" > "$NC/ptop" 2>&1 &&
	   grep -q ' work_a$' "$NC/ptop" && grep -q 'not built with -pg' "$NC/ptop"; then
		pass "nocounts: pprof read, work_a on the stacks, the comment says no -pg"
	else
		fail "nocounts: pprof read, work_a on the stacks, the comment says no -pg" \
			"$(head -8 "$NC/ptop")"
	fi
fi

# Exact figures: the cycle-O0 program's histogram without arcs, and
# generated stacks: 10 samples main;fib;spin, 90 main;leaf;spin, and one
# main;red;red;red;green (the recursion one sample, and no arc): the
# whole call graph, counts and times, is known.
nc_exact() {
	_x=$NC/exact
	_p=$FIXTURES/cycle-O0/prog
	mkdir -p "$_x"
	${CC:-cc} -O -o "$_x/gmon-gen" "$TESTS_DIR/tools/gmon-gen.c" &&
	${CC:-cc} -O -o "$_x/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c" || return 1
	for _n in main fib leaf spin red green; do
		_a=$(nm "$_p" | awk -v n="$_n" '$2 ~ /^[Tt]$/ && $3 == n { print "0x" $1 }')
		[ -n "$_a" ] || return 1
		eval "_x_$_n=\$((_a))"
	done
	echo "hist 0 0x4000 8192 100 seconds s $(( (_x_spin + 1) / 2 ))=100" \
		"$(( (_x_green + 1) / 2 ))=1" > "$_x/spec"
	_r=$((_x_red + 2))
	{
		echo "header 100 0"
		echo "object 0 0 0x1000 0x2000 prog -"
		echo "thread 0 100 main"
		echo "stacks 0" \
			"10 0 0:$((_x_spin + 1)),0:$((_x_fib + 2)),0:$((_x_main + 2))" \
			"90 0 0:$((_x_spin + 1)),0:$((_x_leaf + 2)),0:$((_x_main + 2))" \
			"1 0 0:$((_x_green + 1)),0:$_r,0:$_r,0:$_r,0:$((_x_main + 2))"
	} > "$_x/desc"
	"$_x/gmon-gen" "$_x/gmon.out" < "$_x/spec" &&
	"$_x/gmsl-gen" "$_x/gmon.out.shlibs" < "$_x/desc" &&
	"$GPROF" -b -q --stacks "$_p" "$_x/gmon.out" > "$_x/cg" 2> "$_x/err" || return 1
	# the graph's lines, from the first entry to the last dashes
	sed -n '/^index % time/,/^Index by function name/p' "$_x/cg" |
		sed -e '1d' -e '$d' | grep -v '^[[:space:]]*$' > "$_x/got"
	cat > "$_x/want" <<'WANT'
                                                 <spontaneous>
[1]    100.0    0.00    1.01                 main [1]
                0.00    0.90      90/90          leaf [3]
                0.00    0.10      10/10          fib [4]
                0.00    0.01       1/1           red [6]
-----------------------------------------------
                0.10    0.00      10/100         fib [4]
                0.90    0.00      90/100         leaf [3]
[2]     99.0    1.00    0.00     100         spin [2]
-----------------------------------------------
                0.00    0.90      90/90          main [1]
[3]     89.1    0.00    0.90      90         leaf [3]
                0.90    0.00      90/100         spin [2]
-----------------------------------------------
                0.00    0.10      10/10          main [1]
[4]      9.9    0.00    0.10      10         fib [4]
                0.10    0.00      10/100         spin [2]
-----------------------------------------------
                0.01    0.00       1/1           red [6]
[5]      1.0    0.01    0.00       1         green [5]
-----------------------------------------------
                0.00    0.01       1/1           main [1]
[6]      1.0    0.00    0.01       1         red [6]
                0.01    0.00       1/1           green [5]
-----------------------------------------------
WANT
	return 0
}
if nc_exact; then
	check "nocounts: exact --stacks graph from generated stacks" \
		diff "$NC/exact/want" "$NC/exact/got"
else
	fail "nocounts: exact --stacks graph from generated stacks" \
		"$(head -5 "$NC/exact/err" 2>/dev/null)"
fi

# A stripped copy: .dynsym (the program was linked -rdynamic) names the
# functions; its build-id debug file under GPROF_DEBUG_DIR names them
# too, with their file and line.
cp "$NC/prog" "$NC/stripped" && strip --strip-all "$NC/stripped"
nc_strip() {	# NAME ARGS...: gprof ARGS on the stripped copy into $NC/NAME
	_n_n=$1
	shift
	"$GPROF" "$@" "$NC/stripped" "$NC/gmon.out" > "$NC/$_n_n" 2> "$NC/$_n_n.err"
}
if readelf -S "$NC/stripped" | grep -q '\.symtab'; then
	fail "nocounts: strip --strip-all left no .symtab"
elif GPROF_DEBUG_DIR=/nonexistent nc_strip dyn -b --stacks &&
     grep -q ' spin$' "$NC/dyn" && nc_edge "$NC/dyn" main work_a; then
	pass "nocounts: a stripped executable's names from .dynsym"
else
	fail "nocounts: a stripped executable's names from .dynsym" \
		"$(head -5 "$NC/dyn.err")" "$(head -12 "$NC/dyn")"
fi
_n_id=$(readelf -n "$NC/prog" | awk '/Build ID:/ { print $3 }')
_n_dbg=$NC/dbg/.build-id/$(printf %s "$_n_id" | cut -c1-2)
mkdir -p "$_n_dbg"
if [ -n "$_n_id" ] &&
   objcopy --only-keep-debug "$NC/prog" "$_n_dbg/$(printf %s "$_n_id" | cut -c3-).debug" &&
   GPROF_DEBUG_DIR=$NC/dbg nc_strip dbgjson --output-format=json &&
   GPROF_DEBUG_DIR=/nonexistent nc_strip dynjson --output-format=json &&
   python3 - "$NC" <<'PYEOF'
import json, sys
d = sys.argv[1]
def row(f, n):
    j = json.load(open('%s/%s' % (d, f)))
    return [r for r in j['flat_profile'] if r['name'] == n][0]
a = row('dbgjson', 'spin')
b = row('dynjson', 'spin')
sys.exit(0 if (a['file'] or '').endswith('nocounts-prog.c') and a['line']
         and b['file'] is None else 1)
PYEOF
then
	pass "nocounts: a stripped executable's build-id debug file in GPROF_DEBUG_DIR (names, file, line)"
else
	fail "nocounts: a stripped executable's build-id debug file in GPROF_DEBUG_DIR (names, file, line)" \
		"$(head -3 "$NC/dbgjson.err" 2>/dev/null)"
fi
# A stripped library (strip keeps its build-id): .dynsym names lib_spin.
if strip --strip-all "$NC/libnc.so" &&
   GPROF_DEBUG_DIR=/nonexistent nc_run slib -b -p &&
   grep -q ' lib_spin$' "$NC/slib"; then
	pass "nocounts: a stripped library's names from .dynsym"
else
	fail "nocounts: a stripped library's names from .dynsym" "$(head -5 "$NC/slib.err")"
fi

# An executable with no symbol at all (stripped, nothing of its own in
# .dynsym, no debug file), run under gprof-run as a system program is:
# GNU stops at "has no symbols", and so does gprof without the side file
# (--no-shlibs); with it, one "[NAME]" row takes the executable's own
# samples and the C library's functions keep their names.
_n_sx=$NC/sysprog
mkdir -p "$_n_sx"
cat > "$_n_sx/sx.c" <<'CEOF'
#include <stdlib.h>
#include <string.h>
static char buf[1 << 16];
int main(void)
{
	unsigned long s = 0;
	for (int r = 0; r < 20000; r++) {
		memset(buf, r, sizeof buf);
		for (int i = 0; i < 4096; i++)
			s += (unsigned long)buf[i] * (unsigned long)i;
	}
	return s == 1;
}
CEOF
if [ -x "$ROOT/src/libgmon/gprof-run" ] &&
   ${CC:-cc} -O1 -o "$_n_sx/sx" "$_n_sx/sx.c" && strip --strip-all "$_n_sx/sx" &&
   (cd "$_n_sx" && "$ROOT/src/libgmon/gprof-run" ./sx) &&
   [ -f "$_n_sx/gmon.out.shlibs" ]; then
	if (cd "$_n_sx" && GPROF_DEBUG_DIR=/nonexistent "$GPROF" -b -p ./sx gmon.out \
		> flat 2> flat.err) &&
	   ! grep -v ': diagnosis: ' "$_n_sx/flat.err" | grep -q . &&
	   awk '$NF == "[sx]" && $3 > 0 { ok = 1 } END { exit !ok }' "$_n_sx/flat"; then
		pass "nocounts: an executable without any symbol, with its side file: a [sx] row"
	else
		fail "nocounts: an executable without any symbol, with its side file: a [sx] row" \
			"$(head -3 "$_n_sx/flat.err")" "$(head -10 "$_n_sx/flat")"
	fi
	(cd "$_n_sx" && GPROF_DEBUG_DIR=/nonexistent refused \
		"nocounts: an executable without any symbol, --no-shlibs: GNU's 'has no symbols'" \
		"$_n_sx" "file \`./sx' has no symbols" "$GPROF" -b -p --no-shlibs ./sx gmon.out)
else
	fail "nocounts: a stripped program ran under gprof-run"
fi
