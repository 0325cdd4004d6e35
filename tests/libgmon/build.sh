# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/build.sh: how libgmon is built and linked: a program
# linked without -pg, a CET-enabled program, and the split between the
# generic sources and the architecture files (doc/libgmon.md, "Porting").
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# Compiled with -pg but linked without it: no gcrt1.o calls __monstartup,
# so the runtime's own constructor must start it.
n=link-without-pg
mkdir -p "$W/$n"
if $CC -O2 -pg -I"$T" -c "$T/calls.c" -o "$W/$n/calls.o" >"$W/$n/build.log" 2>&1 &&
   $CC "$W/$n/calls.o" -o "$W/$n/prog" $GLIBC_LIBS -pthread >>"$W/$n/build.log" 2>&1; then
	run "$n" --
	check_exact "$n" 8 "$T/calls.expected"
else
	fail "$n" "build failed" "$(cat "$W/$n/build.log")"
fi

# Linking libgmon never drops IBT/SHSTK from a program.  The linker ANDs
# the CET property of all inputs; it names every input that lacks it with
# -z cet-report.  (The C library's own start files may lack it; only
# libgmon's members matter here.)
n=cet-property
if readelf -n "$L/libgmon.a" 2>/dev/null | grep -q 'IBT'; then
	if build "$n" calls.c "$GLIBC_LIBS -Wl,-z,cet-report=warning" \
		$CC -O2 -pg -fcf-protection=full; then
		if grep 'libgmon' "$W/$n/build.log" >"$W/$n/cet"; then
			fail "$n" "libgmon objects lack the CET property:" "$(cat "$W/$n/cet")"
		else
			run "$n" --
			check_exact "$n" 8 "$T/calls.expected"
		fi
	fi
else
	skip "$n" "libgmon was built without -fcf-protection"
fi

# The generic sources name no architecture: everything a port needs is in
# arch*.h, arch-*.c and stubs-*.S.
n=generic-sources
mkdir -p "$W/$n"
arch_words='__x86_64__|__i386__|__amd64__|__aarch64__|__arm__|__riscv|__powerpc|__s390|__mips'
x86_words='cpuid\.h|[a-z]*intrin\.h|__builtin_ia32_|REG_[ER]IP'
(cd "$L" && for f in *.c *.h; do
	case $f in arch*) continue ;; esac
	grep -nE "$arch_words|$x86_words" "$f" | sed "s|^|$f:|"
done) >"$W/$n/hits"
if [ -s "$W/$n/hits" ]; then
	fail "$n" "architecture-specific code outside the arch files:" "$(cat "$W/$n/hits")"
else
	pass "$n"
fi

# An architecture without a port stops at arch.h with a message that says
# so, rather than at some later undefined name.  Undefining the compiler's
# architecture macros stands in for a foreign compiler.
n=unported-arch
mkdir -p "$W/$n"
if $CC -U__x86_64__ -U__i386__ -U__aarch64__ -U__arm__ -I"$L" -E -x c "$L/arch.h" \
	>/dev/null 2>"$W/$n/err"; then
	fail "$n" "arch.h accepted an architecture it has no port for"
elif grep -q 'libgmon has no port to this architecture' "$W/$n/err"; then
	pass "$n"
else
	fail "$n" "unexpected error from arch.h:" "$(cat "$W/$n/err")"
fi
