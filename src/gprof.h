/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gprof.h - the profile model shared by every stage of the pipeline.
 *
 * main() drives a linear pipeline (pipeline.c) over one `struct gprof`:
 *   options -> core (executable symbols) -> sym_ids (symspec tables)
 *   -> gmon_io (profile files: histograms, arcs, basic blocks)
 *   -> hist (samples to symbols) -> call_graph/cg_dfn/cg_arcs (graph,
 *   cycles, propagation) -> cg_order/flat_profile/source_lines (what the
 *   reports list, in which order) -> printers (report.h).
 * Readers and analysis fill the model; printers take it const and only
 * read it.
 */
#ifndef GPROF_H
#define GPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmon_format.h"

typedef uint64_t vma_t;

/* ---- report styles (bit mask) ---- */
enum {
	STYLE_FLAT = 1 << 0,
	STYLE_CALL_GRAPH = 1 << 1,
	STYLE_SUMMARY = 1 << 2,
	STYLE_EXEC_COUNTS = 1 << 3,
	STYLE_ANNOTATED = 1 << 4,
	STYLE_GMON_INFO = 1 << 5,
	STYLE_FUNC_ORDER = 1 << 6,
	STYLE_FILE_ORDER = 1 << 7
};

/* ---- profile-file formats for -O ---- */
enum file_format { FF_AUTO, FF_MAGIC, FF_BSD, FF_BSD44, FF_PROF };

/* ---- symspec tables: include/exclude pairs, indexed as GNU numbers them ---- */
enum spec_table {
	INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS, INCL_FLAT, EXCL_FLAT,
	INCL_TIME, EXCL_TIME, INCL_ANNO, EXCL_ANNO, INCL_EXEC, EXCL_EXEC,
	NUM_TABLES
};

/* ---- debug areas for -d NUM (the numbers GNU's manual gives) ---- */
enum {
	DBG_ANY = 1 << 0,            /* any of them */
	DBG_DFN = 1 << 1,            /* 2: depth-first numbering */
	DBG_CYCLE = 1 << 2,          /* 4: cycle heads */
	DBG_TALLY = 1 << 4,          /* 16: arcs as they are tallied */
	DBG_SORT = 1 << 5,           /* 32: parent/child ordering */
	DBG_SAMPLE = 1 << 6,         /* 64: histogram and arc records */
	DBG_AOUT = 1 << 7,           /* 128: the symbol table */
	DBG_CALL = 1 << 8,           /* 256: -c static call graph */
	DBG_LOOKUP = 1 << 9,         /* 512: arc lookups */
	DBG_PROP = 1 << 10,          /* 1024: time propagation */
	DBG_BB = 1 << 11,            /* 2048: basic-block records */
	DBG_IDS = 1 << 12,           /* 4096: symspec matching */
	DBG_SRC = 1 << 13            /* 8192: annotated source */
};

/* A source file named by the executable's debug information. */
struct source_file {
	char *name;                  /* path as BFD reported it */
	struct source_file *next;    /* interned list, newest first */
	unsigned long ncalls;        /* for annotated source */
	int num_lines;
	struct sym **line;           /* per-line symbol, for annotated source */
};

#define BB_SLOTS 10

struct bb_slot {
	vma_t addr;
	uint64_t count;
};

/* One line of the -R map file (map_file.c). */
struct map_entry {
	char *file, *func;
	bool first;                  /* first entry of its object file */
};

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

/* One symbol: a function, or (with -l) a source line. */
struct sym {
	vma_t addr;
	vma_t end_addr;              /* last address covered (inclusive) */
	const char *name;            /* raw (mangled) name */
	struct source_file *file;    /* see sym_file(): filled lazily */
	int line;
	unsigned bfd_order;          /* creation order, for stable ties */
	bool is_func, is_static, is_bb_head, mapped;
	bool is_copy;                /* annotate: a merged copy, not in syms */
	bool file_known;             /* file/line lookup done */
	uint16_t spec;               /* bit t set: symbol matched table t */

