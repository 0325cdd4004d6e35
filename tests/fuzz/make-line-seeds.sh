#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-line-seeds.sh - regenerates the seed executables of the `lines`
# harness (tests/fuzz/corpus/lines) from tests/fuzz/lineprog.c: gcc -g at
# -O2 (DWARF 5 and 4, compressed debug sections, not PIE), at -O0 and -O1,
# a split-DWARF build (which the bounds reader declines), and clang -O2
# when clang is there.  The seeds are committed; this script documents
# how they were made (the bytes depend on the compiler version).
# usage: sh tests/fuzz/make-line-seeds.sh   (from the repository root)
set -eu
C=tests/fuzz/corpus/lines
S=tests/fuzz/lineprog.c
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p $C
cp $S "$T/lineprog.c"
build() {	# name compiler flags...
	name=$1 cc=$2
	shift 2
	(cd "$T" && $cc "$@" -fdebug-prefix-map="$T"=/src -Wl,--build-id=none \
		-o "$name" lineprog.c)
	cp "$T/$name" "$C/seed-$name"
	chmod 644 "$C/seed-$name"
}
build gcc-O2 gcc -g -O2
build gcc-O2-dwarf4 gcc -g -O2 -gdwarf-4
build gcc-O2-gz gcc -g -O2 -gz
build gcc-O2-nopie gcc -g -O2 -no-pie -fno-pie
build gcc-O0 gcc -g -O0
build gcc-O1-dwarf4-gz gcc -g -O1 -gdwarf-4 -gz
build gcc-O2-split gcc -g -O2 -gsplit-dwarf
if command -v clang > /dev/null; then
	build clang-O2 clang -g -O2
fi
ls -l $C
