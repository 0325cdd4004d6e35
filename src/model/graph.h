/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * model/graph.h - the measured side of the model: call arcs, histograms, call
 * stacks and their tree, the flat profile's rows, the diagnosis and the
 * callee arrays.
 */
#ifndef MODEL_GRAPH_H
#define MODEL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/syms.h"

/* A call arc between two symbols.  Each arc sits on two lists: its parent's
   children and its child's parents. */
struct arc {
	struct sym *parent, *child;
	uint64_t count;
	double time;                 /* child's self time charged to parent */
	double child_time;           /* child's descendants' time likewise */
	struct arc *next_parent;     /* next arc in child->parents */
	struct arc *next_child;      /* next arc in parent->children */
	size_t id;                   /* creation number, 0..g->narcs-1 */
};

/* A caller as cg_arcs.c's inherit_flags reads it: a walk of this array
   rather than of a list all over memory. */
struct caller {
	uint32_t parent;             /* symbol number */
	uint32_t count;              /* the arc's count (all fit, or no array) */
};

/* One histogram record (several are allowed when their ranges differ). */
struct histogram {
	vma_t lowpc, highpc;
	size_t num_bins;
	uint32_t *bins;              /* summed counts (wider than on disk) */
	uint64_t *wide;              /* replaces bins once a sum outgrows 32 bits */
};

static inline uint64_t hist_bin(const struct histogram *h, size_t i)
{
	return h->wide ? h->wide[i] : h->bins[i];
}

/* The flat profile as analysis leaves it (flat_profile.c): the rows to
   print in order, with the figures the header and rows share. */
struct flat_profile {
	struct sym **rows;           /* selected symbols by self time */
	size_t nrows;
	double time_base;            /* total_time, or 1 when no time: the
	                                divisor of the % column */
	char unit_prefix;            /* SI prefix of the per-call columns */
	double unit_scale;           /* seconds to that unit */
	/* Expected error of each symbol's self time, in seconds: the square
	   root of its sample count, in sampling periods (GNU's manual,
	   "Statistical Sampling Error"); indexed like g->syms, NULL unless
	   a report shows it (sampling_error_wanted()).  0 when hz is 0. */
	double *sample_err;
	double total_err;            /* the same for the total time */
};

/* What 100% is (totals.c): every sample recorded, in ticks, and where
   each fell.  all == shown + hook + outside + excluded; GNU's text
   divides by g->total_time (all but the hook's and the excluded). */
struct run_totals {
	double all;                  /* histogram bins and side-file samples */
	double shown;                /* in the functions the reports list */
	double hook;                 /* in the profiling hook (sym_is_hook) */
	double outside;              /* in no function: bins no symbol covers,
	                                side-file samples that map to none */
	double excluded;             /* in functions a symspec left out */
	bool hook_measured;          /* false: the hook is outside the
	                                histogram (glibc's, in libc.so) */
	double hook_share;           /* hook / all (0 when not measured) */
	double slowdown;             /* 1 / (1 - hook_share): how much slower
	                                the hook made the run */
	/* the call stacks' (GMON_STACKS=1), when there are any: their
	   samples, and those under a hook frame */
	double stack_all, stack_hook;
	double stack_hook_share, stack_slowdown; /* as hook_share, slowdown */
};

/* ---- the diagnosis (diagnose.c): why a report may be empty or
   misleading, one check per cause ---- */
enum diag_id {                   /* in order of importance */
	DIAG_RATE, DIAG_RANGE, DIAG_AGE, DIAG_SAMPLES, DIAG_ARCS,
	DIAG_PROGRAM,                /* the profile is another program's */
	DIAG_HOOK,
	DIAG_CLONES,
	DIAG_NCHECKS
};
enum diag_status { DIAG_OK, DIAG_PROBLEM, DIAG_NOT_APPLICABLE };

struct diag_result {
	enum diag_status status;
	char text[512];              /* one line, no newline */
};

/* One arc record as read, before the arc sink matches its ends to
   functions (diagnose.c's wrong-executable check reads a sample of them:
   g->arc_probe). */
struct arc_probe {
	vma_t from_pc, self_pc;
};
#define ARC_PROBE_MAX 4096           /* records kept, at most */

/* ---- compiler clones (symbols/clones.c finds them, analysis/
   clone_credit.c counts what GNU's rule does with them) ---- */

