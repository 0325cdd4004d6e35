/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_arcs.c - assembling the call graph once all arcs are read.
 *
 * Owns the analysis between reading and printing: self-call bookkeeping,
 * cycle headers, print flags and propagation fractions (top-down), time
 * propagation (bottom-up) and the order and index numbers of the entries.
 * With -c it has cg_scan.c add the arcs found in each symbol's code, at
 * the point where GNU does.
 * Every step visits symbols, arcs and members in GNU gprof's order, since
 * the floating-point sums and all sort ties depend on it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cg_scan.h"

/* The count of the arc from symbol i to itself, the first in its callee
   list, if there is one: found in the array when it is built (which
   holds the counts when there are no arcs), then walked to. */
static bool self_count(const struct gprof *g, const struct cg_adj *adj,
                       size_t i, uint64_t *count)
{
	const struct sym *s = &g->syms.base[i];
	const struct arc *a = s->children;

	if (adj) {
		uint32_t k = adj->first[i];

		while (k < adj->first[i + 1] && adj->kid[k] != i)
			k++;
		if (k == adj->first[i + 1])
			return false;
		if (adj->cnt) {
			*count = adj->cnt[k];
			return true;
		}
		for (; k > adj->first[i]; k--)
			a = a->next_child;
		*count = a->count;
		return true;
	}
	for (; a; a = a->next_child)
		if (a->child == s) {
			*count = a->count;
			return true;
		}
	return false;
}

/* Reset the analysis fields; a recursive arc's count moves from ncalls to
   self_calls.  With -c the symbol's own text is scanned right after, as
   GNU interleaves the two (arcs it adds are seen by later symbols); the
   arrays are built after that, and `adj` is then NULL. */
static void init_syms(struct gprof *g, const struct cg_adj *adj)
{
	struct cg_scan *scan = g->opt.static_call_graph ? cg_scan_open(g)
	                                                : NULL;

	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		uint64_t self;

		s->child_time = 0.0;
		if (self_count(g, adj, i, &self)) {
			s->ncalls -= self;
			s->self_calls = self;
		} else {
			s->self_calls = 0;
		}
		s->fract = s->prop_self = s->prop_child = 0.0;
		s->print_flag = false;
		s->top_order = 0;
		s->cycle_num = 0;
		s->cyc_head = s;
		s->cyc_next = NULL;
		if (scan)
			cg_scan_sym(scan, i);
	}
	cg_scan_close(scan);
}

/* Each symbol's cycle number, indexed by symbol number: a walk over the
   arcs reads two per arc, which in the symbols lie all over memory. */
static int *cycle_numbers(const struct symtab *st)
{
	int *v = xmalloc((st->len ? st->len : 1) * sizeof *v);

	for (size_t i = 0; i < st->len; i++)
		v[i] = st->base[i].cycle_num;
	return v;
}

/* One call count into a cycle member, from a symbol of cycle `from`. */
static void cycle_call(struct gprof *g, int to, int from, uint64_t count)
{
	struct sym *cyc = &g->cycles[to - 1];

	if (from == to)
		cyc->self_calls += count;
	else
		cyc->ncalls += count;
}

/* Calls into each cycle from outside are its ncalls, calls between
   different members its self_calls.  Integer sums do not care about
   order: one pass over the packed callers when there are any (a few
   megabytes in order), else along the callee lists (which lie by caller
   in memory), instead of walking every member's caller list. */
static void cycle_calls(struct gprof *g, const struct cg_adj *adj)
{
	struct symtab *st = &g->syms;
	int *cyc_of = cycle_numbers(st);

	for (size_t i = 0; g->callers && i < st->len; i++) {
		const struct caller *c = g->callers + g->callers_start[i];
		const struct caller *end = g->callers + g->callers_start[i + 1];

		for (; cyc_of[i] != 0 && c < end; c++)
			if (c->parent != i)
				cycle_call(g, cyc_of[i], cyc_of[c->parent], c->count);
	}
	for (size_t i = 0; !g->callers && i < st->len; i++) {
		uint32_t k = adj->first[i];

		for (const struct arc *a = st->base[i].children; a;
		     a = a->next_child, k++) {
			uint32_t c = adj->kid[k];
			int cn = c != CG_ADJ_NOT_SYM ? cyc_of[c] : a->child->cycle_num;

			if (cn != 0 && c != i)
				cycle_call(g, cn, cyc_of[i], a->count);
		}
	}
	free(cyc_of);
}

/* One header per cycle, numbered in address order of the cycle heads
   (cg_dfn_all() lists the members in that order); members point to it. */
