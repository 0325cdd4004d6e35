#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-seeds.sh - regenerates the hand-made seed inputs of tests/fuzz/corpus
# (GNU files through tests/tools/gmon-gen.c, BSD files byte by byte).  The
# seeds are committed; this script documents how they were made.
# Addresses are those of tests/fuzz/prog (spin 0x11d9, even 0x1222,
# odd 0x126a, leaf 0x12b2, middle 0x12da, top 0x1323, main 0x13c5).
# usage: sh tests/fuzz/make-seeds.sh   (from the repository root)
set -eu
C=tests/fuzz/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cc -O1 -o "$T/gmon-gen" tests/tools/gmon-gen.c
gen() { "$T/gmon-gen" "$@"; }

# Little-endian fields as octal-escaped printf strings.
le() {	# value nbytes
	v=$1 n=$2 i=0
	while [ $i -lt "$n" ]; do
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) i=$((i + 1))
	done
}
opt() { printf "\\$(printf %03o "$1")"; }

mkdir -p $C/gmon $C/pipeline
# gmon: option byte, then profile files separated by FZSP.
{ opt 0; cat tests/fuzz/gmon.out; } > $C/gmon/prog-gnu
gen "$T/bb" <<'S'
hist 0x1000 0x1468 16 100 seconds s 3=7 9=65535
arc 0x1323 0x1222 5
arc 0x1222 0x126a 4
arc 0x126a 0x1222 3
bb 0x11d9 10 0x11e0 20 0x1222 30 0x12b2 0
S
{ opt 4; cat "$T/bb"; } > $C/gmon/gnu-bb-line
{ opt 64; cat "$T/bb"; printf FZSP; cat "$T/bb"; } > $C/gmon/gnu-two-files-info
gen -4 "$T/g4" <<'S'
hist 0x1000 0x1468 8 1000 seconds s 1=2
arc 0x13c5 0x1323 0xffffffff
arc 0x13c5 0x1323 0xffffffff
S
{ opt 8; cat "$T/g4"; } > $C/gmon/gnu-32bit
gen -B "$T/gb" <<'S'
hist 0x1000 0x1468 4 60 ticks t 0=1 3=2
arc 0x12da 0x12b2 9
S
{ opt 16; cat "$T/gb"; } > $C/gmon/gnu-big-endian
gen "$T/v0" <<'S'
version 0
hist 0x1190 0x1400 2 100 seconds s 0=1 1=1
hist 0x1400 0x1468 2 100 seconds s 1=3
S
{ opt 1; cat "$T/v0"; } > $C/gmon/gnu-version0-two-hists
# Old BSD: lowpc, highpc, ncnt (header + bins bytes); bins; arcs (from, self, count).
{ opt 2; le 4096 8; le 5224 8; le $((20 + 8)) 4
  le 1 2; le 0 2; le 5 2; le 65535 2
  le 4899 8; le 4642 8; le 7 8; le 4642 8; le 4714 8; le 4294967296 8; } > $C/gmon/bsd-old
# 4.4BSD: lowpc, highpc, ncnt, version, rate, 12 spare bytes.
{ opt 3; le 4096 8; le 5224 8; le $((40 + 8)) 4; le $((0x51879)) 4; le 1000 4
  le 0 4; le 0 4; le 0 4
  le 3 2; le 0 2; le 0 2; le 1 2
  le 5061 8; le 4899 8; le 40 8; } > $C/gmon/bsd44
{ opt 0; le 4096 8; le 5224 8; le $((40 + 4)) 4; le $((0x51879)) 4; le 100 4
  le 0 4; le 0 4; le 0 4; le 3 2; le 1 2
  printf FZSP; le 4096 8; le 5224 8; le $((40 + 4)) 4; le $((0x51879)) 4; le 100 4
  le 0 4; le 0 4; le 0 4; le 65535 2; le 65535 2; } > $C/gmon/bsd44-auto-two-files

# pipeline: option-set byte, profile, then FZSP and a second profile or
# the -R/-S file.
i=0
while [ $i -lt 22 ]; do
	{ opt $i; cat tests/fuzz/gmon.out; } > $C/pipeline/prog-set$i
	i=$((i + 1))
