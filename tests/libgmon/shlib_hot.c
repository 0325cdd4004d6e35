/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/libgmon/shlib_hot.c - the shared library of shlibs.c, linked
   normally: hot_loop(n) calls hot_step n times, each doing a fixed amount
   of arithmetic, so that the hook's own cost is small beside it. */
#include <stdint.h>

__attribute__((noinline)) uint64_t hot_step(uint64_t x)
{
	for (int i = 0; i < 4000; i++)
		x = x * 2862933555777941757ull + 3037000493ull;
	return x;
}

uint64_t hot_loop(long n)
{
	uint64_t x = 1;
	for (long i = 0; i < n; i++)
		x = hot_step(x);
	return x;
}
