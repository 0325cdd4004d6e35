/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_acc.c - GMON_STACKS accuracy (tests/libgmon/stacks.sh): work(n) is
   called as often from cheap() with small n as from costly() with large
   n; the program measures the CPU time of each caller's calls itself and
   prints costly's share, which the stacks through costly must match.
   1000 calls from each; n is scaled so that the run takes about 1.2 s
   of CPU on any machine and target (i386 runs the loop several times
   faster than x86-64): some 300 ticks in batches several ticks long,
   whose counts are off by at most a tick at each batch's ends.  The
   batches' lengths are drawn at random, so that those errors do not
   repeat in step with the even ticks, and a share is good to about half
   a point (tests/README, "Checks on sampled data"). */
#include <stdio.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7u;
}

static int small_n = 20000;

__attribute__((noinline)) void cheap(void) { work(small_n); }
__attribute__((noinline)) void costly(void) { work(9 * small_n); }

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The same loop as work's, under another name so that its samples are
   not work's. */
__attribute__((noinline)) void probe(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7u;
}

static double cpu(void);

/* small_n such that 1000 * (n + 9n) iterations take about 1.2 s. */
static void calibrate(void)
{
	double t0 = cpu();
	probe(20000000);
	double per = (cpu() - t0) / 20000000;
	if (per > 0) {
		double n = 1.2 / per / 10000;
		small_n = n < 1000 ? 1000 : n > 1000000 ? 1000000 : (int)n;
	}
}

int main(void)
{
	calibrate();
	double tc = 0, tx = 0;
	/* Alternating batches, so that a slow spell of the machine falls on
	   both callers alike; 100 + d calls in one round and 100 - d in the
	   next, d drawn from -40..40, keep 1000 calls of each. */
	unsigned x = 88172645u;
	int d[2] = { 0, 0 };
	for (int round = 0; round < 10; round++) {
		if (round % 2 == 0)
			for (int k = 0; k < 2; k++) {
				x ^= x << 13, x ^= x >> 17, x ^= x << 5;
				d[k] = (int)(x % 81) - 40;
			}
		int nc = 100 + (round % 2 ? -d[0] : d[0]);
		int nx = 100 + (round % 2 ? -d[1] : d[1]);
		double t0 = cpu();
		for (int i = 0; i < nc; i++)
			cheap();
		double t1 = cpu();
		for (int i = 0; i < nx; i++)
			costly();
		double t2 = cpu();
		tc += t1 - t0;
		tx += t2 - t1;
	}
	printf("share costly %.1f\n", 100 * tx / (tc + tx));
	return 0;
}
