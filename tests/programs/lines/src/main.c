/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program, driver: built with -g -pg at -O0 and at -O2 from
   several folders (src/, src/lib/, src/app/, src/include/), two of which hold
   a file named util.c, with inline functions from src/include/mathx.h, for
   the line-level, annotated-source and ordering reports.  Call counts are
   fixed. */
#include <stdio.h>
#include "mathx.h"
#include "lib/stats.h"
#include "app/app.h"

static volatile unsigned long sink;

int main(void)
{
	unsigned long total = 0;

	for (int i = 0; i < 25; i++) {
		total += stats_sum(i);
		total += app_step(i);
		total = mix(total, (unsigned long)i);
		if (i % 5 == 0)
			total += stats_rare(i);
	}
	printf("%lu\n", (total ^ sink) & 0xff);
	return 0;
}