static void cycle_link(struct gprof *g, const struct cg_adj *adj)
{
	int n = g->ncycles;

	g->cycles = xcalloc(n ? n : 1, sizeof *g->cycles);
	for (int c = 0; c < n; c++) {
		struct sym *cyc = &g->cycles[c];
		struct sym **m = g->cyc_members + g->cyc_member_start[c];
		struct sym **end = g->cyc_members + g->cyc_member_start[c + 1];

		cyc->print_flag = true;
		cyc->cycle_num = c + 1;
		cyc->cyc_head = cyc;
		cyc->cyc_next = *m;
		debug_printf(g, DBG_CYCLE, "[cycle_link] %s is the head of "
		             "cycle %d\n", (*m)->name, c + 1);
		for (; m < end; m++) {
			(*m)->cycle_num = c + 1;
			(*m)->cyc_head = cyc;
		}
	}
	if (n > 0)
		cycle_calls(g, adj);
}

/* The symbols by top_order ascending, ties in table order: what a
   stable sort gives, by counting instead (the numbers run from 1 to
   dfn_counter, members of a cycle sharing one).  A sort would compare
   symbols all over memory some 17 times each at 100,000 of them. */
static struct sym **topo_order(struct gprof *g)
{
	struct symtab *st = &g->syms;
	size_t top = g->dfn_counter > 0 ? (size_t)g->dfn_counter : 0;
	size_t *at = xcalloc(top + 2, sizeof *at);
	struct sym **v = xmalloc((st->len ? st->len : 1) * sizeof *v);

	for (size_t i = 0; i < st->len; i++) {
		int t = st->base[i].top_order;

		if (t < 0 || (size_t)t > top)
			die_plain("[cg_assemble] symbol left unnumbered");
		at[(size_t)t + 1]++;
	}
	for (size_t t = 1; t <= top + 1; t++)
		at[t] += at[t - 1];
	for (size_t i = 0; i < st->len; i++)
		v[at[st->base[i].top_order]++] = &st->base[i];
	free(at);
	return v;
}

/* What `head` inherits from one caller p of m over `count` calls.  Arcs
   that were never taken (-c) carry no time. */
static void inherit_one(struct sym *head, const struct sym *m,
                        const struct sym *p, uint64_t count)
{
	if (p == m || p->cyc_head == head)
		return;
	head->print_flag |= p->print_flag;
	if (head->ncalls != 0)
		head->fract += p->fract * ((double)count / (double)head->ncalls);
}

/* One symbol's share from its callers, in the order of its parents list
   (the sum's order is GNU's): from the packed callers when there are
   any, a walk of a few megabytes in order instead of a list all over
   memory.  `head` is the cycle header for a member, or the symbol. */
static void inherit_from(const struct gprof *g, const struct sym *m,
                         struct sym *head)
{
	if (g->callers) {
		size_t i = (size_t)(m - g->syms.base);
		const struct caller *c = g->callers + g->callers_start[i];
		const struct caller *end = g->callers + g->callers_start[i + 1];

		for (; c < end; c++)
			inherit_one(head, m, &g->syms.base[c->parent], c->count);
		return;
	}
	for (const struct arc *a = m->parents; a; a = a->next_parent)
		inherit_one(head, m, a->parent, a->count);
}

/* A symbol in no cycle inherits from its callers; a cycle inherits as a
   whole from the callers outside it, and its members copy the result. */
static void inherit_flags(const struct gprof *g, struct sym *child)
{
	struct sym *head = child->cyc_head;

	if (head == child) {
		child->print_flag = false;
		child->fract = 0.0;
		inherit_from(g, child, child);
		return;
	}
	struct sym **m = cycle_first(g, head), **end = cycle_end(g, head);

	head->print_flag = false;
	head->fract = 0.0;
	for (struct sym **p = m; p < end; p++)
		inherit_from(g, *p, head);
	for (struct sym **p = m; p < end; p++) {
		(*p)->print_flag = head->print_flag;
		(*p)->fract = head->fract;
	}
}

/* -f/-e/-F/-E and friends override what was inherited; include tables
   win over exclude tables. */
static void apply_specs(struct gprof *g, struct sym *s)
{
	if (!s->print_flag) {
		if (sym_selected(g, s, INCL_GRAPH))
			s->print_flag = true;
	} else if (!sym_in(g, s, INCL_GRAPH) && sym_in(g, s, EXCL_GRAPH)) {
		s->print_flag = false;
	}
	if (s->fract == 0.0) {
		if (sym_selected(g, s, INCL_TIME))
			s->fract = 1.0;
	} else if (!sym_in(g, s, INCL_TIME) && sym_in(g, s, EXCL_TIME)) {
		s->fract = 0.0;
	}
}

