/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_order.c - the order in which the call graph is reported, computed
 * once after propagation: each symbol's callers and callees ranked as GNU
 * ranks them, cycle members by time, and which entries are shown.
 *
 * GNU orders caller and callee lines with insertion sorts that relink its
 * lists while printing; inserting each arc of the newest-first list before
 * the first equal one leaves equal arcs oldest first, which is exactly a
 * stable sort of the reversed list.  Here the ranked order goes into
 * arrays beside the lists (by_rank_parents, by_rank_children), so the
 * lists keep the order the arcs were made in.
 */
#include <stdlib.h>

#include "analysis/analysis.h"

/* What ranking reads of the symbols, copied out: each symbol's cycle
   number, indexed by symbol number.  Two symbols per arc are looked at,
   all over memory; 4 bytes each here stay in the cache. */
struct rank_ctx {
	const struct sym *base;
	size_t len;
	int *cycle;
};

static int cycle_of(const struct rank_ctx *rc, const struct sym *s)
{
	if (s >= rc->base && s < rc->base + rc->len)
		return rc->cycle[s - rc->base];
	return s->cycle_num;         /* not a table symbol */
}

/* Arcs order as GNU ranks them: a self-call lowest, then calls within a
   cycle (by count), then ordinary arcs by propagated time, then count. */
static int arc_rank(const struct rank_ctx *rc, const struct arc *a)
{
	if (a->parent == a->child)
		return 0;
	int pc = cycle_of(rc, a->parent);

	return pc != 0 && pc == cycle_of(rc, a->child) ? 1 : 2;
}

struct arc_key {
	int rank;
	double time;
	uint64_t count;
	struct arc *arc;
	size_t id;                   /* the arc's: ties of caller lists */
};

/* The sort key of an arc, computed once per arc: the comparisons then
   read one array instead of an arc and two symbols each. */
static int cmp_key(const struct arc_key *l, const struct arc_key *r)
{
	if (l->rank != r->rank)
		return l->rank < r->rank ? -1 : 1;
	if (l->rank == 2 && l->time != r->time)
		return l->time < r->time ? -1 : 1;
	if (l->count != r->count)
		return l->count < r->count ? -1 : 1;
	return 0;
}

/* Callers ascending, equal ones oldest first: what a stable sort of the
   reversed (oldest first) list gives, whatever order they come in. */
static int cmp_up_id(const struct arc_key *l, const struct arc_key *r)
{
	int c = cmp_key(l, r);

	if (c != 0)
		return c;
	return (l->id > r->id) - (l->id < r->id);
}

static int cmp_down(const struct arc_key *l, const struct arc_key *r)
{
	return cmp_key(r, l);
}

static int cmp_key_up_id(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return cmp_up_id(*(struct arc_key *const *)pa,
	                 *(struct arc_key *const *)pb);
}

static int cmp_key_down(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return cmp_down(*(struct arc_key *const *)pa,
	                *(struct arc_key *const *)pb);
}

/* An arc's sort key into k (and its place in v). */
static void key_of(const struct rank_ctx *rc, struct arc *a,
                   struct arc_key *k, struct arc_key **v)
{
	k->rank = arc_rank(rc, a);
	k->time = a->time + a->child_time;
	k->count = a->count;
	k->arc = a;
	k->id = a->id;
	*v = k;
}

/* Short lists (most are) go by insertion, which is stable: for these
   comparisons, all of them consistent orders of finite keys, any stable
   sort gives the one result the merge sort gives.  A NaN time would make
   the order depend on the algorithm: such lists take the merge sort. */
#define INSERTION_MAX 16

