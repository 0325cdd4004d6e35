/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_print.c - the --compare report as text: the two runs' totals,
 * then one line per function, significant changes first, largest change
 * first; the figures are the comparison model's (compare.c).
 */
#include "print/print.h"

static void print_run(FILE *out, const char *label, const char *image,
                      const char *profile, const struct gprof *g,
                      double total, double err)
{
	fprintf(out, "%s: %s %s: %.2f %s (+/- %.2f) from %.0f samples\n",
	        label, image, profile, total, g->dimen, err, g->total_time);
}

static void print_header(const struct comparison *c, FILE *out)
{
	fputs("Comparison of two profiles:\n\n", out);
	print_run(out, "old", c->old_image, c->old_profile, c->old,
	          c->old_total, c->old_total_err);
	print_run(out, "new", c->new_image, c->new_profile, c->new,
	          c->new_total, c->new_total_err);
	fprintf(out, "change: %+.2f %s (%+.1f%%), %s\n", c->d_total,
	        c->new->dimen, c->d_total_pct,
	        c->total_significant ? "significant" :
	        "within the sampling error");
	fprintf(out, "%zu of %zu functions changed significantly.\n\n",
	        c->nsignificant, c->nrows);
	fputs("          self seconds                         "
	      "total seconds               calls\n", out);
	fputs("     old      new   change  change%    error S"
	      "      old      new   change       old       new  name\n", out);
}

/* A side's figure, or a dash where the function does not exist. */
static void side_value(FILE *out, const struct cmp_side *s, double v)
{
	if (s->present)
		fprintf(out, "%8.2f ", v);
	else
		fputs("       - ", out);
}

static void side_calls(FILE *out, const struct cmp_side *s)
{
	if (s->present)
		fprintf(out, "%9llu ", (unsigned long long)s->calls);
	else
		fputs("        - ", out);
}

static void print_row(FILE *out, const struct cmp_row *r)
{
	side_value(out, &r->old, r->old.self);
	side_value(out, &r->new, r->new.self);
	fprintf(out, "%+8.2f ", r->d_self);
	if (r->old.present && r->old.self != 0)
		fprintf(out, "%+7.1f%% ", r->d_self_pct);
	else
		fputs("       - ", out);
	fprintf(out, "%8.2f %c ", r->err, r->significant ? '*' : ' ');
	side_value(out, &r->old, r->old.total);
	side_value(out, &r->new, r->new.total);
	fprintf(out, "%+8.2f ", r->d_total);
	side_calls(out, &r->old);
	side_calls(out, &r->new);
	fprintf(out, " %s\n", r->name);
}

static void print_blurb(FILE *out)
{
	fputs(
"\n"
" self       seconds spent in the function itself in each run, and the\n"
" seconds    change (new - old), also as a percentage of the old time.\n"
"\n"
" error      expected error of the change: the two runs' sampling errors\n"
"            (the square root of each one's samples, in seconds) added in\n"
"            quadrature.\n"
"\n"
" S          `*' when the change exceeds twice its expected error: a\n"
"            change that sampling alone would give about once in twenty.\n"
"\n"
" total      seconds in the function and, by gprof's estimate, in what it\n"
" seconds    called, in each run, and the change.\n"
"\n"
" calls      calls counted in each run.\n"
"\n"
" name       functions are matched by symbol name; `-' marks a run whose\n"
"            program has no such function.  Significant changes come\n"
"            first, then every line by the size of its change.\n", out);
}

void compare_print_text(const struct comparison *c, FILE *out)
{
	print_header(c, out);
	for (size_t i = 0; i < c->nrows; i++)
		print_row(out, &c->rows[i]);
	if (!c->new->opt.brief)
		print_blurb(out);
}
