/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "pie"/"nopie" test program: the same source is linked as a position
   independent executable and as a fixed-address one.  Several workers with
   different costs, a function pointer table and a global array. */
#include <stdio.h>

#define NOINLINE __attribute__((noinline))

int table[4096];

NOINLINE static int shuffle(int n)
{
	for (int pass = 0; pass < 12; pass++)
		for (int i = 0; i < 4096; i++)
			table[i] = (table[(i * 7 + n + pass) & 4095] + i) ^ n;
	return table[n & 4095];
}

NOINLINE int sum_table(void)
{
	int s = 0;
	for (int k = 0; k < 8; k++)
		for (int i = 0; i < 4096; i++)
			s += table[i] >> k;
	return s;
}

NOINLINE int cheap(int x)
{
	return x * 3 + 1;
}

NOINLINE int never_called(int x)
{
	return x - 1;
}

static int (*const ops[])(int) = { shuffle, cheap };

int main(int argc, char **argv)
{
	long acc = 0;
	(void)argv;
	for (int r = 0; r < 4000; r++) {
		acc += ops[r & 1](r);
		acc += sum_table();
		acc += cheap(r);
	}
	if (argc > 5)
		acc += never_called(argc);
	printf("%ld\n", acc & 0xffff);
	return 0;
}
