# SPDX-License-Identifier: GPL-3.0-or-later
# libc_p.sh - builds libc_p.a, musl's C library compiled with -pg, for
# `make libc_p` (src/libgmon/libc_p.mk):
#
#   sh src/libgmon/libc_p.sh FETCH BUILD OUT
#
# FETCH  where `apt-get source musl` unpacks Debian's musl source (kept;
#        fetched once, never committed)
# BUILD  a scratch copy of that tree, configured and built (replaced)
# OUT    the archive to write (musl's lib/libc.a)
#
# Environment: CC (default gcc), MAKE (default make), JOBS (default 2).
# A failure is said in one line, starting "libc_p:", with the fix.
#
# What is not compiled with -pg, and why (the list is in the makefile
# fragment written below; see also README):
#   - __libc_start_main.c, __init_tls.c, __stack_chk_fail.c,
#     __set_thread_area: they run before the thread pointer is set, and
#     the hook reads a thread-local variable (libgmon's gmon_cur);
#     __init_tls.c's memcpy of the TLS image goes to a copy of memcpy.c
#     built without -pg, for the same reason;
#   - src/ldso (dynamic loading, the TLS descriptors): loader code;
#   - __unmapself and the signal return code: they run on a stack being
#     freed, or are entered by the kernel, not called.
# -fno-optimize-sibling-calls keeps each caller in the call graph (with a
# tail call, the callee's hook would name the caller's caller).
# Assembly gets no hook at all: musl's assembly versions of the string
# functions (memcpy, memmove, memset on x86-64) are removed from the
# copy, so that its C versions, which count, are built instead.
# shellcheck shell=sh
set -eu

[ $# = 3 ] || { echo "usage: sh $0 FETCH BUILD OUT" >&2; exit 2; }
fetch=$1 build=$2 out=$3
cc=${CC:-gcc}
make=${MAKE:-make}
jobs=${JOBS:-2}

die() { echo "libc_p: $*" >&2; exit 1; }

abspath() { mkdir -p "$1" && (cd "$1" && pwd); }

# ---- fetch: Debian's source of musl, of the installed musl-dev if it
# is still available, else the current one --------------------------------
fetch_source() {
	[ -f "$fetch/.complete" ] && return 0
	command -v apt-get >/dev/null 2>&1 ||
		die "needs apt-get (a Debian-like system) to fetch musl's source with apt-get source musl"
	command -v dpkg-source >/dev/null 2>&1 ||
		die "apt-get source needs dpkg-source: apt-get install dpkg-dev"
	ver=$(dpkg-query -W -f='${source:Version}' musl-dev 2>/dev/null || true)
	spec=musl
	if [ -n "$ver" ] && apt-get source --print-uris "musl=$ver" >/dev/null 2>&1; then
		spec="musl=$ver"
	elif ! err=$(apt-get source --print-uris musl 2>&1 >/dev/null); then
		case $err in
		*deb-src*)
			die "apt-get source musl finds no source packages: add deb-src beside deb in /etc/apt/sources.list (or \"Types: deb deb-src\" in /etc/apt/sources.list.d/debian.sources), then apt-get update (.ci/run does this)" ;;
		*)
			die "apt-get source musl fails: $(printf '%s\n' "$err" | grep -m1 '^E:' || printf '%s\n' "$err" | head -1)" ;;
		esac
	fi
	rm -rf "$fetch.tmp"
	mkdir -p "$fetch.tmp"
	if ! (cd "$fetch.tmp" && apt-get source -q "$spec") >"$fetch.tmp/fetch.log" 2>&1; then
		die "apt-get source $spec failed (network?); see $fetch.tmp/fetch.log"
	fi
	rm -rf "$fetch"
	mv "$fetch.tmp" "$fetch"
	: >"$fetch/.complete"
}

fetch_source
tree=$(find "$fetch" -mindepth 1 -maxdepth 1 -type d -name 'musl-*' | head -1)
if [ -z "$tree" ] || [ ! -x "$tree/configure" ]; then
	die "no musl source tree in $fetch: remove that folder and run make libc_p again"
fi

# ---- a scratch copy, prepared as Debian's build does, plus our changes ----
echo "libc_p: building ${tree##*/} with -pg in $build (log: make.log)"
start=$(date +%s)
rm -rf "$build"
mkdir -p "$build"
cp -R "$tree"/. "$build"/
build=$(abspath "$build")
cd "$build"
# Debian's musl ships fts (debian/rules, copy_fts); so does libc_p.
if [ -f debian/musl-fts/fts.c ]; then
	mkdir -p src/fts
	cp debian/musl-fts/fts.c debian/musl-fts/config.h src/fts/
	cp debian/musl-fts/fts.h include/
fi
./configure --disable-shared CC="$cc" CFLAGS="-O2 -fno-omit-frame-pointer -fno-optimize-sibling-calls" \
	>configure.log 2>&1 || die "musl's configure failed; see $build/configure.log"
arch=$(sed -n 's/^ARCH = //p' config.mak)
[ -n "$arch" ] || die "musl's configure wrote no ARCH; see $build/configure.log"

# The string functions with an assembly version: build the C one instead.
for f in src/string/"$arch"/*.[sS]; do
	[ -f "$f" ] || continue
	base=${f##*/}
	base=${base%.*}
	[ -f "src/string/$base.c" ] && rm "$f"
done

# memcpy for __copy_tls, which runs before the thread pointer is set.
cat >src/string/libc_p_memcpy_early.c <<'EOF'
/* Added by gproftk's libc_p build: memcpy.c without -pg, for the copy of
   the TLS image made before the thread pointer is set (__init_tls.c). */
#define memcpy __libc_p_memcpy_early
#include "memcpy.c"
EOF

# Read after musl's Makefile (make -f Makefile -f libc_p.mak): -pg for the
# objects of libc.a (AOBJS: .o, or the .lo of the shared build when the
# compiler makes position-independent code anyway) but those named at the
# top of this script.
cat >libc_p.mak <<'EOF'
# Added by gproftk's libc_p build.
LIBC_P_NOPG_NAMES = __libc_start_main __init_tls __stack_chk_fail \
	__set_thread_area __unmapself libc_p_memcpy_early
LIBC_P_NOPG = $(filter $(foreach n,$(LIBC_P_NOPG_NAMES),%/$(n).o %/$(n).lo) \
	obj/src/ldso/% obj/src/signal/%restore.o obj/src/signal/%restore.lo, $(AOBJS))
$(filter-out $(LIBC_P_NOPG), $(AOBJS)): CFLAGS_ALL += -pg
obj/src/env/__init_tls.o obj/src/env/__init_tls.lo: \
	CFLAGS_ALL += -Dmemcpy=__libc_p_memcpy_early
obj/src/string/libc_p_memcpy_early.o obj/src/string/libc_p_memcpy_early.lo: \
	CFLAGS_ALL += $(CFLAGS_MEMOPS)
EOF

"$make" -f Makefile -f libc_p.mak -j"$jobs" lib/libc.a >make.log 2>&1 ||
	die "building musl failed; see $build/make.log"
cd - >/dev/null
cp "$build/lib/libc.a" "$out.tmp"
mv "$out.tmp" "$out"
secs=$(($(date +%s) - start))
# The CPU time of this script's children (configure, make, the compilers).
times >"$build/times"
cpu=$(tail -1 "$build/times" | awk '{ print $1 " user, " $2 " system" }')
echo "$secs s with $jobs jobs on $(nproc 2>/dev/null || echo '?') CPUs; CPU $cpu" \
	>"$build/build-time"
echo "libc_p: $out built in $secs s"
