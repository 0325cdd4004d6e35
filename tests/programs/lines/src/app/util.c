/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: src/app/util.c (src/lib/util.c has the same name). */
#include "app.h"
#include "../include/mathx.h"

/*
 * A loop of shifts, then a short churn from mathx.h.  At -O0 churn is
 * emitted here as a local function; gprof reports its line with this
 * file's name, so this file is kept longer than that line number.
 */
__attribute__((noinline)) unsigned long app_util(unsigned long v)
{
	unsigned long y = v | 1;
	for (unsigned long k = 0; k < 3000000; k++)
		y ^= y << 7, y ^= y >> 9;
	return churn(y, 1000);
}
