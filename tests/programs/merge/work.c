/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Workers of the "merge" test program. */
#include "merge.h"

static __attribute__((noinline)) unsigned long step(unsigned long x)
{
	return x * 2654435761UL + (x >> 11);
}

unsigned long crunch(unsigned long seed, int amount)
{
	unsigned long x = seed;
	for (int i = 0; i < amount; i++)
		x ^= (x << 5) + (unsigned long)i;
	return step(x);
}

unsigned long digest(const unsigned char *buf, int len)
{
	unsigned long h = 5381;
	for (int k = 0; k < 100; k++)
		for (int i = 0; i < len; i++)
			h = h * 33 + buf[i];
	return step(h);
}

unsigned long polish(unsigned long v)
{
	for (int i = 0; i < 3; i++)
		v = step(v);
	return v;
}
