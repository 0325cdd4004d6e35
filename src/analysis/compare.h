/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.h - two sides, old and new, of one program (or of two builds of
 * it), each one run or several, functions matched by name (compare.c
 * computes every figure; the printers print them, compare_run.c runs the
 * whole of --compare).
 */
#ifndef ANALYSIS_COMPARE_H
#define ANALYSIS_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* A change is significant when a change at least as large would come
   from the errors alone less than once in this many comparisons
   (two-sided). */
#define CMP_ALPHA 0.001

/* One side as given: an executable and its runs, each run a profile
   loaded and analysed alone (compare_run.c fills all but the figures). */
struct cmp_input {
	const char *image;
	const char **profiles;       /* one file per run */
	size_t nruns;
	const struct gprof **runs;   /* nruns contexts, one per profile */
	double samples;              /* all runs' samples */
	double total;                /* seconds a run, the runs' mean */
	double total_err;            /* standard error of total */
	double total_spread;         /* standard deviation of the runs'
	                                totals; NAN with one run */
};

/* One function on one side: figures per run, the mean of the side's runs
   (a run without the function counts 0 for it). */
struct cmp_side {
	bool present;                /* the function exists in that build */
	double self, total;          /* seconds (total: self + children,
	                                0 without call-graph data) */
	double self_err;             /* standard error of self: sampling and,
	                                with several runs, their spread */
	double self_spread;          /* standard deviation of self between
	                                the runs; NAN with one run */
	uint64_t calls;              /* a run (the mean, rounded) */
};

struct cmp_row {
	const char *name;            /* as the text reports show it */
	struct cmp_side old, new;
	double d_self, d_total;      /* new - old, seconds */
	double d_self_pct;           /* change against old self, percent;
	                                0 when old self is 0 */
	int64_t d_calls;
	double err;                  /* standard error of d_self: the two
	                                sides' added in quadrature */
	double dof;                  /* its degrees of freedom (Welch):
	                                INFINITY when no side has a spread */
	double p;                    /* two-sided p-value of d_self; NAN when
	                                err is 0 */
	bool significant;            /* p < CMP_ALPHA */
};

struct comparison {
	struct cmp_input old, new;
	double d_total, d_total_pct, d_total_err;
	double total_dof, total_p;   /* as a row's dof and p */
	bool total_significant;
	double alpha;                /* CMP_ALPHA, for the printers */
	bool run_variation;          /* both sides have several runs: the
	                                errors include the program's own
	                                run-to-run variation */
	const char *note;            /* otherwise what the errors leave out,
	                                one sentence or two; NULL when they
	                                leave out nothing */
	struct cmp_row *rows;        /* significant first, then by |d_self|
	                                descending, then by name */
	size_t nrows;
	size_t nsignificant;
};

/* Matches the sides' functions and computes every figure of c (each
   side's runs loaded and analysed). */
void compare_build(struct comparison *c);

#endif
