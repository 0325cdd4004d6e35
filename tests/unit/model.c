/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * model.c - builds a profile model by hand for the unit tests: function
 * symbols, histogram records and call arcs, through the same public entry
 * points (the folders' headers) that the readers use, so that
 * the analysis (hist_assign_samples, cg_assemble) can be run on a few
 * numbers chosen so that every expected result can be worked out on paper.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

bool unit_expect(bool ok, const char *what)
{
	if (!ok)
		printf("    expected: %s\n", what);
	return ok;
}

bool unit_near(double got, double want, const char *what)
{
	double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
	bool ok = fabs(got - want) <= tol;
	if (!ok)
		printf("    %s: got %.17g, want %.17g\n", what, got, want);
	return ok;
}

void model_init(struct gprof *g)
{
	memset(g, 0, sizeof *g);
	g->whoami = "unit";
	g->hz = 100;
	g->addr_size = 8;
}

void model_func(struct gprof *g, vma_t addr, const char *name)
{
	struct sym *s = symtab_add(&g->syms);
	s->addr = addr;
	s->name = name;
	s->is_func = true;
}

void model_syms_done(struct gprof *g, vma_t text_end)
{
	symtab_finish(g, &g->syms, text_end);
}

struct sym *model_sym(struct gprof *g, const char *name)
{
	for (size_t i = 0; i < g->syms.len; i++)
		if (strcmp(g->syms.base[i].name, name) == 0)
			return &g->syms.base[i];
	printf("    model: no symbol %s\n", name);
	exit(2);
}

struct histogram *model_hist(struct gprof *g, vma_t lowpc, vma_t highpc,
                             size_t nbins)
{
	g->hists = xrealloc(g->hists, (g->nhists + 1) * sizeof *g->hists);
	struct histogram *h = &g->hists[g->nhists++];
	h->lowpc = lowpc;
	h->highpc = highpc;
	h->num_bins = nbins;
	h->bins = xcalloc(nbins, sizeof *h->bins);
	h->wide = NULL;
	/* Every record of one run has the same scale (the reader refuses
	   others), so the last one sets it for all. */
	g->hist_scale = (double)((highpc - lowpc) / GMON_HIST_UNIT) /
	                (double)nbins;
	g->have_hist_scale = true;
	strcpy(g->dimen, "seconds");
	g->dimen_abbrev = 's';
	return h;
}

void model_calls(struct gprof *g, struct sym *parent, struct sym *child,
                 uint64_t count)
{
	child->ncalls += count;
	arc_add(g, parent, child, count);
}

void model_free(struct gprof *g)
{
	for (size_t i = 0; i < g->nhists; i++) {
		free(g->hists[i].bins);
		free(g->hists[i].wide);
	}
	free(g->hists);
	cg_free_arc_blocks(g);
	free(g->arc_hash);
	free(g->arcs);
	free(g->cycles);
	free(g->cyc_members);
	cg_adj_free(&g->adj);
	free(g->cyc_member_start);
	free(g->syms.base);
	free(g->syms.addrs);
	free(g->syms.bucket);
	memset(g, 0, sizeof *g);
}
