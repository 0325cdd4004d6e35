/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * prog.c - the small fixed executable the fuzz harnesses analyse profile
 * data against.  Built once with `gcc -pg -g -O0` and committed as
 * tests/fuzz/prog (with its gmon.out as a seed), so that addresses in the
 * corpora stay valid: a mutual-recursion cycle, statics, a hot loop.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

static unsigned long spin(unsigned long n)
{
	unsigned long x = 0;
	for (unsigned long i = 0; i < n; i++)
		x += i ^ (x >> 3);
	return x;
}

int odd(int n);

int even(int n)
{
	sink += spin(2000);
	return n == 0 ? 1 : odd(n - 1);
}

int odd(int n)
{
	sink += spin(1000);
	return n == 0 ? 0 : even(n - 1);
}

static void leaf(void)
{
	sink += spin(50);
}

void middle(int k)
{
	for (int i = 0; i < k; i++)
		leaf();
	sink += spin(20000);
}

void top(void)
{
	for (int i = 0; i < 200; i++) {
		middle(i % 7);
		sink += (unsigned long)even(i % 13);
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	for (int r = 0; r < rounds; r++)
		top();
	printf("%lu\n", sink);
	return 0;
}
