/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * svg_layout.h - the laid-out call graph that svg_graph.c computes and
 * svg_draw.c draws: internal to the two (the way in is svg_graph.h).
 */
#ifndef SVG_LAYOUT_H
#define SVG_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "print/report.h"

#define LOOP_W 22.0              /* room for a recursive call's loop */
#define NAME_CHARS 40            /* longer names are cut in boxes */

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

/* Whether the call is a function calling itself (drawn as a loop).
   Inline here, as both halves use it: svg_graph.c calls into
   svg_draw.c, never the other way. */
static inline bool self_loop(const struct gv_edge *e)
{
	return e->from == e->to;
}

/* Writes the <svg> element of a laid-out graph (svg_draw.c). */
void print_svg(const struct layout *L, struct report *r);

/* The width of the <svg> element print_svg() writes (svg_draw.c). */
double svg_width(const struct layout *L);

/* Line 2 or 3 of a function's box, the figures, into buf (svg_draw.c):
   its length in characters. */
size_t node_figures(const struct gv_node *n, int line, char *buf,
                    size_t size);

#endif
