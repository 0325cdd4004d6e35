/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg_graph.h - the call-graph picture of the HTML report, laid out here
 * without Graphviz (svg_graph.c).
 */
#ifndef SVG_GRAPH_H
#define SVG_GRAPH_H

#include "print/report.h"

/* The picture is as wide as a screen shows at most: a page opened on
   a picture wider than the window showed a corner of it, a subtree,
   rather than main at the top. */
#define SVG_MAX_W 1280.0
/* Layouts beyond these are not tried (the width would be over anyway). */
#define SVG_MAX_NODES 600
#define SVG_MAX_POINTS 20000

/* Writes an inline <svg> element drawing the first functions of g->view
   (those with the most time) and the calls between them, as many as fit
   SVG_MAX_W, each box a link to "#cg-INDEX" (the call-graph entry's id
   in the HTML report).  Returns how many functions it drew: 0, writing
   nothing, when not even one fits. */
size_t svg_graph_print(const struct gprof *g, struct report *r);

#endif
