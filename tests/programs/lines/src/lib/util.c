/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: src/lib/util.c (src/app/util.c has the same name). */
#include "stats.h"
#include "../include/mathx.h"

/*
 * A loop of shifts and adds, then mix from mathx.h (emitted here at -O0).
 * The file is kept longer than the lines gprof reports for the functions
 * of src/app/util.c, which -A may show in this file when both are looked
 * up by their common base name.
 */
__attribute__((noinline)) unsigned long lib_util(unsigned long v)
{
	unsigned long x = v;
	for (unsigned long k = 0; k < 1800000; k++)
		x += (x >> 5) ^ k;
	return mix(x, v);
}
