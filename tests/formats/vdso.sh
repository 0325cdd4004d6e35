# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/vdso.sh: samples in the kernel's vDSO (sourced by
# tests/formats.sh, which gives $GPROF, $FIXTURES, $WORK and the helpers).
# vdso-prog.c, built without -pg, reads the clock in a loop: linked with
# libgmon (GMON_SHLIBS=1 GMON_STACKS=1) and run under gprof-run, its
# side file names the vDSO with this kernel's build-id, and gprof (which
# runs on the same kernel) names the vDSO's functions (__vdso_clock_gettime
# or the architecture's __kernel_ name) in object "[vdso]", without a
# warning.  Generated side files naming a vDSO of another kernel (a
# foreign build-id, or none) under each of the loader's names give one
# "[vdso]" row with all of its samples, quietly.

VD=$WORK/vdso
mkdir -p "$VD"
_v_lib=$ROOT/src/libgmon

# vd_quiet FILE: FILE (stderr) has nothing but diagnosis lines.
vd_quiet() { ! grep -v ': diagnosis: ' "$1" | grep -q .; }

# vd_named DIR NAME: gprof's flat profile and JSON of the run in DIR name
# a vDSO function in object [vdso], with no warning.
vd_named() {
	_v_d=$1 _v_n=$2
	if "$GPROF" -b -p "$_v_d/prog" "$_v_d/gmon.out" > "$_v_d/flat" 2> "$_v_d/flat.err" &&
	   vd_quiet "$_v_d/flat.err" &&
	   grep -Eq ' __(vdso|kernel)_[a-z_]*gettime[a-z0-9_]*$' "$_v_d/flat" &&
	   "$GPROF" --output-format=json "$_v_d/prog" "$_v_d/gmon.out" \
		> "$_v_d/json" 2> "$_v_d/json.err" && vd_quiet "$_v_d/json.err" &&
	   python3 - "$_v_d/json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert any(o["path"] == "[vdso]" for o in d["objects"]), d["objects"]
rows = [f for f in d["flat_profile"] if f["object"] == "[vdso]"]
assert rows and all(re.match(r"__(vdso|kernel)_", f["name"]) for f in rows), rows
assert sum(f["self_samples"] for f in rows) > 0
PY
	then
		pass "vdso: $_v_n: the vDSO's functions named, no warning"
	else
		fail "vdso: $_v_n: the vDSO's functions named, no warning" \
			"$(cat "$_v_d/flat.err" "$_v_d/json.err" 2>/dev/null | head -5)" \
			"$(head -12 "$_v_d/flat" 2>/dev/null)"
	fi
}

# vd_has_vdso DIR: the run's side file names a vDSO (a kernel without
# one, or an emulator, gives it none: nothing to test).
vd_has_vdso() { grep -Eaq 'linux-(vdso|vdso64|gate)\.so\.1' "$1/gmon.out.shlibs"; }

# Linked with libgmon.a, stacks on: --stacks goes through the vDSO too.
mkdir -p "$VD/linked"
if ${CC:-cc} -O2 -g -o "$VD/linked/prog" "$TESTS_DIR/formats/vdso-prog.c" \
	-Wl,-u,_mcleanup -L"$_v_lib" -lgmon -pthread &&
   (cd "$VD/linked" && GMON_SHLIBS=1 GMON_STACKS=1 ./prog) &&
   [ -f "$VD/linked/gmon.out.shlibs" ]; then
	if vd_has_vdso "$VD/linked"; then
		vd_named "$VD/linked" "libgmon.a"
		if "$GPROF" -b --stacks "$VD/linked/prog" "$VD/linked/gmon.out" \
			> "$VD/linked/cg" 2> "$VD/linked/cg.err" &&
		   vd_quiet "$VD/linked/cg.err" &&
		   grep -Eq ' __(vdso|kernel)_[a-z_]*gettime[a-z0-9_]* \[[0-9]+\]$' "$VD/linked/cg"; then
			pass "vdso: --stacks: the vDSO's function in the call graph"
		else
			fail "vdso: --stacks: the vDSO's function in the call graph" \
				"$(head -3 "$VD/linked/cg.err")"
		fi
	else
		echo "SKIP: vdso: libgmon.a (no vDSO in this process)"
	fi
else
	fail "vdso: the program linked with libgmon.a ran"
fi

# The unmodified program under the preloaded runtime.
mkdir -p "$VD/preload"
if [ -x "$_v_lib/gprof-run" ] && [ -f "$_v_lib/libgmon-preload.so" ]; then
	if ${CC:-cc} -O2 -g -o "$VD/preload/prog" "$TESTS_DIR/formats/vdso-prog.c" &&
	   (cd "$VD/preload" && "$_v_lib/gprof-run" ./prog) &&
	   [ -f "$VD/preload/gmon.out.shlibs" ]; then
		if vd_has_vdso "$VD/preload"; then
			vd_named "$VD/preload" "gprof-run"
		else
			echo "SKIP: vdso: gprof-run (no vDSO in this process)"
		fi
	else
		fail "vdso: the program ran under gprof-run"
	fi
else
	echo "SKIP: vdso: gprof-run (no libgmon-preload.so in this build)"
fi

# ---- another kernel's vDSO: generated side files ----

if ${CC:-cc} -O -o "$VD/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c"; then
	cp "$FIXTURES/cycle-O0/gmon.out" "$VD/gmon.out"
	_v_rate=$(od -An -tu4 -j41 -N4 "$VD/gmon.out" | tr -d ' ')
	for _v_case in "linux-vdso.so.1 00112233445566778899aabbccddeeff00112233" \
	               "linux-vdso64.so.1 -" "linux-gate.so.1 0badc0de"; do
		# shellcheck disable=SC2086 # two words: the name and the build-id
		set -- $_v_case
		rm -f "$VD/gmon.out.shlibs"
		# 60 samples in [lo, hi), 40 beyond the recorded span: all count.
		"$VD/gmsl-gen" "$VD/gmon.out.shlibs" <<EOT
header $_v_rate 0
object 0 0 0x1000 0x2000 $FIXTURES/cycle-O0/prog -
object 1 0x7ffff7fc1000 0x0 0x1000 $1 $2
samples 1 0x950 50 0xaf0 10 0x1800 40
EOT
		if "$GPROF" -b -p "$FIXTURES/cycle-O0/prog" "$VD/gmon.out" \
			> "$VD/flat" 2> "$VD/flat.err" && vd_quiet "$VD/flat.err" &&
		   awk -v r="$_v_rate" '$NF == "[vdso]" { n++; got = $3 }
			END { exit !(n == 1 && got * r > 99.5 && got * r < 100.5) }' "$VD/flat" &&
		   "$GPROF" --output-format=json "$FIXTURES/cycle-O0/prog" "$VD/gmon.out" \
			> "$VD/json" 2> "$VD/json.err" && vd_quiet "$VD/json.err" &&
		   python3 - "$VD/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [f for f in d["flat_profile"] if f["name"] == "[vdso]"]
assert len(rows) == 1 and rows[0]["object"] == "[vdso]", rows
assert rows[0]["self_samples"] == 100, rows
PY
		then
			pass "vdso: another kernel's $1 (build-id $2): one quiet [vdso] row"
		else
			fail "vdso: another kernel's $1 (build-id $2): one quiet [vdso] row" \
				"$(cat "$VD/flat.err" "$VD/json.err" 2>/dev/null | head -5)" \
				"$(head -12 "$VD/flat")"
		fi
	done
else
	fail "vdso: build tests/tools/gmsl-gen"
fi
