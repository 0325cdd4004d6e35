/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-aarch64.S - the aarch64 profiling hook and the slow-call
 * trampoline.
 *
 * gcc and clang both call _mcount after the prologue has stored the frame
 * record (x29 = the record's address, [x29, #8] = the saved x30, i.e.
 * the profiled function's own return address), and both treat it as an
 * ordinary call: they move live arguments to callee-saved registers
 * first.  So the hook may clobber x0-x18 and v0-v7 like any function, and
 * only the AAPCS64 callee-saved registers need preserving.
 *
 *   frompc = [x29, #8], with any pointer-authentication signature removed
 *            (under -mbranch-protection the saved x30 is signed)
 *   selfpc = x30 on entry (a `bl` return address, never signed)
 *
 * gcc also passes frompc in x0 (already stripped), clang does not; the
 * frame record serves both, so x0 is not used.
 */
#include "arch.h"

	.text

/*
 * Remove a pointer-authentication code from \reg, through x30 because
 * `xpaclri` is the only stripping instruction in the hint space (a NOP
 * on CPUs without PAC, where no pointer is ever signed).  \save keeps x30.
 */
.macro STRIP_PAC reg, save
	mov	\save, x30
	mov	x30, \reg
	hint	7			/* xpaclri */
	mov	\reg, x30
	mov	x30, \save
.endm

/*
 * The fast path, for an arc seen before: the first arc of the caller's
 * slot (a 4-byte slot is one call site) has this callee, so add 1 to its
 * count.  The add is a load-exclusive/store-exclusive loop: a signal
 * handler that runs on this thread between the load and the store and
 * counts the same arc clears the exclusive monitor, and the loop retries
 * instead of overwriting the handler's counts.  While the C recorder is
 * busy on this thread, the call goes to the recorder, which counts the
 * drop.  Uses only x9-x17, which an
 * ordinary call may clobber.  Anything else goes to \full.
 */
.macro FAST_PATH full
	mrs	x9, tpidr_el0
	adrp	x10, :gottprel:gmon_cur
	ldr	x10, [x10, #:gottprel_lo12:gmon_cur]
	ldr	x9, [x9, x10]			/* this thread's table */
	cbz	x9, \full			/* none yet: the thread's first call */
	ldr	w10, [x9, #GMON_T_BUSY]
	cbnz	w10, \full			/* busy: the recorder counts the drop */
	ldr	x11, [x29, #8]			/* frompc, perhaps signed */
	STRIP_PAC x11, x16
	adrp	x12, gmon_p
	add	x12, x12, #:lo12:gmon_p
	ldp	x13, x14, [x12, #GMON_P_LOWPC]	/* lowpc, limit */
	sub	x11, x11, x13
	cmp	x11, x14			/* off >= limit: caller outside */
	b.hs	7f				/* the text, or profiling is off */
	lsr	x11, x11, #GMON_HEAD_SHIFT
	add	x11, x9, x11, lsl #2
	ldr	w11, [x11, #GMON_HEADS_AT]	/* offset of the slot's first arc */
	cbz	w11, \full
	add	x11, x9, x11
	ldr	x12, [x11, #GMON_ARC_SELF]
	cmp	x12, x30
	b.ne	\full
	add	x11, x11, #GMON_ARC_COUNT
1:	ldxr	x12, [x11]
	add	x12, x12, #1
	stxr	w13, x12, [x11]
	cbnz	w13, 1b
9:	ret
7:	ldr	w13, [x12, #GMON_P_SHLIBS]	/* GMON_SHLIBS: the recorder keeps */
	cbz	w13, 9b				/* calls from libraries */
	b	\full
.endm

	.p2align 4
	.globl	_mcount
	.type	_mcount, %function
	.globl	mcount
	.type	mcount, %function
_mcount:
mcount:
	.cfi_startproc
	BTI_C
	FAST_PATH .Lmcount_full
.Lmcount_full:
	ldr	x0, [x29, #8]		/* frompc, perhaps signed */
	mov	x1, x30			/* selfpc */
	PAC_SIGN
	stp	x29, x30, [sp, #-16]!
	.cfi_adjust_cfa_offset 16
	.cfi_offset x29, -16
	.cfi_offset x30, -8
	mov	x29, sp
	STRIP_PAC x0, x16
	bl	__mcount_internal
	ldp	x29, x30, [sp], #16
	.cfi_adjust_cfa_offset -16
	.cfi_restore x29
	.cfi_restore x30
	PAC_AUTH
	ret
	.cfi_endproc
.Lhooks_end:
	.size	_mcount, . - _mcount
	.size	mcount, . - mcount

/* The hook's span, for the stack walk (unwalk.c): a return address in
   it is the recorder's caller, and the frames below it are folded.
   (Return addresses are stripped of any signature before the walk
   compares them.) */
	.pushsection gmon_hook_text, "aw"
	.balign 8
	.quad	_mcount, .Lhooks_end
	.popsection

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * The hooks are ordinary calls, so no floating-point argument of the
 * profiled function is live while the recorder runs: __gmon_slow_dispatch
 * can be reached with a plain tail call.
 */
	.p2align 2
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, %function
__gmon_slowcall:
	.cfi_startproc
	BTI_C
	b	__gmon_slow_dispatch
	.cfi_endproc
	.size	__gmon_slowcall, . - __gmon_slowcall

	BRANCH_PROPERTY_NOTE
	.section .note.GNU-stack, "", %progbits
