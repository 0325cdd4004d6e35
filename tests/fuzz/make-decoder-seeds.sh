#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-decoder-seeds.sh - regenerates the seed inputs of the `decoders`
# harness (fuzz_decoders.c) in tests/fuzz/corpus/decoders: a few hundred
# bytes of real code per instruction set, cut from a small program built
# with the cross compilers (linked, so calls carry real offsets) or with
# clang -c for the sets without a cross gcc (MIPS, SPARC, RV32, 32-bit
# PowerPC: unrelocated calls), plus hand-assembled Alpha and VAX code, and
# riscv64 code ending at calls of _mcount for the call-site reader.  The
# seeds are committed; this script documents how they were made.  A
# missing compiler only leaves its seeds out.
# usage: sh tests/fuzz/make-decoder-seeds.sh   (from the repository root)
set -eu
C=tests/fuzz/corpus/decoders
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p $C

le() {	# value nbytes: little-endian bytes
	le_v=$1 le_i=0
	while [ $le_i -lt "$2" ]; do
		printf "\\$(printf %03o $((le_v & 255)))"
		le_v=$((le_v >> 8)) le_i=$((le_i + 1))
	done
}
byte() { printf "\\$(printf %03o $(($1 & 255)))"; }
have() { command -v "$1" > /dev/null 2>&1; }

# Calls of every kind the decoders look for: direct, recursive, through
# a pointer; no headers, so that clang builds it for any target.
cat > "$T/s.c" <<'S'
typedef unsigned long ul;
static volatile ul sink;
__attribute__((noinline)) static ul mix(ul x)
{
	for (int i = 0; i < 3; i++)
		x = x * 6364136223846793005UL + 1;
	sink = x;
	return x;
}
__attribute__((noinline)) ul leaf(ul x) { return mix(x) ^ 5; }
__attribute__((noinline)) ul rec(ul n) { return n ? rec(n - 1) + leaf(n) : 0; }
ul (*volatile fp)(ul) = leaf;
__attribute__((noinline)) ul top(ul n) { return rec(n) + fp(n) + mix(n); }
int main(void) { return (int)top(3); }
S

hex() { printf %d "0x$1"; }
text_vma() { llvm-objdump -h "$1" | awk '$2 == ".text" { print $4 }'; }
# The lowest address of the program's own functions (bit 0, Thumb, off).
first_fn() {
	llvm-nm "$1" | awk '$3 == "leaf" || $3 == "rec" || $3 == "top" ||
	                    $3 == "main" { print $1 }' | sort | head -n 1
}

# NAME SELECTOR FLAGS FILE [marks]: a seed of up to 512 bytes of FILE's
# .text from its first function on; the header puts them at their own
# address (vma kind 3) and decodes all of them.  With "marks", the ARM
# mapping symbols inside the bytes (at most 15) go in the header.
seed() {
	name=$1 sel=$2 flags=$3 file=$4 marks=${5:-}
	llvm-objcopy -O binary --only-section=.text "$file" "$T/text"
	vma=$(hex "$(text_vma "$file")")
	start=$(( $(hex "$(first_fn "$file")") & ~1 ))
	[ "$start" -ge "$vma" ] || start=$vma
	off=$((start - vma))
	size=$(wc -c < "$T/text")
	len=$((size - off < 512 ? size - off : 512))
	: > "$T/marks"
	n=0
	if [ -n "$marks" ]; then
		llvm-nm --special-syms "$file" | awk '$3 ~ /^\$[atd]/ { print $1, substr($3, 2, 1) }' |
		sort -u > "$T/marklist"
		while read -r a k; do
			a=$(hex "$a")
			[ $a -ge $start ] && [ $a -lt $((start + len)) ] && [ $n -lt 15 ] || continue
			{ le $((a - start)) 2; case $k in a) byte 0;; t) byte 1;; *) byte 2;; esac; } >> "$T/marks"
			n=$((n + 1))
		done < "$T/marklist"
	fi
	{ byte "$sel"; byte "$flags"; le "$start" 8; le 0 2; le 0 2; byte $((n << 4))
	  cat "$T/marks"
	  dd if="$T/text" bs=1 skip="$off" count="$len" 2> /dev/null; } > "$C/$name"
}

# Flags: bit 0 big-endian, bit 1 32-bit addresses, bit 2 Thumb entry,
# 0x60 vma from the header.
cross() {	# TRIPLE NAME SELECTOR FLAGS CFLAGS... (linked with the cross gcc)
	t=$1 name=$2 sel=$3 flags=$4
	shift 4
	have "$t-gcc" || { echo "make-decoder-seeds: no $t-gcc, $name left out"; return 0; }
	"$t-gcc" "$@" -o "$T/$name" "$T/s.c"
	seed "$name" "$sel" "$flags" "$T/$name" ${MARKS:-}
}
object() {	# TARGET NAME SELECTOR FLAGS CFLAGS... (clang -c)
	t=$1 name=$2 sel=$3 flags=$4
	shift 4
	clang --target="$t" -ffreestanding "$@" -c -o "$T/$name.o" "$T/s.c" ||
		{ echo "make-decoder-seeds: clang cannot build for $t, $name left out"; return 0; }
	seed "$name" "$sel" "$flags" "$T/$name.o"
}

