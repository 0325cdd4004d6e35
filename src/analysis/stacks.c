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
 * called in turn is its own time, and folds into it.  Two raw stacks that
 * map to the same functions (other call sites, other threads) share their
 * nodes: that is what makes the folded lines distinct.
 *
 * It also decides what a flame graph can show: a node under
 * 1/STACK_MIN_SHARE_DIV of all the samples (a tenth of a pixel at the
 * drawing's width) is narrow, and the narrow children of each drawn node
 * are one box (g->stack_narrow), counted here so that the graph can say
 * how many frames it merged.  The folded lines keep every stack.
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

/* The tree is built from the stacks sorted by their frames, outermost
   first: stacks that share a prefix are then neighbours, so a stack
   reuses the nodes of the one before it down to where they differ, and
   every node below that is new.  No lookup is needed (a hash of (parent,
   frame) missed the caches at nearly every frame of every stack), and
   the nodes come in depth-first order, which the passes after walk. */

/* One stack as the frames the tree has: a frame is its symbol, or the
   label of a frame without one; the hook ends it (whatever the hook
   called is its own time). */
struct seq {
	const uintptr_t *key;        /* outermost first */
	size_t len;
	uint64_t count;
};

struct tree {
	struct stack_node *v;
	size_t n, cap;
	/* sym_is_hook per symbol of g->syms, asked once: 0 not yet */
	unsigned char *hook;
};

/* sym_is_hook compares names: asked once per symbol of the table. */
static bool is_hook(const struct gprof *g, struct tree *t, const struct sym *s)
{
	const struct sym *base = g->syms.base;
	if (!base || s < base || s >= base + g->syms.len)
		return sym_is_hook(g, s);
	size_t i = (size_t)(s - base);
	if (!t->hook[i])
		t->hook[i] = sym_is_hook(g, s) ? 2 : 1;
	return t->hook[i] == 2;
}

/* Stack cs as keys at out (room for its depth + 1); returns how many. */
static size_t seq_keys(const struct gprof *g, struct tree *t,
                       const struct call_stack *cs, uintptr_t *out)
{
	size_t n = 0;
	if (cs->truncated)
		out[n++] = (uintptr_t)TRUNCATED;
	for (uint32_t d = cs->depth; d-- > 0;) {
		const struct sym *s = cs->frames[d];
		if (s && is_hook(g, t, s)) {
			out[n++] = (uintptr_t)STACK_HOOK_LABEL;
			break;
		}
		out[n++] = s ? (uintptr_t)s : (uintptr_t)UNKNOWN;
	}
	return n;
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct seq *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	for (size_t i = 0; i < n; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return (a->len > b->len) - (a->len < b->len);
}

/* A new child of `parent` for the frame `key`. */
static size_t new_child(struct tree *t, size_t parent, uintptr_t key)
{
	if (t->n == t->cap) {
		t->cap *= 2;
		t->v = xrealloc(t->v, t->cap * sizeof *t->v);
	}
	bool label = key == (uintptr_t)TRUNCATED || key == (uintptr_t)UNKNOWN ||
	             key == (uintptr_t)STACK_HOOK_LABEL;
	size_t k = t->n++;
	struct stack_node *p = &t->v[parent];
	t->v[k] = (struct stack_node){
		.sym = label ? NULL : (const struct sym *)key,
		.label = label ? (const char *)key : NULL, .parent = parent,
		.next = p->first_child, .depth = p->depth + 1 };
	p->first_child = k;
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
	if (a->narrow != b->narrow)
		return a->narrow ? 1 : -1;
	int c = strcmp(node_name(a), node_name(b));
	if (c)
		return c;
	/* two static functions of one name: by address, for a stable order */
	if (a->sym && b->sym && a->sym->addr != b->sym->addr)
		return a->sym->addr < b->sym->addr ? -1 : 1;
	return 0;
}

/* Node k's children, in name order, in *kids (grown as needed). */
static size_t sorted_kids(struct stack_node *v, size_t k, size_t **kids,
                          size_t *cap)
{
	size_t n = 0;
	for (size_t c = v[k].first_child; c; c = v[c].next) {
		if (n == *cap) {
			*cap *= 2;
			*kids = xrealloc(*kids, *cap * sizeof **kids);
		}
		(*kids)[n++] = c;
	}
	stable_sort(*kids, n, sizeof **kids, cmp_node, v);
	return n;
}

/* The narrow children of drawn node k (kids[0 .. n-1], wide ones first),
   the nodes below them counted in their `start` (see lay_out): their
   entry in g->stack_narrow. */
static void add_narrow(struct gprof *g, size_t k, const size_t *kids,
                       size_t n, uint64_t min)
{
	struct stack_node *v = g->stack_nodes;
	struct stack_narrow b = { .parent = k, .start = v[k].start };
	for (size_t i = 0; i < n; i++) {
		if (!v[kids[i]].narrow) {    /* laid out before them */
			b.start += v[kids[i]].total;
			continue;
		}
		b.callees++;
		add_count(&b.total, v[kids[i]].total);
		b.frames += (size_t)v[kids[i]].start;
	}
	if (!b.callees)
		return;
	b.drawn = b.total >= min;
	b.percent = 100.0 * (double)b.total /
	            (v[0].total ? (double)v[0].total : 1);
	g->stack_narrow_frames += b.frames;
	g->stack_narrow_boxes += b.drawn;
	if (!b.drawn)
		g->stack_narrow_hidden += b.frames;
	size_t n1 = g->nstack_narrow;
	if ((n1 & (n1 - 1)) == 0)    /* 0, 1, 2, 4...: full, doubled */
		g->stack_narrow = xrealloc(g->stack_narrow,
		                           (n1 ? 2 * n1 : 1) * sizeof *g->stack_narrow);
	g->stack_narrow[g->nstack_narrow++] = b;
}

/* Each node's subtree, counted in its `start` before lay_out sets it
   (the count is read from there just before: no array of 2 million more
   entries).  Nodes come after their parent, so a backward pass sums. */
static void count_below(struct stack_node *v, size_t n)
{
	for (size_t k = n; k-- > 0;)
		v[k].start += 1;
	for (size_t k = n; k-- > 1;)
		v[v[k].parent].start += v[k].start;
	v[0].start = 0;
}

/* Children in name order (the narrow ones after the others), each
   starting where the one before ends, so that a flame graph is the same
   whatever order stacks came in.  A node under 1/STACK_MIN_SHARE_DIV of
   the samples is narrow, and so is all below it; a drawn node's narrow
   children make one g->stack_narrow entry.  Nodes are made after their
   parent, so one pass in index order visits every parent before its
   children. */
static void lay_out(struct gprof *g)
{
	struct stack_node *v = g->stack_nodes;
	size_t cap = 64;
	size_t *kids = xmalloc(cap * sizeof *kids);
	double root = v[0].total ? (double)v[0].total : 1;
	uint64_t min = v[0].total / STACK_MIN_SHARE_DIV +
	               (v[0].total % STACK_MIN_SHARE_DIV != 0);
	free(g->stack_narrow);
	g->stack_narrow = NULL;
	g->nstack_narrow = g->stack_narrow_boxes = 0;
	g->stack_narrow_frames = g->stack_narrow_hidden = 0;
	count_below(v, g->nstack_nodes);
	for (size_t k = 0; k < g->nstack_nodes; k++) {
		v[k].percent = 100.0 * (double)v[k].total / root;
		if (v[k].depth > g->stack_depth)
			g->stack_depth = v[k].depth;
		for (size_t c = v[k].first_child; c; c = v[c].next)
			v[c].narrow = v[k].narrow || v[c].total < min;
		size_t n = sorted_kids(v, k, &kids, &cap);
		if (!v[k].narrow)
			add_narrow(g, k, kids, n, min);
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

/* The stacks with samples, as keys (*keys: one block for them all). */
static struct seq *stack_seqs(const struct gprof *g, struct tree *t,
                              size_t *nseq, uintptr_t **keys)
{
	size_t nkeys = 0, n = 0;
	for (size_t i = 0; i < g->nstacks; i++)
		if (g->stacks[i].count)
			nkeys += (size_t)g->stacks[i].depth + 1;
	struct seq *v = xmalloc((g->nstacks + 1) * sizeof *v);
	uintptr_t *k = *keys = xmalloc((nkeys + 1) * sizeof *k);
	for (size_t i = 0; i < g->nstacks; i++) {
		const struct call_stack *cs = &g->stacks[i];
		if (cs->count == 0)
			continue;
		v[n].key = k;
		v[n].len = seq_keys(g, t, cs, k);
		v[n].count = cs->count;
		k += v[n++].len;
	}
	qsort(v, n, sizeof *v, cmp_seq);
	*nseq = n;
	return v;
}

void stacks_build(struct gprof *g)
{
	struct tree t = { 0 };
	t.cap = 64;
	t.v = xmalloc(t.cap * sizeof *t.v);
	t.v[0] = (struct stack_node){ .label = "all" };
	t.n = 1;
	t.hook = xcalloc(g->syms.len + 1, 1);
	size_t nseq, maxlen = 0;
	uintptr_t *keys;
	struct seq *seqs = stack_seqs(g, &t, &nseq, &keys);
	for (size_t i = 0; i < nseq; i++)
		if (seqs[i].len > maxlen)
			maxlen = seqs[i].len;
	size_t *path = xmalloc((maxlen + 1) * sizeof *path);
	path[0] = 0;
	for (size_t i = 0; i < nseq; i++) {
		const struct seq *e = &seqs[i], *prev = i ? &seqs[i - 1] : NULL;
		size_t same = 0;
		while (prev && same < prev->len && same < e->len &&
		       prev->key[same] == e->key[same])
			same++;
		add_count(&t.v[0].total, e->count);
		for (size_t d = 0; d < e->len; d++) {
			if (d >= same)
				path[d + 1] = new_child(&t, path[d], e->key[d]);
			add_count(&t.v[path[d + 1]].total, e->count);
		}
		add_count(&t.v[path[e->len]].self, e->count);
	}
	free(path);
	free(seqs);
	free(keys);
	free(t.hook);
	g->stack_nodes = t.v;
	g->nstack_nodes = t.n;
	lay_out(g);
}
