/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs-riscv64.S - the 64-bit RISC-V profiling hook and the slow-call
 * trampoline.
 *
 * Both compilers call _mcount as an ordinary function (every live
 * argument has been moved to a callee-saved register first), so the hook
 * may use all caller-saved registers.  They disagree on where the caller
 * is:
 *   gcc    passes it: "mv a0, ra" (or via another register at -O0)
 *          before the call, and keeps no frame pointer from -O1 on;
 *   clang  passes nothing in a0 (which still holds the profiled
 *          function's first argument), but always keeps the frame
 *          pointer s0, with the return address saved at -8(s0).
 * The stub hands a0, its own return address (selfpc), s0 and sp to
 * __gmon_riscv64_mcount (arch-riscv64.c), which reads the call site to
 * tell the two apart.  It is a tail call: the C function returns straight
 * to the profiled function.
 */
#include "arch.h"

	.text

	.p2align 2
	.globl	_mcount
	.type	_mcount, @function
_mcount:
	mv	a1, ra			/* selfpc */
	mv	a2, s0
	mv	a3, sp
	tail	__gmon_riscv64_mcount
	.size	_mcount, . - _mcount

/*
 * void __gmon_slowcall(int op, uintptr_t a, uintptr_t b)
 *
 * The hook is an ordinary call, so no argument register of the profiled
 * function is live: the recorder's slow paths may call the C library
 * directly.
 */
	.p2align 2
	.globl	__gmon_slowcall
	.hidden	__gmon_slowcall
	.type	__gmon_slowcall, @function
__gmon_slowcall:
	tail	__gmon_slow_dispatch
	.size	__gmon_slowcall, . - __gmon_slowcall

	.section .note.GNU-stack, "", @progbits
