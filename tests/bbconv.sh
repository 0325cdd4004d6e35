# SPDX-License-Identifier: GPL-3.0-or-later
# bbconv.sh: tests of gprof-bbconv, the bb.out listing converter: a listing
# converts to a file both gprofs read alike; a header whose count is wrong
# is reported and fixed up; garbage gives a valid empty file; a missing
# input or an unwritable output gives one clear line, status 1, and leaves
# nothing behind.  usage: sh tests/bbconv.sh (from the repository root)
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
CONV=$(abspath src/gprof-bbconv) GPROF=$(abspath src/gprof)
REF=${GPROF_REF:-$(gnu_x86_gprof)}
F=$TESTS_DIR/fixtures/bb
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/bbconv.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
export LC_ALL=C

failed=0
result() {  # NAME STATUS [DETAIL]
	if [ "$2" = 0 ]; then echo "PASS: bbconv:$1"; else echo "FAIL: bbconv:$1${3:+ ($3)}"; failed=1; fi
}

# Two blocks at the starts of two functions of the fixture program.
set -- $(nm "$F/prog" | awk '$2 == "T" && ($3 == "main" || $3 == "stats_sum") { print $1 }')
cat > bb.txt <<EOT
File main.c, 2 basic blocks

    Block #1: executed 7 time(s) address= 0x$1 function= f line= 1 file= main.c
    Block #2: executed 123456 time(s) address= 0x$2 function= g line= 2 file= main.c
EOT
"$CONV" -o bb.gmon bb.txt 2> err.txt
[ $? = 0 ] && [ ! -s err.txt ] && [ "$(head -c 4 bb.gmon)" = gmon ]
result convert $?
"$GPROF" -b -l -C "$F/prog" bb.gmon > ours.txt 2>&1
strip_diagnosis ours.txt
grep -q ' 123456 executions$' ours.txt && grep -q ' 7 executions$' ours.txt
result counts-read-back $?
if [ -x "$REF" ]; then
	"$REF" -b -l -C "$F/prog" bb.gmon > gnu.txt 2>&1
	cmp -s ours.txt gnu.txt
	result gnu-reads-alike $?
fi

sed 's/2 basic blocks/3 basic blocks/' bb.txt | "$CONV" > miscount.gmon 2> err.txt
[ $? = 0 ] && grep -q 'miscount' err.txt && [ "$(wc -l < err.txt)" = 1 ] &&
	"$GPROF" -b -l -C "$F/prog" miscount.gmon | grep -q ' 123456 executions$'
result miscount-reported-and-fixed $?

head -c 3000 "$F/prog" | "$CONV" > garbage.gmon 2> err.txt
[ $? = 0 ] && [ "$(wc -c < garbage.gmon)" = 20 ] && "$GPROF" -b "$F/prog" garbage.gmon > /dev/null 2>&1
result garbage-gives-empty-file $?

"$CONV" nothere.txt > out 2> err.txt
[ $? = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q '^nothere.txt: ' err.txt
result missing-input $?

"$CONV" -o nodir/x.gmon bb.txt 2> err.txt
[ $? = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q '^nodir/x.gmon: ' err.txt
result unwritable-output $?

printf 'old\n' > keep.gmon
"$CONV" -o keep.gmon nothere.txt 2> /dev/null
[ "$(cat keep.gmon)" = old ] && [ -z "$(ls | grep 'keep.gmon.')" ]
result old-output-kept $?
exit $failed
