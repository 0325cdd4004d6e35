/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * call_graph.c - turning arc records into arcs between symbols.
 *
 * Owns the arc store: the (parent, child) hash table that makes repeated
 * records of one arc add up in O(1), the two per-symbol arc lists
 * (parent->children and child->parents, newest arc first, as GNU keeps
 * them) and the global array of non-self arcs used by -r and -R.
 */
#include "analysis/analysis.h"

#include <stdlib.h>

/* Open addressing with linear probing: slots are a power of two, at
   most half of them used (the table doubles before), so probes stay
   short; arcs need no chain pointer of their own. */
#define ARC_HASH_MIN 1024

static size_t arc_hash_of(const struct sym *parent, const struct sym *child)
{
	uint64_t h = (uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)(uintptr_t)child + 0x7f4a7c159e3779b9ull + (h << 6) +
	     (h >> 2);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h;
}

/* Into the first free slot from its hash on. */
static void arc_hash_place(struct arc **t, size_t size, struct arc *a)
{
	size_t b = arc_hash_of(a->parent, a->child) & (size - 1);

	while (t[b])
		b = (b + 1) & (size - 1);
	t[b] = a;
}

static void arc_hash_grow(struct gprof *g)
{
	size_t nsize = g->arc_hash_size ? g->arc_hash_size * 2 : ARC_HASH_MIN;
	struct arc **nt = xcalloc(nsize, sizeof *nt);

	for (size_t i = 0; i < g->arc_hash_size; i++)
		if (g->arc_hash[i])
			arc_hash_place(nt, nsize, g->arc_hash[i]);
	free(g->arc_hash);
	g->arc_hash = nt;
	g->arc_hash_size = nsize;
}

/* Room for n arcs in all, at most half the slots used. */
static void arc_hash_reserve(struct gprof *g, size_t n)
{
	while (n > g->arc_hash_size / 2)
		arc_hash_grow(g);
}

/* Arcs built in bulk (arc_bulk.c) enter the hash table only when an arc
   is first looked up after them: most runs never do. */
static void arc_hash_insert(struct gprof *g, struct arc *a)
{
	arc_hash_place(g->arc_hash, g->arc_hash_size, a);
}

static void arc_hash_catch_up(struct gprof *g)
{
	if (!g->narc_unhashed)
		return;
	arc_hash_reserve(g, g->narcs);
	for (size_t i = 0; i < g->narc_unhashed; i++)
		arc_hash_insert(g, &g->arc_unhashed[i]);
	g->arc_unhashed = NULL;
	g->narc_unhashed = 0;
}

/* Takes over n arcs made in one block, numbered and linked already. */
void arc_adopt_block(struct gprof *g, struct arc *v, size_t n)
{
	g->arc_blocks = xrealloc(g->arc_blocks, (g->narc_blocks + 1) *
	                         sizeof *g->arc_blocks);
	g->arc_blocks[g->narc_blocks++] = v;
	arc_hash_catch_up(g);
	g->arc_unhashed = v;
	g->narc_unhashed = n;
	g->narcs += n;
	g->arcs_on_syms = true;
}

struct arc *arc_lookup(struct gprof *g, struct sym *parent, struct sym *child)
{
	arc_hash_catch_up(g);
	if (!parent || !child || !g->arc_hash_size)
		return NULL;
	size_t mask = g->arc_hash_size - 1;

	for (size_t b = arc_hash_of(parent, child) & mask; g->arc_hash[b];
	     b = (b + 1) & mask) {
		const struct arc *a = g->arc_hash[b];

		if (a->parent == parent && a->child == child)
			return g->arc_hash[b];
	}
	debug_printf(g, DBG_LOOKUP, "[arc_lookup] no arc from %s to %s\n",
	             parent->name ? parent->name : "<cycle>",
	             child->name ? child->name : "<cycle>");
	return NULL;
}

/* Arcs come from blocks, in creation order: a walk over the arcs touches
   neighbouring memory, and there is no allocator overhead per arc.  They
   live as long as the run. */
#define ARC_BLOCK 4096

static struct arc *arc_alloc(struct gprof *g)
{
	if (!g->arc_block || g->arc_block_used == ARC_BLOCK) {
		g->arc_block = xcalloc(ARC_BLOCK, sizeof *g->arc_block);
		g->arc_block_used = 0;
		g->arc_blocks = xrealloc(g->arc_blocks, (g->narc_blocks + 1) *
		                         sizeof *g->arc_blocks);
		g->arc_blocks[g->narc_blocks++] = g->arc_block;
	}
	return &g->arc_block[g->arc_block_used++];
}

/* The packed callers (arc_bulk.c builds them) go stale once an arc
   changes. */
void arc_callers_drop(struct gprof *g)
{
	free(g->callers);
	free(g->callers_start);
	g->callers = NULL;
	g->callers_start = NULL;
}

/* Frees every arc at once (for callers that reuse the process, such as
   the fuzz harnesses). */
void cg_free_arc_blocks(struct gprof *g)
{
	for (size_t i = 0; i < g->narc_blocks; i++)
		free(g->arc_blocks[i]);
	free(g->arc_blocks);
	g->arc_blocks = NULL;
	g->narc_blocks = 0;
	g->arc_block = NULL;
	g->arc_block_used = 0;
	arc_callers_drop(g);
}