done
cat > "$T/map" <<'S'
a.o:0000000000000049 T even
a.o:0000000000000091 T odd
b.o:0000000000000101 T middle
b.o:000000000000014a T top
No symbols in c.o
d.o:00000000000001ec T main
S
nm tests/fuzz/prog > "$T/nm"
{ opt 5; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/map"; } > $C/pipeline/map-R
{ opt 6; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/nm"; } > $C/pipeline/nm-S
{ opt 13; tail -c +2 $C/gmon/bsd-old; } > $C/pipeline/bsd-old-sum
{ opt 14; tail -c +2 $C/gmon/bsd44; } > $C/pipeline/bsd44-sum
{ opt 16; cat "$T/bb"; } > $C/pipeline/bb-line-sum
{ opt 8; cat "$T/bb"; } > $C/pipeline/bb-exec-counts
{ opt 2; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/bb"; } > $C/pipeline/two-profiles-sum
# --clones (sets 36-40): the program alone, and an -S file naming
# compiler clones of its functions
{ opt 36; cat tests/fuzz/gmon.out; } > $C/pipeline/prog-set36
{ opt 37; cat tests/fuzz/gmon.out; } > $C/pipeline/prog-set37
{ cat "$T/nm"; printf '%s\n' '00000000000012ca t leaf.cold' \
	'0000000000001290 t odd.isra.0' '00000000000013a0 t top.constprop.0' \
	'00000000000011f0 t spin.part.0' '0000000000001240 t even.lto_priv.0'
} > "$T/nm-clones"
{ opt 38; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/nm-clones"; } > $C/pipeline/clones-S-merge-diagnose
{ opt 39; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/nm-clones"; } > $C/pipeline/clones-S-separate
{ opt 40; cat tests/fuzz/gmon.out; printf FZSP; cat "$T/nm-clones"; } > $C/pipeline/clones-S-gnu-i

mkdir -p $C/mapfile $C/extsym $C/symspec $C/bbconv
cp "$T/map" $C/mapfile/map
printf 'x.o:1 T f\nx.o:2 T g\ny.o:3 T f\nz.o:4 T :\n' > $C/mapfile/dup-names
cp "$T/nm" $C/extsym/prog-nm
printf '0000000000001222 T even\n0000000000001222 t even_alias\n00000000000011d9 t spin\nffffffffffffffff T top\n' > $C/extsym/dups
# symspec: option byte, then lines of table-byte + spec ('0'..'9', ':', ';'
# are tables 0..11).
printf '\0010even\n1odd\n2even/odd\n3top/middle\n4prog.c\n5prog.c:spin\n6prog.c:30\n7:main\n8leaf\n9spin\n:middle\n;prog.c:33\n' > $C/symspec/all-tables
printf '\0032main/spin\n2:even/prog.c:odd\n4prog.c:20\n' > $C/symspec/arcs-line
printf '\0050spin\n1spin\n0prog.c\n' > $C/symspec/incl-excl
{ opt 0; cat <<'S'
File prog.c, 3 basic blocks
Block #1: executed 10 time(s) address= 0x11d9 function= spin
Block #2: executed 4294967296 time(s) address= 0x11e0 function= spin
Block #3: executed 0 time(s) address= 0x1222 function= even
File other.c, 2 basic blocks
Block #1: executed 5 time(s) address= 0x12b2 function= leaf
S
} > $C/bbconv/two-files
{ printf '\001'; cat <<'S'
File a.c, 1 basic blocks
Block #1: executed 1 time(s) address= 0x12da function= middle
Block #2: executed 2 time(s) address= 0x12db function= middle
Block #0: executed 3 time(s) address= 0x1300
S
} > $C/bbconv/miscount-32bit
# shlibs: side files (tests/tools/gmsl-gen.c).  Clock 2 and up run the
# whole tool too, "prog" naming tests/fuzz/prog as a library.
cc -O1 -o "$T/gmsl-gen" tests/tools/gmsl-gen.c
sl() { "$T/gmsl-gen" "$C/shlibs/$1"; }
mkdir -p $C/shlibs
sl basic <<'S'
header 100 0
object 0 0x5555 0x1000 0x2000 /tmp/prog 0102030405060708
object 1 0x7f00 0x1100 0x1300 /usr/lib/libx.so.1 a1b2c3d4e5f60718
object 7 0 0 0x1000 [vdso] -
samples 1 0x1120 5 0x1200 3 0x1120 2
samples 7 0x10 1
arcs 0 0x1010 1 0x1120 40 1 0x1120 1 0x1200 7 1 0x1200 0 0x1400 2
S
sl unknown-tag <<'S'
header 1000 1
raw 99 auto 00112233
object 0 0 0 0 a -
samples 0 0x10 0xffffffff 0x10 0xffffffff
arcs 0 1 0 2 0xffffffffffffffff 0 1 0 2 0xffffffffffffffff
S
echo 'header 100 0' | sl empty
sl bad-len <<'S'
header 100 0
object 3 0 0 0 lib -
raw 2 20 03000000020000000000000000000000
S
sl model-prog-as-lib <<'S'
header 100 2
object 0 0 0x1000 0x1468 prog -
object 1 0x7f0000000000 0x1000 0x1468 prog -
object 2 0 0 0x1000 [vdso] -
object 3 0 0x1000 0x2000 /nonexistent/libnone.so 0102
samples 1 0x11e0 30 0x1230 20 0x12b4 7 0x5000 2
samples 2 0x10 3
samples 3 0x10 3
arcs 0 0x13d0 1 0x1323 4 1 0x1330 1 0x1222 9 1 0x1230 0 0x126a 2 1 0x1230 3 0x10 1 0 0x13d0 0 0x1323 5
S
for ck in 6 10 14 18 22 26 30; do
	sl model-set$ck <<S
header 100 $ck
object 0 0 0x1000 0x1468 prog -
object 1 0x7f0000000000 0x1000 0x1468 prog -
object 2 0 0 0x1000 [vdso] -
samples 1 0x11e0 30 0x1230 20 0x12b4 7 0x5000 2
samples 2 0x10 3
arcs 0 0x13d0 1 0x1323 4 1 0x1330 1 0x1222 9 1 0x1230 0 0x126a 2
S
done
sl model-rate <<'S'
header 1000 2
object 1 0 0x1000 0x1468 prog -
samples 1 0x11e0 30
S
sl model-badbid <<'S'
header 100 2
object 1 0 0x1000 0x1468 prog 00112233
samples 1 0x11e0 30
arcs 1 0x1230 1 0x1222 9
S
# CPU times (PTIMES, TTIMES): records to read, sum and print, and
# counts near their limit.
for ck in 0 2 46; do
	sl times$ck <<S
header 100 $ck
object 0 0 0x1000 0x1468 prog -
thread 0 42 main
thread 1 43 w
stacks 0 5 0 0:0x11e0,0:0x13d4
ptimes 3000000000 1000000000 5000000000
ttimes 0 0 1000000000 2 3
ttimes 1 3 0xffffffffffffffff 2 3
ptimes 1 2 0xfffffffffffffff0
ttimes 0 1 1 2 3
S
done
echo "make-seeds: done"
