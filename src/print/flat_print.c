/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * flat_print.c - the flat profile report (GNU and BSD layouts), printed
 * from the rows flat_profile.c computed.
 */
#include <string.h>

#include "print/print.h"

static void print_blurb(const struct gprof *g, struct outbuf *out);

#define AHEAD 8

static void print_header(const struct gprof *g, struct outbuf *out)
{
	char unit[64];

	snprintf(unit, sizeof unit, "%c%c/call", g->flat.unit_prefix,
	         g->dimen_abbrev);
	if (g->opt.bsd_style) {
		ob_printf(out, "\ngranularity: each sample hit covers "
		          "%ld byte(s)", hist_granularity_bytes(g));
		if (g->total_time > 0)
			ob_printf(out, " for %.2f%% of %.2f %s\n\n",
			          100.0 / g->total_time, g->total_time / g->hz,
			          g->dimen);
	} else {
		ob_printf(out, "\nEach sample counts as %g %s.\n", 1.0 / g->hz,
		          g->dimen);
	}
	if (g->total_time <= 0)
		ob_puts(out, " no time accumulated\n\n");
	/* --sampling-error: a column after self seconds, never by default. */
	bool err = g->opt.sampling_error;
	/* --stacks: inclusive time after it, from the call stacks. */
	bool incl = g->stack_incl != NULL;
	ob_printf(out, "%5.5s %10.10s %8.8s %s%s%8.8s %8.8s %8.8s  %-8.8s\n",
	          "%  ", "cumulative", "self  ", err ? " +/- self" : "",
	          incl ? "inclusive " : "", "", "self  ", "total ", "");
	ob_printf(out, "%5.5s %9.9s  %8.8s %s%s%8.8s %8.8s %8.8s  %-8.8s\n",
	          "time", g->dimen, g->dimen, err ? "   error " : "",
	          incl ? "  seconds " : "", "calls", unit, unit, "name");
}

static void print_row(const struct gprof *g, struct report *r,
                      const struct sym *s, double *accum)
{
	/* One row is formatted by hand (as printf's "%6.2f %9.2f %8.2f"
	   and so on would): printf is most of the time of a big report. */
	char *buf = ob_room(&r->ob, 7 * FMT_BUF);
	int n = 0;
	double scale = g->flat.unit_scale;
	bool bsd = g->opt.bsd_style;

	*accum += s->hist_time;
	double pct = 100.0 * s->hist_time / g->flat.time_base;
	n += fmt_fixed(buf + n, pct, bsd ? 5 : 6, bsd ? 1 : 2);
	buf[n++] = ' ';
	n += fmt_fixed(buf + n, *accum / g->hz, bsd ? 10 : 9, 2);
	buf[n++] = ' ';
	n += fmt_fixed(buf + n, s->hist_time / g->hz, 8, 2);
	buf[n++] = ' ';
	if (g->opt.sampling_error) {
		n += fmt_fixed(buf + n, g->flat.sample_err[s - g->syms.base], 8, 2);
		buf[n++] = ' ';
	}
	if (g->stack_incl) {
		n += fmt_fixed(buf + n, g->stack_incl[s - g->syms.base] / g->hz, 9, 2);
		buf[n++] = ' ';
	}
	if (sym_counted_calls(g, s) != 0) {
		double calls = (double)s->ncalls;
		n += fmt_uint(buf + n, s->ncalls, 8, false);
		buf[n++] = ' ';
		n += fmt_fixed(buf + n, scale * s->hist_time / g->hz / calls, 8, 2);
		buf[n++] = ' ';
		n += fmt_fixed(buf + n, scale * (s->hist_time + s->child_time) /
		               g->hz / calls, 8, 2);
		buf[n++] = ' ';
		buf[n++] = ' ';
	} else {
		memset(buf + n, ' ', 28);
		n += 28;
	}
	r->ob.len += (size_t)n;
	if (bsd) {
		print_sym_name(g, r, s);
	} else {
		size_t len;
		const char *name = display_name_len(g, r, s, &len);

		ob_write(&r->ob, name, len);
	}
	ob_putc(&r->ob, '\n');
}

void flat_print(const struct gprof *g, struct report *r)
{
	struct outbuf *out = &r->ob;
	double accum = 0;

	report_section(r);
	if (g->opt.bsd_style) {
		if (!g->opt.brief) {
			ob_puts(out, "\n\n\nflat profile:\n");
			print_blurb(g, out);
		}
	} else {
		ob_puts(out, "Flat profile:\n");
	}
	print_header(g, out);
	for (size_t i = 0; i < g->flat.nrows; i++) {
		/* The rows go by time, their symbols lie all over memory:
		   each row asks for the fields of the row AHEAD rows on.
		   (Written here, not in a function of prefetches only, which
		   gcc would take for a pure one and drop.) */
		if (i + AHEAD < g->flat.nrows) {
			const struct sym *next = g->flat.rows[i + AHEAD];

			__builtin_prefetch(&next->hist_time);
			__builtin_prefetch(&next->child_time);
			report_prefetch_shown(g, r, next);
		}
		print_row(g, r, g->flat.rows[i], &accum);
	}
	if (!g->opt.bsd_style && !g->opt.brief)
		print_blurb(g, out);
	ob_flush(out);
}

/* Our own explanation of the columns (GNU's text is not reproduced). */
static void print_blurb(const struct gprof *g, struct outbuf *out)
{
	ob_puts(out,
"\n"
" %         share of the program's total running time spent in this\n"
" time      function itself.\n"
"\n"
" cumulative  running total of the self seconds of this line and all the\n"
" seconds     lines above it.\n"
"\n"
" self      seconds spent in this function itself: the table is sorted by\n"
" seconds   this column.\n"
"\n");
	if (g->opt.sampling_error)
		ob_puts(out,
" +/- self  expected error of the self seconds: the square root of the\n"
" error     function's samples, in sampling periods.  A second run is\n"
"           likely to differ from this one by about this much.\n"
"\n");
	if (g->stack_incl)
		ob_puts(out,
" inclusive seconds with the function anywhere on the sampled call\n"
" seconds   stack (--stacks): its own time and its callees', each sample\n"
"           counted once however deep the recursion.\n"
"\n");
	ob_puts(out,
" calls     how many times the function was called; blank when it was not\n"
"           compiled for profiling, so its calls were not counted.\n"
"\n"
" self      average time spent in the function itself per call, in the\n"
" ms/call   unit shown in the header.\n"
"\n"
" total     average time per call spent in the function and in everything\n"
" ms/call   it called, in the unit shown in the header.\n"
"\n"
" name      the function; the table is ordered by self seconds, then by\n"
"           number of calls, then by name.\n"
"\f\n"
"This report was produced by gproftk, free software under the GNU General\n"
"Public License version 3 or later.\n");
}

