/* SPDX-License-Identifier: GPL-3.0-or-later */
/* leaf.c: the program tests/install.sh and tests/debian.sh build with the
 * installed (or unpacked) libgmon only: main calls leaf exactly 1000
 * times, then uses the C API of libgmon.h, so that the header and the
 * archive's own symbols are both needed. */
#include <libgmon.h>
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned n)
{
	for (unsigned i = 0; i < 20000; i++)
		sink += i ^ n;
}

int main(void)
{
	for (unsigned n = 0; n < 1000; n++)
		leaf(n);
	if (gmon_stop() != 0 || gmon_start() != 0)
		return 1;
	printf("%lu\n", sink);
	return 0;
}
