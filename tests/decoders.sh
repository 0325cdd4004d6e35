# SPDX-License-Identifier: GPL-3.0-or-later
# decoders.sh: the -c call decoders on real executables of other
# architectures.  For each cross toolchain present (gcc, objdump, glibc in
# /usr/TRIPLE, qemu-user), builds tests/programs/decoders/calls.c several
# ways with -pg, runs it under qemu for a gmon.out, and checks that the
# arcs `gprof -c` adds are exactly the direct calls objdump shows
# (tests/decoders/calls.awk) between symbols gprof knows.  On aarch64,
# where GNU gprof 2.40 has a decoder of its own, the -c reports must also
# be GNU's, byte for byte (blurbs masked).  A missing toolchain gives one
# SKIP line.
# DECODERS_STATIC=1 adds a statically linked build to each target (some
# 3600 calls through glibc; not part of make check), DECODERS_KEEP=1
# keeps the scratch folder under tests/tmp, DECODERS_SRC="FILE.c ..."
# (absolute paths) builds another program.
# usage: sh tests/decoders.sh [GPROF_BINARY]   (default src/gprof)
set -u
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
. "$TESTS_DIR/lib.sh"
CAND=$(abspath "${1:-$TESTS_DIR/../src/gprof}")
REF=${GPROF_REF:-/usr/bin/gprof}
SRC=${DECODERS_SRC:-$TESTS_DIR/programs/decoders/calls.c}
AWK_DIR=$TESTS_DIR/decoders
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/decoders.XXXXXX")
trap '[ -n "${DECODERS_KEEP:-}" ] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM HUP PIPE
export LC_ALL=C
sanitizer_env "$CAND"
failed=0

# TRIPLE QEMU ISA ADDRESS-BYTES BIG-ENDIAN VARIANT:FLAGS...
TARGETS='
aarch64-linux-gnu qemu-aarch64 aarch64 8 0 O0-nopie:-O0,-fno-pie,-no-pie O2-pie:-O2,-fpie,-pie O2-nopie:-O2,-fno-pie,-no-pie
arm-linux-gnueabihf qemu-arm arm 4 0 O0-a32:-O0,-marm,-fno-pie,-no-pie O2-a32-pie:-O2,-marm,-fpie,-pie O2-thumb:-O2,-mthumb,-fno-pie,-no-pie O0-thumb-pie:-O0,-mthumb,-fpie,-pie
riscv64-linux-gnu qemu-riscv64 riscv 8 0 O0-nopie:-O0,-fno-pie,-no-pie O2-pie:-O2,-fpie,-pie O2-norelax:-O2,-mno-relax,-fno-pie,-no-pie O0-norelax-pie:-O0,-mno-relax,-fpie,-pie
powerpc64le-linux-gnu qemu-ppc64le ppc 8 0 O0-nopie:-O0,-fno-pie,-no-pie O2-pie:-O2,-fpie,-pie O2-nopie:-O2,-fno-pie,-no-pie
s390x-linux-gnu qemu-s390x s390 8 1 O0-nopie:-O0,-fno-pie,-no-pie O2-pie:-O2,-fpie,-pie O2-nopie:-O2,-fno-pie,-no-pie
'

# The -c option sets compared with GNU gprof on aarch64.
GNU_SETS='-c|-c -q|-c -b|-c -p|-c -b -q|-c -b -q -z'

report() {  # NAME STATUS [DETAIL]
	if [ "$2" = 0 ]; then
		echo "PASS: $1"
	else
		echo "FAIL: $1${3:+ ($3)}"
		failed=$((failed + 1))
	fi
}

# FILE BYTES BIG: "LOW HIGH BINS" (hex) from the histogram record of a
# gmon.out that starts with one (glibc writes it first).
hist_header() {
	od -A n -t x1 -j 21 -N $(($2 * 2 + 4)) "$1" | tr -s ' \n' '  ' |
	awk -v n="$2" -v big="$3" '{
		for (k = 0; k < 3; k++) {
			s = ""
			for (i = 1; i <= (k < 2 ? n : 4); i++)
				s = big ? s $(k * n + i) : $(k * n + i) s
			printf "%s%s", s, k < 2 ? " " : "\n"
		}
	}'
}

# DIR BYTES BIG: DIR/hist.out, DIR/gmon.out cut after its histogram
# record (header 20 bytes; tag, two addresses, bin count, rate, dimension
# 15 + 1 bytes; 2 bytes a bin), so that every arc -c prints is static.
# One arc record from address 0 to 0, which no symbol holds, is added:
# gprof refuses -q for a file without any.
hist_only() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(hist_header "$1/gmon.out" "$2" "$3")
	bins=$(printf '%d' "0x$5")
	{ head -c $((20 + 1 + 2 * $2 + 4 + 4 + 16 + 2 * bins)) "$1/gmon.out"
	  printf '\001'
	  head -c $((2 * $2 + 4)) /dev/zero; } > "$1/hist.out"
}

