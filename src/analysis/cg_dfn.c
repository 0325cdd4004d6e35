/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_dfn.c - depth-first numbering of the call graph and cycle detection.
 *
 * Owns top_order (post-order numbers: callees get smaller numbers than
 * their callers, all members of a cycle share one number) and the cycle
 * member lists (cyc_head/cyc_next), built exactly as GNU gprof builds them
 * so that cycle numbers, member order and numbering ties all agree.
 *
 * GNU walks recursively, scans its stack for the head of each cycle and
 * relabels whole member lists when cycles merge.  Here the walk is an
 * explicit loop (no C-stack limit on deep graphs), every symbol remembers
 * its stack position, the stack entries that are not yet in a cycle are
 * kept on a side stack, and the head link doubles as a union-find link
 * whose root is the cycle's head: each step is then (amortised) O(1)
 * instead of O(depth) or O(cycle length), with identical results.
 *
 * The walk keeps its state in arrays indexed by symbol number (a few
 * hundred kilobytes at 100,000 symbols, where the symbols themselves are
 * tens of megabytes), and follows the arcs in the callee lists as symbol
 * numbers (cg_adj.c), 4 bytes an arc in list order: following an arc
 * then touches small arrays rather than an arc and the child symbol.  The
 * results go into the symbols at the end.
 */
#include "analysis/analysis.h"

#include <stdlib.h>

#define DFN_NAN 0                    /* not visited yet */
#define DFN_BUSY (-1)                /* visited, number not given yet */
#define NONE UINT32_MAX              /* no next member */

struct dfn_frame {
	uint32_t sym;
	uint32_t next;               /* next callee to follow, in kids[] */
};

/* One symbol's state.  Most arcs lead to a callee already numbered, and
   learning that reads its order alone: the orders have an array of their
   own (400 KB at 100,000 symbols, which stays in the cache where 16-byte
   nodes did not: 35 -> 31 ms for 1,000,000 arcs).  The fields read when
   a callee is entered or closes a cycle come together in one line. */
struct dfn_node {
	int pos;                     /* stack position, 0 if off it */
	uint32_t head;               /* union-find link to the cycle head */
	uint32_t next;               /* next member of the cycle list */
};

struct dfn {
	struct gprof *g;
	struct sym *base;            /* g->syms.base: number i is base[i] */
	const uint32_t *kids;        /* callees of i: kids[first[i] .. */
	const uint32_t *first;       /* first[i + 1] - 1], in list order */
	struct dfn_node *node;       /* the walk's state of each symbol */
	int *order;                  /* top_order: DFN_NAN, DFN_BUSY or > 0 */
	uint32_t *tail;              /* a root's last member */
	struct dfn_frame *stack;     /* stack[1..depth] */
	int depth, cap;
	int *free_pos;               /* positions of entries in no cycle yet */
	int nfree;
};

static const char *name_of(const struct dfn *d, uint32_t s)
{
	return d->base[s].name;
}

/* The current head of the cycle `s` belongs to (itself if none).  In GNU
   every member points at the head directly; following and compressing
   the links gives the same answer without relabelling on merges. */
static uint32_t dfn_root(struct dfn *d, uint32_t s)
{
	uint32_t r = s;

	while (d->node[r].head != r)
		r = d->node[r].head;
	while (d->node[s].head != r) {
		uint32_t next = d->node[s].head;

		d->node[s].head = r;
		s = next;
	}
	return r;
}

static uint32_t list_tail(const struct dfn *d, uint32_t root)
{
	return d->node[root].next != NONE ? d->tail[root] : root;
}

static bool is_numbered(const struct dfn *d, uint32_t s)
{
	return d->order[s] != DFN_NAN && d->order[s] != DFN_BUSY;
}

static void dfn_push(struct dfn *d, uint32_t s)
{
	if (d->depth + 1 >= d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->stack = xrealloc(d->stack, d->cap * sizeof *d->stack);
		d->free_pos = xrealloc(d->free_pos, d->cap * sizeof *d->free_pos);
	}
	d->depth++;
	d->stack[d->depth].sym = s;
	d->stack[d->depth].next = d->first[s];
	/* A symbol is pushed only on its first visit, so it is in no cycle. */
	d->free_pos[d->nfree++] = d->depth;
	d->order[s] = DFN_BUSY;
	d->node[s].pos = d->depth;
	debug_printf(d->g, DBG_DFN, "[pre_visit]\t\t%d:%s\n", d->depth,
	             name_of(d, s));
}

/* Leaving a symbol: a cycle head (or a symbol in no cycle) numbers itself
   and all its members; members wait for their head. */
static void dfn_pop(struct dfn *d)
{
	uint32_t s = d->stack[d->depth].sym;

	debug_printf(d->g, DBG_DFN, "[post_visit]\t%d: %s\n", d->depth,
	             name_of(d, s));
	if (d->node[s].head == s) {
		int n = ++d->g->dfn_counter;

		for (uint32_t m = s; m != NONE; m = d->node[m].next)
			d->order[m] = n;
	}
	if (d->nfree > 0 && d->free_pos[d->nfree - 1] == d->depth)
		d->nfree--;
	d->node[s].pos = 0;
	d->depth--;
}

