/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * napspin.c - wall time split between sleeping and spinning, for
 * GMON_CLOCK=wall (wall.sh): ROUNDS rounds (argument, default 120) in
 * which napper() sleeps in nanosleep and cruncher() spins until
 * CLOCK_MONOTONIC says its time is up, each for a random 8-24 ms
 * (several sampling ticks, random so that no round falls into step with
 * the sampler).  The program times both with CLOCK_MONOTONIC and prints
 * "share napper P" (percent of the two): the expectation, whatever the
 * machine's load, since a cruncher waiting for a CPU spends wall time in
 * cruncher all the same.
 *
 * With "chain" as second argument main -> outer -> inner -> napper
 * instead (a wall-clock wait under a call chain), and cruncher from main:
 * the stacks must show napper's time under inner and outer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testfns.h"

volatile unsigned long sink;

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* 8 to 24 ms, from a generator of our own (the same in every C library). */
static long slice_ns(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return 8000000L + (long)((*seed >> 8) % 16000001u);
}

KEEP void napper(long ns)
{
	struct timespec d = { 0, ns };
	while (nanosleep(&d, &d) != 0)
		;
}

/* Most of the time in this loop, little in clock_gettime (the vDSO is
   outside the profile). */
KEEP void cruncher(long ns)
{
	long long t0 = now_ns();
	while (now_ns() - t0 < ns)
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i;
}

KEEP void inner(long ns)
{
	napper(ns);
	sink++;
}

KEEP void outer(long ns)
{
	inner(ns);
	sink++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 120;
	int chain = argc > 2 && strcmp(argv[2], "chain") == 0;
	unsigned seed = 12345u;
	long long nap = 0, spin = 0;
	for (int r = 0; r < rounds; r++) {
		long long a = now_ns();
		if (chain)
			outer(slice_ns(&seed));
		else
			napper(slice_ns(&seed));
		long long b = now_ns();
		cruncher(slice_ns(&seed));
		long long c = now_ns();
		nap += b - a;
		spin += c - b;
	}
	printf("share napper %.2f\nwall %.3f\n", 100.0 * (double)nap / (double)(nap + spin),
	       (double)(nap + spin) / 1e9);
	return 0;
}
