/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "symspec" test program: the second static helper, and a caller of the
   dotted function. */
#include "symspec.h"

static NOINLINE void helper(int i)
{
	spin(90 + (unsigned long)(i & 1));
}

void beta_run(int i)
{
	helper(i);
	if (i % 4 == 0)
		dotted_work(i);
}
