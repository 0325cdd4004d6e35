/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_adj.c - owns the callee lists as an array for the analysis: for each
 * symbol number, its callees' numbers in list order (newest first), built
 * by one walk of the lists.
 *
 * The analysis follows every callee list several times (self-calls, the
 * depth-first walk, cycle calls, time propagation).  Each list step waits
 * for the arc before it, a million times at a million arcs; the callee
 * numbers, 4 bytes an arc, are read without waiting, index the small
 * per-symbol arrays of the walks directly, and tell a walk which symbols
 * to ask for ahead.  The arcs themselves go beside them later, when the
 * packed callers are freed: both at once raised the peak memory of a big
 * run.
 */
#include <stdlib.h>

#include "analysis/analysis.h"

static uint32_t sym_number(const struct symtab *st, const struct sym *s)
{
	if (s < st->base || s >= st->base + st->len)
		return CG_ADJ_NOT_SYM;
	return (uint32_t)(s - st->base);
}

/*
 * Calls f(arc, ctx) for each arc of s's callee list, in list order.
 *
 * Arcs built in bulk (arc_bulk.c) lie in memory in the order their lists
 * run backwards.  Following the links makes each step wait for the arc
 * before it; stepping an index down through such a run, and only
 * checking each link against it, lets the processor fetch arcs ahead
 * (the walk over a million arcs took several times as long).  A link
 * that goes elsewhere is followed.
 */
#define FOR_EACH_CALLEE(s, a, body)                                       \
	do {                                                              \
		const struct arc *run_ = (s)->children;                   \
		size_t j_ = 0;                                            \
		while (run_) {                                            \
			const struct arc *a = run_ - j_;                  \
			body;                                             \
			if (a->next_child == run_ - j_ - 1) {             \
				j_++;                                     \
				continue;                                 \
			}                                                 \
			run_ = a->next_child;                             \
			j_ = 0;                                           \
		}                                                         \
	} while (0)

void cg_adj_build(const struct gprof *g, struct cg_adj *adj)
{
	const struct symtab *st = &g->syms;
	size_t cap = g->narcs ? g->narcs : 1, k = 0;

	adj->arc = NULL;
	adj->cnt = NULL;
	adj->first = xmalloc((st->len + 1) * sizeof *adj->first);
	adj->kid = xmalloc(cap * sizeof *adj->kid);
	for (size_t i = 0; i < st->len; i++) {
		adj->first[i] = (uint32_t)k;
		FOR_EACH_CALLEE(&st->base[i], a, {
			if (k == cap) {
				/* (narcs counts every arc: this is for safety) */
				cap *= 2;
				adj->kid = xrealloc(adj->kid, cap * sizeof *adj->kid);
			}
			if (k >= CG_ADJ_NOT_SYM)
				die_plain("too many arcs in the call graph");
			adj->kid[k++] = sym_number(st, a->child);
		});
	}
	adj->first[st->len] = (uint32_t)k;
}

/* The arcs beside the callee numbers, for walks that need them: built
   apart, once memory read before is freed (8 bytes an arc).  Each
   symbol's run ends in a NULL, so that the ranking can sort it in place
   and keep it as the symbol's ranked callee list (cg_order.c). */
void cg_adj_arcs(const struct gprof *g, struct cg_adj *adj)
{
	const struct symtab *st = &g->syms;

	adj->arc = xmalloc((adj->first[st->len] + st->len + 1) *
	                   sizeof *adj->arc);
	for (size_t i = 0; i < st->len; i++) {
		struct arc **seg = cg_adj_callees(adj, i);

		FOR_EACH_CALLEE(&st->base[i], a, *seg++ = (struct arc *)a);
		*seg = NULL;
	}
}

void cg_adj_free(struct cg_adj *adj)
{
	free(adj->first);
	free(adj->kid);
	free(adj->cnt);
	free(adj->arc);
	adj->first = adj->kid = adj->cnt = NULL;
	adj->arc = NULL;
}
