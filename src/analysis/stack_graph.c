/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stack_graph.c - owns --stacks: the call graph's times taken from the
 * sampled call stacks (GMON_STACKS=1) instead of from call counts.
 *
 * gprof shares a function's time among its callers in proportion to
 * their calls, which is wrong whenever calls differ in cost: a function
 * called 1000 times by a cheap caller and 1000 times by a costly one is
 * charged half to each.  A sampled stack says which caller was on the
 * stack when the time was spent, so the shares need no guess.
 *
 * This runs after cg_assemble() (cycles, call counts, print flags) and
 * only replaces the times it left in the model: sym->prop_self and
 * prop_child, arc->time and child_time, g->print_time, then the entries'
 * order, which depends on them.  cg_print.c prints them unchanged.
 *
 * A program not built with -pg (linked with libgmon only, or run under
 * the preload runtime) counts no call: its gmon.out has no arcs.  Its
 * stacks still say who called whom, so stack_arcs_build() makes the
 * arcs from them, each counting the stack samples that hold the call
 * (g->arcs_from_stacks): the call graph and every format's edges then
 * work as with counted calls, labelled as samples.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* Per-stack marks ("seen in stack k" is mark == k + 1) make every figure
   count a stack once, however often recursion repeats a frame or an arc
   in it: a sample is time spent once, not once per frame. */
struct tally {
	uint64_t *self, *incl;       /* per symbol, then per cycle */
	size_t *mark;
	uint64_t *arc_self, *arc_all; /* per arc id */
	size_t *arc_mark;
};

/* Slot of s in the per-symbol arrays: symbols first, then cycle heads. */
static size_t slot(const struct gprof *g, const struct sym *s)
{
	if (s >= g->syms.base && s < g->syms.base + g->syms.len)
		return (size_t)(s - g->syms.base);
	return g->syms.len + (size_t)(s - g->cycles);
}

/* Counts s (and its cycle as a whole, if any) in stack k's inclusive
   samples, once. */
static void count_incl(const struct gprof *g, struct tally *t,
                       const struct sym *s, size_t k, uint64_t c)
{
	size_t i = slot(g, s);
	if (t->mark[i] != k + 1) {
		t->mark[i] = k + 1;
		t->incl[i] += c;
	}
	if (s->cyc_head && s->cyc_head != s)
		count_incl(g, t, s->cyc_head, k, c);
}

static bool same_cycle(const struct sym *a, const struct sym *b)
{
	return a->cycle_num != 0 && a->cycle_num == b->cycle_num;
}

static void tally_stack(struct gprof *g, struct tally *t, size_t k)
{
	const struct call_stack *st = &g->stacks[k];
	uint64_t c = st->count;
	struct sym *const *f = (struct sym *const *)st->frames;
	uint32_t d = st->depth;

	if (d == 0)
		return;
	/* The leaf run: the leaf and the frames above it in the leaf's own
	   function or cycle.  A callee inside it is where the sample's time
	   was spent (its self share); above it, time spent in its callees.
	   A recursive f;f;f leaf counts as f's self time, as a cycle's
	   members' time counts as the cycle's own. */
	uint32_t run = 0;
	if (f[0]) {
		const struct sym *h = f[0]->cyc_head ? f[0]->cyc_head : f[0];
		while (run < d && f[run] &&
		       (f[run]->cyc_head ? f[run]->cyc_head : f[run]) == h)
			run++;
		t->self[slot(g, f[0])] += c;
		if (h != f[0])
			t->self[slot(g, h)] += c;
	}
	for (uint32_t i = 0; i < d; i++)
		if (f[i])
			count_incl(g, t, f[i], k, c);
	/* Arcs: frame i calls frame i - 1.  Walking from the leaf up, an
	   arc's first occurrence is its deepest, so it decides whether the
	   stack is the callee's own time; later ones are the same sample. */
	for (uint32_t i = 1; i < d; i++) {
		struct sym *caller = f[i], *callee = f[i - 1];
		if (!caller || !callee || caller == callee ||
		    same_cycle(caller, callee))
			continue;
		struct arc *a = arc_lookup(g, caller, callee);
		if (!a || t->arc_mark[a->id] == k + 1)
			continue;
		t->arc_mark[a->id] = k + 1;
		t->arc_all[a->id] += c;
		if (i - 1 < run)
			t->arc_self[a->id] += c;
	}
}

