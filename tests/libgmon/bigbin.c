/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bigbin.c - fills one histogram bin past 65535 samples, to check that
 * the runtime splits it over several records and that gprof adds them
 * up.  spin() is a 4-byte loop (2-byte dec, 2-byte jnz) aligned to 16,
 * so it lies within a single 4-byte bin; it runs for SECONDS of CPU
 * (argument, default 1.2), to be combined with a high GMON_RATE.
 */
#include <stdlib.h>
#include <time.h>

#include "testfns.h"

KEEP void spin(int n)
{
	__asm__ volatile(".p2align 4\n1:\n\tdec %0\n\tjnz 1b" : "+r"(n));
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double target = argc > 1 ? atof(argv[1]) : 1.2;
	while (cpu_seconds() < target)
		spin(50000000);
	return 0;
}
