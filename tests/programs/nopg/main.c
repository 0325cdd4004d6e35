/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "nopg" test program: the only file built with -pg.  Nearly all the time
   is spent in hot.c, which is built without -pg, so its functions get
   histogram samples but no call counts. */
#include <stdio.h>

unsigned long hot_loop(unsigned long n);
unsigned long hot_other(unsigned long n);

static __attribute__((noinline)) unsigned long driver(int i)
{
	return hot_loop(3000000UL + (unsigned long)i) + hot_other(1000000UL);
}

int main(void)
{
	unsigned long r = 0;
	for (int i = 0; i < 60; i++)
		r += driver(i);
	printf("%lu\n", r & 0xffff);
	return 0;
}
