/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_scan.h - the -c static call-graph scanner as cg_arcs.c drives it:
 * open once, scan each symbol's text in table order, close.
 */
#ifndef CG_SCAN_H
#define CG_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* For the diagnosis (diagnose.c), which may use the decoders only
   through this file: whether a call instruction ends at each of
   pcs[0..n) (a return address), and what it calls (kind: 0 direct, to
   the address called; 1 through a memory slot, to the slot; 2 through a
   register).  False, with out[] untouched, when the architecture has no
   reader or .text cannot be read. */
struct call_end {
	bool found;
	unsigned char kind;
	uint64_t to;
};
bool cg_scan_call_ends(struct gprof *g, const uint64_t *pcs, size_t n,
                       struct call_end *out);

#endif
