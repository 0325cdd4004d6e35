/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * graph_view.c - which functions and calls the call-graph pictures draw,
 * and the figures their labels print (see graph_view.h).
 *
 * A function is drawn when the text call graph shows its entry
 * (cg_entry_shown: -f/-e/-F/-E, -z, -l) and its entry's % time reaches
 * --node-threshold; a call when both ends are drawn, the symspecs keep
 * it (arc_selected: -k) and its propagated time reaches
 * --edge-threshold.  Recursive calls and calls within a cycle carry no
 * propagated time (the text graph prints only their count), so they are
 * kept whenever both ends are drawn.  With no time at all nothing is
 * pruned by time: every share would be 0.  It also says which rows the
 * HTML page keeps (add_page_cut).
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"

static bool in_syms(const struct gprof *g, const struct sym *s)
{
	return s >= g->syms.base && s < g->syms.base + g->syms.len;
}

static double total_pct(const struct gprof *g, const struct sym *s)
{
	return 100 * (s->prop_self + s->prop_child) / g->print_time_base;
}

static bool node_kept(const struct gprof *g, const struct sym *s)
{
	if (!s->name || !in_syms(g, s) || !cg_entry_shown(g, s))
		return false;
	return true;
}

/* The cluster of cycle `num` (1-based), made on first use. */
static size_t cluster_of(const struct gprof *g, struct graph_view *v,
                         size_t *by_cycle, int num)
{
	if (num <= 0 || num > g->ncycles)
		return 0;
	if (by_cycle[num - 1] == 0) {
		const struct sym *c = &g->cycles[num - 1];
		struct gv_cluster *k = &v->clusters[v->nclusters++];

		k->cyc = c;
		k->shown = cg_entry_shown(g, c);
		k->total_pct = total_pct(g, c);
		k->self_sec = c->prop_self / g->hz;
		k->child_sec = c->prop_child / g->hz;
		k->calls = c->ncalls;
		k->self_calls = c->self_calls;
		by_cycle[num - 1] = v->nclusters;
	}
	return by_cycle[num - 1];
}

static int cmp_cluster(const void *a, const void *b)
{
	const struct gv_cluster *x = a, *y = b;

	return (x->cyc->cycle_num > y->cyc->cycle_num) -
	       (x->cyc->cycle_num < y->cyc->cycle_num);
}

static void add_nodes(const struct gprof *g, struct graph_view *v)
{
	size_t *by_cycle = xcalloc((size_t)g->ncycles + 1, sizeof *by_cycle);

	v->nodes = xcalloc(g->nentries + 1, sizeof *v->nodes);
	v->clusters = xcalloc((size_t)g->ncycles + 1, sizeof *v->clusters);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct sym *s = g->entries[i];

		if (!node_kept(g, s))
			continue;
		double pct = total_pct(g, s);
		if (v->pruned && !(pct >= g->opt.node_thres)) {
			v->hidden_nodes++;
			continue;
		}
		struct gv_node *n = &v->nodes[v->nnodes++];
		n->sym = s;
		n->total_pct = pct;
		n->self_pct = 100 * s->prop_self / g->print_time_base;
		n->self_sec = s->prop_self / g->hz;
		n->child_sec = s->prop_child / g->hz;
		n->calls = s->ncalls;
		n->self_calls = s->self_calls;
		n->cluster = cluster_of(g, v, by_cycle, s->cycle_num);
		v->node_of[s - g->syms.base] = v->nnodes;
	}
	/* Clusters by cycle number; renumber the nodes' references. */
	qsort(v->clusters, v->nclusters, sizeof *v->clusters, cmp_cluster);
	for (size_t k = 0; k < v->nclusters; k++)
		by_cycle[v->clusters[k].cyc->cycle_num - 1] = k + 1;
	for (size_t i = 0; i < v->nnodes; i++)
		if (v->nodes[i].cluster)
			v->nodes[i].cluster =
				by_cycle[v->nodes[i].sym->cycle_num - 1];
	free(by_cycle);
}

static bool count_only(const struct arc *a)
{
	return a->parent == a->child ||
	       (a->parent->cycle_num != 0 &&
	        a->parent->cycle_num == a->child->cycle_num);
}

