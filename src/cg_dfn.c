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
 * kept on a side stack, and cyc_head doubles as a union-find link whose
 * root is the cycle's head: each step is then (amortised) O(1) instead of
 * O(depth) or O(cycle length), with identical results.
 */
#include "gprof.h"

#include <stdlib.h>

#define DFN_NAN 0                    /* not visited yet */
#define DFN_BUSY (-1)                /* visited, number not given yet */

struct dfn_frame {
	struct sym *sym;
	struct arc *next_arc;        /* next child arc to follow */
};

struct dfn {
	struct gprof *g;
	struct dfn_frame *stack;     /* stack[1..depth] */
	int depth, cap;
	int *free_pos;               /* positions of entries in no cycle yet */
	int nfree;
};

/* The current head of the cycle `s` belongs to (itself if none).  In GNU
   every member points at the head directly; following and compressing
   the links gives the same answer without relabelling on merges. */
static struct sym *dfn_root(struct sym *s)
{
	struct sym *r = s;

	while (r->cyc_head != r)
		r = r->cyc_head;
	while (s->cyc_head != r) {
		struct sym *next = s->cyc_head;

		s->cyc_head = r;
		s = next;
	}
	return r;
}

static struct sym *list_tail(struct sym *root)
{
	return root->cyc_next ? root->cyc_tail : root;
}

static bool is_numbered(const struct sym *s)
{
	return s->top_order != DFN_NAN && s->top_order != DFN_BUSY;
}

static void dfn_push(struct dfn *d, struct sym *s)
{
	if (d->depth + 1 >= d->cap) {
		d->cap = d->cap ? d->cap * 2 : 256;
		d->stack = xrealloc(d->stack, d->cap * sizeof *d->stack);
		d->free_pos = xrealloc(d->free_pos, d->cap * sizeof *d->free_pos);
	}
	d->depth++;
	d->stack[d->depth].sym = s;
	d->stack[d->depth].next_arc = s->children;
	/* A symbol is pushed only on its first visit, so it is in no cycle. */
	d->free_pos[d->nfree++] = d->depth;
	s->top_order = DFN_BUSY;
	s->dfn_pos = d->depth;
	debug_printf(d->g, DBG_DFN, "[pre_visit]\t\t%d:%s\n", d->depth, s->name);
}

/* Leaving a symbol: a cycle head (or a symbol in no cycle) numbers itself
   and all its members; members wait for their head. */
static void dfn_pop(struct dfn *d)
{
	struct sym *s = d->stack[d->depth].sym;

	debug_printf(d->g, DBG_DFN, "[post_visit]\t%d: %s\n", d->depth, s->name);
	if (s->cyc_head == s) {
		int n = ++d->g->dfn_counter;

		for (struct sym *m = s; m; m = m->cyc_next)
			m->top_order = n;
	}
	if (d->nfree > 0 && d->free_pos[d->nfree - 1] == d->depth)
		d->nfree--;
	s->dfn_pos = 0;
	d->depth--;
}

/* The stack entry that closes the cycle through `child`: the topmost one
   that is `child` itself or the head `child` is already glommed to. */
static int cycle_top(struct sym *child)
{
	int top = child->dfn_pos;
	struct sym *root = dfn_root(child);

	if (root != child && root->dfn_pos > top)
		top = root->dfn_pos;
	return top;
}

/* `child` is busy: the stack entries above the closing entry join its
   cycle, each bringing the members it already has, in stack order. */
static void find_cycle(struct dfn *d, struct sym *child)
{
	int top = cycle_top(child);

	if (top <= 0)
		die_plain("[find_cycle] couldn't find head of cycle");
	if (top == d->depth) {
		/* A call to the symbol just entered: direct recursion. */
		debug_printf(d->g, DBG_DFN, "[find_cycle] %s\n", child->name);
		return;
	}
	struct sym *head = dfn_root(d->stack[top].sym);
	struct sym *tail = list_tail(head);
	int first = d->nfree;

	while (first > 0 && d->free_pos[first - 1] > top)
		first--;
	for (int i = first; i < d->nfree; i++) {
		struct sym *s = d->stack[d->free_pos[i]].sym;

		debug_printf(d->g, DBG_DFN, "[find_cycle] glomming %s onto %s\n",
		             s->name, head->name);
		tail->cyc_next = s;
		tail = list_tail(s);
		s->cyc_head = head;
	}
	d->nfree = first;
	head->cyc_tail = tail;
}

/* Visit the child of the next unexplored arc of the top entry. */
static void dfn_step(struct dfn *d)
{
	struct dfn_frame *f = &d->stack[d->depth];
	struct arc *a = f->next_arc;

	if (!a) {
		dfn_pop(d);
		return;
	}
	f->next_arc = a->next_child;
	if (is_numbered(a->child))
		return;
	if (a->child->top_order == DFN_BUSY)
		find_cycle(d, a->child);
	else
		dfn_push(d, a->child);
}

void cg_dfn(struct gprof *g, struct sym *root)
{
	struct dfn d = { .g = g };

	if (is_numbered(root))
		return;
	if (root->top_order == DFN_BUSY)
		die_plain("[find_cycle] couldn't find head of cycle");
	dfn_push(&d, root);
	while (d.depth > 0)
		dfn_step(&d);
	free(d.stack);
	free(d.free_pos);
}
