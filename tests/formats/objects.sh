# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/objects.sh: which object (executable or shared library) a
# function lives in, in every format, and the source lines of a -pg
# shared library's functions (sourced by tests/formats.sh, which gives
# $GPROF, $WORK and the helpers).  A program calls a -pg library built
# with -g; its side file (made by gmsl-gen, so that the samples are
# exact) gives the library samples, calls and one call stack.  Checked:
# json (the objects table, each function's object, its address in it,
# its file and line as addr2line gives them), callgrind (ob=, cob=, the
# library's source file read by callgrind_annotate), pprof (a mapping
# per object with the library's path and build-id, the locations' mapping,
# read by go tool pprof), dot (a library line and the object in the
# tooltip), flame and html (the object in the tooltips), -l (the
# library's line rows, at its own addresses) and -A (its source
# annotated); the same from the library's build-id debug file once the
# library is stripped; without the side file, -l and -A as GNU's.

OB=$WORK/objects
mkdir -p "$OB"
OBJ_GNU=/usr/bin/x86_64-linux-gnu-gprof.single
mkdir -p "$OB/go/home" "$OB/go/cache" "$OB/go/path" "$OB/go/tmp"

# go tool pprof, kept away from the user's home, caches and the network.
obj_pprof() {
	env HOME="$OB/go/home" GOCACHE="$OB/go/cache" GOPATH="$OB/go/path" \
	    GOTOOLCHAIN=local GOPROXY=off GOFLAGS= PPROF_TMPDIR="$OB/go/tmp" \
	    go tool pprof "$@"
}

objects_setup() {
	cat > "$OB/lib.c" <<'EOF'
static volatile unsigned long sink;
__attribute__((noinline)) void helper(unsigned long i) { sink += i * 3; }
__attribute__((noinline)) static void inner(unsigned long i) { sink ^= i; }
__attribute__((noinline)) void hot_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		helper(i);
		inner(i);
	}
}
EOF
	cat > "$OB/main.c" <<'EOF'
void hot_loop(unsigned long n);
__attribute__((noinline)) static int local_work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}
int main(void)
{
	hot_loop(1000);
	return local_work(10) == 45 ? 0 : 1;
}
EOF
	(cd "$OB" &&
	 ${CC:-cc} -O1 -o gmsl-gen "$TESTS_DIR/tools/gmsl-gen.c" &&
	 ${CC:-cc} -shared -fPIC -pg -O1 -g -Wl,--build-id -o libhot.so lib.c &&
	 ${CC:-cc} -pg -O1 -g -Wl,--build-id -o prog main.c -L. -lhot \
		-Wl,-rpath,"$OB" &&
	 ./prog && [ -s gmon.out ])
}

# The link-time address of a symbol, as 0x...
obj_addr() { nm "$1" | awk -v n="$2" '$3 == n { print "0x" $1 }'; }

# side FILE LIB: hot_loop 30 samples, helper 20, inner 10; main ->
# hot_loop once, hot_loop -> helper 1000 times; one stack of 7 ticks in
# hot_loop called from main.
obj_side() {
	"$OB/gmsl-gen" "$1" <<EOF
header $OB_RATE 0
object 0 0 0x1000 0x2000 $OB/prog -
object 1 0x7f0000000000 0x1000 0x2000 $2 $OB_BID
samples 1 $((OB_HOT + 4)) 30 $((OB_HELPER + 2)) 20 $((OB_INNER + 1)) 10
arcs 0 $((OB_MAIN + 8)) 1 $OB_HOT 1 1 $((OB_HOT + 8)) 1 $OB_HELPER 1000
thread 0 100 main
stacks 0 7 0 1:$((OB_HOT + 4)),0:$((OB_MAIN + 9))
EOF
}