/* Top-down (callers before callees): the members of a cycle are adjacent
   in topological order and handled together when the first is met. */
static void propagate_flags(struct gprof *g, struct sym **topo, size_t n)
{
	struct sym *old_head = NULL;

	for (size_t i = n; i-- > 0;) {
		struct sym *s = topo[i];

		if (s->cyc_head != old_head) {
			old_head = s->cyc_head;
			inherit_flags(g, s);
		}
		apply_specs(g, s);
		s->prop_self = s->hist_time * s->fract;
		g->print_time += s->prop_self;
		debug_printf(g, DBG_PROP, "[prop_flags] %s ends up with "
		             "printflag %d and prop-fract %f\n", s->name,
		             s->print_flag, s->fract);
	}
}

/* A cycle's own time is that of its members (those excluded with -E
   aside, whose fraction is 0). */
static void cycle_time(struct gprof *g)
{
	for (int i = 0; i < g->ncycles; i++) {
		struct sym *cyc = &g->cycles[i];

		for (struct sym **m = cycle_first(g, cyc); m < cycle_end(g, cyc);
		     m++)
			if ((*m)->fract != 0.0)
				cyc->hist_time += (*m)->hist_time;
		cyc->prop_self = cyc->fract * cyc->hist_time;
	}
}

/* What `parent` collects over `count` calls to `child`: the share
   count/calls of the child's self and descendant time; calls into a
   cycle are charged against the cycle as a whole, calls within one
   carry nothing.  True, with what the arc shows (the part this parent
   actually propagates) in t, when there was a share. */
static bool collect(struct sym *parent, struct sym *child, uint64_t count,
                    double t[2])
{
	if (count == 0 || child == parent || child->fract == 0.0)
		return false;
	if (child->cyc_head != child) {
		if (parent->cycle_num == child->cycle_num)
			return false;
		if (parent->top_order <= child->top_order)
			fputs("[propagate] toporder botches\n", stderr);
		child = child->cyc_head;
	} else if (parent->top_order <= child->top_order) {
		fputs("[propagate] toporder botches\n", stderr);
		return false;
	}
	if (child->ncalls == 0)
		return false;
	double ratio = (double)count / (double)child->ncalls;

	t[0] = child->hist_time * ratio;
	t[1] = child->child_time * ratio;
	double share = t[0] + t[1];
	double prop_share = parent->fract * share;

	parent->child_time += share;
	if (parent->cyc_head != parent) {
		parent->cyc_head->child_time += share;
		parent->cyc_head->prop_child += prop_share;
	}
	parent->prop_child += prop_share;
	t[0] *= parent->fract;
	t[1] *= parent->fract;
	return true;
}

/* Bottom-up: a parent collects from each of its callees, over the arcs,
   or over the callee arrays' counts when there are no arcs. */
static void propagate_time(const struct cg_adj *adj, struct sym *base,
                           struct sym *parent)
{
	if (parent->fract == 0.0)
		return;
	size_t i = (size_t)(parent - base);
	uint32_t end = adj->first[i + 1];
	struct arc **seg = adj->arc ? cg_adj_callees(adj, i) : NULL;

	for (uint32_t k = adj->first[i]; k < end; k++) {
		struct arc *a = seg ? *seg++ : NULL;
		double t[2];

		/* The callees lie all over memory: ask for one a few ahead. */
		if (k + 4 < end && adj->kid[k + 4] != CG_ADJ_NOT_SYM) {
			__builtin_prefetch(&base[adj->kid[k + 4]]);
			__builtin_prefetch(&base[adj->kid[k + 4]].cycle_num);
		}
		if (!a) {
			collect(parent, &base[adj->kid[k]], adj->cnt[k], t);
		} else if (collect(parent, a->child, a->count, t)) {
			a->time = t[0];
			a->child_time = t[1];
		}
	}
}

/* What the entry order looks at, copied out of each symbol: the sort then
   reads a few megabytes in order rather than the symbols all over memory
   (about 17 comparisons per entry at 100,000 of them). */
struct entry_key {
	double total;                /* prop_self + prop_child */
	const char *name;
	uint64_t ncalls;
	int cycle_num;
	struct sym *sym;
};

/* Entry order: total propagated time descending; then cycle headers
   first; names without a leading '_' before those with; more calls
   first; then the raw names. */
