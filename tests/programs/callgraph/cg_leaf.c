/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "callgraph" test program: the bottom of the chain (compiled with -pg),
   called only from chain_mid, which has no profiling calls. */
#include "cg.h"

NOINLINE void chain_leaf(int i)
{
	burn(40 + (unsigned long)(i & 1));
}
