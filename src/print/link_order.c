/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * link_order.c - the link-order suggestions: -r (functions ordered so that
 * busy callers and callees sit together) and -R (object files ordered
 * likewise, from the -R map), with GNU gprof's placement rules.
 *
 * The placement state (chains of functions, what has been placed, how
 * often a function is used) is this module's own, kept in arrays beside
 * the model.  GNU keeps it in its symbols and arcs, and -r sees each
 * function's caller and callee lists in the order its call-graph entry
 * left them when that report was printed first (-q -r): collect_arcs()
 * reads the ranked order from the model in exactly those cases.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

/* Functions are strung into chains that only ever grow at their ends, one
   unattached function at a time.  GNU walks a chain to find its ends and
   the distance to them; a chain record with positions answers both in
   O(1). */
struct ord_chain {
	struct ord_node *first, *last;
	struct ord_chain *all_next;  /* every chain, for freeing */
};

struct ord_node {
	const struct sym *sym;
	struct ord_node *prev, *next;
	struct ord_chain *chain;     /* when attached */
	long pos;                    /* position within the chain */
	unsigned nuses;
	bool placed;
};

struct arc_vec {
	struct arc **v;
	size_t n, cap;
};

struct ordering {
	const struct gprof *g;
	FILE *out;
	struct ord_node *nodes;      /* by index in g->syms */
	struct ord_node **extra;     /* symbols outside g->syms (symspec */
	size_t nextra;               /* copies), found by pointer */
	bool *arc_placed;            /* by arc id */
	struct arc **arcs;           /* g->arcs, in this run's order */
	struct ord_chain *chains;
	struct arc_vec unplaced, scratch;
};

static void arc_vec_push(struct arc_vec *av, struct arc *a)
{
	if (av->n == av->cap) {
		av->cap = av->cap ? av->cap * 2 : 64;
		av->v = xrealloc(av->v, av->cap * sizeof *av->v);
	}
	av->v[av->n++] = a;
}

static struct ord_node *node_of(struct ordering *o, const struct sym *s)
{
	const struct symtab *st = &o->g->syms;

	if (st->base && s >= st->base && s < st->base + st->len)
		return &o->nodes[s - st->base];
	for (size_t i = 0; i < o->nextra; i++)
		if (o->extra[i]->sym == s)
			return o->extra[i];
	o->extra = xrealloc(o->extra, (o->nextra + 1) * sizeof *o->extra);
	struct ord_node *n = xcalloc(1, sizeof *n);
	n->sym = s;
	o->extra[o->nextra++] = n;
	return n;
}

static bool *arc_placed(struct ordering *o, const struct arc *a)
{
	return &o->arc_placed[a->id];
}

static bool attached(const struct ord_node *n)
{
	return n->prev || n->next;
}

static struct ord_node *chain_start(struct ord_node *n)
{
	return attached(n) ? n->chain->first : n;
}

/* Link `before` directly ahead of `after`; one of them (or both) is
   unattached, the other is the matching end of its chain. */
static void ord_link(struct ordering *o, struct ord_node *before,
                     struct ord_node *after)
{
	if (!attached(before) && !attached(after)) {
		struct ord_chain *c = xcalloc(1, sizeof *c);

		c->all_next = o->chains;
		o->chains = c;
		c->first = before;
		c->last = after;
		before->chain = after->chain = c;
		before->pos = 0;
		after->pos = 1;
	} else if (!attached(after)) {
		after->chain = before->chain;
		after->pos = before->pos + 1;
		after->chain->last = after;
	} else {
		before->chain = after->chain;
		before->pos = after->pos - 1;
		before->chain->first = before;
	}
	before->next = after;
	after->prev = before;
}

/* The end of `n`'s chain nearer to `n`; a tie goes to `tie_first`'s end. */
static struct ord_node *nearer_end(struct ord_node *n, bool tie_first)
{
	if (!attached(n))
		return n;
	long to_first = n->pos - n->chain->first->pos;
	long to_last = n->chain->last->pos - n->pos;