static int cmp_total(const void *pa, const void *pb, void *ctx)
{
	const struct entry_key *a = *(struct entry_key *const *)pa;
	const struct entry_key *b = *(struct entry_key *const *)pb;
	double diff = a->total - b->total;

	(void)ctx;
	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (!a->name && a->cycle_num != 0)
		return -1;
	if (!b->name && b->cycle_num != 0)
		return 1;
	if (!a->name)
		return -1;
	if (!b->name)
		return 1;
	if (a->name[0] != '_' && b->name[0] == '_')
		return -1;
	if (a->name[0] == '_' && b->name[0] != '_')
		return 1;
	if (a->ncalls != b->ncalls)
		return a->ncalls > b->ncalls ? -1 : 1;
	return strcmp(a->name, b->name);
}

static double total_of(const void *p)
{
	return ((const struct entry_key *)p)->total;
}

/* The tests after the time as one descending integer: the class (a
   cycle header, another nameless entry, a name without a leading '_', a
   name with one) and then the calls, which a count past 2^62 cannot
   join: such counts tie here and the name key steps aside (below), so
   that cmp_total decides. */
#define CALLS_CAP ((UINT64_C(1) << 62) - 1)

static uint64_t class_calls_of(const void *p)
{
	const struct entry_key *k = p;

	if (!k->name)
		return (uint64_t)(k->cycle_num != 0 ? 3 : 2) << 62;
	uint64_t calls = k->ncalls < CALLS_CAP ? k->ncalls : CALLS_CAP;

	return (uint64_t)(k->name[0] != '_') << 62 | calls;
}

static const char *entry_name_of(const void *p)
{
	const struct entry_key *k = p;

	return k->name && k->ncalls < CALLS_CAP ? k->name : "";
}

static void entry_key_of(struct sym *s, struct entry_key *k,
                         struct entry_key **p)
{
	k->total = s->prop_self + s->prop_child;
	k->name = s->name;
	k->ncalls = s->ncalls;
	k->cycle_num = s->cycle_num;
	k->sym = s;
	*p = k;
}

/* Also called again by stack_graph.c, whose times change the order. */
struct sym **cg_entries_by_time(struct gprof *g, size_t *nentries)
{
	size_t n = g->syms.len + (size_t)g->ncycles;
	struct entry_key *k = xmalloc((n ? n : 1) * sizeof *k);
	struct entry_key **p = xmalloc((n ? n : 1) * sizeof *p);

	for (size_t i = 0; i < g->syms.len; i++)
		entry_key_of(&g->syms.base[i], &k[i], &p[i]);
	for (int i = 0; i < g->ncycles; i++) {
		size_t j = g->syms.len + (size_t)i;

		entry_key_of(&g->cycles[i], &k[j], &p[j]);
	}
	/* Two cycle headers of one time each claim to come first, which to
	   the merge is a tie: a weak order as the sort sees it. */
	static const struct desc_keys keys = { total_of, class_calls_of,
	                                       entry_name_of, true };

	stable_sort_desc((void **)p, n, &keys, cmp_total, NULL);
	struct sym **v = xmalloc((n ? n : 1) * sizeof *v);

	for (size_t i = 0; i < n; i++) {
		v[i] = p[i]->sym;
		v[i]->index = (int)i + 1;
	}
	free(p);
	free(k);
	*nentries = n;
	return v;
}

/* Leaves the callee arrays in g->adj for cg_order(). */
void cg_propagate(struct gprof *g)
{
	struct symtab *st = &g->syms;
	struct cg_adj *adj = &g->adj;

	if (g->arcs_compact) {
		/* arc_bulk.c built the arrays, and only once */
		if (!adj->cnt)
			die_plain("[cg_propagate] the call graph is gone");
		init_syms(g, adj);
	} else if (g->opt.static_call_graph) {
		cg_adj_free(adj);
		init_syms(g, NULL);     /* -c adds arcs as it goes */
		cg_adj_build(g, adj);
	} else {
		cg_adj_free(adj);
		cg_adj_build(g, adj);
		init_syms(g, adj);
	}
	g->dfn_counter = 0;
	cg_dfn_all(g, adj);
	cycle_link(g, adj);

	struct sym **topo = topo_order(g);

	g->print_time = 0.0;
	propagate_flags(g, topo, st->len);
	arc_callers_drop(g);            /* nothing reads them after */
	if (!g->arcs_compact)
		cg_adj_arcs(g, adj);
	cycle_time(g);
	for (size_t i = 0; i < st->len; i++)
		propagate_time(adj, st->base, topo[i]);
	free(topo);
}

struct sym **cg_assemble(struct gprof *g, size_t *nentries)
{
	cg_propagate(g);
	return cg_entries_by_time(g, nentries);
}
