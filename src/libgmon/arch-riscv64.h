/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-riscv64.h - the 64-bit RISC-V port: the slot size, the interrupted
 * PC in a signal context, the spin-wait hint, the entry code of gcrt1.o,
 * and the C half of the hook (arch-riscv64.c) that stubs-riscv64.S calls.
 */
#ifndef GMON_ARCH_RISCV64_H
#define GMON_ARCH_RISCV64_H

/*
 * With the C extension a call (c.jalr) can be 2 bytes, so a slot covers
 * 2 bytes of caller PCs and holds one call site.  (There is no assembly
 * fast path; the C recorder compares caller and callee anyway.)
 */
#define GMON_HEAD_SHIFT 1

#ifndef __ASSEMBLER__

# include <stdint.h>

/* glibc names the PC's slot in the general registers REG_PC (it is 0). */
# define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.__gregs[REG_PC])

/* The timer lock is rarely contended; "pause" needs Zihintpause. */
# define GMON_ARCH_RELAX() ((void)0)

/* GMON_CLOCK=wall: compressed instructions are 2 bytes long. */
# define GMON_ARCH_RA_ALIGN 2

/* arch-riscv64.c: finds the caller of a profiled function from what
   _mcount saw (its a0, its return address, the profiled function's s0
   and sp) and records the call. */
__attribute__((visibility("hidden")))
void __gmon_riscv64_mcount(uintptr_t a0, uintptr_t selfpc, uintptr_t s0,
                         uintptr_t sp);

/*
 * gcrt1.o's _start: the kernel leaves argc at sp.  Load the global
 * pointer (the ABI wants it set before any code that the linker may have
 * relaxed against it runs, and this load must not itself be relaxed),
 * pass the initial stack pointer, align the stack to 16, clear the frame
 * pointer and the return address (the outermost frame), and never
 * return.
 */
# define GMON_ARCH_START_ASM                \
	".option push\n"                    \
	".option norelax\n"                 \
	"	lla gp, __global_pointer$\n"    \
	".option pop\n"                     \
	"	mv a0, sp\n"                    \
	"	andi sp, sp, -16\n"             \
	"	li s0, 0\n"                     \
	"	li ra, 0\n"                     \
	"	call __gmon_start_c\n"          \
	"	ebreak\n"

#endif /* !__ASSEMBLER__ */

#endif
