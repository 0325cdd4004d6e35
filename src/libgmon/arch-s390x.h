/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-s390x.h - the s390x (64-bit z/Architecture, big-endian) port: the
 * slot size, the interrupted PC in a signal context, what the slow-call
 * trampoline must save (decided at start-up by arch-s390x.c) and the
 * entry code of gcrt1.o.  Its hooks are in stubs-s390x.S.
 */
#ifndef GMON_ARCH_S390X_H
#define GMON_ARCH_S390X_H

/*
 * The shortest call, "basr", is 2 bytes, so a slot covers 2 bytes of
 * caller PCs and holds one call site.  (There is no assembly fast path;
 * the C recorder compares caller and callee anyway.)
 */
#define GMON_HEAD_SHIFT 1

/* The register save area the ABI requires below the stack pointer of
   any function that calls another. */
#define GMON_S390X_SAVE_AREA 160

#ifndef __ASSEMBLER__

/* glibc and musl both keep the PSW, whose address is the next PC. */
# define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.psw.addr)

/* The timer lock is rarely contended: no hint needed. */
# define GMON_ARCH_RELAX() ((void)0)

/* GMON_CLOCK=wall: instructions are 2, 4 or 6 bytes long. */
# define GMON_ARCH_RA_ALIGN 2

/* Nonzero when the CPU and kernel have the vector facility, whose
   argument registers %v24-%v31 __gmon_slowcall must then save too. */
extern unsigned int gmon_s390x_vx __attribute__((visibility("hidden")));
void gmon_s390x_init(void) __attribute__((visibility("hidden")));
# define GMON_ARCH_INIT() gmon_s390x_init()

/*
 * gcrt1.o's _start: the kernel leaves argc at %r15.  Pass the initial
 * stack pointer, align the stack to 8 (the ABI's alignment), give the
 * callee its 160-byte register save area with a zero back chain (the
 * outermost frame), clear the frame pointer %r11, and never return: a
 * zero halfword is an invalid instruction.
 */
# define GMON_ARCH_START_ASM            \
	"	lgr %r2, %r15\n"            \
	"	lghi %r1, -8\n"             \
	"	ngr %r15, %r1\n"            \
	"	aghi %r15, -160\n"          \
	"	xc 0(8, %r15), 0(%r15)\n"   \
	"	lghi %r11, 0\n"             \
	"	brasl %r14, __gmon_start_c\n" \
	"	.word 0\n"

#endif /* !__ASSEMBLER__ */

#endif
