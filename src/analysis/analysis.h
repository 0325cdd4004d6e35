/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * analysis/analysis.h - the way into the analysis folder: what is
 * computed from the symbols and the data read, before anything prints:
 * samples to symbols (hist.c), the call graph (call_graph.c, arc_bulk.c,
 * cg_adj.c), cycles and propagation (cg_dfn.c, cg_arcs.c, with the -c
 * scan of cg_scan.c), report orders (cg_order.c, flat_profile.c,
 * source_lines.c), the side files' credits (shlib_credit.c), the stack
 * tree and --stacks times (stacks.c, stack_graph.c), the totals and the
 * hook's share (totals.c), the compiler clones' credit (clone_credit.c),
 * the pictures' view
 * (graph_view.h), the comparison (compare.h) and the diagnosis.
 * Uses the utilities, the model, the symbols and the reading folder;
 * the -c decoders through cg_scan.c only.
 */
#ifndef ANALYSIS_ANALYSIS_H
#define ANALYSIS_ANALYSIS_H

#include "analysis/compare.h"
#include "analysis/graph_view.h"
#include "model/model.h"
#include "reading/reading.h"
#include "symbols/symbols.h"
#include "util/util.h"

/* ---- hist.c ---- */
void hist_assign_samples(struct gprof *g);
long hist_granularity_bytes(const struct gprof *g);
double hist_bins_total(const struct gprof *g);

/* ---- shlib_credit.c: after the profiles are read, the side files'
   samples, arcs and stacks ---- */
void shlibs_apply(struct gprof *g);

/* ---- totals.c: what 100% is, and the hook's share (g->totals) ---- */
void totals_build(struct gprof *g);

/* ---- clone_credit.c: compiler clones' samples, calls and frames ---- */
void clones_set_sink(struct gprof *g);
bool clones_arc_ends(struct sym **parent, struct sym **child);
void clones_merge_stacks(struct gprof *g);
void clones_merge_time(struct gprof *g);
void clones_tally(struct gprof *g);

/* ---- flat_profile.c ---- */
void flat_profile_build(struct gprof *g);
bool sampling_error_wanted(const struct gprof *g);
void sampling_error_build(struct gprof *g);

/* ---- diagnose.c (print/diagnose_print.c prints it) ---- */
void diagnose_build(struct gprof *g);
const char *diagnose_name(enum diag_id id);
/* Every sample read: the histograms' bins, in functions or not, and the
   side files' (the samples check counts these). */
double diagnose_samples(const struct gprof *g);

/* ---- source_lines.c ---- */
void source_lines_build(struct gprof *g);

/* ---- call_graph.c ---- */
void cg_tally(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count);
void cg_tally_syms(struct gprof *g, struct sym *parent, struct sym *child,
                   uint64_t count);
struct arc *arc_lookup(struct gprof *g, struct sym *parent, struct sym *child);
struct arc *arc_add(struct gprof *g, struct sym *parent, struct sym *child,
                    uint64_t count);
/* The 0-count arcs GNU makes between the two sides of each FROM/TO
   symspec (see call_graph.c). */
void cg_add_spec_arcs(struct gprof *g);

void cg_free_arc_blocks(struct gprof *g);
bool cg_arc_wanted(struct gprof *g, struct sym **parent, struct sym **child);
void arc_adopt_block(struct gprof *g, struct arc *v, size_t n);
/* Drops g->callers (an arc changed, or nothing reads them any more). */
void arc_callers_drop(struct gprof *g);

/* ---- cg_adj.c ---- */
void cg_adj_build(const struct gprof *g, struct cg_adj *adj);
void cg_adj_arcs(const struct gprof *g, struct cg_adj *adj);
void cg_adj_free(struct cg_adj *adj);

/* ---- arc_bulk.c: a profile's arcs, built at once ---- */
/* The model's arc sink (g->arc_sink) while profiles are read. */
void arc_take(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count);
/* The arcs gmon_read() took become arcs here: gprof_load_inputs(),
   gprof_analyse() and gmon_write_sum()'s caller call it; other callers
   of gmon_read() call it before they look at the arcs. */
void arc_bulk_flush(struct gprof *g);

/* ---- cg_dfn.c ---- */
void cg_dfn_all(struct gprof *g, const struct cg_adj *adj);

/* ---- cg_arcs.c ---- */
void cg_propagate(struct gprof *g);
struct sym **cg_assemble(struct gprof *g, size_t *nentries);
struct sym **cg_entries_by_time(struct gprof *g, size_t *nentries);

/* ---- stack_graph.c: --stacks, call-graph times from the call stacks ---- */
void stack_graph_build(struct gprof *g);
/* A profile without counted calls (no -pg): its arcs from the stacks,
   counting samples (g->arcs_from_stacks). */
bool stack_arcs_wanted(const struct gprof *g);
void stack_arcs_build(struct gprof *g);

/* ---- stacks.c: the tree of call-stack prefixes ---- */
/* The label of the profiling hook's frames (a node's label: its sym is
   NULL). */
extern const char STACK_HOOK_LABEL[];
bool stacks_wanted(const struct gprof *g);
void stacks_build(struct gprof *g);

/* ---- cg_order.c ---- */
void cg_order(struct gprof *g);
bool cg_graph_printed(const struct gprof *g);
bool cg_entries_wanted(const struct gprof *g);
bool cg_entry_shown(const struct gprof *g, const struct sym *s);

#endif
