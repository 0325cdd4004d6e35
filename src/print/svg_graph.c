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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"
#include "markup.h"
#include "svg_graph.h"

#define BOX_H 50.0               /* three lines of text */
#define ROW_GAP 44.0             /* between rows of boxes */
#define GAP 22.0                 /* between boxes in a row */
#define DUMMY_GAP 16.0           /* around a bend point */
#define BACK_SHIFT 10.0          /* a back edge beside its partner */
#define CHAR_W 7.3               /* 12px monospace advance, a bit over */
#define MARGIN 16.0
#define LOOP_W 22.0              /* room for a recursive call's loop */
#define MIN_ROW_W 1200.0         /* rows of unlinked boxes, at least */
#define NAME_CHARS 40            /* longer names are cut in boxes */
#define SWEEPS 8
#define MAX_CROSS_SEGS 4000      /* count crossings below this only */

struct layout {
	const struct gprof *g;
	const struct graph_view *v;
	size_t n;                    /* real points: the view's nodes */
	size_t npts;                 /* real points, then bend points */
	int *rank;
	int nranks;
	double *x, *w, *pad;         /* centre, box width, loop room */
	size_t *byrank, *rank_start; /* points grouped by rank, in order */
	size_t *pos;                 /* index of a point in byrank */
	size_t *up, *up_start;       /* neighbours a rank above (CSR) */
	size_t *dn, *dn_start;       /* neighbours a rank below */
	size_t *path, *path_start;   /* each edge's points, top down */
	bool *reversed;              /* edge drawn against its path */
	double *key;                 /* scratch: sort keys by point */
};

/* ---- 1. back edges ---- */

static bool self_loop(const struct gv_edge *e)
{
	return e->from == e->to;
}

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
		char idx[64];
		size_t chars = markup_width(display_name(L->g, r, n->sym),
		                            NAME_CHARS);

		chars += (size_t)snprintf(idx, sizeof idx, " [%d]", n->sym->index);
		if (chars < 34)
			chars = 34;      /* the figures' lines */
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

/* ---- drawing ---- */

static double row_top(int r)
{
	return MARGIN + r * (BOX_H + ROW_GAP);
}

static void heat_rgb(double pct, bool fill, char buf[8])
{
	double h, s, v;

	graph_view_heat(pct, fill, &h, &s, &v);
	double f = h * 6 - floor(h * 6), rgb[3];
	double p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s);
	switch ((int)floor(h * 6) % 6) {
	case 0: rgb[0] = v; rgb[1] = t; rgb[2] = p; break;
	case 1: rgb[0] = q; rgb[1] = v; rgb[2] = p; break;
	case 2: rgb[0] = p; rgb[1] = v; rgb[2] = t; break;
	case 3: rgb[0] = p; rgb[1] = q; rgb[2] = v; break;
	case 4: rgb[0] = t; rgb[1] = p; rgb[2] = v; break;
	default: rgb[0] = v; rgb[1] = p; rgb[2] = q; break;
	}
	snprintf(buf, 8, "#%02x%02x%02x", (unsigned)lround(rgb[0] * 255),
	         (unsigned)lround(rgb[1] * 255), (unsigned)lround(rgb[2] * 255));
}

/* Where a call leaves or enters box p on its way to or from x `to`:
   fanned out along the box's edge. */
static double port(const struct layout *L, size_t p, double to)
{
	double half = p < L->n ? L->w[p] / 2 - 8 : 0, d = 0.3 * (to - L->x[p]);

	if (half < 0)
		half = 0;
	return L->x[p] + (d > half ? half : d < -half ? -half : d);
}

/* The points a path goes through, top down: out of the bottom of its
   first box, down each bend point's row on a vertical (so that it does
   not cut through the boxes beside it), into the top of its last box.
   Returns how many (at most 2 * n) are in px, py. */