# What the toolchain for TRIPLE lacks, or nothing.
missing_tools() {
	for tool in "$1-gcc" "$1-objdump" "$2"; do
		command -v "$tool" >/dev/null 2>&1 || { echo "$tool"; return; }
	done
	[ -d "/usr/$1" ] || echo "/usr/$1"
}

# DIR TRIPLE QEMU FLAGS: builds and runs the program in DIR; a message on
# failure.
# shellcheck disable=SC2046,SC2086
build_and_run() {
	(cd "$1" &&
	 "$2-gcc" $(echo "$4" | tr , ' ') -pg -o prog $SRC 2> build.err &&
	 QEMU_LD_PREFIX=/usr/$2 with_timeout 20 "$3" ./prog > run.out 2>&1 &&
	 [ -s gmon.out ]) || echo "cannot build or run (see $1)"
}

# DIR PROFILE GPROF OPTIONS...: the arcs gprof prints, as sorted
# "PARENT CHILD" lines.
arcs() (
	dir=$1 prof=$2 gp=$3
	shift 3
	cd "$dir" && "$gp" "$@" prog "$prof" 2>/dev/null |
		awk -f "$AWK_DIR/arcs.awk" | sort -u
)

# DIR TRIPLE ISA BYTES BIG: the expected static arcs, from objdump.
objdump_calls() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" $(hist_header "$1/gmon.out" "$4" "$5")
	names=$1/names
	gp=$CAND
	[ -x "$REF" ] && gp=$REF
	(cd "$1" && "$gp" -b -q -z prog gmon.out 2>/dev/null) > "$1/graph"
	awk -v names=1 -f "$AWK_DIR/arcs.awk" "$1/graph" > "$names"
	awk -v names=2 -f "$AWK_DIR/arcs.awk" "$1/graph" > "$1/hidden"
	: > "$1/local8"
	if [ "$3" = ppc ]; then
		"$2-readelf" -sW "$1/prog" |
			awk '/\[<localentry>: 8\]/ && !/ UND / { print $NF }' \
			> "$1/local8"
	fi
	"$2-nm" --synthetic "$1/prog" | awk -v names="$names" '
		BEGIN { while ((getline n < names) > 0) known[n] = 1 }
		NF == 3 && ($3 in known) { print $1, $3 }' > "$1/syms"
	"$2-objdump" -d --no-show-raw-insn "$1/prog" > "$1/dis.txt"
	awk -v isa="$3" -v syms="$1/syms" -v local8="$1/local8" \
	    -v lo="$4" -v hi="$5" \
	    -f "$AWK_DIR/calls.awk" "$1/dis.txt" > "$1/calls"
	# gprof prints no child lines for entries it hides
	awk -v hidden="$1/hidden" '
		BEGIN { while ((getline n < hidden) > 0) h[n] = 1 }
		!($1 in h)' "$1/calls" | sort -u
}

# DIR NAME: the arcs of our -c against objdump's calls: with the
# histogram alone they are the same; with the whole profile the arcs -c
# adds are among them and none of them is missing.
check_arcs() {
	arcs "$1" hist.out "$CAND" -b -q -z -c > "$1/static"
	arcs "$1" gmon.out "$CAND" -b -q -z -c > "$1/with-c"
	arcs "$1" gmon.out "$CAND" -b -q -z > "$1/without-c"
	comm -23 "$1/with-c" "$1/without-c" > "$1/added"
	{ comm -23 "$1/expected" "$1/static"
	  comm -23 "$1/expected" "$1/with-c"; } | sort -u > "$1/missing"
	{ comm -13 "$1/expected" "$1/static"
	  comm -23 "$1/added" "$1/expected"; } | sort -u > "$1/extra"
	if [ -s "$1/missing" ] || [ -s "$1/extra" ]; then
		report "$2" 1 "$(wc -l < "$1/missing") calls missed, $(wc -l \
			< "$1/extra") arcs too many"
		sed 's/^/    missed: /' "$1/missing"
		sed 's/^/    extra:  /' "$1/extra"
		return
	fi
	report "$2" 0
	echo "    $(wc -l < "$1/calls") call instructions, $(wc -l \
		< "$1/expected") arcs, $(wc -l < "$1/added") of them new"
}

# DIR SIDE GPROF OPTIONS...: runs gprof in DIR, leaving SIDE.masked
# (stdout, blurbs masked) and SIDE.errm (stderr with the program's path
# as "gprof", then the exit status).
run_side() (
	dir=$1 side=$2 gp=$3
	shift 3
	cd "$dir" || exit 1
	"$gp" "$@" prog gmon.out > "$side.out" 2> "$side.err"
	echo $? >> "$side.err"
	strip_diagnosis "$side.err"
	strip_blurbs "$side.out" "$side.masked"
	sed "s|^$gp:|gprof:|" "$side.err" > "$side.errm"
)

