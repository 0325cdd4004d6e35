/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-arm.h - the 32-bit arm port (arm-linux-gnueabihf, ARM or Thumb-2
 * code): the slot size, the interrupted PC in a signal context, the entry
 * code of gcrt1.o, and the hint for programs whose hook calls carry no
 * caller address.  Selected by arch.h; the hooks are in stubs-arm.S.
 */
#ifndef GMON_ARCH_ARM_H
#define GMON_ARCH_ARM_H

#if !defined(__ARMEL__)
# error "the arm port of libgmon is for little-endian arm (arm-linux-gnueabihf)"
#endif

/*
 * One caller slot covers 4 bytes of caller PCs, which saves address space
 * on a 32-bit machine.  Thumb-2 has 2-byte calls (blx rN), so two call
 * sites can share a slot; the C recorder compares both addresses and is
 * exact anyway (this port has no assembly fast path).
 */
#define GMON_HEAD_SHIFT 2

/* glibc and musl both name the saved pc arm_pc; it never carries the
   Thumb bit (the state is in the saved CPSR). */
#define GMON_ARCH_UC_PC(uc) ((uc)->uc_mcontext.arm_pc)

/* The timer lock's spin loop: `yield` exists from ARMv6K/ARMv7 on. */
#if defined(__ARM_ARCH) && __ARM_ARCH >= 7
# define GMON_ARCH_RELAX() __asm__ __volatile__("yield")
#else
# define GMON_ARCH_RELAX() ((void)0)
#endif

/* GMON_CLOCK=wall: Thumb code is 2-byte aligned, and a return address
   saved from lr carries the Thumb bit (bit 0). */
#define GMON_ARCH_RA_ALIGN 2
#define GMON_ARCH_RA_STRIP(v) ((v) & ~(uintptr_t)1)

/*
 * gcrt1.o's _start: the kernel leaves argc at sp.  Clear both frame
 * pointers (r11 in ARM code, r7 in Thumb code) and lr, since this is the
 * outermost frame; pass the initial stack pointer, 8-byte aligned as the
 * AAPCS requires at a call; trap if it ever returns.  Every instruction
 * is valid in both the ARM and the Thumb-2 instruction set, so it does not
 * matter which one gcrt1.c is compiled for.
 */
#define GMON_ARCH_START_ASM             \
	"	mov r11, #0\n"              \
	"	mov r7, #0\n"               \
	"	mov lr, #0\n"               \
	"	mov r0, sp\n"               \
	"	bic r1, r0, #7\n"           \
	"	mov sp, r1\n"               \
	"	bl __gmon_start_c\n"        \
	"	udf #0\n"

#endif
