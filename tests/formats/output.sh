# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/output.sh (sourced by tests/formats.sh): --output writes
# the same bytes as standard output through a temporary file renamed into
# place; write errors (a full device, a file-size limit) give one line
# and exit status 1 and leave nothing behind; a closed pipe ends the run
# quietly by SIGPIPE, as GNU's; bad values of
# the new options give one line; --sampling-error adds its text column.

out_dir=$WORK/output
mkdir -p "$out_dir"
fx=$FIXTURES/cycle-O2

# --output equals standard output, for every format.
for f in text dot html json callgrind pprof; do
	"$GPROF" --output-format=$f "$fx/prog" "$fx/gmon.out" \
		> "$out_dir/stdout.$f" 2>/dev/null
	"$GPROF" --output-format=$f --output="$out_dir/file.$f" "$fx/prog" \
		"$fx/gmon.out" 2>/dev/null
	if cmp -s "$out_dir/stdout.$f" "$out_dir/file.$f" &&
	   [ -s "$out_dir/file.$f" ]; then
		pass "output: --output=FILE is standard output's bytes ($f)"
	else
		fail "output: --output=FILE is standard output's bytes ($f)"
	fi
done

# "--output FILE" (separate argument) and replacing an existing file.
echo old > "$out_dir/existing"
"$GPROF" -b -p --output "$out_dir/existing" "$fx/prog" "$fx/gmon.out" 2>/dev/null
"$GPROF" -b -p "$fx/prog" "$fx/gmon.out" > "$out_dir/expect" 2>/dev/null
if cmp -s "$out_dir/existing" "$out_dir/expect"; then
	pass "output: --output FILE replaces an existing file"
else
	fail "output: --output FILE replaces an existing file"
fi

# Runs "$@" expecting exit status 1 and one stderr line matching PATTERN,
# with nothing left in $out_dir/err.d.
one_error() {	# NAME PATTERN COMMAND...
	_n=$1 _p=$2
	shift 2
	"$@" > "$out_dir/so" 2> "$out_dir/se"
	_rc=$?
	_lines=$(grep -cv 'diagnosis: ' "$out_dir/se")
	if [ "$_rc" = 1 ] && [ "$_lines" = 1 ] &&
	   grep -v 'diagnosis: ' "$out_dir/se" | grep -q -- "$_p" &&
	   [ -z "$(ls -A "$out_dir/err.d" 2>/dev/null)" ]; then
		pass "$_n"
	else
		fail "$_n" "status $_rc, stderr:" "$(cat "$out_dir/se")" \
			"left: $(ls -A "$out_dir/err.d" 2>/dev/null)"
	fi
}
mkdir -p "$out_dir/err.d"

one_error "output: a folder that does not exist" "cannot create" \
	"$GPROF" --output="$out_dir/none/x" "$fx/prog" "$fx/gmon.out"
for f in text json pprof; do
	"$GPROF" --output-format=$f "$fx/prog" "$fx/gmon.out" > /dev/full 2> "$out_dir/se"
	rc=$?
	if [ $rc = 1 ] && grep -q 'standard output: write error: No space left' "$out_dir/se"; then
		pass "output: /dev/full gives one line and status 1 ($f)"
	else
		fail "output: /dev/full gives one line and status 1 ($f)" "status $rc" "$(cat "$out_dir/se")"
	fi
done

# The cause is kept however the failed write came: a report whose last
# block is larger than stdio's buffer (written directly, nothing pending
# at close: cxx's flat profile with -z, over 4 KB), and a short report
# followed by a diagnosis line (stderr's line flushes standard output
# first).  Both said "Input/output error".
bigfx=$FIXTURES/cxx
size=$("$GPROF" -p -z "$bigfx/prog" "$bigfx/gmon.out" 2>/dev/null | wc -c)
[ "$size" -gt 4096 ] || fail "output: cxx's -p -z is over 4 KB" "$size bytes"
for o in "-p -z" "-b -P -Q -i"; do
	# shellcheck disable=SC2086
	"$GPROF" $o "$bigfx/prog" "$bigfx/gmon.out" > /dev/full 2> "$out_dir/se"
	rc=$?
	if [ $rc = 1 ] && [ "$(grep -cv 'diagnosis: ' "$out_dir/se")" = 1 ] &&
	   grep -q 'standard output: write error: No space left' "$out_dir/se"; then
		pass "output: /dev/full says no space ($o)"
	else
		fail "output: /dev/full says no space ($o)" "status $rc" "$(cat "$out_dir/se")"
	fi
done
# A file-size limit on --output: the cause, and no file left behind.
( ulimit -f 2 && exec "$GPROF" -p -z --output="$out_dir/err.d/big" \
	"$bigfx/prog" "$bigfx/gmon.out" ) > "$out_dir/so" 2> "$out_dir/se"
rc=$?
if [ $rc = 1 ] && grep -q 'big: write error: File too large' "$out_dir/se" &&
   [ -z "$(ls -A "$out_dir/err.d")" ]; then
	pass "output: a file-size limit names its cause, nothing left"
else
	fail "output: a file-size limit names its cause, nothing left" "status $rc" \
		"$(cat "$out_dir/se")" "left: $(ls -A "$out_dir/err.d")"
fi

