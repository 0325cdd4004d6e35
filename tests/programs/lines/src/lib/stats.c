/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: loops over several lines with different costs. */
#include "stats.h"
#include "../include/mathx.h"

__attribute__((noinline)) static unsigned long square_walk(unsigned long v)
{
	unsigned long s = 0;
	for (unsigned long k = 0; k < 3600000; k++)
		s += (v ^ k) * (k | 1);
	return s;
}

unsigned long stats_sum(int i)
{
	unsigned long acc = (unsigned long)i;

	acc = churn(acc, 2400000);
	acc += square_walk(acc);
	acc += lib_util(acc);
	return acc;
}
