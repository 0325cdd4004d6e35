/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pprof_print.c - the --output-format=pprof document (to be written). */
#include "gprof.h"
#include "report.h"

void pprof_print(const struct gprof *g, struct report *r)
{
	(void)g;
	fputs("pprof: not written yet\n", r->out);
}
