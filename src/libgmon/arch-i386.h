/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-i386.h - the i386 port: the arc-table layout its stubs
 * (stubs-i386.S) hard-code, including the per-table copies of the
 * profiling parameters only this port's fast path needs, the interrupted
 * PC in a signal context, and the entry code of gcrt1.o.  Selected by
 * arch.h; x86 things shared with x86-64 are in arch-x86.h and arch-x86.c.
 */
#ifndef GMON_ARCH_I386_H
#define GMON_ARCH_I386_H

/*
 * One caller slot covers 4 bytes of caller PCs, which saves address space
 * on a 32-bit machine; two call sites can then share a slot, so the fast
 * path compares the caller as well as the callee.
 */
#define GMON_HEAD_SHIFT 2

/* Offsets the fast path reads; tables.c checks them with offsetof(). */
#define GMON_T_BUSY      0   /* struct gmon_table */
#define GMON_T_LOWPC     28  /* ... its GMON_ARCH_TABLE_FIELDS */
#define GMON_T_LIMIT     32
#define GMON_T_SHLIBS    36
#define GMON_ARC_FROM    0   /* struct gmon_arc */
#define GMON_ARC_SELF    4
#define GMON_ARC_COUNT   8   /* 64 bits: add, then add-with-carry */

/* CET: the 32-bit landing pad; the property note is 4-byte aligned. */
#define GMON_X86_ENDBR          endbr32
#define GMON_X86_NOTE_ALIGN     2
#define GMON_X86_NOTE_DESC_SIZE 12
#include "arch-x86.h"

/*
 * Copies of gmon_p.lowpc, gmon_p.limit and gmon_p.shlibs in every table: the fast path
 * has no register free to hold the GOT address, so it can reach
 * thread-local data (the table) but not globals.  gmon_copy_params()
 * (tables.c) fills them race-free against a concurrent moncontrol().
 */
#define GMON_ARCH_TABLE_FIELDS \
	uintptr_t lowpc;        \
	uintptr_t limit;        \
	uintptr_t shlibs;
#define GMON_ARCH_TABLE_CLAIM(t) \
	((t)->shlibs = (uintptr_t)gmon_p.shlibs, \
	 gmon_copy_params(&(t)->lowpc, &(t)->limit))
#define GMON_ARCH_TABLE_SET_LIMIT(t, v) \
	__atomic_store_n(&(t)->limit, (v), __ATOMIC_SEQ_CST)
#define GMON_ARCH_TABLE_CHECKS                                                  \
	_Static_assert(offsetof(struct gmon_table, lowpc) == GMON_T_LOWPC, "layout"); \
	_Static_assert(offsetof(struct gmon_table, limit) == GMON_T_LIMIT, "layout"); \
	_Static_assert(offsetof(struct gmon_table, shlibs) == GMON_T_SHLIBS, "layout");

/* glibc and musl both name the saved %eip REG_EIP (with _GNU_SOURCE). */
#define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.gregs[REG_EIP])
/* The frame pointer and stack pointer, for GMON_STACKS's walk. */
#define GMON_ARCH_UC_FP(uc) ((uc)->uc_mcontext.gregs[REG_EBP])
#define GMON_ARCH_UC_SP(uc) ((uc)->uc_mcontext.gregs[REG_ESP])

/*
 * gcrt1.o's _start: the kernel leaves argc at %esp.  Clear the frame
 * pointer (the outermost frame), and pass the initial stack pointer as the
 * one stack argument, with the stack 16-byte aligned at the call as the
 * ABI requires; never return.
 */
#define GMON_ARCH_START_ASM         \
	"	xor %ebp, %ebp\n"       \
	"	mov %esp, %eax\n"       \
	"	and $-16, %esp\n"       \
	"	sub $12, %esp\n"        \
	"	push %eax\n"            \
	"	call __gmon_start_c\n"  \
	"	hlt\n"

#endif
