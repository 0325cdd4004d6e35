/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.h - what every printer shares: where the reports go, whether one
 * has been printed yet, and the names symbols are shown by.
 *
 * Printers read the analysed model (a const struct gprof) and keep any
 * state of their own in their own structures; the only state shared
 * between printers of one run is this struct.  Shown names are a memo of
 * a pure function of the model and the options (demangling and file/line
 * suffixes), kept here rather than in struct sym so that the model is
 * never written while reports are printed.
 */
#ifndef PRINT_REPORT_H
#define PRINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "util/util.h"

struct sym_loc {
	char *file;                  /* NULL: none known */
	int line;
	bool known;                  /* looked up */
};

/* A symbol as the call graph's lines name it, in one cache line: a big
   call graph prints millions of lines naming symbols all over memory,
   and each line then waits for one line of memory instead of for the
   symbol's fields, its cycle head's and its name's. */
#define LABEL_INLINE 40
struct sym_label {
	size_t len;                  /* of the text; 0: not made yet */
	uint64_t cycle_calls;        /* s->cyc_head->ncalls: the calls into s,
	                                or into its cycle as a whole */
	int cycle_num;               /* s->cycle_num */
	union {
		char text[LABEL_INLINE]; /* print_sym_name()'s text, if it fits */
		char *heap;              /* otherwise */
	} u;
};

static inline const char *label_text(const struct sym_label *l)
{
	return l->len <= LABEL_INLINE ? l->u.text : l->u.heap;
}

struct report {
	FILE *out;
	struct outbuf ob;            /* in front of out: the text reports
	                                write through it (see outbuf.h) */
	bool started;                /* a report was printed: the next one
	                                opens with a form feed */
	const char **shown;          /* display names of g->syms, by index */
	bool *shown_owned;           /* made here (else the raw name) */
	uint32_t *shown_len;         /* and their lengths (the call graph
	                                prints a name per line: no strlen) */
	size_t nshown;
	struct sym_loc *loc;         /* files looked up here, by index */
	struct sym_label *label;     /* labels of g->syms, by index */
	void *label_mem;             /* what label was cut from (aligned) */
	struct sym_label scratch;    /* of a symbol outside g->syms */
	char **extra;                /* names of symbols outside g->syms */
	size_t nextra, extra_cap;
};

/* Starts a run of reports to `out`; `started` is true when something was
   printed already (gmon file information, for instance). */
void report_init(struct report *r, FILE *out, bool started);

/* Frees the name memo; r->out is left open. */
void report_free(struct report *r);

/* Prints the form feed that separates a report from the one before it;
   nothing for the first report of the run.  Leaves r->ob flushed. */
void report_section(struct report *r);

/* The name reports show for `s`: demangled unless BSD style or
   --no-demangle, plus " (file:line)" with --inline-file-names or
   " (file:line @ addr)" with -l.  Valid until report_free(). */
const char *display_name(const struct gprof *g, struct report *r,
                         const struct sym *s);

/* Asks for the memory display_name_len(s) reads first, for a printer
   that knows which symbols its next lines name. */
void report_prefetch_shown(const struct gprof *g, const struct report *r,
                           const struct sym *s);

/* display_name() and its length (memoised with it). */
const char *display_name_len(const struct gprof *g, struct report *r,
                             const struct sym *s, size_t *len);

/* Writes display_name(), then " <cycle N>" for a cycle member and the
   call-graph index, " [N]" or, for an entry not printed, " (N)", into
   r->ob. */
void print_sym_name(const struct gprof *g, struct report *r,
                    const struct sym *s);

/* The label of `s`, made on first use.  Printers only read the model,
   so a label holds for the whole run: until report_free(), or for a
   symbol outside g->syms until the next call. */
const struct sym_label *report_make_label(const struct gprof *g,
                                          struct report *r,
                                          const struct sym *s);

/* Where the label of s is kept: NULL before the report's first name or
   label is made, and for a symbol outside g->syms. */
static inline struct sym_label *report_label_slot(const struct gprof *g,
                                                  const struct report *r,
                                                  const struct sym *s)
{
	const struct sym *base = g->syms.base;

	if (!r->label || s < base || s >= base + g->syms.len)
		return NULL;
	return &r->label[s - base];
}

/* report_make_label(), without a call for a label made already: the
   call graph asks for one per line. */
static inline const struct sym_label *report_label(const struct gprof *g,
                                                   struct report *r,
                                                   const struct sym *s)
{
	const struct sym_label *l = report_label_slot(g, r, s);

	return l && l->len ? l : report_make_label(g, r, s);
}

/* Asks for the memory of s's label, for a printer that knows which
   symbols its next lines name (they lie all over memory).  Not inline:
   gcc 12 takes a static function made only of prefetches and loads for
   a pure one and drops calls to it, and the call graph's prefetching
   went with them when this was inline. */
void report_prefetch_name(const struct gprof *g, const struct report *r,
                          const struct sym *s);

/* A source file's name as reports show it: the whole path with
   --print-path, otherwise its last component. */
const char *path_display(const struct gprof *g, const char *path);

/* The source file and line of `s` (false when the debug information has
   none): from the model when analysis looked them up, otherwise looked
   up once and kept in `r`.  The strings live until report_free(). */
bool report_sym_file(const struct gprof *g, struct report *r,
                     const struct sym *s, const char **file, int *line);

/* ---- the printers: each reads the model and writes one report ---- */
void flat_print(const struct gprof *g, struct report *r);
void cg_print(const struct gprof *g, struct report *r);
void cg_print_index(const struct gprof *g, struct report *r);
void link_order_functions(const struct gprof *g, struct report *r);
void link_order_files(const struct gprof *g, struct report *r);
void bb_print_exec_counts(const struct gprof *g, struct report *r);
void annotate_sources(const struct gprof *g, struct report *r);

/* --output-format: each writes one whole document of its format (dot_print.c,
   html_print.c, json_print.c, callgrind_print.c, pprof_print.c). */
void dot_print(const struct gprof *g, struct report *r);
void html_print(const struct gprof *g, struct report *r);
void json_print(const struct gprof *g, struct report *r);
void callgrind_print(const struct gprof *g, struct report *r);
void pprof_print(const struct gprof *g, struct report *r);
/* folded_print.c, flame_print.c: the call stacks (GMON_STACKS=1). */
void folded_print(const struct gprof *g, struct report *r);
void flame_print(const struct gprof *g, struct report *r);

typedef void (*report_fn)(const struct gprof *g, struct report *r);
#define GPROF_MAX_REPORTS 8

/* The printers a run's options ask for, in the order GNU prints them
   (pipeline.c). */
size_t gprof_reports(const struct gprof *g, report_fn *v);

#endif