# DIR OPTIONS...: runs GNU gprof as run_side does, again while it dies of
# a signal, up to 5 times: on executables whose histogram starts below
# .text (static ones) GNU 2.40 reads before its copy of .text for the
# symbols of .init and .plt and sometimes crashes (doc/gprof.md, -c).
# Fails if it never lived.
run_gnu() (
	dir=$1
	shift
	for _ in 1 2 3 4 5; do
		run_side "$dir" gnu "$REF" "$@" 2>/dev/null
		[ "$(tail -n 1 "$dir/gnu.err")" -lt 128 ] && exit 0
	done
	exit 1
)

# DIR NAME: every -c report of GNU_SETS is GNU's (stdout with blurbs
# masked, stderr, exit status).
check_gnu() {
	bad='' crashed=
	IFS='|'
	for opts in $GNU_SETS; do
		IFS=' '
		# shellcheck disable=SC2086
		if ! run_gnu "$1" $opts; then
			crashed="$crashed [$opts]"
			continue
		fi
		# shellcheck disable=SC2086
		run_side "$1" our "$CAND" $opts
		if ! cmp -s "$1/gnu.masked" "$1/our.masked" ||
		   ! cmp -s "$1/gnu.errm" "$1/our.errm"; then
			[ -n "$bad" ] || { diff "$1/gnu.masked" "$1/our.masked"
				diff "$1/gnu.errm" "$1/our.errm"; } |
				head -n 20 | sed 's/^/    /' > "$1/gnu.diff"
			bad="$bad [$opts]"
		fi
		IFS='|'
	done
	IFS=' '
	report "$2" "$([ -z "$bad" ]; echo $?)" "differs from GNU with${bad}"
	[ -z "$bad" ] || cat "$1/gnu.diff"
	[ -z "$crashed" ] || echo "    GNU gprof crashed 5 times with${crashed}"
}

# DIR NAME: on the instruction sets GNU 2.40 has no decoder for, GNU
# prints its one message and gives the report it gives without -c, while
# ours prints nothing on stderr (doc/gprof.md, difference 11).
check_gnu_lacks() {
	run_gnu "$1" -b -q -z -c || { report "$2" 1 "GNU gprof crashed"; return; }
	cp "$1/gnu.masked" "$1/gnu-c.masked"
	msg=$(head -n 1 "$1/gnu.errm")
	status=$(tail -n 1 "$1/gnu.errm")
	run_gnu "$1" -b -q -z
	run_side "$1" our "$CAND" -b -q -z -c
	case $msg in
	"gprof: -c not supported on architecture "*) ;;
	*) report "$2" 1 "GNU says: $msg"; return ;;
	esac
	cmp -s "$1/gnu.masked" "$1/gnu-c.masked" && [ "$status" = 0 ] &&
		[ "$(cat "$1/our.errm")" = 0 ]
	report "$2" $? "GNU's report or status changed, or ours wrote to stderr"
	echo "    GNU: ${msg#gprof: }"
}

# TRIPLE QEMU ISA BYTES BIG VARIANTS...
check_target() {
	triple=$1 qemu=$2 isa=$3 bytes=$4 big=$5
	shift 5
	lack=$(missing_tools "$triple" "$qemu")
	if [ -n "$lack" ]; then
		echo "SKIP: decoders:$isa (no $lack)"
		return
	fi
	[ -n "${DECODERS_STATIC:-}" ] && set -- "$@" O2-static:-O2,-static
	for v in "$@"; do
		dir=$WORK/$isa-${v%%:*}
		name=decoders:$isa:${v%%:*}
		mkdir -p "$dir"
		err=$(build_and_run "$dir" "$triple" "$qemu" "${v#*:}")
		if [ -n "$err" ]; then
			report "$name" 1 "$err"
			continue
		fi
		hist_only "$dir" "$bytes" "$big"
		objdump_calls "$dir" "$triple" "$isa" "$bytes" "$big" > "$dir/expected"
		check_arcs "$dir" "$name"
		if [ "$isa" = aarch64 ] && [ -x "$REF" ]; then
			check_gnu "$dir" "$name:gnu"
		elif [ -x "$REF" ] && [ "$v" = "$1" ]; then
			check_gnu_lacks "$dir" "decoders:$isa:gnu-not-supported"
		fi
	done
}

echo "$TARGETS" | while read -r line; do
	[ -n "$line" ] || continue
	# shellcheck disable=SC2086
	check_target $line
	echo "$failed" > "$WORK/failed"
done
[ "$(cat "$WORK/failed" 2>/dev/null || echo 0)" = 0 ]
