/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-aarch64.h - the aarch64 port: the arc-table layout its stubs
 * (stubs-aarch64.S) hard-code, the BTI/PAC landing pads and property note
 * they carry under -mbranch-protection, the interrupted PC in a signal
 * context, and the entry code of gcrt1.o.  Selected by arch.h.
 */
#ifndef GMON_ARCH_AARCH64_H
#define GMON_ARCH_AARCH64_H

#if !defined(__AARCH64EL__) || defined(__ILP32__)
# error "the aarch64 port of libgmon is for little-endian LP64 (aarch64-linux-gnu)"
#endif

/*
 * Every instruction is 4 bytes, so one caller slot per 4 bytes of text
 * holds one call site and the fast path can match an arc by its callee
 * alone.
 */
#define GMON_HEAD_SHIFT 2

/* Offsets the fast path reads; tables.c checks them with offsetof(). */
#define GMON_P_LOWPC     0   /* struct gmon_params; LIMIT must follow */
#define GMON_P_LIMIT     8   /* LOWPC: the stub loads both with one ldp */
#define GMON_P_SHLIBS    40
#define GMON_T_BUSY      0   /* struct gmon_table */
#define GMON_ARC_SELF    8   /* struct gmon_arc */
#define GMON_ARC_COUNT   16

#ifdef __ASSEMBLER__
/*
 * -mbranch-protection: the compiler announces BTI with
 * __ARM_FEATURE_BTI_DEFAULT and return-address signing with
 * __ARM_FEATURE_PAC_DEFAULT (bit 0: A key, bit 1: B key).  The stubs
 * then start with a `bti c` landing pad, sign their saved return address
 * like compiled code does, and the object carries the property note;
 * without the note the linker would silently drop BTI from a program
 * built with it, since it ANDs the property of all objects.  The
 * instructions are written as hints, which are NOPs on older CPUs.
 */
# if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#  define BTI_C hint 34 /* bti c */
#  define GMON_AARCH64_BTI 1
# else
#  define BTI_C
#  define GMON_AARCH64_BTI 0
# endif
# if defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 1)
#  define PAC_SIGN hint 25 /* paciasp */
#  define PAC_AUTH hint 29 /* autiasp */
#  define GMON_AARCH64_PAC 2
# elif defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 2)
#  define PAC_SIGN hint 27 /* pacibsp */
#  define PAC_AUTH hint 31 /* autibsp */
#  define GMON_AARCH64_PAC 2
# else
#  define PAC_SIGN
#  define PAC_AUTH
#  define GMON_AARCH64_PAC 0
# endif
# if GMON_AARCH64_BTI || GMON_AARCH64_PAC
/* NT_GNU_PROPERTY_TYPE_0 holding GNU_PROPERTY_AARCH64_FEATURE_1_AND
   (bit 0 BTI, bit 1 PAC); the descriptor is padded to 8 bytes. */
#  define BRANCH_PROPERTY_NOTE                                   \
	.pushsection .note.gnu.property, "a";                   \
	.p2align 3;                                             \
	.long 4;               /* name size: "GNU\0" */         \
	.long 16;              /* descriptor size */            \
	.long 5;               /* NT_GNU_PROPERTY_TYPE_0 */     \
	.asciz "GNU";                                           \
	.long 0xc0000000;      /* AARCH64_FEATURE_1_AND */      \
	.long 4;               /* property data size */         \
	.long GMON_AARCH64_BTI | GMON_AARCH64_PAC;              \
	.long 0;               /* padding */                    \
	.popsection
# else
#  define BRANCH_PROPERTY_NOTE
# endif
#endif /* __ASSEMBLER__ */

/* glibc and musl both keep the interrupted PC in mcontext's pc. */
#define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.pc)
/* GMON_STACKS: AAPCS64's frame records are x86's layout (the caller's
   frame pointer, then the return address, at x29), and code built with
   -pg keeps them: every function calls _mcount, so none is a leaf that
   could leave its return address in x30 alone. */
#define GMON_ARCH_UC_FP(uc) ((uc)->uc_mcontext.regs[29])
#define GMON_ARCH_UC_SP(uc) ((uc)->uc_mcontext.sp)

/* The timer lock's spin loop: a hint to a simultaneous-multithreading
   core that another thread may run (a NOP elsewhere). */
#define GMON_ARCH_RELAX() __asm__ __volatile__("yield")

/* GMON_CLOCK=wall: a return address saved by code built with pac-ret
   carries an authentication code above the 48 bits of a user address. */
#define GMON_ARCH_RA_STRIP(v) ((v) & (((uintptr_t)1 << 48) - 1))

/*
 * gcrt1.o's _start: the kernel leaves argc at sp.  Clear the frame
 * pointer and the link register (the outermost frame, for unwinders),
 * pass the initial stack pointer, keep sp 16-byte aligned (the kernel
 * already does; the AND costs nothing), and trap if it ever returns.
 */
#define GMON_ARCH_START_ASM             \
	"	mov x29, #0\n"              \
	"	mov x30, #0\n"              \
	"	mov x0, sp\n"               \
	"	and sp, x0, #-16\n"         \
	"	bl __gmon_start_c\n"        \
	"	brk #1\n"

#endif
