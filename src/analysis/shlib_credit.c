/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlib_credit.c - owns what the side files credit once the profiles are
 * read (shlibs_apply()): each library sample's ticks to its function's
 * self time, each library arc through the call-graph tally, each stack's
 * frames to their functions, and with --per-thread one thread's own
 * samples and calls.  The side files and the libraries' places in the
 * symbol table come from reading/shlibs.c (see its opening comment).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* The library symbol at link-time address a of lib l, or NULL. */
static struct sym *lib_sym(struct gprof *g, const struct lib *l, vma_t a)
{
	if (l->state != LIB_LOADED || a < l->lo || a > l->hi)
		return NULL;
	vma_t syn = a + l->delta;
	struct sym *s = sym_lookup(&g->syms, syn);
	if (!s || s->addr < g->shlib_base || syn > s->end_addr)
		return NULL;
	return s;
}

/* Samples in a function a symspec leaves out (the hook's, by default)
   are not credited, but counted for the totals (totals.c). */
static bool left_out(struct gprof *g, const struct sym *s, uint64_t count)
{
	if (s && sym_is_hook(g, s))
		g->shlib_hook += (double)count;
	if (!s || sym_selected(g, s, INCL_FLAT))
		return false;
	g->shlib_left_out += (double)count;
	return true;
}

static void credit_samples(struct gprof *g, const struct shlibs *sl,
                           size_t i)
{
	const struct gmsl_file *f = &sl->files[i];
	for (size_t k = 0; k < f->nsamples; k++) {
		const struct gmsl_sample *smp = &f->samples[k];
		const struct lib *l = &sl->libs[sl->map[i][smp->obj]];
		if (l == sl->libs || l->state == LIB_SKIPPED)
			continue;            /* the executable's are in gmon.out */
		struct sym *s = lib_sym(g, l, smp->addr);
		if (left_out(g, s, smp->count))
			continue;
		if (s)
			s->hist_time += smp->count;
		g->shlib_ticks += smp->count;
	}
	if (f->nsamples)
		g->input_hist = true;
}

static struct sym *arc_end(struct gprof *g, const struct shlibs *sl,
                           size_t i, uint32_t obj, vma_t addr)
{
	uint32_t k = sl->map[i][obj];
	return k == 0 ? sym_lookup_exe(g, addr) : lib_sym(g, &sl->libs[k], addr);
}

static void credit_arcs(struct gprof *g, const struct shlibs *sl, size_t i)
{
	const struct gmsl_file *f = &sl->files[i];
	for (size_t k = 0; k < f->narcs; k++) {
		const struct gmsl_arc *a = &f->arcs[k];
		if (sl->map[i][a->from_obj] == 0 && sl->map[i][a->to_obj] == 0)
			continue;            /* gmon.out has those */
		struct sym *parent = arc_end(g, sl, i, a->from_obj, a->from);
		struct sym *child = arc_end(g, sl, i, a->to_obj, a->to);
		cg_tally_syms(g, parent, child, a->count);
	}
	if (f->narcs)
		g->input_arcs = true;
}

/* Each stack of side file i, its frames mapped to symbols.  A frame
   past the first is a return address, just after its call: the call is
   at the address before (the call may be a function's last instruction,
   so its return address can belong to the next function). */
static void load_stacks(struct gprof *g, const struct shlibs *sl, size_t i)
{
	const struct gmsl_file *f = &sl->files[i];
	if (f->nstacks == 0 && !f->have_sloss)
		return;
	g->stacks = xrealloc(g->stacks, (g->nstacks + f->nstacks) *
	                     sizeof *g->stacks);
	for (size_t k = 0; k < f->nstacks; k++) {
		const struct gmsl_stack *st = &f->stacks[k];
		struct call_stack *cs = &g->stacks[g->nstacks++];
		cs->depth = st->depth;
		cs->thread = f->threads[st->thread].id;
		cs->truncated = (st->flags & GMSL_STACK_TRUNCATED) != 0;
		cs->count = st->count;
		cs->frames = xmalloc(st->depth * sizeof *cs->frames);
		for (unsigned d = 0; d < st->depth; d++) {
			const struct gmsl_frame *fr = &f->frames[st->first + d];
			vma_t a = d > 0 && fr->addr > 0 ? fr->addr - 1 : fr->addr;
			cs->frames[d] = arc_end(g, sl, i, fr->obj, a);
		}
	}
	g->stack_truncated += f->stack_truncated;
	g->stack_lost += f->stack_lost;
}

