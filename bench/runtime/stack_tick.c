/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stack_tick.c - the cost of GMON_STACKS=1 per sample, measured without
 * the noise of sampling (bench/stacks.sh): at the bottom of a recursion
 * DEPTH frames deep, getcontext() takes a signal context as SIGPROF
 * would give it, and libgmon's own tick routine (the walk of the frame
 * pointers and the count in the thread's table of stacks) runs on it
 * COUNT times: the walk from the call-frame information (unwalk.c), or
 * along the frame pointers when built with -fno-asynchronous-unwind-tables
 * (bench/stacks.sh times both).  Prints "depth D: N ns per sample".  Built with -pg
 * against libgmon.a and run with GMON_STACKS=1; the routine is hidden
 * from shared objects, not from a static link.
 *
 *   stack_tick DEPTH COUNT
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <ucontext.h>

void gmon_stacks_tick(void *ctx, uint32_t w);

static long count;

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline)) static double bottom(void)
{
	ucontext_t uc;
	getcontext(&uc);
	double t0 = cpu_ns();
	for (long i = 0; i < count; i++)
		gmon_stacks_tick(&uc, 1);
	return (cpu_ns() - t0) / (double)count;
}

__attribute__((noinline)) static double down(int n)
{
	double r = n > 1 ? down(n - 1) : bottom();
	__asm__ volatile("" ::: "memory"); /* not a tail call: keep the frame */
	return r;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 32;
	count = argc > 2 ? atol(argv[2]) : 1000000;
	if (depth < 1 || count < 1) {
		fprintf(stderr, "usage: stack_tick DEPTH COUNT\n");
		return 2;
	}
	printf("depth %d: %.1f ns per sample\n", depth, down(depth));
	return 0;
}