/* The figures, into the fields the call graph prints (in ticks, which
   is what a sample is: cg_print divides by hz). */
static void fill_model(struct gprof *g, const struct tally *t)
{
	g->print_time = 0.0;
	for (size_t k = 0; k < g->nstacks; k++)
		g->print_time += (double)g->stacks[k].count;
	size_t n = g->syms.len + (size_t)g->ncycles;
	for (size_t i = 0; i < n; i++) {
		struct sym *s = i < g->syms.len ? &g->syms.base[i]
		                                : &g->cycles[i - g->syms.len];
		/* -E and -e leave a fraction of 0: those symbols keep none. */
		double fract = s->fract;
		s->prop_self = fract * (double)t->self[i];
		s->prop_child = fract * (double)(t->incl[i] - t->self[i]);
		s->child_time = s->prop_child;
	}
	free(g->stack_incl);
	g->stack_incl = xmalloc((g->syms.len ? g->syms.len : 1) *
	                        sizeof *g->stack_incl);
	for (size_t i = 0; i < g->syms.len; i++)
		g->stack_incl[i] = (double)t->incl[i];
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *p = &g->syms.base[i];
		for (struct arc *a = p->children; a; a = a->next_child) {
			a->time = p->fract * (double)t->arc_self[a->id];
			a->child_time = p->fract *
				(double)(t->arc_all[a->id] - t->arc_self[a->id]);
		}
	}
}

void stack_graph_build(struct gprof *g)
{
	size_t n = g->syms.len + (size_t)g->ncycles + 1;
	size_t na = g->narcs + 1;
	struct tally t = {
		.self = xcalloc(n, sizeof *t.self),
		.incl = xcalloc(n, sizeof *t.incl),
		.mark = xcalloc(n, sizeof *t.mark),
		.arc_self = xcalloc(na, sizeof *t.arc_self),
		.arc_all = xcalloc(na, sizeof *t.arc_all),
		.arc_mark = xcalloc(na, sizeof *t.arc_mark),
	};

	for (size_t k = 0; k < g->nstacks; k++)
		tally_stack(g, &t, k);
	fill_model(g, &t);
	free(t.self);
	free(t.incl);
	free(t.mark);
	free(t.arc_self);
	free(t.arc_all);
	free(t.arc_mark);
	/* The entries are ordered (and numbered) by total time. */
	free(g->entries);
	g->entries = cg_entries_by_time(g, &g->nentries);
	g->stack_times = true;
}

/* No counted call, some stacks, and a report that shows calls: the
   --stacks call graph, or a format other than GNU's text (whose default
   report stays GNU's flat profile). */
bool stack_arcs_wanted(const struct gprof *g)
{
	return !g->input_arcs && g->nstacks > 0 &&
	       !g->thread_only &&
	       (g->opt.stacks || g->opt.out_format != OUT_TEXT);
}

/* Stack k's calls (frame i calls frame i - 1) into arcs, each counting
   the stack's samples once however often recursion repeats it.  Frames
   at no function, a function calling itself and the profiling hook
   make no arc. */
static void stack_arcs_one(struct gprof *g, size_t k, size_t **mark,
                           size_t *cap)
{
	const struct call_stack *st = &g->stacks[k];
	for (uint32_t i = 1; i < st->depth; i++) {
		struct sym *p = st->frames[i], *c = st->frames[i - 1];
		if (!p || !c || p == c || sym_is_hook(g, p) ||
		    sym_is_hook(g, c) || !cg_arc_wanted(g, &p, &c) || p == c)
			continue;
		struct arc *a = arc_add(g, p, c, 0);
		if (a->id >= *cap) {
			size_t n = *cap ? *cap : 256;
			while (n <= a->id)
				n *= 2;
			*mark = xrealloc(*mark, n * sizeof **mark);
			memset(*mark + *cap, 0, (n - *cap) * sizeof **mark);
			*cap = n;
		}
		if ((*mark)[a->id] == k + 1)
			continue;
		(*mark)[a->id] = k + 1;
		a->count += st->count;
		c->ncalls += st->count;
	}
}

void stack_arcs_build(struct gprof *g)
{
	size_t *mark = NULL, cap = 0;
	for (size_t k = 0; k < g->nstacks; k++)
		if (g->stacks[k].count)
			stack_arcs_one(g, k, &mark, &cap);
	free(mark);
	g->arcs_from_stacks = true;
	g->input_arcs = g->narcs > 0;
}
