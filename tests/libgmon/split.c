/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * split.c - a time split for the histogram test: heavy() runs about three
 * times as many iterations of the same loop as light(), in interleaved
 * calls, until the process has used SECONDS of CPU (argument, default
 * 2).  The kernel samples at its ticks, at even intervals of CPU time, so
 * calls about as long as a tick fall into step with them: rounds of 2 ms,
 * or of random lengths averaging 4 ms, against 4 ms ticks spread the
 * share three or four times as far as the binomial error.  So each call
 * is many ticks long, its length drawn at random from 0.5 to 1.5 times
 * its mean (heavy 30 ms, light 10 ms): a call's samples are then off by
 * at most a tick at each end, at a phase that no earlier call decides.
 *
 * The 3:1 of the loop counts is not what the test expects: on a shared
 * core two loops' costs per iteration drift apart (caches, frequency), so
 * each round reads the thread's CPU clock around each call and the
 * program prints what it measured of itself:
 *
 *     PROCESS-CPU HEAVY-CPU LIGHT-CPU      (seconds)
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

NOPROF static double cpu_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double target = argc > 1 ? atof(argv[1]) : 2.0;
	long probe = 2000000;
	double t0 = cpu_of(CLOCK_THREAD_CPUTIME_ID);
	calibrate(probe);
	double per_iter = (cpu_of(CLOCK_THREAD_CPUTIME_ID) - t0) / (double)probe;
	long unit = (long)(0.01 / (per_iter > 0 ? per_iter : 1e-9)); /* ~10 ms */
	double h = 0, l = 0;
	unsigned x = 2463534242u;
	while (cpu_of(CLOCK_PROCESS_CPUTIME_ID) < target) {
		long n[2];
		for (int k = 0; k < 2; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			n[k] = unit / 2 + (long)((double)(x >> 8) / (1 << 24) * unit);
		}
		double a = cpu_of(CLOCK_THREAD_CPUTIME_ID);
		heavy(3 * n[0]);
		double b = cpu_of(CLOCK_THREAD_CPUTIME_ID);
		light(n[1]);
		double c = cpu_of(CLOCK_THREAD_CPUTIME_ID);
		h += b - a;
		l += c - b;
	}
	printf("%.4f %.4f %.4f\n", cpu_of(CLOCK_PROCESS_CPUTIME_ID), h, l);
	return 0;
}
