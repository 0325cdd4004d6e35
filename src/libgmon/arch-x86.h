/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-x86.h - what the x86-64 and i386 ports share: the Control-flow
 * Enforcement (CET) landing pad and property note for the stubs, the
 * spin-wait hint, and how __gmon_slowcall saves the vector state
 * (decided at start-up by arch-x86.c).  Included by arch-x86_64.h and
 * arch-i386.h, which first define GMON_X86_ENDBR (the landing-pad
 * instruction), GMON_X86_NOTE_ALIGN and GMON_X86_NOTE_DESC_SIZE.
 */
#ifndef GMON_ARCH_X86_H
#define GMON_ARCH_X86_H

/*
 * Under IBT every entry point that may be reached indirectly needs a
 * landing pad.  Without the property note, linking libgmon would silently
 * drop IBT/SHSTK from a program built with -fcf-protection, because the
 * linker ANDs the property of all objects.  The compiler defines __CET__
 * (bit 0 IBT, bit 1 SHSTK) for such builds.
 */
#if defined(__CET__) && (__CET__ & 1)
# define LANDING_PAD GMON_X86_ENDBR
#else
# define LANDING_PAD
#endif

#if defined(__CET__)
/* One NT_GNU_PROPERTY_TYPE_0 note holding GNU_PROPERTY_X86_FEATURE_1_AND;
   the descriptor is padded to the pointer size. */
# define CET_PROPERTY_NOTE                                      \
	.pushsection .note.gnu.property, "a";                   \
	.p2align GMON_X86_NOTE_ALIGN;                           \
	.long 4;               /* name size: "GNU\0" */         \
	.long GMON_X86_NOTE_DESC_SIZE; /* descriptor size */    \
	.long 5;               /* NT_GNU_PROPERTY_TYPE_0 */     \
	.asciz "GNU";                                           \
	.long 0xc0000002;      /* X86_FEATURE_1_AND */          \
	.long 4;               /* property data size */         \
	.long __CET__;         /* IBT and/or SHSTK */           \
	.p2align GMON_X86_NOTE_ALIGN;                           \
	.popsection
#else
# define CET_PROPERTY_NOTE
#endif

/* gmon_save_mode: what __gmon_slowcall saves around C library calls. */
#define GMON_SAVE_NONE   0 /* no SSE: no vector arguments to keep */
#define GMON_SAVE_FXSAVE 1 /* x87 and SSE */
#define GMON_SAVE_XSAVE  2 /* also AVX and AVX-512 state */

#ifndef __ASSEMBLER__

/* The timer lock's spin loop: PAUSE lets a sibling hyperthread run. */
# define GMON_ARCH_RELAX() __builtin_ia32_pause()

/* Set once by gmon_detect_save_mode() at start-up, read by the stubs'
   __gmon_slowcall: the size of the save area and a GMON_SAVE_* mode. */
extern unsigned int gmon_xsave_size __attribute__((visibility("hidden")));
extern unsigned char gmon_save_mode __attribute__((visibility("hidden")));
void gmon_detect_save_mode(void) __attribute__((visibility("hidden")));

# define GMON_ARCH_INIT() gmon_detect_save_mode()

/* Instructions have any length; a return address follows a call
   (arch-x86.c): e8 rel32, or ff /2 in any addressing form. */
int gmon_x86_is_call(const unsigned char *c) __attribute__((visibility("hidden")));
# define GMON_ARCH_RA_ALIGN 1
# define GMON_ARCH_CALL_BYTES 7
# define GMON_ARCH_IS_CALL(c) gmon_x86_is_call(c)

#endif /* !__ASSEMBLER__ */

#endif
