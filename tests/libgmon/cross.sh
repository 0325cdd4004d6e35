# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/cross.sh: libgmon on the foreign targets (tests/targets.sh),
# each built with its gcc cross compiler (src/libgmon/cross/TRIPLE, made
# by `make libgmon-cross`) and run under qemu-user.  Per target: exact arc
# counts for recursion and function pointers (calls.c, PIE and not, -O0
# and -O2), a cycle (cycle.c), threads (threads.c) and a table that must
# grow (growth.c); the same counts from the target glibc's own runtime;
# src/gprof and GNU gprof printing the same reports for both; damaged
# foreign files read as GNU gprof reads them; and on the big-endian target,
# a gprof -s sum that GNU gprof reads back to the same totals; and that
# the target's libgmon-preload.so was built (a shared object, -z
# initfirst).  A target whose toolchain is missing is skipped with one
# line naming the package.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# shellcheck source=tests/targets.sh
. "$ROOT/tests/targets.sh"

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

# Option sets (all brief: the explanations are this project's own text)
# whose output src/gprof must share with GNU gprof on every
# target's files (the reports that read line numbers, symbols and both
# profiles' parts); -c has its own test (tests/decoders.sh).
CROSS_OPTIONS="-b -p|-b -q|-b -l -p|-b -l -q|-b -C|-b -z -p|-b -i|-b -T|-b -x -C|-b -y -q|-b -P -q|-b -r -q|-b -a -p|-b --inline-file-names -l -p"

# cross_options NAME: for each option set, stdout and exit status agree.
cross_options() {
	_d=$W/$1 _bad=
	_ifs=$IFS
	IFS='|'
	for _o in $CROSS_OPTIONS; do
		IFS=$_ifs
		(cd "$_d" && "$OUR_GPROF" $_o prog gmon.out >o.out 2>&1; echo $? >>o.out
		 strip_diagnosis o.out)
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

# cross_noarcs NAME: the program ran cleanly, said once that it has no
# caller addresses, and its profile holds no arc between its functions
# (rather than wrong ones).
cross_noarcs() {
	if [ "$(rc_of "$1")" != 0 ]; then
		fail "$1" "exit status $(rc_of "$1")" "$(cat "$W/$1/err")"
	elif [ "$(grep -c 'call counts are not recorded' "$W/$1/err")" != 1 ]; then
		fail "$1" "expected one 'call counts are not recorded' line on stderr:" \
			"$(cat "$W/$1/err")"
	elif ! arcs "$1" "$2" >"$W/$1/arcs.all" 2>"$W/$1/dump.err"; then
		fail "$1" "unreadable profile" "$(cat "$W/$1/dump.err")"
	elif only_expected "$T/calls.expected" <"$W/$1/arcs.all" | grep -q .; then
		fail "$1" "arcs recorded without caller addresses:" "$(cat "$W/$1/arcs.all")"
	else
		pass "$1"
	fi
}

# cross_clang TRIPLE WIDTH LIBS: clang's -pg on the target.  Where its
# hook gets the caller's address (the frame record on aarch64, the frame
# pointer on riscv64, the LR save slot on ppc64le, gcc's sequence with
# -meabi gnu on arm) the counts are exact; plain clang on arm and s390x
# passes none, and libgmon must say so instead of writing wrong arcs.
cross_clang() {
	[ -n "$CLANG" ] || { skip "$1-clang" "clang is not installed"; return; }
	_cc="clang --target=$1 -fuse-ld=bfd"
	case $1 in
	arm-*)
		exact "$1-clang-eabi-gnu" calls.c calls.expected "$2" "$3" $_cc -meabi gnu -O2 -pg
		build "$1-clang" calls.c "$3" $_cc -O2 -pg || return
		run "$1-clang" --
		cross_noarcs "$1-clang" "$2" ;;
	s390x-*)
		build "$1-clang" calls.c "$3" $_cc -O2 -pg || return
		run "$1-clang" --
		cross_noarcs "$1-clang" "$2" ;;
	*)
		exact "$1-clang" calls.c calls.expected "$2" "$3" $_cc -O2 -pg ;;
	esac
}