	/* (Fields are grouped to leave no padding: there is one of these per
	   function, or per source line with -l.) */
	double hist_time;            /* self time in ticks */
	uint64_t ncalls;             /* calls from others (self-calls removed) */
	uint64_t self_calls;         /* recursive calls */
	struct bb_slot *bb;          /* BB_SLOTS of them once nbb > 0 */
	int nbb;

	/* call graph */
	int top_order;               /* depth-first (post-order) number */
	int index;                   /* number printed in the call graph */
	bool print_flag;
	struct arc *parents, *children;
	double fract;                /* share of time propagated */
	double prop_self, prop_child;
	double child_time;           /* children's time charged to this sym */
	struct sym *cyc_head;        /* cycle header (or self) */
	struct sym *cyc_next;        /* next member of the cycle */
	int cycle_num;               /* cycle this symbol heads or belongs to, 0 if none */
	struct arc **by_rank_parents;  /* parents in report order (see */
	struct arc **by_rank_children; /* cg_rank_arcs), NULL-terminated */
};

/* A symbol table: sorted by address after symtab_finish(). */
struct symtab {
	struct sym *base;
	size_t len, cap;
	vma_t *addrs;                /* base[i].addr, packed for sym_lookup;
	                                set by symtab_finish(), NULL after adds */
	struct sym_bucket *bucket;   /* with addrs: per 2^shift bytes */
	size_t nbucket;
	unsigned shift;
};

/* The symbols starting within one bucket of addresses (see
   sym_lookup()): first is the last one starting at or before the
   bucket's start, next_off how far into the bucket the one after it
   starts (UINT32_MAX: not in this bucket, or too far to say). */
struct sym_bucket {
	uint32_t first;
	uint32_t next_off;
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

/* A parsed symspec: file, line and/or function name. */
struct symspec {
	char *file;                  /* basename to match, or NULL */
	int line;                    /* 0 = any */
	char *func;                  /* raw name, or NULL */
	bool file_given;
};

/* A run of adjacent symbols matched by one spec, as a symspec table holds
   it (sym_ids.c). */
struct spec_range {
	vma_t addr, end_addr;
	size_t owner;                /* index into g->spec_list */
};

struct spec_table_ranges {
	struct spec_range *v;
	size_t n;
};

/* One parsed symspec option: its left part, and for FROM/TO its right. */
struct parsed_spec {
	enum spec_table table;
	struct symspec left, right;
	bool has_right;
	struct spec_range *rights;   /* runs the right part matched */
	size_t nrights;
	size_t left_at, right_at;    /* 1 + index of the last symbol matched */
	size_t left_entry, right_entry;
};

/* ---- --output-format: the text reports (GNU's), or one document ---- */
enum out_format {
	OUT_TEXT, OUT_DOT, OUT_HTML, OUT_JSON, OUT_CALLGRIND, OUT_PPROF,
	OUT_FOLDED, OUT_FLAME
};

struct spec_arg {                /* one symspec option as given */
	enum spec_table table;
	char *text;
};

struct options {
	unsigned style;              /* requested reports */
	unsigned user_styles;        /* styles the user mentioned (on or off) */
	bool brief, ignore_zeros, line_gran, bsd_style, demangle;
	const char *demangle_style;
	bool print_path, inline_file_names, no_static, ignore_non_func;
	bool static_call_graph, all_lines, separate_files;
	bool no_shlibs;              /* --no-shlibs: ignore PROFILE.shlibs */
	/* this project's extensions (long options only, see options.c) */
	enum out_format out_format;  /* --output-format */
	const char *output;          /* --output=FILE, or NULL for stdout */
	bool sampling_error;         /* --sampling-error: text column */
	bool compare;                /* --compare */
	bool diagnose;               /* --diagnose */
	bool stacks;                 /* --stacks: call-graph times from the
	                                call stacks (stack_graph.c) */
	bool per_thread;             /* --per-thread[=ID-OR-NAME] */
	const char *thread_sel;      /* its ID-OR-NAME, or NULL: every thread */
	double node_thres, edge_thres; /* --node-threshold, --edge-threshold:
	                                  percent of total time (dot, html) */
	int width, table_length;
	unsigned long min_count;
	unsigned debug;
	enum file_format file_format;
	const char *ext_symtab;      /* -S */
	const char *map_file;        /* -R */
	char **search_dirs;          /* -I then GPROF_PATH */
	size_t nsearch_dirs;
	struct spec_arg *specs;
	size_t nspecs;
	const char *image;
	const char **profiles;
	size_t nprofiles;
};

struct file_table {              /* source files by path (utils.c) */
	struct source_file **slot;
	size_t size, count;
};

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

/* ---- the diagnosis (diagnose.c): why a report may be empty or
   misleading, one check per cause ---- */
enum diag_id {                   /* in order of importance */
	DIAG_RATE, DIAG_RANGE, DIAG_AGE, DIAG_SAMPLES, DIAG_ARCS, DIAG_NCHECKS
};
enum diag_status { DIAG_OK, DIAG_PROBLEM, DIAG_NOT_APPLICABLE };

struct diag_result {
	enum diag_status status;
	char text[512];              /* one line, no newline */
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
};

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

/* The whole profile model. */
struct gprof {
	struct options opt;
	const char *whoami;          /* argv[0], for messages */