# A closed pipe ends the run quietly by SIGPIPE, as it ends GNU gprof:
# the reading end closed before gprof writes, and closed after one line
# (`gprof ... | head -1`, on a report larger than a pipe's buffer).
res=$(python3 - "$GPROF" "$fx/prog" "$fx/gmon.out" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
err = [l for l in p.stderr.decode().splitlines() if 'diagnosis: ' not in l]
print(p.returncode, len(err), err[0] if err else '')
PY
)
case $res in
"-13 0 ") pass "output: a closed pipe ends the run by SIGPIPE, silently" ;;
*)	fail "output: a closed pipe ends the run by SIGPIPE, silently" "status, lines, first: $res" ;;
esac
res=$(python3 - "$GPROF" "$FIXTURES/callgraph/prog" "$FIXTURES/callgraph/gmon.out" <<'PY'
import fcntl, os, subprocess, sys
# A pipe of one page, so that the 13 kB report cannot fit in it.
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
os.close(w)
with os.fdopen(r, "rb") as f:
    first = f.readline()
err = [l for l in p.stderr.read().decode().splitlines() if 'diagnosis: ' not in l]
rc = p.wait()
print(rc, len(err), "line" if first else "none", err[0] if err else '')
PY
)
case $res in
"-13 0 line ") pass "output: | head -1 ends the run quietly by SIGPIPE" ;;
*)	fail "output: | head -1 ends the run quietly by SIGPIPE" "status, lines, first: $res" ;;
esac

# A file-size limit stops the write half way: the old file stays whole and
# no temporary file is left.
echo keep > "$out_dir/err.d/limited"
(ulimit -f 1; exec "$GPROF" \
	--output="$out_dir/err.d/limited" "$fx/prog" "$fx/gmon.out") \
	> /dev/null 2> "$out_dir/se"
rc=$?
if [ $rc = 1 ] && grep -q 'limited: write error' "$out_dir/se" &&
   [ "$(cat "$out_dir/err.d/limited")" = keep ] &&
   [ "$(ls -A "$out_dir/err.d")" = limited ]; then
	pass "output: a write error keeps the old file and leaves no temporary"
else
	fail "output: a write error keeps the old file and leaves no temporary" \
		"status $rc" "$(cat "$out_dir/se")" "$(ls -A "$out_dir/err.d")"
fi
rm -f "$out_dir/err.d/limited"

one_error "output: an unknown format" "unknown format .bogus." \
	"$GPROF" --output-format=bogus "$fx/prog" "$fx/gmon.out"
one_error "output: --output without a file" "requires an argument" \
	"$GPROF" "$fx/prog" "$fx/gmon.out" --output
one_error "output: a threshold that is no percentage" "not a percentage" \
	"$GPROF" --output-format=dot --node-threshold=abc "$fx/prog" "$fx/gmon.out"
one_error "output: a threshold over 100" "not a percentage" \
	"$GPROF" --output-format=dot --edge-threshold=101 "$fx/prog" "$fx/gmon.out"

# After "--", an extension's name is an operand, as GNU would take it.
"$GPROF" -b -p -- "$fx/prog" --sampling-error > /dev/null 2> "$out_dir/se"
if grep -q -- "--sampling-error" "$out_dir/se"; then
	pass "output: after --, --sampling-error is a file name"
else
	fail "output: after --, --sampling-error is a file name" "$(cat "$out_dir/se")"
fi

# --sampling-error: a column after self seconds holding sqrt(samples)/hz,
# and nothing else changed.
"$GPROF" -b -p --sampling-error "$fx/prog" "$fx/gmon.out" > "$out_dir/err.txt" 2>/dev/null
"$GPROF" -b -p "$fx/prog" "$fx/gmon.out" > "$out_dir/plain.txt" 2>/dev/null
bad=$(awk 'NR == FNR { if (FNR > 5) plain[FNR] = $0; next }
	FNR > 5 && NF >= 5 {
		n = $3 * 100; want = sprintf("%.2f", sqrt(n) / 100)
		if ($4 != want) print "row " FNR ": error " $4 ", want " want
		line = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+/, "", line)
		p = plain[FNR]; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+/, "", p)
		if (line != p) print "row " FNR " differs: " $0
	}' "$out_dir/plain.txt" "$out_dir/err.txt")
if [ -z "$bad" ] && grep -q '+/- self' "$out_dir/err.txt"; then
	pass "output: --sampling-error adds sqrt(samples)/hz as a column"
else
	fail "output: --sampling-error adds sqrt(samples)/hz as a column" "$bad"
fi
"$GPROF" -p --sampling-error "$fx/prog" "$fx/gmon.out" 2>/dev/null |
	grep -q '^ +/- self  expected error' &&
	pass "output: --sampling-error explains its column" ||
	fail "output: --sampling-error explains its column"

# -i prints text while reading: not before a document on standard output,
# but beside one written to a file.
one_error "output: -i with a document on standard output" \
	"-i prints text on standard output" \
	"$GPROF" -i --output-format=json "$fx/prog" "$fx/gmon.out"
"$GPROF" -i --output-format=json --output="$out_dir/i.json" "$fx/prog" \
	"$fx/gmon.out" > "$out_dir/i.txt" 2>/dev/null
if grep -q 'histogram record' "$out_dir/i.txt" &&
   python3 -m json.tool "$out_dir/i.json" > /dev/null 2>&1; then
	pass "output: -i beside a document written to a file"
else
	fail "output: -i beside a document written to a file"
fi
