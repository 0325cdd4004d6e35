/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * totals.c - owns what 100% is (g->totals): every sample recorded, split
 * into the samples of the functions the reports list, of the profiling
 * hook, of no function at all, and of functions a symspec left out.
 * Every format but GNU's text divides by `all` and names the other parts
 * (GNU's flat profile divides by g->total_time, which leaves out the
 * hook's samples with its default symspecs).
 *
 * The hook is the functions sym_is_hook() names (symbols/sym_ids.c): the
 * time a profiled program spends counting its calls.  Its share says how
 * much of the run the profile itself cost, and how much slower the
 * program ran for it: 1 / (1 - share).
 */
#include "analysis/analysis.h"

/* The bins' samples in [lo, hi) (scaled addresses, as hist.c has them),
   credited as hist.c credits a symbol: by overlap, in the same integer
   steps, so that the parts add up to its total. */
static double bins_in(const struct gprof *g, const struct histogram *h,
                      vma_t lo, vma_t hi)
{
	double scale = g->hist_scale, n = 0;
	vma_t low_u = h->lowpc / GMON_HIST_UNIT;

	if (!(scale > 0 && scale < 1e15) || hi <= lo)
		return 0;
	for (size_t i = 0; i < h->num_bins; i++) {
		uint64_t count = hist_bin(h, i);
		if (!count)
			continue;
		vma_t blo = low_u + (vma_t)(scale * (double)i);
		vma_t bhi = low_u + (vma_t)(scale * (double)(i + 1));
		vma_t a = blo > lo ? blo : lo, b = bhi < hi ? bhi : hi;
		if (b > a)
			n += (double)(b - a) * (double)count / scale;
	}
	return n;
}

/* The executable's samples in hook functions, whether the reports list
   them or not.  A symbol reaches up to the next one, as in hist.c. */
static double exe_hook(const struct gprof *g)
{
	size_t len = exe_syms_len(g);
	double n = 0;

	for (size_t j = 0; j < len; j++) {
		const struct sym *s = &g->syms.base[j];
		if (!sym_is_hook(g, s))
			continue;
		vma_t lo = s->addr / GMON_HIST_UNIT;
		vma_t hi = j + 1 < len ? g->syms.base[j + 1].addr / GMON_HIST_UNIT
		                       : (s->end_addr + 1) / GMON_HIST_UNIT;
		for (size_t i = 0; i < g->nhists; i++)
			n += bins_in(g, &g->hists[i], lo, hi);
	}
	return n;
}

/* The stacks under a hook frame: the samples the hook took, as the
   stacks saw them. */
static void stack_totals(const struct gprof *g, struct run_totals *t)
{
	for (size_t k = 0; k < g->nstacks; k++) {
		const struct call_stack *cs = &g->stacks[k];
		t->stack_all += (double)cs->count;
		for (uint32_t d = 0; d < cs->depth; d++)
			if (cs->frames[d] && sym_is_hook(g, cs->frames[d])) {
				t->stack_hook += (double)cs->count;
				break;
			}
	}
}

/* After hist_assign_samples() (or without a histogram). */
void totals_build(struct gprof *g)
{
	struct run_totals *t = &g->totals;
	double credited = 0, hook_listed = 0;

	*t = (struct run_totals){ 0 };
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		credited += s->hist_time;
		if (s->hist_time > 0 && sym_is_hook(g, s))
			hook_listed += s->hist_time;
	}
	double bins = g->input_hist ? hist_bins_total(g) : 0;
	/* hist.c took the samples of functions left out off total_time */
	double exe_left_out = bins - (g->total_time - g->shlib_ticks);
	double left_out = exe_left_out + g->shlib_left_out;

	t->all = bins + g->shlib_ticks + g->shlib_left_out;
	t->hook = (g->input_hist ? exe_hook(g) : 0) + g->shlib_hook;
	t->shown = credited - hook_listed;
	t->outside = g->total_time - credited;
	t->excluded = left_out - (t->hook - hook_listed);
	/* (sums of the same overlaps in another order) */
	if (t->excluded < 0 && t->excluded > -1e-6 * (t->all + 1))
		t->excluded = 0;
	t->hook_measured = !sym_hook_elsewhere(g);
	if (t->all > 0 && t->hook_measured)
		t->hook_share = t->hook / t->all;
	t->slowdown = t->hook_share < 1 ? 1 / (1 - t->hook_share) : 0;
	stack_totals(g, t);
	if (t->stack_all > 0 && t->hook_measured)
		t->stack_hook_share = t->stack_hook / t->stack_all;
	t->stack_slowdown = t->stack_hook_share < 1 ?
		1 / (1 - t->stack_hook_share) : 0;
}
