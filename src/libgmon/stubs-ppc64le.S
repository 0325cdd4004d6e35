/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-ppc64le.S - the ppc64le (ELFv2) profiling hook and the slow-call
 * trampoline.
 *
 * gcc and clang both emit, after "mflr 0; std 0,16(1); stdu 1,-N(1)",
 * an ordinary call "bl _mcount; nop": the compiler has moved every live
 * argument to a callee-saved register first, so the hook may use all
 * volatile registers like any function.  At the call
 *   selfpc = LR, our return address into the profiled function;
 *   frompc = the profiled function's own return address, which it saved
 *            in the LR save slot of its caller's frame: 16 bytes above
 *            the back chain that stdu left at 0(r1).
 * r2 (the TOC) must be the same on return.  libgmon is linked into the
 * executable, so the call arrives at the local entry with the program's
 * TOC already in r2, which is also what the recorder needs; the global
 * entry computes it from r12 as the ABI requires, for a caller that comes
 * through a PLT stub (which restores its own r2 after the call).
 */
#include "arch.h"

	.abiversion 2
	.text

/* The global entry of a function that needs the TOC: r12 holds its own
   address there. */
.macro GLOBAL_ENTRY name
	.p2align 4
	.globl	\name
	.type	\name, @function
\name:
0:	addis	2, 12, .TOC.-0b@ha
	addi	2, 2, .TOC.-0b@l
	.localentry \name, . - \name
.endm

/* The frame: back chain, CR and LR save words and the TOC save slot, the
   minimum the ABI asks of a function that calls another with all its
   arguments in registers (so no parameter save area). */
#define FRAME 32

	GLOBAL_ENTRY _mcount
	mflr	0
	ld	11, 0(1)		/* the caller's frame (back chain) */
	ld	3, 16(11)		/* frompc: the LR saved there */
	mr	4, 0			/* selfpc */
	std	0, 16(1)		/* our LR, in the profiled frame's slot */
	stdu	1, -FRAME(1)
	bl	__mcount_internal
	nop
	addi	1, 1, FRAME
	ld	0, 16(1)
	mtlr	0
	blr
	.size	_mcount, . - _mcount

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * The hook is an ordinary call, so nothing the profiled function keeps
 * in a volatile register is live: the recorder's slow paths may call the
 * C library directly.
 */
	GLOBAL_ENTRY __gmon_slowcall
	.hidden	__gmon_slowcall
	b	__gmon_slow_dispatch
	.size	__gmon_slowcall, . - __gmon_slowcall

	.section .note.GNU-stack, "", @progbits
