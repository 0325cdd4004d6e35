/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/libgmon/shlib_plug.c - the module shlibs.c dlopen's: plug_work(n)
   calls plug_step n times. */
#include <stdint.h>

__attribute__((noinline)) uint64_t plug_step(uint64_t x)
{
	for (int i = 0; i < 4000; i++)
		x = (x ^ (x >> 7)) * 31 + 1;
	return x;
}

uint64_t plug_work(long n)
{
	uint64_t x = 1;
	for (long i = 0; i < n; i++)
		x = plug_step(x);
	return x;
}
