/* SPDX-License-Identifier: GPL-3.0-or-later */
/* First file of the "statics" test program: a file-local helper whose name
   clashes with the one in statics_b.c, a global counter, and a clone
   candidate (scale_by) that gcc specialises at -O2. */
#include "statics.h"

unsigned long a_total;

static __attribute__((noinline)) unsigned long helper(unsigned long n)
{
	unsigned long x = n;
	for (unsigned long i = 0; i < 40000; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	return x >> 7;
}

/* Always called with factor == 3: at -O2 gcc may emit scale_by.constprop.0. */
static __attribute__((noinline)) unsigned long scale_by(unsigned long v, unsigned long factor)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < 20000; i++)
		s += (v ^ i) * factor;
	return s;
}

unsigned long run_a(unsigned long rounds)
{
	for (unsigned long r = 0; r < rounds; r++) {
		a_total += helper(r);
		a_total += scale_by(r, 3);
	}
	return a_total;
}
