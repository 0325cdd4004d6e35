/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * dot_print.c - the --output-format=dot document: the call graph that
 * graph_view.c chose, for Graphviz.  A box per function, an arrow per
 * call, a dashed cluster per cycle; colour and line width by share of
 * the total time.  Label layout (doc/formats.md, "dot"):
 *   function:  NAME [INDEX] / T% total / S% self, SECS s / CALLS calls
 *              [/ [LIBRARY] for a shared library's function]
 *   call:      COUNT calls / SECS s   (only COUNT calls within a cycle)
 * Every number is the text call graph's, printed as it prints it.
 */
#include <inttypes.h>
#include <string.h>

#include "print/print.h"
#include "markup.h"

/* Longer names are cut in labels (the tooltip has the whole name). */
#define LABEL_CHARS 48

static void print_color(FILE *out, const char *attr, double pct, bool fill)
{
	double h, s, v;

	graph_view_heat(pct, fill, &h, &s, &v);
	fprintf(out, "%s=\"%.3f %.3f %.3f\"", attr, h, s, v);
}

/* "call" or, when no call was counted (a program not built with -pg),
   "sample": the arcs' counts are then the call stacks' samples. */
static const char *count_word(const struct gprof *g, uint64_t n)
{
	if (g->arcs_from_stacks)
		return n == 1 ? " stack sample" : " stack samples";
	return n == 1 ? " call" : " calls";
}

static void print_calls(const struct gprof *g, FILE *out, uint64_t calls,
                        uint64_t self_calls)
{
	if (calls + self_calls == 0)
		return;
	fprintf(out, "\\n%" PRIu64, calls);
	if (self_calls)
		fprintf(out, "+%" PRIu64, self_calls);
	fputs(count_word(g, calls + self_calls), out);
}

/* A shared library's function says which in a last label line, the
   library's file name (the tooltip has its path, and every function's
   object: the executable's functions are the rest). */
static void print_object_line(const struct gprof *g, FILE *out,
                              const struct sym *s)
{
	if (!sym_in_shlib(g, s))
		return;
	const char *path = sym_object_path(g, s);
	const char *slash = strrchr(path, '/');
	fputs("\\n[", out);
	markup_dot(out, slash ? slash + 1 : path, LABEL_CHARS);
	fputc(']', out);
}

static void print_node(const struct gprof *g, struct report *r,
                       const struct gv_node *n, const char *indent)
{
	FILE *out = r->out;
	const char *name = display_name(g, r, n->sym);

	fprintf(out, "%sn%d [label=\"", indent, n->sym->index);
	markup_dot(out, name, LABEL_CHARS);
	fprintf(out, " [%d]\\n%.1f%% total\\n%.1f%% self, %.2f s", n->sym->index,
	        n->total_pct, n->self_pct, n->self_sec);
	print_calls(g, out, n->calls, n->self_calls);
	print_object_line(g, out, n->sym);
	fputs("\", tooltip=\"", out);
	markup_dot(out, name, MARKUP_WHOLE);
	fprintf(out, "\\nself %.2f s, children %.2f s\\nin ", n->self_sec,
	        n->child_sec);
	markup_dot(out, sym_object_path(g, n->sym), MARKUP_WHOLE);
	fputs("\", ", out);
	print_color(out, "fillcolor", n->total_pct, true);
	fputs("];\n", out);
}

static void print_cluster(const struct gprof *g, struct report *r,
                          size_t k)
{
	const struct graph_view *v = g->view;
	const struct gv_cluster *c = &v->clusters[k];
	FILE *out = r->out;

	fprintf(out, "\tsubgraph cluster_cycle%d {\n", c->cyc->cycle_num);
	/* The whole cycle's figures, when the text graph shows them. */
	if (c->shown) {
		fprintf(out, "\t\tlabel=\"<cycle %d as a whole> [%d]\\n%.1f%% "
		        "total, %.2f s self", c->cyc->cycle_num, c->cyc->index,
		        c->total_pct, c->self_sec);
		print_calls(g, out, c->calls, c->self_calls);
	} else {
		fprintf(out, "\t\tlabel=\"<cycle %d>", c->cyc->cycle_num);
	}
	fputs("\";\n\t\tstyle=\"dashed,rounded\"; ", out);
	print_color(out, "color", c->total_pct, false);
	fputs(";\n", out);
	for (size_t i = 0; i < v->nnodes; i++)
		if (v->nodes[i].cluster == k + 1)
			print_node(g, r, &v->nodes[i], "\t\t");
	fputs("\t}\n", out);
}

static void print_edge(const struct gprof *g, struct report *r,
                       const struct gv_edge *e)
{
	const struct graph_view *v = g->view;
	const struct sym *p = v->nodes[e->from].sym, *c = v->nodes[e->to].sym;
	FILE *out = r->out;

	fprintf(out, "\tn%d -> n%d [label=\"%" PRIu64 "%s", p->index,
	        c->index, e->count, count_word(g, e->count));
	if (!e->count_only)
		fprintf(out, "\\n%.2f s", e->sec);
	fputs("\", tooltip=\"", out);
	markup_dot(out, display_name(g, r, p), MARKUP_WHOLE);
	fputs(" -> ", out);
	markup_dot(out, display_name(g, r, c), MARKUP_WHOLE);
	if (e->count_only)
		fputs("\\nwithin a cycle or recursive: no time", out);
	else
		fprintf(out, "\\nself %.2f s, children %.2f s", e->self_sec,
		        e->child_sec);
	fputs("\", ", out);
	print_color(out, "color", e->pct, false);
	fprintf(out, ", penwidth=%.2f", graph_view_width(e->pct));
	if (e->count_only)
		fputs(", style=dashed", out);
	fputs("];\n", out);
}

/* Every sample recorded (totals.c), the 100% of every format, and what
   of it no box shows: the profiling hook's, and no function's. */
static void print_totals(const struct gprof *g, FILE *out)
{
	const struct run_totals *t = &g->totals;

	if (!g->input_hist || !(g->hz > 0))
		return;
	fprintf(out, "\\n%.2f s sampled: ", t->all / g->hz);
	if (t->hook_measured)
		fprintf(out, "%.2f s (%.1f%%) in the profiling hook (the run "
		        "about %.2f times as slow)", t->hook / g->hz,
		        100 * t->hook_share, t->slowdown);
	else
		fputs("the profiling hook not measured", out);
	fprintf(out, ", %.2f s in no function", t->outside / g->hz);
	if (t->excluded > 0)
		fprintf(out, ", %.2f s in functions left out",
		        t->excluded / g->hz);
}

/* The caption: program, total time, what the thresholds hid. */
static void print_caption(const struct gprof *g, FILE *out)
{
	const struct graph_view *v = g->view;

	fputs("\tlabel=\"", out);
	markup_dot(out, g->opt.image ? g->opt.image : "a.out", MARKUP_WHOLE);
	fprintf(out, ": call graph, %.2f s in all", g->print_time / g->hz);
	if (g->arcs_from_stacks)
		fputs(", times and counts from sampled call stacks (no call "
		      "counted: not built with -pg)", out);
	else if (g->stack_times)
		fputs(", times from sampled call stacks", out);
	print_totals(g, out);
	if (!g->input_arcs || !cg_graph_printed(g))
		fputs("\\nno call graph in this profile", out);
	else if (v->pruned)
		fprintf(out, "\\nnot drawn: %zu function%s under %g%% "
		        "(--node-threshold), %zu call%s under %g%% "
		        "(--edge-threshold)", v->hidden_nodes,
		        v->hidden_nodes == 1 ? "" : "s", g->opt.node_thres,
		        v->hidden_edges, v->hidden_edges == 1 ? "" : "s",
		        g->opt.edge_thres);
	fputs("\";\n", out);
}

void dot_print(const struct gprof *g, struct report *r)
{
	const struct graph_view *v = g->view;
	FILE *out = r->out;

	fputs("digraph gprof {\n", out);
	print_caption(g, out);
	fputs("\tlabelloc=t; fontname=\"Helvetica\"; fontsize=12;\n"
	      "\tranksep=0.4; nodesep=0.3;\n"
	      "\tnode [shape=box, style=\"rounded,filled\", "
	      "fontname=\"Helvetica\", fontsize=10];\n"
	      "\tedge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7];\n",
	      out);
	if (!v) {
		fputs("}\n", out);
		return;
	}
	for (size_t k = 0; k < v->nclusters; k++)
		print_cluster(g, r, k);
	for (size_t i = 0; i < v->nnodes; i++)
		if (!v->nodes[i].cluster)
			print_node(g, r, &v->nodes[i], "\t");
	for (size_t i = 0; i < v->nedges; i++)
		print_edge(g, r, &v->edges[i]);
	fputs("}\n", out);
}