	if (to_first == to_last)
		return tie_first ? n->chain->first : n->chain->last;
	return to_first < to_last ? n->chain->first : n->chain->last;
}

/* The far end reached by walking from `n` the way GNU walks: along next
   links if there are any, else along prev links. */
static struct ord_node *walk_end(struct ord_node *n)
{
	if (n->next)
		return n->chain->last;
	if (n->prev)
		return n->chain->first;
	return n;
}

/* Try to join the two ends of arc `a`; false when it cannot be done now. */
static bool place_arc(struct ordering *o, struct arc *a)
{
	struct ord_node *parent = node_of(o, a->parent);
	struct ord_node *child = node_of(o, a->child);

	if (parent->next && parent->prev && child->next && child->prev)
		return false;
	if (!attached(parent)) {
		/* Toward the nearer end of the child's chain; tie: its start. */
		child = nearer_end(child, true);
	} else if (!attached(child)) {
		/* Toward the nearer end of the parent's chain; tie: its end. */
		parent = nearer_end(parent, false);
	} else {
		return false;
	}
	/* Never close a chain into a ring. */
	if (walk_end(parent) == child && walk_end(child) == parent)
		return false;
	if (parent->next) {
		if (child->next)
			return true;
		ord_link(o, child, parent);
	} else if (parent->prev) {
		if (child->prev)
			return true;
		ord_link(o, parent, child);
	} else if (child->prev) {
		ord_link(o, child, parent);
	} else {
		ord_link(o, parent, child);
	}
	*arc_placed(o, a) = true;
	return true;
}

static void print_raw(struct ordering *o, const struct ord_node *n)
{
	fprintf(o->out, "%s\n", n->sym->name);
}

/* Print each chain that an arc with both ends unplaced leads to; with
   `all`, then the callers of the arcs still left over. */
static void dump_chains(struct ordering *o, struct arc **arcs, size_t n,
                        bool all)
{
	for (size_t i = 0; i < n; i++) {
		struct ord_node *p = node_of(o, arcs[i]->parent);

		if (p->placed || node_of(o, arcs[i]->child)->placed ||
		    !attached(p))
			continue;
		for (p = chain_start(p); p; p = p->next) {
			p->placed = true;
			print_raw(o, p);
		}
	}
	if (!all)
		return;
	for (size_t i = 0; i < n; i++) {
		struct ord_node *p = node_of(o, arcs[i]->parent);

		if (p->placed || node_of(o, arcs[i]->child)->placed)
			continue;
		p->placed = true;
		print_raw(o, p);
	}
}

/* GNU's placement pass over `arcs` (in the given order).  Without `all`
   only the arcs making up the first 99 % of the calls are used.  Arcs not
   used go to `spill`. */
static void order_by_arcs(struct ordering *o, struct arc **arcs, size_t n,
                          bool all, struct arc_vec *spill)
{
	unsigned long long total = 0, sum = 0;

	if (!all)
		for (size_t i = 0; i < n; i++)
			total += arcs[i]->count;
	for (size_t i = 0; i < n; i++) {
		struct arc *a = arcs[i];

		sum += a->count;
		if (*arc_placed(o, a))
			continue;
		if ((!all && (double)sum / (double)total > 0.99) ||
		    node_of(o, a->child)->placed || node_of(o, a->parent)->placed ||
		    !place_arc(o, a))
			arc_vec_push(spill, a);
	}
	dump_chains(o, arcs, n, all);
}

static int cmp_arc_count(const void *pa, const void *pb, void *ctx)
{
	const struct arc *a = *(struct arc *const *)pa;
	const struct arc *b = *(struct arc *const *)pb;

	(void)ctx;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return 0;
}

static int cmp_nuses(const void *pa, const void *pb, void *ctx)
{
	const struct ord_node *a = *(struct ord_node *const *)pa;
	const struct ord_node *b = *(struct ord_node *const *)pb;

	(void)ctx;
	if (a->nuses != b->nuses)
		return a->nuses > b->nuses ? -1 : 1;
	return 0;
}

