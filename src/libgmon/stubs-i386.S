/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-i386.S - the i386 profiling hooks and the slow-call trampoline.
 *
 * The hook call is invisible to gcc's register allocation, so %eax, %ecx
 * and %edx (regparm/fastcall arguments and the static chain) must survive
 * it; the vector and x87 registers are left alone by the fast path and by
 * the C recorder alike.
 *
 *   mcount/_mcount  called after "push %ebp; mov %esp,%ebp":
 *                   frompc = 4(%ebp), selfpc = our return address
 *   __fentry__      called as the first instruction (-mfentry -fno-pie):
 *                   frompc = the word above our return address
 */
#include "arch.h"

	.text

/*
 * The fast path, for an arc seen before (the first in its caller slot):
 * count it in place.  With every scratch register holding a possible
 * argument, it borrows %eax and %edx, and it reaches only thread-local
 * data (the table, which holds copies of lowpc and the limit): loading
 * the GOT address would cost a third register and a call.  The 64-bit
 * count is bumped by an add and an add-with-carry; a signal handler that
 * runs between the two and counts the same arc leaves the carry flag
 * alone (the kernel restores it), so no count is lost.  Anything else,
 * and any call while the recorder is busy on this thread (it counts the
 * drop), goes to \full.  \from is where frompc is after the two pushes; selfpc
 * is then at 8(%esp).  The initial-exec TLS access needs no GOT register
 * either: in an executable (PIE or not, the only place libgmon goes) the
 * linker turns it into a constant offset from %gs.
 */
.macro FAST_PATH from, full
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%edx
	.cfi_adjust_cfa_offset 4
#ifdef GMON_PRELOAD
	xorl	%eax, %eax			/* libgmon-preload.so: no constant TLS */
#else						/* offset in a shared object; the C path */
	movl	gmon_cur@indntpoff, %eax
	movl	%gs:(%eax), %eax		/* this thread's table */
#endif
	testl	%eax, %eax
	jz	8f
	cmpl	$0, GMON_T_BUSY(%eax)
	jne	8f				/* busy: the recorder counts the drop */
	movl	\from, %edx
	subl	GMON_T_LOWPC(%eax), %edx
	cmpl	GMON_T_LIMIT(%eax), %edx	/* off >= limit: caller outside */
	jae	7f				/* the text, or profiling is off */
	andl	$-4, %edx			/* slot * 4 */
	movl	GMON_HEADS_AT(%eax,%edx), %edx	/* offset of the slot's first arc */
	testl	%edx, %edx
	jz	8f
	addl	%edx, %eax
	movl	\from, %edx
	cmpl	%edx, GMON_ARC_FROM(%eax)
	jne	8f
	movl	8(%esp), %edx			/* selfpc */
	cmpl	%edx, GMON_ARC_SELF(%eax)
	jne	8f
	addl	$1, GMON_ARC_COUNT(%eax)
	adcl	$0, GMON_ARC_COUNT+4(%eax)
	.cfi_remember_state
9:	popl	%edx
	.cfi_adjust_cfa_offset -4
	popl	%eax
	.cfi_adjust_cfa_offset -4
	ret
	.cfi_restore_state
	.cfi_remember_state
8:	popl	%edx
	.cfi_adjust_cfa_offset -4
	popl	%eax
	.cfi_adjust_cfa_offset -4
	jmp	\full
	.cfi_restore_state
7:	cmpl	$0, GMON_T_SHLIBS(%eax)		/* GMON_SHLIBS: the recorder */
	jne	8b				/* keeps calls from libraries */
	jmp	9b
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
	FAST_PATH 4(%ebp), .Lmcount_full