# obj_json_check DOC LIB SRC: the json document's objects and places.
obj_json_check() {
	python3 - "$@" prog "$OB_BID" "$OB/lines" <<'EOF'
import json, sys
doc, lib, src, prog, bid, lines = sys.argv[1:7]
want = {}                       # name: (address, line) from nm, addr2line
for ln in open(lines):
    name, addr, line = ln.split()
    want[name] = (hex(int(addr, 16)), int(line))
d = json.load(open(doc))
objs = [(o['path'], o['build_id']) for o in d['objects']]
if len(objs) != 2 or objs[1] != (lib, bid) or objs[0][0] != prog:
    sys.exit('objects: %r' % objs)
rows = {r['name']: r for r in d['flat_profile']}
for name, (addr, line) in want.items():
    r = rows.get(name)
    if not r:
        sys.exit('%s: no flat row' % name)
    got = (r['object'], r['address'], r['file'], r['line'])
    if src == '-':
        if got != (lib, addr, None, None):
            sys.exit('%s: %r (want no file)' % (name, got))
    elif got != (lib, addr, src, line):
        sys.exit('%s: %r, want %r' % (name, got, (lib, addr, src, line)))
if rows['local_work']['object'] != prog:
    sys.exit('local_work: object %r' % rows['local_work']['object'])
ents = {e['name']: e['object'] for e in d['call_graph']['entries']
        if e['kind'] == 'function'}
if ents.get('main') != prog or ents.get('hot_loop') != lib or \
   ents.get('helper') != lib:
    sys.exit('call-graph entries: %r' % ents)
print('%d objects, %d rows' % (len(objs), len(rows)))
EOF
}

# obj_callgrind_check FILE LIB: hot_loop's block is in the library, with
# its source file; main's call to it names the library (cob=).
obj_callgrind_check() {
	awk -v lib="$2" -v src="$OB/lib.c" '
	/^ob=/ { ob = substr($0, 4) }
	/^fl=/ { fl = substr($0, 4) }
	/^cob=/ { cob = substr($0, 5) }
	/^fn=/ { fn = substr($0, 4) }
	fn == "hot_loop" && /^fn=/ { seen_fn = (ob == lib && fl == src) }
	fn == "main" && $0 == "cfn=hot_loop" { seen_call = (cob == lib) }
	fn == "main" && /^fn=/ { seen_main = (ob == "prog") }
	END { exit !(seen_fn && seen_call && seen_main) }' "$1"
}

