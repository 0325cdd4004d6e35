/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Driver of the "statics" test program: calls into both files a fixed
   number of times so the call counts are deterministic. */
#include <stdio.h>
#include "statics.h"

int main(void)
{
	unsigned long t = 0;
	for (int i = 0; i < 35; i++) {
		t += run_a(60);
		t += run_b(40);
	}
	printf("%lu %lu %lu\n", t & 0xff, a_total & 0xff, b_total & 0xff);
	return 0;
}