.Lmcount_full:
	.cfi_adjust_cfa_offset -8	/* (\full's jump came with nothing pushed) */
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	movl	12(%esp), %eax		/* selfpc: return address into the callee */
	movl	4(%ebp), %edx		/* frompc: the callee's own return address */
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	call	__mcount_internal
	addl	$8, %esp
	.cfi_adjust_cfa_offset -8
	popl	%edx
	.cfi_adjust_cfa_offset -4
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	popl	%eax
	.cfi_adjust_cfa_offset -4
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
	FAST_PATH 12(%esp), .Lfentry_full
.Lfentry_full:
	.cfi_adjust_cfa_offset -8	/* (\full's jump came with nothing pushed) */
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	movl	12(%esp), %eax		/* selfpc: return address into the callee */
	movl	16(%esp), %edx		/* frompc: the callee's return address */
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	call	__mcount_internal
	addl	$8, %esp
	.cfi_adjust_cfa_offset -8
	popl	%edx
	.cfi_adjust_cfa_offset -4
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	popl	%eax
	.cfi_adjust_cfa_offset -4
	ret
	.cfi_endproc
.Lhooks_end:
	.size	__fentry__, . - __fentry__

/* The hooks' span, for the stack walk (unwalk.c): a return address in
   it is the recorder's caller, and the frames below it are folded. */
	.pushsection gmon_hook_text, "aw"
	.balign 4
	.long	mcount, .Lhooks_end
	.popsection

/* Loads the return address into %ebx: a call/ret pair, unlike the
   call/pop idiom, keeps a CET shadow stack balanced. */
	.p2align 4
	.type	__gmon_pc_thunk, @function
__gmon_pc_thunk:
	.cfi_startproc
	LANDING_PAD
	movl	(%esp), %ebx
	ret
	.cfi_endproc
	.size	__gmon_pc_thunk, . - __gmon_pc_thunk

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * As on x86-64: __gmon_slow_dispatch(op, a, b) with the whole vector and
 * x87 state saved around it (XSAVE when the OS enabled it, else FXSAVE),
 * on a freshly aligned stack.  Rare paths only.
 */
	.p2align 4
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, @function
__gmon_slowcall:
	.cfi_startproc
	LANDING_PAD
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_offset %ebp, -8
	movl	%esp, %ebp
	.cfi_def_cfa_register %ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	call	__gmon_pc_thunk
	addl	$_GLOBAL_OFFSET_TABLE_, %ebx
	movl	gmon_xsave_size@GOTOFF(%ebx), %eax
	addl	$64, %eax
	subl	%eax, %esp
	andl	$-64, %esp
	movl	%esp, %edi
	movzbl	gmon_save_mode@GOTOFF(%ebx), %ecx
	cmpl	$GMON_SAVE_XSAVE, %ecx
	je	1f
	cmpl	$GMON_SAVE_FXSAVE, %ecx
	jne	3f
	fxsave	(%edi)
	jmp	3f
1:	xorl	%eax, %eax		/* XRSTOR faults unless the header is clean */
	movl	$16, %ecx
2:	movl	%eax, 508(%edi,%ecx,4)
	decl	%ecx
	jnz	2b
	movl	$0xff, %eax
	xorl	%edx, %edx
	xsave	(%edi)
3:	subl	$4, %esp		/* 16-byte alignment at the call */
	pushl	16(%ebp)
	pushl	12(%ebp)
	pushl	8(%ebp)
	call	__gmon_slow_dispatch
	addl	$16, %esp
	movzbl	gmon_save_mode@GOTOFF(%ebx), %ecx
	cmpl	$GMON_SAVE_XSAVE, %ecx
	je	4f
	cmpl	$GMON_SAVE_FXSAVE, %ecx
	jne	5f
	fxrstor	(%edi)
	jmp	5f
4:	movl	$0xff, %eax
	xorl	%edx, %edx
	xrstor	(%edi)
5:	leal	-12(%ebp), %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	.cfi_def_cfa %esp, 4
	ret
	.cfi_endproc
	.size	__gmon_slowcall, . - __gmon_slowcall

	CET_PROPERTY_NOTE
	.section .note.GNU-stack, "", @progbits
