/* SPDX-License-Identifier: GPL-3.0-or-later */
/* json_print.c - the --output-format=json document (to be written). */
#include "gprof.h"
#include "compare.h"
#include "report.h"

void json_print(const struct gprof *g, struct report *r)
{
	(void)g;
	fputs("json: not written yet\n", r->out);
}

void compare_print_json(const struct comparison *c, FILE *out)
{
	(void)c;
	(void)out;
}
