/* SPDX-License-Identifier: GPL-3.0-or-later */
/* html_print.c - the --output-format=html document (to be written). */
#include "gprof.h"
#include "compare.h"
#include "report.h"

void html_print(const struct gprof *g, struct report *r)
{
	(void)g;
	fputs("html: not written yet\n", r->out);
}

void compare_print_html(const struct comparison *c, FILE *out)
{
	(void)c;
	(void)out;
}
