/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unit.h - what the files of tests/unit share: the PASS:/FAIL: reporter,
 * the suites that unit.c's main() runs, and (model.c) a small kit for
 * building a profile model by hand, without an executable or a gmon file.
 *
 * To add a suite: write tests/unit/NAME.c with one non-static function
 * `void unit_NAME(void)` that calls unit_check() once per test, declare it
 * below and call it from main() in unit.c.  The Makefile links every .c
 * file of tests/unit into tests/unit/run-unit by itself.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdbool.h>

#include "pipeline.h"
#include "print/print.h"

/* Prints "PASS: unit:NAME" or "FAIL: unit:NAME"; a failure makes
   run-unit exit with status 1. */
void unit_check(bool ok, const char *name);

/* Like unit_check(ok && ...), for a test made of several checks: prints
   what went wrong (to stdout, under the FAIL line's test) and returns ok. */
bool unit_expect(bool ok, const char *what);
/* |got - want| small enough to be the same sum in another order. */
bool unit_near(double got, double want, const char *what);

/* ---- suites ---- */
void unit_hist_assign(void);     /* hist_assign.c */
void unit_call_graph(void);      /* call_graph.c */
void unit_decoders(void);        /* decoders.c */
void unit_shlib_syms(void);      /* shlib_syms.c */
void unit_demangle(void);        /* demangle.c */
void unit_json_numbers(void);    /* json_numbers.c */

/* ---- model.c: a hand-made `struct gprof` ---- */

/* Clears *g as main() would before reading anything. */
void model_init(struct gprof *g);
/* Adds a function symbol; call model_syms_done() after the last one. */
void model_func(struct gprof *g, vma_t addr, const char *name);
/* Sorts the symbols and gives each its end (the next one's start, the
   last one's text_end), as the executable reader does. */
void model_syms_done(struct gprof *g, vma_t text_end);
/* The symbol called `name` (after model_syms_done; symbols move when they
   are sorted, so pointers are taken only then). */
struct sym *model_sym(struct gprof *g, const char *name);
/* A histogram record of nbins empty bins over [lowpc, highpc), as the
   profile reader makes one: its bins are 2-byte address units wide,
   (highpc - lowpc) / 2 / nbins of them (g->hist_scale). */
struct histogram *model_hist(struct gprof *g, vma_t lowpc, vma_t highpc,
                             size_t nbins);
/* `count` calls from `parent` to `child`, recorded as the arc reader
   records them: the arc's count and the child's ncalls both grow. */
void model_calls(struct gprof *g, struct sym *parent, struct sym *child,
                 uint64_t count);
/* Frees what the model and the analysis allocated. */
void model_free(struct gprof *g);

#endif
