/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg_graph.c - a layered drawing of the call graph for the HTML report,
 * so that the report needs no Graphviz (see svg_graph.h).
 *
 * The classic steps, each kept simple:
 *  1. cycles are broken by reversing the back edges a depth-first search
 *     finds (from the functions nobody calls, in call-graph order);
 *  2. each function's rank (row) is its longest path from a root, so
 *     every call points down;
 *  3. a call spanning several rows gets a point on each row between, so
 *     it bends around the boxes instead of crossing them;
 *  4. rows are ordered by a depth-first visit, then by sweeps that sort
 *     each row by the mean position of its neighbours (barycentres),
 *     keeping the order with the fewest crossings;
 *  5. x positions: each row is placed as close as possible to its
 *     neighbours' mean x without overlap (pool-adjacent-violators).
 * The picture is a function of the graph only: its coordinates are not
 * figures of the profile, so they live here, not in the model.
 * This file lays the graph out (struct layout, svg_layout.h); svg_draw.c
 * writes the laid-out graph as SVG.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"
#include "markup.h"
#include "svg_graph.h"
#include "svg_layout.h"

#define GAP 22.0                 /* between boxes in a row */
#define DUMMY_GAP 16.0           /* around a bend point */
#define CHAR_W 7.3               /* 12px monospace advance, a bit over */
#define MIN_ROW_W 1200.0         /* rows of unlinked boxes, at least */
#define SWEEPS 8
#define MAX_CROSS_SEGS 4000      /* count crossings below this only */

/* ---- 1. back edges ---- */

/* Edges out of each node (CSR over edge indices). */
static void out_lists(const struct layout *L, size_t **start, size_t **list)
{
	const struct graph_view *v = L->v;
	size_t *st = xcalloc(L->n + 2, sizeof *st);
	size_t *li = xmalloc((v->nedges + 1) * sizeof *li);

	for (size_t i = 0; i < v->nedges; i++)
		if (!self_loop(&v->edges[i]))
			st[v->edges[i].from + 2]++;
	for (size_t i = 2; i <= L->n + 1; i++)
		st[i] += st[i - 1];
	for (size_t i = 0; i < v->nedges; i++)
		if (!self_loop(&v->edges[i]))
			li[st[v->edges[i].from + 1]++] = i;
	*start = st;
	*list = li;
}

static void dfs_from(const struct layout *L, size_t root, const size_t *st,
                     const size_t *li, char *state, size_t *stack,
                     size_t *next)
{
	size_t sp = 0;

	stack[sp++] = root;
	state[root] = 1;
	next[root] = st[root];
	while (sp) {
		size_t u = stack[sp - 1];

		if (next[u] == st[u + 1]) {
			state[u] = 2;
			sp--;
			continue;
		}
		size_t e = li[next[u]++];
		size_t t = L->v->edges[e].to;
		if (state[t] == 1) {
			L->reversed[e] = true;
		} else if (state[t] == 0) {
			state[t] = 1;
			next[t] = st[t];
			stack[sp++] = t;
		}
	}
}

static void break_cycles(struct layout *L)
{
	size_t *st, *li;
	char *state = xcalloc(L->n + 1, 1);
	size_t *stack = xmalloc((L->n + 1) * sizeof *stack);
	size_t *next = xmalloc((L->n + 1) * sizeof *next);
	bool *called = xcalloc(L->n + 1, sizeof *called);

	out_lists(L, &st, &li);
	for (size_t i = 0; i < L->v->nedges; i++)
		if (!self_loop(&L->v->edges[i]))
			called[L->v->edges[i].to] = true;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < L->n; i++)
			if (state[i] == 0 && (pass == 1 || !called[i]))
				dfs_from(L, i, st, li, state, stack, next);
	free(st);
	free(li);
	free(state);
	free(stack);
	free(next);
	free(called);
}