# cross_badinput NAME: damaged foreign files, read by src/gprof and its
# sanitizer build: the target's executable cut short, its profile cut
# short, and the executable read as a profile.  Each must give one line on
# stderr, GNU gprof's message and exit status, and no sanitizer report.
cross_badinput() {
	_d=$W/$1
	head -c 3000 "$_d/prog" >"$_d/prog.cut"
	head -c 100 "$_d/gmon.out" >"$_d/gmon.cut"
	for _case in "prog.cut gmon.out" "prog gmon.cut" "prog prog"; do
		for _g in "$OUR_GPROF" "$ROOT/build-san/gprof"; do
			[ -x "$_g" ] || continue
			sanitizer_env "$_g"
			(cd "$_d" && "$_g" -b -p $_case >bad.out 2>bad.err
			 echo $? >bad.rc)
			(cd "$_d" && MALLOC_PERTURB_=255 "$GNU_GPROF" -b -p $_case \
				>gnu.out 2>gnu.err; echo $? >gnu.rc)
			sed 's/^[^:]*gprof: //' "$_d/bad.err" >"$_d/bad.msg"
			sed 's/^[^:]*gprof: //' "$_d/gnu.err" >"$_d/gnu.msg"
			if [ "$(wc -l <"$_d/bad.err")" != 1 ] || [ "$(cat "$_d/bad.rc")" = 0 ] ||
			   ! cmp -s "$_d/bad.msg" "$_d/gnu.msg" ||
			   ! cmp -s "$_d/bad.rc" "$_d/gnu.rc" ||
			   ! cmp -s "$_d/bad.out" "$_d/gnu.out"; then
				fail "$1-badinput" "$_g $_case: status $(cat "$_d/bad.rc") (GNU $(cat "$_d/gnu.rc"))" \
					"$(cat "$_d/bad.err")" "GNU: $(cat "$_d/gnu.err")"
				return
			fi
		done
	done
	pass "$1-badinput"
}

# cross_target TRIPLE: every check for one target.
cross_target() {
	xt=$1
	xq=$(target_qemu "$xt")
	if ! have "$xt-gcc"; then
		skip "cross-$xt" "no $xt-gcc: apt-get install gcc-$xt (sh tests/deps.sh)"
		return
	fi
	if ! have "$xq"; then
		skip "cross-$xt" "no $xq: apt-get install qemu-user (sh tests/deps.sh)"
		return
	fi
	xlib=$L/cross/$xt
	if [ ! -f "$xlib/libgmon.a" ]; then
		fail "cross-$xt" "$xlib/libgmon.a is missing: make libgmon CROSS=$xt-"
		return
	fi
	# The preloaded runtime is built beside the archive (run under qemu
	# for aarch64 by preload.sh; here only built, and for the target).
	if [ ! -f "$xlib/libgmon-preload.so" ]; then
		fail "$xt-preload-built" "$xlib/libgmon-preload.so is missing: make libgmon CROSS=$xt-"
	elif ! $xt-readelf -hd "$xlib/libgmon-preload.so" >"$W/$xt-preload.hdr" 2>&1 ||
	     ! grep -q 'Type: *DYN' "$W/$xt-preload.hdr" || ! grep -q 'INITFIRST' "$W/$xt-preload.hdr"; then
		fail "$xt-preload-built" "$xt-readelf: not a shared object linked -z initfirst" \
			"$(cat "$W/$xt-preload.hdr")"
	else
		pass "$xt-preload-built"
	fi
	RUNNER="$xq -L /usr/$xt" NM=$xt-nm GNU_GPROF=$(target_gnu_gprof "$xt")
	xw=8
	case $xt in arm-*) xw=4 ;; esac
	DUMP_ORDER=
	case $xt in s390x-*) DUMP_ORDER="-e big" ;; esac
	xlibs="-L$xlib -lgmon"
	exact "$xt-O2-pie" calls.c calls.expected $xw "$xlibs" $xt-gcc -O2 -pg -fPIE -pie
	exact "$xt-O0-nopie" calls.c calls.expected $xw "$xlibs" $xt-gcc -O0 -pg -fno-pie -no-pie
	exact "$xt-O2-static" calls.c calls.expected $xw "$xlibs" $xt-gcc -O2 -pg -static
	exact "$xt-cycle" cycle.c cycle.expected $xw "$xlibs" $xt-gcc -O2 -pg
	exact "$xt-threads" threads.c threads.expected $xw "$xlibs" $xt-gcc -O2 -pg
	growth "$xt-arc-growth" $xw "$xlibs" $xt-gcc -O2 -pg
	# The target glibc's own runtime: the same arcs, single-threaded.
	exact "$xt-glibc" calls.c calls.expected $xw "" $xt-gcc -O2 -pg -g
	cross_options "$xt-glibc"
	cross_badinput "$xt-glibc"
	exact "$xt-glibc-cycle" cycle.c cycle.expected $xw "" $xt-gcc -O2 -pg
	case $xt in s390x-*) cross_sum "$xt-cycle" ;; esac
	cross_clang "$xt" "$xw" "$xlibs"
	RUNNER= NM=nm DUMP_ORDER= GNU_GPROF=$(gnu_x86_gprof)
}

for triple in ${CROSS_ONLY:-$CROSS_TRIPLES}; do
	cross_target "$triple"
done
