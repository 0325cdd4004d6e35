/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-s390x.S - the s390x profiling hooks and the slow-call trampoline.
 *
 * gcc emits its hook as text ahead of the prologue, so the compiler does
 * not know a call happens there: everything live at function entry must
 * come back unchanged, the argument registers %r2-%r6 and %f0/%f2/%f4/%f6
 * (and %v24-%v31 under the vector ABI), the static chain %r0, and
 * whatever the callee-saved registers hold.  Only %r1, which a PLT stub
 * may clobber on the way in anyway, is free.
 *
 *   _mcount     gcc: "stg %r14,8(%r15); brasl %r14,_mcount; lg %r14,8(%r15)"
 *               frompc = 8(%r15), selfpc = %r14
 *   __fentry__  gcc -mfentry: "brasl %r0,__fentry__" as the first
 *               instruction; frompc = %r14 (still live), selfpc = %r0,
 *               and the return is to %r0 (through %r1)
 *   mcount      clang: an ordinary call after the prologue that passes
 *               no caller address (the profiled function's return
 *               address sits in its save area at an offset only its
 *               frame size tells): counted as nothing, said once
 *
 * The gcc hooks save %r0-%r14 in a frame of their own, with the 160-byte
 * register save area the C recorder may use below it, and call the
 * recorder, which is compiled with -msoft-float -mno-vx so that it never
 * touches a floating-point or vector register.  Its rare paths that call
 * the C library go through __gmon_slowcall, which saves those.
 */
#include "arch.h"

/* Our frame: the callee's save area, then %r0-%r14. */
#define HOOK_REGS  GMON_S390X_SAVE_AREA
#define HOOK_FRAME (GMON_S390X_SAVE_AREA + 15 * 8)

	.text

/* Push the hook's frame (with a back chain, for -mbackchain unwinders)
   and save %r0-%r14; leaves the caller's stack pointer in %r1. */
.macro HOOK_ENTER
	lgr	%r1, %r15
	lay	%r15, -HOOK_FRAME(%r15)
	stmg	%r0, %r14, HOOK_REGS(%r15)
	stg	%r1, 0(%r15)
.endm

.macro HOOK_LEAVE
	lmg	%r0, %r14, HOOK_REGS(%r15)
	lay	%r15, HOOK_FRAME(%r15)
.endm

	.p2align 3
	.globl	_mcount
	.type	_mcount, @function
_mcount:
	HOOK_ENTER
	lg	%r2, 8(%r1)		/* frompc: the profiled function put it there */
	lgr	%r3, %r14		/* selfpc */
	brasl	%r14, __mcount_internal
	HOOK_LEAVE
	br	%r14
	.size	_mcount, . - _mcount

	.p2align 3
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	HOOK_ENTER
	lgr	%r2, %r14		/* frompc: the profiled function's return address */
	lgr	%r3, %r0		/* selfpc: brasl %r0 put ours there */
	brasl	%r14, __mcount_internal
	HOOK_LEAVE
	lgr	%r1, %r0		/* "br %r0" would not branch: register 0 */
	br	%r1			/* as a branch target means none */
	.size	__fentry__, . - __fentry__

/* clang's hook: an ordinary call, so a tail call into C is enough. */
	.p2align 3
	.globl	mcount
	.type	mcount, @function
mcount:
	larl	%r2, .Lclang_why
	lgr	%r3, %r14		/* selfpc */
	jg	__gmon_no_caller
	.size	mcount, . - mcount

	.section .rodata.str1.2, "aMS", @progbits, 1
	.p2align 1
.Lclang_why:
	.asciz	"clang -pg on s390x"
	.text

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * Runs __gmon_slow_dispatch(op, a, b), which calls into the C library, with
 * the floating-point argument registers saved around it, and the vector
 * argument registers when the machine has them (gmon_s390x_vx, set by
 * arch-s390x.c): the profiled function's arguments may still be in them.
 * An ordinary C function otherwise.
 */
#define SLOW_FPRS  GMON_S390X_SAVE_AREA
#define SLOW_VRS   (SLOW_FPRS + 4 * 8)
#define SLOW_FRAME (SLOW_VRS + 8 * 16)

	.p2align 3
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, @function
__gmon_slowcall:
	stmg	%r6, %r15, 48(%r15)	/* callee-saved, in our caller's save area */
	lgr	%r1, %r15
	lay	%r15, -SLOW_FRAME(%r15)
	stg	%r1, 0(%r15)
	std	%f0, SLOW_FPRS(%r15)
	std	%f2, SLOW_FPRS + 8(%r15)
	std	%f4, SLOW_FPRS + 16(%r15)
	std	%f6, SLOW_FPRS + 24(%r15)
	larl	%r1, gmon_s390x_vx
	lt	%r0, 0(%r1)
	je	1f
	.machine push
	.machine "z13"
	vstm	%v24, %v31, SLOW_VRS(%r15)
	.machine pop
1:	brasl	%r14, __gmon_slow_dispatch
	larl	%r1, gmon_s390x_vx
	lt	%r0, 0(%r1)
	je	2f
	.machine push
	.machine "z13"
	vlm	%v24, %v31, SLOW_VRS(%r15)
	.machine pop
2:	ld	%f0, SLOW_FPRS(%r15)
	ld	%f2, SLOW_FPRS + 8(%r15)
	ld	%f4, SLOW_FPRS + 16(%r15)
	ld	%f6, SLOW_FPRS + 24(%r15)
	lmg	%r6, %r15, SLOW_FRAME + 48(%r15)
	br	%r14
	.size	__gmon_slowcall, . - __gmon_slowcall

	.section .note.GNU-stack, "", @progbits
