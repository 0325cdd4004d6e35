# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/hooknames.sh: gprof knows every function of libgmon's
# call-counting path as the profiling hook (sourced by tests/libgmon.sh).
# The text symbols that the recorder (record.o) and the hooks (stubs-*.o,
# and riscv64's arch-riscv64.o) define in every build of the runtime,
# with the slow-path dispatcher, are given one sample each in a profile
# made up for them (tests/tools/gmon-gen.c, the names through -S): gprof
# must count every one of those samples as the hook's, and a sample of a
# function of another name as the program's.  A function added to that
# path under a name gprof does not know (src/symbols/sym_ids.c) fails
# here.  (The compiler's own i386 helpers, __x86.get_pc_thunk.*, are
# shared with the program and left out.)
# shellcheck shell=sh

HN=$W/hooknames
mkdir -p "$HN"
_hn_names=$(for _d in "$ROOT"/build/libgmon/*/; do
	for _o in "${_d}record.o" "$_d"stubs-*.o "${_d}arch-riscv64.o"; do
		[ -f "$_o" ] && nm --defined-only "$_o"
	done
	[ -f "${_d}lifecycle.o" ] && nm --defined-only "${_d}lifecycle.o" |
		grep ' __gmon_'
done 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TtWw]$/ { print $3 }' |
	grep -v '^__x86\.get_pc_thunk' | sort -u)
if [ -z "$_hn_names" ] ||
   ! ${CC:-cc} -O -o "$HN/gmon-gen" "$ROOT/tests/tools/gmon-gen.c"; then
	fail "hooknames: the runtime's objects" "no objects in build/libgmon, or no gmon-gen"
else
	# one function every 64 bytes from 0x1000, each with a sample in its
	# second 4-byte bin, then one of another name, then the end
	_hn_i=0
	: > "$HN/syms"
	_hn_bins=
	for _n in $_hn_names other_function; do
		printf '%016x T %s\n' $((0x1000 + _hn_i * 64)) "$_n" >> "$HN/syms"
		_hn_bins="$_hn_bins $((_hn_i * 16 + 1))=1"
		_hn_i=$((_hn_i + 1))
	done
	printf '%016x T zz_end\n' $((0x1000 + _hn_i * 64)) >> "$HN/syms"
	echo "hist 0x1000 $((0x1000 + _hn_i * 64)) $((_hn_i * 16)) 100 seconds s$_hn_bins" |
		"$HN/gmon-gen" "$HN/gmon.out"
	if "$OUR_GPROF" -S "$HN/syms" --output-format=json "$ROOT/tests/fixtures/cycle-O2/prog" \
		"$HN/gmon.out" > "$HN/json" 2> "$HN/err" &&
	   python3 - "$HN/json" $((_hn_i - 1)) <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["summary"]["totals"]
n = int(sys.argv[2])
sys.exit(not (round(t["hook_seconds"] * 100) == n and
              round(t["shown_seconds"] * 100) == 1 and
              round(t["samples"]) == n + 1))
PY
	then
		pass "hooknames: the recorder's and the hooks' $((_hn_i - 1)) functions are the hook"
	else
		fail "hooknames: the recorder's and the hooks' functions are the hook" \
			"names: $(echo $_hn_names)" "$(cat "$HN/err")" \
			"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["totals"])' "$HN/json" 2>&1)"
	fi
fi