/* Box widths from the longest of the three lines of text. */
static void measure(struct layout *L, struct report *r)
{
	L->w = xcalloc(L->n + 1, sizeof *L->w);
	L->pad = xcalloc(L->n + 1, sizeof *L->pad);
	for (size_t i = 0; i < L->n; i++) {
		const struct gv_node *n = &L->v->nodes[i];
		char text[128];
		size_t chars = markup_width(display_name(L->g, r, n->sym),
		                            NAME_CHARS);

		chars += (size_t)snprintf(text, sizeof text, " [%d]",
		                          n->sym->index);
		for (int line = 2; line <= 3; line++) {
			size_t c = node_figures(n, line, text, sizeof text);
			if (c > chars)
				chars = c;
		}
		L->w[i] = (double)chars * CHAR_W + 14;
	}
	for (size_t e = 0; e < L->v->nedges; e++)
		if (self_loop(&L->v->edges[e]))
			L->pad[L->v->edges[e].from] = LOOP_W;
}

/* ---- 2. ranks ---- */

static size_t dag_from(const struct layout *L, size_t e)
{
	const struct gv_edge *x = &L->v->edges[e];
	return L->reversed[e] ? x->to : x->from;
}

static size_t dag_to(const struct layout *L, size_t e)
{
	const struct gv_edge *x = &L->v->edges[e];
	return L->reversed[e] ? x->from : x->to;
}

/* A function nobody calls (main, a signal handler, one whose callers
   were pruned) moves down to just above the nearest function it calls,
   instead of sending long lines down from the top row.  `mark` is
   scratch room for a flag per node. */
static void sink_roots(struct layout *L, size_t *mark)
{
	const struct graph_view *v = L->v;

	for (size_t i = 0; i < L->n; i++)
		mark[i] = 0;
	for (size_t e = 0; e < v->nedges; e++)
		if (!self_loop(&v->edges[e]))
			mark[dag_to(L, e)] = 1;
	for (size_t i = 0; i < L->n; i++) {
		int low = -1;

		if (mark[i])
			continue;
		for (size_t e = 0; e < v->nedges; e++)
			if (!self_loop(&v->edges[e]) && dag_from(L, e) == i &&
			    (low < 0 || L->rank[dag_to(L, e)] < low))
				low = L->rank[dag_to(L, e)];
		if (low > 0)
			L->rank[i] = low - 1;
	}
}

/* Longest path from the roots, in topological order (Kahn). */
static void assign_ranks(struct layout *L)
{
	const struct graph_view *v = L->v;
	size_t *indeg = xcalloc(L->n + 1, sizeof *indeg);
	size_t *queue = xmalloc((L->n + 1) * sizeof *queue);
	size_t head = 0, tail = 0;

	L->rank = xcalloc(L->n + 1, sizeof *L->rank);
	for (size_t e = 0; e < v->nedges; e++)
		if (!self_loop(&v->edges[e]))
			indeg[dag_to(L, e)]++;
	for (size_t i = 0; i < L->n; i++)
		if (indeg[i] == 0)
			queue[tail++] = i;
	while (head < tail) {
		size_t u = queue[head++];

		/* Edges are few per node in a pruned graph; a scan per node
		   keeps the code short. */
		for (size_t e = 0; e < v->nedges; e++) {
			if (self_loop(&v->edges[e]) || dag_from(L, e) != u)
				continue;
			size_t t = dag_to(L, e);
			if (L->rank[t] < L->rank[u] + 1)
				L->rank[t] = L->rank[u] + 1;
			if (--indeg[t] == 0)
				queue[tail++] = t;
		}
	}
	sink_roots(L, indeg);
	L->nranks = 0;
	for (size_t i = 0; i < L->n; i++)
		if (L->rank[i] + 1 > L->nranks)
			L->nranks = L->rank[i] + 1;
	free(indeg);
	free(queue);
}

