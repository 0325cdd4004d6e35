/* SPDX-License-Identifier: GPL-3.0-or-later */
/* callgrind_print.c - the --output-format=callgrind document (to be written). */
#include "gprof.h"
#include "report.h"

void callgrind_print(const struct gprof *g, struct report *r)
{
	(void)g;
	fputs("callgrind: not written yet\n", r->out);
}
