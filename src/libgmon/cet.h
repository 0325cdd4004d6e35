/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cet.h - Control-flow Enforcement support for the assembly stubs: the
 * landing pad each entry point needs under IBT, and the property note
 * that tells the linker these objects are CET-ready.  Without the note,
 * linking libgmon would silently drop IBT/SHSTK from a program built with
 * -fcf-protection, because the linker ANDs the property of all objects.
 * The compiler defines __CET__ (bit 0 IBT, bit 1 SHSTK) for such builds.
 */
#ifndef GMON_CET_H
#define GMON_CET_H

#if defined(__CET__) && (__CET__ & 1)
# if defined(__x86_64__)
#  define LANDING_PAD endbr64
# else
#  define LANDING_PAD endbr32
# endif
#else
# define LANDING_PAD
#endif

#if defined(__CET__)
/* One NT_GNU_PROPERTY_TYPE_0 note holding GNU_PROPERTY_X86_FEATURE_1_AND;
   the descriptor is padded to the pointer size. */
# if defined(__x86_64__)
#  define NOTE_ALIGN 3
#  define NOTE_DESC_SIZE 16
# else
#  define NOTE_ALIGN 2
#  define NOTE_DESC_SIZE 12
# endif
# define CET_PROPERTY_NOTE                                      \
	.pushsection .note.gnu.property, "a";                   \
	.p2align NOTE_ALIGN;                                    \
	.long 4;               /* name size: "GNU\0" */         \
	.long NOTE_DESC_SIZE;  /* descriptor size */            \
	.long 5;               /* NT_GNU_PROPERTY_TYPE_0 */     \
	.asciz "GNU";                                           \
	.long 0xc0000002;      /* X86_FEATURE_1_AND */          \
	.long 4;               /* property data size */         \
	.long __CET__;         /* IBT and/or SHSTK */           \
	.p2align NOTE_ALIGN;                                    \
	.popsection
#else
# define CET_PROPERTY_NOTE
#endif

#endif
