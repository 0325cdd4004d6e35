/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-probe.c - names the libgmon port a compiler builds for.  Never
 * compiled: libgmon.mk's lgm_arch runs it through the compiler's
 * preprocessor (`CC -E -P -x c`) and reads the one `lgm_arch "NAME"` line
 * it leaves, NAME being the port's suffix (arch-NAME.h, stubs-NAME.S,
 * LGM_ARCH_*_NAME).  An architecture without a port leaves no line.
 * Names are quoted so that no predefined macro (gcc defines `i386` and
 * `linux` outside strict ISO mode) replaces them.  Keep the conditions in
 * step with arch.h.
 */
#if defined(__x86_64__)
lgm_arch "x86_64"
#elif defined(__i386__)
lgm_arch "i386"
#elif defined(__aarch64__) && defined(__AARCH64EL__)
lgm_arch "aarch64"
#elif defined(__arm__) && defined(__ARMEL__)
lgm_arch "arm"
#elif defined(__riscv) && __riscv_xlen == 64
lgm_arch "riscv64"
#elif defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2
lgm_arch "ppc64le"
#elif defined(__s390x__)
lgm_arch "s390x"
#endif
