/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Second file of the "statics" test program: another static helper with the
   same name as the one in statics_a.c, plus a global worker. */
#include "statics.h"

unsigned long b_total;
static unsigned long b_calls;

static __attribute__((noinline)) unsigned long helper(unsigned long n)
{
	unsigned long x = n | 1;
	for (unsigned long i = 0; i < 60000; i++)
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
	b_calls++;
	return x & 0xffff;
}

/* Takes a struct by pointer but reads one field: a candidate for IPA-SRA
   (a .isra.0 clone) at -O2. */
struct pair { unsigned long first, second; };

static __attribute__((noinline)) unsigned long first_of(const struct pair *p)
{
	unsigned long v = p->first;
	for (int i = 0; i < 5000; i++)
		v = v * 31 + (unsigned long)i;
	return v;
}

unsigned long run_b(unsigned long rounds)
{
	struct pair p = { 1, 2 };
	for (unsigned long r = 0; r < rounds; r++) {
		p.first = r;
		b_total += helper(r);
		b_total += first_of(&p);
	}
	return b_total + b_calls;
}
