/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * flat_profile.c - the flat profile's rows and shared figures, computed
 * once after the samples are assigned: which symbols are listed, in what
 * order, the divisor of the percentages and the unit of the per-call
 * columns.  flat_print.c only formats them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* What the order looks at, copied out of each symbol: the sort then
   reads one array in order rather than the symbols all over memory. */
struct time_key {
	double time;                 /* hist_time */
	uint64_t ncalls;
	const char *name;
	struct sym *sym;
};

/* Self time descending, then calls descending, then the raw name. */
static int cmp_time(const void *pa, const void *pb, void *ctx)
{
	const struct time_key *a = *(struct time_key *const *)pa;
	const struct time_key *b = *(struct time_key *const *)pb;
	(void)ctx;
	if (b->time > a->time)
		return 1;
	if (b->time < a->time)
		return -1;
	if (b->ncalls != a->ncalls)
		return b->ncalls > a->ncalls ? 1 : -1;
	return strcmp(a->name, b->name);
}

static double time_of(const void *p)
{
	return ((const struct time_key *)p)->time;
}

static uint64_t calls_of(const void *p)
{
	return ((const struct time_key *)p)->ncalls;
}

static const char *name_of(const void *p)
{
	return ((const struct time_key *)p)->name;
}

static bool listed(const struct gprof *g, const struct sym *s)
{
	if (!sym_selected(g, s, INCL_FLAT) || s->origin)
		return false;           /* (a merged clone: see its origin) */
	/* --stacks: a function on the stack has time worth a row (main,
	   say, with no calls and no self time), as its inclusive column
	   shows. */
	if (g->stack_incl && g->stack_incl[s - g->syms.base] > 0)
		return true;
	return !(g->opt.ignore_zeros && sym_counted_calls(g, s) == 0 &&
	         s->hist_time == 0);
}

/* The symbols listed, in the order above, *n of them.  They are picked
   before the sort, which is stable: the same rows as sorting every
   symbol and then picking them, where most symbols (source lines with
   -l, say) have neither time nor calls. */
static struct sym **by_time(const struct gprof *g, size_t *nrows)
{
	size_t n = 0;
	struct time_key *k = xmalloc((g->syms.len ? g->syms.len : 1) *
	                             sizeof *k);

	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];

		if (listed(g, s))
			k[n++] = (struct time_key){ s->hist_time,
			                            sym_counted_calls(g, s),
			                            s->name, s };
	}
	struct time_key **p = xmalloc((n ? n : 1) * sizeof *p);
	struct sym **v = xmalloc((n ? n : 1) * sizeof *v);

	for (size_t i = 0; i < n; i++)
		p[i] = &k[i];
	/* times, calls, then strcmp(): a strict weak order */
	static const struct desc_keys keys = { time_of, calls_of, name_of,
	                                       true };

	stable_sort_desc((void **)p, n, &keys, cmp_time, NULL);
	for (size_t i = 0; i < n; i++)
		v[i] = p[i]->sym;
	free(p);
	free(k);
	*nrows = n;
	return v;
}

/* The per-call columns use one SI prefix chosen from the largest per-call
   time of any called symbol (listed or not, as GNU does); with none, GNU
   leaves the prefix at 'T'. */
static void per_call_unit(const struct gprof *g, struct flat_profile *fp)
{
	static const struct { char c; double s; } units[] = {
		{ 'T', 1e-12 }, { 'G', 1e-9 }, { 'M', 1e-6 }, { 'K', 1e-3 },
		{ ' ', 1 }, { 'm', 1e3 }, { 'u', 1e6 }, { 'n', 1e9 },
		{ 'p', 1e12 }, { 'f', 1e15 }, { 'a', 1e18 }
	};
	double max = 0;

	fp->unit_prefix = 'T';
	fp->unit_scale = 1e-12;
	if (g->opt.bsd_style) {
		fp->unit_prefix = 'm';
		fp->unit_scale = 1e3;
		return;
	}
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		if (sym_counted_calls(g, s) == 0)
			continue;
		double t = (s->hist_time + s->child_time) / (double)s->ncalls;
		if (t > max)
			max = t;
	}
	if (!(max > 0))
		return;
	max /= g->hz;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		double x = max * units[i].s;
		if (x >= 1 && x < 1000) {
			fp->unit_prefix = units[i].c;
			fp->unit_scale = units[i].s;
			return;
		}
	}
	/* Beyond the table: GNU reads past it; the smallest unit is a sane
	   stand-in. */
	fp->unit_prefix = 'a';
	fp->unit_scale = 1e18;
}

/* Runs after hist_assign_samples() and, when there are arcs,
   cg_assemble() (the per-call total column needs child_time). */
void flat_profile_build(struct gprof *g)
{
	struct flat_profile *fp = &g->flat;

	free(fp->rows);
	fp->rows = by_time(g, &fp->nrows);
	fp->time_base = g->total_time > 0 ? g->total_time : 1.0;
	/* --stacks: the inclusive column counts every sample on a stack,
	   the hook's and those in no function too, so the percentages are
	   of every sample (totals.c), as the call graph's are. */
	if (g->stack_times && g->totals.all > 0)
		fp->time_base = g->totals.all;
	per_call_unit(g, fp);
}

/* Every format but GNU's text carries the error; the text flat profile
   only with --sampling-error. */
bool sampling_error_wanted(const struct gprof *g)
{
	return g->opt.sampling_error || g->opt.out_format != OUT_TEXT ||
	       g->opt.compare;
}

static double ticks_error(const struct gprof *g, double ticks)
{
	if (!(g->hz > 0) || !(ticks > 0))
		return 0;
	return sqrt(ticks) / g->hz;
}

/* Runs after hist_assign_samples(). */
void sampling_error_build(struct gprof *g)
{
	struct flat_profile *fp = &g->flat;
	free(fp->sample_err);
	fp->sample_err = xmalloc((g->syms.len ? g->syms.len : 1) *
	                         sizeof *fp->sample_err);
	for (size_t i = 0; i < g->syms.len; i++)
		fp->sample_err[i] = ticks_error(g, g->syms.base[i].hist_time);
	fp->total_err = ticks_error(g, g->total_time);
}