/* The run's CPU and wall time: the process's (PTIMES), or in a
   --per-thread context the thread's own (TTIMES). */
static void load_times(struct gprof *g, const struct gmsl_times *t)
{
	struct gmsl_times sum = { .have = g->have_run_times,
		.user_ns = g->run_user_ns, .sys_ns = g->run_sys_ns,
		.wall_ns = g->run_wall_ns };
	gmsl_times_add(&sum, t);
	g->have_run_times = sum.have;
	g->run_user_ns = sum.user_ns;
	g->run_sys_ns = sum.sys_ns;
	g->run_wall_ns = sum.wall_ns;
}

/* --per-thread: the thread's own samples, in every object (the
   executable's too: its address names its function exactly, as a
   library's does), and its own calls, every one of them exact. */
static void credit_thread(struct gprof *g, const struct shlibs *sl,
                          size_t i)
{
	const struct gmsl_file *f = &sl->files[i];
	size_t t = shlibs_thread_of(g, f);
	for (size_t k = 0; k < f->ntsamples; k++) {
		const struct gmsl_sample *smp = &f->tsamples[k].s;
		if (f->tsamples[k].thread != t)
			continue;
		uint32_t li = sl->map[i][smp->obj];
		if (sl->libs[li].state == LIB_SKIPPED && li != 0)
			continue;
		struct sym *s = arc_end(g, sl, i, smp->obj, smp->addr);
		if (left_out(g, s, smp->count))
			continue;
		if (s)
			s->hist_time += smp->count;
		g->shlib_ticks += smp->count;
		g->input_hist = true;
	}
	for (size_t k = 0; k < f->ntarcs; k++) {
		const struct gmsl_arc *a = &f->tarcs[k].a;
		if (f->tarcs[k].thread != t)
			continue;
		struct sym *parent = arc_end(g, sl, i, a->from_obj, a->from);
		struct sym *child = arc_end(g, sl, i, a->to_obj, a->to);
		cg_tally_syms(g, parent, child, a->count);
		g->input_arcs = true;
	}
}

/* A thread context keeps gmon.out's histogram for its range and rate
   (what the reports print about them) but none of its whole-program
   samples: the thread's own replace them. */
static void clear_histograms(struct gprof *g)
{
	for (size_t i = 0; i < g->nhists; i++) {
		struct histogram *h = &g->hists[i];
		if (h->wide)
			memset(h->wide, 0, h->num_bins * sizeof *h->wide);
		if (h->bins)
			memset(h->bins, 0, h->num_bins * sizeof *h->bins);
	}
}

/* After the profiles are read: each side file's samples and arcs.  A
   profile without a histogram takes the side files' rate. */
void shlibs_apply(struct gprof *g)
{
	struct shlibs *sl = g->shlibs;
	if (!sl || sl->nfiles == 0)
		return;
	if (sl->rate && !g->have_hist_scale && !g->have_bsd_rate) {
		g->hz = sl->rate;
		if (!g->dimen[0]) {
			strcpy(g->dimen, "seconds");
			g->dimen_abbrev = 's';
		}
	}
	if (g->thread_only)
		clear_histograms(g);
	for (size_t i = 0; i < sl->nfiles; i++) {
		if (sl->skipped[i])
			continue;
		const struct gmsl_file *f = &sl->files[i];
		if (g->thread_only) {
			credit_thread(g, sl, i);
			size_t t = shlibs_thread_of(g, f);
			if (t < f->nthreads)
				load_times(g, &f->threads[t].times);
			continue;
		}
		credit_samples(g, sl, i);
		credit_arcs(g, sl, i);
		load_stacks(g, sl, i);
		load_times(g, &f->ptimes);
	}
}

