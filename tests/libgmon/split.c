/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * split.c - a known time split for the histogram test: heavy() runs the
 * same loop three times as long as light(), in short interleaved rounds
 * (2 ms), until the process has used SECONDS of CPU (argument, default
 * 2).  Short rounds keep the 3:1 ratio true even when the machine's speed
 * varies during the run, and shorter than a kernel tick, so the tick-
 * driven samples cannot fall into step with them.  Prints the CPU
 * seconds used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "testfns.h"

volatile unsigned long sink_h, sink_l, sink_c;

KEEP void heavy(long n)
{
	for (long i = 0; i < n; i++)
		sink_h += (unsigned long)i;
}

KEEP void light(long n)
{
	for (long i = 0; i < n; i++)
		sink_l += (unsigned long)i;
}

KEEP void calibrate(long n)
{
	for (long i = 0; i < n; i++)
		sink_c += (unsigned long)i;
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double target = argc > 1 ? atof(argv[1]) : 2.0;
	long probe = 2000000;
	double t0 = cpu_seconds();
	calibrate(probe);
	double per_iter = (cpu_seconds() - t0) / (double)probe;
	long unit = (long)(0.0005 / (per_iter > 0 ? per_iter : 1e-9)); /* ~0.5 ms */
	while (cpu_seconds() < target) {
		heavy(3 * unit);
		light(unit);
	}
	printf("%.3f\n", cpu_seconds());
	return 0;
}
