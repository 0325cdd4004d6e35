/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_acc.c - GMON_STACKS accuracy (tests/libgmon/stacks.sh): work(n) is
   called as often from cheap() with small n as from costly() with large
   n; the program measures the CPU time of each caller's calls itself and
   prints costly's share, which the stacks through costly must match. */
#include <stdio.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i * 7u;
}

__attribute__((noinline)) void cheap(void) { work(2000); }
__attribute__((noinline)) void costly(void) { work(18000); }

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double tc = 0, tx = 0;
	/* Alternating batches, so that a slow spell of the machine falls on
	   both callers alike. */
	for (int round = 0; round < 100; round++) {
		double t0 = cpu();
		for (int i = 0; i < 100; i++)
			cheap();
		double t1 = cpu();
		for (int i = 0; i < 100; i++)
			costly();
		double t2 = cpu();
		tc += t1 - t0;
		tx += t2 - t1;
	}
	printf("share costly %.1f\n", 100 * tx / (tc + tx));
	return 0;
}