/* Functions with no call drawn (their calls were under the threshold)
   would all sit in the top row, making it as wide as all of them: they
   go below the graph instead, in rows no wider than its widest (or
   than MIN_ROW_W). */
static void stack_isolated(struct layout *L)
{
	const struct graph_view *v = L->v;
	bool *linked = xcalloc(L->n + 1, sizeof *linked);
	double *row_w = xcalloc((size_t)L->nranks + 1, sizeof *row_w);
	double widest = MIN_ROW_W, used = 0;
	int main_ranks = 0;

	for (size_t e = 0; e < v->nedges; e++)
		if (!self_loop(&v->edges[e]))
			linked[v->edges[e].from] = linked[v->edges[e].to] = true;
	for (size_t i = 0; i < L->n; i++)
		if (linked[i]) {
			row_w[L->rank[i]] += L->w[i] + L->pad[i] + GAP;
			if (L->rank[i] + 1 > main_ranks)
				main_ranks = L->rank[i] + 1;
		}
	for (int r = 0; r < main_ranks; r++)
		if (row_w[r] > widest)
			widest = row_w[r];
	L->nranks = main_ranks;
	for (size_t i = 0; i < L->n; i++) {
		double w = L->w[i] + L->pad[i] + GAP;

		if (linked[i])
			continue;
		if (L->nranks == main_ranks || (used > 0 && used + w > widest)) {
			L->nranks++;
			used = 0;
		}
		L->rank[i] = L->nranks - 1;
		used += w;
	}
	free(linked);
	free(row_w);
}

/* ---- 3. bend points ---- */

static size_t span(const struct layout *L, size_t e)
{
	if (self_loop(&L->v->edges[e]))
		return 0;
	return (size_t)(L->rank[dag_to(L, e)] - L->rank[dag_from(L, e)]);
}

/* Returns false when the layout would be over SVG_MAX_POINTS. */
static bool make_points(struct layout *L)
{
	const struct graph_view *v = L->v;
	size_t total = L->n, plen = 0;

	for (size_t e = 0; e < v->nedges; e++) {
		size_t s = span(L, e);
		if (s > 1)
			total += s - 1;
		plen += s ? s + 1 : 0;
		if (total > SVG_MAX_POINTS)
			return false;
	}
	L->npts = total;
	L->rank = xrealloc(L->rank, (total + 1) * sizeof *L->rank);
	L->w = xrealloc(L->w, (total + 1) * sizeof *L->w);
	L->pad = xrealloc(L->pad, (total + 1) * sizeof *L->pad);
	for (size_t p = L->n; p <= total; p++)
		L->w[p] = L->pad[p] = 0;     /* bend points take no room */
	L->path = xmalloc((plen + 1) * sizeof *L->path);
	L->path_start = xcalloc(v->nedges + 1, sizeof *L->path_start);
	size_t pt = L->n, at = 0;
	for (size_t e = 0; e < v->nedges; e++) {
		size_t s = span(L, e);

		L->path_start[e] = at;
		if (s == 0)
			continue;
		size_t from = dag_from(L, e);
		L->path[at++] = from;
		for (size_t k = 1; k < s; k++) {
			L->rank[pt] = L->rank[from] + (int)k;
			L->path[at++] = pt++;
		}
		L->path[at++] = dag_to(L, e);
	}
	L->path_start[v->nedges] = at;
	return true;
}

/* Neighbour lists from the paths' segments, both ways. */
static void csr_add(size_t *start, size_t *list, size_t at, size_t val)
{
	list[start[at + 1]++] = val;
}