static void ordering_init(struct ordering *o, const struct gprof *g)
{
	size_t ns = g->syms.len ? g->syms.len : 1;
	size_t na = g->narcs_global ? g->narcs_global : 1;

	memset(o, 0, sizeof *o);
	o->g = g;
	o->nodes = xcalloc(ns, sizeof *o->nodes);
	for (size_t i = 0; i < g->syms.len; i++)
		o->nodes[i].sym = &g->syms.base[i];
	o->arc_placed = xcalloc(g->narcs ? g->narcs : 1, sizeof *o->arc_placed);
	o->arcs = xmalloc(na * sizeof *o->arcs);
	if (g->narcs_global)
		memcpy(o->arcs, g->arcs, g->narcs_global * sizeof *o->arcs);
}

static void ordering_free(struct ordering *o)
{
	while (o->chains) {
		struct ord_chain *next = o->chains->all_next;

		free(o->chains);
		o->chains = next;
	}
	for (size_t i = 0; i < o->nextra; i++)
		free(o->extra[i]);
	free(o->extra);
	free(o->nodes);
	free(o->arc_placed);
	free(o->arcs);
	free(o->unplaced.v);
	free(o->scratch.v);
}

/* Count, for each callee, how many of the busiest arcs (those making up
   90 % of all calls) lead to it. */
static void count_uses(struct ordering *o)
{
	size_t n = o->g->narcs_global;
	unsigned long long total = 0, sum = 0;

	for (size_t i = 0; i < n; i++) {
		total += o->arcs[i]->count;
		*arc_placed(o, o->arcs[i]) = false;
	}
	for (size_t i = 0; i < n; i++) {
		sum += o->arcs[i]->count;
		if ((double)sum / (double)total > 0.90)
			break;
		node_of(o, o->arcs[i]->child)->nuses++;
	}
}

/* A function's arcs in the order GNU's lists have when -r reads them:
   ranked when the call graph report printed its entry, else as made. */
static void collect_list(struct ordering *o, const struct sym *s,
                         bool parents, bool ranked)
{
	struct arc *const *ap = parents ? s->by_rank_parents
	                                : s->by_rank_children;
	struct arc *a = parents ? s->parents : s->children;

	while (ranked ? (a = *ap) != NULL : a != NULL) {
		if (a->parent != a->child)
			arc_vec_push(&o->scratch, a);
		*arc_placed(o, a) = true;
		if (ranked)
			ap++;
		else
			a = parents ? a->next_parent : a->next_child;
	}
}

static void collect_arcs(struct ordering *o, const struct sym *s)
{
	bool ranked = cg_graph_printed(o->g) && cg_entry_shown(o->g, s);

	collect_list(o, s, false, ranked && s->by_rank_children);
	collect_list(o, s, true, ranked && s->by_rank_parents);
}

/* The functions used by the most busy arcs are emitted first, as a
   group (GNU takes at most 1/80 of the called functions, stopping at one
   used exactly five times, and prints one fewer than it took); the arcs
   between them are placed first.  Returns those arcs. */
static void high_use_group(struct ordering *o, struct ord_node **used,
                           size_t nused, struct arc_vec *high)
{
	struct ord_node **by_uses = xmalloc((nused ? nused : 1) *
	                                    sizeof *by_uses);
	size_t last = 0;

	memcpy(by_uses, used, nused * sizeof *by_uses);
	stable_sort(by_uses, nused, sizeof *by_uses, cmp_nuses, NULL);
	for (size_t i = 0; i < nused / 80; i++) {
		struct ord_node *n = by_uses[i];

		if (n->nuses == 5)
			break;
		collect_arcs(o, n->sym);
		last = i;
		n->placed = true;
	}
	for (size_t i = 0; i < o->scratch.n; i++) {
		struct arc *a = o->scratch.v[i];
		struct ord_node *c = node_of(o, a->child);
		struct ord_node *p = node_of(o, a->parent);

		if (c->placed && p->placed) {
			arc_vec_push(high, a);
			c->placed = false;
			p->placed = false;
		}
	}
	for (size_t i = 0; i < last; i++)
		if (by_uses[i]->placed)
			print_raw(o, by_uses[i]);
	free(by_uses);
}