static size_t path_points(const struct layout *L, const size_t *pp, size_t n,
                          double *px, double *py)
{
	size_t m = 0;

	px[m] = port(L, pp[0], L->x[pp[1]]);
	py[m++] = row_top(L->rank[pp[0]]) + BOX_H;
	for (size_t i = 1; i + 1 < n; i++) {
		double top = row_top(L->rank[pp[i]]);

		px[m] = L->x[pp[i]];
		py[m++] = top;
		px[m] = L->x[pp[i]];
		py[m++] = top + BOX_H;
	}
	px[m] = port(L, pp[n - 1], L->x[pp[n - 2]]);
	py[m++] = row_top(L->rank[pp[n - 1]]);
	return m;
}

static void print_edge_title(const struct layout *L, struct report *r,
                             const struct gv_edge *e)
{
	FILE *out = r->out;

	fputs("<title>", out);
	markup_html(out, display_name(L->g, r, L->v->nodes[e->from].sym),
	            MARKUP_WHOLE);
	fputs(" \xe2\x86\x92 ", out);
	markup_html(out, display_name(L->g, r, L->v->nodes[e->to].sym),
	            MARKUP_WHOLE);
	fprintf(out, ": %llu call%s", (unsigned long long)e->count,
	        e->count == 1 ? "" : "s");
	if (!e->count_only)
		fprintf(out, ", %.2f s", e->sec);
	fputs("</title>", out);
}

/* A smooth line through the path's points: straight to the middle of
   the first segment, a quadratic bend at each point between, straight
   from the middle of the last segment to its end. */
static void print_path(const struct layout *L, FILE *out, size_t e)
{
	size_t a = L->path_start[e], n = L->path_start[e + 1] - a;
	double *px = xmalloc(2 * n * sizeof *px), *py = xmalloc(2 * n * sizeof *py);
	size_t m = path_points(L, L->path + a, n, px, py);

	for (size_t k = 0; k < m; k++) {
		/* A call back up a cycle often pairs with one down the same
		   way: keep the two lines apart. */
		if (L->reversed[e])
			px[k] += BACK_SHIFT;
	}
	if (L->reversed[e])
		for (size_t i = 0, j = m - 1; i < j; i++, j--) {
			double t = px[i];
			px[i] = px[j];
			px[j] = t;
			t = py[i];
			py[i] = py[j];
			py[j] = t;
		}
	fprintf(out, "M%.1f,%.1f", px[0], py[0]);
	if (m > 2)
		fprintf(out, " L%.1f,%.1f", (px[0] + px[1]) / 2,
		        (py[0] + py[1]) / 2);
	for (size_t k = 1; k + 1 < m; k++)
		fprintf(out, " Q%.1f,%.1f %.1f,%.1f", px[k], py[k],
		        (px[k] + px[k + 1]) / 2, (py[k] + py[k + 1]) / 2);
	fprintf(out, " L%.1f,%.1f", px[m - 1], py[m - 1]);
	free(px);
	free(py);
}

static void print_loop(const struct layout *L, FILE *out, size_t p)
{
	double x = L->x[p] + L->w[p] / 2, y = row_top(L->rank[p]);

	fprintf(out, "M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x,
	        y + BOX_H * 0.3, x + LOOP_W, y + BOX_H * 0.05, x + LOOP_W,
	        y + BOX_H * 0.95, x + 1, y + BOX_H * 0.7);
}

static void print_edges(const struct layout *L, struct report *r)
{
	FILE *out = r->out;

	for (size_t e = 0; e < L->v->nedges; e++) {
		const struct gv_edge *x = &L->v->edges[e];
		char col[8];

		heat_rgb(x->pct, false, col);
		fprintf(out, "<g class=\"edge\">");
		print_edge_title(L, r, x);
		fputs("<path d=\"", out);
		if (self_loop(x))
			print_loop(L, out, x->from);
		else
			print_path(L, out, e);
		fprintf(out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.2f\""
		        " marker-end=\"url(#cg-arrow)\"%s/></g>\n",
		        col, graph_view_width(x->pct),
		        x->count_only ? " stroke-dasharray=\"5,3\"" : "");
	}
}

