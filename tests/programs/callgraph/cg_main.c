/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "callgraph" test program, main file (compiled with -pg): direct recursion
   (fact), mutual recursion (is_even <-> is_odd), two more disjoint cycles
   (ping <-> pong, and ring_a -> ring_b -> ring_c -> ring_a, the latter
   entered from two callers), calls through a table of function pointers, a
   signal handler run by raise() (so it has no recorded caller), functions
   that are never called, and a chain through a file built without -pg
   (chain_top -> chain_mid in cg_mid.c -> chain_leaf in cg_leaf.c).  Every
   call count is fixed.  Functions that never run call nothing, so that -c
   finds no backward call that never ran (see doc/gprof.md, difference 9). */
#include <signal.h>
#include <stdio.h>
#include "cg.h"

volatile unsigned long sink;

/* The shared worker: cost proportional to n. */
NOINLINE void burn(unsigned long n)
{
	unsigned long x = sink;
	for (unsigned long i = 0; i < n * 1500; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

NOINLINE unsigned long fact(unsigned long n)
{
	burn(20);
	return n <= 1 ? 1 : n * fact(n - 1);
}

NOINLINE int is_odd(unsigned n);

NOINLINE int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE int is_odd(unsigned n)
{
	burn(10);
	return n == 0 ? 0 : is_even(n - 1);
}

NOINLINE void pong(int depth);

NOINLINE void ping(int depth)
{
	burn(300);
	if (depth > 0)
		pong(depth - 1);
}

NOINLINE void pong(int depth)
{
	if (depth > 0)
		ping(depth - 1);
}

NOINLINE void ring_b(int depth);
NOINLINE void ring_c(int depth);

NOINLINE void ring_a(int depth)
{
	burn(200);
	if (depth > 0)
		ring_b(depth - 1);
}

NOINLINE void ring_b(int depth)
{
	if (depth > 0)
		ring_c(depth - 1);
}

NOINLINE void ring_c(int depth)
{
	burn(100);
	if (depth > 0)
		ring_a(depth - 1);
}

NOINLINE void caller_one(void)
{
	ring_a(5);
}

NOINLINE void caller_two(void)
{
	ring_b(7);
}

NOINLINE static unsigned long op_add(unsigned long a) { burn(50); return a + 3; }
NOINLINE static unsigned long op_mul(unsigned long a) { burn(80); return a * 3; }
NOINLINE static unsigned long op_sub(unsigned long a) { return a - 1; }

static unsigned long (*const ops[])(unsigned long) = { op_add, op_mul, op_sub, op_add };

NOINLINE unsigned long apply(unsigned i, unsigned long v)
{
	return ops[i % 4](v);
}

NOINLINE void handler_work(void)
{
	burn(500);
}

NOINLINE void on_signal(int sig)
{
	(void)sig;
	handler_work();
}

/* Never called. */
NOINLINE void never_called(void)
{
	sink += 7;
}

NOINLINE static void never_called_static(void)
{
	sink += 11;
}

int main(void)
{
	unsigned long v = 1;

	signal(SIGUSR1, on_signal);
	for (int i = 0; i < 60; i++) {
		v += fact(10);
		v += (unsigned long)is_even(25);
		ping(6);
		caller_one();
		caller_two();
		chain_top(i);
		for (unsigned j = 0; j < 8; j++)
			v = apply(j, v);
		if (i % 3 == 0)
			raise(SIGUSR1);
	}
	if (v == 0)	/* keeps the never-called functions referenced */
		sink += (unsigned long)never_called + (unsigned long)never_called_static;
	printf("%lu\n", (v ^ sink) & 0xff);
	return 0;
}
