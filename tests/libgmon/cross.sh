# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/cross.sh: libgmon on the foreign targets (tests/targets.sh),
# each built with its gcc cross compiler (src/libgmon/cross/TRIPLE, made
# by `make libgmon-cross`) and run under qemu-user.  Per target: exact arc
# counts for recursion and function pointers (calls.c, PIE and not, -O0
# and -O2), a cycle (cycle.c) and threads (threads.c); the same counts
# from the target glibc's own runtime; src/gprof and GNU gprof printing
# the same reports for both; and on the big-endian target, a gprof -s sum
# that GNU gprof reads back to the same totals.  A target whose toolchain
# is missing is skipped with one line naming the package.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# shellcheck source=tests/targets.sh
. "$ROOT/tests/targets.sh"

# The GNU gprof that reads every target: the multi-target build where
# binutils-multiarch is installed, else the target's own cross gprof.
cross_gnu_gprof() {
	if [ -x /usr/bin/x86_64-linux-gnu-gprof.single ]; then
		echo /usr/bin/gprof
	else
		echo "/usr/bin/$1-gprof"
	fi
}

# cross_sum NAME: gprof -s over NAME's profile twice, by src/gprof; GNU
# gprof must print the same flat profile and call graph for that sum as
# for the two profiles themselves (the big-endian writer round trip).
cross_sum() {
	_d=$W/$1
	cp "$_d/gmon.out" "$_d/gmon.2"
	if ! (cd "$_d" && "$OUR_GPROF" -s prog gmon.out gmon.2 >sum.log 2>&1); then
		fail "$1-sum" "src/gprof -s failed" "$(cat "$_d/sum.log")"
		return
	fi
	(cd "$_d" && "$GNU_GPROF" -b prog gmon.sum >gnu.sum 2>&1)
	(cd "$_d" && "$GNU_GPROF" -b prog gmon.out gmon.2 >gnu.two 2>&1)
	if ! cmp -s "$_d/gnu.sum" "$_d/gnu.two"; then
		fail "$1-sum" "GNU gprof reads src/gprof's gmon.sum differently (< sum, > both files):" \
			"$(diff "$_d/gnu.sum" "$_d/gnu.two")"
	else
		pass "$1-sum"
	fi
}

# Option sets whose output src/gprof must share with GNU gprof on every
# target's files (the reports that read line numbers, symbols and both
# profiles' parts); -c has its own test (tests/decoders.sh).
CROSS_OPTIONS="|-b -p|-b -q|-b -l -p|-b -l -q|-b -C|-b -z -p|-b -i|-b -T|-b -x -C|-b -y -q|-b -P -q|-b -r -q|-b -a -p|-b --inline-file-names -l -p"

# cross_options NAME: for each option set, stdout and exit status agree.
cross_options() {
	_d=$W/$1 _bad=
	_ifs=$IFS
	IFS='|'
	for _o in $CROSS_OPTIONS; do
		IFS=$_ifs
		(cd "$_d" && "$OUR_GPROF" $_o prog gmon.out >o.out 2>&1; echo $? >>o.out)
		(cd "$_d" && MALLOC_PERTURB_=255 "$GNU_GPROF" $_o prog gmon.out >g.out 2>&1; echo $? >>g.out)
		cmp -s "$_d/o.out" "$_d/g.out" || _bad="$_bad [${_o:-default}]"
		IFS='|'
	done
	IFS=$_ifs
	if [ -n "$_bad" ]; then
		fail "$1-options" "src/gprof and GNU gprof differ for:$_bad"
	else
		pass "$1-options"
	fi
}

# cross_target TRIPLE: every check for one target.
cross_target() {
	_t=$1
	_q=$(target_qemu "$_t")
	if ! have "$_t-gcc"; then
		skip "cross-$_t" "no $_t-gcc: apt-get install gcc-$_t (sh tests/deps.sh)"
		return
	fi
	if ! have "$_q"; then
		skip "cross-$_t" "no $_q: apt-get install qemu-user (sh tests/deps.sh)"
		return
	fi
	_lib=$L/cross/$_t
	if [ ! -f "$_lib/libgmon.a" ]; then
		fail "cross-$_t" "$_lib/libgmon.a is missing: make libgmon CROSS=$_t-"
		return
	fi
	RUNNER="$_q -L /usr/$_t" NM=$_t-nm GNU_GPROF=$(cross_gnu_gprof "$_t")
	_w=8
	case $_t in arm-*) _w=4 ;; esac
	DUMP_ORDER=
	case $_t in s390x-*) DUMP_ORDER="-e big" ;; esac
	_libs="-L$_lib -lgmon"
	_n=$_t
	exact "$_n-O2-pie" calls.c calls.expected $_w "$_libs" $_t-gcc -O2 -pg -fPIE -pie
	exact "$_n-O0-nopie" calls.c calls.expected $_w "$_libs" $_t-gcc -O0 -pg -fno-pie -no-pie
	exact "$_n-O2-static" calls.c calls.expected $_w "$_libs" $_t-gcc -O2 -pg -static
	exact "$_n-cycle" cycle.c cycle.expected $_w "$_libs" $_t-gcc -O2 -pg
	exact "$_n-threads" threads.c threads.expected $_w "$_libs" $_t-gcc -O2 -pg
	# The target glibc's own runtime: the same arcs, single-threaded.
	exact "$_n-glibc" calls.c calls.expected $_w "" $_t-gcc -O2 -pg -g
	cross_options "$_n-glibc"
	exact "$_n-glibc-cycle" cycle.c cycle.expected $_w "" $_t-gcc -O2 -pg
	case $_t in s390x-*) cross_sum "$_n-cycle" ;; esac
	RUNNER= NM=nm DUMP_ORDER= GNU_GPROF=$(gnu_x86_gprof)
}

for triple in ${CROSS_ONLY:-$CROSS_TRIPLES}; do
	cross_target "$triple"
done