cc -O0 -o "$T/x86_64-O0" "$T/s.c" && seed x86_64-O0 0 0x60 "$T/x86_64-O0"
cc -O2 -o "$T/x86_64-O2" "$T/s.c" && seed x86_64-O2 0 0x60 "$T/x86_64-O2"
object i386-linux-gnu i386-O2 0 0x62 -O2
cross aarch64-linux-gnu aarch64-O2 1 0x60 -O2
cross aarch64-linux-gnu aarch64-O0 1 0x60 -O0
object mips-linux-gnu mips-O2 2 0x63 -O2 -fno-pic -mno-abicalls
object mipsel-linux-gnu mipsel-O0 2 0x62 -O0
object sparc-linux-gnu sparc-O2 4 0x63 -O2 -fintegrated-as
MARKS=marks cross arm-linux-gnueabihf arm-a32-O2 6 0x62 -O2 -marm
MARKS=marks cross arm-linux-gnueabihf arm-thumb-O2 6 0x66 -O2 -mthumb
cross arm-linux-gnueabihf arm-thumb-nomarks-O0 6 0x66 -O0 -mthumb
cross riscv64-linux-gnu riscv64-O2 7 0x60 -O2
cross riscv64-linux-gnu riscv64-norelax-O2 7 0x60 -O2 -mno-relax
object riscv32-unknown-elf riscv32c-O2 7 0x62 -O2 -march=rv32imac
cross powerpc64le-linux-gnu ppc64le-O2 8 0x60 -O2
cross powerpc64le-linux-gnu ppc64le-O0 8 0x60 -O0
object powerpc-linux-gnu ppc32-O2 8 0x63 -O2
cross s390x-linux-gnu s390x-O2 9 0x61 -O2
cross s390x-linux-gnu s390x-O0 9 0x61 -O0

# Alpha (selector 3), from the Alpha Architecture Handbook: bsr ra, +4
# words; jsr ra, (pv); bsr ra, -3 words; br; ret.
{ byte 3; byte 0x60; le $((0x120000000)) 8; le 0 2; le 0 2; byte 0
  for w in 0xd3400004 0x6b5b4000 0xd35ffffd 0xc3e00001 0x6bfa8001; do le $((w)) 4; done
} > $C/alpha-hand
# VAX (selector 5), from the VAX Architecture Reference Manual: calls $0
# with a long PC-relative, a long deferred, a register deferred, a byte
# and a word displacement target; an immediate argument count; ret.
{ byte 5; byte 0x62; le $((0x1000)) 8; le 0 2; le 0 2; byte 0
  for b in 0xfb 0x00 0xef 0x10 0x00 0x00 0x00  0xfb 0x01 0xff 0x00 0x00 0x00 0x00 \
           0xfb 0x02 0x61  0xfb 0x00 0xaf 0xf0  0xfb 0x00 0xcf 0x00 0x01 \
           0xfb 0x8f 0x03 0x00 0x00 0x00 0xef 0xe0 0xff 0xff 0xff  0x04; do
	byte $((b))
  done
} > $C/vax-hand

# The riscv64 call-site reader (selector 10): code from a program's
# first function on, and two of its calls of _mcount (return addresses,
# as offsets / 2).  Flags: bits 0-1 the s0 the hook gets (0 valid).
# NAME FILE FLAGS: calls from objdump, "<_mcount" (linked) or an
# R_RISCV_CALL relocation against _mcount (clang -c).
rvseed() {
	name=$1 file=$2 flags=$3
	llvm-objcopy -O binary --only-section=.text "$file" "$T/text"
	vma=$(hex "$(text_vma "$file")")
	start=$(( $(hex "$(first_fn "$file")") ))
	off=$((start - vma))
	size=$(wc -c < "$T/text")
	len=$((size - off < 1024 ? size - off : 1024))
	riscv64-linux-gnu-objdump -dr "$file" | awk '
		/^ *[0-9a-f]+:.*<_mcount/ { split($1, a, ":"); n = 0
			for (i = 2; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) n++
			if (n == 0) n = length($2) / 2
			print a[1], n; next }
		/R_RISCV_CALL.*_mcount/ { split($1, a, ":"); print a[1], 8 }' > "$T/sites"
	set -- $(while read -r a n; do
		r=$(( $(hex "$a") + n - start ))
		[ $r -gt 0 ] && [ $r -le $len ] && echo $((r / 2))
	done < "$T/sites" | head -n 2) 0 0
	{ byte 10; byte "$flags"; le "$1" 2; le "$2" 2; byte 0
	  dd if="$T/text" bs=1 skip="$off" count="$len" 2> /dev/null; } > "$C/$name"
}
if have riscv64-linux-gnu-gcc; then
	riscv64-linux-gnu-gcc -pg -O2 -o "$T/rv-pg-O2" "$T/s.c"
	rvseed rvsites-gcc-O2 "$T/rv-pg-O2" 0
	riscv64-linux-gnu-gcc -pg -O0 -o "$T/rv-pg-O0" "$T/s.c"
	rvseed rvsites-gcc-O0 "$T/rv-pg-O0" 0
	rvseed rvsites-gcc-O0-bad-s0 "$T/rv-pg-O0" 2
