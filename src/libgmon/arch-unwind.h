/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-unwind.h - the registers the call-frame unwinder tracks on each
 * port that has one (x86-64, i386, aarch64), in the psABIs' DWARF
 * numbering; included by unwind.h.  Elsewhere nothing is defined and
 * stacks are frame 0 alone.
 */
#ifndef GMON_ARCH_UNWIND_H
#define GMON_ARCH_UNWIND_H

/* GMON_UW_NREGS registers 0..NREGS-1 in DWARF numbering; SP is the
   stack pointer (the CFA is the caller's SP on all three), FP the frame
   pointer, RA the return-address column. */
#if defined(__x86_64__)
# define GMON_UW_NREGS 17 /* rax rdx rcx rbx rsi rdi rbp rsp r8-r15, rip */
# define GMON_UW_SP 7
# define GMON_UW_FP 6
# define GMON_UW_RA 16
#elif defined(__i386__)
# define GMON_UW_NREGS 9  /* eax ecx edx ebx esp ebp esi edi, eip */
# define GMON_UW_SP 4
# define GMON_UW_FP 5
# define GMON_UW_RA 8
#elif defined(__aarch64__)
# define GMON_UW_NREGS 32 /* x0-x30, sp */
# define GMON_UW_SP 31
# define GMON_UW_FP 29
# define GMON_UW_RA 30
#endif

#endif
