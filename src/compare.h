/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.h - two profiles of one program (or of two builds of it) side
 * by side, functions matched by name (compare.c computes every figure;
 * compare_print.c, json_print.c and html_print.c print them).
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gprof.h"

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

/* --compare: loads both profiles, compares them and prints the result in
   the --output-format asked (text, json or html). */
int compare_run(struct gprof *g);

/* The printers. */
void compare_print_text(const struct comparison *c, FILE *out);
void compare_print_json(const struct comparison *c, FILE *out);
void compare_print_html(const struct comparison *c, FILE *out);

#endif
