/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-x86_64.h - the x86-64 port: the arc-table layout its stubs
 * (stubs-x86_64.S) hard-code, the interrupted PC in a signal context, and
 * the entry code of gcrt1.o.  Selected by arch.h; x86 things shared with
 * i386 are in arch-x86.h and arch-x86.c.
 */
#ifndef GMON_ARCH_X86_64_H
#define GMON_ARCH_X86_64_H

/*
 * One caller slot covers 2 bytes of caller PCs: no call instruction is
 * shorter, so two return addresses never share a slot and the fast path
 * can match an arc by its callee alone (the C recorder compares both
 * addresses and is exact either way).
 */
#define GMON_HEAD_SHIFT 1

/* Offsets the fast path reads; tables.c checks them with offsetof(). */
#define GMON_P_LOWPC     0   /* struct gmon_params */
#define GMON_P_LIMIT     8
#define GMON_P_SHLIBS    40
#define GMON_T_BUSY      0   /* struct gmon_table */
#define GMON_ARC_SELF    8   /* struct gmon_arc */
#define GMON_ARC_COUNT   16

/* CET: the 64-bit landing pad; the property note is 8-byte aligned. */
#define GMON_X86_ENDBR          endbr64
#define GMON_X86_NOTE_ALIGN     3
#define GMON_X86_NOTE_DESC_SIZE 16
#include "arch-x86.h"

/* glibc and musl both name the saved %rip REG_RIP (with _GNU_SOURCE). */
#define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
/* The frame pointer and stack pointer, for GMON_STACKS's walk. */
#define GMON_ARCH_UC_FP(uc) ((uc)->uc_mcontext.gregs[REG_RBP])
#define GMON_ARCH_UC_SP(uc) ((uc)->uc_mcontext.gregs[REG_RSP])

/*
 * gcrt1.o's _start: the kernel leaves argc at %rsp.  Clear the frame
 * pointer (the outermost frame), pass the initial stack pointer, align
 * the stack to 16 as the ABI requires at a call, and never return.
 */
#define GMON_ARCH_START_ASM         \
	"	xor %ebp, %ebp\n"       \
	"	mov %rsp, %rdi\n"       \
	"	and $-16, %rsp\n"       \
	"	call __gmon_start_c\n"  \
	"	hlt\n"

#endif
