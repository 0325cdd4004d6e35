/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stacks.c - owns the analysis of call stacks (GMON_STACKS=1): the tree of
 * stack prefixes that the folded and flame formats print, built from the
 * stacks shlibs.c mapped to symbols (g->stacks).
 *
 * Every thread's stacks go into one tree, outermost frame at the top.  A
 * stack the writer cut at its depth limit hangs under a "[truncated]"
 * frame of the root, so that its partial path is not taken for a
 * complete one that starts at main.  Frames at no known function are
 * "[unknown]".  The profiling hook (sym_is_hook) is one frame, "[profiling
 * hook]", under the function whose call it was counting: whatever it
 * called in turn is its own time, and folds into it.  Two raw stacks that map to the same functions (other
 * call sites, other threads) share their nodes: that is what makes the
 * folded lines distinct.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

static const char UNKNOWN[] = "[unknown]";
static const char TRUNCATED[] = "[truncated]";
const char STACK_HOOK_LABEL[] = "[profiling hook]";

bool stacks_wanted(const struct gprof *g)
{
	return g->opt.out_format == OUT_FOLDED || g->opt.out_format == OUT_FLAME;
}

struct tree {
	struct stack_node *v;
	size_t n, cap;
	/* Child lookup by (parent, frame): open hashing of node indexes, so
	   that wide nodes (a root with thousands of callees) stay cheap. */
	size_t *hash;
	size_t hash_size;
};

static size_t slot_of(const struct tree *t, size_t parent,
                      const struct sym *s, const char *label)
{
	uintptr_t key = s ? (uintptr_t)s : (uintptr_t)label;
	size_t h = (size_t)((key >> 3) * 0x9e3779b97f4a7c15ull ^
	                    parent * 0xc2b2ae3d27d4eb4full);
	size_t mask = t->hash_size - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		size_t k = t->hash[i];
		if (k == 0)
			return i;
		const struct stack_node *nd = &t->v[k];
		if (nd->parent == parent && nd->sym == s && nd->label == label)
			return i;
	}
}

static void rehash(struct tree *t)
{
	free(t->hash);
	t->hash_size = t->hash_size ? t->hash_size * 2 : 1024;
	t->hash = xcalloc(t->hash_size, sizeof *t->hash);
	for (size_t k = 1; k < t->n; k++)
		t->hash[slot_of(t, t->v[k].parent, t->v[k].sym, t->v[k].label)] = k;
}

/* The child of `parent` for the frame (s, label), made when missing. */
static size_t child(struct tree *t, size_t parent, const struct sym *s,
                    const char *label)
{
	if (2 * t->n >= t->hash_size)
		rehash(t);
	size_t i = slot_of(t, parent, s, label);
	if (t->hash[i])
		return t->hash[i];
	if (t->n == t->cap) {
		t->cap *= 2;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	size_t k = t->n++;
	struct stack_node *p = &t->v[parent];
	t->v[k] = (struct stack_node){
		.sym = s, .label = s ? NULL : label, .parent = parent,
		.next = p->first_child, .depth = p->depth + 1 };
	p->first_child = k;
	t->hash[i] = k;
	return k;
}

static void add_count(uint64_t *v, uint64_t c)
{
	*v = c > UINT64_MAX - *v ? UINT64_MAX : *v + c;
}

static const char *node_name(const struct stack_node *nd)
{
	return nd->sym ? nd->sym->name : nd->label;
}

static int cmp_node(const void *pa, const void *pb, void *ctx)
{
	const struct stack_node *v = ctx;
	const struct stack_node *a = &v[*(const size_t *)pa];
	const struct stack_node *b = &v[*(const size_t *)pb];
	int c = strcmp(node_name(a), node_name(b));
	if (c)
		return c;
	/* two static functions of one name: by address, for a stable order */
	if (a->sym && b->sym && a->sym->addr != b->sym->addr)
		return a->sym->addr < b->sym->addr ? -1 : 1;
	return 0;
}

/* Children in name order, each starting where the one before ends, so
   that a flame graph is the same whatever order stacks came in.  Nodes
   are made after their parent, so one pass in index order visits every
   parent before its children. */
static void lay_out(struct gprof *g)
{
	struct stack_node *v = g->stack_nodes;
	size_t *kids = xmalloc(g->nstack_nodes * sizeof *kids);
	double root = v[0].total ? (double)v[0].total : 1;
	for (size_t k = 0; k < g->nstack_nodes; k++) {
		v[k].percent = 100.0 * (double)v[k].total / root;
		if (v[k].depth > g->stack_depth)
			g->stack_depth = v[k].depth;
		size_t n = 0;
		for (size_t c = v[k].first_child; c; c = v[c].next)
			kids[n++] = c;
		stable_sort(kids, n, sizeof *kids, cmp_node, v);
		uint64_t at = v[k].start;
		for (size_t i = 0; i < n; i++) {
			struct stack_node *c = &v[kids[i]];
			c->start = at;
			c->next = i + 1 < n ? kids[i + 1] : 0;
			at += c->total;
		}
		v[k].first_child = n ? kids[0] : 0;
	}
	free(kids);
}

void stacks_build(struct gprof *g)
{
	struct tree t = { 0 };
	t.cap = 64;
	t.v = xmalloc(t.cap * sizeof *t.v);
	t.v[0] = (struct stack_node){ .label = "all" };
	t.n = 1;
	for (size_t i = 0; i < g->nstacks; i++) {
		const struct call_stack *cs = &g->stacks[i];
		if (cs->count == 0)
			continue;
		size_t at = 0;
		add_count(&t.v[0].total, cs->count);
		if (cs->truncated) {
			at = child(&t, at, NULL, TRUNCATED);
			add_count(&t.v[at].total, cs->count);
		}
		for (uint32_t d = cs->depth; d-- > 0;) {
			const struct sym *s = cs->frames[d];
			bool hook = s && sym_is_hook(g, s);
			at = hook ? child(&t, at, NULL, STACK_HOOK_LABEL)
			          : child(&t, at, s, s ? NULL : UNKNOWN);
			add_count(&t.v[at].total, cs->count);
			if (hook)
				break;
		}
		add_count(&t.v[at].self, cs->count);
	}
	free(t.hash);
	g->stack_nodes = t.v;
	g->nstack_nodes = t.n;
	lay_out(g);
}

