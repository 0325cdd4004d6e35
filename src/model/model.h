/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * model/model.h - the profile model shared by every stage of the pipeline,
 * and the way into the model folder: data types and a few inline
 * readers, no functions of its own.
 *
 * main() drives a linear pipeline (pipeline.c) over one `struct gprof`:
 *   options -> symbols/ (the executable's symbols, symspec tables)
 *   -> reading/ (profile files: histograms, arcs, basic blocks; side
 *   files) -> analysis/ (samples to symbols, graph, cycles, propagation,
 *   what the reports list and in which order) -> print/ (the reports).
 * Readers and analysis fill the model; printers take it const and only
 * read it.  doc/gprof.md ("Modules") maps every file.
 */
#ifndef MODEL_MODEL_H
#define MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmon_format.h"
#include "model/graph.h"
#include "model/options.h"
#include "model/syms.h"

/* The whole profile model. */
struct gprof {
	struct options opt;
	const char *whoami;          /* argv[0], for messages */

	/* executable */
	void *abfd;                  /* bfd * */
	void **bfd_syms;             /* asymbol ** */
	long nbfd_syms;
	long nbfd_real;              /* of them, the symbol table's (the rest
	                                are synthetic) */
	char *name_pool;             /* core.c: -S's symbol names */
	void *text_sec;              /* asection * of .text */
	int addr_size;               /* 4 or 8 */
	bool big_endian;
	bool sign_extend_vma;
	char leading_char;           /* target's symbol prefix, or 0 */
	bool has_line_info;          /* debug sections present */
	struct find_window *find_window; /* core.c: symbols for BFD's scan */
	struct source_file *files;   /* interned source files, newest first */
	struct file_table file_table;
	struct file_table name_table; /* interned line-symbol names */
	struct map_entry *map_entries; /* -R map, sorted by function */
	size_t nmap_entries;
	bool bb_warned;              /* "ignoring basic-block counts" said */
	bool exe_pseudo_ok;          /* pipeline.c: a side file will be read, so
	                                an executable without any symbol gets
	                                one pseudo-function (core.c) */

	struct symtab syms;          /* function (or line) symbols */

	/* symspec selection */
	struct parsed_spec *spec_list; /* in reverse command-line order */
	size_t nspec_list;
	struct spec_table_ranges tables[NUM_TABLES];
	size_t table_count[NUM_TABLES];
	bool files_interned;         /* core_intern_files() has run */

	/* profile data */
	struct histogram *hists;
	size_t nhists;
	double hz;
	char dimen[GMON_DIMEN_LEN + 1];
	char dimen_abbrev;
	double hist_scale;           /* address units per bin */
	bool have_hist_scale;
	int gmon_version;            /* version of the last GNU file read */
	bool input_hist, input_arcs, input_bbs;
	bool have_bsd_rate;
	uint64_t arc_records;        /* arc records read, in all files */
	struct arc_probe *arc_probe; /* a sample of them, each record as */
	size_t narc_probe;           /* likely as any (arc_record.c) */

	/* call graph */
	struct arc *arc_block;       /* arcs are carved from blocks */
	size_t arc_block_used;
	struct arc **arc_blocks;     /* every block, for freeing */
	size_t narc_blocks;
	struct arc **arc_hash;
	size_t arc_hash_size;
	struct arc *arc_unhashed;    /* arcs made in bulk, not in arc_hash */
	size_t narc_unhashed;        /* until the next lookup */
	bool arcs_on_syms;           /* an arc touches a symbol of syms: no
	                                bulk loading (arc_bulk.c) after it */
	struct arc_pending *arc_pending; /* records read, not yet arcs */
	/* Where the readers hand each arc record (the pipeline sets it to
	   the analysis's arc_take(), so that reading calls nothing above
	   it). */
	void (*arc_sink)(struct gprof *g, vma_t from_pc, vma_t self_pc,
	                 uint64_t count);
	bool arcs_unread;            /* no report will read an arc (set by
	                                pipeline.c before the arcs are built) */
	bool arcs_compact;           /* so no arc was made: adj (with counts)
	                                and the packed callers stand for them
	                                (arc_bulk.c) */
	/* Each symbol's callers, packed (arc_bulk.c): callers[callers_start[i]
	   .. callers_start[i + 1]) in the order of base[i].parents.  NULL
	   unless built in bulk, and dropped once any arc changes after. */
	struct caller *callers;
	uint32_t *callers_start;
	size_t narcs;
	struct arc **arcs;           /* non-self arcs in creation order */
	size_t narcs_global, arcs_cap;
	struct cg_adj adj;           /* callee lists as arrays: built by
	                                cg_propagate(), freed by cg_order() */
	struct sym *cycles;          /* cycle headers, cycles[0..ncycles-1] */
	int ncycles;
	/* Every cycle's members in the order of its cyc_next list, cycle
	   after cycle: cycle i's are cyc_members[cyc_member_start[i] ..
	   cyc_member_start[i + 1]).  A list walk jumps all over the symbols
	   at each step, and a big program's cycle can hold most of them. */
	struct sym **cyc_members;
	size_t *cyc_member_start;
	double print_time;           /* total propagated time */
	double print_time_base;      /* print_time, or 1 when none: the
	                                divisor of every call-graph percent */
	bool stack_times;            /* the times below come from the call
	                                stacks (--stacks), not from call
	                                counts: cg_print says so */
	bool arcs_from_stacks;       /* no call was counted (a program not
	                                built with -pg): the arcs were made
	                                from the call stacks, their counts
	                                and ncalls are stack samples
	                                (stack_graph.c) */
	double *stack_incl;          /* --stacks: each symbol's inclusive
	                                samples (every stack it is on, once),
	                                indexed like syms; NULL otherwise */
	struct sym **entries;        /* call-graph entries by total time */
	size_t nentries;             /* (cycle headers included) */
	struct arc **rank_pool;      /* storage of the by_rank_parents */
	struct arc **rank_callees;   /* and of the by_rank_children */
	int dfn_counter;             /* last depth-first number given */
	const char **map_files;      /* -R: object file of each map entry */
	size_t nmap_files;
	double total_time;           /* sum of histogram samples */
	struct flat_profile flat;    /* rows of the flat profile */

	bool first_output;           /* nothing printed yet (-i prints while
	                                the files are read) */

	/* shared libraries (shlibs.c): their function symbols follow the
	   executable's in syms, from index shlib_first and address
	   shlib_base on (shlib_base is 0 when there are none) */
	struct shlibs *shlibs;       /* side files and libraries, opaque */
	vma_t shlib_base;
	size_t shlib_first;
	double shlib_ticks;          /* side-file samples in total_time */
	/* The object files symbols live in (symbols/objects.c): objects[0]
	   the executable, then the libraries by address; see sym_object() */
	struct object_info *objects;
	size_t nobjects;
	double shlib_left_out;       /* side-file samples in functions a
	                                symspec left out (not in total_time) */
	double shlib_hook;           /* side-file samples in the hook */

	/* call stacks (shlibs.c loads them, stacks.c builds the tree) */
	struct call_stack *stacks;
	size_t nstacks;
	uint64_t stack_truncated;    /* SLOSS: ticks cut at the depth limit */
	uint64_t stack_lost;         /* SLOSS: ticks without a stack */
	/* CPU and wall time the samples were taken in, in ns: the side
	   files' PTIMES added up, or a --per-thread context's TTIMES
	   (shlib_credit.c); have_run_times false without any */
	bool have_run_times;
	uint64_t run_user_ns, run_sys_ns, run_wall_ns;
	struct stack_node *stack_nodes;
	size_t nstack_nodes;
	unsigned stack_depth;        /* the deepest node's depth */
	/* the narrow frames (stacks.c): one entry per drawn node that has
	   narrow children; how many entries are drawn; how many nodes they
	   are in all, and in entries too narrow to draw */
	struct stack_narrow *stack_narrow;
	size_t nstack_narrow;
	size_t stack_narrow_boxes;   /* the entries drawn */
	size_t stack_narrow_frames, stack_narrow_hidden;

	/* --per-thread (threads.c): the context of one thread takes its
	   samples and calls from that thread's TSAMPLES and TARCS only, not
	   from gmon.out nor the side file's whole-program records. */
	bool thread_only;
	uint32_t thread_id;          /* the side file's thread id */
	const char *thread_name;     /* and its name (threads of several
	                                files are matched by both) */
	/* The run's threads and their contexts (NULL where not selected),
	   kept here from the start so that a caller running the tool
	   in-process can free them (the fuzz harnesses do), even after an
	   error stopped the loading half-way. */
	struct thread_info *threads;
	struct gprof **thread_ctx;
	size_t nthreads;

	struct run_totals totals;    /* totals.c: what 100% is */
	struct clone_stats clones;   /* compiler clones (symbols/clones.c) */
	struct diag_result diag[DIAG_NCHECKS]; /* diagnose_build() */
	struct graph_view *view;     /* dot, html: what the pictures draw
	                                (graph_view.h) */
};

/* The executable's own symbols are syms.base[0 .. exe_syms_len(g) - 1]. */
static inline size_t exe_syms_len(const struct gprof *g)
{
	return g->shlib_base ? g->shlib_first : g->syms.len;
}

/* Is s a shared library's function (shlibs.c)? */
static inline bool sym_in_shlib(const struct gprof *g, const struct sym *s)
{
	return g->shlib_base && s->addr >= g->shlib_base;
}

/* The object file s lives in: a library's when s lies in its range,
   else the executable's (NULL only in a context whose executable was
   never opened). */
static inline const struct object_info *sym_object(const struct gprof *g,
                                                   const struct sym *s)
{
	size_t lo = 1, hi = g->nobjects;
	if (!sym_in_shlib(g, s) || hi <= 1)
		return g->nobjects ? &g->objects[0] : NULL;
	while (lo < hi) {            /* the last library starting at or below */
		size_t mid = lo + (hi - lo) / 2;
		if (g->objects[mid].lo <= s->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 1 && s->addr <= g->objects[lo - 1].hi)
		return &g->objects[lo - 1];
	return &g->objects[0];
}

/* The path of the object s lives in, for the reports ("" if unknown). */
static inline const char *sym_object_path(const struct gprof *g,
                                          const struct sym *s)
{
	const struct object_info *o = sym_object(g, s);
	return o ? o->path : g->opt.image ? g->opt.image : "";
}

/* s's address in its own object (the link-time address a library's
   symbol stands for; the executable's are their own). */
static inline vma_t sym_object_addr(const struct gprof *g,
                                    const struct sym *s)
{
	const struct object_info *o = sym_object(g, s);
	return o ? s->addr - o->delta : s->addr;
}

/* For walks along a callee list that read each callee: `ahead` runs
   some arcs in front (the list lies in order in memory when the arcs were
   made in bulk, the callees anywhere), asking for the callee it passes. */
static inline const struct arc *arc_prefetch_ahead(const struct arc *ahead)
{
	if (!ahead)
		return NULL;
	__builtin_prefetch(ahead->child);
	__builtin_prefetch(&ahead->child->cycle_num);
	return ahead->next_child;
}

/* `a` moved on by n arcs (NULL past the end). */
static inline const struct arc *arc_skip(const struct arc *a, int n)
{
	while (a && n-- > 0)
		a = a->next_child;
	return a;
}

/* (Before struct gprof, which holds one.) */
void cg_adj_build(const struct gprof *g, struct cg_adj *adj);
void cg_adj_arcs(const struct gprof *g, struct cg_adj *adj);
void cg_adj_free(struct cg_adj *adj);

/* The calls counted into s: none when the arcs come from the call
   stacks, whose counts are samples (the flat profiles print no calls). */
static inline uint64_t sym_counted_calls(const struct gprof *g,
                                         const struct sym *s)
{
	return g->arcs_from_stacks ? 0 : s->ncalls;
}

/* A cycle header's members, in list order (struct gprof's cyc_members). */
static inline struct sym **cycle_first(const struct gprof *g,
                                       const struct sym *cyc)
{
	return g->cyc_members + g->cyc_member_start[cyc->cycle_num - 1];
}

static inline struct sym **cycle_end(const struct gprof *g,
                                     const struct sym *cyc)
{
	return g->cyc_members + g->cyc_member_start[cyc->cycle_num];
}
#endif
