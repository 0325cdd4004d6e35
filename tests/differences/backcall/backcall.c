/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backcall.c - `never` calls `work`, defined above it, but never runs:
   only a static call graph (-c) can show that arc.  GNU 2.40 misses it
   because it does not sign-extend backward call displacements. */
#include <stdio.h>

static volatile long sink;

__attribute__((noinline)) void work(int n)
{
	for (long i = 0; i < n * 100000L; i++)
		sink += i;
}

__attribute__((noinline)) void never(void)
{
	work(1);
}

int main(int argc, char **argv)
{
	(void)argv;
	for (int i = 0; i < 20; i++)
		work(i);
	if (argc > 5)
		never();
	printf("%ld\n", sink);
	return 0;
}