	/* executable */
	void *abfd;                  /* bfd * */
	void **bfd_syms;             /* asymbol ** */
	long nbfd_syms;
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

	/* call stacks (shlibs.c loads them, stacks.c builds the tree) */
	struct call_stack *stacks;
	size_t nstacks;
	uint64_t stack_truncated;    /* SLOSS: ticks cut at the depth limit */
	uint64_t stack_lost;         /* SLOSS: ticks without a stack */
	struct stack_node *stack_nodes;
	size_t nstack_nodes;
	unsigned stack_depth;        /* the deepest node's depth */

	/* --per-thread (threads.c): the context of one thread takes its
	   samples and calls from that thread's TSAMPLES and TARCS only, not
	   from gmon.out nor the side file's whole-program records. */
	bool thread_only;
	uint32_t thread_id;          /* the side file's thread id */
	const char *thread_name;     /* and its name (threads of several
	                                files are matched by both) */

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

/* ---- pipeline.c ---- */
int gprof_run(struct gprof *g, int argc, char **argv);
void gprof_parse(struct gprof *g, int argc, char **argv);
void gprof_load_inputs(struct gprof *g);
void gprof_load(struct gprof *g, int argc, char **argv);
void gprof_analyse(struct gprof *g);
void gprof_print(const struct gprof *g, FILE *out);

/* ---- utils.c ---- */
void gprof_exit(int status) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
void die(const struct gprof *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void die_plain(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
void warnx_g(const struct gprof *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void debug_printf(const struct gprof *g, unsigned area, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A trace's arguments are not even computed unless its area is on: some
   read a symbol's name, a cache miss per symbol of a big graph. */
#define debug_printf(g, area, ...)                                        \
	((g)->opt.debug & (area) ? debug_printf((g), (area), __VA_ARGS__)   \
	                         : (void)0)
struct source_file *source_file_intern(struct gprof *g, const char *path);
const char *str_intern(struct gprof *g, const char *s);
#define FMT_BUF 400              /* room for any double printed with %f */
int fmt_fixed(char *buf, double v, int width, int prec);
int fmt_uint(char *buf, uint64_t v, int width, bool left);

/* ---- sort.c: glibc-msort-compatible stable merge sort ---- */
typedef int (*cmp_fn)(const void *a, const void *b, void *ctx);
void stable_sort(void *base, size_t n, size_t size, cmp_fn cmp, void *ctx);
/* stable_sort() of pointers whose comparison's first tests are: a double,
   descending (first); if `second` is set, an integer, descending; if
   `name` is set too, a string as strcmp() orders it.  cmp, the whole
   comparison, decides the ties of these: the same result, faster.  Keys
   must not contradict cmp, and where cmp ties, the first two keys tie.
   weak_order: cmp is a strict weak order as the merge sees it (it asks
   cmp(left, right) and keeps left on <= 0, so two items that each claim
   to come first tie), which lets the sort take a quicker way to the
   same, only order. */
struct desc_keys {
	double (*first)(const void *);
	uint64_t (*second)(const void *);
	const char *(*name)(const void *);
	bool weak_order;
};
void stable_sort_desc(void **v, size_t n, const struct desc_keys *dk,
                      cmp_fn cmp, void *ctx);
/* Items ordered by key[0], then key[1], ascending; ties keep their
   order.  Sorts r in place.  n must be below 2^32. */
struct radix_item {
	uint64_t key[2];
	uint32_t at;                 /* where the rest of the item is */
};
void radix_sort(struct radix_item *r, size_t n);

/* ---- symtab.c ---- */
struct sym *symtab_add(struct symtab *tab);
void symtab_reserve(struct symtab *tab, size_t n);
void symtab_finish(struct gprof *g, struct symtab *tab, vma_t text_end);
void symtab_finish_from(struct gprof *g, struct symtab *tab, size_t from);
struct sym *sym_lookup(const struct symtab *tab, vma_t addr);
void sym_lookup_prefetch(const struct symtab *tab, vma_t addr);
struct sym *sym_lookup_exe(const struct gprof *g, vma_t addr);

/* ---- options.c ---- */
void options_parse(struct gprof *g, int argc, char **argv);

/* ---- core.c ---- */
void core_open(struct gprof *g);
void core_build_syms(struct gprof *g);
void core_read_ext_symtab(struct gprof *g, const char *file);
vma_t core_text_end(struct gprof *g);
void core_intern_files(struct gprof *g);
void core_free_find_window(struct gprof *g);
/* Closes what core_open(), core_build_syms() and core_intern_files() made
   in a context of its own (line_syms.c's second look at the executable). */
void core_close(struct gprof *g);
bool core_find_line(const struct gprof *g, vma_t addr, const char **file,
                    const char **func, unsigned *line);
bool core_sym_line(const struct gprof *g, const struct sym *s,
                   const char **file, int *line);
void sym_lookup_file(struct gprof *g, struct sym *s);
char *core_demangle(const struct gprof *g, const char *name);

/* ---- map_file.c ---- */
void map_file_read(struct gprof *g, const char *path);
const char *map_file_object(const struct gprof *g, const char *func);

/* ---- line_syms.c ---- */
void core_build_line_syms(struct gprof *g);

/* ---- sym_ids.c ---- */
void sym_ids_add(struct gprof *g, enum spec_table t, const char *text);
void sym_ids_add_defaults(struct gprof *g);
void sym_ids_resolve(struct gprof *g);
bool sym_in(const struct gprof *g, const struct sym *s, enum spec_table t);
bool sym_selected(const struct gprof *g, const struct sym *s,
                  enum spec_table incl);
bool arc_selected(const struct gprof *g, const struct sym *parent,
                  const struct sym *child);

/* ---- gmon_io.c ---- */
void gmon_read(struct gprof *g, const char *filename);
void gmon_write_sum(struct gprof *g, const char *filename);
bool gmon_peek_rate(struct gprof *g, const char *name, double *hz);

/* ---- shlibs.c: shared libraries from PROFILE.shlibs side files ---- */
void shlibs_load(struct gprof *g);
void shlibs_apply(struct gprof *g);
bool shlibs_side_files(const struct gprof *g);
void shlibs_write_sum(struct gprof *g, const char *filename);
void shlibs_free(struct gprof *g);

/* One thread of the side files (--per-thread); name points into them. */
struct thread_info {
	uint32_t id, tid;
	const char *name;
};
size_t shlibs_threads(const struct gprof *g, struct thread_info **out);

/* ---- threads.c: --per-thread ---- */
int threads_run(struct gprof *g);

/* ---- stacks.c: the tree of call-stack prefixes ---- */
bool stacks_wanted(const struct gprof *g);
void stacks_build(struct gprof *g);
void stacks_free(struct gprof *g);

/* ---- hist.c (record readers/writers are in gmon_records.h) ---- */
void hist_widen(struct histogram *h);
struct histogram *hist_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                              uint32_t nbins, uint32_t rate, const char *dimen,
                              char abbrev);
struct histogram *hist_check(struct gprof *g, vma_t lowpc, vma_t highpc,
                             uint32_t nbins, uint32_t rate, const char *dimen,
                             char abbrev);
struct histogram *hist_bsd_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                                  size_t nbins);

/* Adds to bin i (32-bit bins widen to 64 bits on the first overflow). */
static inline void hist_add(struct histogram *h, size_t i, uint64_t count)
{
	if (!h->wide && h->bins[i] + count > UINT32_MAX)
		hist_widen(h);
	if (h->wide)
		h->wide[i] += count;
	else
		h->bins[i] += (uint32_t)count;
}
void hist_assign_samples(struct gprof *g);
long hist_granularity_bytes(const struct gprof *g);

/* ---- flat_profile.c ---- */
void flat_profile_build(struct gprof *g);
bool sampling_error_wanted(const struct gprof *g);
void sampling_error_build(struct gprof *g);

/* ---- diagnose.c ---- */
void diagnose_build(struct gprof *g);
void diagnose_warn(const struct gprof *g);
void diagnose_print(const struct gprof *g, FILE *out);
const char *diagnose_name(enum diag_id id);

/* ---- source_lines.c ---- */
void source_lines_build(struct gprof *g);

/* ---- call_graph.c ---- */
void cg_tally(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count);
void cg_tally_syms(struct gprof *g, struct sym *parent, struct sym *child,
                   uint64_t count);
struct arc *arc_lookup(struct gprof *g, struct sym *parent, struct sym *child);
struct arc *arc_add(struct gprof *g, struct sym *parent, struct sym *child,
                    uint64_t count);

void cg_free_arc_blocks(struct gprof *g);
bool cg_arc_wanted(struct gprof *g, struct sym **parent, struct sym **child);
void arc_adopt_block(struct gprof *g, struct arc *v, size_t n);
/* Drops g->callers (an arc changed, or nothing reads them any more). */
void arc_callers_drop(struct gprof *g);

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

/* ---- arc_bulk.c: a profile's arcs, built at once ---- */
void arc_take(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count);
/* The arcs gmon_read() took become arcs here: gprof_load_inputs(),
   gprof_analyse() and gmon_write_sum() call it; other callers of
   gmon_read() call it before they look at the arcs. */
void arc_bulk_flush(struct gprof *g);

/* ---- cg_dfn.c ---- */
void cg_dfn_all(struct gprof *g, const struct cg_adj *adj);

/* ---- cg_arcs.c ---- */
void cg_propagate(struct gprof *g);
struct sym **cg_assemble(struct gprof *g, size_t *nentries);
struct sym **cg_entries_by_time(struct gprof *g, size_t *nentries);

/* ---- stack_graph.c: --stacks, call-graph times from the call stacks ---- */
void stack_graph_build(struct gprof *g);

/* ---- cg_order.c ---- */
void cg_order(struct gprof *g);
bool cg_graph_printed(const struct gprof *g);
bool cg_entries_wanted(const struct gprof *g);
bool cg_entry_shown(const struct gprof *g, const struct sym *s);

/* The printers (flat_print.c, cg_print.c, link_order.c, basic_blocks.c,
   annotate.c) are declared in report.h. */

#endif
