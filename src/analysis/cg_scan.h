/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_scan.h - the -c static call-graph scanner as cg_arcs.c drives it:
 * open once, scan each symbol's text in table order, close.
 */
#ifndef CG_SCAN_H
#define CG_SCAN_H

#include <stddef.h>

struct gprof;
struct cg_scan;

/* Loads .text and picks the decoder for the executable's architecture.
   Returns NULL, after GNU's messages, when -c cannot be done at all. */
struct cg_scan *cg_scan_open(struct gprof *g);

/* Adds an arc (count 0) for each call found in the text of symbol i of
   g->syms, up to the next symbol's start. */
void cg_scan_sym(struct cg_scan *scan, size_t i);

/* Frees the text; arcs made so far stay valid.  NULL is allowed. */
void cg_scan_close(struct cg_scan *scan);

#endif
