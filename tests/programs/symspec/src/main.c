/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "symspec" test program, driver: calls into alpha.c and beta.c (each with a
   static function named helper), into the file "odd" (no extension, built
   with -x c) and the global function whose symbol is "name.with.dot"
   (dotted.c).  Call counts are fixed. */
#include <stdio.h>
#include "symspec.h"

volatile unsigned long sink;

void spin(unsigned long n)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < n * 24000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

int main(void)
{
	for (int i = 0; i < 40; i++) {
		alpha_run(i);
		beta_run(i);
		odd_run(i);
		dotted_work(i);
	}
	printf("%lu\n", sink & 0xff);
	return 0;
}
