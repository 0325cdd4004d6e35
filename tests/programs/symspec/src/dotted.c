/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "symspec" test program: the function whose symbol is "name.with.dot"
   (declared with an asm label in symspec.h), plus a helper it calls. */
#include "symspec.h"

static NOINLINE void dot_helper(void)
{
	spin(15);
}

void dotted_work(int i)
{
	BURN(35);
	spin(5 + (unsigned long)(i & 1));
	dot_helper();
}
