# SPDX-License-Identifier: GPL-3.0-or-later
# reliability/executables.sh: damaged executables give the same exit status
# and output as GNU gprof, never a crash: truncated at several lengths,
# stripped, without .text, with bogus symbol sizes, values and names, a
# .strtab without NUL, garbage debug sections, sections past the end of the
# file or of a huge size (byte patches at offsets found with readelf; skipped
# without strip, objcopy and readelf).  And the executables of
# tests/fuzz/gnu-crashes/exec/, on which GNU gprof 2.40 hangs or crashes,
# give a clear error here.  Sourced by tests/reliability.sh after common.sh.
# (rc is set by the runners of common.sh.)
# shellcheck disable=SC2154

size=$(wc -c < "$PROG")
for n in 0 16 64 4096 $((size / 2)) $((size - 1)); do
	head -c "$n" "$PROG" > "$T/trunc$n"
	like_gnu "truncated-exe-$n" -b "trunc$n" "$GMON"
done

if command -v strip >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1 &&
   command -v readelf >/dev/null 2>&1; then
	strip -o "$T/stripped" "$PROG"
	like_gnu stripped-exe -b stripped "$GMON"
	objcopy --remove-section .text "$PROG" "$T/notext"
	like_gnu no-text-section -b notext "$GMON"

	# Byte patches at ELF offsets found with readelf.
	put() {	# file offset value nbytes
		le "$3" "$4" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	}
	fill() {	# file offset length byte
		head -c "$3" /dev/zero | tr '\0' "\\$(printf %03o "$4")" |
			dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
	}
	secinfo() {	# name -> "offset size"
		readelf -SW "$PROG" | sed 's/^ *\[ *[0-9]*\]//' |
			awk -v n="$1" '$1 == n { print $4, $5 }' |
			{ read -r o s; echo $((0x$o)) $((0x$s)); }
	}
	secidx() { readelf -SW "$PROG" | sed -n "s/^ *\[ *\([0-9]*\)\] $1 .*/\1/p"; }
	shoff=$(od -A n -t u8 -j 40 -N 8 "$PROG" | tr -d ' ')

	set -- $(secinfo .symtab)
	so=$1 ssz=$2
	cp "$PROG" "$T/bigsize"; cp "$PROG" "$T/badval"; cp "$PROG" "$T/badname"
	i=1
	while [ $((i * 24)) -lt "$ssz" ]; do
		fill "$T/bigsize" $((so + i * 24 + 16)) 8 255
		[ $((i % 3)) = 1 ] && fill "$T/badval" $((so + i * 24 + 8)) 8 $((i * 37 % 256))
		[ $((i % 2)) = 1 ] && fill "$T/badname" $((so + i * 24)) 4 $((i * 91 % 256))
		i=$((i + 1))
	done
	like_gnu bogus-symbol-sizes -b bigsize "$GMON"
	like_gnu bogus-symbol-sizes-l -b -l bigsize "$GMON"
	like_gnu bogus-symbol-values -b badval "$GMON"
	like_gnu bogus-symbol-names -b badname "$GMON"
	set -- $(secinfo .strtab)
	cp "$PROG" "$T/nonul"; fill "$T/nonul" "$1" "$2" 65
	like_gnu strtab-without-nul -b nonul "$GMON"
	set -- $(secinfo .debug_info)
	cp "$PROG" "$T/baddbg"; fill "$T/baddbg" $(($1 + 12)) $(($2 - 12)) 255
	like_gnu garbage-debug-info-l -b -l baddbg "$GMON"
	like_gnu garbage-debug-info-A -b -A baddbg "$GMON"
	set -- $(secinfo .debug_line)
	cp "$PROG" "$T/badline"; fill "$T/badline" $(($1 + 8)) $(($2 - 8)) 7
	like_gnu garbage-debug-line-l -b -l badline "$GMON"
	like_gnu garbage-debug-line-C -b -l -C badline "$GMON"
	for s in .symtab .strtab .text .debug_info .debug_line; do
		h=$((shoff + $(secidx $s) * 64))
		cp "$PROG" "$T/past$s"; put "$T/past$s" $((h + 24)) $((size - 8)) 8
		like_gnu "section-past-eof$s" -b "past$s" "$GMON"
		[ $s = .text ] && continue        # GNU hangs with -l: below
		cp "$PROG" "$T/huge$s"; put "$T/huge$s" $((h + 32)) $((0x7fffffffffff)) 8
		like_gnu "section-huge-size$s" -b -l "huge$s" "$GMON"
	done
else
	skip damaged-executables "strip, objcopy or readelf missing"
fi

# Inputs on which GNU gprof 2.40 hangs or crashes: a clear error here.
for f in tests/fuzz/gnu-crashes/exec/*; do
	[ -f "$f" ] || continue
	name=gnu-crash-$(basename "$f")
	for opt in -l -s; do
		ours "$name" -b "$opt" "$ROOT/$f" "$GMON"
		if crashed "$name"; then
			fail "$name$opt" "status $rc"
		elif [ "$rc" = 1 ] && grep -q "$(basename "$f")" "$T/$name.err"; then
			pass "$name$opt"
		else
			fail "$name$opt" "status $rc, $(head -c 200 "$T/$name.err")"
		fi
	done
done
