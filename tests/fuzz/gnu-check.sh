#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# gnu-check.sh - runs pipeline-harness inputs (corpus, crashes, or any
# directory of them) through GNU gprof and through ours, as command lines,
# and lists the inputs on which GNU gprof crashes or hangs while ours
# exits cleanly, or on which ours crashes.  A development aid: this is how
# the inputs of tests/fuzz/gnu-crashes/ were found.
# usage: sh tests/fuzz/gnu-check.sh [DIR-OR-FILE...]
#        (default build-fuzz/corpus/pipeline tests/fuzz/corpus/pipeline)
# Needs `make build-fuzz/replay/replay-pipeline` and /usr/bin/gprof.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/lib.sh
. tests/lib.sh
REF=${GPROF_REF:-$(gnu_x86_gprof)}
OURS=${GPROF:-src/gprof}
REPLAY=build-fuzz/replay/replay-pipeline
[ -x "$REPLAY" ] || { echo "gnu-check: build $REPLAY first"; exit 2; }
[ $# -gt 0 ] || set -- build-fuzz/corpus/pipeline tests/fuzz/corpus/pipeline
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
n=0
for arg in "$@"; do
	for f in $( [ -d "$arg" ] && find "$arg" -type f | sort || echo "$arg"); do
		n=$((n + 1))
		rm -rf "$W/x" && mkdir "$W/x"
		FUZZ_EXPORT=$W/x ASAN_OPTIONS=detect_leaks=0 "$REPLAY" "$f" \
			> /dev/null 2>&1 || { echo "replay failed: $f"; continue; }
		# One argument a line (none contain newlines: they are ours).
		set --
		while IFS= read -r a; do set -- "$@" "$a"; done < "$W/x/cmd"
		(cd "$W/x" && timeout 10 "$REF" "$@" > gnu.out 2> gnu.err)
		g=$?
		(cd "$W/x" && timeout 10 "$OLDPWD/$OURS" "$@" > our.out 2> our.err)
		o=$?
		if [ $g -ge 124 ] || [ $o -ge 124 ]; then
			echo "$f: GNU status $g, ours $o: $*"
		fi
	done
done
echo "gnu-check: $n inputs"
