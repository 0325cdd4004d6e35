/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare.c - two profiles compared (to be written). */
#include "compare.h"

int compare_run(struct gprof *g)
{
	die(g, "--compare: not written yet");
}
