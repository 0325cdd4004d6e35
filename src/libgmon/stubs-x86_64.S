/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-x86_64.S - the x86-64 profiling hooks and the slow-call trampoline.
 *
 * gcc emits the hook call as plain text in the prologue, so the compiler
 * treats it as invisible: every argument register (%rdi, %rsi, %rdx, %rcx,
 * %r8, %r9), %rax (the vector-register count of a variadic call) and
 * %xmm0-%xmm7 must come back unchanged.  Known arcs are counted by a
 * short assembly fast path; otherwise the stubs save the seven integer
 * registers and call the C recorder, which is built to leave every vector
 * and x87 register alone, so those need no saving on the hot path.
 *
 *   mcount/_mcount  called after "push %rbp; mov %rsp,%rbp":
 *                   frompc = 8(%rbp), selfpc = our return address
 *   __fentry__      called as the first instruction (-mfentry), no frame:
 *                   frompc = the word above our return address
 *
 * The stack alignment on entry is not relied upon: the recorder uses no
 * aligned vector spills, and __gmon_slowcall realigns before calling C.
 */
#include "arch.h"

	.text

/* Save the registers the hook must preserve; 56 bytes of frame. */
.macro SAVE_ARGS
	subq	$56, %rsp
	.cfi_adjust_cfa_offset 56
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
.endm

.macro RESTORE_ARGS
	movq	0(%rsp), %rax
	movq	8(%rsp), %rcx
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rsi
	movq	32(%rsp), %rdi
	movq	40(%rsp), %r8
	movq	48(%rsp), %r9
	addq	$56, %rsp
	.cfi_adjust_cfa_offset -56
.endm

/*
 * The fast path, for the common case of an arc seen before: it looks only
 * at the first arc of the caller's slot and, if that arc has this callee,
 * counts it with a single add to memory.  (A 2-byte slot holds one call
 * site, so the callee is all that needs comparing.)  One instruction
 * cannot be split by a signal, so the fast path needs no busy flag of its
 * own; while the C recorder is busy on this thread it leaves the call to
 * the recorder, which drops it and counts the drop for the exit summary.
 * It uses only %r10 and %r11, which the hook may clobber: they carry no
 * arguments, and gcc saves %r10, the static chain, itself.  Anything else
 * (first call of a thread, a new arc, another callee in the slot) goes to
 * \full.  \from and \self say where frompc and selfpc are on entry.
 */
.macro FAST_PATH from, self, full
	movq	gmon_cur@gottpoff(%rip), %r11
	movq	%fs:(%r11), %r11		/* this thread's table */
	testq	%r11, %r11
	jz	\full				/* none yet: the thread's first call */
	cmpl	$0, GMON_T_BUSY(%r11)
	jne	\full
	movq	\from, %r10
	subq	gmon_p+GMON_P_LOWPC(%rip), %r10
	cmpq	gmon_p+GMON_P_LIMIT(%rip), %r10	/* off >= limit: caller outside */
	jae	7f				/* the text, or profiling is off */
	andq	$-2, %r10			/* slot * 4 == (off & ~1) * 2 */
	movl	GMON_HEADS_AT(%r11,%r10,2), %r10d /* offset of the slot's first arc */
	testl	%r10d, %r10d
	jz	\full
	addq	%r11, %r10
	movq	\self, %r11
	cmpq	%r11, GMON_ARC_SELF(%r10)
	jne	\full
	addq	$1, GMON_ARC_COUNT(%r10)
9:	ret
7:	cmpl	$0, gmon_p+GMON_P_SHLIBS(%rip)	/* GMON_SHLIBS: the recorder */
	je	9b				/* keeps calls from libraries */
	jmp	\full
.endm

	.p2align 4
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
mcount:
_mcount:
	.cfi_startproc
	LANDING_PAD
	FAST_PATH 8(%rbp), (%rsp), .Lmcount_full
.Lmcount_full:
	SAVE_ARGS
	movq	56(%rsp), %rsi		/* selfpc: return address into the callee */
	movq	8(%rbp), %rdi		/* frompc: the callee's own return address */
	call	__mcount_internal
	RESTORE_ARGS
	ret
	.cfi_endproc
	.size	mcount, . - mcount
	.size	_mcount, . - _mcount

	.p2align 4
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	.cfi_startproc
	LANDING_PAD
	FAST_PATH 8(%rsp), (%rsp), .Lfentry_full
.Lfentry_full:
	SAVE_ARGS
	movq	56(%rsp), %rsi		/* selfpc: return address into the callee */
	movq	64(%rsp), %rdi		/* frompc: the callee's return address */
	call	__mcount_internal
	RESTORE_ARGS
	ret
	.cfi_endproc
.Lhooks_end:
	.size	__fentry__, . - __fentry__

/* The hooks' span, for the stack walk (unwalk.c): a return address in
   it is the recorder's caller, and the frames below it are folded. */
	.pushsection gmon_hook_text, "aw"
	.balign 8
	.quad	mcount, .Lhooks_end
	.popsection

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * Runs __gmon_slow_dispatch(op, a, b), which calls into the C library, with
 * the caller's whole vector and x87 state saved around it: the profiled
 * function's vector arguments are still live.  XSAVE (mode 2) also covers
 * the upper halves of %ymm/%zmm and the AVX-512 mask registers; requested
 * components: x87, SSE, AVX, MPX, AVX-512 (mask 0xff), those the OS has
 * not enabled are skipped by the CPU.  Used only on rare paths (a thread's
 * first call, a full table), so its cost does not matter.
 */
	.p2align 4
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, @function
__gmon_slowcall:
	.cfi_startproc
	LANDING_PAD
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	movl	%edi, %r12d
	movq	%rsi, %r13
	movq	%rdx, %r14
	movl	gmon_xsave_size(%rip), %eax
	addq	$64, %rax
	subq	%rax, %rsp
	andq	$-64, %rsp		/* XSAVE wants a 64-byte aligned area */
	movq	%rsp, %rbx
	movzbl	gmon_save_mode(%rip), %ecx
	cmpl	$GMON_SAVE_XSAVE, %ecx
	je	1f
	cmpl	$GMON_SAVE_FXSAVE, %ecx
	jne	3f
	fxsave	(%rbx)
	jmp	3f
1:	xorl	%eax, %eax		/* XRSTOR faults unless the header is clean */
	movq	%rax, 512(%rbx)
	movq	%rax, 520(%rbx)
	movq	%rax, 528(%rbx)
	movq	%rax, 536(%rbx)
	movq	%rax, 544(%rbx)
	movq	%rax, 552(%rbx)
	movq	%rax, 560(%rbx)
	movq	%rax, 568(%rbx)
	movl	$0xff, %eax
	xorl	%edx, %edx
	xsave	(%rbx)
3:	movl	%r12d, %edi
	movq	%r13, %rsi
	movq	%r14, %rdx
	call	__gmon_slow_dispatch
	movzbl	gmon_save_mode(%rip), %ecx
	cmpl	$GMON_SAVE_XSAVE, %ecx
	je	4f
	cmpl	$GMON_SAVE_FXSAVE, %ecx
	jne	5f
	fxrstor	(%rbx)
	jmp	5f
4:	movl	$0xff, %eax
	xorl	%edx, %edx
	xrstor	(%rbx)
5:	leaq	-32(%rbp), %rsp
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	__gmon_slowcall, . - __gmon_slowcall

	CET_PROPERTY_NOTE
	.section .note.GNU-stack, "", @progbits
