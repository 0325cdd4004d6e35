/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare-prog.c - the program tests/formats/compare.sh builds twice: the
 * second build, with -DSLOWER, makes beta() three times as slow and leaves
 * the rest alone.
 */
#include <stdio.h>

#ifndef SLOWER
#define BETA_WORK 1
#else
#define BETA_WORK 3
#endif

static volatile unsigned long sink;

/* Each function spins in its own body: time spent in a shared helper
   would be split among its callers by call counts, not by work. */
#define SPIN(n) \
	for (unsigned long i = 0; i < (n); i++) \
		sink += i ^ (sink >> 3)

void alpha(void) { SPIN(800000UL); }
void beta(void) { SPIN(600000UL * BETA_WORK); }
void gamma_(void) { SPIN(400000UL); }

int main(void)
{
	for (int i = 0; i < 100; i++) {
		alpha();
		beta();
		gamma_();
	}
	printf("%lu\n", sink);
	return 0;
}
