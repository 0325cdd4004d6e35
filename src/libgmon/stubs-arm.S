/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-arm.S - the 32-bit arm profiling hooks and the slow-call
 * trampoline.  Written in the ARM instruction set (ARMv5T and later);
 * calls from Thumb code reach it through `blx`, which the linker makes
 * of the compiler's `bl`, and every return is a `bx`/`pop {pc}`, which
 * goes back to the caller's instruction set.
 *
 *   __gnu_mcount_nc  gcc's hook (and clang's with -meabi gnu), emitted
 *                    as `push {lr}; bl __gnu_mcount_nc` at the start of
 *                    the function, invisible to the compiler: r0-r3 (the
 *                    arguments) and, with the hard-float ABI, d0-d7 are
 *                    live and must come back unchanged; ip (r12) is free,
 *                    as it is across any call through a veneer.  The
 *                    pushed word is frompc (the profiled function's own
 *                    return address); the hook must pop it and return
 *                    with lr holding it again.  selfpc is lr on entry.
 *   mcount           clang's default hook: an ordinary call that passes
 *                    no caller address, which cannot be counted.
 *
 * Addresses from Thumb code have bit 0 set; it is cleared before they are
 * recorded, so that arcs name the instruction's real address.  The C
 * recorder is compiled with -mgeneral-regs-only, so it leaves d0-d7
 * alone; only __gmon_slowcall, which calls into the C library, saves them.
 */
#include "arch.h"

	.syntax	unified
	.arm
	.text

	.p2align 2
	.globl	__gnu_mcount_nc
	.type	__gnu_mcount_nc, %function
__gnu_mcount_nc:
	push	{r0, r1, r2, r3, r4, lr}
	ldr	r0, [sp, #24]		/* frompc: the word the caller pushed */
	bic	r0, r0, #1
	bic	r1, lr, #1		/* selfpc */
	mov	r4, sp			/* the push left sp 4 mod 8: realign */
	bic	ip, r4, #7		/* it for the call, as the AAPCS asks */
	mov	sp, ip
	bl	__mcount_internal
	mov	sp, r4
	pop	{r0, r1, r2, r3, r4, ip} /* ip: where to go back in the callee */
	pop	{lr}			/* the callee's own return address */
	bx	ip
	.size	__gnu_mcount_nc, . - __gnu_mcount_nc

/*
 * clang's `bl mcount` carries selfpc only; the caller's address is in the
 * profiled function's frame at an offset the hook cannot know.  Rather
 * than record wrong arcs, __gmon_no_caller() says once that calls are not
 * counted (the thread still gets its sampling timer).  An ordinary call:
 * only r4-r11 need keeping, and the stack is 8-byte aligned on entry.
 */
	.p2align 2
	.globl	mcount
	.type	mcount, %function
mcount:
	push	{r4, lr}
	adr	r0, .Lclang_why		/* pc-relative: no text relocation */
	bic	r1, lr, #1		/* selfpc */
	bl	__gmon_no_caller
	pop	{r4, pc}
.Lclang_why:
	.asciz	"clang -pg on arm; compile with gcc, or with clang -meabi gnu"
	.p2align 2
	.size	mcount, . - mcount

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * Runs __gmon_slow_dispatch(op, a, b), which calls into the C library, with
 * d0-d7 saved around it: behind __gnu_mcount_nc the profiled function's
 * floating-point arguments are still in them (hard-float ABI only; with
 * soft-float arguments travel in r0-r3, which the hook has saved).
 * Called from C, so the stack is 8-byte aligned and stays so.
 */
	.p2align 2
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, %function
__gmon_slowcall:
	push	{r4, lr}
#ifdef __ARM_PCS_VFP
	vpush	{d0-d7}
#endif
	bl	__gmon_slow_dispatch
#ifdef __ARM_PCS_VFP
	vpop	{d0-d7}
#endif
	pop	{r4, pc}
	.size	__gmon_slowcall, . - __gmon_slowcall

	.section .note.GNU-stack, "", %progbits