/* The stack entry that closes the cycle through `child`: the topmost one
   that is `child` itself or the head `child` is already glommed to. */
static int cycle_top(struct dfn *d, uint32_t child)
{
	int top = d->node[child].pos;
	uint32_t root = dfn_root(d, child);

	if (root != child && d->node[root].pos > top)
		top = d->node[root].pos;
	return top;
}

/* `child` is busy: the stack entries above the closing entry join its
   cycle, each bringing the members it already has, in stack order. */
static void find_cycle(struct dfn *d, uint32_t child)
{
	int top = cycle_top(d, child);

	if (top <= 0)
		die_plain("[find_cycle] couldn't find head of cycle");
	if (top == d->depth) {
		/* A call to the symbol just entered: direct recursion. */
		debug_printf(d->g, DBG_DFN, "[find_cycle] %s\n", name_of(d, child));
		return;
	}
	uint32_t head = dfn_root(d, d->stack[top].sym);
	uint32_t tail = list_tail(d, head);
	int first = d->nfree;

	while (first > 0 && d->free_pos[first - 1] > top)
		first--;
	for (int i = first; i < d->nfree; i++) {
		uint32_t s = d->stack[d->free_pos[i]].sym;

		debug_printf(d->g, DBG_DFN, "[find_cycle] glomming %s onto %s\n",
		             name_of(d, s), name_of(d, head));
		d->node[tail].next = s;
		tail = list_tail(d, s);
		d->node[s].head = head;
	}
	d->nfree = first;
	d->tail[head] = tail;
}

/* Visit the child of the next unexplored arc of the top entry. */
static void dfn_step(struct dfn *d)
{
	struct dfn_frame *f = &d->stack[d->depth];

	if (f->next == d->first[f->sym + 1]) {
		dfn_pop(d);
		return;
	}
	uint32_t c = d->kids[f->next++];

	if (c == CG_ADJ_NOT_SYM || is_numbered(d, c))
		return;
	if (d->order[c] == DFN_BUSY)
		find_cycle(d, c);
	else
		dfn_push(d, c);
}

static void dfn_from(struct dfn *d, uint32_t root)
{
	if (is_numbered(d, root))
		return;
	if (d->order[root] == DFN_BUSY)
		die_plain("[find_cycle] couldn't find head of cycle");
	dfn_push(d, root);
	while (d->depth > 0)
		dfn_step(d);
}

/* The symbols' fields from the walk's arrays: a cycle member's cyc_head
   is its cycle's head (cycle_link() then points it at the header). */
static void dfn_store(struct dfn *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sym *s = &d->base[i];

		s->top_order = d->order[i];
		s->cyc_head = &d->base[dfn_root(d, (uint32_t)i)];
		s->cyc_next = d->node[i].next != NONE ? &d->base[d->node[i].next]
		                                      : NULL;
	}
}

/* The cycles' member lists as arrays (see struct gprof), heads in table
   order, which is the order cycle_link() numbers them in; the list walks
   go through the small next[] array here. */
static void dfn_cycles(struct dfn *d, size_t n)
{
	struct gprof *g = d->g;
	size_t ncyc = 0, nmem = 0;

	for (size_t i = 0; i < n; i++)
		if (d->node[i].head == i && d->node[i].next != NONE) {
			ncyc++;
			for (uint32_t m = (uint32_t)i; m != NONE;
			     m = d->node[m].next)
				nmem++;
		}
	g->cyc_members = xmalloc((nmem ? nmem : 1) * sizeof *g->cyc_members);
	g->cyc_member_start = xmalloc((ncyc + 1) *
	                              sizeof *g->cyc_member_start);
	g->ncycles = (int)ncyc;
	ncyc = nmem = 0;
	for (size_t i = 0; i < n; i++) {
		if (d->node[i].head != i || d->node[i].next == NONE)
			continue;
		g->cyc_member_start[ncyc++] = nmem;
		for (uint32_t m = (uint32_t)i; m != NONE; m = d->node[m].next)
			g->cyc_members[nmem++] = &d->base[m];
	}
	g->cyc_member_start[ncyc] = nmem;
}

/* Numbers every symbol, walking from each not yet numbered in table
   order.  Expects the state init_syms() leaves: top_order 0, cyc_head
   itself, no cyc_next. */
void cg_dfn_all(struct gprof *g, const struct cg_adj *adj)
{
	size_t n = g->syms.len;
	struct dfn d = { .g = g, .base = g->syms.base, .kids = adj->kid,
	                 .first = adj->first };

	free(g->cyc_members);
	free(g->cyc_member_start);
	g->cyc_members = NULL;
	g->cyc_member_start = NULL;
	g->ncycles = 0;
	if (n == 0)
		return;
	d.node = xcalloc(n, sizeof *d.node);
	d.order = xcalloc(n, sizeof *d.order);
	d.tail = xmalloc(n * sizeof *d.tail);
	for (size_t i = 0; i < n; i++) {
		d.node[i].head = (uint32_t)i;
		d.node[i].next = NONE;
	}
	for (size_t i = 0; i < n; i++)
		dfn_from(&d, (uint32_t)i);
	dfn_store(&d, n);
	dfn_cycles(&d, n);
	free(d.node);
	free(d.order);
	free(d.tail);
	free(d.stack);
	free(d.free_pos);
}