static void add_edges_of(const struct gprof *g, struct graph_view *v,
                         size_t from, size_t *cap)
{
	const struct sym *p = v->nodes[from].sym;

	for (const struct arc *a = p->children; a; a = a->next_child) {
		if (!in_syms(g, a->child))
			continue;
		size_t to = v->node_of[a->child - g->syms.base];
		if (to == 0 || !arc_selected(g, p, a->child))
			continue;
		bool only = count_only(a);
		double pct = 100 * (a->time + a->child_time) / g->print_time_base;
		if (!only && v->pruned && !(pct >= g->opt.edge_thres)) {
			v->hidden_edges++;
			continue;
		}
		if (v->nedges == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			v->edges = xrealloc(v->edges, *cap * sizeof *v->edges);
		}
		struct gv_edge *e = &v->edges[v->nedges++];
		e->from = from;
		e->to = to - 1;
		e->arc = a;
		e->count = a->count;
		e->count_only = only;
		e->self_sec = a->time / g->hz;
		e->child_sec = a->child_time / g->hz;
		e->sec = (a->time + a->child_time) / g->hz;
		e->pct = pct;
	}
}

/* Arcs were made newest first on each list; edges go oldest first. */
static void reverse_edges(struct gv_edge *e, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		struct gv_edge t = e[i];
		e[i] = e[j - 1];
		e[j - 1] = t;
	}
}

static void add_edges(const struct gprof *g, struct graph_view *v)
{
	size_t cap = 0;

	for (size_t i = 0; i < v->nnodes; i++) {
		size_t first = v->nedges;
		add_edges_of(g, v, i, &cap);
		if (v->nedges > first)  /* (edges is NULL until the first) */
			reverse_edges(v->edges + first, v->nedges - first);
	}
}

static void add_flat_cum(const struct gprof *g, struct graph_view *v)
{
	double accum = 0;

	v->flat_cum = xmalloc((g->flat.nrows + 1) * sizeof *v->flat_cum);
	for (size_t i = 0; i < g->flat.nrows; i++) {
		accum += g->flat.rows[i]->hist_time;
		v->flat_cum[i] = accum / g->hz;
	}
}

/* The HTML page's cut (PAGE_* in graph_view.h): entries go in the
   text's order, so the page keeps those with the most time, and an entry
   is on the page when its index is at most page_last_index. */
static void add_page_cut(const struct gprof *g, struct graph_view *v)
{
	size_t rows = g->flat.nrows, keep = 0;
	double left = 0;

	v->page_flat_rows = rows < PAGE_FLAT_ROWS ? rows : PAGE_FLAT_ROWS;
	for (size_t i = v->page_flat_rows; i < rows; i++)
		left += g->flat.rows[i]->hist_time;
	v->page_flat_left_sec = left / g->hz;
	if (!g->input_arcs || !cg_graph_printed(g))
		return;
	for (size_t i = 0; i < g->nentries; i++) {
		const struct sym *s = g->entries[i];
		if (!cg_entry_shown(g, s))
			continue;
		if (keep == PAGE_ENTRIES) {
			double pct = total_pct(g, s);
			if (v->page_entries_left++ == 0 ||
			    pct > v->page_left_max_pct)
				v->page_left_max_pct = pct;
			continue;
		}
		keep++;
		v->page_last_index = s->index;
	}
	v->page_entries = keep;
}

void graph_view_build(struct gprof *g)
{
	struct graph_view *v = xcalloc(1, sizeof *v);

	graph_view_free(g);
	g->view = v;
	v->node_of = xcalloc(g->syms.len + 1, sizeof *v->node_of);
	v->pruned = g->print_time > 0;
	/* The pictures follow the text call graph: none when it is not
	   printed (no arcs, or -Q). */
	if (g->input_arcs && cg_graph_printed(g)) {
		add_nodes(g, v);
		add_edges(g, v);
	}
	add_flat_cum(g, v);
	add_page_cut(g, v);
}

void graph_view_free(struct gprof *g)
{
	struct graph_view *v = g->view;

	if (!v)
		return;
	free(v->nodes);
	free(v->edges);
	free(v->clusters);
	free(v->node_of);
	free(v->flat_cum);
	free(v);
	g->view = NULL;
}

static double clamp01(double x)
{
	return x > 1 ? 1 : x > 0 ? x : 0;
}

/* The square root spreads the small shares, which most functions have,
   over more of the scale. */
void graph_view_heat(double pct, bool fill, double *h, double *s, double *v)
{
	double t = sqrt(clamp01(pct / 100));

	*h = 0.66 * (1 - t);
	*s = fill ? 0.15 + 0.55 * t : 0.6 + 0.4 * t;
	*v = fill ? 1.0 : 0.75 - 0.25 * t;
}

double graph_view_width(double pct)
{
	return 1 + 5 * sqrt(clamp01(pct / 100));
}