/* One function symbol of the executable that GNU's name rule drops
   (foo.part.0, foo.isra.0, foo.cold...): its code counts as the
   function's before it, `gnu_owner`. */
struct clone_range {
	const char *name;
	vma_t addr, end;             /* end: first address past it */
	const char *gnu_owner;       /* NULL: before every function */
	double samples;              /* histogram samples in it */
	uint64_t calls;              /* calls into it (gmon.out's arcs) */
};

/* A function GNU credits clones to, with what it got. */
struct clone_owner {
	const char *name;
	double samples;
	uint64_t calls;
	size_t nclones;
};

#define CLONE_TOP 3

struct gprof;

struct clone_stats {
	struct clone_range *ranges;  /* by address */
	size_t nranges;
	size_t nmerged;              /* --clones=merge: clones (GNU's kept
	                                ones too) credited to their origin */
	double samples;              /* in the ranges: what GNU moves */
	uint64_t calls;
	uint64_t all_calls;          /* every call of gmon.out's arcs */
	uint64_t internal_calls;     /* merge: calls from a function into its
	                                own split part (foo to foo.part.0),
	                                left out rather than made recursion */
	struct clone_owner top[CLONE_TOP]; /* those that got most */
	size_t ntop;
	/* the arc sink the counting one hands each record on to */
	void (*next_sink)(struct gprof *g, vma_t from_pc, vma_t self_pc,
	                  uint64_t count);
};

/* One call stack of a side file (GMON_STACKS=1), its frames mapped to
   symbols by shlibs.c as the profiles are loaded. */
struct call_stack {
	struct sym **frames;         /* leaf (the sampled pc) first; NULL: no
	                                function at that address */
	uint32_t depth;
	uint32_t thread;             /* the side file's thread id */
	bool truncated;              /* cut at the writer's depth limit */
	uint64_t count;              /* samples that found it */
};

/* The tree of stack prefixes (stacks.c, analysis): node 0 is the root
   (every sample); each other node is one function called from its
   parent's, with the samples of the stacks through that prefix (total)
   and of those that end there (self).  Folded lines are the paths to
   nodes with self samples; flame graphs draw every node. */
struct stack_node {
	const struct sym *sym;       /* NULL: `label` names the frame */
	const char *label;           /* "[unknown]", "[truncated]", root "all" */
	uint64_t total, self;
	uint64_t start;              /* samples before it in the root's span:
	                                children are laid out in name order */
	double percent;              /* total, in percent of the root's */
	size_t parent;
	size_t first_child, next;    /* 0: none (node 0 is nobody's child) */
	unsigned depth;              /* root 0 */
	bool narrow;                 /* under STACK_MIN_SHARE of the root:
	                                the flame graph draws it only as
	                                part of its drawn ancestor's
	                                stack_narrow box */
};

/* The narrow children of one drawn node, laid out after its other
   children (stacks.c): the flame graph draws them as one box, or leaves
   their span blank when the box is narrow too. */
struct stack_narrow {
	size_t parent;               /* the drawn node */
	uint64_t start, total;       /* their span, as a node's */
	size_t callees;              /* the narrow children */
	size_t frames;               /* their nodes and all below them */
	double percent;              /* total, in percent of the root's */
	bool drawn;                  /* the box is wide enough to draw */
};

/* A frame narrower than this share of all the samples is merged: a tenth
   of a pixel at the flame graph's 1,200 pixels, the finest its script
   shows when zoomed in (1/12,000 of the samples). */
#define STACK_MIN_SHARE_DIV 12000

/* ---- cg_adj.c: the callee lists as arrays, for the analysis ---- */

#define CG_ADJ_NOT_SYM UINT32_MAX  /* a callee outside the table */

struct cg_adj {
	uint32_t *first;             /* symbol i's callees: kid[first[i] .. */
	uint32_t *kid;               /* first[i + 1] - 1], in list order */
	uint32_t *cnt;               /* their counts, when the arcs are
	                                compact (g->arcs_compact), else NULL */
	struct arc **arc;            /* their arcs, once cg_adj_arcs() ran:
	                                cg_adj_callees() */
};

/* Symbol i's callee arcs, in list order and NULL-terminated: callee
   kid[first[i] + j] is arc j of this. */
static inline struct arc **cg_adj_callees(const struct cg_adj *adj, size_t i)
{
	return adj->arc + adj->first[i] + i;
}

#endif