fi
if have riscv64-linux-gnu-objdump &&
   clang --target=riscv64-linux-gnu -ffreestanding -pg -O2 -c -o "$T/rv-clang.o" "$T/s.c"; then
	rvseed rvsites-clang-O2 "$T/rv-clang.o" 0
fi

# The call-site reader of decode/call_site.c (selector 11): the same
# code, with the return address of one of its calls (the address of the
# instruction after it, from llvm-objdump).  Header: selector, the reader
# (0 x86, 1 aarch64, 2 arm, 3 riscv, 4 ppc, 5 s390), flags (bit 0
# big-endian, bit 1 32-bit, 0x0c vma from raw, return address inside the
# text), raw (the code's address), the return address's offset.
# NAME READER FLAGS FILE: up to three seeds, NAME-1..3, for the first
# calls (direct or not) in the code.
siteseed() {
	name=$1 rd=$2 flags=$3 file=$4
	llvm-objcopy -O binary --only-section=.text "$file" "$T/text"
	vma=$(hex "$(text_vma "$file")")
	start=$(( $(hex "$(first_fn "$file")") & ~1 ))
	[ "$start" -ge "$vma" ] || start=$vma
	off=$((start - vma))
	size=$(wc -c < "$T/text")
	len=$((size - off < 512 ? size - off : 512))
	llvm-objdump -d --no-show-raw-insn "$file" | awk '
		/^ *[0-9a-f]+:/ { split($1, a, ":")
			if (call) print a[1]
			call = $2 ~ /^(call|callq|calll|bl|blr|blx|jal|jalr|bctrl|brasl|bras|basr)$/ }' > "$T/rets"
	i=0
	while read -r r; do
		r=$(( $(hex "$r") - start ))
		[ $r -gt 0 ] && [ $r -le $len ] && [ $i -lt 3 ] || continue
		i=$((i + 1))
		{ byte 11; byte "$rd"; byte "$flags"; le "$start" 8; le $r 2
		  dd if="$T/text" bs=1 skip="$off" count="$len" 2> /dev/null; } > "$C/site-$name-$i"
	done < "$T/rets"
}
[ -f "$T/x86_64-O2" ] && siteseed x86_64-O2 0 0x0c "$T/x86_64-O2"
[ -f "$T/x86_64-O0" ] && siteseed x86_64-O0 0 0x0c "$T/x86_64-O0"
[ -f "$T/i386-O2.o" ] && siteseed i386-O2 0 0x0e "$T/i386-O2.o"
[ -f "$T/aarch64-O2" ] && siteseed aarch64-O2 1 0x0c "$T/aarch64-O2"
[ -f "$T/arm-a32-O2" ] && siteseed arm-a32-O2 2 0x0e "$T/arm-a32-O2"
[ -f "$T/arm-thumb-O2" ] && siteseed arm-thumb-O2 2 0x0e "$T/arm-thumb-O2"
[ -f "$T/riscv64-O2" ] && siteseed riscv64-O2 3 0x0c "$T/riscv64-O2"
[ -f "$T/riscv64-norelax-O2" ] && siteseed riscv64-norelax-O2 3 0x0c "$T/riscv64-norelax-O2"
[ -f "$T/ppc64le-O2" ] && siteseed ppc64le-O2 4 0x0c "$T/ppc64le-O2"
[ -f "$T/ppc32-O2.o" ] && siteseed ppc32-O2 4 0x0f "$T/ppc32-O2.o"
[ -f "$T/s390x-O2" ] && siteseed s390x-O2 5 0x0d "$T/s390x-O2"
[ -f "$T/s390x-O0" ] && siteseed s390x-O0 5 0x0d "$T/s390x-O0"
# By hand: x86-64 call *0x10(%rip) and a return address 2 bytes before
# the text (flags 0x40) and 3 past its end (0x60).
{ byte 11; byte 0; byte 0x0c; le $((0x401000)) 8; le 6 2
  for b in 0xff 0x15 0x10 0x00 0x00 0x00 0xe8 0x00 0x00 0x00 0x00; do byte $((b)); done
} > $C/site-x86-hand
{ byte 11; byte 0; byte 0x4c; le $((0x401000)) 8; le 2 2; byte $((0xe8)); le 0 4; } > $C/site-x86-before
{ byte 11; byte 5; byte 0x6d; le $((0x1000)) 8; le 3 2
  for b in 0xc0 0xe5 0x00 0x00 0x00 0x10; do byte $((b)); done
} > $C/site-s390-after
ls $C | wc -l | sed 's/$/ seeds/'
