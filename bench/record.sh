#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/record.sh - owns the generated half of doc/bench.md: replaces
# everything below its marker line with a benchmark run's output.
#
# usage: sh bench/record.sh LOG [DOC]
# LOG is the standard output of a full `make bench` (bench/run.sh calls
# this at the end of such a run); DOC defaults to doc/bench.md.  The part
# of DOC up to and including the marker line is hand-written and kept as
# it is; below the marker comes a heading and LOG, indented as a block.
# The new page is written to a temporary file in DOC's own folder and
# renamed over DOC, so a reader never sees half a page and a failure
# leaves the old page whole.  Refuses (status 1, DOC untouched) when LOG
# is empty or DOC has no marker line.
set -eu

marker='<!-- make bench: bench/run.sh replaces everything below this line with its last full run -->'
top=$(cd "$(dirname "$0")/.." && pwd)
log=${1:?usage: sh bench/record.sh LOG [DOC]}
doc=${2:-$top/doc/bench.md}

if [ ! -s "$log" ]; then
	echo "bench/record.sh: $log is empty: $doc left as it was" >&2
	exit 1
fi
if ! grep -qxF "$marker" "$doc" 2>/dev/null; then
	echo "bench/record.sh: no marker line in $doc: left as it was" >&2
	exit 1
fi

tmp=$(mktemp "$(dirname "$doc")/.bench.md.XXXXXX")
trap 'rm -f "$tmp"' EXIT
{
	awk -v m="$marker" '{ print } $0 == m { exit }' "$doc"
	echo
	echo "## Last run"
	echo
	echo "The whole standard output of the last full \`make bench\`, written"
	echo "by bench/run.sh on $(date -u '+%Y-%m-%d %H:%M UTC') (commit"
	echo "$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown))."
	echo
	sed 's/^/    /; s/ *$//' "$log"
} > "$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$doc"
trap - EXIT
echo "bench: results written to $doc" >&2
