/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "callgraph" test program: the top of the a -> b -> c chain (compiled with
   -pg); chain_mid lives in cg_mid.c, which is built without -pg. */
#include "cg.h"

NOINLINE void chain_top(int i)
{
	burn(30);
	chain_mid(i);
}