static void build_neighbours(struct layout *L)
{
	size_t nseg = L->path_start[L->v->nedges];

	L->up_start = xcalloc(L->npts + 2, sizeof *L->up_start);
	L->dn_start = xcalloc(L->npts + 2, sizeof *L->dn_start);
	L->up = xmalloc((nseg + 1) * sizeof *L->up);
	L->dn = xmalloc((nseg + 1) * sizeof *L->dn);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t e = 0; e < L->v->nedges; e++)
			for (size_t i = L->path_start[e];
			     i + 1 < L->path_start[e + 1]; i++) {
				size_t a = L->path[i], b = L->path[i + 1];
				if (pass == 0) {
					L->dn_start[a + 2]++;
					L->up_start[b + 2]++;
				} else {
					csr_add(L->dn_start, L->dn, a, b);
					csr_add(L->up_start, L->up, b, a);
				}
			}
		if (pass == 0)
			for (size_t i = 2; i <= L->npts + 1; i++) {
				L->dn_start[i] += L->dn_start[i - 1];
				L->up_start[i] += L->up_start[i - 1];
			}
	}
}

/* ---- 4. order within rows ---- */

/* Rows filled in depth-first order from the top row's points. */
static void initial_order(struct layout *L)
{
	size_t *fill = xcalloc((size_t)L->nranks + 1, sizeof *fill);
	size_t *stack = xmalloc((L->npts + 1) * sizeof *stack);
	bool *seen = xcalloc(L->npts + 1, sizeof *seen);

	L->rank_start = xcalloc((size_t)L->nranks + 2, sizeof *L->rank_start);
	for (size_t p = 0; p < L->npts; p++)
		L->rank_start[L->rank[p] + 1]++;
	for (int r = 0; r < L->nranks; r++)
		L->rank_start[r + 1] += L->rank_start[r];
	L->byrank = xmalloc((L->npts + 1) * sizeof *L->byrank);
	L->pos = xmalloc((L->npts + 1) * sizeof *L->pos);
	for (size_t root = 0; root < L->npts; root++) {
		if (seen[root])
			continue;
		size_t sp = 0;
		stack[sp++] = root;
		seen[root] = true;
		while (sp) {
			size_t u = stack[--sp];
			size_t r = (size_t)L->rank[u];

			L->pos[u] = L->rank_start[r] + fill[r]++;
			L->byrank[L->pos[u]] = u;
			/* Pushed in reverse so the first callee is visited first. */
			for (size_t i = L->dn_start[u + 1]; i-- > L->dn_start[u];)
				if (!seen[L->dn[i]]) {
					seen[L->dn[i]] = true;
					stack[sp++] = L->dn[i];
				}
		}
	}
	free(fill);
	free(stack);
	free(seen);
}

static int cmp_key(const void *pa, const void *pb, void *ctx)
{
	const double *key = ctx;
	double a = key[*(const size_t *)pa], b = key[*(const size_t *)pb];

	return (a > b) - (a < b);
}

/* Sorts row r by the mean position of each point's neighbours in `nb`;
   a point without any keeps its place. */
static void sort_row(struct layout *L, int r, const size_t *nb,
                     const size_t *nb_start)
{
	size_t lo = L->rank_start[r], hi = L->rank_start[r + 1];

	for (size_t i = lo; i < hi; i++) {
		size_t p = L->byrank[i];
		size_t a = nb_start[p], b = nb_start[p + 1];
		double sum = 0;

		for (size_t k = a; k < b; k++)
			sum += (double)L->pos[nb[k]];
		L->key[p] = a < b ? sum / (double)(b - a) : (double)L->pos[p];
	}
	stable_sort(L->byrank + lo, hi - lo, sizeof *L->byrank, cmp_key, L->key);
	for (size_t i = lo; i < hi; i++)
		L->pos[L->byrank[i]] = i;
}

