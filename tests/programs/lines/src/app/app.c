/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: one step of the application, with a branch taken
   on every other call. */
#include "app.h"
#include "../include/mathx.h"

unsigned long app_step(int i)
{
	unsigned long v = (unsigned long)i * 7;

	if (i & 1)
		v = churn(v, 1400000);
	else
		v += app_util(v);
	return v;
}
