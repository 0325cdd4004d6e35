# SPDX-License-Identifier: GPL-3.0-or-later
# gmon-spec.awk: turns a gmon-gen spec template into a gmon-gen spec by
# replacing symbolic addresses with the addresses of an executable's symbols.
# usage: nm -n --defined-only PROG | awk -f gmon-spec.awk - TEMPLATE > SPEC
# In the template, a word @NAME, @NAME#K (the K-th symbol called NAME, in
# address order, for statics defined twice), optionally followed by +OFF or
# -OFF (decimal or 0x hex), stands for that address.  In a hist line
# ("hist LOW HIGH NBINS ..."), NBINS written /SIZE asks for bins of SIZE
# bytes (HIGH is rounded up to a whole number of bins), and a bin written
# @ADDR=COUNT stands for the bin that holds that address.  Everything else is copied as it is; addresses
# are printed in hex.
function hexval(s,    i, c, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (c == 0)
			break
		v = v * 16 + c - 1
	}
	return v
}
function number(s) {
	return s ~ /^0[xX]/ ? hexval(s) : s + 0
}
function hex(v,    d, r) {
	if (v == 0)
		return "0x0"
	r = ""
	while (v > 0) {
		d = v % 16
		r = substr("0123456789abcdef", d + 1, 1) r
		v = (v - d) / 16
	}
	return "0x" r
}
# The address a word @NAME[#K][+-OFF] stands for.
function resolve(w,    name, k, off, m, key) {
	name = substr(w, 2)
	off = 0
	if (match(name, /[+-](0[xX][0-9a-fA-F]+|[0-9]+)$/)) {
		off = number(substr(name, RSTART + 1))
		if (substr(name, RSTART, 1) == "-")
			off = -off
		name = substr(name, 1, RSTART - 1)
	}
	k = 1
	if (match(name, /#[0-9]+$/)) {
		k = substr(name, RSTART + 1) + 0
		name = substr(name, 1, RSTART - 1)
	}
	key = name SUBSEP k
	if (!(key in addr)) {
		printf "gmon-spec.awk: %s: no symbol %s (#%d)\n", FILENAME, name, k > "/dev/stderr"
		failed = 1
		exit 1
	}
	return addr[key] + off
}
function value(w) {
	return w ~ /^@/ ? resolve(w) : number(w)
}
NR == FNR {
	if (NF >= 3) {
		seen[$3]++
		addr[$3, seen[$3]] = hexval($1)
	}
	next
}
# Comments (from a word starting with #) are copied untouched.
{
	last = NF
	for (i = 1; i <= NF; i++)
		if ($i ~ /^#/) {
			last = i - 1
			break
		}
}
last == 0 {
	print
	next
}
$1 == "hist" && last >= 7 {
	lo = value($2); hi = value($3)
	if ($4 ~ /^\//) {
		size = number(substr($4, 2))
		n = int((hi - lo + size - 1) / size)
		hi = lo + n * size
		$4 = n
	} else
		n = number($4)
	line = "hist " hex(lo) " " hex(hi)
	for (i = 4; i <= NF; i++) {
		w = $i
		if (i >= 8 && i <= last && w ~ /^@/ && index(w, "=")) {
			a = resolve(substr(w, 1, index(w, "=") - 1))
			w = int((a - lo) * n / (hi - lo)) substr(w, index(w, "="))
		}
		line = line " " w
	}
	print line
	next
}
{
	for (i = 1; i <= last; i++)
		if ($i ~ /^@/)
			$i = hex(resolve($i))
	print
}
END {
	if (failed)
		exit 1
}
