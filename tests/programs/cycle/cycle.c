/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "cycle" test program: a two-function cycle (ping <-> pong), a separate
   three-function cycle (red -> green -> blue -> red), direct recursion (fib),
   and one worker (spin) called from several callers.  Call counts depend
   only on the constants below. */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;

/* The shared worker: its cost is proportional to n. */
NOINLINE void spin(unsigned long n)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < n * 50; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

NOINLINE void leaf(void)
{
	spin(3000);
}

/* Cycle 1: ping and pong call each other until depth runs out. */
NOINLINE void pong(int depth);

NOINLINE void ping(int depth)
{
	spin(4000);
	if (depth > 0)
		pong(depth - 1);
}

NOINLINE void pong(int depth)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < 60000; i++)
		x += (x >> 3) ^ i;
	sink = x;
	if (depth > 0)
		ping(depth - 1);
}

/* Cycle 2: red -> green -> blue -> red. */
NOINLINE void green(int depth);
NOINLINE void blue(int depth);

NOINLINE void red(int depth)
{
	spin(1000);
	if (depth > 0)
		green(depth - 1);
}

NOINLINE void green(int depth)
{
	leaf();
	if (depth > 0)
		blue(depth - 1);
}

NOINLINE void blue(int depth)
{
	if (depth > 0)
		red(depth - 1);
}

/* Direct recursion. */
NOINLINE unsigned long fib(int n)
{
	return n < 2 ? (unsigned long)n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long f = 0;

	for (int i = 0; i < 130 * scale; i++) {
		ping(5);
		red(7);
		leaf();
	}
	for (int i = 0; i < 3; i++)
		f += fib(25);
	spin(100000);
	printf("%lu %lu\n", f, sink & 0xff);
	return 0;
}
