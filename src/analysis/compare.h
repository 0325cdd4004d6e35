/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.h - two profiles of one program (or of two builds of it) side
 * by side, functions matched by name (compare.c computes every figure;
 * the printers print them, compare_run.c runs the whole of --compare).
 */
#ifndef ANALYSIS_COMPARE_H
#define ANALYSIS_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* One function in one of the two profiles. */
struct cmp_side {
	bool present;                /* the function exists in that build */
	double self, total;          /* seconds (total: self + children,
	                                0 without call-graph data) */
	double self_err;             /* expected error of self, seconds */
	uint64_t calls;
};

struct cmp_row {
	const char *name;            /* as the text reports show it */
	struct cmp_side old, new;
	double d_self, d_total;      /* new - old, seconds */
	double d_self_pct;           /* change against old self, percent;
	                                0 when old self is 0 */
	int64_t d_calls;
	double err;                  /* expected error of d_self: the two
	                                errors added in quadrature */
	bool significant;            /* |d_self| > 2 * err */
};

struct comparison {
	const struct gprof *old, *new;
	const char *old_image, *new_image;
	const char *old_profile, *new_profile;
	double old_total, new_total; /* seconds */
	double old_total_err, new_total_err;
	double d_total, d_total_pct;
	bool total_significant;
	struct cmp_row *rows;        /* significant first, then by |d_self|
	                                descending, then by name */
	size_t nrows;
	size_t nsignificant;
};

/* Matches the two sides' functions and computes every figure of c
   (c->old and c->new loaded and analysed). */
void compare_build(struct comparison *c);

#endif
