/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare-prog.c - the program tests/formats/compare.sh builds twice: the
 * second build, with -DSLOWER, makes beta() six times as slow and leaves
 * the rest alone.  It prints the CPU seconds each function used, read
 * from the thread's own clock, so that the test can say what the change
 * really was (on a shared core the loops' costs drift):
 *
 *     ALPHA BETA GAMMA
 */
#include <stdio.h>
#include <time.h>

#ifndef SLOWER
#define BETA_WORK 1
#else
#define BETA_WORK 6
#endif

static volatile unsigned long sink;

/* Each function spins in its own body: time spent in a shared helper
   would be split among its callers by call counts, not by work. */
#define SPIN(n) \
	for (unsigned long i = 0; i < (n); i++) \
		sink += i ^ (sink >> 3)

void alpha(void) { SPIN(8000000UL); }
void beta(void) { SPIN(6000000UL * BETA_WORK); }
void gamma_(void) { SPIN(4000000UL); }

__attribute__((no_instrument_function)) static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void)
{
	double used[3] = { 0, 0, 0 };
	void (*fn[3])(void) = { alpha, beta, gamma_ };
	/* Ten rounds of calls many ticks long: ticks come at even intervals of
	   CPU time, and short rounds of a fixed length would fall into step
	   with them (rounds of one tick put a third of alpha's time on its
	   neighbours). */
	for (int i = 0; i < 10; i++)
		for (int f = 0; f < 3; f++) {
			double t0 = cpu();
			fn[f]();
			used[f] += cpu() - t0;
		}
	printf("%.4f %.4f %.4f\n", used[0], used[1], used[2]);
	return sink == 1;
}
