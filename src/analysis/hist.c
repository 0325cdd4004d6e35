/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hist.c - the PC-sample histogram's samples credited to the symbols each
 * bin overlaps, with GNU's arithmetic, truncations included (the records
 * of several files are merged as they are read: reading/hist_merge.c).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* ---- assigning samples to symbols ---- */

/* (vma_t)x as GNU gprof's x86-64 build computes it.  C leaves the cast of
   a NaN or out-of-range double undefined, but a damaged histogram (0 bins,
   an empty range) makes the scale NaN or infinite, and GNU's output then
   follows what the instructions give: NaN and anything below -2^63 become
   2^63, anything from 2^64 up (and +inf) 0. */
static vma_t scale_to_vma(double x)
{
	const double two63 = 9223372036854775808.0;
	const vma_t top = 1ull << 63;
	if (x != x)
		return top;
	if (x >= two63) {
		x -= two63;
		return (x < two63 ? (vma_t)(int64_t)x : top) ^ top;
	}
	return x >= -two63 ? (vma_t)(int64_t)x : top;
}

static void assign_one(struct gprof *g, const struct histogram *h,
                       vma_t *scaled, size_t *jpos)
{
	const struct symtab *tab = &g->syms;
	size_t len = exe_syms_len(g);
	double scale = g->hist_scale;
	vma_t low_u = h->lowpc / GMON_HIST_UNIT;
	size_t j = *jpos;

	for (size_t i = 0; i < h->num_bins; i++) {
		uint64_t count = hist_bin(h, i);
		if (!count)
			continue;
		vma_t bin_lo = low_u + scale_to_vma(scale * (double)i);
		vma_t bin_hi = low_u + scale_to_vma(scale * (double)(i + 1));
		debug_printf(g, DBG_SAMPLE, "[assign_samples] bin_low_pc=0x%lx, "
		             "bin_high_pc=0x%lx, bin_count=%lu\n",
		             (unsigned long)(GMON_HIST_UNIT * bin_lo),
		             (unsigned long)(GMON_HIST_UNIT * bin_hi),
		             (unsigned long)count);
		g->total_time += (double)count;

		/* Each bin's walk starts one symbol before where the last one
		   stopped, as GNU's does. */
		for (j = j ? j - 1 : 0; j < len; j++) {
			vma_t sym_lo = scaled[j], sym_hi = scaled[j + 1];
			if (bin_hi < sym_lo)
				break;
			if (bin_lo >= sym_hi)
				continue;
			/* Unsigned, and multiplied in double, as GNU's: a bin whose
			   ends a NaN scale has scrambled can give a wrapped overlap,
			   which GNU credits all the same. */
			vma_t overlap = (bin_hi < sym_hi ? bin_hi : sym_hi) -
			                (bin_lo > sym_lo ? bin_lo : sym_lo);
			if (overlap == 0)
				continue;
			double credit = (double)overlap * (double)count / scale;
			struct sym *s = &tab->base[j];
			if (sym_selected(g, s, INCL_FLAT))
				s->hist_time += credit;
			else
				g->total_time -= credit;
		}
	}
	*jpos = j;
}

/* Sum of every histogram bin, as read (the diagnosis and the totals
   start from it). */
double hist_bins_total(const struct gprof *g)
{
	double n = 0;
	for (size_t i = 0; i < g->nhists; i++)
		for (size_t b = 0; b < g->hists[i].num_bins; b++)
			n += (double)hist_bin(&g->hists[i], b);
	return n;
}

/* Bins credit the executable's symbols only: shared libraries' samples
   come from their side files, already credited (shlibs.c), and counted in
   g->shlib_ticks, which the total starts from. */
void hist_assign_samples(struct gprof *g)
{
	const struct symtab *tab = &g->syms;
	size_t len = exe_syms_len(g);
	/* Scaled start of every symbol; the entry after the last one ends the
	   last symbol at its own end (GNU reads past its table there). */
	vma_t *scaled = xmalloc((len + 1) * sizeof *scaled);
	for (size_t i = 0; i < len; i++)
		scaled[i] = tab->base[i].addr / GMON_HIST_UNIT;
	if (len) {
		const struct sym *last = &tab->base[len - 1];
		scaled[len] = last->end_addr >= last->addr ?
			(last->end_addr + 1) / GMON_HIST_UNIT : scaled[len - 1];
	}
	g->total_time = g->shlib_ticks;
	for (size_t i = 0; i < g->nhists; i++) {
		size_t j = 1;
		assign_one(g, &g->hists[i], scaled, &j);
	}
	free(scaled);
}

/* The bytes one bin covers, as GNU prints it: (long)scale * 2.  x86-64
   turns a NaN or out-of-range scale (a record with 0 bins) into LONG_MIN,
   which doubles to 0; done here without undefined behaviour. */
long hist_granularity_bytes(const struct gprof *g)
{
	double s = g->hist_scale;
	long v = s >= -9223372036854775808.0 && s < 9223372036854775808.0 ?
		(long)s : LONG_MIN;
	return (long)((unsigned long)v * GMON_HIST_UNIT);
}