obj_tests() {
	lib=$OB/libhot.so
	obj_side "$OB/gmon.out.shlibs" "$lib"
	: > "$OB/lines"
	for f in hot_loop helper inner; do
		a=$(obj_addr "$lib" "$f")
		l=$(addr2line -e "$lib" "$a" | sed 's/.*://; s/ .*//')
		echo "$f $a $l" >> "$OB/lines"
	done
	(cd "$OB" && "$GPROF" --output-format=json prog gmon.out \
		> j.json 2> j.err)
	check "objects: json names each function's object, file and line" \
		obj_json_check "$OB/j.json" "$lib" "$OB/lib.c"
	check "objects: json matches the schema" \
		python3 "$TESTS_DIR/formats/json_check.py" \
		"$ROOT/doc/gprof-json.schema.json" "$OB/j.json"

	(cd "$OB" && "$GPROF" --output-format=callgrind prog gmon.out \
		> c.out 2> c.err)
	check "objects: callgrind ob= and cob= name the library" \
		obj_callgrind_check "$OB/c.out" "$lib"
	if need callgrind_annotate valgrind; then
		callgrind_annotate "$OB/c.out" > "$OB/c.ann" 2>&1
		check "objects: callgrind_annotate shows the library's functions" \
			grep -q "lib.c:hot_loop \[$lib\]" "$OB/c.ann"
	fi

	(cd "$OB" && "$GPROF" --output-format=pprof prog gmon.out \
		> p.pb.gz 2> p.err)
	if need go golang-go; then
		obj_pprof -raw "$OB/p.pb.gz" > "$OB/p.raw" 2>&1
		check "objects: pprof has a mapping per object (path, build-id)" \
			grep -Eq "^2: 0x[0-9a-f]+/0x[0-9a-f]+/0x0 $lib $OB_BID \[FN\]\[FL\]\[LN\]" \
			"$OB/p.raw"
		check "objects: pprof's library locations are in its mapping" \
			grep -Eq "^ +[0-9]+: 0x[0-9a-f]+ M=2 hot_loop $OB/lib.c:" \
			"$OB/p.raw"
	fi

	(cd "$OB" && "$GPROF" --output-format=dot prog gmon.out \
		> d.dot 2> d.err)
	check "objects: dot labels a library's function with it" \
		grep -q "hot_loop \[[0-9]*\].*\\\\n\[libhot.so\]\", tooltip=\".*in $lib\"" \
		"$OB/d.dot"
	check "objects: dot's tooltip names the executable" \
		grep -q "main \[[0-9]*\].*in prog\"" "$OB/d.dot"

	(cd "$OB" && "$GPROF" --output-format=flame prog gmon.out \
		> f.svg 2> f.err)
	check "objects: flame's tooltips name the object" \
		grep -q "<title>hot_loop (7 samples, 100.00%) in $lib</title>" \
		"$OB/f.svg"
	(cd "$OB" && "$GPROF" --output-format=html prog gmon.out \
		> h.html 2> h.err)
	check "objects: html rows name a library's function's object" \
		grep -q "<td class=\"name\" title=\"in $lib\"><a href=\"#cg-[0-9]*\">hot_loop<" \
		"$OB/h.html"

	# -l: the library's lines at its own addresses (row hot_loop with
	# its 30 samples: they are 4 bytes into its first line).
	(cd "$OB" && "$GPROF" -b -p -l prog gmon.out > l.txt 2> l.err)
	hl=$(awk '$1 == "hot_loop" { print $3 }' "$OB/lines")
	ha=$(awk '$1 == "hot_loop" { sub(/^0x0*/, "", $2); print $2 }' "$OB/lines")
	check "objects: -l has the library's line rows" \
		grep -q " 0\\.30 .* hot_loop (lib\\.c:$hl @ $ha)$" "$OB/l.txt"
	check "objects: -l shows the library's other lines with -z" \
		sh -c "cd '$OB' && '$GPROF' -b -p -l -z prog gmon.out 2>/dev/null |
			grep -c ' hot_loop (lib\\.c:' | awk '\$1 >= 3 { ok = 1 } END { exit !ok }'"
	(cd "$OB" && "$GPROF" -b -A prog gmon.out > a.txt 2> a.err)
	check "objects: -A annotates the library's source" \
		sh -c "grep -q '^\\*\\*\\* File .*lib\\.c:\$' '$OB/a.txt' &&
			grep -Eq '^ +1000 -> .*void helper' '$OB/a.txt'"

	# Stripped library: its lines come from the build-id debug file.
	mkdir -p "$OB/stripped" "$OB/dbg/.build-id/${OB_BID%"${OB_BID#??}"}"
	strip -g -o "$OB/stripped/libhot.so" "$lib"
	objcopy --only-keep-debug "$lib" \
		"$OB/dbg/.build-id/${OB_BID%"${OB_BID#??}"}/${OB_BID#??}.debug"
	obj_side "$OB/gmon.out.shlibs" "$OB/stripped/libhot.so"
	(cd "$OB" && GPROF_DEBUG_DIR=/nonexistent "$GPROF" \
		--output-format=json prog gmon.out > js.json 2> js.err)
	check "objects: a stripped library's functions have no file" \
		obj_json_check "$OB/js.json" "$OB/stripped/libhot.so" -
	(cd "$OB" && GPROF_DEBUG_DIR=$OB/dbg "$GPROF" \
		--output-format=json prog gmon.out > jd.json 2> jd.err)
	check "objects: ... and their lines from the build-id debug file" \
		obj_json_check "$OB/jd.json" "$OB/stripped/libhot.so" "$OB/lib.c"
	rm "$OB/gmon.out.shlibs"

	# Without a side file, -l and -A are GNU's, byte for byte.
	if [ -x "$OBJ_GNU" ]; then
		for o in "-l -p -z" "-A"; do
			# shellcheck disable=SC2086
			(cd "$OB" && "$GPROF" -b $o prog gmon.out > t.ours 2>/dev/null
			 "$OBJ_GNU" -b $o prog gmon.out > t.gnu 2>/dev/null)
			check "objects: no side file: $o as GNU gprof's" \
				cmp "$OB/t.ours" "$OB/t.gnu"
		done
	fi
}

if ! objects_setup > "$OB/build.log" 2>&1; then
	fail "objects: a -pg program with a -pg -g shared library runs" \
		"$(tail -5 "$OB/build.log")"
else
	OB_HOT=$(obj_addr "$OB/libhot.so" hot_loop)
	OB_HELPER=$(obj_addr "$OB/libhot.so" helper)
	OB_INNER=$(obj_addr "$OB/libhot.so" inner)
	OB_MAIN=$(obj_addr "$OB/prog" main)
	OB_BID=$(readelf -n "$OB/libhot.so" | awk '/Build ID/ { print $3 }')
	OB_RATE=$(od -An -tu4 -j41 -N4 "$OB/gmon.out" | tr -d ' ')
	obj_tests
fi
