/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * model/syms.h - the symbol side of the model: source files, symbols, the symbol
 * table, symspecs and the threads named by the side files.
 */
#ifndef MODEL_SYMS_H
#define MODEL_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/options.h"

typedef uint64_t vma_t;

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

/* One symbol: a function, or (with -l) a source line. */
struct sym {
	vma_t addr;
	vma_t end_addr;              /* last address covered (inclusive) */
	const char *name;            /* raw (mangled) name */
	struct source_file *file;    /* see sym_file(): filled lazily */
	int line;
	unsigned bfd_order;          /* creation order, for stable ties */
	bool is_func, is_static, mapped;
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
	struct sym *origin;          /* --clones=merge: the function this
	                                clone is credited to, else NULL */
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

struct file_table {              /* source files by path (utils.c) */
	struct source_file **slot;
	size_t size, count;
};


/* An object file the symbols come from: the executable (objects[0],
   symbols/core.c) or a shared library the side files name
   (reading/shlibs.c).  A library's symbols lie in the model at its
   link-time addresses plus delta, inside [lo, hi]; the executable's at
   their own (delta 0).  abfd and bfd_syms, when set, are the library's
   file (or its build-id debug file) kept open for line lookups
   (symbols/objects.c). */
struct object_info {
	char *path;                  /* as the side file recorded it, or the
	                                executable's as named to gprof */
	unsigned char *build_id;     /* build_id_len bytes, or NULL */
	size_t build_id_len;
	vma_t lo, hi;                /* model addresses of its symbols */
	vma_t delta;                 /* model address - link-time address */
	void *abfd;                  /* bfd *, or NULL: no line lookups */
	void **bfd_syms;             /* asymbol **, NULL-terminated */
};

/* One thread of the side files (--per-thread); name points into them. */
struct thread_info {
	uint32_t id, tid;
	const char *name;
	bool have_times;             /* its TTIMES, added up over the files */
	uint64_t user_ns, sys_ns, wall_ns;
};

#endif
