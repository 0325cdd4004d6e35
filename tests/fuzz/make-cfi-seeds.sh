#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-cfi-seeds.sh: writes the seeds of the `cfi` harness (fuzz_cfi.c)
# to tests/fuzz/corpus/cfi/: real signal contexts of a small program
# (tests/fuzz/cfi_seedprog.c, x86-64) with its image and stack, taken in
# its own SIGPROF handler.  Run from the top of the tree.
set -eu
d=tests/fuzz/corpus/cfi
mkdir -p "$d"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-gcc} -O2 -fno-omit-frame-pointer -o "$tmp/seedprog" tests/fuzz/cfi_seedprog.c
"$tmp/seedprog" "$d"
find "$d" -type f | wc -l