/* Pairs of segments that cross between each row and the next. */
static size_t crossings(const struct layout *L)
{
	size_t n = 0, nseg = L->path_start[L->v->nedges];
	size_t *top = xmalloc((nseg + 1) * sizeof *top);
	size_t *bot = xmalloc((nseg + 1) * sizeof *bot);

	for (int r = 0; r + 1 < L->nranks; r++) {
		size_t m = 0;

		for (size_t i = L->rank_start[r]; i < L->rank_start[r + 1]; i++) {
			size_t a = L->byrank[i];
			for (size_t k = L->dn_start[a]; k < L->dn_start[a + 1]; k++) {
				top[m] = L->pos[a];
				bot[m++] = L->pos[L->dn[k]];
			}
		}
		for (size_t i = 0; i < m; i++)
			for (size_t k = i + 1; k < m; k++)
				if (top[i] != top[k] && bot[i] != bot[k] &&
				    (top[i] < top[k]) != (bot[i] < bot[k]))
					n++;
	}
	free(top);
	free(bot);
	return n;
}

static void order_rows(struct layout *L)
{
	size_t nseg = L->path_start[L->v->nedges];
	bool count = nseg <= MAX_CROSS_SEGS;
	size_t best = count ? crossings(L) : 0;
	size_t *keep = xmalloc((L->npts + 1) * sizeof *keep);

	memcpy(keep, L->byrank, L->npts * sizeof *keep);
	for (int it = 0; it < SWEEPS && (!count || best > 0); it++) {
		for (int r = 1; r < L->nranks; r++)
			sort_row(L, r, L->up, L->up_start);
		for (int r = L->nranks - 2; r >= 0; r--)
			sort_row(L, r, L->dn, L->dn_start);
		if (!count)
			continue;
		size_t c = crossings(L);
		if (c < best) {
			best = c;
			memcpy(keep, L->byrank, L->npts * sizeof *keep);
		}
	}
	if (count) {
		memcpy(L->byrank, keep, L->npts * sizeof *keep);
		for (size_t i = 0; i < L->npts; i++)
			L->pos[L->byrank[i]] = i;
	}
	free(keep);
}

/* ---- 5. x positions ---- */

static double gap_between(const struct layout *L, size_t a, size_t b)
{
	double g = a < L->n && b < L->n ? GAP : DUMMY_GAP;

	return (L->w[a] + L->pad[a] + L->w[b]) / 2 + g;
}

/* Places row r's points as near as they can be to L->key (their wanted
   centres), in order and without overlap: the least-squares fit is a
   monotone regression of key minus the offsets, solved by pooling
   adjacent violators. */
static void place_row(struct layout *L, int r)
{
	size_t lo = L->rank_start[r], hi = L->rank_start[r + 1], n = hi - lo;
	double *off = xmalloc((n + 1) * sizeof *off);
	double *sum = xmalloc((n + 1) * sizeof *sum);
	size_t *cnt = xmalloc((n + 1) * sizeof *cnt), nb = 0;

	for (size_t i = 0; i < n; i++) {
		size_t p = L->byrank[lo + i];
		off[i] = i ? off[i - 1] + gap_between(L, L->byrank[lo + i - 1], p)
		           : 0;
		sum[nb] = L->key[p] - off[i];
		cnt[nb++] = 1;
		while (nb > 1 && sum[nb - 2] / (double)cnt[nb - 2] >
		                 sum[nb - 1] / (double)cnt[nb - 1]) {
			sum[nb - 2] += sum[nb - 1];
			cnt[nb - 2] += cnt[nb - 1];
			nb--;
		}
	}
	for (size_t b = 0, i = 0; b < nb; b++)
		for (size_t k = 0; k < cnt[b]; k++, i++)
			L->x[L->byrank[lo + i]] = sum[b] / (double)cnt[b] + off[i];
	free(off);
	free(sum);
	free(cnt);
}

/* The wanted centre of each point of row r: its neighbours' mean x. */
static void want_row(struct layout *L, int r, bool use_up, bool use_dn)
{
	for (size_t i = L->rank_start[r]; i < L->rank_start[r + 1]; i++) {
		size_t p = L->byrank[i], n = 0;
		double s = 0;

		for (size_t k = L->up_start[p]; use_up && k < L->up_start[p + 1];
		     k++, n++)
			s += L->x[L->up[k]];
		for (size_t k = L->dn_start[p]; use_dn && k < L->dn_start[p + 1];
		     k++, n++)
			s += L->x[L->dn[k]];
		L->key[p] = n ? s / (double)n : L->x[p];
	}
}

