# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/musl.sh: the musl build of libgmon (src/libgmon/musl):
# exact counts with musl-gcc, dynamic and static, threads, and a clang
# link for a musl target that needs libgmon's gcrt1.o.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

if [ -n "$MUSL" ]; then
	for opt in -O0 -O2; do
		exact "musl$opt" calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc $opt -pg
		exact "musl$opt-static" calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc $opt -pg -static
	done
	exact musl-O2-mfentry calls.c calls.expected 8 "$MUSL_LIBS" musl-gcc -O2 -pg -mfentry
	exact threads-musl threads.c threads.expected 8 "$MUSL_LIBS" musl-gcc -O2 -pg
else
	skip musl "musl-gcc or src/libgmon/musl/libgmon.a is missing; apt-get install musl-tools"
fi

# A musl toolchain whose driver wants gcrt1.o for -pg (clang, static).
n=clang-musl-gcrt1
if [ -n "$CLANG" ] && [ -n "$MUSL" ]; then
	# Where musl-gcc finds musl's start files and headers.
	musl_v=$(echo 'int main(void){return 0;}' |
		musl-gcc -v -x c - -o "$W/musl-probe" 2>&1 | tr ' ' '\n')
	musl_lib=$(printf '%s\n' "$musl_v" | sed -n 's|/crti\.o$||p' | head -1)
	musl_inc=$(printf '%s\n' "$musl_v" | grep '^/.*include.*musl$' | head -1)
	sys=$W/$n/sysroot
	mkdir -p "$sys/usr/lib"
	for f in "$musl_lib"/*.o "$musl_lib"/*.a; do
		ln -sf "$f" "$sys/usr/lib/"
	done
	ln -sf "$L/musl/gcrt1.o" "$sys/usr/lib/gcrt1.o"
	exact "$n" calls.c calls.expected 8 "$MUSL_LIBS" clang --target=x86_64-linux-musl \
		--sysroot="$sys" -nostdinc -isystem "$musl_inc" -static -O2 -pg
else
	skip "$n" "needs clang and musl-gcc"
fi
