/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-ppc64le.h - the 64-bit PowerPC ELFv2 port (ppc64le): the slot
 * size, the interrupted PC in a signal context, the spin-wait hint and
 * the entry code of gcrt1.o.  Its hooks are in stubs-ppc64le.S.  Selected
 * by arch.h for _CALL_ELF == 2, the ABI of every ppc64le system.
 */
#ifndef GMON_ARCH_PPC64LE_H
#define GMON_ARCH_PPC64LE_H

/*
 * Every instruction is 4 bytes, so one slot per 4 bytes of caller PCs
 * still holds one call site.  (There is no assembly fast path; the C
 * recorder compares caller and callee and would be exact anyway.)
 */
#define GMON_HEAD_SHIFT 2

/* glibc and musl save the next instruction address (NIP) in gp_regs[32]. */
#define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.gp_regs[32])

/* The timer lock is rarely contended: no priority games, no hint. */
#define GMON_ARCH_RELAX() ((void)0)

/*
 * gcrt1.o's _start: the kernel leaves argc at r1.  Find the TOC (r2) from
 * our own address, which needs no help from the kernel or the loader;
 * pass the initial stack pointer; align the stack to 16, clear the link
 * register and push a minimal 32-byte frame whose back chain is 0 (the
 * outermost frame); never return.
 */
#define GMON_ARCH_START_ASM                    \
	"	bcl 20, 31, 1f\n"                  \
	"1:	mflr 11\n"                         \
	"	addis 2, 11, .TOC.-1b@ha\n"        \
	"	addi 2, 2, .TOC.-1b@l\n"           \
	"	mr 3, 1\n"                         \
	"	clrrdi 1, 1, 4\n"                  \
	"	li 0, 0\n"                         \
	"	mtlr 0\n"                          \
	"	stdu 0, -32(1)\n"                  \
	"	bl __gmon_start_c\n"               \
	"	nop\n"                             \
	"	trap\n"

#endif
