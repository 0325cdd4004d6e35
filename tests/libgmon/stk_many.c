/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_many.c - GMON_STACKS table growth (tests/libgmon/stacks.sh): a
   recursion to every depth from 1 to 100 ending in one of 16 leaves, so
   that the ticks can find some 1600 distinct stacks, more than a
   thread's table holds before it grows.  How many they find depends on
   how many ticks come, not on how many calls are made: it runs until its
   thread has used SECONDS of CPU (argument, default 1), read from its
   own clock. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

#define LEAF(k) \
	__attribute__((noinline)) void leaf##k(void) \
	{ for (int i = 0; i < 3000; i++) sink += (unsigned long)i * k; }
LEAF(0) LEAF(1) LEAF(2) LEAF(3) LEAF(4) LEAF(5) LEAF(6) LEAF(7)
LEAF(8) LEAF(9) LEAF(10) LEAF(11) LEAF(12) LEAF(13) LEAF(14) LEAF(15)

static void (*const leaves[16])(void) = {
	leaf0, leaf1, leaf2, leaf3, leaf4, leaf5, leaf6, leaf7,
	leaf8, leaf9, leaf10, leaf11, leaf12, leaf13, leaf14, leaf15
};

__attribute__((noinline)) void down(int d, int k)
{
	if (d > 0)
		down(d - 1, k);
	else
		leaves[k]();
	sink++; /* not a tail call */
}

__attribute__((no_instrument_function)) static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double end = cpu() + (argc > 1 ? atof(argv[1]) : 1.0);
	/* In a scrambled order, so that the ticks do not fall in step with
	   the loop on the same few stacks. */
	unsigned x = 12345;
	while (cpu() < end)
		for (int i = 0; i < 1000; i++) {
			x = x * 1103515245u + 12345u;
			down(1 + (int)((x >> 8) % 100), (int)((x >> 20) % 16));
		}
	puts("done");
	return 0;
}
