/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg_graph.h - the call-graph picture of the HTML report, laid out here
 * without Graphviz (svg_graph.c).
 */
#ifndef SVG_GRAPH_H
#define SVG_GRAPH_H

#include "print/report.h"

/* Beyond these the picture is left out (a layout that large is
   unreadable anyway): raise --node-threshold instead. */
#define SVG_MAX_NODES 600
#define SVG_MAX_POINTS 20000

/* Writes an inline <svg> element drawing g->view, each box a link to
   "#cg-INDEX" (the call-graph entry's id in the HTML report).  Returns
   false, writing nothing, when the graph is over the limits above. */
bool svg_graph_print(const struct gprof *g, struct report *r);

#endif
