/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lineprog.c - the small program whose executables seed the `lines` fuzz
 * harness (tests/fuzz/make-line-seeds.sh): a few functions, one inlined
 * into two callers, a static helper, and an unlikely branch that gcc -O2
 * moves to a .cold part.
 */
#include <stdlib.h>

static volatile int sink;

static inline int mix(int a, int b)
{
	int x = a * 31 + b;
	return x ^ (x >> 3);
}

static __attribute__((noinline)) int helper(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += mix(i, n);
	return s;
}

__attribute__((noinline)) int checked(int n)
{
	if (__builtin_expect(n < 0, 0)) {
		sink = n;
		abort();
	}
	return mix(n, 7) + helper(n);
}

int main(int argc, char **argv)
{
	(void)argv;
	sink = checked(argc) + helper(argc * 3);
	return 0;
}