/* Remember a non-self arc in creation order (the -r/-R input). */
static void arc_remember(struct gprof *g, struct arc *a)
{
	if (g->narcs_global == g->arcs_cap) {
		g->arcs_cap = g->arcs_cap ? g->arcs_cap * 2 : 64;
		g->arcs = xrealloc(g->arcs, g->arcs_cap * sizeof *g->arcs);
	}
	g->arcs[g->narcs_global++] = a;
}

/* A symbol of the table (not a symspec's copy, nor a cycle header). */
static bool is_real_sym(const struct gprof *g, const struct sym *s)
{
	return s >= g->syms.base && s < g->syms.base + g->syms.len;
}

struct arc *arc_add(struct gprof *g, struct sym *parent, struct sym *child,
                    uint64_t count)
{
	debug_printf(g, DBG_TALLY, "[arc_add] %lu arcs from %s to %s\n",
	             (unsigned long)count, parent->name, child->name);
	struct arc *a = arc_lookup(g, parent, child);

	arc_callers_drop(g);
	if (a) {
		debug_printf(g, DBG_TALLY, "[tally] hit %lu += %lu\n",
		             (unsigned long)a->count, (unsigned long)count);
		a->count += count;
		return a;
	}
	arc_hash_reserve(g, g->narcs + 1);

	a = arc_alloc(g);
	a->parent = parent;
	a->child = child;
	a->count = count;
	arc_hash_insert(g, a);
	a->id = g->narcs++;
	if (is_real_sym(g, parent) || is_real_sym(g, child))
		g->arcs_on_syms = true;

	if (parent != child)
		arc_remember(g, a);
	/* Prepending makes every list newest-first; the call-graph sorts and
	   the depth-first walk depend on that order for their ties. */
	a->next_child = parent->children;
	parent->children = a;
	a->next_parent = child->parents;
	child->parents = a;
	return a;
}

/* With -l the symbol table holds lines: the callee must be the function
   itself, i.e. the nearest function symbol at or before the line. */
static struct sym *line_to_function(struct gprof *g, struct sym *s)
{
	while (!s->is_func) {
		if (s == g->syms.base)
			return NULL;
		s--;
	}
	return s;
}

void cg_tally(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count)
{
	/* A --per-thread context's calls are its thread's TARCS only
	   (shlibs.c); gmon.out's are every thread's. */
	if (g->thread_only)
		return;
	cg_tally_syms(g, sym_lookup_exe(g, from_pc), sym_lookup_exe(g, self_pc),
	              count);
}

/* Does a call from *parent to *child make an arc?  Not when either is
   NULL, nor when the symspecs leave it out; with -l the child becomes its
   function. */
bool cg_arc_wanted(struct gprof *g, struct sym **parent, struct sym **child)
{
	if (!*parent || !*child)
		return false;
	if (g->clones.nmerged && !clones_arc_ends(parent, child))
		return false;
	if (g->opt.line_gran) {
		*child = line_to_function(g, *child);
		if (!*child)
			return false;
	}
	return arc_selected(g, *parent, *child);
}

/* An arc between two symbols (either may be NULL: no arc). */
void cg_tally_syms(struct gprof *g, struct sym *parent, struct sym *child,
                   uint64_t count)
{
	if (!cg_arc_wanted(g, &parent, &child))
		return;
	child->ncalls += count;
	debug_printf(g, DBG_TALLY,
	             "[cg_tally] arc from %s to %s traversed %lu times\n",
	             parent->name, child->name, (unsigned long)count);
	arc_add(g, parent, child, count);
}

/*
 * GNU joins the two sides of every FROM/TO spec, whatever option gave it,
 * with a 0-count arc between its table entries.  Those arcs touch no real
 * symbol, but they enter the list of arcs that -r and -R order, first and
 * in reverse command-line order, so they are made the same way: by cg_add_spec_arcs(), which the
 * pipeline calls between sym_ids_resolve() and sym_ids_finish().
 */
static struct sym *range_copy(const struct gprof *g, const struct spec_range *r)
{
	const struct sym *first = sym_lookup(&g->syms, r->addr);
	struct sym *c = xcalloc(1, sizeof *c);
	if (first)
		*c = *first;
	c->addr = r->addr;
	c->end_addr = r->end_addr;
	c->parents = c->children = NULL;
	c->ncalls = c->self_calls = 0;
	c->hist_time = 0;
	return c;
}

void cg_add_spec_arcs(struct gprof *g)
{
	for (size_t k = 0; k < g->nspec_list; k++) {
		const struct parsed_spec *ps = &g->spec_list[k];
		const struct spec_table_ranges *t = &g->tables[ps->table];
		if (!ps->has_right || ps->nrights == 0)
			continue;       /* no arcs: no copy either (it would leak) */
		for (size_t a = 0; a < t->n; a++) {
			if (t->v[a].owner != k)
				continue;
			struct sym *from = range_copy(g, &t->v[a]);
			for (size_t b = 0; b < ps->nrights; b++)
				arc_add(g, from, range_copy(g, &ps->rights[b]), 0);
		}
	}
}
