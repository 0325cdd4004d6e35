/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dot_print.c - the --output-format=dot document (to be written). */
#include "gprof.h"
#include "report.h"

void dot_print(const struct gprof *g, struct report *r)
{
	(void)g;
	fputs("dot: not written yet\n", r->out);
}
