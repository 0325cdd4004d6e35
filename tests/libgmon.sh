#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon.sh: runs the runtime tests of libgmon (src/libgmon).  Run
# from the top of the tree after `make`:
#
#   sh tests/libgmon.sh            every part, in the order below
#   sh tests/libgmon.sh PART...    only these parts (names as below)
#
# The parts are tests/libgmon/PART.sh, sourced one after the other with the
# helpers of tests/lib.sh and tests/libgmon/common.sh:
#   counts     exact call counts with gcc and clang (glibc), threads
#   build      linking: without -pg, CET; the architecture dispatch
#   musl       musl-gcc builds, and clang with libgmon's gcrt1.o
#   libcp      musl's C library built with -pg (make libc_p): its calls
#              counted exactly
#   i386       -m32 builds
#   process    signals, moncontrol, fork and exec
#   histogram  sampling: time shares, threads, rate, bins over 65535
#   failures   unwritable profiles and a full arc table
#   signals    exit and dump signals, the C API, GMON_OUT names
#   loss       growing arc tables, the loss summary, code outside .text
#   shlibs     GMON_SHLIBS: shared libraries, dlopen, libgmon-audit.so
#   wall       GMON_CLOCK=wall: time waiting in sleep, read and locks
#   stacks     GMON_STACKS: call stacks per tick, per-thread records
#   sigmask    threads that block signals are sampled; masks and the
#              SIGPROF action read back (every toolchain, aarch64 too)
#   cputime    the side file's CPU times per thread and per process
#   unwind     GMON_STACKS through code without frame pointers (qsort, a
#              -fomit-frame-pointer library), ticks in the hook
#   hooknames  every function of the recorder and the hooks is one gprof
#              counts as the profiling hook
#   preload    libgmon-preload.so and gprof-run: programs built without
#              -pg, each function's share within 5 points of what the
#              program measured; the aarch64 build under qemu-aarch64
#              (a window from the program's own view of the ticks); the
#              cases where preloading cannot work
#   cross      the foreign targets under qemu-user (CROSS_ONLY="TRIPLE..."
#              limits it to some of tests/targets.sh's)
# They build programs from tests/libgmon/*.c with each toolchain present,
# run them in tests/tmp/libgmon/ (or $LIBGMON_TMP) and check the gmon.out
# they write.  All of it takes about 25 seconds, the sigmask part about
# 30 seconds of CPU more, the preload part's aarch64 run under qemu
# about 10 seconds of CPU more (30 s on a busy machine), and the foreign
# targets about a minute more.
# One line per test: "PASS: name", "FAIL: name" plus indented details,
# or "SKIP: name (why)".
# Exit status 1 if anything failed.
set -u

ROOT=$(pwd)
TESTS_DIR=$ROOT/tests
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
# shellcheck source=tests/libgmon/common.sh
. "$TESTS_DIR/libgmon/common.sh"

[ $# -gt 0 ] || set -- counts build musl libcp i386 process histogram failures signals loss shlibs wall stacks unwind sigmask cputime hooknames preload cross
libgmon_setup || exit 1
for part in "$@"; do
	if [ ! -f "$T/$part.sh" ]; then
		fail "$part" "no test part tests/libgmon/$part.sh"
		continue
	fi
	# shellcheck source=/dev/null
	. "$T/$part.sh"
done

[ "$failures" = 0 ]