static bool insertion_sort(struct arc_key **v, size_t n, bool down)
{
	for (size_t i = 0; i < n; i++)
		if (v[i]->time != v[i]->time)
			return false;
	for (size_t i = 1; i < n; i++) {
		struct arc_key *k = v[i];
		size_t j = i;

		while (j > 0 && (down ? cmp_down(v[j - 1], k)
		                      : cmp_up_id(v[j - 1], k)) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = k;
	}
	return true;
}

/* Ranks the n keys of v into dst (NULL-terminated): callees descending
   (`down`), callers ascending. */
static void rank_keys(struct arc_key **v, size_t n, bool down,
                      struct arc **dst)
{
	if (n > 1 && (n > INSERTION_MAX || !insertion_sort(v, n, down)))
		stable_sort(v, n, sizeof *v, down ? cmp_key_down : cmp_key_up_id,
		            NULL);
	for (size_t i = 0; i < n; i++)
		dst[i] = v[i]->arc;
	dst[n] = NULL;
}

/* Ranks in place, descending, the n callees in `seg`, in list order.
   The list is newest first: keys go in from the end, as the sort wants
   the list reversed. */
static void rank_callees(const struct rank_ctx *rc, struct arc **seg,
                         size_t n, struct arc_key *k, struct arc_key **v)
{
	for (size_t j = 0; j < n; j++)
		key_of(rc, seg[j], &k[n - 1 - j], &v[n - 1 - j]);
	rank_keys(v, n, true, seg);
}

/* Ranks in place the n callers in `seg` (gathered in any order), asking
   for the arcs a few ahead: they lie all over memory. */
static void rank_callers(const struct rank_ctx *rc, struct arc **seg,
                         size_t n, struct arc_key *k, struct arc_key **v)
{
	for (size_t j = 0; j < n; j++) {
		if (j + 8 < n)
			__builtin_prefetch(seg[j + 8]);
		key_of(rc, seg[j], &k[j], &v[j]);
	}
	rank_keys(v, n, false, seg);
}

/* Every symbol's callers into its segment of the pool (starting at
   start[i]), from the callee arrays: one pass through memory, where
   walking each caller list would jump about. */
static void gather_callers(const struct symtab *st, const struct cg_adj *adj,
                           struct arc **pool, const size_t *start)
{
	uint32_t *fill = xcalloc(st->len ? st->len : 1, sizeof *fill);

	for (size_t i = 0; i < st->len; i++) {
		struct arc **seg = cg_adj_callees(adj, i);

		for (uint32_t k = adj->first[i]; k < adj->first[i + 1]; k++, seg++) {
			uint32_t c = adj->kid[k];

			if (c != CG_ADJ_NOT_SYM)
				pool[start[c] + fill[c]++] = *seg;
		}
	}
	free(fill);
}

/* How many callers each symbol has. */
static uint32_t *count_callers(const struct symtab *st,
                               const struct cg_adj *adj)
{
	uint32_t *np = xcalloc(st->len ? st->len : 1, sizeof *np);
	uint32_t end = adj->first[st->len];

	for (uint32_t k = 0; k < end; k++)
		if (adj->kid[k] != CG_ADJ_NOT_SYM)
			np[adj->kid[k]]++;
	return np;
}

static void rank_ctx_init(struct rank_ctx *rc, const struct symtab *st)
{
	rc->base = st->base;
	rc->len = st->len;
	rc->cycle = xmalloc((st->len ? st->len : 1) * sizeof *rc->cycle);
	for (size_t i = 0; i < st->len; i++)
		rc->cycle[i] = st->base[i].cycle_num;
}

/* Lays out the pool: each symbol's callers, then a NULL. */
static struct arc **pool_layout(const struct symtab *st, const uint32_t *np,
                                size_t *start)
{
	size_t total = 0;

	for (size_t i = 0; i < st->len; i++) {
		start[i] = total;
		total += (size_t)np[i] + 1;
	}
	return xmalloc((total ? total : 1) * sizeof(struct arc *));
}

/* Each symbol's callers go into a pool, and are ranked there; its
   callees are ranked where the callee arrays hold them, which then
   become the ranked lists' storage (the pool of both at once was a big
   graph's peak memory). */
static void rank_all_arcs(struct gprof *g)
{
	struct symtab *st = &g->syms;
	struct cg_adj *adj = &g->adj;
	size_t n = st->len ? st->len : 1, longest = 1;
	uint32_t *np = count_callers(st, adj);
	size_t *start = xmalloc(n * sizeof *start);
	struct rank_ctx rc;

	free(g->rank_pool);
	g->rank_pool = pool_layout(st, np, start);
	gather_callers(st, adj, g->rank_pool, start);
	for (size_t i = 0; i < st->len; i++) {
		g->rank_pool[start[i] + np[i]] = NULL;
		longest = np[i] > longest ? np[i] : longest;
		if (adj->first[i + 1] - adj->first[i] > longest)
			longest = adj->first[i + 1] - adj->first[i];
	}
	rank_ctx_init(&rc, st);
	struct arc_key *k = xmalloc(longest * sizeof *k);
	struct arc_key **v = xmalloc(longest * sizeof *v);

	for (size_t i = 0; i < st->len; i++) {
		struct sym *s = &st->base[i];

		s->by_rank_parents = g->rank_pool + start[i];
		rank_callers(&rc, s->by_rank_parents, np[i], k, v);
		s->by_rank_children = cg_adj_callees(adj, i);
		rank_callees(&rc, s->by_rank_children,
		             adj->first[i + 1] - adj->first[i], k, v);
	}
	free(g->rank_callees);
	g->rank_callees = adj->arc;  /* now the ranked callee lists */
	adj->arc = NULL;
	free(rc.cycle);
	free(k);
	free(v);
	free(np);
	free(start);
}

/* What the member order compares, copied out of each member. */
struct member_key {
	double total;                /* prop_self + prop_child */
	uint64_t calls;              /* ncalls + self_calls */
	struct sym *sym;
};

static int cmp_member(const void *pa, const void *pb, void *ctx)
{
	const struct member_key *a = *(struct member_key *const *)pa;
	const struct member_key *b = *(struct member_key *const *)pb;

	(void)ctx;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return 0;
}

static double member_total(const void *p)
{
	return ((const struct member_key *)p)->total;
}

static uint64_t member_calls(const void *p)
{
	return ((const struct member_key *)p)->calls;
}

/* Members by total time, then calls, both descending; ties keep the
   cycle-list order.  The list (and the member array) are put in that
   order: nothing after propagation depends on the order they were built
   in. */
static void sort_members(struct gprof *g, struct sym *cyc)
{
	struct sym **m = cycle_first(g, cyc);
	size_t n = (size_t)(cycle_end(g, cyc) - m);

	if (n < 2)
		return;
	struct member_key *k = xmalloc(n * sizeof *k);
	struct member_key **v = xmalloc(n * sizeof *v);

	for (size_t i = 0; i < n; i++) {
		k[i].total = m[i]->prop_self + m[i]->prop_child;
		k[i].calls = m[i]->ncalls + m[i]->self_calls;
		k[i].sym = m[i];
		v[i] = &k[i];
	}
	static const struct desc_keys keys = { member_total, member_calls, NULL,
	                                       true };

	stable_sort_desc((void **)v, n, &keys, cmp_member, NULL);
	for (size_t i = 0; i < n; i++)
		m[i] = v[i]->sym;
	cyc->cyc_next = m[0];
	for (size_t i = 0; i < n; i++)
		m[i]->cyc_next = i + 1 < n ? m[i + 1] : NULL;
	free(v);
	free(k);
}

bool cg_graph_printed(const struct gprof *g)
{
	return (g->opt.style & STYLE_CALL_GRAPH) && g->input_arcs;
}

/* The entries' order and index numbers are shown by the call graph, the
   BSD flat profile and every format but text; GNU's text flat profile
   alone (-p, say) shows neither, and sorting 100,000 entries is then
   time for nothing. */
bool cg_entries_wanted(const struct gprof *g)
{
	return (g->opt.style & STYLE_CALL_GRAPH) || g->opt.bsd_style ||
	       g->opt.out_format != OUT_TEXT;
}

/* GNU hides an entry with nothing at all to show (unless -z), entries
   the symspecs leave unprintable, and with -l everything that is not a
   function (cycle-as-a-whole entries included). */
bool cg_entry_shown(const struct gprof *g, const struct sym *s)
{
	if (g->opt.ignore_zeros && s->ncalls == 0 && s->self_calls == 0 &&
	    s->prop_self == 0 && s->prop_child == 0)
		return false;
	if (!s->print_flag || s->origin)
		return false;
	return !(g->opt.line_gran && !s->is_func);
}

/* Runs after cg_propagate() (whose callee arrays it reads and frees)
   when there are arcs. */
void cg_order(struct gprof *g)
{
	g->print_time_base = g->print_time > 0.0 ? g->print_time : 1.0;
	/* The other formats carry the call graph whatever -q/-Q say. */
	if (cg_graph_printed(g) || g->opt.out_format != OUT_TEXT) {
		if (!g->adj.arc) {
			cg_adj_free(&g->adj);
			cg_adj_build(g, &g->adj);
			cg_adj_arcs(g, &g->adj);
		}
		rank_all_arcs(g);
		for (int i = 0; i < g->ncycles; i++)
			sort_members(g, &g->cycles[i]);
	}
	cg_adj_free(&g->adj);
}
