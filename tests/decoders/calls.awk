# SPDX-License-Identifier: GPL-3.0-or-later
# calls.awk: the direct calls that `objdump -d --no-show-raw-insn` shows in
# .text, as "CALLER CALLEE" lines, for checking gprof -c (tests/decoders.sh).
# File `syms` has "HEXADDR NAME" for each symbol gprof knows; the caller
# is the last of them at or before the call, the callee the one starting
# exactly at the target, which must lie in the histogram [lo, hi) (hex).
# Addresses, not objdump's names, decide, since objdump and gprof may
# name a place that has several symbols differently.  isa picks what
# counts as a call:
#   aarch64  B and BL (GNU's decoder takes both)
#   arm      BL and BLX to an address, any condition
#   riscv    JAL, and JALR after AUIPC (objdump's "# ADDR <sym>"), linking
#            into ra or t0
#   ppc      BL and BLA but a BL to the next instruction; a target 8 bytes
#            into a function listed in file `local8` (ELFv2 local entry
#            point) calls that function
#   s390     BRASL and BRAS with %r14
# Addresses are kept as decimal strings ("%.0f"): exact below 2^53.
function hexval(s, v, i) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
function is_call(m, ops) {
	if (isa == "aarch64")
		return m == "bl" || m == "b"
	if (isa == "arm")
		return m ~ /^blx?(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?(\.w)?$/
	if (isa == "riscv")
		return (m == "jal" && (ops !~ /,/ || ops ~ /^(ra|t0),/)) ||
		       (m == "jalr" && ops ~ /^((ra|t0),)?-?[0-9]*\([a-z0-9]+\) # /)
	if (isa == "ppc")
		return m == "bl" || m == "bla"
	if (isa == "s390")
		return (m == "brasl" || m == "bras") && ops ~ /^%r14,/
	return 0
}
function key(v) {
	return sprintf("%.0f", v)
}
BEGIN {
	while ((getline l < syms) > 0) {
		split(l, f, " ")
		at[key(hexval(f[1]))] = f[2]
	}
	if (local8 != "")
		while ((getline n < local8) > 0)
			le8[n] = 1
	lo = hexval(lo)
	hi = hexval(hi)
}
/^Disassembly of section / { intext = $0 == "Disassembly of section .text:"; next }
/^[0-9a-f]+ <.*>:$/ {
	k = key(hexval(substr($0, 1, index($0, " ") - 1)))
	if (k in at)
		caller = at[k]
	next
}
intext && caller != "" && /^ *[0-9a-f]+:\t/ {
	line = $0
	pc = line
	sub(/:.*/, "", pc)
	sub(/^[^\t]*\t/, "", line)
	m = line
	sub(/[ \t].*/, "", m)
	ops = line
	sub(/^[^ \t]*[ \t]+/, "", ops)
	if (!is_call(m, ops) || !match(ops, /[0-9a-f]+ <[^>]+>$/))
		next
	t = substr(ops, RSTART, RLENGTH)
	addr = hexval(substr(t, 1, index(t, " ") - 1))
	if (isa == "ppc" && addr == hexval(pc) + 4)
		next
	k = key(addr)
	if (!(k in at) && isa == "ppc" && (key(addr - 8) in at) &&
	    (at[key(addr - 8)] in le8))
		k = key(addr -= 8)
	if ((k in at) && addr >= lo && addr < hi)
		print caller " " at[k]
}
