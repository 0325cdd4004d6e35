/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clone_credit.c - owns what the compiler clones do to the figures:
 * with --clones=merge, each clone's samples, calls and stack frames
 * credited to the function it was cloned from (symbols/clones.c finds
 * it), the call from a function into its own split part left out; and,
 * whatever the mode, what GNU's rule moves to a neighbouring function
 * (the samples and calls in the clones it drops), for the diagnosis.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* The clone range holding address a, or NULL. */
static struct clone_range *range_at(struct clone_stats *c, vma_t a)
{
	size_t lo = 0, hi = c->nranges;
	if (hi == 0 || a < c->ranges[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ranges[mid].addr <= a)
			lo = mid;
		else
			hi = mid;
	}
	struct clone_range *r = &c->ranges[lo];
	return a < r->end ? r : NULL;
}

/* The arc sink while profiles are read when the executable has clones
   that GNU's rule drops: counts the calls into them (GNU credits those
   to the function before), then hands the record on. */
static void clone_arc_sink(struct gprof *g, vma_t from_pc, vma_t self_pc,
                           uint64_t count)
{
	struct clone_stats *c = &g->clones;
	struct clone_range *r = range_at(c, self_pc);
	c->all_calls += count;
	if (r) {
		r->calls += count;
		if (g->opt.clones == CLONES_MERGE) {
			const struct sym *from = sym_lookup_exe(g, from_pc);
			if (from && clone_is_split_of(r->name, from->name))
				c->internal_calls += count;
		}
	}
	c->next_sink(g, from_pc, self_pc, count);
}

/* Puts the counting sink in front of g->arc_sink when there is
   something to count. */
void clones_set_sink(struct gprof *g)
{
	if (!g->clones.nranges || g->arc_sink == clone_arc_sink)
		return;
	g->clones.next_sink = g->arc_sink;
	g->arc_sink = clone_arc_sink;
}

/* cg_arc_wanted()'s part: with --clones=merge an arc's ends become the
   functions the clones were made from, and a call from a function into
   its own split part (foo to foo.part.0) is no arc at all: it would be
   a recursion the program never made.  A clone's call of itself stays
   one (foo.part.0 calling foo.part.0 is foo calling foo). */
bool clones_arc_ends(struct sym **parent, struct sym **child)
{
	struct sym *p = *parent, *c = *child;
	if (!p->origin && !c->origin)
		return true;
	if (p != c && clone_is_split_of(c->name, p->name))
		return false;
	*parent = p->origin ? p->origin : p;
	*child = c->origin ? c->origin : c;
	return true;
}

/* --clones=merge, before the stack tree: each frame becomes its origin,
   and a split part's frame called from its whole goes (the whole's
   frame stands for both), so that foo calling foo.part.0 reads foo
   alone, not foo;foo. */
void clones_merge_stacks(struct gprof *g)
{
	if (g->opt.clones != CLONES_MERGE || g->clones.nmerged == 0)
		return;
	for (size_t i = 0; i < g->nstacks; i++) {
		struct call_stack *cs = &g->stacks[i];
		uint32_t k = 0;
		for (uint32_t d = 0; d < cs->depth; d++) {
			struct sym *f = cs->frames[d];
			struct sym *up = d + 1 < cs->depth ? cs->frames[d + 1] : NULL;
			if (f && up && f != up && f->origin &&
			    clone_is_split_of(f->name, up->name))
				continue;
			cs->frames[k++] = f && f->origin ? f->origin : f;
		}
		cs->depth = k;
	}
}

/* --clones=merge, once samples are credited: a clone's self time is its
   origin's. */
void clones_merge_time(struct gprof *g)
{
	if (g->opt.clones != CLONES_MERGE || g->clones.nmerged == 0)
		return;
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		if (!s->origin)
			continue;
		s->origin->hist_time += s->hist_time;
		s->hist_time = 0;
	}
}

/* The histogram samples in [lo, hi): whole bins inside, a share of the
   bins across its ends. */
static double samples_in(const struct gprof *g, vma_t lo, vma_t hi)
{
	double n = 0;
	for (size_t k = 0; k < g->nhists; k++) {
		const struct histogram *h = &g->hists[k];
		if (h->num_bins == 0 || h->highpc <= h->lowpc || hi <= h->lowpc ||
		    lo >= h->highpc)
			continue;
		double w = (double)(h->highpc - h->lowpc) / (double)h->num_bins;
		double a = (double)((lo > h->lowpc ? lo : h->lowpc) - h->lowpc);
		double b = (double)((hi < h->highpc ? hi : h->highpc) - h->lowpc);
		size_t i0 = (size_t)(a / w), i1 = (size_t)(b / w) + 1;
		if (i1 > h->num_bins)
			i1 = h->num_bins;
		for (size_t i = i0; i < i1; i++) {
			double blo = (double)i * w, bhi = blo + w;
			double ov = (b < bhi ? b : bhi) - (a > blo ? a : blo);
			if (ov > 0)
				n += (double)hist_bin(h, i) * ov / w;
		}
	}
	return n;
}

static int cmp_owner(const void *pa, const void *pb, void *ctx)
{
	const struct clone_owner *a = pa, *b = pb;
	const struct clone_stats *c = ctx;
	double wa = a->samples / (c->samples > 0 ? c->samples : 1) +
	            (double)a->calls / (double)(c->calls ? c->calls : 1);
	double wb = b->samples / (c->samples > 0 ? c->samples : 1) +
	            (double)b->calls / (double)(c->calls ? c->calls : 1);
	if (wa != wb)
		return wa > wb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The functions GNU's rule credits most clone samples and calls to. */
static void rank_owners(struct clone_stats *c)
{
	struct clone_owner *v = xmalloc((c->nranges + 1) * sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < c->nranges; i++) {
		const struct clone_range *r = &c->ranges[i];
		if (!r->gnu_owner || (r->samples <= 0 && r->calls == 0))
			continue;
		size_t k = 0;
		while (k < n && v[k].name != r->gnu_owner)
			k++;
		if (k == n)
			v[n++] = (struct clone_owner){ .name = r->gnu_owner };
		v[k].samples += r->samples;
		v[k].calls += r->calls;
		v[k].nclones++;
	}
	stable_sort(v, n, sizeof *v, cmp_owner, c);
	c->ntop = n < CLONE_TOP ? n : CLONE_TOP;
	memcpy(c->top, v, c->ntop * sizeof *v);
	free(v);
}

/* For the diagnosis: the samples and calls in the clones GNU's rule
   drops, in all and by the function that gets them. */
void clones_tally(struct gprof *g)
{
	struct clone_stats *c = &g->clones;
	c->samples = 0;
	c->calls = 0;
	for (size_t i = 0; i < c->nranges; i++) {
		struct clone_range *r = &c->ranges[i];
		r->samples = samples_in(g, r->addr, r->end);
		c->samples += r->samples;
		c->calls += r->calls;
	}
	rank_owners(c);
}
