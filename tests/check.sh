# SPDX-License-Identifier: GPL-3.0-or-later
# check.sh: the whole test suite, run by `make check` from the repository
# root after it has built src/gprof, build-san/gprof and tests/unit/run-unit.
# Runs the unit tests, then the end-to-end and bad-input tests on the normal
# build and on the sanitizer build, counts the PASS:/FAIL: lines, repeats the
# failures at the end and closes with the line "N passed, N failed".
# Exit status 0 only when nothing failed.
set -u

cd "$(dirname "$0")/.." || exit 1
mkdir -p tests/tmp
LOGS=$(mktemp -d tests/tmp/check.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
trap 'exit 130' INT TERM HUP PIPE

step=0
# Run one step (a command printing PASS:/FAIL: lines), showing its output
# and keeping a copy.  A step that exits non-zero without reporting any FAIL
# line (a crash, a missing file), or that reports no PASS, FAIL or SKIP
# line at all (it tested nothing), counts as one failure.
run_step() {
	title=$1
	shift
	step=$((step + 1))
	log=$LOGS/$step.log
	echo "== $title"
	{ "$@" 2>&1; echo $? > "$LOGS/$step.rc"; } | tee "$log"
	rc=$(cat "$LOGS/$step.rc")
	if [ "$rc" != 0 ] && ! grep -q '^FAIL: ' "$log"; then
		echo "FAIL: $title (exited with status $rc)" | tee -a "$log"
	elif ! grep -q '^\(PASS\|FAIL\|SKIP\): ' "$log"; then
		echo "FAIL: $title (reported no test)" | tee -a "$log"
	fi
}

start=$(date +%s)
if [ -x tests/unit/run-unit ]; then
	run_step "unit tests (tests/unit/run-unit)" tests/unit/run-unit
else
	echo "FAIL: unit tests (tests/unit/run-unit not built: make tests/unit/run-unit)" |
		tee "$LOGS/0.log"
fi
run_step "end-to-end tests, src/gprof" sh tests/e2e.sh src/gprof
run_step "bad-input tests, src/gprof" sh tests/badinput.sh src/gprof
run_step "end-to-end tests, build-san/gprof (ASan+UBSan)" sh tests/e2e.sh build-san/gprof
run_step "bad-input tests, build-san/gprof (ASan+UBSan)" sh tests/badinput.sh build-san/gprof
run_step "shared-library side files, src/gprof" sh tests/shlibs.sh src/gprof
run_step "shared-library side files, build-san/gprof (ASan+UBSan)" \
	sh tests/shlibs.sh build-san/gprof
run_step "documented differences from GNU gprof" sh tests/differences.sh src/gprof
run_step "-p without arcs vs with them, src/gprof" sh tests/compact.sh src/gprof
run_step "-p without arcs vs with them, build-san/gprof (ASan+UBSan)" \
	sh tests/compact.sh build-san/gprof
run_step "-l by line-table bounds vs every byte, src/gprof" sh tests/lines.sh src/gprof
run_step "-l by line-table bounds vs every byte, build-san/gprof (ASan+UBSan)" \
	sh tests/lines.sh build-san/gprof
run_step "gprof-bbconv" sh tests/bbconv.sh
run_step "manual pages (groff, options, environment)" sh tests/manpages.sh
run_step "-c decoders on cross-built programs (qemu), src/gprof" \
	sh tests/decoders.sh src/gprof
run_step "-c decoders on cross-built programs (qemu), build-san/gprof" \
	sh tests/decoders.sh build-san/gprof
run_step "output formats and their consumers, src/gprof" \
	sh tests/formats.sh src/gprof
run_step "output formats and their consumers, build-san/gprof (ASan+UBSan)" \
	sh tests/formats.sh build-san/gprof
run_step "printers only read the model" sh tests/reports.sh
# The tool's folders from the bottom up (doc/gprof.md, "Modules").
TOOL_ORDER="util model symbols reading decode analysis print top"
run_step "module dependencies (tests/tools/module-deps.sh)" \
	sh tests/tools/module-deps.sh -o "$TOOL_ORDER" -u decode:cg_scan.o \
	build/*.o build/util/*.o build/symbols/*.o build/reading/*.o \
	build/decode/*.o build/analysis/*.o build/print/*.o
run_step "include lines (tests/tools/include-order.sh)" \
	sh tests/tools/include-order.sh "$TOOL_ORDER" src
run_step "the dependency checks fail when they must" \
	sh tests/tools/deps-selftest.sh
# record.o and the stubs are one module, the recorder: the hook calls
# the C recorder, which calls the stubs' register-saving trampoline.
run_step "libgmon module dependencies (tests/tools/module-deps.sh)" \
	sh tests/tools/module-deps.sh -g 'record.o stubs-*.o' build/libgmon/native/*.o
run_step "libgmon-preload.so module dependencies (tests/tools/module-deps.sh)" \
	sh tests/tools/module-deps.sh -g 'record.o stubs-*.o' build/libgmon/preload/*.o
if [ -f tests/reliability.sh ]; then
	run_step "reliability tests" sh tests/reliability.sh
fi
if [ -f tests/fuzz/fuzz.mk ]; then
	run_step "fuzz corpus replay" make -s fuzz-replay
fi
if [ -f tests/libgmon.sh ]; then
	run_step "libgmon runtime tests" sh tests/libgmon.sh
fi
run_step "make install and uninstall, profiling with the installed files" \
	sh tests/install.sh
run_step "Debian packages (dpkg-buildpackage, lintian)" sh tests/debian.sh
end=$(date +%s)

passed=$(cat "$LOGS"/*.log | grep -c '^PASS: ')
failed=$(cat "$LOGS"/*.log | grep -c '^FAIL: ')
skipped=$(cat "$LOGS"/*.log | grep -c '^SKIP: ')
echo
if [ "$failed" != 0 ]; then
	echo "== failures:"
	cat "$LOGS"/*.log | grep '^FAIL: '
	echo
fi
[ "$skipped" = 0 ] || echo "check: $skipped tests skipped"
echo "check: finished in $((end - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
