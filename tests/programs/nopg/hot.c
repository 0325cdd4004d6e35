/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hot code of the "nopg" test program, deliberately built without -pg. */

unsigned long hot_loop(unsigned long n)
{
	volatile unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 3 + i;
	return x;
}

unsigned long hot_other(unsigned long n)
{
	volatile unsigned long x = 7;
	for (unsigned long i = 0; i < n; i++)
		x ^= i << 3;
	return x;
}
