/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-x86.c - x86 start-up detection (x86-64 and i386 builds only): how
 * __gmon_slowcall in the stubs preserves the vector registers, asked of
 * the CPU once with CPUID.
 */
#include <cpuid.h>

#include "gmon_rt.h"

unsigned int gmon_xsave_size;
unsigned char gmon_save_mode;

/*
 * XSAVE when the OS enabled it (it covers AVX and AVX-512 upper halves
 * too), else FXSAVE (SSE), else nothing (no SSE means no vector
 * arguments).
 */
void gmon_detect_save_mode(void)
{
	unsigned int a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	/* Leaf 1: ECX bit 27 = OSXSAVE, EDX bit 24 = FXSR.  Leaf 0xD/0: EBX =
	   size of the XSAVE area for the components the OS enabled (at least
	   the 512-byte legacy area and the 64-byte header). */
	if ((c & (1u << 27)) && __get_cpuid_count(0xd, 0, &a, &b, &c, &d) &&
	    b >= 576) {
		gmon_xsave_size = b;
		gmon_save_mode = GMON_SAVE_XSAVE;
	} else if (d & (1u << 24)) {
		gmon_xsave_size = 512;
		gmon_save_mode = GMON_SAVE_FXSAVE;
	}
}
