/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hist.c - the PC-sample histogram: merging records from several files,
 * and crediting each bin's samples to the symbols it overlaps (with GNU's
 * arithmetic, truncations included).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

/* Address units (2 bytes) per bin.  GNU halves the range with an integer
   division before dividing by the bin count; the truncation shows in the
   totals (the famous 100.16 %), so it is kept. */
static double record_scale(vma_t lowpc, vma_t highpc, uint64_t nbins)
{
	return (double)((highpc - lowpc) / GMON_HIST_UNIT) / (double)nbins;
}

static void dimension_changed(struct gprof *g, const char *what,
                              const char *from, const char *to)
{
	warnx_g(g, "%s changed between histogram records", what);
	warnx_g(g, "from '%s'", from);
	warnx_g(g, "to '%s'", to);
	gprof_exit(1);
}

/* Checks a new GNU histogram record against what came before and returns
   the existing record with the same range, or NULL if it is a new one. */
struct histogram *hist_check(struct gprof *g, vma_t lowpc,
                                      vma_t highpc, uint32_t nbins,
                                      uint32_t rate, const char *dimen,
                                      char abbrev)
{
	double scale = record_scale(lowpc, highpc, nbins);

	if (!g->have_hist_scale) {
		g->have_hist_scale = true;
		g->hz = rate;
		memcpy(g->dimen, dimen, GMON_DIMEN_LEN);
		g->dimen[GMON_DIMEN_LEN] = '\0';
		g->dimen_abbrev = abbrev;
		g->hist_scale = scale;
	} else {
		if (strncmp(g->dimen, dimen, GMON_DIMEN_LEN) != 0) {
			char d[GMON_DIMEN_LEN + 1] = { 0 };
			memcpy(d, dimen, GMON_DIMEN_LEN);
			dimension_changed(g, "dimension unit", g->dimen, d);
		}
		if (g->dimen_abbrev != abbrev) {
			char a[2] = { g->dimen_abbrev, 0 }, b[2] = { abbrev, 0 };
			dimension_changed(g, "dimension abbreviation", a, b);
		}
		if (fabs(g->hist_scale - scale) > 0.000001)
			die(g, "different scales in histogram records");
	}

	for (size_t i = 0; i < g->nhists; i++) {
		struct histogram *h = &g->hists[i];
		if (h->lowpc == lowpc && h->highpc == highpc)
			return h;
		if (lowpc < h->highpc && h->lowpc < highpc)
			die(g, "overlapping histogram records");
	}
	return NULL;
}

static struct histogram *new_record(struct gprof *g, vma_t lowpc,
                                    vma_t highpc, size_t nbins)
{
	g->hists = xrealloc(g->hists, (g->nhists + 1) * sizeof *g->hists);
	struct histogram *h = &g->hists[g->nhists++];
	h->lowpc = lowpc;
	h->highpc = highpc;
	h->num_bins = nbins;
	h->bins = xcalloc(nbins, sizeof *h->bins);
	h->wide = NULL;
	return h;
}

/* Bins are summed in 32 bits, which takes 65,538 full files to overflow;
   the first sum that would (see hist_add) switches the record to 64-bit
   bins. */
void hist_widen(struct histogram *h)
{
	h->wide = xmalloc(h->num_bins * sizeof *h->wide);
	for (size_t k = 0; k < h->num_bins; k++)
		h->wide[k] = h->bins[k];
	free(h->bins);
	h->bins = NULL;
}

/* The record a GNU histogram's bins are added to.  The caller has made
   sure the file holds all `nbins` bins before this allocates them. */
struct histogram *hist_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                              uint32_t nbins, uint32_t rate, const char *dimen,
                              char abbrev)
{
	struct histogram *h = hist_check(g, lowpc, highpc, nbins, rate, dimen,
	                                   abbrev);
	return h ? h : new_record(g, lowpc, highpc, nbins);
}

/* BSD files carry one histogram; later files must match the first (the
   caller checked), so they all add into one record. */
struct histogram *hist_bsd_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                                  size_t nbins)
{
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].lowpc == lowpc && g->hists[i].highpc == highpc &&
		    g->hists[i].num_bins == nbins)
			return &g->hists[i];
	if (!g->have_hist_scale) {
		g->have_hist_scale = true;
		g->hist_scale = record_scale(lowpc, highpc, nbins);
		strcpy(g->dimen, "seconds");
		g->dimen_abbrev = 's';
	}
	return new_record(g, lowpc, highpc, nbins);
}

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
