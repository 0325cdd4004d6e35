/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sections.c - code outside plain .text: main in .text.startup (where
 * gcc -O2 puts it), a hot function in .text.hot, a cold one in
 * .text.unlikely, and one in "farcode", which a test may link far from
 * the rest (-Wl,--section-start) so that it gets a segment of its own
 * beyond etext.  Each of the four spins for about SECONDS (argument,
 * default 0.12) of CPU time, so each must get samples, and main calls
 * each of the others once.
 */
#include <stdlib.h>
#include <time.h>

#include "testfns.h"

volatile unsigned long sink;

/* Spin until this process has used `until` seconds of CPU.  Inlined into
   each caller, so that the samples land in that caller's own section. */
static inline __attribute__((always_inline)) void spin(double until)
{
	struct timespec t;
	do {
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while (t.tv_sec + t.tv_nsec / 1e9 < until);
}

KEEP __attribute__((hot, section(".text.hot.hotf"))) void hotf(double until)
{
	spin(until);
}

KEEP __attribute__((cold, section(".text.unlikely.coldf"))) void coldf(double until)
{
	spin(until);
}

KEEP __attribute__((section("farcode"))) void farf(double until)
{
	spin(until);
}

__attribute__((section(".text.startup.main"))) int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0.12;
	spin(s);
	hotf(2 * s);
	coldf(3 * s);
	farf(4 * s);
	return 0;
}
