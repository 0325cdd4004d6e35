/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hist_merge.c - the histograms as the files are read: each record
 * checked against the ones before it (unit, rate, scale, overlaps) and
 * summed into the record of the same range (hist_record.c decodes them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reading/reading.h"

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
