/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * model/options.h - what the command line asked for (options.c fills it): report
 * styles, file formats, symspec tables, debug areas, output formats and
 * `struct options`.
 */
#ifndef MODEL_OPTIONS_H
#define MODEL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

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

/* ---- --output-format: the text reports (GNU's), or one document ---- */
enum out_format {
	OUT_TEXT, OUT_DOT, OUT_HTML, OUT_JSON, OUT_CALLGRIND, OUT_PPROF,
	OUT_FOLDED, OUT_FLAME
};

/* ---- --clones: how GCC's clones (foo.part.0, foo.cold...) count ---- */
enum clones_mode {
	CLONES_DEFAULT,              /* not given: options.c picks one below */
	CLONES_GNU,                  /* GNU's name rule: most are no function,
	                                their code is the function before's */
	CLONES_MERGE,                /* credited to the function cloned from */
	CLONES_SEPARATE              /* each a function of its own */
};

struct spec_arg {                /* one symspec option as given */
	enum spec_table table;
	char *text;
};

struct options {
	unsigned style;              /* requested reports */
	unsigned user_styles;        /* styles the user mentioned (on or off) */
	bool brief, ignore_zeros, line_gran, bsd_style, demangle;
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
	enum clones_mode clones;     /* --clones (never CLONES_DEFAULT once
	                                parsed) */
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

#endif
