/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c - the gprof command: one run of the pipeline (pipeline.c). */
#include <malloc.h>

#include "gprof.h"

int main(int argc, char **argv)
{
	static struct gprof prof;

	/* glibc raises its threshold for mapping a block on its own each
	   time such a block is freed, and then serves the next big arrays
	   from the heap, which keeps what they free: a big call graph's
	   arrays come and go, and peak memory grew by their sum.  Setting
	   the threshold fixes it where it starts. */
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
	return gprof_run(&prof, argc, argv);
}
