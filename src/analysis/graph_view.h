/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * graph_view.h - the call graph as the pictures show it (graph_view.c):
 * which functions and calls are drawn, after the symspecs and the
 * --node-threshold/--edge-threshold pruning, with every figure their
 * labels print.  Built by gprof_analyse() for --output-format=dot and
 * html; dot_print.c, svg_graph.c and html_print.c only print it.
 */
#ifndef ANALYSIS_GRAPH_VIEW_H
#define ANALYSIS_GRAPH_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* The HTML page keeps what a person reads: the flat profile's first
   PAGE_FLAT_ROWS rows, the call graph's first PAGE_ENTRIES entries and
   in each at most PAGE_ARCS callers and PAGE_ARCS callees (a cycle's
   entry PAGE_MEMBERS members), the ones with the most time; it says what
   it left out.  Every row of a program of
   100,000 functions and a million calls made a page of 340 MB, more
   than a browser opens; with these cuts a page stays under 6 MB. */
#define PAGE_FLAT_ROWS 2000
#define PAGE_ENTRIES 1000
#define PAGE_ARCS 20
#define PAGE_MEMBERS 100

/* A function drawn: its call-graph entry's figures. */
struct gv_node {
	const struct sym *sym;
	double total_pct;            /* (self + children) share of the total
	                                propagated time, as % time in the
	                                text call graph */
	double self_pct;             /* self share of that total */
	double self_sec, child_sec;  /* the entry's self and children */
	uint64_t calls, self_calls;  /* the entry's "called" column */
	size_t cluster;              /* 1 + index into clusters, 0: none */
};

/* A call drawn: one arc of the graph. */
struct gv_edge {
	size_t from, to;             /* indices into nodes */
	const struct arc *arc;
	uint64_t count;
	bool count_only;             /* recursive, or within a cycle: the
	                                text graph prints only the count */
	double self_sec, child_sec;  /* the arc's self and children */
	double sec;                  /* their sum: the time propagated */
	double pct;                  /* sec's share of the total */
};

/* A cycle with at least one member drawn: its "as a whole" entry. */
struct gv_cluster {
	const struct sym *cyc;       /* in g->cycles */
	bool shown;                  /* the text graph shows its entry (when
	                                not, the figures are not printed) */
	double total_pct, self_sec, child_sec;
	uint64_t calls, self_calls;
};

struct graph_view {
	struct gv_node *nodes;       /* in call-graph entry order */
	size_t nnodes;
	struct gv_edge *edges;       /* by caller, in node order */
	size_t nedges;
	struct gv_cluster *clusters; /* by cycle number */
	size_t nclusters;
	size_t *node_of;             /* by index in g->syms: 1 + node, or 0 */
	bool pruned;                 /* thresholds applied (some time) */
	size_t hidden_nodes;         /* entries under --node-threshold */
	size_t hidden_edges;         /* arcs between drawn nodes under
	                                --edge-threshold */
	/* The flat profile's running total of self seconds, by row (the
	   "cumulative seconds" column), for the HTML table. */
	double *flat_cum;
	/* What the HTML page keeps (PAGE_*) and what it leaves out. */
	size_t page_flat_rows;       /* the flat profile's first rows */
	double page_flat_left_sec;   /* self seconds of the rows after them */
	size_t page_entries;         /* the first shown call-graph entries */
	size_t page_entries_left;    /* shown entries after them */
	int page_last_index;         /* index of the last entry on the page
	                                (0: none) */
	double page_left_max_pct;    /* highest % time of those left out */
};

/* Fills g->view (allocating it).  Runs after cg_order() and
   flat_profile_build(). */
void graph_view_build(struct gprof *g);
void graph_view_free(struct gprof *g);

/* Colour of a share of the total time, pct from 0 to 100: hue, saturation
   and value from 0 to 1, cool blue for little to red for all of it.
   `fill` asks for the light tone of a box, otherwise the darker one of a
   line. */
void graph_view_heat(double pct, bool fill, double *h, double *s, double *v);

/* Line width for an edge of that share: 1 to 6. */
double graph_view_width(double pct);

#endif
