/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch.h - the one place that knows which architectures libgmon runs on:
 * it includes the header of the architecture being built (arch-<arch>.h),
 * stops with a clear error on any other, checks that the header defines
 * what the generic code uses, and supplies defaults for what it may leave
 * out.  Included by the C files (through gmon_rt.h, or directly by
 * gcrt1.c) and by the stubs' assembly, so everything outside
 * `#ifndef __ASSEMBLER__` must be plain #defines.
 *
 * What an architecture header defines (doc/libgmon.md, "Porting libgmon
 * to a new architecture", explains each):
 *
 *   required, for C and assembly
 *     GMON_HEAD_SHIFT        log2 of the caller-PC bytes one slot covers
 *   required, for C
 *     GMON_ARCH_UC_PC(uc)    the interrupted PC in a ucontext_t *
 *     GMON_ARCH_RELAX()      a spin-wait hint (or nothing)
 *     GMON_ARCH_START_ASM    the body of gcrt1.o's _start, as a string
 *   optional: byte offsets the stubs hard-code, each checked against
 *   offsetof() in tables.c when defined
 *     GMON_P_LOWPC, GMON_P_LIMIT            struct gmon_params
 *     GMON_T_BUSY                           struct gmon_table
 *     GMON_ARC_FROM, GMON_ARC_SELF, GMON_ARC_COUNT   struct gmon_arc
 *   optional, for C (defaults below)
 *     GMON_ARCH_INIT()       run once at start-up, before any table exists
 *     GMON_ARCH_TABLE_FIELDS and its companions: extra per-table fields
 *                            for a fast path that cannot reach globals
 *     GMON_ARCH_RA_ALIGN and its companions: what a return address saved
 *                            on the stack looks like (GMON_CLOCK=wall)
 *     GMON_ARCH_UC_FP(uc), GMON_ARCH_UC_SP(uc): the frame and stack
 *                            pointers in a ucontext_t *, where frame
 *                            records are (saved FP, return address):
 *                            GMON_STACKS walks them (else frame 0 only)
 */
#ifndef GMON_ARCH_H
#define GMON_ARCH_H

/* A table's caller slots start this far into its map, after the header
   (struct gmon_table); the same on every architecture. */
#define GMON_HEADS_AT 4096

#if defined(__x86_64__)
# include "arch-x86_64.h"
#elif defined(__i386__)
# include "arch-i386.h"
#elif defined(__aarch64__) && defined(__AARCH64EL__)
# include "arch-aarch64.h"
#elif defined(__arm__) && defined(__ARMEL__)
# include "arch-arm.h"
#elif defined(__riscv) && __riscv_xlen == 64
# include "arch-riscv64.h"
#elif defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2
# include "arch-ppc64le.h"
#elif defined(__s390x__)
# include "arch-s390x.h"
#else
# error "libgmon has no port to this architecture: see doc/libgmon.md, Porting libgmon to a new architecture"
#endif

#ifndef GMON_HEAD_SHIFT
# error "the architecture header does not define GMON_HEAD_SHIFT"
#endif

#ifndef __ASSEMBLER__

# if !defined(GMON_ARCH_UC_PC) || !defined(GMON_ARCH_RELAX) || \
     !defined(GMON_ARCH_START_ASM)
#  error "the architecture header lacks GMON_ARCH_UC_PC, GMON_ARCH_RELAX or GMON_ARCH_START_ASM"
# endif

/* Most architectures need nothing detected at start-up. */
# ifndef GMON_ARCH_INIT
#  define GMON_ARCH_INIT() ((void)0)
# endif

/*
 * Most fast paths reach gmon_p directly and need no per-table fields.
 * One that cannot (i386) defines, together:
 *   GMON_ARCH_TABLE_FIELDS           member declarations, ';'-terminated
 *   GMON_ARCH_TABLE_CLAIM(t)         fill them as t goes to a thread
 *   GMON_ARCH_TABLE_SET_LIMIT(t, v)  recording switched on (v) or off (0)
 *   GMON_ARCH_TABLE_CHECKS           _Static_asserts on their offsets,
 *                                    each ';'-terminated
 */
# ifndef GMON_ARCH_TABLE_FIELDS
#  define GMON_ARCH_TABLE_FIELDS
#  define GMON_ARCH_TABLE_CLAIM(t) ((void)(t))
#  define GMON_ARCH_TABLE_SET_LIMIT(t, v) ((void)(t), (void)(v))
#  define GMON_ARCH_TABLE_CHECKS
# endif

/*
 * GMON_CLOCK=wall (offcpu.c) looks on a blocked thread's stack for the
 * first return address into the program:
 *   GMON_ARCH_RA_ALIGN       alignment of code addresses (default 4)
 *   GMON_ARCH_RA_STRIP(v)    a saved return address without bits that are
 *                            not part of the address (default: none)
 *   GMON_ARCH_CALL_BYTES     optional, with GMON_ARCH_IS_CALL(c): how many
 *                            code bytes before a return address to read,
 *                            and whether those bytes end in a call
 */
# ifndef GMON_ARCH_RA_ALIGN
#  define GMON_ARCH_RA_ALIGN 4
# endif
# ifndef GMON_ARCH_RA_STRIP
#  define GMON_ARCH_RA_STRIP(v) (v)
# endif

#endif /* !__ASSEMBLER__ */

#endif
