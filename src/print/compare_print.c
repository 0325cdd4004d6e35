/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_print.c - the --compare report as text: the two sides' totals
 * (and, when a side is one run, that its errors leave out the program's
 * own variation), then one line per function, significant changes
 * first, largest change first; the figures are the comparison model's
 * (compare.c).
 */
#include <string.h>

#include "print/print.h"

/* A side's profiles as given: commas between them. */
static void print_profiles(FILE *out, const struct cmp_input *in)
{
	for (size_t r = 0; r < in->nruns; r++)
		fprintf(out, "%s%s", r ? "," : "", in->profiles[r]);
}

static void print_run(FILE *out, const char *label,
                      const struct cmp_input *in, const char *dimen)
{
	fprintf(out, "%s: %s ", label, in->image);
	print_profiles(out, in);
	if (in->nruns == 1)
		fprintf(out, ": %.2f %s (+/- %.2f) from %.0f samples\n",
		        in->total, dimen, in->total_err, in->samples);
	else
		fprintf(out, ":\n     %zu runs, %.2f %s a run (+/- %.2f; "
		        "spread %.2f) from %.0f samples\n",
		        in->nruns, in->total, dimen, in->total_err,
		        in->total_spread, in->samples);
}

/* The note on what the errors leave out, in lines of at most 78
   columns; said even with -b: without it the errors would seem to cover
   what they do not. */
static void print_note(const char *note, FILE *out)
{
	if (!note)
		return;
	size_t col = 0;
	fputs("Note:", out);
	col = 5;
	for (const char *p = note; *p;) {
		size_t spaces = strspn(p, " ");
		p += spaces;
		size_t len = strcspn(p, " ");
		if (!len)
			break;
		if (col + 1 + len > 78) {
			fputc('\n', out);
			col = 0;
		} else {
			fputs(spaces > 1 ? "  " : " ", out);
			col += spaces > 1 ? 2 : 1;
		}
		fwrite(p, 1, len, out);
		col += len;
		p += len;
	}
	fputc('\n', out);
}

static void print_header(const struct comparison *c, FILE *out)
{
	const char *dimen = c->new.runs[0]->dimen;
	fputs("Comparison of two profiles:\n\n", out);
	print_run(out, "old", &c->old, c->old.runs[0]->dimen);
	print_run(out, "new", &c->new, dimen);
	fprintf(out, "change: %+.2f %s (%+.1f%%), %s\n", c->d_total, dimen,
	        c->d_total_pct,
	        c->total_significant ? "significant" :
	        c->old.nruns == 1 && c->new.nruns == 1 ?
	        "within the sampling error" : "within its error");
	fprintf(out, "%zu of %zu functions changed significantly.\n",
	        c->nsignificant, c->nrows);
	print_note(c->note, out);
	fputs("\n          self seconds                         "
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

static void print_blurb(const struct comparison *c, FILE *out)
{
	fputs(
"\n"
" self       seconds spent in the function itself in a run (with several\n"
" seconds    runs on a side, their mean), and the change (new - old), also\n"
"            as a percentage of the old time.\n"
"\n"
" error      standard error of the change: each side's sampling error (the\n"
"            square root of its samples, in seconds) and, for a side of\n"
"            several runs, the spread between them (the variance of the\n"
"            runs' times over their number), all added in quadrature.\n"
"            With one run on a side, the program's own run-to-run\n"
"            variation is not in its error.\n"
"\n"
" spread     (in the header) the standard deviation of a side's total\n"
"            time between its runs.\n"
"\n", out);
	fprintf(out,
" S          `*' when the change is significant: when the chance that the\n"
"            errors alone give a change as large (two-sided; Student's t\n"
"            with Welch's degrees of freedom when a spread between runs\n"
"            is in the error, else the normal law) is under %g.\n",
	        c->alpha);
	fputs(
"\n"
" total      seconds in the function and, by gprof's estimate, in what it\n"
" seconds    called, in a run (the mean of a side's runs), and the change.\n"
"\n"
" calls      calls counted in a run (the mean of a side's runs, rounded).\n"
"\n"
" name       functions are matched by symbol name; `-' marks a side whose\n"
"            program has no such function.  Significant changes come\n"
"            first, then every line by the size of its change.\n", out);
}

void compare_print_text(const struct comparison *c, FILE *out)
{
	print_header(c, out);
	for (size_t i = 0; i < c->nrows; i++)
		print_row(out, &c->rows[i]);
	if (!c->new.runs[0]->opt.brief)
		print_blurb(c, out);
}
