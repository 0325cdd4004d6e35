# SPDX-License-Identifier: GPL-3.0-or-later
# deps-selftest.sh - shows that module-deps.sh and include-order.sh fail
# when they must, so that their PASS lines in make check mean something:
# a loop, an object using a later folder, a decoder used by another
# object than cg_scan.o, an include of a later folder and an include
# that skips a folder's way in, each made on purpose in a scratch tree.
# Prints one PASS:/FAIL: line per case.
#
# Usage: sh tests/tools/deps-selftest.sh
set -u

cd "$(dirname "$0")/../.." || exit 1
mkdir -p tests/tmp
T=$(mktemp -d tests/tmp/deps-selftest.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
CC=${CC:-cc}
failed=0

# obj FOLDER NAME CODE: compiles CODE into $T/FOLDER/NAME.o
obj() {
	mkdir -p "$T/$1"
	printf '%s\n' "$3" > "$T/$1/$2.c"
	"$CC" -c -o "$T/$1/$2.o" "$T/$1/$2.c" || exit 1
}

# expect NAME PATTERN COMMAND...: the command must exit 1 and print a
# FAIL line matching PATTERN.
expect() {
	name=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q "^FAIL: .*$pat"; then
		echo "PASS: deps-selftest:$name"
	else
		echo "FAIL: deps-selftest:$name (status $rc, no FAIL line matching \"$pat\")"
		printf '%s\n' "$out" | sed 's/^/    /'
		failed=1
	fi
}

obj util a 'int b(void); int a(void) { return b(); }'
obj util b 'int a(void); int b(void) { return a(); }'
expect loop "loop" sh tests/tools/module-deps.sh "$T/util/a.o" "$T/util/b.o"

obj util low 'int high(void); int low(void) { return high(); }'
obj print high 'int high(void) { return 1; }'
expect order "low.o (util) uses high.o (print)" \
	sh tests/tools/module-deps.sh -o "util print" "$T/util/low.o" "$T/print/high.o"

obj decode dec 'int dec(void) { return 1; }'
obj analysis user 'int dec(void); int user(void) { return dec(); }'
expect decode-only "which is for cg_scan.o only" \
	sh tests/tools/module-deps.sh -o "util decode analysis" -u decode:cg_scan.o \
	"$T/decode/dec.o" "$T/analysis/user.o"

mkdir -p "$T/src/util" "$T/src/print"
printf '#include "print/print.h"\n' > "$T/src/util/x.c"
expect include-later "a later folder" \
	sh tests/tools/include-order.sh "util print" "$T/src"
printf '#include "util/strbuf.h"\n' > "$T/src/util/x.c"
printf '#include "util/strbuf.h"\n' > "$T/src/print/y.c"
expect include-way-in "not the way in util/util.h" \
	sh tests/tools/include-order.sh "util print" "$T/src"
exit $failed