static void print_node(const struct layout *L, struct report *r, size_t i)
{
	const struct gv_node *n = &L->v->nodes[i];
	const char *name = display_name(L->g, r, n->sym);
	double x = L->x[i] - L->w[i] / 2, y = row_top(L->rank[i]);
	FILE *out = r->out;
	char fill[8], line[8];

	heat_rgb(n->total_pct, true, fill);
	heat_rgb(n->total_pct, false, line);
	fprintf(out, "<a href=\"#cg-%d\"><g class=\"node\"><title>",
	        n->sym->index);
	markup_html(out, name, MARKUP_WHOLE);
	fprintf(out, " [%d]</title>", n->sym->index);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	        "rx=\"6\" fill=\"%s\" stroke=\"%s\"%s/>", x, y, L->w[i], BOX_H,
	        fill, line, n->cluster ? " stroke-dasharray=\"4,2\"" : "");
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", L->x[i], y + 15);
	markup_html(out, name, NAME_CHARS);
	fprintf(out, " [%d]</text>", n->sym->index);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%.1f%% total, %.1f%% self"
	        "</text>", L->x[i], y + 30, n->total_pct, n->self_pct);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%.2f s", L->x[i], y + 44,
	        n->self_sec);
	if (n->calls + n->self_calls) {
		fprintf(out, ", %llu", (unsigned long long)n->calls);
		if (n->self_calls)
			fprintf(out, "+%llu", (unsigned long long)n->self_calls);
		fputs(" calls", out);
	}
	if (n->cluster)
		fprintf(out, ", cycle %d", n->sym->cycle_num);
	fputs("</text></g></a>\n", out);
}

static void print_svg(const struct layout *L, struct report *r)
{
	FILE *out = r->out;
	double minx = 0, maxx = 0;

	for (size_t p = 0; p < L->npts; p++) {
		double a = L->x[p] - L->w[p] / 2, b = L->x[p] + L->w[p] / 2 +
		                                        L->pad[p];
		if (p == 0 || a < minx)
			minx = a;
		if (p == 0 || b > maxx)
			maxx = b;
	}
	for (size_t p = 0; p < L->npts; p++)
		L->x[p] += MARGIN - minx;
	double width = maxx - minx + 2 * MARGIN;
	double height = row_top(L->nranks) - ROW_GAP + MARGIN;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cg\" "
	        "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "role=\"img\" aria-label=\"call graph\">\n", width, height,
	        width, height);
	fputs("<defs><marker id=\"cg-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" "
	      "refY=\"5\" markerWidth=\"9\" markerHeight=\"9\" "
	      "markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path "
	      "d=\"M0,0L10,5L0,10z\" fill=\"#444\"/></marker></defs>\n", out);
	print_edges(L, r);
	for (size_t i = 0; i < L->n; i++)
		print_node(L, r, i);
	fputs("</svg>\n", out);
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

bool svg_graph_print(const struct gprof *g, struct report *r)
{
	struct layout L = { .g = g, .v = g->view };
	bool ok = false;

	if (!L.v || L.v->nnodes == 0 || L.v->nnodes > SVG_MAX_NODES)
		return false;
	L.n = L.v->nnodes;
	L.reversed = xcalloc(L.v->nedges + 1, sizeof *L.reversed);
	break_cycles(&L);
	assign_ranks(&L);
	measure(&L, r);
	stack_isolated(&L);
	if (make_points(&L)) {
		build_neighbours(&L);
		initial_order(&L);
		L.key = xcalloc(L.npts + 1, sizeof *L.key);
		L.x = xcalloc(L.npts + 1, sizeof *L.x);
		order_rows(&L);
		place_all(&L);
		print_svg(&L, r);
		ok = true;
	}
	layout_free(&L);
	return ok;
}
