/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cycle.c - a deterministic -pg program whose three functions call each
 * other in a ring (cyc_a -> cyc_b -> cyc_c -> cyc_a), so that gprof finds
 * a cycle; every count is known (cycle.expected).  Used by the foreign
 * targets' tests beside calls.c (recursion, function pointers) and
 * threads.c.
 */
#include <stdio.h>

#include "testfns.h"

volatile int sink;

KEEP int cyc_a(int n);
KEEP int cyc_b(int n);
KEEP int cyc_c(int n);

/* Each step adds 1 after the call returns, so no call becomes a jump. */
KEEP int cyc_a(int n)
{
	return n <= 0 ? 0 : cyc_b(n - 1) + 1;
}

KEEP int cyc_b(int n)
{
	return n <= 0 ? 0 : cyc_c(n - 1) + 1;
}

KEEP int cyc_c(int n)
{
	return n <= 0 ? 0 : cyc_a(n - 1) + 1;
}

int main(void)
{
	int total = 0;
	for (int i = 0; i < 10; i++)
		total += cyc_a(30);
	sink = total;
	return total == 300 ? 0 : 1;
}