static void place_all(struct layout *L)
{
	for (int r = 0; r < L->nranks; r++) {
		want_row(L, r, false, false);
		for (size_t i = L->rank_start[r]; i < L->rank_start[r + 1]; i++)
			L->key[L->byrank[i]] = 0;
		place_row(L, r);
	}
	for (int it = 0; it < SWEEPS; it++) {
		for (int r = 1; r < L->nranks; r++) {
			want_row(L, r, true, it == SWEEPS - 1);
			place_row(L, r);
		}
		for (int r = L->nranks - 2; r >= 0; r--) {
			want_row(L, r, it == SWEEPS - 1, true);
			place_row(L, r);
		}
	}
}

static void layout_free(struct layout *L)
{
	free(L->rank);
	free(L->x);
	free(L->w);
	free(L->pad);
	free(L->byrank);
	free(L->rank_start);
	free(L->pos);
	free(L->up);
	free(L->up_start);
	free(L->dn);
	free(L->dn_start);
	free(L->path);
	free(L->path_start);
	free(L->reversed);
	free(L->key);
}

/* Lays out the graph L->v; false when it has too many points. */
static bool lay_out(struct layout *L, struct report *r)
{
	L->n = L->v->nnodes;
	L->reversed = xcalloc(L->v->nedges + 1, sizeof *L->reversed);
	break_cycles(L);
	assign_ranks(L);
	measure(L, r);
	stack_isolated(L);
	if (!make_points(L))
		return false;
	build_neighbours(L);
	initial_order(L);
	L->key = xcalloc(L->npts + 1, sizeof *L->key);
	L->x = xcalloc(L->npts + 1, sizeof *L->x);
	order_rows(L);
	place_all(L);
	return true;
}

/* The view's first k functions and the calls among them.  The view
   lists functions by time, as the call graph does, so these are the k
   with the most. */
static void first_nodes(const struct graph_view *v, size_t k,
                        struct graph_view *sub)
{
	*sub = *v;
	sub->nnodes = k;
	sub->edges = xmalloc((v->nedges + 1) * sizeof *sub->edges);
	sub->nedges = 0;
	for (size_t e = 0; e < v->nedges; e++)
		if (v->edges[e].from < k && v->edges[e].to < k)
			sub->edges[sub->nedges++] = v->edges[e];
}

/* Does the picture of the first k functions fit SVG_MAX_W?  If it does
   and `draw`, it is written. */
static bool try_first(const struct gprof *g, struct report *r, size_t k,
                      bool draw)
{
	struct graph_view sub;
	struct layout L = { .g = g, .v = &sub };

	first_nodes(g->view, k, &sub);
	bool fits = lay_out(&L, r) && svg_width(&L) <= SVG_MAX_W;
	if (fits && draw)
		print_svg(&L, r);
	layout_free(&L);
	free(sub.edges);
	return fits;
}

/* The most functions that fit: the width grows with them (not strictly,
   but nearly), so a binary search finds the count in a few layouts. */
size_t svg_graph_print(const struct gprof *g, struct report *r)
{
	const struct graph_view *v = g->view;
	size_t lo = 0, hi;

	if (!v || v->nnodes == 0)
		return 0;
	hi = v->nnodes < SVG_MAX_NODES ? v->nnodes : SVG_MAX_NODES;
	if (try_first(g, r, hi, true))
		return hi;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (try_first(g, r, mid, false))
			lo = mid;
		else
			hi = mid;
	}
	if (lo == 0 || !try_first(g, r, lo, true))
		return 0;
	return lo;
}
