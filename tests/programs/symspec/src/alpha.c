/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "symspec" test program: a static helper whose name clashes with the one
   in beta.c, and a second static function. */
#include "symspec.h"

static NOINLINE void helper(int i)
{
	BURN(40);
	spin(30 + (unsigned long)(i & 3));
}

static NOINLINE void alpha_only(void)
{
	spin(20);
}

void alpha_run(int i)
{
	helper(i);
	helper(i + 1);
	alpha_only();
}
