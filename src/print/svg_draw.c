/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg_draw.c - writes the call graph svg_graph.c laid out as an inline
 * <svg>: heat colours, boxes linked to the call-graph entries, and each
 * call as a smooth path through its bend points (svg_layout.h).
 */
#include <math.h>
#include <stdlib.h>

#include "print/print.h"
#include "markup.h"
#include "svg_layout.h"

#define BOX_H 50.0               /* three lines of text */
#define ROW_GAP 44.0             /* between rows of boxes */
#define BACK_SHIFT 10.0          /* a back edge beside its partner */
#define MARGIN 16.0

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

size_t node_figures(const struct gv_node *n, int line, char *buf,
                    size_t size)
{
	size_t len;

	if (line == 2) {
		len = (size_t)snprintf(buf, size, "%.1f%% total, %.1f%% self",
		                       n->total_pct, n->self_pct);
		return len < size ? len : size - 1;
	}
	len = (size_t)snprintf(buf, size, "%.2f s", n->self_sec);
	if (len < size && n->calls + n->self_calls) {
		len += (size_t)snprintf(buf + len, size - len, ", %llu",
		                        (unsigned long long)n->calls);
		if (len < size && n->self_calls)
			len += (size_t)snprintf(buf + len, size - len, "+%llu",
			                        (unsigned long long)n->self_calls);
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, " calls");
	}
	if (len < size && n->cluster)
		len += (size_t)snprintf(buf + len, size - len, ", cycle %d",
		                        n->sym->cycle_num);
	return len < size ? len : size - 1;
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
	fprintf(out, " [%d] in ", n->sym->index);    /* and its object */
	markup_html(out, sym_object_path(L->g, n->sym), MARKUP_WHOLE);
	fputs("</title>", out);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	        "rx=\"6\" fill=\"%s\" stroke=\"%s\"%s/>", x, y, L->w[i], BOX_H,
	        fill, line, n->cluster ? " stroke-dasharray=\"4,2\"" : "");
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", L->x[i], y + 15);
	markup_html(out, name, NAME_CHARS);
	fprintf(out, " [%d]</text>", n->sym->index);
	char text[128];
	node_figures(n, 2, text, sizeof text);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", L->x[i], y + 30,
	        text);
	node_figures(n, 3, text, sizeof text);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text></g></a>\n",
	        L->x[i], y + 44, text);
}

/* The leftmost and rightmost x the boxes (and loops) reach. */
static void x_extent(const struct layout *L, double *minx, double *maxx)
{
	*minx = *maxx = 0;
	for (size_t p = 0; p < L->npts; p++) {
		double a = L->x[p] - L->w[p] / 2, b = L->x[p] + L->w[p] / 2 +
		                                        L->pad[p];
		if (p == 0 || a < *minx)
			*minx = a;
		if (p == 0 || b > *maxx)
			*maxx = b;
	}
}

double svg_width(const struct layout *L)
{
	double minx, maxx;

	x_extent(L, &minx, &maxx);
	return maxx - minx + 2 * MARGIN;
}

void print_svg(const struct layout *L, struct report *r)
{
	FILE *out = r->out;
	double minx, maxx;

	x_extent(L, &minx, &maxx);
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
