/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arc_bulk.c - owns the bulk loading of a profile's call arcs: records are
 * resolved to symbol numbers as they are read and kept in one compact
 * array; once every file is read, arc_bulk_flush() merges repeated arcs
 * and builds all of them at once, laid out by caller.
 *
 * Tallying record by record (call_graph.c's cg_tally) costs a hash probe
 * and an allocation per record, scattered over memory: at a million arcs
 * that pointer chasing was most of the run.  The result here is the same
 * graph to the byte: each arc's creation number is that of its first
 * record, its parent's and child's lists are newest first, and g->arcs
 * holds the non-self arcs in creation order.  Bulk loading runs at most
 * once, into a graph with no arc on a real symbol yet; otherwise (or with
 * -d asking to see each tally) the records go through cg_tally.
 */
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

/* One record, as symbol numbers.  A count of WIDE or more is kept
   aside, with its record number (BSD counts are as wide as an address). */
struct arc_rec {
	uint32_t parent, child;
	uint32_t count;
};

#define WIDE UINT32_MAX

struct wide_count {
	size_t rec;
	uint64_t count;
};

struct arc_pending {
	struct arc_rec *v;
	size_t n, cap;
	struct wide_count *wide;     /* by record number */
	size_t nwide, wide_cap;
};

/* Record-by-record tallying when -d wants to see each arc as it is made,
   or when arcs on real symbols exist already (nothing to merge into). */
static bool bulk_allowed(const struct gprof *g)
{
	return !(g->opt.debug & (DBG_TALLY | DBG_LOOKUP)) && !g->arcs_on_syms &&
	       g->syms.len < UINT32_MAX;
}

static void pending_push(struct gprof *g, uint32_t p, uint32_t c,
                         uint64_t count)
{
	struct arc_pending *q = g->arc_pending;

	if (!q)
		q = g->arc_pending = xcalloc(1, sizeof *q);
	if (q->n == q->cap) {
		/* Large blocks are mmapped: growth moves no pages. */
		q->cap = q->cap ? q->cap * 2 : 4096;
		q->v = xrealloc(q->v, q->cap * sizeof *q->v);
	}
	if (count >= WIDE) {
		if (q->nwide == q->wide_cap) {
			q->wide_cap = q->wide_cap ? q->wide_cap * 2 : 16;
			q->wide = xrealloc(q->wide, q->wide_cap * sizeof *q->wide);
		}
		q->wide[q->nwide++] = (struct wide_count){ q->n, count };
	}
	q->v[q->n] = (struct arc_rec){ p, c, count >= WIDE ? WIDE
	                                                   : (uint32_t)count };
	q->n++;
}

static int cmp_wide(const void *key, const void *elem)
{
	size_t r = *(const size_t *)key;
	const struct wide_count *w = elem;

	return (r > w->rec) - (r < w->rec);
}

/* Record r's count (looked up aside when it was too wide to keep: every
   such record has its entry there, in record order). */
static uint64_t rec_count(const struct arc_pending *q, size_t r)
{
	if (q->v[r].count != WIDE)
		return q->v[r].count;
	const struct wide_count *w = bsearch(&r, q->wide, q->nwide,
	                                     sizeof *q->wide, cmp_wide);

	return w ? w->count : WIDE;
}

void arc_take(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count)
{
	if (g->thread_only)
		return;
	if (!bulk_allowed(g)) {
		cg_tally(g, from_pc, self_pc, count);
		return;
	}
	struct sym *parent = sym_lookup_exe(g, from_pc);
	struct sym *child = sym_lookup_exe(g, self_pc);

	if (!cg_arc_wanted(g, &parent, &child))
		return;
	pending_push(g, (uint32_t)(parent - g->syms.base),
	             (uint32_t)(child - g->syms.base), count);
}

/* Record numbers grouped by parent, in record order within each group
   (a counting sort); ends[p] is one past group p. */
static uint32_t *group_by_parent(const struct arc_pending *q, size_t nsym,
                                 uint32_t **ends)
{
	uint32_t *end = xcalloc(nsym + 1, sizeof *end);
	uint32_t *order = xmalloc((q->n ? q->n : 1) * sizeof *order);

	for (size_t r = 0; r < q->n; r++)
		end[q->v[r].parent + 1]++;
	for (size_t p = 1; p <= nsym; p++)
		end[p] += end[p - 1];
	/* end[p] is now group p's start; filling moves it to its end. */
	for (size_t r = 0; r < q->n; r++)
		order[end[q->v[r].parent]++] = (uint32_t)r;
	*ends = end;
	return order;
}

/* One arc per (parent, child), by parent, each parent's arcs in the
   order of their first records; an arc's id holds that record's number
   for now.  Returns the arcs (exactly *narcs of them). */
static struct arc *merge_records(struct gprof *g, const struct arc_pending *q,
                                 size_t *narcs)
{
	size_t nsym = g->syms.len, nu = 0;
	uint32_t *end, *order = group_by_parent(q, nsym, &end);
	/* seen[c]: the arc to c of the current parent, when owner[c] is it */
	uint32_t *owner = xcalloc(nsym ? nsym : 1, sizeof *owner);
	uint32_t *seen = xmalloc((nsym ? nsym : 1) * sizeof *seen);
	struct arc *v = xmalloc(q->n * sizeof *v);
	struct sym *base = g->syms.base;

	for (size_t p = 0, k = 0; p < nsym; p++) {
		for (; k < end[p]; k++) {
			const struct arc_rec *rec = &q->v[order[k]];
			uint64_t count = rec_count(q, order[k]);

			if (owner[rec->child] == p + 1) {
				v[seen[rec->child]].count += count;
				continue;
			}
			owner[rec->child] = (uint32_t)p + 1;
			seen[rec->child] = (uint32_t)nu;
			v[nu++] = (struct arc){ .parent = &base[p],
			                        .child = &base[rec->child],
			                        .count = count, .id = order[k] };
		}
	}
	free(owner);
	free(seen);
	free(order);
	free(end);
	*narcs = nu;
	/* Shrinking an mmapped block keeps its address; arcs are only
	   pointed at from here on. */
	return xrealloc(v, (nu ? nu : 1) * sizeof *v);
}

/* Creation numbers in the order of the arcs' first records: a pass over
   the record numbers, marking which record made which arc. */
static void number_arcs(struct gprof *g, struct arc *v, size_t nu,
                        size_t nrec)
{
	uint32_t *made = xmalloc((nrec ? nrec : 1) * sizeof *made);

	memset(made, 0xff, nrec * sizeof *made);
	for (size_t u = 0; u < nu; u++)
		made[v[u].id] = (uint32_t)u;
	for (size_t r = 0, id = g->narcs; r < nrec; r++)
		if (made[r] != UINT32_MAX)
			v[made[r]].id = id++;
	free(made);
}

/* Each parent's arcs are adjacent in v, oldest first: its list runs
   through them backwards, then on to the arcs it had before. */
static void link_children(struct arc *v, size_t nu)
{
	for (size_t i = 0; i < nu; i++) {
		struct sym *p = v[i].parent;

		v[i].next_child = p->children;
		p->children = &v[i];
	}
}

/* Parents' lists and the calls each child receives, oldest arc first so
   that prepending leaves them newest first; g->arcs gains the non-self
   arcs in creation order. */
static void link_parents(struct gprof *g, struct arc *v, size_t nu)
{
	size_t first = g->narcs_global, base_id = g->narcs;

	if (first + nu > g->arcs_cap) {
		g->arcs_cap = first + nu;
		g->arcs = xrealloc(g->arcs, g->arcs_cap * sizeof *g->arcs);
	}
	struct arc **by_id = g->arcs + first;
	struct sym *sb = g->syms.base;
	size_t nsym = g->syms.len;
	bool packed = nu < UINT32_MAX;

	for (size_t u = 0; u < nu; u++) {
		by_id[v[u].id - base_id] = &v[u];
		if (v[u].count > UINT32_MAX)
			packed = false;
	}
	/* Callers packed by child: pos[c] counts down from the end of c's
	   run (to its start), so the oldest arc lands last, as in
	   c->parents; pos[nsym] is the end of them all. */
	uint32_t *pos = NULL;
	struct caller *cv = NULL;

	if (packed) {
		pos = xcalloc(nsym + 1, sizeof *pos);
		for (size_t u = 0; u < nu; u++)
			pos[v[u].child - sb]++;
		for (size_t c = 1; c < nsym; c++)
			pos[c] += pos[c - 1];
		pos[nsym] = (uint32_t)nu;
		cv = xmalloc((nu ? nu : 1) * sizeof *cv);
	}
	size_t kept = 0;

	for (size_t i = 0; i < nu; i++) {
		struct arc *a = by_id[i];
		struct sym *c = a->child;

		c->ncalls += a->count;
		a->next_parent = c->parents;
		c->parents = a;
		if (cv)
			cv[--pos[c - sb]] = (struct caller){
				(uint32_t)(a->parent - sb), (uint32_t)a->count };
		if (a->parent != c)
			by_id[kept++] = a;
	}
	g->narcs_global = first + kept;
	if (cv) {
		arc_callers_drop(g);
		g->callers = cv;
		g->callers_start = pos;
	}
}

void arc_bulk_flush(struct gprof *g)
{
	struct arc_pending *q = g->arc_pending;

	if (!q)
		return;
	g->arc_pending = NULL;
	if (q->n > 0) {
		size_t nu;
		struct arc *v = merge_records(g, q, &nu);

		number_arcs(g, v, nu, q->n);
		free(q->v);
		q->v = NULL;
		link_children(v, nu);
		link_parents(g, v, nu);
		arc_adopt_block(g, v, nu);
	}
	free(q->v);
	free(q->wide);
	free(q);
}
