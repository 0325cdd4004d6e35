/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "callgraph" test program: the middle of the chain, compiled WITHOUT -pg,
   so its calls are not recorded but its callee's are (from here). */
#include "cg.h"

NOINLINE void chain_mid(int i)
{
	unsigned long x = sink;
	for (int k = 0; k < 400000; k++)
		x += (x >> 3) ^ (unsigned long)k;
	sink = x;
	chain_leaf(i);
	chain_leaf(i + 1);
}
