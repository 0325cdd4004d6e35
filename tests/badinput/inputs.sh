# SPDX-License-Identifier: GPL-3.0-or-later
# badinput/inputs.sh: byte writers for the bad-input cases (sourced by
# tests/badinput.sh): little-endian integers (the fixture's byte order),
# reading and patching a field of a file, zero padding, and the headers of
# GNU, old-BSD and 4.4BSD profile files.  printf, head, dd and od only.

# shellcheck disable=SC2059
byte() { printf "\\$(printf %o $(($1 & 255)))"; }
le16() { byte "$1"; byte $(($1 >> 8)); }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
le64() { le32 $(($1 & 4294967295)); le32 $((($1 >> 32) & 4294967295)); }
# Unsigned integer of $3 bytes at offset $2 of file $1.
field() { od -A n -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' \n'; }
# Overwrite 2 bytes of file $1 at offset $2 with the value $3.
poke16() { le16 "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# $1 zero bytes.
zeros() { head -c "$1" /dev/zero; }
# GNU gmon header, version $1.
gnu_header() { printf 'gmon'; le32 "$1"; zeros 12; }
# Old-BSD file (64-bit): lowpc $1, highpc $2, $3 bins, a few of them set.
bsd_file() {
	le64 "$1"; le64 "$2"; le32 $((20 + $3 * 2)); zeros $(($3 * 2))
}
bsd44_file() {
	le64 "$1"; le64 "$2"; le32 $((40 + $3 * 2)); le32 $((0x51879)); le32 "$4"
	zeros 12; zeros $(($3 * 2))
}