static void function_ordering(struct ordering *o)
{
	const struct symtab *st = &o->g->syms;
	size_t cap = st->len ? st->len : 1, nused = 0, nunused = 0;
	struct ord_node **used = xmalloc(cap * sizeof *used);
	struct ord_node **unused = xmalloc(cap * sizeof *unused);
	struct arc_vec high = { 0 };

	for (size_t i = 0; i < st->len; i++) {
		struct ord_node *n = &o->nodes[i];

		if (n->sym->ncalls == 0) {
			unused[nunused++] = n;
			n->placed = true;
		} else {
			used[nused++] = n;
			n->placed = false;
			n->next = n->prev = NULL;
			n->nuses = 0;
		}
	}
	stable_sort(o->arcs, o->g->narcs_global, sizeof *o->arcs, cmp_arc_count,
	            NULL);
	count_uses(o);
	high_use_group(o, used, nused, &high);

	stable_sort(high.v, high.n, sizeof *high.v, cmp_arc_count, NULL);
	order_by_arcs(o, high.v, high.n, true, &o->unplaced);
	order_by_arcs(o, o->arcs, o->g->narcs_global, false, &o->unplaced);
	order_by_arcs(o, o->unplaced.v, o->unplaced.n, true, &o->scratch);

	for (size_t i = 0; i < nused; i++)
		if (!used[i]->placed)
			print_raw(o, used[i]);
	for (size_t i = 0; i < nunused; i++)
		print_raw(o, unused[i]);
	free(high.v);
	free(used);
	free(unused);
}

void link_order_functions(const struct gprof *g, struct report *r)
{
	struct ordering o;

	ordering_init(&o, g);
	o.out = r->out;
	function_ordering(&o);
	ordering_free(&o);
}

static int cmp_str(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int cmp_str_bs(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Object files named in the map that no symbol stands for (they have no
   text symbols): listed last, by name. */
static void print_textless_objects(const struct gprof *g, FILE *out)
{
	size_t nm = g->nmap_files, nsyms = 0;

	if (nm == 0)
		return;
	const char **files = xmalloc(nm * sizeof *files);
	const char **names = xmalloc((g->syms.len ? g->syms.len : 1) *
	                             sizeof *names);

	memcpy(files, g->map_files, nm * sizeof *files);
	stable_sort(files, nm, sizeof *files, cmp_str, NULL);
	for (size_t i = 0; i < g->syms.len; i++)
		if (g->syms.base[i].mapped)
			names[nsyms++] = g->syms.base[i].name;
	stable_sort(names, nsyms, sizeof *names, cmp_str, NULL);
	for (size_t i = 0; i < nm; i++) {
		if (i > 0 && strcmp(files[i - 1], files[i]) == 0)
			continue;
		if (!bsearch(&files[i], names, nsyms, sizeof *names, cmp_str_bs))
			fprintf(out, "%s\n", files[i]);
	}
	free(files);
	free(names);
}

void link_order_files(const struct gprof *g, struct report *r)
{
	struct ordering o;

	ordering_init(&o, g);
	o.out = r->out;
	for (size_t i = 0; i < g->narcs_global; i++) {
		struct arc *a = o.arcs[i];

		if (!a->parent->mapped || !a->child->mapped)
			*arc_placed(&o, a) = true;
	}
	order_by_arcs(&o, o.arcs, g->narcs_global, false, &o.scratch);
	for (size_t i = 0; i < g->syms.len; i++) {
		struct ord_node *n = &o.nodes[i];

		if (n->sym->mapped && !n->placed)
			print_raw(&o, n);
	}
	print_textless_objects(g, r->out);
	ordering_free(&o);
}
