/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-x86.c - x86 start-up detection (x86-64 and i386 builds only): how
 * __gmon_slowcall in the stubs preserves the vector registers, asked of
 * the CPU once with CPUID; and the test of call instructions that tells
 * a return address from stale data on a stack (GMON_CLOCK=wall).
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

/* Is the k-byte instruction at c an indirect call (ff /2) whose ModRM,
   SIB and displacement bytes make exactly k bytes? */
static int indirect_call_of(const unsigned char *c, int k)
{
	if (c[0] != 0xff || ((c[1] >> 3) & 7) != 2)
		return 0;
	int mod = c[1] >> 6, rm = c[1] & 7, len = 2;
	if (mod != 3 && rm == 4) { /* a SIB byte follows */
		if (k < 3)
			return 0;
		len++;
		if (mod == 0 && (c[2] & 7) == 5)
			len += 4;
	}
	len += mod == 1 ? 1 : mod == 2 ? 4 : (mod == 0 && rm == 5) ? 4 : 0;
	return len == k;
}

/* c holds the GMON_ARCH_CALL_BYTES (7) bytes before a return address:
   do they end in a call, e8 rel32 or any form of ff /2 (2 to 7 bytes;
   a REX or other prefix comes before the ff)? */
int gmon_x86_is_call(const unsigned char *c)
{
	if (c[2] == 0xe8)
		return 1;
	for (int k = 2; k <= 7; k++)
		if (indirect_call_of(c + 7 - k, k))
			return 1;
	return 0;
}
